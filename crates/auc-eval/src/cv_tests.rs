//! Unit tests of the protocol's private pieces (`cv.rs`).

use super::*;

fn record(auc: f64, ap: f64) -> RunRecord {
    RunRecord {
        run: 0,
        repeat: 0,
        fold: 0,
        auc,
        ap,
        pauc: None,
        auc_ci: None,
        auc_se: None,
        log_loss: None,
        brier: None,
        params: ParamMap::new(),
        inner_auc: None,
        train_seconds: 1.0,
        search_seconds: 2.0,
        grid_points: 3,
        n_train: 4,
        diverged: false,
        divergence: None,
        n_test: 2,
    }
}

#[test]
fn summary_uses_the_sample_standard_deviation() {
    // AUCs 0.6, 0.8, 1.0: mean 0.8, squared deviations 0.04 + 0 + 0.04, / (3 - 1) -> 0.04.
    let rs = [record(0.6, 0.5), record(0.8, 0.5), record(1.0, 0.5)];
    let s = summarize(&rs);
    assert_eq!(s.runs, 3);
    assert!((s.auc_mean - 0.8).abs() < 1e-15);
    assert!((s.auc_std - 0.2).abs() < 1e-15);
    assert!(s.ap_std.abs() < 1e-15);
    assert_eq!((s.pauc_mean, s.pauc_std), (None, None));
    let with = |pauc| RunRecord {
        pauc: Some(pauc),
        ..record(0.5, 0.5)
    };
    let p = summarize(&[with(0.6), with(0.8), with(1.0)]);
    assert!((p.pauc_mean.unwrap() - 0.8).abs() < 1e-15);
    assert!((p.pauc_std.unwrap() - 0.2).abs() < 1e-15);
    // One run without a partial AUC leaves the summary without one.
    assert_eq!(summarize(&[with(0.6), rs[0].clone()]).pauc_mean, None);
    assert_eq!(s.grid_points, 3);
    assert!((s.total_seconds - 9.0).abs() < 1e-12);
    let one = summarize(&rs[..1]);
    assert_eq!(one.auc_std.to_bits(), 0f64.to_bits());
    assert_eq!(summarize(&[]).runs, 0);
}

#[test]
fn errors_name_what_went_wrong() {
    let e = EvalError::Folds {
        class: Label::Pos,
        count: 3,
        k: 5,
        part: "the data".into(),
    };
    assert_eq!(
        e.to_string(),
        "cannot make 5 stratified folds of the data: class +1 has only 3 example(s), fewer than 5"
    );
    let params: ParamMap = [("eta", -1.0)].into_iter().collect();
    let e = EvalError::Fit {
        params,
        source: FitError::SingleClass,
    };
    assert_eq!(e.to_string(), "training with parameters eta=-1 failed");
    assert!(std::error::Error::source(&e).is_some());
}
