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
//! gradients on $H s = \nabla F_M$ to a relative residual of $\min(0.1, \lVert\nabla
//! F_M\rVert)$ (superlinear once the gradient is small), then the same Armijo backtracking as
//! the dense solver. It starts from $w = 0$ ($r = 1$, smooth) and does not look for a minimizer
//! on the kink of $\psi_M$ (it would need the null space of $S$): such a fit reports its
//! certificate as not converged, and `solver = cholesky` finds it.

use auc_core::{FitError, check};
use auc_surrogate::psi_m;

use crate::batch_moments::{Solution, accepts_step, dot, not_definite};
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

/// Solves $H s = g$ by conjugate gradients from $s = 0$ to a residual of `tol`
/// $\lVert g\rVert$; `None` on a direction of non-positive curvature.
fn newton_direction<O: PairOperator>(
    op: &mut O,
    c: &Curvature<'_>,
    g: &[f64],
    tol: f64,
) -> Option<Vec<f64>> {
    let p = g.len();
    let mut s = vec![0.0; p];
    let mut r = g.to_vec();
    let mut d = r.clone();
    let mut hd = vec![0.0; p];
    let mut rr = dot(&r, &r);
    let stop = tol * tol * rr;
    for _ in 0..INNER_STEPS {
        if rr <= stop || rr == 0.0 {
            break;
        }
        hess_apply(op, c, &d, &mut hd);
        let curvature = dot(&d, &hd);
        if curvature.is_nan() || curvature <= 0.0 {
            return None;
        }
        let alpha = rr / curvature;
        for ((sj, &dj), (rj, &hj)) in s.iter_mut().zip(&d).zip(r.iter_mut().zip(&hd)) {
            *sj += alpha * dj;
            *rj -= alpha * hj;
        }
        let rr_new = dot(&r, &r);
        let beta = rr_new / rr;
        rr = rr_new;
        for (dj, &rj) in d.iter_mut().zip(&r) {
            *dj = rj + beta * *dj;
        }
    }
    s.iter().all(|v| v.is_finite()).then_some(s)
}

/// Minimizes $F_M$ by Newton-CG (module docs) with at most `max_steps` Newton steps.
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
    let mut steps = 0;
    while steps < max_steps {
        let gnorm = dot(&grad, &grad).sqrt();
        if gnorm / lambda <= 1e-14 * dot(&w, &w).sqrt().max(1.0) {
            break;
        }
        let c = Curvature {
            lambda,
            b,
            r,
            s2: dot(&w, &sw).max(0.0),
            sw: &sw,
        };
        let step =
            newton_direction(op, &c, &grad, gnorm.min(0.1)).ok_or_else(|| not_definite(lambda))?;
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
