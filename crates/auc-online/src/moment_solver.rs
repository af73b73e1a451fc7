//! What the two batch moment learners share when they solve without a $p \times p$ matrix:
//! the `solver` and `sketch` parameters, the fit over the training rows ([`RowsProblem`]) or
//! over sketched moments ([`SketchedProblem`]) by one of the operator solvers, and its memory.

use auc_core::{DataShape, Dataset, FitError, ParamError, ParamSpec};
use serde::{Deserialize, Serialize};

use crate::batch_moments::{MomentModel, Solution, fit_bytes};
use crate::pair_operator::{MAX_CG_STEPS, PairOperator, solve_square_cg};
use crate::psi_m_cg::solve_psi_m_cg;
use crate::rows_problem::RowsProblem;
use crate::sketched_problem::SketchedProblem;

/// The most features `solver = auto` solves densely: $p^3/3 \approx 2.3 \cdot 10^{10}$ flops a
/// Cholesky factorization and about 670 MB at $p = 4096$; above it conjugate gradients over
/// the rows cost $O(\mathrm{nnz} + p)$ per iteration instead.
pub const AUTO_DENSE_MAX_DIM: usize = 4096;

/// How a batch moment learner solves: densely (Cholesky factorizations of $p \times p$
/// matrices) or by conjugate gradients on products with $S$.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MomentSolver {
    /// Dense up to [`AUTO_DENSE_MAX_DIM`] features, conjugate gradients above.
    #[default]
    #[serde(rename = "auto")]
    Auto,
    /// Dense: the system (or each Newton step) factorized by Cholesky.
    #[serde(rename = "cholesky")]
    Cholesky,
    /// Conjugate gradients; over the rows when fitted on rows.
    #[serde(rename = "cg")]
    Cg,
}

impl MomentSolver {
    /// Whether a fit on `dim` features runs conjugate gradients.
    pub fn uses_cg(self, dim: usize) -> bool {
        match self {
            MomentSolver::Auto => dim > AUTO_DENSE_MAX_DIM,
            MomentSolver::Cholesky => false,
            MomentSolver::Cg => true,
        }
    }
}

/// The `solver` parameter of both learners.
pub(crate) const SOLVER_SPEC: ParamSpec = ParamSpec::choice(
    "solver",
    &["auto", "cholesky", "cg"],
    "cholesky: dense p x p matrices; cg: conjugate gradients over the training rows, O(nnz + p) per product and no p x p matrix (wide sparse data; auc train fits in memory); auto: cholesky up to 4096 features, cg above",
);

/// The `sketch` parameter of both learners.
pub(crate) const SKETCH_SPEC: ParamSpec = ParamSpec::integer(
    "sketch",
    0,
    "0 = the exact covariances; K >= 1 = each class's co-moment from a Frequent Directions sketch of rank K (O(pK) memory, within a stated bound; solved by cg on the rows in memory)",
);

/// A `sketch` of at most `auc_stats::MAX_ELL`.
pub(crate) fn check_sketch(sketch: usize) -> Result<(), ParamError> {
    if sketch <= auc_stats::MAX_ELL {
        Ok(())
    } else {
        Err(ParamError::OutOfRange {
            name: "sketch",
            value: sketch as f64,
            allowed: "an integer in 0..=4096 (0 = exact)",
        })
    }
}

/// One of the operator solvers: [`solve_square_cg`] or [`solve_psi_m_cg`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum OperatorSolve {
    /// The square surrogate by conjugate gradients.
    Square,
    /// psi_M by Newton-CG with at most this many Newton steps.
    PsiM(u32),
}

impl OperatorSolve {
    pub(crate) fn run<O: PairOperator>(
        self,
        lambda: f64,
        op: &mut O,
    ) -> Result<Solution, FitError> {
        match self {
            OperatorSolve::Square => solve_square_cg(lambda, op, MAX_CG_STEPS),
            OperatorSolve::PsiM(steps) => solve_psi_m_cg(lambda, op, steps),
        }
    }
}

/// Fits on `train`'s rows without a $p \times p$ matrix: over sketches of rank `sketch` when it
/// is positive (their negative parts put back, [`SketchedProblem`]'s docs), else over the exact
/// rows. A sketch that still meets negative curvature is shifted by
/// the smallest of $\varepsilon/1024, \varepsilon/256, \dots, \varepsilon$ that has none
/// ([`SketchedProblem`]'s docs); the summary says so.
pub(crate) fn fit_on_rows(
    lambda: f64,
    sketch: usize,
    train: &Dataset,
    solve: OperatorSolve,
) -> Result<(MomentModel, String), FitError> {
    if sketch == 0 {
        let mut pb = RowsProblem::new(train)?;
        let model = MomentModel::with_counts(lambda, solve.run(lambda, &mut pb)?, pb.counts());
        let summary = model.summary();
        return Ok((model, summary));
    }
    let mut pb = SketchedProblem::from_dataset(train, sketch)?;
    let eps = pb.error_bound();
    let mut shift = 0.0;
    let s = loop {
        match solve.run(lambda, &mut pb) {
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
    let model = MomentModel::with_counts(lambda, s, pb.counts());
    let clipped = pb.clipped();
    let summary = format!(
        "{}, sketch rank {sketch}: |w'(S - S_k)w| <= {eps:.2e} ||w||^2{}{}",
        model.summary(),
        if clipped > 0.0 {
            format!(" (negative parts put back: {clipped:.2e})")
        } else {
            String::new()
        },
        if shift > 0.0 {
            format!(" (more than lambda: solved with S_k + {shift:.2e} I)")
        } else {
            String::new()
        }
    );
    Ok((model, summary))
}

/// Peak bytes of a fit on data of `shape` with these settings.
pub(crate) fn fit_bytes_for(solver: MomentSolver, sketch: usize, shape: &DataShape) -> u64 {
    if sketch > 0 {
        SketchedProblem::fit_bytes(sketch, shape.dim, shape.dim)
    } else if solver.uses_cg(shape.dim) {
        RowsProblem::fit_bytes(shape.n, shape.dim)
    } else {
        fit_bytes(shape.dim)
    }
}
