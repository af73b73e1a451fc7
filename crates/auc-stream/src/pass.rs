//! [`run`] drives a pass: the parser thread and the bounded channel, or both on one thread;
//! plain LIBSVM files are parsed and prepared in parallel blocks on the rayon pool instead,
//! handed on in file order (`run_blocks`), with the rows, the order and the learner's
//! dimension before each row of one parser.

use std::path::PathBuf;
use std::sync::{Arc, mpsc};

use crate::Error;
use crate::blocks;
use crate::reader::{CHUNK_BYTES, FIRST_ROWS, IN_FLIGHT, Reader, empty_raw, next_rows, widen};
use crate::shaper::{Seen, Shaper};
use auc_core::Dataset;
use auc_data::{ReadOptions, Reading, RowStream, Scaler};

/// One chunk of prepared rows, with where the pass stands.
pub struct Chunk {
    /// The rows.
    pub data: Dataset,
    /// The dimension a learner must have before it learns from a row, as `(row, dim)` in row
    /// order: `(0, data.dim())` for a chunk read by one parser; a block of a parallel pass whose
    /// dimension grows (a file read once) names the rows where the one parser's chunks would
    /// have grown it (see [`run`]).
    pub widths: Vec<(usize, usize)>,
    /// Rows of the pass before this chunk.
    pub before: u64,
    /// Input bytes read so far.
    pub bytes: u64,
}

/// What a finished pass read.
pub struct Done {
    /// Rows.
    pub rows: u64,
    /// The largest dimension of the inputs.
    pub dim: usize,
    /// How the first input is read.
    pub reading: Reading,
    /// The labels met.
    pub seen: Seen,
}

/// Reads every chunk of `reader`, prepares it with `prep` and hands it to `consume`, in order.
///
/// With `threaded`, parsing and preparing run on a thread of their own, at most two
/// chunks ahead of `consume` (a bounded channel), so a pass takes about as long as the slower of
/// the two; otherwise one thread does both in turn. An error of either side ends the pass; the
/// parser's is returned when it came first.
///
/// Threaded, plain LIBSVM files (without `--limit`) are parsed and prepared in parallel blocks
/// on the rayon pool instead, handed to `consume` in file order while later blocks are parsed
/// (`run_blocks`): one parser thread cannot keep up with a cheap learner. `consume` sees the
/// same rows in the same order, and a learner the same dimension before each row, as from one
/// parser, so a pass trains the same model byte for byte.
pub fn run<E: From<Error>>(
    mut reader: Reader,
    mut prep: Shaper,
    threaded: bool,
    mut consume: impl FnMut(Chunk) -> Result<(), E>,
) -> Result<Done, E> {
    if matches!(prep.transform.scaler(), Scaler::MinMax { .. }) {
        // Min-max scaling makes every row dense: size the chunks by the prepared rows.
        reader.dense_output(prep.min_dim);
    }
    if threaded && let Some(plan) = reader.block_plan(&prep)? {
        return run_blocks(reader, prep, plan, consume);
    }
    let mut produce = move |tx: &mut dyn FnMut(Chunk) -> bool| -> Result<Done, Error> {
        let mut raw = empty_raw();
        loop {
            let before = reader.rows();
            if reader.read(&mut raw)? == 0 {
                break;
            }
            let data = prep.apply(&raw, reader.dim(), before, &reader.source())?;
            let chunk = Chunk {
                widths: vec![(0, data.dim())],
                data,
                before,
                bytes: reader.bytes(),
            };
            if !tx(chunk) {
                break;
            }
        }
        Ok(Done {
            rows: reader.rows(),
            dim: reader.dim(),
            reading: reader.reading(),
            seen: prep.seen().clone(),
        })
    };
    if !threaded {
        let mut failed: Option<E> = None;
        let done = produce(&mut |chunk| match consume(chunk) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        })?;
        return match failed {
            Some(e) => Err(e),
            None => Ok(done),
        };
    }
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Chunk>(IN_FLIGHT);
        let parser = std::thread::Builder::new()
            .name("auc-parser".to_owned())
            .spawn_scoped(scope, move || produce(&mut |chunk| tx.send(chunk).is_ok()))
            .map_err(|e| Error::Thread(format!("cannot start the parser thread: {e}")))?;
        let mut failed: Option<E> = None;
        for chunk in rx.iter() {
            if let Err(e) = consume(chunk) {
                failed = Some(e);
                break;
            }
        }
        // Dropping the receiver makes the parser's next send fail, so it stops.
        drop(rx);
        let done = parser
            .join()
            .map_err(|_| Error::Thread("the parser thread failed".to_owned()))?;
        match (failed, done) {
            (Some(e), _) => Err(e),
            (None, done) => Ok(done?),
        }
    })
}

