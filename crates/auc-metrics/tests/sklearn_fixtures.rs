//! Agreement with scikit-learn [SKL] on fixed cases (conventions section 2): `roc_auc_score`,
//! `average_precision_score` and `roc_curve(..., drop_intermediate=False)`.
//!
//! The fixtures are written by `test_data/gen_metric_fixtures.py` (numpy + scikit-learn, fixed
//! seed); Python is needed only to regenerate them:
//! `python3 crates/auc-metrics/test_data/gen_metric_fixtures.py`.

mod common;

use common::parse_labels;
use std::cmp::Ordering;

use auc_core::testing::tol::close;
use auc_metrics::metrics::{auc, average_precision, roc_curve};
use serde::Deserialize;

/// How many metric cases the generator writes; an empty or truncated file fails.
const EXPECTED_CASES: usize = 13;

/// conventions section 2: AUC must equal scikit-learn's to 1e-12; AP is held to the same bound.
const SKLEARN_TOL: f64 = 1e-12;

#[derive(Deserialize)]
struct Fixtures {
    sklearn_version: String,
    n_cases: usize,
    cases: Vec<MetricCase>,
    roc: RocCase,
}

#[derive(Deserialize)]
struct MetricCase {
    name: String,
    scores: Vec<f64>,
    /// One character per score: '1' positive, '0' negative.
    labels: String,
    roc_auc: f64,
    average_precision: f64,
}

#[derive(Deserialize)]
struct RocCase {
    scores: Vec<f64>,
    labels: String,
    fpr: Vec<f64>,
    tpr: Vec<f64>,
    /// Python `repr` of each threshold ("inf" for the first one in recent scikit-learn).
    thresholds: Vec<String>,
}

fn load() -> Fixtures {
    common::load_fixture("metric_fixtures.json")
}

/// Numerical equality that treats `-0.0` and `0.0` as the same score, as both libraries do.
fn same_value(a: f64, b: f64) -> bool {
    a.partial_cmp(&b) == Some(Ordering::Equal)
}

fn check(case: &MetricCase, version: &str) {
    let labels = parse_labels(&case.labels);
    assert_eq!(
        labels.len(),
        case.scores.len(),
        "{}: labels and scores differ in length",
        case.name
    );
    let a = auc(&case.scores, &labels).unwrap();
    let p = average_precision(&case.scores, &labels).unwrap();
    assert!(
        (a - case.roc_auc).abs() <= SKLEARN_TOL,
        "{}: auc {a:?} vs scikit-learn {version} {:?}",
        case.name,
        case.roc_auc
    );
    assert!(
        (p - case.average_precision).abs() <= SKLEARN_TOL,
        "{}: ap {p:?} vs scikit-learn {version} {:?}",
        case.name,
        case.average_precision
    );
}

#[test]
fn auc_and_ap_match_scikit_learn_on_every_case() {
    let f = load();
    assert_eq!(
        f.n_cases,
        f.cases.len(),
        "the file's own count disagrees with its cases"
    );
    assert_eq!(
        f.cases.len(),
        EXPECTED_CASES,
        "the generator writes {EXPECTED_CASES} cases"
    );
    for case in &f.cases {
        check(case, &f.sklearn_version);
    }
}

#[test]
fn fixtures_cover_the_edge_cases() {
    let f = load();
    let names: Vec<&str> = f.cases.iter().map(|c| c.name.as_str()).collect();
    for wanted in [
        "heavy_ties",
        "all_equal",
        "one_positive",
        "one_negative",
        "extreme_magnitudes_and_signed_zero",
        "integer_scores",
        "large_1e5",
    ] {
        assert!(names.contains(&wanted), "missing case {wanted}");
    }
    let large = f.cases.iter().find(|c| c.name == "large_1e5").unwrap();
    assert_eq!(large.scores.len(), 100_000);
    let one_pos = f.cases.iter().find(|c| c.name == "one_positive").unwrap();
    assert_eq!(one_pos.labels.matches('1').count(), 1);
    let one_neg = f.cases.iter().find(|c| c.name == "one_negative").unwrap();
    assert_eq!(one_neg.labels.matches('0').count(), 1);
    let signed = f
        .cases
        .iter()
        .find(|c| c.name == "extreme_magnitudes_and_signed_zero")
        .unwrap();
    assert!(
        signed
            .scores
            .iter()
            .any(|s| s.to_bits() == (-0.0f64).to_bits())
    );
}

#[test]
fn roc_points_match_scikit_learn_without_dropping() {
    let f = load();
    let case = &f.roc;
    let labels = parse_labels(&case.labels);
    let ours = roc_curve(&case.scores, &labels).unwrap();
    let thresholds: Vec<f64> = case
        .thresholds
        .iter()
        .map(|t| t.parse().unwrap_or_else(|e| panic!("threshold {t:?}: {e}")))
        .collect();
    assert_eq!(ours.len(), case.fpr.len());
    assert_eq!(ours.len(), case.tpr.len());
    assert_eq!(ours.len(), thresholds.len());
    // The first point is "nothing called positive". scikit-learn >= 1.3 labels it +inf, as we do;
    // older versions used max(score) + 1. Either way it must sit above every score.
    let max_score = case
        .scores
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(ours[0].threshold.is_infinite() && ours[0].threshold > 0.0);
    assert!(
        thresholds[0] > max_score,
        "sklearn's first threshold {}",
        thresholds[0]
    );
    for (i, (p, t)) in ours.iter().zip(&thresholds).enumerate().skip(1) {
        assert!(
            same_value(p.threshold, *t),
            "point {i}: threshold {} vs {t}",
            p.threshold
        );
    }
    for (i, p) in ours.iter().enumerate() {
        // Both sides divide the same integer counts by the same class sizes.
        assert!(
            close(p.fpr, case.fpr[i]),
            "point {i}: fpr {} vs {}",
            p.fpr,
            case.fpr[i]
        );
        assert!(
            close(p.tpr, case.tpr[i]),
            "point {i}: tpr {} vs {}",
            p.tpr,
            case.tpr[i]
        );
    }
}
