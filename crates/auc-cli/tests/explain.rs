//! Explanations: `auc model`'s per-feature weights in the units of the input and split counts,
//! and `auc importance` against scikit-learn's permutation importance.

mod common;

use std::path::Path;

use common::{check_fails, data, ok};
use serde_json::Value;

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}

fn heart_csv() -> String {
    repo("data/heart.csv")
}

/// heart.csv with feature j mapped to 3.7 (j + 1) x - 10 j + 20: ranges far from the [-1, 1] of
/// the bundled file, so that undoing the scaling changes the weights and makes an intercept.
fn shifted_heart(dir: &Path) -> String {
    let text = std::fs::read_to_string(heart_csv()).unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        let last = cells.len() - 1;
        let row: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(j, c)| {
                if j == last {
                    (*c).to_owned()
                } else {
                    let x: f64 = c.parse().unwrap();
                    let y = 3.7 * (j + 1) as f64 * x - 10.0 * j as f64 + 20.0;
                    auc_core::shortest(y)
                }
            })
            .collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    let path = dir.join("shifted.csv");
    std::fs::write(&path, out).unwrap();
    path.display().to_string()
}

/// The rows of a numeric CSV file with a header: names (label left out) and values.
fn numeric_csv(path: &str, label: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let k = header.iter().position(|h| *h == label).unwrap();
    let names = header
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, h)| (*h).to_owned())
        .collect();
    let rows = lines
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, v)| v.parse().unwrap())
                .collect()
        })
        .collect();
    (names, rows)
}

fn model_json(model: &str) -> Value {
    let (out, _) = ok(&["model", model, "--json"]);
    serde_json::from_str(&out).unwrap()
}

fn predict(model: &str, data: &str) -> Vec<f64> {
    let (out, _) = ok(&["predict", "-m", model, data, "--no-metrics"]);
    out.lines().map(|l| l.parse().unwrap()).collect()
}

/// Trains `args` on a shifted heart.csv and checks that the weights `auc model` prints in the
/// units of the input give back every score `auc predict` prints: s = b' + sum_j w'_j x_j on
/// the raw rows (crates/auc-prep/src/explain.rs derives it).
fn check_raw_form(train: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc").display().to_string();
    let csv = shifted_heart(dir.path());
    let mut args = vec!["train", csv.as_str(), "-o", model.as_str()];
    args.extend_from_slice(train);
    ok(&args);
    let e = &model_json(&model)["explanation"];
    assert_eq!(e["kind"], "linear", "{train:?}: {e}");
    let (names, rows) = numeric_csv(&csv, "label");
    let weights = e["weights"].as_array().unwrap();
    assert_eq!(weights.len(), names.len());
    let mut w = vec![f64::NAN; names.len()];
    for entry in weights {
        let j = names
            .iter()
            .position(|n| n == entry["feature"].as_str().unwrap())
            .unwrap();
        w[j] = entry["weight"].as_f64().unwrap();
    }
    // Sorted by decreasing magnitude.
    let mags: Vec<f64> = weights
        .iter()
        .map(|e| e["weight"].as_f64().unwrap().abs())
        .collect();
    assert!(mags.windows(2).all(|p| p[0] >= p[1]), "{mags:?}");
    let b = e["intercept"].as_f64().unwrap();
    if !train.contains(&"none") {
        // The shift shows: an offset to fold in.
        assert!(
            b.abs() > 1e-6 || train.contains(&"maxabs"),
            "{train:?}: intercept {b}"
        );
    }
    let scores = predict(&model, &csv);
    let scale = scores.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    for (i, (row, s)) in rows.iter().zip(&scores).enumerate() {
        let raw: f64 = b + row.iter().zip(&w).map(|(x, w)| x * w).sum::<f64>();
        // Rounding of two sums of 13 terms of the scores' size.
        assert!(
            (raw - s).abs() <= 1e-12 * scale.max(1.0) * 16.0,
            "{train:?} row {i}: raw form {raw}, score {s}"
        );
    }
}

