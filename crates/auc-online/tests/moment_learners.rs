//! Public-API tests of the moment learners: OAUC-M, OAUC-M_c, OPAUC, AdaOAM, AdmOAM.
#![allow(clippy::float_cmp)] // Exact compares are on dyadic values or bit-identical replays.

use auc_core::Label::{self, Neg, Pos};
use auc_core::testing::tol;
use auc_core::{OnlineLearner, OnlineParams, Row, Scorer, SparseVec};
use auc_online::{
    AdaOamParams, AdmOamParams, Averaged, Linear, MAX_NORM, OaucMParams, OaucMcParams, OpaucParams,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Serialize, de::DeserializeOwned};

type Stream = Vec<(Vec<f64>, Label)>;

/// The hand-checked stream, p = 2: (1, 0)+, (0, 1)-, (2, 0)+, (0, 3)-.
fn hand_stream() -> Stream {
    vec![
        (vec![1.0, 0.0], Pos),
        (vec![0.0, 1.0], Neg),
        (vec![2.0, 0.0], Pos),
        (vec![0.0, 3.0], Neg),
    ]
}

/// Feeds `stream` and returns the weights after each example.
fn trace<L: OnlineLearner + Linear>(l: &mut L, stream: &[(Vec<f64>, Label)]) -> Vec<Vec<f64>> {
    stream
        .iter()
        .map(|(x, y)| {
            l.update(Row::Dense(x), *y);
            l.weights().to_vec()
        })
        .collect()
}

fn assert_close_vec(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(tol::close(*g, *w), "{what}: got {got:?}, want {want:?}");
    }
}

