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

    /// The folds used on `data`: `folds`, or fewer when the smaller class has fewer rows (each
    /// fold needs a row of each class), so small data and very few positives still calibrate.
    ///
    /// # Errors
    /// A class with fewer than 2 rows: no held-out score of it can exist.
    pub fn folds_for(&self, data: &Dataset) -> Result<usize, String> {
        let (pos, neg) = data.class_counts();
        let smaller = pos.min(neg);
        if smaller < 2 || self.folds < 2 {
            return Err(format!(
                "a calibration needs held-out scores of both classes from at least 2 folds: {} fold(s) asked for, and the data hold {pos} positive and {neg} negative rows",
                self.folds
            ));
        }
        Ok(self.folds.min(smaller))
    }

    /// Fits the calibration of `config` on the prepared `data`: the held-out scores of a
    /// stratified cross-validation on [`CalibrationSpec::folds_for`] folds (each part fed in a
    /// seeded order), the calibration fitted on them. Returns it with the folds used. The model
    /// the caller saves is fitted on all of `data`.
    ///
    /// # Errors
    /// A class with fewer than 2 rows, a failed fit, or held-out scores that are not finite, as
    /// text that says which.
    pub fn fit(
        &self,
        config: &dyn Configured,
        average: bool,
        data: &Dataset,
        seed: u64,
    ) -> Result<(Calibration, usize), String> {
        let folds = self.folds_for(data)?;
        let procedure = config.procedure(average).map_err(|e| e.to_string())?;
        let c = calibration_cv::cross_validated(
            self.kind,
            data,
            procedure.as_ref(),
            &config.params(),
            folds,
            seed,
        )
        .map_err(|e| format!("calibration: {}", error_chain(&e)))?;
        Ok((c, folds))
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
