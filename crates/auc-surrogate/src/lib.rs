//! The second-order surrogate AUC losses of [OAUC sec. 3]: the square surrogate $\psi_S$ and the
//! moment-constrained hinge bound $\psi_M$, their values and gradients computed from the opposite
//! class's moments, and the functions $\Phi_M$, $\phi_M$ of [OAUC eq. 10]. The paper's lemmas are
//! this crate's property tests (conventions section 4).
//!
//! For an example $(x, y)$ against the opposite class's mean $m$ and covariance $S$, at weights
//! $w$: $\mu = y w^\top (x - m)$, $\sigma^2 = w^\top S w$, $b = 1 - \mu$, $A = b^2 + \sigma^2$, and
//! $$\psi_S(\mu, \sigma^2) = b^2 + \sigma^2, \qquad
//!   \psi_M(\mu, \sigma^2) = \frac{b + \sqrt{A}}{2}.$$
//! The one-dimensional forms ([`psi_s`], [`psi_m`], [`Surrogate::eval`]) return the value and the
//! partial derivatives in $\mu$ and $\sigma^2$ as a [`Psi`]; the $p$-dimensional loss and its
//! gradient in $w$ ([`loss_and_grad`], [`Psi::write_gradient`]) are that same [`Psi`] pushed
//! through the chain rule, $\nabla_w \Psi = \partial_\mu \psi \cdot y (x - m) +
//! 2 \partial_{\sigma^2} \psi \cdot S w$, written into a caller's buffer without allocating.
//!
//! It also holds [`PairHinge`], the pairwise squared hinge over every positive-negative pair of
//! a score vector (optionally weighted per negative), its gradient and generalized Hessian from
//! sorted scores in $O(n \log n)$: the loss AUCSVM's primal solver (auc-cvm) and the partial-AUC
//! learner (auc-online) minimize.
//!
//! This crate must never:
//! - divide by $\sigma$ (the gradient of [OAUC eq. 14] is used in the $1/\sqrt{A}$ form, which
//!   is defined wherever $A > 0$; at $A = 0$ it takes the hinge subgradient);
//! - return NaN for finite input (see each function for the exact guarantee);
//! - depend on the parser (auc-data), the moments crate (auc-stats) or any learner: it takes the
//!   moments as slices, $m$, $S w$ and $\sigma^2$, and depends on auc-core only.
//!
//! # Notation
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $x$, $y$ | [`Inputs::x`] ([`auc_core::Row`]), [`Inputs::y`] ([`auc_core::Label`]) | the example and its label |
//! | $\bar x$ | `m`, [`Inputs::m`] | mean of the opposite class |
//! | $\Sigma$ | (not passed) | population covariance of the opposite class |
//! | $\Sigma w$ | `sw`, [`Inputs::sw`] | the covariance times $w$, computed by the caller |
//! | $w$ | `w`, [`Inputs::w`] | the weights |
//! | $\mu = y w^\top (x - \bar x)$ | `mu`, [`margin`] | mean of the pairwise margins $c_i = y w^\top (x - x_i)$ |
//! | $\sigma^2 = w^\top \Sigma w$ | `s2`, [`Inputs::quad_form`] | variance of the pairwise margins |
//! | $b = 1 - \mu$ | `b` | distance of the mean margin below $1$ |
//! | $\sqrt{A} = \sqrt{b^2 + \sigma^2}$ | `r` | `b.hypot(sqrt(s2))`, never from $b^2$ |
//! | $v = (1 - \mu)/\sigma$ | `v` | argument of $\Phi_M$, $\phi_M$ |
//! | $\psi_S$, $\psi_M$ | [`psi_s`], [`psi_m`], [`Surrogate`] | the surrogates as functions of $(\mu, \sigma^2)$ |
//! | $\Psi_S(w)$, $\Psi_M(w)$ | [`loss`], [`loss_and_grad`] | the surrogates as functions of $w$ |
//! | $\Phi_M$, $\phi_M$ | [`big_phi_m`], [`phi_m`] | [OAUC eq. 10] |
//! | $n$, $k^\star$ | (tests only) | size of the opposite class; worst-case count in Lemma 2 |
//!
//! # The paper's claims, where they live, and the test that checks each
//!
//! | claim, in words | where in the paper | function | test |
//! |---|---|---|---|
//! | The mean pairwise square loss against the opposite class equals $\psi_S$ of its mean and covariance: $\frac1n \sum_i (1 - y w^\top(x - x_i))^2 = (1-\mu)^2 + w^\top \Sigma w$. | [OAUC eq. 1], eq. 3 | [`psi_s`] | `tests/eq1.rs` |
//! | Every vector of $n$ reals with mean $\mu$ and population variance $\sigma^2$ has mean hinge loss $\frac1n \sum_i \max(0, 1 - c_i) \le \psi_M(\mu, \sigma^2)$; the bound equals $\Phi_M(v)(1-\mu) + \phi_M(v)\sigma$ with $v = (1-\mu)/\sigma$, and it is attained by the vector with $k^\star = n \Phi_M(v)$ entries $\mu - \sqrt{(n-k^\star)/k^\star}\sigma$ and the rest $\mu + \sqrt{k^\star/(n-k^\star)}\sigma$ when $k^\star$ is an integer. | [OAUC Lemma 2], eqs. 7-10 | [`psi_m`], [`big_phi_m`], [`phi_m`] | `tests/lemma2.rs` |
//! | For any opposite class and any $w$: the fraction of mis-ranked pairs is at most the mean pairwise hinge loss, which is at most $\psi_M$ of the class's mean and covariance. | [OAUC Theorem 1], eq. 6 | [`margin`], [`loss`] | `tests/theorem1.rs` |
//! | $\psi_M$ lies between the hinge and the hinge plus half the standard deviation: $0 \le \psi_M(\mu, \sigma^2) - \max(0, 1-\mu) \le \sigma/2$, so it converges to the hinge uniformly in $\mu$ as $\sigma \to 0$. | [OAUC Lemma 3] | [`psi_m`] | `tests/lemma3.rs` |
//! | $\Psi_M(w)$ is convex, its gradient is [OAUC eq. 14] (here in the $1/\sqrt{A}$ form), and the gradient has norm at most $3$ when the example and the opposite class lie in the unit ball. | [OAUC Lemma 4], eq. 14 | [`loss_and_grad`], [`Psi::write_gradient`] | `tests/lemma4.rs` |
//!
//! The gradient bound of Lemma 4 is what the $O(\ln T)$ regret of [OAUC Theorem 6] rests on
//! ($C = 3$); the regret itself belongs to the learner (auc-online).
//!
//! # Deviations from the paper
//!
//! - Deviation: the gradient of $\psi_M$ is evaluated as
//!   $-\frac12(1 + b/\sqrt{A}) y (x - m) + S w/(2\sqrt{A})$ instead of eq. 14's $-\Phi_M(v) y (x - m) + \phi_M(v) S w / \sigma$. The two
//!   agree wherever $\sigma > 0$ (checked by `lemma_oauc_gradient_matches_eq14`); ours is also
//!   defined at $\sigma = 0 < |b|$, where $\Psi_M$ is differentiable but eq. 14 reads $0/0$.
//!   Derivation: `docs/math/psi-m-gradient.md`.
//! - Deviation: at $A = 0$ the function has a kink (it is not differentiable there, contrary to
//!   Lemma 4, part 1); we return the hinge subgradient (`lemma_oauc_not_differentiable_where_a_vanishes`).
//! - Deviation: $\sqrt{A}$ comes from `hypot`, and for $b < 0$ the value and $\Phi_M$ are
//!   evaluated in a cancellation-free form; a negative $\sigma^2$ (rounding noise) is read as $0$.
//!   Unit tests in `src/scalar.rs` pin each failure these prevent.
//!
//! # Where the paper needed a correction
//!
//! Listed in `docs/math/psi-m-gradient.md`, section "Corrections to the paper"; in short: Lemma 2
//! is stated for $\sigma > 0$ but Theorem 1 applies it where $w^\top \Sigma w$ may be $0$ (the bound
//! still holds there, and the tests cover it); Lemma 4's "differentiable" fails where $A = 0$; the
//! proof of Lemma 2 says $g(k) \to \pm\infty$ where it means $g'(k)$, and its $g''$ is off by a
//! factor $2$; the proof of Lemma 4 bounds $\mathrm{tr}\Sigma \le 4$ where $\mathrm{tr}\Sigma \le 1$
//! holds, which gives $\lVert\nabla\Psi_M\rVert \le 1 + \sqrt5/2 \approx 2.118$ instead of $3$.

mod pairs;
mod scalar;
mod vector;

pub use pairs::{PairHinge, exact_step};
pub use scalar::{Psi, Surrogate, big_phi_m, phi_m, psi_m, psi_s};
pub use vector::{Inputs, loss, loss_and_grad, margin};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_types_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Psi>();
        check::<Surrogate>();
        check::<Inputs<'static>>();
    }
}
