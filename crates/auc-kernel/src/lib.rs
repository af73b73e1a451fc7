//! Kernels and budgeted online kernel AUC learners [OAUC sec. 5]: OKAUC-M, OKAUC-S and the KOIL
//! baseline, with per-class support buffers of fixed budget (SPEC section 6).
//!
//! So far this crate holds the kernels: [`Kernel`] with [`Gaussian`] (the OAUC convention
//! $\exp(-\lVert x - z \rVert^2 / \sigma^2)$, no factor 2), [`LinearKernel`] and [`Polynomial`],
//! on dense and sparse rows, and [`Cached`] rows that carry their squared norm so that every
//! kernel value costs one dot product. The budgeted learners are the rest of the kernel issue.
//!
//! Its per-example cost must be bounded by the budget, never by the stream. It must never depend
//! on the parser.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $k(x, z)$ | [`Kernel::eval`] | the kernel value |
//! | $\sigma$ | [`Gaussian::sigma`] | Gaussian width, $k = \exp(-\lVert x - z\rVert^2/\sigma^2)$ [OAUC sec. 6.3] |
//! | $\lVert x \rVert^2$ | [`Cached::norm_sq`] | a row's squared norm, computed once |

mod kernels;

pub use kernels::{Cached, Gaussian, Kernel, LinearKernel, Polynomial};
