//! Property tests of the moment learners over random streams (`auc_core::testing::dense_problem`).

use auc_core::testing::{dense_problem, tol};
use auc_core::{Dataset, Label, OnlineLearner, OnlineParams, Row};
use auc_online::{Linear, OaucMParams, OpaucParams};
use proptest::prelude::*;

/// The raw rows of `data` seen before example `k` with the label opposite to `y`.
fn opposite_before(data: &Dataset, k: usize, y: Label) -> Vec<Vec<f64>> {
    (0..k)
        .filter(|&i| data.label(i) != y)
        .map(|i| {
            let mut v = vec![0.0; data.dim()];
            data.row(i).write_dense(&mut v);
            v
        })
        .collect()
}

fn dense(x: Row<'_>, p: usize) -> Vec<f64> {
    let mut v = vec![0.0; p];
    x.write_dense(&mut v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// [OAUC eq. 1] applied to OPAUC's step [OAUC eq. 13]: at every step of any stream, the
    /// objective OPAUC descends is lambda/2 ||w||^2 + (1/n) sum_i (1 - y w.(x - x_i))^2 / 2 over
    /// the n opposite examples seen, and its gradient is that sum's gradient. Tolerance: the two
    /// sides re-associate sums of at most 20 terms of size <= 100, so 1e-10 absolute + 1e-9
    /// relative.
    #[test]
    fn lemma_oauc_opauc_descends_the_mean_pairwise_square_loss(
        data in dense_problem(1..5, 2..20),
        eta in 0.01f64..0.5,
        lambda in 0.0f64..0.5,
    ) {
        let p = data.dim();
        let mut l = OpaucParams { eta, lambda, sketch: 0 }.build(p, 0).unwrap();
        let mut grad = vec![0.0; p];
        for (k, (x, y)) in data.iter().enumerate() {
            let w = l.weights().to_vec();
            let xv = dense(x, p);
            let value = l.loss_and_grad(x, y, &mut grad);
            let opp = opposite_before(&data, k, y);
            let ys = y.sign();
            let mut brute = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
            let mut brute_grad: Vec<f64> = w.iter().map(|v| lambda * v).collect();
            for xi in &opp {
                let n = opp.len() as f64;
                let d: Vec<f64> = xv.iter().zip(xi).map(|(a, b)| a - b).collect();
                let r = 1.0 - ys * d.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
                brute += r * r / 2.0 / n;
                for (g, dj) in brute_grad.iter_mut().zip(&d) {
                    *g -= r * ys * dj / n;
                }
            }
            prop_assert!(tol::close_with(value, brute, 1e-10, 1e-9), "k={k}: {value} vs {brute}");
            for (g, b) in grad.iter().zip(&brute_grad) {
                prop_assert!(tol::close_with(*g, *b, 1e-10, 1e-9), "k={k}: {grad:?} vs {brute_grad:?}");
            }
            l.update(x, y);
        }
    }

    /// [OAUC Theorem 1] along OAUC-M's own iterates: psi_M of the opposite class's moments bounds
    /// the mean pairwise hinge loss from above at every step. Tolerance: 1e-12 absolute + 1e-9
    /// relative for rounding (the bound is tight with one opposite example).
    #[test]
    fn lemma_oauc_oauc_m_surrogate_bounds_the_pairwise_hinge(
        data in dense_problem(1..5, 2..20),
        lambda in 0.01f64..2.0,
    ) {
        let p = data.dim();
        let mut l = OaucMParams { lambda, sketch: 0 }.build(p, 0).unwrap();
        let mut grad = vec![0.0; p];
        for (k, (x, y)) in data.iter().enumerate() {
            let w = l.weights().to_vec();
            let xv = dense(x, p);
            let reg = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
            let psi = l.loss_and_grad(x, y, &mut grad) - reg;
            let opp = opposite_before(&data, k, y);
            if !opp.is_empty() {
                let ys = y.sign();
                let hinge = opp
                    .iter()
                    .map(|xi| {
                        let m: f64 = xv.iter().zip(xi).zip(&w).map(|((a, b), c)| (a - b) * c).sum();
                        (1.0 - ys * m).max(0.0)
                    })
                    .sum::<f64>()
                    / opp.len() as f64;
                prop_assert!(hinge <= psi + tol::ABS + tol::REL * psi.abs(), "k={k}: {hinge} > {psi}");
            }
            l.update(x, y);
        }
    }
}
