//! An in-memory labelled dataset, dense (row-major) or sparse (CSR), behind one row view.

use crate::{DatasetError, Label, Row, SparseRow};

/// How a [`Dataset`] stores its features.
#[derive(Clone, Debug, PartialEq)]
pub enum Storage {
    /// Row-major, `n * dim` values.
    Dense {
        /// The values, row after row.
        values: Vec<f64>,
    },
    /// Compressed sparse rows: row `i` holds `indices[indptr[i]..indptr[i+1]]` and the same range
    /// of `values`.
    Sparse {
        /// `n + 1` offsets, starting at 0, non-decreasing.
        indptr: Vec<usize>,
        /// 0-based feature indices, strictly increasing within a row.
        indices: Vec<u32>,
        /// Values, one per index.
        values: Vec<f64>,
    },
}

/// Labelled examples with a fixed dimension $p$.
///
/// Invariants, checked by the constructors: every value is finite, every sparse row's indices are
/// strictly increasing and below `dim`, and there is one label per row.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    dim: usize,
    storage: Storage,
    labels: Vec<Label>,
}

impl Dataset {
    /// A dense dataset from `labels.len()` rows of `dim` values each, row-major.
    pub fn dense(dim: usize, values: Vec<f64>, labels: Vec<Label>) -> Result<Self, DatasetError> {
        let expected = labels.len() * dim;
        if values.len() != expected {
            return Err(DatasetError::Shape {
                what: "dense values",
                expected,
                found: values.len(),
            });
        }
        if let Some(k) = values.iter().position(|v| !v.is_finite()) {
            return Err(DatasetError::NonFinite {
                row: k / dim,
                feature: k % dim,
            });
        }
        Ok(Self {
            dim,
            storage: Storage::Dense { values },
            labels,
        })
    }

    /// A sparse (CSR) dataset; see [`Storage::Sparse`] for the layout.
    pub fn sparse(
        dim: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
        labels: Vec<Label>,
    ) -> Result<Self, DatasetError> {
        let n = labels.len();
        if indptr.len() != n + 1 {
            return Err(DatasetError::Shape {
                what: "indptr",
                expected: n + 1,
                found: indptr.len(),
            });
        }
        if indices.len() != values.len() {
            return Err(DatasetError::Shape {
                what: "values",
                expected: indices.len(),
                found: values.len(),
            });
        }
        if indptr[0] != 0 || indptr[n] != indices.len() || indptr.windows(2).any(|w| w[0] > w[1]) {
            return Err(DatasetError::Shape {
                what: "indptr end",
                expected: indices.len(),
                found: indptr[n],
            });
        }
        for row in 0..n {
            let (a, b) = (indptr[row], indptr[row + 1]);
            let mut prev: Option<u32> = None;
            for k in a..b {
                let j = indices[k];
                if (j as usize) >= dim || prev.is_some_and(|p| p >= j) {
                    return Err(DatasetError::BadIndex { row, index: j, dim });
                }
                if !values[k].is_finite() {
                    return Err(DatasetError::NonFinite {
                        row,
                        feature: j as usize,
                    });
                }
                prev = Some(j);
            }
        }
        Ok(Self {
            dim,
            storage: Storage::Sparse {
                indptr,
                indices,
                values,
            },
            labels,
        })
    }

    /// Number of examples $n$.
    #[inline]
    pub fn n(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are no examples.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Number of features $p$.
    #[inline]
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The storage, for code that needs the raw arrays (scaling, serialization).
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Whether the storage is sparse.
    pub fn is_sparse(&self) -> bool {
        matches!(self.storage, Storage::Sparse { .. })
    }

    /// Row `i`'s features.
    ///
    /// # Panics
    /// If `i >= n`.
    #[inline]
    pub fn row(&self, i: usize) -> Row<'_> {
        match &self.storage {
            Storage::Dense { values } => Row::Dense(&values[i * self.dim..(i + 1) * self.dim]),
            Storage::Sparse {
                indptr,
                indices,
                values,
            } => {
                let (a, b) = (indptr[i], indptr[i + 1]);
                Row::Sparse(SparseRow::new(&indices[a..b], &values[a..b]))
            }
        }
    }

    /// Row `i`'s label.
    #[inline]
    pub fn label(&self, i: usize) -> Label {
        self.labels[i]
    }

