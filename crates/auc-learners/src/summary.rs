//! Moment summaries: what one pass over some rows leaves for the batch moment learners
//! ([`MomentSummary`]), the moment file format that stores one (`auc moments`), and
//! [`fit_from_moments`], which turns merged summaries into a model file's [`Model`].
//!
//! A summary holds, for every label value met, that label's count, mean and co-moment
//! (`auc_stats::ClassMoments`), the feature ranges of every row (`auc_data::FeatureRanges`) and
//! how the rows were read. Labels are kept apart because the positive class may be decided only
//! by the whole input (the minority label of a multi-class file); [`MomentSummary::merge`] is
//! exact (Chan's formula per label, min/max/sums for the ranges), so summaries of disjoint parts
//! computed anywhere, in any grouping, merge to the summary of the whole input up to rounding.
//! Scaling is fitted on the merged ranges and applied to the moments at solve time, which is
//! exact for the affine scalings the tool fits (`docs/math/batch-moments.md`, section 5).
//!
//! The Rust API a Python/Dask layer needs: [`MomentSummary::from_dense`] and
//! [`MomentSummary::from_csr`] on each partition, [`MomentSummary::merge`] in a tree,
//! [`MomentSummary::to_bytes`] / [`MomentSummary::from_bytes`] between processes, and
//! [`fit_from_moments`] on the client.
//!
//! ```
//! use auc_core::ParamMap;
//! use auc_data::{Positive, Scaling};
//! use auc_learners::{MomentSummary, fit_from_moments, lookup};
//! use auc_prep::TransformSpec;
//! // Two partitions of 3 rows of 2 features, labels in {-1, +1}.
//! let a = MomentSummary::from_dense(&[0.0, 1.0, 1.0, 0.5, 2.0, 2.0], 3, 2, &[1.0, -1.0, 1.0]).unwrap();
//! let mut b = MomentSummary::from_dense(&[0.5, 0.0, 3.0, 1.0, 1.0, 1.5], 3, 2, &[-1.0, 1.0, -1.0]).unwrap();
//! b.merge(&a).unwrap();
//! let b = MomentSummary::from_bytes(&b.to_bytes()).unwrap();
//! let algo = lookup("opauc-batch").unwrap();
//! let stages = TransformSpec { scaling: Scaling::MinMax, one_hot: None, features: None, unit_norm: false };
//! let (model, summary) =
//!     fit_from_moments(algo, &ParamMap::new(), &b, &Positive::Auto, &stages, 0).unwrap();
//! assert_eq!(model.training.examples, 6);
//! assert!(summary.contains("certificate"));
//! ```
//!
//! # Moments of mapped rows
//!
//! A feature map does not commute with moments, so moments for a learner on a map are taken of
//! the mapped rows: [`MomentSummary::for_stages`] starts a summary whose rows go through fitted
//! stages (scaling, then the map) before their moments are taken
//! ([`MomentSummary::observe_mapped`]); the summary records the stages, and only summaries of
//! the same stages merge. Such moments are ordinary class moments of $z(x)$, so merging is as
//! exact as for rows as read (conventions section 9).
//!
//! # Moment file format (version 4)
//!
//! `AUCMOMNT`, the format version (`u32`, little-endian), the payload length (`u64`), the
//! payload (postcard: dimension, hashing, crosses, reading, the sorted per-label moments, the
//! ranges, the source names, the stages of mapped rows) and a CRC-32 of everything before it, as
//! model files (`summary/wire.rs`). Reading checks all of it and every value (finite, shapes, counts that
//! agree) before use. Version 2 (before feature crosses) is read as a summary of rows read
//! without crosses, version 1 (before feature maps: no stages either) as a summary of rows as
//! read. Summaries merge only when hashing and crosses agree.

use std::fmt;

use auc_core::{Dataset, FitError, ParamError, ParamMap, Row, SparseRow};
use auc_data::{DataError, FeatureRanges, Positive, PositiveChoice, RawData, Reading, Scaler};
use auc_online::{
    BLOCK_ROWS, BlockScratch, SPARSE_BLOCK_ROWS, SparseBlock, block_moments, is_narrow,
};
use auc_prep::{Preparation, ScaleEvidence, Transform, TransformSpec};
use auc_stats::{ClassMoments, Moments};
use serde::{Deserialize, Serialize};

