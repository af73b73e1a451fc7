//! `--calibrate` and `--calibration-folds`, shared by `auc train` and `auc cv`: resolved once
//! into an [`auc_learners::CalibrationSpec`].

use auc_learners::{CalibrationKind, CalibrationSpec, DEFAULT_CALIBRATION_FOLDS};

/// The calibration flags.
#[derive(clap::Args, Debug)]
pub(crate) struct CalibrationArgs {
    /// Fit a calibration of the scores to probabilities of the positive class: Platt's
    /// `sigmoid` or `isotonic` regression, fitted on the held-out scores of a stratified
    /// --calibration-folds cross-validation of the training rows, never on rows a model trained
    /// on. `auc train` stores it in the model (`auc predict --proba` prints the probabilities;
    /// it loads DATA in memory); `auc cv` fits one per outer training part and reports the test
    /// parts' `log_loss` and `brier`.
    #[arg(long, value_name = "sigmoid|isotonic", value_parser = parse_calibration)]
    calibrate: Option<CalibrationKind>,
    /// Folds of the --calibrate cross-validation (fewer when the smaller class has fewer rows).
    #[arg(long, default_value_t = DEFAULT_CALIBRATION_FOLDS, requires = "calibrate")]
    calibration_folds: usize,
}

impl CalibrationArgs {
    /// What was asked for, if anything.
    pub(crate) fn spec(&self) -> Option<CalibrationSpec> {
        self.calibrate.map(|kind| CalibrationSpec {
            kind,
            folds: self.calibration_folds,
        })
    }
}

/// Parses `--calibrate`'s word.
fn parse_calibration(word: &str) -> Result<CalibrationKind, String> {
    word.parse()
}
