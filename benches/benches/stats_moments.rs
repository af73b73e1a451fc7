//! Speed of the class-moment kernels of `auc_stats` against the machine's measured bandwidth.
//!
//! Groups `auc-stats/<op>`; IDs `<op>/p=<p>,bytes=<B>,flops=<F>`, with $B$ the bytes of the packed
//! triangle touched per call and $F$ its flops:
//! - `update`: one rank-one Welford update, reads and writes the triangle ($2 \cdot 4p(p+1)$
//!   bytes, $p(p+1)$ flops);
//! - `cov_mul`: $\Sigma w$, reads the triangle once ($4p(p+1)$ bytes, $\approx 2p^2$ flops);
//! - `quad_form`: $w^\top \Sigma w$, reads it once ($\approx p^2$ flops);
//! - `step`: `Moments::update_and_mul_opposite`, one learner step's moment work (update the own
//!   class, $\Sigma w$ of the other: two triangles, $3 \cdot 4p(p+1)$ bytes).
//!
//! Baselines (group `auc-stats/baseline`) run over buffers of the triangle's size, so in-cache
//! sizes compare to in-cache bandwidth and $p = 2048$ (16.8 MB) to memory bandwidth:
//! - `read`: sum of one buffer (what `cov_mul` must at least read);
//! - `rmw`: $a_k \leftarrow s a_k + t$ in place (the update's read-modify-write traffic);
//! - `triad`: STREAM triad $a = b + s c$ over three buffers (reported for reference).
//!
//! `Throughput::Bytes` makes criterion print GB/s. After the criterion runs, a summary table
//! (stderr) times each kernel again with `Instant` and prints ns/call, GB/s, GFLOP/s and the
//! fraction of the matching baseline's GB/s (`update` and `step` vs `rmw`, `cov_mul` and
//! `quad_form` vs `read`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use auc_core::{Label, Row};
use auc_stats::{ClassMoments, Moments};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Feature counts benchmarked.
const DIMS: [usize; 5] = [8, 32, 128, 512, 2048];
/// Distinct rows cycled through by the update benches.
const ROWS: usize = 16;
const SEED: u64 = 0x5747_5354;

/// Bytes of the packed triangle at dimension `p`.
fn packed_bytes(p: usize) -> u64 {
    (p * (p + 1) / 2 * 8) as u64
}

/// Seeded inputs at dimension `p`: rows, a weight vector and moments warmed with 64 rows per
/// class (so every covariance entry is non-zero).
struct Inputs {
    rows: Vec<Vec<f64>>,
    w: Vec<f64>,
    moments: Moments,
}

