//! What the two batch moment learners share: the whole-data problem $(\Delta, S)$ built from
//! both classes' merged moments, the blocked (rank-$k$) moment computation of a chunk of rows,
//! the two exact solvers, and the saved linear model.
//!
//! Over all positive-negative pairs the score difference $w^\top(x^+ - x^-)$ has mean
//! $w^\top\Delta$, $\Delta = \bar x^+ - \bar x^-$, and variance $w^\top S w$,
//! $S = \Sigma^+ + \Sigma^-$ (`docs/math/batch-moments.md`, eqs. 1-2), so
//! - the square surrogate $\frac\lambda2\lVert w\rVert^2 + \frac12[(1 - w^\top\Delta)^2 +
//!   w^\top S w]$ [OAUC eq. 13; OPAUC16] is minimized by the solution of
//!   $(\lambda I + \Delta\Delta^\top + S) w = \Delta$ ([`solve_square`], one Cholesky
//!   factorization in faer, eq. 4);
//! - the second-order hinge surrogate $\frac\lambda2\lVert w\rVert^2 + \psi_M(w^\top\Delta,
//!   w^\top S w)$ [OAUC eq. 14, Lemma 2] is minimized by a damped Newton method with a
//!   strong-convexity certificate ([`solve_psi_m`], eqs. 6-8).
//!
//! Both learners are exact functions of the merged moments: the same moments give the same
//! model, whether they were computed on one core, on many, or on many machines and merged
//! (`auc moments`). Cost of a fit from moments: $O(p^2)$ to form the problem, $p^3/3$ flops per
//! Cholesky factorization (one for the square surrogate, one per Newton step), $8p^2$ bytes per
//! dense $p \times p$ matrix (three are alive at once).
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $\Delta = \bar x^+ - \bar x^-$ | `delta` | difference of the class means |
//! | $S = \Sigma^+ + \Sigma^-$ | `s` | sum of the class covariances (dense, row-major) |
//! | $b = 1 - w^\top\Delta$, $r = \sqrt{b^2 + w^\top S w}$ | `b`, `r` | as in `psi-m-gradient.md` |
//! | $\lVert\nabla F\rVert / \lambda$ | [`MomentModel::distance_bound`] | bound on $\lVert w - w^\star\rVert$ |
//! | $\lVert\nabla F\rVert^2 / (2\lambda)$ | [`MomentModel::gap_bound`] | bound on $F(w) - \min F$ |

use auc_core::{
    BatchParams, BoxedModel, Dataset, DynFit, FitError, Label, OnlineLearner, ParamError, Row,
    SavedState, Scorer, StateError, check,
};
use auc_stats::{ClassMoments, Moments};
use auc_surrogate::psi_m;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::linalg::solvers::{Llt, Solve};
use faer::{Accum, Mat, MatRef, Par, Side};
use serde::{Deserialize, Serialize};

use crate::Linear;
use crate::sparse_block::{SPARSE_BLOCK_ROWS, SparseBlock, is_narrow};

/// Rows per block of the blocked moment computation of [`moments_of`]: large enough for the
/// matrix product to run at full speed, small enough that a block of $p = 1000$ features stays
/// in 2 MB.
pub const BLOCK_ROWS: usize = 256;

/// The most Newton steps [`solve_psi_m`] takes; it needs about ten from $w = 0$ on the shared
/// data sets (`oauc-m-batch`'s `max_steps` changes it).
pub const MAX_NEWTON_STEPS: u32 = 100;

/// The whole-data problem of both surrogates: $\Delta$, $S$ and the class counts.
#[derive(Clone, Debug, PartialEq)]
pub struct PairProblem {
    /// $p$.
    pub dim: usize,
    /// $\Delta = \bar x^+ - \bar x^-$.
    pub delta: Vec<f64>,
    /// $S = \Sigma^+ + \Sigma^-$, dense row-major $p \times p$.
    pub s: Vec<f64>,
    /// $n_+$.
    pub positives: u64,
    /// $n_-$.
    pub negatives: u64,
}

impl PairProblem {
    /// The problem of these moments.
    ///
    /// # Errors
    /// [`FitError::SingleClass`] when a class is empty (no pairs); [`FitError::Empty`] when
    /// both are; [`FitError::NotFinite`] when the moments overflowed (feature values whose squares are
    /// not finite).
    pub fn new(m: &Moments) -> Result<Self, FitError> {
        let (np, nn) = (m.pos.count(), m.neg.count());
        if np == 0 && nn == 0 {
            return Err(FitError::Empty);
        }
        if np == 0 || nn == 0 {
            return Err(FitError::SingleClass);
        }
        let delta: Vec<f64> = m
            .pos
            .mean()
            .iter()
            .zip(m.neg.mean())
            .map(|(a, b)| a - b)
            .collect();
        let mut s = m.pos.cov_dense();
        for (a, b) in s.iter_mut().zip(m.neg.cov_dense()) {
            *a += b;
        }
        if !delta.iter().chain(&s).all(|v: &f64| v.is_finite()) {
            return Err(FitError::NotFinite {
                what: "class moments",
            });
        }
        Ok(Self {
            dim: m.dim(),
            delta,
            s,
            positives: np,
            negatives: nn,
        })
    }

    /// $S w$ into `out`.
    pub(crate) fn s_mul(&self, w: &[f64], out: &mut [f64]) {
        let p = self.dim;
        for (o, row) in out.iter_mut().zip(self.s.chunks_exact(p.max(1))) {
            *o = dot(row, w);
        }
    }

