//! The fused kernel is positive definite where the natural kernel is not (the role of $\rho$).

use super::*;
use crate::kernels::SubKernelKind;

/// Smallest eigenvalue of a symmetric matrix (cyclic Jacobi, `auc_core::testing`).
pub(super) fn min_eig(a: Vec<f64>, n: usize) -> f64 {
    auc_core::testing::symmetric_eigenvalues(n, a)
        .into_iter()
        .fold(f64::INFINITY, f64::min)
}

/// The natural kernel of eq. 18 (an entrywise ratio) can be indefinite; after the diffusion
/// the fused kernel's smallest eigenvalue is about rho: the negative part decays through
/// the row-stochastic local kernels and eq. 21 adds rho I every round. So rho is what makes
/// the fused kernel a valid kernel for the QP.
#[test]
fn fused_kernel_is_positive_definite_where_the_natural_kernel_is_not() {
    for seed in [1u64, 3] {
        let mut s = seed;
        let x: Vec<f64> = (0..50 * 4)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect();
        let mut pts = Points::from_dense(4, x);
        let knn = Knn::search(&pts, &pts, 8, true);
        pts.set_sparsity(&knn);
        let ks = SubKernelKind::build_all(&pts);
        let natural: Vec<f64> = (0..2500)
            .map(|e| {
                let (i, j) = (e / 50, e % 50);
                let v: Vec<f64> = ks.iter().map(|k| k.value(&pts, i, &pts, j)).collect();
                v[0] / v.iter().sum::<f64>()
            })
            .collect();
        let nat_min = min_eig(natural, 50);
        assert!(
            nat_min < -1e-3,
            "seed {seed}: natural kernel min eig {nat_min}"
        );
        for normalization in [Normalization::Rows, Normalization::AcrossKernels] {
            for rho in [1e-4, 0.1] {
                let params = FusionParams {
                    rho,
                    max_iter: 20,
                    tol: 1e-3,
                    normalization,
                };
                let (g, _) = fuse(&pts, &knn, &ks, &params).unwrap();
                let a: Vec<f64> = (0..2500).map(|e| g.get(e / 50, e % 50)).collect();
                let m = min_eig(a, 50);
                assert!(
                    m > 0.9 * rho,
                    "seed {seed}, {normalization:?}, rho {rho}: fused min eig {m}"
                );
            }
        }
    }
}
