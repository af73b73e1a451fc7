//! Per-feature scaling fitted on one part and applied to another (conventions section 1), the mergeable
//! range statistics it is fitted from, and unit-norm rows.
//!
//! [`Scaling`] is the user's choice; [`FeatureRanges`] accumulates per-feature ranges in one pass
//! (over a dataset, a stream, or shards merged afterwards); [`FeatureRanges::finish`] turns them
//! into a [`Scaler`], which a model file stores and applies to later data, whole
//! ([`Scaler::transform`]) or row by row ([`Scaler::transform_row`]).
//!
//! Deviation (conventions section 1 says test values are not clipped): a scaled value is saturated at
//! $\pm$[`SCALED_LIMIT`] $= \pm 10^{12}$. Values within the training range map into $[-1, 1]$, so
//! the bound only touches test values more than about $5 \cdot 10^{11}$ training ranges outside
//! it, where an unbounded result could overflow to infinity (a value of $10^{308}$ against a
//! training range of $[0, 1]$) and turn a learner's score into NaN.

use std::fmt;
use std::str::FromStr;

use auc_core::{Dataset, DatasetError, Row, RowBuf, Storage};
use serde::{Deserialize, Serialize};

use crate::{DataError, ScalerProblem};

/// Density (stored non-zeros over $n p$) at or above which [`Scaling::Auto`] picks min-max; below
/// it, max-abs, which keeps sparse data sparse.
pub const AUTO_MIN_MAX_DENSITY: f64 = 0.10;

/// The largest magnitude a scaled value takes (see the module docs).
pub const SCALED_LIMIT: f64 = 1e12;

/// Which scaling to fit (the command line's `--scale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scaling {
    /// Min-max when the training data's density is at least [`AUTO_MIN_MAX_DENSITY`], max-abs
    /// below it, so that scaling never densifies a sparse file.
    #[default]
    Auto,
    /// Feature $j$ maps by $x \mapsto -1 + 2 (x - \min_j) / (\max_j - \min_j)$: the training range
    /// goes to $[-1, 1]$, a constant feature to 0. Zeros move, so the output is dense.
    MinMax,
    /// Feature $j$ maps by $x \mapsto x / \max_j |x|$ (a feature that is always 0 stays 0): the
    /// training values go to $[-1, 1]$ and zeros stay zero, so sparse data stays sparse
    /// (scikit-learn's `MaxAbsScaler`).
    MaxAbs,
    /// No scaling.
    None,
}

impl Scaling {
    /// Every variant, in the order the command line lists them.
    pub const ALL: [Scaling; 4] = [
        Scaling::Auto,
        Scaling::MinMax,
        Scaling::MaxAbs,
        Scaling::None,
    ];

    /// The lower-case name: `auto`, `minmax`, `maxabs` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Scaling::Auto => "auto",
            Scaling::MinMax => "minmax",
            Scaling::MaxAbs => "maxabs",
            Scaling::None => "none",
        }
    }

    /// What this choice means for rows of stored non-zeros over $n p$ `density`: min-max for
    /// [`Scaling::Auto`] at or above [`AUTO_MIN_MAX_DENSITY`], max-abs below it; any other
    /// choice as it is.
    pub fn resolve_at(self, density: f64) -> Scaling {
        match self {
            Scaling::Auto if density >= AUTO_MIN_MAX_DENSITY => Scaling::MinMax,
            Scaling::Auto => Scaling::MaxAbs,
            other => other,
        }
    }
}

impl fmt::Display for Scaling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scaling {
    type Err = DataError;

    /// Reads a lower-case name as [`Scaling::name`] writes it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scaling::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| DataError::UnknownScaling {
                name: s.to_string(),
            })
    }
}

/// Per-feature range statistics, accumulated row by row in one pass: for each feature the smallest
/// and largest stored non-zero value and how many rows store a non-zero, plus the number of rows.
///
/// Implicit zeros (sparse rows) and zero values (dense rows) are counted alike, through
/// `rows - nnz`, so dense and sparse storage of the same rows give equal statistics. A feature
/// without any non-zero value has min and max 0. [`FeatureRanges::merge`] is exact and
/// associative, so ranges of shards or of stream chunks can be computed apart, stored (serde)
/// and combined. Memory is [`FeatureRanges::bytes_for`] of the largest index seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FeatureRanges {
    min: Vec<f64>,
    max: Vec<f64>,
    nnz: Vec<u64>,
    rows: u64,
}

