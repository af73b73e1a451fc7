//! Gradient-boosted regression trees that maximize the AUC: each round fits a histogram tree
//! to the Newton step of a pairwise surrogate of the AUC over all positive-negative pairs of
//! the training rows ([`loss`]), computed from the scores in $O(n)$ (square) or $O(n \log n)$
//! (squared hinge) without forming a pair. The math, with what is exact and what is
//! approximate, is in `docs/math/boosted-trees.md`.
//!
//! - [`bins`]: each feature's values cut into at most 256 bins, the rows as bytes.
//! - [`grow`]: one tree grown leaf by leaf on histograms of the binned rows.
//! - [`tree`]: a fitted tree and its prediction on raw values.
//! - [`model`]: the ensemble, its saved form and checks.
//! - [`params`]: the parameters (`gbt-auc` in the registry) and the fit.
//!
//! Like the other learner crates it sees rows only through `auc_core`, makes no random choice
//! (a fit is a function of the rows and the parameters, whatever the thread count) and never
//! returns NaN for finite input.

pub mod bins;
pub mod grow;
pub mod loss;
pub mod model;
pub mod params;
pub mod tree;

pub use loss::PairLoss;
pub use model::BoostedModel;
pub use params::BoostedTreesParams;
pub use tree::{Child, Node, Tree};
