//! Feature matrices borrowed from Python without copies: numpy float64/float32 arrays in any
//! memory order, and the three arrays of a CSR matrix (scipy.sparse, int32 or int64 indices).
//!
//! [`Borrowed`] holds the numpy borrows (it needs the GIL); [`Rows`] is the plain view taken
//! from it, which is `Send` and is what the GIL-free code walks. A C-ordered float64 row and a
//! CSR row with float64 values and int32 indices are handed to the learners as they lie in
//! numpy's memory; anything else (float32, Fortran order, int64 indices) is converted one row
//! at a time into a scratch buffer, so no whole copy of the matrix is ever made.

use auc_core::{Dataset, Label, Row, SparseRow};
use numpy::ndarray::{ArrayView2, Axis};
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A dense array's borrow.
pub(crate) enum Dense<'py> {
    /// float64.
    F64(PyReadonlyArray2<'py, f64>),
    /// float32.
    F32(PyReadonlyArray2<'py, f32>),
}

/// A 1-D array of values.
pub(crate) enum Values<'py> {
    /// float64.
    F64(PyReadonlyArray1<'py, f64>),
    /// float32.
    F32(PyReadonlyArray1<'py, f32>),
}

/// A 1-D array of indices.
pub(crate) enum Indices<'py> {
    /// int32 (scipy's default).
    I32(PyReadonlyArray1<'py, i32>),
    /// int64.
    I64(PyReadonlyArray1<'py, i64>),
}

/// A feature matrix as Python passed it: a 2-D array, or `("csr", data, indices, indptr,
/// n_features)`.
pub(crate) enum Borrowed<'py> {
    /// A dense matrix.
    Dense(Dense<'py>),
    /// A CSR matrix.
    Csr {
        /// Values.
        data: Values<'py>,
        /// Column indices, sorted within each row.
        indices: Indices<'py>,
        /// Row pointers.
        indptr: Indices<'py>,
        /// Columns.
        dim: usize,
    },
}

fn values<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Values<'py>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, f64>>() {
        Ok(Values::F64(a))
    } else if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, f32>>() {
        Ok(Values::F32(a))
    } else {
        Err(PyTypeError::new_err(
            "sparse values must be a 1-D float64 or float32 array",
        ))
    }
}

fn indices<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Indices<'py>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, i32>>() {
        Ok(Indices::I32(a))
    } else if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, i64>>() {
        Ok(Indices::I64(a))
    } else {
        Err(PyTypeError::new_err(format!(
            "sparse {what} must be a 1-D int32 or int64 array"
        )))
    }
}

impl<'py> Borrowed<'py> {
    /// Borrows a 2-D float array or a `("csr", data, indices, indptr, n_features)` tuple.
    pub(crate) fn extract(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(t) = obj.cast::<PyTuple>() {
            if t.len() != 5 || t.get_item(0)?.extract::<String>()? != "csr" {
                return Err(PyTypeError::new_err(
                    "a sparse matrix is passed as (\"csr\", data, indices, indptr, n_features)",
                ));
            }
            return Ok(Borrowed::Csr {
                data: values(&t.get_item(1)?)?,
                indices: indices(&t.get_item(2)?, "indices")?,
                indptr: indices(&t.get_item(3)?, "indptr")?,
                dim: t.get_item(4)?.extract()?,
            });
        }
        if let Ok(a) = obj.extract::<PyReadonlyArray2<'py, f64>>() {
            Ok(Borrowed::Dense(Dense::F64(a)))
        } else if let Ok(a) = obj.extract::<PyReadonlyArray2<'py, f32>>() {
            Ok(Borrowed::Dense(Dense::F32(a)))
        } else {
            Err(PyTypeError::new_err(
                "X must be a 2-D float64 or float32 numpy array or a CSR matrix",
            ))
        }
    }

    /// The view the GIL-free code reads.
    pub(crate) fn rows(&self) -> PyResult<Rows<'_>> {
        let contiguous = |e: numpy::AsSliceError| PyValueError::new_err(e.to_string());
        Ok(match self {
            Borrowed::Dense(Dense::F64(a)) => Rows::DenseF64(a.as_array()),
            Borrowed::Dense(Dense::F32(a)) => Rows::DenseF32(a.as_array()),
            Borrowed::Csr {
                data,
                indices,
                indptr,
                dim,
            } => {
                let data = match data {
                    Values::F64(a) => Vals::F64(a.as_slice().map_err(contiguous)?),
                    Values::F32(a) => Vals::F32(a.as_slice().map_err(contiguous)?),
                };
                let rows = Rows::Csr {
                    data,
                    indices: idx(indices)?,
                    indptr: idx(indptr)?,
                    dim: *dim,
                };
                rows.check_csr().map_err(PyValueError::new_err)?;
                rows
            }
        })
        .and_then(|rows| rows.check_finite().map(|()| rows))
    }
}

