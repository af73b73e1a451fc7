//! Tables as users hold them (SPEC 11, issue 50), end to end through the `auc` binary: a CSV
//! file with named columns, a string label, quoted strings, empty cells and missing-value
//! tokens trains with every kind of learner, and a deployed model scores rows without the label,
//! with columns in another order, to the same scores.

mod common;

use std::path::Path;

use common::{data, ok, refused};

fn scores(text: &str) -> Vec<f64> {
    text.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn a_header_without_a_label_name_is_refused_with_its_columns() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let e = refused(&["train", &data("applicants.csv"), "-o", &m]);
    assert!(e.contains("no label column"), "{e}");
    assert!(
        e.contains("\"age\", \"employment\", \"region\", \"debt\", \"Status\""),
        "{e}"
    );
    assert!(!Path::new(&m).exists());
    let e = refused(&[
        "train",
        &data("applicants.csv"),
        "--label-column",
        "statsu",
        "-o",
        &m,
    ]);
    assert!(e.contains("did you mean \"Status\"?"), "{e}");
}

#[test]
fn string_labels_categories_and_missing_cells_train_with_every_route() {
    let dir = tempfile::tempdir().unwrap();
    let train = data("applicants.csv");
    for algo in ["blend", "gbt-auc", "opauc", "opauc-batch", "okauc-s"] {
        let m = dir.path().join(format!("{algo}.auc")).display().to_string();
        let (_, e) = ok(&[
            "train",
            &train,
            "--label-column",
            "status",
            "--algo",
            algo,
            "-o",
            &m,
        ]);
        assert!(
            e.contains("label column \"Status\"; positive class: bad (the minority class of {bad, good}); 29 positive, 51 negative"),
            "{algo}: {e}"
        );
        assert!(e.contains("column \"employment\" is categorical"), "{e}");
        assert!(
            e.contains("column \"age\": missing cells are filled"),
            "{e}"
        );
        // Rows to score: no label column, columns in another order, one the model never had.
        let (labelled, _) = ok(&["predict", "-m", &m, &train]);
        let (new, e) = ok(&["predict", "-m", &m, &data("applicants_new.csv")]);
        assert!(
            e.contains("has no label column: scoring its rows only"),
            "{e}"
        );
        assert!(
            e.contains("1 column the model does not use is ignored: note"),
            "{e}"
        );
        assert_eq!(scores(&new), scores(&labelled)[..12], "{algo}");
        let (_, e) = ok(&["predict", "-m", &m, &train, "-o", "-"]);
        assert!(
            e.contains("against the file's labels (positive class bad)"),
            "{e}"
        );
    }
}

#[test]
fn the_positive_class_is_named_by_its_value() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let train = data("applicants.csv");
    let (_, e) = ok(&[
        "train",
        &train,
        "--label-column",
        "Status",
        "--positive",
        "good",
        "--algo",
        "opauc",
        "-o",
        &m,
    ]);
    assert!(
        e.contains("positive class: good (given); 51 positive, 29 negative"),
        "{e}"
    );
    let (out, _) = ok(&["model", &m]);
    assert!(out.contains("positive    good (given)"), "{out}");
    assert!(out.contains("columns     age (number, missing filled), employment (4 categories), region (4 categories), debt (number)"), "{out}");
    let e = refused(&[
        "train",
        &train,
        "--label-column",
        "Status",
        "--positive",
        "nope",
        "-o",
        &m,
    ]);
    assert!(
        e.contains(
            "--positive nope: the label column \"Status\" has no such value; it holds {bad, good}"
        ),
        "{e}"
    );
    let (json, _) = ok(&["model", "--json", &m]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names = v["feature_names"].as_array().unwrap();
    assert_eq!(names[0], "age");
    assert_eq!(names[1], "age (missing)");
    assert!(names.iter().any(|n| n == "region (other)"));
}

#[test]
fn scoring_names_what_does_not_fit_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    ok(&[
        "train",
        &data("applicants.csv"),
        "--label-column",
        "Status",
        "--algo",
        "opauc",
        "-o",
        &m,
    ]);
    let lacking = dir.path().join("lacking.csv");
    std::fs::write(&lacking, "age,employment,region\n40,salaried,north\n").unwrap();
    let e = refused(&["predict", "-m", &m, &lacking.display().to_string()]);
    assert!(
        e.contains("the model needs the column {\"debt\"}, which the file does not have"),
        "{e}"
    );
    let text = dir.path().join("text.csv");
    std::fs::write(
        &text,
        "age,employment,region,debt\n40,salaried,north,lots\n",
    )
    .unwrap();
    let e = refused(&["predict", "-m", &m, &text.display().to_string()]);
    assert!(
        e.contains("text.csv:2:19: column \"debt\": the value is not a number"),
        "{e}"
    );
}

#[test]
fn bad_tables_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    // The silent misread: a label column not named as one is refused, never column 0.
    let e = refused(&[
        "train",
        &write("f.csv", "a,b,isFraud\n1,2,0\n2,3,1\n3,4,0\n4,5,0\n"),
        "-o",
        &m,
    ]);
    assert!(e.contains("no label column"), "{e}");
    ok(&[
        "train",
        &write("g.csv", "a,b,isFraud\n1,2,0\n2,3,1\n3,4,0\n4,5,0\n"),
        "--label-column",
        "isfraud",
        "--algo",
        "opauc",
        "-o",
        &m,
    ]);
    let e = refused(&["train", &write("one.csv", "a,y\n1,yes\n2,yes\n"), "-o", &m]);
    assert!(e.contains("holds one value (yes) in all 2 rows"), "{e}");
    let e = refused(&[
        "train",
        &write("gap.csv", "a,y\n1,yes\n2,\n3,no\n"),
        "-o",
        &m,
    ]);
    assert!(
        e.contains("gap.csv:3:3: column \"y\": the label is missing"),
        "{e}"
    );
    let e = refused(&[
        "train",
        &write("na.csv", "a,b,y\nNA,?,yes\n,NA,no\n"),
        "-o",
        &m,
    ]);
    assert!(
        e.contains("every feature cell of the 2 rows is missing"),
        "{e}"
    );
    let e = refused(&[
        "train",
        &write("cat.csv", "a,y\n1,yes\n2,no\n"),
        "--categorical",
        "b",
        "-o",
        &m,
    ]);
    assert!(
        e.contains("--categorical b: no column has that name"),
        "{e}"
    );
}

/// Golden models of tables (format version 7, written by `auc train` on applicants.csv): they
/// load and score the training file as when they were written, and describe their columns.
#[test]
fn golden_table_models_score_as_written() {
    for algo in ["opauc-batch", "gbt-auc"] {
        let m = data(&format!("golden/applicants-{algo}.auc"));
        let want =
            std::fs::read_to_string(data(&format!("golden/applicants-{algo}.scores"))).unwrap();
        let (got, _) = ok(&["predict", "-m", &m, &data("applicants.csv")]);
        assert_eq!(got, want, "{algo}");
        let (got, _) = ok(&["predict", "-m", &m, &data("applicants_new.csv")]);
        assert_eq!(
            got,
            want.lines()
                .take(12)
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
            "{algo}"
        );
        let (out, _) = ok(&["model", &m]);
        assert!(
            out.contains("columns     age (number, missing filled), employment (4 categories)"),
            "{out}"
        );
    }
}
