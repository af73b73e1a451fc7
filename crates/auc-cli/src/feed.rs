//! Reading training or scoring input incrementally: chunks of rows parsed, binarized and prepared
//! on a parser thread and handed to the learner (or the scorer) through a bounded channel, so
//! that parsing and learning overlap and memory is bounded by a few chunks whatever the number
//! of rows.
//!
//! - [`Reader`] reads several inputs one after the other ([`RowStream`] per file, standard input
//!   included, gzip detected) in chunks sized to about [`CHUNK_BYTES`] of prepared rows.
//! - [`survey`] is the first pass over files that can be read twice: the feature ranges a scaling
//!   is fitted on, the label counts the default positive class needs, the dimension.
//! - [`Prep`] turns a chunk as read into the rows a learner sees, exactly as the in-memory path
//!   turns the whole input: labels binarized by a positive class fixed beforehand (or, on a
//!   stream read once, the binary rule checked row by row), rows kept in the form they were read
//!   ([`Layout::AsRead`]), the dimension padded to what the learner has, the scaling and unit
//!   norm of the model. Each step works row by row, so chunked and whole inputs give the same
//!   rows bit for bit.
//! - [`run`] drives a pass: the parser thread and the bounded channel, or both on one thread.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::mpsc;

use auc_core::Dataset;
use auc_data::{
    BinaryLabels, CsvReading, DataError, FeatureRanges, Layout, ParseErrorKind, Positive,
    PositiveChoice, PositiveRule, RawData, ReadOptions, Reading, RowStream, Scaler,
};
use auc_learners::Preparation;

use crate::blocks;
use crate::memory::{self, Bytes};
use crate::output::Error;
use crate::progress::Bar;

/// Bytes of prepared rows a chunk aims at: a few chunks in flight stay far below the memory of
/// any learner state worth streaming, and a chunk is long enough that handing it over costs
/// nothing measurable.
pub(crate) const CHUNK_BYTES: u64 = 2 << 20;

/// Rows of the first chunk, before the size of a row is known.
const FIRST_ROWS: usize = 256;

/// The most rows in a chunk.
const MAX_ROWS: usize = 1 << 16;

/// Chunks waiting in the channel between the parser thread and the learner.
const IN_FLIGHT: usize = 2;

/// Bytes of the prepared rows a streamed pass holds at once when every row is dense with `dim`
/// features (min-max scaling): the chunks in the channel, the one being prepared and the one
/// being learned from, each at least one row.
pub(crate) fn dense_rows_bytes(dim: usize) -> u64 {
    (IN_FLIGHT as u64 + 2).saturating_mul(CHUNK_BYTES.max((dim as u64).saturating_mul(8)))
}

/// Distinct labels a first pass counts; beyond them the default positive class (which needs every
/// label's count) is refused, and `--positive` is asked for.
pub(crate) const MAX_LABELS: usize = 1 << 16;

type Source = RowStream<Box<dyn BufRead + Send>>;

/// Whether every path names a regular file, which can be read twice (standard input, pipes and
/// process substitutions cannot).
pub(crate) fn rereadable(paths: &[PathBuf]) -> bool {
    paths.iter().all(|p| {
        p.as_os_str() != auc_data::STDIN && std::fs::metadata(p).is_ok_and(|m| m.is_file())
    })
}

/// An empty chunk buffer.
fn empty_raw() -> RawData {
    RawData::concat(Vec::new())
}

/// The rows of several inputs, one after the other, in chunks.
pub(crate) struct Reader {
    paths: Vec<PathBuf>,
    next: usize,
    opts: ReadOptions,
    /// Rows still allowed by `--limit`.
    left: Option<usize>,
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
    wider: Option<String>,
}