/// A stream of `n` Gaussian examples in dimension `p`: positives (probability `pos`) have mean
/// `+shift` in every coordinate, negatives `-shift`, both unit variance.
fn gaussian_stream(seed: u64, n: usize, p: usize, pos: f64, shift: f64) -> Stream {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut normal = move || {
        // Box-Muller; 1 - u is in (0, 1].
        let (u, v) = (1.0 - rng.random::<f64>(), rng.random::<f64>());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    (0..n)
        .map(|_| {
            let y = if normal() < pos_quantile(pos) {
                Pos
            } else {
                Neg
            };
            let s = if y == Pos { shift } else { -shift };
            ((0..p).map(|_| s + normal()).collect(), y)
        })
        .collect()
}

/// A threshold `q` with P(N(0,1) < q) roughly `pos` (only needs to give some imbalance).
fn pos_quantile(pos: f64) -> f64 {
    // A coarse logistic approximation of the normal quantile.
    (pos / (1.0 - pos)).ln() / 1.702
}

/// AUC with ties counted 1/2, by counting pairs.
fn auc(scores: &[f64], labels: &[Label]) -> f64 {
    let (mut num, mut pairs) = (0.0, 0.0);
    for (i, &si) in scores.iter().enumerate() {
        for (j, &sj) in scores.iter().enumerate() {
            if labels[i] == Pos && labels[j] == Neg {
                pairs += 1.0;
                num += if si > sj {
                    1.0
                } else if si == sj {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    num / pairs
}

// ------------------------------------------------------------------------------------------------
// Known answers, p = 2, on `hand_stream`.

#[test]
fn opauc_first_steps_by_hand() {
    // eta = 1/2, lambda = 1/2. Every value below is dyadic, so the comparisons are exact.
    // t=1 (1,0)+: negatives empty, only the regularizer: w = 0 - eta lambda 0 = (0, 0).
    // t=2 (0,1)-: m = (1,0), S = 0, d = (-1, 1), w.d = 0, 1 - mu = 1,
    //   grad = lambda w - (1 - mu) y d + S w = 0 + d = (-1, 1); w = 0 - (-1,1)/2 = (0.5, -0.5).
    // t=3 (2,0)+: m = (0,1), S = 0, d = (2,-1), w.d = 1 + 0.5 = 1.5, 1 - mu = -0.5,
    //   grad = (0.25, -0.25) + 0.5 (2, -1) = (1.25, -0.75); w = (0.5 - 0.625, -0.5 + 0.375)
    //   = (-0.125, -0.125).
    // t=4 (0,3)-: m = (1.5, 0), S = diag(0.25, 0) (positives (1,0), (2,0)), d = (-1.5, 3),
    //   w.d = 0.1875 - 0.375 = -0.1875, mu = 0.1875, 1 - mu = 0.8125, S w = (-0.03125, 0),
    //   grad = (-0.0625, -0.0625) + 0.8125 (-1.5, 3) + (-0.03125, 0) = (-1.3125, 2.375);
    //   w = (-0.125 + 0.65625, -0.125 - 1.1875) = (0.53125, -1.3125).
    let mut l = OpaucParams {
        eta: 0.5,
        lambda: 0.5,
        sketch: 0,
    }
    .build(2, 0)
    .unwrap();
    let got = trace(&mut l, &hand_stream());
    assert_eq!(
        got,
        [
            vec![0.0, 0.0],
            vec![0.5, -0.5],
            vec![-0.125, -0.125],
            vec![0.53125, -1.3125]
        ]
    );
    assert_eq!(l.steps(), 4);
    assert_eq!(l.score(Row::Dense(&[2.0, 1.0])), 2.0 * 0.53125 - 1.3125);
}

#[test]
fn oauc_m_first_steps_by_hand() {
    // lambda = 1, eta_t = 1/t.
    // t=1: w stays 0 (no negatives yet).
    // t=2 (0,1)-: d = (-1,1), mu = 0, s2 = 0: b = 1, sqrt(A) = 1, psi_M = 1,
    //   d_mu = -(1 + b/sqrt A)/2 = -1, d_s2 = 1/4; grad = d_mu y d = (-1)(-1)(-1,1) = (-1, 1);
    //   eta_2 = 1/2: w = (0.5, -0.5).
    // t=3 (2,0)+: d = (2,-1), mu = 1.5, s2 = 0: b = -0.5, sqrt(A) = 0.5, d_mu = 0 (mu > 1 and no
    //   spread), grad = lambda w = (0.5, -0.5); eta_3 = 1/3: w = (2/3)(0.5, -0.5) = (1/3, -1/3).
    // t=4 (0,3)-: m = (1.5, 0), S = diag(1/4, 0), d = (-1.5, 3), w.d = -0.5 - 1 = -1.5, mu = 1.5,
    //   S w = (1/12, 0), s2 = 1/36, b = -0.5, sqrt(A) = sqrt(1/4 + 1/36) = sqrt(10)/6,
    //   b/sqrt(A) = -3/sqrt(10). y d_mu = (1 - 3/sqrt 10)/2 =: a, 2 d_s2 = 1/(2 sqrt A) = 3/sqrt 10.
    //   grad = (1/3 - 1.5 a + (3/sqrt 10)/12, -1/3 + 3 a); eta_4 = 1/4.
    let mut l = OaucMParams {
        lambda: 1.0,
        sketch: 0,
    }
    .build(2, 0)
    .unwrap();
    let got = trace(&mut l, &hand_stream());
    assert_eq!(got[0], [0.0, 0.0]);
    assert_eq!(got[1], [0.5, -0.5]);
    assert_close_vec(&got[2], &[1.0 / 3.0, -1.0 / 3.0], "t=3");
    let r10 = 10f64.sqrt();
    let a = 0.5 * (1.0 - 3.0 / r10);
    let g = [1.0 / 3.0 - 1.5 * a + 3.0 / r10 / 12.0, -1.0 / 3.0 + 3.0 * a];
    let want = [1.0 / 3.0 - g[0] / 4.0, -1.0 / 3.0 - g[1] / 4.0];
    assert_close_vec(&got[3], &want, "t=4");
}

#[test]
fn oauc_mc_first_steps_by_hand() {
    // eta = 1/4, lambda = 0: t=2 as OAUC-M, grad (-1, 1), w = (0.25, -0.25).
    // t=3 (2,0)+: d = (2,-1), w.d = 0.75, mu = 0.75, s2 = 0: b = 0.25 = sqrt(A), d_mu = -1,
    //   grad = -y d = (-2, 1); w = (0.25 + 0.5, -0.25 - 0.25) = (0.75, -0.5).
    let mut l = OaucMcParams {
        eta: 0.25,
        lambda: 0.0,
        sketch: 0,
    }
    .build(2, 0)
    .unwrap();
    let got = trace(&mut l, &hand_stream()[..3]);
    assert_eq!(got, [vec![0.0, 0.0], vec![0.25, -0.25], vec![0.75, -0.5]]);
}

#[test]
fn ada_oam_first_steps_by_hand() {
    // eta = 1/2, lambda = 1/4 (radius 2), epsilon = 1.
    // t=1: grad = lambda w = 0, G = 0, w = 0.
    // t=2: grad = (-1, 1) (as OPAUC), G = (1, 1), w = -0.5 (-1, 1) / (1 + 1) = (0.25, -0.25).
    // t=3 (2,0)+: d = (2,-1), w.d = 0.75, 1 - mu = 0.25, grad = lambda w - 0.25 d
    //   = (0.0625 - 0.5, -0.0625 + 0.25) = (-0.4375, 0.1875), G = (1 + 0.4375^2, 1 + 0.1875^2),
    //   w = (0.25 + 0.5 * 0.4375 / (sqrt G_1 + 1), -0.25 - 0.5 * 0.1875 / (sqrt G_2 + 1)).
    let mut l = AdaOamParams {
        eta: 0.5,
        lambda: 0.25,
        epsilon: 1.0,
        sketch: 0,
    }
    .build(2, 0)
    .unwrap();
    let got = trace(&mut l, &hand_stream()[..3]);
    assert_eq!(got[..2], [vec![0.0, 0.0], vec![0.25, -0.25]]);
    let g1 = (1.0f64 + 0.4375 * 0.4375).sqrt();
    let g2 = (1.0f64 + 0.1875 * 0.1875).sqrt();
    let want = [
        0.25 + 0.5 * 0.4375 / (g1 + 1.0),
        -0.25 - 0.5 * 0.1875 / (g2 + 1.0),
    ];
    assert_close_vec(&got[2], &want, "t=3");
}

#[test]
fn adm_oam_first_steps_by_hand() {
    // eta = 1/2, lambda = 1/4, beta1 = 1/2, beta2 = 3/4, epsilon = 1.
    // t=1: grad 0, m = v = 0, w = 0.
    // t=2: grad (-1, 1); m = (-0.5, 0.5), v = (0.25, 0.25); m_hat = m / (1 - 1/4) = (-2/3, 2/3),
    //   v_hat = v / (1 - 9/16) = 4/7; w = -0.5 m_hat / (sqrt(4/7) + 1) = (u, -u), u = (1/3)/(sqrt(4/7)+1).
    // t=3 (2,0)+: d = (2,-1), w.d = 3u, grad = lambda w - (1 - 3u) d
    //   = (u/4 - 2(1 - 3u), -u/4 + (1 - 3u)); m = m/2 + grad/2, v = 3v/4 + grad^2/4,
    //   m_hat = m / (1 - 1/8), v_hat = v / (1 - 27/64), w -= 0.5 m_hat / (sqrt(v_hat) + 1).
    let mut l = AdmOamParams {
        eta: 0.5,
        lambda: 0.25,
        beta1: 0.5,
        beta2: 0.75,
        epsilon: 1.0,
        sketch: 0,
    }
    .build(2, 0)
    .unwrap();
    let got = trace(&mut l, &hand_stream()[..3]);
    assert_eq!(got[0], [0.0, 0.0]);
    let u = (1.0 / 3.0) / ((4.0f64 / 7.0).sqrt() + 1.0);
    assert_close_vec(&got[1], &[u, -u], "t=2");
    let g = [u / 4.0 - 2.0 * (1.0 - 3.0 * u), -u / 4.0 + (1.0 - 3.0 * u)];
    let m = [-0.25 + g[0] / 2.0, 0.25 + g[1] / 2.0];
    let v = [
        0.75 * 0.25 + g[0] * g[0] / 4.0,
        0.75 * 0.25 + g[1] * g[1] / 4.0,
    ];
    let step = |k: usize| 0.5 * (m[k] / 0.875) / ((v[k] / (1.0 - 27.0 / 64.0)).sqrt() + 1.0);
    assert_close_vec(&got[2], &[u - step(0), -u - step(1)], "t=3");
}

// ------------------------------------------------------------------------------------------------
// The losses against brute force over the stored opposite examples.

#[test]
fn opauc_loss_and_gradient_equal_the_pairwise_square_loss() {
    // OPAUC descends lambda/2 ||w||^2 + (1/n) sum_i (1 - y w.(x - x_i))^2 / 2 [OAUC eq. 1, 13].
    let (eta, lambda) = (0.3, 0.1);
    let stream = gaussian_stream(7, 60, 3, 0.3, 0.5);
    let mut l = OpaucParams {
        eta,
        lambda,
        sketch: 0,
    }
    .build(3, 0)
    .unwrap();
    let mut seen: Stream = Vec::new();
    let mut grad = [0.0; 3];
    for (x, y) in &stream {
        let w = l.weights().to_vec();
        let value = l.loss_and_grad(Row::Dense(x), *y, &mut grad);
        let opp: Vec<&Vec<f64>> = seen
            .iter()
            .filter(|(_, yi)| *yi != *y)
            .map(|(xi, _)| xi)
            .collect();
        let ys = y.sign();
        let mut brute = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
        let mut brute_grad: Vec<f64> = w.iter().map(|v| lambda * v).collect();
        let n = opp.len() as f64;
        for xi in &opp {
            let diff: Vec<f64> = x.iter().zip(xi.iter()).map(|(a, b)| a - b).collect();
            let r = 1.0 - ys * diff.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
            brute += r * r / 2.0 / n;
            for (g, dj) in brute_grad.iter_mut().zip(&diff) {
                *g += -r * ys * dj / n;
            }
        }
        // Moments versus pairs re-associate sums of ~60 terms of size ~10: 1e-10 absolute.
        assert!(
            tol::close_with(value, brute, 1e-10, 1e-9),
            "loss {value} brute {brute}"
        );
        for (g, b) in grad.iter().zip(&brute_grad) {
            assert!(
                tol::close_with(*g, *b, 1e-10, 1e-9),
                "grad {grad:?} brute {brute_grad:?}"
            );
        }
        l.update(Row::Dense(x), *y);
        // The step is exactly w - eta * grad (same code path, so equal up to rounding).
        for ((wn, wo), g) in l.weights().iter().zip(&w).zip(&grad) {
            assert!(tol::close(*wn, wo - eta * g), "step");
        }
        seen.push((x.clone(), *y));
    }
}

#[test]
fn oauc_m_surrogate_bounds_the_pairwise_hinge_along_a_stream() {
    // [OAUC Theorem 1]: (1/n) sum_i max(0, 1 - y w.(x - x_i)) <= psi_M(mu, w' S w) at every w.
    let lambda = 0.05;
    let stream = gaussian_stream(11, 80, 4, 0.25, 0.3);
    let mut l = OaucMParams { lambda, sketch: 0 }.build(4, 0).unwrap();
    let mut seen: Stream = Vec::new();
    let mut grad = [0.0; 4];
    let mut checked = 0;
    for (x, y) in &stream {
        let w = l.weights().to_vec();
        let reg = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
        let psi = l.loss_and_grad(Row::Dense(x), *y, &mut grad) - reg;
        let opp: Vec<&Vec<f64>> = seen
            .iter()
            .filter(|(_, yi)| *yi != *y)
            .map(|(xi, _)| xi)
            .collect();
        if !opp.is_empty() {
            let ys = y.sign();
            let hinge = opp
                .iter()
                .map(|xi| {
                    let m: f64 = x
                        .iter()
                        .zip(xi.iter())
                        .zip(&w)
                        .map(|((a, b), c)| (a - b) * c)
                        .sum();
                    (1.0 - ys * m).max(0.0)
                })
                .sum::<f64>()
                / opp.len() as f64;
            // The bound can be tight (one opposite example): allow rounding, 1e-12 + 1e-9 rel.
            assert!(
                hinge <= psi + tol::ABS + tol::REL * psi.abs(),
                "hinge {hinge} > psi_M {psi}"
            );
            checked += 1;
        }
        l.update(Row::Dense(x), *y);
        seen.push((x.clone(), *y));
    }
    assert!(checked > 70);
}

// ------------------------------------------------------------------------------------------------
// Resume, sparse input, robustness, projection, accuracy: for every learner.

/// Runs `f` on a fresh learner of each kind (dimension `p`), labelled by name.
macro_rules! for_each_learner {
    ($p:expr, $f:ident) => {
        for_each_learner!($p, $f, 0)
    };
    ($p:expr, $f:ident, $sketch:expr) => {{
        $f(
            "oauc-m",
            OaucMParams {
                lambda: 0.1,
                sketch: $sketch,
            },
            $p,
        );
        $f(
            "oauc-mc",
            OaucMcParams {
                eta: 0.05,
                lambda: 0.01,
                sketch: $sketch,
            },
            $p,
        );
        $f(
            "opauc",
            OpaucParams {
                eta: 0.05,
                lambda: 0.01,
                sketch: $sketch,
            },
            $p,
        );
        $f(
            "adaoam",
            AdaOamParams {
                eta: 0.1,
                lambda: 0.01,
                epsilon: 1e-8,
                sketch: $sketch,
            },
            $p,
        );
        $f(
            "admoam",
            AdmOamParams {
                eta: 0.05,
                lambda: 0.01,
                beta1: 0.9,
                beta2: 0.999,
                epsilon: 1e-8,
                sketch: $sketch,
            },
            $p,
        );
    }};
}

fn resume_is_bit_identical<P>(name: &str, params: P, p: usize)
where
    P: OnlineParams,
    P::Learner: Linear + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let stream = gaussian_stream(3, 300, p, 0.2, 0.4);
    for k in [0, 1, 2, 17, 150] {
        let mut whole = params.build(p, 0).unwrap();
        let mut first = params.build(p, 0).unwrap();
        for (x, y) in &stream[..k] {
            whole.update(Row::Dense(x), *y);
            first.update(Row::Dense(x), *y);
        }
        let bytes = postcard::to_allocvec(&first).unwrap();
        let mut resumed: P::Learner = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(resumed, first, "{name}: round trip after {k}");
        for (x, y) in &stream[k..] {
            whole.update(Row::Dense(x), *y);
            resumed.update(Row::Dense(x), *y);
        }
        let bits = |l: &P::Learner| l.weights().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&resumed), bits(&whole), "{name}: resumed after {k}");
        assert_eq!(resumed, whole, "{name}: state after resuming at {k}");
    }
}

#[test]
fn resuming_from_postcard_equals_an_uninterrupted_run() {
    for_each_learner!(5, resume_is_bit_identical);
    // Sketched below the rank of the rows, so the resumed run crosses shrinks.
    for_each_learner!(5, resume_is_bit_identical, 2);
}

/// With $\ell \ge p$ the sketch holds the rows exactly ($\Delta = 0$), so the sketched learner
/// follows the exact one to rounding; with $\ell < p$ it stays within the stated bound of
/// it, and on rows of rank $\le \ell$ it is exact again.
fn sketched_matches_dense<P>(name: &str, sketched: P, p: usize)
where
    P: OnlineParams + Serialize + DeserializeOwned,
    P::Learner: Linear,
{
    let mut map = serde_json::to_value(&sketched).unwrap();
    let ell = map["sketch"].as_u64().unwrap() as usize;
    map["sketch"] = serde_json::json!(0);
    let exact: P = serde_json::from_value(map).unwrap();
    let full = gaussian_stream(21, 400, p, 0.2, 0.6);
    // Rows in a 2-dimensional subspace: x = a u + b v.
    let low: Stream = full
        .iter()
        .map(|(x, y)| {
            let (a, b) = (x[0], x[1]);
            let row = (0..p)
                .map(|j| a * (1.0 + j as f64) / p as f64 + b * ((j % 3) as f64 - 1.0))
                .collect();
            (row, *y)
        })
        .collect();
    let streams = if ell >= p {
        vec![("full-rank rows", &full), ("rank-2 rows", &low)]
    } else {
        vec![("rank-2 rows", &low)]
    };
    for (what, stream) in streams {
        let mut d = exact.build(p, 0).unwrap();
        let mut k = sketched.build(p, 0).unwrap();
        for (x, y) in stream {
            d.update(Row::Dense(x), *y);
            k.update(Row::Dense(x), *y);
        }
        let scale = d.weights().iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(scale > 0.0, "{name}");
        for (u, v) in k.weights().iter().zip(d.weights()) {
            assert!(
                (u - v).abs() <= 1e-8 * scale,
                "{name} on {what}: sketched {u} vs exact {v}"
            );
        }
    }
}

#[test]
fn sketched_learners_match_dense_on_low_rank_rows() {
    // ell = p: every stream is within the sketch's rank.
    for_each_learner!(4, sketched_matches_dense, 4);
    // ell = 2 < p = 6: the rank-2 stream only.
    for_each_learner!(6, sketched_matches_dense, 2);
}

/// Sparse rows over `p` features, and the same rows with feature $j$ moved to $97 j + 13$ of a
/// space a hundred times wider: a sketched learner's weights are the same bits at the moved
/// features and zero at every other, since its step visits the touched features only
/// (`auc_online`'s `support` module); and a learner saved and resumed mid-stream in the wide
/// space (its support rebuilt from the state) steps bit for bit as the uninterrupted one.
fn untouched_features_change_nothing<P>(name: &str, params: P, p: usize)
where
    P: OnlineParams,
    P::Learner: Linear + Serialize + DeserializeOwned,
{
    let wide = 97 * p + 100;
    let moved = |j: usize| 97 * j + 13;
    let mut stream = gaussian_stream(8, 300, p, 0.25, 0.5);
    for (i, (x, _)) in stream.iter_mut().enumerate() {
        for (j, v) in x.iter_mut().enumerate() {
            if (i * 7 + j * 3) % 5 > 1 {
                *v = 0.0;
            }
        }
    }
    let sparse = |x: &[f64], at: &dyn Fn(usize) -> usize| {
        SparseVec::from_pairs(
            x.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, v)| (at(j) as u32, *v)),
        )
        .unwrap()
    };
    let mut narrow = params.build(p, 0).unwrap();
    let mut whole = params.build(wide, 0).unwrap();
    let mut first = params.build(wide, 0).unwrap();
    let cut = 170;
    for (x, y) in &stream[..cut] {
        first.update(Row::Sparse(sparse(x, &moved).view()), *y);
    }
    let bytes = postcard::to_allocvec(&first).unwrap();
    let mut resumed: P::Learner = postcard::from_bytes(&bytes).unwrap();
    for (i, (x, y)) in stream.iter().enumerate() {
        narrow.update(Row::Sparse(sparse(x, &|j| j).view()), *y);
        whole.update(Row::Sparse(sparse(x, &moved).view()), *y);
        if i >= cut {
            resumed.update(Row::Sparse(sparse(x, &moved).view()), *y);
        }
    }
    let mut expected = vec![0.0f64; wide];
    for (j, &v) in narrow.weights().iter().enumerate() {
        expected[moved(j)] = v;
    }
    assert!(narrow.weights().iter().any(|&v| v != 0.0), "{name}");
    let bits = |w: &[f64]| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(whole.weights()),
        bits(&expected),
        "{name}: wide against narrow"
    );
    assert_eq!(
        bits(resumed.weights()),
        bits(whole.weights()),
        "{name}: resumed at {cut}"
    );
}

