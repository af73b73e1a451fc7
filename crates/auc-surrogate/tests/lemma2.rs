//! [OAUC Lemma 2] (constrained hinge loss bound, eqs. 7-10) as property tests.
//!
//! For $n$ reals $c$ with mean $\mu$ and population variance $\sigma^2$, the mean hinge loss
//! $\ell(c) = \frac1n \sum_i \max(0, 1 - c_i)$ is at most $\psi_M(\mu, \sigma^2)$, which equals
//! $\Phi_M(v)(1 - \mu) + \phi_M(v)\sigma$ with $v = (1-\mu)/\sigma$; the proof (appendix) shows the
//! worst case puts $k$ entries at $q_1 = \mu - \sqrt{(n-k)/k}\sigma$ and the rest at
//! $q_2 = \mu + \sqrt{k/(n-k)}\sigma$, with loss $g(k) = (k(1-\mu) + \sqrt{k(n-k)}\sigma)/n$, which
//! is maximal at $k^\star = n\Phi_M(v)$ with $g(k^\star) = \psi_M$.

mod common;

use auc_core::testing::finite;
use auc_core::testing::tol::{close, close_with};
use auc_surrogate::{big_phi_m, phi_m, psi_m};
use common::{config, mean_hinge, mean_var};
use proptest::collection::vec;
use proptest::prelude::*;

/// One entry of $c$: continuous, on a half-integer grid (ties, exactly $1$), or exactly $1$.
fn entry() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => finite(-5.0, 5.0),
        2 => (-10i32..=10).prop_map(|k| f64::from(k) * 0.5),
        1 => Just(1.0),
    ]
}

/// Vectors with $n \le 12$; weighted towards $n = 1, 2$ and constant vectors ($\sigma = 0$).
fn vector() -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        6 => vec(entry(), 1..=12),
        2 => vec(entry(), 1..=2),
        1 => (entry(), 1usize..=12).prop_map(|(c, n)| vec![c; n]),
    ]
}

/// $\sigma$: moderate, tiny, large, or exactly $1$.
fn sigma() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => finite(0.01, 5.0),
        1 => finite(1e-6, 1e-3),
        1 => finite(100.0, 1000.0),
        1 => Just(1.0),
    ]
}

/// $(n, k)$ with $0 < k < n \le 12$; weighted towards $k = n/2$, where $v = 0$ and $\mu = 1$.
fn n_and_k() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        4 => (2usize..=12).prop_flat_map(|n| (Just(n), 1..n)),
        1 => (1usize..=6).prop_map(|h| (2 * h, h)),
    ]
}

/// $g(k) = (k (1-\mu) + \sqrt{k (n-k)} \sigma) / n$ from the proof of Lemma 2, for real $k$.
fn g(k: f64, n: f64, mu: f64, sigma: f64) -> f64 {
    (k * (1.0 - mu) + (k * (n - k)).max(0.0).sqrt() * sigma) / n
}

