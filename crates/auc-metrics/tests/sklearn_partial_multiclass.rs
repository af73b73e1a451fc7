//! Agreement with scikit-learn [SKL] on fixed cases: `roc_auc_score(y, s, max_fpr=B)` (the
//! partial AUC, McClish-standardized, and the area it standardizes) and
//! `roc_auc_score(y, S, multi_class=ovr|ovo, average=macro|weighted)`.
//!
//! The fixtures are written by `test_data/gen_partial_multiclass_fixtures.py` (numpy +
//! scikit-learn, fixed seed); Python is needed only to regenerate them.

mod common;

use auc_metrics::multiclass::{Average, Scheme, multiclass_auc};
use auc_metrics::partial::partial_auc;
use common::parse_labels;
use serde::Deserialize;

/// conventions section 2: AUC must equal scikit-learn's to 1e-12; both metrics are held to it.
const SKLEARN_TOL: f64 = 1e-12;

#[derive(Deserialize)]
struct Fixtures {
    sklearn_version: String,
    n_partial: usize,
    n_multiclass: usize,
    partial: Vec<PartialCase>,
    multiclass: Vec<MulticlassCase>,
}

#[derive(Deserialize)]
struct PartialCase {
    name: String,
    scores: Vec<f64>,
    /// One character per score: '1' positive, '0' negative.
    labels: String,
    points: Vec<PartialPoint>,
}

#[derive(Deserialize)]
struct PartialPoint {
    max_fpr: f64,
    /// `grid`, `vertex` (B is a vertex's false-positive rate) or `between` (halfway between two).
    kind: String,
    pauc: f64,
    area: f64,
}

#[derive(Deserialize)]
struct MulticlassCase {
    name: String,
    classes: usize,
    labels: Vec<usize>,
    scores: Vec<Vec<f64>>,
    ovr_macro: f64,
    ovr_weighted: f64,
    ovo_macro: f64,
    ovo_weighted: f64,
}

fn load() -> Fixtures {
    common::load_fixture("partial_multiclass_fixtures.json")
}

fn check_partial(case: &PartialCase, version: &str) {
    let labels = parse_labels(&case.labels);
    for p in &case.points {
        let ours = partial_auc(&case.scores, &labels, p.max_fpr).unwrap();
        assert!(
            (ours.standardized - p.pauc).abs() <= SKLEARN_TOL,
            "{} at B={} ({}): pauc {:?} vs scikit-learn {version} {:?}",
            case.name,
            p.max_fpr,
            p.kind,
            ours.standardized,
            p.pauc
        );
        assert!(
            (ours.area - p.area).abs() <= SKLEARN_TOL,
            "{} at B={} ({}): area {:?} vs {:?}",
            case.name,
            p.max_fpr,
            p.kind,
            ours.area,
            p.area
        );
    }
}

fn check_multiclass(case: &MulticlassCase, version: &str) {
    let flat: Vec<f64> = case.scores.iter().flatten().copied().collect();
    for (scheme, average, expected) in [
        (Scheme::OneVsRest, Average::Macro, case.ovr_macro),
        (Scheme::OneVsRest, Average::Weighted, case.ovr_weighted),
        (Scheme::OneVsOne, Average::Macro, case.ovo_macro),
        (Scheme::OneVsOne, Average::Weighted, case.ovo_weighted),
    ] {
        let ours = multiclass_auc(&flat, case.classes, &case.labels, scheme, average).unwrap();
        assert!(
            (ours - expected).abs() <= SKLEARN_TOL,
            "{} {scheme} {average}: {ours:?} vs scikit-learn {version} {expected:?}",
            case.name
        );
    }
}

#[test]
fn partial_auc_matches_scikit_learn_at_every_max_fpr() {
    let f = load();
    assert_eq!(f.n_partial, f.partial.len());
    assert!(f.partial.len() >= 6, "the generator writes 6 partial cases");
    for case in &f.partial {
        check_partial(case, &f.sklearn_version);
    }
}

#[test]
fn partial_fixtures_put_max_fpr_on_and_between_vertices() {
    let f = load();
    for case in &f.partial {
        let kinds: Vec<&str> = case.points.iter().map(|p| p.kind.as_str()).collect();
        assert!(kinds.contains(&"between"), "{}", case.name);
        assert!(kinds.contains(&"grid"), "{}", case.name);
        // Every case but these has ROC vertices strictly inside (0, 1) on the FPR axis.
        if !["all_equal", "one_negative"].contains(&case.name.as_str()) {
            assert!(kinds.contains(&"vertex"), "{}", case.name);
        }
    }
    let heavy = f.partial.iter().find(|c| c.name == "heavy_ties").unwrap();
    let mut distinct = heavy.scores.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    assert!(
        distinct.len() * 4 < heavy.scores.len(),
        "few distinct scores"
    );
}

#[test]
fn multiclass_auc_matches_scikit_learn_for_both_schemes_and_averages() {
    let f = load();
    assert_eq!(f.n_multiclass, f.multiclass.len());
    assert!(
        f.multiclass.len() >= 5,
        "the generator writes 5 multiclass cases"
    );
    assert!(f.multiclass.iter().any(|c| c.classes == 3));
    assert!(f.multiclass.iter().any(|c| c.classes == 4));
    for case in &f.multiclass {
        assert!(case.scores.iter().all(|r| r.len() == case.classes));
        check_multiclass(case, &f.sklearn_version);
    }
}
