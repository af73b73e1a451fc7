//! Growing a one-pass learner's dimension on the way (a stream that meets a new feature index)
//! gives the learner a run that knew the dimension from the start would have: for every one-pass
//! algorithm of the registry, averaged or not, with dense and with sparse rows, the grown state
//! validates, reports the new dimension, survives a model file, and scores like the known-dimension
//! state (exactly in exact arithmetic; here to rounding, since lane-wise sums group differently
//! for different lengths).

use auc_core::{Dataset, Family, Label, ParamMap, Row, SparseVec};
use auc_learners::{ALL, Trained, Trainer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Features of the stream.
const P: usize = 9;

/// Rows at which feature `j` may first be non-zero: `FIRST * j`.
const FIRST: usize = 15;

/// A seeded stream of 240 rows in `P` features, both classes from the start, where feature `j`
/// is 0 in every row before row `FIRST * j`, so that the dimension seen so far grows from 1 to
/// `P`.
fn stream() -> Vec<(Vec<f64>, Label)> {
    let mut rng = StdRng::seed_from_u64(11);
    (0..240)
        .map(|i| {
            let y = if i % 3 == 0 { Label::Pos } else { Label::Neg };
            let shift = if y.is_pos() { 0.4 } else { -0.2 };
            let x = (0..P)
                .map(|j| {
                    if i < FIRST * j || rng.random::<f64>() < 0.3 {
                        0.0
                    } else {
                        shift + rng.random_range(-1.0..1.0)
                    }
                })
                .collect();
            (x, y)
        })
        .collect()
}

/// The dimension a stream has shown after row `i`: one past the last feature that may be set.
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

/// Feeds `rows` to `state`; with `grow`, the state starts at dimension 1 and grows whenever a
/// row needs more, and dense rows have the dimension seen so far.
fn feed(state: &mut dyn Trained, rows: &[(Vec<f64>, Label)], dense: bool, grow: bool) {
    for (i, (x, y)) in rows.iter().enumerate() {
        let dim = if grow { seen_dim(i) } else { P };
        if grow && dim > state.dim() {
            state
                .learner()
                .expect("one-pass")
                .grow(dim)
                .expect("every one-pass learner grows");
            assert_eq!(state.dim(), dim);
        }
        let learner = state.learner().expect("one-pass");
        if dense {
            learner.update(Row::Dense(&x[..dim]), *y);
        } else {
            learner.update(Row::Sparse(sparse(x).view()), *y);
        }
    }
}

#[test]
fn every_one_pass_learner_grows_to_the_state_of_a_known_dimension() {
    let rows = stream();
    let test: Vec<Vec<f64>> = stream().into_iter().rev().take(60).map(|r| r.0).collect();
    let test = Dataset::dense(
        P,
        test.concat(),
        (0..60)
            .map(|i| if i % 2 == 0 { Label::Pos } else { Label::Neg })
            .collect(),
    )
    .unwrap();
    let mut checked = 0;
    for algo in ALL.iter().filter(|a| a.is_online()) {
        let config = algo.configure(&ParamMap::new()).unwrap();
        let averages: &[bool] = if algo.family == Family::Linear {
            &[false, true]
        } else {
            &[false]
        };
        for &average in averages {
            for dense in [true, false] {
                let what = format!("{} (average {average}, dense rows {dense})", algo.name);
                let Trainer::Online(trainer) = config.trainer() else {
                    panic!("{what}: a one-pass learner trains online")
                };
                let mut known = trainer.start(P, 3, average).unwrap();
                feed(known.as_mut(), &rows, dense, false);
                let mut grown = trainer.start(1, 3, average).unwrap();
                feed(grown.as_mut(), &rows, dense, true);
                assert_eq!(grown.dim(), P, "{what}");
                grown.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
                // Growing to a dimension already reached changes nothing.
                let before = grown.state_bytes();
                grown.learner().unwrap().grow(P).unwrap();
                grown.learner().unwrap().grow(2).unwrap();
                assert_eq!(grown.state_bytes(), before, "{what}");
                let (a, b) = (known.score_all(&test), grown.score_all(&test));
                let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
                for (k, (u, v)) in a.iter().zip(&b).enumerate() {
                    assert!(
                        (u - v).abs() <= 1e-9 * scale,
                        "{what}: row {k} scores {u} known, {v} grown"
                    );
                }
                assert!(
                    a.iter().any(|s| *s != 0.0),
                    "{what}: the learner never moved"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 2 * 13, "only {checked} runs");
}