proptest! {
    #![proptest_config(config(2000, "proptest-regressions/lemma2.txt"))]

    /// [OAUC Lemma 2], eq. 8: for every $c \in \mathbb{R}^n$ with mean $\mu$ and population
    /// variance $\sigma^2$, $\frac1n \sum_i \max(0, 1 - c_i) \le \psi_M(\mu, \sigma^2)$.
    ///
    /// Includes $\sigma = 0$ (constant vectors, and every vector with $n = 1$), which the lemma
    /// excludes but [OAUC Theorem 1] needs; there the bound is an equality. Tolerance: the two-pass
    /// mean and variance of at most 12 numbers of size $\le 5$ carry rounding errors far below
    /// $10^{-13}$ (a constant vector's computed mean can differ from its entries by an ulp, which
    /// matters because the bound is then tight), so $10^{-12}$ absolute plus $10^{-12}$ relative
    /// is generous yet far below any real violation.
    #[test]
    fn lemma_oauc_mean_hinge_at_most_psi_m(c in vector()) {
        let (mu, var) = mean_var(&c);
        let hinge = mean_hinge(&c);
        let bound = psi_m(mu, var).value;
        prop_assert!(
            hinge <= bound + 1e-12 + 1e-12 * bound,
            "hinge {hinge} > psi_M({mu}, {var}) = {bound}"
        );
    }

    /// [OAUC Lemma 2], attainment (appendix, Part 1 Case 1 and Part 2): when
    /// $k^\star = n \Phi_M(v)$ is an integer $k$ with $0 < k < n$, the vector with $k$ entries
    /// $q_1 = \mu - \sqrt{(n-k)/k}\sigma \le 1$ and $n - k$ entries
    /// $q_2 = \mu + \sqrt{k/(n-k)}\sigma > 1$ has mean $\mu$, variance $\sigma^2$, and mean hinge
    /// exactly $\psi_M(\mu, \sigma^2)$.
    ///
    /// Construction: given $n$, $k$ and $\sigma > 0$, $k^\star = k$ means
    /// $v/\sqrt{1+v^2} = t := 2k/n - 1$, i.e. $1 - \mu = t\sigma/\sqrt{1 - t^2}$, which fixes
    /// $\mu$ (for $k = n/2$, $\mu = 1$ exactly). Tolerance: every quantity is a handful of
    /// correctly rounded operations on numbers below $10^4$, so relative $10^{-9}$
    /// (`tol::close`) is ample.
    #[test]
    fn lemma_oauc_bound_attained_at_integer_k_star((n, k) in n_and_k(), sigma in sigma()) {
        let (nf, kf) = (n as f64, k as f64);
        let t = (2.0 * kf - nf) / nf;
        let b = t * sigma / (1.0 - t * t).sqrt();
        let mu = 1.0 - b;
        let v = b / sigma;
        prop_assert!(close(nf * big_phi_m(v), kf), "k* = {} != {k}", nf * big_phi_m(v));

        let q1 = mu - ((nf - kf) / kf).sqrt() * sigma;
        let q2 = mu + (kf / (nf - kf)).sqrt() * sigma;
        prop_assert!(q1 <= 1.0 && q2 > 1.0, "q1 = {q1}, q2 = {q2}");
        let c: Vec<f64> = (0..n).map(|i| if i < k { q1 } else { q2 }).collect();
        let (c_mu, c_var) = mean_var(&c);
        prop_assert!(close_with(c_mu, mu, 1e-12, 1e-9), "mean {c_mu} != {mu}");
        prop_assert!(close(c_var, sigma * sigma), "variance {c_var} != {}", sigma * sigma);

        let bound = psi_m(mu, sigma * sigma).value;
        let hinge = mean_hinge(&c);
        prop_assert!(close(hinge, bound), "hinge {hinge} != psi_M {bound}");
        prop_assert!(close(g(kf, nf, mu, sigma), bound), "g(k*) != psi_M");
    }

    /// [OAUC Lemma 2], proof Part 2: $g(k) = (k(1-\mu) + \sqrt{k(n-k)}\sigma)/n$ is at most
    /// $\psi_M(\mu, \sigma^2)$ for every real $k \in [0, n]$ (so for every integer one, the
    /// worst case of each $\mathcal{C}_k$), with equality at $k^\star = n\Phi_M(v)$.
    ///
    /// Tolerance: $g$ and $\psi_M$ are a few operations on numbers below $10^3$; absolute
    /// $10^{-12}$ plus relative $10^{-9}$ (`tol::close`) covers their rounding.
    #[test]
    fn lemma_oauc_g_of_k_peaks_at_k_star(
        n in 1usize..=12,
        mu in prop_oneof![4 => finite(-10.0, 10.0), 1 => Just(1.0)],
        sigma in sigma(),
    ) {
        let nf = n as f64;
        let bound = psi_m(mu, sigma * sigma).value;
        let slack = 1e-12 + 1e-9 * bound.abs();
        for i in 0..=(8 * n) {
            let k = i as f64 / 8.0;
            let gk = g(k, nf, mu, sigma);
            prop_assert!(gk <= bound + slack, "g({k}) = {gk} > psi_M = {bound}");
        }
        let k_star = nf * big_phi_m((1.0 - mu) / sigma);
        prop_assert!((0.0..=nf).contains(&k_star));
        prop_assert!(close(g(k_star, nf, mu, sigma), bound), "g(k*) != psi_M");
    }

    /// [OAUC Lemma 2], eqs. 9-10: for $\sigma > 0$ and $v = (1-\mu)/\sigma$,
    /// $\psi_M(\mu, \sigma^2) = \Phi_M(v)(1 - \mu) + \phi_M(v)\sigma$. Also the identities of
    /// eq. 10 the proofs use: $\Phi_M(v) \in [0, 1]$, $\phi_M(v) \in (0, 1/2]$,
    /// $\Phi_M(v) + \Phi_M(-v) = 1$, $(2\Phi_M(v) - 1)^2 + (2\phi_M(v))^2 = 1$, and
    /// $\Phi_M = \partial\psi_M/\partial(1-\mu)$, $\phi_M = \partial\psi_M/\partial\sigma$.
    ///
    /// Tolerance: `tol::close` (absolute $10^{-12}$, relative $10^{-9}$). The eq. 9 form cancels
    /// when $\mu > 1$ (a negative and a positive term), so its absolute error is a few ulps of
    /// $|1-\mu| + \sigma \le 10^3$, i.e. below $10^{-12}$.
    #[test]
    fn lemma_oauc_psi_m_equals_eq9_form(
        mu in prop_oneof![4 => finite(-20.0, 20.0), 1 => Just(1.0), 1 => finite(0.999, 1.001)],
        sigma in sigma(),
    ) {
        let b = 1.0 - mu;
        let v = b / sigma;
        let (big, small) = (big_phi_m(v), phi_m(v));
        let psi = psi_m(mu, sigma * sigma);
        let eq9 = big * b + small * sigma;
        prop_assert!(close(psi.value, eq9), "psi_M {} != eq. 9 form {eq9}", psi.value);
        prop_assert!((0.0..=1.0).contains(&big) && small > 0.0 && small <= 0.5);
        prop_assert!(close(big + big_phi_m(-v), 1.0));
        let circle = (2.0 * big - 1.0).powi(2) + (2.0 * small).powi(2);
        prop_assert!(close(circle, 1.0), "(2 Phi - 1)^2 + (2 phi)^2 = {circle}");
        prop_assert!(close(-psi.d_mu, big), "d psi / d b = {} != Phi_M = {big}", -psi.d_mu);
        // d psi / d sigma = 2 sigma d psi / d sigma^2.
        prop_assert!(close(2.0 * sigma * psi.d_s2, small));
    }
}
