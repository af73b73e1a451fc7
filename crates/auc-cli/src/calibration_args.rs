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
    /// Which held-out scores `auc train` fits the calibration on: `cv`, an internal
    /// cross-validation (loads DATA in memory), or `prequential` (one-pass learners): each
    /// row's score before the learner steps on it, collected during the one pass over a file
    /// or a pipe, of the last 1,048,576 rows (memory 16 MB whatever the stream's length).
    #[arg(long, value_enum, default_value_t = CalibrateOn::Cv, requires = "calibrate")]
    pub(crate) calibrate_on: CalibrateOn,
}

/// The scores a calibration is fitted on (`--calibrate-on`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CalibrateOn {
    /// The held-out scores of an internal stratified cross-validation.
    Cv,
    /// The prequential (test-then-train) scores of the one pass.
    Prequential,
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
