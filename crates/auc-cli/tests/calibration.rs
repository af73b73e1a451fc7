//! `auc train --calibrate` and `auc predict --proba`: the calibration is fitted on held-out
//! scores, stored in the model, shown by `auc model`, applied by predict; an uncalibrated model
//! refuses `--proba` before writing anything; `--resume` drops a calibration with a warning.

mod common;

use common::{auc, check_fails, heart, stderr, stdout};

fn ok(o: &std::process::Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

fn numbers(text: &str) -> Vec<f64> {
    text.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn calibrated_models_print_probabilities_that_follow_the_scores() {
    let dir = tempfile::tempdir().unwrap();
    let h = heart();
    for (algo, kind) in [
        ("pa-i", "sigmoid"),
        ("opauc-batch", "isotonic"),
        ("oam-seq", "sigmoid"),
    ] {
        let model = dir.path().join(format!("{algo}.auc"));
        let m = model.to_str().unwrap();
        let o = auc(&[
            "train",
            "--algo",
            algo,
            "--calibrate",
            kind,
            &h,
            "-o",
            m,
            "--json",
        ]);
        ok(&o, algo);
        let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert!(j["calibration"].as_str().unwrap().starts_with(kind), "{j}");
        assert!(
            stderr(&o).contains("held-out scores of 5-fold"),
            "{}",
            stderr(&o)
        );

        let scores = numbers(&stdout(&auc(&["predict", "-m", m, &h])));
        let o = auc(&["predict", "-m", m, &h, "--proba", "--json"]);
        ok(&o, "predict --proba");
        let summary: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let probs: Vec<f64> = summary["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(probs.len(), scores.len());
        assert!(probs.iter().all(|p| (0.0..=1.0).contains(p)));
        // Both calibrations are non-decreasing in the score (heart's scores rank positives
        // first, so the sigmoid's slope is negative).
        let mut pairs: Vec<(f64, f64)> = scores.iter().copied().zip(probs).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(pairs.windows(2).all(|w| w[0].1 <= w[1].1 + 1e-15), "{algo}");
        let (ll, brier) = (
            summary["log_loss"].as_f64().unwrap(),
            summary["brier"].as_f64().unwrap(),
        );
        // Better than the constant prior 4/9: log loss 0.687, Brier 0.247.
        assert!(ll < 0.6 && brier < 0.2, "{algo}: {summary}");

        let shown = stdout(&auc(&["model", m]));
        assert!(shown.contains(&format!("calibration {kind}")), "{shown}");
        let j: serde_json::Value =
            serde_json::from_str(stdout(&auc(&["model", m, "--json"])).trim()).unwrap();
        assert!(j["calibration"][kind].is_object(), "{j}");
    }
}

#[test]
fn the_calibration_is_the_same_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let h = heart();
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let model = dir.path().join(format!("t{threads}.auc"));
        let m = model.to_str().unwrap();
        ok(
            &auc(&[
                "train",
                "--algo",
                "opauc",
                "--calibrate",
                "sigmoid",
                "--threads",
                threads,
                &h,
                "-o",
                m,
            ]),
            "train",
        );
        outputs.push(stdout(&auc(&["predict", "-m", m, &h, "--proba"])));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn refusals_name_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let h = heart();
    let model = dir.path().join("plain.auc");
    let m = model.to_str().unwrap();
    ok(&auc(&["train", "--algo", "pa-i", &h, "-o", m]), "train");
    let out = dir.path().join("p.txt");
    let o = out.to_str().unwrap();
    check_fails(&["predict", "-m", m, &h, "--proba", "-o", o], "--calibrate");
    assert!(!out.exists(), "no partial output");
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            "--calibrate",
            "platt",
            &h,
            "-o",
            m,
        ],
        "sigmoid",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            "--calibrate",
            "sigmoid",
            "--calibration-folds",
            "1",
            &h,
            "-o",
            m,
        ],
        "at least 2 folds",
    );

    // Three positives: three folds, said.
    let mut text = String::new();
    for i in 0..13 {
        text.push_str(&format!(
            "{} 1:{} 2:{}\n",
            if i < 3 { "+1" } else { "-1" },
            i,
            (i * 7) % 5
        ));
    }
    let few = common::write(dir.path(), "few.libsvm", &text);
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        "--calibrate",
        "sigmoid",
        few.to_str().unwrap(),
        "-o",
        m,
    ]);
    ok(&o, "few positives");
    assert!(
        stderr(&o).contains("3-fold cross-validation (not 5"),
        "{}",
        stderr(&o)
    );

    // --resume of a calibrated model drops the calibration and says so.
    let cal = dir.path().join("cal.auc");
    let c = cal.to_str().unwrap();
    ok(
        &auc(&[
            "train",
            "--algo",
            "pa-i",
            "--calibrate",
            "sigmoid",
            &h,
            "-o",
            c,
        ]),
        "train",
    );
    let resumed = dir.path().join("resumed.auc");
    let r = resumed.to_str().unwrap();
    let o = auc(&["train", "--resume", c, &h, "-o", r]);
    ok(&o, "resume");
    assert!(
        stderr(&o).contains("does not hold after --resume"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&auc(&["model", r])).contains("calibration"));
}

