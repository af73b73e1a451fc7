//! Prequential evaluation as `auc stream` prints it ([`Prequential`]): the AUC of every score so
//! far, or of a window of the last ones, at each checkpoint. The pass that scores each row
//! before the learner steps on it is `auc_stream::learn_pass`'s.

use auc_core::Label;
use auc_eval::curve::CurvePoint;
use auc_eval::metrics::MetricError;
use auc_eval::running::RunningAuc;
use auc_stream::Window;
use serde_json::json;

use crate::output::{Error, line};

/// The AUC of the scores in `w` (a sort of at most its size).
fn window_auc(w: &Window) -> Result<f64, MetricError> {
    auc_eval::metrics::auc(&w.scores, &w.labels)
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
    /// Whether the table's header is printed (text output: once the first row is scored, so a
    /// run refused before its pass prints nothing on stdout).
    headed: bool,
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
            headed: false,
        }
    }

    /// Prints the table's header (text output), once.
    pub(crate) fn header(&mut self) -> Result<(), Error> {
        if !self.json && !self.headed {
            line(format!("{:>10} {:>8}", "examples", "AUC"))?;
        }
        self.headed = true;
        Ok(())
    }

    /// Records the score of the `seen`-th row (scored before the learner updates on it) and
    /// prints a point when a checkpoint is reached.
    pub(crate) fn record(&mut self, score: f64, y: Label, seen: u64) -> Result<(), Error> {
        self.header()?;
        if score.is_finite() {
            match self.window.as_mut() {
                Some(w) => w.push(score, y),
                None => self.auc.push(score, y)?,
            }
        } else {
            self.non_finite += 1;
        }
        if seen % self.every == 0 {
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
            Some(w) => (window_auc(w), 0.0),
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
