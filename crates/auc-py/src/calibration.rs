//! The estimators' `calibration=`: the word, and the memory check of the internal
//! cross-validation `fit` calibrates by (as `auc train --calibrate`). `partial_fit` calibrates
//! on the prequential scores `model.rs`'s stream collects.

use auc_core::DataShape;
use auc_learners::{CalibrationKind, CalibrationSpec, Configured};
use pyo3::PyResult;
use pyo3::exceptions::{PyMemoryError, PyValueError};

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
