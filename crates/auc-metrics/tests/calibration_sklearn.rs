//! The calibrations against scikit-learn's, on the committed fixtures of
//! `test_data/make_calibration_fixtures.py` (scores with ties, separable, large, rare positives).
//!
//! Platt's objective is strictly convex; we solve it by Newton's method to machine precision,
//! scikit-learn by L-BFGS with `gtol = 1e-6`, which leaves its probabilities up to about 2e-8
//! from the minimizer. So the test compares ours with the same objective minimized tightly
//! by Newton steps in numpy (1e-12) and with scikit-learn's own answer (5e-8), and checks that our loss is no higher.

mod common;

use auc_core::Label;
use auc_metrics::calibration::{Calibration, CalibrationKind};
use serde_json::Value;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "{what}[{i}]: {g} vs {w} (tol {tol})");
    }
}

/// Platt's log loss at (a, b) against the smoothed targets, written independently here.
fn platt_loss(scores: &[f64], labels: &[Label], a: f64, b: f64) -> f64 {
    let pos = labels.iter().filter(|l| l.is_pos()).count() as f64;
    let neg = labels.len() as f64 - pos;
    scores
        .iter()
        .zip(labels)
        .map(|(&s, l)| {
            let t = if l.is_pos() {
                (pos + 1.0) / (pos + 2.0)
            } else {
                1.0 / (neg + 2.0)
            };
            let z = a * s + b;
            let softplus = z.max(0.0) + (-z.abs()).exp().ln_1p();
            softplus - (1.0 - t) * z
        })
        .sum()
}

#[test]
fn calibrations_equal_scikit_learn() {
    let fixtures: Value = common::load_fixture("calibration.json");
    for case in fixtures["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let scores = floats(&case["scores"]);
        let labels: Vec<Label> = case["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                if v.as_i64() == Some(1) {
                    Label::Pos
                } else {
                    Label::Neg
                }
            })
            .collect();
        let test = floats(&case["test"]);

        let sig = Calibration::fit(CalibrationKind::Sigmoid, &scores, &labels).unwrap();
        let Calibration::Sigmoid { a, b } = sig else {
            panic!("a sigmoid")
        };
        let p = sig.probabilities(&test);
        close(
            &format!("{name} sigmoid vs tight"),
            &p,
            &floats(&case["sigmoid_tight"]["proba"]),
            1e-12,
        );
        close(
            &format!("{name} sigmoid vs scikit-learn"),
            &p,
            &floats(&case["sigmoid_sklearn"]["proba"]),
            5e-8,
        );
        let sk = &case["sigmoid_sklearn"];
        let (sa, sb) = (sk["a"].as_f64().unwrap(), sk["b"].as_f64().unwrap());
        assert!(
            platt_loss(&scores, &labels, a, b) <= platt_loss(&scores, &labels, sa, sb) + 1e-12,
            "{name}: our sigmoid's loss is above scikit-learn's"
        );

        let iso = Calibration::fit(CalibrationKind::Isotonic, &scores, &labels).unwrap();
        close(
            &format!("{name} isotonic"),
            &iso.probabilities(&test),
            &floats(&case["isotonic"]["proba"]),
            1e-12,
        );
    }
}
