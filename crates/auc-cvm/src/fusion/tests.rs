//! Tests of the cross-diffusion: against an `f64` dense reference, across blocks, both
//! normalizations' failure cases, symmetry and convergence, one sub-kernel.

use super::*;
use crate::kernels::SubKernelKind;

fn problem(n: usize, p: usize, seed: u64) -> Points {
    let mut s = seed;
    let x = (0..n * p)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect();
    Points::from_dense(p, x)
}

fn setup(n: usize, k: usize) -> (Points, Knn, Vec<Box<dyn SubKernel>>) {
    let mut pts = problem(n, 4, 42);
    let knn = Knn::search(&pts, &pts, k, true);
    pts.set_sparsity(&knn);
    let kernels = SubKernelKind::build_all(&pts);
    (pts, knn, kernels)
}

/// Dense f64 reference of eqs. 18-22 with O(n^3) products, normalized as `norm` says
/// (rows of L always summing to 1).
fn dense_reference(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    rho: f64,
    iters: usize,
    norm: Normalization,
) -> Vec<f64> {
    let n = pts.n();
    let m = kernels.len();
    let raw: Vec<Vec<f64>> = kernels
        .iter()
        .map(|kk| {
            (0..n * n)
                .map(|e| kk.value(pts, e / n, pts, e % n))
                .collect()
        })
        .collect();
    let across = norm == Normalization::AcrossKernels;
    let mut p: Vec<Vec<f64>> = (0..m)
        .map(|mm| {
            (0..n * n)
                .map(|e| {
                    if across {
                        raw[mm][e] / (0..m).map(|q| raw[q][e]).sum::<f64>()
                    } else {
                        let row = &raw[mm][(e / n) * n..(e / n + 1) * n];
                        raw[mm][e] * n as f64 / row.iter().sum::<f64>()
                    }
                })
                .collect()
        })
        .collect();
    // Dense L: eq. 19 keeps neighbour entries, eq. 20 (printed) divides by the sum over
    // kernels, then each row is divided by its sum.
    let l: Vec<Vec<f64>> = (0..m)
        .map(|mm| {
            let mut l = vec![0.0; n * n];
            for i in 0..n {
                for &j in knn.neighbours(i) {
                    let j = j as usize;
                    let tot: f64 = if across {
                        (0..m).map(|q| raw[q][i * n + j]).sum()
                    } else {
                        1.0
                    };
                    l[i * n + j] = raw[mm][i * n + j] / tot;
                }
                let rs: f64 = l[i * n..(i + 1) * n].iter().sum();
                for v in &mut l[i * n..(i + 1) * n] {
                    *v /= rs;
                }
            }
            l
        })
        .collect();
    let matmul = |a: &[f64], b: &[f64], bt: bool| -> Vec<f64> {
        let mut c = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let mut s = 0.0;
                for t in 0..n {
                    let bv = if bt { b[j * n + t] } else { b[t * n + j] };
                    s += a[i * n + t] * bv;
                }
                c[i * n + j] = s;
            }
        }
        c
    };
    for _ in 0..iters {
        let old = p.clone();
        for mm in 0..m {
            let a: Vec<f64> = (0..n * n)
                .map(|e| {
                    (0..m).filter(|&q| q != mm).map(|q| old[q][e]).sum::<f64>() / (m - 1) as f64
                })
                .collect();
            let la = matmul(&l[mm], &a, false);
            let mut next = matmul(&la, &l[mm], true);
            for i in 0..n {
                next[i * n + i] += rho;
            }
            p[mm] = next;
        }
    }
    (0..n * n)
        .map(|e| {
            let (i, j) = (e / n, e % n);
            (0..m)
                .map(|q| p[q][i * n + j] + p[q][j * n + i])
                .sum::<f64>()
                / (2 * m) as f64
        })
        .collect()
}