use crate::{Algorithm, Model, TrainingRecord};

mod wire;

/// The first bytes of a moment file.
pub const MOMENTS_MAGIC: &[u8; 8] = b"AUCMOMNT";

/// The moment file format this build writes.
pub const MOMENTS_FORMAT_VERSION: u32 = 4;

/// The oldest moment file format this build reads (version 1: no stages; version 2: no
/// crosses; version 3 has the layout of version 4, whose readings may also be tables and
/// 0-based LIBSVM files, variants version 3 files never hold).
pub const MOMENTS_OLDEST_READ_VERSION: u32 = 1;

/// Bytes before the payload: magic, version, length.
const HEADER: usize = 20;

/// What went wrong with a moment summary: building it, reading a moment file, merging or
/// fitting from it.
#[derive(Debug)]
#[non_exhaustive]
pub enum MomentError {
    /// The bytes do not start with `AUCMOMNT`.
    NotMoments,
    /// Another format version.
    Version {
        /// The file's version.
        found: u32,
    },
    /// The header's length does not match the bytes.
    Length {
        /// Payload bytes announced.
        announced: u64,
        /// Payload bytes present.
        found: u64,
    },
    /// The checksum does not match.
    Checksum,
    /// The payload does not decode or holds impossible values.
    Invalid(String),
    /// Arrays given to [`MomentSummary::from_dense`] or [`MomentSummary::from_csr`] do not fit
    /// together, or hold a non-finite value.
    Input(String),
    /// Two summaries cannot be merged: read differently, or hashed differently.
    Mismatch(String),
    /// The positive class cannot be chosen.
    Data(DataError),
    /// The algorithm cannot be fitted from moments, or a preparation asked for does not commute
    /// with moments.
    Unsupported(String),
    /// Bad parameters.
    Param(ParamError),
    /// The fit failed.
    Fit(FitError),
}

impl fmt::Display for MomentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MomentError::NotMoments => {
                f.write_str("not a moment file (it does not start with AUCMOMNT)")
            }
            MomentError::Version { found } => write!(
                f,
                "moment file format version {found}; this build reads versions {MOMENTS_OLDEST_READ_VERSION} to {MOMENTS_FORMAT_VERSION}: compute the moments again with this `auc moments`"
            ),
            MomentError::Length { announced, found } => write!(
                f,
                "moment file is truncated or padded: the header announces {announced} payload bytes, the file holds {found}"
            ),
            MomentError::Checksum => {
                f.write_str("moment file checksum does not match: the file was altered or damaged")
            }
            MomentError::Invalid(m) => write!(f, "invalid moment file: {m}"),
            MomentError::Input(m) => write!(f, "bad input arrays: {m}"),
            MomentError::Mismatch(m) => write!(f, "cannot merge moments: {m}"),
            MomentError::Data(_) => f.write_str("cannot choose the positive class"),
            MomentError::Unsupported(m) => f.write_str(m),
            MomentError::Param(_) => f.write_str("bad parameters"),
            MomentError::Fit(_) => f.write_str("fitting from moments failed"),
        }
    }
}

impl std::error::Error for MomentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MomentError::Data(e) => Some(e),
            MomentError::Param(e) => Some(e),
            MomentError::Fit(e) => Some(e),
            _ => None,
        }
    }
}

/// How rows are added to the moments: the blocked rank-$k$ product (the default) or Welford's
/// rank-one update per row (kept for comparison; `cargo xtask bench moments`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Update {
    /// Up to [`BLOCK_ROWS`] rows of a label at a time, as one matrix product.
    #[default]
    Blocked,
    /// One rank-one update per row.
    RankOne,
}

/// One label value's moments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct LabelMoments {
    label: f64,
    moments: ClassMoments,
}

/// The moments of some rows, per label, with their feature ranges and how they were read: see
/// the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct MomentSummary {
    dim: usize,
    hash_bits: Option<u8>,
    /// Feature crosses the rows were read with.
    cross_bits: Option<u8>,
    reading: Reading,
    labels: Vec<LabelMoments>,
    ranges: FeatureRanges,
    sources: Vec<String>,
    /// The fitted stages every row went through before its moments were taken (a feature
    /// map); `None`: rows as read, scaled at solve time.
    stages: Option<Transform>,
}

