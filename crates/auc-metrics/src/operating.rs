//! Operating points: the threshold that meets a target (a recall, a precision, a false-positive
//! rate, the cheapest for given costs) with the confusion counts there, and the precision-recall
//! curve, both on the thresholds scikit-learn's `roc_curve` enumerates \[SKL\].
//!
//! **Thresholds.** The candidates are $+\infty$ (nothing predicted positive) and every distinct
//! score in decreasing order; a row is predicted positive when its score is $\ge$ the threshold,
//! so tied scores are always on the same side. This is `roc_curve(y, s,
//! drop_intermediate=False)`'s list of thresholds, in its order. Walking down the list, the
//! true and false positives $\mathrm{TP}$, $\mathrm{FP}$ never decrease.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $t$ | [`OperatingPoint::threshold`] | predict positive when score $\ge t$ |
//! | $\mathrm{TPR} = \mathrm{TP}/n_+$ | `tpr`, `recall` | true-positive rate (recall) |
//! | $\mathrm{FPR} = \mathrm{FP}/n_-$ | `fpr` | false-positive rate |
//! | $P = \mathrm{TP}/(\mathrm{TP}+\mathrm{FP})$ | `precision` | 1 when nothing is predicted positive |
//! | $c_{FN}$, $c_{FP}$ | [`Target::Cost`] | the cost of a missed positive and of a false alarm |

use std::fmt;
use std::str::FromStr;

use auc_core::Label;

use crate::metrics::{MetricError, Sorted};

/// What an operating point must meet.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The largest threshold whose TPR (recall) is at least this.
    Recall(f64),
    /// Among thresholds with precision at least this, the one with the largest recall (the
    /// largest such threshold when several share that recall).
    Precision(f64),
    /// The largest TPR with FPR at most this (the largest such threshold when several share
    /// that TPR).
    Fpr(f64),
    /// The threshold minimizing $c_{FN}\,\mathrm{FN} + c_{FP}\,\mathrm{FP}$ (the largest on ties).
    Cost {
        /// Cost of a false negative.
        fn_cost: f64,
        /// Cost of a false positive.
        fp_cost: f64,
    },
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Recall(r) => write!(f, "recall={r}"),
            Target::Precision(p) => write!(f, "precision={p}"),
            Target::Fpr(x) => write!(f, "fpr={x}"),
            Target::Cost { fn_cost, fp_cost } => write!(f, "cost={fn_cost}:{fp_cost}"),
        }
    }
}

/// Why a target cannot be parsed or used.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetError(pub String);

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TargetError {}

/// A rate in $[0, 1]$, or an error naming the target.
fn rate(name: &str, text: &str) -> Result<f64, TargetError> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(TargetError(format!(
            "{name}={text}: expected a number in [0, 1]"
        ))),
    }
}

impl FromStr for Target {
    type Err = TargetError;

    /// `recall=R`, `precision=P`, `fpr=F` (each in $[0, 1]$) or `cost=CFN:CFP` (finite,
    /// non-negative, not both 0).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some((kind, value)) = s.split_once('=') else {
            return Err(TargetError(format!(
                "`{s}`: expected recall=R, precision=P, fpr=F or cost=CFN:CFP"
            )));
        };
        match kind.trim().to_ascii_lowercase().as_str() {
            "recall" | "tpr" => Ok(Target::Recall(rate("recall", value)?)),
            "precision" => Ok(Target::Precision(rate("precision", value)?)),
            "fpr" => Ok(Target::Fpr(rate("fpr", value)?)),
            "cost" => {
                let bad = || {
                    TargetError(format!(
                        "cost={value}: expected CFN:CFP, two finite non-negative costs (of a \
                         missed positive and of a false alarm), not both 0"
                    ))
                };
                let (a, b) = value.split_once(':').ok_or_else(bad)?;
                let (fn_cost, fp_cost): (f64, f64) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                );
                let ok = |c: f64| c.is_finite() && c >= 0.0;
                if !ok(fn_cost) || !ok(fp_cost) || fn_cost + fp_cost == 0.0 {
                    return Err(bad());
                }
                Ok(Target::Cost { fn_cost, fp_cost })
            }
            other => Err(TargetError(format!(
                "`{other}` is not a target: expected recall=R, precision=P, fpr=F or cost=CFN:CFP"
            ))),
        }
    }
}

/// The confusion counts and rates at one threshold.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct OperatingPoint {
    /// Predict positive when score $\ge$ threshold ($+\infty$: nothing is predicted positive).
    pub threshold: f64,
    /// $\mathrm{TP}/n_+$.
    pub tpr: f64,
    /// $\mathrm{FP}/n_-$.
    pub fpr: f64,
    /// $\mathrm{TP}/(\mathrm{TP}+\mathrm{FP})$, 1 when nothing is predicted positive (as the last
    /// point of scikit-learn's `precision_recall_curve`).
    pub precision: f64,
    /// Equal to `tpr`.
    pub recall: f64,
    /// $2PR/(P+R)$, 0 when $P + R = 0$.
    pub f1: f64,
    /// True positives.
    pub tp: usize,
    /// False positives.
    pub fp: usize,
    /// True negatives.
    pub tn: usize,
    /// False negatives.
    pub fn_: usize,
}