impl FeatureRanges {
    /// Ranges of `dim` features over no rows.
    pub fn new(dim: usize) -> Self {
        Self {
            min: vec![0.0; dim],
            max: vec![0.0; dim],
            nnz: vec![0; dim],
            rows: 0,
        }
    }

    /// Ranges from their parts: per feature the least and greatest non-zero value and the
    /// number of non-zeros (0, 0 and 0 for a feature never non-zero), over `rows` rows.
    pub(crate) fn from_parts(min: Vec<f64>, max: Vec<f64>, nnz: Vec<u64>, rows: u64) -> Self {
        Self {
            min,
            max,
            nnz,
            rows,
        }
    }

    /// The ranges of every row of `data`, with its dimension.
    pub fn of(data: &Dataset) -> Self {
        let mut r = Self::new(data.dim());
        for (x, _) in data.iter() {
            r.observe(x);
        }
        r
    }

    /// Bytes the statistics of `dim` features take (24 per feature).
    pub fn bytes_for(dim: usize) -> u64 {
        (dim as u64).saturating_mul(24)
    }

    /// Number of features covered: the given dimension or the largest index seen plus one.
    pub fn dim(&self) -> usize {
        self.min.len()
    }

    /// Rows observed.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Smallest stored non-zero value of each feature (0 for a feature without one).
    pub fn min(&self) -> &[f64] {
        &self.min
    }

    /// Largest stored non-zero value of each feature (0 for a feature without one).
    pub fn max(&self) -> &[f64] {
        &self.max
    }

    /// Rows storing a non-zero value, per feature.
    pub fn nnz(&self) -> &[u64] {
        &self.nnz
    }

    /// Stored non-zeros over $n p$ (0 when there are no cells).
    pub fn density(&self) -> f64 {
        let nonzeros = self.nnz.iter().map(|&c| c as f64).sum::<f64>();
        stored_density(nonzeros, self.rows, self.dim())
    }

    /// Covers at least `dim` features (new features have no non-zero yet).
    pub fn grow(&mut self, dim: usize) {
        if dim > self.dim() {
            self.min.resize(dim, 0.0);
            self.max.resize(dim, 0.0);
            self.nnz.resize(dim, 0);
        }
    }

    /// Adds one row. Features past [`FeatureRanges::dim`] extend it (to the row's last index plus
    /// one): check [`FeatureRanges::bytes_for`] first when indices may be huge. A stream's last
    /// features may hold only zeros: [`FeatureRanges::grow`] to its final dimension (or use
    /// [`FeatureRanges::observe_rows`]) before finishing.
    pub fn observe(&mut self, x: Row<'_>) {
        let extent = match x {
            Row::Dense(v) => v.len(),
            Row::Sparse(s) => s.indices().last().map_or(0, |&j| j as usize + 1),
        };
        self.grow(extent);
        self.rows += 1;
        x.for_each(|j, v| {
            if v == 0.0 {
                return;
            }
            if self.nnz[j] == 0 {
                self.min[j] = v;
                self.max[j] = v;
            } else {
                self.min[j] = self.min[j].min(v);
                self.max[j] = self.max[j].max(v);
            }
            self.nnz[j] += 1;
        });
    }

    /// Adds every row of `data` (a whole file or one chunk of a [`crate::RowStream`]) and covers
    /// at least its dimension, so that features a file declares but never sets are fitted (as
    /// constant) exactly as [`Scaler::fit`] fits them: ranges observed chunk by chunk equal the
    /// ranges of the whole binarized dataset.
    pub fn observe_rows(&mut self, data: &crate::RawData) {
        self.grow(data.dim());
        for i in 0..data.n() {
            self.observe(data.row(i));
        }
    }

    /// Adds the rows `other` has seen: the result equals the ranges of both row sets observed one
    /// after the other, exactly (minima, maxima and counts), whatever the order of merging.
    pub fn merge(&mut self, other: &FeatureRanges) {
        self.grow(other.dim());
        for j in 0..other.dim() {
            self.merge_feature(j, other.min[j], other.max[j], other.nnz[j]);
        }
        self.add_rows(other.rows);
    }

    /// Adds `count` non-zeros of feature `j` (below [`FeatureRanges::dim`]) between `min` and
    /// `max`.
    pub(crate) fn merge_feature(&mut self, j: usize, min: f64, max: f64, count: u64) {
        if count == 0 {
            return;
        }
        if self.nnz[j] == 0 {
            self.min[j] = min;
            self.max[j] = max;
        } else {
            self.min[j] = self.min[j].min(min);
            self.max[j] = self.max[j].max(max);
        }
        self.nnz[j] = self.nnz[j].saturating_add(count);
    }