/// Rows of one label waiting for a blocked update.
struct Pending {
    /// The label (slots move when a smaller label is inserted, so the label is kept).
    label: f64,
    rows: usize,
    values: Vec<f64>,
    /// Its rows that are narrow and sparse ([`is_narrow`]), gathered apart.
    sparse: SparseBlock,
}

impl MomentSummary {
    /// No rows yet, `dim` features (it grows with the rows added), read as `reading` with
    /// `hash_bits`.
    pub fn new(dim: usize, reading: Reading, hash_bits: Option<u8>) -> Self {
        Self {
            dim,
            hash_bits,
            cross_bits: None,
            reading,
            labels: Vec::new(),
            ranges: FeatureRanges::new(dim),
            stages: None,
            sources: Vec::new(),
        }
    }

    /// The summary of `n` dense rows of `p` features given row-major in `x`, with labels `y`
    /// (any finite values; the positive class is chosen when fitting). Recorded as read in
    /// LIBSVM form without hashing: rows handed over directly.
    ///
    /// # Errors
    /// [`MomentError::Input`] when the lengths disagree or a value is not finite.
    pub fn from_dense(x: &[f64], n: usize, p: usize, y: &[f64]) -> Result<Self, MomentError> {
        if n.checked_mul(p) != Some(x.len()) || y.len() != n {
            return Err(MomentError::Input(format!(
                "{n} rows of {p} features need {} values and {n} labels; got {} values and {} labels",
                n.saturating_mul(p),
                x.len(),
                y.len()
            )));
        }
        check_finite("label", y, 1)?;
        check_finite("feature value", x, p.max(1))?;
        let mut s = Self::new(p, Reading::Libsvm, None);
        let rows = (0..n).map(|i| (y[i], Row::Dense(&x[i * p..(i + 1) * p])));
        s.observe_rows(p, rows, Update::Blocked);
        Ok(s)
    }

