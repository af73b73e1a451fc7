//! The second-order surrogate AUC losses of [OAUC sec. 3]: $\psi_S$, $\psi_M$, $\Phi_M$, $\phi_M$,
//! their values and gradients from class moments, with the paper's lemmas as property tests
//! (SPEC section 4).
//!
//! It must never divide by $\sigma$, never return NaN for finite input, and never depend on the
//! parser or on any learner. It is empty until the moments issue lands.
