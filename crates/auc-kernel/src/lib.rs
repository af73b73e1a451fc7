//! Kernels and budgeted online kernel AUC learners [OAUC sec. 5]: OKAUC-M, OKAUC-S and the KOIL
//! baseline, with per-class support buffers of fixed budget (conventions section 6).
//!
//! - kernels: [`Kernel`] with [`Gaussian`] (the OAUC convention
//!   $\exp(-\lVert x - z \rVert^2 / \sigma^2)$, no factor 2), [`LinearKernel`] and
//!   [`Polynomial`], on dense and sparse rows, with cached squared norms ([`Cached`]) so that
//!   every kernel value costs one dot product; [`AnyKernel`] picks one at run time;
//! - [`Support`]: two per-class buffers of budget $B$ with FIFO or reservoir removal, the evicted
//!   weight compensated [OAUC eq. 28] (argmax fix of conventions section 6) or moved to the nearest row
//!   \[KOIL18\], the $(2B+1)^2$ kernel block and the buffered f-values cached and updated
//!   incrementally: a step costs $O(B^2 + Bp)$ and allocates nothing;
//! - the learners [`OkaucM`] ($\psi_M$, $\eta_t = 1/(\lambda t)$) [OAUC eq. 26],
//!   [`OkaucS`] ($\psi_S$, constant $\eta$) [OAUC eq. 27] and the baseline [`Koil`] \[KOIL18\].
//!
//! Every learner's whole state (buffers, weights, caches, random generator) is serde-serializable,
//! so a saved model resumes bit for bit.
//!
//! # Choices the papers leave open (documented where they are made)
//!
//! - [OAUC eq. 28] prints $r^\star = \arg\min_r |k(x_r, x_j)|$; the minimizer of the objective it
//!   states maximizes $k(x_r,x_j)^2/k(x_r,x_r)$, which is what [`Compensation::Projection`] uses
//!   (conventions section 6), with the incoming example among the candidates (\[OAUC alg. 4\] evicts
//!   $x_j$, not $x_i$).
//! - OKAUC inserts every example, whatever its weight, because the buffers are also the
//!   comparison sets of later examples; KOIL never inserts a zero weight (\[KOIL18\]).
//! - An empty comparison buffer means no loss term (conventions section 5); KOIL instead bootstraps with
//!   weight $\eta C y_t$, as its reference code does, since otherwise no point would ever enter.
//! - A step whose values are not finite or exceed [`MAX_WEIGHT`] is rejected whole; a row whose
//!   kernel values overflow is skipped; a score is never NaN.
//! - Polyak-Ruppert averaging (`--average` for the linear learners) does not apply: there is no
//!   weight vector to average.
//!
//! Its per-example cost must be bounded by the budget, never by the stream. It must never depend
//! on the parser.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $k(x, z)$ | [`Kernel::eval`] | the kernel value |
//! | $\sigma$ | [`Gaussian::sigma`] | Gaussian width, $k = \exp(-\lVert x - z\rVert^2/\sigma^2)$ [OAUC sec. 6.3] |
//! | $\lVert x \rVert^2$ | [`Cached::norm_sq`] | a row's squared norm, computed once |
//! | $\mathcal K^+_t, \mathcal K^-_t$; $N^\pm$ | [`Support`]; `budget` | the support buffers and their budget |
//! | $\alpha_{i,t}$ | [`Support::alpha`] | weight of buffered row $i$; $f_t = \sum_i \alpha_{i,t} k(x_i, \cdot)$ [OAUC eq. 20] |
//! | $\mu_t$, $\sigma_t^2$ | `mu`, `s2` | mean and variance of $f_t$ over the comparison buffer [OAUC eq. 21] |
//! | $b_t$, $A_t$, $\Psi_t$ | `b`, `root` $=\sqrt{A_t}$, `psi` | [OAUC eqs. 23-24] |
//! | $\lambda$, $\eta_t$ | `lambda`, `eta` | regularization and step size |
//! | $r^\star$, $\Delta\alpha_{r^\star}$ | [`Compensation`] | where an evicted weight goes [OAUC eq. 28] |
//! | $k$, $C$ | `k`, `c` | KOIL's neighbourhood size and loss weight \[KOIL18\] |

mod kernels;
mod koil;
mod okauc;
mod support;

pub use kernels::{AnyKernel, Cached, Gaussian, Kernel, LinearKernel, Polynomial};
pub use koil::{Koil, KoilParams};
pub use okauc::{OkaucM, OkaucMParams, OkaucS, OkaucSParams};
pub use support::{Compensation, MAX_BUDGET, MAX_WEIGHT, Removal, Support};

/// A budgeted kernel learner: its model is the expansion $f = \sum_s \alpha_s k(x_s, \cdot)$
/// over its support buffers.
pub trait KernelLearner {
    /// The support buffers, weights and caches.
    fn support(&self) -> &Support;
}

impl KernelLearner for OkaucM {
    fn support(&self) -> &Support {
        OkaucM::support(self)
    }
}

impl KernelLearner for OkaucS {
    fn support(&self) -> &Support {
        OkaucS::support(self)
    }
}

impl KernelLearner for Koil {
    fn support(&self) -> &Support {
        Koil::support(self)
    }
}
