//! Whether a LIBSVM file counts its feature indices from 0 or from 1 ([`ZeroBased`]).
//!
//! LIBSVM's own tools write 1-based indices; scikit-learn's `dump_svmlight_file` writes 0-based
//! ones by default. [`ZeroBased::Auto`] decides as scikit-learn's loader does: a file in which
//! some feature index is 0 is 0-based, any other file 1-based. The decision is made before the
//! first row is handed on, so every row (and every later pass over the file) is read the same
//! way:
//!
//! - a regular file is scanned for an index 0 first ([`file_has_zero_index`]: `memchr`'s
//!   substring search for `0:` over blocks of whole lines, each hit checked to be a token the
//!   parser reads as an index, gzip decoded on the way), then read;
//! - input that cannot be read twice (standard input, a pipe) is judged on its first
//!   [`crate::DENSITY_CHECK_ROWS`] lines (at most [`WINDOW_BYTES`] of them), the window in
//!   which first-sight scaling looks at the rows too; those lines are kept and parsed once the
//!   decision is made. An index 0 after a window read 1-based is an error
//!   ([`crate::ParseErrorKind::LateIndexZero`]) that says to pass `--zero-based yes`.
//!
//! Several files read as one input are decided together ([`ReadOptions::zero_based_for`]): one
//! file with an index 0 makes them all 0-based, as scikit-learn's `load_svmlight_files` does, so
//! a test file whose first feature happens to be always 0 is not read shifted by one.

use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind, Read};
use std::path::Path;

use memchr::memmem::Finder;
use serde::{Deserialize, Serialize};

use crate::input::{BUFFER, Decoded, STDIN, open};
use crate::lines::{LineReadError, Lines};
use crate::{DENSITY_CHECK_ROWS, DataError, Format, ReadOptions};

/// The most bytes of the window on which input that cannot be read twice is judged (its lines
/// are kept until the decision): a window of long lines ends here, after at least one line.
pub const WINDOW_BYTES: usize = 16 << 20;

/// How LIBSVM feature indices are counted ([`ReadOptions::zero_based`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ZeroBased {
    /// 0-based when the file holds a feature index 0, else 1-based (see the module docs).
    #[default]
    Auto,
    /// 0-based: index $j$ is feature $j$, the first one is 0, and the dimension is the largest
    /// index plus one.
    Yes,
    /// 1-based, LIBSVM's own convention: an index 0 is an error.
    No,
}

impl ZeroBased {
    /// The choice a word names, as the CLI's `--zero-based` and Python's `zero_based=` take it:
    /// `auto`, `yes` or `no`.
    pub fn from_word(word: &str) -> Option<ZeroBased> {
        match word {
            "auto" => Some(ZeroBased::Auto),
            "yes" => Some(ZeroBased::Yes),
            "no" => Some(ZeroBased::No),
            _ => None,
        }
    }
}

/// Finds a feature index 0 in LIBSVM lines, without parsing them.
pub(crate) struct ZeroScan {
    finder: Finder<'static>,
}

impl ZeroScan {
    pub(crate) fn new() -> Self {
        ZeroScan {
            finder: Finder::new(b"0:"),
        }
    }

    /// The byte offset of the first token of `line` (a line without its end) that the parser
    /// reads as feature index 0: after the label, before any `#`, digits that are all `0`
    /// followed by `:`, preceded by a space or a tab. `None` when there is none.
    pub(crate) fn zero_index(&self, line: &[u8]) -> Option<usize> {
        self.first_in(line)
    }

    /// Whether `lines` (whole lines, each ended by `\n` but maybe the last) hold a feature index
    /// 0 as [`ZeroScan::zero_index`] finds it: one search over all of them, each hit's line
    /// looked at only when the hit is a token of digits `0`.
    fn in_lines(&self, lines: &[u8]) -> bool {
        self.first_in(lines).is_some()
    }

