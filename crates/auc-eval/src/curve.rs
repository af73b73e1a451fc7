//! How a one-pass learner's AUC evolves along the stream: convergence curves on a fixed test set
//! and prequential (test-then-train) evaluation.
//!
//! Both walk the stream in the order given; shuffle or scale beforehand if wanted (SPEC section 1).
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $t$ | [`CurvePoint::updates`] | examples seen (updates taken) so far |
//! | $\mathrm{AUC}_t$ | [`CurvePoint::auc`] | AUC of the scorer after $t$ updates |

use auc_core::{Dataset, OnlineLearner};
use serde::Serialize;

use crate::cv::EvalError;
use crate::metrics::{MetricError, auc};

/// One point of a learning curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    /// Number of updates taken when the point was recorded.
    pub updates: usize,
    /// The AUC at that moment.
    pub auc: f64,
}

/// Rejects `every == 0`.
fn check_every(every: usize) -> Result<(), EvalError> {
    if every == 0 {
        return Err(EvalError::Config {
            name: "every",
            value: 0,
            allowed: "at least 1",
        });
    }
    Ok(())
}

/// Updates `learner` on the rows of `train` in order and records the AUC on `test` after every
/// `every` updates and after the last one (once, if the two coincide). An empty `train` gives
/// one point at 0 updates.
///
/// The learner must have been built for `train.dim()` features. Errors if `every == 0`, if the
/// two sets differ in dimension, or if the test AUC is undefined (one class in `test`, or a
/// non-finite score).
pub fn convergence_curve(
    learner: &mut dyn OnlineLearner,
    train: &Dataset,
    test: &Dataset,
    every: usize,
) -> Result<Vec<CurvePoint>, EvalError> {
    check_every(every)?;
    if train.dim() != test.dim() {
        return Err(EvalError::Dimension {
            train: train.dim(),
            test: test.dim(),
        });
    }
    let point = |learner: &dyn OnlineLearner, updates: usize| -> Result<CurvePoint, EvalError> {
        let a =
            auc(&learner.score_all(test), test.labels()).map_err(|source| EvalError::Metric {
                context: format!("test set after {updates} update(s)"),
                source,
            })?;
        Ok(CurvePoint { updates, auc: a })
    };
    let mut out = Vec::with_capacity(train.n() / every + 1);
    for (t, (x, y)) in train.iter().enumerate() {
        learner.update(x, y);
        if (t + 1) % every == 0 {
            out.push(point(&*learner, t + 1)?);
        }
    }
    if train.n() % every != 0 || train.is_empty() {
        out.push(point(&*learner, train.n())?);
    }
    Ok(out)
}

/// Prequential (test-then-train) evaluation: each example of `stream` is scored by the current
/// learner *before* the learner updates on it. After every `every` examples, and after the last,
/// the AUC of all scores so far is recorded; points where only one class has been seen are
/// skipped.
///
/// Each point sorts the scores so far, so the cost is $O((n / \text{every})\, n \log n)$ on top
/// of the updates. Errors if `every == 0` or a score is not finite.
pub fn prequential(
    learner: &mut dyn OnlineLearner,
    stream: &Dataset,
    every: usize,
) -> Result<Vec<CurvePoint>, EvalError> {
    check_every(every)?;
    let mut scores = Vec::with_capacity(stream.n());
    let labels = stream.labels();
    let mut out = Vec::with_capacity(stream.n() / every + 1);
    for (t, (x, y)) in stream.iter().enumerate() {
        scores.push(learner.score(x));
        learner.update(x, y);
        let seen = t + 1;
        if seen % every == 0 || seen == stream.n() {
            match auc(&scores, &labels[..seen]) {
                Ok(a) => out.push(CurvePoint {
                    updates: seen,
                    auc: a,
                }),
                Err(MetricError::SingleClass { .. }) => {}
                Err(source) => {
                    return Err(EvalError::Metric {
                        context: format!("stream after {seen} example(s)"),
                        source,
                    });
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::{Label, Row, Scorer};

    /// Scores `x_0` times the number of updates so far: a curve whose sign is fixed and whose
    /// ranking never changes after the first update.
    struct Counter(f64);

    impl Scorer for Counter {
        fn score(&self, x: Row<'_>) -> f64 {
            x.get(0) * self.0
        }
    }

    impl OnlineLearner for Counter {
        fn update(&mut self, _x: Row<'_>, _y: Label) {
            self.0 += 1.0;
        }
    }

    #[test]
    fn curve_points_fall_on_multiples_and_the_end() {
        let train = Dataset::dense(1, vec![0.0; 5], vec![Pos, Neg, Pos, Neg, Pos]).unwrap();
        let test = Dataset::dense(1, vec![1.0, 0.0], vec![Pos, Neg]).unwrap();
        let c = convergence_curve(&mut Counter(0.0), &train, &test, 2).unwrap();
        let at: Vec<usize> = c.iter().map(|p| p.updates).collect();
        assert_eq!(at, vec![2, 4, 5]);
        assert!(c.iter().all(|p| (p.auc - 1.0).abs() < 1e-15));
        let empty = Dataset::dense(1, vec![], vec![]).unwrap();
        let c = convergence_curve(&mut Counter(0.0), &empty, &test, 3).unwrap();
        // No update yet: every score is 0, a full tie, AUC 1/2.
        assert_eq!(
            c,
            vec![CurvePoint {
                updates: 0,
                auc: 0.5
            }]
        );
    }

    #[test]
    fn prequential_scores_before_updating() {
        // Scores: 0 * 1 (before any update), 1 * 2, 0 * 3, 1 * 4 for labels Neg, Pos, Neg, Pos.
        // After 1 example only one class: skipped. After 2: pos 1 > neg 0 -> 1. After 4: pos
        // {2, 4} vs neg {0, 0} -> 1.
        let s = Dataset::dense(1, vec![0.0, 1.0, 0.0, 1.0], vec![Neg, Pos, Neg, Pos]).unwrap();
        let c = prequential(&mut Counter(1.0), &s, 1).unwrap();
        let at: Vec<usize> = c.iter().map(|p| p.updates).collect();
        assert_eq!(at, vec![2, 3, 4]);
        assert!(matches!(
            prequential(&mut Counter(1.0), &s, 0),
            Err(EvalError::Config { name: "every", .. })
        ));
    }
}