#[test]
fn linear_weights_in_input_units_give_back_the_scores() {
    check_raw_form(&["--algo", "opauc-batch"]);
    check_raw_form(&["--algo", "opauc-batch", "--scale", "maxabs"]);
    check_raw_form(&["--algo", "oauc-m-batch", "--scale", "none"]);
    check_raw_form(&["--algo", "opauc", "--shuffle", "3"]);
    check_raw_form(&["--algo", "perceptron", "--average"]);
    check_raw_form(&["--algo", "pauc-svm"]);
}

#[test]
fn libsvm_features_are_named_by_index() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc").display().to_string();
    let heart = repo("data/heart.libsvm");
    ok(&["train", "--algo", "opauc-batch", &heart, "-o", &model]);
    let e = &model_json(&model)["explanation"];
    let mut names: Vec<&str> = e["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["feature"].as_str().unwrap())
        .collect();
    names.sort_by_key(|n| n[1..].parse::<u32>().unwrap());
    let want: Vec<String> = (1..=13).map(|j| format!("f{j}")).collect();
    assert_eq!(names, want);
    // Text: a table of the 13 features and the intercept, no "--all" note.
    let (text, _) = ok(&["model", &model]);
    assert!(text.contains("in the units of the input"), "{text}");
    assert!(text.contains("(intercept)"), "{text}");
    assert!(
        text.contains("  f13 ") || text.contains("  f13  "),
        "{text}"
    );
    assert!(!text.contains("--all"), "{text}");
}

#[test]
fn table_models_name_categories_and_missing_indicators() {
    let golden = data("golden/applicants-opauc-batch.auc");
    let e = &model_json(&golden)["explanation"];
    assert_eq!(e["kind"], "linear");
    let names: Vec<&str> = e["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["feature"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"debt"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("employment=")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n.ends_with("(missing)")), "{names:?}");
}

#[test]
fn mapped_models_say_weights_are_not_per_input() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc").display().to_string();
    let csv = heart_csv();
    ok(&[
        "train",
        "--algo",
        "opauc-batch",
        "--features",
        "rff:64",
        &csv,
        "-o",
        &model,
    ]);
    let e = &model_json(&model)["explanation"];
    assert_eq!(e["kind"], "not_per_input", "{e}");
    let (text, _) = ok(&["model", &model]);
    assert!(text.contains("per-input weights are not defined"), "{text}");
    assert!(text.contains("auc importance"), "{text}");
}

#[test]
fn trees_count_splits_per_feature() {
    let golden = data("golden/applicants-gbt-auc.auc");
    let j = model_json(&golden);
    let e = &j["explanation"];
    assert_eq!(e["kind"], "splits", "{e}");
    let rows = e["splits"].as_array().unwrap();
    let total: u64 = rows.iter().map(|r| r["splits"].as_u64().unwrap()).sum();
    assert_eq!(total, e["total_splits"].as_u64().unwrap());
    // Every internal node is one split: leaves minus trees.
    let state = &j["state"];
    let nodes = state["leaves"].as_u64().unwrap() - state["trees"].as_u64().unwrap();
    assert_eq!(total, nodes);
    let share: f64 = rows.iter().map(|r| r["share"].as_f64().unwrap()).sum();
    assert!((share - 1.0).abs() < 1e-12);
    let (text, _) = ok(&["model", &golden]);
    assert!(text.contains("keeps no split gains"), "{text}");
}

#[test]
fn the_blend_reports_its_tree_member() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc").display().to_string();
    ok(&["train", "--algo", "blend", &heart_csv(), "-o", &model]);
    let e = &model_json(&model)["explanation"];
    assert_eq!(e["kind"], "splits", "{e}");
    assert_eq!(e["member"], "trees of the blend");
}

