//! Criterion timing of [`auc_stats::FrequentDirections::insert`] on sparse rows: amortized
//! nanoseconds per row (shrinks included) at $p = 2^{16}$ and $2^{20}$, 20 non-zeros, $\ell = 32$.

use std::hint::black_box;

use auc_core::{Row, SparseRow};
use auc_stats::FrequentDirections;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const ELL: usize = 32;
const NNZ: usize = 20;
/// Rows per timed batch: 8 shrinks, so the figure is amortized over whole buffer cycles.
const BATCH: usize = 8 * ELL;

/// `n` rows of `NNZ` distinct random indices below `dim`, values in [-1, 1].
fn rows(dim: usize, n: usize, seed: u64) -> Vec<(Vec<u32>, Vec<f64>)> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut idx: Vec<u32> = Vec::with_capacity(NNZ);
            while idx.len() < NNZ {
                let j = rng.random_range(0..dim as u32);
                if !idx.contains(&j) {
                    idx.push(j);
                }
            }
            idx.sort_unstable();
            let val = (0..NNZ).map(|_| rng.random_range(-1.0..1.0)).collect();
            (idx, val)
        })
        .collect()
}

/// A sketch that has seen `warm` rows of the same kind, so `t` (touched features) is realistic.
fn warm_sketch(dim: usize, warm: usize) -> FrequentDirections {
    let mut fd = FrequentDirections::new(ELL, dim).expect("ell is valid");
    for (i, v) in rows(dim, warm, 7) {
        fd.insert(Row::Sparse(SparseRow::new(&i, &v)))
            .expect("finite rows");
    }
    fd
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("stats/fd_insert");
    group.sample_size(10);
    group.throughput(Throughput::Elements(BATCH as u64));
    for (log_p, warm) in [(16u32, 4096usize), (20, 4096), (16, 0), (20, 0)] {
        let dim = 1usize << log_p;
        let base = warm_sketch(dim, warm);
        let batch = rows(dim, BATCH, 11);
        let id = BenchmarkId::new("fd", format!("p=2^{log_p},nnz={NNZ},ell={ELL},warm={warm}"));
        group.bench_function(id, |b| {
            b.iter_batched(
                || base.clone(),
                |mut fd| {
                    for (i, v) in &batch {
                        fd.insert(Row::Sparse(SparseRow::new(i, v)))
                            .expect("finite rows");
                    }
                    black_box(fd)
                },
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

/// What `criterion_group!` would generate, without its undocumented public function.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
