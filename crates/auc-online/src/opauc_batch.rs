//! OPAUC-batch: the square surrogate of [OAUC eq. 13; OPAUC16] over **all** positive-negative
//! pairs of the training data, minimized exactly from the merged class moments
//! (`docs/math/batch-moments.md`, eqs. 3-4).
//!
//! The objective is $\frac\lambda2\lVert w\rVert^2 + \frac{1}{2 n_+ n_-}\sum_{i,j}(1 -
//! w^\top(x^+_i - x^-_j))^2 = \frac\lambda2\lVert w\rVert^2 + \frac12[(1 - w^\top\Delta)^2 +
//! w^\top S w]$, the whole-data form of what the online OPAUC descends one example at a time;
//! its minimizer solves $(\lambda I + \Delta\Delta^\top + S) w = \Delta$ (one Cholesky
//! factorization and one refinement step).
//!
//! # Default
//!
//! $\lambda = 2^{-9}$, chosen by measurement (`cargo xtask reproduce defaults --family moments`,
//! `docs/results/defaults.md`, the rule stated there): `auc cv --each` over
//! $\lambda \in 2^{-12}, \dots, 2^{10}$ on the 15 data sets of [OAUC Table 2], best mean rank
//! (6.5 of 23), mean AUC 86.68 %, leave-one-set-out regret 0.08 points median, 1.06 worst
//! (ionosphere). The previous, provisional $2^{-10}$ (copied from the online OPAUC) is
//! within 0.01 points of it on average.
//!
//! # Solver
//!
//! `solver = cholesky` forms $S$ ($8p^2$ bytes, $p^3/3$ flops); `solver = cg` never does: it
//! runs conjugate gradients with $S v$ computed from the training rows ([`crate::RowsProblem`],
//! $O(\mathrm{nnz} + p)$ per iteration, $O(n + p)$ memory), the same minimizer to the
//! certificate's tolerance, so 260,000 hashed features fit in megabytes. `auto` (the default)
//! takes Cholesky up to [`AUTO_DENSE_MAX_DIM`] features and conjugate gradients above. From
//! merged moment files (which hold $S$) both solvers run on the dense matrix.

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_stats::Moments;

use crate::pair_operator::PairOperator;
use serde::{Deserialize, Serialize};

use crate::batch_moments::{
    MomentFit, MomentModel, MomentParams, PairProblem, fit_bytes, moments_of, solve_square,
};
use crate::pair_operator::{MAX_CG_STEPS, solve_square_cg};
use crate::rows_problem::RowsProblem;
use crate::sketched_problem::SketchedProblem;

/// The most features `solver = auto` solves by Cholesky: $p^3/3 \approx 2.3 \cdot 10^{10}$
/// flops and about 670 MB at $p = 4096$; above it conjugate gradients over the rows cost
/// $O(\mathrm{nnz} + p)$ per iteration instead.
pub const AUTO_DENSE_MAX_DIM: usize = 4096;

/// How `opauc-batch` solves $(\lambda I + \Delta\Delta^\top + S) w = \Delta$ (module docs,
/// Solver).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SquareSolver {
    /// Cholesky up to [`AUTO_DENSE_MAX_DIM`] features, conjugate gradients above.
    #[default]
    #[serde(rename = "auto")]
    Auto,
    /// One Cholesky factorization of the dense system and one refinement step.
    #[serde(rename = "cholesky")]
    Cholesky,
    /// Preconditioned conjugate gradients; over the rows when fitted on rows.
    #[serde(rename = "cg")]
    Cg,
}

impl SquareSolver {
    /// Whether a fit on `dim` features runs conjugate gradients.
    pub fn uses_cg(self, dim: usize) -> bool {
        match self {
            SquareSolver::Auto => dim > AUTO_DENSE_MAX_DIM,
            SquareSolver::Cholesky => false,
            SquareSolver::Cg => true,
        }
    }
}

/// Parameters of the batch square-surrogate learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpaucBatchParams {
    /// Regularization $\lambda > 0$.
    pub lambda: f64,
    /// The solver (module docs, Solver).
    pub solver: SquareSolver,
    /// 0: the exact $S$; $\ell \ge 1$: each class's co-moment from a Frequent Directions
    /// sketch of rank $\ell$ ([`crate::SketchedProblem`]), solved by conjugate gradients.
    pub sketch: usize,
}

impl Default for OpaucBatchParams {
    /// $\lambda = 2^{-9}$ (module docs, Default).
    fn default() -> Self {
        Self {
            lambda: 0.001953125,
            solver: SquareSolver::Auto,
            sketch: 0,
        }
    }
}

