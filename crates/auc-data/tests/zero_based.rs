//! 0-based LIBSVM files (scikit-learn's `dump_svmlight_file`): `--zero-based auto|yes|no` on the
//! fixtures of `tests/data` (written by `make_zero_based.py` with scikit-learn), gzip, input read
//! once (decided on its first lines), and several files decided together.

use std::io::Write;
use std::path::{Path, PathBuf};

use auc_data::{
    DataError, Mismatch, ParseErrorKind as K, RawData, ReadOptions, Reading, RowStream, ZeroBased,
    read_libsvm, read_path,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn with(zero_based: ZeroBased) -> ReadOptions {
    ReadOptions {
        zero_based,
        ..ReadOptions::default()
    }
}

/// Every row as a label and `dim` dense values.
fn dense(d: &RawData) -> Vec<(f64, Vec<f64>)> {
    (0..d.n())
        .map(|i| {
            let mut x = vec![0.0; d.dim()];
            d.row(i).for_each(|j, v| x[j] = v);
            (d.raw_labels()[i], x)
        })
        .collect()
}

/// The matrix the fixtures hold, from the CSV scikit-learn wrote beside them.
fn expected() -> Vec<(f64, Vec<f64>)> {
    let csv = read_path(&fixture("zero_based.expected.csv"), &ReadOptions::default()).unwrap();
    assert_eq!((csv.n(), csv.dim()), (6, 5));
    dense(&csv)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn auto_and_yes_read_scikit_learns_file_0_based() {
    for z in [ZeroBased::Auto, ZeroBased::Yes] {
        let d = read_path(&fixture("zero_based.libsvm"), &with(z)).unwrap();
        assert_eq!(dense(&d), expected(), "{z:?}");
        assert_eq!(d.reading(), &Reading::LibsvmZeroBased);
    }
}

#[test]
fn no_refuses_index_0_naming_the_place_and_the_flag() {
    let path = fixture("zero_based.libsvm");
    let e = read_path(&path, &with(ZeroBased::No)).unwrap_err();
    assert!(
        matches!(
            &e,
            DataError::Parse {
                line: 5,
                col: 3,
                kind: K::IndexZero,
                ..
            }
        ),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(text.starts_with(&format!("{}:5:3: feature index 0", path.display())));
    assert!(text.contains("--zero-based yes"), "{text}");
}

#[test]
fn a_1_based_file_is_read_as_before_under_auto() {
    for z in [ZeroBased::Auto, ZeroBased::No] {
        let d = read_path(&fixture("one_based.libsvm"), &with(z)).unwrap();
        assert_eq!(dense(&d), expected(), "{z:?}");
        assert_eq!(d.reading(), &Reading::Libsvm);
    }
    // Read 0-based, the same file has a first feature that is always 0.
    let d = read_path(&fixture("one_based.libsvm"), &with(ZeroBased::Yes)).unwrap();
    assert_eq!(d.dim(), 6);
    let shifted: Vec<_> = expected()
        .into_iter()
        .map(|(y, x)| (y, [vec![0.0], x].concat()))
        .collect();
    assert_eq!(dense(&d), shifted);
}

#[test]
fn gzip_is_scanned_through_its_decoder() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(fixture("zero_based.libsvm")).unwrap();
    let packed = dir.path().join("zero.libsvm.gz");
    std::fs::write(&packed, gzip(&text)).unwrap();
    let d = read_path(&packed, &ReadOptions::default()).unwrap();
    assert_eq!(
        (dense(&d), d.reading()),
        (expected(), &Reading::LibsvmZeroBased)
    );
    // The same bytes from a reader (standard input) are decided on their first lines.
    let d = read_libsvm(&gzip(&text)[..], "-", &ReadOptions::default()).unwrap();
    assert_eq!(
        (dense(&d), d.reading()),
        (expected(), &Reading::LibsvmZeroBased)
    );
}

#[test]
fn a_file_is_scanned_whole_before_its_first_row() {
    // An index 0 far past the first lines still makes the whole file 0-based.
    let dir = tempfile::tempdir().unwrap();
    let mut text = "1 1:1\n".repeat(5000);
    text.push_str("-1 0:2\n");
    let path = dir.path().join("late.libsvm");
    std::fs::write(&path, &text).unwrap();
    let mut s = RowStream::open(&path, &ReadOptions::default()).unwrap();
    assert_eq!(s.reading(), &Reading::LibsvmZeroBased);
    let first = s.next_chunk(1).unwrap().unwrap();
    assert_eq!((first.row(0).nnz(), first.dim()), (1, 2));
    let all = s.read_all().unwrap();
    assert_eq!((all.n(), all.dim()), (5000, 2));
}

/// `lines` lines of 1-based rows, then `last`.
fn once(lines: usize, last: &str) -> String {
    let mut text = "1 1:1 2:0.5\n".repeat(lines);
    text.push_str(last);
    text
}

#[test]
fn input_read_once_is_decided_on_its_first_lines() {
    let window = auc_data::DENSITY_CHECK_ROWS as usize;
    // An index 0 within the window: 0-based.
    let d = read_libsvm(
        once(window - 1, "0 0:1\n").as_bytes(),
        "-",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!((d.reading(), d.dim()), (&Reading::LibsvmZeroBased, 3));
    // Past it, the rows already went on 1-based: an error that says what to pass.
    let e = read_libsvm(
        once(window, "0 3:1 0:1\n").as_bytes(),
        "-",
        &ReadOptions::default(),
    )
    .unwrap_err();
    let DataError::Parse {
        line, col, kind, ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (*line, *col, kind),
        (window + 1, 7, &K::LateIndexZero { lines: window })
    );
    let text = e.to_string();
    assert!(
        text.starts_with(&format!("-:{}:7: feature index 0", window + 1)),
        "{text}"
    );
    assert!(text.contains("--zero-based yes"), "{text}");
    // Chosen up front, no window: the same input reads either way.
    let yes = read_libsvm(
        once(window, "0 0:1\n").as_bytes(),
        "-",
        &with(ZeroBased::Yes),
    );
    assert_eq!(yes.unwrap().dim(), 3);
}

#[test]
fn the_window_hands_on_its_rows_before_an_error_that_ended_it() {
    let opts = ReadOptions {
        max_line_bytes: 16,
        ..ReadOptions::default()
    };
    let text = "1 1:1\n-1 2:1 3:1 4:1 5:1 6:1\n1 0:1\n";
    let mut s = RowStream::new(text.as_bytes(), "-", &opts).unwrap();
    assert_eq!(s.reading(), &Reading::Libsvm);
    assert_eq!(s.next_chunk(1).unwrap().unwrap().n(), 1);
    let e = s.next_chunk(1).unwrap_err();
    assert!(
        matches!(
            e,
            DataError::Parse {
                line: 2,
                kind: K::LineTooLong { limit: 16 },
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn zero_based_indices_keep_the_dimension_and_hashing_rules() {
    let opts = ReadOptions {
        dim: Some(5),
        ..with(ZeroBased::Yes)
    };
    assert_eq!(read_libsvm(&b"1 4:1\n"[..], "t", &opts).unwrap().dim(), 5);
    let e = read_libsvm(&b"1 5:1\n"[..], "t", &opts).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t:1:3: feature index 5 (0-based) exceeds the given dimension 5: expected an index below 5"
    );
    let e = read_libsvm(&b"1 4294967295:1\n"[..], "t", &with(ZeroBased::Yes)).unwrap_err();
    assert!(
        matches!(
            e,
            DataError::Parse {
                kind: K::IndexOverflow,
                ..
            }
        ),
        "{e:?}"
    );
    let e = read_libsvm(&b"1 3:1 2:1\n"[..], "t", &with(ZeroBased::Yes)).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("feature index 2 after 3: expected strictly increasing indices")
    );
    // Hashing folds the feature's 0-based number: the same rows either way.
    let hashed = |text: &[u8], z| {
        let opts = ReadOptions {
            hash_bits: Some(2),
            ..with(z)
        };
        dense(&read_libsvm(text, "t", &opts).unwrap())
    };
    assert_eq!(
        hashed(b"1 0:1 4:2 6:1\n", ZeroBased::Yes),
        hashed(b"1 1:1 5:2 7:1\n", ZeroBased::No)
    );
}

#[test]
fn several_files_are_decided_together() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.libsvm");
    std::fs::write(&plain, "1 1:1\n-1 2:1\n").unwrap();
    let zero = fixture("zero_based.libsvm");
    let table = dir.path().join("t.csv");
    std::fs::write(&table, "y,a\n1,0\n").unwrap();
    let auto = ReadOptions::default();
    let decided = |paths: &[&Path]| auto.zero_based_for(paths).zero_based;
    assert_eq!(decided(&[&plain, &zero]), ZeroBased::Yes);
    assert_eq!(decided(&[&plain, &table]), ZeroBased::No);
    // Standard input is left to its first lines.
    assert_eq!(decided(&[&plain, Path::new("-")]), ZeroBased::Auto);
    assert_eq!(
        with(ZeroBased::No).zero_based_for(&[&zero]).zero_based,
        ZeroBased::No
    );
    // A reading decided otherwise than the data before it is refused.
    let e = Reading::Libsvm
        .check_index_base(&Reading::LibsvmZeroBased, "-")
        .unwrap_err();
    assert!(matches!(
        &e,
        DataError::Mismatch {
            kind: Mismatch::IndexBase {
                expected_zero_based: false
            },
            ..
        }
    ));
    assert!(
        e.to_string()
            .starts_with("-: LIBSVM indices are read 0-based, expected 1-based")
    );
    assert!(
        Reading::Libsvm
            .check_index_base(&Reading::Libsvm, "-")
            .is_ok()
    );
}

#[test]
fn a_reading_gives_back_its_index_base() {
    assert_eq!(
        Reading::LibsvmZeroBased.options().zero_based,
        ZeroBased::Yes
    );
    assert_eq!(Reading::Libsvm.options().zero_based, ZeroBased::No);
    assert!(Reading::LibsvmZeroBased.validate().is_ok());
    assert!(Reading::LibsvmZeroBased.csv().is_none());
}

/// A LIBSVM line whose indices (as written, strictly increasing) may start at 0, with tokens
/// that look like an index 0 but are not one (labels, `qid:0`, `10:`, comments).
fn line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    (
        prop::sample::select(vec!["0", "1", "-1", "+1", "00"]),
        prop::option::of(0u32..3),
        prop::collection::btree_set(0u32..25, 0..5),
        prop::sample::select(vec![" ", "\t", "  "]),
        prop::sample::select(vec!["", " # 0:1", "# x 00:2", "\r"]),
        any::<bool>(),
    )
        .prop_map(|(label, qid, indices, sep, tail, padded)| {
            let mut s = String::from(if padded { " " } else { "" });
            s.push_str(label);
            if let Some(q) = qid {
                s.push_str(&format!("{sep}qid:{q}"));
            }
            for j in indices {
                let j = if j == 0 && padded {
                    "00".to_owned()
                } else {
                    j.to_string()
                };
                s.push_str(&format!("{sep}{j}:0.5"));
            }
            s.push_str(tail);
            s
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// The scan finds an index 0 exactly when the parser reads one, and a file, its gzip and
    /// the same bytes read once (decided on their first lines) read alike.
    #[test]
    fn the_scan_agrees_with_the_parser(lines in proptest::collection::vec(line(), 0..12)) {
        let text = lines.join("\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.libsvm");
        std::fs::write(&path, &text).unwrap();
        let decided = ReadOptions::default().zero_based_for(&[&path]).zero_based;
        let refused = matches!(
            read_libsvm(text.as_bytes(), "p", &with(ZeroBased::No)),
            Err(DataError::Parse { kind: K::IndexZero, .. })
        );
        proptest::prop_assert_eq!(decided == ZeroBased::Yes, refused, "{:?}", text);
        let want = read_libsvm(text.as_bytes(), "p", &with(decided)).unwrap();
        let file = read_path(&path, &ReadOptions::default()).unwrap();
        let once = read_libsvm(text.as_bytes(), "p", &ReadOptions::default()).unwrap();
        let packed = read_libsvm(&gzip(text.as_bytes())[..], "p", &ReadOptions::default()).unwrap();
        for got in [&file, &once, &packed] {
            proptest::prop_assert_eq!((dense(got), got.reading()), (dense(&want), want.reading()));
        }
    }
}
