//! Parallel passes over plain LIBSVM files: a file is cut into blocks of whole lines, a window of
//! blocks (two per thread of the current rayon pool, at most [`WINDOW`]) is parsed (and
//! summarized by the caller) in parallel, and the blocks' results are handed back **in file
//! order**, so they do not depend on the window. Used by the moment pass of
//! the learners fitted from moments and by the first pass (ranges and labels) of streamed
//! training, whose results merge exactly, so they do not depend on the number of threads.
//!
//! Only a plain (not gzipped) LIBSVM file can be cut anywhere at a line end; CSV files (a header,
//! quoted fields), Parquet and Arrow IPC files, gzip and standard input are read by one
//! `RowStream` instead.

use std::io::Read;
use std::path::{Path, PathBuf};

use auc_data::{DataError, Format, RawData, ReadOptions, RowStream, Tallies};
use rayon::prelude::*;

use crate::Error;

/// The most blocks parsed in parallel before their results are handed on (in order); a window
/// holds two per thread, so memory stays a few blocks per core.
pub const WINDOW: usize = 16;

/// The default block size.
pub const BLOCK_BYTES: usize = 4 << 20;

/// Whether `path` is a plain LIBSVM file (by `opts.format` and its name; not gzip, not standard
/// input), which [`for_each`] can cut into blocks.
pub fn plain_libsvm(path: &Path, opts: &ReadOptions) -> Result<bool, Error> {
    let name = path.display().to_string();
    if path.as_os_str() == auc_data::STDIN || Format::for_file(opts, &name) != Format::Libsvm {
        return Ok(false);
    }
    let meta = std::fs::metadata(path).map_err(|e| Error::io(&name, e))?;
    if !meta.is_file() {
        return Ok(false);
    }
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
    let mut magic = [0u8; 2];
    let n = read_full(&mut file, &mut magic).map_err(|e| Error::io(&name, e))?;
    Ok(!(n == 2 && magic == [0x1f, 0x8b]))
}

