//! Rows per second of the feature maps of `auc-prep` (conventions section 9) on dense rows,
//! and the time of fitting Nystroem's landmarks and projection.
//!
//! Group `auc-prep/feature-map`; IDs `map/<kind>:<size>,out=<D>,p=<p>,n=<n>` (one iteration
//! maps the `n` rows as a dataset) and `fit/<kind>:<size>,p=<p>,n=<n>` (one iteration fits the
//! map on the `n` rows, the sample size of a real fit); `Throughput::Elements(n)`: rows.
//!
//! Mapping a dense row costs `FeatureMap::flops_per_row(p)` flops: $2 p w$ for the product
//! $W^T x$ of the $w$ units, plus $2 M D$ for Nystroem's projection; the cosines, sigmoids or
//! exponentials come on top. Flops per second are that count times the rows per second. IDs
//! `gemm-bound/<N>x<M>x<M>` time faer's product of the projection's shape on one thread, the
//! bound the Nystroem rows are compared with (`docs/results/performance.md`).

use std::hint::black_box;

use auc_core::{Dataset, Label};
use auc_data::Scaling;
use auc_prep::{FeatureMapSpec, MapKind, MapShape, ScaleEvidence, Transform, TransformSpec};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Rows mapped per iteration (also the rows of the fitting sample).
const N: usize = 10_000;
/// Features per row.
const P: usize = 20;
const SEED: u64 = 0x0f3a_7e55;

/// `N` seeded dense rows of `P` features: eight centers in $[-1, 1)^P$, each row a center plus
/// noise in $[-0.3, 0.3)$.
fn rows() -> Dataset {
    let mut rng = StdRng::seed_from_u64(SEED);
    let centers: Vec<Vec<f64>> = (0..8)
        .map(|_| (0..P).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let mut values = Vec::with_capacity(N * P);
    let mut labels = Vec::with_capacity(N);
    for i in 0..N {
        let c = &centers[i % 8];
        values.extend(c.iter().map(|a| a + rng.random_range(-0.3..0.3)));
        labels.push(if i % 4 == 0 { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(P, values, labels).expect("finite rows of P features")
}

/// The transform of the map `kind:size` alone (width by the `scale` rule), fitted on `data`.
fn fit(kind: MapKind, size: usize, data: &Dataset) -> Transform {
    TransformSpec {
        scaling: Scaling::None,
        one_hot: None,
        features: Some(FeatureMapSpec::new(MapShape { kind, size })),
        unit_norm: false,
    }
    .fit(ScaleEvidence::Data(data))
    .expect("a map fitted on ten thousand rows")
}

fn bench_maps(c: &mut Criterion) {
    let data = rows();
    let mut g = c.benchmark_group("auc-prep/feature-map");
    g.throughput(Throughput::Elements(N as u64));
    // A Nystroem iteration maps ten thousand rows in about two seconds: ten samples suffice.
    g.sample_size(10);
    for (kind, size) in [
        (MapKind::Rff, 1000),
        (MapKind::Nystroem, 500),
        (MapKind::Nystroem, 1000),
    ] {
        let t = fit(kind, size, &data);
        let out = t.output_dim(P);
        let id = format!("{kind}:{size},out={out},p={P},n={N}");
        g.bench_function(BenchmarkId::new("map", &id), |b| {
            b.iter(|| black_box(t.apply_dataset(black_box(&data))))
        });
    }
    // The bound the Nystroem rows are measured against: faer's matrix product of the
    // projection's shape (N x M times M x D, one thread), the fastest way this machine forms
    // those 2 N M D flops; mapping adds the kernel values (2 N M p flops and N M exponentials).
    for m in [500, 1000] {
        let k = Mat::<f64>::from_fn(N, m, |i, j| ((i * 7 + j * 3) % 11) as f64 / 11.0);
        let proj = Mat::<f64>::from_fn(m, m, |i, j| ((i + 2 * j) % 5) as f64 - 2.0);
        let mut z = Mat::<f64>::zeros(N, m);
        g.bench_function(
            BenchmarkId::new("gemm-bound", format!("{N}x{m}x{m}")),
            |b| {
                b.iter(|| {
                    matmul(
                        z.as_mut(),
                        Accum::Replace,
                        k.as_ref(),
                        proj.as_ref(),
                        1.0,
                        Par::Seq,
                    );
                    black_box(&z);
                })
            },
        );
    }
    let id = format!("nystroem:500,p={P},n={N}");
    g.bench_function(BenchmarkId::new("fit", &id), |b| {
        b.iter(|| black_box(fit(MapKind::Nystroem, 500, black_box(&data))))
    });
    g.finish();
}

/// What `criterion_group!(benches, bench_maps)` expands to, written out because the macro's
/// `pub fn` has no doc comment and the workspace warns on missing docs.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_maps(&mut c);
}

criterion_main!(benches);