/// The slice of an index array.
fn idx<'b>(i: &'b Indices<'_>) -> PyResult<Idx<'b>> {
    let contiguous = |e: numpy::AsSliceError| PyValueError::new_err(e.to_string());
    Ok(match i {
        Indices::I32(a) => Idx::I32(a.as_slice().map_err(contiguous)?),
        Indices::I64(a) => Idx::I64(a.as_slice().map_err(contiguous)?),
    })
}

/// Values of a CSR matrix.
#[derive(Clone, Copy)]
pub(crate) enum Vals<'a> {
    F64(&'a [f64]),
    F32(&'a [f32]),
}

/// Indices of a CSR matrix.
#[derive(Clone, Copy)]
pub(crate) enum Idx<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
}

impl Idx<'_> {
    /// Number of entries.
    pub(crate) fn len(self) -> usize {
        match self {
            Idx::I32(a) => a.len(),
            Idx::I64(a) => a.len(),
        }
    }

    /// Entry `k`.
    pub(crate) fn get(self, k: usize) -> i64 {
        match self {
            Idx::I32(a) => i64::from(a[k]),
            Idx::I64(a) => a[k],
        }
    }
}

/// A borrowed feature matrix, walked row by row without the GIL.
#[derive(Clone, Copy)]
pub(crate) enum Rows<'a> {
    /// Dense float64, any strides.
    DenseF64(ArrayView2<'a, f64>),
    /// Dense float32, any strides.
    DenseF32(ArrayView2<'a, f32>),
    /// CSR, checked by [`Rows::check_csr`].
    Csr {
        data: Vals<'a>,
        indices: Idx<'a>,
        indptr: Idx<'a>,
        dim: usize,
    },
}

/// Reused buffers for rows that cannot be lent as they lie.
#[derive(Default)]
pub(crate) struct Scratch {
    values: Vec<f64>,
    indices: Vec<u32>,
}

impl<'a> Rows<'a> {
    /// Number of rows.
    pub(crate) fn n(&self) -> usize {
        match self {
            Rows::DenseF64(a) => a.nrows(),
            Rows::DenseF32(a) => a.nrows(),
            Rows::Csr { indptr, .. } => indptr.len().saturating_sub(1),
        }
    }

    /// Number of features.
    pub(crate) fn dim(&self) -> usize {
        match self {
            Rows::DenseF64(a) => a.ncols(),
            Rows::DenseF32(a) => a.ncols(),
            Rows::Csr { dim, .. } => *dim,
        }
    }

    /// Whether the matrix is sparse.
    pub(crate) fn is_sparse(&self) -> bool {
        matches!(self, Rows::Csr { .. })
    }

    /// Checks a CSR matrix: row pointers start at 0, never decrease and end at the number of
    /// stored values; indices are in range and strictly increase within a row.
    fn check_csr(&self) -> Result<(), String> {
        let Rows::Csr {
            data,
            indices,
            indptr,
            dim,
        } = *self
        else {
            return Ok(());
        };
        let nnz = match data {
            Vals::F64(v) => v.len(),
            Vals::F32(v) => v.len(),
        };
        if indices.len() != nnz {
            return Err(format!(
                "the CSR matrix has {nnz} values but {} indices",
                indices.len()
            ));
        }
        if indptr.len() == 0 || indptr.get(0) != 0 || indptr.get(indptr.len() - 1) != nnz as i64 {
            return Err(
                "the CSR row pointers must start at 0 and end at the number of values".into(),
            );
        }
        if dim > u32::MAX as usize {
            return Err(format!("{dim} features are more than 2^32"));
        }
        for r in 0..indptr.len() - 1 {
            let (a, b) = (indptr.get(r), indptr.get(r + 1));
            if b < a {
                return Err(format!("the CSR row pointers decrease at row {r}"));
            }
            let mut prev = -1i64;
            for k in a as usize..b as usize {
                let j = indices.get(k);
                if j <= prev || j >= dim as i64 {
                    return Err(format!(
                        "row {r}: column index {j} is out of range [0, {dim}) or not increasing (sort the indices and sum duplicates first)"
                    ));
                }
                prev = j;
            }
        }
        Ok(())
    }

    /// Checks that every stored value is finite, naming the first that is not.
    fn check_finite(&self) -> PyResult<()> {
        match self.first_where(|v| !v.is_finite()) {
            None => Ok(()),
            Some((i, j, v)) => Err(PyValueError::new_err(format!(
                "Input X contains NaN or infinity: row {i}, column {j} is {v}"
            ))),
        }
    }

    /// Checks that no stored value is above [`auc_data::MAX_BOUNDED_VALUE`] in magnitude, as
    /// the CLI reads data it learns from unscaled or as raw moments
    /// ([`auc_data::ReadOptions::bounded_values`]): a larger value's square summed over rows
    /// overflows. `why` says what learns from the values as they are.
    pub(crate) fn check_bounded(&self, why: &str) -> PyResult<()> {
        let limit = auc_data::MAX_BOUNDED_VALUE;
        match self.first_where(|v| v.abs() > limit) {
            None => Ok(()),
            Some((i, j, v)) => Err(PyValueError::new_err(format!(
                "row {i}, column {j} is {v:e}: above {limit:e} in magnitude, where its square summed over rows overflows ({why}): scale or divide the feature"
            ))),
        }
    }

    /// The first stored value (row, column, value) for which `bad` holds, in storage order.
    fn first_where(&self, bad: impl Fn(f64) -> bool) -> Option<(usize, i64, f64)> {
        match *self {
            Rows::DenseF64(a) => a
                .indexed_iter()
                .find(|(_, v)| bad(**v))
                .map(|((i, j), v)| (i, j as i64, *v)),
            Rows::DenseF32(a) => a
                .indexed_iter()
                .find(|(_, v)| bad(f64::from(**v)))
                .map(|((i, j), v)| (i, j as i64, f64::from(*v))),
            Rows::Csr {
                data,
                indices,
                indptr,
                ..
            } => {
                let k = match data {
                    Vals::F64(v) => v.iter().position(|x| bad(*x)),
                    Vals::F32(v) => v.iter().position(|x| bad(f64::from(*x))),
                };
                k.map(|k| {
                    let row = (0..indptr.len() - 1)
                        .find(|&r| (indptr.get(r + 1) as usize) > k)
                        .unwrap_or(0);
                    let v = match data {
                        Vals::F64(v) => v[k],
                        Vals::F32(v) => f64::from(v[k]),
                    };
                    (row, indices.get(k), v)
                })
            }
        }
    }

    /// Calls `f(i, row)` for every row in order; rows that lie in numpy's memory as the
    /// learners read them are lent, others are converted into `scratch`.
    pub(crate) fn for_each(&self, scratch: &mut Scratch, mut f: impl FnMut(usize, Row<'_>)) {
        for i in 0..self.n() {
            f(i, self.row(i, scratch));
        }
    }

    /// Row `i`, lent or converted into `scratch`.
    pub(crate) fn row<'s>(&self, i: usize, scratch: &'s mut Scratch) -> Row<'s>
    where
        'a: 's,
    {
        match *self {
            Rows::DenseF64(a) => {
                let r = a.index_axis_move(Axis(0), i);
                match r.to_slice() {
                    Some(s) => Row::Dense(s),
                    None => {
                        scratch.values.clear();
                        scratch.values.extend(r.iter().copied());
                        Row::Dense(&scratch.values)
                    }
                }
            }
            Rows::DenseF32(a) => {
                scratch.values.clear();
                scratch
                    .values
                    .extend(a.row(i).iter().map(|&v| f64::from(v)));
                Row::Dense(&scratch.values)
            }
            Rows::Csr {
                data,
                indices,
                indptr,
                ..
            } => {
                let (lo, hi) = (indptr.get(i) as usize, indptr.get(i + 1) as usize);
                let vals: &'s [f64] = match data {
                    Vals::F64(v) => &v[lo..hi],
                    Vals::F32(v) => {
                        scratch.values.clear();
                        scratch
                            .values
                            .extend(v[lo..hi].iter().map(|&x| f64::from(x)));
                        &scratch.values
                    }
                };
                let idx: &'s [u32] = match indices {
                    // Non-negative (checked), so the bits are the same number as u32.
                    Idx::I32(a) => bytemuck::cast_slice(&a[lo..hi]),
                    Idx::I64(a) => {
                        scratch.indices.clear();
                        scratch.indices.extend(a[lo..hi].iter().map(|&j| j as u32));
                        &scratch.indices
                    }
                };
                Row::Sparse(SparseRow::new(idx, vals))
            }
        }
    }

    /// An owned dataset of these rows (for batch learners and the evaluation protocol, which
    /// take a [`Dataset`]): dense stays dense, CSR stays CSR.
    pub(crate) fn collect(&self, labels: Vec<Label>) -> Result<Dataset, String> {
        self.collect_range(0..self.n(), labels)
    }

    /// An owned dataset of the rows in `range` (dense stays dense, CSR stays CSR), with
    /// `labels` (one per row of the range).
    pub(crate) fn collect_range(
        &self,
        range: std::ops::Range<usize>,
        labels: Vec<Label>,
    ) -> Result<Dataset, String> {
        let dim = self.dim();
        let mut scratch = Scratch::default();
        let made = if self.is_sparse() {
            let mut indptr = Vec::with_capacity(range.len() + 1);
            let (mut idx, mut vals) = (Vec::new(), Vec::new());
            indptr.push(0);
            for i in range {
                if let Row::Sparse(s) = self.row(i, &mut scratch) {
                    idx.extend_from_slice(s.indices());
                    vals.extend_from_slice(s.values());
                }
                indptr.push(idx.len());
            }
            Dataset::sparse(dim, indptr, idx, vals, labels)
        } else {
            let mut vals = Vec::with_capacity(range.len() * dim);
            for i in range {
                if let Row::Dense(d) = self.row(i, &mut scratch) {
                    vals.extend_from_slice(d);
                }
            }
            Dataset::dense(dim, vals, labels)
        };
        made.map_err(|e| e.to_string())
    }
}

