//! Proper scoring rules of probabilities against labels: log loss and the Brier score, as
//! scikit-learn's `log_loss` and `brier_score_loss` compute them.

use auc_core::Label;

use crate::metrics::MetricError;

/// Checks lengths and that every probability is finite and in $[0, 1]$.
fn check(probs: &[f64], labels: &[Label]) -> Result<(), MetricError> {
    if probs.len() != labels.len() {
        return Err(MetricError::LengthMismatch {
            scores: probs.len(),
            labels: labels.len(),
        });
    }
    if let Some(index) = probs
        .iter()
        .position(|p| !p.is_finite() || !(0.0..=1.0).contains(p))
    {
        return Err(MetricError::NonFinite { index });
    }
    if probs.is_empty() {
        return Err(MetricError::SingleClass { pos: 0, neg: 0 });
    }
    Ok(())
}

/// The mean log loss $-\frac1n \sum_i [y_i \log p_i + (1 - y_i) \log(1 - p_i)]$ of the
/// probabilities $p_i$ of the positive class, each clipped to $[\epsilon, 1 - \epsilon]$ with
/// $\epsilon$ the machine epsilon (scikit-learn's clipping for `float64`), so a confident
/// mistake costs about 36, not infinity.
///
/// # Errors
/// Lengths that differ, no rows, or a probability outside $[0, 1]$ (reported as
/// [`MetricError::NonFinite`] with its position).
pub fn log_loss(probs: &[f64], labels: &[Label]) -> Result<f64, MetricError> {
    check(probs, labels)?;
    let eps = f64::EPSILON;
    let sum: f64 = probs
        .iter()
        .zip(labels)
        .map(|(&p, l)| {
            let p = p.clamp(eps, 1.0 - eps);
            if l.is_pos() { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum();
    Ok(sum / probs.len() as f64)
}

/// The Brier score $\frac1n \sum_i (p_i - y_i)^2$ with $y_i \in \{0, 1\}$.
///
/// # Errors
/// As [`log_loss`].
pub fn brier_score(probs: &[f64], labels: &[Label]) -> Result<f64, MetricError> {
    check(probs, labels)?;
    let sum: f64 = probs
        .iter()
        .zip(labels)
        .map(|(&p, l)| {
            let y = if l.is_pos() { 1.0 } else { 0.0 };
            (p - y) * (p - y)
        })
        .sum();
    Ok(sum / probs.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};

    #[test]
    fn values_by_hand() {
        let p = [0.9, 0.2, 0.6];
        let y = [Pos, Neg, Neg];
        let want = -(0.9f64.ln() + 0.8f64.ln() + 0.4f64.ln()) / 3.0;
        assert!((log_loss(&p, &y).unwrap() - want).abs() < 1e-15);
        let brier = (0.01 + 0.04 + 0.36) / 3.0;
        assert!((brier_score(&p, &y).unwrap() - brier).abs() < 1e-15);
    }

    #[test]
    fn certain_mistakes_are_clipped_and_bad_inputs_refused() {
        let l = log_loss(&[0.0, 1.0], &[Pos, Neg]).unwrap();
        assert!((l + f64::EPSILON.ln()).abs() < 1e-9, "{l}");
        assert!(log_loss(&[1.5], &[Pos]).is_err());
        assert!(brier_score(&[f64::NAN], &[Pos]).is_err());
        assert!(brier_score(&[0.5], &[Pos, Neg]).is_err());
        assert!(log_loss(&[], &[]).is_err());
    }
}
