//! Where the bytes come from: a file or standard input (`-`), decompressed when it is gzip.
//!
//! gzip is recognized by its two magic bytes `1f 8b` (RFC 1952, section 2.3.1), not by the file
//! name, so a compressed stream on stdin is read the same way as `data.libsvm.gz`. Concatenated
//! gzip members are read one after the other, as `gzip -d` does.
//!
//! Every byte taken from the underlying reader is counted ([`Decoded::consumed`]), so a progress
//! display can compare it with the file's size; for gzip input that is the compressed count.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::bufread::MultiGzDecoder;

use crate::DataError;
use crate::tally::Tallies;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Buffer size of file and stdin readers, and of the decompressed side of a gzip reader.
pub(crate) const BUFFER: usize = 1 << 16;

/// An I/O error of the underlying reader, wrapped so that it can be told apart from a
/// decompression error after it has passed through the gzip decoder.
#[derive(Debug)]
struct SourceError(io::Error);

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {}

fn mark(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), SourceError(e))
}

/// A reader that counts the bytes consumed from it and serves its first (up to) two bytes from a
/// small head buffer, which is how the gzip magic is looked at without losing bytes, however few
/// bytes the first read of a pipe returns.
pub(crate) struct Counting<R> {
    inner: R,
    head: [u8; 2],
    head_len: usize,
    head_pos: usize,
    consumed: u64,
}

impl<R: BufRead> Counting<R> {
    /// Takes the first two bytes of `inner` (fewer if it is shorter) into the head.
    fn new(mut inner: R) -> io::Result<Self> {
        let mut head = [0u8; 2];
        let mut head_len = 0;
        while head_len < head.len() {
            let buf = match inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(mark(e)),
            };
            if buf.is_empty() {
                break;
            }
            let k = buf.len().min(head.len() - head_len);
            head[head_len..head_len + k].copy_from_slice(&buf[..k]);
            inner.consume(k);
            head_len += k;
        }
        Ok(Self {
            inner,
            head,
            head_len,
            head_pos: 0,
            consumed: 0,
        })
    }

    fn is_gzip(&self) -> bool {
        self.head[..self.head_len] == GZIP_MAGIC
    }
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let k = buf.len().min(out.len());
        out[..k].copy_from_slice(&buf[..k]);
        self.consume(k);
        Ok(k)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.head_pos < self.head_len {
            return Ok(&self.head[self.head_pos..self.head_len]);
        }
        self.inner.fill_buf().map_err(mark)
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        let in_head = self.head_len - self.head_pos;
        if in_head > 0 {
            let k = amt.min(in_head);
            self.head_pos += k;
            if amt > k {
                self.inner.consume(amt - k);
            }
        } else {
            self.inner.consume(amt);
        }
    }
}

/// The text of an input: its bytes as they are, or decompressed.
pub(crate) enum Decoded<R> {
    /// Plain text.
    Plain(Counting<R>),
    /// gzip data, decompressed as it is read.
    Gzip(BufReader<MultiGzDecoder<Counting<R>>>),
}

impl<R: BufRead> Decoded<R> {
    /// `reader`'s text, decompressed if its first bytes are the gzip magic. `source` names it in
    /// errors.
    pub(crate) fn new(reader: R, source: &str) -> Result<Self, DataError> {
        let counting = Counting::new(reader).map_err(|e| io_error(source, false, e))?;
        Ok(if counting.is_gzip() {
            Decoded::Gzip(BufReader::with_capacity(
                BUFFER,
                MultiGzDecoder::new(counting),
            ))
        } else {
            Decoded::Plain(counting)
        })
    }

    /// Whether the input is gzip.
    pub(crate) fn is_gzip(&self) -> bool {
        matches!(self, Decoded::Gzip(_))
    }

    /// Bytes taken from the underlying reader so far (compressed bytes for gzip input; the
    /// decoder reads ahead, so this may run a buffer ahead of the text parsed).
    pub(crate) fn consumed(&self) -> u64 {
        match self {
            Decoded::Plain(c) => c.consumed,
            Decoded::Gzip(g) => g.get_ref().get_ref().consumed,
        }
    }
}

impl<R: BufRead> Read for Decoded<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoded::Plain(c) => c.read(out),
            Decoded::Gzip(g) => g.read(out),
        }
    }
}

