//! `RawData` operations through the public API: label counts, binarizing (conventions section 1),
//! `with_dim`, `concat` and `truncate`.

use auc_core::Label::{self, Neg, Pos};
use auc_core::Row;
use auc_data::{
    BinaryLabels, DataError, Positive, PositiveChoice, PositiveRule, RawData, ReadOptions,
    read_csv, read_libsvm,
};

fn libsvm(text: &str) -> RawData {
    read_libsvm(text.as_bytes(), "t", &ReadOptions::default()).unwrap()
}

/// Bare labels, one per line.
fn labels(ls: &[&str]) -> RawData {
    libsvm(&(ls.join("\n") + "\n"))
}

/// Binarizes data with the given file labels and compares the resulting classes.
fn check(file_labels: &[&str], positive: Positive, expected: &[Label]) {
    let d = labels(file_labels).binarize(&positive).unwrap();
    assert_eq!(
        d.labels(),
        expected,
        "labels {file_labels:?} with {positive:?}"
    );
}

#[test]
fn minority_of_minus_one_plus_one() {
    check(&["-1", "+1", "-1"], Positive::Minority, &[Neg, Pos, Neg]);
    check(&["-1", "+1", "+1"], Positive::Minority, &[Pos, Neg, Neg]);
}

#[test]
fn minority_of_zero_one_and_one_two() {
    check(&["0", "1", "1"], Positive::Minority, &[Pos, Neg, Neg]);
    check(&["0", "1", "0"], Positive::Minority, &[Neg, Pos, Neg]);
    check(&["2", "1", "2"], Positive::Minority, &[Neg, Pos, Neg]);
}

#[test]
fn minority_ties_go_to_the_smaller_label() {
    // Two of each: -1 < +1, so -1 is positive.
    check(
        &["1", "-1", "1", "-1"],
        Positive::Minority,
        &[Neg, Pos, Neg, Pos],
    );
    // Multiclass: 3 and 5 have one row each, 7 has two; 3 is the smaller of the tied minority.
    check(
        &["7", "5", "3", "7"],
        Positive::Minority,
        &[Neg, Neg, Pos, Neg],
    );
}

#[test]
fn label_forms_group_by_value() {
    // `+1`, `1`, `1.0` and `1e0` are one label (four rows); `-1` has one row and is the minority.
    check(
        &["+1", "1", "1.0", "1e0", "-1"],
        Positive::Minority,
        &[Neg, Neg, Neg, Neg, Pos],
    );
    let counts = labels(&["+1", "1.0", "-1", "2"]).label_counts();
    assert_eq!(counts, vec![(-1.0, 1), (1.0, 2), (2.0, 1)]);
}

#[test]
fn explicit_labels() {
    check(
        &["1", "2", "3", "2"],
        Positive::Labels(vec![2.0]),
        &[Neg, Pos, Neg, Pos],
    );
    check(
        &["1", "2", "3", "2"],
        Positive::Labels(vec![3.0, 1.0]),
        &[Pos, Neg, Pos, Neg],
    );
    check(&["0", "-0"], Positive::Labels(vec![-0.0]), &[Pos, Pos]);
}