#[test]
fn sketched_learners_step_on_the_touched_features_only() {
    for_each_learner!(40, untouched_features_change_nothing, 3);
}

/// An averaged sketched learner, whose mean takes in each iterate on the touched features only,
/// against the mean of the plain learner's iterates taken over all `wide` features, bit for
/// bit; also resumed from its saved state midway.
fn averages_skip_untouched_features<P>(name: &str, params: P, p: usize)
where
    P: OnlineParams,
    P::Learner: Linear + Serialize + DeserializeOwned,
{
    let wide = 97 * p + 100;
    let mut stream = gaussian_stream(4, 250, p, 0.3, 0.5);
    for (i, (x, _)) in stream.iter_mut().enumerate() {
        for (j, v) in x.iter_mut().enumerate() {
            if (i * 5 + j * 3) % 4 > 1 {
                *v = 0.0;
            }
        }
    }
    let rows: Vec<(SparseVec, Label)> = stream
        .iter()
        .map(|(x, y)| {
            let sv = SparseVec::from_pairs(
                x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(j, v)| ((97 * j + 13) as u32, *v)),
            )
            .unwrap();
            (sv, *y)
        })
        .collect();
    let mut plain = params.build(wide, 0).unwrap();
    let mut mean = vec![0.0f64; wide];
    let mut averaged = Averaged::new(params.build(wide, 0).unwrap());
    let cut = 120;
    let mut resumed: Option<Averaged<P::Learner>> = None;
    for (t, (x, y)) in rows.iter().enumerate() {
        plain.update(Row::Sparse(x.view()), *y);
        let inv = 1.0 / (t + 1) as f64;
        for (m, w) in mean.iter_mut().zip(plain.weights()) {
            *m += (w - *m) * inv;
        }
        averaged.update(Row::Sparse(x.view()), *y);
        if let Some(r) = &mut resumed {
            r.update(Row::Sparse(x.view()), *y);
        }
        if t + 1 == cut {
            let bytes = postcard::to_allocvec(&averaged).unwrap();
            resumed = Some(postcard::from_bytes(&bytes).unwrap());
        }
    }
    assert!(mean.iter().any(|&v| v != 0.0), "{name}");
    let bits = |w: &[f64]| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(averaged.weights()),
        bits(&mean),
        "{name}: touched against all"
    );
    let resumed = resumed.unwrap();
    assert_eq!(
        bits(resumed.weights()),
        bits(averaged.weights()),
        "{name}: resumed at {cut}"
    );
}

