//! [`EvalError`]: why an evaluation (a protocol, a split, a curve) could not produce its records.

use std::fmt;

use auc_core::{FitError, Label, ParamError, ParamMap};
use auc_metrics::calibration::CalibrationError;
use auc_metrics::calibration_cv::HeldOutError;
use auc_metrics::folds::FoldError;
use auc_metrics::metrics::MetricError;

/// Why an evaluation could not produce its records.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EvalError {
    /// Training with these parameters failed (the source says why).
    Fit {
        /// The full parameter set that was being trained.
        params: ParamMap,
        /// What the learner reported.
        source: FitError,
    },
    /// A candidate's parameters were rejected when its learner was made.
    Param(ParamError),
    /// A metric has no value (one class only, or non-finite scores).
    Metric {
        /// What was being scored, e.g. `"test part of repeat 1, fold 3"`.
        context: String,
        /// Why the metric is undefined.
        source: MetricError,
    },
    /// A class has fewer examples than there are folds, so stratified folds cannot exist.
    Folds {
        /// The class that is too small.
        class: Label,
        /// How many examples it has in `part`.
        count: usize,
        /// The number of folds asked for.
        k: usize,
        /// Which rows were being split, e.g. `"the data"`.
        part: String,
    },
    /// Fewer than two folds were asked for.
    FoldCount {
        /// The number asked for.
        k: usize,
    },
    /// A setting is out of range (`repeats = 0`, `every = 0`, ...).
    Config {
        /// The setting's name.
        name: &'static str,
        /// Its value.
        value: usize,
        /// The allowed values, in words.
        allowed: &'static str,
    },
    /// Every candidate gave non-finite validation scores in the inner CV of one outer split.
    NoUsableParams {
        /// Repetition of the outer split.
        repeat: usize,
        /// Fold of the outer split.
        fold: usize,
    },
    /// A step-by-step evaluation (a convergence curve) was asked of a procedure that is not a
    /// one-pass learner.
    NotOnline,
    /// Training and test rows have different dimensions (convergence curves).
    Dimension {
        /// Features of the training rows.
        train: usize,
        /// Features of the test rows.
        test: usize,
    },
    /// The preparation stages could not be fitted on a training part (a feature map).
    Prep(auc_prep::PrepError),
    /// A calibration could not be fitted on the held-out scores.
    Calibration(CalibrationError),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Fit { params, .. } => write!(f, "training with parameters {params} failed"),
            EvalError::Param(e) => write!(f, "{e}"),
            EvalError::Metric { context, .. } => write!(f, "cannot score the {context}"),
            EvalError::Folds {
                class,
                count,
                k,
                part,
            } => write!(
                f,
                "cannot make {k} stratified folds of {part}: class {class} has only {count} \
                 example(s), fewer than {k}"
            ),
            EvalError::FoldCount { k } => write!(f, "{k} fold(s) asked for; at least 2 are needed"),
            EvalError::Config {
                name,
                value,
                allowed,
            } => {
                write!(f, "{name} = {value} is out of range: it must be {allowed}")
            }
            EvalError::NoUsableParams { repeat, fold } => write!(
                f,
                "repeat {repeat}, fold {fold}: every candidate gave non-finite validation scores"
            ),
            EvalError::NotOnline => {
                f.write_str("convergence curves need a one-pass (online) learner")
            }
            EvalError::Dimension { train, test } => {
                write!(
                    f,
                    "training rows have {train} features but test rows have {test}"
                )
            }
            EvalError::Prep(e) => write!(f, "{e}"),
            EvalError::Calibration(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EvalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EvalError::Fit { source, .. } => Some(source),
            EvalError::Metric { source, .. } => Some(source),
            // `Param` is transparent: its message is the parameter error's own.
            _ => None,
        }
    }
}

/// The folds' errors are the protocol's, with the same variant names and messages.
impl From<FoldError> for EvalError {
    fn from(e: FoldError) -> Self {
        match e {
            FoldError::Folds {
                class,
                count,
                k,
                part,
            } => EvalError::Folds {
                class,
                count,
                k,
                part,
            },
            FoldError::FoldCount { k } => EvalError::FoldCount { k },
            FoldError::Config {
                name,
                value,
                allowed,
            } => EvalError::Config {
                name,
                value,
                allowed,
            },
        }
    }
}

/// A calibration's held-out scores fail as the protocol's own fits do.
impl From<HeldOutError> for EvalError {
    fn from(e: HeldOutError) -> Self {
        match e {
            HeldOutError::Folds(e) => e.into(),
            HeldOutError::Param(e) => EvalError::Param(e),
            HeldOutError::Fit { params, source } => EvalError::Fit { params, source },
            HeldOutError::Calibration(e) => EvalError::Calibration(e),
        }
    }
}
