//! The whole-data square surrogate solved without a $p \times p$ matrix: a [`PairOperator`]
//! gives $S v$ (and the exact diagonal of $S$), and [`solve_square_cg`] minimizes
//! $\frac\lambda2\lVert w\rVert^2 + \frac12[(1 - w^\top\Delta)^2 + w^\top S w]$
//! (`docs/math/batch-moments.md`, eqs. 3-4) by preconditioned conjugate gradients on
//! $(\lambda I + \Delta\Delta^\top + S) w = \Delta$.
//!
//! Three operators share the solver: the dense [`PairProblem`] (for tests against Cholesky),
//! [`crate::RowsProblem`] (exact, $O(\mathrm{nnz} + p)$ per product from the training rows) and
//! [`crate::SketchedProblem`] (Frequent Directions sketches of the class co-moments,
//! $O(\ell t + p)$ per product, within a stated bound of $S$).
//!
//! **Certificate.** The objective is $\lambda$-strongly convex and its gradient at $w$ is the
//! residual $A w - \Delta$, so with $G = \lVert A w - \Delta\rVert$ (recomputed from the operator
//! at the returned $w$, not the recursion's residual) $\lVert w - w^\star\rVert \le G/\lambda$
//! and $F(w) - \min F \le G^2/(2\lambda)$, the same certificate as the dense solvers
//! ([`crate::MomentModel::converged`]).

use auc_core::{FitError, check};

use crate::batch_moments::{CERTIFICATE_TOLERANCE, PairProblem, Solution, dot, not_definite};

/// The most conjugate-gradient iterations [`solve_square_cg`] takes by default: far more than
/// the few hundred the shared data sets need at the default $\lambda$; a solve stopped there is
/// reported as not converged, never silent.
pub const MAX_CG_STEPS: u32 = 20_000;

/// Iterations between recomputations of the true residual $\Delta - A w$ (the recursion's
/// residual drifts from it by rounding).
const RESIDUAL_REFRESH: u32 = 50;

/// The covariance part of a whole-data pair problem: $\Delta$, the class counts and products
/// with $S = \Sigma_+ + \Sigma_-$, never $S$ itself.
pub trait PairOperator {
    /// $p$.
    fn dim(&self) -> usize;
    /// $\Delta = \bar x^+ - \bar x^-$.
    fn delta(&self) -> &[f64];
    /// $(n_+, n_-)$.
    fn counts(&self) -> (u64, u64);
    /// `out` $= S v$ (`out` and `v` of length $p$).
    fn s_apply(&mut self, v: &[f64], out: &mut [f64]);
    /// $\operatorname{diag} S$, for the preconditioner.
    fn s_diag(&self) -> Vec<f64>;
}

impl PairOperator for PairProblem {
    fn dim(&self) -> usize {
        self.dim
    }

    fn delta(&self) -> &[f64] {
        &self.delta
    }

    fn counts(&self) -> (u64, u64) {
        (self.positives, self.negatives)
    }

    fn s_apply(&mut self, v: &[f64], out: &mut [f64]) {
        self.s_mul(v, out);
    }

    fn s_diag(&self) -> Vec<f64> {
        (0..self.dim).map(|i| self.s[i * self.dim + i]).collect()
    }
}

/// `out` $= A v = \lambda v + \Delta(\Delta^\top v) + S v$.
fn a_apply<O: PairOperator>(op: &mut O, lambda: f64, v: &[f64], out: &mut [f64]) {
    op.s_apply(v, out);
    let dv = dot(op.delta(), v);
    for ((o, &vj), &dj) in out.iter_mut().zip(v).zip(op.delta()) {
        *o += lambda * vj + dv * dj;
    }
}

/// The square surrogate's objective at `w` and its gradient $A w - \Delta$ into `grad`
/// (`sw` is scratch).
fn objective<O: PairOperator>(
    op: &mut O,
    lambda: f64,
    w: &[f64],
    sw: &mut [f64],
    grad: &mut [f64],
) -> f64 {
    op.s_apply(w, sw);
    let b = 1.0 - dot(w, op.delta());
    let s2 = dot(w, sw).max(0.0);
    for (((g, &wj), &dj), &sj) in grad.iter_mut().zip(w).zip(op.delta()).zip(sw.iter()) {
        *g = lambda * wj - b * dj + sj;
    }
    0.5 * lambda * dot(w, w) + 0.5 * (b * b + s2)
}