/// Parses the plain LIBSVM file `path` in blocks of about `block_bytes` (see the module docs):
/// `each` turns a block's rows into a result on a worker thread, `merge` receives the results in
/// file order with the bytes read so far. A parse error names the line counted from the start
/// of the file; errors of `each` and `merge` (of any type an engine error converts into) are
/// returned as they are. Whether the indices are 0-based is decided for the whole file first.
pub fn for_each<T: Send, E: From<Error> + Send>(
    path: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
    each: impl Fn(RawData) -> Result<T, E> + Sync,
    mut merge: impl FnMut(T, u64) -> Result<(), E>,
) -> Result<(), E> {
    let name = path.display().to_string();
    let opts = &opts.zero_based_for(&[path]);
    let mut blocks = Blocks::open(path, block_bytes, usize::MAX, opts.max_line_bytes)
        .map_err(|e| Error::io(&name, e))?
        .tallied(opts.tallies.clone());
    let width = window();
    loop {
        let mut window = Vec::with_capacity(width);
        while window.len() < width {
            match blocks.next_block().map_err(|e| Error::io(&name, e))? {
                Some(b) => window.push(b),
                None => break,
            }
        }
        if window.is_empty() {
            break;
        }
        let parts: Vec<Result<T, E>> = window
            .par_iter()
            .map(|b| each(parse(b, path, opts).map_err(|e| E::from(e.into()))?))
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

/// Blocks parsed in parallel at once: two per thread of the current rayon pool, at most
/// [`WINDOW`].
pub fn window() -> usize {
    (2 * rayon::current_num_threads()).clamp(2, WINDOW)
}

/// The rows of `block` of the LIBSVM file `path`; a parse error names the line counted from the
/// start of the file. A block is read with the index base of the whole file: callers decide it
/// once ([`ReadOptions::zero_based_for`]), else the file is scanned here.
pub fn parse(block: &Block, path: &Path, opts: &ReadOptions) -> Result<RawData, DataError> {
    let name = path.display().to_string();
    let opts = &opts.zero_based_for(&[path]);
    RowStream::new(&block.bytes[..], &name, opts)
        .and_then(RowStream::read_all)
        .map_err(|e| at_file_line(e, path, block.offset))
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
pub struct Block {
    /// The byte of the file the block starts at.
    pub offset: u64,
    /// The lines, each with its line end (the last line of a file may lack one).
    pub bytes: Vec<u8>,
}

/// Cuts a file into blocks of whole lines of about `size` bytes, and of at most `max_lines`
/// lines. A line that outgrows the line cap ends its block unfinished, holding more than the cap
/// in one line, which the block's parser (with the same cap) refuses at its line: no line is
/// read beyond the cap plus one block.
pub struct Blocks {
    file: std::fs::File,
    size: usize,
    max_lines: usize,
    max_line_bytes: usize,
    carry: Vec<u8>,
    offset: u64,
    done: bool,
    /// Where the bytes read are tallied, under `path`.
    tallies: Option<(Tallies, PathBuf)>,
    path: PathBuf,
}

/// The position of the `n`-th line end of `buf` (`n >= 1`), if it has that many.
fn nth_line_end(buf: &[u8], n: usize) -> Option<usize> {
    if n == usize::MAX {
        return None;
    }
    buf.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(n.max(1) - 1)
        .map(|(k, _)| k)
}

impl Blocks {
    /// The blocks of the file at `path`: about `size` bytes each (cut at the last line end), and
    /// at most `max_lines` lines (`usize::MAX`: any number), which bounds the rows of a block
    /// when each row takes much more memory prepared than as text (min-max scaling makes rows
    /// dense). A line longer than `max_line_bytes` is cut off (see [`Blocks`]).
    pub fn open(
        path: &Path,
        size: usize,
        max_lines: usize,
        max_line_bytes: usize,
    ) -> std::io::Result<Self> {
        Ok(Blocks {
            file: std::fs::File::open(path)?,
            size: size.max(1),
            max_lines,
            max_line_bytes,
            carry: Vec::new(),
            offset: 0,
            done: false,
            tallies: None,
            path: path.to_path_buf(),
        })
    }

    /// Adds the bytes read to `tallies` (`opts.tallies` of the pass), under this file's path.
    pub fn tallied(mut self, tallies: Option<Tallies>) -> Self {
        self.tallies = tallies.map(|t| (t, self.path.clone()));
        self
    }

    /// The next block (`None` at the end of the file).
    pub fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        if self.done && self.carry.is_empty() {
            return Ok(None);
        }
        let mut buf = std::mem::take(&mut self.carry);
        if let Some(k) = nth_line_end(&buf, self.max_lines) {
            // The lines left over hold a whole block already: no read (the carry stays below
            // two reads).
            self.carry = buf[k + 1..].to_vec();
            buf.truncate(k + 1);
            return Ok(Some(self.take(buf)));
        }
        loop {
            if !self.done {
                // `read_to_end` reads into the spare capacity without clearing it first.
                buf.reserve_exact(self.size);
                let start = buf.len();
                let n = (&mut self.file)
                    .take(self.size as u64)
                    .read_to_end(&mut buf)?;
                if let Some((t, path)) = &self.tallies {
                    t.add(path, &buf[start..]);
                }
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
                // One line past the cap (and its `\r\n`): handed on unfinished, for the parser
                // to refuse.
                _ if buf.len() > self.max_line_bytes.saturating_add(2) => {
                    self.done = true;
                    break;
                }
                // A line longer than a block: read on.
                _ => {}
            }
        }
        if let Some(k) = nth_line_end(&buf, self.max_lines)
            && k + 1 < buf.len()
        {
            let mut rest = buf[k + 1..].to_vec();
            rest.extend_from_slice(&self.carry);
            self.carry = rest;
            buf.truncate(k + 1);
        }
        if buf.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.take(buf)))
    }

    /// `buf` as the block at the current offset, which moves past it.
    fn take(&mut self, buf: Vec<u8>) -> Block {
        let offset = self.offset;
        self.offset += buf.len() as u64;
        Block { offset, bytes: buf }
    }
}

/// A block's parse error with its line number counted from the start of the file (the block
/// starts at byte `offset`).
fn at_file_line(mut e: DataError, path: &Path, offset: u64) -> DataError {
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
    e
}
