//! The fitted ensemble: its trees and the summary of its fit; what a model file stores.

use auc_core::{Row, SavedState, Scorer, StateError};
use serde::{Deserialize, Serialize};

use crate::loss::PairLoss;
use crate::tree::Tree;

/// A boosted ensemble: the score of a row is the sum of its trees' leaf values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostedModel {
    pub(crate) dim: usize,
    pub(crate) trees: Vec<Tree>,
    pub(crate) loss: PairLoss,
    /// The pairwise loss of the training scores before the first tree and after the last.
    pub(crate) first_loss: f64,
    pub(crate) last_loss: f64,
    pub(crate) positives: u64,
    pub(crate) negatives: u64,
}

impl BoostedModel {
    /// The number of features it reads.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Its trees.
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// The surrogate it descended.
    pub fn loss(&self) -> PairLoss {
        self.loss
    }

    /// The training loss before the first tree (`first`) and after the last (`last`).
    pub fn losses(&self) -> (f64, f64) {
        (self.first_loss, self.last_loss)
    }

    /// The class counts of its training rows.
    pub fn counts(&self) -> (u64, u64) {
        (self.positives, self.negatives)
    }

    /// Per feature, the number of splits on it over all the trees ([`BoostedModel::dim`]
    /// entries): the split count of an explanation, read from the saved trees (the model does
    /// not store the splits' gains).
    pub fn split_counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.dim];
        for node in self.trees.iter().flat_map(|t| &t.nodes) {
            if let Some(c) = counts.get_mut(node.feature as usize) {
                *c += 1;
            }
        }
        counts
    }

    /// The total number of leaves.
    pub fn leaves(&self) -> usize {
        self.trees.iter().map(|t| t.leaves.len()).sum()
    }

    /// One line about the fit: `100 trees, 3100 leaves; training loss 0.5 -> 0.061`.
    pub fn summary(&self) -> String {
        format!(
            "{} trees, {} leaves; {} pairwise loss on the training rows {:.6} -> {:.6}",
            self.trees.len(),
            self.leaves(),
            match self.loss {
                PairLoss::Square => "square",
                PairLoss::Hinge => "squared-hinge",
                PairLoss::Exp => "exponential",
            },
            self.first_loss,
            self.last_loss
        )
    }
}

impl Scorer for BoostedModel {
    fn score(&self, x: Row<'_>) -> f64 {
        self.trees.iter().map(|t| t.predict(x)).sum()
    }
}

impl SavedState for BoostedModel {
    const STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        let bad = |what: String| Err(StateError::new(what));
        for (k, t) in self.trees.iter().enumerate() {
            if let Err(e) = t.validate(self.dim) {
                return bad(format!("tree {k}: {e}"));
            }
        }
        if !(self.first_loss.is_finite() && self.last_loss.is_finite()) {
            return bad("the recorded losses are not finite".to_owned());
        }
        // A sum of finite leaf values that overflows would score infinity: refuse it.
        let bound: f64 = self
            .trees
            .iter()
            .map(|t| t.leaves.iter().fold(0.0f64, |m, v| m.max(v.abs())))
            .sum();
        if !bound.is_finite() {
            return bad("the leaf values can sum past the largest float".to_owned());
        }
        Ok(())
    }
}

#[cfg(feature = "testing")]
impl BoostedModel {
    /// Its trees, mutable: for tests that damage a model.
    pub fn trees_mut(&mut self) -> &mut Vec<Tree> {
        &mut self.trees
    }
}
