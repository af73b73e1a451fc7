//! Public-API tests of SOLAM [SOLAM16, alg. 1].

use auc_core::Label::{Neg, Pos};
use auc_core::testing::tol;
use auc_core::{Label, OnlineLearner, OnlineParams, ParamError, Row, Scorer, SparseVec};
use auc_online::{Linear, Solam, SolamParams};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

mod common;
use common::{auc, feed, two_gaussians};

fn solam(eta: f64, r: f64, dim: usize) -> Solam {
    SolamParams { eta, r }.build(dim, 0).unwrap()
}

fn close_all(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| tol::close(*x, *y))
}

/// SOLAM written out directly on dense vectors, as in the module docs: no scaled vector, no lazy
/// average. Returns (averaged w, last w, a, b, alpha).
fn reference(
    eta: f64,
    r: f64,
    stream: &[(Vec<f64>, Label)],
) -> (Vec<f64>, Vec<f64>, f64, f64, f64) {
    let p_dim = stream[0].0.len();
    let (mut w, mut sum) = (vec![0.0; p_dim], vec![0.0; p_dim]);
    let (mut a, mut b, mut alpha, mut gsum, mut kappa) = (0.0f64, 0.0f64, 0.0f64, 0.0, 0.0f64);
    let mut n_pos = 0.0;
    for (t, (x, y)) in stream.iter().enumerate() {
        let t = (t + 1) as f64;
        if *y == Pos {
            n_pos += 1.0;
        }
        let p = n_pos / t;
        let q = 1.0 - p;
        let gamma = eta / t.sqrt();
        kappa = kappa.max(x.iter().map(|v| v * v).sum::<f64>().sqrt());
        for (s, wj) in sum.iter_mut().zip(&w) {
            *s += gamma * wj;
        }
        gsum += gamma;
        let score: f64 = w.iter().zip(x).map(|(wj, xj)| wj * xj).sum();
        let (gw, ga, gb, gal) = if *y == Pos {
            (
                2.0 * q * (score - a) - 2.0 * (1.0 + alpha) * q,
                -2.0 * q * (score - a),
                0.0,
                -2.0 * q * score - 2.0 * p * q * alpha,
            )
        } else {
            (
                2.0 * p * (score - b) + 2.0 * (1.0 + alpha) * p,
                0.0,
                -2.0 * p * (score - b),
                2.0 * p * score - 2.0 * p * q * alpha,
            )
        };
        for (wj, xj) in w.iter_mut().zip(x) {
            *wj -= gamma * gw * xj;
        }
        let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm > r {
            w.iter_mut().for_each(|v| *v *= r / norm);
        }
        let k = kappa * r;
        a = (a - gamma * ga).clamp(-k, k);
        b = (b - gamma * gb).clamp(-k, k);
        alpha = (alpha + gamma * gal).clamp(-2.0 * k, 2.0 * k);
    }
    let avg = sum.iter().map(|s| s / gsum).collect();
    (avg, w, a, b, alpha)
}

