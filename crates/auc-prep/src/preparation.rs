//! [`Preparation`]: how a model's training data was read and prepared, what a model file stores
//! and what every later reader applies to new data. [`Preparation::new`] is its one
//! constructor (the struct is `#[non_exhaustive]`, so no other crate can build it by hand).
//!
//! [`PreparationV3`] is the layout model files of format version 3 stored (a scaler and a
//! unit-norm flag instead of a list of stages), [`PreparationV5`] the layout of versions 4 and 5
//! (before feature crosses); both convert to the same preparation, so those files load and score
//! as they did.

use auc_core::{Dataset, DatasetError, Row};
use auc_data::{PositiveChoice, ReadOptions, Reading, Scaler};
use serde::{Deserialize, Serialize};

use crate::transform::{RowBuffers, Transform};

/// How a model's training data was read and prepared: what `auc predict` applies to new data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Preparation {
    /// The format and, for CSV, the layout (delimiter, label column, header names).
    pub reading: Reading,
    /// The file labels that make the positive class.
    pub positive_labels: Vec<f64>,
    /// Why these labels are positive, in words (`given`, `1 of a {0, 1} file`, `minority class`).
    pub positive_rule: String,
    /// The number of features of the rows as read: with crosses, the row's own features and
    /// the $2^C$ crosses after them.
    pub dim: usize,
    /// Feature hashing into $2^B$ features, when used.
    pub hash_bits: Option<u8>,
    /// Feature crosses into $2^C$ buckets after the row's own features, when used
    /// ([`auc_data::ReadOptions::cross_bits`]).
    pub cross_bits: Option<u8>,
    /// The fitted stages.
    pub transform: Transform,
}

impl Preparation {
    /// How the model's data is read, in words: `LIBSVM, 13 features`, `LIBSVM (0-based), 13
    /// features` or `CSV (label column 13 "y", header, delimiter ','), 13 features`.
    pub fn describe_reading(&self) -> String {
        let format = match &self.reading {
            Reading::Libsvm => "LIBSVM".to_owned(),
            Reading::LibsvmZeroBased => "LIBSVM (0-based)".to_owned(),
            Reading::Csv(c) => {
                let label = match c.label_name() {
                    Some(n) => format!("label column {} \"{n}\"", c.label_index),
                    None => format!("label column {}", c.label_index),
                };
                let header = if c.has_header() {
                    "header"
                } else {
                    "no header"
                };
                let d = match c.delimiter {
                    b'\t' => "tab".to_owned(),
                    d => format!("'{}'", d as char),
                };
                format!("CSV ({label}, {header}, delimiter {d})")
            }
            Reading::Table(t) => {
                let s = &t.schema;
                let categorical = s
                    .columns
                    .iter()
                    .filter(|c| !matches!(c.encoding, auc_data::table::Encoding::Numeric { .. }))
                    .count();
                let d = match t.delimiter {
                    b'\t' => "tab".to_owned(),
                    d => format!("'{}'", d as char),
                };
                format!(
                    "table (label \"{}\", {} columns of which {categorical} categorical; CSV with delimiter {d}, Parquet or Arrow IPC)",
                    s.label.name,
                    s.columns.len()
                )
            }
        };
        let hashed = self
            .hash_bits
            .map(|b| format!(", hashed into 2^{b}"))
            .unwrap_or_default();
        let crossed = self
            .cross_bits
            .map(|c| format!(", crosses of feature pairs in 2^{c} more"))
            .unwrap_or_default();
        format!("{format}, {} features{hashed}{crossed}", self.dim)
    }

    /// The positive class in words: `bad (the minority class of {bad, good})` for a table,
    /// `1 (1 of a {0, 1} file)` otherwise.
    pub fn positive_words(&self) -> String {
        if self.reading.schema().is_some() {
            return self.positive_rule.clone();
        }
        let labels: Vec<String> = self
            .positive_labels
            .iter()
            .map(|&l| auc_core::shortest(l))
            .collect();
        format!("{} ({})", labels.join(","), self.positive_rule)
    }

    /// The preparation of rows read as `reading`, of `dim` features (hashed into $2^B$ with
    /// `hash_bits`, crossed into $2^C$ more with `cross_bits`: `dim` counts them), whose
    /// positive class `choice` took, through `transform`.
    pub fn new(
        reading: Reading,
        choice: &PositiveChoice,
        dim: usize,
        (hash_bits, cross_bits): (Option<u8>, Option<u8>),
        transform: Transform,
    ) -> Preparation {
        // A table's label map says which of its values are positive and why.
        let positive_rule = match reading.schema() {
            Some(s) => s.label.to_string(),
            None => choice.rule.to_string(),
        };
        Preparation {
            reading,
            positive_labels: choice.labels.clone(),
            positive_rule,
            dim,
            hash_bits,
            cross_bits,
            transform,
        }
    }