impl Reader {
    /// Opens the first input (which resolves a CSV file's layout, so errors in its header come
    /// first). `opts.limit` counts rows over all the inputs.
    pub(crate) fn open(paths: &[PathBuf], opts: &ReadOptions) -> Result<Self, Error> {
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
        };
        r.open_next()?;
        Ok(r)
    }

    /// Sizes chunks for prepared rows that are dense with at least `dim` features (min-max
    /// scaling).
    pub(crate) fn dense_output(&mut self, dim: usize) {
        self.dense_dim = Some(dim);
    }

    /// Adds `hint` to errors about an index past the fixed dimension.
    pub(crate) fn on_wider(&mut self, hint: String) {
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
        if self.reading.is_none() {
            self.reading = Some(s.reading().clone());
        }
        self.stream = Some(s);
        self.next += 1;
        Ok(true)
    }

    /// Replaces `raw`'s rows by the next chunk's (reusing its buffers) and returns how many:
    /// 0 only at the end of the last input or of the limit. `raw`'s dimension is that of the
    /// input it came from; [`Reader::dim`] is the largest over the inputs so far.
    pub(crate) fn read(&mut self, raw: &mut RawData) -> Result<usize, Error> {
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
            let per_row = (raw.stored_bytes() / n as u64).max(dense).max(1);
            let fit = usize::try_from(CHUNK_BYTES / per_row).unwrap_or(MAX_ROWS);
            self.rows_next = fit.clamp(1, MAX_ROWS).min(4 * n.max(FIRST_ROWS));
            return Ok(n);
        }
    }

    fn widen(&self, e: DataError) -> Error {
        let wider = matches!(
            &e,
            DataError::Parse {
                kind: ParseErrorKind::IndexExceedsDim { .. }
                    | ParseErrorKind::TooManyFeatures { .. },
                ..
            }
        );
        match (&self.wider, wider) {
            (Some(hint), true) => format!("{e} ({hint})").into(),
            _ => Box::new(e),
        }
    }

    /// The name of the input being read, as errors name it.
    pub(crate) fn source(&self) -> String {
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
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes_done + self.stream.as_ref().map_or(0, RowStream::bytes_read)
    }

    /// The inputs' total size, when every one is a regular file.
    pub(crate) fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// Rows read so far.
    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// The largest dimension of the inputs so far.
    pub(crate) fn dim(&self) -> usize {
        self.dim
    }

    /// How the first input is read.
    pub(crate) fn reading(&self) -> Reading {
        self.reading.clone().unwrap_or(Reading::Libsvm)
    }
}

/// A label outside {-1, +1} and {0, 1} on a pass whose positive class was not fixed beforehand
/// ([`Classes::Binary`]): standard input is refused with this message; a file, read once on the
/// hope that its labels are binary, is read again after a first pass that counts its labels.
#[derive(Debug)]
pub(crate) struct NotBinary(String);

impl std::fmt::Display for NotBinary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotBinary {}

/// What a first pass over the inputs found.
pub(crate) struct Survey {
    /// Rows (after `--limit`).
    pub(crate) rows: u64,
    /// The dimension.
    pub(crate) dim: usize,
    /// Per-feature ranges, when a scaling is to be fitted.
    pub(crate) ranges: Option<FeatureRanges>,
    /// Each distinct label (bits) with its count; beyond [`MAX_LABELS`] distinct labels, only the
    /// `--positive` ones are counted by value (the others are negatives).
    labels: HashMap<u64, usize>,
}