    /// The square surrogate's objective (eq. 3) at `w`, its gradient into `grad`.
    fn square(&self, lambda: f64, w: &[f64], sw: &mut [f64], grad: &mut [f64]) -> f64 {
        self.s_mul(w, sw);
        let b = 1.0 - dot(w, &self.delta);
        let s2 = dot(w, sw).max(0.0);
        for (((g, &wj), &dj), &sj) in grad.iter_mut().zip(w).zip(&self.delta).zip(sw.iter()) {
            *g = lambda * wj - b * dj + sj;
        }
        0.5 * lambda * dot(w, w) + 0.5 * (b * b + s2)
    }

    /// The psi_M objective (eq. 5) at `w`, its gradient (eq. 6) into `grad`; returns the value
    /// with $b$ and $r$.
    fn psi(&self, lambda: f64, w: &[f64], sw: &mut [f64], grad: &mut [f64]) -> (f64, f64, f64) {
        self.s_mul(w, sw);
        let mu = dot(w, &self.delta);
        let s2 = dot(w, sw).max(0.0);
        let psi = psi_m(mu, s2);
        for (((g, &wj), &dj), &sj) in grad.iter_mut().zip(w).zip(&self.delta).zip(sw.iter()) {
            *g = lambda * wj + psi.d_mu * dj + 2.0 * psi.d_s2 * sj;
        }
        let b = 1.0 - mu;
        let r = b.hypot(s2.sqrt());
        (0.5 * lambda * dot(w, w) + psi.value, b, r)
    }
}

/// What a solver found: $w$, the objective there, $\lVert\nabla F(w)\rVert$ and the steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The minimizer found.
    pub w: Vec<f64>,
    /// $F(w)$.
    pub objective: f64,
    /// The certificate $G$: $\lVert w - w^\star\rVert \le G/\lambda$ and
    /// $F(w) - \min F \le G^2/(2\lambda)$. Where $F$ is differentiable it is
    /// $\lVert \nabla F(w) \rVert$, recomputed at the returned $w$; for a minimizer on the kink
    /// of $\psi_M$ it is the $\varepsilon$-subgradient bound of [`kink_solution`].
    pub grad_norm: f64,
    /// Cholesky solves (square surrogate: 2, one refinement) or Newton steps (psi_M; 0 for a
    /// minimizer on the kink, found in closed form).
    pub steps: u32,
}

/// Why a solve failed: the regularized matrix was not numerically positive definite.
pub(crate) fn not_definite(lambda: f64) -> FitError {
    FitError::Param(ParamError::BadValue {
        name: "lambda".to_owned(),
        value: auc_core::shortest(lambda),
        expected: "a larger value: lambda I + Delta Delta' + S is not numerically positive definite (scale the features, or raise lambda)".to_owned(),
    })
}

/// Solves `a x = rhs` for the symmetric positive definite `a` (row-major $p \times p$; only
/// its lower triangle is read) by Cholesky.
fn cholesky_solve(a: &[f64], p: usize, rhs: &[f64], lambda: f64) -> Result<Vec<f64>, FitError> {
    solve_with(&cholesky(a, p, lambda)?, rhs, lambda)
}

/// The Cholesky factor of the symmetric positive definite `a` (as [`cholesky_solve`]).
fn cholesky(a: &[f64], p: usize, lambda: f64) -> Result<Llt<f64>, FitError> {
    MatRef::from_row_major_slice(a, p, p)
        .llt(Side::Lower)
        .map_err(|_| not_definite(lambda))
}

/// Solves with a Cholesky factor; an error if the solution is not finite.
fn solve_with(llt: &Llt<f64>, rhs: &[f64], lambda: f64) -> Result<Vec<f64>, FitError> {
    let p = rhs.len();
    let mut x = Mat::<f64>::zeros(p, 1);
    for (i, &v) in rhs.iter().enumerate() {
        x[(i, 0)] = v;
    }
    llt.solve_in_place(&mut x);
    let out: Vec<f64> = (0..p).map(|i| x[(i, 0)]).collect();
    if out.iter().all(|v| v.is_finite()) {
        Ok(out)
    } else {
        Err(not_definite(lambda))
    }
}

/// The Newton direction $H^{-1} g$; if rounding leaves $H$ (mathematically $\succeq \lambda I$)
/// not numerically positive definite, the diagonal is raised by growing multiples of its
/// largest entry, and as a last resort the gradient itself is the direction (the line search
/// then makes it a steepest-descent step).
fn newton_step(hess: &mut [f64], p: usize, grad: &[f64], lambda: f64) -> Vec<f64> {
    let big = (0..p).fold(0.0f64, |m, i| m.max(hess[i * p + i].abs()));
    let mut added = 0.0;
    for k in 0..8 {
        if let Ok(step) = cholesky_solve(hess, p, grad, lambda) {
            return step;
        }
        let shift = big * 10f64.powi(-12 + 2 * k);
        for i in 0..p {
            hess[i * p + i] += shift - added;
        }
        added = shift;
    }
    grad.to_vec()
}

