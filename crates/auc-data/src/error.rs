//! The one runtime error type of the data layer, with the parse error kinds it carries.

use std::fmt;

use auc_core::{DatasetError, ParamError};

/// What went wrong at one place of a LIBSVM or CSV file; [`DataError::Parse`] says where.
///
/// Each message says what was found and what was expected instead.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The label (first token of a LIBSVM line, or the label field of a CSV row) is not a number.
    BadLabel,
    /// The label is a number but NaN or infinite (including overflow such as `1e999`).
    NonFiniteLabel,
    /// A LIBSVM feature token does not start with a decimal index.
    BadIndex,
    /// A LIBSVM feature index is 0; indices start at 1.
    IndexZero,
    /// A LIBSVM feature index does not fit in `u32`.
    IndexOverflow,
    /// A LIBSVM feature index is smaller than the one before it on the line.
    IndexNotIncreasing {
        /// The index (1-based, as written).
        index: u64,
        /// The index before it on the line.
        previous: u64,
    },
    /// A LIBSVM feature index appears twice on the line.
    DuplicateIndex {
        /// The index (1-based, as written).
        index: u64,
    },
    /// A LIBSVM feature index is larger than the dimension given in the read options.
    IndexExceedsDim {
        /// The index (1-based, as written).
        index: u64,
        /// The given dimension.
        dim: usize,
    },
    /// A LIBSVM feature index is not followed by `:` (for example `3 0.5`).
    MissingColon,
    /// A LIBSVM feature has nothing after its `:` (for example `3:`).
    MissingValue,
    /// A feature value is not a number.
    BadValue,
    /// A feature value is NaN or infinite (including overflow such as `1e999`).
    NonFiniteValue,
    /// A number is followed by something that is not a separator (for example `3:0.5x`).
    TrailingGarbage,
    /// A CSV field is empty.
    EmptyField,
    /// A CSV row has a different number of fields than the first row (or the header).
    FieldCount {
        /// The number of fields of the first row or the header.
        expected: usize,
        /// The number of fields of this row.
        found: usize,
    },
    /// The CSV label column named in the options is not in the header.
    NoSuchColumn {
        /// The name that was asked for.
        name: String,
    },
    /// The CSV label column index is not below the number of fields.
    LabelColumnOutOfRange {
        /// The 0-based column index that was asked for.
        index: usize,
        /// The number of fields of the row.
        fields: usize,
    },
    /// A CSV label column was asked for by name, but the file has no header.
    NoHeader,
    /// The file has more features than the dimension given in the read options.
    TooManyFeatures {
        /// The number of features of the file.
        found: usize,
        /// The given dimension.
        dim: usize,
    },
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseErrorKind as K;
        match self {
            K::BadLabel => {
                f.write_str("label is not a number: expected a label such as -1, +1, 0 or 2")
            }
            K::NonFiniteLabel => f.write_str("label is not finite: expected a finite number"),
            K::BadIndex => {
                f.write_str("expected a feature `index:value` with a positive integer index")
            }
            K::IndexZero => f.write_str("feature index 0: LIBSVM indices start at 1"),
            K::IndexOverflow => write!(
                f,
                "feature index does not fit in 32 bits: expected an index at most {}",
                u32::MAX
            ),
            K::IndexNotIncreasing { index, previous } => write!(
                f,
                "feature index {index} after {previous}: expected strictly increasing indices"
            ),
            K::DuplicateIndex { index } => write!(
                f,
                "duplicate feature index {index}: expected strictly increasing indices"
            ),
            K::IndexExceedsDim { index, dim } => write!(
                f,
                "feature index {index} exceeds the given dimension {dim}: expected at most {dim}"
            ),
            K::MissingColon => f.write_str("expected `:` after the feature index"),
            K::MissingValue => f.write_str("expected a value after `:`"),
            K::BadValue => f.write_str("feature value is not a number: expected a finite number"),
            K::NonFiniteValue => {
                f.write_str("feature value is not finite: expected a finite number")
            }
            K::TrailingGarbage => f.write_str(
                "unexpected characters after the number: expected a space, tab or end of line",
            ),
            K::EmptyField => f.write_str("empty field: expected a number"),
            K::FieldCount { expected, found } => {
                write!(f, "row has {found} fields, expected {expected}")
            }
            K::NoSuchColumn { name } => write!(f, "no column named {name:?} in the header"),
            K::LabelColumnOutOfRange { index, fields } => write!(
                f,
                "label column {index} (0-based) is out of range: the row has {fields} fields"
            ),
            K::NoHeader => f.write_str("a label column was named, but the file has no header line"),
            K::TooManyFeatures { found, dim } => {
                write!(
                    f,
                    "file has {found} features, more than the given dimension {dim}"
                )
            }
        }
    }
}

