//! Examples per second of the buffer learners OAM-seq and OAM-gra [OAM11, alg. 3-4] and of
//! SOLAM [SOLAM16, alg. 1], one pass over a stream per iteration.
//!
//! Group `auc-online/buffer`; IDs `<algo>/<storage>,p=<p>`; `Throughput::Elements(n)`.
//! The baseline `dot-only` computes $w^\top x$ once per example against a fixed $w$.
//! OAM compares each example with up to 100 buffered rows of the other class, so its step costs
//! about $100 \times$ (`nnz(x_t)` + `nnz(x_i)`) (or $100 p$ dense); SOLAM costs $O(\mathrm{nnz}(x))$.
//! Streams are shorter than in `online_update.rs` (OAM at p = 512 takes ~0.1 ms per example).

use std::hint::black_box;
use std::time::Duration;

use auc_benches::streams;
use auc_core::{Dataset, Params};
use auc_online::{OamGraParams, OamSeqParams, SolamParams};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// Feature counts of the dense streams (123 is a9a's width).
const DIMS: [usize; 4] = [8, 32, 123, 512];
/// Examples per stream.
const N: usize = 4_000;
/// Buffer size per class, the papers' setting [OAUC sec. 6.3].
const BUDGET: usize = 100;

fn bench_one(c: &mut Criterion, data: &Dataset, id: &str) {
    let mut g = c.benchmark_group("auc-online/buffer");
    g.throughput(Throughput::Elements(data.n() as u64));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let w = vec![0.5; data.dim()];
    g.bench_function(BenchmarkId::new("dot-only", id), |b| {
        b.iter(|| black_box(streams::dot_only(black_box(data), &w)))
    });
    let seq = OamSeqParams {
        c: 1.0,
        budget: BUDGET,
    };
    g.bench_function(BenchmarkId::new(OamSeqParams::NAME, id), |b| {
        b.iter(|| black_box(streams::stream(&seq, black_box(data))))
    });
    let gra = OamGraParams {
        c: 1.0,
        budget: BUDGET,
    };
    g.bench_function(BenchmarkId::new(OamGraParams::NAME, id), |b| {
        b.iter(|| black_box(streams::stream(&gra, black_box(data))))
    });
    let solam = SolamParams { eta: 1.0, r: 10.0 };
    g.bench_function(BenchmarkId::new(SolamParams::NAME, id), |b| {
        b.iter(|| black_box(streams::stream(&solam, black_box(data))))
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
