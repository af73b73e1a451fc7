//! `blend`: two nonlinear AUC learners of different kinds fitted on the same rows, their scores
//! averaged on a common scale (`docs/math/blend.md`).
//!
//! - The kernel member: a Nystroem map of the Gaussian kernel (landmarks by k-means on a seeded
//!   sample, the `scale` width rule) and the exact minimizer of the square surrogate over all
//!   pairs of the mapped rows (OPAUC-batch), from their class moments, taken block by block so
//!   that the mapped rows are never all in memory.
//! - The tree member: `gbt-auc`, boosted trees on the pairwise exponential loss.
//!
//! Each member's scores are divided by their standard deviation over the training rows, then
//! weighted: $f(x) = w\, k(x) / s_k + (1 - w)\, t(x) / s_t$. A smooth kernel model and
//! axis-aligned trees err on different rows, which is why their average ranks better than either
//! on most of the shared data sets (`docs/results/default-learner.md`).
//!
//! The crate sits above the preparation and the learner crates it combines (it fits a
//! `auc_prep::FeatureMap` itself) and below the registry.

mod blocks;
mod kernel_moments;
mod members;
mod model;
mod params;
mod projected;
mod weight;

pub use model::BlendModel;
pub use params::BlendParams;
pub use weight::{MIN_FOLD_CLASS_ROWS, WEIGHT_ROWS, WEIGHTS, WeightChoice};