impl Survey {
    /// The label counts, sorted by label (as `RawData::label_counts` gives them).
    pub(crate) fn label_counts(&self) -> Vec<(f64, usize)> {
        let mut out: Vec<(f64, usize)> = self
            .labels
            .iter()
            .map(|(&b, &c)| (f64::from_bits(b), c))
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// The positive class `rule` picks on the surveyed labels, with the positive and negative
    /// counts.
    pub(crate) fn choose(&self, rule: &Positive) -> Result<(PositiveChoice, u64, u64), Error> {
        let counts = self.label_counts();
        let choice = PositiveChoice::from_counts(&counts, rule)?;
        let pos: usize = counts
            .iter()
            .filter(|(l, _)| choice.labels.iter().any(|p| p.to_bits() == l.to_bits()))
            .map(|(_, c)| c)
            .sum();
        Ok((choice, pos as u64, self.rows - pos as u64))
    }
}

/// The first pass over files that can be read twice: their dimension, label counts and, when
/// `ranges` is set, the per-feature ranges a scaling is fitted on (their memory checked against
/// `limit` before it grows). `given` are the `--positive` labels, which are always counted.
///
/// Plain LIBSVM files (without `--limit`) are surveyed in parallel blocks on the rayon pool
/// ([`crate::blocks`]; everything a survey keeps merges exactly, so the result is the same), unless
/// a block's ranges times the blocks in flight would not fit in `limit`; other inputs by one
/// parser.
pub(crate) fn survey(
    paths: &[PathBuf],
    opts: &ReadOptions,
    ranges: bool,
    given: Option<&[f64]>,
    limit: Bytes,
) -> Result<Survey, Error> {
    let mut plain = opts.limit.is_none();
    for p in paths {
        plain = plain && blocks::plain_libsvm(p, opts)?;
    }
    if plain && let Some(s) = survey_blocks(paths, opts, ranges, given, limit, blocks::BLOCK_BYTES)?
    {
        return Ok(s);
    }
    survey_stream(paths, opts, ranges, given, limit)
}

/// What a block of a parallel survey found.
struct Part {
    rows: u64,
    dim: usize,
    ranges: Option<FeatureRanges>,
    labels: HashMap<u64, usize>,
}

/// Adds one label's count to `labels` under the [`MAX_LABELS`] rule of a survey.
fn count_label(
    labels: &mut HashMap<u64, usize>,
    bits: u64,
    count: usize,
    given: Option<&[f64]>,
    source: &str,
) -> Result<(), Error> {
    let full = labels.len() >= MAX_LABELS;
    match labels.get_mut(&bits) {
        Some(c) => *c += count,
        None if !full || given.is_some_and(|g| g.contains(&f64::from_bits(bits))) => {
            labels.insert(bits, count);
        }
        None if given.is_some() => {}
        None => {
            return Err(format!(
                "{source}: more than {MAX_LABELS} distinct labels (a regression target?): the default positive class needs every label's count; pass --positive LABEL[,LABEL..]"
            )
            .into());
        }
    }
    Ok(())
}

/// [`survey`] of plain LIBSVM files in parallel blocks of about `block_bytes`; `None` when a
/// block's ranges, times the blocks in flight, would exceed `limit` (the caller then surveys with
/// one parser, which checks the memory of one set of ranges).
fn survey_blocks(
    paths: &[PathBuf],
    opts: &ReadOptions,
    ranges: bool,
    given: Option<&[f64]>,
    limit: Bytes,
    block_bytes: usize,
) -> Result<Option<Survey>, Error> {
    let what = "first pass (ranges and labels)";
    let total_bytes: u64 = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = Bar::bytes(what, Some(total_bytes));
    let mut total = Part {
        rows: 0,
        dim: 0,
        ranges: ranges.then(|| FeatureRanges::new(0)),
        labels: HashMap::new(),
    };
    let mut too_wide = false;
    let mut done_bytes = 0u64;
    for path in paths {
        let source = path.display().to_string();
        let result = blocks::for_each(
            path,
            opts,
            block_bytes,
            |raw| {
                let wide =
                    FeatureRanges::bytes_for(raw.dim()).saturating_mul(blocks::WINDOW as u64 + 1);
                if ranges && wide > limit.0 {
                    return Ok(None);
                }
                let mut labels: HashMap<u64, usize> = HashMap::new();
                for &l in raw.raw_labels() {
                    *labels.entry(l.to_bits()).or_default() += 1;
                }
                let r = ranges.then(|| {
                    let mut r = FeatureRanges::new(0);
                    r.observe_rows(&raw);
                    r
                });
                Ok(Some(Part {
                    rows: raw.n() as u64,
                    dim: raw.dim(),
                    ranges: r,
                    labels,
                }))
            },
            |part, bytes| {
                let Some(part) = part else {
                    too_wide = true;
                    return Err("too wide for parallel blocks".into());
                };
                if let (Some(t), Some(r)) = (&mut total.ranges, &part.ranges) {
                    if r.dim() > t.dim() {
                        memory::check(
                            Scaler::bytes_for(r.dim()),
                            limit,
                            "fitting the scaling",
                            "use --hash-bits B to fold the features into 2^B",
                        )?;
                    }
                    t.merge(r);
                }
                total.rows += part.rows;
                total.dim = total.dim.max(part.dim);
                // In label order, so that which labels are kept past MAX_LABELS does not
                // depend on a hash map's order.
                let mut labels: Vec<(u64, usize)> = part.labels.into_iter().collect();
                labels.sort_unstable();
                for (bits, count) in labels {
                    count_label(&mut total.labels, bits, count, given, &source)?;
                }
                bar.set_stream(what, done_bytes + bytes, total.rows);
                Ok(())
            },
        );
        match result {
            Err(_) if too_wide => {
                bar.finish();
                return Ok(None);
            }
            r => r?,
        }
        done_bytes += std::fs::metadata(path).map_or(0, |m| m.len());
    }
    bar.finish();
    if let Some(r) = &mut total.ranges {
        r.grow(total.dim);
    }
    Ok(Some(Survey {
        rows: total.rows,
        dim: total.dim,
        ranges: total.ranges,
        labels: total.labels,
    }))
}

/// [`survey`] with one parser (any input).
fn survey_stream(
    paths: &[PathBuf],
    opts: &ReadOptions,
    ranges: bool,
    given: Option<&[f64]>,
    limit: Bytes,
) -> Result<Survey, Error> {
    let mut reader = Reader::open(paths, opts)?;
    let what = "first pass (ranges and labels)";
    let bar = Bar::bytes(what, reader.total_bytes());
    let mut raw = empty_raw();
    let mut fr = ranges.then(|| FeatureRanges::new(0));
    let mut labels: HashMap<u64, usize> = HashMap::new();
    while reader.read(&mut raw)? > 0 {
        if let Some(r) = &mut fr {
            let dim = raw.dim().max(r.dim());
            if dim > r.dim() {
                memory::check(
                    Scaler::bytes_for(dim),
                    limit,
                    "fitting the scaling",
                    "use --hash-bits B to fold the features into 2^B",
                )?;
            }
            r.observe_rows(&raw);
        }
        let source = reader.source();
        for &l in raw.raw_labels() {
            count_label(&mut labels, l.to_bits(), 1, given, &source)?;
        }
        bar.set_stream(what, reader.bytes(), reader.rows());
    }
    bar.finish();
    if let Some(r) = &mut fr {
        r.grow(reader.dim());
    }
    Ok(Survey {
        rows: reader.rows(),
        dim: reader.dim(),
        ranges: fr,
        labels,
    })
}

/// The positive class of a pass.
#[derive(Clone, Debug)]
pub(crate) enum Classes {
    /// These labels are positive, chosen beforehand (a first pass, a model); with `given`, each
    /// must occur (`--positive` on a stream read once), which is checked at the end.
    Known { labels: Vec<f64>, given: bool },
    /// A stream read once without `--positive`: its labels must be -1/+1 or 0/1, checked as
    /// they come, and 1 is positive.
    Binary,
}

/// Labels met by a pass, for the checks that need the whole stream.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    minus_one: bool,
    zero: bool,
    one: bool,
    /// For `Classes::Known { given: true }`: whether each given label occurred.
    given: Vec<bool>,
}