    /// Counts `rows` more rows.
    pub(crate) fn add_rows(&mut self, rows: u64) {
        self.rows = self.rows.saturating_add(rows);
    }

    /// What [`Scaling::Auto`] means for these rows (min-max or max-abs by
    /// [`AUTO_MIN_MAX_DENSITY`]); any other choice as it is.
    pub fn resolve(&self, scaling: Scaling) -> Scaling {
        scaling.resolve_at(self.density())
    }

    /// The scaler of kind `scaling` (resolved by [`FeatureRanges::resolve`]) for these ranges.
    ///
    /// Min-max uses each feature's range with the zeros counted (a feature that is 0 in some row
    /// has 0 in its range); max-abs the largest magnitude.
    pub fn finish(&self, scaling: Scaling) -> Scaler {
        let zero_seen = |j: usize| self.nnz[j] < self.rows;
        match self.resolve(scaling) {
            Scaling::None | Scaling::Auto => Scaler::None,
            Scaling::MinMax => {
                let (mut min, mut max) = (self.min.clone(), self.max.clone());
                for j in 0..self.dim() {
                    if zero_seen(j) {
                        min[j] = min[j].min(0.0);
                        max[j] = max[j].max(0.0);
                    }
                }
                Scaler::MinMax { min, max }
            }
            Scaling::MaxAbs => Scaler::MaxAbs {
                max_abs: (0..self.dim())
                    .map(|j| self.min[j].abs().max(self.max[j].abs()))
                    .collect(),
            },
        }
    }
}

/// A fitted scaling, as a model file stores it: the per-feature numbers and the kind.
///
/// Features past [`Scaler::dim`] pass unchanged (data read with a larger dimension than the
/// training data, or a stream that met new features), never a panic. Every result is finite and
/// within $\pm$[`SCALED_LIMIT`], whatever the (finite) input; ranges near the limits of `f64`
/// (`[-1e308, 1e308]`, subnormal ranges such as `[1e-310, 2e-310]`) are handled without forming an
/// overflowing difference or reciprocal.
///
/// The postcard encoding of `Scaler::None` and `Scaler::MinMax { min, max }` is byte-identical to
/// that of the `Option<MinMaxScaler>` of model files of format version 2 (`None` and
/// `Some(MinMaxScaler { min, max })`), and for ordinary ranges min-max scales with the same
/// operations, so those files read and score as before.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Scaler {
    /// No scaling.
    None,
    /// Min-max to $[-1, 1]$ with these per-feature ranges (zeros included).
    MinMax {
        /// Per-feature minimum.
        min: Vec<f64>,
        /// Per-feature maximum.
        max: Vec<f64>,
    },
    /// Division by the per-feature largest magnitude.
    MaxAbs {
        /// Per-feature $\max |x|$.
        max_abs: Vec<f64>,
    },
}

impl Scaler {
    /// Fits `scaling` on `data`: [`FeatureRanges::of`] then [`FeatureRanges::finish`].
    pub fn fit(scaling: Scaling, data: &Dataset) -> Scaler {
        if scaling == Scaling::None {
            return Scaler::None;
        }
        FeatureRanges::of(data).finish(scaling)
    }

    /// Upper bound of the bytes fitting a scaler of `dim` features takes: the ranges
    /// ([`FeatureRanges::bytes_for`]) and the largest scaler (min-max, 16 bytes per feature).
    pub fn bytes_for(dim: usize) -> u64 {
        FeatureRanges::bytes_for(dim).saturating_add((dim as u64).saturating_mul(16))
    }

    /// The kind: [`Scaling::MinMax`], [`Scaling::MaxAbs`] or [`Scaling::None`].
    pub fn kind(&self) -> Scaling {
        match self {
            Scaler::None => Scaling::None,
            Scaler::MinMax { .. } => Scaling::MinMax,
            Scaler::MaxAbs { .. } => Scaling::MaxAbs,
        }
    }

    /// Number of features fitted (0 for [`Scaler::None`]).
    pub fn dim(&self) -> usize {
        match self {
            Scaler::None => 0,
            Scaler::MinMax { min, .. } => min.len(),
            Scaler::MaxAbs { max_abs } => max_abs.len(),
        }
    }

