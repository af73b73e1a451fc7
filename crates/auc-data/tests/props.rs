//! Property tests of the readers: LIBSVM text round-trips bit-exactly, numbers round like
//! `str::parse`, and no input, however mangled, makes a reader panic.
//!
//! Case counts come from `PROPTEST_CASES` (defaults below keep `cargo test` to a few seconds); a
//! long run: `PROPTEST_CASES=1000000 cargo test --release -p auc-data --test props`.

use std::fmt::Write;

use auc_core::Row;
use auc_data::{DataError, Positive, RawData, ReadOptions, read_csv, read_libsvm};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

/// `PROPTEST_CASES` cases if set, else `default`; failures are saved next to this file
/// (`props.proptest-regressions`) so that later runs replay them.
fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok());
    Config {
        cases: cases.unwrap_or(default),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// Finite doubles of every kind: normal, subnormal, zero, both signs.
fn finite() -> impl Strategy<Value = f64> {
    use proptest::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    prop_oneof![
        3 => POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO,
        1 => prop::sample::select(vec![0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 1e300]),
        1 => -100.0..100.0f64,
    ]
}

/// One example: a label and features with strictly increasing 1-based indices.
type Example = (f64, Vec<(u32, f64)>);

fn example() -> impl Strategy<Value = Example> {
    let label = prop_oneof![
        prop::sample::select(vec![-1.0, 1.0, 0.0, 2.0, 3.0]),
        finite()
    ];
    (
        label,
        prop::collection::btree_map(1u32..200, finite(), 0..12),
    )
        .prop_map(|(l, m)| (l, m.into_iter().collect()))
}

/// Layout choices for writing one line: separators, CRLF, a qid, a comment.
#[derive(Clone, Debug)]
struct Layout {
    tabs: bool,
    crlf: bool,
    qid: Option<u32>,
    comment: bool,
    blank_before: bool,
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0u32..100),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(tabs, crlf, qid, comment, blank_before)| Layout {
            tabs,
            crlf,
            qid,
            comment,
            blank_before,
        })
}

/// Writes examples as LIBSVM text; values with `{:?}`, the shortest text that round-trips.
fn write_libsvm(rows: &[(Example, Layout)]) -> String {
    let mut s = String::new();
    for ((label, feats), lay) in rows {
        let sep = if lay.tabs { "\t" } else { " " };
        let end = if lay.crlf { "\r\n" } else { "\n" };
        if lay.blank_before {
            s.push_str(end);
        }
        write!(s, "{label:?}").unwrap();
        if let Some(q) = lay.qid {
            write!(s, "{sep}qid:{q}").unwrap();
        }
        for (j, v) in feats {
            write!(s, "{sep}{j}:{v:?}").unwrap();
        }
        if lay.comment {
            s.push_str(" # comment 0:nan");
        }
        s.push_str(end);
    }
    s
}

/// The `(0-based index, value bits)` pairs of a stored sparse row.
fn row_bits(d: &RawData, i: usize) -> Vec<(u32, u64)> {
    match d.row(i) {
        Row::Sparse(r) => r
            .indices()
            .iter()
            .zip(r.values())
            .map(|(&j, v)| (j, v.to_bits()))
            .collect(),
        Row::Dense(_) => panic!("LIBSVM data is stored as CSR"),
    }
}

/// A reader's result on arbitrary input: an error must point inside the input; data must be valid.
fn check_outcome(input: &[u8], result: Result<RawData, DataError>) -> Result<(), TestCaseError> {
    match result {
        Ok(d) => {
            // Valid data binarizes (every value finite, indices in range).
            prop_assert!(d.binarize(&Positive::Minority).is_ok());
        }
        Err(DataError::Parse { line, col, .. }) => {
            let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            prop_assert!(
                line >= 1 && line <= lines.len(),
                "line {line} of {}",
                lines.len()
            );
            prop_assert!(col >= 1 && col <= lines[line - 1].len() + 1, "col {col}");
        }
        Err(e) => prop_assert!(false, "unexpected error {e}"),
    }
    Ok(())
}

