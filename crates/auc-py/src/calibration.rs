//! The estimators' `calibration=`: the word. The calibration itself (its memory check, the
//! internal cross-validation of `fit`, the prequential scores of `partial_fit`) is
//! `auc_train`'s, as for `auc train --calibrate`.

use auc_learners::CalibrationKind;
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;

/// The calibration a keyword names (`None`: no calibration).
pub(crate) fn kind(word: Option<&str>) -> PyResult<Option<CalibrationKind>> {
    word.map(|w| w.parse().map_err(PyValueError::new_err))
        .transpose()
}
