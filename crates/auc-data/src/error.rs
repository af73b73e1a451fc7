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
    /// A LIBSVM feature index is 0 in input read 1-based ([`crate::ZeroBased::No`]).
    IndexZero,
    /// A LIBSVM feature index is 0 in input that cannot be read twice, after its first `lines`
    /// lines, which held no index 0, decided that it is 1-based ([`crate::ZeroBased::Auto`]).
    LateIndexZero {
        /// The lines the decision was made on.
        lines: usize,
    },
    /// A LIBSVM feature index does not fit in `u32` (`u32::MAX - 1` at most when 0-based).
    IndexOverflow,
    /// A LIBSVM feature index is smaller than the one before it on the line.
    IndexNotIncreasing {
        /// The index (as written).
        index: u64,
        /// The index before it on the line.
        previous: u64,
    },
    /// A LIBSVM feature index appears twice on the line.
    DuplicateIndex {
        /// The index (as written).
        index: u64,
    },
    /// A LIBSVM feature index is larger than the dimension given in the read options (at least
    /// the dimension, when 0-based).
    IndexExceedsDim {
        /// The index (as written).
        index: u64,
        /// The given dimension.
        dim: usize,
        /// Whether the input is read 0-based.
        zero_based: bool,
    },
    /// A LIBSVM feature index is not followed by `:` (for example `3 0.5`).
    MissingColon,
    /// A LIBSVM feature has nothing after its `:` (for example `3:`).
    MissingValue,
    /// A feature value is not a number.
    BadValue,
    /// A feature value is NaN or infinite (including overflow such as `1e999`).
    NonFiniteValue,
    /// A feature value's magnitude is above [`crate::MAX_BOUNDED_VALUE`], read with
    /// [`crate::ReadOptions::bounded_values`] (learning without scaling, or raw moments).
    ValueTooLarge,
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
        /// The header's names.
        columns: Vec<String>,
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
    /// A headed CSV file has no column named as a label is (SPEC 11) and no label column was
    /// given: it is refused rather than read with its first column as the label.
    NoLabelColumn {
        /// The header's names.
        columns: Vec<String>,
    },
    /// A cell cannot be encoded by the table's schema.
    Cell(crate::table::CellProblem),
    /// The file has more features than the dimension given in the read options.
    TooManyFeatures {
        /// The number of features of the file.
        found: usize,
        /// The given dimension.
        dim: usize,
    },
    /// Feature hashing folded several features of the row into one index, and their values sum to
    /// an infinite number.
    HashedSumNotFinite {
        /// The hashed index (0-based).
        index: u32,
    },
    /// A line (a CSV record, quoted line breaks included) holds more bytes than
    /// [`crate::ReadOptions::max_line_bytes`]; reading stopped there.
    LineTooLong {
        /// The cap.
        limit: usize,
    },
    /// Feature crosses were asked for ([`crate::ReadOptions::cross_bits`]) and the row has more
    /// non-zeros than the cap ([`crate::MAX_CROSS_NNZ`]).
    CrossTooManyNonZeros {
        /// The row's non-zeros (after hashing).
        nnz: usize,
        /// The cap.
        cap: usize,
    },
    /// A feature cross (a product of two of the row's values, or a sum of products folded into
    /// one bucket) is infinite.
    CrossNotFinite {
        /// The cross's index (0-based, after the row's own features).
        index: u32,
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
            K::IndexZero => f.write_str(
                "feature index 0: LIBSVM indices start at 1 (pass --zero-based yes to read a 0-based file, as scikit-learn writes by default)",
            ),
            K::LateIndexZero { lines } => write!(
                f,
                "feature index 0 in input read 1-based, as its first {lines} lines (which had no index 0) decided: pass --zero-based yes to read it 0-based"
            ),
            K::IndexOverflow => write!(
                f,
                "feature index does not fit in 32 bits: expected an index at most {} ({} when 0-based)",
                u32::MAX,
                u32::MAX - 1
            ),
            K::IndexNotIncreasing { index, previous } => write!(
                f,
                "feature index {index} after {previous}: expected strictly increasing indices"
            ),
            K::DuplicateIndex { index } => write!(
                f,
                "duplicate feature index {index}: expected strictly increasing indices"
            ),
            K::IndexExceedsDim {
                index,
                dim,
                zero_based: false,
            } => write!(
                f,
                "feature index {index} exceeds the given dimension {dim}: expected at most {dim}"
            ),
            K::IndexExceedsDim {
                index,
                dim,
                zero_based: true,
            } => write!(
                f,
                "feature index {index} (0-based) exceeds the given dimension {dim}: expected an index below {dim}"
            ),
            K::MissingColon => f.write_str("expected `:` after the feature index"),
            K::MissingValue => f.write_str("expected a value after `:`"),
            K::BadValue => f.write_str("feature value is not a number: expected a finite number"),
            K::NonFiniteValue => {
                f.write_str("feature value is not finite: expected a finite number")
            }
            K::ValueTooLarge => write!(
                f,
                "feature value is above {:e} in magnitude, where its square summed over rows overflows: expected a smaller value (scale the features with --scale; the moment learners sum raw squares, so for them divide this feature)",
                crate::MAX_BOUNDED_VALUE
            ),
            K::TrailingGarbage => f.write_str(
                "unexpected characters after the number: expected a space, tab or end of line",
            ),
            K::EmptyField => f.write_str("empty field: expected a number"),
            K::FieldCount { expected, found } => {
                write!(f, "row has {found} fields, expected {expected}")
            }
            K::NoSuchColumn { name, columns } => {
                write!(f, "no column named {name:?} in the header")?;
                if let Some(c) = crate::names::closest_name(name, columns) {
                    write!(f, " (did you mean {c:?}?)")?;
                }
                write!(f, "; the columns are {}", crate::names::names_list(columns))
            }
            K::NoLabelColumn { columns } => write!(
                f,
                "no label column: none of the columns {} is named {} (any case); name it with --label-column NAME (Python: label_column=)",
                crate::names::names_list(columns),
                crate::LABEL_NAMES.join(", ")
            ),
            K::Cell(p) => write!(f, "{p}"),
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
            K::HashedSumNotFinite { index } => write!(
                f,
                "the values hashed to feature {index} (0-based) sum to an infinite number: expected a finite sum"
            ),
            K::LineTooLong { limit } => write!(
                f,
                "line is longer than {limit} bytes (the line limit, --max-line-bytes): expected a line end"
            ),
            K::CrossTooManyNonZeros { nnz, cap } => write!(
                f,
                "the row has {nnz} non-zero features, more than the {cap} that feature crosses (--cross-hash-bits) pair up: expected at most {cap} (fold with fewer --hash-bits or drop the crosses)"
            ),
            K::CrossNotFinite { index } => write!(
                f,
                "feature cross {index} (a product of two of the row's values, or their sum in one bucket) is not finite: expected values whose products are finite (scale the data first)"
            ),
        }
    }
}

