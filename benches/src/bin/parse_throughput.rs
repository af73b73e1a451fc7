//! Parses a LIBSVM file several times with `auc_data::read_path` and prints the throughput as one
//! JSON line (used by `benches/compare_sklearn_loader.py`).
//!
//! Usage: `parse_throughput PATH [REPS]` (default 20 repetitions after one warm-up run). Each run
//! opens and reads the file, as scikit-learn's `load_svmlight_file` does, so the OS page cache is
//! warm for both. Reports the best and the median run.
#![allow(
    clippy::print_stdout,
    reason = "the JSON line on stdout is this program's output"
)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use auc_data::{ReadOptions, read_path};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: parse_throughput PATH [REPS]");
        return ExitCode::from(2);
    };
    let reps: usize = match args.next().map(|s| s.parse()) {
        None => 20,
        Some(Ok(r)) if r > 0 => r,
        Some(_) => {
            eprintln!("REPS must be a positive integer");
            return ExitCode::from(2);
        }
    };
    let bytes = match std::fs::metadata(&path) {
        Ok(m) => m.len() as f64,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let opts = ReadOptions::default();
    let mut times = Vec::with_capacity(reps);
    let mut shape = (0, 0, 0);
    for rep in 0..=reps {
        let start = Instant::now();
        let data = match read_path(&path, &opts) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let secs = start.elapsed().as_secs_f64();
        shape = (data.n(), data.dim(), data.nnz());
        std::hint::black_box(data);
        if rep > 0 {
            times.push(secs);
        }
    }
    times.sort_by(f64::total_cmp);
    let best = times[0];
    let median = times[times.len() / 2];
    let mb = bytes / 1e6;
    println!(
        "{{\"file\":{:?},\"bytes\":{},\"n\":{},\"dim\":{},\"nnz\":{},\"reps\":{},\"best_s\":{:.6},\"median_s\":{:.6},\"mb_per_s_best\":{:.1},\"mb_per_s_median\":{:.1}}}",
        path.display().to_string(),
        bytes,
        shape.0,
        shape.1,
        shape.2,
        reps,
        best,
        median,
        mb / best,
        mb / median
    );
    ExitCode::SUCCESS
}