#[test]
fn missing_explicit_label_is_an_error() {
    let e = labels(&["1", "2"])
        .binarize(&Positive::Labels(vec![2.0, 5.0]))
        .unwrap_err();
    match &e {
        DataError::NoSuchLabel { label, present } => {
            assert_eq!(label.to_bits(), 5.0f64.to_bits());
            assert_eq!(present, &vec![1.0, 2.0]);
        }
        other => panic!("expected NoSuchLabel, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "label 5 does not occur in the data (labels present: 1, 2)"
    );
}

#[test]
fn positive_labels_reports_the_choice() {
    let d = labels(&["1", "2", "2"]);
    assert_eq!(d.positive_labels(&Positive::Minority).unwrap(), vec![1.0]);
    assert!(
        labels(&[])
            .positive_labels(&Positive::Minority)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn storage_follows_density() {
    // 1 of 8 cells stored: sparse. 4 of 4: dense.
    let sparse = libsvm("1 4:1\n-1\n").binarize(&Positive::Minority).unwrap();
    assert!(sparse.is_sparse());
    let dense = libsvm("1 1:1 2:2\n-1 1:3 2:4\n")
        .binarize(&Positive::Minority)
        .unwrap();
    assert!(!dense.is_sparse());
    assert_eq!(dense.row(1), Row::Dense(&[3.0, 4.0]));
    let csv = read_csv(&b"1,0,0\n0,0,0\n"[..], "c", &ReadOptions::default()).unwrap();
    assert!(!csv.is_sparse());
    assert!(!csv.binarize(&Positive::Minority).unwrap().is_sparse());
}

#[test]
fn with_dim_widens_and_rejects_a_too_small_dimension() {
    let d = libsvm("1 1:1 3:2\n-1 2:1\n");
    let wide = d.clone().with_dim(10).unwrap();
    assert_eq!(wide.dim(), 10);
    assert_eq!(wide.row(0), d.row(0));
    assert!(matches!(
        d.clone().with_dim(2),
        Err(DataError::DimTooSmall { dim: 2, needed: 3 })
    ));
    // Index 5 holds only an explicit zero: shrinking to 3 loses nothing.
    assert_eq!(libsvm("1 1:1 5:0\n").with_dim(3).unwrap().dim(), 3);
}

#[test]
fn concat_keeps_row_order_and_takes_the_largest_dimension() {
    let a = libsvm("1 1:1\n-1 2:2\n");
    let b = libsvm("2 5:5\n");
    let c = RawData::concat(vec![a.clone(), b.clone()]);
    assert_eq!((c.n(), c.dim(), c.nnz()), (3, 5, 3));
    assert_eq!(c.raw_labels(), &[1.0, -1.0, 2.0]);
    assert_eq!(c.row(1), a.row(1));
    assert_eq!(c.row(2), b.row(0));
    let empty = RawData::concat(vec![]);
    assert_eq!((empty.n(), empty.dim()), (0, 0));
    // One part, taken as it is, equals that part concatenated with no rows (the general path,
    // which drops explicit zeros: the reader already has).
    let zeros = libsvm(
        "1 1:1 3:0
-1 2:0
",
    );
    let none = libsvm("");
    assert_eq!(
        RawData::concat(vec![zeros.clone()]),
        RawData::concat(vec![zeros.clone(), none.clone()])
    );
    let opts = ReadOptions::default();
    let dense = read_csv(
        &b"1,0,2
0,0,0
"[..],
        "d",
        &opts,
    )
    .unwrap();
    assert_eq!(RawData::concat(vec![dense.clone()]), dense);
}

#[test]
fn concat_of_dense_parts_pads_and_of_mixed_parts_is_sparse() {
    let opts = ReadOptions::default();
    let x = read_csv(&b"1,2\n"[..], "x", &opts).unwrap();
    let y = read_csv(&b"0,3,4\n"[..], "y", &opts).unwrap();
    let c = RawData::concat(vec![x.clone(), y]);
    assert_eq!(c.row(0), Row::Dense(&[2.0, 0.0]));
    assert_eq!(c.row(1), Row::Dense(&[3.0, 4.0]));
    let mixed = RawData::concat(vec![x, libsvm("1 3:1\n")]);
    assert_eq!(mixed.dim(), 3);
    assert!(matches!(mixed.row(0), Row::Sparse(_)));
    assert_eq!(mixed.row(0).get(0).to_bits(), 2.0f64.to_bits());
}

#[test]
fn truncate_keeps_the_first_rows() {
    let mut d = libsvm("1 1:1\n-1 2:2\n1 3:3\n");
    d.truncate(2);
    assert_eq!((d.n(), d.nnz()), (2, 2));
}

#[test]
fn public_types_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<RawData>();
    assert_send_sync::<DataError>();
    assert_send_sync::<Positive>();
    assert_send_sync::<PositiveChoice>();
    assert_send_sync::<ReadOptions>();
    assert_send_sync::<auc_data::Synthetic>();
}

#[test]
fn known_labels_need_not_occur() {
    // A batch of negatives only, binarized with a positive class fixed elsewhere (a saved model).
    check(&["-1", "-1"], Positive::Known(vec![1.0]), &[Neg, Neg]);
    check(
        &["1", "-1", "+1"],
        Positive::Known(vec![1.0]),
        &[Pos, Neg, Pos],
    );
}

/// The positive class and rule `Positive::Auto` picks on data with these labels.
fn check_auto(file_labels: &[&str], positive: &[f64], rule: PositiveRule) {
    let choice = labels(file_labels)
        .choose_positive(&Positive::Auto)
        .unwrap();
    assert_eq!(
        choice,
        PositiveChoice {
            labels: positive.to_vec(),
            rule
        },
        "labels {file_labels:?}"
    );
}

#[test]
fn issue_11_item_1_plus_one_of_minus_one_plus_one_is_positive_even_as_the_majority() {
    use PositiveRule::BinaryPlusOne;
    let pm = BinaryPlusOne(BinaryLabels::MinusOnePlusOne);
    // +1 is the minority, the majority, or tied: always positive.
    check_auto(&["-1", "+1", "-1"], &[1.0], pm);
    check_auto(&["1", "1", "1", "-1", "-1"], &[1.0], pm);
    check_auto(&["1", "-1"], &[1.0], pm);
    // Issue 11, item 1: three +1 and two -1 binarize to three positives.
    check(
        &["1", "1", "1", "-1", "-1"],
        Positive::Auto,
        &[Pos, Pos, Pos, Neg, Neg],
    );
}

#[test]
fn auto_takes_one_of_zero_one_even_as_the_majority() {
    let zo = PositiveRule::BinaryPlusOne(BinaryLabels::ZeroOne);
    check_auto(&["0", "1", "1"], &[1.0], zo);
    check_auto(&["0", "1", "0"], &[1.0], zo);
    // `-0` is `0` and `1.0` is `1`.
    check_auto(&["-0", "1.0", "1e0"], &[1.0], zo);
    check(&["1", "0", "1"], Positive::Auto, &[Pos, Neg, Pos]);
}

#[test]
fn auto_uses_the_minority_for_any_other_label_set() {
    let m = PositiveRule::Minority;
    // {1, 2}, {2, 4}: the minority (ties to the smaller label).
    check_auto(&["2", "1", "2"], &[1.0], m);
    check_auto(&["2", "4", "4", "4"], &[2.0], m);
    check_auto(&["4", "2"], &[2.0], m);
    // Multiclass, even when it contains -1 and +1.
    check_auto(&["-1", "1", "1", "0"], &[-1.0], m);
    check_auto(&["7", "5", "3", "7"], &[3.0], m);
    // One label: every row positive; no rows: no label.
    check_auto(&["1", "1"], &[1.0], m);
    check_auto(&["-1"], &[-1.0], m);
    check_auto(&[], &[], m);
}

#[test]
fn given_labels_report_the_given_rule() {
    let d = labels(&["1", "2", "2"]);
    let given = |p: Positive| d.choose_positive(&p).unwrap();
    assert_eq!(
        given(Positive::Labels(vec![2.0, 1.0, 2.0])),
        PositiveChoice {
            labels: vec![1.0, 2.0],
            rule: PositiveRule::Given
        }
    );
    assert_eq!(
        given(Positive::Known(vec![9.0])),
        PositiveChoice {
            labels: vec![9.0],
            rule: PositiveRule::Given
        }
    );
    let minority = given(Positive::Minority);
    assert_eq!(minority.rule, PositiveRule::Minority);
    // The choice binarizes other data (a test file) the same way.
    assert_eq!(minority.known(), Positive::Known(vec![1.0]));
}

#[test]
fn rules_say_why_in_words() {
    let shown: Vec<String> = [
        PositiveRule::Given,
        PositiveRule::BinaryPlusOne(BinaryLabels::MinusOnePlusOne),
        PositiveRule::BinaryPlusOne(BinaryLabels::ZeroOne),
        PositiveRule::Minority,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    assert_eq!(
        shown,
        [
            "given",
            "+1 of a {-1, +1} file",
            "1 of a {0, 1} file",
            "minority class"
        ]
    );
    assert_eq!(Positive::default(), Positive::Auto);
}

#[test]
fn a_huge_index_stays_sparse_through_binarizing() {
    // Index 4294967295 gives dimension 4294967295: storage stays CSR (a dense copy would need
    // 34 GB), and a dense copy's size is reported before anyone makes it.
    let d = libsvm(
        "1 4294967295:1
-1 1:2
",
    );
    assert_eq!(d.dim(), 4_294_967_295);
    assert!(d.is_sparse());
    assert_eq!(d.dense_bytes(), 2 * 4_294_967_295 * 8);
    let data = d.binarize(&Positive::Auto).unwrap();
    assert!(data.is_sparse());
    assert_eq!(data.class_counts(), (1, 1));
    // Widening to it keeps CSR too, and so does widening dense CSV rows far.
    let wide = d.with_dim(u32::MAX as usize).unwrap();
    assert!(wide.binarize(&Positive::Auto).unwrap().is_sparse());
    let csv = read_csv(&b"1,2\n0,3\n"[..], "c", &ReadOptions::default()).unwrap();
    let wide = csv.with_dim(1 << 31).unwrap();
    assert!(wide.is_sparse());
    assert_eq!(wide.row(1).get(0).to_bits(), 3.0f64.to_bits());
}

/// The rarest of many distinct labels draws a warning (a measurement read as the label); a few
/// classes, a binary file or given labels do not.
#[test]
fn many_distinct_labels_picked_by_minority_draw_a_warning() {
    let many: Vec<String> = (0..=auc_data::MANY_LABELS)
        .map(|i| format!("{}", 20 + i % (auc_data::MANY_LABELS + 1)))
        .chain(std::iter::once("25".to_owned()))
        .collect();
    let raw = labels(&many.iter().map(String::as_str).collect::<Vec<_>>());
    let counts = raw.label_counts();
    assert_eq!(counts.len(), auc_data::MANY_LABELS + 1);
    let auto = raw.choose_positive(&Positive::Auto).unwrap();
    let w = auto.many_labels_warning(&counts).expect("a warning");
    assert!(
        w.contains("21 distinct values") && w.contains("(20, 1 of the rows)"),
        "{w}"
    );
    let given = raw.choose_positive(&Positive::Labels(vec![25.0])).unwrap();
    assert_eq!(given.many_labels_warning(&counts), None);
    // Exactly MANY_LABELS classes: no warning.
    let few = labels(
        &many[..auc_data::MANY_LABELS]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let choice = few.choose_positive(&Positive::Auto).unwrap();
    assert_eq!(choice.many_labels_warning(&few.label_counts()), None);
    let binary = labels(&["-1", "1", "1"]);
    let choice = binary.choose_positive(&Positive::Auto).unwrap();
    assert_eq!(choice.many_labels_warning(&binary.label_counts()), None);
}