/// How a file's CSV layout differs from the reading it must match ([`crate::CsvReading::check`]),
/// for example the columns a model was trained on.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Mismatch {
    /// The field delimiter differs.
    Delimiter {
        /// The delimiter of the reading to match.
        expected: u8,
        /// This file's delimiter.
        found: u8,
    },
    /// One has a header line and the other has not.
    Header {
        /// Whether the reading to match has a header.
        expected: bool,
    },
    /// The number of columns differs.
    Columns {
        /// The column count of the reading to match.
        expected: usize,
        /// This file's column count.
        found: usize,
    },
    /// The label is in another column.
    LabelColumn {
        /// The 0-based label column of the reading to match.
        expected: usize,
        /// This file's 0-based label column.
        found: usize,
    },
    /// LIBSVM indices count from another base: input judged on its first lines
    /// ([`crate::ZeroBased::Auto`] on standard input) against the files read before it.
    IndexBase {
        /// Whether the reading to match is 0-based.
        expected_zero_based: bool,
    },
    /// A column has another name (the first such column is reported).
    ColumnName {
        /// The 1-based column number.
        column: usize,
        /// The name in the reading to match.
        expected: String,
        /// The name in this file.
        found: String,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |b: u8| match b {
            b'\t' => "tab".to_string(),
            b => format!("{:?}", char::from(b)),
        };
        match self {
            Mismatch::Delimiter { expected, found } => write!(
                f,
                "fields are separated by {}, expected {}",
                show(*found),
                show(*expected)
            ),
            Mismatch::Header { expected: true } => {
                f.write_str("the file has no header line, expected one")
            }
            Mismatch::Header { expected: false } => {
                f.write_str("the file has a header line, expected none")
            }
            Mismatch::Columns { expected, found } => {
                write!(f, "the file has {found} columns, expected {expected}")
            }
            Mismatch::LabelColumn { expected, found } => write!(
                f,
                "the label is in column {} (1-based), expected column {}",
                found + 1,
                expected + 1
            ),
            Mismatch::IndexBase {
                expected_zero_based,
            } => {
                let base = |zero: bool| if zero { "0-based" } else { "1-based" };
                write!(
                    f,
                    "LIBSVM indices are read {}, expected {} as the data before it: pass --zero-based yes (or no) to read every file the same way",
                    base(!expected_zero_based),
                    base(*expected_zero_based)
                )
            }
            Mismatch::ColumnName {
                column,
                expected,
                found,
            } => write!(
                f,
                "column {column} is named {found:?}, expected {expected:?}"
            ),
        }
    }
}

