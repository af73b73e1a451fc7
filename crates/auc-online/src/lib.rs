//! Linear one-pass learners for AUC on imbalanced streams.
//!
//! This crate owns the linear online learners, each with memory independent of the stream's length:
//!
//! - the moment learners [`OaucM`], [`OaucMc`] [OAUC alg. 1], [`Opauc`] [OAUC eq. 13], [`AdaOam`]
//!   and [`AdmOam`] [ADM alg. 1], which keep each class's mean and covariance (auc-stats) and step
//!   on the second-order surrogates (auc-surrogate): $O(p^2)$ memory and time per example;
//! - the buffer learners [`OamSeq`] and [`OamGra`] \[OAM11\]: per-class reservoirs of a fixed
//!   budget, $O(B\,\mathrm{nnz})$ per example;
//! - [`Solam`] \[SOLAM16\], the saddle-point square-loss learner, $O(\mathrm{nnz}(x))$ per example;
//! - the classification baselines of [OAUC sec. 6.1], the [`Perceptron`] \[Rosenblatt58\] and the
//!   passive-aggressive [`PaI`] \[PA06\], $O(\mathrm{nnz}(x))$ per example;
//! - [`Averaged`], Polyak-Ruppert averaging of any of them (SPEC section 5).
//!
//! Every learner's whole state is serde-serializable, so a saved model resumes bit for bit.
//!
//! It sees examples only through `auc_core`'s row views and never depends on the parser, so a user
//! who brings their own rows pulls in no file-format code. It never draws unseeded randomness.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $w$ | `weights()` | the linear scorer $f(x) = w^\top x$ |
//! | $C$ | `c` | PA-I aggressiveness (cap on the step) |
//! | $\ell_t$ | `loss` | hinge loss $\max(0, 1 - y_t w^\top x_t)$ |
//! | $C_t$ | `c_t` | OAM penalty scaled by the opposite class's overflow, $C \max(1, N^{\bar y}_t / N^{\bar y})$ |
//! | $N^\pm$ | `budget` | OAM reservoir buffer size per class |
//! | $(w, a, b)$, $\alpha$ | `w`, `a`, `b`, `alpha` | SOLAM primal and dual variables |
//! | $\hat p_t$ | `p` | SOLAM running estimate of the positive rate |
//! | $\gamma_t = \eta / \sqrt t$, $R$ | `gamma`, `eta`, `r` | SOLAM step size, its scale, and the radius of the $w$ ball |
//! | $\bar w_t$ | `weights()` | SOLAM's output: $\sum_j \gamma_j w_j / \sum_j \gamma_j$ |
//! | $t$ | `steps()` | examples seen by a moment learner, every class counted, from 1 |
//! | $\eta$, $\eta_t$ | `eta` | step size (OAUC-M: $1/(\lambda t)$ [OAUC Thm 6]) |
//! | $\lambda$ | `lambda` | regularization weight in $\frac{\lambda}{2}\lVert w\rVert^2 + \psi$ |
//! | $\bar x$, $\Sigma$ | `moments()` | mean and covariance of the opposite class [OAUC eqs. 15-18] |
//! | $\psi_S$, $\psi_M$ | `loss_and_grad()` | square and moment surrogates [OAUC eqs. 13-14] |
//! | $m_t$, $v_t$ | `first`, `second` | Adam's gradient moments [ADM alg. 1] |
//! | $\beta_1$, $\beta_2$, $\epsilon$ | `beta1`, `beta2`, `epsilon` | Adam/Adagrad decays and smoothing [ADM alg. 1] |
//! | $G_t$ | `sum_sq` | AdaOAM's running sums of squared gradients |

mod average;
mod baselines;
mod moment;
mod oam;
pub mod rng;
mod solam;

pub use average::{Averaged, AveragedParams, Linear};
pub use baselines::{PaI, PaIParams, Perceptron, PerceptronParams};
pub use moment::{
    AdaOam, AdaOamParams, AdmOam, AdmOamParams, MAX_NORM, OaucM, OaucMParams, OaucMc, OaucMcParams,
    Opauc, OpaucParams,
};
pub use oam::{OamGra, OamGraParams, OamSeq, OamSeqParams};
pub use solam::{Solam, SolamParams};
