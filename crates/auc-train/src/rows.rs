//! Rows a front end holds in memory (Python's numpy and scipy arrays), read in place:
//! [`RowSource`] lends them one at a time, [`RowPass`] is what a pass does with each (prepare,
//! then step a learner or score), a concrete type whose per-row work is a static call.

use auc_core::{Dataset, Label, OnlineLearner, Row};
use auc_learners::Trained;
use auc_prep::{Preparation, RowBuffers};

use crate::Error;

/// Rows a caller holds, lent one at a time in order (converted into the caller's scratch space
/// where they are not stored as the learners read them).
pub trait RowSource: Sync {
    /// The number of rows.
    fn n(&self) -> usize;
    /// The number of features of every row.
    fn dim(&self) -> usize;
    /// Whether the rows are sparse (their stored non-zeros only).
    fn is_sparse(&self) -> bool;
    /// Hands every row `i` to `pass.row(i, row)` in order; when `pass.ahead()`, row `i + 1` (if
    /// any) goes to `pass.prefetch` first, for the learner's prefetch of its state. The pass is a
    /// concrete type whose per-row work is a static call the implementation's loop can inline
    /// (measured: a callback through a trait object, or the next row handed to `row` as an
    /// `Option`, cost sparse one-pass fits 12-13 %).
    fn pass(&self, pass: &mut RowPass<'_>);
    /// The rows, with `labels`, as a dataset (a copy: dense stays dense, sparse sparse).
    fn dataset(&self, labels: Vec<Label>) -> Result<Dataset, Error>;
}

/// What a pass over a [`RowSource`] does with each row: prepare it as the model's preparation
/// says, then step a one-pass learner on it (its score before the step kept when asked) or
/// score it. Built here, handed to [`RowSource::pass`], which calls [`RowPass::row`] for every
/// row in order.
pub struct RowPass<'a> {
    work: Work<'a>,
    prep: &'a Preparation,
    plain: bool,
    ahead: bool,
    bufs: RowBuffers,
}

/// The two kinds of pass.
enum Work<'a> {
    /// Step a learner on each row (with its label), its prequential scores pushed when asked.
    Learn {
        learner: &'a mut dyn OnlineLearner,
        labels: &'a [Label],
        prequential: Option<&'a mut Vec<f64>>,
    },
    /// Score each row; the first score that is not finite is kept with its row.
    Score {
        state: &'a dyn Trained,
        out: &'a mut Vec<f64>,
        bad: Option<(usize, f64)>,
    },
}

impl<'a> RowPass<'a> {
    /// A pass that steps `learner` on each row with its label from `labels`, its score before
    /// the step pushed to `prequential` when given; with `ahead`, each row comes with the next
    /// (the learner prefetches its state for it).
    pub(crate) fn learn(
        learner: &'a mut dyn OnlineLearner,
        labels: &'a [Label],
        prep: &'a Preparation,
        prequential: Option<&'a mut Vec<f64>>,
        ahead: bool,
    ) -> Self {
        RowPass {
            work: Work::Learn {
                learner,
                labels,
                prequential,
            },
            prep,
            plain: prep.transform.is_identity(),
            ahead,
            bufs: RowBuffers::new(),
        }
    }

    /// A pass that scores each row by `state` into `out`.
    pub(crate) fn score(
        state: &'a dyn Trained,
        out: &'a mut Vec<f64>,
        prep: &'a Preparation,
    ) -> Self {
        RowPass {
            work: Work::Score {
                state,
                out,
                bad: None,
            },
            prep,
            plain: prep.transform.is_identity(),
            ahead: false,
            bufs: RowBuffers::new(),
        }
    }

    /// The first row whose score was not finite, with the score (a scoring pass).
    pub(crate) fn not_finite(&self) -> Option<(usize, f64)> {
        match &self.work {
            Work::Score { bad, .. } => *bad,
            Work::Learn { .. } => None,
        }
    }

    /// Whether the next row is wanted with each row (sparse rows whose features the stages keep:
    /// the learner prefetches its state for them).
    pub fn ahead(&self) -> bool {
        self.ahead
    }

    /// The next row, shown to the learner before [`RowPass::row`] of this one when
    /// [`RowPass::ahead`] asks for it (its prefetch of the row's state).
    #[inline]
    pub fn prefetch(&mut self, next: Row<'_>) {
        if let Work::Learn { learner, .. } = &mut self.work {
            learner.prefetch(next);
        }
    }

    /// Row `i` of the pass.
    #[inline]
    pub fn row(&mut self, i: usize, x: Row<'_>) {
        let x = if self.plain {
            x
        } else {
            self.prep.apply_row(x, &mut self.bufs)
        };
        match &mut self.work {
            Work::Learn {
                learner,
                labels,
                prequential,
            } => {
                if let Some(scores) = prequential.as_deref_mut() {
                    scores.push(learner.score(x));
                }
                learner.update(x, labels[i]);
            }
            Work::Score { state, out, bad } => {
                let s = state.score(x);
                if !s.is_finite() && bad.is_none() {
                    *bad = Some((i, s));
                }
                out.push(s);
            }
        }
    }
}
