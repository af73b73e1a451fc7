//! Data as read from a file, before its labels are mapped to [`Label`]: numeric labels plus features
//! stored as CSR (LIBSVM) or dense rows (CSV), with the [`Reading`] that says how the file was read.
//! Choosing the positive class ([`Positive`], [`PositiveChoice`]) and binarizing live here.

use std::collections::HashMap;
use std::fmt;

use auc_core::{Dataset, Label, Row, SparseRow};
use serde::{Deserialize, Serialize};

use crate::{DataError, Reading};

/// Density (stored non-zeros over $n p$) at or above which [`RawData::binarize`] builds a dense
/// [`Dataset`] from sparse input. a9a (density about 0.11) stays sparse; heart (13 features, almost
/// no zeros) becomes dense.
pub const DENSE_DENSITY: f64 = 0.25;

/// Bytes of `n` dense rows of `dim` features (8 bytes per value), saturating at `u64::MAX`: what a
/// caller checks before asking for dense storage.
pub fn dense_bytes(n: usize, dim: usize) -> u64 {
    (n as u64)
        .saturating_mul(dim as u64)
        .saturating_mul(std::mem::size_of::<f64>() as u64)
}

#[derive(Clone, Debug, PartialEq)]
enum Features {
    /// CSR: `indptr` has `n + 1` offsets; indices are 0-based and strictly increasing per row; no
    /// stored value is 0.
    Sparse {
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    },
    /// Row-major, `n * dim` values.
    Dense { values: Vec<f64> },
}

/// Examples as read from a file: one numeric label per row (as written, e.g. `-1`, `0`, `2`) and
/// finite features, stored as CSR or dense rows, plus how the file was read ([`RawData::reading`]).
///
/// Sparse storage (the LIBSVM reader's) keeps only non-zero values: an explicit `3:0` in a file is
/// dropped, though its index still counts towards the dimension. Labels are finite, and `-0` is
/// stored as `0`.
#[derive(Clone, Debug, PartialEq)]
pub struct RawData {
    labels: Vec<f64>,
    dim: usize,
    features: Features,
    reading: Reading,
}

/// Which file labels become the positive class when binarizing (conventions section 1).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Positive {
    /// The default. A file whose label set is exactly {-1, +1} or {0, 1} takes +1 (or 1) as the
    /// positive class whichever class is larger, as scikit-learn (`pos_label=1`), LIBSVM and Vowpal
    /// Wabbit do; any other label set (multiclass, {1, 2}, {2, 4}, a single label, no rows) follows
    /// [`Positive::Minority`].
    #[default]
    Auto,
    /// The class with the fewest examples is positive, ties broken by the smaller label value; every
    /// other label is negative. Data with a single label makes every row positive; binarize a test
    /// file with the training file's choice ([`RawData::choose_positive`] and
    /// [`Positive::Known`]) instead.
    Minority,
    /// Rows whose label is one of these are positive, all others negative. Every label listed must
    /// occur in the data.
    Labels(Vec<f64>),
    /// As [`Positive::Labels`], but the labels need not occur: for data binarized by a rule fixed
    /// elsewhere (a saved model's positive class applied to a batch that may hold only negatives,
    /// or one chunk of a stream).
    Known(Vec<f64>),
    /// Label values as the user typed them (`--positive bad`, `--positive 1`): numbers for a file
    /// whose labels are numbers (then as [`Positive::Labels`]); a table's label map resolves
    /// text ([`crate::table::TableOptions::positive`]).
    Named(Vec<String>),
    /// The labels of a table, already mapped to +1 (positive) and -1 by its schema's label map
    /// ([`crate::table::LabelMap`]): +1 is positive.
    Table,
}

/// The two binary label sets whose positive class is the label 1 under [`Positive::Auto`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryLabels {
    /// Labels {-1, +1}.
    MinusOnePlusOne,
    /// Labels {0, 1}.
    ZeroOne,
}

/// Why the labels of a [`PositiveChoice`] were taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PositiveRule {
    /// The caller listed them ([`Positive::Labels`] or [`Positive::Known`]).
    Given,
    /// The file is binary with these labels, and 1 is positive ([`Positive::Auto`]).
    BinaryPlusOne(BinaryLabels),
    /// The class with the fewest examples ([`Positive::Minority`], or [`Positive::Auto`] on any
    /// other label set).
    Minority,
    /// A table's label map chose it ([`Positive::Table`]); the map says why.
    Table,
}

