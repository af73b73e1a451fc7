//! Fitting a model's calibration: the one place `auc train --calibrate` and the Python
//! estimators' `calibration=` turn a configured algorithm and its prepared training rows into
//! a [`Calibration`] (docs/math/calibration.md).

use auc_core::{DataShape, Dataset};
use auc_eval::calibration::{Calibration, CalibrationKind};
use auc_eval::calibration_cv;

use crate::trained::Configured;

/// Folds of the held-out scores a calibration is fitted on unless the user says otherwise
/// (scikit-learn's `CalibratedClassifierCV` default, and LIBSVM's for its probabilities).
pub const DEFAULT_CALIBRATION_FOLDS: usize = 5;

/// What calibration to fit and on how many folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalibrationSpec {
    /// Sigmoid or isotonic.
    pub kind: CalibrationKind,
    /// Folds of the internal cross-validation (at least 2).
    pub folds: usize,
}

impl CalibrationSpec {
    /// `kind` on [`DEFAULT_CALIBRATION_FOLDS`] folds.
    pub fn new(kind: CalibrationKind) -> Self {
        Self {
            kind,
            folds: DEFAULT_CALIBRATION_FOLDS,
        }
    }

    /// Bytes the fits of the internal cross-validation take at once on `threads` threads: each
    /// fold's copy of its training rows and its learner's peak, for as many folds as run
    /// together. `data_bytes` is the prepared data's size.
    pub fn memory_bytes(
        &self,
        config: &dyn Configured,
        shape: &DataShape,
        data_bytes: u64,
        average: bool,
        threads: usize,
    ) -> u64 {
        let together = self.folds.min(threads.max(1)) as u64;
        let per_fold = config
            .memory_bytes(shape, average)
            .saturating_add(data_bytes);
        per_fold.saturating_mul(together)
    }

    /// Fits the calibration of `config` on the prepared `data`: the held-out scores of a
    /// stratified `folds`-fold cross-validation (each part fed in a seeded order), the
    /// calibration fitted on them. The model the caller saves is fitted on all of `data`.
    ///
    /// # Errors
    /// A class with fewer rows than folds, a failed fit, or held-out scores that are not finite,
    /// as text that says which.
    pub fn fit(
        &self,
        config: &dyn Configured,
        average: bool,
        data: &Dataset,
        seed: u64,
    ) -> Result<Calibration, String> {
        let procedure = config.procedure(average).map_err(|e| e.to_string())?;
        calibration_cv::cross_validated(
            self.kind,
            data,
            procedure.as_ref(),
            &config.params(),
            self.folds,
            seed,
        )
        .map_err(|e| format!("calibrating {}: {}", config.params(), error_chain(&e)))
    }
}

/// An error and its sources, joined by `: `.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}
