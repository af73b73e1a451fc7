//! AUCSVM \[BS05\] solved in the primal by truncated Newton, from sorted scores: the same
//! problem as the dual solver [`crate::solver::aucsvm_dual`], with memory $O(n_t^2)$ for the
//! training kernel plus $O(n_t)$, whatever the number of pairs.
//!
//! # The problem the dual solves, and its primal
//!
//! [`crate::solver::aucsvm_dual`] maximizes, over $\alpha \ge 0$ on every pair $m = (i, j)$ of a
//! positive $i$ and a negative $j$,
//! $$\mathbf 1^\top \alpha - \tfrac12 \alpha^\top (H + I / C_1)\, \alpha, \qquad
//! H_{m m'} = z_m^\top z_{m'},\ z_{ij} = \phi(x_i) - \phi(x_j).$$
//! There is no equality constraint: no bias (AUC ignores one) and the margin is fixed at
//! $\tau = 1$ (\[CVM eqs. 8-10\]), with the slacks squared and weighted $C_1 / 2$. That is the
//! Lagrange dual of
//! $$\min_{w, \xi}\ \tfrac12 \lVert w \rVert^2 + \tfrac{C_1}{2} \sum_{ij} \xi_{ij}^2
//! \quad\text{s.t.}\quad w^\top z_{ij} \ge 1 - \xi_{ij}:$$
//! with multipliers $\alpha_{ij} \ge 0$, stationarity gives $w = \sum \alpha_{ij} z_{ij}$ and
//! $C_1 \xi_{ij} = \alpha_{ij}$, and substituting leaves exactly the dual above (the constraint
//! $\xi \ge 0$ is not needed with squared slacks: a negative slack is never optimal). The
//! problem is a convex QP with strictly feasible points, so the optima coincide. Eliminating
//! $\xi_{ij} = \max(0, 1 - w^\top z_{ij})$, and writing $w = \sum_t \beta_t \phi(x_t)$ over the
//! $n_t$ training points (the dual's $w$ lies in their span), $f = K\beta$ and
//! $\lVert w \rVert^2 = \beta^\top K \beta$ with $K$ the training points' kernel:
//! $$J(\beta) = \tfrac12 \beta^\top K \beta + C_1 \ell(K\beta), \qquad
//! \ell(f) = \tfrac12 \sum_{i \in P,\, j \in N} \max(0, 1 - f_i + f_j)^2.$$
//! $J$ is convex and $f = K\beta$ at its minimum is unique ($\lVert w\rVert^2$ is strictly
//! convex); $\beta$ is unique up to the null space of $K$, which changes no score. At the
//! optimum $\alpha_{ij} = C_1 \max(0, 1 - f_i + f_j)$, and the dual's point weights
//! $\sum_j \alpha_{ij}$ (positive $i$), $-\sum_i \alpha_{ij}$ (negative $j$) equal
//! $-C_1 \nabla \ell(f)$: these are the weights returned, so a score is
//! $\sum_t w_t k(x_t, x)$ exactly as from the dual.
//!
//! # Truncated Newton with sorted scores
//!
//! With the active pairs $A = \{(i, j) : f_i - f_j < 1\}$ and $g = \nabla \ell(f)$,
//! $$g_i = -\sum_{j \in A(i)} (1 - f_i + f_j),\quad g_j = \sum_{i \in A(j)} (1 - f_i + f_j),
//! \qquad \nabla J = K (\beta + C_1 g),$$
//! and the (generalized) Hessian is $K + C_1 K D K$ with
//! $D = \sum_{(i,j) \in A} (e_i - e_j)(e_i - e_j)^\top$:
//! $(Dv)_i = |A(i)|\, v_i - \sum_{j \in A(i)} v_j$ and the same for negatives. With the
//! negatives sorted by $f_j + 1$ and the positives by $f_i$, $A(i)$ is a suffix and $A(j)$ a
//! prefix of those lists, so every such sum over pairs is a prefix-sum lookup: $O(n_t \log n_t)$
//! for the sort and $O(n_t)$ after, never $O(n_+ n_-)$ (Chapelle and Keerthi's observation for
//! ranking SVMs). The kernel products $Kv$ ($n_t^2$ `f32` values, `f64` sums, rows in parallel)
//! are the cost: a Newton step takes 3 of them and 1 per conjugate-gradient iteration on
//! $(K + C_1 K D K)\, d = -\nabla J$, stopped at a relative residual of
//! $\min(0.1, \sqrt{\lVert\nabla J\rVert / \lVert\nabla J_0\rVert})$ (truncated Newton).
//! The conjugate gradients are preconditioned by $K$ itself: every residual is $K\rho$ for a
//! known $\rho$ (at the start $\rho = -(\beta + C_1 g)$, then $\rho$ loses
//! $a\,(p + C_1 D K p)$ while the residual loses $a K(p + C_1 D K p)$), so the preconditioned
//! residual $K^{-1} r = \rho$ costs nothing, $Kp$ follows the recurrence of $p$, and the
//! preconditioned system $I + C_1 K^{1/2} D K^{1/2}$ has every eigenvalue at least 1 however
//! ill-conditioned the kernel (Chapelle's primal SVM uses the same change of metric). Without it
//! the tests' problems with $C_1 = 100$ or duplicate points did not reach a gradient of
//! $10^{-12}$ in 200 Newton steps. The
//! step length is found exactly: along $d$ with $u = Kd$ (one product after the conjugate
//! gradients), $\varphi(t) = J(\beta + t d)$ is a convex piecewise quadratic
//! with $\varphi'(t) = \beta^\top u + t\, d^\top u + C_1 g(f + tu)^\top u$ and
//! $\varphi''(t) = d^\top u + C_1 u^\top D(f + tu)\, u$, each a sort and prefix sums; safeguarded
//! Newton on $\varphi'$ finds its root. The iteration stops when
//! $\lVert \nabla J \rVert \le$ `tol` $\lVert \nabla J(0) \rVert$.
//!
//! Pairs count as active by one comparison, $f_i < f_j + 1$, from both sides, so $D$ is
//! symmetric and $g$ consistent with it.

