//! Feature crosses (`ReadOptions::cross_bits`): every read row equals a brute-force computation
//! (fold the hashed features, then every pair's product into its bucket, summed in pair order,
//! zero sums dropped) over random rows with colliding indices, in LIBSVM and CSV, whole and by
//! chunks; the cap on a row's non-zeros; and the options' checks.

#![allow(clippy::float_cmp)] // Crosses are compared bit for bit with a brute force summing in the same order.

use std::collections::BTreeMap;

use auc_core::Row;
use auc_data::{
    DataError, MAX_CROSS_NNZ, ParseErrorKind, RawData, ReadOptions, RowStream, pair_hash, read_csv,
    read_libsvm,
};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok());
    Config {
        cases: cases.unwrap_or(default),
        failure_persistence: None,
        ..Config::default()
    }
}

fn opts(hash: u8, cross: u8) -> ReadOptions {
    ReadOptions {
        hash_bits: Some(hash),
        cross_bits: Some(cross),
        ..ReadOptions::default()
    }
}

/// The crossed row by brute force from the features as written (0-based index, value).
fn brute_force(written: &[(u32, f64)], hash: u8, cross: u8) -> Vec<(u32, f64)> {
    let mut own: BTreeMap<u32, f64> = BTreeMap::new();
    for &(j, x) in written {
        if x != 0.0 {
            *own.entry(j & ((1 << hash) - 1)).or_insert(0.0) += x;
        }
    }
    let own: Vec<(u32, f64)> = own.into_iter().filter(|&(_, x)| x != 0.0).collect();
    let base = 1u64 << hash;
    let mut crosses: BTreeMap<u32, f64> = BTreeMap::new();
    for a in 0..own.len() {
        for b in a + 1..own.len() {
            let (i, xi) = own[a];
            let (j, xj) = own[b];
            let bucket = base + (pair_hash(i, j) % (1u64 << cross));
            *crosses.entry(bucket as u32).or_insert(0.0) += xi * xj;
        }
    }
    own.into_iter()
        .chain(crosses.into_iter().filter(|&(_, x)| x != 0.0))
        .collect()
}

fn entries(row: Row<'_>) -> Vec<(u32, f64)> {
    match row {
        Row::Sparse(r) => r
            .indices()
            .iter()
            .copied()
            .zip(r.values().iter().copied())
            .collect(),
        Row::Dense(v) => v
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x != 0.0)
            .map(|(j, &x)| (j as u32, x))
            .collect(),
    }
}

/// LIBSVM text of rows of (0-based index, value), indices increasing as written.
fn libsvm(rows: &[Vec<(u32, f64)>]) -> String {
    let mut text = String::new();
    for (k, row) in rows.iter().enumerate() {
        text.push_str(if k % 2 == 0 { "1" } else { "-1" });
        for &(j, x) in row {
            text.push_str(&format!(" {}:{x:?}", j + 1));
        }
        text.push('\n');
    }
    text
}

