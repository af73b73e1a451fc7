//! One-way partial AUC: the area under the ROC curve over false-positive rates in $[0, B]$, and
//! its McClish standardization \[McClish89\], as scikit-learn's `roc_auc_score(y, s, max_fpr=B)`
//! computes it \[SKL\]. Definitions and a worked example: `docs/math/partial-auc.md`.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $B$ | `max_fpr` | the largest false-positive rate counted, in $(0, 1]$ |
//! | $n_+$, $n_-$ | `pos`, `neg` | positives, negatives |
//! | $\mathrm{TP}_g$, $\mathrm{FP}_g$ | `tp`, `fp` | positives and negatives scoring at least the $g$-th distinct score |
//! | $A_B$ | [`PartialAuc::area`] | the unstandardized area, in $[0, B]$ |
//! | $\tilde A_B$ | [`PartialAuc::standardized`] | McClish's value, in $[(1 - B)/(2 - B), 1]$ |

use auc_core::Label;

use crate::metrics::{MetricError, Sorted};

/// The partial AUC up to false-positive rate [`PartialAuc::max_fpr`], both raw and standardized.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PartialAuc {
    /// $B$, the upper end of the false-positive rates counted.
    pub max_fpr: f64,
    /// $A_B = \int_0^B \mathrm{ROC}(x)\,dx$, the area under the ROC polyline left of $B$
    /// (between 0 and $B$).
    pub area: f64,
    /// McClish's standardized value ([`mcclish`]): 1/2 for the diagonal, 1 for a perfect ranking;
    /// scikit-learn's `roc_auc_score(..., max_fpr=B)`. Equals `area` (the plain AUC) at $B = 1$.
    pub standardized: f64,
}

/// McClish's standardization \[McClish89\] of an area $A_B$ under the ROC curve left of $B$, as
/// scikit-learn \[SKL\] writes it: with $A_{\min} = B^2/2$ (the diagonal) and $A_{\max} = B$ (a
/// perfect ranking),
/// $$\tilde A_B = \frac12\left(1 + \frac{A_B - A_{\min}}{A_{\max} - A_{\min}}\right).$$
/// At $B = 1$ it is the identity ($\tilde A_1 = A_1$, the AUC). `max_fpr` must lie in $(0, 1]$
/// (checked by [`partial_auc`]); below the diagonal the value falls under 1/2, down to
/// $(1 - B)/(2 - B)$ at $A_B = 0$.
pub fn mcclish(area: f64, max_fpr: f64) -> f64 {
    let min_area = 0.5 * max_fpr * max_fpr;
    let max_area = max_fpr;
    0.5 * (1.0 + (area - min_area) / (max_area - min_area))
}

/// Refuses a `max_fpr` outside $(0, 1]$, NaN included: what [`partial_auc`] checks first, for
/// callers that check settings before any data is read.
pub fn check_max_fpr(max_fpr: f64) -> Result<(), MetricError> {
    // NaN fails both comparisons, so it is refused too.
    if max_fpr > 0.0 && max_fpr <= 1.0 {
        Ok(())
    } else {
        Err(MetricError::MaxFpr { value: max_fpr })
    }
}

