//! Time of the cross-diffusion fusion \[CVM eqs. 18-22\] against $n$, for both normalizations of
//! `auc_cvm::fusion::Normalization`, and the price of its rounds against a baseline measured in
//! the same run.
//!
//! Group `auc-cvm/fuse`; IDs `<what>/n=<n>,n_loc=8`. Three sub-kernels (Gaussian, Pearson,
//! density) on random points in 16-d, $n_{loc} = 8$, tolerance 0 so the round count is fixed:
//! - `rows,T=0` and `rows,T=4`: the whole fusion with 0 and 4 rounds, each kernel normalized by
//!   its rows (square `f32` matrices). Their difference over 4 is one round.
//! - `across,T=0` and `across,T=4`: the same with eqs. 18 and 20 as printed (the default; local
//!   rows then normalized), whose symmetric status matrices are stored as packed triangles.
//! - `row-add`: the baseline, one sparse-dense product alone: every output row is the sum of
//!   $n_{loc}$ weighted dense rows of length $n$, as `fusion` computes $\bar L A$, in parallel
//!   rows. A round costs $M = 3$ sub-kernels times two such products, so a round near
//!   6 `row-add` is at the product's speed and the rest (forming $A$, the transpose, the sums
//!   and Theorem 1's distance) is the overhead.
//!
//! Each product reads $n \cdot n_{loc}$ rows of $4n$ bytes (mostly from cache when $n$ is small)
//! and writes $4n^2$ bytes: $2 n^2 n_{loc}$ flops.

use std::hint::black_box;

use auc_cvm::fusion::{FusionParams, Normalization, fuse};
use auc_cvm::kernels::{Knn, Points, SubKernelKind};
use criterion::{BenchmarkId, Criterion, criterion_main};

/// Numbers of points.
const SIZES: [usize; 2] = [1_000, 2_000];
/// Neighbours per point.
const N_LOC: usize = 8;

/// `n` random points in 16-d (SplitMix64 from `seed`), their neighbours and sparsity set.
fn points(n: usize, seed: u64) -> (Points, Knn) {
    let mut s = seed;
    let x = (0..n * 16)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect();
    let mut pts = Points::from_dense(16, x);
    let knn = Knn::search(&pts, &pts, N_LOC, true);
    pts.set_sparsity(&knn);
    (pts, knn)
}

/// `out[i, :] = sum over the neighbours j of i of w src[j, :]`, rows in parallel: one
/// sparse-dense product of the diffusion.
fn row_add(out: &mut [f32], src: &[f32], n: usize, knn: &Knn, w: f32) {
    use rayon::prelude::*;
    out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        row.fill(0.0);
        for &j in knn.neighbours(i) {
            let j = j as usize;
            for (o, v) in row.iter_mut().zip(&src[j * n..(j + 1) * n]) {
                *o += w * v;
            }
        }
    });
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("auc-cvm/fuse");
    group.sample_size(10);
    for n in SIZES {
        let (pts, knn) = points(n, 5);
        let kernels = SubKernelKind::build_all(&pts);
        let id = |what: &str| BenchmarkId::new(what, format!("n={n},n_loc={N_LOC}"));
        for (what, normalization, rounds) in [
            ("rows,T=0", Normalization::Rows, 0),
            ("rows,T=4", Normalization::Rows, 4),
            ("across,T=0", Normalization::AcrossKernels, 0),
            ("across,T=4", Normalization::AcrossKernels, 4),
        ] {
            let params = FusionParams {
                rho: 0.1,
                max_iter: rounds,
                tol: 0.0,
                normalization,
            };
            group.bench_function(id(what), |b| {
                b.iter(|| {
                    let (g, _) = fuse(&pts, &knn, &kernels, &params).expect("small matrices");
                    black_box(g.get(0, 1))
                });
            });
        }
        let src: Vec<f32> = (0..n * n).map(|e| (e % 97) as f32 * 1e-2).collect();
        let mut out = vec![0f32; n * n];
        group.bench_function(id("row-add"), |b| {
            b.iter(|| {
                row_add(&mut out, black_box(&src), n, &knn, 0.125);
                black_box(out[n + 1])
            });
        });
    }
    group.finish();
}

criterion_main!(benches);