use std::time::Instant;

use rayon::prelude::*;

use auc_surrogate::{PairHinge, exact_step};

use crate::problem::{Problem, Solution, SolveError};

/// Bytes [`aucsvm`] holds for `positives` x `negatives` pairs: the training points' kernel in
/// `f32` ($4 n_t^2$ for $n_t = n_+ + n_-$ points) and 20 vectors of $n_t$ values (scores,
/// weights, conjugate-gradient vectors, sort orders and prefix sums). Nothing per pair.
pub fn aucsvm_bytes(positives: usize, negatives: usize) -> u64 {
    let nt = (positives + negatives) as u64;
    4 * nt * nt + 20 * 8 * nt
}

/// The training points' kernel, positives first: `kt[a * nt + b]`.
struct Block {
    nt: usize,
    kt: Vec<f32>,
}

impl Block {
    /// `out = K v`, rows in parallel (each row's sum alone, so the result does not depend on the
    /// thread count).
    fn mul(&self, v: &[f64], out: &mut [f64]) {
        let nt = self.nt;
        out.par_chunks_mut(64).enumerate().for_each(|(c, o)| {
            for (r, x) in o.iter_mut().enumerate() {
                let a = c * 64 + r;
                *x = dot32(&self.kt[a * nt..(a + 1) * nt], v);
            }
        });
    }
}

/// $a^\top b$ for `f32` values and `f64` weights, over 8 lanes added in a fixed order.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn dot32(a: &[f32], b: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ar, br) = (ac.remainder(), bc.remainder());
    for (x, y) in ac.zip(bc) {
        for t in 0..8 {
            lanes[t] += f64::from(x[t]) * y[t];
        }
    }
    for (t, (&x, &y)) in ar.iter().zip(br).enumerate() {
        lanes[t] += f64::from(x) * y;
    }
    lanes.iter().sum()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Working vectors of [`aucsvm`], `nt` values each.