/// Minimizes the square surrogate (eq. 3) exactly: $w$ solves
/// $(\lambda I + \Delta\Delta^\top + S) w = \Delta$ (eq. 4) by Cholesky, followed by one step of
/// iterative refinement against the residual.
///
/// # Errors
/// A bad `lambda` ($\le 0$ or not finite), or a matrix that is not numerically positive
/// definite (named as a `lambda` problem with advice).
pub fn solve_square(lambda: f64, pb: &PairProblem) -> Result<Solution, FitError> {
    check::positive("lambda", lambda)?;
    let p = pb.dim;
    let mut a = pb.s.clone();
    for (i, (row, &di)) in a.chunks_exact_mut(p.max(1)).zip(&pb.delta).enumerate() {
        for (x, &dj) in row.iter_mut().zip(&pb.delta) {
            *x += di * dj;
        }
        row[i] += lambda;
    }
    let llt = cholesky(&a, p, lambda)?;
    let mut w = solve_with(&llt, &pb.delta, lambda)?;
    // One refinement step with the same factor: w += A^{-1} (Delta - A w).
    let residual: Vec<f64> = (0..p)
        .map(|i| pb.delta[i] - dot(&a[i * p..(i + 1) * p], &w))
        .collect();
    let fix = solve_with(&llt, &residual, lambda)?;
    for (wi, f) in w.iter_mut().zip(fix) {
        *wi += f;
    }
    let (mut sw, mut grad) = (vec![0.0; p], vec![0.0; p]);
    let objective = pb.square(lambda, &w, &mut sw, &mut grad);
    Ok(Solution {
        w,
        objective,
        grad_norm: dot(&grad, &grad).sqrt(),
        steps: 2,
    })
}

/// Relative size below which an eigenvalue of $S$ counts as zero when [`solve_psi_m`] looks
/// for a minimizer on the kink of $\psi_M$: $\sigma_i \le 10^{-12} \max_j \sigma_j$. $S$ is
/// computed from centred values and carries rounding of about $10^{-16} \lVert S\rVert$ per
/// entry, so a direction of no spread in the data (a feature constant within each class, or
/// collinear features) shows up as an eigenvalue of that size, not as an exact zero.
pub const NULL_EIGENVALUE: f64 = 1e-12;

/// The absolute part of the null-space threshold of [`kink_solution`]: eigenvalues of $S$ up to
/// $10^{-12}\sigma_{\max} + 10^{-20}\lVert\Delta\rVert^2$ count as zero. When no class has any
/// spread at all, $S$ is pure rounding (the squares of centring errors, about
/// $10^{-32} \lvert x\rvert^2$: $2 \cdot 10^{-28}$ for one feature whose values are $\pm 97$), so
/// a threshold relative to $\sigma_{\max}$ alone would find no null space. Treating
/// such an eigenvalue as 0 changes $F_M$ by at most
/// $\frac12\sqrt{10^{-20}}\lVert\Delta\rVert\lVert w\rVert$, $5 \cdot 10^{-11}$ on the kink
/// ($w^\top\Delta = 1$ there).
pub const NULL_SPREAD: f64 = 1e-20;

/// A $\psi_M$ solution counts as converged when its certificate pins the minimizer to
/// $\lVert w - w^\star\rVert \le 10^{-6} \max(1, \lVert w\rVert)$, or the objective to
/// $F(w) - \min F \le$ [`GAP_TOLERANCE`] $\max(1, F(w))$ ([`MomentModel::converged`]).
/// Newton steps continue to $10^{-14}$ (the rounding floor of a smooth minimizer); a minimizer
/// on the kink is certified to about $\sqrt{2 \cdot 10^{-16}/\lambda}$ in distance and to the
/// rounding of $F$ in value (see [`solve_psi_m_with`]).
pub const CERTIFICATE_TOLERANCE: f64 = 1e-6;

/// The objective gap below which a $\psi_M$ solution counts as converged whatever its distance
/// bound: $10^{-14} \max(1, F(w))$, a hundred roundings of $F$. At small $\lambda$ the distance
/// bound $\sqrt{2 \cdot \text{gap} / \lambda}$ of a kink minimizer can exceed $10^{-6}$ while its
/// value is optimal to the last digits.
pub const GAP_TOLERANCE: f64 = 1e-14;

/// Minimizes $F_M(w) = \frac\lambda2\lVert w\rVert^2 + \psi_M(w^\top\Delta, w^\top S w)$
/// (eq. 5) with at most [`MAX_NEWTON_STEPS`] Newton steps: [`solve_psi_m_with`].
///
/// # Errors
/// As [`solve_square`].
pub fn solve_psi_m(lambda: f64, pb: &PairProblem) -> Result<Solution, FitError> {
    solve_psi_m_with(lambda, pb, MAX_NEWTON_STEPS)
}

