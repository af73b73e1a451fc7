//! Public-API tests of OAM-seq and OAM-gra [OAM11, alg. 1-4].

use auc_core::Label::{Neg, Pos};
use auc_core::testing::tol;
use auc_core::{Label, OnlineLearner, OnlineParams, ParamError, Row, Scorer, SparseVec};
use auc_online::{Linear, OamGra, OamGraParams, OamSeq, OamSeqParams};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

mod common;
use common::{auc, feed, two_gaussians};

fn seq(c: f64, budget: usize, dim: usize) -> OamSeq {
    OamSeqParams { c, budget }.build(dim, 0).unwrap()
}

fn gra(c: f64, budget: usize, dim: usize) -> OamGra {
    OamGraParams { c, budget }.build(dim, 0).unwrap()
}

fn finite(w: &[f64]) -> bool {
    w.iter().all(|v| v.is_finite())
}

#[test]
#[allow(clippy::float_cmp)] // Dyadic values: every step below is exact.
fn sequential_uses_the_current_w_and_gradient_the_old_one() {
    // Budget 10, C = 2, p = 2. (1, 0)+ and (1, 1)+ enter B+ (no negatives yet: no step).
    // Then (0, 0)- against B+ = [(1, 0), (1, 1)], y = -1:
    // Sequential: i = 1: d = x_t - x_i = (-1, 0), w.d = 0, hinge = 1 - (-1)(0) = 1, ||d||^2 = 1,
    //   tau = min(C/2 = 1, 1/1) = 1, w = 0 + 1 * (-1) * (-1, 0) = (1, 0).
    //   i = 2: d = (-1, -1), w.d = -1, hinge = 1 - (-1)(-1) = 0: no step. w = (1, 0).
    // Gradient: at w = 0 both margins are 0 < 1, so w = (C/2) * (-1) * ((-1, 0) + (-1, -1)) = (2, 1).
    let stream = vec![
        (vec![1.0, 0.0], Pos),
        (vec![1.0, 1.0], Pos),
        (vec![0.0, 0.0], Neg),
    ];
    let mut s = seq(2.0, 10, 2);
    let mut g = gra(2.0, 10, 2);
    feed(&mut s, &stream);
    feed(&mut g, &stream);
    assert_eq!(s.weights(), &[1.0, 0.0]);
    assert_eq!(g.weights(), &[2.0, 1.0]);
    // Both buffers: B+ holds the two positives, B- the negative; nothing was evicted.
    assert_eq!(s.buffered(Pos).len(), 2);
    assert_eq!(
        g.buffered(Neg).collect::<Vec<_>>(),
        vec![Row::Dense(&[0.0, 0.0])]
    );
    // A fourth example (2, 0)+ against B- = [(0, 0)]: d = (2, 0).
    // Sequential: w.d = 2, hinge = 1 - 2 < 0: no step.
    // Gradient: w.d = 4, margin 4 >= 1: no step either.
    s.update(Row::Dense(&[2.0, 0.0]), Pos);
    g.update(Row::Dense(&[2.0, 0.0]), Pos);
    assert_eq!(s.weights(), &[1.0, 0.0]);
    assert_eq!(g.weights(), &[2.0, 1.0]);
    // (0, 1)+: d = (0, 1). Sequential: w.d = 0, hinge 1, ||d||^2 = 1, tau = min(1, 1) = 1,
    // w = (1, 1). Gradient: w.d = 1, margin exactly 1: the zero subgradient is taken, no step.
    s.update(Row::Dense(&[0.0, 1.0]), Pos);
    g.update(Row::Dense(&[0.0, 1.0]), Pos);
    assert_eq!(s.weights(), &[1.0, 1.0]);
    assert_eq!(g.weights(), &[2.0, 1.0]);
}

