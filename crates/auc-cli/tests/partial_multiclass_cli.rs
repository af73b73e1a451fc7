//! `auc metrics --max-fpr`, `auc metrics --multiclass` and `auc cv --max-fpr`, run as the
//! binary: the values of the hand-checked examples of `auc_eval::partial` and
//! `auc_eval::multiclass`, unchanged output without the flags, and errors naming file:line:col.

mod common;

use common::{auc, check_fails, heart, stderr, stdout, write};
use serde_json::Value;

/// Positives 0.9, 0.5, 0.3; negatives 0.6, 0.3 (labels 1 0 1 1 0). At B = 1/2 the area is 1/6
/// and McClish's value 0.5 (1 + (1/6 - 1/8) / (3/8)) = 5/9 (`auc_eval::partial`'s unit test).
const SCORES: &str = "0.9\n0.6\n0.5\n0.3\n0.3\n";
const LABELS: &str = "1\n0\n1\n1\n0\n";

fn json(args: &[&str]) -> Value {
    let o = auc(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

#[test]
fn max_fpr_adds_the_partial_auc_to_json_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "s.txt", SCORES);
    let y = write(dir.path(), "y.txt", LABELS);
    let (s, y) = (s.to_str().unwrap(), y.to_str().unwrap());
    let plain = json(&["metrics", "--scores", s, "--labels", y, "--json"]);
    assert!(plain.get("pauc").is_none() && plain.get("pauc_area").is_none());
    let v = json(&[
        "metrics",
        "--scores",
        s,
        "--labels",
        y,
        "--json",
        "--max-fpr",
        "0.5",
    ]);
    assert_eq!(v["auc"], plain["auc"]);
    assert_eq!(v["ap"], plain["ap"]);
    assert!(
        (v["pauc"].as_f64().unwrap() - 5.0 / 9.0).abs() < 1e-15,
        "{v}"
    );
    assert!((v["pauc_area"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-15);
    assert_eq!(v["max_fpr"], 0.5);
    let o = auc(&["metrics", "--scores", s, "--labels", y, "--max-fpr", "0.5"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "AUC 0.583333\nAP  0.755556\npAUC 0.555556 (FPR <= 0.5, McClish-standardized)\n\
         pAUC area 0.166667\n"
    );
    let o = auc(&["metrics", "--scores", s, "--labels", y]);
    assert_eq!(stdout(&o), "AUC 0.583333\nAP  0.755556\n");
    for bad in ["0", "1.5", "-0.1", "NaN"] {
        let flag = format!("--max-fpr={bad}");
        check_fails(
            &["metrics", "--scores", s, "--labels", y, &flag],
            "is out of range: it must be in (0, 1]",
        );
    }
}

/// The five-row, three-class example of `auc_eval::multiclass` (ovr macro 0.75, ovo weighted
/// 0.7375), with labels 2, 5, 7 so that the columns follow increasing label order.
#[test]
fn multiclass_reads_k_columns_in_increasing_label_order() {
    let dir = tempfile::tempdir().unwrap();
    let spaces = write(
        dir.path(),
        "s.txt",
        "0.6 0.3 0.1\n0.2\t0.5 0.3\n\n0.3 0.4 0.3\n0.1 0.1 0.8\n 0.5 0.2 0.3 \n",
    );
    let commas = write(
        dir.path(),
        "s.csv",
        "0.6,0.3,0.1\n0.2, 0.5,0.3\n0.3,0.4,0.3\n0.1,0.1,0.8\n0.5,0.2,0.3\n",
    );
    let y = write(dir.path(), "y.txt", "2\n2\n5\n7\n7\n");
    let y = y.to_str().unwrap();
    for s in [&spaces, &commas] {
        let s = s.to_str().unwrap();
        let base = ["metrics", "--scores", s, "--labels", y, "--json"];
        let ovr = json(&[&base[..], &["--multiclass", "ovr"]].concat());
        assert!((ovr["auc"].as_f64().unwrap() - 0.75).abs() < 1e-15, "{ovr}");
        assert_eq!(ovr["multiclass"], "ovr");
        assert_eq!(ovr["average"], "macro");
        assert_eq!(ovr["n"], 5);
        assert_eq!(ovr["classes"], serde_json::json!([2.0, 5.0, 7.0]));
        let ovo = json(&[&base[..], &["--multiclass", "ovo", "--average", "weighted"]].concat());
        assert!(
            (ovo["auc"].as_f64().unwrap() - 0.7375).abs() < 1e-15,
            "{ovo}"
        );
    }
    let o = auc(&[
        "metrics",
        "--scores",
        spaces.to_str().unwrap(),
        "--labels",
        y,
        "--multiclass",
        "ovo",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("AUC (ovo, macro, 3 classes) 0."),
        "{}",
        stdout(&o)
    );
}

#[test]
fn multiclass_errors_name_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let y = write(dir.path(), "y.txt", "0\n1\n2\n");
    let y = y.to_str().unwrap();
    let case = |name: &str, text: &str, expected: &str| {
        let s = write(dir.path(), name, text);
        let s = s.to_str().unwrap();
        check_fails(
            &[
                "metrics",
                "--scores",
                s,
                "--labels",
                y,
                "--multiclass",
                "ovr",
            ],
            &format!("{s}:{expected}"),
        );
    };
    case("few.txt", "1 2 3\n1 2\n1 2 3\n", "2:4: expected 3 scores");
    case(
        "many.txt",
        "1 2 3\n1 2 3\n1 2 3 4\n",
        "3:7: expected 3 scores",
    );
    case(
        "word.csv",
        "1,2,3\n1, x,3\n1,2,3\n",
        "2:4: expected a number, found `x`",
    );
    case(
        "inf.txt",
        "1 2 3\n1 2 inf\n1 2 3\n",
        "2:5: score `inf` is not finite",
    );
    let rows = write(dir.path(), "rows.txt", "1 2 3\n1 2 3\n");
    check_fails(
        &[
            "metrics",
            "--scores",
            rows.to_str().unwrap(),
            "--labels",
            y,
            "--multiclass",
            "ovr",
        ],
        "holds 2 rows of scores but",
    );
    // Columns must match the number of distinct labels.
    let two = write(dir.path(), "two.txt", "0\n1\n1\n");
    let s = write(dir.path(), "s.txt", "1 2 3\n1 2 3\n1 2 3\n");
    check_fails(
        &[
            "metrics",
            "--scores",
            s.to_str().unwrap(),
            "--labels",
            two.to_str().unwrap(),
            "--multiclass",
            "ovo",
        ],
        "expected 2 scores (one per class, in increasing label order: 0, 1), found 3",
    );
    // --average needs --multiclass; --max-fpr and --roc do not go with it.
    let s = s.to_str().unwrap();
    for extra in [
        &["--average", "weighted"][..],
        &["--multiclass", "ovr", "--max-fpr", "0.5"],
        &["--multiclass", "ovr", "--roc", "-"],
        &["--multiclass", "ovr", "--average", "micro"],
    ] {
        let o = auc(&[&["metrics", "--scores", s, "--labels", y][..], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn cv_max_fpr_adds_pauc_to_runs_and_summary_and_nothing_else() {
    let data = heart();
    let run = |extra: &[&str]| -> Vec<Value> {
        let args = [
            &[
                "cv",
                "--algo",
                "pa-i",
                "--data",
                &data,
                "--repeats",
                "1",
                "--folds",
                "3",
                "--seed",
                "3",
                "--json",
            ][..],
            extra,
        ]
        .concat();
        let o = auc(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let plain = run(&[]);
    let with = run(&["--max-fpr", "0.1"]);
    assert_eq!(plain.len(), 4);
    assert_eq!(with.len(), 4);
    for (p, w) in plain[..3].iter().zip(&with[..3]) {
        assert!(p.get("pauc").is_none());
        let pauc = w["pauc"].as_f64().unwrap();
        assert!(pauc > 0.5 && pauc <= 1.0, "{pauc}");
        assert_eq!(p["auc"], w["auc"]);
        assert_eq!(p["ap"], w["ap"]);
    }
    let (ps, ws) = (&plain[3], &with[3]);
    assert!(ps.get("pauc_mean").is_none() && ps.get("pauc_std").is_none());
    let mean: f64 = with[..3]
        .iter()
        .map(|r| r["pauc"].as_f64().unwrap())
        .sum::<f64>()
        / 3.0;
    assert!((ws["pauc_mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    assert!(ws["pauc_std"].as_f64().unwrap() >= 0.0);
    check_fails(
        &["cv", "--algo", "pa-i", "--data", &heart(), "--max-fpr", "2"],
        "--max-fpr 2",
    );
}

/// The partial-AUC learner from the command line: trained on a feature map, saved, scored by
/// `auc predict` exactly as the model file says, measured by `auc cv --max-fpr` (its `beta` and
/// cv's `--max-fpr` are different flags), and its parameters checked.
#[test]
fn pauc_svm_trains_on_a_map_predicts_and_is_measured_by_cv() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    let data = heart();
    let o = auc(&[
        "train",
        "--algo",
        "pauc-svm",
        "--features",
        "nystroem:40",
        "--beta",
        "0.2",
        &data,
        "-o",
        m,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("over the top 30 of 150 negatives"), "{err}");
    assert!(err.contains("certificate: J - min J <="), "{err}");
    assert!(!err.contains("NOT CONVERGED"), "{err}");
    let a = auc(&["predict", "--model", m, &data, "--no-metrics"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = auc(&["predict", "--model", m, &data, "--no-metrics"]);
    assert_eq!(stdout(&a), stdout(&b));
    let scores: Vec<f64> = stdout(&a)
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 270);
    assert!(
        scores.iter().any(|&s| (s - scores[0]).abs() > 1e-9),
        "constant scores"
    );
    let o = auc(&[
        "cv",
        "--algo",
        "pauc-svm",
        "--data",
        &data,
        "--max-fpr",
        "0.1",
        "--folds",
        "3",
        "--repeats",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: Value = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("summary").is_some())
        .unwrap();
    assert!(summary["pauc_mean"].as_f64().unwrap() > 0.6, "{summary}");
    check_fails(
        &["train", "--algo", "pauc-svm", "--beta", "0", &data, "-o", m],
        "beta = 0 is out of range: it must be in (0, 1]",
    );
}

/// When no direction lifts the positives above the negatives' top tail, w = 0 is the optimum
/// and the summary says so instead of silently saving a model that scores every row alike.
#[test]
fn pauc_svm_says_when_the_optimum_scores_every_row_alike() {
    let dir = tempfile::tempdir().unwrap();
    // Positives at the centre, negatives on both sides: the top negative along either
    // direction scores above every positive.
    let data = write(
        dir.path(),
        "d.svm",
        "1 1:0\n1 1:0.1\n1 1:-0.1\n-1 1:1\n-1 1:-1\n-1 1:0.9\n-1 1:-0.9\n-1 1:0.2\n",
    );
    let model = dir.path().join("m.auc");
    let o = auc(&[
        "train",
        "--algo",
        "pauc-svm",
        "--scale",
        "none",
        data.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("w = 0 is optimal"), "{}", stderr(&o));
}
