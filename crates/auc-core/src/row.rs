//! Borrowed views of one example's features, dense or sparse, and the owned sparse vector.

use serde::{Deserialize, Serialize};

/// A sparse row: 0-based feature indices, strictly increasing, with finite values.
///
/// Only the data layer checks these rules (see [`crate::Dataset::sparse`]); learners rely on them
/// and only `debug_assert!` them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SparseRow<'a> {
    indices: &'a [u32],
    values: &'a [f64],
}

impl<'a> SparseRow<'a> {
    /// A view of `indices` and `values`, which must have the same length, increasing indices and
    /// finite values. Lengths are checked always, order and finiteness in debug builds.
    ///
    /// # Panics
    /// If the two slices differ in length (a programmer error).
    pub fn new(indices: &'a [u32], values: &'a [f64]) -> Self {
        assert_eq!(
            indices.len(),
            values.len(),
            "sparse row: {} indices but {} values",
            indices.len(),
            values.len()
        );
        debug_assert!(
            indices.windows(2).all(|w| w[0] < w[1]),
            "sparse row indices must increase"
        );
        debug_assert!(
            values.iter().all(|v| v.is_finite()),
            "sparse row values must be finite"
        );
        Self { indices, values }
    }

    /// The stored feature indices (0-based, strictly increasing).
    #[inline]
    pub fn indices(&self) -> &'a [u32] {
        self.indices
    }

    /// The stored values, one per index.
    #[inline]
    pub fn values(&self) -> &'a [f64] {
        self.values
    }
}

/// An owned sparse vector: the owned counterpart of [`SparseRow`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SparseVec {
    indices: Vec<u32>,
    values: Vec<f64>,
}

impl SparseVec {
    /// Builds from `(index, value)` pairs, which must be strictly increasing in index and finite.
    ///
    /// Returns `None` if they are not.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, f64)>) -> Option<Self> {
        let (indices, values): (Vec<u32>, Vec<f64>) = pairs.into_iter().unzip();
        let ok = indices.windows(2).all(|w| w[0] < w[1]) && values.iter().all(|v| v.is_finite());
        ok.then_some(Self { indices, values })
    }

    /// A borrowed view.
    pub fn view(&self) -> SparseRow<'_> {
        SparseRow {
            indices: &self.indices,
            values: &self.values,
        }
    }
}

