//! The solver of the one-way partial-AUC learner ([`crate::PaucSvmParams`],
//! `docs/math/pauc-learner.md`): a certified primal-dual method on
//! $$J(w) = \tfrac\lambda2 \lVert w\rVert^2 + c \max_{T \subseteq N,\ |T| = k}
//!   \sum_{j \in T} h_j(w), \qquad
//!   h_j(w) = \tfrac12 \sum_{i \in P} \max(0, 1 - w^\top x_i + w^\top x_j)^2,$$
//! $c = 1 / (n_+ k)$, $k = \lceil \beta n_- \rceil$: the squared pairwise hinge over every
//! positive and the $k$ negatives it costs most, which (as $h_j$ grows with $w^\top x_j$) are the
//! $k$ highest-scored negatives, those in the false-positive range $[0, \beta]$ [NA13; SOPA22].
//!
//! # Why it is convex, and its dual
//!
//! The maximum over $k$-subsets equals the maximum of $\sum_j \omega_j h_j$ over the capped
//! simplex $\Omega = \{\omega \in [0, 1]^{n_-} : \sum_j \omega_j = k\}$ (a linear function
//! takes its maximum at a vertex, and the vertices of $\Omega$ are the $k$-subsets), so with
//! $G(w, \omega) = \frac\lambda2\lVert w\rVert^2 + c \sum_j \omega_j h_j(w)$,
//! $J(w) = \max_{\omega \in \Omega} G(w, \omega)$: a maximum of convex functions, convex and
//! $\lambda$-strongly convex. $G$ is convex in $w$ and linear in $\omega$ over compact convex
//! sets, so (Sion) $\min_w J = \max_\omega D(\omega)$ with $D(\omega) = \min_w G(w, \omega)$,
//! concave, and differentiable with $\partial D / \partial \omega_j = c\, h_j(w(\omega))$ since
//! the inner minimizer $w(\omega)$ is unique.
//!
//! # The method
//!
//! From $\omega_0 = (k / n_-) \mathbf 1$ (where $G$ is the whole-data AUC objective) it
//! alternates two kinds of step, each decided by which half of the gap is larger:
//! - a **truncated Newton step** on $G(\cdot, \omega)$ from the current $w$ (the inner problem:
//!   a weighted AUCSVM-type squared hinge, $\nabla_w G = \lambda w + c X^\top g$ and
//!   $\nabla^2_w G = \lambda I + c X^\top D X$ with $g$, $D$ from sorted scores,
//!   [`auc_surrogate::PairHinge`], conjugate gradients and an exact line search on the convex
//!   piecewise quadratic), when $\lVert\nabla_w G\rVert^2 / (2\lambda)$ exceeds the
//!   Frank-Wolfe gap;
//! - else a **Frank-Wolfe step** on $D$: the linear oracle's vertex $v$ is the top-$k$ set of
//!   $h(w)$, and along $\Delta = v - \omega$ the dual has slope the Frank-Wolfe gap and
//!   curvature $-b^\top H^{-1} b$, with $b = c X^\top \nabla_s(\Delta^\top h)$ and $H$ the
//!   Hessian above (implicit differentiation of $w(\omega)$); the step is
//!   $\gamma = \min(1, \text{gap} / b^\top H^{-1} b)$, one conjugate-gradient solve, and $w$
//!   moves along its predicted path, $w \leftarrow w - \gamma H^{-1} b$.
//!
//! Every evaluation gives both sides of the gap: the **primal** $J(w) = \frac\lambda2\lVert w
//! \rVert^2 + c \sum_{\mathrm{top}\ k} h_j(w)$, exact (per-negative losses from prefix sums), and
//! a **certified lower bound** $G(w, \omega) - \lVert\nabla_w G(w, \omega)\rVert^2 / (2\lambda)
//! \le D(\omega) \le \min J$ ($G(\cdot, \omega)$ is $\lambda$-strongly convex). Their difference
//! splits as the Frank-Wolfe gap $J(w) - G(w, \omega)$ plus the inner error
//! $\lVert\nabla_w G\rVert^2 / (2\lambda)$. The best $w$ seen (least $J$) is returned with the
//! best bound: $J(w) - \min J \le$ `gap` and, by strong convexity,
//! $\lVert w - w^\star\rVert \le \sqrt{2\,\mathrm{gap} / \lambda}$, whatever the step rule or the
//! inexactness of the inner solves.
//!
//! Cost: a pass over the rows is $X v$ or $X^\top u$ (one GEMV when dense); an evaluation takes
//! one, a Newton step two per conjugate-gradient iteration plus two, a Frank-Wolfe step two per
//! conjugate-gradient iteration plus two; sorting the scores is $O(n \log n)$. Memory: about 20 vectors of $n$
//! values and 8 of $p$, nothing per pair.

