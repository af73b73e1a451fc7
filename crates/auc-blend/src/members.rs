//! The members' fits from the blend's parts, shared by the blend's fit and its weight's
//! choice: the kernel member from the sums of its rows' kernel values (or from the rows), and
//! each member's spread over the rows it was fitted on.

use auc_core::{Dataset, FitError};
use auc_online::{MomentModel, solve_square};
use auc_prep::FeatureMap;
use auc_stats::Moments;

use crate::kernel_moments::{self, KernelSums};

/// The kernel member on `map`: OPAUC-batch with `lambda` on the mapped rows of `train` from the
/// projected moments of their kernel values (those are also returned).
pub(crate) fn kernel_on_map(
    map: &FeatureMap,
    train: &Dataset,
    lambda: f64,
) -> Result<(MomentModel, Moments), FitError> {
    // The mapped rows' problem from the moments of the kernel values (projected.rs), summed a block
    // at a time about a fixed shift (kernel_moments.rs).
    let shift = kernel_moments::first_block_shift(map, train);
    kernel_of_sums(map, &kernel_moments::sums_of(map, &shift, train), lambda)
}

/// The kernel member on `map` from the sums of its rows' kernel values, and their moments.
pub(crate) fn kernel_of_sums(
    map: &FeatureMap,
    sums: &KernelSums,
    lambda: f64,
) -> Result<(MomentModel, Moments), FitError> {
    let kernel_moments = sums.moments().ok_or(FitError::NotFinite {
        what: "the kernel member's moments",
    })?;
    let problem = crate::projected::project(map, &kernel_moments)?;
    let kernel = MomentModel::new(lambda, solve_square(lambda, &problem)?, &problem);
    Ok((kernel, kernel_moments))
}

/// The standard deviation over all rows of the score $c^\top k$ from the two classes' moments
/// of $k$: with class means $m_\pm = c^\top \bar k_\pm$ and variances $q_\pm = c^\top
/// \Sigma_\pm c$, the pooled variance is $\bigl(n_+ q_+ + n_- q_- + \frac{n_+ n_-}{n}(m_+ -
/// m_-)^2\bigr) / n$ (within the classes plus between them), exactly that of the scores up to
/// rounding; 1 when it is 0 or not finite, as [`spread`].
pub(crate) fn linear_spread(c: &[f64], k: &Moments) -> f64 {
    let (np, nn) = (k.pos.count() as f64, k.neg.count() as f64);
    let n = np + nn;
    if c.len() != k.pos.dim() || n == 0.0 {
        return 1.0;
    }
    let (qp, qn) = (k.pos.quad_form(c), k.neg.quad_form(c));
    let gap = k.pos.mean_dot(c) - k.neg.mean_dot(c);
    let var = (np * qp + nn * qn + np * nn / n * gap * gap) / n;
    let s = var.sqrt();
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}

/// The standard deviation of `v`, or 1 when it is 0 or not finite (a member that scores every
/// row alike adds a constant, which changes no ranking).
pub(crate) fn spread(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / n;
    let s = var.sqrt();
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}
