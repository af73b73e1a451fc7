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
//! takes Cholesky up to [`crate::AUTO_DENSE_MAX_DIM`] features and conjugate gradients above. From
//! merged moment files (which hold $S$) both solvers run on the dense matrix.

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_stats::Moments;

use serde::{Deserialize, Serialize};

use crate::batch_moments::{
    MomentFit, MomentModel, MomentParams, PairProblem, moments_of, solve_square,
};
use crate::moment_solver::{
    MomentSolver, OperatorSolve, SKETCH_SPEC, SOLVER_SPEC, check_sketch, fit_bytes_for, fit_on_rows,
};
use crate::pair_operator::{MAX_CG_STEPS, solve_square_cg};

/// Parameters of the batch square-surrogate learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpaucBatchParams {
    /// Regularization $\lambda > 0$.
    pub lambda: f64,
    /// The solver (module docs, Solver).
    pub solver: MomentSolver,
    /// 0: the exact $S$; $\ell \ge 1$: each class's co-moment from a Frequent Directions
    /// sketch of rank $\ell$ ([`crate::SketchedProblem`]), solved by conjugate gradients.
    pub sketch: usize,
}

impl Default for OpaucBatchParams {
    /// $\lambda = 2^{-9}$ (module docs, Default).
    fn default() -> Self {
        Self {
            lambda: 0.001953125,
            solver: MomentSolver::Auto,
            sketch: 0,
        }
    }
}

impl Params for OpaucBatchParams {
    const NAME: &'static str = "opauc-batch";
    const TITLE: &'static str = "OPAUC-batch";
    const ABOUT: &'static str = "OPAUC-batch [OAUC eq. 13; OPAUC16]: the square surrogate over all pairs, solved exactly from merged class moments (Cholesky), or over the rows by conjugate gradients on wide data";
    const FAMILY: Family = Family::Batch;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0 of lambda/2 ||w||^2 + (1/2) mean over pairs of (1 - w'(x+ - x-))^2",
        ),
        SOLVER_SPEC,
        SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = &["lambda=2^-10..2^10"];

    fn check(&self) -> Result<(), ParamError> {
        Self::SPECS[0].check_real(self.lambda)?;
        check_sketch(self.sketch)
    }
}

impl MomentParams for OpaucBatchParams {
    fn fit_moments(&self, m: &Moments) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        if self.solver == MomentSolver::Cg {
            let mut pb = PairProblem::new(m)?;
            let s = solve_square_cg(self.lambda, &mut pb, MAX_CG_STEPS)?;
            let model = MomentModel::new(self.lambda, s, &pb);
            let summary = model.summary();
            return Ok((model, summary));
        }
        MomentModel::fit(self.lambda, m, solve_square)
    }

    fn solves_over_rows(&self) -> bool {
        self.solver == MomentSolver::Cg || self.sketch > 0
    }
}

impl BatchParams for OpaucBatchParams {
    type Model = MomentModel;

    fn fit_model(&self, train: &Dataset, _seed: u64) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        if self.sketch > 0 || self.solver.uses_cg(train.dim()) {
            return fit_on_rows(self.lambda, self.sketch, train, OperatorSolve::Square);
        }
        MomentModel::fit(self.lambda, &moments_of(train), solve_square)
    }

    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
        self.check()?;
        Ok(Box::new(MomentFit(self.clone())))
    }

    fn fit_bytes(&self, shape: &DataShape) -> u64 {
        fit_bytes_for(self.solver, self.sketch, shape)
    }
}