fn inputs(p: usize) -> Inputs {
    let mut rng = StdRng::seed_from_u64(SEED ^ p as u64);
    let rows: Vec<Vec<f64>> = (0..ROWS)
        .map(|_| (0..p).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let w = (0..p).map(|_| rng.random_range(-1.0..1.0)).collect();
    let mut moments = Moments::new(p);
    for k in 0..128 {
        let x: Vec<f64> = (0..p).map(|_| rng.random_range(-1.0..1.0)).collect();
        let y = if k % 2 == 0 { Label::Pos } else { Label::Neg };
        moments.update(Row::Dense(&x), y);
    }
    Inputs { rows, w, moments }
}

/// One timed operation: a closure run once per call, its bytes and flops.
struct Op {
    name: &'static str,
    bytes: u64,
    flops: u64,
    baseline: &'static str,
}

fn ops(p: usize) -> [Op; 4] {
    let b = packed_bytes(p);
    let pp = (p * p) as u64;
    let off = (p * (p - 1) / 2) as u64;
    let tri = (p * (p + 1) / 2) as u64;
    [
        Op {
            name: "update",
            bytes: 2 * b,
            flops: 2 * tri,
            baseline: "rmw",
        },
        Op {
            name: "cov_mul",
            bytes: b,
            flops: 4 * off + 2 * p as u64,
            baseline: "read",
        },
        Op {
            name: "quad_form",
            bytes: b,
            flops: pp,
            baseline: "read",
        },
        Op {
            name: "step",
            bytes: 3 * b,
            flops: 2 * tri + 4 * off + 2 * p as u64,
            baseline: "rmw",
        },
    ]
}

/// Runs `op` (one call of kernel `name`) on fresh state; state persists across calls.
struct Runner {
    input: Inputs,
    class: ClassMoments,
    out: Vec<f64>,
    k: usize,
}

impl Runner {
    fn new(p: usize) -> Self {
        let input = inputs(p);
        let class = input.moments.pos.clone();
        Self {
            input,
            class,
            out: vec![0.0; p],
            k: 0,
        }
    }

    #[inline]
    fn call(&mut self, name: &str) -> f64 {
        self.k = (self.k + 1) % ROWS;
        let x = Row::Dense(&self.input.rows[self.k]);
        match name {
            "update" => {
                self.class.update(black_box(x));
                self.class.count() as f64
            }
            "cov_mul" => {
                self.class.cov_mul(black_box(&self.input.w), &mut self.out);
                self.out[0]
            }
            "quad_form" => self.class.quad_form(black_box(&self.input.w)),
            "step" => {
                let y = if self.k % 2 == 0 {
                    Label::Pos
                } else {
                    Label::Neg
                };
                self.input.moments.update_and_mul_opposite(
                    black_box(x),
                    y,
                    &self.input.w,
                    &mut self.out,
                )
            }
            other => unreachable!("unknown op {other}"),
        }
    }
}

/// Buffers of the triangle's size for the bandwidth baselines.
struct Buffers {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
}

impl Buffers {
    fn new(p: usize) -> Self {
        let n = p * (p + 1) / 2;
        Self {
            a: vec![1.0; n],
            b: vec![0.5; n],
            c: vec![0.25; n],
        }
    }

    /// Bytes moved by one call of baseline `name`.
    fn bytes(&self, name: &str) -> u64 {
        let b = (self.a.len() * 8) as u64;
        match name {
            "read" => b,
            "rmw" => 2 * b,
            "triad" => 3 * b,
            other => unreachable!("unknown baseline {other}"),
        }
    }

    #[inline]
    fn call(&mut self, name: &str) -> f64 {
        match name {
            "read" => {
                let mut acc = [0.0f64; 8];
                let chunks = self.a.chunks_exact(8);
                let tail: f64 = chunks.remainder().iter().sum();
                for ch in chunks {
                    for k in 0..8 {
                        acc[k] += ch[k];
                    }
                }
                acc.iter().sum::<f64>() + tail
            }
            "rmw" => {
                for v in self.a.iter_mut() {
                    *v = *v * 0.999 + 0.001;
                }
                self.a[0]
            }
            "triad" => {
                for ((a, &b), &c) in self.a.iter_mut().zip(&self.b).zip(&self.c) {
                    *a = b + 0.5 * c;
                }
                self.a[0]
            }
            other => unreachable!("unknown baseline {other}"),
        }
    }
}

const BASELINES: [&str; 3] = ["read", "rmw", "triad"];

fn bench_dim(c: &mut Criterion, p: usize) {
    let mut runner = Runner::new(p);
    for op in ops(p) {
        let mut g = c.benchmark_group(format!("auc-stats/{}", op.name));
        g.throughput(Throughput::Bytes(op.bytes));
        let id = format!("p={p},bytes={},flops={}", op.bytes, op.flops);
        g.bench_function(BenchmarkId::new(op.name, id), |b| {
            b.iter(|| black_box(runner.call(op.name)))
        });
        g.finish();
    }
    let mut buffers = Buffers::new(p);
    let mut g = c.benchmark_group("auc-stats/baseline");
    for name in BASELINES {
        let bytes = buffers.bytes(name);
        g.throughput(Throughput::Bytes(bytes));
        g.bench_function(
            BenchmarkId::new(name, format!("p={p},bytes={bytes}")),
            |b| b.iter(|| black_box(buffers.call(name))),
        );
    }
    g.finish();
}

/// Median ns per call of `f` over 7 batches of about 40 ms each.
fn time_ns(mut f: impl FnMut() -> f64) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < Duration::from_millis(20) || calls < 3 {
        black_box(f());
        calls += 1;
    }
    let per_batch = (calls * 2).max(3);
    let mut samples: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                black_box(f());
            }
            t.elapsed().as_nanos() as f64 / per_batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[3]
}

/// The summary table: ns/call, GB/s, GFLOP/s and fraction of the matching baseline's GB/s.
fn summary() {
    eprintln!(
        "\nauc-stats/summary (median of 7 batches; fraction = op GB/s / baseline GB/s at the same p)"
    );
    eprintln!(
        "{:>5} {:>10} {:>12} {:>8} {:>8} {:>9} {:>8}",
        "p", "op", "ns/call", "GB/s", "GFLOP/s", "baseline", "fraction"
    );
    for p in DIMS {
        let mut buffers = Buffers::new(p);
        let base: Vec<(&str, f64)> = BASELINES
            .iter()
            .map(|&name| {
                let bytes = buffers.bytes(name) as f64;
                let ns = time_ns(|| buffers.call(name));
                eprintln!(
                    "{p:>5} {:>10} {ns:>12.1} {:>8.2} {:>8} {:>9} {:>8}",
                    format!("base:{name}"),
                    bytes / ns,
                    "-",
                    "-",
                    "-"
                );
                (name, bytes / ns)
            })
            .collect();
        let mut runner = Runner::new(p);
        for op in ops(p) {
            let ns = time_ns(|| runner.call(op.name));
            let gbs = op.bytes as f64 / ns;
            let base_gbs = base
                .iter()
                .find(|(n, _)| *n == op.baseline)
                .map(|(_, g)| *g)
                .expect("baseline measured");
            eprintln!(
                "{p:>5} {:>10} {ns:>12.1} {gbs:>8.2} {:>8.2} {:>9} {:>8.2}",
                op.name,
                op.flops as f64 / ns,
                op.baseline,
                gbs / base_gbs
            );
        }
    }
}

/// Every kernel and baseline at every p, then the summary table.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    for p in DIMS {
        bench_dim(&mut c, p);
    }
    summary();
}

criterion_main!(benches);