use auc_core::{Dataset, FitError, Label, Storage};
use auc_surrogate::{PairHinge, exact_step};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

use crate::batch_moments::dot;

/// Bytes the solver holds beyond the data, for $n$ rows of $p$ features: 24 vectors of $n$ values
/// (scores, losses, weights, conjugate-gradient vectors, sort orders, prefix sums) and 10 of $p$.
pub fn pauc_fit_bytes(n: usize, p: usize) -> u64 {
    8u64.saturating_mul(
        (n as u64)
            .saturating_mul(24)
            .saturating_add((p as u64).saturating_mul(10)),
    )
}

/// What the solver returns.
#[derive(Clone, Debug, PartialEq)]
pub struct PaucSolution {
    /// The best weights seen (least objective).
    pub w: Vec<f64>,
    /// $J(w)$, exact.
    pub objective: f64,
    /// The best certified lower bound on $\min J$.
    pub lower: f64,
    /// Newton steps taken.
    pub newton_steps: u32,
    /// Frank-Wolfe steps taken.
    pub weight_steps: u32,
    /// $k$: the negatives in the top of each evaluation.
    pub k: u64,
    /// $n_+$.
    pub positives: u64,
    /// $n_-$.
    pub negatives: u64,
}

impl PaucSolution {
    /// $J(w) - \min J \le$ this, never negative.
    pub fn gap(&self) -> f64 {
        (self.objective - self.lower).max(0.0)
    }
}

/// The settings of one solve, checked by [`crate::PaucSvmParams`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaucSettings {
    /// $\lambda > 0$.
    pub lambda: f64,
    /// $\beta \in (0, 1]$.
    pub beta: f64,
    /// Stop when the gap is at most `tol` times the objective.
    pub tol: f64,
    /// The most steps, Newton and Frank-Wolfe together.
    pub max_steps: u32,
}

/// $k = \lceil \beta n_- \rceil$, at least 1 and at most $n_-$.
pub fn top_count(beta: f64, negatives: usize) -> usize {
    ((beta * negatives as f64).ceil() as usize).clamp(1, negatives.max(1))
}

/// The rows in slot order (positives first), and products with them.
struct Rows<'a> {
    data: &'a Dataset,
    /// Slot to row.
    order: Vec<usize>,
    /// `n` values in row order.
    buf: Vec<f64>,
}

