//! The line cap ([`ReadOptions::max_line_bytes`], hostile input item 4): every reader refuses a
//! line (a CSV record) longer than the cap at its line, as soon as the cap is passed, so that an
//! input without line ends, an endless comment or run of spaces, an unterminated quote or a gzip
//! bomb is never buffered beyond the cap. A property test at 10^5 cases checks the cap against
//! an independent split of the text into lines.

use std::io::{BufReader, Read, Write};

use auc_data::{DataError, ParseErrorKind, RawData, ReadOptions, read_csv, read_libsvm};
use proptest::prelude::*;

fn capped(max: usize) -> ReadOptions {
    ReadOptions {
        max_line_bytes: max,
        ..ReadOptions::default()
    }
}

/// The line, column and cap of a line-cap error (panics on any other outcome).
fn too_long(r: Result<RawData, DataError>) -> (usize, usize, usize) {
    match r {
        Err(DataError::Parse {
            line,
            col,
            kind: ParseErrorKind::LineTooLong { limit },
            ..
        }) => (line, col, limit),
        Err(e) => panic!("expected a line-cap error, got {e}"),
        Ok(d) => panic!("expected a line-cap error, read {} rows", d.n()),
    }
}

#[test]
fn a_libsvm_line_longer_than_the_cap_is_refused_at_its_line() {
    let ok = b"1 1:1\n-1 2:1\r\n";
    assert_eq!(read_libsvm(&ok[..], "t", &capped(6)).unwrap().n(), 2);
    let text = b"1 1:1\n-1 2:1 3:1 4:1\n1 1:1\n";
    let e = read_libsvm(&text[..], "t", &capped(10));
    assert_eq!(too_long(e), (2, 11, 10));
    let msg = read_libsvm(&text[..], "t.svm", &capped(10))
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with("t.svm:2:11: line is longer than 10 bytes"),
        "{msg}"
    );
    assert!(msg.contains("--max-line-bytes"), "{msg}");
}

/// A reader of `head` followed by `n` copies of `fill`, counting the bytes taken.
struct Endless {
    head: Vec<u8>,
    fill: u8,
    left: u64,
    taken: u64,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && !self.head.is_empty() {
            buf[n] = self.head.remove(0);
            n += 1;
        }
        let k = (buf.len() - n).min(usize::try_from(self.left).unwrap_or(usize::MAX));
        buf[n..n + k].fill(self.fill);
        self.left -= k as u64;
        self.taken += (n + k) as u64;
        Ok(n + k)
    }
}

fn endless(head: &[u8], fill: u8) -> BufReader<Endless> {
    BufReader::new(Endless {
        head: head.to_vec(),
        fill,
        left: 1 << 40,
        taken: 0,
    })
}

#[test]
fn endless_lines_comments_and_spaces_are_refused_after_the_cap() {
    const CAP: usize = 1 << 20;
    for (head, fill) in [
        (&b""[..], b'x'),
        (&b"1 1:1\n1 2:1 # a comment"[..], b' '),
        (&b"1 1:1\n"[..], b' '),
        (&b"1 1:1\n-1 "[..], b'\t'),
    ] {
        let mut r = endless(head, fill);
        let e = read_libsvm(&mut r, "t", &capped(CAP));
        let (line, _, limit) = too_long(e);
        assert_eq!((line, limit), (1 + usize::from(head.contains(&b'\n')), CAP));
        // The reader stopped within a buffer of the cap: the rest of 2^40 bytes was not read.
        assert!(
            r.get_ref().taken < (CAP as u64) * 2,
            "{}",
            r.get_ref().taken
        );
    }
}

#[test]
fn a_gzip_bomb_of_one_long_line_is_refused_after_the_cap() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(b"1 1:1\n-1 ").unwrap();
    let spaces = vec![b' '; 1 << 20];
    for _ in 0..16 {
        gz.write_all(&spaces).unwrap();
    }
    let bytes = gz.finish().unwrap();
    assert!(bytes.len() < 1 << 17, "{}", bytes.len());
    let e = read_libsvm(&bytes[..], "bomb.gz", &capped(1 << 20));
    assert_eq!(too_long(e).0, 2);
}

