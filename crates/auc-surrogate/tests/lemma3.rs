//! [OAUC Lemma 3] (approximation properties of $\psi_M$) as property tests:
//! $0 \le \psi_M(\mu, \sigma^2) - \max(0, 1 - \mu) \le \sigma/2$, and $\psi_M$ converges to the
//! hinge uniformly in $\mu$ as $\sigma \to 0$.

mod common;

use auc_core::testing::finite;
use auc_surrogate::psi_m;
use common::config;
use proptest::prelude::*;

/// $\mu$: wide, at the kink $\mu = 1$ exactly, within a hair of it, or on a coarse grid.
fn mu() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => finite(-50.0, 50.0),
        1 => Just(1.0),
        1 => finite(-1e-6, 1e-6).prop_map(|d| 1.0 + d),
        1 => (-20i32..=20).prop_map(|k| f64::from(k) * 0.25),
    ]
}

/// $\sigma$: moderate, exactly $0$, tiny, or huge.
fn sigma() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => finite(0.0, 10.0),
        1 => Just(0.0),
        1 => finite(1e-9, 1e-6),
        1 => finite(10.0, 1e6),
    ]
}

/// The gap $\psi_M(\mu, \sigma^2) - \max(0, 1 - \mu)$.
fn gap(mu: f64, sigma: f64) -> f64 {
    psi_m(mu, sigma * sigma).value - (1.0 - mu).max(0.0)
}

proptest! {
    #![proptest_config(config(2000, "proptest-regressions/lemma3.txt"))]

    /// [OAUC Lemma 3]: $0 \le \psi_M(\mu, \sigma^2) - \max(0, 1 - \mu) \le \sigma/2$.
    ///
    /// The lower bound is checked exactly: `hypot` is faithfully rounded, so
    /// $\sqrt{A} \ge |1 - \mu|$ holds in floating point too, and both evaluation branches of
    /// `psi_m` keep it. The upper bound allows 8 ulps of $|1 - \mu| + \sigma$: the gap is a
    /// difference of numbers of that size, and at $\mu = 1$ it equals $\sigma/2$ exactly in
    /// real arithmetic, so only rounding separates the two sides there.
    #[test]
    fn lemma_oauc_psi_m_within_half_sigma_of_hinge(mu in mu(), sigma in sigma()) {
        let d = gap(mu, sigma);
        prop_assert!(d >= 0.0, "psi_M below the hinge by {d} at mu = {mu}, sigma = {sigma}");
        let slack = 8.0 * f64::EPSILON * ((1.0 - mu).abs() + sigma);
        prop_assert!(d <= sigma / 2.0 + slack, "gap {d} > sigma/2 = {}", sigma / 2.0);
    }

    /// [OAUC Lemma 3], uniform convergence: over a dense grid of 401 values of $\mu$ around the
    /// kink (random spacing and offset), $\sup_\mu [\psi_M - \text{hinge}]$ is at most
    /// $\sigma/2$ and strictly decreases along $\sigma_j = \sigma_0 / 2^j$, $j = 0..8$, ending
    /// below $\sigma_0/512$.
    ///
    /// Strictness holds in floating point with a wide margin: the grid point nearest the kink
    /// has $|1 - \mu| \le 0.1$ and $\sigma \ge 4 \cdot 10^{-6}$, so its gap is at least
    /// $\sigma^2/(4 |1-\mu|) \approx 4 \cdot 10^{-11}$, and halving $\sigma$ at least halves
    /// it (for $\sigma \gg |1-\mu|$) or quarters it (for $\sigma \ll |1-\mu|$). The upper bound
    /// uses the same 8-ulp slack as the pointwise test.
    #[test]
    fn lemma_oauc_psi_m_converges_uniformly_to_hinge(
        sigma0 in finite(1e-3, 10.0),
        spacing in finite(0.01, 0.2),
        offset in finite(0.0, 1.0),
    ) {
        let grid: Vec<f64> = (0..=400)
            .map(|i| 1.0 + (f64::from(i) - 200.0 + offset) * spacing)
            .collect();
        let mut previous = f64::INFINITY;
        for j in 0..=8 {
            let sigma = sigma0 / f64::from(1u32 << j);
            let sup = grid.iter().map(|&mu| gap(mu, sigma)).fold(0.0f64, f64::max);
            let slack = 8.0 * f64::EPSILON * (50.0 + sigma);
            prop_assert!(sup <= sigma / 2.0 + slack, "sup gap {sup} > sigma/2 at sigma = {sigma}");
            prop_assert!(sup < previous, "sup gap did not decrease at sigma = {sigma}");
            previous = sup;
        }
        prop_assert!(previous <= sigma0 / 512.0 + 1e-15);
    }
}
