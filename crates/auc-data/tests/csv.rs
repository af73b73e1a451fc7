//! The CSV reader: label column choice, delimiter, header detection, and its errors.

use auc_core::Row;
use std::io::Write;

use auc_data::{
    CsvOptions, CsvReading, DataError, Format, LabelColumn, Mismatch, ParseErrorKind as K, RawData,
    ReadOptions, Reading, read_csv, read_path,
};

fn opts(label: LabelColumn, delimiter: u8, header: Option<bool>) -> ReadOptions {
    ReadOptions {
        csv: CsvOptions {
            label,
            delimiter,
            header,
            ..Default::default()
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

/// The default label column: a header column named label, class, target or y (case and
/// surrounding spaces ignored, the first name one column alone has), else column 0.
#[test]
fn label_by_its_header_name_by_default() {
    let rows: &[&[f64]] = &[&[1.0, 2.0], &[3.0, 4.0]];
    for text in [
        "a,b,label\n1,2,1\n3,4,-1\n",
        "a,b, Class \n1,2,1\n3,4,-1\n",
        "a,b,TARGET\n1,2,1\n3,4,-1\n",
        "a,b,y\n1,2,1\n3,4,-1\n",
        // `label` is preferred to `y`.
        "a,y,label\n1,2,1\n3,4,-1\n",
    ] {
        check(text, &ReadOptions::default(), &[1.0, -1.0], rows);
    }
    // Two columns named y: not a choice; no such name: refused with the columns listed (SPEC
    // 11), never read with column 0 as the label.
    for (text, columns) in [
        ("y,a,y\n1,2,1\n", ["y", "a", "y"]),
        ("w,a,b\n1,2,1\n", ["w", "a", "b"]),
    ] {
        let columns = columns.iter().map(|c| (*c).to_owned()).collect();
        check_err(
            text,
            &ReadOptions::default(),
            1,
            1,
            K::NoLabelColumn { columns },
        );
    }
    // Outcome and response are label names too; a named label column matches in any case.
    check(
        "a,Outcome\n1,0\n2,1\n",
        &ReadOptions::default(),
        &[0.0, 1.0],
        &[&[1.0], &[2.0]],
    );
    let named = opts(LabelColumn::Name("isfraud".into()), b',', None);
    check(
        "a,isFraud\n1,0\n2,1\n",
        &named,
        &[0.0, 1.0],
        &[&[1.0], &[2.0]],
    );
    let e = read_csv(
        "a,isFraud\n1,0\n".as_bytes(),
        "t.csv",
        &opts(LabelColumn::Name("isfrad".into()), b',', None),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("did you mean \"isFraud\"?"), "{e}");
    // Without a header: column 0.
    check(
        "1,2,1\n3,4,-1\n",
        &ReadOptions::default(),
        &[1.0, 3.0],
        &[&[2.0, 1.0], &[4.0, -1.0]],
    );
    assert_eq!(LabelColumn::from_word("auto"), LabelColumn::Auto);
    assert_eq!(LabelColumn::default(), LabelColumn::Auto);
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
        K::NoSuchColumn {
            name: "z".into(),
            columns: vec!["a".into(), "b".into()],
        },
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
    // As CSV, the first line is a (non-numeric) header that names no label column: refused.
    let e = read_path(&svm, &forced).unwrap_err();
    // Under a `.gz` suffix the name still decides, and the content is decompressed.
    let gz = dir.path().join("d.tsv.gz");
    std::fs::write(&gz, gzip(b"1\t2\t3\n")).unwrap();
    let d = read_path(&gz, &o).unwrap();
    assert_eq!((d.n(), d.dim()), (1, 2));
    assert_eq!(d.reading().csv().map(|r| r.delimiter), Some(b'\t'));
    assert!(
        e.to_string()
            .starts_with(&format!("{}:1:1: no label column", svm.display())),
        "{e}"
    );
    let missing = read_path(&dir.path().join("nope.libsvm"), &o).unwrap_err();
    assert!(matches!(missing, DataError::Io { .. }));
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// The resolved layout of reading `input` with `opts`.
fn reading(input: &str, opts: &ReadOptions) -> CsvReading {
    match read_csv(input.as_bytes(), "t.csv", opts).unwrap().reading() {
        Reading::Csv(r) => r.clone(),
        other => panic!("a CSV reading expected, not {other:?}"),
    }
}

#[test]
fn issue_12_quoted_fields_and_quoted_headers() {
    // Issue 12: a quoted header such as "y" is a header, and quoted numbers are numbers.
    let text = "\"y\",\"a b\",\"c,d\"\r\n\"1\",\" 2.5 \",3\r\n0,\"4\",5\r\n";
    let o = opts(LabelColumn::Name("y".into()), b',', None);
    check(text, &o, &[1.0, 0.0], &[&[2.5, 3.0], &[4.0, 5.0]]);
    let r = reading(text, &o);
    assert_eq!(
        r,
        CsvReading {
            delimiter: b',',
            label_index: 0,
            fields: 3,
            header: Some(vec!["y".into(), "a b".into(), "c,d".into()]),
        }
    );
    assert_eq!(r.label_name(), Some("y"));
    assert_eq!(r.feature_names(), Some(vec!["a b", "c,d"]));
}

#[test]
fn the_reading_records_label_column_delimiter_and_header() {
    let o = opts(LabelColumn::Last, b';', None);
    let r = reading("a;b;y\n1;2;1\n", &o);
    assert_eq!((r.label_index, r.fields, r.delimiter), (2, 3, b';'));
    assert_eq!(r.feature_names(), Some(vec!["a", "b"]));
    // Read again with the options it gives, a file lines up exactly.
    let again = ReadOptions {
        csv: r.options(),
        ..Default::default()
    };
    assert_eq!(reading("a;b;y\n3;4;0\n", &again), r);
    let plain = reading("1,2,3\n", &ReadOptions::default());
    assert!(!plain.has_header());
    assert_eq!((plain.feature_names(), plain.label_name()), (None, None));
    assert_eq!(plain.options().header, Some(false));
    // A LIBSVM reading gives LIBSVM options; a CSV reading CSV options.
    assert_eq!(Reading::Libsvm.options().format, Format::Libsvm);
    assert_eq!(Reading::Csv(plain).options().format, Format::Csv);
}

#[test]
fn issue_11_item_2_check_names_the_first_differing_column() {
    let train = reading("age,sex,y\n1,2,1\n", &opts(LabelColumn::Last, b',', None));
    let read = |text: &str| {
        reading(
            text,
            &ReadOptions {
                csv: train.options(),
                ..Default::default()
            },
        )
    };
    assert!(train.check(&read("age,sex,y\n5,6,0\n"), "p.csv").is_ok());
    let e = train
        .check(&read("age,bmi,y\n5,6,0\n"), "p.csv")
        .unwrap_err();
    assert!(matches!(
        &e,
        DataError::Mismatch {
            kind: Mismatch::ColumnName { column: 2, .. },
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "p.csv: column 2 is named \"bmi\", expected \"sex\""
    );
    // Issue 11, item 2: a file whose label sits elsewhere, or that lost a column, is refused.
    let e = train
        .check(&read("y,age,sex\n1,5,6\n"), "p.csv")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.csv: column 1 is named \"y\", expected \"age\""
    );
    let fewer = reading("age,y\n5,0\n", &opts(LabelColumn::Last, b',', None));
    let e = train.check(&fewer, "p.csv").unwrap_err();
    assert_eq!(e.to_string(), "p.csv: the file has 2 columns, expected 3");
    // Read with the stored options, such a file already fails at its header.
    let stored = ReadOptions {
        csv: train.options(),
        ..Default::default()
    };
    assert!(read_csv(&b"age,y\n5,0\n"[..], "p.csv", &stored).is_err());
    // Read with its own detection, a headerless file or another delimiter is told apart.
    let auto = reading("5,6,0\n", &opts(LabelColumn::Last, b',', None));
    let e = train.check(&auto, "p.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.csv: the file has no header line, expected one"
    );
    let tabs = reading(
        "age\tsex\ty\n5\t6\t0\n",
        &opts(LabelColumn::Last, b'\t', None),
    );
    let e = train.check(&tabs, "p.tsv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.tsv: fields are separated by tab, expected ','"
    );
    let first = reading(
        "y,age,sex\n1,5,6\n",
        &opts(LabelColumn::Index(0), b',', None),
    );
    let e = train.check(&first, "p.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.csv: the label is in column 1 (1-based), expected column 3"
    );
    // A file without records matches any layout.
    assert!(train.check(&read(""), "empty.csv").is_ok());
}

#[test]
fn crlf_bom_and_whitespace_only_lines() {
    let text = "\u{feff}y,a\r\n  \r\n1,2\r\n\r\n0,3";
    let d = read_csv(text.as_bytes(), "t.csv", &ReadOptions::default()).unwrap();
    assert_eq!(d.raw_labels(), &[1.0, 0.0]);
    let Reading::Csv(r) = d.reading() else {
        panic!("CSV")
    };
    assert_eq!(r.header, Some(vec!["y".to_string(), "a".to_string()]));
    // A numeric first line after a byte-order mark is data, not a header.
    check("\u{feff}1,2\n", &ReadOptions::default(), &[1.0], &[&[2.0]]);
}

#[test]
fn error_columns_count_quotes_and_point_at_the_field() {
    // `"2"` then `x`: the bad field starts at byte 9 of line 2 (`0,"2" , x`).
    check_err(
        "1,2,3\n0,\"2\" , x\n",
        &ReadOptions::default(),
        2,
        9,
        K::BadValue,
    );
    // Inside quotes the column counts the opening quote: `"3x"` has x at byte 6.
    check_err(
        "1,2,3\n0,2,\"3x\"\n",
        &ReadOptions::default(),
        2,
        7,
        K::TrailingGarbage,
    );
    // A quoted header line that spans two lines: the record after it is on line 3.
    check_err(
        "\"y\nz\",a\n1,q\n",
        &opts(LabelColumn::Index(0), b',', None),
        3,
        3,
        K::BadValue,
    );
    // Blank lines before a bad record are counted.
    check_err(
        "1,2\n\n\n\n0,\n",
        &ReadOptions::default(),
        5,
        3,
        K::EmptyField,
    );
    // CRLF files count lines the same way.
    check_err(
        "1,2\r\n\r\n0,\r\n",
        &ReadOptions::default(),
        3,
        3,
        K::EmptyField,
    );
}

#[test]
fn hashing_folds_columns_and_stores_csr() {
    // Four feature columns folded with 1 bit: columns 0 and 2 -> 0, 1 and 3 -> 1.
    let o = ReadOptions {
        hash_bits: Some(1),
        ..Default::default()
    };
    let d = read_csv(&b"1,1,2,3,4\n0,1,0,-1,0\n"[..], "h.csv", &o).unwrap();
    assert_eq!(d.dim(), 2);
    assert!(matches!(d.row(0), Row::Sparse(_)));
    assert_eq!((d.row(0).get(0), d.row(0).get(1)), (4.0, 6.0));
    // 1 + (-1) = 0 is dropped.
    assert_eq!(d.row(1).nnz(), 0);
    // A dimension far above the column count stores CSR rather than padding every row.
    let wide = ReadOptions {
        dim: Some(1 << 30),
        ..Default::default()
    };
    let d = read_csv(&b"1,5,0\n"[..], "w.csv", &wide).unwrap();
    assert_eq!((d.dim(), d.nnz()), (1 << 30, 1));
    assert!(matches!(d.row(0), Row::Sparse(_)));
}

#[test]
fn gzip_csv_reads_like_plain_csv() {
    let text = b"y,a\n1,2\n0,3\n";
    let plain = read_csv(&text[..], "t.csv", &ReadOptions::default()).unwrap();
    let packed = read_csv(&gzip(text)[..], "t.csv.gz", &ReadOptions::default()).unwrap();
    assert_eq!(plain, packed);
    let e = read_csv(
        &gzip(b"y,a\n1,2\n0,x\n")[..],
        "t.csv.gz",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.csv.gz:3:3: feature value is not a number: expected a finite number"
    );
}

/// Hostile input, item 9: a moment file claiming CSV label column 99 of 3 fields was accepted
/// and trained a model that could read no data. `Reading::validate` refuses layouts no file can
/// have (the label outside the record, a header of the wrong length), and passes every reading
/// the parser makes, including that of a file without records.
#[test]
fn hostile_9_reading_validate_refuses_impossible_layouts() {
    let csv = |label_index, fields, header: Option<Vec<&str>>| {
        Reading::Csv(CsvReading {
            delimiter: b',',
            label_index,
            fields,
            header: header.map(|h| h.into_iter().map(str::to_owned).collect()),
        })
    };
    assert_eq!(Reading::Libsvm.validate(), Ok(()));
    assert_eq!(csv(0, 3, None).validate(), Ok(()));
    assert_eq!(csv(2, 3, Some(vec!["y", "a", "b"])).validate(), Ok(()));
    assert_eq!(
        csv(7, 0, None).validate(),
        Ok(()),
        "no records: any label column"
    );
    let e = csv(99, 3, None).validate().unwrap_err();
    assert_eq!(
        e,
        auc_data::ReadingProblem::LabelColumn {
            label_index: 99,
            fields: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "the CSV label column 100 (1-based) is not among the 3 columns of a record"
    );
    assert!(csv(usize::MAX, 3, None).validate().is_err());
    assert!(matches!(
        csv(0, 3, Some(vec!["y", "a"])).validate(),
        Err(auc_data::ReadingProblem::HeaderLength {
            names: 2,
            fields: 3
        })
    ));
    assert!(csv(0, 0, Some(vec!["y"])).validate().is_err());
    // What the parser makes passes.
    for text in ["y,a,b\n1,2,3\n", "1,2,3\n-1,0,1\n", ""] {
        let raw = read_csv(text.as_bytes(), "t.csv", &ReadOptions::default()).unwrap();
        assert_eq!(raw.reading().validate(), Ok(()), "{text:?}");
    }
}

#[test]
fn words_of_the_front_ends_name_columns_and_delimiters() {
    assert_eq!(LabelColumn::from_word("last"), LabelColumn::Last);
    assert_eq!(LabelColumn::from_word("3"), LabelColumn::Index(3));
    assert_eq!(LabelColumn::from_word("y"), LabelColumn::Name("y".into()));
    for (word, byte) in [("tab", b'\t'), ("\\t", b'\t'), ("\t", b'\t'), (";", b';')] {
        assert_eq!(
            CsvOptions::delimiter_from_word(word),
            Some(byte),
            "{word:?}"
        );
    }
    for word in ["", "ab", "é"] {
        assert_eq!(CsvOptions::delimiter_from_word(word), None, "{word:?}");
    }
}
