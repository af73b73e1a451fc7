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
pub(crate) fn survey(
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
        for &l in raw.raw_labels() {
            let full = labels.len() >= MAX_LABELS;
            match labels.get_mut(&l.to_bits()) {
                Some(c) => *c += 1,
                None if !full || given.is_some_and(|g| g.contains(&l)) => {
                    labels.insert(l.to_bits(), 1);
                }
                None if given.is_some() => {}
                None => {
                    return Err(format!(
                        "{}: more than {MAX_LABELS} distinct labels (a regression target?): the default positive class needs every label's count; pass --positive LABEL[,LABEL..]",
                        reader.source()
                    )
                    .into());
                }
            }
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
                        return Err(format!(
                            "{source}: example {}: label {}: an input read once takes +1 (or 1) as the positive class of labels {{-1, +1}} or {{0, 1}} and cannot count the classes of other label sets first; pass --positive LABEL[,LABEL..]",
                            first + i as u64 + 1,
                            crate::input::fmt_label(l)
                        )
                        .into());
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
