//! Linear one-pass learners for AUC on imbalanced streams.
//!
//! This crate owns the linear online learners, each with memory independent of the stream's length:
//!
//! - the moment learners [`OaucM`], [`OaucMc`] [OAUC alg. 1], [`Opauc`] [OAUC eq. 13], [`AdaOam`]
//!   and [`AdmOam`] [ADM alg. 1], which keep each class's mean and covariance (auc-stats) and step
//!   on the second-order surrogates (auc-surrogate): $O(p^2)$ memory and time per example (the
//!   first three are one [`OgdMoment`], generic over the surrogate and the step rule);
//! - the buffer learners [`OamSeq`] and [`OamGra`] \[OAM11\]: per-class reservoirs of a fixed
//!   budget, $O(B\,\mathrm{nnz})$ per example;
//! - [`Solam`] \[SOLAM16\], the saddle-point square-loss learner, $O(\mathrm{nnz}(x))$ per example;
//! - [`BalAdagrad`], diagonal AdaGrad \[ADAGRAD11\] on the class-balanced logistic loss (a
//!   univariate AUC surrogate \[KDH11\]) with lazily applied L2, $O(\mathrm{nnz}(x))$ per example
//!   (`docs/math/bal-adagrad.md`);
//! - [`BalFtrl`], per-coordinate FTRL-Proximal \[FTRL13\] on the same loss, L1 and L2 in closed
//!   form against the sum of the losses, $O(\mathrm{nnz}(x))$ per example (`docs/math/bal-ftrl.md`);
//! - the classification baselines of [OAUC sec. 6.1], the [`Perceptron`] \[Rosenblatt58\] and the
//!   passive-aggressive [`PaI`] \[PA06\], $O(\mathrm{nnz}(x))$ per example;
//! - [`Averaged`], Polyak-Ruppert averaging of any of them (conventions section 5);
//! - two batch learners fitted exactly from merged class moments, [`OpaucBatchParams`] (the
//!   square surrogate over all pairs, one Cholesky solve) and [`OaucMBatchParams`] (psi_M over
//!   all pairs, certified Newton), with the shared [`MomentModel`] (`docs/math/batch-moments.md`);
//! - the batch partial-AUC learner [`PaucSvmParams`] (pAUC-SVM: the squared pairwise hinge over
//!   every positive and the top $\beta$ fraction of negatives, fitted on the rows by a certified
//!   primal-dual method, [`solve_pauc`], `docs/math/pauc-learner.md`).
//!
//! Every learner's whole state is serde-serializable, so a saved model resumes bit for bit.
//!
//! It sees examples only through `auc_core`'s row views and never depends on the parser, so a user
//! who brings their own rows pulls in no file-format code. It never draws unseeded randomness.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $w$ | `weights()` | the linear scorer $f(x) = w^\top x$ |
//! | $C$ | `c` | PA-I aggressiveness (cap on the step) |
//! | $\ell_t$ | `loss` | hinge loss $\max(0, 1 - y_t w^\top x_t)$ |
//! | $C_t$ | `c_t` | OAM penalty scaled by the opposite class's overflow, $C \max(1, N^{\bar y}_t / N^{\bar y})$ |
//! | $N^\pm$ | `budget` | OAM reservoir buffer size per class |
//! | $(w, a, b)$, $\alpha$ | `w`, `a`, `b`, `alpha` | SOLAM primal and dual variables |
//! | $\hat p_t$ | `p` | SOLAM running estimate of the positive rate |
//! | $\gamma_t = \eta / \sqrt t$, $R$ | `gamma`, `eta`, `r` | SOLAM step size, its scale, and the radius of the $w$ ball |
//! | $\bar w_t$ | `weights()` | SOLAM's output: $\sum_j \gamma_j w_j / \sum_j \gamma_j$ |
//! | $t$ | `steps()` | examples seen by a moment learner, every class counted, from 1 |
//! | $\eta$, $\eta_t$ | `eta` | step size (OAUC-M: $1/(\lambda t)$ [OAUC Thm 6]) |
//! | $\lambda$ | `lambda` | regularization weight in $\frac{\lambda}{2}\lVert w\rVert^2 + \psi$ |
//! | $\bar x$, $\Sigma$ | `moments()` | mean and covariance of the opposite class [OAUC eqs. 15-18] |
//! | $\psi_S$, $\psi_M$ | `loss_and_grad()` | square and moment surrogates [OAUC eqs. 13-14] |
//! | $m_t$, $v_t$ | `first`, `second` | Adam's gradient moments [ADM alg. 1] |
//! | $\beta_1$, $\beta_2$, $\epsilon$ | `beta1`, `beta2`, `epsilon` | Adam/Adagrad decays and smoothing [ADM alg. 1] |
//! | $G_t$ | `sum_sq` | AdaOAM's running sums of squared gradients |
//! | $G_{t,j}$, $c_t$ | `g2`, `c` | Balanced AdaGrad's accumulators and class weight $t / (2 n^{y_t}_t)$ |