    /// The preparation of a fit from arrays (Python): rows by feature index as LIBSVM's are
    /// (so `auc predict` reads LIBSVM files for the model), `dim` columns (crossed into $2^C$
    /// more after them with `cross_bits`; `dim` does not count them), no hashing, and the
    /// positive class chosen by the caller, with its reason in words.
    pub fn for_arrays(
        dim: usize,
        cross_bits: Option<u8>,
        positive_labels: Vec<f64>,
        positive_rule: String,
        transform: Transform,
    ) -> Preparation {
        Preparation {
            reading: Reading::Libsvm,
            positive_labels,
            positive_rule,
            dim: dim + cross_bits.map_or(0, |c| 1usize << c.min(63)),
            hash_bits: None,
            cross_bits,
            transform,
        }
    }

    /// The number of the row's own features, before the crosses (`dim` without crosses).
    pub fn base_dim(&self) -> usize {
        self.dim
            .saturating_sub(self.cross_bits.map_or(0, |c| 1usize << c.min(63)))
    }

    /// The same preparation with the positive class's reason in other words (a caller that
    /// names its labels its own way).
    pub fn with_positive_rule(mut self, rule: String) -> Preparation {
        self.positive_rule = rule;
        self
    }

    /// The fitted scaling ([`Scaler::None`] without a scaling stage).
    pub fn scaler(&self) -> &Scaler {
        self.transform.scaler()
    }

    /// Whether rows are divided by their norm.
    pub fn unit_norm(&self) -> bool {
        self.transform.unit_norm()
    }

    /// Checks a decoded preparation: positive labels finite and present, the stages valid for
    /// the dimension, a reading some file can have, hashing in range and consistent with the
    /// dimension.
    pub fn validate(&self) -> Result<(), String> {
        if self.positive_labels.is_empty() || self.positive_labels.iter().any(|l| !l.is_finite()) {
            return Err("the positive labels are missing or not finite".to_owned());
        }
        self.transform.validate(self.dim)?;
        self.reading.validate().map_err(|e| e.to_string())?;
        let crosses = match self.cross_bits {
            None => 0,
            Some(c) if (1..=auc_data::MAX_CROSS_BITS).contains(&c) => 1usize << c,
            Some(c) => return Err(format!("{c} cross bits are out of range")),
        };
        if crosses > 0 && (self.dim <= crosses || self.dim as u64 > 1u64 << 32) {
            return Err(format!(
                "{} features cannot hold {crosses} crosses after the row's own features",
                self.dim
            ));
        }
        if let Some(b) = self.hash_bits
            && (!(1..=31).contains(&b) || self.dim != (1usize << b) + crosses)
        {
            return Err(format!(
                "{b} hash bits{} do not give the model's {} features",
                self.cross_bits
                    .map_or_else(String::new, |c| format!(" and {c} cross bits")),
                self.dim
            ));
        }
        Ok(())
    }

    /// The reader options that read data as the training data was read: the same format and
    /// CSV layout, the model's dimension (an index past it is an error), hashing and crosses.
    pub fn read_options(&self) -> ReadOptions {
        let mut opts = self.reading.options();
        opts.hash_bits = self.hash_bits;
        opts.cross_bits = self.cross_bits;
        opts.dim = if self.hash_bits.is_some() {
            None
        } else {
            Some(self.base_dim())
        };
        opts
    }

    /// `data` prepared as the training data was.
    pub fn apply(&self, data: &Dataset) -> Dataset {
        self.transform.apply_dataset(data)
    }

    /// [`Preparation::apply`] of a dataset taken by value: the same dataset, scaled where its
    /// values are instead of copied (`Transform::apply_owned`).
    pub fn apply_owned(&self, data: Dataset) -> Result<Dataset, DatasetError> {
        self.transform.apply_owned(data)
    }

    /// One row prepared as the training data was; the result lives in `bufs` (allocation-free
    /// once they have grown).
    pub fn apply_row<'b>(&self, x: Row<'_>, bufs: &'b mut RowBuffers) -> Row<'b> {
        self.transform.apply_row(x, bufs)
    }
}

/// The preparation as model files of format version 3 store it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PreparationV3 {
    reading: Reading,
    positive_labels: Vec<f64>,
    positive_rule: String,
    dim: usize,
    hash_bits: Option<u8>,
    scaler: Scaler,
    unit_norm: bool,
}

impl From<PreparationV3> for Preparation {
    /// Scaling (when there was one), then unit norm (when asked): what version 3 applied.
    fn from(p: PreparationV3) -> Preparation {
        Preparation {
            reading: p.reading,
            positive_labels: p.positive_labels,
            positive_rule: p.positive_rule,
            dim: p.dim,
            hash_bits: p.hash_bits,
            cross_bits: None,
            transform: Transform::scale_then_norm(p.scaler, p.unit_norm),
        }
    }
}

/// The preparation as model files of format versions 4 and 5 store it: before feature crosses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PreparationV5 {
    reading: Reading,
    positive_labels: Vec<f64>,
    positive_rule: String,
    dim: usize,
    hash_bits: Option<u8>,
    transform: Transform,
}

impl From<PreparationV5> for Preparation {
    /// The same preparation, without crosses.
    fn from(p: PreparationV5) -> Preparation {
        Preparation {
            reading: p.reading,
            positive_labels: p.positive_labels,
            positive_rule: p.positive_rule,
            dim: p.dim,
            hash_bits: p.hash_bits,
            cross_bits: None,
            transform: p.transform,
        }
    }
}
