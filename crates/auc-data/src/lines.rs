//! Reading text line by line into one reused buffer, no line longer than a cap.
//!
//! Every reader of the data layer goes through a cap on what one line may hold
//! ([`crate::ReadOptions::max_line_bytes`]): without it, an input without a newline (`/dev/zero`,
//! a decompressed gzip bomb, one endless comment or run of spaces) would be buffered whole before
//! anything could be said about it. With it, a line is refused as soon as it outgrows the cap, so
//! reading takes at most the cap plus one buffer of memory whatever the input.

use std::io::{self, BufRead};

/// The default cap on the bytes of one line (or CSV record), 8 MiB: a LIBSVM line of 500,000
/// features, or a CSV row of 400,000 columns, fits; an input without line ends is refused after
/// reading 8 MiB of it.
pub const DEFAULT_MAX_LINE_BYTES: usize = 8 << 20;

/// Why [`Lines::next_line`] gave no line.
#[derive(Debug)]
pub enum LineReadError {
    /// Reading failed.
    Io(io::Error),
    /// Line `line` (1-based) holds more than `limit` bytes before its line end.
    TooLong {
        /// The 1-based line number.
        line: usize,
        /// The cap.
        limit: usize,
    },
}

impl std::fmt::Display for LineReadError {
    /// As [`crate::DataError`] shows a line-cap error, without the file name in front.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineReadError::Io(e) => write!(f, "{e}"),
            LineReadError::TooLong { line, limit } => write!(
                f,
                "{line}:{}: {}",
                limit.saturating_add(1),
                crate::ParseErrorKind::LineTooLong { limit: *limit }
            ),
        }
    }
}

impl std::error::Error for LineReadError {}

/// Yields the lines of a reader as bytes, without their `\n` or `\r\n` ending, counting them
/// from 1. A line that lies whole in the reader's buffer is handed out in place, without a copy;
/// one that straddles its end is copied into one reused buffer, so reading allocates only when
/// such a line outgrows it, and never past the cap.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line_no: usize,
    max: usize,
    /// Bytes of the line last handed out in place, consumed from the reader on the next call.
    pending: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, each at most `max_line_bytes` bytes long (its line end not counted).
    pub fn new(reader: R, max_line_bytes: usize) -> Self {
        Self {
            reader,
            buf: Vec::with_capacity(1024),
            line_no: 0,
            max: max_line_bytes,
            pending: 0,
        }
    }

    /// The reader. The line last handed out may still be in its buffer ([`Lines::held`]).
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// Bytes of the line last handed out that the reader still holds (it was handed out in
    /// place; they are consumed on the next call).
    pub fn held(&self) -> usize {
        self.pending
    }

    /// The next line and its 1-based number, or `None` at the end of the input. A line longer
    /// than the cap is an error once the cap (plus a `\r` that may end it) is exceeded, without
    /// reading the rest of it.
    pub fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, LineReadError> {
        if self.pending > 0 {
            self.reader.consume(std::mem::take(&mut self.pending));
        }
        // In place: the reader's buffer holds the whole line and its `\n`. The buffer is asked
        // for twice (a borrow returned from one branch cannot be reused in another); without a
        // `consume` in between, a `BufRead` hands out the same bytes again (its contract: the
        // buffer is refilled only when empty), which is checked.
        let whole = loop {
            match self.reader.fill_buf() {
                Ok(avail) => {
                    break memchr::memchr(b'\n', avail).filter(|&i| i < self.max.saturating_add(2));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(LineReadError::Io(e)),
            }
        };
        if let Some(i) = whole {
            let avail = self.reader.fill_buf().map_err(LineReadError::Io)?;
            let Some(line) = avail.get(..=i).filter(|l| l.ends_with(b"\n")) else {
                return Err(LineReadError::Io(io::Error::other(
                    "the reader changed its buffer without a consume",
                )));
            };
            self.line_no += 1;
            self.pending = i + 1;
            let line = ending_stripped(line);
            if line.len() > self.max {
                return Err(LineReadError::TooLong {
                    line: self.line_no,
                    limit: self.max,
                });
            }
            return Ok(Some((self.line_no, line)));
        }
        self.buf.clear();
        let mut ended = false;
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(LineReadError::Io(e)),
            };
            if avail.is_empty() {
                break;
            }
            let (take, found) = match memchr::memchr(b'\n', avail) {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            // `max + 2` leaves room for the `\r\n` ending; the content is checked below.
            if self.buf.len() + take > self.max.saturating_add(2) {
                return Err(LineReadError::TooLong {
                    line: self.line_no + 1,
                    limit: self.max,
                });
            }
            self.buf.extend_from_slice(&avail[..take]);
            self.reader.consume(take);
            if found {
                ended = true;
                break;
            }
        }
        if self.buf.is_empty() && !ended {
            return Ok(None);
        }
        self.line_no += 1;
        let line = ending_stripped(&self.buf);
        if line.len() > self.max {
            return Err(LineReadError::TooLong {
                line: self.line_no,
                limit: self.max,
            });
        }
        Ok(Some((self.line_no, line)))
    }
}

/// `line` without its `\n` or `\r\n` ending.
fn ending_stripped(mut line: &[u8]) -> &[u8] {
    if let Some(l) = line.strip_suffix(b"\n") {
        line = l;
    }
    if let Some(l) = line.strip_suffix(b"\r") {
        line = l;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `text` read through a small buffer (lines copied) and through a large one
    /// (lines in place), which agree.
    fn all(text: &[u8], max: usize) -> Result<Vec<(usize, Vec<u8>)>, usize> {
        let small = all_with(text, max, 3);
        assert_eq!(small, all_with(text, max, 1 << 10));
        assert_eq!(small, all_with(text, max, 7));
        small
    }

    fn all_with(text: &[u8], max: usize, buffer: usize) -> Result<Vec<(usize, Vec<u8>)>, usize> {
        let mut l = Lines::new(io::BufReader::with_capacity(buffer, text), max);
        let mut seen = Vec::new();
        loop {
            match l.next_line() {
                Ok(Some((n, line))) => seen.push((n, line.to_vec())),
                Ok(None) => return Ok(seen),
                Err(LineReadError::TooLong { line, .. }) => return Err(line),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn endings_are_stripped_and_lines_counted() {
        let want: Vec<(usize, Vec<u8>)> = vec![
            (1, b"a".to_vec()),
            (2, b"b".to_vec()),
            (3, b"".to_vec()),
            (4, b"c".to_vec()),
        ];
        assert_eq!(all(b"a\r\nb\n\nc", 10), Ok(want));
    }

    #[test]
    fn a_line_of_exactly_the_cap_passes_and_one_more_byte_fails() {
        assert_eq!(all(b"abcd\r\nxy\n", 4).unwrap().len(), 2);
        assert_eq!(all(b"abcd", 4).unwrap().len(), 1);
        assert_eq!(all(b"ab\nabcde\n", 4), Err(2));
        assert_eq!(all(b"ab\nabcd\r\r\n", 4), Err(2));
        assert_eq!(all(b"abcde", 4), Err(1));
    }

    #[test]
    fn an_endless_line_is_refused_after_the_cap() {
        let mut l = Lines::new(io::BufReader::new(io::repeat(b' ')), 1000);
        assert!(matches!(
            l.next_line(),
            Err(LineReadError::TooLong {
                line: 1,
                limit: 1000
            })
        ));
        assert!(l.buf.capacity() < 1 << 16);
    }
}
