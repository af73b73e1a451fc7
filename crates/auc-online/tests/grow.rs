//! `OnlineLearner::grow`: why padding a state with zeros is exact, and where it is bit for bit.
//!
//! A run that knows the final dimension from the start keeps every entry of a feature that has
//! not appeared yet at exactly 0: the weight, the class means and every co-moment involving it
//! (checked after each example below). So the state of a run that starts small and pads with
//! zeros when a new feature appears is the same state. The learners whose arithmetic on sparse
//! rows touches only the stored entries (the Perceptron, PA-I, SOLAM, OAM, and averaging) give
//! bit-identical states; the moment learners sum over all $p$ features with lane-wise
//! accumulators whose grouping depends on $p$, so theirs agree to rounding.

mod common;

use auc_core::{Label, OnlineLearner, OnlineParams, Row, SparseVec};
use auc_online::{
    AdaOamParams, AdmOamParams, Averaged, Linear, OamGraParams, OamSeqParams, OaucMParams,
    OaucMcParams, OpaucParams, PaIParams, PerceptronParams, SolamParams,
};
use serde::Serialize;

/// Features of the stream.
const P: usize = 7;

/// Feature `j` is 0 before row `FIRST * j`.
const FIRST: usize = 25;

/// Two Gaussians in which feature `j` appears at row `FIRST * j`.
fn stream() -> Vec<(Vec<f64>, Label)> {
    let mut s = common::two_gaussians(300, P, 5);
    for (i, (x, _)) in s.iter_mut().enumerate() {
        for (j, v) in x.iter_mut().enumerate() {
            if i < FIRST * j {
                *v = 0.0;
            }
        }
    }
    s
}

/// One past the last feature that may be non-zero at row `i`.
fn seen_dim(i: usize) -> usize {
    (i / FIRST + 1).min(P)
}

fn sparse(x: &[f64]) -> SparseVec {
    SparseVec::from_pairs(
        x.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(j, &v)| (j as u32, v)),
    )
    .expect("increasing indices, finite values")
}

/// Runs `known` (built for `P`) and `grown` (built for 1, grown as features appear) on the
/// sparse stream; after every row, checks that `known`'s weights are exactly 0 at the features
/// not seen yet and, if `extra` says so, more of its state. Returns both learners.
fn run<L: OnlineLearner + Linear>(mut known: L, mut grown: L, extra: impl Fn(&L, usize)) -> (L, L) {
    for (i, (x, y)) in stream().iter().enumerate() {
        let dim = seen_dim(i);
        if dim > grown.weights().len() {
            grown.grow(dim).unwrap();
        }
        let row = sparse(x);
        known.update(Row::Sparse(row.view()), *y);
        grown.update(Row::Sparse(row.view()), *y);
        let w = known.weights();
        assert!(
            w[dim..].iter().all(|v| v.to_bits() == 0),
            "row {i}: weights of unseen features {:?}",
            &w[dim..]
        );
        extra(&known, dim);
    }
    assert_eq!(grown.weights().len(), P);
    (known, grown)
}

fn bytes<T: Serialize>(t: &T) -> Vec<u8> {
    serde_json::to_vec(t).unwrap()
}

#[test]
fn baselines_solam_and_oam_grow_bit_for_bit() {
    let (a, b) = run(
        PerceptronParams {}.build(P, 0).unwrap(),
        PerceptronParams {}.build(1, 0).unwrap(),
        |_, _| {},
    );
    assert_eq!(bytes(&a), bytes(&b));
    let pa = PaIParams { c: 0.5 };
    let (a, b) = run(pa.build(P, 0).unwrap(), pa.build(1, 0).unwrap(), |_, _| {});
    assert_eq!(bytes(&a), bytes(&b));
    let (a, b) = run(
        Averaged::new(pa.build(P, 0).unwrap()),
        Averaged::new(pa.build(1, 0).unwrap()),
        |_, _| {},
    );
    assert_eq!(bytes(&a), bytes(&b));
    let solam = SolamParams { eta: 0.5, r: 10.0 };
    let (a, b) = run(
        solam.build(P, 0).unwrap(),
        solam.build(1, 0).unwrap(),
        |_, _| {},
    );
    assert_eq!(bytes(&a), bytes(&b));
    let seq = OamSeqParams { c: 0.1, budget: 8 };
    let (a, b) = run(
        seq.build(P, 4).unwrap(),
        seq.build(1, 4).unwrap(),
        |_, _| {},
    );
    assert_eq!(bytes(&a), bytes(&b));
    let gra = OamGraParams { c: 0.1, budget: 8 };
    let (a, b) = run(
        gra.build(P, 4).unwrap(),
        gra.build(1, 4).unwrap(),
        |_, _| {},
    );
    assert_eq!(bytes(&a), bytes(&b));
}

/// The moment learners: in the known-dimension run, the weights, both class means and every
/// co-moment entry involving a feature not seen yet are exactly 0 after each step, so padding is
/// exact; the grown run agrees with it to rounding.
#[test]
fn moment_learners_grow_to_the_known_state_to_rounding() {
    macro_rules! check {
        ($params:expr) => {{
            let params = $params;
            let (a, b) = run(
                params.build(P, 0).unwrap(),
                params.build(1, 0).unwrap(),
                |l, dim| {
                    let m = l.moments().dense().unwrap();
                    for class in [&m.pos, &m.neg] {
                        assert!(class.mean()[dim..].iter().all(|v| v.to_bits() == 0));
                        for i in 0..P {
                            for j in dim.max(i)..P {
                                assert_eq!(class.cov(i, j).to_bits(), 0, "cov({i}, {j})");
                            }
                        }
                    }
                },
            );
            // The moments themselves are updated entry by entry: bit-identical.
            assert_eq!(a.moments(), b.moments());
            let scale = a.weights().iter().fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(scale > 0.0);
            for (u, v) in a.weights().iter().zip(b.weights()) {
                assert!((u - v).abs() <= 1e-12 * scale, "{u} vs {v}");
            }
        }};
    }
    check!(OaucMParams {
        lambda: 0.5,
        sketch: 0
    });
    check!(OaucMcParams {
        eta: 0.05,
        lambda: 0.01,
        sketch: 0
    });
    check!(OpaucParams {
        eta: 0.05,
        lambda: 0.01,
        sketch: 0
    });
    check!(AdaOamParams::default());
    check!(AdmOamParams::default());
}