#[test]
#[allow(clippy::float_cmp)] // Dyadic values: every step below is exact.
fn c_t_scales_the_step_once_the_buffer_overflows() {
    // Budget 1, C = 0.5. Four negatives (0, 0) (the buffer keeps one of them: all equal), then
    // (1, 0)+: C_t = 0.5 * max(1, 4/1) = 2, d = (1, 0), hinge 1, tau = min(C_t/2 = 1, 1) = 1.
    // Without the scaling tau would be min(0.25, 1) = 0.25.
    let mut s = seq(0.5, 1, 2);
    let mut g = gra(0.5, 1, 2);
    for _ in 0..4 {
        s.update(Row::Dense(&[0.0, 0.0]), Neg);
        g.update(Row::Dense(&[0.0, 0.0]), Neg);
    }
    s.update(Row::Dense(&[1.0, 0.0]), Pos);
    g.update(Row::Dense(&[1.0, 0.0]), Pos);
    assert_eq!(s.weights(), &[1.0, 0.0]);
    // Gradient: w = (C_t/2) * (1, 0) = (1, 0).
    assert_eq!(g.weights(), &[1.0, 0.0]);
    assert_eq!((s.seen(Neg), s.buffered(Neg).len()), (4, 1));
}

#[test]
fn reservoir_keeps_each_item_with_probability_budget_over_n() {
    // 20 positives x = (i) into a budget-5 buffer, over 4000 seeds: each item should end in the
    // buffer with probability 5/20, i.e. 1000 times (binomial sd = sqrt(4000 * 0.25 * 0.75) = 27.4).
    const N: usize = 20;
    const SEEDS: u64 = 4000;
    let mut counts = [0usize; N];
    for seed in 0..SEEDS {
        let mut l = OamSeqParams { c: 1.0, budget: 5 }.build(1, seed).unwrap();
        for i in 0..N {
            l.update(Row::Dense(&[i as f64]), Pos);
        }
        assert_eq!(l.buffered(Pos).len(), 5);
        for row in l.buffered(Pos) {
            counts[row.get(0) as usize] += 1;
        }
    }
    let expected = SEEDS as f64 * 5.0 / N as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / (expected * 0.75))
        .sum();
    // Pearson's statistic with the binomial variance, 19 degrees of freedom: mean 19, sd 6.2;
    // P(chi2 > 50) is about 1e-4. Each count also stays within 5 sd of 1000.
    assert!(chi2 < 50.0, "chi2 = {chi2}, counts = {counts:?}");
    assert!(
        counts
            .iter()
            .all(|&c| (c as f64 - expected).abs() < 5.0 * 27.4),
        "{counts:?}"
    );
}