#[test]
fn a_csv_record_longer_than_the_cap_is_refused_at_the_line_it_starts() {
    let text = b"1,2\n\n-1,2\n";
    assert_eq!(read_csv(&text[..], "t.csv", &capped(4)).unwrap().n(), 2);
    assert_eq!(too_long(read_csv(&text[..], "t.csv", &capped(3))).0, 3);
    // A quoted line break counts: the header record spans lines 1 and 2 (7 bytes).
    let quoted = b"\"a\nb\",y\n1,2\n";
    assert_eq!(read_csv(&quoted[..], "t.csv", &capped(7)).unwrap().n(), 1);
    let (line, col, _) = too_long(read_csv(&quoted[..], "t.csv", &capped(6)));
    assert_eq!((line, col), (1, 1));
}

#[test]
fn an_unterminated_csv_quote_is_refused_after_the_cap() {
    const CAP: usize = 1 << 20;
    let mut r = endless(b"y,x\n1,2\n-1,\"3", b'\n');
    let e = read_csv(&mut r, "t.csv", &capped(CAP));
    assert_eq!(too_long(e).0, 3);
    assert!(
        r.get_ref().taken < (CAP as u64) * 2,
        "{}",
        r.get_ref().taken
    );
    let mut r = endless(b"1,2\n-1,", b'7');
    let e = read_csv(&mut r, "t.csv", &capped(CAP));
    assert_eq!(too_long(e).0, 2);
}

/// Lines of a generated file: each a valid row (or a comment) padded with spaces to its length.
#[derive(Clone, Debug)]
struct Case {
    lengths: Vec<usize>,
    comments: Vec<bool>,
    crlf: Vec<bool>,
    cap: usize,
    final_newline: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..12).prop_flat_map(|n| {
        (
            proptest::collection::vec(5usize..44, n),
            proptest::collection::vec(any::<bool>(), n),
            proptest::collection::vec(any::<bool>(), n),
            3usize..48,
            any::<bool>(),
        )
            .prop_map(|(lengths, comments, crlf, cap, final_newline)| Case {
                lengths,
                comments,
                crlf,
                cap,
                final_newline,
            })
    })
}

impl Case {
    /// The text, with `row` as each line's start (padded with spaces).
    fn text(&self, row: &[u8], comment: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, &len) in self.lengths.iter().enumerate() {
            let start = if self.comments[i] { comment } else { row };
            let mut line = start.to_vec();
            assert!(len >= start.len());
            line.resize(len, b' ');
            out.extend_from_slice(&line);
            if i + 1 < self.lengths.len() || self.final_newline {
                out.extend_from_slice(if self.crlf[i] { b"\r\n" } else { b"\n" });
            }
        }
        out
    }

    /// What the cap must give, from the lengths alone: the first line longer than the cap, or
    /// the number of rows.
    fn expected(&self, comment_rows: bool) -> Result<usize, usize> {
        match self.lengths.iter().position(|&l| l > self.cap) {
            Some(i) => Err(i + 1),
            None => Ok(self
                .comments
                .iter()
                .filter(|&&c| comment_rows || !c)
                .count()),
        }
    }
}

fn outcome(r: Result<RawData, DataError>) -> Result<usize, usize> {
    match r {
        Ok(d) => Ok(d.n()),
        Err(e) => Err(too_long(Err(e)).0),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn the_cap_refuses_exactly_the_first_line_longer_than_it(c in case()) {
        let libsvm = c.text(b"1 1:1", b"# c");
        prop_assert_eq!(
            outcome(read_libsvm(&libsvm[..], "t", &capped(c.cap))),
            c.expected(false)
        );
        // CSV has no comments: every line is a row.
        let csv = c.text(b"1,2", b"-1,3");
        prop_assert_eq!(
            outcome(read_csv(&csv[..], "t.csv", &capped(c.cap))),
            c.expected(true)
        );
    }
}
