//! Reading and preparing data for the `auc` workspace: LIBSVM and CSV parsing (whole files or in
//! chunks), gzip and standard input, feature hashing, choosing the positive class and binarizing,
//! scaling fitted on one part and applied to another, unit-norm rows, and seeded synthetic
//! imbalanced data (SPEC section 1).
//!
//! This is the only layer that checks raw input: every value it hands on is finite and every sparse
//! row is sorted, so learners need not check again. It never trains or scores anything.
//!
//! Reading gives [`RawData`]: numeric labels as written plus features (CSR for LIBSVM, dense rows for
//! CSV), and the [`Reading`] that says how the file was read. [`RowStream`] reads the same formats
//! chunk by chunk in memory bounded by the chunk, from any [`std::io::BufRead`]; the whole-file
//! readers ([`read_libsvm`], [`read_csv`], [`read_path`]) are one call of it, so there is one parser.
//! [`RawData::choose_positive`] picks the positive class ([`Positive`], [`PositiveChoice`]) and
//! [`RawData::binarize`] maps labels to [`auc_core::Label`], picking the storage of the resulting
//! [`auc_core::Dataset`] by density ([`DENSE_DENSITY`]). [`Scaler`] scales features (min-max or
//! max-abs, [`Scaling`]), fitted in memory or from mergeable [`FeatureRanges`].
//!
//! Malformed input is a [`DataError::Parse`] that displays as `FILE:LINE:COL: MESSAGE`, with 1-based
//! line and byte column; the readers never panic on any input (a property test feeds them random
//! and mutated bytes, plain and gzip).
//!
//! ```
//! use auc_data::{Positive, PositiveRule, ReadOptions, read_libsvm};
//! let text = "+1 1:0.5 3:2\n-1 2:1 # a comment\n-1 qid:4 1:-1\n";
//! let raw = read_libsvm(text.as_bytes(), "inline", &ReadOptions::default()).unwrap();
//! assert_eq!((raw.n(), raw.dim(), raw.nnz()), (3, 3, 4));
//! let choice = raw.choose_positive(&Positive::Auto).unwrap();
//! assert_eq!(choice.labels, [1.0]);
//! assert_eq!(choice.rule.to_string(), "+1 of a {-1, +1} file");
//! let data = raw.binarize(&Positive::Auto).unwrap();
//! assert_eq!(data.class_counts(), (1, 2));
//! let bad = read_libsvm("1 0:1\n".as_bytes(), "a.libsvm", &ReadOptions::default());
//! assert_eq!(
//!     bad.unwrap_err().to_string(),
//!     "a.libsvm:1:3: feature index 0: LIBSVM indices start at 1"
//! );
//! ```
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $n$ | [`RawData::n`], [`Synthetic::n`] | number of examples |
//! | $p$ | [`RawData::dim`], [`Synthetic::p`] | number of features |
//! | $y \in \\{-1,+1\\}$ | [`RawData::binarize`] | labels after binarizing |
//! | $n_- / n_+$ | [`Synthetic::ir`] | imbalance ratio |
//! | $B$ | [`ReadOptions::hash_bits`] | feature hashing into $2^B$ indices |

mod csv;
mod error;
mod input;
mod libsvm;
mod lines;
mod number;
mod raw;
mod scale;
mod stream;
mod synthetic;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use crate::csv::{CsvReading, read_csv};
pub use error::{DataError, Mismatch, ParseErrorKind, ReadingProblem, ScalerProblem};
pub use input::STDIN;
pub use libsvm::read_libsvm;
pub use raw::{
    BinaryLabels, DENSE_DENSITY, Layout, Positive, PositiveChoice, PositiveRule, RawData,
    dense_bytes,
};
pub use scale::{AUTO_MIN_MAX_DENSITY, FeatureRanges, SCALED_LIMIT, Scaler, Scaling, unit_norm};
pub use stream::RowStream;
pub use synthetic::Synthetic;

/// How to read a data file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// The dimension to give the data (so that a test file lines up with its training file). An
    /// index above it is an error. `None`: the file's largest index (LIBSVM) or column count (CSV),
    /// or $2^B$ with feature hashing.
    pub dim: Option<usize>,
    /// Stop after this many examples.
    pub limit: Option<usize>,
    /// The file format.
    pub format: Format,
    /// CSV settings, used when the format is CSV.
    pub csv: CsvOptions,
    /// Feature hashing with $B$ bits (1 to 31), Vowpal Wabbit's `-b` convention: the 0-based feature
    /// index $j$ becomes $j \mathbin{\\&} (2^B - 1)$, values that land on the same index within a
    /// row are summed (an entry that sums to exactly 0 is dropped), and the dimension is $2^B$.
    /// For files with huge or unbounded index spaces. Indices are still checked as written
    /// (increasing, in the range of `u32`), and `dim`, if given, must be $2^B$. CSV data read with
    /// hashing is stored as CSR.
    pub hash_bits: Option<u8>,
}

