//! The crate's runtime error: why saved moments could not be read back, or why a sketch refused
//! its input.

use std::fmt;

/// Why [`crate::ClassMoments::from_bytes`] or [`crate::Moments::from_bytes`] rejected its input,
/// or why a [`crate::FrequentDirections`] or [`crate::SketchedMoments`] call refused its
/// arguments.
///
/// Decoding never panics: every malformed byte string ends up in one of these variants; the
/// sketches return the last four instead of panicking on bad sizes or values.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatsError {
    /// The bytes carry a `format_version` this build does not know.
    UnsupportedVersion {
        /// What the bytes say.
        found: u32,
        /// The only version this build reads and writes.
        supported: u32,
    },
    /// The bytes are not a valid encoding (truncated, or a field has the wrong shape).
    Decode {
        /// What was being decoded (`"class moments"`, `"moments"`).
        what: &'static str,
        /// The decoder's message.
        message: String,
    },
    /// Bytes remain after a complete value: the input is not exactly one encoding.
    TrailingBytes {
        /// What was decoded.
        what: &'static str,
        /// How many bytes were left over.
        count: usize,
    },
    /// A field's length does not match the dimension given by the mean.
    Shape {
        /// The field (`"covariance"`).
        what: &'static str,
        /// Length required by the dimension, $p(p+1)/2$ for the packed covariance.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// A stored value is NaN or infinite, or a covariance diagonal entry is negative.
    InvalidValue {
        /// The field (`"mean"`, `"covariance"`).
        what: &'static str,
        /// Position in the field (packed position for the covariance).
        index: usize,
        /// The offending value.
        value: String,
    },
    /// The count is zero but the mean or covariance is not all zeros.
    NonZeroEmpty,
    /// The two classes of a [`crate::Moments`] have different dimensions.
    DimMismatch {
        /// Dimension of the positive class.
        pos: usize,
        /// Dimension of the negative class.
        neg: usize,
    },
    /// A sketch's rank parameter $\ell$ is outside `1..=max`.
    Rank {
        /// The $\ell$ asked for.
        ell: usize,
        /// The largest $\ell$ allowed ([`crate::MAX_ELL`]).
        max: usize,
    },
    /// Two sketches of different $\ell$ cannot be merged.
    RankMismatch {
        /// $\ell$ of the sketch merged into.
        left: usize,
        /// $\ell$ of the sketch merged in.
        right: usize,
    },
    /// A vector argument has the wrong length.
    Length {
        /// The argument (`"w"`, `"out"`).
        what: &'static str,
        /// The sketch's dimension.
        expected: usize,
        /// The argument's length.
        found: usize,
    },
    /// An input value (a row entry, a weight) is NaN or infinite.
    NonFinite {
        /// The argument (`"row"`, `"w"`).
        what: &'static str,
        /// The feature index of the value.
        index: usize,
        /// The offending value.
        value: String,
    },
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::UnsupportedVersion { found, supported } => write!(
                f,
                "saved moments have format version {found}, this build reads only version {supported}"
            ),
            StatsError::Decode { what, message } => {
                write!(f, "cannot decode saved {what}: {message}")
            }
            StatsError::TrailingBytes { what, count } => {
                write!(f, "saved {what}: {count} unexpected bytes after the value")
            }
            StatsError::Shape {
                what,
                expected,
                found,
            } => write!(
                f,
                "saved moments: {what} has {found} values, the dimension requires {expected}"
            ),
            StatsError::InvalidValue { what, index, value } => {
                write!(f, "saved moments: {what}[{index}] = {value} is not allowed")
            }
            StatsError::NonZeroEmpty => write!(
                f,
                "saved moments: count is 0 but the mean or covariance is not zero"
            ),
            StatsError::DimMismatch { pos, neg } => write!(
                f,
                "saved moments: positive class has dimension {pos}, negative class {neg}"
            ),
            StatsError::Rank { ell, max } => write!(
                f,
                "sketch rank ell = {ell} is not allowed (it must be between 1 and {max})"
            ),
            StatsError::RankMismatch { left, right } => write!(
                f,
                "cannot merge a sketch of rank {right} into a sketch of rank {left}"
            ),
            StatsError::Length {
                what,
                expected,
                found,
            } => write!(
                f,
                "{what} has length {found}, the sketch has dimension {expected}"
            ),
            StatsError::NonFinite { what, index, value } => {
                write!(f, "{what}[{index}] = {value} is not finite")
            }
        }
    }
}

impl std::error::Error for StatsError {}
