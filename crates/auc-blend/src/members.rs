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
/// rounding; 1 when it does not tell the rows apart, as [`spread`].
pub(crate) fn linear_spread(c: &[f64], k: &Moments) -> f64 {
    let (np, nn) = (k.pos.count() as f64, k.neg.count() as f64);
    let n = np + nn;
    if c.len() != k.pos.dim() || n == 0.0 {
        return 1.0;
    }
    let (qp, qn) = (k.pos.quad_form(c), k.neg.quad_form(c));
    let gap = k.pos.mean_dot(c) - k.neg.mean_dot(c);
    let var = (np * qp + nn * qn + np * nn / n * gap * gap) / n;
    let mean = (np * k.pos.mean_dot(c) + nn * k.neg.mean_dot(c)) / n;
    usable(var.sqrt(), mean)
}

/// The standard deviation of `v`, or 1 when it is 0 or not finite (a member that scores every
/// row alike adds a constant, which changes no ranking).
pub(crate) fn spread(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / n;
    usable(var.sqrt(), mean)
}

/// A member's spread `s` about its mean score `mean` as the divisor of its scores, or 1 when it
/// does not tell the rows apart: 0, not finite, or below [`CONSTANT_SPREAD`] of the mean's
/// magnitude, where the differences are rounding (trees that cannot split on 6 rows scored
/// every row about 1.9e-16 apart by 2.5e-32, and dividing by that spread made the blend's
/// scores 3.8e15, the other member's ranking left to the last bits).
fn usable(s: f64, mean: f64) -> f64 {
    if s.is_finite() && s > 0.0 && s > CONSTANT_SPREAD * mean.abs() {
        s
    } else {
        1.0
    }
}

/// The spread, relative to the mean score's magnitude, below which a member's scores count as
/// constant: a million times `f64`'s relative rounding.
const CONSTANT_SPREAD: f64 = 1e-10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_of_rounding_counts_as_none() {
        // Two rows' standard deviation is half their difference.
        assert!((spread(&[1.0, 3.0]) - 1.0).abs() < 1e-15);
        assert!((spread(&[1e-16, 3e-16]) - 1e-16).abs() < 1e-30);
        // Constant scores, and scores apart by rounding only (one ulp of 1.9e-16 is 2.5e-32).
        assert_eq!(spread(&[2.0, 2.0, 2.0]).to_bits(), 1.0f64.to_bits());
        let a: f64 = 1.9e-16;
        let b = f64::from_bits(a.to_bits() + 1);
        assert_eq!(spread(&[a, b, a, b]).to_bits(), 1.0f64.to_bits());
        // Not finite: no spread.
        assert_eq!(spread(&[f64::INFINITY, 1.0]).to_bits(), 1.0f64.to_bits());
        // Apart by more than rounding, however small the scores: kept.
        let s = spread(&[a, 2.0 * a]);
        assert!((s - a / 2.0).abs() < 1e-30, "{s}");
    }
}
