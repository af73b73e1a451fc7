//! Parquet and Arrow IPC input through the `auc` binary (SPEC 11): a Parquet file trains the
//! model the same rows in CSV train, either model scores either format (columns by name), a
//! file without the label column is scored row by row, and columns a table cannot read are
//! refused by name and type. The fixtures are written by tests/data/make_columnar.py.

mod common;

use std::path::Path;

use common::{data, heart, ok, refused};

#[test]
fn a_parquet_file_trains_the_model_its_csv_trains_and_both_score_either() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    for algo in ["opauc-batch", "gbt-auc", "opauc"] {
        let (from_csv, from_pq) = (
            path(&format!("{algo}-csv.auc")),
            path(&format!("{algo}-pq.auc")),
        );
        let label = ["--label-column", "status", "--algo", algo];
        let (_, e_csv) = ok(&[
            &["train", &data("applicants.csv"), "-o", &from_csv],
            &label[..],
        ]
        .concat());
        let (_, e_pq) = ok(&[
            &["train", &data("applicants.parquet"), "-o", &from_pq],
            &label[..],
        ]
        .concat());
        // The same survey, said the same way.
        let said = |e: &str| {
            e.lines()
                .filter(|l| l.contains("column"))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(said(&e_csv), said(&e_pq), "{algo}");
        assert_eq!(
            std::fs::read(&from_csv).unwrap(),
            std::fs::read(&from_pq).unwrap(),
            "{algo}: the model files differ"
        );
        let (want, _) = ok(&["predict", "-m", &from_csv, &data("applicants.csv")]);
        let (got, e) = ok(&["predict", "-m", &from_csv, &data("applicants.parquet")]);
        assert_eq!(got, want, "{algo}");
        assert!(
            e.contains("against the file's labels (positive class bad)"),
            "{e}"
        );
        // Rows without the label, columns in another order, an extra column of a type no
        // table reads (a list): scored, the list never read.
        let (new, e) = ok(&["predict", "-m", &from_pq, &data("applicants_new.parquet")]);
        assert!(
            e.contains("has no label column: scoring its rows only"),
            "{e}"
        );
        assert!(
            e.contains("1 column the model does not use is ignored: note"),
            "{e}"
        );
        let first: String = want.lines().take(12).map(|l| format!("{l}\n")).collect();
        assert_eq!(new, first, "{algo}");
        let (new_csv, _) = ok(&["predict", "-m", &from_pq, &data("applicants_new.csv")]);
        assert_eq!(new_csv, first, "{algo}");
    }
}

#[test]
fn golden_csv_models_score_the_parquet_file_as_the_csv_file() {
    for algo in ["opauc-batch", "gbt-auc"] {
        let m = data(&format!("golden/applicants-{algo}.auc"));
        let want =
            std::fs::read_to_string(data(&format!("golden/applicants-{algo}.scores"))).unwrap();
        let (got, _) = ok(&["predict", "-m", &m, &data("applicants.parquet")]);
        assert_eq!(got, want, "{algo}");
    }
}

#[test]
fn every_kind_of_cell_trains_and_feather_scores_as_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let (_, e) = ok(&[
        "train",
        &data("cells.parquet"),
        "--algo",
        "opauc-batch",
        "--min-category-count",
        "1",
        "-o",
        &m,
    ]);
    assert!(
        e.contains("label column \"label\"; positive class: yes"),
        "{e}"
    );
    assert!(e.contains("column \"color\" is categorical"), "{e}");
    assert!(e.contains("column \"x\": missing cells are filled"), "{e}");
    let (from_pq, _) = ok(&["predict", "-m", &m, &data("cells.parquet")]);
    let (from_feather, _) = ok(&["predict", "-m", &m, &data("cells.feather")]);
    assert_eq!(from_pq.lines().count(), 24);
    assert_eq!(from_pq, from_feather);
    let (out, _) = ok(&["model", &m]);
    assert!(out.contains("flag (number, missing filled)"), "{out}");
    // auc info reads it as a table too.
    let (info, _) = ok(&["info", &data("cells.feather")]);
    assert!(info.contains("24"), "{info}");
}

#[test]
fn nested_and_binary_columns_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let e = refused(&["train", &data("nested.parquet"), "-o", &m]);
    assert!(
        e.contains("nested.parquet: column \"tags\" is of type List("),
        "{e}"
    );
    assert!(
        e.contains("cast it to one of those, or drop the column"),
        "{e}"
    );
    let e = refused(&["train", &data("binary.parquet"), "-o", &m]);
    assert!(
        e.contains("binary.parquet: column \"blob\" is of type Binary"),
        "{e}"
    );
    assert!(!Path::new(&m).exists());
}

#[test]
fn a_model_without_column_names_refuses_a_parquet_file() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    ok(&["train", &heart(), "--algo", "opauc", "-o", &m]);
    let e = refused(&["predict", "-m", &m, &data("cells.parquet")]);
    assert!(
        e.contains("a Parquet or Arrow IPC file is read as a table, by column name"),
        "{e}"
    );
}