#[test]
fn first_steps_by_hand() {
    // eta = 1, R = 10, p = 2.
    // t = 1, (1, 0)+: p_1 = 1, q = 0, so every derivative has a factor q = 0 or p q = 0 except
    //   none: w, a, b, alpha stay 0. gamma_1 = 1; the average takes in w_1 = 0.
    // t = 2, (0, 1)-: p_2 = 1/2, gamma_2 = 1/sqrt 2, score = 0, b = alpha = 0.
    //   dF/dw = 2 p (score - b + 1 + alpha) x = 1 * (0, 1): w_3 = (0, -1/sqrt 2).
    //   dF/db = -2 p (score - b) = 0; dF/dalpha = 2 p score - 2 p q alpha = 0.
    // t = 3, (2, 0)+: p_3 = 2/3, q = 1/3, gamma_3 = 1/sqrt 3, score = w_3.x = 0, a = alpha = 0.
    //   dF/dw = 2 q (score - a - 1 - alpha) x = -(2/3)(2, 0): w_4 = (4/(3 sqrt 3), -1/sqrt 2).
    //   dF/da = 0, dF/dalpha = -2 q score - 2 p q alpha = 0. kappa = 2.
    // t = 4, (0, 1)-: p_4 = 1/2, q = 1/2, gamma_4 = 1/2, score = -1/sqrt 2.
    //   dF/dw = 2 p (score - b + 1 + alpha) x = (1 - 1/sqrt 2)(0, 1):
    //     w_5 = (4/(3 sqrt 3), -1/sqrt 2 - (1 - 1/sqrt 2)/2) = (0.7698, -0.8536); ||w_5|| < 10.
    //   dF/db = -2 p (score - b) = 1/sqrt 2: b_5 = -1/(2 sqrt 2), inside |b| <= kappa R = 20.
    //   dF/dalpha = 2 p score - 2 p q alpha = -1/sqrt 2: alpha_5 = -1/(2 sqrt 2).
    // Average after 4: (g1 w1 + g2 w2 + g3 w3 + g4 w4) / (g1 + g2 + g3 + g4) with w1 = w2 = 0.
    let s2 = 2f64.sqrt();
    let s3 = 3f64.sqrt();
    let mut l = solam(1.0, 10.0, 2);
    let stream = [
        ([1.0, 0.0], Pos),
        ([0.0, 1.0], Neg),
        ([2.0, 0.0], Pos),
        ([0.0, 1.0], Neg),
    ];
    let mut w = [0.0; 2];
    for (k, (x, y)) in stream.iter().enumerate() {
        l.update(Row::Dense(x), *y);
        if k == 0 {
            assert!(l.weights().iter().all(|v| v.abs() == 0.0));
            l.last_iterate(&mut w);
            assert!(w.iter().all(|v| v.abs() == 0.0));
            assert_eq!(l.scalars(), (0.0, 0.0, 0.0));
        }
    }
    let w3 = [0.0, -1.0 / s2];
    let w4 = [4.0 / (3.0 * s3), -1.0 / s2];
    let w5 = [4.0 / (3.0 * s3), -1.0 / s2 - (1.0 - 1.0 / s2) / 2.0];
    l.last_iterate(&mut w);
    assert!(close_all(&w, &w5), "{w:?} vs {w5:?}");
    let (a, b, alpha) = l.scalars();
    assert!(
        a.abs() == 0.0 && tol::close(b, -1.0 / (2.0 * s2)) && tol::close(alpha, -1.0 / (2.0 * s2))
    );
    let g = [1.0, 1.0 / s2, 1.0 / s3, 0.5];
    let gs: f64 = g.iter().sum();
    let avg: Vec<f64> = (0..2).map(|j| (g[2] * w3[j] + g[3] * w4[j]) / gs).collect();
    assert!(close_all(l.weights(), &avg), "{:?} vs {avg:?}", l.weights());
    assert!(tol::close(l.kappa(), 2.0));
    assert!(tol::close(l.positive_rate(), 0.5));
    // The score is the averaged model's: w_bar . (1, 1).
    assert!(tol::close(
        l.score(Row::Dense(&[1.0, 1.0])),
        avg[0] + avg[1]
    ));
}

#[test]
fn many_projections_keep_the_average_accurate() {
    // R = 0.05 with eta = 5: the ball binds at almost every step, s shrinks geometrically and the
    // state folds many times. The lazy learner must match the direct dense computation.
    let stream = two_gaussians(3000, 6, 4);
    let (avg, last, a, b, alpha) = reference(5.0, 0.05, &stream);
    let mut l = solam(5.0, 0.05, 6);
    feed(&mut l, &stream);
    let mut w = vec![0.0; 6];
    l.last_iterate(&mut w);
    let close = |x: f64, y: f64| tol::close_with(x, y, 1e-12, 1e-8); // 4 digits lost at most
    assert!(
        w.iter().zip(&last).all(|(x, y)| close(*x, *y)),
        "{w:?} vs {last:?}"
    );
    assert!(
        l.weights().iter().zip(&avg).all(|(x, y)| close(*x, *y)),
        "{:?} vs {avg:?}",
        l.weights()
    );
    let (la, lb, lal) = l.scalars();
    assert!(close(la, a) && close(lb, b) && close(lal, alpha));
    // The ball held throughout: ||w|| <= R up to rounding.
    assert!(w.iter().map(|v| v * v).sum::<f64>().sqrt() <= 0.05 * (1.0 + 1e-12));
}

#[test]
fn matches_the_direct_computation_without_projection() {
    let stream = two_gaussians(500, 3, 8);
    let (avg, last, ..) = reference(0.1, 1e6, &stream);
    let mut l = solam(0.1, 1e6, 3);
    feed(&mut l, &stream);
    let mut w = vec![0.0; 3];
    l.last_iterate(&mut w);
    assert!(close_all(&w, &last), "{w:?} vs {last:?}");
    assert!(close_all(l.weights(), &avg));
}