impl Rows<'_> {
    /// `out[t]` $= x_{\mathrm{order}[t]}^\top v$.
    fn scores(&mut self, v: &[f64], out: &mut [f64]) {
        let n = self.order.len();
        let p = self.data.dim();
        match self.data.storage() {
            Storage::Dense { values } if p > 0 => {
                let x = MatRef::from_row_major_slice(values, n, p);
                let rhs = MatRef::from_column_major_slice(v, p, 1);
                let dst = MatMut::from_column_major_slice_mut(&mut self.buf, n, 1);
                matmul(dst, Accum::Replace, x, rhs, 1.0, Par::Seq);
                for (o, &r) in out.iter_mut().zip(&self.order) {
                    *o = self.buf[r];
                }
            }
            _ => {
                for (o, &r) in out.iter_mut().zip(&self.order) {
                    *o = self.data.row(r).dot(v);
                }
            }
        }
    }

    /// `out` $= \sum_t u_t\, x_{\mathrm{order}[t]}$.
    fn transpose(&mut self, u: &[f64], out: &mut [f64]) {
        let n = self.order.len();
        let p = self.data.dim();
        match self.data.storage() {
            Storage::Dense { values } if p > 0 => {
                for (&r, &x) in self.order.iter().zip(u) {
                    self.buf[r] = x;
                }
                let x = MatRef::from_row_major_slice(values, n, p);
                let rhs = MatRef::from_column_major_slice(&self.buf, n, 1);
                let dst = MatMut::from_column_major_slice_mut(out, p, 1);
                matmul(dst, Accum::Replace, x.transpose(), rhs, 1.0, Par::Seq);
            }
            _ => {
                out.fill(0.0);
                for (&r, &x) in self.order.iter().zip(u) {
                    if x != 0.0 {
                        self.data.row(r).axpy(x, out);
                    }
                }
            }
        }
    }
}

/// Working vectors of $n$ values (slot order).
struct SlotWork {
    s: Vec<f64>,
    g: Vec<f64>,
    tmp: Vec<f64>,
    u: Vec<f64>,
    du: Vec<f64>,
    trial: Vec<f64>,
}

/// Working vectors of $p$ values.
struct FeatureWork {
    grad: Vec<f64>,
    /// A right-hand side.
    b: Vec<f64>,
    d: Vec<f64>,
    r: Vec<f64>,
    dir: Vec<f64>,
    q: Vec<f64>,
}

/// Conjugate gradients on $(\lambda I + c X^\top D X)\, x = $ `fw.b` (the pairs built on the
/// current scores with the current weights), to a relative residual `eta`: the solution in
/// `fw.d`.
fn solve_hessian(
    rows: &mut Rows<'_>,
    hinge: &mut PairHinge,
    sw: &mut SlotWork,
    fw: &mut FeatureWork,
    lambda: f64,
    c: f64,
    eta: f64,
) {
    let p = fw.b.len();
    let norm = dot(&fw.b, &fw.b).sqrt();
    fw.d.fill(0.0);
    fw.r.copy_from_slice(&fw.b);
    fw.dir.copy_from_slice(&fw.b);
    let mut rr = dot(&fw.r, &fw.r);
    for _ in 0..p.clamp(1, 200) {
        rows.scores(&fw.dir, &mut sw.u);
        hinge.hess(&sw.u, &mut sw.du, &mut sw.tmp);
        for x in sw.du.iter_mut() {
            *x *= c;
        }
        rows.transpose(&sw.du, &mut fw.q);
        for (q, &dv) in fw.q.iter_mut().zip(&fw.dir) {
            *q += lambda * dv;
        }
        let pq = dot(&fw.dir, &fw.q);
        if pq <= 0.0 || !pq.is_finite() {
            break;
        }
        let a = rr / pq;
        for t in 0..p {
            fw.d[t] += a * fw.dir[t];
            fw.r[t] -= a * fw.q[t];
        }
        let rr_new = dot(&fw.r, &fw.r);
        if rr_new.sqrt() <= eta * norm {
            break;
        }
        let b = rr_new / rr;
        for t in 0..p {
            fw.dir[t] = fw.r[t] + b * fw.dir[t];
        }
        rr = rr_new;
    }
}

