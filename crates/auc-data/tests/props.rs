//! Property tests of the readers: LIBSVM and quoted CSV text round-trip bit-exactly, numbers round
//! like `str::parse`, feature hashing equals folding the unhashed rows, reading in chunks of any
//! size equals reading the whole input, and no input, however mangled (plain or gzip, any options),
//! makes a reader panic.
//!
//! Case counts come from `PROPTEST_CASES` (defaults below keep `cargo test` to a few seconds); a
//! long run: `cargo xtask props --cases 100000 -p auc-data` (release).

use std::fmt::Write;
use std::io::Write as _;

use auc_core::Row;
use auc_data::{
    CsvOptions, DataError, Format, LabelColumn, Positive, RawData, ReadOptions, Reading, RowStream,
    read_csv, read_libsvm,
};
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

/// Whether `input` starts with the gzip magic bytes (then errors point into the decompressed
/// text, or are gzip errors).
fn is_gzip(input: &[u8]) -> bool {
    input.starts_with(&[0x1f, 0x8b])
}

/// A reader's result on arbitrary input: an error must point inside the input; data must be valid.
fn check_outcome(input: &[u8], result: Result<RawData, DataError>) -> Result<(), TestCaseError> {
    match result {
        Ok(d) => {
            // Valid data binarizes (every value finite, indices in range).
            prop_assert!(d.binarize(&Positive::Minority).is_ok());
            prop_assert!(d.binarize(&Positive::Auto).is_ok());
        }
        Err(DataError::Parse { line, col, .. }) if is_gzip(input) => {
            prop_assert!(line >= 1 && col >= 1);
        }
        Err(DataError::Gzip { .. }) if is_gzip(input) => {}
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

/// As [`check_outcome`], for a read with `opts`: invalid hashing options (bits outside 1..=31, a
/// dimension other than 2^B) and invalid crosses (bits outside 1..=30, no fixed dimension) must
/// be refused as such, whatever the input; crossed data has the dimension 2^B (or `dim`) + 2^C.
fn check_read(
    input: &[u8],
    opts: &ReadOptions,
    result: Result<RawData, DataError>,
) -> Result<(), TestCaseError> {
    let invalid = opts
        .hash_bits
        .is_some_and(|b| !(1..=31).contains(&b) || opts.dim.is_some_and(|d| d != 1usize << b));
    let base = opts.hash_bits.map(|b| 1usize << b).or(opts.dim);
    let bad_cross = !invalid
        && opts
            .cross_bits
            .is_some_and(|c| !(1..=30).contains(&c) || base.is_none());
    match result {
        Err(DataError::HashBits { .. } | DataError::HashDim { .. }) => {
            prop_assert!(invalid);
            Ok(())
        }
        Err(DataError::CrossBits { .. } | DataError::CrossNeedsDim) => {
            prop_assert!(bad_cross);
            Ok(())
        }
        result => {
            prop_assert!(!invalid && !bad_cross, "invalid options accepted");
            let crosses = opts.cross_bits.map_or(0, |c| 1usize << c);
            if let (Ok(d), Some(b)) = (&result, opts.hash_bits) {
                prop_assert_eq!(d.dim(), (1usize << b) + crosses);
            }
            if let (Ok(d), Some(base)) = (&result, base.filter(|_| crosses > 0)) {
                prop_assert_eq!(d.dim(), base + crosses);
            }
            check_outcome(input, result)
        }
    }
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

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// One CSV field as written: plain, quoted, or quoted with blanks inside the quotes.
#[derive(Clone, Copy, Debug)]
enum Quote {
    Plain,
    Quoted,
    Padded,
}

fn quote() -> impl Strategy<Value = Quote> {
    prop_oneof![Just(Quote::Plain), Just(Quote::Quoted), Just(Quote::Padded)]
}

/// A CSV table: a header (names that need quoting included), rows of finite numbers, and how
/// each field, line end and the delimiter are written.
#[derive(Clone, Debug)]
struct Table {
    names: Option<Vec<String>>,
    rows: Vec<Vec<f64>>,
    quotes: Vec<Quote>,
    delimiter: u8,
    crlf: bool,
    label: usize,
}

fn table() -> impl Strategy<Value = Table> {
    (1usize..5).prop_flat_map(|fields| {
        let name = prop_oneof![
            "[a-z]{1,6}",
            Just("a,b".to_string()),
            Just("say \"hi\"".to_string()),
            Just("line\nbreak".to_string()),
        ];
        (
            prop::option::of(prop::collection::vec(name, fields)),
            prop::collection::vec(prop::collection::vec(finite(), fields), 0..8),
            prop::collection::vec(quote(), 64),
            prop::sample::select(vec![b',', b';', b'\t']),
            any::<bool>(),
            0..fields,
        )
            .prop_map(|(names, rows, quotes, delimiter, crlf, label)| Table {
                names,
                rows,
                quotes,
                delimiter,
                crlf,
                label,
            })
    })
}

impl Table {
    /// The text, with fields quoted as `quotes` says (cycled).
    fn write(&self) -> String {
        let end = if self.crlf { "\r\n" } else { "\n" };
        let d = char::from(self.delimiter).to_string();
        let mut k = 0;
        let mut field = |text: String| {
            let q = self.quotes[k % self.quotes.len()];
            k += 1;
            let needs = text.contains(['"', '\n', '\r']) || text.contains(&d);
            match q {
                Quote::Plain if !needs => text,
                Quote::Padded if !needs => format!("\" {text}\t\""),
                _ => format!("\"{}\"", text.replace('"', "\"\"")),
            }
        };
        let mut s = String::new();
        if let Some(names) = &self.names {
            let line: Vec<String> = names.iter().map(|n| field(n.clone())).collect();
            s.push_str(&line.join(&d));
            s.push_str(end);
        }
        for row in &self.rows {
            let line: Vec<String> = row.iter().map(|v| field(format!("{v:?}"))).collect();
            s.push_str(&line.join(&d));
            s.push_str(end);
        }
        s
    }

    fn options(&self) -> ReadOptions {
        ReadOptions {
            format: Format::Csv,
            csv: CsvOptions {
                label: LabelColumn::Index(self.label),
                delimiter: self.delimiter,
                header: Some(self.names.is_some()),
                ..Default::default()
            },
            ..ReadOptions::default()
        }
    }
}

/// Random reading options: label column, header rule, delimiter, dimension, limit, hashing,
/// crosses.
fn options() -> impl Strategy<Value = ReadOptions> {
    let label = prop_oneof![
        (0usize..4).prop_map(LabelColumn::Index),
        Just(LabelColumn::Last),
        "[a-z]{1,2}".prop_map(LabelColumn::Name),
    ];
    (
        label,
        prop::sample::select(vec![b',', b';', b'\t', b' ']),
        prop::option::of(any::<bool>()),
        prop::option::of(0usize..300),
        prop::option::of(0usize..6),
        prop::option::of(prop_oneof![1u8..=12, Just(0u8), Just(31u8), Just(32u8)]),
        prop::option::of(prop_oneof![3 => 1u8..=4, 1 => Just(0u8), 1 => Just(31u8)]),
    )
        .prop_map(
            |(label, delimiter, header, dim, limit, hash_bits, cross_bits)| ReadOptions {
                dim,
                limit,
                hash_bits,
                cross_bits,
                csv: CsvOptions {
                    label,
                    delimiter,
                    header,
                    ..Default::default()
                },
                ..ReadOptions::default()
            },
        )
}

/// Every row of `d` as `(index, value bits)` pairs, whatever the storage, zeros left out.
fn entries(d: &RawData) -> Vec<Vec<(usize, u64)>> {
    (0..d.n())
        .map(|i| {
            let mut out = Vec::new();
            d.row(i).for_each(|j, v| {
                if v != 0.0 {
                    out.push((j, v.to_bits()));
                }
            });
            out
        })
        .collect()
}

/// Reads `input` through a stream in chunks of `size` rows and concatenates the chunks.
fn chunked(
    input: &[u8],
    format: Format,
    opts: &ReadOptions,
    size: usize,
) -> Result<RawData, DataError> {
    let opts = ReadOptions {
        format,
        ..opts.clone()
    };
    let mut stream = RowStream::new(input, "s", &opts)?;
    let mut parts = Vec::new();
    while let Some(chunk) = stream.next_chunk(size)? {
        prop_assert_eq_or_panic(chunk.dim(), stream.dim());
        parts.push(chunk);
    }
    RawData::concat(parts).with_dim(stream.dim())
}

fn prop_assert_eq_or_panic(a: usize, b: usize) {
    assert_eq!(a, b, "a chunk's dimension is the stream's");
}

/// The whole-file reader and a chunked stream agree: the same rows, labels, dimension and reading,
/// or the same error message.
fn check_chunks(
    input: &[u8],
    format: Format,
    opts: &ReadOptions,
    size: usize,
) -> Result<(), TestCaseError> {
    let whole = match format {
        Format::Csv => read_csv(input, "s", opts),
        _ => read_libsvm(input, "s", opts),
    };
    let parts = chunked(input, format, opts, size);
    match (&whole, &parts) {
        (Ok(w), Ok(c)) => {
            prop_assert_eq!(w.n(), c.n());
            prop_assert_eq!(w.dim(), c.dim());
            let (wl, cl): (Vec<u64>, Vec<u64>) = (
                w.raw_labels().iter().map(|l| l.to_bits()).collect(),
                c.raw_labels().iter().map(|l| l.to_bits()).collect(),
            );
            prop_assert_eq!(wl, cl);
            prop_assert_eq!(entries(w), entries(c));
            if c.n() > 0 {
                prop_assert_eq!(w.reading(), c.reading());
            }
        }
        (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
        _ => prop_assert!(false, "whole {whole:?} vs chunks of {size}: {parts:?}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    /// Written CSV (quoted fields, quoted names with delimiters, quotes and line breaks, CRLF,
    /// three delimiters) reads back to the same labels, bit-identical values and header names.
    #[test]
    fn csv_round_trips_with_quoting(t in table()) {
        let text = t.write();
        let d = read_csv(text.as_bytes(), "t.csv", &t.options()).unwrap();
        let fields = t.rows.first().map_or(0, Vec::len);
        prop_assert_eq!(d.n(), t.rows.len());
        for (i, row) in t.rows.iter().enumerate() {
            prop_assert_eq!(d.raw_labels()[i].to_bits(), (row[t.label] + 0.0).to_bits());
            let features: Vec<u64> = row
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != t.label)
                .map(|(_, v)| v.to_bits())
                .collect();
            let Row::Dense(x) = d.row(i) else {
                return Err(TestCaseError::fail("CSV rows are dense"));
            };
            let got: Vec<u64> = x.iter().map(|v| v.to_bits()).collect();
            prop_assert_eq!(got, features);
        }
        if let (Reading::Csv(r), false) = (d.reading(), t.rows.is_empty()) {
            prop_assert_eq!(&r.header, &t.names);
            prop_assert_eq!((r.label_index, r.fields, r.delimiter), (t.label, fields, t.delimiter));
        }
        // gzip-wrapped, the same.
        let packed = read_csv(&gzip(text.as_bytes())[..], "t.csv.gz", &t.options()).unwrap();
        prop_assert_eq!(packed, d);
    }

    /// Hashed rows equal the unhashed rows with each index folded to `j & (2^B - 1)` and the
    /// colliding values summed in written order (zero sums dropped): an independent fold.
    #[test]
    fn hashing_equals_folding_the_unhashed_rows(
        rows in prop::collection::vec((example(), layout()), 0..10),
        bits in 1u8..=8,
    ) {
        let text = write_libsvm(&rows);
        let plain = read_libsvm(text.as_bytes(), "h", &ReadOptions::default()).unwrap();
        let opts = ReadOptions { hash_bits: Some(bits), ..ReadOptions::default() };
        let hashed = read_libsvm(text.as_bytes(), "h", &opts);
        // An overflowing sum is refused; otherwise compare with the fold.
        let mask = (1usize << bits) - 1;
        let mut want = Vec::new();
        let mut overflow = false;
        for row in entries(&plain) {
            let mut sums: std::collections::BTreeMap<usize, f64> = Default::default();
            for (j, v) in row {
                *sums.entry(j & mask).or_insert(0.0) += f64::from_bits(v);
            }
            overflow |= sums.values().any(|s| !s.is_finite());
            want.push(
                sums.into_iter()
                    .filter(|&(_, s)| s != 0.0)
                    .map(|(j, s)| (j, s.to_bits()))
                    .collect::<Vec<_>>(),
            );
        }
        match hashed {
            Ok(h) => {
                prop_assert!(!overflow);
                prop_assert_eq!(h.dim(), 1 << bits);
                prop_assert_eq!(entries(&h), want);
            }
            Err(e) => prop_assert!(overflow, "{}", e),
        }
    }
}

proptest! {
    #![proptest_config(config(10000))]

    /// Valid CSV with random byte edits (quotes, delimiters, line ends, a byte-order mark), read
    /// with random options (label column, header rule, delimiter, dimension, limit, hashing),
    /// never makes the reader panic, and reading it in chunks agrees with reading it whole.
    #[test]
    fn csv_never_panics_on_mutated_text(
        t in table(),
        edits in prop::collection::vec(csv_edit(), 0..6),
        opts in options(),
        size in 1usize..5,
    ) {
        let mut text = t.write().into_bytes();
        apply(&mut text, &edits);
        check_read(&text, &opts, read_csv(&text[..], "m.csv", &opts))?;
        check_outcome(&text, read_csv(&text[..], "m.csv", &t.options()))?;
        check_chunks(&text, Format::Csv, &opts, size)?;
    }

    /// Mutated LIBSVM text read in chunks of any size gives what the whole-file reader gives,
    /// with random dimension, limit and hashing.
    #[test]
    fn streaming_never_panics_and_agrees_for_any_chunk_size(
        rows in prop::collection::vec((example(), layout()), 1..8),
        edits in prop::collection::vec(edit(), 0..4),
        opts in options(),
        size in 1usize..6,
    ) {
        let mut text = write_libsvm(&rows).into_bytes();
        apply(&mut text, &edits);
        check_read(&text, &opts, read_libsvm(&text[..], "m", &opts))?;
        check_chunks(&text, Format::Libsvm, &opts, size)?;
    }

    /// gzip-wrapped text, intact, with its compressed bytes edited or cut short, never makes a
    /// reader panic: it decodes to valid data, or is a parse or gzip error.
    #[test]
    fn gzip_input_never_panics(
        rows in prop::collection::vec((example(), layout()), 1..6),
        edits in prop::collection::vec(edit(), 0..3),
        cut in prop::option::of(any::<usize>()),
        size in 1usize..4,
    ) {
        let mut packed = gzip(write_libsvm(&rows).as_bytes());
        apply(&mut packed, &edits);
        if let Some(c) = cut {
            packed.truncate(c % (packed.len() + 1));
        }
        let opts = ReadOptions::default();
        check_outcome(&packed, read_libsvm(&packed[..], "g.gz", &opts))?;
        check_outcome(&packed, read_csv(&packed[..], "g.gz", &opts))?;
        check_chunks(&packed, Format::Libsvm, &opts, size)?;
    }
}

/// An edit biased towards CSV's special bytes.
fn csv_edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"0123456789.-+eE\",;\t \r\n\xef\xbb\xbfyn".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}