/// Odd and even round counts: the fast path stores transposed status matrices after odd
/// rounds (module docs), the reference never transposes.
#[test]
fn f32_fusion_matches_an_f64_dense_reference() {
    let (pts, knn, kernels) = setup(30, 5);
    for normalization in [Normalization::Rows, Normalization::AcrossKernels] {
        for rounds in [3, 4] {
            let params = FusionParams {
                rho: 0.1,
                max_iter: rounds,
                tol: 0.0,
                normalization,
            };
            let (g, info) = fuse(&pts, &knn, &kernels, &params).unwrap();
            assert_eq!(info.iterations, rounds);
            let want = dense_reference(&pts, &knn, &kernels, 0.1, rounds, normalization);
            let n = pts.n();
            let scale = want.iter().fold(0.0, |a: f64, v| a.max(v.abs()));
            let worst = (0..n * n)
                .map(|e| (g.get(e / n, e % n) - want[e]).abs())
                .fold(0.0, f64::max);
            assert!(
                worst < 1e-6 * scale.max(1.0),
                "{normalization:?}, {rounds} rounds: max |f32 - f64| = {worst}, scale {scale}"
            );
            assert!(g.asymmetry() < 1e-12);
            assert_eq!(info.peak_bytes as u64, peak_bytes(30, 3, normalization));
        }
    }
}

/// More points than one block of rows (64): the packed-triangle product adds into rows of
/// later blocks under their locks, and the round count 0 turns the state back into the
/// natural kernels. Two sub-kernels as well as three (the ablations fuse two).
#[test]
fn blocked_fusion_matches_the_reference_across_blocks() {
    let (pts, knn, all) = setup(150, 6);
    let n = pts.n();
    for (kernels, normalization, rounds) in [
        (&all[..], Normalization::AcrossKernels, 0),
        (&all[..], Normalization::AcrossKernels, 2),
        (&all[..], Normalization::Rows, 0),
        (&all[..], Normalization::Rows, 2),
        (&all[..2], Normalization::AcrossKernels, 3),
        (&all[1..], Normalization::AcrossKernels, 2),
    ] {
        let params = FusionParams {
            rho: 0.1,
            max_iter: rounds,
            tol: 0.0,
            normalization,
        };
        let (g, info) = fuse(&pts, &knn, kernels, &params).unwrap();
        assert_eq!(info.iterations, rounds);
        let want = dense_reference(&pts, &knn, kernels, 0.1, rounds, normalization);
        let scale = want.iter().fold(0.0, |a: f64, v| a.max(v.abs()));
        let worst = (0..n * n)
            .map(|e| (g.get(e / n, e % n) - want[e]).abs())
            .fold(0.0, f64::max);
        assert!(
            worst < 2e-6 * scale.max(1.0),
            "{} kernels, {normalization:?}, {rounds} rounds: max |f32 - f64| = {worst}, \
             scale {scale}",
            kernels.len()
        );
        assert_eq!(g.asymmetry().to_bits(), 0f64.to_bits());
        // The same again: the blocks' order under rayon cannot change a bit.
        let (again, _) = fuse(&pts, &knn, kernels, &params).unwrap();
        assert_eq!(g, again);
    }
}

/// Fraction of the triples (i, j, k), j, k != i, on which `a` and `b` order K(i, j) and
/// K(i, k) the same way (ties in `a` skipped).
#[allow(clippy::float_cmp, reason = "exact ties are what is skipped")]
fn concordance(a: &dyn Fn(usize, usize) -> f64, b: &dyn Fn(usize, usize) -> f64, n: usize) -> f64 {
    let (mut same, mut all) = (0usize, 0usize);
    for i in 0..n {
        for j in 0..n {
            for k in j + 1..n {
                if i == j || i == k || a(i, j) == a(i, k) {
                    continue;
                }
                all += 1;
                if (a(i, j) > a(i, k)) == (b(i, j) > b(i, k)) {
                    same += 1;
                }
            }
        }
    }
    same as f64 / all as f64
}