impl fmt::Display for PositiveRule {
    /// `given`, `+1 of a {-1, +1} file`, `1 of a {0, 1} file` or `minority class`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositiveRule::Given => "given",
            PositiveRule::BinaryPlusOne(BinaryLabels::MinusOnePlusOne) => "+1 of a {-1, +1} file",
            PositiveRule::BinaryPlusOne(BinaryLabels::ZeroOne) => "1 of a {0, 1} file",
            PositiveRule::Minority => "minority class",
            PositiveRule::Table => "by the label column's map",
        })
    }
}

/// The positive class a [`Positive`] rule picked on some data, and why: what a command reports
/// (`positive: 1 (+1 of a {-1, +1} file)`) and what a model stores, so that later data is binarized
/// with [`Positive::Known`]`(labels)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositiveChoice {
    /// The labels mapped to [`Label::Pos`], sorted, without repeats. Empty only for
    /// [`PositiveRule::Minority`] on data without rows, or an empty given list.
    pub labels: Vec<f64>,
    /// Which rule chose them.
    pub rule: PositiveRule,
}

/// More distinct labels than this, with the positive class picked as the rarest one, draw
/// [`PositiveChoice::many_labels_warning`]: class labels seldom number more, and a column of
/// measurements read as the label (a CSV without a header whose first column is a feature)
/// always does.
pub const MANY_LABELS: usize = 20;

impl PositiveChoice {
    /// The rule that binarizes other data (a test file, a later chunk) the same way.
    pub fn known(&self) -> Positive {
        Positive::Known(self.labels.clone())
    }

    /// A warning when this choice took the rarest of more than [`MANY_LABELS`] distinct labels
    /// (`counts` as [`PositiveChoice::from_counts`] takes them): the label column may be a
    /// feature, and one rare value of it the positive class. `None` for a given or binary
    /// choice, or few labels.
    pub fn many_labels_warning(&self, counts: &[(f64, usize)]) -> Option<String> {
        if self.rule != PositiveRule::Minority || counts.len() <= MANY_LABELS {
            return None;
        }
        let rows: usize = counts
            .iter()
            .filter(|(l, _)| self.labels.iter().any(|p| p.to_bits() == l.to_bits()))
            .map(|(_, c)| c)
            .sum();
        let label = self.labels.first().map_or(String::new(), |l| l.to_string());
        Some(format!(
            "the label column has {} distinct values, so the positive class is the rarest one \
             alone ({label}, {rows} of the rows): if that column is a measurement rather than a class, \
             name the label column or the positive labels (`--label-column`, `--positive`; in Python \
             `label_column=`, `positive=`)",
            counts.len()
        ))
    }

    /// The positive class `positive` picks on data with these label counts (each distinct label
    /// once, with its number of rows, sorted by label as [`RawData::label_counts`] gives them),
    /// by the rules of [`RawData::choose_positive`]: for label counts gathered without keeping the
    /// rows, such as a first pass over a stream.
    pub fn from_counts(counts: &[(f64, usize)], positive: &Positive) -> Result<Self, DataError> {
        let minority = || PositiveChoice {
            labels: counts
                .iter()
                // Fewest rows first; among equal counts the smaller label (counts are sorted by
                // label, and `min_by_key` keeps the first minimum).
                .min_by_key(|(_, c)| *c)
                .map(|&(l, _)| vec![l])
                .unwrap_or_default(),
            rule: PositiveRule::Minority,
        };
        let mut choice = match positive {
            Positive::Auto => match binary_labels(counts) {
                Some(set) => PositiveChoice {
                    labels: vec![1.0],
                    rule: PositiveRule::BinaryPlusOne(set),
                },
                None => minority(),
            },
            Positive::Minority => minority(),
            Positive::Known(known) => PositiveChoice {
                labels: known.iter().map(|&l| canonical(l)).collect(),
                rule: PositiveRule::Given,
            },
            Positive::Table => PositiveChoice {
                labels: vec![1.0],
                rule: PositiveRule::Table,
            },
            Positive::Named(words) => {
                return PositiveChoice::from_counts(
                    counts,
                    &Positive::Labels(named_numbers(words)?),
                );
            }
            Positive::Labels(wanted) => {
                let mut out = Vec::with_capacity(wanted.len());
                for &w in wanted {
                    let w = canonical(w);
                    if !counts.iter().any(|(l, _)| l.to_bits() == w.to_bits()) {
                        let present = counts.iter().map(|&(l, _)| l).collect();
                        return Err(DataError::NoSuchLabel { label: w, present });
                    }
                    out.push(w);
                }
                PositiveChoice {
                    labels: out,
                    rule: PositiveRule::Given,
                }
            }
        };
        choice.labels.sort_by(f64::total_cmp);
        choice.labels.dedup_by(|a, b| a.to_bits() == b.to_bits());
        Ok(choice)
    }
}

