//! Examples per second of the budgeted kernel learners OKAUC-M, OKAUC-S [OAUC algs. 2-4] and
//! KOIL \[KOIL18\], one pass over a dense stream per iteration, against the budget $B$ per class
//! and the dimension $p$.
//!
//! Group `auc-kernel/update`; IDs `<algo>/B=<B>,p=<p>`; `Throughput::Elements(n)`.
//! A step costs $2B$ kernel values ($O(Bp)$: one dot product and one `exp` each) plus
//! $B \times (2B+1)$ multiply-adds over the cached kernel block ($O(B^2)$). Two baselines,
//! measured in the same run, price those parts alone:
//! - `kernel-row`: $2B$ Gaussian kernel values of each example against a fixed buffer;
//! - `block-axpy`: $B$ axpys of length $2B+1$ from a fixed $(2B+1)^2$ block, per example.
//!
//! The step's cost over their sum says how much the bookkeeping (means, eviction, copies) adds.

use std::hint::black_box;
use std::time::Duration;

use auc_benches::streams;
use auc_core::{Dataset, Params};
use auc_kernel::{Cached, Gaussian, Kernel, KoilParams, OkaucMParams, OkaucSParams, Removal};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// Budgets per class.
const BUDGETS: [usize; 4] = [50, 100, 200, 400];
/// Feature counts (8 is about magic04's 10; 123 is a9a's width).
const DIMS: [usize; 2] = [8, 123];
/// Examples per stream.
const N: usize = 4_000;

/// Sum over examples of their kernel values against the first `2b` rows (fixed buffer).
fn kernel_row(data: &Dataset, b: usize, k: &Gaussian) -> f64 {
    let buf: Vec<Cached<'_>> = data
        .iter()
        .take(2 * b)
        .map(|(x, _)| Cached::new(x))
        .collect();
    let mut acc = 0.0;
    for (x, _) in data.iter() {
        let x = Cached::new(x);
        for z in &buf {
            acc += k.eval(&x, z);
        }
    }
    acc
}

/// Per example, `b` axpys of length `2b + 1` from a fixed block into a fixed vector.
fn block_axpy(n: usize, b: usize, block: &[f64], f: &mut [f64]) {
    let m = 2 * b + 1;
    for t in 0..n {
        let d = 1e-9 * (t % 7) as f64;
        for i in 0..b {
            for (fi, k) in f.iter_mut().zip(&block[i * m..i * m + m]) {
                *fi += d * k;
            }
        }
    }
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    for p in DIMS {
        let data = streams::dense(N, p);
        let sigma = (p as f64).sqrt();
        let gauss = Gaussian::new(sigma).expect("valid width");
        for b in BUDGETS {
            let mut g = c.benchmark_group("auc-kernel/update");
            g.throughput(Throughput::Elements(N as u64));
            g.sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(3));
            let id = format!("B={b},p={p}");
            g.bench_function(BenchmarkId::new("kernel-row", &id), |bch| {
                bch.iter(|| black_box(kernel_row(black_box(&data), b, &gauss)))
            });
            let m = 2 * b + 1;
            let block = vec![0.5; m * m];
            let mut f = vec![0.0; m];
            g.bench_function(BenchmarkId::new("block-axpy", &id), |bch| {
                bch.iter(|| block_axpy(N, b, black_box(&block), black_box(&mut f)))
            });
            let okm = OkaucMParams {
                lambda: 0.01,
                sigma,
                budget: b,
                removal: Removal::Fifo,
            };
            g.bench_function(BenchmarkId::new(OkaucMParams::NAME, &id), |bch| {
                bch.iter(|| black_box(streams::stream(&okm, black_box(&data))))
            });
            let oks = OkaucSParams {
                eta: 0.01,
                lambda: 0.01,
                sigma,
                budget: b,
                removal: Removal::Fifo,
            };
            g.bench_function(BenchmarkId::new(OkaucSParams::NAME, &id), |bch| {
                bch.iter(|| black_box(streams::stream(&oks, black_box(&data))))
            });
            let koil = KoilParams {
                eta: 0.01,
                c: 1.0,
                k: 10,
                sigma,
                budget: b,
                removal: Removal::Fifo,
            };
            g.bench_function(BenchmarkId::new(KoilParams::NAME, &id), |bch| {
                bch.iter(|| black_box(streams::stream(&koil, black_box(&data))))
            });
            g.finish();
        }
    }
}

criterion_main!(benches);
