//! Tests of the calibrations against independent computations: finite differences of Platt's
//! loss at the fit, and the min-max formula of isotonic regression by brute force.

#![allow(clippy::float_cmp)] // Clipped ends and equal scores are exact by construction.

use super::*;
use auc_core::Label::{Neg, Pos};
use proptest::prelude::*;

fn labels_of(bits: &[bool]) -> Vec<Label> {
    bits.iter().map(|&b| if b { Pos } else { Neg }).collect()
}

fn targets(labels: &[Label]) -> Vec<f64> {
    let pos = labels.iter().filter(|l| l.is_pos()).count() as f64;
    let neg = labels.len() as f64 - pos;
    labels
        .iter()
        .map(|l| {
            if l.is_pos() {
                (pos + 1.0) / (pos + 2.0)
            } else {
                1.0 / (neg + 2.0)
            }
        })
        .collect()
}

/// The isotonic value at each distinct score by the min-max formula
/// $\hat y_i = \max_{j \le i} \min_{k \ge i} \bar y_{j..k}$ (weighted block means).
fn isotonic_brute(scores: &[f64], labels: &[Label]) -> Vec<(f64, f64)> {
    let mut xs: Vec<f64> = scores.to_vec();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let sums: Vec<(f64, f64)> = xs
        .iter()
        .map(|&x| {
            let mut s = 0.0;
            let mut w = 0.0;
            for (v, l) in scores.iter().zip(labels) {
                if *v == x {
                    s += if l.is_pos() { 1.0 } else { 0.0 };
                    w += 1.0;
                }
            }
            (s, w)
        })
        .collect();
    let m = xs.len();
    (0..m)
        .map(|i| {
            let mut best = f64::NEG_INFINITY;
            for j in 0..=i {
                let mut low = f64::INFINITY;
                for k in i..m {
                    let (s, w) = sums[j..=k]
                        .iter()
                        .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
                    low = low.min(s / w);
                }
                best = best.max(low);
            }
            (xs[i], best)
        })
        .collect()
}

#[test]
fn words_parse_and_print() {
    for kind in [CalibrationKind::Sigmoid, CalibrationKind::Isotonic] {
        assert_eq!(kind.word().parse::<CalibrationKind>().unwrap(), kind);
    }
    let e = "platt".parse::<CalibrationKind>().unwrap_err();
    assert!(e.contains("sigmoid") && e.contains("isotonic"), "{e}");
}

#[test]
fn bad_inputs_are_errors() {
    let k = CalibrationKind::Sigmoid;
    assert!(matches!(
        Calibration::fit(k, &[1.0], &[Pos, Neg]),
        Err(CalibrationError::LengthMismatch { .. })
    ));
    assert!(matches!(
        Calibration::fit(k, &[1.0, f64::NAN], &[Pos, Neg]),
        Err(CalibrationError::NonFinite { index: 1 })
    ));
    assert!(matches!(
        Calibration::fit(CalibrationKind::Isotonic, &[1.0, 2.0], &[Pos, Pos]),
        Err(CalibrationError::SingleClass { pos: 2, neg: 0 })
    ));
}

#[test]
fn platt_on_separable_scores_stays_finite_and_ordered() {
    let scores = [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0];
    let labels = [Neg, Neg, Neg, Pos, Pos, Pos];
    let c = Calibration::fit(CalibrationKind::Sigmoid, &scores, &labels).unwrap();
    let Calibration::Sigmoid { a, b } = c else {
        panic!("a sigmoid")
    };
    assert!(a.is_finite() && a < 0.0 && b.is_finite(), "{a} {b}");
    let p = c.probabilities(&scores);
    assert!(p.windows(2).all(|w| w[0] < w[1]));
    // The targets bound the probabilities away from 0 and 1 on the training scores.
    assert!(p[0] > 0.0 && p[5] < 1.0);
    c.validate().unwrap();
}

#[test]
fn probabilities_of_extreme_scores_are_finite() {
    let c = Calibration::Sigmoid { a: -2.0, b: 0.5 };
    assert_eq!(c.probability(1e308), 1.0);
    assert_eq!(c.probability(-1e308), 0.0);
    assert!((c.probability(0.25) - 0.5).abs() < 1e-15);
}