/// One example's features, as learners see them: a dense slice of length $p$ or a sparse row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Row<'a> {
    /// All $p$ values.
    Dense(&'a [f64]),
    /// The non-zero values only.
    Sparse(SparseRow<'a>),
}

impl Row<'_> {
    /// Number of stored entries (all $p$ for a dense row).
    #[inline]
    pub fn nnz(&self) -> usize {
        match self {
            Row::Dense(x) => x.len(),
            Row::Sparse(s) => s.indices.len(),
        }
    }

    /// Calls `f(j, x_j)` for each stored entry, in increasing `j`.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize, f64)) {
        match self {
            Row::Dense(x) => x.iter().enumerate().for_each(|(j, &v)| f(j, v)),
            Row::Sparse(s) => {
                for (&j, &v) in s.indices.iter().zip(s.values) {
                    f(j as usize, v);
                }
            }
        }
    }

    /// $w^\top x$.
    ///
    /// # Panics
    /// If a dense row's length differs from `w.len()` or a sparse index is out of range
    /// (a programmer error: the row and the model disagree on $p$).
    #[inline]
    pub fn dot(&self, w: &[f64]) -> f64 {
        match self {
            Row::Dense(x) => {
                assert_eq!(
                    x.len(),
                    w.len(),
                    "row has {} features, weights {}",
                    x.len(),
                    w.len()
                );
                dense_dot(x, w)
            }
            Row::Sparse(s) => s
                .indices
                .iter()
                .zip(s.values)
                .map(|(&j, &v)| v * w[j as usize])
                .sum(),
        }
    }

    /// $y \leftarrow y + a x$.
    ///
    /// # Panics
    /// As [`Row::dot`].
    #[inline]
    pub fn axpy(&self, a: f64, y: &mut [f64]) {
        match self {
            Row::Dense(x) => {
                assert_eq!(
                    x.len(),
                    y.len(),
                    "row has {} features, target {}",
                    x.len(),
                    y.len()
                );
                for (yi, &xi) in y.iter_mut().zip(x.iter()) {
                    *yi += a * xi;
                }
            }
            Row::Sparse(s) => {
                for (&j, &v) in s.indices.iter().zip(s.values) {
                    y[j as usize] += a * v;
                }
            }
        }
    }

    /// $(w^\top x, \lVert x \rVert^2)$ in one pass over the row.
    ///
    /// # Panics
    /// As [`Row::dot`].
    #[inline]
    pub fn dot_and_norm_sq(&self, w: &[f64]) -> (f64, f64) {
        match self {
            Row::Dense(x) => {
                assert_eq!(
                    x.len(),
                    w.len(),
                    "row has {} features, weights {}",
                    x.len(),
                    w.len()
                );
                let (mut d, mut n) = ([0.0f64; 4], [0.0f64; 4]);
                let (xc, xr) = x.split_at(x.len() - x.len() % 4);
                let (wc, wr) = w.split_at(xc.len());
                for (a, b) in xc.chunks_exact(4).zip(wc.chunks_exact(4)) {
                    for k in 0..4 {
                        d[k] += a[k] * b[k];
                        n[k] += a[k] * a[k];
                    }
                }
                let (mut dt, mut nt) = (0.0, 0.0);
                for (a, b) in xr.iter().zip(wr) {
                    dt += a * b;
                    nt += a * a;
                }
                (
                    (d[0] + d[1]) + (d[2] + d[3]) + dt,
                    (n[0] + n[1]) + (n[2] + n[3]) + nt,
                )
            }
            Row::Sparse(s) => s
                .indices
                .iter()
                .zip(s.values)
                .fold((0.0, 0.0), |(d, n), (&j, &v)| {
                    (d + v * w[j as usize], n + v * v)
                }),
        }
    }

    /// $x^\top z$ for two rows of the same space, dense or sparse in any combination: a merge
    /// of the two index lists when both are sparse, $O(\mathrm{nnz}(x) + \mathrm{nnz}(z))$.
    ///
    /// # Panics
    /// If two dense rows differ in length, or a sparse index is past a dense row's end.
    pub fn dot_row(&self, other: &Row<'_>) -> f64 {
        match (self, other) {
            (Row::Dense(a), Row::Dense(b)) => {
                assert_eq!(
                    a.len(),
                    b.len(),
                    "rows have {} and {} features",
                    a.len(),
                    b.len()
                );
                dense_dot(a, b)
            }
            (Row::Dense(d), sparse @ Row::Sparse(_)) | (sparse @ Row::Sparse(_), Row::Dense(d)) => {
                sparse.dot(d)
            }
            (Row::Sparse(a), Row::Sparse(b)) => {
                let (mut i, mut j, mut acc) = (0, 0, 0.0);
                while i < a.indices.len() && j < b.indices.len() {
                    match a.indices[i].cmp(&b.indices[j]) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => {
                            acc += a.values[i] * b.values[j];
                            i += 1;
                            j += 1;
                        }
                    }
                }
                acc
            }
        }
    }

    /// $\lVert x \rVert^2$.
    #[inline]
    pub fn norm_sq(&self) -> f64 {
        match self {
            Row::Dense(x) => dense_dot(x, x),
            Row::Sparse(s) => s.values.iter().map(|v| v * v).sum(),
        }
    }

    /// The value of feature `j` (0 when a sparse row does not store it or `j` is past a dense end).
    pub fn get(&self, j: usize) -> f64 {
        match self {
            Row::Dense(x) => x.get(j).copied().unwrap_or(0.0),
            Row::Sparse(s) => match s.indices.binary_search(&(j as u32)) {
                Ok(k) => s.values[k],
                Err(_) => 0.0,
            },
        }
    }

    /// Writes the row into a dense buffer of length `out.len()`, zeroing the rest.
    ///
    /// # Panics
    /// If a stored index is past `out.len()`.
    pub fn write_dense(&self, out: &mut [f64]) {
        out.fill(0.0);
        self.axpy(1.0, out);
    }
}