/// The numbers `words` name (`--positive` values for a file whose labels are numbers).
///
/// # Errors
/// [`DataError::Table`] for a word that is not a number.
pub fn named_numbers(words: &[String]) -> Result<Vec<f64>, DataError> {
    words
        .iter()
        .map(|w| match crate::number::whole_number(w.trim().as_bytes()) {
            Ok(crate::number::Number::Finite(x, _)) => Ok(x),
            _ => Err(DataError::Table(format!(
                "--positive {w}: this file's labels are numbers (LIBSVM, or CSV without a header), so the positive class is named by number; text labels need a CSV file with a header"
            ))),
        })
        .collect()
}

/// Mutable views of a [`RawData`]'s feature arrays, for the readers.
pub(crate) enum Parts<'a> {
    /// CSR arrays.
    Sparse {
        indptr: &'a mut Vec<usize>,
        indices: &'a mut Vec<u32>,
        values: &'a mut Vec<f64>,
    },
    /// Row-major values.
    Dense { values: &'a mut Vec<f64> },
}

/// `x` with `-0.0` replaced by `0.0`, so that labels compare by their bits.
#[inline]
pub(crate) fn canonical(x: f64) -> f64 {
    x + 0.0
}

impl RawData {
    /// Sparse data from CSR arrays the readers have already checked.
    pub(crate) fn from_csr(
        labels: Vec<f64>,
        dim: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    ) -> Self {
        debug_assert_eq!(indptr.len(), labels.len() + 1);
        debug_assert!(values.iter().all(|v| v.is_finite() && *v != 0.0));
        Self {
            labels,
            dim,
            features: Features::Sparse {
                indptr,
                indices,
                values,
            },
            reading: Reading::Libsvm,
        }
    }

    /// Dense data from row-major values the readers have already checked.
    pub(crate) fn from_dense(labels: Vec<f64>, dim: usize, values: Vec<f64>) -> Self {
        debug_assert_eq!(values.len(), labels.len() * dim);
        Self {
            labels,
            dim,
            features: Features::Dense { values },
            reading: Reading::Libsvm,
        }
    }

    /// The same data recorded as read by `reading`.
    pub(crate) fn with_reading(mut self, reading: Reading) -> Self {
        self.reading = reading;
        self
    }

    /// Empties the rows, keeping the buffers' capacity, and sets the storage kind and reading.
    pub(crate) fn reset(&mut self, sparse: bool, reading: &Reading) {
        self.labels.clear();
        match (&mut self.features, sparse) {
            (
                Features::Sparse {
                    indptr,
                    indices,
                    values,
                },
                true,
            ) => {
                indptr.clear();
                indptr.push(0);
                indices.clear();
                values.clear();
            }
            (Features::Dense { values }, false) => values.clear(),
            (features, true) => {
                *features = Features::Sparse {
                    indptr: vec![0],
                    indices: Vec::new(),
                    values: Vec::new(),
                }
            }
            (features, false) => *features = Features::Dense { values: Vec::new() },
        }
        if &self.reading != reading {
            self.reading = reading.clone();
        }
    }

    /// The arrays a reader appends rows to: labels, then the CSR arrays or the dense values.
    pub(crate) fn parts_mut(&mut self) -> (&mut Vec<f64>, Parts<'_>) {
        let parts = match &mut self.features {
            Features::Sparse {
                indptr,
                indices,
                values,
            } => Parts::Sparse {
                indptr,
                indices,
                values,
            },
            Features::Dense { values } => Parts::Dense { values },
        };
        (&mut self.labels, parts)
    }

    /// Sets the dimension the rows were read with (the readers keep every index below it).
    pub(crate) fn set_dim(&mut self, dim: usize) {
        self.dim = dim;
    }

