//! `oauc-m-batch` without a $p \times p$ matrix: $F_M(w) = \frac\lambda2\lVert w\rVert^2 +
//! \psi_M(w^\top\Delta, w^\top S w)$ (`docs/math/batch-moments.md`, eq. 5) minimized by an
//! inexact Newton method whose steps are solved by conjugate gradients on Hessian-vector
//! products, each one [`PairOperator::s_apply`].
//!
//! With $b = 1 - w^\top\Delta$, $r = \sqrt{b^2 + w^\top S w}$ and $g = S w$, the Hessian of
//! eq. 7 applied to $v$ is
//! $$H v = \lambda v + \frac{s_2\, \Delta(\Delta^\top v) + b\,[\Delta (g^\top v) +
//! g (\Delta^\top v)] - g (g^\top v)}{2 r^3} + \frac{S v}{2 r}, \qquad s_2 = w^\top S w,$$
//! at least $\lambda I$ for a positive semi-definite $S$. Each Newton step runs conjugate
//! gradients on $H s = \nabla F_M$, preconditioned by $\operatorname{diag} H$ (from the
//! operator's exact diagonal of $S$: on features of very different scales, hashed crosses for
//! one, plain conjugate gradients need thousands of products a step), to a relative residual of
//! $\min(0.1, \lVert\nabla F_M\rVert)$ (superlinear once the gradient is small), then the
//! same Armijo backtracking as the dense solver. It starts from $w = 0$ ($r = 1$, smooth) and
//! does not look for a minimizer on the kink of $\psi_M$ (it would need the null space of $S$):
//! such a fit reports its certificate as not converged, and `solver = cholesky` finds it.

use auc_core::{FitError, check};
use auc_surrogate::psi_m;

use crate::batch_moments::{CERTIFICATE_TOLERANCE, Solution, accepts_step, dot, not_definite};
use crate::pair_operator::PairOperator;

/// Inner conjugate-gradient iterations per Newton step at most.
const INNER_STEPS: u32 = 2_000;

/// $F_M$ at `w` with its gradient into `grad` and $S w$ into `sw`; returns $(F_M, b, r)$.
fn psi_objective<O: PairOperator>(
    op: &mut O,
    lambda: f64,
    w: &[f64],
    sw: &mut [f64],
    grad: &mut [f64],
) -> (f64, f64, f64) {
    op.s_apply(w, sw);
    let mu = dot(w, op.delta());
    let s2 = dot(w, sw).max(0.0);
    let psi = psi_m(mu, s2);
    for (((g, &wj), &dj), &sj) in grad.iter_mut().zip(w).zip(op.delta()).zip(sw.iter()) {
        *g = lambda * wj + psi.d_mu * dj + 2.0 * psi.d_s2 * sj;
    }
    let b = 1.0 - mu;
    (0.5 * lambda * dot(w, w) + psi.value, b, b.hypot(s2.sqrt()))
}

/// The Hessian at one point: what [`hess_apply`] needs besides the operator.
struct Curvature<'a> {
    lambda: f64,
    b: f64,
    r: f64,
    s2: f64,
    sw: &'a [f64],
}

/// `out` $= H v$ (module docs).
fn hess_apply<O: PairOperator>(op: &mut O, c: &Curvature<'_>, v: &[f64], out: &mut [f64]) {
    op.s_apply(v, out);
    if c.r == 0.0 {
        for (o, &vj) in out.iter_mut().zip(v) {
            *o = c.lambda * vj;
        }
        return;
    }
    let (dv, gv) = (dot(op.delta(), v), dot(c.sw, v));
    let r3 = 2.0 * c.r * c.r * c.r;
    let half_r = 0.5 / c.r;
    for (((o, &vj), &dj), &gj) in out.iter_mut().zip(v).zip(op.delta()).zip(c.sw) {
        *o = c.lambda * vj
            + *o * half_r
            + (c.s2 * dj * dv + c.b * (dj * gv + gj * dv) - gj * gv) / r3;
    }
}

/// The reciprocal of $\operatorname{diag} H$ (module docs) from `s_diag` $=
/// \operatorname{diag} S$: $H_{jj} = \lambda + S_{jj}/(2r) + (s_2\Delta_j^2 + 2b\,\Delta_j
/// g_j - g_j^2)/(2r^3)$, floored at $\lambda$ (a positive definite $H$ has $H_{jj} \ge
/// \lambda$; the floor only guards rounding).
fn inverse_diagonal(c: &Curvature<'_>, s_diag: &[f64], delta: &[f64]) -> Vec<f64> {
    let (half_r, r3) = (0.5 / c.r, 2.0 * c.r * c.r * c.r);
    s_diag
        .iter()
        .zip(delta)
        .zip(c.sw)
        .map(|((&sjj, &dj), &gj)| {
            let h = if c.r == 0.0 {
                c.lambda
            } else {
                c.lambda
                    + sjj.max(0.0) * half_r
                    + (c.s2 * dj * dj + 2.0 * c.b * dj * gj - gj * gj) / r3
            };
            1.0 / h.max(c.lambda)
        })
        .collect()
}