/// Dot product with four independent accumulators, so the compiler can vectorize it.
#[inline]
fn dense_dot(x: &[f64], w: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (xc, xr) = x.split_at(x.len() - x.len() % 4);
    let (wc, wr) = w.split_at(xc.len());
    for (a, b) in xc.chunks_exact(4).zip(wc.chunks_exact(4)) {
        for k in 0..4 {
            acc[k] += a[k] * b[k];
        }
    }
    let tail: f64 = xr.iter().zip(wr).map(|(a, b)| a * b).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// An owned copy of a row, kept in the form it arrived in (dense or sparse): what learners that
/// store examples (buffers, reservoirs) hold. [`RowBuf::assign`] overwrites it reusing its storage,
/// so a full buffer replaces rows without allocating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RowBuf {
    /// A dense row's values.
    Dense(Vec<f64>),
    /// A sparse row's indices and values.
    Sparse {
        /// 0-based feature indices, strictly increasing.
        indices: Vec<u32>,
        /// The values, finite.
        values: Vec<f64>,
    },
}

impl Default for RowBuf {
    fn default() -> Self {
        RowBuf::Dense(Vec::new())
    }
}

impl RowBuf {
    /// A copy of `x`.
    pub fn from_row(x: Row<'_>) -> Self {
        let mut b = RowBuf::default();
        b.assign(x);
        b
    }

    /// Overwrites with `x`, reusing this buffer's storage when the form (dense or sparse) is
    /// the same.
    pub fn assign(&mut self, x: Row<'_>) {
        match (&mut *self, x) {
            (RowBuf::Dense(v), Row::Dense(x)) => {
                v.clear();
                v.extend_from_slice(x);
            }
            (RowBuf::Sparse { indices, values }, Row::Sparse(s)) => {
                indices.clear();
                indices.extend_from_slice(s.indices);
                values.clear();
                values.extend_from_slice(s.values);
            }
            (me, Row::Dense(x)) => *me = RowBuf::Dense(x.to_vec()),
            (me, Row::Sparse(s)) => {
                *me = RowBuf::Sparse {
                    indices: s.indices.to_vec(),
                    values: s.values.to_vec(),
                }
            }
        }
    }

    /// Checks a decoded row for `dim` features: a dense row has `dim` values, a sparse row
    /// strictly increasing indices below `dim` and as many values; every value finite.
    pub fn check(&self, dim: usize) -> Result<(), String> {
        let values = match self {
            RowBuf::Dense(v) => {
                if v.len() != dim {
                    return Err(format!(
                        "{} values where {dim} features are expected",
                        v.len()
                    ));
                }
                v
            }
            RowBuf::Sparse { indices, values } => {
                if indices.len() != values.len() {
                    return Err(format!(
                        "{} indices but {} values",
                        indices.len(),
                        values.len()
                    ));
                }
                if !indices.windows(2).all(|w| w[0] < w[1]) {
                    return Err("sparse indices are not strictly increasing".to_owned());
                }
                if let Some(&last) = indices.last()
                    && last as usize >= dim
                {
                    return Err(format!("index {last} is not below the dimension {dim}"));
                }
                values
            }
        };
        match values.iter().find(|v| !v.is_finite()) {
            Some(v) => Err(format!("value {v} is not finite")),
            None => Ok(()),
        }
    }

    /// Divides every value by the row's Euclidean norm (a zero row stays zero), so that
    /// $\lVert x \rVert \le 1$.
    pub fn normalize(&mut self) {
        let values = match self {
            RowBuf::Dense(v) => v,
            RowBuf::Sparse { values, .. } => values,
        };
        let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm > 0.0 && norm.is_finite() {
            values.iter_mut().for_each(|v| *v /= norm);
        }
    }

    /// Pads a dense row with zeros up to `dim` values (a longer dense row and a sparse row are
    /// left as they are): the same example in a space with more features, for a learner that
    /// grows its dimension ([`crate::OnlineLearner::grow`]).
    pub fn pad(&mut self, dim: usize) {
        if let RowBuf::Dense(v) = self
            && v.len() < dim
        {
            v.resize(dim, 0.0);
        }
    }