    /// How the file was read: LIBSVM, or CSV with its resolved layout (label column, delimiter,
    /// header names). Data built by [`RawData::concat`] keeps the first part's reading.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// Bytes that dense storage of these rows would take, $8 n p$ (saturating): check it before
    /// anything that makes the rows dense (min-max scaling of sparse data, a dense copy).
    pub fn dense_bytes(&self) -> u64 {
        dense_bytes(self.n(), self.dim)
    }

    /// Bytes the rows take now: labels plus CSR arrays or dense values (lengths, not capacities).
    pub fn stored_bytes(&self) -> u64 {
        let f = std::mem::size_of::<f64>() as u64;
        let labels = self.labels.len() as u64 * f;
        labels
            + match &self.features {
                Features::Sparse {
                    indptr, indices, ..
                } => {
                    indptr.len() as u64 * std::mem::size_of::<usize>() as u64
                        + indices.len() as u64 * (std::mem::size_of::<u32>() as u64 + f)
                }
                Features::Dense { values } => values.len() as u64 * f,
            }
    }

    /// Number of examples $n$.
    pub fn n(&self) -> usize {
        self.labels.len()
    }

    /// Number of features $p$: the largest index of the file, or the dimension given when reading.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Whether [`RawData::binarize`] gives sparse storage: the data was read as CSR and its density
    /// is below [`DENSE_DENSITY`].
    pub fn is_sparse(&self) -> bool {
        matches!(self.features, Features::Sparse { .. }) && self.density() < DENSE_DENSITY
    }

    /// Whether the rows are stored as CSR (LIBSVM input, or CSV read with feature hashing), as
    /// opposed to dense rows (CSV): the form a stream's rows keep when they are binarized with
    /// [`Layout::AsRead`].
    pub fn is_csr(&self) -> bool {
        matches!(self.features, Features::Sparse { .. })
    }

    /// Fraction of non-zero entries, `nnz / (n p)` (0 when there are no cells).
    pub fn density(&self) -> f64 {
        let cells = self.n() as f64 * self.dim as f64;
        if cells == 0.0 {
            0.0
        } else {
            self.nnz() as f64 / cells
        }
    }

    /// The labels as written in the file, in row order.
    pub fn raw_labels(&self) -> &[f64] {
        &self.labels
    }

