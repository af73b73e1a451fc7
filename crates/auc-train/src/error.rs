//! [`Error`]: the one error of the library layers. Every refusal of training, scoring and the
//! moment pass is a variant a front end can match on, so the same refusal is mapped the same way
//! on every path: the CLI prints the message (with its causes) and exits with code 2; Python
//! raises `MemoryError` for [`Error::Memory`] and `ValueError` for the rest.
//!
//! The engine's [`auc_stream::Error`] is taken over variant by variant (its memory refusal is this
//! enum's [`Error::Memory`], never wrapped), so a caller matches on one enum.

pub use auc_stream::memory::Refusal;

/// Why a training, scoring or moment run stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// What was asked cannot be carried out: an unknown learner, parameters or options that do
    /// not go together, a flag the route cannot honour.
    #[error("{0}")]
    Usage(String),
    /// A parameter is unknown or out of its range.
    #[error(transparent)]
    Param(#[from] auc_core::ParamError),
    /// An input could not be read or parsed: a parse error names its file, line and column
    /// (`FILE:LINE:COL: what`); `hint` adds what the run knows about it.
    #[error("{source}{}", hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Data {
        /// The reader's error.
        source: auc_data::DataError,
        /// What to add in parentheses.
        hint: Option<String>,
    },
    /// The input is not what the run can take (changed between two passes, too many labels,
    /// moment files that do not merge), said in words.
    #[error("{0}")]
    Input(String),
    /// The preparation stages cannot be built, fitted or applied as asked.
    #[error(transparent)]
    Prep(#[from] auc_prep::PrepError),
    /// Something would need more memory than the limit: refused before it is allocated, with
    /// the figure and what to do instead.
    #[error(transparent)]
    Memory(#[from] Refusal),
    /// The training rows hold one class only.
    #[error(
        "{what} needs both classes; the data holds {positives} positive and {negatives} negative examples (check --positive)"
    )]
    OneClass {
        /// The run (`training opauc`).
        what: String,
        /// Positive rows.
        positives: u64,
        /// Negative rows.
        negatives: u64,
    },
    /// A model file, or a model, that cannot be used (damaged, another format, a score that is
    /// not finite).
    #[error(transparent)]
    Model(#[from] auc_learners::Error),
    /// `--tune`'s cross-validation could not be run.
    #[error(transparent)]
    Eval(#[from] auc_eval::EvalError),
    /// A calibration's held-out scores (`--calibrate`) could not be had.
    #[error(transparent)]
    Calibration(#[from] auc_learners::HeldOutError),
    /// A batch fit failed.
    #[error(transparent)]
    Fit(#[from] auc_core::FitError),
    /// Training left a state that cannot be saved (not finite).
    #[error(
        "training {learner} left an unusable state ({source}); the features are probably too large for it unscaled: use --scale"
    )]
    Unusable {
        /// The learner's name.
        learner: String,
        /// What its check found.
        source: auc_core::StateError,
    },
    /// A moment pass stopped because its class moments would exceed the budget, for a learner
    /// that can solve over the rows instead ([`crate::moments::Budget::stop_when_too_wide`]):
    /// [`crate::train`] answers it by fitting over the rows and never returns it.
    #[error(transparent)]
    MomentsTooWide(crate::moments::TooWide),
    /// A file could not be opened, read or written.
    #[error("{file}: {source}")]
    Io {
        /// The file's name.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The caller's own callback (a consumer of scores writing its output) failed: its error,
    /// handed back as it was.
    #[error(transparent)]
    Callback(Box<dyn std::error::Error + Send + Sync>),
    /// The engine stopped for a reason of its own (a learner that could not grow, a worker
    /// thread that failed).
    #[error(transparent)]
    Engine(auc_stream::Error),
}

impl From<auc_stream::Error> for Error {
    fn from(e: auc_stream::Error) -> Self {
        use auc_stream::Error as S;
        match e {
            S::Data { source, hint } => Error::Data { source, hint },
            S::Prep(p) => Error::Prep(p),
            S::Memory(r) => Error::Memory(r),
            S::OneClass {
                what,
                positives,
                negatives,
            } => Error::OneClass {
                what,
                positives,
                negatives,
            },
            S::Input(t) => Error::Input(t),
            S::Usage(t) => Error::Usage(t),
            S::Io { file, source } => Error::Io { file, source },
            S::Callback(e) => Error::Callback(e),
            other => Error::Engine(other),
        }
    }
}

impl From<auc_core::DatasetError> for Error {
    fn from(e: auc_core::DatasetError) -> Self {
        Error::Engine(auc_stream::Error::Rows(e))
    }
}

impl From<auc_data::DataError> for Error {
    fn from(source: auc_data::DataError) -> Self {
        Error::Data { source, hint: None }
    }
}

impl Error {
    /// [`Error::Usage`] of a message.
    pub fn usage(text: impl Into<String>) -> Error {
        Error::Usage(text.into())
    }

    /// [`Error::Input`] of a message.
    pub fn input(text: impl Into<String>) -> Error {
        Error::Input(text.into())
    }

    /// [`Error::Io`] of `file`.
    pub fn io(file: impl std::fmt::Display, source: std::io::Error) -> Error {
        Error::Io {
            file: file.to_string(),
            source,
        }
    }

    /// Whether this is a memory refusal ([`Error::Memory`]): what Python raises as
    /// `MemoryError`.
    pub fn is_memory(&self) -> bool {
        matches!(self, Error::Memory(_))
    }
}
