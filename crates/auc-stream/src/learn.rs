//! The learner's side of a streamed pass ([`learn_pass`]): a one-pass learner, seen only as a
//! `&mut dyn OnlineLearner`, grown when a chunk is wider, fed each row (in file order or through
//! the [`Shuffle`] buffer, dense rows from before a growth padded), with the classes counted
//! and, when someone watches, each row scored before the step on it (prequential evaluation).

use auc_core::{Label, OnlineLearner, Row};
use auc_data::FirstSight;

use crate::memory::{self, Bytes};
use crate::shuffle::Shuffle;
use crate::{Done, Error, Progress, Reader, Shaper};

/// A check run before the learner grows from `old` to `new` features (its memory, say); an
/// error stops the pass.
pub type GrowCheck<'a> = Box<dyn FnMut(usize, usize) -> Result<(), Error> + 'a>;

/// Watches each row's score by the learner before its step on the row, with the row's label
/// and the number of rows fed so far (this one included).
pub type Observer<'a> = Box<dyn FnMut(f64, Label, u64) -> Result<(), Error> + Send + 'a>;

/// A one-pass learner being fed: the learner, its dimension, the class counts, and the scaling
/// fitted at first sight when the rows come unscaled ([`Learning::with_first_sight`]).
pub struct Learning<'a> {
    learner: &'a mut dyn OnlineLearner,
    /// The learner's name, for the messages of a growth it refuses.
    name: &'a str,
    dim: usize,
    grow_check: Option<GrowCheck<'a>>,
    observer: Option<Observer<'a>>,
    scratch: Vec<f64>,
    first_sight: Option<FirstSight>,
    positives: u64,
    negatives: u64,
    seen: u64,
}

impl<'a> Learning<'a> {
    /// Feeds `learner`, whose state has `dim` features; `name` (the algorithm's) prefixes the
    /// learner's own refusal to grow.
    pub fn new(learner: &'a mut dyn OnlineLearner, dim: usize, name: &'a str) -> Self {
        Learning {
            learner,
            name,
            dim,
            grow_check: None,
            observer: None,
            scratch: Vec::new(),
            first_sight: None,
            positives: 0,
            negatives: 0,
            seen: 0,
        }
    }

    /// Runs `check` before every growth.
    #[must_use]
    pub fn with_grow_check(mut self, check: GrowCheck<'a>) -> Self {
        self.grow_check = Some(check);
        self
    }

    /// Scores each row before the step on it and hands the score to `observer`.
    #[must_use]
    pub fn with_observer(mut self, observer: Observer<'a>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Scales each row by `sight` before the step on it, in the order the learner sees the
    /// rows (a pass planned with [`crate::Plan::first_sight`]): a step returns its
    /// [`auc_data::Unsighted`] error when a row shows that the scaling cannot be fitted so.
    #[must_use]
    pub fn with_first_sight(mut self, sight: Option<FirstSight>) -> Self {
        self.first_sight = sight;
        self
    }

    /// The scaling fitted at first sight so far, taken out (`None` without one).
    pub fn take_first_sight(&mut self) -> Option<FirstSight> {
        self.first_sight.take()
    }

    /// Grows the learner to `dim` features (nothing when it has as many), after the check.
    pub fn grow(&mut self, dim: usize) -> Result<(), Error> {
        let old = self.dim;
        if dim <= old {
            return Ok(());
        }
        if let Some(check) = self.grow_check.as_mut() {
            check(old, dim)?;
        }
        self.learner.grow(dim).map_err(|source| Error::Grow {
            learner: self.name.to_owned(),
            source,
        })?;
        if let Some(sight) = self.first_sight.as_mut() {
            sight.grow(dim);
        }
        self.dim = dim;
        Ok(())
    }

    /// One training step on `(x, y)`, in the learner's dimension (a shorter dense row is padded
    /// with zeros).
    pub fn step(&mut self, x: Row<'_>, y: Label) -> Result<(), Error> {
        let dim = self.dim;
        let x = match self.first_sight.as_mut() {
            Some(sight) => sight.scale(x)?,
            None => x,
        };
        let x = match x {
            Row::Dense(v) if v.len() < dim => {
                self.scratch.clear();
                self.scratch.extend_from_slice(v);
                self.scratch.resize(dim, 0.0);
                Row::Dense(&self.scratch)
            }
            x => x,
        };
        if y.is_pos() {
            self.positives += 1;
        } else {
            self.negatives += 1;
        }
        self.seen += 1;
        let score = self.observer.is_some().then(|| self.learner.score(x));
        self.learner.update(x, y);
        if let (Some(observer), Some(s)) = (self.observer.as_mut(), score) {
            observer(s, y, self.seen)?;
        }
        Ok(())
    }

    /// Tells the learner that `x` is the next row it will step on
    /// ([`OnlineLearner::prefetch`]): the loads of its state at the row's features start while
    /// it steps on the row before.
    pub fn prefetch(&self, x: Row<'_>) {
        self.learner.prefetch(x);
    }

    /// Positive rows fed.
    pub fn positives(&self) -> u64 {
        self.positives
    }

    /// Negative rows fed.
    pub fn negatives(&self) -> u64 {
        self.negatives
    }

    /// Rows fed.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// The learner's dimension now.
    pub fn dim(&self) -> usize {
        self.dim
    }
}

/// How a learning pass reads and orders its rows.
#[derive(Clone, Copy, Debug)]
pub struct PassOptions {
    /// Feed the rows through a [`Shuffle`] buffer of `rows` rows drawing from `seed`, instead
    /// of in file order.
    pub shuffle: Option<ShuffleSpec>,
    /// Parse on other threads than the learner's (a parser thread, or parallel blocks of a
    /// plain LIBSVM file; see [`crate::run`]).
    pub threaded: bool,
    /// The memory the shuffle buffer may take (with everything else the caller counted).
    pub limit: Bytes,
}

/// A bounded shuffle buffer: its seed and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShuffleSpec {
    /// The seed of its draws.
    pub seed: u64,
    /// The rows it holds.
    pub rows: u64,
}

