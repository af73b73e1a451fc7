//! How a one-pass learner's AUC evolves along the stream: convergence curves on a fixed test set
//! and prequential (test-then-train) evaluation.
//!
//! Both walk the stream in the order given; shuffle or scale beforehand if wanted (conventions section 1).
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $t$ | [`CurvePoint::updates`] | examples seen (updates taken) so far |
//! | $\mathrm{AUC}_t$ | [`CurvePoint::auc`] | AUC of the scorer after $t$ updates |

use auc_core::{Dataset, DynFit, OnlineLearner};
use serde::Serialize;

use crate::cv::{CvConfig, EvalError, permuted, split_parts};
use crate::folds::{derive_seed, stratified_kfold};
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

/// The points of a prequential run, and the checkpoints it could not report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prequential {
    /// The AUC of all scores so far at each reported checkpoint.
    pub points: Vec<CurvePoint>,
    /// Checkpoints skipped because only one class had been seen there (AUC is undefined).
    pub skipped: usize,
}

/// Prequential (test-then-train) evaluation: each example of `stream` is scored by the current
/// learner *before* the learner updates on it. After every `every` examples, and after the last,
/// the AUC of all scores so far is recorded; checkpoints where only one class has been seen are
/// skipped and counted.
///
/// Each point sorts the scores so far, so the cost is $O((n / \text{every})\, n \log n)$ on top
/// of the updates. Errors if `every == 0` or a score is not finite.
pub fn prequential(
    learner: &mut dyn OnlineLearner,
    stream: &Dataset,
    every: usize,
) -> Result<Prequential, EvalError> {
    check_every(every)?;
    let mut scores = Vec::with_capacity(stream.n());
    let labels = stream.labels();
    let mut out = Vec::with_capacity(stream.n() / every + 1);
    let mut skipped = 0;
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
                Err(MetricError::SingleClass { .. }) => skipped += 1,
                Err(source) => {
                    return Err(EvalError::Metric {
                        context: format!("stream after {seen} example(s)"),
                        source,
                    });
                }
            }
        }
    }
    Ok(Prequential {
        points: out,
        skipped,
    })
}

/// Seed-path tag: the split of a convergence-curve run (when no test set is given).
const TAG_CURVE_SPLIT: u64 = 11;
/// Seed-path tag: the order in which a convergence-curve run feeds its training part.
const TAG_CURVE_ORDER: u64 = 12;
/// Seed of the learner's own random choices in a convergence curve.
const TAG_CURVE_FIT: u64 = 13;

/// A convergence curve the way the protocol prepares data: the test part is `test` when given,
/// else the first of `cfg.folds` stratified folds of `data` (seeded); the training part is fed in
/// a seeded random permutation (conventions section 1); scaling (and unit norm) follow `cfg`, fitted on
/// the training part only. `fit` must be a one-pass learner ([`DynFit::online`]).
pub fn convergence_protocol(
    data: &Dataset,
    test: Option<&Dataset>,
    fit: &dyn DynFit,
    cfg: &CvConfig,
    every: usize,
) -> Result<Vec<CurvePoint>, EvalError> {
    check_every(every)?;
    let (train_idx, test_src, test_idx) = match test {
        Some(t) => (
            (0..data.n()).collect::<Vec<_>>(),
            t,
            (0..t.n()).collect::<Vec<_>>(),
        ),
        None => {
            let folds = stratified_kfold(
                data.labels(),
                cfg.folds,
                derive_seed(cfg.seed, &[TAG_CURVE_SPLIT]),
            )?;
            let held = &folds[0];
            let train: Vec<usize> = (0..data.n())
                .filter(|i| held.binary_search(i).is_err())
                .collect();
            (train, data, held.clone())
        }
    };
    if data.dim() != test_src.dim() {
        return Err(EvalError::Dimension {
            train: data.dim(),
            test: test_src.dim(),
        });
    }
    let order = permuted(train_idx, derive_seed(cfg.seed, &[TAG_CURVE_ORDER]));
    let prepared = split_parts(data, &order, test_src, &test_idx, cfg)?;
    let mut learner = fit
        .online(
            prepared.train.dim(),
            derive_seed(cfg.seed, &[TAG_CURVE_FIT]),
        )
        .ok_or(EvalError::NotOnline)?
        .map_err(EvalError::Param)?;
    convergence_curve(learner.as_mut(), &prepared.train, &prepared.eval, every)
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
        let at: Vec<usize> = c.points.iter().map(|p| p.updates).collect();
        assert_eq!(at, vec![2, 3, 4]);
        // The checkpoint after the first example had one class only.
        assert_eq!(c.skipped, 1);
        assert!(matches!(
            prequential(&mut Counter(1.0), &s, 0),
            Err(EvalError::Config { name: "every", .. })
        ));
    }

    #[test]
    fn protocol_holds_out_one_stratified_fold_and_scales_on_training_rows() {
        // Positives at x = 10 + i, negatives at x = -i: after scaling on the training part every
        // positive still scores above every negative, so each point has AUC 1.
        let n = 50;
        let values: Vec<f64> = (0..n)
            .map(|i| {
                if i % 5 == 0 {
                    10.0 + i as f64
                } else {
                    -(i as f64)
                }
            })
            .collect();
        let labels: Vec<Label> = (0..n).map(|i| if i % 5 == 0 { Pos } else { Neg }).collect();
        let data = Dataset::dense(1, values, labels).unwrap();
        let cfg = CvConfig {
            folds: 5,
            ..CvConfig::default()
        };
        let fit = auc_core::testing::OnlineFit(|_, _| Ok(Counter(0.0)));
        let c = convergence_protocol(&data, None, &fit, &cfg, 10).unwrap();
        // 4/5 of 50 rows train: points at 10, 20, 30, 40.
        assert_eq!(
            c.iter().map(|p| p.updates).collect::<Vec<_>>(),
            vec![10, 20, 30, 40]
        );
        assert!(c.iter().all(|p| (p.auc - 1.0).abs() < 1e-15), "{c:?}");
        let test = data.select(&[0, 1, 2]);
        let c = convergence_protocol(&data, Some(&test), &fit, &cfg, 25).unwrap();
        assert_eq!(
            c.iter().map(|p| p.updates).collect::<Vec<_>>(),
            vec![25, 50]
        );
    }
}