#[test]
fn averaged_sketched_learners_take_in_the_touched_features_only() {
    for_each_learner!(30, averages_skip_untouched_features, 3);
    // Exact moments: the plain loop over every feature, the same reference.
    for_each_learner!(4, averages_skip_untouched_features);
}

fn sparse_equals_dense<P>(name: &str, params: P, p: usize)
where
    P: OnlineParams,
    P::Learner: Linear + PartialEq + std::fmt::Debug,
{
    // Rows with many zeros; the sparse copies store only the non-zeros.
    let mut stream = gaussian_stream(5, 200, p, 0.3, 0.5);
    for (i, (x, _)) in stream.iter_mut().enumerate() {
        for (j, v) in x.iter_mut().enumerate() {
            if (i + j) % 3 != 0 {
                *v = 0.0;
            }
        }
    }
    let mut dense = params.build(p, 0).unwrap();
    let mut sparse = params.build(p, 0).unwrap();
    for (x, y) in &stream {
        let sv = SparseVec::from_pairs(
            x.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, v)| (j as u32, *v)),
        )
        .unwrap();
        dense.update(Row::Dense(x), *y);
        sparse.update(Row::Sparse(sv.view()), *y);
    }
    assert_eq!(sparse.weights(), dense.weights(), "{name}");
    assert_eq!(sparse, dense, "{name}");
}