    /// The summary of `n` sparse rows of `p` features in CSR form (`indptr` of length $n + 1$,
    /// 0-based `indices` strictly increasing within a row and below `p`, finite `values`), with
    /// labels `y`, as [`from_dense`](Self::from_dense).
    ///
    /// # Errors
    /// [`MomentError::Input`] naming the first row that breaks a rule.
    pub fn from_csr(
        indptr: &[usize],
        indices: &[u32],
        values: &[f64],
        n: usize,
        p: usize,
        y: &[f64],
    ) -> Result<Self, MomentError> {
        let bad = |m: String| Err(MomentError::Input(m));
        if indptr.len() != n + 1 || y.len() != n || indices.len() != values.len() {
            return bad(format!(
                "{n} rows need {} row pointers and {n} labels, and as many indices as values; got {} pointers, {} labels, {} indices, {} values",
                n + 1,
                indptr.len(),
                y.len(),
                indices.len(),
                values.len()
            ));
        }
        if indptr[0] != 0 || indptr[n] != indices.len() {
            return bad(format!(
                "row pointers must run from 0 to {} (the number of values); they run from {} to {}",
                indices.len(),
                indptr[0],
                indptr[n]
            ));
        }
        check_finite("label", y, 1)?;
        for i in 0..n {
            let (a, b) = (indptr[i], indptr[i + 1]);
            if a > b {
                return bad(format!("row pointers decrease at row {i}"));
            }
            let idx = &indices[a..b];
            if idx.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!("row {i}: indices must strictly increase"));
            }
            if let Some(&last) = idx.last()
                && last as usize >= p
            {
                return bad(format!("row {i}: index {last} is not below {p} features"));
            }
            if let Some(v) = values[a..b].iter().find(|v| !v.is_finite()) {
                return bad(format!("row {i}: value {v} is not finite"));
            }
        }
        let mut s = Self::new(p, Reading::Libsvm, None);
        let rows = (0..n).map(|i| {
            let (a, b) = (indptr[i], indptr[i + 1]);
            (
                y[i],
                Row::Sparse(SparseRow::new(&indices[a..b], &values[a..b])),
            )
        });
        s.observe_rows(p, rows, Update::Blocked);
        Ok(s)
    }

    /// No rows yet, of rows read as `reading` with `hash_bits` and then prepared by `stages`
    /// (fitted beforehand, with a feature map): the summary's dimension is the stages' output.
    pub fn for_stages(stages: Transform, reading: Reading, hash_bits: Option<u8>) -> Self {
        let input = stages.input_dim().unwrap_or(0);
        let mut s = Self::new(stages.output_dim(input), reading, hash_bits);
        s.stages = Some(stages);
        s
    }

    /// The stages the rows went through before their moments were taken, if any.
    pub fn stages(&self) -> Option<&Transform> {
        self.stages.as_ref()
    }

    /// Adds the rows of a parsed chunk through the summary's stages
    /// ([`MomentSummary::for_stages`]); rows as read when it has none.
    ///
    /// # Errors
    /// [`MomentError::Data`] when the chunk's labels cannot be read as classes.
    pub fn observe_mapped(&mut self, data: &RawData, source: &str) -> Result<(), MomentError> {
        let Some(stages) = self.stages.take() else {
            self.observe(data, source);
            return Ok(());
        };
        self.add_source(source);
        let mapped = Self::map_rows(&stages, data);
        self.stages = Some(stages);
        let mapped = mapped?;
        let labels = data.raw_labels();
        let it = (0..mapped.n()).map(|i| (labels[i], mapped.row(i)));
        self.observe_rows(mapped.dim(), it, Update::Blocked);
        Ok(())
    }

    /// Adds `rows` (handed over directly, of exactly the stages' input width; their
    /// [`auc_core::Label`]s are not read) with the raw labels `labels`, through the summary's
    /// stages as [`observe_mapped`](Self::observe_mapped) does; rows as they are without stages.
    ///
    /// # Errors
    /// [`MomentError::Input`] when the labels do not match the rows, one is not finite, or the
    /// rows have another width.
    pub fn observe_dataset(&mut self, rows: &Dataset, labels: &[f64]) -> Result<(), MomentError> {
        let width = self
            .stages
            .as_ref()
            .and_then(Transform::input_dim)
            .unwrap_or(rows.dim());
        if labels.len() != rows.n() || rows.dim() != width {
            return Err(MomentError::Input(format!(
                "{} rows of {} features with {} labels; the stages read rows of {width} features",
                rows.n(),
                rows.dim(),
                labels.len()
            )));
        }
        check_finite("label", labels, 1)?;
        let mapped = self.stages.as_ref().map(|t| t.apply_dataset(rows));
        let mapped = mapped.as_ref().unwrap_or(rows);
        let it = (0..mapped.n()).map(|i| (labels[i], mapped.row(i)));
        self.observe_rows(mapped.dim(), it, Update::Blocked);
        Ok(())
    }

    /// The rows of `data` through `stages`, in order.
    fn map_rows(stages: &Transform, data: &RawData) -> Result<auc_core::Dataset, MomentError> {
        // Every label positive: the stages read only the features.
        let all: Vec<f64> = data.label_counts().into_iter().map(|(l, _)| l).collect();
        let mut rows = data
            .binarize_as(&Positive::Known(all), auc_data::Layout::AsRead)
            .map_err(MomentError::Data)?;
        let input = stages.input_dim().unwrap_or(rows.dim());
        if rows.dim() < input {
            rows = rows.with_dim(input);
        }
        Ok(stages.apply_dataset(&rows))
    }

    /// Adds the rows of a parsed chunk (a whole file or one chunk of a stream), with its
    /// dimension, by blocked updates. Recorded under `source` (a file name) once.
    pub fn observe(&mut self, data: &RawData, source: &str) {
        self.observe_with(data, source, Update::Blocked);
    }

    /// As [`observe`](Self::observe), by the update asked for.
    pub fn observe_with(&mut self, data: &RawData, source: &str, update: Update) {
        self.add_source(source);
        let labels = data.raw_labels();
        let rows = (0..data.n()).map(|i| (labels[i], data.row(i)));
        self.observe_rows(data.dim(), rows, update);
    }

    /// Adds rows of at most `dim` features: ranges row by row, moments per label in blocks of
    /// [`BLOCK_ROWS`] (or one by one).
    fn observe_rows<'a>(
        &mut self,
        dim: usize,
        rows: impl Iterator<Item = (f64, Row<'a>)>,
        update: Update,
    ) {
        self.grow(dim);
        let p = self.dim;
        let mut pending: Vec<Pending> = Vec::new();
        let mut scratch = BlockScratch::default();
        for (label, x) in rows {
            self.ranges.observe(x);
            let label = label + 0.0; // -0 as 0
            if update == Update::RankOne {
                let slot = self.slot(label);
                self.labels[slot].moments.update(x);
                continue;
            }
            let k = match pending
                .iter()
                .position(|q| q.label.to_bits() == label.to_bits())
            {
                Some(k) => k,
                None => {
                    pending.push(Pending {
                        label,
                        rows: 0,
                        values: Vec::new(),
                        sparse: SparseBlock::default(),
                    });
                    pending.len() - 1
                }
            };
            let q = &mut pending[k];
            if is_narrow(x, p) {
                q.sparse.push(x);
                if q.sparse.rows() == SPARSE_BLOCK_ROWS {
                    let m = q.sparse.moments(p);
                    q.sparse.clear();
                    let slot = self.slot(label);
                    self.labels[slot].moments.merge(&m);
                }
                continue;
            }
            if q.values.capacity() == 0 {
                q.values.reserve(BLOCK_ROWS * p);
            }
            let start = q.values.len();
            q.values.resize(start + p, 0.0);
            x.write_dense(&mut q.values[start..]);
            q.rows += 1;
            if q.rows == BLOCK_ROWS {
                let m = block_moments(&q.values, q.rows, p, &mut scratch);
                q.values.clear();
                q.rows = 0;
                let slot = self.slot(label);
                self.labels[slot].moments.merge(&m);
            }
        }
        for q in pending.iter().filter(|q| q.rows > 0) {
            let m = block_moments(&q.values, q.rows, p, &mut scratch);
            let slot = self.slot(q.label);
            self.labels[slot].moments.merge(&m);
        }
        for q in pending.iter().filter(|q| q.sparse.rows() > 0) {
            let m = q.sparse.moments(p);
            let slot = self.slot(q.label);
            self.labels[slot].moments.merge(&m);
        }
    }

    /// The index of `label`'s moments, created empty when new (kept sorted by label).
    fn slot(&mut self, label: f64) -> usize {
        let label = label + 0.0; // -0 as 0
        match self.labels.binary_search_by(|l| l.label.total_cmp(&label)) {
            Ok(k) => k,
            Err(k) => {
                self.labels.insert(
                    k,
                    LabelMoments {
                        label,
                        moments: ClassMoments::new(self.dim),
                    },
                );
                k
            }
        }
    }

    /// Covers at least `dim` features: features no row has set (columns of a CSV file, the
    /// $2^B$ of hashing, indices a LIBSVM file declares by an explicit zero) are 0 throughout.
    pub fn cover(&mut self, dim: usize) {
        self.grow(dim);
    }

    /// Records `source` (a file or partition name) as summarized.
    pub fn add_source(&mut self, source: &str) {
        if !self.sources.iter().any(|s| s == source) {
            self.sources.push(source.to_owned());
        }
    }

    /// Extends every label's moments and the ranges to `dim` features.
    fn grow(&mut self, dim: usize) {
        if dim > self.dim {
            self.dim = dim;
            for l in &mut self.labels {
                l.moments.grow(dim);
            }
        }
        self.ranges.grow(self.dim);
    }

    /// Merges the summary of other, disjoint rows into this one, exactly (see the module docs).
    ///
    /// # Errors
    /// [`MomentError::Mismatch`] when the two were read differently (format or CSV layout) or
    /// with different feature hashing.
    pub fn merge(&mut self, other: &MomentSummary) -> Result<(), MomentError> {
        if self.stages != other.stages {
            let name = |t: &Option<Transform>| {
                t.as_ref()
                    .map_or_else(|| "rows as read".to_owned(), Transform::describe)
            };
            return Err(MomentError::Mismatch(format!(
                "the parts' moments are of rows prepared differently ({} and {}): moments of a feature map merge only with moments of the same fitted map (fit it once: `auc moments --features ... --fit-map-only`, then `--map-from` for every part)",
                name(&self.stages),
                name(&other.stages)
            )));
        }
        if self.hash_bits != other.hash_bits {
            return Err(MomentError::Mismatch(format!(
                "one part was read with feature hashing {}, the other with {}",
                bits_name(self.hash_bits),
                bits_name(other.hash_bits)
            )));
        }
        if self.cross_bits != other.cross_bits {
            return Err(MomentError::Mismatch(format!(
                "one part was read with feature crosses {}, the other with {}: give every part the same --cross-hash-bits",
                bits_name(self.cross_bits),
                bits_name(other.cross_bits)
            )));
        }
        if self.reading.check_index_base(&other.reading, "").is_err() {
            return Err(MomentError::Mismatch(
                "one part was read with 0-based LIBSVM indices, the other 1-based: give every part the same --zero-based (yes for files scikit-learn wrote)".to_owned(),
            ));
        }
        if self.reading != other.reading {
            return Err(MomentError::Mismatch(format!(
                "the parts were read differently ({:?} and {:?}); every part must have the same format and columns",
                self.reading, other.reading
            )));
        }
        self.grow(other.dim);
        for l in &other.labels {
            let mut m = l.moments.clone();
            m.grow(self.dim);
            let slot = self.slot(l.label);
            self.labels[slot].moments.merge(&m);
        }
        self.ranges.merge(&other.ranges);
        for s in &other.sources {
            if !self.sources.contains(s) {
                self.sources.push(s.clone());
            }
        }
        Ok(())
    }

    /// The number of features.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Rows summarized.
    pub fn rows(&self) -> u64 {
        self.labels.iter().map(|l| l.moments.count()).sum()
    }

    /// `(label, rows)` for every label met, sorted by label.
    pub fn label_counts(&self) -> Vec<(f64, u64)> {
        self.labels
            .iter()
            .map(|l| (l.label, l.moments.count()))
            .collect()
    }

    /// The positive class `positive` picks on the labels met, as [`prepare`](Self::prepare)
    /// picks it.
    ///
    /// # Errors
    /// [`MomentError::Data`] when `positive` names a label that does not occur.
    pub fn choose_positive(&self, positive: &Positive) -> Result<PositiveChoice, MomentError> {
        PositiveChoice::from_counts(&self.choice_counts(), positive).map_err(MomentError::Data)
    }

    /// [`PositiveChoice::many_labels_warning`] of the class `positive` picks, if any.
    pub fn many_labels_warning(&self, positive: &Positive) -> Option<String> {
        let counts = self.choice_counts();
        PositiveChoice::from_counts(&counts, positive)
            .ok()?
            .many_labels_warning(&counts)
    }

    /// [`label_counts`](Self::label_counts) as [`PositiveChoice`] takes them.
    fn choice_counts(&self) -> Vec<(f64, usize)> {
        self.labels
            .iter()
            .map(|l| {
                (
                    l.label,
                    usize::try_from(l.moments.count()).unwrap_or(usize::MAX),
                )
            })
            .collect()
    }

    /// The moments of rows with this label, if any were met.
    pub fn label_moments(&self, label: f64) -> Option<&ClassMoments> {
        let label = label + 0.0;
        self.labels
            .iter()
            .find(|l| l.label.to_bits() == label.to_bits())
            .map(|l| &l.moments)
    }

    /// The feature ranges of every row.
    pub fn ranges(&self) -> &FeatureRanges {
        &self.ranges
    }

    /// How the rows were read.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// Feature hashing the rows were read with.
    pub fn hash_bits(&self) -> Option<u8> {
        self.hash_bits
    }

    /// Feature crosses the rows were read with ([`auc_data::ReadOptions::cross_bits`]).
    pub fn cross_bits(&self) -> Option<u8> {
        self.cross_bits
    }

    /// The same summary, of rows read with feature crosses `cross_bits` (no rows yet: set it
    /// before adding rows, as the reader's options say).
    pub fn with_cross_bits(mut self, cross_bits: Option<u8>) -> Self {
        self.cross_bits = cross_bits;
        self
    }

    /// The names of the files (or partitions) summarized, in the order first met.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// Bytes of a summary of `labels` labels and `dim` features in memory.
    pub fn bytes_for(dim: usize, labels: usize) -> u64 {
        let p = dim as u64;
        (labels as u64)
            .saturating_mul(8u64.saturating_mul(p.saturating_mul(p + 1) / 2 + 3 * p))
            .saturating_add(FeatureRanges::bytes_for(dim))
    }

    /// Bytes [`observe`](Self::observe) may hold at its peak while it builds a summary of
    /// `labels` labels and `dim` features from one chunk: the summary ([`bytes_for`](Self::bytes_for))
    /// plus its working memory, a pending block of [`BLOCK_ROWS`] dense rows per label, the
    /// centred copy of one block, the block's $p \times p$ product (faer pads a column to a
    /// multiple of 16 values) and the block's packed moments. Checked against the heap a
    /// counting allocator sees in `tests/moment_memory.rs`.
    pub fn observe_bytes_for(dim: usize, labels: usize) -> u64 {
        let p = dim as u64;
        let labels = labels as u64;
        let block = 8 * BLOCK_ROWS as u64 * p;
        let product = 8u64.saturating_mul(p).saturating_mul(p + 16);
        let packed = 8u64.saturating_mul(p.saturating_mul(p + 1) / 2 + 3 * p);
        Self::bytes_for(dim, labels as usize)
            .saturating_add(labels.saturating_mul(block + 256))
            .saturating_add(block)
            .saturating_add(product)
            .saturating_add(packed)
            .saturating_add(4096)
    }

    /// The positive class `positive` picks, the two classes' moments through the stages of
    /// `stages` fitted on the merged ranges, and the preparation a model stores.
    ///
    /// # Errors
    /// [`MomentError::Data`] when `positive` names a label that does not occur;
    /// [`MomentError::Unsupported`] for unit norm (row normalization does not commute with
    /// moments) or a feature range too extreme to scale.
    pub fn prepare(
        &self,
        positive: &Positive,
        stages: &TransformSpec,
    ) -> Result<(Moments, Preparation, PositiveChoice), MomentError> {
        if stages.unit_norm {
            return Err(MomentError::Unsupported(
                "--unit-norm divides each row by its own norm, which does not commute with class moments: the batch moment learners cannot use it (leave it out, or use an online learner)".to_owned(),
            ));
        }
        if stages.features.is_some() && self.stages.is_none() {
            return Err(MomentError::Unsupported(
                "a feature map is fitted on rows, and these moments are of rows as read: the map cannot be applied to them (take the moments with --features)".to_owned(),
            ));
        }
        let choice = self.choose_positive(positive)?;
        let p = self.dim;
        let mut m = Moments::new(p);
        for l in &self.labels {
            let is_pos = choice
                .labels
                .iter()
                .any(|c| c.to_bits() == l.label.to_bits());
            let class = if is_pos { &mut m.pos } else { &mut m.neg };
            class.merge(&l.moments);
        }
        if let Some(t) = &self.stages {
            // The rows were prepared before their moments were taken: nothing to scale.
            let input = t.input_dim().unwrap_or(p);
            let preparation = Preparation::new(
                self.reading.clone(),
                &choice,
                input,
                (self.hash_bits, self.cross_bits),
                t.clone(),
            );
            return Ok((m, preparation, choice));
        }
        let transform = stages
            .fit(ScaleEvidence::Ranges(&self.ranges))
            .map_err(|e| MomentError::Unsupported(e.to_string()))?;
        let (a, c) = affine(transform.scaler(), p)?;
        m.pos = scale_moments(&m.pos, &a, &c)?;
        m.neg = scale_moments(&m.neg, &a, &c)?;
        let hashing = (self.hash_bits, self.cross_bits);
        let preparation = Preparation::new(self.reading.clone(), &choice, p, hashing, transform);
        Ok((m, preparation, choice))
    }
}

