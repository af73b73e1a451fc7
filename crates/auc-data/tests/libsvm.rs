//! The LIBSVM reader through the public API: accepted forms, and one test per malformed input
//! asserting the exact line, column and kind of the error.

use auc_core::Row;
use auc_data::{DataError, ParseErrorKind as K, RawData, ReadOptions, read_libsvm};

fn read(input: &[u8], opts: &ReadOptions) -> Result<RawData, DataError> {
    read_libsvm(input, "t.libsvm", opts)
}

/// The stored `(0-based index, value)` pairs of every row.
fn rows(d: &RawData) -> Vec<Vec<(u32, f64)>> {
    (0..d.n())
        .map(|i| match d.row(i) {
            Row::Sparse(r) => r
                .indices()
                .iter()
                .copied()
                .zip(r.values().iter().copied())
                .collect(),
            Row::Dense(_) => panic!("the LIBSVM reader stores CSR"),
        })
        .collect()
}

/// Parses `input` with default options and compares labels, rows and dimension.
fn check(input: &str, labels: &[f64], expected: &[&[(u32, f64)]], dim: usize) {
    let d = read(input.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(d.raw_labels(), labels, "labels of {input:?}");
    assert_eq!(rows(&d), expected, "rows of {input:?}");
    assert_eq!(d.dim(), dim, "dim of {input:?}");
}

/// Parses `input` with `opts` and expects a parse error at `line`:`col` of `kind`.
fn check_err_with(input: &[u8], opts: &ReadOptions, line: usize, col: usize, kind: K) {
    match read(input, opts) {
        Err(DataError::Parse {
            file,
            line: l,
            col: c,
            kind: k,
        }) => {
            assert_eq!(file, "t.libsvm");
            assert_eq!(
                (l, c, k),
                (line, col, kind),
                "input {:?}",
                String::from_utf8_lossy(input)
            );
        }
        other => panic!("expected a parse error for {input:?}, got {other:?}"),
    }
}

fn check_err(input: &str, line: usize, col: usize, kind: K) {
    check_err_with(input.as_bytes(), &ReadOptions::default(), line, col, kind);
}

/// Options that read indices 1-based whatever the file holds (`--zero-based no`).
fn one_based() -> ReadOptions {
    ReadOptions {
        zero_based: auc_data::ZeroBased::No,
        ..ReadOptions::default()
    }
}

#[test]
fn plain_lines() {
    check(
        "+1 1:0.5 3:2\n-1 2:-1\n",
        &[1.0, -1.0],
        &[&[(0, 0.5), (2, 2.0)], &[(1, -1.0)]],
        3,
    );
}

#[test]
fn every_label_form() {
    let text = "+1\n-1\n1\n1.0\n2\n0\n1e0\n-0\n.5\n";
    check(
        text,
        &[1.0, -1.0, 1.0, 1.0, 2.0, 0.0, 1.0, 0.0, 0.5],
        &[&[] as &[(u32, f64)]; 9],
        0,
    );
    // `-0` is stored as `+0`, so it groups with `0`.
    let d = read(b"-0\n0\n", &ReadOptions::default()).unwrap();
    assert_eq!(d.label_counts().len(), 1);
}

#[test]
fn bare_labels_make_a_valid_file() {
    check("1\n-1\n-1\n", &[1.0, -1.0, -1.0], &[&[], &[], &[]], 0);
}

#[test]
fn crlf_line_ends() {
    check(
        "1 1:1\r\n-1 2:2\r\n\r\n",
        &[1.0, -1.0],
        &[&[(0, 1.0)], &[(1, 2.0)]],
        2,
    );
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    let text =
        "# header comment\n\n   \n\t\n1 1:1 # trailing comment 0:x\n-1#no space\n  # indented\n";
    check(text, &[1.0, -1.0], &[&[(0, 1.0)], &[]], 1);
}

#[test]
fn qid_tokens_are_ignored() {
    check(
        "1 qid:3 1:1 2:2\n-1 qid:3 4:1\n",
        &[1.0, -1.0],
        &[&[(0, 1.0), (1, 2.0)], &[(3, 1.0)]],
        4,
    );
}

#[test]
fn tabs_and_repeated_spaces_separate_tokens() {
    check("1\t1:1  \t 2:2   \n", &[1.0], &[&[(0, 1.0), (1, 2.0)]], 2);
}

#[test]
fn missing_final_newline() {
    check(
        "1 1:1\n-1 2:1",
        &[1.0, -1.0],
        &[&[(0, 1.0)], &[(1, 1.0)]],
        2,
    );
}

#[test]
fn value_forms_and_explicit_zeros() {
    let text = "1 1:1e-3 2:-.5 3:+2. 4:0 5:-0 6:1E2\n";
    check(
        text,
        &[1.0],
        &[&[(0, 1e-3), (1, -0.5), (2, 2.0), (5, 100.0)]],
        6,
    );
}

#[test]
fn given_dimension_widens_and_limit_stops() {
    let opts = ReadOptions {
        dim: Some(10),
        limit: Some(2),
        ..Default::default()
    };
    let d = read(b"1 1:1\n-1 2:1\n1 3:1\n", &opts).unwrap();
    assert_eq!((d.n(), d.dim(), d.nnz()), (2, 10, 2));
    let zero = ReadOptions {
        limit: Some(0),
        ..Default::default()
    };
    assert_eq!(read(b"1 1:1\n", &zero).unwrap().n(), 0);
}

#[test]
fn largest_u32_index_is_accepted() {
    check(
        "1 4294967295:1\n",
        &[1.0],
        &[&[(u32::MAX - 1, 1.0)]],
        u32::MAX as usize,
    );
}

#[test]
fn error_index_zero() {
    check_err_with(b"1 1:1\n-1 0:1\n", &one_based(), 2, 4, K::IndexZero);
}

#[test]
fn error_indices_not_increasing() {
    check_err(
        "1 3:1 2:1\n",
        1,
        7,
        K::IndexNotIncreasing {
            index: 2,
            previous: 3,
        },
    );
}

#[test]
fn error_duplicate_index() {
    check_err("1 3:1 3:2\n", 1, 7, K::DuplicateIndex { index: 3 });
    let e = read(b"1 3:1 3:2\n", &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("duplicate"), "{e}");
}

#[test]
fn error_missing_colon() {
    check_err("1 3 0.5\n", 1, 3, K::MissingColon);
    check_err("1 3x:1\n", 1, 3, K::MissingColon);
}

#[test]
fn error_missing_value() {
    check_err("1 2:1 3:\n", 1, 7, K::MissingValue);
}

#[test]
fn error_non_finite_value() {
    check_err("1 3:nan\n", 1, 5, K::NonFiniteValue);
    check_err("1 3:-inf\n", 1, 5, K::NonFiniteValue);
    check_err("1 3:Infinity\n", 1, 5, K::NonFiniteValue);
    check_err("1 3:1e999\n", 1, 5, K::NonFiniteValue);
}

#[test]
fn error_value_not_a_number() {
    check_err("1 3:abc\n", 1, 5, K::BadValue);
    check_err("1 3::1\n", 1, 5, K::BadValue);
}

#[test]
fn error_label_not_a_number() {
    check_err("abc 1:1\n", 1, 1, K::BadLabel);
    check_err("\n  1:1 2:1\n", 2, 3, K::BadLabel);
    check_err("1x 1:1\n", 1, 1, K::BadLabel);
}

#[test]
fn error_label_non_finite() {
    check_err("nan 1:1\n", 1, 1, K::NonFiniteLabel);
    check_err("-inf\n", 1, 1, K::NonFiniteLabel);
    check_err("1 1:1\n1e999 1:1\n", 2, 1, K::NonFiniteLabel);
}

#[test]
fn error_garbage_after_value() {
    check_err("1 3:0.5x\n", 1, 8, K::TrailingGarbage);
    check_err("1 3:1:2\n", 1, 6, K::TrailingGarbage);
}

#[test]
fn error_index_does_not_fit_u32() {
    check_err("1 4294967296:1\n", 1, 3, K::IndexOverflow);
    check_err("1 99999999999999999999999:1\n", 1, 3, K::IndexOverflow);
}

#[test]
fn error_index_not_a_number() {
    check_err("1 a:1\n", 1, 3, K::BadIndex);
    check_err("1 -3:1\n", 1, 3, K::BadIndex);
    check_err("1 :1\n", 1, 3, K::BadIndex);
}

#[test]
fn error_index_above_given_dimension() {
    let opts = ReadOptions {
        dim: Some(2),
        ..Default::default()
    };
    check_err_with(
        b"1 1:1\n1 2:1 3:1\n",
        &opts,
        2,
        7,
        K::IndexExceedsDim {
            index: 3,
            dim: 2,
            zero_based: false,
        },
    );
}

#[test]
fn error_invalid_utf8_is_a_parse_error_not_a_panic() {
    check_err_with(b"1 2:\xff\n", &ReadOptions::default(), 1, 5, K::BadValue);
    check_err_with(
        b"\xc3\xa9 1:1\n",
        &ReadOptions::default(),
        1,
        1,
        K::BadLabel,
    );
    // Inside a comment anything goes.
    assert_eq!(
        read(b"1 2:1 # \xff\xfe\n", &ReadOptions::default())
            .unwrap()
            .n(),
        1
    );
}

#[test]
fn error_columns_count_bytes_and_tabs_as_one() {
    check_err_with(b"1\t\t0:1\n", &one_based(), 1, 4, K::IndexZero);
}

#[test]
fn error_io_failure_names_the_file() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let r = std::io::BufReader::new(Failing);
    let e = read_libsvm(r, "x.libsvm", &ReadOptions::default()).unwrap_err();
    assert!(matches!(&e, DataError::Io { file, .. } if file == "x.libsvm"));
    assert!(std::error::Error::source(&e).is_some());
    assert_eq!(e.to_string(), "x.libsvm: cannot read: disk on fire");
}

#[test]
fn error_display_is_file_line_col_message() {
    let e = read_libsvm(&b"1 1:1\n\n-1 2:1 0:1\n"[..], "a.libsvm", &one_based()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.libsvm:3:8: feature index 0: LIBSVM indices start at 1 (pass --zero-based yes to read a 0-based file, as scikit-learn writes by default)"
    );
    let e = read_libsvm(
        &b"1 1:1\n\n-1 3:1\n"[..],
        "a.libsvm",
        &ReadOptions::default(),
    );
    assert!(e.is_ok());
    let e = read_libsvm(&b"1 1:1\n\n-1 0:1\n"[..], "a.libsvm", &one_based()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("a.libsvm:3:4: feature index 0: LIBSVM indices start at 1"),
        "{e}"
    );
}

/// Moved from the unit tests of `src/libsvm.rs` (it needs only the public reader).
#[test]
fn explicit_zeros_are_dropped_but_count_for_the_dimension() {
    check("1 2:0 3:1 5:0\n", &[1.0], &[&[(2, 1.0)]], 5);
}