/// Runs a streamed pass of `reader` shaped by `shaper` into `learning`, in order or through a
/// shuffle buffer, showing its progress as `what`.
///
/// The learner is grown before each row to the dimension one parser would have reached there
/// ([`crate::Chunk::widths`]), so a pass in parallel blocks trains the model of one parser,
/// byte for byte.
pub fn learn_pass(
    reader: Reader,
    shaper: Shaper,
    learning: &mut Learning<'_>,
    options: PassOptions,
    progress: &dyn Progress,
    what: &str,
) -> Result<Done, Error> {
    let mut shuffle = options.shuffle.map(|s| Shuffle::new(s.seed, s.rows));
    progress.start(what, reader.total_bytes());
    let mut checked_buffer = false;
    let done = crate::run(reader, shaper, options.threaded, |chunk| {
        let data = &chunk.data;
        // The dimension the learner must have before each row (see `Chunk::widths`).
        let mut widths = chunk.widths.iter().peekable();
        while let Some((_, dim)) = widths.next_if(|(at, _)| *at == 0) {
            learning.grow(*dim)?;
        }
        if let (Some(s), false) = (&shuffle, checked_buffer) {
            checked_buffer = true;
            // Sized on the first rows of the first chunk, which do not depend on how the
            // input is cut.
            let first = data.n().clamp(1, crate::FIRST_ROWS) as u64;
            let per_row = if data.is_sparse() {
                let nnz: usize = (0..data.n().min(crate::FIRST_ROWS))
                    .map(|i| data.row(i).nnz())
                    .sum();
                12 * nnz as u64 / first + 48
            } else {
                8 * data.dim() as u64 + 32
            };
            memory::check(
                per_row.saturating_mul(s.cap() as u64),
                options.limit,
                &format!("a shuffle buffer of {} rows", s.cap()),
                "use a smaller --shuffle-buffer",
            )?;
        }
        for (i, (x, y)) in data.iter().enumerate() {
            while let Some((_, dim)) = widths.next_if(|(at, _)| *at == i) {
                learning.grow(*dim)?;
            }
            match &mut shuffle {
                None => {
                    if i + 1 < data.n() {
                        learning.prefetch(data.row(i + 1));
                    }
                    learning.step(x, y)?;
                }
                Some(s) => s.push(x, y, &mut |x, y| learning.step(x, y))?,
            }
        }
        progress.update(chunk.bytes, chunk.before + data.n() as u64);
        Ok::<(), Error>(())
    })?;
    if let Some(s) = &mut shuffle {
        s.finish(&mut |x, y| learning.step(x, y))?;
    }
    progress.finish();
    Ok(done)
}