/// Why a [`crate::Scaler`] (typically decoded from a model file) cannot be used.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScalerProblem {
    /// The per-feature arrays have different lengths.
    Lengths {
        /// Length of the first array (`min`).
        first: usize,
        /// Length of the second array (`max`).
        second: usize,
    },
    /// A stored number is NaN or infinite.
    NonFinite {
        /// The feature (0-based).
        feature: usize,
    },
    /// A feature's minimum is above its maximum.
    Inverted {
        /// The feature (0-based).
        feature: usize,
    },
    /// A feature's largest absolute value is negative.
    NegativeMaxAbs {
        /// The feature (0-based).
        feature: usize,
    },
}

impl fmt::Display for ScalerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalerProblem::Lengths { first, second } => write!(
                f,
                "the ranges cover {first} and {second} features: expected equal lengths"
            ),
            ScalerProblem::NonFinite { feature } => {
                write!(f, "the range of feature {feature} (0-based) is not finite")
            }
            ScalerProblem::Inverted { feature } => write!(
                f,
                "the minimum of feature {feature} (0-based) is above its maximum"
            ),
            ScalerProblem::NegativeMaxAbs { feature } => write!(
                f,
                "the largest absolute value of feature {feature} (0-based) is negative"
            ),
        }
    }
}

/// Why data could not be read, binarized, scaled or generated.
#[derive(Debug)]
#[non_exhaustive]
pub enum DataError {
    /// Malformed input. Displays as `FILE:LINE:COL: MESSAGE`.
    Parse {
        /// The file name (or another description of the source) given to the reader.
        file: String,
        /// 1-based line number.
        line: usize,
        /// 1-based column, counted in bytes of the line.
        col: usize,
        /// What is wrong.
        kind: ParseErrorKind,
    },
    /// Reading failed.
    Io {
        /// The file name given to the reader.
        file: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// [`crate::Positive::Labels`] names a label that does not occur in the data.
    NoSuchLabel {
        /// The label asked for.
        label: f64,
        /// The labels that occur, sorted.
        present: Vec<f64>,
    },
    /// [`crate::RawData::with_dim`] was asked for a dimension below a stored feature index.
    DimTooSmall {
        /// The dimension asked for.
        dim: usize,
        /// The smallest dimension that holds every stored feature.
        needed: usize,
    },
    /// A scaler's numbers cannot be used (a damaged or crafted model file).
    Scaler(ScalerProblem),
    /// A scaling name that is not `auto`, `minmax`, `maxabs` or `none`.
    UnknownScaling {
        /// The name given.
        name: String,
    },
    /// A parameter (of [`crate::Synthetic`]) is out of range.
    Param(ParamError),
    /// Building the [`auc_core::Dataset`] failed (a bug in this crate if it ever happens).
    Dataset(DatasetError),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Parse {
                file,
                line,
                col,
                kind,
            } => write!(f, "{file}:{line}:{col}: {kind}"),
            DataError::Io { file, source } => write!(f, "{file}: cannot read: {source}"),
            DataError::NoSuchLabel { label, present } => {
                let present: Vec<String> = present.iter().map(|l| l.to_string()).collect();
                write!(
                    f,
                    "label {label} does not occur in the data (labels present: {})",
                    present.join(", ")
                )
            }
            DataError::DimTooSmall { dim, needed } => write!(
                f,
                "dimension {dim} is too small: the data has features up to index {needed} (1-based)"
            ),
            DataError::Scaler(p) => write!(f, "invalid scaler: {p}"),
            DataError::UnknownScaling { name } => write!(
                f,
                "unknown scaling {name:?}: expected auto, minmax, maxabs or none"
            ),
            DataError::Param(e) => write!(f, "{e}"),
            DataError::Dataset(e) => write!(f, "invalid dataset: {e}"),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io { source, .. } => Some(source),
            DataError::Param(e) => Some(e),
            DataError::Dataset(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParamError> for DataError {
    fn from(e: ParamError) -> Self {
        DataError::Param(e)
    }
}

impl From<DatasetError> for DataError {
    fn from(e: DatasetError) -> Self {
        DataError::Dataset(e)
    }
}
