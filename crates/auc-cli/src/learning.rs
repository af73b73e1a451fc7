//! The learner's side of a streamed pass: the bounded shuffle buffer, prequential evaluation and
//! the loop that grows the state, feeds it each row and counts the classes ([`learn_pass`]).

use auc_core::{Label, Row, RowBuf};
use auc_eval::curve::CurvePoint;
use auc_eval::metrics::MetricError;
use auc_eval::running::RunningAuc;
use auc_learners::{Algorithm, Configured, Trained};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::output::{Error, line};
use crate::progress::Bar;
use crate::training::*;
use auc_stream::memory::{self, Bytes};
use auc_stream::{Reader, Shaper};

/// A bounded shuffle buffer: rows enter until it holds `cap`, then each new row replaces a
/// uniformly drawn buffered one, which is emitted; at the end the rows left are emitted in a
/// random permutation. When the input has at most `cap` rows no draw happens before the end,
/// and the order is the full permutation `--shuffle-full` gives with the same seed.
pub(crate) struct Shuffle {
    pub(crate) rows: Vec<(RowBuf, Label)>,
    pub(crate) cap: usize,
    pub(crate) rng: StdRng,
}

impl Shuffle {
    fn new(seed: u64, cap: u64) -> Self {
        Shuffle {
            rows: Vec::new(),
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Takes `(x, y)`, emitting a buffered row once the buffer is full.
    fn push(
        &mut self,
        x: Row<'_>,
        y: Label,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.rows.len() < self.cap {
            self.rows.push((RowBuf::from_row(x), y));
            return Ok(());
        }
        let k = self.rng.random_range(0..self.cap);
        let (buf, label) = &mut self.rows[k];
        emit(buf.as_row(), *label)?;
        buf.assign(x);
        *label = y;
        Ok(())
    }

    /// Emits the rows left, in a random permutation.
    fn finish(
        &mut self,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut idx: Vec<usize> = (0..self.rows.len()).collect();
        idx.shuffle(&mut self.rng);
        for i in idx {
            let (buf, label) = &self.rows[i];
            emit(buf.as_row(), *label)?;
        }
        self.rows.clear();
        Ok(())
    }
}

/// The last `cap` finite scores and their labels, oldest overwritten first: the window of
/// `auc stream --window` and the scores `--calibrate-on prequential` fits on (the latest come
/// from the most trained learner).
pub(crate) struct Window {
    cap: usize,
    pub(crate) scores: Vec<f64>,
    pub(crate) labels: Vec<Label>,
    next: usize,
    /// Scores that were not finite, left out.
    pub(crate) non_finite: u64,
}

impl Window {
    pub(crate) fn new(cap: usize) -> Self {
        Window {
            cap,
            scores: Vec::new(),
            labels: Vec::new(),
            next: 0,
            non_finite: 0,
        }
    }

    fn push(&mut self, s: f64, y: Label) {
        if !s.is_finite() {
            self.non_finite += 1;
        } else if self.scores.len() < self.cap {
            self.scores.push(s);
            self.labels.push(y);
        } else {
            self.scores[self.next] = s;
            self.labels[self.next] = y;
            self.next = (self.next + 1) % self.cap;
        }
    }

    /// The AUC of the scores in the window (a sort of at most `cap` scores).
    fn auc(&self) -> Result<f64, MetricError> {
        auc_eval::metrics::auc(&self.scores, &self.labels)
    }
}

/// Prequential evaluation on the way: the AUC of every score so far (or of the last
/// `--window` scores), printed every `every` rows.
pub(crate) struct Prequential {
    pub(crate) every: u64,
    pub(crate) json: bool,
    pub(crate) auc: RunningAuc,
    /// With `--window N`: only the last N scores count, in O(N) memory (no score is kept in
    /// `auc`).
    pub(crate) window: Option<Window>,
    pub(crate) points: Vec<CurvePoint>,
    pub(crate) skipped: usize,
    /// Scores that were not finite (features too large unscaled), left out of the AUC.
    pub(crate) non_finite: u64,
}

impl Prequential {
    pub(crate) fn new(every: u64, json: bool) -> Self {
        Prequential {
            every,
            json,
            auc: RunningAuc::new(),
            window: None,
            points: Vec::new(),
            skipped: 0,
            non_finite: 0,
        }
    }

    /// Records the score of the `seen`-th row (scored before the learner updates on it) and
    /// prints a point when a checkpoint is reached (`last`: the end of the stream).
    pub(crate) fn record(
        &mut self,
        score: f64,
        y: Label,
        seen: u64,
        last: bool,
    ) -> Result<(), Error> {
        if score.is_finite() {
            match self.window.as_mut() {
                Some(w) => w.push(score, y),
                None => self.auc.push(score, y)?,
            }
        } else {
            self.non_finite += 1;
        }
        if seen % self.every == 0 || last {
            self.point(seen)?;
        }
        Ok(())
    }

    /// Prints the point after `seen` rows, or counts it skipped while one class is missing.
    pub(crate) fn point(&mut self, seen: u64) -> Result<(), Error> {
        if self.points.last().is_some_and(|p| p.updates as u64 == seen) {
            return Ok(());
        }
        let (auc, bound) = match &self.window {
            Some(w) => (w.auc(), 0.0),
            None => (self.auc.auc(), self.auc.error_bound()),
        };
        match auc {
            Ok(a) => {
                let p = CurvePoint {
                    updates: seen as usize,
                    auc: a,
                };
                // Once older scores were folded (the bounded running AUC), each point says how
                // far from the exact AUC it can be.
                match (self.json, bound > 0.0) {
                    (true, false) => line(json!({"examples": p.updates, "auc": p.auc}))?,
                    (true, true) => line(
                        json!({"examples": p.updates, "auc": p.auc, "auc_error_bound": bound}),
                    )?,
                    (false, false) => line(format!("{:>10} {:>8.4}", p.updates, p.auc))?,
                    (false, true) => {
                        line(format!("{:>10} {:>8.4} ± {bound:.1e}", p.updates, p.auc))?
                    }
                }
                self.points.push(p);
            }
            Err(MetricError::SingleClass { .. }) => self.skipped += 1,
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}

/// The most prequential scores `--calibrate-on prequential` keeps: the last this many rows'.
pub(crate) const PREQUENTIAL_CALIBRATION_ROWS: usize = 1 << 20;

/// The learner's side of a streamed pass: grows the state when a chunk is wider (memory
/// checked first), feeds each row (through the shuffle buffer, padding dense rows from before a
/// growth), counts the classes, scores first for prequential evaluation, shows progress.
pub(crate) struct Learning<'a> {
    pub(crate) state: &'a mut dyn Trained,
    pub(crate) config: &'a dyn Configured,
    pub(crate) average: bool,
    pub(crate) limit: Bytes,
    pub(crate) algo: &'static str,
    pub(crate) scratch: Vec<f64>,
    pub(crate) positives: u64,
    pub(crate) negatives: u64,
    pub(crate) seen: u64,
    pub(crate) prequential: Option<Prequential>,
    /// The prequential scores `--calibrate-on prequential` fits on.
    pub(crate) window: Option<Window>,
}

impl Learning<'_> {
    /// Grows the state to `dim` features after checking the memory of both states (the old
    /// one is alive while the new one is filled).
    fn grow(&mut self, dim: usize) -> Result<(), Error> {
        let old = self.state.dim();
        if dim <= old {
            return Ok(());
        }
        let needed = self
            .config
            .memory_bytes(&dim_shape(dim), self.average)
            .saturating_add(self.config.memory_bytes(&dim_shape(old), self.average));
        memory::check(
            needed,
            self.limit,
            &format!(
                "growing {} from {old} to {dim} features (a larger feature index appeared)",
                self.algo
            ),
            "use --hash-bits B to fold the features into 2^B, or fix --dim",
        )?;
        crate::training::check_save_memory(
            self.config.memory_bytes(&dim_shape(dim), self.average),
            self.limit,
            &format!("{} grown to {dim} features", self.algo),
        )?;
        let learner = self.state.learner().ok_or("a batch model cannot learn")?;
        learner
            .grow(dim)
            .map_err(|e| format!("{}: {e}", self.algo).into())
    }

    /// One training step on `(x, y)`, in the learner's dimension.
    fn step(&mut self, x: Row<'_>, y: Label) -> Result<(), Error> {
        let dim = self.state.dim();
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
        let score =
            (self.prequential.is_some() || self.window.is_some()).then(|| self.state.score(x));
        let learner = self.state.learner().ok_or("a batch model cannot learn")?;
        learner.update(x, y);
        if let (Some(p), Some(s)) = (self.prequential.as_mut(), score) {
            p.record(s, y, self.seen, false)?;
        }
        if let (Some(w), Some(s)) = (self.window.as_mut(), score) {
            w.push(s, y);
        }
        Ok(())
    }
}

/// Runs a streamed pass of `reader` shaped by `shaper` into `learning`, in order or through a
/// shuffle buffer.
pub(crate) fn learn_pass(
    reader: Reader,
    shaper: Shaper,
    learning: &mut Learning<'_>,
    learn: &LearnArgs,
    what: &str,
) -> Result<auc_stream::Done, Error> {
    let mut shuffle = learn.shuffle.map(|s| Shuffle::new(s, learn.shuffle_buffer));
    let bar = Bar::bytes(what, reader.total_bytes());
    let mut checked_buffer = false;
    let done = auc_stream::run(reader, shaper, !learn.one_thread, |chunk| {
        let data = &chunk.data;
        // The dimension the learner must have before each row (see `auc_stream::Chunk::widths`).
        let mut widths = chunk.widths.iter().peekable();
        while let Some((_, dim)) = widths.next_if(|(at, _)| *at == 0) {
            learning.grow(*dim)?;
        }
        if let (Some(s), false) = (&shuffle, checked_buffer) {
            checked_buffer = true;
            // Sized on the first rows of the first chunk, which do not depend on how the
            // input is cut.
            let first = data.n().clamp(1, auc_stream::FIRST_ROWS) as u64;
            let per_row = if data.is_sparse() {
                let nnz: usize = (0..data.n().min(auc_stream::FIRST_ROWS))
                    .map(|i| data.row(i).nnz())
                    .sum();
                12 * nnz as u64 / first + 48
            } else {
                8 * data.dim() as u64 + 32
            };
            memory::check(
                per_row.saturating_mul(s.cap as u64),
                learning.limit,
                &format!("a shuffle buffer of {} rows", s.cap),
                "use a smaller --shuffle-buffer",
            )?;
        }
        for (i, (x, y)) in data.iter().enumerate() {
            while let Some((_, dim)) = widths.next_if(|(at, _)| *at == i) {
                learning.grow(*dim)?;
            }
            match &mut shuffle {
                None => learning.step(x, y)?,
                Some(s) => s.push(x, y, &mut |x, y| learning.step(x, y))?,
            }
        }
        bar.set_stream(what, chunk.bytes, chunk.before + data.n() as u64);
        Ok(())
    })?;
    if let Some(s) = &mut shuffle {
        s.finish(&mut |x, y| learning.step(x, y))?;
    }
    bar.finish();
    Ok(done)
}

/// The learner's side of a pass over `state`.
pub(crate) fn learning<'a>(
    state: &'a mut dyn Trained,
    config: &'a dyn Configured,
    algo: &'static Algorithm,
    learn: &LearnArgs,
    limit: Bytes,
) -> Learning<'a> {
    Learning {
        state,
        config,
        average: learn.average,
        limit,
        algo: algo.name,
        scratch: Vec::new(),
        positives: 0,
        negatives: 0,
        seen: 0,
        prequential: None,
        window: None,
    }
}