    /// Checks a scaler that did not come from [`FeatureRanges::finish`] (a decoded model file):
    /// equal lengths, finite numbers, `min <= max`, `max_abs >= 0`.
    pub fn validate(&self) -> Result<(), DataError> {
        let bad = |p| Err(DataError::Scaler(p));
        match self {
            Scaler::None => Ok(()),
            Scaler::MinMax { min, max } => {
                if min.len() != max.len() {
                    return bad(ScalerProblem::Lengths {
                        first: min.len(),
                        second: max.len(),
                    });
                }
                for (j, (a, b)) in min.iter().zip(max).enumerate() {
                    if !a.is_finite() || !b.is_finite() {
                        return bad(ScalerProblem::NonFinite { feature: j });
                    }
                    if a > b {
                        return bad(ScalerProblem::Inverted { feature: j });
                    }
                }
                Ok(())
            }
            Scaler::MaxAbs { max_abs } => {
                for (j, m) in max_abs.iter().enumerate() {
                    if !m.is_finite() {
                        return bad(ScalerProblem::NonFinite { feature: j });
                    }
                    if *m < 0.0 {
                        return bad(ScalerProblem::NegativeMaxAbs { feature: j });
                    }
                }
                Ok(())
            }
        }
    }

    /// The scaled value of feature `j` at `x` (`x` itself past the fitted dimension).
    pub fn scale_value(&self, j: usize, x: f64) -> f64 {
        match self {
            Scaler::None => x,
            Scaler::MinMax { min, max } => match (min.get(j), max.get(j)) {
                (Some(&lo), Some(&hi)) => min_max(lo, hi, x),
                _ => x,
            },
            Scaler::MaxAbs { max_abs } => match max_abs.get(j) {
                Some(&m) => max_abs_value(m, x),
                None => x,
            },
        }
    }

    /// `data` with every feature scaled, in the dimension of `data`.
    ///
    /// Storage: [`Scaler::None`] and [`Scaler::MaxAbs`] keep it (sparse stays sparse, with the same
    /// stored entries); [`Scaler::MinMax`] gives dense rows, since zeros move ($8 n p$ bytes:
    /// check [`crate::dense_bytes`] first for large sparse data).
    pub fn transform(&self, data: &Dataset) -> Dataset {
        let scaled = match (self, data.storage()) {
            (Scaler::MinMax { .. }, Storage::Sparse { .. }) => self.min_max_dense(data),
            // A copy of the rows, as the result needs one, scaled where it is.
            _ => self.transform_owned(data.clone()),
        };
        // Scaled values are finite (saturated) and the layout is the input's, which was valid.
        scaled.unwrap_or_else(|_| data.clone())
    }

    /// [`Scaler::transform`] of a dataset taken by value: scaled where its values are, without a
    /// copy of the rows, wherever the storage is kept (every case but min-max scaling of sparse
    /// rows, which become dense and are written anew). A non-finite result, which the saturating
    /// scalers never give, is refused with its place.
    pub fn transform_owned(&self, data: Dataset) -> Result<Dataset, DatasetError> {
        match (self, data.storage()) {
            (Scaler::None, _) => Ok(data),
            (Scaler::MinMax { .. }, Storage::Sparse { .. }) => self.min_max_dense(&data),
            (Scaler::MaxAbs { max_abs }, Storage::Sparse { .. }) => {
                // `scale_value` without its call and its match on the scaler for each value
                // (they were a sixth of a wide file's default-scaled pass).
                data.map_stored_values(|j, v| match max_abs.get(j) {
                    Some(&m) => max_abs_value(m, v),
                    None => v,
                })
            }
            _ => data.map_stored_values(|j, v| self.scale_value(j, v)),
        }
    }

    /// Min-max scaling of sparse rows, written dense: a row's zeros move to their scaled value.
    fn min_max_dense(&self, data: &Dataset) -> Result<Dataset, DatasetError> {
        let p = data.dim();
        let mut out = Vec::with_capacity(data.n() * p);
        let zeros: Vec<f64> = (0..p).map(|j| self.scale_value(j, 0.0)).collect();
        for (x, _) in data.iter() {
            let start = out.len();
            out.extend_from_slice(&zeros);
            x.for_each(|j, v| out[start + j] = self.scale_value(j, v));
        }
        Dataset::dense(p, out, data.labels().to_vec())
    }

