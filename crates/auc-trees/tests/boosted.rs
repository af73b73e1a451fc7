//! The boosted trees against independent computations: the surrogates' gradients against sums
//! over every pair and finite differences, a stump's split against a brute-force search over
//! every feature and cut, the fit against thread counts and storage (dense or sparse rows),
//! and decoded models against damage.

#![allow(
    clippy::float_cmp,
    clippy::needless_range_loop,
    reason = "brute-force references index by position; identical computations compare exactly"
)]

use auc_core::{Dataset, Label, Row, SavedState, Scorer};
use auc_trees::loss::{LossScratch, gradients};
use auc_trees::{BoostedModel, BoostedTreesParams, Child, PairLoss};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn pair_loss(loss: PairLoss, m: f64) -> f64 {
    let r = 1.0 - m;
    match loss {
        PairLoss::Square => 0.5 * r * r,
        PairLoss::Hinge => 0.5 * r.max(0.0) * r.max(0.0),
        PairLoss::Exp => (-m).exp(),
    }
}

/// The surrogate's value and its gradients and Hessians as two vectors.
fn split_gradients(loss: PairLoss, f: &[f64], pos: &[bool]) -> (f64, Vec<f64>, Vec<f64>) {
    let mut gh = vec![[0.0; 2]; f.len()];
    let value = gradients(loss, f, pos, &mut gh, &mut LossScratch::default());
    let (g, h) = gh.iter().map(|r| (r[0], r[1])).unzip();
    (value, g, h)
}

/// The surrogate by its definition: the mean over every positive-negative pair.
fn brute(loss: PairLoss, f: &[f64], pos: &[bool]) -> f64 {
    let (mut s, mut k) = (0.0, 0usize);
    for i in 0..f.len() {
        for j in 0..f.len() {
            if pos[i] && !pos[j] {
                s += pair_loss(loss, f[i] - f[j]);
                k += 1;
            }
        }
    }
    s / k as f64
}

#[test]
fn gradients_equal_the_pair_sums_and_finite_differences() {
    let mut rng = StdRng::seed_from_u64(1);
    for loss in [PairLoss::Square, PairLoss::Hinge, PairLoss::Exp] {
        for trial in 0..20 {
            let n = 5 + trial;
            let f: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
            let mut pos: Vec<bool> = (0..n).map(|_| rng.random_bool(0.4)).collect();
            pos[0] = true;
            pos[1] = false;
            let (value, g, h) = split_gradients(loss, &f, &pos);
            let want = brute(loss, &f, &pos);
            assert!(
                (value - want).abs() < 1e-12,
                "{loss:?} value {value} against {want}"
            );
            let eps = 1e-6;
            for i in 0..n {
                let mut up = f.clone();
                up[i] += eps;
                let mut down = f.clone();
                down[i] -= eps;
                let fd = (brute(loss, &up, &pos) - brute(loss, &down, &pos)) / (2.0 * eps);
                // Gradients come times n.
                assert!((g[i] / n as f64 - fd).abs() < 1e-6, "{loss:?} g[{i}]");
                // The Hessian diagonal: the second difference, exact for the quadratic square
                // loss up to rounding (a wide step keeps the rounding small); for the
                // exponential loss the diagonal is the gradient's magnitude.
                if loss == PairLoss::Exp {
                    assert!((h[i] - g[i].abs()).abs() <= 1e-12 * h[i].abs());
                }
                if loss == PairLoss::Square {
                    let e = 0.25;
                    let mut up = f.clone();
                    up[i] += e;
                    let mut down = f.clone();
                    down[i] -= e;
                    let d2 = (brute(loss, &up, &pos) - 2.0 * brute(loss, &f, &pos)
                        + brute(loss, &down, &pos))
                        / (e * e);
                    assert!((h[i] / n as f64 - d2).abs() < 1e-9, "h[{i}]");
                }
            }
        }
    }
}

