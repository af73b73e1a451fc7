//! GAM-CVM \[CVM secs. 2-4\]: sub-kernels fused by cross-diffusion, a generalized AUC objective
//! with ranking margin $\tau$, solved as a center-constrained minimum enclosing ball by a core
//! vector machine (SPEC section 7).
//!
//! Pairs of examples are never materialized. It must never depend on the parser.

pub mod fusion;
pub mod kernels;
pub mod model;
pub mod solver;

pub use model::{FitInfo, FusedSet, GamCvmModel, GamCvmParams, KernelSpec, SolverKind};
