//! Reading text line by line into one reused buffer, for the LIBSVM reader.

use std::io::{self, BufRead};

/// Yields the lines of a reader as bytes, without their `\n` or `\r\n` ending, counting them
/// from 1. One buffer is reused, so reading allocates only when a line outgrows it.
pub(crate) struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line_no: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`.
    pub(crate) fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::with_capacity(1024),
            line_no: 0,
        }
    }

    /// The reader.
    pub(crate) fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The next line and its 1-based number, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<(usize, &[u8])>> {
        self.buf.clear();
        let read = self.reader.read_until(b'\n', &mut self.buf)?;
        if read == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        let mut line = self.buf.as_slice();
        if let Some(l) = line.strip_suffix(b"\n") {
            line = l;
        }
        if let Some(l) = line.strip_suffix(b"\r") {
            line = l;
        }
        Ok(Some((self.line_no, line)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_stripped_and_lines_counted() {
        let mut l = Lines::new("a\r\nb\n\nc".as_bytes());
        let mut seen = Vec::new();
        while let Some((n, line)) = l.next_line().unwrap() {
            seen.push((n, line.to_vec()));
        }
        let want: Vec<(usize, Vec<u8>)> = vec![
            (1, b"a".to_vec()),
            (2, b"b".to_vec()),
            (3, b"".to_vec()),
            (4, b"c".to_vec()),
        ];
        assert_eq!(seen, want);
    }
}