#[test]
fn boxes_use_the_largest_norm_seen() {
    // Large steps and a small radius push a, b and alpha against their boxes.
    let stream = two_gaussians(400, 3, 5);
    let mut l = solam(50.0, 0.2, 3);
    let mut kappa = 0.0f64;
    for (x, y) in &stream {
        l.update(Row::Dense(x), *y);
        kappa = kappa.max(x.iter().map(|v| v * v).sum::<f64>().sqrt());
        assert!(tol::close(l.kappa(), kappa));
        let (a, b, alpha) = l.scalars();
        let k = kappa * 0.2;
        assert!(
            a.abs() <= k && b.abs() <= k && alpha.abs() <= 2.0 * k,
            "{a} {b} {alpha} vs {k}"
        );
    }
}

#[test]
fn sparse_and_dense_rows_give_the_same_model() {
    let dim = 12;
    let mut rng = StdRng::seed_from_u64(9);
    let stream: Vec<(SparseVec, Label)> = (0..500)
        .map(|_| {
            let y = if rng.random_range(0..3) == 0 {
                Pos
            } else {
                Neg
            };
            let mut idx: Vec<u32> = (0..4)
                .map(|_| rng.random_range(0..dim as u64) as u32)
                .collect();
            idx.sort_unstable();
            idx.dedup();
            let pairs = idx
                .into_iter()
                .map(|j| (j, 2.0 * rng.random::<f64>() - 1.0 + 0.3 * y.sign()));
            (SparseVec::from_pairs(pairs).unwrap(), y)
        })
        .collect();
    for r in [0.3, 100.0] {
        let mut sparse = solam(2.0, r, dim);
        let mut dense = solam(2.0, r, dim);
        let mut buf = vec![0.0; dim];
        for (x, y) in &stream {
            sparse.update(Row::Sparse(x.view()), *y);
            Row::Sparse(x.view()).write_dense(&mut buf);
            dense.update(Row::Dense(&buf), *y);
        }
        assert!(close_all(sparse.weights(), dense.weights()), "R = {r}");
        let x = stream[0].0.view();
        let direct: f64 = Row::Sparse(x).dot(sparse.weights());
        assert!(tol::close(sparse.score(Row::Sparse(x)), direct));
    }
}

#[test]
fn resume_after_saving_equals_an_uninterrupted_run() {
    let stream = two_gaussians(600, 4, 11);
    let (head, tail) = stream.split_at(257);
    for r in [0.1, 10.0] {
        let mut straight = solam(3.0, r, 4);
        feed(&mut straight, &stream);
        let mut first = solam(3.0, r, 4);
        feed(&mut first, head);
        let _ = first.weights(); // a filled cache must not leak into the saved state
        let bytes = postcard::to_allocvec(&first).unwrap();
        let mut resumed: Solam = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(resumed, first);
        feed(&mut resumed, tail);
        assert_eq!(resumed, straight);
        let bits = |w: &[f64]| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(resumed.weights()), bits(straight.weights()));
    }
}

#[test]
fn no_nan_on_adversarial_streams() {
    let p = 3;
    let zeros: Vec<_> = (0..50)
        .map(|i| (vec![0.0; p], if i % 3 == 0 { Pos } else { Neg }))
        .collect();
    let one_class: Vec<_> = two_gaussians(100, p, 2)
        .into_iter()
        .map(|(x, _)| (x, Neg))
        .collect();
    let repeated: Vec<_> = (0..50)
        .map(|i| (vec![0.5; p], if i % 2 == 0 { Pos } else { Neg }))
        .collect();
    let huge: Vec<_> = two_gaussians(200, p, 3)
        .into_iter()
        .map(|(x, y)| (x.iter().map(|v| 1e6 * v).collect(), y))
        .collect();
    for (eta, r) in [(1e-3, 1e-3), (1.0, 1.0), (1024.0, 1e5)] {
        for (k, stream) in [&zeros, &one_class, &repeated, &huge]
            .into_iter()
            .enumerate()
        {
            let mut l = solam(eta, r, p);
            feed(&mut l, stream);
            let mut w = vec![0.0; p];
            l.last_iterate(&mut w);
            let (a, b, alpha) = l.scalars();
            assert!(
                l.weights()
                    .iter()
                    .chain(&w)
                    .chain([a, b, alpha].iter())
                    .all(|v| v.is_finite()),
                "stream {k}, eta {eta}, R {r}: {:?} {w:?} {a} {b} {alpha}",
                l.weights()
            );
            for (x, _) in stream {
                assert!(l.score(Row::Dense(x)).is_finite());
            }
        }
    }
    // All-zero rows never move w.
    let mut l = solam(1.0, 1.0, p);
    feed(&mut l, &zeros);
    assert!(l.weights().iter().all(|v| v.abs() == 0.0));
}