impl OperatingPoint {
    fn new(threshold: f64, tp: usize, fp: usize, pos: usize, neg: usize) -> Self {
        let tpr = tp as f64 / pos as f64;
        let precision = if tp + fp == 0 {
            1.0
        } else {
            tp as f64 / (tp + fp) as f64
        };
        let f1 = if precision + tpr > 0.0 {
            2.0 * precision * tpr / (precision + tpr)
        } else {
            0.0
        };
        OperatingPoint {
            threshold,
            tpr,
            fpr: fp as f64 / neg as f64,
            precision,
            recall: tpr,
            f1,
            tp,
            fp,
            tn: neg - fp,
            fn_: pos - tp,
        }
    }
}

/// The candidate thresholds with their cumulative counts: $(+\infty, 0, 0)$ then one
/// `(score, tp, fp)` per distinct score in decreasing order.
fn walk(sorted: &Sorted) -> Vec<(f64, usize, usize)> {
    let mut out = vec![(f64::INFINITY, 0, 0)];
    let (mut tp, mut fp) = (0, 0);
    sorted.for_each_group(|s, gp, gn| {
        tp += gp;
        fp += gn;
        out.push((s, tp, fp));
    });
    out
}

/// The operating point of each target (module docs), in order. A precision target that no
/// threshold reaches is [`MetricError::Setting`] naming the highest precision there is.
///
/// Errors: as [`crate::metrics::auc`] (one class, non-finite scores, mismatched lengths).
pub fn operating_points(
    scores: &[f64],
    labels: &[Label],
    targets: &[Target],
) -> Result<Vec<OperatingPoint>, MetricError> {
    let sorted = Sorted::new(scores, labels)?;
    let (pos, neg) = (sorted.pos(), sorted.neg());
    let points = walk(&sorted);
    let (pos_f, neg_f) = (pos as f64, neg as f64);
    let mut out = Vec::with_capacity(targets.len());
    for target in targets {
        let index = match *target {
            // TPR reaches 1 at the last point, so a recall in [0, 1] is always met.
            Target::Recall(r) => points
                .iter()
                .position(|&(_, tp, _)| tp as f64 / pos_f >= r)
                .unwrap_or(points.len() - 1),
            Target::Precision(p) => {
                // The first (largest) threshold among those of maximal TP with precision >= p;
                // +inf (nothing predicted) is no candidate.
                let mut best: Option<usize> = None;
                for (i, &(_, tp, fp)) in points.iter().enumerate().skip(1) {
                    let precision = tp as f64 / (tp + fp) as f64;
                    if precision >= p && best.is_none_or(|b| tp > points[b].1) {
                        best = Some(i);
                    }
                }
                match best {
                    Some(i) => i,
                    None => {
                        let top = points[1..]
                            .iter()
                            .map(|&(_, tp, fp)| tp as f64 / (tp + fp) as f64)
                            .fold(0.0, f64::max);
                        return Err(MetricError::Setting {
                            name: "precision target",
                            value: p,
                            allowed: if top > 0.0 {
                                "at most the highest precision of any threshold"
                            } else {
                                "reachable: no threshold has a true positive above a negative"
                            },
                        });
                    }
                }
            }
            Target::Fpr(f) => {
                // The prefix with FPR <= f; the first point of its largest TP.
                let last = points
                    .iter()
                    .rposition(|&(_, _, fp)| fp as f64 / neg_f <= f)
                    .unwrap_or(0);
                let tp_max = points[last].1;
                points
                    .iter()
                    .position(|&(_, tp, _)| tp == tp_max)
                    .unwrap_or(last)
            }
            Target::Cost { fn_cost, fp_cost } => {
                let cost = |&(_, tp, fp): &(f64, usize, usize)| {
                    fn_cost * (pos - tp) as f64 + fp_cost * fp as f64
                };
                let mut best = 0;
                for (i, p) in points.iter().enumerate() {
                    if cost(p) < cost(&points[best]) {
                        best = i;
                    }
                }
                best
            }
        };
        let (t, tp, fp) = points[index];
        out.push(OperatingPoint::new(t, tp, fp, pos, neg));
    }
    Ok(out)
}