impl<R: BufRead> BufRead for Decoded<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Decoded::Plain(c) => c.fill_buf(),
            Decoded::Gzip(g) => g.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Decoded::Plain(c) => c.consume(amt),
            Decoded::Gzip(g) => g.consume(amt),
        }
    }
}

/// The [`DataError`] of an I/O error met while reading `source`: [`DataError::Io`] for an error of
/// the underlying reader, [`DataError::Gzip`] for one raised by the gzip decoder.
pub(crate) fn io_error(source: &str, gzip: bool, e: io::Error) -> DataError {
    let file = source.to_string();
    if e.get_ref().is_some_and(|inner| inner.is::<SourceError>()) {
        let kind = e.kind();
        let inner = e
            .into_inner()
            .and_then(|b| b.downcast::<SourceError>().ok());
        let source = inner.map_or_else(|| io::Error::from(kind), |b| b.0);
        return DataError::Io { file, source };
    }
    if gzip {
        DataError::Gzip { file, source: e }
    } else {
        DataError::Io { file, source: e }
    }
}

/// A boxed reader of a file or of stdin.
pub(crate) type BoxedReader = Box<dyn BufRead + Send>;

/// The path that means standard input.
pub const STDIN: &str = "-";

/// Opens `path` for reading, or standard input when `path` is `-`, buffered.
pub(crate) fn open(path: &Path) -> Result<(BoxedReader, Option<u64>), DataError> {
    open_tallied(path, None)
}

/// [`open`], adding the bytes read from a file to `tallies` when given.
pub(crate) fn open_tallied(
    path: &Path,
    tallies: Option<&Tallies>,
) -> Result<(BoxedReader, Option<u64>), DataError> {
    if path.as_os_str() == STDIN {
        let reader = BufReader::with_capacity(BUFFER, io::stdin());
        return Ok((Box::new(reader), None));
    }
    let name = path.display().to_string();
    let file = File::open(path).map_err(|source| DataError::Io {
        file: name.clone(),
        source,
    })?;
    let len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let reader: BoxedReader = match tallies {
        Some(t) => Box::new(BufReader::with_capacity(BUFFER, t.reader(path, file))),
        None => Box::new(BufReader::with_capacity(BUFFER, file)),
    };
    Ok((reader, len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A reader that hands out one byte per call, like a slow pipe.
    struct OneByte<'a>(&'a [u8]);

    impl Read for OneByte<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.is_empty()) {
                (Some((&b, rest)), false) => {
                    out[0] = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn read_all<R: BufRead>(d: &mut Decoded<R>) -> Vec<u8> {
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn plain_text_passes_through_and_is_counted() {
        for text in [&b""[..], b"1", b"1 2:3\n", b"\x1f"] {
            let mut d = Decoded::new(text, "t").unwrap();
            assert!(!d.is_gzip());
            assert_eq!(read_all(&mut d), text);
            assert_eq!(d.consumed(), text.len() as u64);
        }
    }

    #[test]
    fn gzip_is_found_by_its_magic_even_one_byte_at_a_time() {
        let packed = gzip(b"1 1:2\n");
        let mut whole = Decoded::new(&packed[..], "t").unwrap();
        assert!(whole.is_gzip());
        assert_eq!(read_all(&mut whole), b"1 1:2\n");
        assert_eq!(whole.consumed(), packed.len() as u64);
        let slow = BufReader::with_capacity(1, OneByte(&packed));
        let mut d = Decoded::new(slow, "t").unwrap();
        assert!(d.is_gzip());
        assert_eq!(read_all(&mut d), b"1 1:2\n");
    }

    #[test]
    fn concatenated_members_are_all_read() {
        let mut two = gzip(b"1 1:1\n");
        two.extend(gzip(b"-1 2:1\n"));
        let mut d = Decoded::new(&two[..], "t").unwrap();
        assert_eq!(read_all(&mut d), b"1 1:1\n-1 2:1\n");
    }

    #[test]
    fn decoder_errors_are_gzip_errors_and_source_errors_are_io_errors() {
        let mut packed = gzip(b"1 1:2\n-1 2:3\n");
        let n = packed.len();
        packed[n / 2] ^= 0xff;
        packed.truncate(n - 3);
        let mut d = Decoded::new(&packed[..], "t.gz").unwrap();
        let e = d.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(matches!(io_error("t.gz", true, e), DataError::Gzip { .. }));

        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = Decoded::new(BufReader::new(Failing), "f").err().unwrap();
        assert_eq!(e.to_string(), "f: cannot read: disk on fire");
    }
}
