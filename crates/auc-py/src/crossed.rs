//! The estimators' `cross_hash_bits=`: feature crosses of array rows, as the CLI's
//! `--cross-hash-bits` crosses the hashed features of a file's rows ([`auc_data::Crosses`],
//! docs/math/crosses.md). The array's `p` columns play the part of the $2^B$ hashed features:
//! each row keeps its columns at $[0, p)$ and gains the products of its pairs of non-zeros at
//! $p + (\mathrm{fmix64}(i \cdot 2^{32} + j) \bmod 2^C)$, so a model's rows have $p + 2^C$
//! features and `auc predict` reads LIBSVM files of `p` features with the same crosses.
//!
//! Unlike the rows lent from numpy, crossed rows are a copy (CSR, built once per call): the
//! crosses of one row are made in a buffer reused from row to row, but the matrix they make is
//! new memory, about `n` times the pairs of a row.

use auc_core::Row;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::input::{Idx, Rows, Vals};

/// Rows with their crosses, as an owned CSR matrix.
pub(crate) struct Crossed {
    data: Vec<f64>,
    indices: Vec<i64>,
    indptr: Vec<i64>,
    dim: usize,
}

/// Checks `cross_hash_bits` for arrays of `dim` columns: 1 to [`auc_data::MAX_CROSS_BITS`],
/// and `dim + 2^C` at most $2^{32}$.
pub(crate) fn check_bits(bits: u8, dim: usize) -> PyResult<()> {
    let max = auc_data::MAX_CROSS_BITS;
    if !(1..=max).contains(&bits) || (dim as u64).saturating_add(1u64 << bits) > 1u64 << 32 {
        return Err(PyValueError::new_err(format!(
            "cross_hash_bits must be an integer from 1 to {max} (with the columns, fewer than 2^32 features), not {bits}"
        )));
    }
    Ok(())
}

impl Crossed {
    /// `rows` with their crosses into `2^bits` buckets after their columns (`bits` checked by
    /// [`check_bits`]). A row of more than [`auc_data::MAX_CROSS_NNZ`] non-zeros, or whose
    /// crosses overflow, is an error naming it.
    pub(crate) fn new(rows: &Rows<'_>, bits: u8) -> Result<Crossed, String> {
        let mut crosses = auc_data::Crosses::new(rows.dim(), bits);
        let mut scratch = crate::input::Scratch::default();
        let (mut idx, mut vals): (Vec<u32>, Vec<f64>) = (Vec::new(), Vec::new());
        let mut indptr = Vec::with_capacity(rows.n() + 1);
        indptr.push(0i64);
        for i in 0..rows.n() {
            let start = idx.len();
            let x: Row<'_> = rows.row(i, &mut scratch);
            x.for_each(|j, v| {
                if v != 0.0 {
                    // Below the column count, which is below 2^32 (checked).
                    idx.push(j as u32);
                    vals.push(v);
                }
            });
            crosses
                .append(&mut idx, &mut vals, start)
                .map_err(|e| format!("row {i}: {e}"))?;
            indptr.push(idx.len() as i64);
        }
        Ok(Crossed {
            data: vals,
            indices: idx.into_iter().map(i64::from).collect(),
            indptr,
            dim: crosses.dim(),
        })
    }

    /// The crossed rows, walked as any CSR matrix.
    pub(crate) fn rows(&self) -> Rows<'_> {
        Rows::Csr {
            data: Vals::F64(&self.data),
            indices: Idx::I64(&self.indices),
            indptr: Idx::I64(&self.indptr),
            dim: self.dim,
        }
    }
}

/// `rows` crossed as `bits` says, or `None` without crosses.
pub(crate) fn cross(rows: &Rows<'_>, bits: Option<u8>) -> PyResult<Option<Crossed>> {
    match bits {
        None => Ok(None),
        Some(b) => {
            check_bits(b, rows.dim())?;
            Crossed::new(rows, b)
                .map(Some)
                .map_err(PyValueError::new_err)
        }
    }
}