/// One truncated Newton step on $G(\cdot, \omega)$ from `w` (module docs), the pairs built on
/// the scores `sw.s` of `w` and `fw.grad` its gradient; returns whether it descended.
#[allow(clippy::too_many_arguments)]
fn newton_step(
    rows: &mut Rows<'_>,
    hinge: &mut PairHinge,
    sw: &mut SlotWork,
    fw: &mut FeatureWork,
    w: &mut [f64],
    lambda: f64,
    c: f64,
    eta: f64,
) -> bool {
    for (b, &g) in fw.b.iter_mut().zip(&fw.grad) {
        *b = -g;
    }
    solve_hessian(rows, hinge, sw, fw, lambda, c, eta);
    // Exact line search on phi(t) = G(w + t d, omega), a convex piecewise quadratic:
    // phi'(t) = lambda (w'd + t d'd) + c g(s + t u)'u, phi''(t) = lambda d'd + c u'D(s + t u)u.
    rows.scores(&fw.d, &mut sw.u);
    let (wd, dd) = (dot(w, &fw.d), dot(&fw.d, &fw.d));
    if dd <= 0.0 || !dd.is_finite() {
        return false;
    }
    let mut slope = |t: f64, sw: &mut SlotWork| {
        for ((x, &s), &u) in sw.trial.iter_mut().zip(&sw.s).zip(&sw.u) {
            *x = s + t * u;
        }
        hinge.build(&sw.trial);
        hinge.gradient(&sw.trial, &mut sw.g, &mut sw.tmp);
        let gu = dot(&sw.g, &sw.u);
        hinge.hess(&sw.u, &mut sw.du, &mut sw.tmp);
        let udu = dot(&sw.u, &sw.du);
        (lambda * (wd + t * dd) + c * gu, lambda * dd + c * udu)
    };
    let (d0, _) = slope(0.0, sw);
    if d0 >= 0.0 || !d0.is_finite() {
        return false;
    }
    let t = exact_step(d0, |t| slope(t, sw));
    for (x, &dv) in w.iter_mut().zip(&fw.d) {
        *x += t * dv;
    }
    true
}

