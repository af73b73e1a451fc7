//! Properties of AUC and AP (conventions section 2) checked against brute-force definitions.
//!
//! None of these are lemmas from a paper, so they carry plain names. The strategies lean on ties:
//! scores come from a half-integer grid as often as from a continuous range, whole inputs are
//! sometimes a single repeated score, and label vectors often hold exactly one positive or one
//! negative.

use auc_core::Label;
use auc_core::testing::finite;
use auc_core::testing::tol::close;
use auc_metrics::metrics::{MetricError, auc, average_precision, roc_curve};
use proptest::collection::vec;
use proptest::prelude::*;

/// One score: often on a coarse grid (ties), otherwise continuous, sometimes a signed zero.
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-6i32..=6).prop_map(|v| f64::from(v) * 0.5),
        4 => finite(-100.0, 100.0),
        1 => Just(0.0),
        1 => Just(-0.0),
    ]
}

/// Scores and labels of equal length `n` in `2..40`, with both classes present.
fn problem() -> impl Strategy<Value = (Vec<f64>, Vec<Label>)> {
    (2usize..40).prop_flat_map(|n| {
        let scores = prop_oneof![
            4 => vec(score(), n),
            1 => score().prop_map(move |s| vec![s; n]),
        ];
        let positive = prop_oneof![
            4 => vec(any::<bool>(), n),
            1 => (0..n).prop_map(move |i| (0..n).map(|j| j == i).collect::<Vec<bool>>()),
            1 => (0..n).prop_map(move |i| (0..n).map(|j| j != i).collect::<Vec<bool>>()),
        ];
        (scores, positive.prop_map(labels_with_both_classes))
    })
}

/// Maps `true` to positive; flips the first entry if that leaves one class empty.
fn labels_with_both_classes(mut positive: Vec<bool>) -> Vec<Label> {
    if positive.iter().all(|&p| p) || positive.iter().all(|&p| !p) {
        positive[0] = !positive[0];
    }
    positive
        .into_iter()
        .map(|p| if p { Label::Pos } else { Label::Neg })
        .collect()
}

/// Wilcoxon-Mann-Whitney by enumerating all $n_+ n_-$ pairs, ties counted 1/2.
fn brute_force_auc(scores: &[f64], labels: &[Label]) -> f64 {
    let (mut wins2, mut pairs) = (0u64, 0u64);
    for (si, yi) in scores.iter().zip(labels) {
        for (sj, yj) in scores.iter().zip(labels) {
            if yi.is_pos() && !yj.is_pos() {
                pairs += 1;
                wins2 += match si.partial_cmp(sj) {
                    Some(std::cmp::Ordering::Greater) => 2,
                    Some(std::cmp::Ordering::Equal) => 1,
                    _ => 0,
                };
            }
        }
    }
    wins2 as f64 / (2 * pairs) as f64
}

/// AP as the mean, over positives, of the precision at that positive's score:
/// $$\mathrm{AP} = \frac{1}{n_+}\sum_{i: y_i = +1}
///   \frac{\#\{j : s_j \ge s_i, y_j = +1\}}{\#\{j : s_j \ge s_i\}}.$$
/// Tied positives share the precision of their whole tie group, which is what scikit-learn's step
/// sum over distinct thresholds gives.
fn brute_force_ap(scores: &[f64], labels: &[Label]) -> f64 {
    let mut total = 0.0;
    let mut npos = 0usize;
    for (si, yi) in scores.iter().zip(labels) {
        if !yi.is_pos() {
            continue;
        }
        npos += 1;
        let above: Vec<&Label> = scores
            .iter()
            .zip(labels)
            .filter(|(sj, _)| *sj >= si)
            .map(|(_, y)| y)
            .collect();
        let tp = above.iter().filter(|y| y.is_pos()).count();
        total += tp as f64 / above.len() as f64;
    }
    total / npos as f64
}