#[test]
fn text_lists_the_top_twenty_unless_all() {
    // The applicants table has fewer than 20 features; a hashed model has many.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc").display().to_string();
    let heart = repo("data/heart.libsvm");
    ok(&[
        "train",
        "--algo",
        "opauc-batch",
        "--hash-bits",
        "5",
        &heart,
        "-o",
        &model,
    ]);
    let (text, _) = ok(&["model", &model]);
    assert!(text.contains("(20 of 32 features"), "{text}");
    let (all, _) = ok(&["model", &model, "--all"]);
    assert!(!all.contains("of 32 features"), "{all}");
    assert!(
        all.lines().filter(|l| l.contains("hash #")).count() == 32,
        "{all}"
    );
}

/// `auc importance` equals scikit-learn's `permutation_importance(..., scoring="roc_auc")` on
/// the cases of tests/data/explain/importance.json (written by make_importance.py beside it).
#[test]
fn importance_equals_sklearns() {
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(data("explain/importance.json")).unwrap())
            .unwrap();
    for case in fixture.as_array().unwrap() {
        let model = repo(case["model"].as_str().unwrap());
        let file = repo(case["data"].as_str().unwrap());
        let repeats = case["repeats"].to_string();
        let seed = case["seed"].to_string();
        let (out, _) = ok(&[
            "importance",
            "-m",
            &model,
            &file,
            "--repeats",
            &repeats,
            "--seed",
            &seed,
            "--json",
        ]);
        let got: Value = serde_json::from_str(&out).unwrap();
        let close = |a: f64, b: f64, what: &str| {
            assert!((a - b).abs() <= 1e-12, "{model}: {what}: {a} vs {b}");
        };
        close(
            got["baseline_auc"].as_f64().unwrap(),
            case["baseline"].as_f64().unwrap(),
            "baseline",
        );
        let cols = got["columns"].as_array().unwrap();
        let names = case["columns"].as_array().unwrap();
        assert_eq!(cols.len(), names.len());
        let mut nonzero = false;
        for (k, c) in cols.iter().enumerate() {
            assert_eq!(c["column"], names[k]);
            let want = case["importances"][k].as_array().unwrap();
            for (r, d) in c["drops"].as_array().unwrap().iter().enumerate() {
                close(d.as_f64().unwrap(), want[r].as_f64().unwrap(), "drop");
                nonzero |= d.as_f64().unwrap().abs() > 1e-3;
            }
            close(
                c["mean"].as_f64().unwrap(),
                case["mean"][k].as_f64().unwrap(),
                "mean",
            );
            close(
                c["std"].as_f64().unwrap(),
                case["std"][k].as_f64().unwrap(),
                "std",
            );
        }
        assert!(nonzero, "{model}: every drop is zero");
    }
}

#[test]
fn importance_text_ranks_columns() {
    let (text, _) = ok(&[
        "importance",
        "-m",
        &data("golden/applicants-opauc-batch.auc"),
        &data("applicants.csv"),
    ]);
    assert!(text.starts_with("permutation importance"), "{text}");
    for c in ["age", "employment", "region", "debt"] {
        assert!(text.lines().any(|l| l.starts_with(c)), "{c}: {text}");
    }
}

#[test]
fn importance_refusals() {
    let model = data("golden/applicants-opauc-batch.auc");
    let file = data("applicants.csv");
    check_fails(
        &["importance", "-m", &model, &file, "--repeats", "0"],
        "--repeats must be at least 1",
    );
    check_fails(
        &["importance", "-m", &model, &data("applicants_new.csv")],
        "no label column",
    );
    let dir = tempfile::tempdir().unwrap();
    let crossed = dir.path().join("c.auc").display().to_string();
    let heart = repo("data/heart.libsvm");
    ok(&[
        "train",
        "--algo",
        "opauc-batch",
        "--hash-bits",
        "6",
        "--cross-hash-bits",
        "4",
        &heart,
        "-o",
        &crossed,
    ]);
    check_fails(&["importance", "-m", &crossed, &heart], "feature crosses");
}
