//! Kernels and budgeted online kernel AUC learners [OAUC sec. 5]: OKAUC-M, OKAUC-S and the KOIL
//! baseline, with per-class support buffers of fixed budget (SPEC section 6).
//!
//! Its per-example cost must be bounded by the budget, never by the stream. It must never depend
//! on the parser. It is empty until the kernel-learner issue lands.