    /// Scales one row into `out`, reusing its storage: allocation-free once `out` has the form
    /// and capacity of the result.
    ///
    /// [`Scaler::None`] and [`Scaler::MaxAbs`] keep the row's form. [`Scaler::MinMax`] writes a
    /// dense row: as long as a dense input row, or, for a sparse row, of length
    /// `max(self.dim(), last index + 1)`.
    pub fn transform_row(&self, x: Row<'_>, out: &mut RowBuf) {
        match (self, x) {
            (Scaler::None, _) => out.assign(x),
            (Scaler::MaxAbs { .. }, Row::Sparse(s)) => {
                if !matches!(out, RowBuf::Sparse { .. }) {
                    *out = RowBuf::Sparse {
                        indices: Vec::new(),
                        values: Vec::new(),
                    };
                }
                let RowBuf::Sparse { indices, values } = out else {
                    return;
                };
                indices.clear();
                indices.extend_from_slice(s.indices());
                values.clear();
                values.extend(
                    s.indices()
                        .iter()
                        .zip(s.values())
                        .map(|(&j, &v)| self.scale_value(j as usize, v)),
                );
            }
            (_, x) => {
                let len = match x {
                    Row::Dense(v) => v.len(),
                    Row::Sparse(s) => {
                        let extent = s.indices().last().map_or(0, |&j| j as usize + 1);
                        extent.max(self.dim())
                    }
                };
                let v = dense_buf(out);
                v.clear();
                v.extend((0..len).map(|j| self.scale_value(j, 0.0)));
                x.for_each(|j, value| v[j] = self.scale_value(j, value));
            }
        }
    }
}

/// `out` as a dense buffer (replaced by an empty one if it was sparse).
fn dense_buf(out: &mut RowBuf) -> &mut Vec<f64> {
    if !matches!(out, RowBuf::Dense(_)) {
        *out = RowBuf::Dense(Vec::new());
    }
    match out {
        RowBuf::Dense(v) => v,
        // Replaced just above.
        RowBuf::Sparse { values, .. } => values,
    }
}

/// `y` within $\pm$[`SCALED_LIMIT`].
#[inline]
fn saturate(y: f64) -> f64 {
    y.clamp(-SCALED_LIMIT, SCALED_LIMIT)
}

/// Min-max scaling of `x` by the range `[lo, hi]` (finite, `lo <= hi`).
///
/// The ordinary case computes $a x + b$ with $a = 2 / (hi - lo)$ and $b = -1 - a \cdot lo$, the
/// operations of model format 2. When that cannot be formed finitely (a range wider than the
/// largest double, a subnormal range whose reciprocal overflows, a value far outside the range),
/// it computes $t = (x - lo) / (hi - lo)$, halving every term first if a difference would
/// overflow, and returns $2 t - 1$; either way the result is saturated at $\pm$[`SCALED_LIMIT`].
#[inline]
fn min_max(lo: f64, hi: f64, x: f64) -> f64 {
    // A constant feature; also NaN ends, which validated scalers never hold.
    if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
        return 0.0;
    }
    let range = hi - lo;
    let a = 2.0 / range;
    if range.is_finite() && a.is_finite() {
        let y = a * x + (-1.0 - a * lo);
        if y.is_finite() {
            return saturate(y);
        }
    }
    let d = x - lo;
    let t = if range.is_finite() && d.is_finite() {
        d / range
    } else {
        let half = hi / 2.0 - lo / 2.0;
        if half > 0.0 {
            (x / 2.0 - lo / 2.0) / half
        } else {
            // Halving merged two subnormal ends: only reachable with |x| near the largest
            // double, far outside the range.
            d.signum() * f64::INFINITY
        }
    };
    saturate(2.0 * t - 1.0)
}

/// Max-abs scaling of `x` by `m` (finite, `m >= 0`): $x / m$, or 0 for a feature that was always 0.
#[inline]
pub(crate) fn max_abs_value(m: f64, x: f64) -> f64 {
    if m > 0.0 { saturate(x / m) } else { 0.0 }
}

/// $\lVert x \rVert$ computed without overflow: the largest magnitude times the norm of the row
/// divided by it. The norm [`unit_norm`] divides by, for a single row.
pub fn row_norm(x: Row<'_>) -> f64 {
    let mut m = 0.0f64;
    x.for_each(|_, v| m = m.max(v.abs()));
    if m == 0.0 {
        return 0.0;
    }
    let mut s = 0.0;
    x.for_each(|_, v| {
        let r = v / m;
        s += r * r;
    });
    m * s.sqrt()
}