#[test]
fn exponential_gradients_hold_where_a_row_exponential_underflows() {
    // Positives 800 apart: relative to the lowest positive, the highest one's exponential
    // underflows to 0, while its gradient, e^{-500} times the negatives' sum, is a normal
    // number. Every row's gradient against its sum over pairs, in the same scale.
    let f = [-300.0, 500.0, 0.0, 1.0, -1.0, 2.5];
    let pos = [true, true, false, false, false, true];
    let n = f.len();
    let (_, g, h) = split_gradients(PairLoss::Exp, &f, &pos);
    let (np, nn) = (3.0, 3.0);
    for i in 0..n {
        let want: f64 = (0..n)
            .filter(|&j| pos[j] != pos[i])
            .map(|j| {
                let (p, q) = if pos[i] { (i, j) } else { (j, i) };
                (f[q] - f[p]).exp()
            })
            .sum::<f64>()
            * n as f64
            / (np * nn);
        let want = if pos[i] { -want } else { want };
        assert!(want.is_normal(), "row {i}");
        assert!(
            (g[i] - want).abs() <= 1e-12 * want.abs(),
            "row {i}: {} against {want}",
            g[i]
        );
        assert_eq!(h[i], g[i].abs());
    }
}

/// `n` rows of `p` features: a positive when x0 * x1 > 0 (XOR of signs), which no linear
/// scorer ranks, with noise features.
fn xor(n: usize, p: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut values = Vec::with_capacity(n * p);
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let row: Vec<f64> = (0..p).map(|_| rng.random_range(-1.0..1.0)).collect();
        let pos = row[0] * row[1] > 0.0;
        labels.push(if pos { Label::Pos } else { Label::Neg });
        values.extend(row);
    }
    Dataset::dense(p, values, labels).unwrap()
}

fn auc(scores: &[f64], data: &Dataset) -> f64 {
    let (mut s, mut k) = (0.0, 0usize);
    for i in 0..data.n() {
        for j in 0..data.n() {
            if data.label(i).is_pos() && !data.label(j).is_pos() {
                s += if scores[i] > scores[j] {
                    1.0
                } else if scores[i] == scores[j] {
                    0.5
                } else {
                    0.0
                };
                k += 1;
            }
        }
    }
    s / k as f64
}

#[test]
fn the_trees_rank_xor_and_lower_the_training_loss() {
    let train = xor(1500, 4, 3);
    let test = xor(800, 4, 4);
    for loss in [PairLoss::Square, PairLoss::Hinge, PairLoss::Exp] {
        let m = BoostedTreesParams {
            loss,
            ..BoostedTreesParams::default()
        }
        .fit(&train)
        .unwrap();
        let (first, last) = m.losses();
        assert!(last < 0.5 * first, "{loss:?}: {first} -> {last}");
        let a = auc(&m.score_all(&test), &test);
        assert!(a > 0.95, "{loss:?}: test AUC {a}");
        assert_eq!(m.trees().len(), 100);
    }
}

#[test]
fn a_stump_splits_where_a_brute_force_search_finds_the_largest_gain() {
    let mut rng = StdRng::seed_from_u64(9);
    for trial in 0..30 {
        let (n, p) = (60, 3);
        // Few distinct values, so every cut is a bin boundary.
        let values: Vec<f64> = (0..n * p)
            .map(|_| f64::from(rng.random_range(0..8u8)))
            .collect();
        let labels: Vec<Label> = (0..n)
            .map(|i| {
                if (values[i * p + trial % p] + rng.random_range(-2.0..2.0)) > 4.0 || i == 0 {
                    Label::Pos
                } else {
                    Label::Neg
                }
            })
            .collect();
        let mut labels = labels;
        labels[1] = Label::Neg;
        let data = Dataset::dense(p, values.clone(), labels.clone()).unwrap();
        let params = BoostedTreesParams {
            trees: 1,
            leaves: 2,
            min_leaf: 5,
            ..BoostedTreesParams::default()
        };
        let m = params.fit(&data).unwrap();
        // At f = 0 the square loss's g, h (times n) by class.
        let pos: Vec<bool> = labels.iter().map(|y| y.is_pos()).collect();
        let (_, g, h) = split_gradients(PairLoss::Square, &vec![0.0; n], &pos);
        let score = |idx: &[usize]| {
            let gs: f64 = idx.iter().map(|&i| g[i]).sum();
            let hs: f64 = idx.iter().map(|&i| h[i]).sum();
            gs * gs / hs
        };
        let all: Vec<usize> = (0..n).collect();
        let mut best = (0.0, usize::MAX, f64::NAN);
        for f in 0..p {
            for cut in 0..8 {
                let t = f64::from(cut) + 0.5;
                let (l, r): (Vec<usize>, Vec<usize>) =
                    all.iter().partition(|&&i| values[i * p + f] <= t);
                if l.len() < 5 || r.len() < 5 {
                    continue;
                }
                let gain = score(&l) + score(&r) - score(&all);
                if gain > best.0 + 1e-12 {
                    best = (gain, f, t);
                }
            }
        }
        let tree = &m.trees()[0];
        if best.1 == usize::MAX {
            assert!(tree.nodes.is_empty());
            continue;
        }
        let node = tree.nodes[0];
        assert_eq!(
            (node.feature as usize, node.cut),
            (best.1, best.2),
            "trial {trial}"
        );
        assert!(matches!(node.left, Child::Leaf(_)) && matches!(node.right, Child::Leaf(_)));
    }
}

