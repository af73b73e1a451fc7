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