/// The precision-recall curve as scikit-learn's `precision_recall_curve(y, s)` returns it
/// (`drop_intermediate=False`): one point per distinct score in **increasing** order
/// (precision, recall, threshold), then the end point precision 1, recall 0 with threshold
/// $+\infty$ (scikit-learn gives it no threshold).
pub fn pr_curve(scores: &[f64], labels: &[Label]) -> Result<Vec<PrPoint>, MetricError> {
    let sorted = Sorted::new(scores, labels)?;
    let (pos, neg) = (sorted.pos(), sorted.neg());
    let mut out: Vec<PrPoint> = walk(&sorted)
        .into_iter()
        .skip(1)
        .rev()
        .map(|(t, tp, fp)| {
            let p = OperatingPoint::new(t, tp, fp, pos, neg);
            PrPoint {
                precision: p.precision,
                recall: p.recall,
                threshold: t,
            }
        })
        .collect();
    out.push(PrPoint {
        precision: 1.0,
        recall: 0.0,
        threshold: f64::INFINITY,
    });
    Ok(out)
}

/// One point of the precision-recall curve.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PrPoint {
    /// $\mathrm{TP}/(\mathrm{TP}+\mathrm{FP})$ at `threshold`.
    pub precision: f64,
    /// $\mathrm{TP}/n_+$.
    pub recall: f64,
    /// The score threshold ($+\infty$ for the end point).
    pub threshold: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::{Neg, Pos};

    #[test]
    #[allow(clippy::float_cmp)] // Thresholds are scores, compared exactly.
    fn targets_by_hand() {
        // Scores 0.9+ 0.8- 0.7+ 0.6+ 0.5- 0.4- 0.3+ 0.2- (4 positives, 4 negatives).
        // Walk: inf (0,0), .9 (1,0), .8 (1,1), .7 (2,1), .6 (3,1), .5 (3,2), .4 (3,3), .3 (4,3),
        // .2 (4,4).
        let s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2];
        let y = [Pos, Neg, Pos, Pos, Neg, Neg, Pos, Neg];
        let t = |target: &str| operating_points(&s, &y, &[target.parse().unwrap()]).unwrap()[0];
        // Recall 0.75 first reached at 0.6 (3/4).
        assert_eq!(t("recall=0.75").threshold, 0.6);
        assert_eq!(t("recall=0.76").threshold, 0.3);
        assert_eq!(t("recall=0").threshold, f64::INFINITY);
        // Precision >= 0.75: 0.9 (1/1), 0.6 (3/4); the largest recall is at 0.6.
        let p = t("precision=0.75");
        assert_eq!((p.threshold, p.tp, p.fp, p.tn, p.fn_), (0.6, 3, 1, 3, 1));
        assert!((p.f1 - 0.75).abs() < 1e-15);
        // FPR <= 0.3: points up to 0.6 (1/4); the largest TPR there (3/4) first at 0.6.
        assert_eq!(t("fpr=0.3").threshold, 0.6);
        assert_eq!(t("fpr=0").threshold, 0.9);
        // Costs 1:1: errors fn + fp: inf 4, .9 3, .8 4, .7 3, .6 2, .5 3, .4 4, .3 3, .2 4.
        assert_eq!(t("cost=1:1").threshold, 0.6);
        // A missed positive 10 times dearer: .3 costs 3, .2 costs 4 -> 0.3.
        assert_eq!(t("cost=10:1").threshold, 0.3);
        // Unreachable precision.
        let bad: Target = "precision=1".parse().unwrap();
        assert!(operating_points(&s, &y, &[bad]).is_ok());
        let worse = [0.1, 0.2, 0.3];
        assert!(matches!(
            operating_points(
                &worse,
                &[Neg, Pos, Neg],
                &["precision=0.9".parse().unwrap()]
            ),
            Err(MetricError::Setting { .. })
        ));
    }

    #[test]
    fn targets_parse_and_refuse() {
        assert_eq!("recall=0.9".parse(), Ok(Target::Recall(0.9)));
        assert_eq!(
            "cost=5:1".parse(),
            Ok(Target::Cost {
                fn_cost: 5.0,
                fp_cost: 1.0
            })
        );
        for bad in [
            "recall=1.5",
            "recall",
            "lift=2",
            "fpr=-0.1",
            "cost=1",
            "cost=0:0",
            "cost=-1:2",
            "precision=nan",
        ] {
            assert!(bad.parse::<Target>().is_err(), "{bad}");
        }
    }

    #[test]
    #[allow(clippy::float_cmp)] // Rates of small counts, exact.
    fn pr_curve_ends_at_precision_one_recall_zero() {
        let s = [0.9, 0.6, 0.5, 0.3, 0.3];
        let y = [Pos, Neg, Pos, Pos, Neg];
        let c = pr_curve(&s, &y).unwrap();
        let thr: Vec<f64> = c.iter().map(|p| p.threshold).collect();
        assert_eq!(thr, vec![0.3, 0.5, 0.6, 0.9, f64::INFINITY]);
        assert_eq!((c[0].precision, c[0].recall), (0.6, 1.0));
        assert_eq!((c[4].precision, c[4].recall), (1.0, 0.0));
    }
}
