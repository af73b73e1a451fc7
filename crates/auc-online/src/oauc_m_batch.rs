//! OAUC-M-batch: the second-order hinge surrogate $\psi_M$ of [OAUC eq. 14, Lemma 2] applied to
//! the pooled distribution of **all** positive-negative pair differences of the training data,
//! minimized from the merged class moments (`docs/math/batch-moments.md`, eqs. 5-8).
//!
//! The objective $\frac\lambda2\lVert w\rVert^2 + \psi_M(w^\top\Delta, w^\top S w)$ is an upper
//! bound of $\frac\lambda2\lVert w\rVert^2$ plus the mean pairwise hinge loss, and
//! $\lambda$-strongly convex. [`crate::solve_psi_m_with`] minimizes it: in closed form when the
//! minimizer sits on the kink of $\psi_M$ (separable data), else by bisection on the radius of
//! the stationary point and Newton steps; the model stores the certificate
//! $\lVert w - w^\star\rVert \le G/\lambda$ and whether it met its tolerance
//! ([`MomentModel::converged`]), which `auc train` reports.
//!
//! # Default
//!
//! $\lambda = 2^{-10}$, chosen by measurement (`cargo xtask reproduce defaults --family
//! moments`, `docs/results/defaults.md`, the rule stated there): `auc cv --each` over
//! $\lambda \in 2^{-12}, \dots, 2^{10}$ on the 15 data sets of [OAUC Table 2], best mean rank
//! (6.6 of 23), mean AUC 86.68 %, leave-one-set-out regret 0.07 points median, 0.94 worst
//! (ionosphere). It is also the value copied provisionally from the online OPAUC before.
//!
//! # Solver
//!
//! As `opauc-batch`'s: `solver = cholesky` factorizes each Newton step's dense Hessian;
//! `solver = cg` solves each step by conjugate gradients on Hessian-vector products with $S v$
//! from the training rows ([`crate::solve_psi_m_cg`]: no $p \times p$ matrix, no search for a
//! minimizer on the kink); `auto` is Cholesky up to [`crate::AUTO_DENSE_MAX_DIM`] features;
//! `sketch = K` uses Frequent Directions sketches of the co-moments.

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_stats::Moments;
use serde::{Deserialize, Serialize};

use crate::batch_moments::{
    MAX_NEWTON_STEPS, MomentFit, MomentModel, MomentParams, PairProblem, check_step_cap,
    moments_of, solve_psi_m_with,
};
use crate::moment_solver::{
    MomentSolver, OperatorSolve, SKETCH_SPEC, SOLVER_SPEC, check_sketch, fit_bytes_for, fit_on_rows,
};
use crate::psi_m_cg::solve_psi_m_cg;

/// Parameters of the batch psi_M learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OaucMBatchParams {
    /// Regularization $\lambda > 0$.
    pub lambda: f64,
    /// The most Newton steps ([`crate::MAX_NEWTON_STEPS`] by default; about ten suffice, and a
    /// minimizer on the kink of $\psi_M$ takes none). A fit that stops at the cap uncertified
    /// is reported, never silent ([`MomentModel::converged`]).
    pub max_steps: u64,
    /// The solver (module docs, Solver).
    pub solver: MomentSolver,
    /// 0: the exact $S$; $\ell \ge 1$: Frequent Directions sketches of rank $\ell$.
    pub sketch: usize,
}

impl Default for OaucMBatchParams {
    /// $\lambda = 2^{-10}$ (module docs, Default); at most [`MAX_NEWTON_STEPS`] Newton steps.
    fn default() -> Self {
        Self {
            lambda: 0.0009765625,
            max_steps: u64::from(MAX_NEWTON_STEPS),
            solver: MomentSolver::Auto,
            sketch: 0,
        }
    }
}

impl Params for OaucMBatchParams {
    const NAME: &'static str = "oauc-m-batch";
    const TITLE: &'static str = "OAUC-M-batch";
    const ABOUT: &'static str = "OAUC-M-batch [OAUC eq. 14, Lemma 2]: psi_M of all pair differences, minimized exactly from merged class moments (Newton, certified), or over the rows by Newton-CG on wide data";
    const FAMILY: Family = Family::Batch;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0 of lambda/2 ||w||^2 + psi_M(w' Delta, w' (S+ + S-) w)",
        ),
        ParamSpec::integer(
            "max_steps",
            1,
            "the most Newton steps (a fit stopped there without its certificate is reported)",
        ),
        SOLVER_SPEC,
        SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = &["lambda=2^-10..2^10"];

    fn check(&self) -> Result<(), ParamError> {
        Self::SPECS[0].check_real(self.lambda)?;
        check_step_cap(self.max_steps)?;
        check_sketch(self.sketch)
    }
}

impl MomentParams for OaucMBatchParams {
    fn fit_moments(&self, m: &Moments) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        let mut pb = PairProblem::new(m)?;
        let s = if self.solver == MomentSolver::Cg {
            solve_psi_m_cg(self.lambda, &mut pb, self.step_cap())?
        } else {
            solve_psi_m_with(self.lambda, &pb, self.step_cap())?
        };
        let model = MomentModel::new(self.lambda, s, &pb);
        let summary = model.summary();
        Ok((model, summary))
    }

    fn solves_over_rows(&self) -> bool {
        self.solver == MomentSolver::Cg || self.sketch > 0
    }
}

impl OaucMBatchParams {
    /// `max_steps` as the solvers take it.
    fn step_cap(&self) -> u32 {
        u32::try_from(self.max_steps).unwrap_or(u32::MAX)
    }
}

impl BatchParams for OaucMBatchParams {
    type Model = MomentModel;

    fn fit_model(&self, train: &Dataset, _seed: u64) -> Result<(MomentModel, String), FitError> {
        self.check()?;
        if self.sketch > 0 || self.solver.uses_cg(train.dim()) {
            let solve = OperatorSolve::PsiM(self.step_cap());
            return fit_on_rows(self.lambda, self.sketch, train, solve);
        }
        self.fit_moments(&moments_of(train))
    }

    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
        self.check()?;
        Ok(Box::new(MomentFit(self.clone())))
    }

    fn fit_bytes(&self, shape: &DataShape) -> u64 {
        fit_bytes_for(self.solver, self.sketch, shape)
    }
}