/// A row: distinct increasing indices below 64 (so that 3 hash bits make collisions) and
/// values that are small multiples of 1/4 (sums exact in any order) or any of a few awkward
/// doubles.
fn row() -> impl Strategy<Value = Vec<(u32, f64)>> {
    let value = prop_oneof![
        4 => (-8i32..=8).prop_map(|k| f64::from(k) / 4.0),
        1 => prop::sample::select(vec![1e-3, -7.25e2, 3.1, 1e-160]),
    ];
    prop::collection::btree_map(0u32..64, value, 0..14)
        .prop_map(|m| m.into_iter().collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn libsvm_crosses_equal_brute_force(
        rows in prop::collection::vec(row(), 1..6),
        hash in 1u8..=6,
        cross in 1u8..=5,
        chunk in 1usize..4,
    ) {
        let text = libsvm(&rows);
        let o = opts(hash, cross);
        let raw = read_libsvm(text.as_bytes(), "r.libsvm", &o).unwrap();
        prop_assert_eq!(raw.dim(), (1 << hash) + (1 << cross));
        for (i, written) in rows.iter().enumerate() {
            prop_assert_eq!(entries(raw.row(i)), brute_force(written, hash, cross));
        }
        // By chunks: the same rows.
        let mut stream = RowStream::new(text.as_bytes(), "r.libsvm", &o).unwrap();
        let mut chunk_data = RawData::concat(vec![]);
        let mut i = 0;
        while stream.read_chunk(&mut chunk_data, chunk).unwrap() > 0 {
            for k in 0..chunk_data.n() {
                prop_assert_eq!(entries(chunk_data.row(k)), entries(raw.row(i)));
                i += 1;
            }
        }
        prop_assert_eq!(i, rows.len());
    }

    #[test]
    fn csv_crosses_equal_brute_force(
        rows in prop::collection::vec(
            prop::collection::vec((-4i32..=4).prop_map(|k| f64::from(k) / 2.0), 9),
            1..5,
        ),
        hash in 2u8..=4,
        cross in 1u8..=4,
    ) {
        let mut text = String::new();
        for (k, r) in rows.iter().enumerate() {
            text.push_str(if k % 2 == 0 { "1" } else { "0" });
            for x in r {
                text.push_str(&format!(",{x:?}"));
            }
            text.push('\n');
        }
        let raw = read_csv(text.as_bytes(), "r.csv", &opts(hash, cross)).unwrap();
        prop_assert!(raw.is_csr());
        for (i, r) in rows.iter().enumerate() {
            let written: Vec<(u32, f64)> =
                r.iter().enumerate().map(|(j, &x)| (j as u32, x)).collect();
            prop_assert_eq!(entries(raw.row(i)), brute_force(&written, hash, cross));
        }
    }
}

#[test]
fn rows_at_the_cap_are_crossed_and_one_more_is_refused() {
    let line = |m: usize| {
        let mut s = String::from("1");
        for j in 1..=m {
            s.push_str(&format!(" {j}:1"));
        }
        s.push('\n');
        s
    };
    let at_cap = format!("-1 1:1\n{}", line(MAX_CROSS_NNZ));
    let raw = read_libsvm(at_cap.as_bytes(), "cap.libsvm", &opts(12, 4)).unwrap();
    // 1024 own features, every one of the 16 buckets hit by some of the 523,776 pairs.
    assert_eq!(raw.row(1).nnz(), MAX_CROSS_NNZ + 16);
    let total: f64 = entries(raw.row(1))[MAX_CROSS_NNZ..]
        .iter()
        .map(|e| e.1)
        .sum();
    assert_eq!(total, (MAX_CROSS_NNZ * (MAX_CROSS_NNZ - 1) / 2) as f64);
    let over = format!("-1 1:1\n-1 2:1\n{}", line(MAX_CROSS_NNZ + 1));
    let e = read_libsvm(over.as_bytes(), "big.libsvm", &opts(12, 4)).unwrap_err();
    assert!(matches!(
        e,
        DataError::Parse {
            line: 3,
            col: 1,
            kind: ParseErrorKind::CrossTooManyNonZeros {
                nnz: 1025,
                cap: 1024
            },
            ..
        }
    ));
    let text = e.to_string();
    assert!(
        text.starts_with("big.libsvm:3:1: the row has 1025 non-zero features"),
        "{text}"
    );
    assert!(text.contains("1024"), "{text}");
    // Duplicates folded by hashing count once: 1025 written features in 2^10 buckets pass.
    let folded = read_libsvm(line(MAX_CROSS_NNZ + 1).as_bytes(), "f.libsvm", &opts(10, 4));
    assert_eq!(folded.unwrap().row(0).nnz(), MAX_CROSS_NNZ + 16);
    // CSV too, at the record's first field.
    let mut csv = String::from("y");
    for j in 0..=MAX_CROSS_NNZ {
        csv.push_str(&format!(",f{j}"));
    }
    csv.push_str("\n1");
    csv.push_str(&",1".repeat(MAX_CROSS_NNZ + 1));
    csv.push('\n');
    let e = read_csv(csv.as_bytes(), "big.csv", &opts(12, 4)).unwrap_err();
    assert!(
        e.to_string().starts_with("big.csv:2:1: the row has 1025"),
        "{e}"
    );
}

#[test]
fn overflowing_crosses_are_errors() {
    let e = read_libsvm("1 1:1e200 2:1e200\n".as_bytes(), "o.libsvm", &opts(4, 2)).unwrap_err();
    assert!(
        matches!(
            e,
            DataError::Parse {
                kind: ParseErrorKind::CrossNotFinite { .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn crosses_need_a_fixed_dimension_and_bits_in_range() {
    let read = |o: &ReadOptions| read_libsvm("1 1:1 2:2\n".as_bytes(), "x", o);
    let no_hash = ReadOptions {
        cross_bits: Some(4),
        ..ReadOptions::default()
    };
    assert!(matches!(read(&no_hash), Err(DataError::CrossNeedsDim)));
    assert!(matches!(
        read(&opts(4, 0)),
        Err(DataError::CrossBits { bits: 0 })
    ));
    assert!(matches!(
        read(&opts(4, 31)),
        Err(DataError::CrossBits { bits: 31 })
    ));
    // A fixed dimension without hashing: the crosses follow it.
    let fixed = ReadOptions {
        dim: Some(5),
        ..no_hash
    };
    let raw = read(&fixed).unwrap();
    assert_eq!(raw.dim(), 5 + 16);
    let bucket = 5 + (pair_hash(0, 1) % 16) as u32;
    assert_eq!(entries(raw.row(0)), vec![(0, 1.0), (1, 2.0), (bucket, 2.0)]);
}