#[test]
fn cv_reports_log_loss_and_brier_only_when_asked() {
    let h = heart();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "cv",
            "--algo",
            "pa-i",
            "--data",
            &h,
            "--repeats",
            "1",
            "--json",
        ];
        args.extend_from_slice(extra);
        let o = auc(&args);
        ok(&o, "cv");
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let plain = run(&[]);
    assert!(
        plain
            .iter()
            .all(|j| j.get("log_loss").is_none() && j.get("log_loss_mean").is_none())
    );
    let calibrated = run(&["--calibrate", "sigmoid"]);
    let (runs, summary) = calibrated.split_at(calibrated.len() - 1);
    assert_eq!(runs.len(), 5);
    for (r, p) in runs.iter().zip(&plain) {
        // The same models: AUC unchanged, and the probabilities beat the prior.
        assert_eq!(r["auc"], p["auc"]);
        let (ll, brier) = (
            r["log_loss"].as_f64().unwrap(),
            r["brier"].as_f64().unwrap(),
        );
        assert!(ll > 0.0 && ll < 0.69 && brier > 0.0 && brier < 0.25, "{r}");
    }
    let mean = runs
        .iter()
        .map(|r| r["log_loss"].as_f64().unwrap())
        .sum::<f64>()
        / 5.0;
    assert!((summary[0]["log_loss_mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    assert!(summary[0]["brier_std"].as_f64().is_some());
}

/// Log loss and Brier score are defined on one class (AUC is not): `--proba` on a file of
/// positives only still reports them.
#[test]
fn proba_on_one_class_reports_the_losses() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    ok(
        &auc(&[
            "train",
            "--algo",
            "pa-i",
            "--calibrate",
            "sigmoid",
            &heart(),
            "-o",
            m,
        ]),
        "train",
    );
    let pos = common::write(dir.path(), "pos.libsvm", "1 1:0.5 2:1\n1 3:0.2\n");
    let o = auc(&["predict", "-m", m, pos.to_str().unwrap(), "--proba"]);
    ok(&o, "predict");
    let err = stderr(&o);
    assert!(err.contains("no AUC") && err.contains("log loss"), "{err}");
}

/// `--calibrate-on prequential` fits on each row's score before the learner steps on it: the
/// same Platt fit as one computed here from a PA-I stepped through heart in file order.
#[test]
fn prequential_calibration_is_platt_on_the_test_then_train_scores() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        "--scale",
        "none",
        "--calibrate",
        "sigmoid",
        "--calibrate-on",
        "prequential",
        &heart(),
        "-o",
        m,
    ]);
    ok(&o, "train");
    assert!(
        stderr(&o).contains("fitted on the prequential scores of the last 270 rows"),
        "{}",
        stderr(&o)
    );
    let o = auc(&["model", m, "--json"]);
    ok(&o, "model");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let (a, b) = (
        v["calibration"]["sigmoid"]["a"].as_f64().unwrap(),
        v["calibration"]["sigmoid"]["b"].as_f64().unwrap(),
    );
    // The same pass by hand: heart's rows in file order through a fresh PA-I.
    let (scores, labels) = common::prequential_pa_i(&heart(), 13);
    let want =
        auc_learners::Calibration::fit(auc_learners::CalibrationKind::Sigmoid, &scores, &labels)
            .unwrap();
    let auc_learners::Calibration::Sigmoid { a: wa, b: wb } = want else {
        panic!("a sigmoid")
    };
    assert!(
        (a - wa).abs() <= 1e-9 && (b - wb).abs() <= 1e-9,
        "{a} {b} vs {wa} {wb}"
    );
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            "--calibrate",
            "sigmoid",
            "--calibrate-on",
            "prequential",
            "--max-memory",
            "1M",
            &heart(),
            "-o",
            m,
        ],
        "the prequential scores --calibrate-on prequential keeps",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "aucsvm",
            "--calibrate",
            "sigmoid",
            "--calibrate-on",
            "prequential",
            &heart(),
            "-o",
            m,
        ],
        "--calibrate-on prequential needs a one-pass learner",
    );
}

/// `--tune --calibrate` runs one cross-validation: the calibration is fitted on the held-out
/// scores the tuning kept for the parameters it chose, unless the calibration asks for other
/// folds; either way the probabilities follow the scores.
#[test]
fn tuning_and_calibration_share_one_cross_validation() {
    let dir = tempfile::tempdir().unwrap();
    let h = heart();
    let m = dir.path().join("m.auc");
    let m = m.to_str().unwrap();
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "--algo",
            "opauc",
            "--tune",
            "--grid",
            "lambda=2^-8,2^-4",
            "--calibrate",
            "sigmoid",
            &h,
            "-o",
            m,
        ];
        args.extend_from_slice(extra);
        let o = auc(&args);
        ok(&o, "train --tune --calibrate");
        stderr(&o)
    };
    let shared = train(&[]);
    assert!(
        shared.contains("held-out scores of --tune's 5-fold cross-validation"),
        "{shared}"
    );
    let scores = numbers(&stdout(&auc(&["predict", "-m", m, &h])));
    let probs = numbers(&stdout(&auc(&["predict", "-m", m, &h, "--proba"])));
    let mut pairs: Vec<(f64, f64)> = scores.into_iter().zip(probs).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(pairs.windows(2).all(|w| w[0].1 <= w[1].1 + 1e-15));
    assert!(pairs[0].1 < 0.3 && pairs[pairs.len() - 1].1 > 0.7);
    let own = train(&["--calibration-folds", "3"]);
    assert!(
        own.contains("held-out scores of 3-fold cross-validation"),
        "{own}"
    );
}