struct Work {
    g: Vec<f64>,
    tmp: Vec<f64>,
    s: Vec<f64>,
    dv: Vec<f64>,
}

/// $\varphi'(t)$ and $\varphi''(t)$ of the line search (module docs).
#[allow(clippy::too_many_arguments)]
fn slope(
    act: &mut PairHinge,
    wk: &mut Work,
    f: &[f64],
    u: &[f64],
    bu: f64,
    du: f64,
    c1: f64,
    t: f64,
) -> (f64, f64) {
    for ((s, &fv), &uv) in wk.s.iter_mut().zip(f).zip(u) {
        *s = fv + t * uv;
    }
    act.build(&wk.s);
    act.gradient(&wk.s, &mut wk.g, &mut wk.tmp);
    let gu = dot(&wk.g, u);
    act.hess(u, &mut wk.dv, &mut wk.tmp);
    let udu = dot(u, &wk.dv);
    (bu + t * du + c1 * gu, du + c1 * udu)
}

/// AUCSVM \[BS05\] with squared slacks and $\tau = 1$ (\[CVM eqs. 8-10\]) by truncated Newton
/// in the primal (module docs): the optimum of [`crate::solver::aucsvm_dual`], with memory
/// [`aucsvm_bytes`] (no per-pair storage). Stops when the gradient's norm is below `tol` times
/// its norm at $\beta = 0$, or after `max_newton` Newton steps (`converged` false).
///
/// The returned solution carries the point weights $w = -C_1 \nabla\ell(f)$ (`weights`, kernel
/// indices), no pair list; `core_size` is the number of support pairs ($\alpha_{ij} > 0$),
/// `iterations` the Newton steps and `q` $= \alpha^\top \tilde H \alpha = w^\top K w +
/// C_1 \sum_{ij} (1 - f_i + f_j)_+^2$.
///
/// # Errors
/// [`SolveError::SingleClass`] without pairs, [`SolveError::TooManyPairs`] above `limit` pairs,
/// [`SolveError::OutOfMemory`] when the training kernel cannot be had.
pub fn aucsvm(
    pb: &Problem<'_>,
    c1: f64,
    tol: f64,
    limit: usize,
    max_newton: usize,
) -> Result<Solution, SolveError> {
    pb.check()?;
    let start = Instant::now();
    let (np, nn) = (pb.pos.len(), pb.neg.len());
    let pairs = np * nn;
    if pairs > limit {
        return Err(SolveError::TooManyPairs { pairs, limit });
    }
    let nt = np + nn;
    let idx: Vec<usize> = pb.pos.iter().chain(pb.neg).copied().collect();
    let mut kt = crate::fusion::try_zeroed(nt * nt).ok_or(SolveError::OutOfMemory {
        bytes: aucsvm_bytes(np, nn),
    })?;
    kt.par_chunks_mut(nt)
        .enumerate()
        .for_each(|(a, row)| pb.gram.gather_row(idx[a], &idx, row));
    let k = Block { nt, kt };
    let mut act = PairHinge::new(np, nn);
    let mut wk = Work {
        g: vec![0.0; nt],
        tmp: vec![0.0; nt],
        s: vec![0.0; nt],
        dv: vec![0.0; nt],
    };
    let mut beta = vec![0.0; nt];
    let mut f = vec![0.0; nt];
    let mut r = vec![0.0; nt];
    let mut grad = vec![0.0; nt];
    let (mut d, mut kd, mut res, mut rho, mut p, mut kp, mut hp) = (
        vec![0.0; nt],
        vec![0.0; nt],
        vec![0.0; nt],
        vec![0.0; nt],
        vec![0.0; nt],
        vec![0.0; nt],
        vec![0.0; nt],
    );
    let mut gn0 = 0.0;
    let mut converged = false;
    let mut steps = 0;
    loop {
        k.mul(&beta, &mut f);
        act.build(&f);
        act.gradient(&f, &mut wk.g, &mut wk.tmp);
        for ((x, &b), &g) in r.iter_mut().zip(&beta).zip(&wk.g) {
            *x = b + c1 * g;
        }
        k.mul(&r, &mut grad);
        let gn = dot(&grad, &grad).sqrt();
        if steps == 0 {
            gn0 = gn.max(f64::MIN_POSITIVE);
        }
        if gn <= tol * gn0 {
            converged = true;
            break;
        }
        if steps == max_newton {
            break;
        }
        steps += 1;
        // Conjugate gradients on (K + C1 K D K) d = -grad, the active set of f, preconditioned
        // by K (module docs): `rho` = K^{-1} res and `kp` = K p are carried along, so one
        // kernel product per iteration.
        let eta = (gn / gn0).sqrt().min(0.1);
        d.fill(0.0);
        for ((x, y), (&gv, &rv)) in res.iter_mut().zip(rho.iter_mut()).zip(grad.iter().zip(&r)) {
            *x = -gv;
            *y = -rv;
        }
        p.copy_from_slice(&rho);
        kp.copy_from_slice(&res);
        let mut rz = dot(&res, &rho);
        for _ in 0..nt.max(10) {
            if rz <= 0.0 || !rz.is_finite() {
                break;
            }
            act.hess(&kp, &mut wk.dv, &mut wk.tmp);
            for ((x, &pv), &dv) in wk.s.iter_mut().zip(&p).zip(&wk.dv) {
                *x = pv + c1 * dv;
            }
            k.mul(&wk.s, &mut hp);
            let php = dot(&kp, &wk.s);
            if php <= 0.0 || !php.is_finite() {
                break;
            }
            let a = rz / php;
            for t in 0..nt {
                d[t] += a * p[t];
                rho[t] -= a * wk.s[t];
                res[t] -= a * hp[t];
            }
            if dot(&res, &res).sqrt() <= eta * gn {
                break;
            }
            let rz_new = dot(&res, &rho);
            let b = rz_new / rz;
            for t in 0..nt {
                p[t] = rho[t] + b * p[t];
                kp[t] = res[t] + b * kp[t];
            }
            rz = rz_new;
        }
        // u = K d afresh (the carried K p drift by rounding).
        k.mul(&d, &mut kd);
        // Exact line search on the piecewise quadratic J(beta + t d).
        let (bu, du) = (dot(&beta, &kd), dot(&d, &kd));
        if du <= 0.0 || !du.is_finite() {
            break;
        }
        let (d0, _) = slope(&mut act, &mut wk, &f, &kd, bu, du, c1, 0.0);
        if d0 >= 0.0 {
            // No descent left at this precision.
            converged = gn <= 1e3 * tol * gn0;
            break;
        }
        let t = exact_step(d0, |t| slope(&mut act, &mut wk, &f, &kd, bu, du, c1, t));
        for (b, &dv) in beta.iter_mut().zip(&d) {
            *b += t * dv;
        }
    }
    // The dual's point weights at f: w = -C1 g.
    act.build(&f);
    act.gradient(&f, &mut wk.g, &mut wk.tmp);
    let w: Vec<f64> = wk.g.iter().map(|g| -c1 * g).collect();
    let support = act.pairs();
    k.mul(&w, &mut wk.s);
    // Sum of (1 - f_i + f_j)^2 over the active pairs, by positive: from partner sums.
    let sq = {
        let (mut s1, mut s2, mut s3) = (vec![0.0; nt], vec![0.0; nt], vec![0.0; nt]);
        act.squared_sum(&f, &mut s1, &mut s2, &mut s3)
    };
    let q = dot(&w, &wk.s) + c1 * sq;
    let weights = idx
        .iter()
        .copied()
        .zip(w)
        .filter(|(_, x)| *x != 0.0)
        .collect();
    Ok(Solution {
        pairs: Vec::new(),
        beta: Vec::new(),
        q,
        varsigma: 0.0,
        core_size: support,
        iterations: steps,
        converged,
        seconds: start.elapsed().as_secs_f64(),
        weights,
    })
}
