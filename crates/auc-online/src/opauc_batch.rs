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

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_stats::Moments;
use serde::{Deserialize, Serialize};

use crate::batch_moments::{
    MomentFit, MomentModel, MomentParams, fit_bytes, moments_of, solve_square,
};

/// Parameters of the batch square-surrogate learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpaucBatchParams {
    /// Regularization $\lambda > 0$.
    pub lambda: f64,
}

impl Default for OpaucBatchParams {
    /// $\lambda = 2^{-9}$ (module docs, Default).
    fn default() -> Self {
        Self {
            lambda: 0.001953125,
        }
    }
}

impl Params for OpaucBatchParams {
    const NAME: &'static str = "opauc-batch";
    const TITLE: &'static str = "OPAUC-batch";
    const ABOUT: &'static str = "OPAUC-batch [OAUC eq. 13; OPAUC16]: the square surrogate over all pairs, solved exactly from merged class moments (Cholesky)";
    const FAMILY: Family = Family::Batch;
    const SPECS: &'static [ParamSpec] = &[ParamSpec::real(
        "lambda",
        Range::Positive,
        "regularization lambda > 0 of lambda/2 ||w||^2 + (1/2) mean over pairs of (1 - w'(x+ - x-))^2",
    )];
    const GRID: &'static [&'static str] = &["lambda=2^-10..2^10"];
}

impl MomentParams for OpaucBatchParams {
    fn fit_moments(&self, m: &Moments) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        MomentModel::fit(self.lambda, m, solve_square)
    }
}

impl BatchParams for OpaucBatchParams {
    type Model = MomentModel;

    fn fit_model(&self, train: &Dataset, _seed: u64) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        self.fit_moments(&moments_of(train))
    }

    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
        self.check()?;
        Ok(Box::new(MomentFit(self.clone())))
    }

    fn fit_bytes(&self, shape: &DataShape) -> u64 {
        fit_bytes(shape.dim)
    }
}
