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

/// Eigenvalues of a symmetric p x p matrix (row-major) by cyclic Jacobi rotations.
pub fn symmetric_eigenvalues(p: usize, mut a: Vec<f64>) -> Vec<f64> {
    for _sweep in 0..100 {
        let off: f64 = (0..p)
            .flat_map(|i| (0..p).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * p + j] * a[i * p + j])
            .sum();
        let diag: f64 = (0..p).map(|i| a[i * p + i] * a[i * p + i]).sum();
        if off <= 1e-32 * diag || off == 0.0 {
            break;
        }
        for k in 0..p {
            for l in k + 1..p {
                let akl = a[k * p + l];
                if akl == 0.0 {
                    continue;
                }
                // Rotation that zeroes a[k][l] (Golub and Van Loan, sym. Schur 2x2).
                let theta = (a[l * p + l] - a[k * p + k]) / (2.0 * akl);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for r in 0..p {
                    let (ark, arl) = (a[r * p + k], a[r * p + l]);
                    a[r * p + k] = c * ark - s * arl;
                    a[r * p + l] = s * ark + c * arl;
                }
                for r in 0..p {
                    let (akr, alr) = (a[k * p + r], a[l * p + r]);
                    a[k * p + r] = c * akr - s * alr;
                    a[l * p + r] = s * akr + c * alr;
                }
            }
        }
    }
    (0..p).map(|i| a[i * p + i]).collect()
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