impl ReadOptions {
    /// The dimension every row is read into: $2^B$ with hashing, else [`ReadOptions::dim`].
    /// Errors when `hash_bits` is outside `1..=31` or disagrees with `dim`.
    pub(crate) fn fixed_dim(&self) -> Result<Option<usize>, DataError> {
        let Some(bits) = self.hash_bits else {
            return Ok(self.dim);
        };
        if !(1..=31).contains(&bits) {
            return Err(DataError::HashBits { bits });
        }
        let hashed = 1usize << bits;
        match self.dim {
            Some(dim) if dim != hashed => Err(DataError::HashDim { bits, dim }),
            _ => Ok(Some(hashed)),
        }
    }
}

/// A data file format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// By the name: `.csv` and `.tsv` (any case, also under a `.gz` suffix: `x.csv.gz`) are CSV,
    /// anything else (standard input too) LIBSVM.
    #[default]
    Auto,
    /// LIBSVM / svmlight text.
    Libsvm,
    /// Delimited numeric text.
    Csv,
}

impl Format {
    /// The format of a file named `name`: `self` unless it is [`Format::Auto`], which looks at the
    /// extension (under a trailing `.gz`). Never [`Format::Auto`].
    pub fn resolve(self, name: &str) -> Format {
        match self {
            Format::Auto => match name_ext(name).as_deref() {
                Some("csv" | "tsv") => Format::Csv,
                _ => Format::Libsvm,
            },
            other => other,
        }
    }
}

/// The extension of `name` in lower case, looking under a trailing `.gz` (`x.CSV.gz` gives `csv`).
fn name_ext(name: &str) -> Option<String> {
    let path = Path::new(name);
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    if ext != "gz" {
        return Some(ext);
    }
    let inner = Path::new(path.file_stem()?);
    Some(inner.extension()?.to_str()?.to_ascii_lowercase())
}

/// Settings of the CSV reader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsvOptions {
    /// Which column holds the label.
    pub label: LabelColumn,
    /// Field separator, `b','` by default. [`Format::Auto`] switches the default comma to a tab
    /// for `.tsv` (and `.tsv.gz`) files.
    pub delimiter: u8,
    /// Whether the first record is a header. `None` detects it: the first record is a header when
    /// one of its fields is non-empty and not a number.
    pub header: Option<bool>,
}

impl Default for CsvOptions {
    /// Label in column 0, comma-separated, header detected.
    fn default() -> Self {
        Self {
            label: LabelColumn::default(),
            delimiter: b',',
            header: None,
        }
    }
}

/// Which CSV column holds the label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LabelColumn {
    /// A 0-based column index.
    Index(usize),
    /// The column with this header name (the file must have a header).
    Name(String),
    /// The last column.
    Last,
}

impl Default for LabelColumn {
    /// Column 0.
    fn default() -> Self {
        LabelColumn::Index(0)
    }
}

/// How a file was read, resolved from its [`ReadOptions`] and its first lines: what a model file
/// stores so that later files are read exactly the same way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reading {
    /// LIBSVM text.
    Libsvm,
    /// Delimited text with this layout.
    Csv(CsvReading),
}

impl Reading {
    /// The CSV layout, if the file was CSV.
    pub fn csv(&self) -> Option<&CsvReading> {
        match self {
            Reading::Libsvm => None,
            Reading::Csv(c) => Some(c),
        }
    }

    /// Checks a decoded reading (from a model or a moment file) for a layout no file can have:
    /// a CSV label column outside the record, or a header that does not name every field. A
    /// reading of a file without records (`fields == 0`) has no header and may name any label
    /// column, since it was never checked against one. Readings made by the parser always pass.
    ///
    /// # Errors
    /// The first [`ReadingProblem`] found.
    pub fn validate(&self) -> Result<(), ReadingProblem> {
        let Reading::Csv(c) = self else {
            return Ok(());
        };
        let names = c.header.as_ref().map(Vec::len);
        if c.fields == 0 {
            return match names {
                None => Ok(()),
                Some(names) => Err(ReadingProblem::HeaderLength { names, fields: 0 }),
            };
        }
        if c.label_index >= c.fields {
            return Err(ReadingProblem::LabelColumn {
                label_index: c.label_index,
                fields: c.fields,
            });
        }
        match names {
            Some(names) if names != c.fields => Err(ReadingProblem::HeaderLength {
                names,
                fields: c.fields,
            }),
            _ => Ok(()),
        }
    }

    /// The format and CSV settings that read a file this way (label column by index, the same
    /// delimiter, a header only if this reading had one). Dimension, limit and hashing are left to
    /// the caller.
    pub fn options(&self) -> ReadOptions {
        match self {
            Reading::Libsvm => ReadOptions {
                format: Format::Libsvm,
                ..ReadOptions::default()
            },
            Reading::Csv(c) => ReadOptions {
                format: Format::Csv,
                csv: c.options(),
                ..ReadOptions::default()
            },
        }
    }
}

/// Reads the file at `path`, or standard input when `path` is `-`, in the format `opts.format`
/// says (see [`Format::Auto`]); gzip input is decompressed whatever its name.
///
/// Errors name the file as `path` displays (`-` for standard input).
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<RawData, DataError> {
    RowStream::open(path, opts)?.read_all()
}
