//! [`Reader`]: the rows of several inputs one after the other ([`RowStream`] per file, standard
//! input included, gzip detected), in chunks sized to about [`CHUNK_BYTES`] of prepared rows.

use std::io::BufRead;
use std::path::PathBuf;

use crate::Error;
use crate::blocks;
use auc_data::{CsvReading, DataError, ParseErrorKind, RawData, ReadOptions, Reading, RowStream};

/// Bytes of prepared rows a chunk aims at: a few chunks in flight stay far below the memory of
/// any learner state worth streaming, and a chunk is long enough that handing it over costs
/// nothing measurable.
pub const CHUNK_BYTES: u64 = 2 << 20;

/// Rows of the first chunk, before the size of a row is known.
pub const FIRST_ROWS: usize = 256;

/// The most rows in a chunk.
pub(crate) const MAX_ROWS: usize = 1 << 16;

/// Chunks waiting in the channel between the parser thread and the learner.
pub(crate) const IN_FLIGHT: usize = 2;

/// Bytes of the prepared rows a streamed pass holds at once when every row is dense with `dim`
/// features (min-max scaling): the chunks in the channel, the one being prepared and the one
/// being learned from, each at least one row; or, read in parallel blocks (`run_blocks`),
/// the window of blocks in the channel, the one waiting to enter it and the one being learned
/// from, each capped at a chunk's bytes (or one row).
pub fn dense_rows_bytes(dim: usize) -> u64 {
    let in_flight = (IN_FLIGHT + 2).max(blocks::window() + 2) as u64;
    in_flight.saturating_mul(CHUNK_BYTES.max((dim as u64).saturating_mul(8)))
}

/// Distinct labels a first pass counts; beyond them the default positive class (which needs every
/// label's count) is refused, and `--positive` is asked for.
pub const MAX_LABELS: usize = 1 << 16;

type Source = RowStream<Box<dyn BufRead + Send>>;

/// Whether every path names a regular file, which can be read twice (standard input, pipes and
/// process substitutions cannot).
pub fn rereadable(paths: &[PathBuf]) -> bool {
    paths.iter().all(|p| {
        p.as_os_str() != auc_data::STDIN && std::fs::metadata(p).is_ok_and(|m| m.is_file())
    })
}

/// An empty chunk buffer.
pub(crate) fn empty_raw() -> RawData {
    RawData::concat(Vec::new())
}

/// The rows of several inputs, one after the other, in chunks.
pub struct Reader {
    pub(crate) paths: Vec<PathBuf>,
    next: usize,
    pub(crate) opts: ReadOptions,
    /// Rows still allowed by `--limit`.
    pub(crate) left: Option<usize>,
    stream: Option<Source>,
    first_csv: Option<CsvReading>,
    reading: Option<Reading>,
    rows_next: usize,
    rows: u64,
    bytes_done: u64,
    dim: usize,
    total: Option<u64>,
    /// Prepared rows are dense with this many features at least (sizes the chunks).
    dense_dim: Option<usize>,
    /// Added to an error about an index past a fixed dimension (`auc predict`: the model's).
    pub(crate) wider: Option<String>,
    /// Whether the first input's rows carry labels, and its columns a table's schema ignores.
    labelled: bool,
    ignored: Vec<String>,
}

impl Reader {
    /// Opens the first input (which resolves a CSV file's layout, so errors in its header come
    /// first). `opts.limit` counts rows over all the inputs. Whether LIBSVM indices are 0-based
    /// is decided for all the inputs together ([`ReadOptions::zero_based_for`]).
    pub fn open(paths: &[PathBuf], opts: &ReadOptions) -> Result<Self, Error> {
        let opts = &opts.zero_based_for(paths);
        let total = paths
            .iter()
            .map(|p| {
                (p.as_os_str() != auc_data::STDIN)
                    .then(|| std::fs::metadata(p).ok().filter(|m| m.is_file()))
                    .flatten()
                    .map(|m| m.len())
            })
            .sum::<Option<u64>>();
        let mut r = Reader {
            paths: paths.to_vec(),
            next: 0,
            opts: opts.clone(),
            left: opts.limit,
            stream: None,
            first_csv: None,
            reading: None,
            rows_next: FIRST_ROWS,
            rows: 0,
            bytes_done: 0,
            dim: 0,
            total,
            dense_dim: None,
            wider: None,
            labelled: true,
            ignored: Vec::new(),
        };
        r.open_next()?;
        Ok(r)
    }

    /// Sizes chunks for prepared rows that are dense with at least `dim` features (min-max
    /// scaling).
    pub fn dense_output(&mut self, dim: usize) {
        self.dense_dim = Some(dim);
    }

    /// Adds `hint` to errors about an index past the fixed dimension.
    pub fn on_wider(&mut self, hint: String) {
        self.wider = Some(hint);
    }

