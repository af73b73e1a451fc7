//! Examples per second of the moment learners (OAUC-M, OAUC-M_c, OPAUC, AdaOAM, AdmOAM) on dense
//! streams, against the moment work they cannot avoid.
//!
//! Group `auc-online/moment`; IDs `<algo>/dense,p=<p>,n=<n>`; `Throughput::Elements(n)`: one
//! iteration feeds a fresh learner (built outside the timing by `iter_batched`) a stream of `n`
//! examples. The baseline `moments-only` does, per example, exactly the moment work of a learner
//! step: `Moments::update_and_mul_opposite` (add $x$ to its class, $\Sigma w$ and
//! $w^\top\Sigma w$ of the other) with a fixed $w$. So `learner time / moments-only time` is the
//! overhead of the gradient step itself, which is $O(p)$ against the $O(p^2)$ moment work.
//!
//! A step costs $\approx 3p^2$ flops ($p(p+1)$ for the rank-one update, $2p^2$ for $\Sigma w$)
//! and moves $12 p (p+1)$ bytes of packed triangles. After the criterion runs, a summary table
//! (stderr) times every learner again with `Instant` and prints examples/s, ns/step, GFLOP/s and
//! the ratio to `moments-only`. Group `auc-online/moment-sketch` prices OPAUC's sketched
//! moments (`sketch = 32`) against its exact ones at $p = 512$ and $2048$.

use std::hint::black_box;
use std::time::{Duration, Instant};

use auc_core::{Label, OnlineLearner, OnlineParams, Params, Row};
use auc_online::{AdaOamParams, AdmOamParams, OaucMParams, OaucMcParams, OpaucParams};
use auc_stats::Moments;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Feature counts benchmarked (123 is a9a's width).
const DIMS: [usize; 5] = [8, 20, 32, 123, 512];
const SEED: u64 = 0x4d4f_4d45;

/// Examples per stream: a few thousand, fewer at $p = 512$ where a step takes tens of µs.
fn stream_len(p: usize) -> usize {
    if p >= 512 { 1000 } else { 4000 }
}

/// A seeded dense stream: 25 % positives, features in $[-1, 1)$ shifted by $\pm 0.2$ per class.
fn stream(p: usize) -> (Vec<Vec<f64>>, Vec<Label>) {
    let mut rng = StdRng::seed_from_u64(SEED ^ p as u64);
    let n = stream_len(p);
    let labels: Vec<Label> = (0..n)
        .map(|_| {
            if rng.random_range(0.0..1.0) < 0.25 {
                Label::Pos
            } else {
                Label::Neg
            }
        })
        .collect();
    let rows = labels
        .iter()
        .map(|y| {
            let s = 0.2 * y.sign();
            (0..p).map(|_| s + rng.random_range(-1.0..1.0)).collect()
        })
        .collect();
    (rows, labels)
}

fn feed<L: OnlineLearner>(mut l: L, rows: &[Vec<f64>], labels: &[Label]) -> L {
    for (x, y) in rows.iter().zip(labels) {
        l.update(Row::Dense(x), *y);
    }
    l
}

/// The moment work of a stream of learner steps, with a fixed $w$.
fn moments_only(
    mut m: Moments,
    rows: &[Vec<f64>],
    labels: &[Label],
    w: &[f64],
    sw: &mut [f64],
) -> f64 {
    let mut acc = 0.0;
    for (x, y) in rows.iter().zip(labels) {
        acc += m.update_and_mul_opposite(Row::Dense(x), *y, w, sw);
    }
    acc
}

/// The registered name of a parameter type's algorithm.
fn name_of<P: Params>(_: &P) -> &'static str {
    P::NAME
}

/// Calls `$f!(params)` for each learner, with the parameters used throughout.
macro_rules! for_each_learner {
    ($f:ident) => {
        $f!(OaucMParams {
            lambda: 0.0625,
            sketch: 0
        });
        $f!(OaucMcParams {
            eta: 0.0625,
            lambda: 0.015625,
            sketch: 0
        });
        $f!(OpaucParams {
            eta: 0.0625,
            lambda: 0.015625,
            sketch: 0
        });
        $f!(AdaOamParams {
            eta: 0.25,
            lambda: 0.015625,
            epsilon: 1e-8,
            sketch: 0
        });
        $f!(AdmOamParams {
            eta: 0.0625,
            lambda: 0.015625,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            sketch: 0
        });
    };
}