impl Params for OpaucBatchParams {
    const NAME: &'static str = "opauc-batch";
    const TITLE: &'static str = "OPAUC-batch";
    const ABOUT: &'static str = "OPAUC-batch [OAUC eq. 13; OPAUC16]: the square surrogate over all pairs, solved exactly from merged class moments (Cholesky)";
    const FAMILY: Family = Family::Batch;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0 of lambda/2 ||w||^2 + (1/2) mean over pairs of (1 - w'(x+ - x-))^2",
        ),
        ParamSpec::choice(
            "solver",
            &["auto", "cholesky", "cg"],
            "cholesky: dense p x p system; cg: conjugate gradients over the training rows, O(nnz + p) per step and no p x p matrix (wide sparse data; auc train fits in memory); auto: cholesky up to 4096 features, cg above",
        ),
        ParamSpec::integer(
            "sketch",
            0,
            "0 = the exact covariances; K >= 1 = each class's co-moment from a Frequent Directions sketch of rank K (O(pK) memory, within a stated bound; solved by cg on the rows in memory)",
        ),
    ];

    fn check(&self) -> Result<(), ParamError> {
        Self::SPECS[0].check_real(self.lambda)?;
        if self.sketch > auc_stats::MAX_ELL {
            return Err(ParamError::OutOfRange {
                name: "sketch",
                value: self.sketch as f64,
                allowed: "an integer in 0..=4096 (0 = exact)",
            });
        }
        Ok(())
    }
    const GRID: &'static [&'static str] = &["lambda=2^-10..2^10"];
}

impl MomentParams for OpaucBatchParams {
    fn fit_moments(&self, m: &Moments) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        if self.solver == SquareSolver::Cg {
            let mut pb = PairProblem::new(m)?;
            let s = solve_square_cg(self.lambda, &mut pb, MAX_CG_STEPS)?;
            let model = MomentModel::new(self.lambda, s, &pb);
            let summary = model.summary();
            return Ok((model, summary));
        }
        MomentModel::fit(self.lambda, m, solve_square)
    }

    fn solves_over_rows(&self) -> bool {
        self.solver == SquareSolver::Cg || self.sketch > 0
    }
}

impl BatchParams for OpaucBatchParams {
    type Model = MomentModel;

    fn fit_model(&self, train: &Dataset, _seed: u64) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        if self.sketch > 0 {
            let mut pb = SketchedProblem::from_dataset(train, self.sketch)?;
            // Negative curvature means the sketch's error exceeds lambda: shift S_k by the
            // smallest fraction of its bound that is definite (SketchedProblem's docs).
            let eps = pb.error_bound();
            let mut shift = 0.0;
            let s = loop {
                match solve_square_cg(self.lambda, &mut pb, MAX_CG_STEPS) {
                    Ok(s) => break s,
                    Err(e) if shift >= eps => return Err(e),
                    Err(_) => {
                        shift = if shift == 0.0 {
                            eps / 1024.0
                        } else {
                            (4.0 * shift).min(eps)
                        };
                        pb.set_shift(shift);
                    }
                }
            };
            let model = MomentModel::with_counts(self.lambda, s, pb.counts());
            let summary = format!(
                "{}, sketch rank {}: |w'(S - S_k)w| <= {:.2e} ||w||^2{}",
                model.summary(),
                self.sketch,
                eps,
                if shift > 0.0 {
                    format!(" (more than lambda: solved with S_k + {shift:.2e} I)")
                } else {
                    String::new()
                }
            );
            return Ok((model, summary));
        }
        if self.solver.uses_cg(train.dim()) {
            let mut pb = RowsProblem::new(train)?;
            let s = solve_square_cg(self.lambda, &mut pb, MAX_CG_STEPS)?;
            let model = MomentModel::with_counts(self.lambda, s, pb.counts());
            let summary = model.summary();
            return Ok((model, summary));
        }
        MomentModel::fit(self.lambda, &moments_of(train), solve_square)
    }

    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
        self.check()?;
        Ok(Box::new(MomentFit(self.clone())))
    }

    fn fit_bytes(&self, shape: &DataShape) -> u64 {
        if self.sketch > 0 {
            SketchedProblem::fit_bytes(self.sketch, shape.dim, shape.dim)
        } else if self.solver.uses_cg(shape.dim) {
            RowsProblem::fit_bytes(shape.n, shape.dim)
        } else {
            fit_bytes(shape.dim)
        }
    }
}