#[test]
fn learns_two_gaussians() {
    let train = two_gaussians(2000, 4, 21);
    let test = two_gaussians(1000, 4, 22);
    let mut l = solam(1.0, 10.0, 4);
    feed(&mut l, &train);
    let a = auc(&l, &test);
    assert!(a > 0.85, "SOLAM AUC {a}");
}

#[test]
#[allow(clippy::float_cmp)] // Values copied from the map unchanged.
fn params_are_read_from_json_and_checked() {
    let p: SolamParams = serde_json::from_str(r#"{"eta": 2.0, "r": 5.0}"#).unwrap();
    assert_eq!((p.eta, p.r), (2.0, 5.0));
    let d: SolamParams = serde_json::from_str(r#"{"eta": 2.0}"#).unwrap();
    assert_eq!(d.r, SolamParams::default().r);
    assert!(serde_json::from_str::<SolamParams>(r#"{"c": 1.0}"#).is_err());
    for (eta, r, name) in [
        (0.0, 1.0, "eta"),
        (1.0, -1.0, "r"),
        (f64::INFINITY, 1.0, "eta"),
    ] {
        assert!(matches!(
            SolamParams { eta, r }.build(2, 0),
            Err(ParamError::OutOfRange { name: n, .. }) if n == name
        ));
    }
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Solam>();
    check::<SolamParams>();
}

/// Wide sparse streams (5 stored features of 400 a row, seeded): the lazy learner ($w = s v$,
/// the average as $u + \beta v$, folds when $s < 10^{-4}$) against the dense [`reference`],
/// with the ball binding often (small $R$) and rarely. The tolerance is relative to the largest
/// weight: a fold loses at most four digits of the average (module docs), which leaves about
/// twelve; 1e-9 of the scale is well inside that.
#[test]
fn wide_sparse_streams_match_the_dense_reference() {
    const P: usize = 400;
    for (seed, eta, r) in [(1u64, 1.0, 1.0), (2, 5.0, 0.05), (3, 0.5, 10.0)] {
        let mut rng = StdRng::seed_from_u64(seed);
        let rows: Vec<(SparseVec, Label)> = (0..3000)
            .map(|_| {
                let mut idx: Vec<u32> = (0..5).map(|_| rng.random_range(0..P as u32)).collect();
                idx.sort_unstable();
                idx.dedup();
                let y = if rng.random::<f64>() < 0.1 { Pos } else { Neg };
                let shift = if y == Pos { 0.3 } else { 0.0 };
                let pairs = idx
                    .into_iter()
                    .map(|j| (j, shift + rng.random_range(-1.0..1.0)));
                (SparseVec::from_pairs(pairs).unwrap(), y)
            })
            .collect();
        let dense: Vec<(Vec<f64>, Label)> = rows
            .iter()
            .map(|(x, y)| {
                let mut v = vec![0.0; P];
                Row::Sparse(x.view()).write_dense(&mut v);
                (v, *y)
            })
            .collect();
        let (avg, last, ..) = reference(eta, r, &dense);
        let mut l = solam(eta, r, P);
        for (x, y) in &rows {
            l.update(Row::Sparse(x.view()), *y);
        }
        let mut w = vec![0.0; P];
        l.last_iterate(&mut w);
        for (got, want) in [(l.weights(), &avg[..]), (&w[..], &last[..])] {
            let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
            for (j, (a, b)) in got.iter().zip(want).enumerate() {
                assert!(
                    tol::close_with(*a, *b, 1e-9 * scale, 1e-9),
                    "seed {seed}, feature {j}: lazy {a}, dense {b}"
                );
            }
        }
        // Scores in O(nnz) equal the materialized average's.
        for (x, _) in rows.iter().take(50) {
            let x = Row::Sparse(x.view());
            assert!(tol::close(l.score(x), x.dot(l.weights())));
        }
    }
}
