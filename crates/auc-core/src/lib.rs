//! The vocabulary every crate of the `auc` workspace shares.
//!
//! This crate owns the types that record what has already been checked — a [`Label`] is positive or
//! negative, a [`SparseRow`] has strictly increasing indices and finite values, a [`Dataset`] has a
//! label per row — and the traits every learner implements ([`Scorer`], [`OnlineLearner`], [`Fit`],
//! [`OnlineParams`], [`BatchParams`], [`SavedState`]), plus the parameter vocabulary ([`Params`],
//! [`ParamSpec`], [`ParamMap`], [`check`]).
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
mod fields;
mod label;
mod learner;
mod params;
mod row;

pub mod check;
#[cfg(feature = "testing")]
pub mod testing;

pub use dataset::{Dataset, Storage};
pub use error::{DatasetError, FitError, ParamError, StateError};
pub use label::Label;
pub use learner::{
    BatchParams, BoxedModel, DataShape, Divergence, DynFit, Fit, OnlineLearner, OnlineParams,
    SavedState, Scorer, Streaming, Transductive, update_in_order,
};
pub use params::{Family, ParamKind, ParamMap, ParamSpec, ParamValue, Params, Range};
pub use row::{Row, RowBuf, SparseRow, SparseVec};

/// `v` in the shortest form that reads back to the same `f64`: `0.25`, `1e-8`, `1e300`, `1024`
/// (no trailing `.0`), `-0`, never a 300-digit expansion. Scores, parameters and figures are
/// printed this way everywhere.
pub fn shortest(v: f64) -> String {
    // `{:?}` is Rust's shortest round-trip form, with an exponent for very large or small values.
    let s = format!("{v:?}");
    match s.strip_suffix(".0") {
        Some(int) => int.to_owned(),
        None => s,
    }
}