    /// Row `i`'s features.
    ///
    /// # Panics
    /// If `i >= n`.
    pub fn row(&self, i: usize) -> Row<'_> {
        match &self.features {
            Features::Sparse {
                indptr,
                indices,
                values,
            } => {
                let (a, b) = (indptr[i], indptr[i + 1]);
                Row::Sparse(SparseRow::new(&indices[a..b], &values[a..b]))
            }
            Features::Dense { values } => Row::Dense(&values[i * self.dim..(i + 1) * self.dim]),
        }
    }

    /// Each distinct label with its number of rows, sorted by label value.
    pub fn label_counts(&self) -> Vec<(f64, usize)> {
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for &l in &self.labels {
            *counts.entry(l.to_bits()).or_default() += 1;
        }
        let mut out: Vec<(f64, usize)> = counts
            .into_iter()
            .map(|(bits, c)| (f64::from_bits(bits), c))
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// Stored non-zero count: stored values of sparse data, non-zero values of dense data.
    pub fn nnz(&self) -> usize {
        match &self.features {
            Features::Sparse { values, .. } => values.len(),
            Features::Dense { values } => values.iter().filter(|v| **v != 0.0).count(),
        }
    }

    /// The rows of all parts, in order, with the largest dimension of the parts.
    ///
    /// The result is dense when every part is dense, otherwise CSR (dense parts lose their zeros).
    /// No parts give empty sparse data of dimension 0.
    pub fn concat(mut parts: Vec<RawData>) -> RawData {
        // One part is its own concatenation (sparse parts hold no zeros): moved, not copied.
        if parts.len() == 1
            && let Some(part) = parts.pop()
        {
            return part;
        }
        let reading = parts.first().map_or(Reading::Libsvm, |p| p.reading.clone());
        let dim = parts.iter().map(|p| p.dim).max().unwrap_or(0);
        let n: usize = parts.iter().map(|p| p.n()).sum();
        let mut labels = Vec::with_capacity(n);
        let all_dense = !parts.is_empty()
            && parts
                .iter()
                .all(|p| matches!(p.features, Features::Dense { .. }));
        if all_dense {
            let mut out = Vec::with_capacity(n * dim);
            for part in parts {
                labels.extend_from_slice(&part.labels);
                if let Features::Dense { values } = &part.features {
                    if part.dim == dim {
                        out.extend_from_slice(values);
                    } else {
                        for i in 0..part.n() {
                            out.extend_from_slice(&values[i * part.dim..(i + 1) * part.dim]);
                            out.resize(out.len() + dim - part.dim, 0.0);
                        }
                    }
                }
            }
            return RawData::from_dense(labels, dim, out).with_reading(reading);
        }
        let mut indptr = Vec::with_capacity(n + 1);
        indptr.push(0);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for part in &parts {
            labels.extend_from_slice(&part.labels);
            for i in 0..part.n() {
                part.row(i).for_each(|j, v| {
                    if v != 0.0 {
                        indices.push(j as u32);
                        values.push(v);
                    }
                });
                indptr.push(indices.len());
            }
        }
        RawData::from_csr(labels, dim, indptr, indices, values).with_reading(reading)
    }

    /// Keeps the first `n` rows (all of them if there are fewer).
    pub fn truncate(&mut self, n: usize) {
        if n >= self.n() {
            return;
        }
        self.labels.truncate(n);
        match &mut self.features {
            Features::Sparse {
                indptr,
                indices,
                values,
            } => {
                indptr.truncate(n + 1);
                indices.truncate(indptr[n]);
                values.truncate(indptr[n]);
            }
            Features::Dense { values } => values.truncate(n * self.dim),
        }
    }

    /// The smallest dimension that holds every stored non-zero feature.
    fn needed_dim(&self) -> usize {
        match &self.features {
            Features::Sparse { indices, .. } => {
                indices.iter().map(|&j| j as usize + 1).max().unwrap_or(0)
            }
            Features::Dense { values } => (0..self.dim)
                .rev()
                .find(|&j| (0..self.n()).any(|i| values[i * self.dim + j] != 0.0))
                .map_or(0, |j| j + 1),
        }
    }

    /// The same rows with dimension `dim`, so that a test file lines up with its training file.
    ///
    /// Widening adds zero features. A smaller dimension is accepted only when no non-zero feature
    /// lies at or beyond it (a file whose last columns hold only explicit zeros); otherwise the
    /// result is [`DataError::DimTooSmall`]. Dense rows widened so far that their density falls
    /// below [`DENSE_DENSITY`] are stored as CSR instead, so a large `dim` never allocates $n p$
    /// values.
    pub fn with_dim(mut self, dim: usize) -> Result<RawData, DataError> {
        if dim < self.dim {
            let needed = self.needed_dim();
            if dim < needed {
                return Err(DataError::DimTooSmall { dim, needed });
            }
        }
        if dim > self.dim && matches!(self.features, Features::Dense { .. }) {
            let cells = self.n() as f64 * dim as f64;
            if cells > 0.0 && (self.nnz() as f64) < DENSE_DENSITY * cells {
                self = self.into_csr();
            }
        }
        if let Features::Dense { values } = &mut self.features
            && dim != self.dim
        {
            let old = std::mem::take(values);
            let mut out = Vec::with_capacity(self.labels.len() * dim);
            for i in 0..self.labels.len() {
                let row = &old[i * self.dim..(i + 1) * self.dim];
                out.extend_from_slice(&row[..self.dim.min(dim)]);
                out.resize((i + 1) * dim, 0.0);
            }
            *values = out;
        }
        self.dim = dim;
        Ok(self)
    }

    /// The same rows as CSR (zeros dropped); sparse data is returned as it is.
    fn into_csr(self) -> RawData {
        let Features::Dense { values } = &self.features else {
            return self;
        };
        let mut indptr = Vec::with_capacity(self.n() + 1);
        indptr.push(0);
        let (mut indices, mut out) = (Vec::new(), Vec::new());
        for row in values.chunks_exact(self.dim.max(1)).take(self.n()) {
            for (j, &v) in row.iter().enumerate() {
                if v != 0.0 {
                    indices.push(j as u32);
                    out.push(v);
                }
            }
            indptr.push(indices.len());
        }
        indptr.resize(self.n() + 1, indices.len());
        RawData::from_csr(self.labels, self.dim, indptr, indices, out).with_reading(self.reading)
    }

    /// The positive class `positive` picks on these rows, and the rule that picked it
    /// (conventions section 1).
    ///
    /// - [`Positive::Auto`]: labels exactly {-1, +1} or {0, 1} give `[1]` with
    ///   [`PositiveRule::BinaryPlusOne`], whatever the class sizes; any other label set gives the
    ///   minority class.
    /// - [`Positive::Minority`]: the label with the fewest rows, ties to the smaller label (no label
    ///   for data without rows), with [`PositiveRule::Minority`].
    /// - [`Positive::Labels`]: its list, or [`DataError::NoSuchLabel`] for the first label that
    ///   does not occur; [`Positive::Known`]: its list as it is. Both with [`PositiveRule::Given`].
    ///
    /// Labels are returned sorted, without repeats, with `-0` as `0`.
    pub fn choose_positive(&self, positive: &Positive) -> Result<PositiveChoice, DataError> {
        // A table's labels were mapped to +1 and -1 by its label map, which took `--positive`.
        if let Reading::Table(_) = self.reading {
            return PositiveChoice::from_counts(&[], &Positive::Table);
        }
        PositiveChoice::from_counts(&self.label_counts(), positive)
    }

    /// The labels that [`RawData::binarize`] maps to [`Label::Pos`] under `positive`, sorted: the
    /// labels of [`RawData::choose_positive`].
    pub fn positive_labels(&self, positive: &Positive) -> Result<Vec<f64>, DataError> {
        if let Positive::Known(_) = positive {
            // Given labels need no counts (a streamed chunk is binarized this way).
            return Ok(PositiveChoice::from_counts(&[], positive)?.labels);
        }
        Ok(self.choose_positive(positive)?.labels)
    }

    /// A [`Dataset`] with labels mapped to [`Label::Pos`] / [`Label::Neg`] by `positive`.
    ///
    /// Storage ([`Layout::ByDensity`]): dense input stays dense; sparse input stays sparse when its
    /// density is below [`DENSE_DENSITY`] (see [`RawData::is_sparse`]) and is expanded to dense
    /// rows otherwise, which then take at most $1 / 0.25 = 4$ times the values stored. A chunk of a
    /// stream is binarized with the positive class chosen for the whole input
    /// ([`Positive::Known`]) and, for rows identical to the whole input's, with its layout
    /// ([`RawData::binarize_as`]).
    pub fn binarize(&self, positive: &Positive) -> Result<Dataset, DataError> {
        self.binarize_as(positive, Layout::ByDensity)
    }

    /// As [`RawData::binarize`], with the storage `layout` asks for. [`Layout::Dense`] on sparse
    /// input allocates $8 n p$ bytes ([`RawData::dense_bytes`]); [`Layout::Sparse`] on dense input
    /// drops the zeros.
    pub fn binarize_as(&self, positive: &Positive, layout: Layout) -> Result<Dataset, DataError> {
        // A copy of the rows, as the dataset needs one: the same dataset as by value.
        self.clone().into_binarized(positive, layout)
    }

    /// [`RawData::binarize_as`] taking the rows by value: rows that keep their storage move into
    /// the dataset, and CSR rows made dense are spread out in their own value array
    /// ([`Dataset::into_dense`]) instead of being copied. The same dataset.
    pub fn into_binarized(self, positive: &Positive, layout: Layout) -> Result<Dataset, DataError> {
        let pos = self.positive_labels(positive)?;
        let labels = self.labels_for(&pos);
        let want_sparse = self.keeps_sparse(layout);
        match self.features {
            Features::Sparse {
                indptr,
                indices,
                values,
            } => {
                let sparse = Dataset::sparse(self.dim, indptr, indices, values, labels)?;
                Ok(if want_sparse {
                    sparse
                } else {
                    sparse.into_dense()
                })
            }
            Features::Dense { values } if !want_sparse => {
                Ok(Dataset::dense(self.dim, values, labels)?)
            }
            features @ Features::Dense { .. } => Self { features, ..self }
                .into_csr()
                .into_binarized(&Positive::Known(pos), layout),
        }
    }

    /// Each row's [`Label`]: positive when its label is one of `pos` (bit for bit).
    fn labels_for(&self, pos: &[f64]) -> Vec<Label> {
        self.labels
            .iter()
            .map(|l| {
                if pos.iter().any(|p| p.to_bits() == l.to_bits()) {
                    Label::Pos
                } else {
                    Label::Neg
                }
            })
            .collect()
    }

    /// Whether [`RawData::binarize_as`] gives CSR rows in `layout`.
    fn keeps_sparse(&self, layout: Layout) -> bool {
        match layout {
            Layout::ByDensity => self.is_sparse(),
            Layout::AsRead => matches!(self.features, Features::Sparse { .. }),
            Layout::Sparse => true,
            Layout::Dense => false,
        }
    }
}

