//! Per-step time of the $O(\mathrm{nnz})$ learners on wide sparse rows: the same 20 non-zeros a
//! row at $p = 2^{16}$ and $p = 2^{22}$, so a step whose cost grew with $p$ would show as a ratio
//! far above 1 between the two IDs (issue 23).
//!
//! Group `auc-online/sparse-step`; IDs `<algo>/p=<p>,nnz=20`; `Throughput::Elements(n)`. One
//! learner per ID keeps stepping across iterations (building one is $O(p)$, which is not a
//! step); `averaged-pa-i` is PA-I with `Averaged` (lazy averaging). Balanced AdaGrad runs at its
//! defaults, where $\lambda > 0$ makes every touched feature catch up its shrinkage in one power
//! (its lazy L2 step). Balanced FTRL runs at its defaults: nothing to catch up, a step reads and
//! writes one 32-byte slot per non-zero. The rows go through `update_in_order`, as in training:
//! each learner is told the next row before its step on the current one (its prefetch).
//!
//! Group `auc-online/sketched-step`: OPAUC and OAUC-M on sketched moments (rank 32), whose step
//! costs $O(\ell t)$ in the $t$ features the opposite class has touched plus the touched
//! features' vector work, with no $O(p)$ term but the $p/64$ words of the touched set: the same
//! 2,000 rows over 4,096 features, spread through $p = 2^{16}$ and $2^{22}$
//! (`streams::spread_sparse`); IDs `<algo>/p=<p>,touched=4096`. As above one learner per ID
//! keeps stepping (its touched set, and with it the step's work, stops growing after the first
//! pass); what is left between the two IDs is the bit set's $p/64$ words and the memory
//! latency of features $p / 4096$ apart. The ID `<algo>/p=4194304,touched=4096,packed` has the
//! rows of $p = 2^{16}$'s ID unmoved (features $0..4096$) in a learner of $2^{22}$ features:
//! the bit set's words without the spread. `averaged-opauc` is OPAUC under `--average`, whose
//! mean of the iterates is taken in on the touched features only (`Linear::for_each_live`): its
//! two IDs should differ as OPAUC's do.

use std::hint::black_box;

use auc_benches::streams;
use auc_core::{Dataset, OnlineLearner, OnlineParams, Params, update_in_order};
use auc_online::{
    Averaged, BalAdagradParams, BalFtrlParams, OaucMParams, OpaucParams, PaIParams,
    PerceptronParams, SolamParams,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// Feature counts: $2^{16}$ and $2^{22}$.
const DIMS: [usize; 2] = [1 << 16, 1 << 22];
/// Non-zeros per row.
const NNZ: usize = 20;
/// Rows per iteration.
const N: usize = 20_000;

fn bench_learner<L: OnlineLearner>(c: &mut Criterion, name: &str, id: &str, mut l: L, d: &Dataset) {
    let mut g = c.benchmark_group("auc-online/sparse-step");
    g.throughput(Throughput::Elements(d.n() as u64));
    g.bench_function(BenchmarkId::new(name, id), |b| {
        b.iter(|| update_in_order(&mut l, black_box(d), |_| {}))
    });
    g.finish();
    black_box(l.score(d.iter().next().expect("rows").0));
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    for p in DIMS {
        let data = streams::wide_sparse(N, p, NNZ);
        let id = format!("p={p},nnz={NNZ}");
        let pa = PaIParams::default();
        let ok = "valid parameters";
        let l = pa.build(p, 1).expect(ok);
        bench_learner(&mut c, PaIParams::NAME, &id, l, &data);
        let l = PerceptronParams {}.build(p, 1).expect(ok);
        bench_learner(&mut c, PerceptronParams::NAME, &id, l, &data);
        let l = SolamParams::default().build(p, 1).expect(ok);
        bench_learner(&mut c, SolamParams::NAME, &id, l, &data);
        let l = BalAdagradParams::default().build(p, 1).expect(ok);
        bench_learner(&mut c, BalAdagradParams::NAME, &id, l, &data);
        let l = BalFtrlParams::default().build(p, 1).expect(ok);
        bench_learner(&mut c, BalFtrlParams::NAME, &id, l, &data);
        let l = Averaged::new(pa.build(p, 1).expect(ok));
        bench_learner(&mut c, "averaged-pa-i", &id, l, &data);
    }
    sketched_benches(&mut c);
}

/// Features the sketched group's rows touch.
const TOUCHED: usize = 4096;
/// Rows of a sketched pass.
const SKETCHED_N: usize = 2_000;

fn bench_sketched<L: OnlineLearner>(
    c: &mut Criterion,
    name: &str,
    mut l: L,
    p: usize,
    packed: bool,
    d: &Dataset,
) {
    let mut g = c.benchmark_group("auc-online/sketched-step");
    g.throughput(Throughput::Elements(d.n() as u64));
    g.sample_size(10);
    let id = format!(
        "p={p},touched={TOUCHED}{}",
        if packed { ",packed" } else { "" }
    );
    g.bench_function(BenchmarkId::new(name, id), |b| {
        b.iter(|| update_in_order(&mut l, black_box(d), |_| {}))
    });
    g.finish();
    black_box(l.score(d.iter().next().expect("rows").0));
}

fn sketched_benches(c: &mut Criterion) {
    let opauc = OpaucParams {
        sketch: 32,
        ..OpaucParams::default()
    };
    let oauc_m = OaucMParams {
        sketch: 32,
        ..OaucMParams::default()
    };
    let (small, large) = (DIMS[0], DIMS[1]);
    for (p, packed, spread_to) in [
        (small, false, small),
        (large, false, large),
        (large, true, small),
    ] {
        let data = streams::spread_sparse(SKETCHED_N, TOUCHED, spread_to, NNZ);
        let ok = "valid parameters";
        let l = opauc.build(p, 1).expect(ok);
        bench_sketched(c, OpaucParams::NAME, l, p, packed, &data);
        let l = oauc_m.build(p, 1).expect(ok);
        bench_sketched(c, OaucMParams::NAME, l, p, packed, &data);
        // The mean of the iterates taken in on the touched features only.
        let l = Averaged::new(opauc.build(p, 1).expect(ok));
        bench_sketched(c, "averaged-opauc", l, p, packed, &data);
    }
}

criterion_main!(benches);