mod adagrad_row;
mod adaptive;
mod average;
mod bal_adagrad;
mod bal_ftrl;
mod baselines;
mod batch_moments;
mod moment;
mod moment_layout;
mod moment_solver;
mod moment_store;
mod oam;
mod oauc_m_batch;
mod opauc_batch;
mod pair_operator;
mod pauc_batch;
mod pauc_solver;
mod psi_m_cg;
mod rows_problem;
mod sketched_problem;
mod solam;
mod span;
mod sparse_block;
mod support;

pub use adaptive::{AdaOam, AdaOamParams, AdmOam, AdmOamParams};
pub use average::{Averaged, Linear, Materialized};
pub use bal_adagrad::{BalAdagrad, BalAdagradParams};
pub use bal_ftrl::{BalFtrl, BalFtrlParams};
pub use baselines::{PaI, PaIParams, Perceptron, PerceptronParams};
pub use batch_moments::{
    BLOCK_ROWS, BlockScratch, CERTIFICATE_TOLERANCE, GAP_TOLERANCE, MAX_NEWTON_STEPS, MomentModel,
    MomentParams, NULL_EIGENVALUE, NULL_SPREAD, PairProblem, Solution, block_moments,
    fit_bytes as moment_fit_bytes, kink_solution, moments_of, solve_psi_m, solve_psi_m_with,
    solve_square,
};
pub use moment::{
    MAX_NORM, OaucM, OaucMParams, OaucMc, OaucMcParams, OgdMoment, Opauc, OpaucParams,
};
pub use moment_solver::{AUTO_DENSE_MAX_DIM, MomentSolver};
pub use moment_store::{MomentStore, SketchedClasses};
pub use oam::{OamGra, OamGraParams, OamSeq, OamSeqParams};
pub use oauc_m_batch::OaucMBatchParams;
pub use opauc_batch::OpaucBatchParams;
pub use pair_operator::{MAX_CG_STEPS, PairOperator, solve_square_cg};
pub use pauc_batch::{PaucModel, PaucSvmParams};
pub use pauc_solver::{PaucSettings, PaucSolution, pauc_fit_bytes, solve_pauc, top_count};
pub use psi_m_cg::solve_psi_m_cg;
pub use rows_problem::RowsProblem;
pub use sketched_problem::SketchedProblem;
pub use solam::{Solam, SolamParams};
pub use sparse_block::{SPARSE_BLOCK_ROWS, SPARSE_MIN_DIM, SparseBlock, is_narrow};

use std::sync::OnceLock;

use auc_core::{Divergence, Row};

/// Panics unless a dense row `x` has `dim` values (a sparse row's indices are the caller's to
/// check): the linear learners' scoring contract.
#[inline]
pub(crate) fn check_dense_len(x: Row<'_>, dim: usize) {
    if let Row::Dense(v) = x {
        assert_eq!(
            v.len(),
            dim,
            "the row has {} features, the model {}",
            v.len(),
            dim
        );
    }
}

/// Weights materialized from a lazy representation (SOLAM's $u + \beta v$, a lazily averaged
/// iterate), filled on the first [`Linear::weights`] call after an update and emptied by the next.
///
/// Not serialized, and ignored by `==`: it is a function of the rest of the state.
#[derive(Clone, Debug, Default)]
pub(crate) struct WeightsCache(pub(crate) OnceLock<Vec<f64>>);

impl PartialEq for WeightsCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// $w \leftarrow w + a x$ with every result clamped to the finite range: features near
/// $10^{308}$ without scaling would otherwise overflow $w$ to $\pm\infty$ and then NaN. A
/// clamped coordinate stays at $\pm$`f64::MAX`, which [`linear_divergence`] reports. The clamp
/// is two compares per touched coordinate, so the common case costs nothing measurable.
#[inline]
pub(crate) fn saturating_axpy(x: Row<'_>, a: f64, w: &mut [f64]) {
    let clamp = |v: f64| v.clamp(-f64::MAX, f64::MAX);
    match x {
        Row::Dense(v) => {
            for (wj, &xj) in w.iter_mut().zip(v) {
                *wj = clamp(*wj + a * xj);
            }
        }
        Row::Sparse(s) => {
            for (&j, &v) in s.indices().iter().zip(s.values()) {
                let wj = &mut w[j as usize];
                *wj = clamp(*wj + a * v);
            }
        }
    }
}

/// A bound on $\lVert w \rVert$ that a healthy run stays within, for [`linear_divergence`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct NormBound {
    /// The bound's value.
    pub(crate) value: f64,
    /// Where it comes from, e.g. `2/sqrt(lambda)`.
    pub(crate) what: &'static str,
    /// The advice when it is exceeded, e.g. `lower eta (now 0.25)`.
    pub(crate) advice: &'static str,
    /// The value of the parameter the advice names.
    pub(crate) now: f64,
}