/// The partial AUC of `scores` for `labels` up to false-positive rate `max_fpr` $= B$.
///
/// The ROC curve is the polyline through $(0, 0)$ and, for each distinct score in decreasing
/// order (tied scores enter together, as in scikit-learn's `roc_curve`), the vertex
/// $v_g = (\mathrm{FP}_g / n_-, \mathrm{TP}_g / n_+)$. Its area left of $B$ is
/// $$A_B = \sum_{g:\ \mathrm{FP}_g / n_- \le B} \frac{n^-_g\,(2\,\mathrm{TP}_{g-1} + n^+_g)}{2 n_+ n_-}
///   \;+\; (B - x_0)\,\frac{y_0 + y_B}{2},$$
/// the trapezoids of the segments that end at or left of $B$ (summed exactly in integers), plus
/// the piece of the segment from $v_{g-1} = (x_0, y_0)$ to $v_g = (x_1, y_1)$ that crosses $B$,
/// with the true-positive rate interpolated linearly at $B$:
/// $y_B = y_0 + (y_1 - y_0)(B - x_0)/(x_1 - x_0)$. Which vertices lie left of $B$ is decided by
/// the floating-point comparison $\mathrm{FP}_g / n_- \le B$, as scikit-learn's
/// `searchsorted(fpr, max_fpr, "right")` decides it, so a $B$ that lands on a vertex takes the
/// same vertices. Dropping collinear points (`drop_intermediate`) does not change the polyline,
/// hence not the area.
///
/// Errors: [`MetricError::MaxFpr`] unless $0 < B \le 1$; otherwise as [`crate::metrics::auc`]
/// (one class, non-finite scores, mismatched lengths). $O(n \log n)$.
pub fn partial_auc(
    scores: &[f64],
    labels: &[Label],
    max_fpr: f64,
) -> Result<PartialAuc, MetricError> {
    check_max_fpr(max_fpr)?;
    let sorted = Sorted::new(scores, labels)?;
    let (pos, neg) = (sorted.pos(), sorted.neg());
    let (pos_f, neg_f) = (pos as f64, neg as f64);
    // Twice the area of the whole trapezoids, in units of 1 / (n_+ n_-): exact in integers.
    let mut area2 = 0u128;
    // The piece of the segment crossing B, already in rate units.
    let mut crossing = 0.0;
    let (mut tp, mut fp) = (0usize, 0usize);
    let mut done = false;
    sorted.for_each_group(|_, gp, gn| {
        if done {
            return;
        }
        let (tp1, fp1) = (tp + gp, fp + gn);
        if fp1 as f64 / neg_f <= max_fpr {
            area2 += gn as u128 * (2 * tp as u128 + gp as u128);
        } else {
            // The first vertex right of B: fp / neg <= B < fp1 / neg, so gn > 0.
            let (x0, x1) = (fp as f64 / neg_f, fp1 as f64 / neg_f);
            let (y0, y1) = (tp as f64 / pos_f, tp1 as f64 / pos_f);
            let y_at_b = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0);
            crossing = (max_fpr - x0) * (y0 + y_at_b) / 2.0;
            done = true;
        }
        (tp, fp) = (tp1, fp1);
    });
    let area = area2 as f64 / (2.0 * pos_f * neg_f) + crossing;
    // scikit-learn returns the plain AUC at B = 1 without the (identity) standardization.
    let standardized = if max_fpr < 1.0 {
        mcclish(area, max_fpr)
    } else {
        area
    };
    Ok(PartialAuc {
        max_fpr,
        area,
        standardized,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::auc;
    use Label::{Neg, Pos};

    fn check(scores: &[f64], labels: &[Label], max_fpr: f64, area: f64, standardized: f64) {
        let p = partial_auc(scores, labels, max_fpr).unwrap();
        assert!((p.area - area).abs() < 1e-15, "area {} != {area}", p.area);
        assert!(
            (p.standardized - standardized).abs() < 1e-15,
            "standardized {} != {standardized}",
            p.standardized
        );
    }

    /// Positives 0.9, 0.5, 0.3; negatives 0.6, 0.3 (the AUC example of `metrics`). ROC vertices:
    /// (0,0), 0.9 -> (0,1/3), 0.6 -> (1/2,1/3), 0.5 -> (1/2,2/3), 0.3 -> (1,1).
    #[test]
    fn areas_by_hand() {
        let s = [0.9, 0.6, 0.5, 0.3, 0.3];
        let y = [Pos, Neg, Pos, Pos, Neg];
        // B = 1/4: inside the segment (0,1/3)-(1/2,1/3), height 1/3: area 1/12.
        // McClish: min 1/32, max 1/4: 0.5 (1 + (1/12 - 1/32) / (7/32)) = 0.5 (1 + 5/21).
        check(&s, &y, 0.25, 1.0 / 12.0, 0.5 * (1.0 + 5.0 / 21.0));
        // B = 1/2 lands on two vertices (a vertical step): area 1/6; min 1/8, max 1/2:
        // 0.5 (1 + (1/6 - 1/8) / (3/8)) = 0.5 (1 + 1/9).
        check(&s, &y, 0.5, 1.0 / 6.0, 0.5 * (1.0 + 1.0 / 9.0));
        // B = 3/4: half of the tied segment (1/2,2/3)-(1,1), TPR 5/6 at B: 1/6 + (1/4)(2/3+5/6)/2.
        let a = 1.0 / 6.0 + 0.25 * (2.0 / 3.0 + 5.0 / 6.0) / 2.0;
        check(&s, &y, 0.75, a, mcclish(a, 0.75));
        // B = 1 is the AUC, 3.5 / 6.
        check(&s, &y, 1.0, 3.5 / 6.0, 3.5 / 6.0);
    }

    #[test]
    fn perfect_and_diagonal_rankings_standardize_to_one_and_one_half() {
        let y = [Pos, Pos, Neg, Neg, Neg];
        for b in [0.1, 0.3, 0.5, 0.99, 1.0] {
            let perfect = partial_auc(&[5.0, 4.0, 3.0, 2.0, 1.0], &y, b).unwrap();
            assert!((perfect.area - b).abs() < 1e-15);
            assert!((perfect.standardized - 1.0).abs() < 1e-15);
            let tied = partial_auc(&[1.0; 5], &y, b).unwrap();
            assert!((tied.area - b * b / 2.0).abs() < 1e-15);
            assert!((tied.standardized - 0.5).abs() < 1e-15);
        }
    }

    #[test]
    fn one_is_the_auc_bit_for_bit() {
        let s = [0.1, 0.4, 0.4, 0.35, 0.8, 0.8, -0.0, 0.0];
        let y = [Neg, Pos, Neg, Pos, Pos, Neg, Pos, Neg];
        let p = partial_auc(&s, &y, 1.0).unwrap();
        let a = auc(&s, &y).unwrap();
        assert_eq!(p.area.to_bits(), a.to_bits());
        assert_eq!(p.standardized.to_bits(), a.to_bits());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let (s, y) = ([0.2, 0.1], [Pos, Neg]);
        for b in [0.0, -0.5, 1.0 + 1e-12, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                partial_auc(&s, &y, b),
                Err(MetricError::MaxFpr { .. })
            ));
        }
        assert_eq!(
            partial_auc(&s, &[Pos, Pos], 0.5),
            Err(MetricError::SingleClass { pos: 2, neg: 0 })
        );
        assert_eq!(
            partial_auc(&[0.2, f64::NAN], &y, 0.5),
            Err(MetricError::NonFinite { index: 1 })
        );
    }
}
