//! Reading text line by line into one reused buffer, for both readers.

use std::io::BufRead;

use crate::DataError;

/// Yields the lines of a reader as bytes, without their `\n` or `\r\n` ending, counting them
/// from 1. One buffer is reused, so reading allocates only when a line outgrows it.
pub(crate) struct Lines<'s, R> {
    reader: R,
    source: &'s str,
    buf: Vec<u8>,
    line_no: usize,
}

impl<'s, R: BufRead> Lines<'s, R> {
    /// Lines of `reader`; `source` names it in I/O errors.
    pub(crate) fn new(reader: R, source: &'s str) -> Self {
        Self {
            reader,
            source,
            buf: Vec::with_capacity(1024),
            line_no: 0,
        }
    }

    /// The next line and its 1-based number, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, DataError> {
        self.buf.clear();
        let read = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| DataError::Io {
                file: self.source.to_string(),
                source: e,
            })?;
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
        let mut l = Lines::new("a\r\nb\n\nc".as_bytes(), "t");
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