/// Minimizes $F_M$ (eq. 5) in two ways and keeps the better certified one.
///
/// **On the kink** ([`kink_solution`], closed form): $F_M$ is not differentiable where
/// $u(w) = (1 - w^\top\Delta, S^{1/2} w) = 0$, i.e. on $K = \{w : w^\top\Delta = 1,\ S w = 0\}$,
/// which is not empty when $\Delta$ has a component $\Delta_N$ in the null space $N$ of $S$
/// (separable data: a direction in which both classes have no spread). On $K$,
/// $F_M = \frac\lambda2\lVert w\rVert^2$, so the only candidate there is
/// $w_K = \Delta_N / \lVert\Delta_N\rVert^2$, and it is the minimizer iff $0 \in \partial F_M(w_K)$,
/// which works out to $\lambda (1 + \Delta^\top S^{+} \Delta) \le \lVert\Delta_N\rVert^2$
/// (`docs/math/batch-moments.md`, eq. 10). A Newton method cannot stop there: the gradient
/// jumps across $K$ and the Hessian grows like $1/r$, so before this branch existed the solver
/// crept towards $w_K$ with ever shorter steps and stopped at its step cap with a useless
/// certificate.
///
/// **Newton** (smooth minimizer): from the point where the radius equation (eq. 12) puts the
/// stationary point (`radius_start`: bisection on one scalar, which never stalls at the kink),
/// each step solves $\nabla^2 F_M\, s = \nabla F_M$
/// with the Hessian of eq. 7 (at least $\lambda I$) by Cholesky, then halves the step until the
/// Armijo condition $F(w - a s) \le F(w) - 10^{-4} a\, \nabla F^\top s$ holds. It stops when
/// $\lVert\nabla F\rVert / \lambda \le 10^{-14}\max(1, \lVert w\rVert)$, when no halving (of 60)
/// decreases $F$ (the rounding floor), or after `max_steps` steps (which also caps the
/// bisection). It is skipped when the kink solution is already certified.
///
/// The returned [`Solution::grad_norm`] $G$ certifies $\lVert w - w^\star\rVert \le G/\lambda$ and
/// $F(w) - \min F \le G^2/(2\lambda)$ (eq. 8); [`MomentModel::converged`] compares it with
/// [`CERTIFICATE_TOLERANCE`].
///
/// # Errors
/// As [`solve_square`], and a `max_steps` of 0.
pub fn solve_psi_m_with(
    lambda: f64,
    pb: &PairProblem,
    max_steps: u32,
) -> Result<Solution, FitError> {
    check::positive("lambda", lambda)?;
    if max_steps == 0 {
        return Err(FitError::Param(ParamError::BadValue {
            name: "max_steps".to_owned(),
            value: "0".to_owned(),
            expected: "at least 1 Newton step".to_owned(),
        }));
    }
    if pb.dim == 0 {
        return Ok(featureless_solution(lambda, pb));
    }
    let kink = kink_solution(lambda, pb);
    if let Some(k) = &kink
        && certified(lambda, k)
    {
        return Ok(kink.expect("checked"));
    }
    let newton = newton_psi_m(lambda, pb, max_steps);
    Ok(match kink {
        Some(k) if k.grad_norm < newton.grad_norm => k,
        _ => newton,
    })
}

/// The minimizer of $F_M$ on data without features: $w$ is the empty vector, so every score
/// is 0 and $F_M = \psi_M(0, 0)$, with an exact certificate (the gradient is empty, $G = 0$).
/// Before this case was handled the Newton start panicked on a zero-width matrix.
fn featureless_solution(lambda: f64, pb: &PairProblem) -> Solution {
    let (mut sw, mut grad) = (Vec::new(), Vec::new());
    let (objective, _, _) = pb.psi(lambda, &[], &mut sw, &mut grad);
    Solution {
        w: Vec::new(),
        objective,
        grad_norm: 0.0,
        steps: 0,
    }
}

/// Whether a solution's certificate meets [`CERTIFICATE_TOLERANCE`] or [`GAP_TOLERANCE`], as
/// [`MomentModel::converged`].
fn certified(lambda: f64, s: &Solution) -> bool {
    s.grad_norm / lambda <= CERTIFICATE_TOLERANCE * dot(&s.w, &s.w).sqrt().max(1.0)
        || s.grad_norm * s.grad_norm / (2.0 * lambda) <= GAP_TOLERANCE * s.objective.max(1.0)
}