impl Seen {
    /// The binary label set a [`Classes::Binary`] pass met, if it met -1 or 0.
    fn binary_set(&self) -> Option<BinaryLabels> {
        if self.minus_one {
            Some(BinaryLabels::MinusOnePlusOne)
        } else if self.zero {
            Some(BinaryLabels::ZeroOne)
        } else {
            None
        }
    }
}

/// The positive class a finished pass used, and why (what a model stores).
pub(crate) fn final_choice(classes: &Classes, seen: &Seen) -> Result<PositiveChoice, Error> {
    match classes {
        Classes::Known { labels, given } => {
            if *given && let Some(k) = seen.given.iter().position(|s| !s) {
                return Err(format!(
                    "--positive {}: no row of the input has this label",
                    crate::input::fmt_label(labels[k])
                )
                .into());
            }
            Ok(PositiveChoice {
                labels: labels.clone(),
                rule: PositiveRule::Given,
            })
        }
        Classes::Binary => Ok(PositiveChoice {
            labels: vec![1.0],
            rule: match seen.binary_set() {
                Some(set) => PositiveRule::BinaryPlusOne(set),
                // Only 1s: one class, which the caller refuses.
                None => PositiveRule::BinaryPlusOne(BinaryLabels::MinusOnePlusOne),
            },
        }),
    }
}