/// Text bytes of a block of the parallel learning pass: a quarter of the first pass's blocks,
/// since a block's prepared rows wait in memory until the learner takes them. The environment
/// variable `AUC_BLOCK_BYTES` overrides it (tests cut small files into many blocks with it).
const PASS_BLOCK_BYTES: usize = blocks::BLOCK_BYTES / 4;

/// How `run_blocks` cuts the inputs.
pub struct BlockPlan {
    /// Text bytes of a block.
    pub(crate) block_bytes: usize,
    /// Lines of a block at most (rows made dense by min-max scaling: about [`CHUNK_BYTES`] of
    /// prepared rows a block).
    max_lines: usize,
    /// The dimension is not fixed up front (a file read once): see [`Widths`].
    growing: bool,
}

impl Reader {
    /// How [`run_blocks`] would read these inputs, or `None` when they must be read by one
    /// parser: standard input, gzip, CSV, `--limit` (which counts rows in order), or a dimension
    /// that grows while the rows are made dense (min-max scaling from `--scale-from` on a file
    /// read once: a dense row's length is the dimension reached at the end of its chunk).
    pub(crate) fn block_plan(&self, prep: &Shaper) -> Result<Option<BlockPlan>, Error> {
        if self.left.is_some() || self.paths.is_empty() {
            return Ok(None);
        }
        for p in &self.paths {
            if !blocks::plain_libsvm(p, &self.opts)? {
                return Ok(None);
            }
        }
        // A shaper that caps the dimension (a scorer: rows never wider than its model) needs no
        // growth points and knows the width of its dense rows.
        let growing =
            self.opts.dim.is_none() && self.opts.hash_bits.is_none() && prep.max_dim.is_none();
        // Min-max scaling and a kernel map make every row dense; a reshaping stage is counted
        // as dense too (its rows are at most the output dimension wide).
        let dense =
            matches!(prep.transform.scaler(), Scaler::MinMax { .. }) || prep.transform.reshapes();
        if growing && dense {
            return Ok(None);
        }
        let max_lines = match dense {
            true => {
                let dim = prep
                    .max_dim
                    .unwrap_or(prep.min_dim.max(self.opts.dim.unwrap_or(0)));
                let row = 8 * (prep.transform.output_dim(dim) as u64).max(1);
                usize::try_from((CHUNK_BYTES / row).max(1)).unwrap_or(usize::MAX)
            }
            false => usize::MAX,
        };
        // A test knob: small blocks make many blocks of a small file.
        let block_bytes = std::env::var("AUC_BLOCK_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(PASS_BLOCK_BYTES);
        Ok(Some(BlockPlan {
            block_bytes,
            max_lines,
            growing,
        }))
    }
}

/// What the tasks of [`run_blocks`] share.
struct Shared {
    paths: Vec<PathBuf>,
    opts: ReadOptions,
    /// Prepares rows (its label checks run on the learner's side, in row order).
    prep: Shaper,
    wider: Option<String>,
    growing: bool,
}

/// A block parsed and prepared on the rayon pool.
struct Parsed {
    /// Index of the input in `Shared::paths`.
    file: usize,
    data: Dataset,
    /// Rows whose features past the shaper's `max_dim` were dropped.
    unseen: u64,
    /// The labels as written.
    labels: Vec<f64>,
    /// The block's dimension as its parser found it (indices of explicit zeros included).
    dim: usize,
    /// Stored entries of each row as read (a growing pass only).
    nnz: Vec<usize>,
    /// The block's text (a growing pass only), to find the dimension part way through it.
    text: Vec<u8>,
    /// The byte of the input after the block.
    end: u64,
}

/// What the block reader hands on, in file order.
enum Item {
    /// A block being parsed; its result arrives on the receiver.
    Block(mpsc::Receiver<Result<Parsed, Error>>),
    /// The end of an input.
    FileEnd,
}

/// Parses and prepares `block` of input `file`.
fn parse_block(shared: &Shared, file: usize, block: blocks::Block) -> Result<Parsed, Error> {
    let raw = blocks::parse(&block, &shared.paths[file], &shared.opts)
        .map_err(|e| widen(shared.wider.as_deref(), e))?;
    let nnz = match shared.growing {
        true => (0..raw.n()).map(|i| raw.row(i).nnz()).collect(),
        false => Vec::new(),
    };
    let labels = raw.raw_labels().to_vec();
    let dim = raw.dim();
    let (data, unseen) = shared.prep.rows_owned(raw, dim)?;
    Ok(Parsed {
        file,
        data,
        unseen,
        labels,
        dim,
        nnz,
        end: block.offset + block.bytes.len() as u64,
        text: if shared.growing {
            block.bytes
        } else {
            Vec::new()
        },
    })
}

/// Cuts the inputs into blocks, starts a task on the rayon pool for each and hands the tasks
/// on in order through `order`, which holds a window of them: the reader stops when the
/// learner is that far behind, and when it has gone (an error).
fn read_blocks(
    shared: &Arc<Shared>,
    plan: &BlockPlan,
    order: &mpsc::SyncSender<Item>,
) -> Result<(), Error> {
    for (file, path) in shared.paths.iter().enumerate() {
        let name = path.display().to_string();
        let cap = shared.opts.max_line_bytes;
        let mut blocks = blocks::Blocks::open(path, plan.block_bytes, plan.max_lines, cap)
            .map_err(|e| Error::io(&name, e))?
            .tallied(shared.opts.tallies.clone());
        while let Some(block) = blocks.next_block().map_err(|e| Error::io(&name, e))? {
            let (tx, rx) = mpsc::sync_channel(1);
            let task = Arc::clone(shared);
            rayon::spawn(move || {
                // The learner may have stopped (an error) and dropped the receiver.
                let _ = tx.send(parse_block(&task, file, block));
            });
            if order.send(Item::Block(rx)).is_err() {
                return Ok(());
            }
        }
        if order.send(Item::FileEnd).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// [`run`] over plain LIBSVM files in parallel blocks: a reader thread cuts the files into
/// blocks of whole lines ([`blocks::Blocks`]), each block is parsed and prepared by a task on
/// the rayon pool, and the calling thread takes the results in file order, checks their labels
/// in row order (as [`Shaper::apply`] does) and hands them to `consume`, while the next window of
/// blocks is parsed. Memory: a window of blocks ([`blocks::window`]) and their prepared rows,
/// whatever the number of rows.
///
/// A parse error names the line of the file ([`blocks::parse`]); the blocks before it are
/// handed on first, as one parser hands on the chunks before the one that holds it.
///
/// When the dimension is fixed (a first pass, `--dim`, `--hash-bits`, a model's), every block
/// has it and the learner never grows. When it grows (a file read once), the learner must grow
/// where one parser's chunks would have grown it, since a learner's arithmetic may depend on its
/// dimension (lane-wise sums): [`Widths`] replays the chunk sizes of [`Reader::read`] on the
/// blocks and names, in each block, the rows that start a chunk and the dimension that chunk
/// ends with.
pub(crate) fn run_blocks<E: From<Error>>(
    reader: Reader,
    mut prep: Shaper,
    plan: BlockPlan,
    mut consume: impl FnMut(Chunk) -> Result<(), E>,
) -> Result<Done, E> {
    let shared = Arc::new(Shared {
        paths: reader.paths.clone(),
        opts: reader.opts.clone(),
        prep: prep.clone(),
        wider: reader.wider.clone(),
        growing: plan.growing,
    });
    let reading = reader.reading();
    drop(reader);
    if let Some(t) = &shared.opts.tallies {
        // What the reader took when it opened the first input is read again by the blocks.
        t.clear();
    }
    let sizes: Vec<u64> = shared
        .paths
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .collect();
    std::thread::scope(|scope| {
        let (order_tx, order_rx) = mpsc::sync_channel::<Item>(blocks::window());
        let reader_shared = Arc::clone(&shared);
        let plan = &plan;
        let blocks_thread = std::thread::Builder::new()
            .name("auc-blocks".to_owned())
            .spawn_scoped(scope, move || read_blocks(&reader_shared, plan, &order_tx))
            .map_err(|e| Error::Thread(format!("cannot start the block reader thread: {e}")))?;
        let learned = take_blocks(&shared, &mut prep, order_rx, &sizes, &mut consume);
        // `take_blocks` dropped the receiver: the reader's next send fails, so it stops.
        let read = blocks_thread
            .join()
            .map_err(|_| Error::Thread("the block reader thread failed".to_owned()))?;
        let (rows, dim) = learned?;
        read?;
        Ok(Done {
            rows,
            dim,
            reading,
            seen: prep.seen().clone(),
        })
    })
}

/// The learner's side of [`run_blocks`]: takes the blocks in order, checks their labels and
/// hands them on; returns the rows and the largest dimension (`Reader::rows`, `Reader::dim`).
fn take_blocks<E: From<Error>>(
    shared: &Shared,
    prep: &mut Shaper,
    order: mpsc::Receiver<Item>,
    sizes: &[u64],
    consume: &mut impl FnMut(Chunk) -> Result<(), E>,
) -> Result<(u64, usize), E> {
    let mut rows = 0u64;
    let mut dim = 0usize;
    let mut file = 0usize;
    let mut done_bytes = 0u64;
    let mut widths = shared.growing.then(|| Widths::new(prep.min_dim));
    for item in order.iter() {
        match item {
            Item::Block(rx) => {
                let p = rx
                    .recv()
                    .map_err(|_| Error::Thread("a block parser task failed".to_owned()))??;
                let source = shared.paths[p.file].display().to_string();
                prep.check_labels(&p.labels, rows, &source)?;
                prep.count_unseen(p.unseen);
                let before = rows;
                let n = p.labels.len();
                rows += n as u64;
                if n > 0 {
                    dim = dim.max(p.dim);
                }
                let bytes = done_bytes + p.end;
                match &mut widths {
                    None if n == 0 => {}
                    None => consume(Chunk {
                        widths: vec![(0, p.data.dim())],
                        data: p.data,
                        before,
                        bytes,
                    })?,
                    Some(w) => {
                        w.push(p, before, bytes);
                        w.resolve(shared)?;
                        while let Some(c) = w.pop() {
                            consume(c)?;
                        }
                    }
                }
            }
            Item::FileEnd => {
                if let Some(w) = &mut widths {
                    w.end_file(rows);
                    w.resolve(shared)?;
                    while let Some(c) = w.pop() {
                        consume(c)?;
                    }
                }
                done_bytes += sizes.get(file).copied().unwrap_or(0);
                file += 1;
            }
        }
    }
    Ok((rows, dim))
}

/// A block waiting for the chunks that start in it to be resolved.
struct Pending {
    parsed: Parsed,
    /// Rows of the pass before the block.
    start: u64,
    /// Its input's dimension before the block (as its parser found it).
    dim_before: usize,
    /// Input bytes up to the end of the block, for progress.
    bytes: u64,
    /// The widths of [`Chunk::widths`] found so far.
    widths: Vec<(usize, usize)>,
}

impl Pending {
    fn n(&self) -> usize {
        self.parsed.labels.len()
    }
}

/// Replays, on the blocks of a pass whose dimension grows, the chunks one parser would have
/// read ([`Reader::read`]): each chunk asks for the rows [`next_rows`] gives after the last
/// one and ends at the end of its input; the learner grows, before the chunk's first row, to
/// the dimension the input has reached at the chunk's last row (at least the plan's). That
/// dimension counts indices written with a zero value, which the parsed rows do not keep: in a
/// block that widens its input, it is found by parsing the block again up to that row.
struct Widths {
    min_dim: usize,
    queue: std::collections::VecDeque<Pending>,
    /// The first row of the first chunk not resolved yet.
    next: u64,
    /// Rows that chunk asks for.
    rows_next: usize,
    /// The largest dimension at a chunk's end so far (`Reader::dim`).
    dim: usize,
    /// The row each finished input ends before, in input order.
    file_ends: Vec<u64>,
    /// The input of the last block taken, and its dimension so far.
    file: usize,
    file_dim: usize,
}

impl Widths {
    fn new(min_dim: usize) -> Self {
        Widths {
            min_dim,
            queue: std::collections::VecDeque::new(),
            next: 0,
            rows_next: FIRST_ROWS,
            dim: 0,
            file_ends: Vec::new(),
            file: 0,
            file_dim: 0,
        }
    }

    fn push(&mut self, parsed: Parsed, start: u64, bytes: u64) {
        if parsed.file != self.file {
            self.file = parsed.file;
            self.file_dim = 0;
        }
        let dim_before = self.file_dim;
        self.file_dim = self.file_dim.max(parsed.dim);
        self.queue.push_back(Pending {
            parsed,
            start,
            dim_before,
            bytes,
            widths: Vec::new(),
        });
    }

    /// The input holding row `rows` ends there.
    fn end_file(&mut self, rows: u64) {
        self.file_ends.push(rows);
    }

    /// The queued block holding row `row`.
    fn block_of(&self, row: u64) -> Option<usize> {
        self.queue
            .iter()
            .position(|b| b.start <= row && row < b.start + b.n() as u64)
    }

    /// The dimension of the input of block `k` after row `row` (which it holds).
    fn dim_after(&self, shared: &Shared, k: usize, row: u64) -> Result<usize, Error> {
        let b = &self.queue[k];
        if b.parsed.dim <= b.dim_before {
            return Ok(b.dim_before);
        }
        let rows = usize::try_from(row - b.start + 1).unwrap_or(usize::MAX);
        let name = shared.paths[b.parsed.file].display().to_string();
        let mut stream = RowStream::new(&b.parsed.text[..], &name, &shared.opts)?;
        let mut raw = empty_raw();
        stream.read_chunk(&mut raw, rows)?;
        Ok(stream.dim().max(b.dim_before))
    }

    /// Resolves every chunk whose rows have all arrived (or whose input has ended).
    fn resolve(&mut self, shared: &Shared) -> Result<(), Error> {
        loop {
            let Some(k) = self.block_of(self.next) else {
                return Ok(());
            };
            let file = self.queue[k].parsed.file;
            let received = self.queue.back().map_or(0, |b| b.start + b.n() as u64);
            let mut end = self.next + self.rows_next as u64;
            if let Some(&e) = self.file_ends.get(file) {
                end = end.min(e);
            } else if end > received {
                return Ok(());
            }
            let last = self
                .block_of(end - 1)
                .expect("the chunk's rows have arrived");
            self.dim = self.dim.max(self.dim_after(shared, last, end - 1)?);
            let width = self.dim.max(self.min_dim);
            let mut nnz = 0usize;
            for b in self.queue.range(k..=last) {
                let from = self.next.max(b.start) - b.start;
                let to = end.min(b.start + b.n() as u64) - b.start;
                nnz += b.parsed.nnz[from as usize..to as usize]
                    .iter()
                    .sum::<usize>();
            }
            let n = usize::try_from(end - self.next).unwrap_or(usize::MAX);
            let first = &mut self.queue[k];
            first
                .widths
                .push(((self.next - first.start) as usize, width));
            // `RawData::stored_bytes` of the chunk one parser would have read: labels, CSR
            // offsets, indices and values.
            let stored = 8 * n as u64 + 8 * (n as u64 + 1) + 12 * nnz as u64;
            self.rows_next = next_rows(n, stored, 0);
            self.next = end;
        }
    }

    /// The first queued block, when every chunk that starts in it is resolved, as a chunk
    /// (blocks without rows are dropped).
    fn pop(&mut self) -> Option<Chunk> {
        loop {
            let b = self.queue.front()?;
            if b.start + b.n() as u64 > self.next {
                return None;
            }
            let b = self.queue.pop_front()?;
            if b.n() == 0 {
                continue;
            }
            return Some(Chunk {
                data: b.parsed.data,
                widths: b.widths,
                before: b.start,
                bytes: b.bytes,
            });
        }
    }
}
