//! Partial and multiclass AUC against brute-force definitions written independently of the tie
//! walk: the partial area by building the ROC polyline from per-threshold counts and clipping it
//! at $B$, the multiclass AUC by enumerating every pair of rows.
//!
//! Scores lean on ties (a coarse grid half the time), as in `metric_props.rs`.

use std::cmp::Ordering;

use auc_core::Label;
use auc_core::testing::finite;
use auc_core::testing::tol::close;
use auc_metrics::metrics::auc;
use auc_metrics::multiclass::{Average, Scheme, multiclass_auc};
use auc_metrics::partial::{mcclish, partial_auc};
use proptest::collection::vec;
use proptest::prelude::*;

/// One score: often on a coarse grid (ties), otherwise continuous.
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => (-4i32..=4).prop_map(|v| f64::from(v) * 0.5),
        2 => finite(-10.0, 10.0),
    ]
}

/// Scores and labels with both classes, `n` in `2..40`.
fn problem() -> impl Strategy<Value = (Vec<f64>, Vec<Label>)> {
    (2usize..40).prop_flat_map(|n| {
        (vec(score(), n), vec(any::<bool>(), n)).prop_map(|(s, mut pos)| {
            if pos.iter().all(|&p| p) || pos.iter().all(|&p| !p) {
                pos[0] = !pos[0];
            }
            let y = pos
                .into_iter()
                .map(|p| if p { Label::Pos } else { Label::Neg })
                .collect();
            (s, y)
        })
    })
}

/// $B$: half the time a multiple of 1/8 or 1/10 (often a vertex when $n_-$ divides it), else any
/// value in $(0, 1]$.
fn max_fpr() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => (1u32..=8).prop_map(|k| f64::from(k) / 8.0),
        1 => (1u32..=10).prop_map(|k| f64::from(k) / 10.0),
        2 => (1u32..=1000).prop_map(|k| f64::from(k) / 1000.0),
    ]
}

/// The ROC vertices, one per distinct threshold in decreasing order after (0, 0): at threshold
/// $t$, the rates of the examples scoring at least $t$ (quadratic, by counting).
#[allow(clippy::float_cmp)] // Ties are exactly equal scores (-0 and 0 too), as in scikit-learn.
fn brute_force_roc(scores: &[f64], labels: &[Label]) -> Vec<(f64, f64)> {
    let pos = labels.iter().filter(|l| l.is_pos()).count() as f64;
    let neg = labels.len() as f64 - pos;
    let mut thresholds = scores.to_vec();
    thresholds.sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
    thresholds.dedup_by(|a, b| a == b);
    let mut points = vec![(0.0, 0.0)];
    for t in thresholds {
        let at_least = |class: bool| {
            scores
                .iter()
                .zip(labels)
                .filter(|(s, l)| **s >= t && l.is_pos() == class)
                .count() as f64
        };
        points.push((at_least(false) / neg, at_least(true) / pos));
    }
    points
}

/// The area under the polyline left of `b`: whole trapezoids of segments ending at or before
/// `b`, and the clipped piece (linear interpolation) of the one segment crossing it.
fn brute_force_partial_area(scores: &[f64], labels: &[Label], b: f64) -> f64 {
    let roc = brute_force_roc(scores, labels);
    let mut area = 0.0;
    for w in roc.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x1 <= b {
            area += (x1 - x0) * (y0 + y1) / 2.0;
        } else if x0 < b {
            let yb = y0 + (y1 - y0) * (b - x0) / (x1 - x0);
            area += (b - x0) * (y0 + yb) / 2.0;
        }
    }
    area
}

/// Share of pairs (a row of class `a`, a row of class `b`) where column `c` ranks the `a` row
/// higher, ties counted one half.
fn pair_share(s: &[f64], k: usize, y: &[usize], a: usize, b: usize, c: usize) -> (f64, f64) {
    let (mut wins, mut pairs) = (0.0, 0.0);
    for i in (0..y.len()).filter(|&i| y[i] == a) {
        for j in (0..y.len()).filter(|&j| y[j] == b) {
            pairs += 1.0;
            wins += match s[i * k + c].partial_cmp(&s[j * k + c]) {
                Some(Ordering::Greater) => 1.0,
                Some(Ordering::Equal) => 0.5,
                _ => 0.0,
            };
        }
    }
    (wins, pairs)
}