/// `data` with every row divided by its Euclidean norm (zero rows stay zero), so $\lVert x \rVert \le 1$.
///
/// The norm is computed as $m \sqrt{\sum_j (x_j / m)^2}$ with $m = \max_j |x_j|$, so rows with
/// values near the largest double do not overflow to a zero row.
pub fn unit_norm(data: &Dataset) -> Dataset {
    let labels = data.labels().to_vec();
    let norms: Vec<f64> = data.iter().map(|(x, _)| row_norm(x)).collect();
    let div = |v: f64, i: usize| if norms[i] > 0.0 { v / norms[i] } else { 0.0 };
    let result = match data.storage() {
        Storage::Dense { values } => {
            let p = data.dim();
            let out = values
                .iter()
                .enumerate()
                .map(|(k, &v)| div(v, k / p.max(1)))
                .collect();
            Dataset::dense(p, out, labels)
        }
        Storage::Sparse {
            indptr,
            indices,
            values,
        } => {
            let mut out = values.clone();
            for i in 0..data.n() {
                out[indptr[i]..indptr[i + 1]]
                    .iter_mut()
                    .for_each(|v| *v = div(*v, i));
            }
            Dataset::sparse(data.dim(), indptr.clone(), indices.clone(), out, labels)
        }
    };
    // Dividing finite values by a positive norm at least as large keeps them finite.
    result.unwrap_or_else(|_| data.clone())
}

/// `nonzeros` stored values over the $n p$ cells of `rows` rows of `dim` features (0 when there
/// are no cells): the density [`Scaling::resolve_at`] takes. `nonzeros` is a whole count, exact
/// in `f64` below 2^53, so a total summed per feature and one counted at once give the same value.
pub(crate) fn stored_density(nonzeros: f64, rows: u64, dim: usize) -> f64 {
    let cells = rows as f64 * dim as f64;
    if cells == 0.0 { 0.0 } else { nonzeros / cells }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};

    #[test]
    fn min_max_maps_training_range_to_unit_interval() {
        // Feature 0 in [2, 6]: 2 -> -1, 4 -> 0, 6 -> 1. Feature 1 constant 5 -> 0.
        let train =
            Dataset::dense(2, vec![2.0, 5.0, 6.0, 5.0, 4.0, 5.0], vec![Pos, Neg, Neg]).unwrap();
        let s = Scaler::fit(Scaling::MinMax, &train);
        let t = s.transform(&train);
        assert_eq!(t.row(0), Row::Dense(&[-1.0, 0.0]));
        assert_eq!(t.row(1), Row::Dense(&[1.0, 0.0]));
        assert_eq!(t.row(2), Row::Dense(&[0.0, 0.0]));
        // Test values outside the training range are not clipped: 10 -> 1 + 2 * 4/4 = 3.
        let test = Dataset::dense(2, vec![10.0, 7.0], vec![Pos]).unwrap();
        assert_eq!(s.transform(&test).row(0), Row::Dense(&[3.0, 0.0]));
    }

    #[test]
    fn extreme_ranges_scale_finitely() {
        // [-1e308, 1e308]: the difference overflows; 0 is the middle, the ends map to -1 and 1.
        assert_eq!(min_max(-1e308, 1e308, 0.0), 0.0);
        assert_eq!(min_max(-1e308, 1e308, 1e308), 1.0);
        assert_eq!(min_max(-1e308, 1e308, -1e308), -1.0);
        // [1e-310, 2e-310]: subnormal, 2 / range overflows; the ends still map to -1 and 1.
        assert_eq!(min_max(1e-310, 2e-310, 1e-310), -1.0);
        assert_eq!(min_max(1e-310, 2e-310, 2e-310), 1.0);
        // 1000, 2000 and 3000 times the smallest subnormal: the middle maps to 0 exactly.
        let tiny = |k: u64| f64::from_bits(k);
        assert_eq!(min_max(tiny(1000), tiny(3000), tiny(2000)), 0.0);
        // Far outside the range: saturated, never infinite.
        assert_eq!(min_max(0.0, 1.0, 1e308), SCALED_LIMIT);
        assert_eq!(min_max(0.0, 1.0, -1e308), -SCALED_LIMIT);
        assert_eq!(min_max(1e-310, 2e-310, 1.0), SCALED_LIMIT);
        // A range one unit in the last place wide at -1e308.
        let next = f64::from_bits((-1e308f64).to_bits() - 1);
        assert_eq!(min_max(-1e308, next, 1.7e308), SCALED_LIMIT);
        assert_eq!(max_abs_value(1e-310, 1e308), SCALED_LIMIT);
        assert_eq!(max_abs_value(0.0, 5.0), 0.0);
    }
}