#[test]
fn seeds_change_the_buffer_and_build_is_seed_zero() {
    let stream = two_gaussians(300, 3, 1);
    let mut a = OamSeqParams { c: 1.0, budget: 10 }.build(3, 0).unwrap();
    let mut b = seq(1.0, 10, 3);
    let mut c = OamSeqParams { c: 1.0, budget: 10 }.build(3, 99).unwrap();
    feed(&mut a, &stream);
    feed(&mut b, &stream);
    feed(&mut c, &stream);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

proptest! {
    /// Buffers never exceed the budget, hold min(seen, budget) rows, and count every example.
    #[test]
    fn buffers_never_exceed_the_budget(
        budget in 1u32..6,
        labels in proptest::collection::vec(any::<bool>(), 0..60),
        seed in any::<u64>(),
    ) {
        let params = OamGraParams { c: 1.0, budget: budget as usize };
        let mut l = params.build(2, seed).unwrap();
        let mut s = OamSeqParams { c: 1.0, budget: budget as usize }.build(2, seed).unwrap();
        let (mut n_pos, mut n_neg) = (0u64, 0u64);
        for (i, &pos) in labels.iter().enumerate() {
            let y = if pos { Pos } else { Neg };
            if pos { n_pos += 1 } else { n_neg += 1 }
            let x = [i as f64 * 0.1, 1.0 - i as f64 * 0.05];
            l.update(Row::Dense(&x), y);
            s.update(Row::Dense(&x), y);
            for learner_len in [
                (l.buffered(Pos).len(), l.buffered(Neg).len()),
                (s.buffered(Pos).len(), s.buffered(Neg).len()),
            ] {
                prop_assert!(learner_len.0 as u64 <= u64::from(budget));
                prop_assert!(learner_len.1 as u64 <= u64::from(budget));
                prop_assert_eq!(learner_len.0 as u64, n_pos.min(u64::from(budget)));
                prop_assert_eq!(learner_len.1 as u64, n_neg.min(u64::from(budget)));
            }
            prop_assert_eq!((l.seen(Pos), l.seen(Neg)), (n_pos, n_neg));
        }
    }
}

/// A seeded sparse stream over `dim` features with about `nnz` values per row in [-1, 1].
fn sparse_stream(n: usize, dim: u32, nnz: u32, seed: u64) -> Vec<(SparseVec, Label)> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let y = if rng.random_range(0..3) == 0 {
                Pos
            } else {
                Neg
            };
            let mut idx: Vec<u32> = (0..nnz)
                .map(|_| rng.random_range(0..u64::from(dim)) as u32)
                .collect();
            idx.sort_unstable();
            idx.dedup();
            let pairs = idx
                .into_iter()
                .map(|j| (j, 2.0 * rng.random::<f64>() - 1.0 + 0.3 * y.sign()));
            (SparseVec::from_pairs(pairs).unwrap(), y)
        })
        .collect()
}

fn sparse_and_dense_agree<P: OnlineParams>(params: &P)
where
    P::Learner: Linear,
{
    let dim = 12;
    let stream = sparse_stream(400, dim as u32, 4, 5);
    let mut sparse = params.build(dim, 3).unwrap();
    let mut dense = params.build(dim, 3).unwrap();
    let mut buf = vec![0.0; dim];
    for (x, y) in &stream {
        sparse.update(Row::Sparse(x.view()), *y);
        Row::Sparse(x.view()).write_dense(&mut buf);
        dense.update(Row::Dense(&buf), *y);
    }
    for (a, b) in sparse.weights().iter().zip(dense.weights()) {
        assert!(tol::close(*a, *b), "sparse {a} vs dense {b}");
    }
    assert!(sparse.weights().iter().any(|&v| v.abs() > 1e-3));
}

#[test]
fn sparse_and_dense_rows_give_the_same_model() {
    sparse_and_dense_agree(&OamSeqParams { c: 0.5, budget: 8 });
    sparse_and_dense_agree(&OamGraParams { c: 0.5, budget: 8 });
}

fn resume_equals_uninterrupted<P>(params: &P)
where
    P: OnlineParams,
    P::Learner:
        Linear + PartialEq + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned,
{
    let stream = two_gaussians(600, 4, 11);
    let (head, tail) = stream.split_at(250);
    let mut straight = params.build(4, 17).unwrap();
    feed(&mut straight, &stream);
    let mut first = params.build(4, 17).unwrap();
    feed(&mut first, head);
    let bytes = postcard::to_allocvec(&first).unwrap();
    let mut resumed: P::Learner = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(resumed, first);
    feed(&mut resumed, tail);
    assert_eq!(resumed, straight);
    let bits = |w: &[f64]| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(resumed.weights()), bits(straight.weights()));
}

#[test]
fn resume_after_saving_equals_an_uninterrupted_run() {
    // Budget 20 < the ~150 positives and ~450 negatives: the reservoir draws random numbers.
    resume_equals_uninterrupted(&OamSeqParams { c: 0.5, budget: 20 });
    resume_equals_uninterrupted(&OamGraParams { c: 0.5, budget: 20 });
}