/// Minimizes $J$ (module docs) on `data`, positives and negatives by label.
///
/// # Errors
/// [`FitError::Empty`], [`FitError::SingleClass`], or [`FitError::NotFinite`] when the data's
/// scale overflows the objective.
pub fn solve_pauc(data: &Dataset, set: PaucSettings) -> Result<PaucSolution, FitError> {
    if data.is_empty() {
        return Err(FitError::Empty);
    }
    let mut order: Vec<usize> = (0..data.n())
        .filter(|&i| data.label(i) == Label::Pos)
        .collect();
    let np = order.len();
    order.extend((0..data.n()).filter(|&i| data.label(i) == Label::Neg));
    let n = order.len();
    let nn = n - np;
    if np == 0 || nn == 0 {
        return Err(FitError::SingleClass);
    }
    let p = data.dim();
    let k = top_count(set.beta, nn);
    let c = 1.0 / (np as f64 * k as f64);
    let lambda = set.lambda;
    let mut rows = Rows {
        data,
        order,
        buf: vec![0.0; n],
    };
    let mut hinge = PairHinge::new(np, nn);
    let mut sw = SlotWork {
        s: vec![0.0; n],
        g: vec![0.0; n],
        tmp: vec![0.0; n],
        u: vec![0.0; n],
        du: vec![0.0; n],
        trial: vec![0.0; n],
    };
    let mut fw = FeatureWork {
        grad: vec![0.0; p],
        b: vec![0.0; p],
        d: vec![0.0; p],
        r: vec![0.0; p],
        dir: vec![0.0; p],
        q: vec![0.0; p],
    };
    let mut omega = vec![k as f64 / nn as f64; nn];
    let mut h = vec![0.0; nn];
    let mut delta = vec![0.0; nn];
    let mut top: Vec<u32> = (0..nn as u32).collect();
    let mut w = vec![0.0; p];
    let mut best = PaucSolution {
        w: w.clone(),
        objective: f64::INFINITY,
        lower: f64::NEG_INFINITY,
        newton_steps: 0,
        weight_steps: 0,
        k: k as u64,
        positives: np as u64,
        negatives: nn as u64,
    };
    let (mut newton, mut weight) = (0u32, 0u32);
    let mut gn_first = 0.0;
    let mut stalled = false;
    loop {
        // Evaluate at (w, omega): J(w), G(w, omega), its gradient, the bound.
        hinge.set_weights(&omega);
        hinge.build(&sw.s);
        hinge.negative_losses(&sw.s, &mut h);
        top.select_nth_unstable_by(k - 1, |&a, &b| h[b as usize].total_cmp(&h[a as usize]));
        let reg = 0.5 * lambda * dot(&w, &w);
        let primal = reg + c * top[..k].iter().map(|&j| h[j as usize]).sum::<f64>();
        let weighted = reg + c * dot(&omega, &h);
        hinge.gradient(&sw.s, &mut sw.g, &mut sw.tmp);
        for x in sw.g.iter_mut() {
            *x *= c;
        }
        rows.transpose(&sw.g, &mut fw.grad);
        for (g, &x) in fw.grad.iter_mut().zip(&w) {
            *g += lambda * x;
        }
        let gn2 = dot(&fw.grad, &fw.grad);
        let inner = gn2 / (2.0 * lambda);
        if !(primal.is_finite() && inner.is_finite()) {
            return Err(FitError::NotFinite {
                what: "partial-AUC objective",
            });
        }
        if primal < best.objective {
            best.objective = primal;
            best.w.copy_from_slice(&w);
        }
        best.lower = best.lower.max(weighted - inner);
        let gap = best.objective - best.lower;
        let fw_gap = primal - weighted;
        if gap <= set.tol * best.objective.max(f64::MIN_POSITIVE)
            || newton + weight >= set.max_steps
            || (stalled && fw_gap <= 0.0)
        {
            break;
        }
        if inner > fw_gap && !stalled {
            let gn = gn2.sqrt();
            if newton == 0 {
                gn_first = gn.max(f64::MIN_POSITIVE);
            }
            let eta = (gn / gn_first).sqrt().min(0.1);
            if newton_step(
                &mut rows, &mut hinge, &mut sw, &mut fw, &mut w, lambda, c, eta,
            ) {
                newton += 1;
                rows.scores(&w, &mut sw.s);
            } else {
                // No descent left at this precision: only the weights can still move.
                stalled = true;
            }
        } else {
            // Frank-Wolfe direction delta = v - omega, and b = c X' grad_s(delta' h): the
            // change of grad_w G per unit step. Along the direction, D has slope fw_gap and
            // curvature -b' H^-1 b (module docs), so the step is their ratio, capped at 1, and
            // w follows its predicted path w - gamma H^-1 b.
            for (d, &o) in delta.iter_mut().zip(&omega) {
                *d = -o;
            }
            for &j in &top[..k] {
                delta[j as usize] += 1.0;
            }
            // The pairs are those of the current scores: only the weights change.
            hinge.set_weights(&delta);
            hinge.gradient(&sw.s, &mut sw.g, &mut sw.tmp);
            for x in sw.g.iter_mut() {
                *x *= c;
            }
            rows.transpose(&sw.g, &mut fw.b);
            hinge.set_weights(&omega);
            solve_hessian(&mut rows, &mut hinge, &mut sw, &mut fw, lambda, c, 0.1);
            let curvature = dot(&fw.b, &fw.d);
            let gamma = if curvature > 0.0 && curvature.is_finite() {
                (fw_gap / curvature).min(1.0)
            } else {
                1.0
            };
            for (o, &d) in omega.iter_mut().zip(&delta) {
                *o = (*o + gamma * d).clamp(0.0, 1.0);
            }
            for (x, &d) in w.iter_mut().zip(&fw.d) {
                *x -= gamma * d;
            }
            rows.scores(&w, &mut sw.s);
            weight += 1;
            stalled = false;
        }
    }
    best.newton_steps = newton;
    best.weight_steps = weight;
    Ok(best)
}
