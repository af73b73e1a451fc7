//! [`ReadOptions::bounded_values`] (hostile input item 12): data that is learned from as read
//! (no scaling, or raw moments) refuses a feature value above [`MAX_BOUNDED_VALUE`] in
//! magnitude at its line and column; labels, and reading without the option, are unaffected.

use auc_data::{
    CsvOptions, DataError, LabelColumn, MAX_BOUNDED_VALUE, ParseErrorKind, RawData, ReadOptions,
    read_csv, read_libsvm,
};

fn bounded() -> ReadOptions {
    ReadOptions {
        bounded_values: true,
        ..ReadOptions::default()
    }
}

/// The line and column of a too-large-value error (panics on any other outcome).
fn too_large(r: Result<RawData, DataError>) -> (usize, usize) {
    match r {
        Err(DataError::Parse {
            line,
            col,
            kind: ParseErrorKind::ValueTooLarge,
            ..
        }) => (line, col),
        Err(e) => panic!("expected a too-large value, got {e}"),
        Ok(d) => panic!("expected a too-large value, read {} rows", d.n()),
    }
}

#[test]
fn the_bound_is_the_largest_value_whose_square_sums_stay_finite() {
    // 1e28 squares of the bound stay below f64::MAX; one square past sqrt(f64::MAX) does not.
    assert!((MAX_BOUNDED_VALUE * MAX_BOUNDED_VALUE * 1e28).is_finite());
    assert!((f64::MAX.sqrt() * 1.01).powi(2).is_infinite());
    assert!(MAX_BOUNDED_VALUE < f64::MAX.sqrt());
}

#[test]
fn libsvm_values_past_the_bound_are_refused_at_their_column() {
    let text = b"1 1:1e140 2:-1e140\n-1 1:0.5 3:-1.0000001e140\n";
    let e = read_libsvm(&text[..], "t.svm", &bounded());
    assert_eq!(too_large(e), (2, 12));
    let msg = read_libsvm(&text[..], "t.svm", &bounded())
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with("t.svm:2:12: feature value is above 1e140"),
        "{msg}"
    );
    // Without the option (scoring, scaled learning) any finite value is read.
    let d = read_libsvm(&text[..], "t.svm", &ReadOptions::default()).unwrap();
    assert_eq!(d.n(), 2);
    // The first line alone is at the bound and is read.
    let d = read_libsvm(&text[..19], "t.svm", &bounded()).unwrap();
    assert_eq!(d.n(), 1);
    // A malformed number keeps its own error.
    let e = read_libsvm(&b"1 1:1e300x\n"[..], "t", &bounded()).unwrap_err();
    assert!(e.to_string().contains("unexpected characters"), "{e}");
}

#[test]
fn hashed_libsvm_values_are_checked_as_written() {
    let opts = ReadOptions {
        hash_bits: Some(4),
        ..bounded()
    };
    let e = read_libsvm(&b"1 1:1 40:5e200\n"[..], "t", &opts);
    assert_eq!(too_large(e), (1, 10));
}

#[test]
fn csv_feature_values_past_the_bound_are_refused_but_labels_are_not() {
    let opts = |label| ReadOptions {
        csv: CsvOptions {
            label,
            ..CsvOptions::default()
        },
        ..bounded()
    };
    let text = b"y,a,b\n1,1,2\n0,3,-2e141\n";
    let e = read_csv(&text[..], "t.csv", &opts(LabelColumn::Index(0)));
    assert_eq!(too_large(e), (3, 5));
    // As the label column the same value is a label (labels are not learned from as numbers).
    let d = read_csv(&text[..], "t.csv", &opts(LabelColumn::Last)).unwrap();
    assert_eq!(d.n(), 2);
    let dense = read_csv(&text[..], "t.csv", &ReadOptions::default()).unwrap();
    assert_eq!(dense.n(), 2);
}