/// Both schemes and averages by enumerating pairs of rows.
fn brute_force_multiclass(s: &[f64], k: usize, y: &[usize], scheme: Scheme, avg: Average) -> f64 {
    let n = y.len() as f64;
    let count = |c: usize| y.iter().filter(|&&v| v == c).count() as f64;
    let mut parts = Vec::new();
    match scheme {
        Scheme::OneVsRest => {
            for c in 0..k {
                let (mut wins, mut pairs) = (0.0, 0.0);
                for other in (0..k).filter(|&o| o != c) {
                    let (w, p) = pair_share(s, k, y, c, other, c);
                    wins += w;
                    pairs += p;
                }
                parts.push((wins / pairs, count(c) / n));
            }
        }
        Scheme::OneVsOne => {
            for a in 0..k {
                for b in a + 1..k {
                    let (wa, pa) = pair_share(s, k, y, a, b, a);
                    let (wb, pb) = pair_share(s, k, y, b, a, b);
                    parts.push(((wa / pa + wb / pb) / 2.0, (count(a) + count(b)) / n));
                }
            }
        }
    }
    match avg {
        Average::Macro => parts.iter().map(|p| p.0).sum::<f64>() / parts.len() as f64,
        Average::Weighted => {
            parts.iter().map(|p| p.0 * p.1).sum::<f64>() / parts.iter().map(|p| p.1).sum::<f64>()
        }
    }
}

/// A score matrix with `k` in `2..5` columns and labels covering every class.
fn multiclass_problem() -> impl Strategy<Value = (Vec<f64>, usize, Vec<usize>)> {
    (2usize..5, 0usize..30).prop_flat_map(|(k, extra)| {
        let n = k + extra;
        (vec(score(), n * k), vec(0..k, n)).prop_map(move |(s, mut y)| {
            for (c, v) in y.iter_mut().take(k).enumerate() {
                *v = c;
            }
            (s, k, y)
        })
    })
}

proptest! {
    /// Both sides sum trapezoids of ratios of small integers (ours partly in integers), so
    /// `close` absorbs only rounding.
    #[test]
    fn partial_area_equals_the_clipped_polyline((s, y) in problem(), b in max_fpr()) {
        let fast = partial_auc(&s, &y, b).unwrap();
        let brute = brute_force_partial_area(&s, &y, b);
        prop_assert!(close(fast.area, brute), "B={b}: area {} vs brute force {brute}", fast.area);
        if b < 1.0 {
            prop_assert!(close(fast.standardized, mcclish(brute, b)));
        }
    }

    /// $0 \le A_B \le B$, $A_B$ grows with $B$ (the curve is non-negative), McClish's value lies
    /// in $[(1 - B)/(2 - B), 1]$, and $A_1$ is the AUC.
    #[test]
    fn partial_area_is_bounded_and_grows((s, y) in problem(), b in max_fpr(), c in max_fpr()) {
        let (lo, hi) = if b <= c { (b, c) } else { (c, b) };
        let (a_lo, a_hi) = (
            partial_auc(&s, &y, lo).unwrap().area,
            partial_auc(&s, &y, hi).unwrap().area,
        );
        prop_assert!(a_lo >= -1e-15 && a_lo <= lo + 1e-15, "A_{lo} = {a_lo}");
        prop_assert!(a_lo <= a_hi + 1e-15, "A_{lo} = {a_lo} > A_{hi} = {a_hi}");
        // McClish's value is at least its value at A_B = 0, (1 - B) / (2 - B).
        let s_lo = partial_auc(&s, &y, lo).unwrap().standardized;
        prop_assert!(s_lo >= (1.0 - lo) / (2.0 - lo) - 1e-12 && s_lo <= 1.0 + 1e-12, "{s_lo}");
        let full = partial_auc(&s, &y, 1.0).unwrap();
        prop_assert_eq!(full.area.to_bits(), auc(&s, &y).unwrap().to_bits());
    }

    /// Every scheme and average equals pair enumeration (ratios of small integers, averaged).
    #[test]
    fn multiclass_equals_pair_enumeration((s, k, y) in multiclass_problem()) {
        for scheme in [Scheme::OneVsRest, Scheme::OneVsOne] {
            for avg in [Average::Macro, Average::Weighted] {
                let fast = multiclass_auc(&s, k, &y, scheme, avg).unwrap();
                let brute = brute_force_multiclass(&s, k, &y, scheme, avg);
                prop_assert!(close(fast, brute), "{scheme} {avg}: {fast} vs {brute}");
            }
        }
    }

    /// With two classes, one-vs-one's pair is the mean of the two columns' AUCs, and when the
    /// second column is the negated first, every scheme gives the binary AUC of the first.
    #[test]
    fn two_classes_reduce_to_the_binary_auc((s, y) in problem()) {
        let flat: Vec<f64> = s.iter().flat_map(|&v| [-v, v]).collect();
        let classes: Vec<usize> = y.iter().map(|l| usize::from(l.is_pos())).collect();
        let binary = auc(&s, &y).unwrap();
        for scheme in [Scheme::OneVsRest, Scheme::OneVsOne] {
            for avg in [Average::Macro, Average::Weighted] {
                let m = multiclass_auc(&flat, 2, &classes, scheme, avg).unwrap();
                prop_assert!(close(m, binary), "{scheme} {avg}: {m} vs {binary}");
            }
        }
    }
}