#[test]
fn sparse_and_dense_rows_give_the_same_model() {
    for_each_learner!(6, sparse_equals_dense);
    for_each_learner!(6, sparse_equals_dense, 3);
}

fn stays_finite<P: OnlineParams>(name: &str, params: P, p: usize)
where
    P::Learner: Linear,
{
    let big: Stream = gaussian_stream(9, 100, p, 0.4, 1.0)
        .into_iter()
        .map(|(x, y)| (x.iter().map(|v| v * 1e6).collect(), y))
        .collect();
    let huge: Stream = gaussian_stream(12, 60, p, 0.4, 1.0)
        .into_iter()
        .map(|(x, y)| (x.iter().map(|v| v * 1e150).collect(), y))
        .collect();
    let streams: [(&str, Stream); 5] = [
        ("1e150 values (w' S w overflows)", huge),
        (
            "zeros",
            (0..20)
                .map(|i| (vec![0.0; p], if i % 3 == 0 { Pos } else { Neg }))
                .collect(),
        ),
        (
            "one class",
            gaussian_stream(1, 50, p, 0.5, 0.5)
                .into_iter()
                .map(|(x, _)| (x, Pos))
                .collect(),
        ),
        ("1e6 values", big),
        (
            "mixed scales",
            gaussian_stream(2, 100, p, 0.3, 0.5)
                .into_iter()
                .enumerate()
                .map(|(i, (x, y))| {
                    (
                        x.iter()
                            .map(|v| v * 10f64.powi((i % 13) as i32 - 6))
                            .collect(),
                        y,
                    )
                })
                .collect(),
        ),
    ];
    for (what, stream) in &streams {
        let mut l = params.build(p, 0).unwrap();
        for (x, y) in stream {
            l.update(Row::Dense(x), *y);
            assert!(
                l.weights().iter().all(|v| v.is_finite()),
                "{name} on {what}: {:?}",
                l.weights()
            );
            let s = l.score(Row::Dense(x));
            assert!(!s.is_nan(), "{name} on {what}: NaN score");
        }
        if *what == "zeros" || *what == "one class" {
            // No pairs ever formed: w stays at w_1 = 0.
            assert!(l.weights().iter().all(|v| *v == 0.0), "{name} on {what}");
        }
    }
}

