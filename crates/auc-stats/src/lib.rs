//! Per-class moments for the second-order surrogate losses [OAUC sec. 4.2, eqs. 15-18].
//!
//! This crate will own, for each class, the count $n$, the mean $m$ and the population covariance
//! $S$ (upper triangle), updated one example at a time in the numerically stable Welford form,
//! mergeable exactly across disjoint streams, with the $w^\top S w$ and $S w$ kernels that every
//! moment-based learner calls on its hot path (SPEC section 3).
//!
//! It must never depend on the parser or on any learner. It is empty until the moments issue lands.
