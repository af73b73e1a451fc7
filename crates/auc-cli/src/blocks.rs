//! Parallel passes over plain LIBSVM files: a file is cut into blocks of whole lines, a window of
//! blocks (two per thread of the current rayon pool, at most [`WINDOW`]) is parsed (and
//! summarized by the caller) in parallel, and the blocks' results are handed back **in file
//! order**, so they do not depend on the window. Used by the moment pass of
//! the learners fitted from moments and by the first pass (ranges and labels) of streamed
//! training, whose results merge exactly, so they do not depend on the number of threads.
//!
//! Only a plain (not gzipped) LIBSVM file can be cut anywhere at a line end; CSV files (a header,
//! quoted fields), gzip and standard input are read by one `RowStream` instead.

use std::io::Read;
use std::path::Path;

use auc_data::{DataError, Format, RawData, ReadOptions, RowStream};
use rayon::prelude::*;

use crate::output::Error;

/// The most blocks parsed in parallel before their results are handed on (in order); a window
/// holds two per thread, so memory stays a few blocks per core.
pub(crate) const WINDOW: usize = 16;

/// The default block size.
pub(crate) const BLOCK_BYTES: usize = 4 << 20;

/// Whether `path` is a plain LIBSVM file (by `opts.format` and its name; not gzip, not standard
/// input), which [`for_each`] can cut into blocks.
pub(crate) fn plain_libsvm(path: &Path, opts: &ReadOptions) -> Result<bool, Error> {
    let name = path.display().to_string();
    if path.as_os_str() == auc_data::STDIN || opts.format.resolve(&name) == Format::Csv {
        return Ok(false);
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("{name}: {e}"))?;
    if !meta.is_file() {
        return Ok(false);
    }
    let mut file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut magic = [0u8; 2];
    let n = read_full(&mut file, &mut magic).map_err(|e| format!("{name}: {e}"))?;
    Ok(!(n == 2 && magic == [0x1f, 0x8b]))
}

/// Parses the plain LIBSVM file `path` in blocks of about `block_bytes` (see the module docs):
/// `each` turns a block's rows into a result on a worker thread, `merge` receives the results in
/// file order with the bytes read so far. A parse error names the line counted from the start
/// of the file; errors of `each` and `merge` are returned as they are.
pub(crate) fn for_each<T: Send>(
    path: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
    each: impl Fn(RawData) -> Result<T, Error> + Sync,
    mut merge: impl FnMut(T, u64) -> Result<(), Error>,
) -> Result<(), Error> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut blocks = Blocks {
        file,
        size: block_bytes.max(1),
        carry: Vec::new(),
        offset: 0,
        done: false,
    };
    let width = (2 * rayon::current_num_threads()).clamp(2, WINDOW);
    loop {
        let mut window = Vec::with_capacity(width);
        while window.len() < width {
            match blocks.next_block().map_err(|e| format!("{name}: {e}"))? {
                Some(b) => window.push(b),
                None => break,
            }
        }
        if window.is_empty() {
            break;
        }
        let parts: Vec<Result<T, Error>> = window
            .par_iter()
            .map(|b| {
                let raw = RowStream::new(&b.bytes[..], &name, opts)
                    .and_then(RowStream::read_all)
                    .map_err(|e| at_file_line(e, path, b.offset))?;
                each(raw)
            })
            .collect();
        for (b, part) in window.iter().zip(parts) {
            merge(part?, b.offset + b.bytes.len() as u64)?;
        }
        if window.len() < width {
            break;
        }
    }
    Ok(())
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A block of whole lines and where it starts in the file.
struct Block {
    offset: u64,
    bytes: Vec<u8>,
}

/// Cuts a file into blocks of whole lines of about `size` bytes.
struct Blocks {
    file: std::fs::File,
    size: usize,
    carry: Vec<u8>,
    offset: u64,
    done: bool,
}

impl Blocks {
    /// The next block (`None` at the end of the file).
    fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        if self.done && self.carry.is_empty() {
            return Ok(None);
        }
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            if !self.done {
                let start = buf.len();
                buf.resize(start + self.size, 0);
                let n = read_full(&mut self.file, &mut buf[start..])?;
                buf.truncate(start + n);
                if n < self.size {
                    self.done = true;
                }
            }
            match buf.iter().rposition(|&b| b == b'\n') {
                Some(k) if !self.done || k + 1 < buf.len() => {
                    self.carry = buf[k + 1..].to_vec();
                    buf.truncate(k + 1);
                    break;
                }
                _ if self.done => break,
                // A line longer than a block: read on.
                _ => {}
            }
        }
        if buf.is_empty() {
            return Ok(None);
        }
        let offset = self.offset;
        self.offset += buf.len() as u64;
        Ok(Some(Block { offset, bytes: buf }))
    }
}

/// A block's parse error with its line number counted from the start of the file (the block
/// starts at byte `offset`).
fn at_file_line(mut e: DataError, path: &Path, offset: u64) -> Error {
    if let DataError::Parse { line, .. } = &mut e {
        let before = std::fs::File::open(path).and_then(|f| {
            let mut r = std::io::BufReader::new(f).take(offset);
            let mut buf = vec![0u8; 1 << 16];
            let mut count = 0usize;
            loop {
                let n = r.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                count += buf[..n].iter().filter(|&&b| b == b'\n').count();
            }
            Ok(count)
        });
        if let Ok(n) = before {
            *line += n;
        }
    }
    Box::new(e)
}