/// How a chunk as read becomes the rows a learner sees.
#[derive(Clone)]
pub(crate) struct Prep {
    /// The positive class.
    pub(crate) classes: Classes,
    /// The dimension every chunk is padded to at least (the learner's, the scaler's).
    pub(crate) min_dim: usize,
    /// Scaling and unit norm (`dim`, `reading` and the class fields are not used here).
    pub(crate) preparation: Preparation,
    seen: Seen,
}

impl Prep {
    /// A preparation with these classes, minimum dimension and scaling.
    pub(crate) fn new(classes: Classes, min_dim: usize, preparation: Preparation) -> Self {
        let given = match &classes {
            Classes::Known {
                labels,
                given: true,
            } => vec![false; labels.len()],
            _ => Vec::new(),
        };
        Prep {
            classes,
            min_dim,
            preparation,
            seen: Seen {
                given,
                ..Seen::default()
            },
        }
    }

    /// The labels seen so far.
    pub(crate) fn seen(&self) -> &Seen {
        &self.seen
    }

    /// Checks the labels of `raw` (rows `first + 1` onwards of `source`) against the classes.
    fn check_labels(&mut self, raw: &RawData, first: u64, source: &str) -> Result<(), Error> {
        match &self.classes {
            Classes::Known {
                labels,
                given: true,
            } => {
                for &l in raw.raw_labels() {
                    if let Some(k) = labels.iter().position(|p| p.to_bits() == l.to_bits()) {
                        self.seen.given[k] = true;
                    }
                }
            }
            Classes::Known { .. } => {}
            Classes::Binary => {
                for (i, &l) in raw.raw_labels().iter().enumerate() {
                    let s = &mut self.seen;
                    let ok = if l.to_bits() == 1f64.to_bits() {
                        s.one = true;
                        true
                    } else if l.to_bits() == (-1f64).to_bits() {
                        s.minus_one = true;
                        !s.zero
                    } else if l.to_bits() == 0f64.to_bits() {
                        s.zero = true;
                        !s.minus_one
                    } else {
                        false
                    };
                    if !ok {
                        return Err(Box::new(NotBinary(format!(
                            "{source}: example {}: label {}: an input read once takes +1 (or 1) as the positive class of labels {{-1, +1}} or {{0, 1}} and cannot count the classes of other label sets first; pass --positive LABEL[,LABEL..]",
                            first + i as u64 + 1,
                            crate::input::fmt_label(l)
                        ))));
                    }
                }
            }
        }
        Ok(())
    }

    /// The rows of `raw` (rows `first + 1` onwards of `source`, an input whose dimension so far
    /// is `dim`) binarized, in the form they were read, with at least `max(dim, min_dim)`
    /// features, scaled and normalized.
    pub(crate) fn apply(
        &mut self,
        raw: &RawData,
        dim: usize,
        first: u64,
        source: &str,
    ) -> Result<Dataset, Error> {
        self.check_labels(raw, first, source)?;
        let positive = match &self.classes {
            Classes::Known { labels, .. } => Positive::Known(labels.clone()),
            Classes::Binary => Positive::Known(vec![1.0]),
        };
        let mut data = raw.binarize_as(&positive, Layout::AsRead)?;
        let dim = dim.max(self.min_dim);
        if data.dim() < dim {
            data = data.with_dim(dim);
        }
        let p = &self.preparation;
        if matches!(p.scaler, Scaler::None) && !p.unit_norm {
            return Ok(data);
        }
        Ok(p.apply(&data))
    }
}

/// One chunk of prepared rows, with where the pass stands.
pub(crate) struct Chunk {
    /// The rows.
    pub(crate) data: Dataset,
    /// Rows of the pass before this chunk.
    pub(crate) before: u64,
    /// Input bytes read so far.
    pub(crate) bytes: u64,
}

/// What a finished pass read.
pub(crate) struct Done {
    /// Rows.
    pub(crate) rows: u64,
    /// The largest dimension of the inputs.
    pub(crate) dim: usize,
    /// How the first input is read.
    pub(crate) reading: Reading,
    /// The labels met.
    pub(crate) seen: Seen,
}

