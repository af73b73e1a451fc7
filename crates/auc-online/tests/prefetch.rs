//! `OnlineLearner::prefetch` is a hint: telling a learner the next row (or any row, even one
//! whose indices lie past its state) changes nothing it computes. Each learner that prefetches
//! is fed a sparse stream twice, once plainly and once with a prefetch of the next row and of
//! an out-of-range row before every step, and the two states must serialize to the same bytes;
//! `auc_core::update_in_order` must give the plain loop's state as well.

use auc_core::Label::{self, Neg, Pos};
use auc_core::testing::sparse_dataset;
use auc_core::{OnlineLearner, OnlineParams, Row, SparseVec, update_in_order};
use auc_online::{
    Averaged, BalAdagradParams, BalFtrlParams, PaIParams, PerceptronParams, SolamParams,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Features of the stream.
const P: usize = 300;

/// 400 sparse rows of 1 to 12 features over `P`, one positive in four, values in (-2, 2).
fn stream() -> Vec<(SparseVec, Label)> {
    let mut rng = StdRng::seed_from_u64(23);
    (0..400)
        .map(|_| {
            let nnz = rng.random_range(1..=12);
            let mut idx: Vec<u32> = (0..nnz).map(|_| rng.random_range(0..P as u32)).collect();
            idx.sort_unstable();
            idx.dedup();
            let pairs: Vec<(u32, f64)> = idx
                .into_iter()
                .map(|j| (j, rng.random_range(-2.0..2.0)))
                .collect();
            let y = if rng.random_range(0..4) == 0 {
                Pos
            } else {
                Neg
            };
            (SparseVec::from_pairs(pairs).unwrap(), y)
        })
        .collect()
}

/// A row whose indices lie far past every state of this test.
fn out_of_range() -> SparseVec {
    SparseVec::from_pairs([(1 << 20, 1.0), (u32::MAX - 1, -1.0)]).unwrap()
}

fn bytes<T: Serialize>(t: &T) -> Vec<u8> {
    serde_json::to_vec(t).unwrap()
}

/// The plain run, the run with prefetches and the run of `update_in_order` end in the same
/// state.
fn same_state<L: OnlineLearner + Serialize>(build: impl Fn() -> L) {
    let rows = stream();
    let far = out_of_range();
    let (mut plain, mut hinted, mut ordered) = (build(), build(), build());
    for (i, (x, y)) in rows.iter().enumerate() {
        plain.update(Row::Sparse(x.view()), *y);
        if let Some((next, _)) = rows.get(i + 1) {
            hinted.prefetch(Row::Sparse(next.view()));
        }
        hinted.prefetch(Row::Sparse(far.view()));
        hinted.prefetch(Row::Dense(&[1.0, 2.0]));
        hinted.update(Row::Sparse(x.view()), *y);
    }
    let data = sparse_dataset(&rows, P);
    let mut after = Vec::new();
    update_in_order(&mut ordered, &data, |i| after.push(i));
    assert_eq!(after, (0..rows.len()).collect::<Vec<_>>());
    assert_eq!(bytes(&plain), bytes(&hinted), "with prefetches");
    assert_eq!(bytes(&plain), bytes(&ordered), "update_in_order");
}

#[test]
fn prefetching_changes_no_state() {
    same_state(|| PaIParams::default().build(P, 0).unwrap());
    same_state(|| PerceptronParams::default().build(P, 0).unwrap());
    same_state(|| SolamParams::default().build(P, 0).unwrap());
    same_state(|| BalAdagradParams::default().build(P, 0).unwrap());
    same_state(|| BalFtrlParams::default().build(P, 0).unwrap());
    same_state(|| Averaged::new(PaIParams::default().build(P, 0).unwrap()));
    same_state(|| Averaged::new(BalFtrlParams::default().build(P, 0).unwrap()));
}