/// Solves $H s = g$ by conjugate gradients preconditioned by `inv_diag` $\approx
/// (\operatorname{diag} H)^{-1}$, from $s = 0$ to a residual of `tol` $\lVert g\rVert$;
/// `None` on a direction of non-positive curvature.
fn newton_direction<O: PairOperator>(
    op: &mut O,
    c: &Curvature<'_>,
    inv_diag: &[f64],
    g: &[f64],
    tol: f64,
) -> Option<Vec<f64>> {
    let p = g.len();
    let mut s = vec![0.0; p];
    let mut r = g.to_vec();
    let mut z: Vec<f64> = r.iter().zip(inv_diag).map(|(a, m)| a * m).collect();
    let mut d = z.clone();
    let mut hd = vec![0.0; p];
    let mut rz = dot(&r, &z);
    let stop = tol * tol * dot(&r, &r);
    for _ in 0..INNER_STEPS {
        if dot(&r, &r) <= stop || rz == 0.0 {
            break;
        }
        hess_apply(op, c, &d, &mut hd);
        let curvature = dot(&d, &hd);
        if curvature.is_nan() || curvature <= 0.0 {
            return None;
        }
        let alpha = rz / curvature;
        for ((sj, &dj), (rj, &hj)) in s.iter_mut().zip(&d).zip(r.iter_mut().zip(&hd)) {
            *sj += alpha * dj;
            *rj -= alpha * hj;
        }
        for ((zj, &rj), &mj) in z.iter_mut().zip(&r).zip(inv_diag) {
            *zj = rj * mj;
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for (dj, &zj) in d.iter_mut().zip(&z) {
            *dj = zj + beta * *dj;
        }
    }
    s.iter().all(|v| v.is_finite()).then_some(s)
}

/// Minimizes $F_M$ by Newton-CG (module docs) with at most `max_steps` Newton steps, stopping
/// when $\lVert\nabla F_M\rVert/\lambda \le 10^{-2} \cdot$ [`CERTIFICATE_TOLERANCE`]
/// $\cdot \max(1, \lVert w\rVert)$ or a step makes no progress.
///
/// # Errors
/// A bad `lambda`, `max_steps` of 0, or negative curvature (an operator that is not positive
/// semi-definite: a sketch whose error exceeds $\lambda$).
pub fn solve_psi_m_cg<O: PairOperator>(
    lambda: f64,
    op: &mut O,
    max_steps: u32,
) -> Result<Solution, FitError> {
    check::positive("lambda", lambda)?;
    let p = op.dim();
    let mut w = vec![0.0; p];
    let (mut sw, mut grad) = (vec![0.0; p], vec![0.0; p]);
    let (mut tsw, mut tgrad, mut trial) = (vec![0.0; p], vec![0.0; p], vec![0.0; p]);
    let (mut f, mut b, mut r) = psi_objective(op, lambda, &w, &mut sw, &mut grad);
    let s_diag = op.s_diag();
    let mut steps = 0;
    while steps < max_steps {
        let gnorm = dot(&grad, &grad).sqrt();
        // A hundredth of what the certificate needs, as `solve_square_cg`: the dense solver's
        // 1e-14 is the rounding floor, and here each step beyond the certificate costs
        // hundreds of operator products that change nothing (100 steps on crossed a9a).
        if gnorm / lambda <= 1e-2 * CERTIFICATE_TOLERANCE * dot(&w, &w).sqrt().max(1.0) {
            break;
        }
        let c = Curvature {
            lambda,
            b,
            r,
            s2: dot(&w, &sw).max(0.0),
            sw: &sw,
        };
        let inv_diag = inverse_diagonal(&c, &s_diag, op.delta());
        let step = newton_direction(op, &c, &inv_diag, &grad, gnorm.min(0.1))
            .ok_or_else(|| not_definite(lambda))?;
        let slope = dot(&grad, &step);
        if slope.is_nan() || slope <= 0.0 {
            break;
        }
        let mut a = 1.0;
        let mut accepted = false;
        for _ in 0..60 {
            for ((t, &wj), &sj) in trial.iter_mut().zip(&w).zip(&step) {
                *t = wj - a * sj;
            }
            let (ft, bt, rt) = psi_objective(op, lambda, &trial, &mut tsw, &mut tgrad);
            if accepts_step(f, ft, a * slope, gnorm, dot(&tgrad, &tgrad).sqrt(), r) {
                std::mem::swap(&mut w, &mut trial);
                std::mem::swap(&mut sw, &mut tsw);
                std::mem::swap(&mut grad, &mut tgrad);
                (f, b, r) = (ft, bt, rt);
                accepted = true;
                break;
            }
            a *= 0.5;
        }
        steps += 1;
        if !accepted {
            break;
        }
    }
    Ok(Solution {
        grad_norm: dot(&grad, &grad).sqrt(),
        w,
        objective: f,
        steps,
    })
}
