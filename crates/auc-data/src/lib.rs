//! Reading and preparing data for the `auc` workspace: LIBSVM and CSV parsing, binarizing labels,
//! scaling fitted on one part and applied to another (min-max or max-abs, [`Scaling`], from
//! mergeable [`FeatureRanges`]), unit-norm rows, and seeded synthetic imbalanced data
//! (SPEC section 1).
//!
//! This is the only layer that checks raw input: every value it hands on is finite and every sparse
//! row is sorted, so learners need not check again. It never trains or scores anything.
//!
//! Reading gives [`RawData`]: numeric labels as written plus features (CSR for LIBSVM, dense rows for
//! CSV). [`RawData::binarize`] maps labels to [`auc_core::Label`] by the minority rule or an explicit
//! list ([`Positive`]) and picks the storage of the resulting [`auc_core::Dataset`] by density
//! ([`DENSE_DENSITY`]). Malformed input is a [`DataError::Parse`] that displays as
//! `FILE:LINE:COL: MESSAGE`, with 1-based line and byte column; the readers never panic on any
//! input (a property test feeds them random and mutated bytes).
//!
//! ```
//! use auc_data::{Positive, ReadOptions, read_libsvm};
//! let text = "+1 1:0.5 3:2\n-1 2:1 # a comment\n-1 qid:4 1:-1\n";
//! let raw = read_libsvm(text.as_bytes(), "inline", &ReadOptions::default()).unwrap();
//! assert_eq!((raw.n(), raw.dim(), raw.nnz()), (3, 3, 4));
//! let data = raw.binarize(&Positive::Minority).unwrap();
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

mod csv;
mod error;
mod libsvm;
mod lines;
mod number;
mod raw;
mod scale;
mod synthetic;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

pub use csv::read_csv;
pub use error::{DataError, ParseErrorKind, ScalerProblem};
pub use libsvm::read_libsvm;
pub use raw::{BinaryLabels, DENSE_DENSITY, Positive, PositiveChoice, PositiveRule, RawData};
pub use scale::{AUTO_MIN_MAX_DENSITY, FeatureRanges, SCALED_LIMIT, Scaler, Scaling, unit_norm};
pub use synthetic::Synthetic;

/// How to read a data file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadOptions {
    /// The dimension to give the data (so that a test file lines up with its training file). An
    /// index above it is an error. `None`: the file's largest index (LIBSVM) or column count (CSV).
    pub dim: Option<usize>,
    /// Stop after this many examples.
    pub limit: Option<usize>,
    /// The file format.
    pub format: Format,
    /// CSV settings, used when the format is CSV.
    pub csv: CsvOptions,
}

/// A data file format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// By extension: `.csv` and `.tsv` (any case) are CSV, anything else LIBSVM.
    #[default]
    Auto,
    /// LIBSVM / svmlight text.
    Libsvm,
    /// Delimited numeric text.
    Csv,
}

/// Settings of the CSV reader.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvOptions {
    /// Which column holds the label.
    pub label: LabelColumn,
    /// Field separator, `b','` by default. [`read_path`] with [`Format::Auto`] switches the default
    /// comma to a tab for `.tsv` files.
    pub delimiter: u8,
    /// Whether the first line is a header. `None` detects it: the first line is a header when one of
    /// its fields is non-empty and not a number.
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Whether `path`'s extension is `ext`, ignoring case.
fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Reads the file at `path` in the format `opts.format` says (see [`Format::Auto`]).
///
/// Errors name the file as `path` displays.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<RawData, DataError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|source| DataError::Io {
        file: name.clone(),
        source,
    })?;
    let reader = BufReader::with_capacity(1 << 16, file);
    let tsv = has_ext(path, "tsv");
    let csv = match opts.format {
        Format::Auto => has_ext(path, "csv") || tsv,
        Format::Libsvm => false,
        Format::Csv => true,
    };
    if !csv {
        return read_libsvm(reader, &name, opts);
    }
    if tsv && opts.format == Format::Auto && opts.csv.delimiter == b',' {
        let mut opts = opts.clone();
        opts.csv.delimiter = b'\t';
        return read_csv(reader, &name, &opts);
    }
    read_csv(reader, &name, opts)
}
