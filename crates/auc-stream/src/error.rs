//! [`Error`]: the engine's one error type, each variant a kind of refusal a caller can match on
//! (`auc_train::Error` takes them over variant by variant, and a front end maps those once: an
//! exit code and a message in the CLI, `MemoryError` or `ValueError` in Python).

use crate::memory::Refusal;
use crate::shaper::NotBinary;

/// Why a pass, a plan or a first pass stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input could not be read or parsed: a parse error names its file, line and column;
    /// `hint` adds what the run knows about it (an index past a dimension the model fixes).
    #[error("{source}{}", hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Data {
        /// The reader's error.
        source: auc_data::DataError,
        /// What to add in parentheses.
        hint: Option<String>,
    },
    /// The preparation stages cannot be built, fitted or applied as asked.
    #[error(transparent)]
    Prep(#[from] auc_prep::PrepError),
    /// Something would need more memory than the limit: refused before it is allocated.
    #[error(transparent)]
    Memory(#[from] Refusal),
    /// The training rows hold one class only.
    #[error(
        "{what} needs both classes; the data holds {positives} positive and {negatives} negative examples (check --positive)"
    )]
    OneClass {
        /// The run (`training opauc`).
        what: String,
        /// Positive rows seen.
        positives: u64,
        /// Negative rows seen.
        negatives: u64,
    },
    /// An input read once turned out not to have binary labels: what a caller hoping for them
    /// answers by a first pass and a second reading.
    #[error(transparent)]
    NotBinary(#[from] NotBinary),
    /// A max-abs scaling fitted at first sight did not hold: what a caller hoping for it answers
    /// by a first pass and a second reading.
    #[error(transparent)]
    Unsighted(#[from] auc_data::Unsighted),
    /// A one-pass learner could not grow to a wider row.
    #[error("{learner}: {source}")]
    Grow {
        /// The learner's name.
        learner: String,
        /// Its refusal.
        source: auc_core::StateError,
    },
    /// The input is not what the run can take (it changed between two passes, a label set
    /// too large, a dimension past a limit), said in words.
    #[error("{0}")]
    Input(String),
    /// What was asked cannot be carried out (settings that do not go together).
    #[error("{0}")]
    Usage(String),
    /// Rows that do not make a dataset (a shape the engine got wrong).
    #[error(transparent)]
    Rows(#[from] auc_core::DatasetError),
    /// A file could not be opened or read.
    #[error("{file}: {source}")]
    Io {
        /// The file's name.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The caller's own callback (an observer writing its output) failed: its error, handed
    /// back as it was.
    #[error(transparent)]
    Callback(Box<dyn std::error::Error + Send + Sync>),
    /// A worker thread could not be started or failed.
    #[error("{0}")]
    Thread(String),
}

impl From<auc_data::DataError> for Error {
    fn from(source: auc_data::DataError) -> Self {
        Error::Data { source, hint: None }
    }
}

impl Error {
    /// [`Error::Input`] of a message.
    pub fn input(text: impl Into<String>) -> Error {
        Error::Input(text.into())
    }

    /// [`Error::Usage`] of a message.
    pub fn usage(text: impl Into<String>) -> Error {
        Error::Usage(text.into())
    }

    /// [`Error::Io`] of `file`.
    pub fn io(file: impl std::fmt::Display, source: std::io::Error) -> Error {
        Error::Io {
            file: file.to_string(),
            source,
        }
    }
}