fn bench_dim(c: &mut Criterion, p: usize) {
    let (rows, labels) = stream(p);
    let n = rows.len();
    let id = format!("dense,p={p},n={n}");
    let mut g = c.benchmark_group("auc-online/moment");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    let w: Vec<f64> = (0..p).map(|j| 0.01 * (j % 7) as f64 - 0.03).collect();
    let mut sw = vec![0.0; p];
    g.bench_function(BenchmarkId::new("moments-only", &id), |b| {
        b.iter_batched(
            || Moments::new(p),
            |m| black_box(moments_only(m, &rows, &labels, &w, &mut sw)),
            BatchSize::SmallInput,
        )
    });
    macro_rules! bench {
        ($params:expr) => {
            let params = $params;
            g.bench_function(BenchmarkId::new(name_of(&params), &id), |b| {
                b.iter_batched(
                    || params.build(p, 0).expect("valid parameters"),
                    |l| black_box(feed(l, &rows, &labels)),
                    BatchSize::SmallInput,
                )
            });
        };
    }
    for_each_learner!(bench);
    g.finish();
}

/// Group `auc-online/moment-sketch`: OPAUC with exact moments against `sketch = 32` on the
/// same dense stream, IDs `opauc/<exact|sketch=32>,p=<p>,n=<n>`. An exact step is
/// $\approx 3p^2$ flops, a sketched one $\approx 4\ell p$ plus the insert and, every $\ell$ rows of
/// a class, a shrink of $\approx 2\ell^2 p$ (docs/math/sketched-moments.md sections 4-5), so the
/// ratio should approach $3p / (6\ell)$ as $p$ grows.
fn bench_sketched(c: &mut Criterion, p: usize) {
    let (rows, labels) = stream(p);
    let n = rows.len();
    let mut g = c.benchmark_group("auc-online/moment-sketch");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(2));
    for sketch in [0, 32] {
        let params = OpaucParams {
            sketch,
            ..OpaucParams::default()
        };
        let what = if sketch == 0 {
            "exact".to_owned()
        } else {
            format!("sketch={sketch}")
        };
        g.bench_function(
            BenchmarkId::new(name_of(&params), format!("{what},p={p},n={n}")),
            |b| {
                b.iter_batched(
                    || params.build(p, 0).expect("valid parameters"),
                    |l| black_box(feed(l, &rows, &labels)),
                    BatchSize::SmallInput,
                )
            },
        );
    }
    g.finish();
}

/// Best of `reps` timings of `f`, in seconds.
fn best_of(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The stderr summary: examples/s, ns/step, GFLOP/s ($3p^2$ flops a step), ratio to moments-only.
fn summary() {
    eprintln!("\nauc-online/moment summary (best of 5 passes; flops per step taken as 3p^2)");
    eprintln!(
        "{:>5} {:>14} {:>12} {:>10} {:>8} {:>10}",
        "p", "algo", "examples/s", "ns/step", "GFLOP/s", "vs moments"
    );
    for p in DIMS {
        let (rows, labels) = stream(p);
        let n = rows.len() as f64;
        let flops = 3.0 * (p * p) as f64;
        let w: Vec<f64> = (0..p).map(|j| 0.01 * (j % 7) as f64 - 0.03).collect();
        let mut sw = vec![0.0; p];
        let base = best_of(5, || {
            black_box(moments_only(Moments::new(p), &rows, &labels, &w, &mut sw));
        });
        let line = |name: &str, secs: f64| {
            eprintln!(
                "{:>5} {:>14} {:>12.0} {:>10.1} {:>8.2} {:>10.3}",
                p,
                name,
                n / secs,
                secs / n * 1e9,
                flops * n / secs / 1e9,
                secs / base
            );
        };
        line("moments-only", base);
        macro_rules! time {
            ($params:expr) => {
                let params = $params;
                let secs = best_of(5, || {
                    black_box(feed(params.build(p, 0).expect("valid"), &rows, &labels));
                });
                line(name_of(&params), secs);
            };
        }
        for_each_learner!(time);
    }
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    for p in DIMS {
        bench_dim(&mut c, p);
    }
    for p in [512, 2048] {
        bench_sketched(&mut c, p);
    }
    c.final_summary();
    summary();
}

criterion_main!(benches);