/// A named strictly increasing map of scores.
type ScoreMap = (&'static str, fn(f64) -> f64);

fn map_scores(scores: &[f64], f: impl Fn(f64) -> f64) -> Vec<f64> {
    scores.iter().map(|&s| f(s)).collect()
}

proptest! {
    /// The sorting AUC counts the same pairs as enumeration; both are ratios of small integers,
    /// so `close` (1e-12 absolute) only absorbs the final division.
    #[test]
    fn auc_equals_brute_force_pair_count((s, y) in problem()) {
        let fast = auc(&s, &y).unwrap();
        let brute = brute_force_auc(&s, &y);
        prop_assert!(close(fast, brute), "auc {fast} vs brute force {brute}");
    }

    /// AUC and AP depend only on the order of the scores (ties included), so a strictly
    /// increasing map changes neither. On this range neither map merges two distinct floats.
    #[test]
    fn metrics_are_invariant_under_strictly_increasing_maps((s, y) in problem()) {
        let a = auc(&s, &y).unwrap();
        let p = average_precision(&s, &y).unwrap();
        let maps: [ScoreMap; 3] = [
            ("3x+1", |x| 3.0 * x + 1.0),
            ("exp(x/10)", |x| (x / 10.0).exp()),
            ("x^3", |x| x * x * x),
        ];
        for (name, f) in maps {
            let t = map_scores(&s, f);
            let (at, pt) = (auc(&t, &y).unwrap(), average_precision(&t, &y).unwrap());
            prop_assert!(close(a, at), "{name}: auc {a} -> {at}");
            prop_assert!(close(p, pt), "{name}: ap {p} -> {pt}");
        }
    }

    /// Negating the scores turns every win into a loss and keeps every tie (each worth 1/2).
    #[test]
    fn auc_of_negated_scores_is_one_minus_auc((s, y) in problem()) {
        let a = auc(&s, &y).unwrap();
        let neg = auc(&map_scores(&s, |x| -x), &y).unwrap();
        prop_assert!(close(neg, 1.0 - a), "auc(-s) = {neg}, 1 - auc(s) = {}", 1.0 - a);
    }

    /// The top tie group holding a positive has positive precision, so AP > 0; every precision
    /// is at most 1 and the recall steps sum to 1, so AP <= 1 up to rounding of that sum.
    #[test]
    fn average_precision_lies_in_zero_one((s, y) in problem()) {
        let p = average_precision(&s, &y).unwrap();
        prop_assert!(p > 0.0 && p <= 1.0 + 1e-12, "ap = {p}");
    }

    /// scikit-learn's step sum over distinct thresholds equals the mean precision at each
    /// positive; both are sums of at most 40 ratios, so `close` leaves ample room.
    #[test]
    fn average_precision_equals_brute_force_definition((s, y) in problem()) {
        let fast = average_precision(&s, &y).unwrap();
        let brute = brute_force_ap(&s, &y);
        prop_assert!(close(fast, brute), "ap {fast} vs brute force {brute}");
    }

    /// Any finite scores at all, from subnormals to `f64::MAX`: nothing is NaN, AUC stays in
    /// [0, 1], and the ROC curve runs from (0, 0) to (1, 1).
    #[test]
    fn metrics_are_never_nan(
        s in vec(
            prop::num::f64::POSITIVE
                | prop::num::f64::NEGATIVE
                | prop::num::f64::NORMAL
                | prop::num::f64::SUBNORMAL
                | prop::num::f64::ZERO,
            2..30,
        ),
        positive in vec(any::<bool>(), 30),
    ) {
        let y = labels_with_both_classes(positive[..s.len()].to_vec());
        let a = auc(&s, &y).unwrap();
        let p = average_precision(&s, &y).unwrap();
        prop_assert!((0.0..=1.0).contains(&a), "auc = {a}");
        prop_assert!(!p.is_nan() && p > 0.0, "ap = {p}");
        let curve = roc_curve(&s, &y).unwrap();
        prop_assert!(curve.iter().all(|c| !c.fpr.is_nan() && !c.tpr.is_nan()));
        let last = curve[curve.len() - 1];
        prop_assert!(close(last.fpr, 1.0) && close(last.tpr, 1.0));
        prop_assert!(close(curve[0].fpr, 0.0) && close(curve[0].tpr, 0.0));
    }

    /// With one class only there is no pair: every metric is the `SingleClass` error.
    #[test]
    fn single_class_is_an_error(s in vec(score(), 1..20), pos in any::<bool>()) {
        let label = if pos { Label::Pos } else { Label::Neg };
        let y = vec![label; s.len()];
        let expected = if pos {
            MetricError::SingleClass { pos: s.len(), neg: 0 }
        } else {
            MetricError::SingleClass { pos: 0, neg: s.len() }
        };
        prop_assert_eq!(auc(&s, &y), Err(expected.clone()));
        prop_assert_eq!(average_precision(&s, &y), Err(expected.clone()));
        prop_assert_eq!(roc_curve(&s, &y), Err(expected));
    }
}