    /// The first index-0 token of `text`, lines separated by `\n`.
    fn first_in(&self, text: &[u8]) -> Option<usize> {
        for hit in self.finder.find_iter(text) {
            let mut start = hit;
            while start > 0 && text[start - 1] == b'0' {
                start -= 1;
            }
            let Some(&before) = start.checked_sub(1).and_then(|k| text.get(k)) else {
                continue;
            };
            if before != b' ' && before != b'\t' {
                continue;
            }
            let line_start = memchr::memrchr(b'\n', &text[..start]).map_or(0, |k| k + 1);
            let head = &text[line_start..start];
            // Everything after the first `#` of a line is a comment, and the line's first token
            // is its label.
            if memchr::memchr(b'#', head).is_none() && head.iter().any(|&b| b != b' ' && b != b'\t')
            {
                return Some(start);
            }
        }
        None
    }

    /// Whether the text of `r` holds a feature index 0, read in blocks of whole lines. A read
    /// error, or a line that outgrows both the buffer and `max_line_bytes`, ends the scan with
    /// `false`: the parser stops at that place with an error, and no row after it is read
    /// (a line over the cap that fits the buffer is scanned, which is harmless for the same
    /// reason).
    fn in_reader(&self, mut r: impl Read, max_line_bytes: usize) -> bool {
        let mut buf = vec![0u8; BUFFER * 16];
        let mut filled = 0;
        loop {
            if filled == buf.len() {
                // No line end in the whole buffer: one long line.
                if buf.len() > max_line_bytes.saturating_add(2) {
                    return false;
                }
                buf.resize(buf.len() * 2, 0);
            }
            let n = match r.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return false,
            };
            filled += n;
            let end = match (n, memchr::memrchr(b'\n', &buf[..filled])) {
                (0, _) => filled,
                (_, Some(k)) => k + 1,
                (_, None) => continue,
            };
            if self.in_lines(&buf[..end]) {
                return true;
            }
            if n == 0 {
                return false;
            }
            buf.copy_within(end..filled, 0);
            filled -= end;
        }
    }
}

/// Lines read before their turn, to decide [`ZeroBased::Auto`] on input read once: their
/// bytes, each line's number and range in them, and the error that ended the reading early.
#[derive(Default)]
pub(crate) struct Ahead {
    bytes: Vec<u8>,
    lines: VecDeque<(usize, usize, usize)>,
    error: Option<DataError>,
}