/// Why a [`crate::Reading`] (decoded from a model or moment file) cannot read any file
/// ([`crate::Reading::validate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadingProblem {
    /// The CSV label column is not one of the record's fields.
    LabelColumn {
        /// The 0-based label column.
        label_index: usize,
        /// Fields per record.
        fields: usize,
    },
    /// The CSV header does not name every field exactly once.
    HeaderLength {
        /// Names in the header.
        names: usize,
        /// Fields per record (0: a reading of a file without records, which has no header).
        fields: usize,
    },
    /// A table's schema is inconsistent.
    Schema(String),
}

impl fmt::Display for ReadingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadingProblem::Schema(why) => write!(f, "the table schema is damaged: {why}"),
            ReadingProblem::LabelColumn {
                label_index,
                fields,
            } => write!(
                f,
                "the CSV label column {} (1-based) is not among the {fields} columns of a record",
                *label_index as u128 + 1
            ),
            ReadingProblem::HeaderLength { names, fields } => write!(
                f,
                "the CSV header names {names} columns but a record has {fields}"
            ),
        }
    }
}

impl std::error::Error for ReadingProblem {}

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

/// Where and why a cell of a Parquet or Arrow IPC file cannot be read. Displays as
/// `FILE: row N (row group G, row R): column "C": MESSAGE`, counted from 0 as pyarrow and pandas
/// count.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnarError {
    /// The file name given to the reader.
    pub file: String,
    /// The row of the file, counted from 0.
    pub row: u64,
    /// Where the row lies: `row group 2, row 17` (Parquet) or `record batch 0, row 5` (Arrow
    /// IPC), counted from 0.
    pub place: String,
    /// The column's name.
    pub column: String,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ColumnarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: row {} ({}): ", self.file, self.row, self.place)?;
        // A cell problem names its column itself.
        if !matches!(self.kind, ParseErrorKind::Cell(_)) {
            write!(f, "column \"{}\": ", self.column)?;
        }
        write!(f, "{}", self.kind)
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
    /// The input starts like gzip data but cannot be decompressed (corrupt or truncated).
    Gzip {
        /// The file name given to the reader.
        file: String,
        /// The decoder's error.
        source: std::io::Error,
    },
    /// A CSV file is laid out differently from the reading it must match.
    Mismatch {
        /// The file name given to the reader.
        file: String,
        /// What differs.
        kind: Mismatch,
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
    /// [`crate::ReadOptions::hash_bits`] is outside `1..=31`.
    HashBits {
        /// The value given.
        bits: u8,
    },
    /// [`crate::ReadOptions::dim`] disagrees with the dimension $2^B$ that feature hashing gives.
    HashDim {
        /// The number of hash bits $B$.
        bits: u8,
        /// The dimension given.
        dim: usize,
    },
    /// [`crate::ReadOptions::cross_bits`] is outside `1..=MAX_CROSS_BITS`.
    CrossBits {
        /// The value given.
        bits: u8,
    },
    /// [`crate::ReadOptions::cross_bits`] without a fixed dimension (feature hashing or
    /// [`crate::ReadOptions::dim`]) for the crosses to follow.
    CrossNeedsDim,
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
    /// A table cannot be read as asked (its label, its columns, its schema), with the reason.
    Table(String),
    /// A cell of a Parquet or Arrow IPC file cannot be read (boxed: it is rarer and larger than
    /// the others).
    Columnar(Box<ColumnarError>),
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
            DataError::Gzip { file, source } => {
                write!(f, "{file}: corrupt or truncated gzip data: {source}")
            }
            DataError::Mismatch { file, kind } => write!(f, "{file}: {kind}"),
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
            DataError::HashBits { bits } => write!(
                f,
                "hash bits {bits} is out of range: expected 1 to 31 (a dimension of 2 to 2^31)"
            ),
            DataError::HashDim { bits, dim } => write!(
                f,
                "dimension {dim} disagrees with {bits} hash bits, which give dimension {}",
                1u64 << bits
            ),
            DataError::CrossBits { bits } => write!(
                f,
                "cross hash bits {bits} is out of range: expected 1 to {}",
                crate::MAX_CROSS_BITS
            ),
            DataError::CrossNeedsDim => f.write_str(
                "feature crosses (--cross-hash-bits) need feature hashing (--hash-bits B): the crosses are placed after the 2^B hashed features",
            ),
            DataError::Scaler(p) => write!(f, "invalid scaler: {p}"),
            DataError::UnknownScaling { name } => write!(
                f,
                "unknown scaling {name:?}: expected auto, minmax, maxabs or none"
            ),
            DataError::Param(e) => write!(f, "{e}"),
            DataError::Dataset(e) => write!(f, "invalid dataset: {e}"),
            DataError::Table(why) => f.write_str(why),
            DataError::Columnar(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io { source, .. } | DataError::Gzip { source, .. } => Some(source),
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
