//! The boosted trees' fit (`gbt-auc`'s tree shape: 31 leaves, 255 bins; 10 rounds) on 200,000
//! dense rows of 20 features, on one thread and on two: the ratio of the two IDs is the fit's
//! parallel speedup (at most 2 on two cores), which the serial steps of a round (partitions,
//! gathers, gradients) would hold down. The model is the same on both (a fit does not depend
//! on the thread count).
//!
//! Group `auc-trees/fit`; IDs `threads=1`, `threads=2`; `Throughput::Elements(n * rounds)`, so
//! criterion reports rows boosted per second.

use std::hint::black_box;

use auc_benches::streams;
use auc_trees::BoostedTreesParams;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// Rows.
const N: usize = 200_000;
/// Features.
const P: usize = 20;
/// Boosting rounds.
const ROUNDS: usize = 10;

fn fit(c: &mut Criterion) {
    let data = streams::dense(N, P);
    let params = BoostedTreesParams {
        trees: ROUNDS,
        ..BoostedTreesParams::default()
    };
    let mut g = c.benchmark_group("auc-trees/fit");
    g.throughput(Throughput::Elements((N * ROUNDS) as u64));
    g.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        g.bench_function(
            BenchmarkId::from_parameter(format!("threads={threads}")),
            |b| b.iter(|| pool.install(|| black_box(params.fit(black_box(&data)).expect("a fit")))),
        );
    }
    g.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    fit(&mut c);
}

criterion_main!(benches);
