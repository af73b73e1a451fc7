//! Rows per second of the moment pass of the batch moment learners: Welford's rank-one update
//! per row (`ClassMoments::update`) against the blocked rank-$k$ update (`block_moments` on
//! [`BLOCK_ROWS`] rows at a time, one matrix product in faer, then Chan's merge), the two ways
//! `auc_learners::MomentSummary` can add rows (`Update::RankOne`, `Update::Blocked`).
//!
//! Group `auc-online/moment-pass`; IDs `<update>/p=<p>`; `Throughput::Elements(n)`. The
//! baseline `sum` adds the rows into one vector (reads the block once, $O(p)$ per row).

use std::hint::black_box;
use std::time::Duration;

use auc_core::Row;
use auc_online::{BLOCK_ROWS, BlockScratch, block_moments};
use auc_stats::ClassMoments;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Feature counts (100 is the throughput experiment's width).
const DIMS: [usize; 3] = [20, 100, 300];
/// Rows per pass.
const N: usize = 4_096;

fn rows(p: usize) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(7);
    (0..N * p)
        .map(|_| rng.random_range(-1.0..1.0) + 5.0)
        .collect()
}

fn rank_one(x: &[f64], p: usize) -> ClassMoments {
    let mut m = ClassMoments::new(p);
    for r in x.chunks_exact(p) {
        m.update(Row::Dense(r));
    }
    m
}

fn blocked(x: &[f64], p: usize, scratch: &mut BlockScratch) -> ClassMoments {
    let mut m = ClassMoments::new(p);
    for b in x.chunks(BLOCK_ROWS * p) {
        m.merge(&block_moments(b, b.len() / p, p, scratch));
    }
    m
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("auc-online/moment-pass");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for p in DIMS {
        let x = rows(p);
        let id = format!("p={p}");
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(BenchmarkId::new("sum", &id), |b| {
            b.iter(|| {
                let mut s = vec![0.0; p];
                for r in black_box(&x).chunks_exact(p) {
                    for (a, v) in s.iter_mut().zip(r) {
                        *a += v;
                    }
                }
                black_box(s)
            })
        });
        g.bench_function(BenchmarkId::new("rank-one", &id), |b| {
            b.iter(|| black_box(rank_one(black_box(&x), p)))
        });
        let mut scratch = BlockScratch::default();
        g.bench_function(BenchmarkId::new("blocked", &id), |b| {
            b.iter(|| black_box(blocked(black_box(&x), p, &mut scratch)))
        });
    }
    g.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}

criterion_main!(benches);