    /// Closes the current input and opens the next; `false` when there is none (or the limit is
    /// reached).
    fn open_next(&mut self) -> Result<bool, Error> {
        if let Some(s) = self.stream.take() {
            self.bytes_done += s.bytes_read();
        }
        if self.next == self.paths.len() || self.left == Some(0) {
            return Ok(false);
        }
        let path = &self.paths[self.next];
        let mut o = self.opts.clone();
        o.limit = self.left;
        let s = RowStream::open(path, &o)?;
        if let Some(csv) = s.reading().csv() {
            match &self.first_csv {
                Some(first) => first.check(csv, &path.display().to_string())?,
                None => self.first_csv = Some(csv.clone()),
            }
        }
        match &self.reading {
            Some(first) => {
                first.check_index_base(s.reading(), &path.display().to_string())?;
                if s.labelled() != self.labelled {
                    return Err(Error::input(format!(
                        "{}: {} the label column, and the first file {}: score files with and without labels apart",
                        path.display(),
                        if s.labelled() { "has" } else { "lacks" },
                        if self.labelled { "has it" } else { "does not" },
                    )));
                }
            }
            None => {
                self.reading = Some(s.reading().clone());
                self.labelled = s.labelled();
                self.ignored = s.ignored_columns().to_vec();
            }
        }
        self.stream = Some(s);
        self.next += 1;
        Ok(true)
    }

    /// Replaces `raw`'s rows by the next chunk's (reusing its buffers) and returns how many:
    /// 0 only at the end of the last input or of the limit. `raw`'s dimension is that of the
    /// input it came from; [`Reader::dim`] is the largest over the inputs so far.
    pub fn read(&mut self, raw: &mut RawData) -> Result<usize, Error> {
        loop {
            let want = self.rows_next.min(self.left.unwrap_or(usize::MAX));
            let Some(s) = self.stream.as_mut() else {
                return Ok(0);
            };
            if want == 0 {
                return Ok(0);
            }
            let n = s.read_chunk(raw, want).map_err(|e| self.widen(e))?;
            if n == 0 {
                if self.open_next()? {
                    continue;
                }
                return Ok(0);
            }
            self.rows += n as u64;
            if let Some(l) = &mut self.left {
                *l -= n;
            }
            self.dim = self.dim.max(raw.dim());
            let dense = self.dense_dim.map_or(0, |d| 8 * d.max(self.dim) as u64);
            self.rows_next = next_rows(n, raw.stored_bytes(), dense);
            return Ok(n);
        }
    }

    fn widen(&self, e: DataError) -> Error {
        widen(self.wider.as_deref(), e)
    }

    /// The name of the input being read, as errors name it.
    pub fn source(&self) -> String {
        match &self.stream {
            Some(s) => s.source().to_owned(),
            None => self
                .paths
                .last()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }

    /// Bytes taken from the inputs so far (compressed bytes for gzip).
    pub fn bytes(&self) -> u64 {
        self.bytes_done + self.stream.as_ref().map_or(0, RowStream::bytes_read)
    }

    /// The inputs' total size, when every one is a regular file.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// Rows read so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The largest dimension of the inputs so far.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Whether the rows carry labels: always, except files read by a table's schema that lack
    /// its label column (rows to score).
    pub fn labelled(&self) -> bool {
        self.labelled
    }

    /// The first input's columns that a table's schema does not use.
    pub fn ignored_columns(&self) -> &[String] {
        &self.ignored
    }

    /// How the first input is read.
    pub fn reading(&self) -> Reading {
        self.reading.clone().unwrap_or(Reading::Libsvm)
    }
}

/// `e` with `hint` added when it is about an index past a fixed dimension.
pub(crate) fn widen(hint: Option<&str>, e: DataError) -> Error {
    let wider = matches!(
        &e,
        DataError::Parse {
            kind: ParseErrorKind::IndexExceedsDim { .. } | ParseErrorKind::TooManyFeatures { .. },
            ..
        }
    );
    match (hint, wider) {
        (Some(hint), true) => Error::Data {
            source: e,
            hint: Some(hint.to_owned()),
        },
        _ => e.into(),
    }
}

/// The rows a reader asks for after a chunk of `n` rows taking `stored` bytes as read, when each
/// prepared row takes at least `dense` bytes: about [`CHUNK_BYTES`] of rows, at most four times
/// the last chunk (and at least [`FIRST_ROWS`]).
pub(crate) fn next_rows(n: usize, stored: u64, dense: u64) -> usize {
    let per_row = (stored / n as u64).max(dense).max(1);
    let fit = usize::try_from(CHUNK_BYTES / per_row).unwrap_or(MAX_ROWS);
    fit.clamp(1, MAX_ROWS).min(4 * n.max(FIRST_ROWS))
}
