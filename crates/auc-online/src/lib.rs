//! Linear one-pass learners for AUC on imbalanced streams.
//!
//! This crate owns the linear online learners: for now the two classical baselines of
//! [OAUC sec. 6.1], the [`Perceptron`] \[Rosenblatt58\] and the passive-aggressive [`PaI`]
//! \[PA06\], which minimize classification mistakes rather than AUC and anchor the tables. Each
//! learner costs $O(\mathrm{nnz}(x))$ per update and $O(p)$ memory, whatever the stream's length.
//!
//! It sees examples only through `auc_core`'s row views and never depends on the parser, so a user
//! who brings their own rows pulls in no file-format code. It never draws unseeded randomness.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $w$ | `weights()` | the linear scorer $f(x) = w^\top x$ |
//! | $C$ | `c` | PA-I aggressiveness (cap on the step) |
//! | $\ell_t$ | `loss` | hinge loss $\max(0, 1 - y_t w^\top x_t)$ |

mod average;
mod baselines;
pub mod rng;

pub use average::{Averaged, AveragedParams, Linear};
pub use baselines::{PaI, PaIParams, Perceptron, PerceptronParams};
