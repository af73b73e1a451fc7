//! Reading and preparing data for the `auc` workspace: LIBSVM and CSV parsing (whole files or in
//! chunks), gzip and standard input, feature hashing and crosses, choosing the positive class and
//! binarizing, scaling fitted on one part and applied to another, unit-norm rows, and seeded
//! synthetic imbalanced data (conventions section 1).
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
//! use auc_data::{Positive, PositiveRule, ReadOptions, Reading, ZeroBased, read_libsvm};
//! let text = "+1 1:0.5 3:2\n-1 2:1 # a comment\n-1 qid:4 1:-1\n";
//! let raw = read_libsvm(text.as_bytes(), "inline", &ReadOptions::default()).unwrap();
//! assert_eq!((raw.n(), raw.dim(), raw.nnz()), (3, 3, 4));
//! let choice = raw.choose_positive(&Positive::Auto).unwrap();
//! assert_eq!(choice.labels, [1.0]);
//! assert_eq!(choice.rule.to_string(), "+1 of a {-1, +1} file");
//! let data = raw.binarize(&Positive::Auto).unwrap();
//! assert_eq!(data.class_counts(), (1, 2));
//! // A file with an index 0 (scikit-learn's `dump_svmlight_file`) is read 0-based by default.
//! let zero = read_libsvm("1 0:1 2:3\n".as_bytes(), "a.libsvm", &ReadOptions::default()).unwrap();
//! assert_eq!((zero.dim(), zero.reading()), (3, &Reading::LibsvmZeroBased));
//! let one_based = ReadOptions { zero_based: ZeroBased::No, ..ReadOptions::default() };
//! let bad = read_libsvm("1 0:1\n".as_bytes(), "a.libsvm", &one_based);
//! assert!(bad.unwrap_err().to_string().starts_with(
//!     "a.libsvm:1:3: feature index 0: LIBSVM indices start at 1 (pass --zero-based yes"
//! ));
//! ```
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $n$ | [`RawData::n`], [`Synthetic::n`] | number of examples |
//! | $p$ | [`RawData::dim`], [`Synthetic::p`] | number of features |
//! | $y \in \\{-1,+1\\}$ | [`RawData::binarize`] | labels after binarizing |
//! | $n_- / n_+$ | [`Synthetic::ir`] | imbalance ratio |
//! | $B$ | [`ReadOptions::hash_bits`] | feature hashing into $2^B$ indices |
//! | $C$ | [`ReadOptions::cross_bits`] | feature crosses folded into $2^C$ indices after them |

mod block_ranges;
mod columnar;
mod cross;
mod csv;
mod error;
mod fast;
mod first_sight;
mod hashing;
mod input;
mod libsvm;
mod lines;
mod names;
mod number;
mod options;
mod raw;
mod rows;
mod scale;
mod stream;
mod synthetic;
pub mod table;
mod tally;
mod zero_based;

pub use crate::stream::{read_csv, read_libsvm, read_path};
pub use block_ranges::BlockRanges;
pub use cross::{Crosses, MAX_CROSS_BITS, MAX_CROSS_NNZ, pair_hash};
pub use error::{
    ColumnarError, DataError, Mismatch, ParseErrorKind, ReadingProblem, ScalerProblem,
};
pub use first_sight::{DENSITY_CHECK_ROWS, FirstSight, Unsighted};
pub use input::STDIN;
pub use lines::{DEFAULT_MAX_LINE_BYTES, LineReadError, Lines};
pub use names::{closest_name, column_by_name};
pub use options::{
    CsvOptions, CsvReading, Format, LABEL_NAMES, LabelColumn, MAX_BOUNDED_VALUE, ReadOptions,
    Reading, TableReading, label_by_name,
};
pub use raw::{
    BinaryLabels, DENSE_DENSITY, Layout, MANY_LABELS, Positive, PositiveChoice, PositiveRule,
    RawData, dense_bytes, named_numbers,
};
pub use scale::{
    AUTO_MIN_MAX_DENSITY, FeatureRanges, SCALED_LIMIT, Scaler, Scaling, row_norm, unit_norm,
};
pub use stream::RowStream;
pub use synthetic::Synthetic;
pub use tally::{Checksum, Tallied, Tallies, Tally};
pub use zero_based::{WINDOW_BYTES, ZeroBased};