#[test]
fn interpolation_clips_and_reads_between_points() {
    let c = Calibration::Isotonic {
        x: vec![0.0, 1.0, 3.0],
        y: vec![0.0, 0.5, 1.0],
    };
    assert_eq!(c.probability(-5.0), 0.0);
    assert_eq!(c.probability(9.0), 1.0);
    assert_eq!(c.probability(1.0), 0.5);
    assert!((c.probability(0.5) - 0.25).abs() < 1e-15);
    assert!((c.probability(2.0) - 0.75).abs() < 1e-15);
    c.validate().unwrap();
}

#[test]
fn invalid_stored_calibrations_are_refused() {
    let bad = [
        Calibration::Sigmoid {
            a: f64::NAN,
            b: 0.0,
        },
        Calibration::Isotonic {
            x: vec![],
            y: vec![],
        },
        Calibration::Isotonic {
            x: vec![1.0, 1.0],
            y: vec![0.0, 1.0],
        },
        Calibration::Isotonic {
            x: vec![0.0, 1.0],
            y: vec![0.6, 0.4],
        },
        Calibration::Isotonic {
            x: vec![0.0, 1.0],
            y: vec![0.0, 1.5],
        },
    ];
    for c in bad {
        assert!(c.validate().is_err(), "{c:?}");
    }
}

proptest! {
    /// At Platt's fit the loss does not decrease along either axis (finite differences), and
    /// the analytic gradient there is near zero.
    #[test]
    fn platt_fit_is_a_minimum(
        raw in prop::collection::vec((-40i32..40, any::<bool>()), 4..60),
    ) {
        let scores: Vec<f64> = raw.iter().map(|(s, _)| f64::from(*s) / 8.0).collect();
        let labels = labels_of(&raw.iter().map(|r| r.1).collect::<Vec<_>>());
        prop_assume!(labels.iter().any(|l| l.is_pos()) && labels.iter().any(|l| !l.is_pos()));
        let Calibration::Sigmoid { a, b } =
            Calibration::fit(CalibrationKind::Sigmoid, &scores, &labels).unwrap()
        else {
            panic!("a sigmoid")
        };
        let t = targets(&labels);
        let at = platt_loss(&scores, &t, a, b);
        let h = 1e-4;
        for (da, db) in [(h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h)] {
            prop_assert!(platt_loss(&scores, &t, a + da, b + db) >= at - 1e-12 * at.abs().max(1.0));
        }
        let (ga, gb) = (
            (platt_loss(&scores, &t, a + 1e-6, b) - platt_loss(&scores, &t, a - 1e-6, b)) / 2e-6,
            (platt_loss(&scores, &t, a, b + 1e-6) - platt_loss(&scores, &t, a, b - 1e-6)) / 2e-6,
        );
        prop_assert!(ga.abs() < 1e-5 * scores.len() as f64 && gb.abs() < 1e-5 * scores.len() as f64);
    }

    /// Pool-adjacent-violators equals the min-max formula at every distinct score, and the
    /// interpolated probability at a fitted score is the fitted value.
    #[test]
    fn isotonic_equals_the_min_max_formula(
        raw in prop::collection::vec((-6i32..6, any::<bool>()), 2..40),
    ) {
        let scores: Vec<f64> = raw.iter().map(|(s, _)| f64::from(*s)).collect();
        let labels = labels_of(&raw.iter().map(|r| r.1).collect::<Vec<_>>());
        prop_assume!(labels.iter().any(|l| l.is_pos()) && labels.iter().any(|l| !l.is_pos()));
        let c = Calibration::fit(CalibrationKind::Isotonic, &scores, &labels).unwrap();
        c.validate().unwrap();
        for (x, want) in isotonic_brute(&scores, &labels) {
            let got = c.probability(x);
            prop_assert!((got - want).abs() < 1e-12, "at {}: {} vs {}", x, got, want);
        }
    }
}

#[test]
fn log_odds_is_positive_exactly_above_one_half() {
    let sig = Calibration::Sigmoid { a: -2.0, b: 0.5 };
    assert_eq!(sig.log_odds(1e300), 2e300 - 0.5);
    let iso = Calibration::Isotonic {
        x: vec![0.0, 1.0, 2.0],
        y: vec![0.0, 0.5, 1.0],
    };
    for (s, sign) in [
        (-1.0, -1.0),
        (0.5, -1.0),
        (1.0, 0.0),
        (1.5, 1.0),
        (5.0, 1.0),
    ] {
        let v = iso.log_odds(s);
        assert!(v.is_finite());
        assert_eq!(v.signum() * f64::from(v != 0.0), sign, "at {s}: {v}");
    }
}