    /// The stored row as a view.
    pub fn as_row(&self) -> Row<'_> {
        match self {
            RowBuf::Dense(v) => Row::Dense(v),
            RowBuf::Sparse { indices, values } => Row::Sparse(SparseRow::new(indices, values)),
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_views_agree() {
        // x = (0, 2, 0, -1, 0.5), w = (1, 1, 1, 2, 4): w.x = 2 - 2 + 2 = 2, ||x||^2 = 4 + 1 + 0.25.
        let dense = [0.0, 2.0, 0.0, -1.0, 0.5];
        let sv = SparseVec::from_pairs([(1, 2.0), (3, -1.0), (4, 0.5)]).unwrap();
        let w = [1.0, 1.0, 1.0, 2.0, 4.0];
        for row in [Row::Dense(&dense), Row::Sparse(sv.view())] {
            assert_eq!(row.dot(&w), 2.0);
            assert_eq!(row.norm_sq(), 5.25);
            assert_eq!(row.dot_and_norm_sq(&w), (2.0, 5.25));
            assert_eq!(row.get(3), -1.0);
            assert_eq!(row.get(2), 0.0);
            let mut y = [1.0; 5];
            row.axpy(2.0, &mut y);
            assert_eq!(y, [1.0, 5.0, 1.0, -1.0, 2.0]);
            let mut d = [9.0; 5];
            row.write_dense(&mut d);
            assert_eq!(d, dense);
        }
    }

    #[test]
    fn row_dot_products_agree_in_every_storage_combination() {
        // x = (0, 2, 0, -1, 0.5), z = (1, 3, 0, 2, 4): x.z = 6 - 2 + 2 = 6.
        let (xd, zd) = ([0.0, 2.0, 0.0, -1.0, 0.5], [1.0, 3.0, 0.0, 2.0, 4.0]);
        let xs = SparseVec::from_pairs([(1, 2.0), (3, -1.0), (4, 0.5)]).unwrap();
        let zs = SparseVec::from_pairs([(0, 1.0), (1, 3.0), (3, 2.0), (4, 4.0)]).unwrap();
        for x in [Row::Dense(&xd), Row::Sparse(xs.view())] {
            for z in [Row::Dense(&zd), Row::Sparse(zs.view())] {
                assert_eq!(x.dot_row(&z), 6.0);
                assert_eq!(z.dot_row(&x), 6.0);
            }
        }
    }

    #[test]
    fn sparse_vec_rejects_unsorted_or_non_finite() {
        assert!(SparseVec::from_pairs([(2, 1.0), (1, 1.0)]).is_none());
        assert!(SparseVec::from_pairs([(1, 1.0), (1, 1.0)]).is_none());
        assert!(SparseVec::from_pairs([(1, f64::NAN)]).is_none());
    }

    #[test]
    fn dense_dot_handles_every_tail_length() {
        for n in 0..11 {
            let x: Vec<f64> = (0..n).map(|i| i as f64 + 1.0).collect();
            let expect: f64 = x.iter().map(|v| v * v).sum();
            assert_eq!(dense_dot(&x, &x), expect, "n = {n}");
            assert_eq!(
                Row::Dense(&x).dot_and_norm_sq(&x),
                (expect, expect),
                "n = {n}"
            );
        }
    }

    #[test]
    fn row_buffers_round_trip_and_switch_form() {
        let sv = SparseVec::from_pairs([(1, 2.0), (4, -1.0)]).unwrap();
        let mut b = RowBuf::from_row(Row::Dense(&[1.0, 2.0]));
        assert_eq!(b.as_row(), Row::Dense(&[1.0, 2.0]));
        b.assign(Row::Sparse(sv.view()));
        assert_eq!(b.as_row(), Row::Sparse(sv.view()));
        b.assign(Row::Dense(&[3.0]));
        assert_eq!(b, RowBuf::Dense(vec![3.0]));
        b.pad(3);
        assert_eq!(b, RowBuf::Dense(vec![3.0, 0.0, 0.0]));
        b.pad(2);
        assert_eq!(b.as_row(), Row::Dense(&[3.0, 0.0, 0.0]));
        let mut s = RowBuf::from_row(Row::Sparse(sv.view()));
        s.pad(10);
        assert_eq!(s.as_row(), Row::Sparse(sv.view()));
    }
}
