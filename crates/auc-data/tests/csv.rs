//! The CSV reader: label column choice, delimiter, header detection, and its errors.

use auc_core::Row;
use auc_data::{
    CsvOptions, DataError, Format, LabelColumn, ParseErrorKind as K, RawData, ReadOptions,
    read_csv, read_path,
};

fn opts(label: LabelColumn, delimiter: u8, header: Option<bool>) -> ReadOptions {
    ReadOptions {
        csv: CsvOptions {
            label,
            delimiter,
            header,
        },
        ..Default::default()
    }
}

fn dense_rows(d: &RawData) -> Vec<Vec<f64>> {
    (0..d.n())
        .map(|i| match d.row(i) {
            Row::Dense(x) => x.to_vec(),
            Row::Sparse(_) => panic!("the CSV reader stores dense rows"),
        })
        .collect()
}

/// Reads `input` with `opts` and compares labels and rows.
fn check(input: &str, opts: &ReadOptions, labels: &[f64], rows: &[&[f64]]) {
    let d = read_csv(input.as_bytes(), "t.csv", opts).unwrap();
    assert_eq!(d.raw_labels(), labels, "labels of {input:?}");
    assert_eq!(dense_rows(&d), rows, "rows of {input:?}");
}

/// Reads `input` and expects a parse error at `line`:`col` of `kind`.
fn check_err(input: &str, opts: &ReadOptions, line: usize, col: usize, kind: K) {
    match read_csv(input.as_bytes(), "t.csv", opts) {
        Err(DataError::Parse {
            line: l,
            col: c,
            kind: k,
            ..
        }) => {
            assert_eq!((l, c, k), (line, col, kind), "input {input:?}")
        }
        other => panic!("expected a parse error for {input:?}, got {other:?}"),
    }
}

#[test]
fn label_first_by_default() {
    check(
        "1,2,3\n0,4,5\n",
        &ReadOptions::default(),
        &[1.0, 0.0],
        &[&[2.0, 3.0], &[4.0, 5.0]],
    );
}

#[test]
fn label_by_index_last_and_name() {
    let text = "a,b,y\n1,2,1\n3,4,-1\n";
    let rows: &[&[f64]] = &[&[1.0, 2.0], &[3.0, 4.0]];
    check(
        text,
        &opts(LabelColumn::Last, b',', None),
        &[1.0, -1.0],
        rows,
    );
    check(
        text,
        &opts(LabelColumn::Index(2), b',', None),
        &[1.0, -1.0],
        rows,
    );
    check(
        text,
        &opts(LabelColumn::Name("y".into()), b',', None),
        &[1.0, -1.0],
        rows,
    );
    check(
        text,
        &opts(LabelColumn::Name("a".into()), b',', None),
        &[1.0, 3.0],
        &[&[2.0, 1.0], &[4.0, -1.0]],
    );
}

#[test]
fn delimiter_spaces_crlf_and_blank_lines() {
    let o = opts(LabelColumn::Index(0), b';', Some(false));
    check(
        "1 ; 2.5;3\r\n\r\n 0;4;5 \r\n",
        &o,
        &[1.0, 0.0],
        &[&[2.5, 3.0], &[4.0, 5.0]],
    );
    let tab = opts(LabelColumn::Index(0), b'\t', None);
    check("1\t2\n0\t3\n", &tab, &[1.0, 0.0], &[&[2.0], &[3.0]]);
}

#[test]
fn header_detection_and_forcing() {
    // A numeric first line is data unless the header is forced.
    check(
        "1,2\n0,3\n",
        &ReadOptions::default(),
        &[1.0, 0.0],
        &[&[2.0], &[3.0]],
    );
    check(
        "1,2\n0,3\n",
        &opts(LabelColumn::Index(0), b',', Some(true)),
        &[0.0],
        &[&[3.0]],
    );
}

#[test]
fn given_dimension_pads_and_limit_stops() {
    let o = ReadOptions {
        dim: Some(3),
        limit: Some(1),
        ..Default::default()
    };
    check("1,2\n0,3\n", &o, &[1.0], &[&[2.0, 0.0, 0.0]]);
    check_err(
        "1,2,3\n",
        &ReadOptions {
            dim: Some(1),
            ..Default::default()
        },
        1,
        1,
        K::TooManyFeatures { found: 2, dim: 1 },
    );
}

#[test]
fn error_empty_field() {
    check_err(
        "1,2,3\n0,,3\n",
        &ReadOptions::default(),
        2,
        3,
        K::EmptyField,
    );
}

#[test]
fn error_not_a_number() {
    check_err("1,2,3\n0,2,x\n", &ReadOptions::default(), 2, 5, K::BadValue);
    check_err(
        "1,2,3\n0,2,3x\n",
        &ReadOptions::default(),
        2,
        6,
        K::TrailingGarbage,
    );
    check_err(
        "1,2,3\n0,nan,3\n",
        &ReadOptions::default(),
        2,
        3,
        K::NonFiniteValue,
    );
    check_err("1,2,3\nx,2,3\n", &ReadOptions::default(), 2, 1, K::BadLabel);
    check_err(
        "1,2,3\ninf,2,3\n",
        &ReadOptions::default(),
        2,
        1,
        K::NonFiniteLabel,
    );
}

#[test]
fn error_wrong_field_count_names_expected_and_found() {
    check_err(
        "1,2,3\n0,2\n",
        &ReadOptions::default(),
        2,
        4,
        K::FieldCount {
            expected: 3,
            found: 2,
        },
    );
    check_err(
        "1,2,3\n0,2,3,4\n",
        &ReadOptions::default(),
        2,
        7,
        K::FieldCount {
            expected: 3,
            found: 4,
        },
    );
    let e = read_csv(&b"y,a\n1,2\n0\n"[..], "f.csv", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "f.csv:3:2: row has 1 fields, expected 2");
}

#[test]
fn error_label_column() {
    let by_name = opts(LabelColumn::Name("z".into()), b',', None);
    check_err(
        "a,b\n1,2\n",
        &by_name,
        1,
        1,
        K::NoSuchColumn { name: "z".into() },
    );
    check_err("1,2\n", &by_name, 1, 1, K::NoHeader);
    let far = opts(LabelColumn::Index(5), b',', None);
    check_err(
        "1,2\n",
        &far,
        1,
        1,
        K::LabelColumnOutOfRange {
            index: 5,
            fields: 2,
        },
    );
}

#[test]
fn read_path_picks_the_format_by_extension() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.CSV");
    std::fs::write(&csv, "y,a\n1,2\n").unwrap();
    let tsv = dir.path().join("d.tsv");
    std::fs::write(&tsv, "1\t2\t3\n").unwrap();
    let svm = dir.path().join("d.txt");
    std::fs::write(&svm, "1 2:3\n-1 1:1\n").unwrap();
    let o = ReadOptions::default();
    assert_eq!(read_path(&csv, &o).unwrap().dim(), 1);
    assert_eq!(read_path(&tsv, &o).unwrap().dim(), 2);
    assert_eq!(read_path(&svm, &o).unwrap().nnz(), 2);
    let forced = ReadOptions {
        format: Format::Csv,
        ..Default::default()
    };
    // As CSV, the first line is a (non-numeric) header and the second has a bad label.
    let e = read_path(&svm, &forced).unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2:1: ", svm.display())),
        "{e}"
    );
    let missing = read_path(&dir.path().join("nope.libsvm"), &o).unwrap_err();
    assert!(matches!(missing, DataError::Io { .. }));
}