/// Fusing a kernel with a copy of itself must keep its similarity order. With the printed
/// eq. 18 both natural kernels are 1/2 everywhere and eq. 20 gives uniform weights, so the
/// fused matrix depends only on the neighbour graph: the Gaussian and the Pearson kernel
/// fuse to the same matrix, and the Gaussian order is largely lost.
#[test]
fn two_copies_of_one_kernel_keep_its_ranking() {
    let (pts, knn, _) = setup(40, 8);
    let n = pts.n();
    let twice = |kind: SubKernelKind| -> Vec<Box<dyn SubKernel>> {
        vec![kind.build(&pts), kind.build(&pts)]
    };
    let fuse_with = |ks: &[Box<dyn SubKernel>], normalization| {
        let params = FusionParams {
            rho: 0.1,
            max_iter: 20,
            tol: 1e-3,
            normalization,
        };
        fuse(&pts, &knn, ks, &params).unwrap().0
    };
    let gauss = SubKernelKind::Gaussian.build(&pts);
    let k = |i: usize, j: usize| gauss.value(&pts, i, &pts, j);
    let rows = fuse_with(&twice(SubKernelKind::Gaussian), Normalization::Rows);
    let printed = fuse_with(
        &twice(SubKernelKind::Gaussian),
        Normalization::AcrossKernels,
    );
    let printed_pearson = fuse_with(&twice(SubKernelKind::Pearson), Normalization::AcrossKernels);
    assert_eq!(
        printed, printed_pearson,
        "printed form ignores the kernel values"
    );
    let ours = concordance(&k, &|i, j| rows.get(i, j), n);
    let theirs = concordance(&k, &|i, j| printed.get(i, j), n);
    // Measured: 0.85 against 0.50 (chance).
    assert!(
        ours > 0.8,
        "row-normalized fusion keeps {ours} of the order"
    );
    assert!(theirs < 0.6, "printed {theirs}, rows {ours}");
}

#[test]
fn fused_kernel_is_symmetric_non_negative_and_converges() {
    let (pts, knn, kernels) = setup(60, 8);
    let params = FusionParams {
        rho: 0.05,
        max_iter: 100,
        tol: 1e-4,
        normalization: Normalization::Rows,
    };
    let (g, info) = fuse(&pts, &knn, &kernels, &params).unwrap();
    assert!(info.converged, "{:?}", info.distances);
    assert!(info.iterations < 100);
    assert_eq!(
        g.asymmetry().to_bits(),
        0f64.to_bits(),
        "eq. 22 averages P and P^T exactly"
    );
    for i in 0..60 {
        for j in 0..60 {
            assert!(g.get(i, j) >= 0.0 && g.get(i, j).is_finite());
        }
    }
    // The distance sequence settles: successive changes shrink.
    let d = &info.distances;
    let last = (d[d.len() - 1] - d[d.len() - 2]).abs();
    let first = (d[1] - d[0]).abs();
    assert!(last < first, "{d:?}");
}

#[test]
fn printed_local_kernel_diverges_and_row_stochastic_stays_bounded() {
    let (pts, knn, kernels) = setup(40, 16);
    let params = |normalization| FusionParams {
        rho: 0.1,
        max_iter: 6,
        tol: 0.0,
        normalization,
    };
    let across = params(Normalization::AcrossKernels);
    let (printed, _) = fuse_impl(&pts, &knn, &kernels, &across, false).unwrap();
    let (bounded, _) = fuse(&pts, &knn, &kernels, &across).unwrap();
    let (rows, _) = fuse(&pts, &knn, &kernels, &params(Normalization::Rows)).unwrap();
    let max = |g: &Gram| {
        (0..40 * 40)
            .map(|e| g.get(e / 40, e % 40).abs())
            .fold(0.0, f64::max)
    };
    // Rows of eq. 20 sum to about 16/3, so six rounds scale entries by about (16/3)^12.
    assert!(max(&printed) > 1e6, "printed form: {}", max(&printed));
    // Row-stochastic L: natural entries at most 1 stay below 1 + rho * rounds.
    assert!(
        max(&bounded) <= 1.0 + 0.1 * 6.0 + 1e-6,
        "bounded: {}",
        max(&bounded)
    );
    // Rows averaging 1: entries stay of order 1 (a row's largest natural entry is at most
    // n / (its row sum), here below 40 / 1).
    assert!(max(&rows) < 40.0, "rows: {}", max(&rows));
}

#[test]
fn one_sub_kernel_is_its_own_matrix() {
    let (pts, knn, kernels) = setup(10, 3);
    let one = vec![SubKernelKind::Gaussian.build(&pts)];
    let (g, info) = fuse(
        &pts,
        &knn,
        &one,
        &FusionParams {
            rho: 0.1,
            max_iter: 5,
            tol: 1e-3,
            normalization: Normalization::Rows,
        },
    )
    .unwrap();
    assert_eq!(info.iterations, 0);
    assert!((g.get(2, 7) - kernels[0].value(&pts, 2, &pts, 7)).abs() < 1e-7);
}
