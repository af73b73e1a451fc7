//! Agreement of `auc_metrics::operating` with scikit-learn [SKL]: each target's threshold chosen
//! from `roc_curve` / `precision_recall_curve`'s arrays, the confusion counts there from
//! `confusion_matrix`, and `precision_recall_curve` itself, on fixed cases with ties.
//!
//! The fixtures are written by `test_data/gen_operating_fixtures.py` (numpy + scikit-learn, fixed
//! seed); Python is needed only to regenerate them.

mod common;

use auc_metrics::metrics::MetricError;
use auc_metrics::operating::{Target, operating_points, pr_curve};
use common::parse_labels;
use serde::Deserialize;

/// Rates are ratios of the same integer counts on both sides: equal up to rounding.
const TOL: f64 = 1e-12;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    scores: Vec<f64>,
    labels: String,
    points: Vec<Expected>,
    pr: Pr,
}

#[derive(Deserialize)]
struct Expected {
    target: String,
    /// None when no threshold meets the target.
    point: Option<Point>,
}

#[derive(Deserialize)]
struct Point {
    /// None for +inf (nothing predicted positive).
    threshold: Option<f64>,
    tp: usize,
    fp: usize,
    tn: usize,
    #[serde(rename = "fn")]
    fn_: usize,
    precision: f64,
    recall: f64,
    fpr: f64,
    f1: f64,
}

#[derive(Deserialize)]
struct Pr {
    precision: Vec<f64>,
    recall: Vec<f64>,
    threshold: Vec<f64>,
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

#[test]
#[allow(clippy::float_cmp)] // Thresholds are scores: compared exactly.
fn operating_points_equal_scikit_learn() {
    let f: Fixtures = common::load_fixture("operating_fixtures.json");
    let mut checked = 0;
    for c in &f.cases {
        let y = parse_labels(&c.labels);
        for e in &c.points {
            let target: Target = e.target.parse().unwrap();
            let got = operating_points(&c.scores, &y, &[target]);
            let at = format!("{} {}", c.name, e.target);
            let Some(want) = &e.point else {
                assert!(
                    matches!(got, Err(MetricError::Setting { .. })),
                    "{at}: expected unreachable, got {got:?}"
                );
                continue;
            };
            let p = got.unwrap()[0];
            let want_t = want.threshold.unwrap_or(f64::INFINITY);
            // -0.0 and 0.0 are one threshold (one tie group).
            assert!(
                p.threshold == want_t,
                "{at}: threshold {} vs {want_t}",
                p.threshold
            );
            assert_eq!(
                (p.tp, p.fp, p.tn, p.fn_),
                (want.tp, want.fp, want.tn, want.fn_),
                "{at}"
            );
            for (name, a, b) in [
                ("precision", p.precision, want.precision),
                ("recall", p.recall, want.recall),
                ("tpr", p.tpr, want.recall),
                ("fpr", p.fpr, want.fpr),
                ("f1", p.f1, want.f1),
            ] {
                assert!(close(a, b), "{at}: {name} {a} vs {b}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} points checked");
}

#[test]
#[allow(clippy::float_cmp)] // Thresholds are scores: compared exactly.
fn pr_curve_equals_scikit_learn() {
    let f: Fixtures = common::load_fixture("operating_fixtures.json");
    for c in &f.cases {
        let y = parse_labels(&c.labels);
        let got = pr_curve(&c.scores, &y).unwrap();
        assert_eq!(got.len(), c.pr.precision.len(), "{}", c.name);
        for (i, p) in got.iter().enumerate() {
            assert!(
                close(p.precision, c.pr.precision[i]),
                "{} precision {i}",
                c.name
            );
            assert!(close(p.recall, c.pr.recall[i]), "{} recall {i}", c.name);
            match c.pr.threshold.get(i) {
                Some(&t) => assert!(p.threshold == t, "{} threshold {i}", c.name),
                None => assert!(p.threshold.is_infinite(), "{} end point", c.name),
            }
        }
    }
}