    /// All labels, in row order.
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// `(row, label)` pairs in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Row<'_>, Label)> + '_ {
        (0..self.n()).map(move |i| (self.row(i), self.labels[i]))
    }

    /// `(positives, negatives)`.
    pub fn class_counts(&self) -> (usize, usize) {
        let pos = self.labels.iter().filter(|l| l.is_pos()).count();
        (pos, self.n() - pos)
    }

    /// Stored non-zero count: every value of a dense dataset that is not 0, every stored sparse
    /// value that is not 0.
    pub fn nnz(&self) -> usize {
        let values = match &self.storage {
            Storage::Dense { values } | Storage::Sparse { values, .. } => values,
        };
        values.iter().filter(|v| **v != 0.0).count()
    }

    /// Fraction of non-zero entries, `nnz / (n p)` (0 for an empty dataset).
    pub fn density(&self) -> f64 {
        let cells = self.n() as f64 * self.dim as f64;
        if cells == 0.0 {
            0.0
        } else {
            self.nnz() as f64 / cells
        }
    }

    /// A new dataset holding rows `idx[0], idx[1], ...` in that order (repeats allowed), in the same
    /// storage kind.
    ///
    /// # Panics
    /// If an index is `>= n`.
    pub fn select(&self, idx: &[usize]) -> Dataset {
        let labels = idx.iter().map(|&i| self.labels[i]).collect();
        let storage = match &self.storage {
            Storage::Dense { values } => {
                let mut out = Vec::with_capacity(idx.len() * self.dim);
                for &i in idx {
                    out.extend_from_slice(&values[i * self.dim..(i + 1) * self.dim]);
                }
                Storage::Dense { values: out }
            }
            Storage::Sparse {
                indptr,
                indices,
                values,
            } => {
                let mut p = Vec::with_capacity(idx.len() + 1);
                let (mut ind, mut val) = (Vec::new(), Vec::new());
                p.push(0);
                for &i in idx {
                    let (a, b) = (indptr[i], indptr[i + 1]);
                    ind.extend_from_slice(&indices[a..b]);
                    val.extend_from_slice(&values[a..b]);
                    p.push(ind.len());
                }
                Storage::Sparse {
                    indptr: p,
                    indices: ind,
                    values: val,
                }
            }
        };
        Dataset {
            dim: self.dim,
            storage,
            labels,
        }
    }

    /// The same rows with dimension `dim >= self.dim()`: extra features are 0.
    ///
    /// # Panics
    /// If `dim < self.dim()`.
    pub fn with_dim(mut self, dim: usize) -> Dataset {
        assert!(
            dim >= self.dim,
            "cannot shrink dimension {} to {dim}",
            self.dim
        );
        if let Storage::Dense { values } = &mut self.storage
            && dim > self.dim
        {
            let old = std::mem::take(values);
            let mut out = Vec::with_capacity(self.labels.len() * dim);
            for row in old.chunks_exact(self.dim.max(1)).take(self.labels.len()) {
                out.extend_from_slice(&row[..self.dim]);
                out.resize(out.len() + dim - self.dim, 0.0);
            }
            if self.dim == 0 {
                out.resize(self.labels.len() * dim, 0.0);
            }
            *values = out;
        }
        self.dim = dim;
        self
    }

    /// The dataset with `f(feature, value)` in place of every stored value (every cell of a
    /// dense dataset, every stored entry of a sparse one), written where the values are, without
    /// a copy of the rows. A result that is not finite is refused with its row and feature (the
    /// dataset, taken by value, is then dropped).
    pub fn map_stored_values(
        mut self,
        f: impl Fn(usize, f64) -> f64,
    ) -> Result<Dataset, DatasetError> {
        match &mut self.storage {
            Storage::Dense { values } => {
                if self.dim == 0 {
                    return Ok(self);
                }
                for (row, x) in values.chunks_exact_mut(self.dim).enumerate() {
                    for (feature, v) in x.iter_mut().enumerate() {
                        *v = f(feature, *v);
                        if !v.is_finite() {
                            return Err(DatasetError::NonFinite { row, feature });
                        }
                    }
                }
            }
            Storage::Sparse {
                indptr,
                indices,
                values,
            } => {
                for (k, (&j, v)) in indices.iter().zip(values.iter_mut()).enumerate() {
                    *v = f(j as usize, *v);
                    if !v.is_finite() {
                        let row = indptr.partition_point(|&start| start <= k) - 1;
                        return Err(DatasetError::NonFinite {
                            row,
                            feature: j as usize,
                        });
                    }
                }
            }
        }
        Ok(self)
    }

    /// The dataset dense, written into the storage of its own values: a sparse dataset's value
    /// array is grown to $n p$ and each row's stored values moved, from the last row's last
    /// value backwards, to their dense places (a value never moves down: the $r$-th stored value
    /// of row $i$ sits at $\mathrm{indptr}_i + r \le i p + j$ for its feature $j$, so nothing is
    /// overwritten before it is read), the places between them set to 0. The same dataset as
    /// [`Dataset::to_dense`], without holding the sparse rows and a dense copy at once.
    pub fn into_dense(self) -> Dataset {
        let Dataset {
            dim,
            storage,
            labels,
        } = self;
        let values = match storage {
            Storage::Dense { values } => values,
            Storage::Sparse {
                indptr,
                indices,
                mut values,
            } => {
                let n = labels.len();
                values.resize(n * dim, 0.0);
                for i in (0..n).rev() {
                    let (start, end) = (indptr[i], indptr[i + 1]);
                    // The row's next stored value to place, from its end.
                    let mut k = end;
                    for j in (0..dim).rev() {
                        let dest = i * dim + j;
                        if k > start && indices[k - 1] as usize == j {
                            k -= 1;
                            // As `to_dense`'s `0 + v`: a stored -0 becomes 0.
                            values[dest] = 0.0 + values[k];
                        } else {
                            values[dest] = 0.0;
                        }
                    }
                }
                values
            }
        };
        Dataset {
            dim,
            storage: Storage::Dense { values },
            labels,
        }
    }

    /// A dense copy (a no-op clone when already dense).
    pub fn to_dense(&self) -> Dataset {
        if !self.is_sparse() {
            return self.clone();
        }
        let mut values = vec![0.0; self.n() * self.dim];
        for (i, (row, _)) in self.iter().enumerate() {
            row.write_dense(&mut values[i * self.dim..(i + 1) * self.dim]);
        }
        Dataset {
            dim: self.dim,
            storage: Storage::Dense { values },
            labels: self.labels.clone(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;
    use Label::{Neg, Pos};

    #[test]
    fn stored_values_are_mapped_in_place_and_non_finite_results_refused() {
        let sparse = small_sparse();
        let dense = sparse.to_dense();
        let f = |j: usize, v: f64| 10.0 * j as f64 + v;
        // Sparse: only the stored entries move; dense: every cell.
        let want_sparse: Vec<f64> = sparse
            .iter()
            .flat_map(|(x, _)| match x {
                Row::Sparse(s) => s
                    .indices()
                    .iter()
                    .zip(s.values())
                    .map(|(&j, &v)| f(j as usize, v))
                    .collect::<Vec<_>>(),
                Row::Dense(_) => unreachable!(),
            })
            .collect();
        let mapped = sparse.clone().map_stored_values(f).unwrap();
        let Storage::Sparse { values, .. } = mapped.storage() else {
            panic!("stays sparse")
        };
        assert_eq!(values, &want_sparse);
        assert_eq!(mapped.labels(), sparse.labels());
        let mapped = dense.clone().map_stored_values(f).unwrap();
        for (i, (x, _)) in mapped.iter().enumerate() {
            let Row::Dense(x) = x else {
                panic!("stays dense")
            };
            let Row::Dense(old) = dense.row(i) else {
                panic!("dense")
            };
            for (j, (&v, &o)) in x.iter().zip(old).enumerate() {
                assert_eq!(v, f(j, o));
            }
        }
        // Row (0, -3, 0) holds the third stored entry: feature 1 of row 2.
        let bad = |j: usize, v: f64| if v < 0.0 { f64::NAN } else { v + j as f64 };
        assert_eq!(
            sparse.map_stored_values(bad),
            Err(DatasetError::NonFinite { row: 2, feature: 1 })
        );
        assert_eq!(
            dense.map_stored_values(bad),
            Err(DatasetError::NonFinite { row: 2, feature: 1 })
        );
    }

    /// Sparse rows from `(feature, value)` lists, labels alternating from positive.
    fn sparse_rows(dim: usize, rows: &[Vec<(u32, f64)>]) -> Dataset {
        let ends = rows.iter().scan(0, |end, r| {
            *end += r.len();
            Some(*end)
        });
        let indptr = std::iter::once(0).chain(ends).collect();
        let (indices, values) = rows.iter().flatten().copied().unzip();
        let labels = (0..rows.len()).map(|i| [Pos, Neg][i % 2]).collect();
        Dataset::sparse(dim, indptr, indices, values, labels).unwrap()
    }

    #[test]
    fn densified_in_place_equals_the_dense_copy() {
        // Rows of every shape: empty, full, a value at the first or last feature only.
        let full: Vec<(u32, f64)> = (0..4).map(|j| (j, f64::from(j) + 0.5)).collect();
        let cases = [
            sparse_rows(4, &[vec![], full.clone(), vec![(0, -1.0)], vec![(3, 2.0)]]),
            sparse_rows(4, &[full.clone(), full.clone()]),
            sparse_rows(4, &[vec![(3, 7.0)], vec![], vec![]]),
            sparse_rows(4, &[vec![(1, -0.0), (2, 3.0)], vec![(0, 1.0), (3, 1.0)]]),
            sparse_rows(1, &[vec![], vec![(0, 9.0)]]),
            sparse_rows(0, &[vec![], vec![]]),
            sparse_rows(3, &[]),
            small_sparse(),
        ];
        for d in cases {
            let want = d.to_dense();
            let got = d.clone().into_dense();
            let Storage::Dense { values: w } = want.storage() else {
                panic!("dense")
            };
            let Storage::Dense { values: g } = got.storage() else {
                panic!("dense")
            };
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(g), bits(w), "{d:?}");
            assert_eq!(got, want);
            // Already dense: the same values, moved.
            assert_eq!(want.clone().into_dense(), want);
        }
    }

    fn small_sparse() -> Dataset {
        // Rows: (1, 0, 2), (0, 0, 0), (0, -3, 0).
        Dataset::sparse(
            3,
            vec![0, 2, 2, 3],
            vec![0, 2, 1],
            vec![1.0, 2.0, -3.0],
            vec![Pos, Neg, Neg],
        )
        .unwrap()
    }

    #[test]
    fn sparse_and_dense_storage_give_the_same_rows() {
        let s = small_sparse();
        let d = s.to_dense();
        assert!(!d.is_sparse());
        for i in 0..3 {
            let mut a = [0.0; 3];
            s.row(i).write_dense(&mut a);
            assert_eq!(d.row(i), Row::Dense(&a));
        }
        assert_eq!(s.class_counts(), (1, 2));
        assert_eq!(s.nnz(), 3);
        assert_eq!(d.nnz(), 3);
        assert!((s.density() - 3.0 / 9.0).abs() < 1e-15);
    }

    #[test]
    fn select_reorders_and_repeats() {
        let s = small_sparse();
        let t = s.select(&[2, 0, 2]);
        assert_eq!(t.labels(), &[Neg, Pos, Neg]);
        assert_eq!(t.row(1).get(2), 2.0);
        assert_eq!(t.row(2).get(1), -3.0);
        let d = s.to_dense().select(&[2, 0, 2]);
        assert_eq!(d, t.to_dense());
    }

    #[test]
    fn constructors_reject_bad_arrays() {
        assert!(matches!(
            Dataset::dense(2, vec![1.0; 3], vec![Pos, Neg]),
            Err(DatasetError::Shape {
                expected: 4,
                found: 3,
                ..
            })
        ));
        assert_eq!(
            Dataset::dense(2, vec![1.0, 1.0, f64::INFINITY, 0.0], vec![Pos, Neg]),
            Err(DatasetError::NonFinite { row: 1, feature: 0 })
        );
        assert_eq!(
            Dataset::sparse(3, vec![0, 2], vec![1, 1], vec![1.0, 1.0], vec![Pos]),
            Err(DatasetError::BadIndex {
                row: 0,
                index: 1,
                dim: 3
            })
        );
        assert_eq!(
            Dataset::sparse(3, vec![0, 1], vec![3], vec![1.0], vec![Pos]),
            Err(DatasetError::BadIndex {
                row: 0,
                index: 3,
                dim: 3
            })
        );
    }

    #[test]
    fn with_dim_pads_dense_rows() {
        let d = Dataset::dense(2, vec![1.0, 2.0, 3.0, 4.0], vec![Pos, Neg])
            .unwrap()
            .with_dim(3);
        assert_eq!(d.row(1), Row::Dense(&[3.0, 4.0, 0.0]));
        let s = small_sparse().with_dim(5);
        assert_eq!(s.dim(), 5);
        assert_eq!(s.to_dense().row(0), Row::Dense(&[1.0, 0.0, 2.0, 0.0, 0.0]));
    }
}