/// Labels from a boolean array (`True` = the positive class).
pub(crate) fn labels(y: &PyReadonlyArray1<'_, bool>, n: usize) -> PyResult<Vec<Label>> {
    let y = y.as_array();
    if y.len() != n {
        return Err(PyValueError::new_err(format!(
            "X has {n} rows but y has {} labels",
            y.len()
        )));
    }
    Ok(y.iter()
        .map(|&p| if p { Label::Pos } else { Label::Neg })
        .collect())
}

impl auc_train::RowSource for Rows<'_> {
    fn n(&self) -> usize {
        Rows::n(self)
    }

    fn dim(&self) -> usize {
        Rows::dim(self)
    }

    fn is_sparse(&self) -> bool {
        Rows::is_sparse(self)
    }

    fn pass(&self, pass: &mut auc_train::RowPass<'_>) {
        let ahead = pass.ahead();
        let mut scratch = Scratch::default();
        let mut next = Scratch::default();
        let n = Rows::n(self);
        if ahead {
            for i in 0..n {
                let row = self.row(i, &mut scratch);
                if i + 1 < n {
                    pass.prefetch(self.row(i + 1, &mut next));
                }
                pass.row(i, row);
            }
        } else {
            for i in 0..n {
                let row = self.row(i, &mut scratch);
                pass.row(i, row);
            }
        }
    }

    fn dataset(&self, labels: Vec<Label>) -> Result<Dataset, auc_train::Error> {
        self.collect(labels).map_err(auc_train::Error::input)
    }
}