/// `hash_bits` in words.
fn bits_name(b: Option<u8>) -> String {
    b.map_or_else(|| "none".to_owned(), |b| format!("{b} bits"))
}

/// Fails on the first non-finite value, naming its row (`per_row` values a row).
fn check_finite(what: &str, v: &[f64], per_row: usize) -> Result<(), MomentError> {
    match v.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(k) => Err(MomentError::Input(format!(
            "{what} {} of row {} is not finite",
            v[k],
            k / per_row
        ))),
    }
}

/// Per-feature $(a_j, c_j)$ with $x'_j = a_j x_j + c_j$ on the training range: the scaler as an
/// affine map (`docs/math/batch-moments.md`, section 5). Features past the scaler's dimension
/// pass unchanged.
fn affine(scaler: &Scaler, p: usize) -> Result<(Vec<f64>, Vec<f64>), MomentError> {
    let mut a = vec![1.0; p];
    let mut c = vec![0.0; p];
    let extreme = |j: usize| {
        MomentError::Unsupported(format!(
            "feature {j}'s range is too extreme to scale from moments (its scale factor overflows); use --scale none"
        ))
    };
    match scaler {
        Scaler::None => {}
        Scaler::MinMax { min, max } => {
            for (j, (&lo, &hi)) in min.iter().zip(max).enumerate().take(p) {
                if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
                    (a[j], c[j]) = (0.0, 0.0);
                    continue;
                }
                let range = hi - lo;
                let s = 2.0 / range;
                if range.is_finite() && s.is_finite() {
                    (a[j], c[j]) = (s, -1.0 - s * lo);
                } else {
                    let half = hi / 2.0 - lo / 2.0;
                    let s = 1.0 / half;
                    if !s.is_finite() {
                        return Err(extreme(j));
                    }
                    (a[j], c[j]) = (s, -1.0 - lo / half);
                }
            }
        }
        Scaler::MaxAbs { max_abs } => {
            for (j, (aj, &m)) in a.iter_mut().zip(max_abs).enumerate() {
                *aj = if m > 0.0 { 1.0 / m } else { 0.0 };
                if !aj.is_finite() {
                    return Err(extreme(j));
                }
            }
        }
    }
    Ok((a, c))
}

