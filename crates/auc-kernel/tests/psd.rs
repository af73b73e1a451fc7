//! Every kernel's Gram matrix is positive semidefinite on random point sets: $v^\top K v \ge 0$.

use auc_core::testing::tol;
use auc_core::{Row, SparseVec};
use auc_kernel::{Cached, Gaussian, Kernel, LinearKernel, Polynomial};
use proptest::prelude::*;

/// `v' K v` for the Gram matrix of `rows` under `k`.
fn quad(k: &dyn Kernel, rows: &[Vec<f64>], v: &[f64]) -> (f64, f64) {
    let cached: Vec<Cached<'_>> = rows.iter().map(|r| Cached::new(Row::Dense(r))).collect();
    let (mut q, mut scale) = (0.0, 0.0);
    for (i, a) in cached.iter().enumerate() {
        for (j, b) in cached.iter().enumerate() {
            let kij = k.eval(a, b);
            q += v[i] * v[j] * kij;
            scale += (v[i] * v[j] * kij).abs();
        }
    }
    (q, scale)
}

proptest! {
    /// Gram matrices of the Gaussian, linear and polynomial kernels are positive semidefinite,
    /// up to rounding of the n^2-term sum (relative to the sum of absolute terms).
    #[test]
    fn gram_matrices_are_positive_semidefinite(
        (rows, v) in (1usize..8, 1usize..5).prop_flat_map(|(n, p)| (
            proptest::collection::vec(proptest::collection::vec(-2.0f64..2.0, p), n),
            proptest::collection::vec(-1.0f64..1.0, n),
        )),
        sigma in 0.1f64..5.0,
    ) {
        let kernels: [&dyn Kernel; 3] =
            [&Gaussian::new(sigma).unwrap(), &LinearKernel, &Polynomial::new(2.0, 0.5, 1.0).unwrap()];
        for k in kernels {
            let (q, scale) = quad(k, &rows, &v);
            prop_assert!(q >= -1e-12 * scale.max(1.0), "v'Kv = {q}");
        }
    }

    /// Kernel values are symmetric and the Gaussian's lie in [0, 1] and match the direct
    /// formula, on sparse rows too.
    #[test]
    fn kernels_are_symmetric_and_gaussian_bounded(
        a in auc_core::testing::sparse_row(20, 6),
        b in auc_core::testing::sparse_row(20, 6),
        sigma in 0.05f64..10.0,
    ) {
        let (x, z) = (Cached::new(Row::Sparse(a.view())), Cached::new(Row::Sparse(b.view())));
        let g = Gaussian::new(sigma).unwrap();
        let v = g.eval(&x, &z);
        prop_assert!(v >= 0.0, "underflow may give 0, never a negative value: {v}");
        prop_assert!(v <= 1.0);
        prop_assert!(tol::close(v, g.eval(&z, &x)));
        let dense = |s: &SparseVec| { let mut d = vec![0.0; 20]; Row::Sparse(s.view()).write_dense(&mut d); d };
        let (da, db) = (dense(&a), dense(&b));
        let direct: f64 = da.iter().zip(&db).map(|(p, q)| (p - q) * (p - q)).sum();
        prop_assert!(tol::close_with(v, (-direct / (sigma * sigma)).exp(), 1e-12, 1e-9));
    }
}