impl Ahead {
    /// Reads and keeps lines of `lines` until one holds an index 0, or [`DENSITY_CHECK_ROWS`]
    /// lines, or [`WINDOW_BYTES`] of them (at least one line), or the end, or an error (kept as
    /// `error` makes it, to be raised after the lines before it): whether an index 0 was found,
    /// and the lines read.
    pub(crate) fn read<R: BufRead>(
        &mut self,
        lines: &mut Lines<R>,
        error: impl Fn(LineReadError) -> DataError,
    ) -> (bool, usize) {
        let scan = ZeroScan::new();
        while self.lines.len() < DENSITY_CHECK_ROWS as usize && self.bytes.len() < WINDOW_BYTES {
            match lines.next_line() {
                Ok(Some((no, line))) => {
                    let start = self.bytes.len();
                    self.bytes.extend_from_slice(line);
                    self.lines.push_back((no, start, self.bytes.len()));
                    if scan.zero_index(line).is_some() {
                        return (true, self.lines.len());
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    self.error = Some(error(e));
                    break;
                }
            }
        }
        (false, self.lines.len())
    }

    /// The next kept line and its number, then the error that ended the reading, then `None`
    /// (the kept bytes freed).
    pub(crate) fn next(&mut self) -> Option<Result<(usize, &[u8]), DataError>> {
        if let Some((no, a, b)) = self.lines.pop_front() {
            return Some(Ok((no, &self.bytes[a..b])));
        }
        if self.bytes.capacity() > 0 {
            self.bytes = Vec::new();
        }
        self.error.take().map(Err)
    }
}

/// Whether `path` names input that can be read twice: a regular file, not standard input.
pub(crate) fn rereadable(path: &Path) -> bool {
    path.as_os_str() != STDIN && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether the LIBSVM file `path` (plain or gzip) holds a feature index 0 on a line the parser
/// reads, lines capped at `max_line_bytes`. The scan stops at the first index 0. A file that
/// cannot be opened or decoded, or a line over the cap, ends the scan with what was seen before
/// it: reading the file then fails at that place, before any index 0 the scan did not see.
/// About 2 GB/s of text, a tenth of the time the parser takes.
pub(crate) fn file_has_zero_index(path: &Path, max_line_bytes: usize) -> bool {
    let name = path.display().to_string();
    let Ok((reader, _)) = open(path) else {
        return false;
    };
    let Ok(decoded) = Decoded::new(reader, &name) else {
        return false;
    };
    ZeroScan::new().in_reader(decoded, max_line_bytes)
}

impl ReadOptions {
    /// These options with [`ZeroBased::Auto`] decided for the inputs `paths` read as one (in
    /// order, by every pass of a run): [`ZeroBased::Yes`] when some LIBSVM file among them holds
    /// a feature index 0, else [`ZeroBased::No`] when every LIBSVM input is a regular file
    /// (scanned), else `Auto` left to the input that cannot be read twice (its first lines
    /// decide). CSV inputs (by [`Format::resolve`]) are not looked at, and a choice other than
    /// `Auto` is kept. Files are scanned whole, once here, so that later passes need not.
    pub fn zero_based_for<P: AsRef<Path>>(&self, paths: &[P]) -> ReadOptions {
        let mut out = self.clone();
        if self.zero_based != ZeroBased::Auto {
            return out;
        }
        let mut all_scanned = true;
        for p in paths {
            let p = p.as_ref();
            if self.format.resolve(&p.display().to_string()) == Format::Csv {
                continue;
            }
            if !rereadable(p) {
                all_scanned = false;
            } else if file_has_zero_index(p, self.max_line_bytes) {
                out.zero_based = ZeroBased::Yes;
                return out;
            }
        }
        if all_scanned {
            out.zero_based = ZeroBased::No;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_index_is_a_token_after_the_label_before_any_comment() {
        let scan = ZeroScan::new();
        let at = |line: &str| scan.zero_index(line.as_bytes());
        assert_eq!(at("1 0:1"), Some(2));
        assert_eq!(at("-1\t00:2.5 3:1"), Some(3));
        assert_eq!(at("  1  qid:3 0:1"), Some(11));
        for none in [
            "1 10:1 20:0",
            "0:1 2:1",
            "   0:1",
            "1 qid:0 3:1",
            "1 qid:0:1",
            "1 1:0 2:0.0",
            "1 3:1 # 0:1",
            "1 # x 0:1",
            "1 a0:1",
            "",
        ] {
            assert_eq!(at(none), None, "{none:?}");
        }
    }

    /// A reader that hands out `step` bytes a call.
    struct Slow<'a>(&'a [u8], usize);

    impl Read for Slow<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let k = self.0.len().min(out.len()).min(self.1);
            out[..k].copy_from_slice(&self.0[..k]);
            self.0 = &self.0[k..];
            Ok(k)
        }
    }

    #[test]
    fn blocks_of_lines_find_what_lines_find() {
        let scan = ZeroScan::new();
        let zero = "1 1:1\r\n# 0:1 in a comment\n0:1 as a label\n-1 2:1 # 0:1\n\n+1\t0:2 3:1\n";
        let none = "1 1:1\r\n# 0:1\n-1 10:1 # 0:1\n0:5\n1 qid:0 20:1";
        for step in [1, 2, 7, 4096] {
            assert!(scan.in_reader(Slow(zero.as_bytes(), step), 64), "{step}");
            assert!(!scan.in_reader(Slow(none.as_bytes(), step), 64), "{step}");
        }
        // A line past the cap and the buffer ends the scan: the parser stops there too.
        let long = format!("1 {}\n1 0:1\n", "1:1 ".repeat(1 << 19));
        assert!(!scan.in_reader(long.as_bytes(), 1 << 20));
        assert!(scan.in_reader(long.as_bytes(), 4 << 20));
        // A last line without its end is read too.
        assert!(scan.in_reader(&b"1 1:1\n1 0:1"[..], 64));
    }

    #[test]
    fn words_name_the_choices() {
        assert_eq!(ZeroBased::from_word("yes"), Some(ZeroBased::Yes));
        assert_eq!(ZeroBased::from_word("no"), Some(ZeroBased::No));
        assert_eq!(ZeroBased::from_word("auto"), Some(ZeroBased::Auto));
        assert_eq!(ZeroBased::from_word("true"), None);
        assert_eq!(ZeroBased::default(), ZeroBased::Auto);
    }
}