/// Minimizes the square surrogate by conjugate gradients on $A w = \Delta$,
/// $A = \lambda I + \Delta\Delta^\top + S$, preconditioned by $\operatorname{diag} A$ (exact in
/// every operator), from $w = 0$, for at most `max_steps` iterations.
///
/// It stops when the residual is a hundredth of what the certificate needs,
/// $\lVert A w - \Delta\rVert \le 10^{-2} \cdot$ [`CERTIFICATE_TOLERANCE`]
/// $\cdot \lambda \max(1, \lVert w\rVert)$, when four refreshed residuals in a row set no
/// new low (the rounding floor), or at `max_steps`. Each iteration costs one operator product plus $O(p)$;
/// memory is six vectors of length $p$ beside the operator.
///
/// # Errors
/// A bad `lambda`; a direction of non-positive curvature (only an operator that is not
/// positive semi-definite has one: a sketch whose error exceeds $\lambda$), named as a
/// `lambda` problem.
pub fn solve_square_cg<O: PairOperator>(
    lambda: f64,
    op: &mut O,
    max_steps: u32,
) -> Result<Solution, FitError> {
    check::positive("lambda", lambda)?;
    let p = op.dim();
    let precond: Vec<f64> = op
        .s_diag()
        .iter()
        .zip(op.delta())
        .map(|(&s, &d)| 1.0 / (lambda + s.max(0.0) + d * d))
        .collect();
    let mut w = vec![0.0; p];
    let mut r = op.delta().to_vec();
    let mut z: Vec<f64> = r.iter().zip(&precond).map(|(a, b)| a * b).collect();
    let mut dir = z.clone();
    let mut ad = vec![0.0; p];
    let mut rz = dot(&r, &z);
    let mut steps = 0;
    let (mut best_refresh, mut stalls) = (f64::INFINITY, 0);
    while steps < max_steps {
        let rnorm = dot(&r, &r).sqrt();
        let target = 1e-2 * CERTIFICATE_TOLERANCE * lambda * dot(&w, &w).sqrt().max(1.0);
        if rnorm <= target || rz == 0.0 {
            break;
        }
        a_apply(op, lambda, &dir, &mut ad);
        let curvature = dot(&dir, &ad);
        if curvature.is_nan() || curvature <= 0.0 {
            return Err(not_definite(lambda));
        }
        let alpha = rz / curvature;
        for ((wj, &dj), (rj, &aj)) in w.iter_mut().zip(&dir).zip(r.iter_mut().zip(&ad)) {
            *wj += alpha * dj;
            *rj -= alpha * aj;
        }
        steps += 1;
        if steps % RESIDUAL_REFRESH == 0 {
            a_apply(op, lambda, &w, &mut ad);
            for ((rj, &aj), &dj) in r.iter_mut().zip(&ad).zip(op.delta()) {
                *rj = dj - aj;
            }
            // The residual of conjugate gradients is not monotone; four refreshes in a row
            // without a new best mean the rounding floor.
            let fresh = dot(&r, &r).sqrt();
            if fresh < best_refresh {
                (best_refresh, stalls) = (fresh, 0);
            } else {
                stalls += 1;
                if stalls == 4 {
                    break;
                }
            }
        }
        for ((zj, &rj), &mj) in z.iter_mut().zip(&r).zip(&precond) {
            *zj = rj * mj;
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for (dj, &zj) in dir.iter_mut().zip(&z) {
            *dj = zj + beta * *dj;
        }
    }
    if !w.iter().all(|v| v.is_finite()) {
        return Err(not_definite(lambda));
    }
    let (mut sw, mut grad) = (vec![0.0; p], vec![0.0; p]);
    let objective = objective(op, lambda, &w, &mut sw, &mut grad);
    Ok(Solution {
        w,
        objective,
        grad_norm: dot(&grad, &grad).sqrt(),
        steps,
    })
}