/// The scores `fit_with_scores` returns (the boosting's running sums) are the model's scores
/// of the training rows exactly: each row's leaf in every tree is the one its raw values
/// reach through the trees' cuts.
#[test]
fn the_boosting_scores_are_the_models_scores_of_the_training_rows() {
    for (d, leaves) in [(xor(3000, 4, 5), 31), (xor(800, 9, 6), 7)] {
        let params = BoostedTreesParams {
            leaves,
            trees: 20,
            ..BoostedTreesParams::default()
        };
        let (model, scores) = params.fit_with_scores(&d).unwrap();
        assert_eq!(model, params.fit(&d).unwrap());
        let again = model.score_all(&d);
        assert_eq!(scores.len(), again.len());
        for (i, (a, b)) in scores.iter().zip(&again).enumerate() {
            // Equal as numbers (a zero sum may differ in its sign only).
            assert_eq!(a, b, "row {i}");
        }
    }
}

#[test]
fn the_fit_does_not_depend_on_threads_or_on_sparse_storage() {
    let data = xor(700, 5, 11);
    let fit = |threads: usize, d: &Dataset| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| BoostedTreesParams::default().fit(d).unwrap())
    };
    let one = fit(1, &data);
    assert_eq!(fit(2, &data), one);
    assert_eq!(fit(3, &data), one);
    // The same rows stored sparse (zeros left out) fit the same model and score alike.
    let mut sparse_values = data.clone();
    let (mut indptr, mut indices, mut values) = (vec![0], vec![], vec![]);
    for (x, _) in data.iter() {
        x.for_each(|j, v| {
            if v != 0.0 {
                indices.push(j as u32);
                values.push(v);
            }
        });
        indptr.push(indices.len());
    }
    sparse_values =
        Dataset::sparse(5, indptr, indices, values, sparse_values.labels().to_vec()).unwrap();
    let s = fit(2, &sparse_values);
    assert_eq!(s, one);
    for i in 0..50 {
        assert_eq!(s.score(sparse_values.row(i)), one.score(data.row(i)));
    }
}

#[test]
fn models_round_trip_and_damaged_ones_are_refused() {
    let data = xor(400, 3, 5);
    let m = BoostedTreesParams {
        trees: 5,
        ..BoostedTreesParams::default()
    }
    .fit(&data)
    .unwrap();
    m.validate().unwrap();
    let bytes = postcard::to_allocvec(&m).unwrap();
    let back: BoostedModel = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, m);
    let x = [0.3, -0.2, 0.9];
    assert_eq!(back.score(Row::Dense(&x)), m.score(Row::Dense(&x)));
    // Damage: a cycle, a feature past the dimension, a non-finite leaf, a missing leaf.
    let edit = |f: &dyn Fn(&mut BoostedModel)| {
        let mut d = m.clone();
        f(&mut d);
        d.validate().is_err()
    };
    assert!(edit(&|d| d.trees_mut()[0].nodes[1].left = Child::Node(0)));
    assert!(edit(&|d| d.trees_mut()[0].nodes[0].feature = 3));
    assert!(edit(&|d| d.trees_mut()[1].leaves[0] = f64::NAN));
    assert!(edit(&|d| {
        d.trees_mut()[2].leaves.pop();
    }));
    assert!(edit(&|d| d.trees_mut()[0].nodes[0].cut = f64::INFINITY));
}

#[test]
fn one_class_and_empty_data_are_errors_and_bad_parameters_are_refused() {
    let one = Dataset::dense(1, vec![1.0, 2.0], vec![Label::Pos, Label::Pos]).unwrap();
    assert!(BoostedTreesParams::default().fit(&one).is_err());
    let bad = BoostedTreesParams {
        bins: 300,
        ..BoostedTreesParams::default()
    };
    assert!(bad.fit(&xor(50, 2, 1)).is_err());
    let bad = BoostedTreesParams {
        leaves: 1,
        ..BoostedTreesParams::default()
    };
    assert!(bad.fit(&xor(50, 2, 1)).is_err());
}