/// Whether a linear learner's run diverged: a weight saturated at the largest float (see
/// [`saturating_axpy`]), `rejected` steps were refused as non-finite, $w$ reached the safety cap
/// [`MAX_NORM`], or $\lVert w \rVert$ exceeds `bound`.
pub(crate) fn linear_divergence(
    w: &[f64],
    bound: Option<NormBound>,
    rejected: u64,
) -> Option<Divergence> {
    if w.iter().any(|v| v.abs() >= f64::MAX) {
        return Some(Divergence {
            what: "a weight overflowed to the largest float".to_owned(),
            advice: "the features are too large for this learner unscaled: use --scale (or lower the step)".to_owned(),
        });
    }
    let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
    if rejected > 0 || norm >= 0.999 * MAX_NORM {
        return Some(Divergence {
            what: format!(
                "the iterate diverged: {rejected} step(s) were refused as non-finite and ||w|| = {} (safety cap 2^200)",
                auc_core::shortest(norm)
            ),
            advice: match bound {
                Some(b) => format!("{} (now {})", b.advice, auc_core::shortest(b.now)),
                None => "scale the features (--scale) or lower the step".to_owned(),
            },
        });
    }
    let b = bound?;
    (norm > b.value).then(|| Divergence {
        what: format!(
            "||w|| = {} is past {} = {}, which the objective's minimizer obeys",
            auc_core::shortest(norm),
            b.what,
            auc_core::shortest(b.value)
        ),
        advice: format!("{} (now {})", b.advice, auc_core::shortest(b.now)),
    })
}

/// Pads `v` with zeros up to `dim` values (a longer `v` is left as it is): the growth of a
/// per-feature vector whose entries stay 0 while their feature is 0 ([`OnlineLearner::grow`]).
///
/// [`OnlineLearner::grow`]: auc_core::OnlineLearner::grow
pub(crate) fn grow_zeros(v: &mut Vec<f64>, dim: usize) {
    if v.len() < dim {
        v.resize(dim, 0.0);
    }
}

/// Starts loading the entries of a per-feature vector at a sparse row's features
/// ([`OnlineLearner::prefetch`]); a dense row is read in order, which the hardware prefetches
/// by itself. An entry whose size does not divide the 64-byte cache line may straddle two
/// lines: then the next entry's first byte is prefetched too, which lies in the second line
/// whenever entry `j` straddles.
///
/// [`OnlineLearner::prefetch`]: auc_core::OnlineLearner::prefetch
pub(crate) fn prefetch_rows_features<T>(x: Row<'_>, v: &[T]) {
    let straddles = 64 % size_of::<T>().max(1) != 0;
    if let Row::Sparse(r) = x {
        for &j in r.indices() {
            prefetch_index::prefetch_index(v, j as usize);
            if straddles {
                prefetch_index::prefetch_index(v, j as usize + 1);
            }
        }
    }
}

/// Checks a decoded buffered row: within `dim` features, finite values, sorted indices.
pub(crate) fn check_row(row: &auc_core::RowBuf, dim: usize) -> Result<(), auc_core::StateError> {
    row.check(dim)
        .map_err(|e| auc_core::StateError::new(format!("a buffered row: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::SparseVec;

    #[test]
    fn saturating_steps_clamp_and_are_reported() {
        let mut w = vec![1e308, -1.0, 0.5];
        saturating_axpy(Row::Dense(&[1e308, 1.0, 0.0]), 1.0, &mut w);
        assert_eq!(w[0].to_bits(), f64::MAX.to_bits());
        assert_eq!(w[1].to_bits(), 0.0f64.to_bits());
        let sparse = SparseVec::from_pairs([(0, -1e308), (2, 2.0)]).unwrap();
        saturating_axpy(Row::Sparse(sparse.view()), 4.0, &mut w);
        assert!(w.iter().all(|v| v.is_finite()));
        let d = linear_divergence(&w, None, 0).unwrap();
        assert!(d.to_string().contains("--scale"), "{d}");
        assert!(linear_divergence(&[3.0, 4.0], None, 0).is_none());
    }

    #[test]
    fn norm_bounds_and_rejections_name_the_parameter() {
        let bound = NormBound {
            value: 4.0,
            what: "2/sqrt(lambda)",
            advice: "lower eta",
            now: 0.25,
        };
        assert!(linear_divergence(&[3.0, 0.0], Some(bound), 0).is_none());
        let d = linear_divergence(&[3.0, 4.0], Some(bound), 0).unwrap();
        assert_eq!(
            d.to_string(),
            "||w|| = 5 is past 2/sqrt(lambda) = 4, which the objective's minimizer obeys: lower eta (now 0.25)"
        );
        let d = linear_divergence(&[0.0, 0.0], Some(bound), 2).unwrap();
        assert!(d.to_string().contains("2 step(s) were refused"), "{d}");
        assert!(d.to_string().ends_with("lower eta (now 0.25)"), "{d}");
    }
}