/// The minimizer of $F_M$ on its kink, when it lies there (see [`solve_psi_m_with`]); `None`
/// when $\Delta$ has no component in the null space of $S$ or the kink point is not optimal.
///
/// $N$ is spanned by the eigenvectors of $S$ whose eigenvalues are at most [`NULL_EIGENVALUE`]
/// times the largest plus [`NULL_SPREAD`] $\lVert\Delta\rVert^2$; the point and its certificate are those of $S$ with these eigenvalues
/// set to 0 (the rounding of the moment pass, see [`NULL_EIGENVALUE`]). The certificate is an
/// $\varepsilon$-subgradient one: with $t = 2\lambda/\lVert\Delta_N\rVert^2$, $z_0 = t - 1$ and
/// $z_1 = t\, (S^{+})^{1/2}\Delta$ (so $\lVert z\rVert \le 1$ exactly when the kink is optimal),
/// $g = \lambda w - \frac12(1 + z_0)\Delta + \frac12 S^{1/2} z_1 = \lambda w - \frac t2 \Delta_N$
/// is an $\varepsilon$-subgradient of $F_M$ at $w$ with
/// $\varepsilon = \frac12(\lvert b\rvert - z_0 b)$, $b = 1 - w^\top\Delta$ (zero in exact
/// arithmetic, a rounding error here). Strong convexity then gives
/// $\lVert w - w^\star\rVert \le G/\lambda$ with $G = \lVert g\rVert + \sqrt{\lVert g\rVert^2 + 2\lambda\varepsilon}$,
/// and $F(w) - \min F \le \lVert g\rVert^2/(2\lambda) + \varepsilon \le G^2/(2\lambda)$ (eq. 11).
pub fn kink_solution(lambda: f64, pb: &PairProblem) -> Option<Solution> {
    let p = pb.dim;
    if p == 0 {
        return None;
    }
    let evd = MatRef::from_row_major_slice(&pb.s, p, p)
        .self_adjoint_eigen(Side::Lower)
        .ok()?;
    let (q, sigma) = (evd.U(), evd.S().column_vector());
    let top = (0..p).fold(0.0f64, |m, i| m.max(sigma[i]));
    let floor = NULL_EIGENVALUE * top + NULL_SPREAD * dot(&pb.delta, &pb.delta);
    // Delta's coordinates in the eigenbasis; its null part and Delta' S^+ Delta.
    let mut delta_n = vec![0.0; p];
    let (mut pn2, mut quad) = (0.0, 0.0);
    for i in 0..p {
        let c: f64 = (0..p).map(|j| q[(j, i)] * pb.delta[j]).sum();
        if sigma[i] <= floor {
            pn2 += c * c;
            for (d, j) in delta_n.iter_mut().zip(0..p) {
                *d += c * q[(j, i)];
            }
        } else {
            quad += c * c / sigma[i];
        }
    }
    if !pn2.is_finite() || pn2 <= 0.0 || lambda * (1.0 + quad) > pn2 {
        return None;
    }
    let w: Vec<f64> = delta_n.iter().map(|d| d / pn2).collect();
    let t = 2.0 * lambda / pn2;
    let b = 1.0 - dot(&w, &pb.delta);
    let eps = 0.5 * (b.abs() - (t - 1.0) * b);
    let g2: f64 = w
        .iter()
        .zip(&delta_n)
        .map(|(wi, di)| {
            let g = lambda * wi - 0.5 * t * di;
            g * g
        })
        .sum();
    let g = g2.sqrt();
    let (mut sw, mut grad) = (vec![0.0; p], vec![0.0; p]);
    let (objective, _, _) = pb.psi(lambda, &w, &mut sw, &mut grad);
    Some(Solution {
        grad_norm: g + (g2 + 2.0 * lambda * eps.max(0.0)).sqrt(),
        w,
        objective,
        steps: 0,
    })
}

