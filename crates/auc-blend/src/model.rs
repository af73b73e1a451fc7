//! The fitted blend: the kernel member (its map and linear model), the tree member, and the
//! weights that put their scores on a common scale.

use std::cell::RefCell;

use auc_core::{Dataset, Row, SavedState, Scorer, StateError, check};
use auc_online::{Linear, MomentModel};
use auc_prep::{FeatureMap, FittedStage};
use auc_trees::BoostedModel;
use serde::{Deserialize, Serialize};

/// A fitted blend: $f(x) = a\, k(z(x)) + b\, t(x)$ with $z$ the Nystroem map, $k$ the linear
/// model on it, $t$ the trees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Wire", into = "Wire")]
pub struct BlendModel {
    pub(crate) dim: usize,
    pub(crate) map: FeatureMap,
    pub(crate) kernel: MomentModel,
    pub(crate) trees: BoostedModel,
    /// $a = w / s_k$.
    pub(crate) kernel_weight: f64,
    /// $b = (1 - w) / s_t$.
    pub(crate) tree_weight: f64,
    /// The kernel member's weights on the landmarks' kernel values, $P w$
    /// ([`FeatureMap::collapse`]); derived from the map and the model, not saved.
    pub(crate) collapsed: Vec<f64>,
}

/// What a blend saves: every field but the derived weights, which are computed again on
/// reading.
#[derive(Serialize, Deserialize)]
struct Wire {
    dim: usize,
    map: FeatureMap,
    kernel: MomentModel,
    trees: BoostedModel,
    kernel_weight: f64,
    tree_weight: f64,
}

impl From<Wire> for BlendModel {
    fn from(w: Wire) -> BlendModel {
        BlendModel {
            dim: w.dim,
            map: w.map,
            kernel: w.kernel,
            trees: w.trees,
            kernel_weight: w.kernel_weight,
            tree_weight: w.tree_weight,
            collapsed: Vec::new(),
        }
        .with_collapsed()
    }
}

impl From<BlendModel> for Wire {
    fn from(b: BlendModel) -> Wire {
        Wire {
            dim: b.dim,
            map: b.map,
            kernel: b.kernel,
            trees: b.trees,
            kernel_weight: b.kernel_weight,
            tree_weight: b.tree_weight,
        }
    }
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

    /// The kernel member's score of `x`: $w^\top z(x)$, computed as $v^\top k(L, x)$ with
    /// $v = P w$ (equal up to rounding; [`FeatureMap::collapse`]).
    pub fn kernel_score(&self, x: Row<'_>) -> f64 {
        collapsed_score(&self.map, &self.collapsed, x)
    }

    /// The blend with its derived weights set (after fitting or decoding).
    pub(crate) fn with_collapsed(mut self) -> Self {
        self.collapsed = self
            .map
            .collapse(Linear::weights(&self.kernel))
            .unwrap_or_default();
        self
    }

    /// The kernel member's scores of every row of `data`, in order, blocks of rows in
    /// parallel: each row's [`BlendModel::kernel_score`].
    pub fn kernel_scores(&self, data: &Dataset) -> Vec<f64> {
        collapsed_scores(&self.map, &self.collapsed, data)
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

/// The score $v^\top k(L, x)$ of `x` under `map` with collapsed weights `v`
/// ([`FeatureMap::collapse`]), the map's scratch reused on the thread.
fn collapsed_score(map: &FeatureMap, v: &[f64], x: Row<'_>) -> f64 {
    MAPPED.with_borrow_mut(|a| map.collapsed_score(x, v, a))
}

/// [`collapsed_score`] of every row of `data`, in order, blocks of rows in parallel: the
/// kernel member's scores, for a fitted blend or for a kernel member fitted on a fold.
pub(crate) fn collapsed_scores(map: &FeatureMap, v: &[f64], data: &Dataset) -> Vec<f64> {
    crate::blocks::map_blocks(data, |block| {
        block
            .iter()
            .map(|(x, _)| collapsed_score(map, v, x))
            .collect::<Vec<f64>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

impl BlendModel {
    /// The blend of the members' scores `k` and `t` of one row.
    fn combine(&self, k: f64, t: f64) -> f64 {
        let s = self.kernel_weight * k + self.tree_weight * t;
        if s.is_finite() { s } else { 0.0 }
    }
}

impl Scorer for BlendModel {
    /// A member of weight 0 is not scored (its term is 0 whatever its score, which is always
    /// finite): a blend that kept one member scores at that member's cost.
    fn score(&self, x: Row<'_>) -> f64 {
        let k = if self.kernel_weight == 0.0 {
            0.0
        } else {
            self.kernel_score(x)
        };
        self.combine(k, self.tree_score(x))
    }

    /// Every row's score, the kernel member's through the map a block at a time: the values
    /// [`BlendModel::score`] gives row by row.
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        let k = if self.kernel_weight == 0.0 {
            vec![0.0; data.n()]
        } else {
            self.kernel_scores(data)
        };
        data.iter()
            .zip(k)
            .map(|((x, _), k)| self.combine(k, self.tree_score(x)))
            .collect()
    }
}

impl BlendModel {
    /// The tree member's score of `x`, or 0 when its weight is 0 ([`Scorer::score`]).
    fn tree_score(&self, x: Row<'_>) -> f64 {
        if self.tree_weight == 0.0 {
            0.0
        } else {
            self.trees.score(x)
        }
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
        check::state(self.collapsed.len() == self.map.size(), || {
            format!(
                "the kernel member's map is {}, not a Nystroem map the blend can score through",
                self.map.describe()
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