/// Reads every chunk of `reader`, prepares it with `prep` and hands it to `consume`, in order.
///
/// With `threaded`, parsing and preparing run on a thread of their own, at most [`IN_FLIGHT`]
/// chunks ahead of `consume` (a bounded channel), so a pass takes about as long as the slower of
/// the two; otherwise one thread does both in turn. An error of either side ends the pass; the
/// parser's is returned when it came first.
pub(crate) fn run(
    mut reader: Reader,
    mut prep: Prep,
    threaded: bool,
    mut consume: impl FnMut(Chunk) -> Result<(), Error>,
) -> Result<Done, Error> {
    if matches!(prep.preparation.scaler, Scaler::MinMax { .. }) {
        // Min-max scaling makes every row dense: size the chunks by the prepared rows.
        reader.dense_output(prep.min_dim);
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
        let mut failed: Option<Error> = None;
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
            .map_err(|e| -> Error { format!("cannot start the parser thread: {e}").into() })?;
        let mut failed: Option<Error> = None;
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
            .map_err(|_| -> Error { "the parser thread failed".into() })?;
        match (failed, done) {
            (Some(e), _) => Err(e),
            (None, done) => done,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A LIBSVM file of `rows` rows in a fresh directory: sparse rows with growing indices,
    /// negative and positive values, labels from `labels` in turn.
    fn file(name: &str, rows: usize, labels: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("auc-feed-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.libsvm");
        let mut text = String::new();
        for i in 0..rows {
            text.push_str(labels[i % labels.len()]);
            let mut row = std::collections::BTreeMap::new();
            for j in 0..(i % 7) {
                let idx = 1 + (i * 31 + j * 17) % (5 + i / 40);
                row.insert(idx, ((i * 13 + j) % 23) as f64 / 4.0 - 2.5);
            }
            for (idx, v) in row {
                text.push_str(&format!(" {idx}:{v}"));
            }
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    fn key(s: &Survey) -> (u64, usize, Option<FeatureRanges>, Vec<(f64, usize)>) {
        (s.rows, s.dim, s.ranges.clone(), s.label_counts())
    }

    #[test]
    fn parallel_blocks_survey_like_one_parser() {
        let path = file("same", 3_000, &["+1", "-1", "-1", "3", "-1"]);
        let paths = vec![path.clone(), path.clone()];
        let opts = ReadOptions::default();
        let limit = Bytes(1 << 30);
        for ranges in [false, true] {
            let one = survey_stream(&paths, &opts, ranges, None, limit).unwrap();
            // Blocks of about 1 kB: dozens of blocks per file, several windows.
            for block in [1_000, 7_777, 1 << 22] {
                let par = survey_blocks(&paths, &opts, ranges, None, limit, block)
                    .unwrap()
                    .expect("fits");
                assert_eq!(key(&par), key(&one), "ranges {ranges}, block {block}");
            }
            assert_eq!(one.rows, 6_000);
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn parallel_blocks_name_the_file_line_of_an_error() {
        let path = file("error", 2_000, &["+1", "-1"]);
        let mut text = std::fs::read_to_string(&path).unwrap();
        let at = text.match_indices('\n').nth(1_499).unwrap().0;
        text.insert_str(at, " 999:abc");
        std::fs::write(&path, text).unwrap();
        let opts = ReadOptions::default();
        let paths = vec![path.clone()];
        let one = survey_stream(&paths, &opts, true, None, Bytes(1 << 30))
            .err()
            .unwrap()
            .to_string();
        let par = survey_blocks(&paths, &opts, true, None, Bytes(1 << 30), 1_000)
            .err()
            .unwrap()
            .to_string();
        assert!(one.contains(":1500:"), "{one}");
        assert_eq!(par, one);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_survey_too_wide_for_parallel_blocks_falls_back() {
        let path = file("wide", 500, &["+1", "-1"]);
        let opts = ReadOptions::default();
        let paths = vec![path.clone()];
        let need = FeatureRanges::bytes_for(20);
        // Room for one set of ranges but not for a window of them.
        assert!(
            survey_blocks(&paths, &opts, true, None, Bytes(need * 2), 1_000)
                .unwrap()
                .is_none()
        );
        let s = survey(&paths, &opts, true, None, Bytes(need * 2)).unwrap();
        assert_eq!(s.rows, 500);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