/// A byte edit of valid text: flip a byte, insert a byte, or delete a byte at a position.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"0123456789:.-+eE \t\r\n#qidnaf\xff".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

fn apply(text: &mut Vec<u8>, edits: &[Edit]) {
    for e in edits {
        match *e {
            Edit::Set(i, b) if !text.is_empty() => {
                let k = i % text.len();
                text[k] = b;
            }
            Edit::Insert(i, b) => text.insert(i % (text.len() + 1), b),
            Edit::Delete(i) if !text.is_empty() => {
                text.remove(i % text.len());
            }
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Written LIBSVM text parses back to the same labels and bit-identical values; zeros are
    /// dropped and the dimension is the largest index.
    #[test]
    fn libsvm_round_trips_bit_exactly(rows in prop::collection::vec((example(), layout()), 0..20)) {
        let text = write_libsvm(&rows);
        let d = read_libsvm(text.as_bytes(), "rt", &ReadOptions::default()).unwrap();
        prop_assert_eq!(d.n(), rows.len());
        let dim = rows.iter().flat_map(|(e, _)| e.1.iter().map(|&(j, _)| j as usize)).max().unwrap_or(0);
        prop_assert_eq!(d.dim(), dim);
        for (i, ((label, feats), _)) in rows.iter().enumerate() {
            prop_assert_eq!(d.raw_labels()[i].to_bits(), (label + 0.0).to_bits());
            let want: Vec<(u32, u64)> =
                feats.iter().filter(|(_, v)| *v != 0.0).map(|&(j, v)| (j - 1, v.to_bits())).collect();
            prop_assert_eq!(row_bits(&d, i), want);
        }
    }

    /// Any decimal text the reader accepts as a value rounds exactly as `str::parse::<f64>` does.
    #[test]
    fn values_round_like_str_parse(
        sign in prop::sample::select(vec!["", "-", "+"]),
        int in "[0-9]{0,25}",
        frac in prop::option::of("[0-9]{0,25}"),
        exp in prop::option::of(-350i32..350),
    ) {
        let mut s = format!("{sign}{int}");
        if let Some(f) = &frac {
            write!(s, ".{f}").unwrap();
        }
        if let Some(e) = exp {
            write!(s, "e{e}").unwrap();
        }
        let parsed = read_libsvm(format!("1 1:{s}\n").as_bytes(), "v", &ReadOptions::default());
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() => {
                let d = parsed.unwrap();
                let got = if x == 0.0 { 0 } else { row_bits(&d, 0)[0].1 };
                prop_assert_eq!(got, if x == 0.0 { 0 } else { x.to_bits() }, "{}", s);
            }
            _ => prop_assert!(parsed.is_err(), "{} should be rejected", s),
        }
    }
}

proptest! {
    #![proptest_config(config(10000))]

    /// Random bytes, biased towards LIBSVM's alphabet, never make either reader panic.
    #[test]
    fn readers_never_panic_on_random_bytes(
        bytes in prop::collection::vec(
            prop_oneof![any::<u8>(), prop::sample::select(b"0123456789:.-+eE ,\t\r\n#qid".to_vec())],
            0..300,
        )
    ) {
        check_outcome(&bytes, read_libsvm(&bytes[..], "r", &ReadOptions::default()))?;
        check_outcome(&bytes, read_csv(&bytes[..], "r", &ReadOptions::default()))?;
    }

    /// Valid LIBSVM text with random byte flips, insertions and deletions never makes the reader
    /// panic; it either parses to valid data or reports an error inside the input.
    #[test]
    fn libsvm_never_panics_on_mutated_text(
        rows in prop::collection::vec((example(), layout()), 1..8),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let mut text = write_libsvm(&rows).into_bytes();
        apply(&mut text, &edits);
        check_outcome(&text, read_libsvm(&text[..], "m", &ReadOptions::default()))?;
        let limited = ReadOptions { dim: Some(100), limit: Some(3), ..Default::default() };
        check_outcome(&text, read_libsvm(&text[..], "m", &limited))?;
    }
}
