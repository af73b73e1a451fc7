//! GAM-CVM \[CVM secs. 2-4\]: sub-kernels fused by cross-diffusion, a generalized AUC objective
//! with ranking margin $\tau$, solved as a center-constrained minimum enclosing ball by a core
//! vector machine (conventions section 7), plus the baselines built from the same parts: single and
//! paired sub-kernels (\[CVM Table 6\]), a rho-AUCCVM-style single Gaussian kernel, and AUCSVM as
//! the exact pairwise QP \[BS05\].
//!
//! This crate owns the kernels ([`kernels`]), the fusion ([`fusion`]) and its landmark
//! approximation ([`approx`]), the solvers ([`solver`]) and the batch learner ([`model`]). It
//! must never depend on the parser, never materialize the $n_+ n_-$ pairs or an $(n_+ n_-)^2$
//! matrix (AUCSVM is solved in the primal from sorted scores, [`primal`]), never abort on a
//! too-large allocation (the big buffers are reserved fallibly; [`GamCvmParams::estimate_bytes`]
//! says how much a fit needs before it starts), and never draw a random number that does not
//! come from the caller's seed.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $K^{(1)}, \sigma_1$ | [`kernels::Gaussian`], `sigma1` | Gaussian sub-kernel, median per-sample std \[CVM eq. 14\] |
//! | $K^{(2)}$ | [`kernels::Pearson`] | $(1 + r_{ij})/2$ \[CVM eq. 15\] |
//! | $\mathrm{SPA}_{loc}$, $n_{loc}$ | [`kernels::Points::sparsity`], `n_loc` | mean distance to the $n_{loc}$ nearest points \[CVM eq. 16\] |
//! | $K^{(3)}, \sigma_2$ | [`kernels::Density`], `sigma2` | density sub-kernel, median sparsity \[CVM eq. 17\] |
//! | $\bar K^{(m)}_t$ | status matrices inside [`fusion::fuse`] | natural kernels (normalized as [`fusion::Normalization`] says) and their iterates \[CVM eqs. 18, 21\] |
//! | $\bar L^{(m)}$ | [`fusion::local_weights`] | sparse local kernels \[CVM eqs. 19-20\], rows normalized |
//! | $\tilde K_n \approx \Lambda \tilde K_m \Lambda^\top + \rho I$ | [`approx::LandmarkKernel`] | the opt-in landmark approximation (`landmarks = m`) |
//! | $\rho$, $T$ | [`fusion::FusionParams`] `rho`, `max_iter` | regularization and rounds of eq. 21 |
//! | $d(\bar K^{(m)}_t, \bar K^{(s)}_t)$ | [`fusion::FusionInfo::distances`] | Theorem 1's distance, the convergence check |
//! | $\tilde K$ | [`fusion::Gram`] | fused kernel \[CVM eq. 22\], `f32` |
//! | $z_{ij}$, $H$, $\tilde H$ | [`solver::Problem::h_tilde`] | pair points and their Gram matrix \[CVM eq. 39\] |
//! | $C_1$, $C_2$ | [`GamCvmParams::c1`], [`GamCvmParams::c2`] | slack and margin weights \[CVM eq. 11\] |
//! | $\alpha = C_2 \beta$ | [`solver::Solution::beta`] | dual variables on the simplex \[CVM eqs. 40-41\] |
//! | $\varsigma$, $\Psi$ | [`solver::Solution::varsigma`] | the CCMEB constant \[CVM eqs. 42-43\] |
//! | $\epsilon$, $V_S$ | [`solver::CvmParams::eps`], [`solver::Solution::pairs`] | approximation and core set \[CVM alg. 1\] |
//! | $\tau$ | [`solver::Solution::tau`] | ranking margin $\alpha^\top \tilde H \alpha / C_2$ |
//! | $f(x)$ | [`GamCvmModel`] | $\sum_{ij}\alpha_{ij}(k(x_i, x) - k(x_j, x))$ \[CVM eq. 44\] |
//! | $f$ on new points, saved | [`InductiveModel`] | fitted points, bandwidths, $f$ and $w$: $O(n p)$, no kernel matrix ([`model`] docs) |
//!
//! # Findings that shape the code
//!
//! - $C_2$ only scales $\alpha$, the scores and $\tau$ ([`solver`] docs; test
//!   `c2_only_scales_scores`): it cannot change AUC or AP.
//! - Eqs. 18 and 20 as printed normalize across the sub-kernels. That form is the default
//!   because it gives the better three-kernel model on 12 of 13 shared data sets; but eq. 18
//!   keeps only each kernel's share of an entry, so a kernel fused with a copy of itself loses
//!   its whole similarity order, and two-kernel ablations can rank worse than chance
//!   (`normalization = rows` normalizes each kernel by its own rows, as \[Wang12\]; [`fusion`]
//!   docs, with tests of both failures).
//!
//! Memory for Letter-z ($n = 20{,}000$): 3.2 GB at the fusion's peak (4 packed `f32` triangles;
//! 6.4 GB with row normalization), 1.6 GB for the fused kernel afterwards; the core vector
//! machine adds $O(n)$ plus the core set's reduced matrix ($8 s^2$ bytes for $s$ core pairs).
//! With `landmarks = m` no $n \times n$ matrix exists ([`approx`]).

pub mod approx;
pub mod fusion;
mod gram;
mod inductive;
pub mod kernels;
pub mod model;
mod packed;
pub mod primal;
mod problem;
mod scoring;
pub mod solver;
pub mod variants;

pub use model::{
    CachedFit, FitInfo, FusedSet, GamCvmModel, GamCvmParams, InductiveModel, KernelCache,
    KernelSpec, RestoreError, SolverKind,
};
pub use variants::{
    AucSvm, GamCvm, GamCvmK1, GamCvmK2, GamCvmK3, GamCvmK12, GamCvmK13, GamCvmK23, GamCvmSettings,
    LANDMARK_EPSILON, RhoAucCvm,
};
