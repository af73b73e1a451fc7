//! Optimization-stage time of the GAM-CVM core vector machine against the number of
//! positive-negative pairs, $10^4$ to $10^7$, and on a Letter-z-sized problem (conventions section 7).
//! The kernel matrix is built outside the timed closure, as \[CVM Table 3\] times the
//! optimization stage only.

use std::hint::black_box;

use auc_benches::cvm::{LETTER_Z, PAIRS, problem, sizes};
use auc_cvm::solver::{CvmParams, Problem, cvm};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("auc-cvm/solve");
    group.sample_size(10);
    let mut cases: Vec<(usize, usize, &str)> = PAIRS
        .iter()
        .map(|&p| (sizes(p).0, sizes(p).1, "synthetic"))
        .collect();
    cases.push((LETTER_Z.0, LETTER_Z.1, "letter-z-shaped"));
    for (np, nn, what) in cases {
        let (g, pos, neg) = problem(np, nn, 1);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let params = CvmParams {
            c1: 1.0,
            eps: 1e-3,
            seed: 0,
            max_core: 20_000,
        };
        group.throughput(Throughput::Elements((np * nn) as u64));
        group.bench_with_input(
            BenchmarkId::new(
                "core-vector-machine",
                format!("{what},pairs={},eps=1e-3,c1=1", np * nn),
            ),
            &pb,
            |b, pb| b.iter(|| black_box(cvm(black_box(pb), &params).map(|s| s.q))),
        );
    }
    group.finish();
}

/// What `criterion_group!` would generate, without its undocumented public function.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    solve(&mut c);
}

criterion_main!(benches);
