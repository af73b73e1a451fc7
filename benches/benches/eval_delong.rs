//! Speed of DeLong's variance and paired test (`auc_metrics::delong`, Sun and Xu's O(n log n)
//! algorithm) up to n = 10^7 scores, the size the issue targets (under 3 s). The numpy reference
//! of the same algorithm is timed by `benches/delong_numpy.py`.
//!
//! Group `auc-metrics/delong`; IDs `<operation>/n=<n>`; `Throughput::Elements(n)`.

use std::hint::black_box;

use auc_core::Label;
use auc_eval::delong::{delong, delong_test};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Score counts benchmarked.
const NS: [usize; 2] = [1_000_000, 10_000_000];
const SEED: u64 = 0x0de1_0a9e;

/// `n` rows, about 20 % positive, with two correlated score vectors rounded to 1e-5 (so ties
/// occur, as for printed classifier outputs).
fn two_models(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>, Vec<Label>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut a, mut b, mut y) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for i in 0..n {
        let pos = i == 0 || (i != 1 && rng.random::<f64>() < 0.2);
        let signal: f64 = rng.random::<f64>() + if pos { 0.4 } else { 0.0 };
        a.push(((signal + 0.3 * rng.random::<f64>()) * 1e5).round() / 1e5);
        b.push(((signal + 0.6 * rng.random::<f64>()) * 1e5).round() / 1e5);
        y.push(if pos { Label::Pos } else { Label::Neg });
    }
    (a, b, y)
}

fn bench_delong(c: &mut Criterion) {
    let mut group = c.benchmark_group("auc-metrics/delong");
    // One iteration at n = 10^7 takes about a second: ten samples are criterion's minimum.
    group.sample_size(10);
    for n in NS {
        let (a, b, y) = two_models(n, SEED);
        let id = format!("n={n}");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("variance", &id), &n, |bench, _| {
            bench.iter(|| delong(black_box(&a), black_box(&y)).expect("both classes"))
        });
        group.bench_with_input(BenchmarkId::new("paired_test", &id), &n, |bench, _| {
            bench.iter(|| {
                delong_test(black_box(&a), black_box(&b), black_box(&y), 0.95)
                    .expect("both classes")
            })
        });
    }
    group.finish();
}

/// What `criterion_group!` expands to, written out because the macro's `pub fn` has no doc
/// comment and the workspace warns on missing docs.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_delong(&mut c);
}

criterion_main!(benches);
