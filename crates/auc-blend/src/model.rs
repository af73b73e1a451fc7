//! The fitted blend: the kernel member (its map and linear model), the tree member, and the
//! weights that put their scores on a common scale.

use std::cell::RefCell;

use auc_core::{Row, SavedState, Scorer, StateError, check};
use auc_online::{Linear, MomentModel};
use auc_prep::{FeatureMap, FittedStage};
use auc_trees::BoostedModel;
use serde::{Deserialize, Serialize};

/// A fitted blend: $f(x) = a\, k(z(x)) + b\, t(x)$ with $z$ the Nystroem map, $k$ the linear
/// model on it, $t$ the trees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlendModel {
    pub(crate) dim: usize,
    pub(crate) map: FeatureMap,
    pub(crate) kernel: MomentModel,
    pub(crate) trees: BoostedModel,
    /// $a = w / s_k$.
    pub(crate) kernel_weight: f64,
    /// $b = (1 - w) / s_t$.
    pub(crate) tree_weight: f64,
}

thread_local! {
    /// The mapped row of [`BlendModel::score`], reused across calls on one thread.
    static MAPPED: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

impl BlendModel {
    /// The number of features it reads.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The kernel member's map.
    pub fn map(&self) -> &FeatureMap {
        &self.map
    }

    /// The kernel member's linear model on the map.
    pub fn kernel(&self) -> &MomentModel {
        &self.kernel
    }

    /// The tree member.
    pub fn trees(&self) -> &BoostedModel {
        &self.trees
    }

    /// The weights $(a, b)$ of the two members' scores.
    pub fn weights(&self) -> (f64, f64) {
        (self.kernel_weight, self.tree_weight)
    }

    /// The kernel member's score of `x`.
    pub fn kernel_score(&self, x: Row<'_>) -> f64 {
        MAPPED.with_borrow_mut(|z| {
            self.map.map_into(x, z);
            self.kernel.score(Row::Dense(z))
        })
    }

    /// One line about the fit.
    pub fn summary(&self) -> String {
        format!(
            "kernel member {} on {}; tree member {}; weights {:.4} and {:.4}",
            <auc_online::OpaucBatchParams as auc_core::Params>::NAME,
            self.map.describe(),
            self.trees.summary(),
            self.kernel_weight,
            self.tree_weight
        )
    }
}

impl Scorer for BlendModel {
    fn score(&self, x: Row<'_>) -> f64 {
        let s = self.kernel_weight * self.kernel_score(x) + self.tree_weight * self.trees.score(x);
        if s.is_finite() { s } else { 0.0 }
    }
}

impl SavedState for BlendModel {
    const STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        self.map
            .validate(self.dim)
            .map_err(|e| StateError::new(format!("the kernel member's map: {e}")))?;
        check::state(self.map.input_dim() == self.dim, || {
            format!(
                "the map reads {} features, the blend {}",
                self.map.input_dim(),
                self.dim
            )
        })?;
        self.kernel.validate()?;
        let w = Linear::weights(&self.kernel).len();
        check::state(w == self.map.output_dim(), || {
            format!(
                "the kernel member has {w} weights for a map of {} features",
                self.map.output_dim()
            )
        })?;
        self.trees.validate()?;
        check::state(self.trees.dim() == self.dim, || {
            format!(
                "the trees read {} features, the blend {}",
                self.trees.dim(),
                self.dim
            )
        })?;
        check::finite(
            "the members' weights",
            &[self.kernel_weight, self.tree_weight],
        )?;
        check::state(self.kernel_weight >= 0.0 && self.tree_weight >= 0.0, || {
            "the members' weights must not be negative".to_owned()
        })
    }
}
