//! Tolerances and proptest strategies shared by the workspace's tests (feature `testing`).

/// Floating-point comparison with an absolute and a relative tolerance.
pub mod tol {
    /// Absolute tolerance of [`close`]: below this, differences are rounding noise.
    pub const ABS: f64 = 1e-12;
    /// Relative tolerance of [`close`]: a few thousand ulps, room for re-associated sums.
    pub const REL: f64 = 1e-9;

    /// `|a - b| <= ABS + REL * max(|a|, |b|)`.
    pub fn close(a: f64, b: f64) -> bool {
        close_with(a, b, ABS, REL)
    }

    /// `|a - b| <= abs + rel * max(|a|, |b|)`.
    pub fn close_with(a: f64, b: f64, abs: f64, rel: f64) -> bool {
        (a - b).abs() <= abs + rel * a.abs().max(b.abs())
    }
}

use proptest::prelude::*;

use crate::{Dataset, Label, SparseVec};

/// Finite floats in `[lo, hi]`.
pub fn finite(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    lo..=hi
}

/// A sparse vector over `dim` features with at most `max_nnz` stored values in `[-1, 1]`.
pub fn sparse_row(dim: u32, max_nnz: usize) -> impl Strategy<Value = SparseVec> {
    proptest::collection::btree_map(0..dim.max(1), -1.0f64..=1.0, 0..=max_nnz)
        .prop_map(|m| SparseVec::from_pairs(m).expect("btree keys increase"))
}

/// The CSR dataset of `rows` over `dim` features, in order.
pub fn sparse_dataset(rows: &[(SparseVec, Label)], dim: usize) -> Dataset {
    let mut indptr = vec![0];
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    for (x, _) in rows {
        indices.extend_from_slice(x.view().indices());
        values.extend_from_slice(x.view().values());
        indptr.push(indices.len());
    }
    let labels = rows.iter().map(|(_, y)| *y).collect();
    Dataset::sparse(dim, indptr, indices, values, labels).expect("rows within dim")
}

/// A dense dataset with `p` in `dims` and `n` in `ns` rows, values in `[-1, 1]`, holding both
/// classes (the first row is positive and the second negative; `n >= 2` is enforced).
pub fn dense_problem(
    dims: std::ops::Range<usize>,
    ns: std::ops::Range<usize>,
) -> impl Strategy<Value = Dataset> {
    (dims, ns).prop_flat_map(|(p, n)| {
        let n = n.max(2);
        (
            proptest::collection::vec(-1.0f64..=1.0, n * p),
            proptest::collection::vec(any::<bool>(), n),
        )
            .prop_map(move |(values, pos)| {
                let labels = pos
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| match i {
                        0 => Label::Pos,
                        1 => Label::Neg,
                        _ if b => Label::Pos,
                        _ => Label::Neg,
                    })
                    .collect();
                Dataset::dense(p, values, labels).expect("finite values of the right shape")
            })
    })
}

/// Eigenvalues of a symmetric p x p matrix (row-major), in nondecreasing order, by faer's
/// self-adjoint eigenvalue decomposition (only the lower triangle is read).
///
/// # Panics
/// If `a` does not hold p x p values, or the decomposition does not converge (it does on any
/// finite symmetric matrix).
pub fn symmetric_eigenvalues(p: usize, a: Vec<f64>) -> Vec<f64> {
    assert_eq!(a.len(), p * p, "a {p} x {p} matrix has {} values", p * p);
    faer::MatRef::from_row_major_slice(&a, p, p)
        .self_adjoint_eigenvalues(faer::Side::Lower)
        .expect("the eigenvalues of a finite symmetric matrix converge")
}

/// A one-pass training procedure built from a closure `(dim, seed) -> learner`, for tests of
/// the protocol that need a learner without declaring a registered parameter type.
pub struct OnlineFit<F>(pub F);

impl<F, L> crate::DynFit for OnlineFit<F>
where
    F: Fn(usize, u64) -> Result<L, crate::ParamError> + Send + Sync,
    L: crate::OnlineLearner + Send + Sync + 'static,
{
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<crate::BoxedModel, crate::FitError> {
        let mut l = (self.0)(train.dim(), seed)?;
        for (x, y) in train.iter() {
            l.update(x, y);
        }
        Ok(Box::new(l))
    }

    fn online(
        &self,
        dim: usize,
        seed: u64,
    ) -> Option<Result<Box<dyn crate::OnlineLearner + Send>, crate::ParamError>> {
        Some((self.0)(dim, seed).map(|l| Box::new(l) as Box<dyn crate::OnlineLearner + Send>))
    }
}
