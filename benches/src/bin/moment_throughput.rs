//! Trains OPAUC or OAUC-M on a LIBSVM file, one pass, and prints the final $w$ and the examples per
//! second as one JSON line (used by `benches/compare_numpy_moment.py`).
//!
//! Usage: `moment_throughput PATH ALGO LAMBDA [ETA] [REPS] [DIM]`, with ALGO `opauc` (needs ETA) or
//! `oauc-m` (ETA is ignored; the step is $1/(\lambda t)$), REPS passes timed (default 5, the best
//! counts; each pass starts from a fresh learner) and DIM the dimension (default: the file's
//! largest index). Label `+1` is positive, every other label negative. The rows are made dense
//! before timing, as the numpy script does, so both time the learner alone.
#![allow(
    clippy::print_stdout,
    reason = "the JSON line on stdout is this program's output"
)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use auc_core::{Label, OnlineLearner, OnlineParams, Params, Row};
use auc_data::{Positive, ReadOptions, read_path};
use auc_online::{Linear, OaucMParams, OpaucParams};

/// One timed pass: a fresh learner over every row; returns the seconds and the final weights.
fn pass<P>(params: &P, dim: usize, rows: &[f64], labels: &[Label]) -> (f64, Vec<f64>)
where
    P: OnlineParams,
    P::Learner: Linear,
{
    let mut l = params.build(dim, 0).expect("checked parameters");
    let start = Instant::now();
    for (x, y) in rows.chunks_exact(dim.max(1)).zip(labels) {
        l.update(Row::Dense(x), *y);
    }
    let secs = start.elapsed().as_secs_f64();
    (secs, l.weights().to_vec())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: moment_throughput PATH opauc|oauc-m LAMBDA [ETA] [REPS] [DIM]");
        return ExitCode::from(2);
    }
    let path = PathBuf::from(&args[0]);
    let algo = args[1].as_str();
    let num = |i: usize, default: Option<f64>| -> Option<f64> {
        args.get(i).map_or(default, |s| s.parse().ok())
    };
    let (Some(lambda), Some(eta), Some(reps), Some(dim)) = (
        num(2, None),
        num(3, Some(1.0)),
        num(4, Some(5.0)),
        num(5, Some(0.0)),
    ) else {
        eprintln!("LAMBDA, ETA, REPS and DIM must be numbers");
        return ExitCode::from(2);
    };
    let opts = ReadOptions {
        dim: (dim > 0.0).then_some(dim as usize),
        ..ReadOptions::default()
    };
    let data =
        match read_path(&path, &opts).and_then(|raw| raw.binarize(&Positive::Labels(vec![1.0]))) {
            Ok(d) => d.to_dense(),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
    let p = data.dim();
    let mut rows = vec![0.0; data.n() * p];
    for (i, (x, _)) in data.iter().enumerate() {
        x.write_dense(&mut rows[i * p..(i + 1) * p]);
    }
    let labels = data.labels();
    let reps = (reps as usize).max(1);
    let run = |f: &dyn Fn() -> (f64, Vec<f64>)| {
        let mut best = f64::INFINITY;
        let mut w = Vec::new();
        for _ in 0..reps {
            let (secs, wr) = f();
            best = best.min(secs);
            w = wr;
        }
        (best, w)
    };
    let (best, w) = if algo == OpaucParams::NAME {
        let params = OpaucParams {
            eta,
            lambda,
            sketch: 0,
        };
        run(&|| pass(&params, p, &rows, labels))
    } else if algo == OaucMParams::NAME {
        let params = OaucMParams { lambda, sketch: 0 };
        run(&|| pass(&params, p, &rows, labels))
    } else {
        eprintln!(
            "unknown ALGO {algo}: use {} or {}",
            OpaucParams::NAME,
            OaucMParams::NAME
        );
        return ExitCode::from(2);
    };
    let w_json: Vec<String> = w.iter().map(|v| format!("{v:e}")).collect();
    println!(
        "{{\"algo\":{algo:?},\"n\":{},\"dim\":{p},\"reps\":{reps},\"best_s\":{best:.6},\"examples_per_s\":{:.1},\"w\":[{}]}}",
        data.n(),
        data.n() as f64 / best,
        w_json.join(",")
    );
    ExitCode::SUCCESS
}
