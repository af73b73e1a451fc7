//! `auc metrics --ci / --bootstrap / --at / --pr` and `auc compare`, run as the binary, against
//! the references of auc-metrics' fixtures: DeLong's definition in numpy
//! (`gen_delong_fixtures.py`) and scikit-learn's `roc_curve` / `precision_recall_curve`
//! (`gen_operating_fixtures.py`); errors exit 2 naming what was wrong, with no output file.

mod common;

use std::path::{Path, PathBuf};

use common::{auc, check_fails, stderr, stdout, write};
use serde_json::Value;

/// DeLong's interval and test agree with the O(mn) definition to 1e-10 (the target);
/// operating-point rates are ratios of equal counts, equal to rounding.
const TOL: f64 = 1e-10;

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../auc-metrics/test_data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn json(args: &[&str]) -> Value {
    let o = auc(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

/// Writes one value per line.
fn lines(dir: &Path, name: &str, values: &[Value]) -> PathBuf {
    let text: String = values.iter().map(|v| format!("{v}\n")).collect();
    write(dir, name, &text)
}

/// Labels as 1/0 lines from a fixture's label string.
fn labels(dir: &Path, s: &str) -> PathBuf {
    let text: String = s.chars().map(|c| format!("{c}\n")).collect();
    write(dir, "y.txt", &text)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn close(what: &str, a: &Value, b: &Value) {
    assert!((f(a) - f(b)).abs() <= TOL, "{what}: {a} vs {b}");
}

#[test]
fn ci_and_compare_equal_the_numpy_definition() {
    let fx = fixture("delong_fixtures.json");
    let dir = tempfile::tempdir().unwrap();
    for case in fx["cases"].as_array().unwrap().iter().take(4) {
        let a = lines(dir.path(), "a.txt", case["a"].as_array().unwrap());
        let b = lines(dir.path(), "b.txt", case["b"].as_array().unwrap());
        let y = labels(dir.path(), case["labels"].as_str().unwrap());
        let (a, b, y) = (
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            y.to_str().unwrap(),
        );
        let name = case["name"].as_str().unwrap();
        for ci in case["ci_a"].as_array().unwrap() {
            let level = ci["level"].to_string();
            let v = json(&[
                "metrics", "--scores", a, "--labels", y, "--ci", "--level", &level, "--json",
            ]);
            close(name, &v["auc"], &case["auc_a"]);
            close(name, &v["auc_ci"][0], &ci["lower"]);
            close(name, &v["auc_ci"][1], &ci["upper"]);
            assert!((f(&v["auc_se"]).powi(2) - f(&case["var_a"])).abs() < TOL);
            assert_eq!(v["ci_method"], "delong");
            assert_eq!(v["level"], ci["level"]);
        }
        for t in case["test"].as_array().unwrap() {
            let level = t["level"].to_string();
            let v = json(&["compare", "--labels", y, a, b, "--level", &level, "--json"]);
            close(name, &v["auc_a"], &case["auc_a"]);
            close(name, &v["auc_b"], &case["auc_b"]);
            for key in ["delta", "se", "z", "p_value"] {
                close(&format!("{name} {key}"), &v[key], &t[key]);
            }
            close(name, &v["delta_ci"][0], &t["delta_ci"][0]);
            close(name, &v["delta_ci"][1], &t["delta_ci"][1]);
        }
        let o = auc(&["compare", "--labels", y, a, b]);
        assert!(o.status.success());
        let text = stdout(&o);
        assert!(
            text.starts_with("AUC A ") && text.contains("paired DeLong test"),
            "{text}"
        );
    }
}

#[test]
fn bootstrap_is_seeded_and_reports_ap_and_pauc() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixture("delong_fixtures.json");
    let case = &fx["cases"][2];
    let s = lines(dir.path(), "s.txt", case["a"].as_array().unwrap());
    let y = labels(dir.path(), case["labels"].as_str().unwrap());
    let (s, y) = (s.to_str().unwrap(), y.to_str().unwrap());
    let run = |seed: &str| {
        json(&[
            "metrics",
            "--scores",
            s,
            "--labels",
            y,
            "--bootstrap",
            "300",
            "--seed",
            seed,
            "--max-fpr",
            "0.2",
            "--json",
        ])
    };
    let (a, b, c) = (run("4"), run("4"), run("5"));
    assert_eq!(a, b);
    assert_ne!(a["bootstrap"], c["bootstrap"]);
    let boot = &a["bootstrap"];
    assert_eq!(boot["replicates"], 300);
    assert_eq!(boot["seed"], 4);
    for (ci, point) in [("ap_ci", "ap"), ("pauc_ci", "pauc"), ("auc_ci", "auc")] {
        let (lo, hi, x) = (f(&boot[ci][0]), f(&boot[ci][1]), f(&a[point]));
        assert!(lo <= x && x <= hi && lo < hi, "{ci}: [{lo}, {hi}] vs {x}");
    }
    assert!(
        a.get("auc_ci").is_none(),
        "DeLong's interval only with --ci"
    );
}

#[test]
#[allow(clippy::float_cmp)] // Thresholds are scores: compared exactly.
fn operating_points_and_pr_curve_equal_scikit_learn() {
    let fx = fixture("operating_fixtures.json");
    let dir = tempfile::tempdir().unwrap();
    for case in fx["cases"].as_array().unwrap() {
        let s = lines(dir.path(), "s.txt", case["scores"].as_array().unwrap());
        let y = labels(dir.path(), case["labels"].as_str().unwrap());
        let pr = dir.path().join("pr.csv");
        let (s, y) = (s.to_str().unwrap(), y.to_str().unwrap());
        let reachable: Vec<&Value> = case["points"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| !p["point"].is_null())
            .collect();
        let mut args = vec!["metrics", "--scores", s, "--labels", y, "--json"];
        args.extend(["--pr", pr.to_str().unwrap()]);
        for p in &reachable {
            args.extend(["--at", p["target"].as_str().unwrap()]);
        }
        let v = json(&args);
        let got = v["operating_points"].as_array().unwrap();
        assert_eq!(got.len(), reachable.len());
        for (g, want) in got.iter().zip(&reachable) {
            let w = &want["point"];
            let at = format!("{} {}", case["name"], want["target"]);
            assert_eq!(g["target"], want["target"]);
            if w["threshold"].is_null() {
                assert!(g["threshold"].is_null(), "{at}: {g}");
            } else {
                assert!(f(&g["threshold"]) == f(&w["threshold"]), "{at}: {g} vs {w}");
            }
            for key in ["tp", "fp", "tn", "fn"] {
                assert_eq!(g[key], w[key], "{at} {key}");
            }
            for key in ["precision", "recall", "fpr", "f1"] {
                close(&format!("{at} {key}"), &g[key], &w[key]);
            }
            close(&format!("{at} tpr"), &g["tpr"], &w["recall"]);
        }
        // The PR curve file, row by row, as precision_recall_curve returns it.
        let text = std::fs::read_to_string(&pr).unwrap();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "precision,recall,threshold");
        let prec = case["pr"]["precision"].as_array().unwrap();
        let thr = case["pr"]["threshold"].as_array().unwrap();
        assert_eq!(rows.len() - 1, prec.len());
        for (i, row) in rows[1..].iter().enumerate() {
            let cells: Vec<&str> = row.split(',').collect();
            let p: f64 = cells[0].parse().unwrap();
            assert!((p - f(&prec[i])).abs() <= TOL, "{row}");
            match thr.get(i) {
                Some(t) => assert!(cells[2].parse::<f64>().unwrap() == f(t), "{row} vs {t}"),
                None => assert_eq!(cells[2], "inf"),
            }
        }
    }
}

#[test]
fn text_output_names_each_target() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(
        dir.path(),
        "s.txt",
        "0.9\n0.8\n0.7\n0.6\n0.5\n0.4\n0.3\n0.2\n",
    );
    let y = write(dir.path(), "y.txt", "1\n0\n1\n1\n0\n0\n1\n0\n");
    let (s, y) = (s.to_str().unwrap(), y.to_str().unwrap());
    let o = auc(&[
        "metrics",
        "--scores",
        s,
        "--labels",
        y,
        "--at",
        "recall=0.75",
        "--at",
        "cost=10:1",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("at recall=0.75: threshold 0.6  TPR 0.750000  FPR 0.250000")
            && text.contains("TP 3 FP 1 TN 3 FN 1")
            && text.contains("at cost=10:1: threshold 0.3 "),
        "{text}"
    );
}

#[test]
fn bad_settings_exit_2_without_output_files() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "s.txt", "0.4\n0.3\n0.2\n0.1\n");
    let y = write(dir.path(), "y.txt", "0\n1\n0\n1\n");
    let short = write(dir.path(), "short.txt", "0.1\n0.2\n");
    let pr = dir.path().join("pr.csv");
    let (s, y, short) = (
        s.to_str().unwrap(),
        y.to_str().unwrap(),
        short.to_str().unwrap(),
    );
    let base = ["metrics", "--scores", s, "--labels", y];
    let with = |extra: &[&'static str]| -> Vec<String> {
        base.iter().chain(extra).map(|x| x.to_string()).collect()
    };
    let cases: [(&[&'static str], &str); 7] = [
        (
            &["--at", "recall=1.2"],
            "--at recall=1.2: recall=1.2: expected a number in [0, 1]",
        ),
        (&["--at", "lift=3"], "is not a target"),
        (&["--at", "cost=0:0"], "not both 0"),
        (
            &["--ci", "--level", "0"],
            "--level 0: level = 0 is out of range",
        ),
        (
            &["--bootstrap", "1"],
            "--bootstrap 1: at least 2 replicates",
        ),
        (
            &["--at", "precision=0.99"],
            "--at precision=0.99: no threshold reaches",
        ),
        (
            &["--ci"],
            "DeLong's variance needs at least 2 positives and 2 negatives",
        ),
    ];
    for (i, (extra, msg)) in cases.iter().enumerate() {
        let mut args = with(extra);
        if i == 6 {
            // Two positives and one negative: too few for DeLong.
            let y3 = write(dir.path(), "y3.txt", "0\n1\n1\n");
            let s3 = write(dir.path(), "s3.txt", "0.1\n0.2\n0.3\n");
            args = [
                "metrics",
                "--scores",
                s3.to_str().unwrap(),
                "--labels",
                y3.to_str().unwrap(),
                "--ci",
            ]
            .iter()
            .map(|x| x.to_string())
            .collect();
        }
        args.extend(["--pr".to_string(), pr.display().to_string()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        check_fails(&refs, msg);
        assert!(!pr.exists(), "{refs:?} left {}", pr.display());
    }
    check_fails(
        &["compare", "--labels", y, s, short],
        &format!("{short} holds 2 scores but {y} holds 4 labels"),
    );
    check_fails(
        &["compare", "--labels", y, s, s, "--level", "1.5"],
        "--level 1.5",
    );
    check_fails(
        &["compare", "--labels", "-", "-", s],
        "only one of A, B and --labels",
    );
}

#[test]
fn cv_ci_gives_each_test_part_delongs_interval() {
    let data = common::heart();
    let base = [
        "cv",
        "--algo",
        "opauc",
        "--data",
        &data,
        "--repeats",
        "1",
        "--folds",
        "3",
        "--json",
    ];
    let runs = |extra: &[&str]| -> Vec<Value> {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let o = auc(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v.get("fold").is_some())
            .collect()
    };
    let (plain, with) = (runs(&[]), runs(&["--ci", "0.9"]));
    assert_eq!(plain.len(), 3);
    // The 90 % half-width in standard errors, scipy.stats.norm.ppf(0.95).
    let z = 1.644_853_626_951_472_2;
    for (p, w) in plain.iter().zip(&with) {
        assert_eq!(p["auc"], w["auc"]);
        assert!(p.get("auc_ci").is_none());
        let (lo, hi, se, a) = (
            f(&w["auc_ci"][0]),
            f(&w["auc_ci"][1]),
            f(&w["auc_se"]),
            f(&w["auc"]),
        );
        assert!(lo < a && a < hi && hi < 1.0, "{w}");
        assert!(
            (a - lo - z * se).abs() < 1e-12 && (hi - a - z * se).abs() < 1e-12,
            "{w}"
        );
    }
    check_fails(
        &["cv", "--algo", "opauc", "--data", &data, "--ci", "1.5"],
        "level = 1.5",
    );
}
