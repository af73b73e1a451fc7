//! Error types shared by every layer.

use std::fmt;

/// A parameter value that an algorithm cannot use. Returned when a learner is built, never later.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ParamError {
    /// The value lies outside the allowed set, described in words (e.g. `"> 0"`).
    OutOfRange {
        /// The paper's symbol in lower case (`eta`, `lambda`, `c`, ...).
        name: &'static str,
        /// The offending value.
        value: f64,
        /// The allowed set, in words.
        allowed: &'static str,
    },
    /// A value of the wrong type for its parameter: a word where a number is expected, a
    /// fraction for an integer, an unknown choice.
    BadValue {
        /// The parameter's name.
        name: String,
        /// The value as given.
        value: String,
        /// What the parameter takes, in words.
        expected: String,
    },
    /// A parameter name the algorithm does not know.
    Unknown {
        /// The name as given.
        name: String,
        /// The names the algorithm knows, comma separated.
        known: String,
        /// The known name closest to the one given, when one is close.
        suggestion: Option<String>,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::OutOfRange {
                name,
                value,
                allowed,
            } => {
                write!(
                    f,
                    "parameter {name} = {value} is out of range: it must be {allowed}"
                )
            }
            ParamError::BadValue {
                name,
                value,
                expected,
            } => write!(f, "parameter {name} = {value}: expected {expected}"),
            ParamError::Unknown { name, known, .. } if known.is_empty() => {
                write!(
                    f,
                    "unknown parameter {name}: this algorithm takes no parameters"
                )
            }
            ParamError::Unknown {
                name,
                known,
                suggestion: Some(s),
            } => write!(
                f,
                "unknown parameter {name}: did you mean {s}? (known: {known})"
            ),
            ParamError::Unknown { name, known, .. } => {
                write!(f, "unknown parameter {name} (known: {known})")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// Why a decoded learner state (from a model file) cannot be used, or why a state cannot be changed
/// as asked ([`crate::OnlineLearner::grow`]): it says what is inconsistent.
#[derive(Clone, Debug, PartialEq)]
pub struct StateError {
    /// What is wrong, naming the field: `w has 3 values, the dimension is 4`.
    pub what: String,
}

impl StateError {
    /// An error saying `what`.
    pub fn new(what: impl Into<String>) -> Self {
        Self { what: what.into() }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for StateError {}

impl From<ParamError> for StateError {
    fn from(e: ParamError) -> Self {
        StateError::new(format!("stored parameters: {e}"))
    }
}

/// Why a [`crate::Dataset`] could not be built from the given arrays.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum DatasetError {
    /// An array has the wrong length.
    Shape {
        /// Which array.
        what: &'static str,
        /// The length it should have.
        expected: usize,
        /// The length it has.
        found: usize,
    },
    /// A feature value is NaN or infinite.
    NonFinite {
        /// Row of the value (0-based).
        row: usize,
        /// Feature of the value (0-based).
        feature: usize,
    },
    /// Sparse indices of a row are not strictly increasing, or one is `>= dim`.
    BadIndex {
        /// Row (0-based).
        row: usize,
        /// The offending index (0-based).
        index: u32,
        /// The dataset's dimension.
        dim: usize,
    },
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Shape {
                what,
                expected,
                found,
            } => {
                write!(f, "{what} has length {found}, expected {expected}")
            }
            DatasetError::NonFinite { row, feature } => {
                write!(f, "row {row}, feature {feature}: value is not finite")
            }
            DatasetError::BadIndex { row, index, dim } => write!(
                f,
                "row {row}: feature index {index} is out of order or not below the dimension {dim}"
            ),
        }
    }
}

impl std::error::Error for DatasetError {}

/// Why training failed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FitError {
    /// The parameters were rejected.
    Param(ParamError),
    /// The training data has no example of one class, and the algorithm needs both.
    SingleClass,
    /// The training data is empty.
    Empty,
    /// The problem is larger than the procedure accepts (an exact solver that stores every
    /// positive-negative pair, say).
    TooLarge {
        /// What was counted, e.g. `"positive-negative pairs"`.
        what: &'static str,
        /// How many there are.
        size: usize,
        /// The most the procedure accepts.
        limit: usize,
    },
    /// An allocation the fit needs could not be made.
    OutOfMemory {
        /// What was being allocated.
        what: &'static str,
        /// Its size in bytes.
        bytes: u64,
    },
    /// A quantity the fit computes from the data is not finite: the data's values are too
    /// large for it (their squares overflow, say).
    NotFinite {
        /// What overflowed, e.g. `"class moments"`.
        what: &'static str,
    },
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::Param(e) => write!(f, "{e}"),
            FitError::SingleClass => f.write_str("training data holds a single class"),
            FitError::Empty => f.write_str("training data is empty"),
            FitError::TooLarge { what, size, limit } => {
                write!(f, "{size} {what} exceed this procedure's limit of {limit}")
            }
            FitError::OutOfMemory { what, bytes } => {
                write!(f, "cannot allocate {what} ({:.2} GB)", *bytes as f64 / 1e9)
            }
            FitError::NotFinite { what } => write!(
                f,
                "the {what} of this data are not finite (feature values too large: their squares overflow); rescale the features before training"
            ),
        }
    }
}

impl std::error::Error for FitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FitError::Param(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParamError> for FitError {
    fn from(e: ParamError) -> Self {
        FitError::Param(e)
    }
}
