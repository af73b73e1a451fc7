//! The vocabulary every crate of the `auc` workspace shares.
//!
//! This crate owns the types that record what has already been checked — a [`Label`] is positive or
//! negative, a [`SparseRow`] has strictly increasing indices and finite values, a [`Dataset`] has a
//! label per row — and the traits every learner implements ([`Scorer`], [`OnlineLearner`], [`Fit`],
//! [`OnlineParams`]), plus the parameter vocabulary ([`ParamMap`], [`ParamSpec`], [`check`]).
//!
//! It must never parse files, know an algorithm's name, draw random numbers, or depend on anything
//! heavier than `serde`: a downstream user who brings their own rows pulls in nothing else.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $y \in \\{-1,+1\\}$ | [`Label`], [`Label::sign`] | class of an example |
//! | $x \in \mathbb{R}^p$ | [`Row`] | one example's features, dense or sparse |
//! | $p$ | [`Dataset::dim`] | number of features |
//! | $f(x)$ | [`Scorer::score`] | the learned scoring function |

mod dataset;
mod error;
mod label;
mod learner;
mod params;
mod row;

pub mod check;
#[cfg(feature = "testing")]
pub mod testing;

pub use dataset::{Dataset, Storage};
pub use error::{DatasetError, FitError, ParamError};
pub use label::Label;
pub use learner::{BoxedModel, DynFit, Fit, OnlineLearner, OnlineParams, Scorer, Streaming};
pub use params::{ParamMap, ParamSpec};
pub use row::{Row, RowBuf, SparseRow, SparseVec};
