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
//! - [`run`] drives a pass: the parser thread and the bounded channel, or both on one thread;
//!   plain LIBSVM files are parsed and prepared in parallel blocks on the rayon pool instead,
//!   handed on in file order ([`run_blocks`]), with the rows, the order and the learner's
//!   dimension before each row of one parser.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};

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
pub(crate) const FIRST_ROWS: usize = 256;

/// The most rows in a chunk.
const MAX_ROWS: usize = 1 << 16;

/// Chunks waiting in the channel between the parser thread and the learner.
const IN_FLIGHT: usize = 2;

/// Bytes of the prepared rows a streamed pass holds at once when every row is dense with `dim`
/// features (min-max scaling): the chunks in the channel, the one being prepared and the one
/// being learned from, each at least one row; or, read in parallel blocks ([`run_blocks`]),
/// the window of blocks in the channel, the one waiting to enter it and the one being learned
/// from, each capped at a chunk's bytes (or one row).
pub(crate) fn dense_rows_bytes(dim: usize) -> u64 {
    let in_flight = (IN_FLIGHT + 2).max(blocks::window() + 2) as u64;
    in_flight.saturating_mul(CHUNK_BYTES.max((dim as u64).saturating_mul(8)))
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
            self.rows_next = next_rows(n, raw.stored_bytes(), dense);
            return Ok(n);
        }
    }

    fn widen(&self, e: DataError) -> Error {
        widen(self.wider.as_deref(), e)
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

/// `e` with `hint` added when it is about an index past a fixed dimension.
fn widen(hint: Option<&str>, e: DataError) -> Error {
    let wider = matches!(
        &e,
        DataError::Parse {
            kind: ParseErrorKind::IndexExceedsDim { .. } | ParseErrorKind::TooManyFeatures { .. },
            ..
        }
    );
    match (hint, wider) {
        (Some(hint), true) => format!("{e} ({hint})").into(),
        _ => Box::new(e),
    }
}

/// The rows a reader asks for after a chunk of `n` rows taking `stored` bytes as read, when each
/// prepared row takes at least `dense` bytes: about [`CHUNK_BYTES`] of rows, at most four times
/// the last chunk (and at least [`FIRST_ROWS`]).
fn next_rows(n: usize, stored: u64, dense: u64) -> usize {
    let per_row = (stored / n as u64).max(dense).max(1);
    let fit = usize::try_from(CHUNK_BYTES / per_row).unwrap_or(MAX_ROWS);
    fit.clamp(1, MAX_ROWS).min(4 * n.max(FIRST_ROWS))
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

    /// Checks the labels `raw_labels` (of rows `first + 1` onwards of `source`) against the
    /// classes, in row order.
    fn check_labels(&mut self, raw_labels: &[f64], first: u64, source: &str) -> Result<(), Error> {
        match &self.classes {
            Classes::Known {
                labels,
                given: true,
            } => {
                for &l in raw_labels {
                    if let Some(k) = labels.iter().position(|p| p.to_bits() == l.to_bits()) {
                        self.seen.given[k] = true;
                    }
                }
            }
            Classes::Known { .. } => {}
            Classes::Binary => {
                for (i, &l) in raw_labels.iter().enumerate() {
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
        self.check_labels(raw.raw_labels(), first, source)?;
        self.rows(raw, dim)
    }

    /// The rows of `raw` (of an input whose dimension so far is `dim`) binarized, in the form
    /// they were read, with at least `max(dim, min_dim)` features, scaled and normalized; the
    /// labels are not checked ([`Prep::apply`] does both).
    fn rows(&self, raw: &RawData, dim: usize) -> Result<Dataset, Error> {
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
    /// The dimension a learner must have before it learns from a row, as `(row, dim)` in row
    /// order: `(0, data.dim())` for a chunk read by one parser; a block of a parallel pass whose
    /// dimension grows (a file read once) names the rows where the one parser's chunks would
    /// have grown it (see [`run`]).
    pub(crate) widths: Vec<(usize, usize)>,
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
///
/// Threaded, plain LIBSVM files (without `--limit`) are parsed and prepared in parallel blocks
/// on the rayon pool instead, handed to `consume` in file order while later blocks are parsed
/// ([`run_blocks`]): one parser thread cannot keep up with a cheap learner. `consume` sees the
/// same rows in the same order, and a learner the same dimension before each row, as from one
/// parser, so a pass trains the same model byte for byte.
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

/// Text bytes of a block of the parallel learning pass: a quarter of the first pass's blocks,
/// since a block's prepared rows wait in memory until the learner takes them. The environment
/// variable `AUC_BLOCK_BYTES` overrides it (tests cut small files into many blocks with it).
const PASS_BLOCK_BYTES: usize = blocks::BLOCK_BYTES / 4;

/// How [`run_blocks`] cuts the inputs.
pub(crate) struct BlockPlan {
    /// Text bytes of a block.
    block_bytes: usize,
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
    fn block_plan(&self, prep: &Prep) -> Result<Option<BlockPlan>, Error> {
        if self.left.is_some() || self.paths.is_empty() {
            return Ok(None);
        }
        for p in &self.paths {
            if !blocks::plain_libsvm(p, &self.opts)? {
                return Ok(None);
            }
        }
        let growing = self.opts.dim.is_none() && self.opts.hash_bits.is_none();
        let dense = matches!(prep.preparation.scaler, Scaler::MinMax { .. });
        if growing && dense {
            return Ok(None);
        }
        let max_lines = match dense {
            true => {
                let dim = prep.min_dim.max(self.opts.dim.unwrap_or(0));
                let row = 8 * (dim as u64).max(1);
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
    prep: Prep,
    wider: Option<String>,
    growing: bool,
}

/// A block parsed and prepared on the rayon pool.
struct Parsed {
    /// Index of the input in `Shared::paths`.
    file: usize,
    data: Dataset,
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
    let data = shared.prep.rows(&raw, raw.dim())?;
    let nnz = match shared.growing {
        true => (0..raw.n()).map(|i| raw.row(i).nnz()).collect(),
        false => Vec::new(),
    };
    Ok(Parsed {
        file,
        data,
        labels: raw.raw_labels().to_vec(),
        dim: raw.dim(),
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
        let mut blocks = blocks::Blocks::open(path, plan.block_bytes, plan.max_lines)
            .map_err(|e| format!("{name}: {e}"))?;
        while let Some(block) = blocks.next_block().map_err(|e| format!("{name}: {e}"))? {
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
/// in row order (as [`Prep::apply`] does) and hands them to `consume`, while the next window of
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
fn run_blocks(
    reader: Reader,
    mut prep: Prep,
    plan: BlockPlan,
    mut consume: impl FnMut(Chunk) -> Result<(), Error>,
) -> Result<Done, Error> {
    let shared = Arc::new(Shared {
        paths: reader.paths.clone(),
        opts: reader.opts.clone(),
        prep: prep.clone(),
        wider: reader.wider.clone(),
        growing: plan.growing,
    });
    let reading = reader.reading();
    drop(reader);
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
            .map_err(|e| -> Error {
                format!("cannot start the block reader thread: {e}").into()
            })?;
        let learned = take_blocks(&shared, &mut prep, order_rx, &sizes, &mut consume);
        // `take_blocks` dropped the receiver: the reader's next send fails, so it stops.
        let read = blocks_thread
            .join()
            .map_err(|_| -> Error { "the block reader thread failed".into() })?;
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
fn take_blocks(
    shared: &Shared,
    prep: &mut Prep,
    order: mpsc::Receiver<Item>,
    sizes: &[u64],
    consume: &mut impl FnMut(Chunk) -> Result<(), Error>,
) -> Result<(u64, usize), Error> {
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
                    .map_err(|_| -> Error { "a block parser task failed".into() })??;
                let source = shared.paths[p.file].display().to_string();
                prep.check_labels(&p.labels, rows, &source)?;
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

    /// What a learning pass hands on: each row's stored entries (bits), its label and the
    /// dimension the learner has before it learns from the row; then the rows and dimension of
    /// [`Done`].
    type Pass = (Vec<RowSeen>, u64, usize);

    /// A row as a pass handed it on: entries (bits), positive, the learner's dimension.
    type RowSeen = (Vec<(usize, u64)>, bool, usize);

    fn collect(rows: &mut Vec<RowSeen>, width: &mut usize, c: &Chunk) {
        let mut widths = c.widths.iter().peekable();
        for (i, (x, y)) in c.data.iter().enumerate() {
            while let Some((_, d)) = widths.next_if(|(at, _)| *at == i) {
                *width = (*width).max(*d);
            }
            let mut entries = Vec::new();
            x.for_each(|j, v| entries.push((j, v.to_bits())));
            rows.push((entries, y.is_pos(), *width));
        }
    }

    /// A learning pass over `paths` with one parser (`block: None`) or in parallel blocks of
    /// `block` bytes.
    fn pass(paths: &[PathBuf], opts: &ReadOptions, prep: &Prep, block: Option<usize>) -> Pass {
        let reader = Reader::open(paths, opts).unwrap();
        let (mut rows, mut width) = (Vec::new(), 0);
        let done = match block {
            None => run(reader, prep.clone(), false, |c| {
                collect(&mut rows, &mut width, &c);
                Ok(())
            }),
            Some(b) => {
                let mut plan = reader.block_plan(prep).unwrap().expect("plain files");
                plan.block_bytes = b;
                run_blocks(reader, prep.clone(), plan, |c| {
                    collect(&mut rows, &mut width, &c);
                    Ok(())
                })
            }
        }
        .unwrap();
        (rows, done.rows, done.dim)
    }

    /// The learning pass in parallel blocks (of about 1 kB and 7.7 kB: dozens of blocks a file,
    /// many windows) hands on the rows of one parser, in order, and the learner's dimension
    /// before each row is the one one parser's chunks give it: fixed (`--dim`), and growing
    /// (a file read once), where indices written with a zero value count too.
    #[test]
    fn parallel_blocks_learn_like_one_parser() {
        let path = file("pass", 3_000, &["+1", "-1", "-1", "-1", "-1"]);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut zeros = String::new();
        for (i, line) in text.lines().enumerate() {
            zeros.push_str(line);
            if i % 97 == 5 {
                zeros.push_str(&format!(" {}:0", 6 + i / 20));
            }
            zeros.push('\n');
        }
        std::fs::write(&path, zeros).unwrap();
        let paths = vec![path.clone(), path.clone()];
        let preparation = |unit_norm| Preparation {
            reading: auc_data::Reading::Libsvm,
            positive_labels: Vec::new(),
            positive_rule: String::new(),
            dim: 0,
            hash_bits: None,
            scaler: Scaler::None,
            unit_norm,
        };
        let growing = ReadOptions::default();
        let fixed = ReadOptions {
            dim: Some(200),
            ..ReadOptions::default()
        };
        for (opts, min_dim) in [(&growing, 0), (&growing, 30), (&fixed, 200)] {
            for unit_norm in [false, true] {
                let prep = Prep::new(Classes::Binary, min_dim, preparation(unit_norm));
                let one = pass(&paths, opts, &prep, None);
                assert_eq!(one.1, 6_000);
                // The dimension grows part way (which the blocks must replay).
                let first = one.0[0].2;
                assert!(one.0.last().unwrap().2 > first || opts.dim.is_some());
                for block in [1_000, 7_777, 1 << 20] {
                    let par = pass(&paths, opts, &prep, Some(block));
                    assert!(
                        par == one,
                        "dim {:?}, min_dim {min_dim}, block {block}",
                        opts.dim
                    );
                }
            }
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
