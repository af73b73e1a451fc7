//! Speed of `auc_eval::metrics`: exact AUC and AP by one sort, O(n log n), against a brute-force
//! O(n+ n-) pair count at n = 10^3 (larger n would take minutes per iteration).
//!
//! Group `auc-eval/auc`; IDs `<metric>/n=<n>`; `Throughput::Elements(n)` (scores per second).

use std::hint::black_box;

use auc_core::Label;
use auc_eval::metrics::{auc, average_precision};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Score counts benchmarked.
const NS: [usize; 3] = [1_000, 100_000, 1_000_000];
/// Only this size also runs the quadratic baseline.
const BRUTE_FORCE_N: usize = 1_000;
const SEED: u64 = 0x00a0_c0e7;

/// `n` seeded scores and labels: about 30 % positives, whose uniform scores are shifted up by
/// 0.3, so the AUC is about 0.75. Scores are rounded to 1e-4, so ties occur at large n as they
/// do for real classifiers' outputs printed to a few digits. Both classes are always present.
fn scored_labels(n: usize, seed: u64) -> (Vec<f64>, Vec<Label>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut scores = Vec::with_capacity(n);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let pos = match i {
            0 => true,
            1 => false,
            _ => rng.random::<f64>() < 0.3,
        };
        let s: f64 = rng.random::<f64>() + if pos { 0.3 } else { 0.0 };
        scores.push((s * 1e4).round() / 1e4);
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    (scores, labels)
}

/// The definition, pair by pair: mean over (positive, negative) pairs of
/// 1[s+ > s-] + 1/2 1[s+ = s-].
fn brute_force_auc(scores: &[f64], labels: &[Label]) -> f64 {
    let pos: Vec<f64> = scores
        .iter()
        .zip(labels)
        .filter(|(_, y)| y.is_pos())
        .map(|(s, _)| *s)
        .collect();
    let neg: Vec<f64> = scores
        .iter()
        .zip(labels)
        .filter(|(_, y)| !y.is_pos())
        .map(|(s, _)| *s)
        .collect();
    let mut wins2 = 0u64;
    for p in &pos {
        for n in &neg {
            wins2 += match p.partial_cmp(n) {
                Some(std::cmp::Ordering::Greater) => 2,
                Some(std::cmp::Ordering::Equal) => 1,
                _ => 0,
            };
        }
    }
    wins2 as f64 / (2.0 * pos.len() as f64 * neg.len() as f64)
}

fn bench_auc(c: &mut Criterion) {
    let mut group = c.benchmark_group("auc-eval/auc");
    // One iteration at n = 10^6 sorts a million scores (~0.1 s): ten samples are enough.
    group.sample_size(10);
    for n in NS {
        let (scores, labels) = scored_labels(n, SEED);
        let id = format!("n={n}");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("auc", &id), &n, |b, _| {
            b.iter(|| auc(black_box(&scores), black_box(&labels)).expect("both classes"))
        });
        group.bench_with_input(BenchmarkId::new("ap", &id), &n, |b, _| {
            b.iter(|| {
                average_precision(black_box(&scores), black_box(&labels)).expect("both classes")
            })
        });
        if n == BRUTE_FORCE_N {
            // The baseline must compute the same number, or the comparison means nothing.
            let fast = auc(&scores, &labels).expect("both classes");
            let slow = brute_force_auc(&scores, &labels);
            assert!(
                (fast - slow).abs() < 1e-12,
                "auc {fast} vs brute force {slow}"
            );
            group.bench_with_input(BenchmarkId::new("brute_force_auc", &id), &n, |b, _| {
                b.iter(|| brute_force_auc(black_box(&scores), black_box(&labels)))
            });
        }
    }
    group.finish();
}

/// What `criterion_group!(benches, bench_auc)` expands to, written out because the macro's
/// `pub fn` has no doc comment and the workspace warns on missing docs.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_auc(&mut c);
}

criterion_main!(benches);
