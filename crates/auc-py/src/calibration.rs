//! The estimators' `calibration=`: fitting a model's calibration on arrays, by the held-out
//! scores of an internal cross-validation (`fit`, as `auc train --calibrate`) or on the
//! prequential scores of a batch (`partial_fit`: each row scored before the learner steps on
//! it).

use auc_core::{DataShape, Label, OnlineLearner};
use auc_learners::{Calibration, CalibrationKind, CalibrationSpec, Configured};
use auc_prep::{Preparation, RowBuffers};
use pyo3::PyResult;
use pyo3::exceptions::{PyMemoryError, PyValueError};

use crate::input::{Rows, Scratch};

/// The calibration a keyword names (`None`: no calibration).
pub(crate) fn kind(word: Option<&str>) -> PyResult<Option<CalibrationKind>> {
    word.map(|w| w.parse().map_err(PyValueError::new_err))
        .transpose()
}

/// Refuses an internal cross-validation whose fits together would exceed `limit` bytes.
pub(crate) fn check_memory(
    spec: &CalibrationSpec,
    config: &dyn Configured,
    shape: &DataShape,
    average: bool,
    limit: u64,
) -> PyResult<()> {
    let data_bytes = (shape.n as u64)
        .saturating_mul(shape.dim as u64)
        .saturating_mul(8);
    let needed = auc_learners::calibration_bytes(
        spec,
        config,
        shape,
        data_bytes,
        average,
        std::thread::available_parallelism().map_or(1, usize::from),
    );
    if needed > limit {
        return Err(PyMemoryError::new_err(format!(
            "calibrating by {}-fold cross-validation on {} rows needs about {:.3} GB but the limit is {:.3} GB: use fewer calibration folds",
            spec.folds,
            shape.n,
            needed as f64 / 1e9,
            limit as f64 / 1e9
        )));
    }
    Ok(())
}

/// Feeds `rows` to `learner` in order as the plain stream does, scoring each row (prepared as
/// `prep` says) before the step on it; returns those prequential scores.
pub(crate) fn stream_prequential(
    learner: &mut dyn OnlineLearner,
    rows: &Rows<'_>,
    labels: &[Label],
    prep: &Preparation,
) -> Vec<f64> {
    let mut scores = Vec::with_capacity(rows.n());
    let mut scratch = Scratch::default();
    let mut bufs = RowBuffers::new();
    let plain = prep.transform.is_identity();
    rows.for_each(&mut scratch, |i, x| {
        let x = if plain {
            x
        } else {
            prep.apply_row(x, &mut bufs)
        };
        scores.push(learner.score(x));
        learner.update(x, labels[i]);
    });
    scores
}

/// A calibration of the prequential `scores` when they hold both classes and are finite
/// (else `None`: the model keeps the calibration it had).
pub(crate) fn on_prequential(
    kind: CalibrationKind,
    scores: &[f64],
    labels: &[Label],
) -> Option<Calibration> {
    Calibration::fit(kind, scores, labels).ok()
}