/// The moments of $a \odot x + c$: mean $a \odot \bar x + c$, co-moment
/// $\operatorname{diag}(a)\, C \operatorname{diag}(a)$.
fn scale_moments(m: &ClassMoments, a: &[f64], c: &[f64]) -> Result<ClassMoments, MomentError> {
    if m.count() == 0 {
        return Ok(ClassMoments::new(m.dim()));
    }
    let p = m.dim();
    let mean: Vec<f64> = (0..p).map(|j| a[j] * m.mean()[j] + c[j]).collect();
    let src = m.comoment();
    let mut packed = Vec::with_capacity(src.len());
    let mut k = 0;
    for (i, &ai) in a.iter().enumerate().take(p) {
        for &aj in &a[i..p] {
            packed.push(ai * src[k] * aj);
            k += 1;
        }
    }
    ClassMoments::from_parts(m.count(), mean, packed).map_err(|e| {
        MomentError::Unsupported(format!(
            "the scaled moments are not usable ({e}); the features are too large: use --scale"
        ))
    })
}

/// Fits `algorithm` (one of the moment learners, [`Algorithm::fits_from_moments`]) with
/// `params` on a summary: the positive class by `positive`, the scaling `scaling` fitted on the
/// summary's ranges. Returns the model (as `auc train` saves it) and the fit's one-line summary.
/// `seed` is recorded; the fit makes no random choice.
///
/// # Errors
/// [`MomentError::Unsupported`] for an algorithm not fitted from moments (naming those that
/// are), [`MomentError::Param`] for bad parameters, [`MomentError::Fit`] for a missing class,
/// and as [`MomentSummary::prepare`].
pub fn fit_from_moments(
    algorithm: &'static Algorithm,
    params: &ParamMap,
    summary: &MomentSummary,
    positive: &Positive,
    stages: &TransformSpec,
    seed: u64,
) -> Result<(Model, String), MomentError> {
    let Some(fit) = algorithm.from_moments else {
        let names: Vec<&str> = crate::ALL
            .iter()
            .filter(|a| a.fits_from_moments())
            .map(|a| a.name)
            .collect();
        return Err(MomentError::Unsupported(format!(
            "{} is not fitted from class moments; these are: {}",
            algorithm.name,
            names.join(", ")
        )));
    };
    algorithm.check_names(params).map_err(MomentError::Param)?;
    let config = algorithm.configure(params).map_err(MomentError::Param)?;
    let (moments, preparation, _) = summary.prepare(positive, stages)?;
    let (state, line) = fit(params, &moments).map_err(MomentError::Fit)?;
    let model = Model {
        algorithm,
        config,
        preparation,
        training: TrainingRecord::first_run(
            seed,
            moments.pos.count(),
            moments.neg.count(),
            None,
            format!("auc-learners {}", env!("CARGO_PKG_VERSION")),
        ),
        state,
        calibration: None,
    };
    Ok((model, line))
}