/// The storage [`RawData::binarize_as`] gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// Dense input stays dense; sparse input stays CSR below [`DENSE_DENSITY`] and becomes dense
    /// at or above it.
    #[default]
    ByDensity,
    /// CSR (zeros of dense input dropped).
    Sparse,
    /// Dense rows.
    Dense,
    /// The storage the rows were read into: CSR for LIBSVM (and CSV read with feature hashing),
    /// dense rows for CSV. Depends on no statistic of the whole input, so a stream read once
    /// gives every chunk the form the whole input gets.
    AsRead,
}

impl Layout {
    /// What [`Layout::ByDensity`] gives for input that is stored sparse (`sparse_input`) and has
    /// `density` (stored non-zeros over $n p$): the layout to give every chunk of a stream so its
    /// rows have the form the whole input would get, with the density of a first pass
    /// ([`crate::FeatureRanges::density`]).
    pub fn for_input(sparse_input: bool, density: f64) -> Layout {
        if sparse_input && density < DENSE_DENSITY {
            Layout::Sparse
        } else {
            Layout::Dense
        }
    }
}

/// Which binary label set `counts` (sorted by label) is, if it is {-1, +1} or {0, 1}.
fn binary_labels(counts: &[(f64, usize)]) -> Option<BinaryLabels> {
    match counts {
        [(a, _), (b, _)]
            if a.to_bits() == (-1.0f64).to_bits() && b.to_bits() == 1.0f64.to_bits() =>
        {
            Some(BinaryLabels::MinusOnePlusOne)
        }
        [(a, _), (b, _)] if a.to_bits() == 0.0f64.to_bits() && b.to_bits() == 1.0f64.to_bits() => {
            Some(BinaryLabels::ZeroOne)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse_example() -> RawData {
        // Rows: label 2 (1 at feature 0), label 1 (no features), label 2 (3 at feature 2); dim 4.
        RawData::from_csr(
            vec![2.0, 1.0, 2.0],
            4,
            vec![0, 1, 1, 2],
            vec![0, 2],
            vec![1.0, 3.0],
        )
    }

    #[test]
    fn truncate_keeps_a_prefix() {
        let mut d = sparse_example();
        d.truncate(10);
        assert_eq!(d.n(), 3);
        d.truncate(2);
        assert_eq!(d.n(), 2);
        assert_eq!(d.nnz(), 1);
        assert_eq!(d.raw_labels(), &[2.0, 1.0]);
        let mut dense = RawData::from_dense(vec![1.0, 0.0], 2, vec![1.0, 2.0, 3.0, 0.0]);
        dense.truncate(1);
        assert_eq!(dense.row(0), Row::Dense(&[1.0, 2.0]));
        assert_eq!(dense.nnz(), 2);
    }

    #[test]
    fn dense_with_dim_pads_and_shrinks_over_zero_columns() {
        let d = RawData::from_dense(vec![1.0, 0.0], 3, vec![1.0, 2.0, 0.0, 3.0, 4.0, 0.0]);
        let wide = d.clone().with_dim(4).unwrap();
        assert_eq!(wide.row(1), Row::Dense(&[3.0, 4.0, 0.0, 0.0]));
        let narrow = d.clone().with_dim(2).unwrap();
        assert_eq!(narrow.row(1), Row::Dense(&[3.0, 4.0]));
        assert!(matches!(
            d.with_dim(1),
            Err(DataError::DimTooSmall { dim: 1, needed: 2 })
        ));
    }

    #[test]
    fn storage_choice_follows_density() {
        // nnz 2 over 3 x 4 cells: density 1/6, below the threshold.
        assert!(sparse_example().is_sparse());
        let full = RawData::from_csr(vec![1.0], 2, vec![0, 2], vec![0, 1], vec![1.0, 2.0]);
        assert!(!full.is_sparse());
        assert!(!full.binarize(&Positive::Minority).unwrap().is_sparse());
        assert!(
            sparse_example()
                .binarize(&Positive::Minority)
                .unwrap()
                .is_sparse()
        );
    }
}
