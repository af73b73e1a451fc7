//! Fitting a model's calibration: the one place `auc train --calibrate` and the Python
//! estimators' `calibration=` turn a configured algorithm and its prepared training rows into
//! a [`Calibration`] (docs/math/calibration.md), and estimate its memory first.

use auc_core::{DataShape, Dataset};
use auc_metrics::calibration::Calibration;
use auc_metrics::calibration_cv::{CalibrationSpec, HeldOutError};

use crate::trained::Configured;

/// Bytes the fits of `spec`'s internal cross-validation take at once on `threads` threads: each
/// fold's copy of its training rows and its learner's peak, for as many folds as run together.
/// `data_bytes` is the prepared data's size.
pub fn calibration_bytes(
    spec: &CalibrationSpec,
    config: &dyn Configured,
    shape: &DataShape,
    data_bytes: u64,
    average: bool,
    threads: usize,
) -> u64 {
    let together = spec.folds.min(threads.max(1)) as u64;
    let per_fold = config
        .memory_bytes(shape, average)
        .saturating_add(data_bytes);
    per_fold.saturating_mul(together)
}

/// Fits `spec`'s calibration of `config` (with `average`: of its averaged iterates) on the
/// prepared `data`, returning it with the folds used ([`CalibrationSpec::fit`]). The model the
/// caller saves is fitted on all of `data`. `fold_done` is called as each fold is scored (a
/// progress bar's tick).
///
/// # Errors
/// A class with fewer than 2 rows, a failed fit, or held-out scores that are not finite
/// ([`HeldOutError`], its source saying why).
pub fn fit_calibration(
    spec: &CalibrationSpec,
    config: &dyn Configured,
    average: bool,
    data: &Dataset,
    seed: u64,
    fold_done: &(dyn Fn() + Sync),
) -> Result<(Calibration, usize), HeldOutError> {
    let procedure = config.procedure(average).map_err(HeldOutError::Param)?;
    spec.fit_reporting(data, procedure.as_ref(), &config.params(), seed, fold_done)
}