#[test]
fn adversarial_inputs_never_give_nan() {
    let h = 1024.0; // 2^10
    for p in [1, 3] {
        for_each_learner!(p, stays_finite);
        for_each_learner!(p, stays_finite, 2);
        stays_finite(
            "oauc-m huge lambda",
            OaucMParams {
                lambda: h,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "oauc-m tiny lambda",
            OaucMParams {
                lambda: 1.0 / h,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "oauc-mc huge",
            OaucMcParams {
                eta: h,
                lambda: h,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "opauc huge eta",
            OpaucParams {
                eta: h,
                lambda: 0.0,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "opauc huge both",
            OpaucParams {
                eta: h,
                lambda: h,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "adaoam huge",
            AdaOamParams {
                eta: h,
                lambda: h,
                epsilon: 1e-8,
                sketch: 0,
            },
            p,
        );
        stays_finite(
            "admoam huge",
            AdmOamParams {
                eta: h,
                lambda: 1.0 / h,
                beta1: 0.0,
                beta2: 0.0,
                epsilon: 1e-8,
                sketch: 0,
            },
            p,
        );
    }
}

/// Deviation test (module docs of the moment learners): OPAUC with eta = lambda = 2^10 on 1e6
/// features would overflow to NaN within a few steps; it stays finite with ||w|| <= 2^200.
#[test]
fn huge_steps_stay_finite_and_bounded() {
    let stream: Stream = gaussian_stream(4, 200, 3, 0.4, 1.0)
        .into_iter()
        .map(|(x, y)| (x.iter().map(|v| v * 1e6).collect(), y))
        .collect();
    let mut l = OpaucParams {
        eta: 1024.0,
        lambda: 1024.0,
        sketch: 0,
    }
    .build(3, 0)
    .unwrap();
    let mut hit_cap = false;
    for (x, y) in &stream {
        l.update(Row::Dense(x), *y);
        let n = l.weights().iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(n.is_finite() && n <= MAX_NORM * (1.0 + 1e-12), "norm {n}");
        hit_cap |= n > MAX_NORM * 0.5;
        assert!(l.score(Row::Dense(x)).is_finite());
    }
    assert!(hit_cap, "the stream was meant to drive w to the cap");
}

#[test]
fn projection_keeps_the_adaptive_iterates_in_the_ball() {
    // lambda = 4: radius 1/2. Large steps push w against the ball.
    let lambda = 4.0;
    let radius = 0.5 * (1.0 + 1e-12); // scaling onto the sphere rounds by an ulp or so
    let stream = gaussian_stream(8, 300, 4, 0.3, 2.0);
    let mut ada = AdaOamParams {
        eta: 8.0,
        lambda,
        epsilon: 1e-8,
        sketch: 0,
    }
    .build(4, 0)
    .unwrap();
    let mut adm = AdmOamParams {
        eta: 8.0,
        lambda,
        beta1: 0.9,
        beta2: 0.999,
        epsilon: 1e-8,
        sketch: 0,
    }
    .build(4, 0)
    .unwrap();
    let norm = |w: &[f64]| w.iter().map(|v| v * v).sum::<f64>().sqrt();
    let (mut ada_max, mut adm_max) = (0.0f64, 0.0f64);
    for (x, y) in &stream {
        ada.update(Row::Dense(x), *y);
        adm.update(Row::Dense(x), *y);
        ada_max = ada_max.max(norm(ada.weights()));
        adm_max = adm_max.max(norm(adm.weights()));
        assert!(norm(ada.weights()) <= radius, "AdaOAM {:?}", ada.weights());
        assert!(norm(adm.weights()) <= radius, "AdmOAM {:?}", adm.weights());
    }
    // The constraint was active at some point (else the test proves nothing).
    assert!(ada_max > 0.49 && adm_max > 0.49, "{ada_max} {adm_max}");
}

#[test]
fn oauc_m_learns_an_easy_imbalanced_stream() {
    let p = 10;
    let train = gaussian_stream(21, 3000, p, 0.2, 0.4);
    let test = gaussian_stream(22, 1000, p, 0.2, 0.4);
    let labels: Vec<Label> = test.iter().map(|(_, y)| *y).collect();
    let n_pos = labels.iter().filter(|y| **y == Pos).count();
    assert!((100..400).contains(&n_pos), "imbalanced: {n_pos} positives");
    let mut l = OaucMParams {
        lambda: 0.01,
        sketch: 0,
    }
    .build(p, 0)
    .unwrap();
    for (x, y) in &train {
        l.update(Row::Dense(x), *y);
    }
    let scores: Vec<f64> = test.iter().map(|(x, _)| l.score(Row::Dense(x))).collect();
    let a = auc(&scores, &labels);
    assert!(a > 0.9, "AUC {a}");
}

#[test]
#[allow(clippy::float_cmp)] // Values copied from JSON unchanged.
fn params_are_checked_and_read_from_json() {
    use auc_core::ParamError;
    assert!(matches!(
        OaucMParams {
            lambda: 0.0,
            sketch: 0
        }
        .build(2, 0),
        Err(ParamError::OutOfRange { name: "lambda", .. })
    ));
    assert!(
        OaucMcParams {
            eta: 1.0,
            lambda: 0.0,
            sketch: 0
        }
        .build(2, 0)
        .is_ok()
    );
    assert!(
        OpaucParams {
            eta: 0.0,
            lambda: 0.0,
            sketch: 0
        }
        .build(2, 0)
        .is_err()
    );
    assert!(
        AdaOamParams {
            eta: 1.0,
            lambda: 0.0,
            epsilon: 1e-8,
            sketch: 0
        }
        .build(2, 0)
        .is_err()
    );
    let adm = |beta1: f64, beta2: f64| AdmOamParams {
        eta: 1.0,
        lambda: 1.0,
        beta1,
        beta2,
        epsilon: 1e-8,
        sketch: 0,
    };
    assert!(adm(0.0, 0.999).build(2, 0).is_ok());
    assert!(matches!(
        adm(1.0, 0.5).build(2, 0),
        Err(ParamError::OutOfRange { name: "beta1", .. })
    ));
    assert!(adm(0.5, 1.0).build(2, 0).is_err());
    // Parameters read from JSON: missing fields take their defaults, unknown ones are refused.
    let p: AdmOamParams = serde_json::from_str(r#"{"eta": 0.5, "beta2": 0.999}"#).unwrap();
    assert_eq!(
        (p.eta, p.lambda, p.beta1, p.beta2, p.epsilon),
        (
            0.5,
            AdmOamParams::default().lambda,
            AdmOamParams::default().beta1,
            0.999,
            1e-8
        )
    );
    assert!(serde_json::from_str::<OpaucParams>(r#"{"beta1": 0.9}"#).is_err());
    let ml: OaucMParams = serde_json::from_str(r#"{"lambda": 0.5}"#).unwrap();
    assert_eq!(ml.lambda, 0.5);
}

/// The serialized state of a sketched learner fits in what [`OnlineParams::saved_bytes`]
/// promises (the bound saving is checked against), and that is below the held state's bound.
fn saved_state_within_its_bound<P>(name: &str, params: P, p: usize)
where
    P: OnlineParams,
    P::Learner: Linear + Serialize,
{
    let mut learner = params.build(p, 0).unwrap();
    for (x, y) in gaussian_stream(13, 300, p, 0.2, 0.6) {
        learner.update(Row::Dense(&x), y);
    }
    let bytes = postcard::to_allocvec(&learner).unwrap().len() as u64;
    let (saved, held) = (params.saved_bytes(p), params.state_bytes(p));
    assert!(bytes <= saved, "{name}: {bytes} bytes saved, bound {saved}");
    assert!(
        saved <= held,
        "{name}: saved bound {saved} above the held {held}"
    );
}

#[test]
fn sketched_states_save_within_their_bound() {
    for_each_learner!(30, saved_state_within_its_bound, 4);
    for_each_learner!(7, saved_state_within_its_bound, 0);
}