fn adversarial_streams(p: usize) -> Vec<Vec<(Vec<f64>, Label)>> {
    let zeros = (0..50)
        .map(|i| (vec![0.0; p], if i % 3 == 0 { Pos } else { Neg }))
        .collect();
    let one_class = two_gaussians(100, p, 2)
        .into_iter()
        .map(|(x, _)| (x, Pos))
        .collect();
    let repeated = (0..50)
        .map(|i| (vec![0.5; p], if i % 2 == 0 { Pos } else { Neg }))
        .collect();
    let huge = two_gaussians(100, p, 3)
        .into_iter()
        .map(|(x, y)| (x.iter().map(|v| 1e6 * v).collect(), y))
        .collect();
    let near = (0..60)
        .map(|i| {
            let mut x = vec![1e6; p];
            x[0] += (i % 5) as f64;
            (x, if i % 2 == 0 { Pos } else { Neg })
        })
        .collect();
    vec![zeros, one_class, repeated, huge, near]
}

#[test]
fn no_nan_on_adversarial_streams() {
    let p = 3;
    for c in [1e-3, 1.0, 1024.0] {
        for (k, stream) in adversarial_streams(p).iter().enumerate() {
            let mut s = seq(c, 10, p);
            let mut g = gra(c, 10, p);
            feed(&mut s, stream);
            feed(&mut g, stream);
            assert!(
                finite(s.weights()),
                "seq, stream {k}, c = {c}: {:?}",
                s.weights()
            );
            assert!(
                finite(g.weights()),
                "gra, stream {k}, c = {c}: {:?}",
                g.weights()
            );
            for (x, _) in stream {
                assert!(!s.score(Row::Dense(x)).is_nan());
                assert!(!g.score(Row::Dense(x)).is_nan());
            }
        }
    }
    // All-zero rows and repeated identical rows never move w.
    for k in [0, 2] {
        let mut s = seq(1.0, 10, p);
        feed(&mut s, &adversarial_streams(p)[k]);
        assert!(
            s.weights().iter().all(|&v| v == 0.0),
            "{k}: {:?}",
            s.weights()
        );
    }
}

#[test]
fn both_variants_learn_two_gaussians() {
    let train = two_gaussians(2000, 4, 21);
    let test = two_gaussians(1000, 4, 22);
    let mut s = seq(0.1, 100, 4);
    let mut g = gra(0.01, 100, 4);
    feed(&mut s, &train);
    feed(&mut g, &train);
    let (auc_s, auc_g) = (auc(&s, &test), auc(&g, &test));
    assert!(auc_s > 0.85, "OAM-seq AUC {auc_s}");
    assert!(auc_g > 0.85, "OAM-gra AUC {auc_g}");
}

#[test]
#[allow(clippy::float_cmp)] // Values copied from the map unchanged.
fn params_are_read_from_json_and_checked() {
    let p: OamSeqParams = serde_json::from_str(r#"{"c": 0.25}"#).unwrap();
    assert_eq!((p.c, p.budget), (0.25, 100));
    let g: OamGraParams = serde_json::from_str(r#"{"c": 2.0, "budget": 7}"#).unwrap();
    assert_eq!((g.c, g.budget), (2.0, 7));
    assert!(serde_json::from_str::<OamGraParams>(r#"{"budget": 2.5}"#).is_err());
    assert!(serde_json::from_str::<OamGraParams>(r#"{"eta": 1.0}"#).is_err());
    for (c, budget, name) in [(0.0, 10, "c"), (f64::NAN, 10, "c"), (1.0, 0, "budget")] {
        assert!(matches!(
            OamSeqParams { c, budget }.build(2, 0),
            Err(ParamError::OutOfRange { name: n, .. }) if n == name
        ));
        assert!(matches!(
            OamGraParams { c, budget }.build(2, 0),
            Err(ParamError::OutOfRange { name: n, .. }) if n == name
        ));
    }
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<OamSeq>();
    check::<OamGra>();
    check::<OamSeqParams>();
    check::<OamGraParams>();
}