/// The start of the Newton method: the smooth stationary point located by its radius.
///
/// Where $r = \lVert u(w)\rVert > 0$, $\nabla F_M = 0$ (eq. 6) multiplied by $2r$ reads
/// $(2\lambda r I + A) w = (1 + r)\Delta$ with $A = \Delta\Delta^\top + S$ (eq. 12). With the
/// eigendecomposition $A = \sum_i \alpha_i q_i q_i^\top$ this gives, for every $r > 0$, the point
/// $w(r) = (1 + r) \sum_i \frac{q_i^\top\Delta}{2\lambda r + \alpha_i} q_i$, and the minimizer
/// is $w(r^\star)$ for the root $r^\star$ of $\varphi(r) = \lVert u(w(r))\rVert - r$ (a root
/// makes $w(r)$ stationary, and $F_M$ has one stationary point). $\varphi(0) \ge 0$ and
/// $\varphi(r) < 0$ for large $r$ ($w(r) \to \Delta / 2\lambda$), so bisection on a doubling
/// bracket finds $r^\star$ without ever evaluating $F_M$ near its kink, where Newton's method
/// from $w = 0$ can stall: the iterates may approach the kink point, which is not the minimizer
/// when (eq. 10) fails, with steps that shrink as the Hessian grows like $1/r$. `None` when the
/// eigendecomposition fails. At most `max_steps` (up to 200) bisection steps: the cap of
/// [`solve_psi_m_with`] bounds both phases.
fn radius_start(lambda: f64, pb: &PairProblem, max_steps: u32) -> Option<Vec<f64>> {
    let p = pb.dim;
    if p == 0 {
        return None;
    }
    let mut a = pb.s.clone();
    for (row, &di) in a.chunks_exact_mut(p).zip(&pb.delta) {
        for (x, &dj) in row.iter_mut().zip(&pb.delta) {
            *x += di * dj;
        }
    }
    let evd = MatRef::from_row_major_slice(&a, p, p)
        .self_adjoint_eigen(Side::Lower)
        .ok()?;
    let (q, alpha) = (evd.U(), evd.S().column_vector());
    let coef: Vec<f64> = (0..p)
        .map(|i| (0..p).map(|j| q[(j, i)] * pb.delta[j]).sum())
        .collect();
    let mut w = vec![0.0; p];
    let mut sw = vec![0.0; p];
    let w_of = |r: f64, w: &mut Vec<f64>| {
        w.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..p {
            let den = 2.0 * lambda * r + alpha[i];
            if den > 0.0 {
                let k = (1.0 + r) * coef[i] / den;
                for (x, j) in w.iter_mut().zip(0..p) {
                    *x += k * q[(j, i)];
                }
            }
        }
    };
    let mut phi = |r: f64, w: &mut Vec<f64>| -> f64 {
        w_of(r, w);
        pb.s_mul(w, &mut sw);
        let b = 1.0 - dot(w, &pb.delta);
        b.hypot(dot(w, &sw).max(0.0).sqrt()) - r
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    let mut doublings = 0;
    while phi(hi, &mut w) > 0.0 {
        lo = hi;
        hi *= 2.0;
        doublings += 1;
        if doublings > 1000 || !hi.is_finite() {
            return None;
        }
    }
    for _ in 0..max_steps.min(200) {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if phi(mid, &mut w) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    w_of(0.5 * (lo + hi), &mut w);
    w.iter().all(|v| v.is_finite()).then_some(w)
}

/// The damped Newton method of [`solve_psi_m_with`], from the point [`radius_start`] finds
/// (from $w = 0$ if it finds none).
fn newton_psi_m(lambda: f64, pb: &PairProblem, max_steps: u32) -> Solution {
    let p = pb.dim;
    let mut w = radius_start(lambda, pb, max_steps).unwrap_or_else(|| vec![0.0; p]);
    let (mut sw, mut grad) = (vec![0.0; p], vec![0.0; p]);
    let (mut trial, mut tsw, mut tgrad) = (vec![0.0; p], vec![0.0; p], vec![0.0; p]);
    let mut hess = vec![0.0; p * p];
    let (mut f, mut b, mut r) = pb.psi(lambda, &w, &mut sw, &mut grad);
    let mut steps = 0;
    while steps < max_steps {
        let gnorm = dot(&grad, &grad).sqrt();
        if gnorm / lambda <= 1e-14 * dot(&w, &w).sqrt().max(1.0) {
            break;
        }
        // Hessian (eq. 7), expanded so that no two large terms cancel when b^2 >> w'Sw:
        // lambda I + [s2 Delta Delta' + b (Delta (Sw)' + Sw Delta') - Sw Sw'] / (2 r^3) + S / (2 r),
        // with s2 = w'Sw = r^2 - b^2. At the kink r = 0 only the regularizer's curvature is used.
        for (h, &s) in hess.iter_mut().zip(&pb.s) {
            *h = if r > 0.0 { s / (2.0 * r) } else { 0.0 };
        }
        if r > 0.0 {
            let r3 = 2.0 * r * r * r;
            let s2 = dot(&w, &sw).max(0.0);
            for (row, (&di, &si)) in hess
                .chunks_exact_mut(p.max(1))
                .zip(pb.delta.iter().zip(&sw))
            {
                for (h, (&dj, &sj)) in row.iter_mut().zip(pb.delta.iter().zip(&sw)) {
                    *h += (s2 * di * dj + b * (di * sj + si * dj) - si * sj) / r3;
                }
            }
        }
        for i in 0..p {
            hess[i * p + i] += lambda;
        }
        let step = newton_step(&mut hess, p, &grad, lambda);
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
            let (ft, bt, rt) = pb.psi(lambda, &trial, &mut tsw, &mut tgrad);
            // A step must make progress: a strict Armijo decrease of F, or, once the decrease
            // left to make is below F's rounding (a residual gradient g along a direction of
            // curvature h lowers F by only g^2 / 2h), F equal up to rounding and a smaller
            // gradient. Without the second rule Newton stalled there with ||grad|| / lambda
            // stuck at 1e-6 on stiff problems; with neither it accepted steps that changed
            // nothing until the step cap.
            // F's rounding is that of its largest terms (r = sqrt(b^2 + w'Sw) and w'Sw are
            // sums of terms far larger than F near a separating w), hence the noise level.
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
    Solution {
        grad_norm: dot(&grad, &grad).sqrt(),
        w,
        objective: f,
        steps,
    }
}

/// The line search's rule of both psi_M Newton solvers: a step from $F$ (gradient norm
/// `gnorm`, radius `r`) to $F_t$ (gradient norm `tgnorm`) with predicted decrease `decrease`
/// ($a\,\nabla F^\top s$) is taken on a strict Armijo decrease, or when $F_t$ equals $F$ up
/// to its rounding and the gradient shrinks (see [`newton_psi_m`]'s comments).
pub(crate) fn accepts_step(
    f: f64,
    ft: f64,
    decrease: f64,
    gnorm: f64,
    tgnorm: f64,
    r: f64,
) -> bool {
    let shrinks = tgnorm < gnorm;
    let armijo = ft <= f - 1e-4 * decrease && (ft < f || shrinks);
    let noise = 1e3 * f64::EPSILON * (f.abs() + r);
    armijo || (ft <= f + noise && shrinks)
}

/// The moments of the rows of `data`, computed block by block ([`BLOCK_ROWS`] rows of a class
/// at a time, [`block_moments`]) and merged in row order: the same result for the same
/// dataset, bit for bit. Sparse rows much narrower than the dimension ([`is_narrow`]: a
/// polynomial map of one-hot indicators, say) gather in a [`SparseBlock`] of their class
/// instead, in $O(t^2)$ a row of $t$ non-zeros rather than $O(p^2)$.
pub fn moments_of(data: &Dataset) -> Moments {
    let p = data.dim();
    let mut out = Moments::new(p);
    let mut blocks = [Vec::new(), Vec::new()];
    let mut rows = [0usize; 2];
    let mut sparse = [SparseBlock::default(), SparseBlock::default()];
    let mut scratch = BlockScratch::default();
    let mut row = vec![0.0; p];
    for (x, y) in data.iter() {
        let c = y.index();
        if is_narrow(x, p) {
            sparse[c].push(x);
            if sparse[c].rows() == SPARSE_BLOCK_ROWS {
                out.class_mut(y).merge(&sparse[c].moments(p));
                sparse[c].clear();
            }
            continue;
        }
        x.write_dense(&mut row);
        blocks[c].extend_from_slice(&row);
        rows[c] += 1;
        if rows[c] == BLOCK_ROWS {
            let m = block_moments(&blocks[c], rows[c], p, &mut scratch);
            out.class_mut(y).merge(&m);
            blocks[c].clear();
            rows[c] = 0;
        }
    }
    for y in [Label::Pos, Label::Neg] {
        let c = y.index();
        if rows[c] > 0 {
            let m = block_moments(&blocks[c], rows[c], p, &mut scratch);
            out.class_mut(y).merge(&m);
        }
        if sparse[c].rows() > 0 {
            out.class_mut(y).merge(&sparse[c].moments(p));
        }
    }
    out
}

/// Scratch space of [`block_moments`], reused across blocks.
#[derive(Default)]
pub struct BlockScratch {
    centred: Vec<f64>,
    product: Option<Mat<f64>>,
}

/// The moments of the $k$ dense rows in `rows` (row-major, $k p$ values, $k \ge 1$), by the
/// two-pass algorithm on the block: the mean $m$, then the co-moment
/// $C = (X - \mathbf 1 m^\top)^\top (X - \mathbf 1 m^\top)$ as one matrix product (faer), a
/// rank-$k$ update instead of $k$ rank-one updates. Exact up to rounding, and as stable as
/// Welford's update (only centred values are multiplied).
///
/// # Panics
/// If $k = 0$ or `rows.len()` is not $k p$.
pub fn block_moments(rows: &[f64], k: usize, p: usize, scratch: &mut BlockScratch) -> ClassMoments {
    assert!(
        k > 0 && rows.len() == k * p,
        "a block of {} values is not {k} rows of {p} features",
        rows.len()
    );
    if p == 0 {
        return ClassMoments::from_parts(k as u64, Vec::new(), Vec::new())
            .expect("empty moments of a positive count are valid");
    }
    let mut mean = vec![0.0; p];
    for row in rows.chunks_exact(p) {
        for (m, &v) in mean.iter_mut().zip(row) {
            *m += v;
        }
    }
    let inv = 1.0 / k as f64;
    mean.iter_mut().for_each(|m| *m *= inv);
    let c = &mut scratch.centred;
    c.clear();
    for row in rows.chunks_exact(p) {
        c.extend(row.iter().zip(&mean).map(|(v, m)| v - m));
    }
    let x = MatRef::from_row_major_slice(c, k, p);
    let prod = scratch.product.get_or_insert_with(|| Mat::zeros(p, p));
    if prod.nrows() != p {
        *prod = Mat::zeros(p, p);
    }
    // Only the lower triangle: the product is symmetric, and its column i from row i down is
    // the packed upper triangle's row i, contiguous.
    triangular::matmul(
        prod.as_mut(),
        BlockStructure::TriangularLower,
        Accum::Replace,
        x.transpose(),
        BlockStructure::Rectangular,
        x,
        BlockStructure::Rectangular,
        1.0,
        Par::Seq,
    );
    let mut packed = Vec::with_capacity(p * (p + 1) / 2);
    for i in 0..p {
        let col = &prod.col_as_slice(i)[i..];
        packed.push(col[0].max(0.0));
        packed.extend_from_slice(&col[1..]);
    }
    match ClassMoments::from_parts(k as u64, mean, packed) {
        Ok(m) => m,
        // Values whose squares overflow give an infinite product: fall back to Welford's
        // updates, which carry the overflow on without a check, and let
        // [`PairProblem::new`] refuse the non-finite moments with an error.
        Err(_) => {
            let mut m = ClassMoments::new(p);
            for r in rows.chunks_exact(p.max(1)).take(k) {
                m.update(Row::Dense(r));
            }
            m
        }
    }
}

/// A linear scorer $f(x) = w^\top x$ fitted from merged moments, with its optimality
/// certificate: what both batch moment learners save.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MomentModel {
    lambda: f64,
    w: Vec<f64>,
    objective: f64,
    grad_norm: f64,
    steps: u32,
    positives: u64,
    negatives: u64,
}

impl MomentModel {
    /// Fits from merged moments with `solve` ([`solve_square`] or [`solve_psi_m`]): the problem
    /// of the moments, its solution, the model and its one-line summary.
    ///
    /// # Errors
    /// Those of [`PairProblem::new`] and of `solve`.
    pub fn fit(
        lambda: f64,
        m: &Moments,
        solve: fn(f64, &PairProblem) -> Result<Solution, FitError>,
    ) -> Result<(Self, String), FitError> {
        let pb = PairProblem::new(m)?;
        let model = Self::new(lambda, solve(lambda, &pb)?, &pb);
        let summary = model.summary();
        Ok((model, summary))
    }

    /// The model of a solution at `lambda` for a problem with these class counts.
    pub fn new(lambda: f64, s: Solution, pb: &PairProblem) -> Self {
        Self::with_counts(lambda, s, (pb.positives, pb.negatives))
    }

    /// The model of a solution at `lambda` fitted on $(n_+, n_-)$ examples.
    pub fn with_counts(lambda: f64, s: Solution, (positives, negatives): (u64, u64)) -> Self {
        Self {
            lambda,
            w: s.w,
            objective: s.objective,
            grad_norm: s.grad_norm,
            steps: s.steps,
            positives,
            negatives,
        }
    }

    /// $\lambda$.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// The objective at $w$.
    pub fn objective(&self) -> f64 {
        self.objective
    }

    /// The certificate $G$ of [`Solution::grad_norm`] ($\lVert \nabla F(w) \rVert$ where $F$ is
    /// differentiable at the saved $w$).
    pub fn grad_norm(&self) -> f64 {
        self.grad_norm
    }

    /// Solver steps taken.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The class counts of the moments it was fitted on, $(n_+, n_-)$.
    pub fn counts(&self) -> (u64, u64) {
        (self.positives, self.negatives)
    }

    /// $F(w) - \min F \le \lVert\nabla F(w)\rVert^2 / (2\lambda)$ (eq. 8).
    pub fn gap_bound(&self) -> f64 {
        self.grad_norm * self.grad_norm / (2.0 * self.lambda)
    }

    /// $\lVert w - w^\star\rVert \le \lVert\nabla F(w)\rVert / \lambda$ (eq. 8).
    pub fn distance_bound(&self) -> f64 {
        self.grad_norm / self.lambda
    }

    /// Whether the certificate pins the minimizer to [`CERTIFICATE_TOLERANCE`]
    /// ($\lVert w - w^\star\rVert \le 10^{-6} \max(1, \lVert w\rVert)$) or the objective to
    /// [`GAP_TOLERANCE`] ($F(w) - \min F \le 10^{-14} \max(1, F(w))$). `false` means the
    /// solver stopped (step cap or rounding floor) farther out; front ends must say so.
    pub fn converged(&self) -> bool {
        self.distance_bound() <= self.tolerance()
            || self.gap_bound() <= GAP_TOLERANCE * self.objective.max(1.0)
    }

    /// The distance [`MomentModel::converged`] compares the certificate with.
    pub fn tolerance(&self) -> f64 {
        CERTIFICATE_TOLERANCE * dot(&self.w, &self.w).sqrt().max(1.0)
    }

    /// The one-line summary `auc train` prints.
    pub fn summary(&self) -> String {
        format!(
            "objective {}, {} solver steps, certificate: F - min F <= {:.1e}, ||w - w*|| <= {:.1e} (||w|| = {:.4}){}",
            auc_core::shortest(self.objective),
            self.steps,
            self.gap_bound(),
            self.distance_bound(),
            dot(&self.w, &self.w).sqrt(),
            if self.converged() {
                ""
            } else {
                ", NOT CONVERGED"
            }
        )
    }
}

impl Linear for MomentModel {
    fn weights(&self) -> &[f64] {
        &self.w
    }
}

impl Scorer for MomentModel {
    fn score(&self, x: Row<'_>) -> f64 {
        x.dot(&self.w)
    }
}

impl SavedState for MomentModel {
    const STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        check::state(self.lambda.is_finite() && self.lambda > 0.0, || {
            format!("lambda = {} is not a positive number", self.lambda)
        })?;
        check::finite("w", &self.w)?;
        check::finite("objective", &[self.objective, self.grad_norm])?;
        check::state(self.objective >= 0.0 && self.grad_norm >= 0.0, || {
            format!(
                "objective {} and gradient norm {} must not be negative",
                self.objective, self.grad_norm
            )
        })?;
        check::state(self.positives > 0 && self.negatives > 0, || {
            format!(
                "fitted on {} positive and {} negative examples; both must be positive",
                self.positives, self.negatives
            )
        })
    }
}

/// Parameters of a learner fitted from merged class moments: the registry fits it from moment
/// files and from a parallel pass over its input, never touching the rows again.
pub trait MomentParams: BatchParams<Model = MomentModel> {
    /// Fits on the (already scaled) moments of both classes; returns the model and a summary.
    ///
    /// # Errors
    /// Bad parameters, a missing class, or a system that is not numerically definite.
    fn fit_moments(&self, m: &Moments) -> Result<(MomentModel, String), FitError>;

    /// Whether these parameters solve over the training rows themselves, so that a front end
    /// must load them rather than run a moment pass (`opauc-batch` with `solver = cg`).
    fn solves_over_rows(&self) -> bool {
        false
    }
}

/// Peak bytes of a fit from moments on $p$ features: the two packed triangles, three dense
/// $p \times p$ matrices (problem, Hessian or system, Cholesky factor) and $O(p)$ vectors.
pub fn fit_bytes(dim: usize) -> u64 {
    let p = dim as u64;
    8u64.saturating_mul(
        p.saturating_mul(p + 1)
            .saturating_add(p.saturating_mul(p).saturating_mul(3))
            .saturating_add(p.saturating_mul(16)),
    )
}

/// The evaluation layer's procedure of a [`MomentParams`] learner: moments of the training
/// part, then the solve.
pub(crate) struct MomentFit<P>(pub(crate) P);

impl<P: MomentParams> DynFit for MomentFit<P> {
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        Ok(Box::new(self.0.fit_model(train, seed)?.0))
    }

    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        None
    }
}

/// A solver's step cap `max_steps`: an integer in `1..=u32::MAX` (the steps a model records).
pub(crate) fn check_step_cap(max_steps: u64) -> Result<(), ParamError> {
    if (1..=u64::from(u32::MAX)).contains(&max_steps) {
        Ok(())
    } else {
        Err(ParamError::OutOfRange {
            name: "max_steps",
            value: max_steps as f64,
            allowed: "an integer in 1..=4294967295",
        })
    }
}

/// $a^\top b$ with four accumulators.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() - a.len() % 4;
    let mut acc = [0.0f64; 4];
    for (x, y) in a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4)) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in a[n..].iter().zip(&b[n..]) {
        tail += x * y;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}
