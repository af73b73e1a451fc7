//! Sparse rows much narrower than their dimension (a polynomial map of one-hot indicators,
//! hashed features): their class moments from raw sums of each row's $t(t+1)/2$ products
//! instead of dense block products of $p^2$ ([`SparseBlock`]), for [`crate::moments_of`] and
//! the moment summaries of `auc-learners`.

use auc_core::Row;
use auc_stats::ClassMoments;

/// The smallest dimension at which a sparse row is gathered in a [`SparseBlock`]: below it a
/// dense block product costs little whatever the density.
pub const SPARSE_MIN_DIM: usize = 512;

/// Rows per [`SparseBlock`]: each block pays one $O(p^2)$ correction by its mean.
pub const SPARSE_BLOCK_ROWS: usize = 4096;

/// Whether a row of a `p`-feature summary is taken by a [`SparseBlock`]: a sparse row of fewer
/// than $p/4$ non-zeros, $p \ge$ [`SPARSE_MIN_DIM`], where its $t(t+1)/2$ products cost less
/// than its share of a dense block product.
pub fn is_narrow(x: Row<'_>, p: usize) -> bool {
    matches!(x, Row::Sparse(_)) && p >= SPARSE_MIN_DIM && x.nnz().saturating_mul(4) < p
}

/// Sparse rows of one class awaiting their moments (CSR).
#[derive(Clone, Debug, Default)]
pub struct SparseBlock {
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f64>,
}

impl SparseBlock {
    /// Appends a row's stored entries.
    pub fn push(&mut self, x: Row<'_>) {
        if self.indptr.is_empty() {
            self.indptr.push(0);
        }
        x.for_each(|j, v| {
            self.indices.push(j as u32);
            self.values.push(v);
        });
        self.indptr.push(self.indices.len());
    }

    /// The rows held.
    pub fn rows(&self) -> usize {
        self.indptr.len().saturating_sub(1)
    }

    /// Empties it, keeping its storage.
    pub fn clear(&mut self) {
        self.indptr.clear();
        self.indices.clear();
        self.values.clear();
    }

    /// The moments of its rows (at least one) on `p` features: the co-moment is
    /// $\sum_i x_i x_i^\top - k\, m m^\top$ with $\sum_i x_i x_i^\top$ from each row's
    /// stored entries. Exact up to rounding; the raw sum loses to cancellation only where a
    /// feature's mean is large against its spread within the block, which bounded sparse
    /// features (indicators, their products) do not reach: tested against Welford's updates
    /// at $10^{-12}$ (`tests/batch_moments.rs`).
    pub fn moments(&self, p: usize) -> ClassMoments {
        let k = self.rows();
        let mut mean = vec![0.0; p];
        let mut packed = vec![0.0; p * (p + 1) / 2];
        // Row i of the packed upper triangle starts at i p - i (i - 1) / 2.
        let start = |i: usize| i * p - i * i.saturating_sub(1) / 2;
        for r in 0..k {
            let (a, b) = (self.indptr[r], self.indptr[r + 1]);
            let (idx, val) = (&self.indices[a..b], &self.values[a..b]);
            for (t, (&i, &xi)) in idx.iter().zip(val).enumerate() {
                let i = i as usize;
                mean[i] += xi;
                let row = start(i);
                for (&j, &xj) in idx[t..].iter().zip(&val[t..]) {
                    packed[row + j as usize - i] += xi * xj;
                }
            }
        }
        let inv = 1.0 / k as f64;
        mean.iter_mut().for_each(|m| *m *= inv);
        let kf = k as f64;
        let support: Vec<usize> = (0..p).filter(|&j| mean[j] != 0.0).collect();
        for (a, &i) in support.iter().enumerate() {
            let row = start(i);
            let km = kf * mean[i];
            for &j in &support[a..] {
                packed[row + j - i] -= km * mean[j];
            }
            packed[row] = packed[row].max(0.0);
        }
        match ClassMoments::from_parts(k as u64, mean, packed) {
            Ok(m) => m,
            // Products that overflow: Welford's updates carry them on, and
            // [`PairProblem::new`] refuses the non-finite moments (as for dense blocks).
            Err(_) => {
                let mut m = ClassMoments::new(p);
                for r in 0..k {
                    let (a, b) = (self.indptr[r], self.indptr[r + 1]);
                    m.update(Row::Sparse(auc_core::SparseRow::new(
                        &self.indices[a..b],
                        &self.values[a..b],
                    )));
                }
                m
            }
        }
    }
}
