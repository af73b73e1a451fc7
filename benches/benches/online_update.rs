//! Examples per second of the linear one-pass learners, one pass over a stream per iteration.
//!
//! Group `auc-online/update`; IDs `<algo>/<storage>,p=<p>`; `Throughput::Elements(n)`.
//! The baseline `dot-only` reads every example once and computes $w^\top x$ against a fixed $w$:
//! the floor any linear learner's step pays, so `learner time / dot-only time` is the overhead of
//! the update itself. Perceptron and PA-I cost one dot product plus, on a mistake or margin
//! violation, one axpy, i.e. $O(\mathrm{nnz}(x))$ per example.

use std::hint::black_box;

use auc_benches::streams;
use auc_core::{Dataset, Params};
use auc_online::{PaIParams, PerceptronParams};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// Feature counts of the dense streams (123 is a9a's width).
const DIMS: [usize; 4] = [8, 32, 123, 512];
/// Examples per stream.
const N: usize = 20_000;

fn bench_one(c: &mut Criterion, data: &Dataset, id: &str) {
    let mut g = c.benchmark_group("auc-online/update");
    g.throughput(Throughput::Elements(data.n() as u64));
    let w = vec![0.5; data.dim()];
    g.bench_function(BenchmarkId::new("dot-only", id), |b| {
        b.iter(|| black_box(streams::dot_only(black_box(data), &w)))
    });
    g.bench_function(BenchmarkId::new(PerceptronParams::NAME, id), |b| {
        b.iter(|| black_box(streams::stream(&PerceptronParams {}, black_box(data))))
    });
    g.bench_function(BenchmarkId::new(PaIParams::NAME, id), |b| {
        b.iter(|| black_box(streams::stream(&PaIParams { c: 1.0 }, black_box(data))))
    });
    g.finish();
}

/// Every stream: dense synthetic at each p, then the sparse a9a-like text.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    for p in DIMS {
        let data = streams::dense(N, p);
        bench_one(&mut c, &data, &format!("dense,p={p}"));
    }
    let sparse = streams::sparse_a9a_like(N);
    let id = format!(
        "sparse,p={},nnz/row={:.1}",
        sparse.dim(),
        sparse.nnz() as f64 / sparse.n() as f64
    );
    bench_one(&mut c, &sparse, &id);
}

criterion_main!(benches);
