//! The standard normal distribution, as far as the intervals and tests of [`crate::delong`] need
//! it: the complementary error function, the upper-tail probability and the quantile.
//!
//! Written here rather than taken from a crate so that auc-metrics keeps depending on `auc_core`
//! alone; the values are held to Python's `math.erfc` and scipy's `norm.ppf` in
//! `tests/delong_fixtures.rs` (relative 1e-13).
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $\operatorname{erfc}(x)$ | [`erfc`] | $\frac{2}{\sqrt\pi}\int_x^\infty e^{-t^2}\,dt$ |
//! | $Q(z)$ | [`upper_tail`] | $P(Z > z) = \tfrac12 \operatorname{erfc}(z/\sqrt2)$ |
//! | $\Phi^{-1}(p)$ | [`quantile`] | the $z$ with $P(Z \le z) = p$ |

use std::f64::consts::{FRAC_1_SQRT_2, PI};

/// Below this $x$ the series of [`erf_series`] is used, above it the continued fraction of
/// [`erfc_fraction`]: the series needs about $2x^2 + 40$ terms, the fraction fewer as $x$ grows
/// (about 60 at 2).
const SERIES_BELOW: f64 = 2.0;

/// $\operatorname{erf}(x)$ for $0 \le x < 2$ by the series of positive terms
/// (Abramowitz and Stegun 7.1.6)
/// $$\operatorname{erf}(x) = \frac{2}{\sqrt\pi} e^{-x^2} \sum_{n \ge 0}
///   \frac{2^n x^{2n+1}}{1 \cdot 3 \cdots (2n+1)},$$
/// which has no cancellation (unlike the alternating Taylor series).
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term > 1e-17 * sum {
        term *= 2.0 * x2 / (2.0 * n + 3.0);
        sum += term;
        n += 1.0;
    }
    2.0 / PI.sqrt() * (-x2).exp() * sum
}

/// $\operatorname{erfc}(x)$ for $x \ge 2$ by Laplace's continued fraction (Abramowitz and Stegun
/// 7.1.14)
/// $$\operatorname{erfc}(x) = \frac{e^{-x^2}}{\sqrt\pi}\,
///   \cfrac{1}{x + \cfrac{1/2}{x + \cfrac{1}{x + \cfrac{3/2}{x + \cdots}}}},$$
/// evaluated forwards by the modified Lentz method (Numerical Recipes, section 5.2).
fn erfc_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..=500 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        if d.abs() < TINY {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / PI.sqrt() / f
}

/// The complementary error function, to about 1e-15 relative for $x \le 2$ and 1e-14 relative
/// above (0 once $e^{-x^2}$ underflows, past $x \approx 26.5$); $\operatorname{erfc}(-x) = 2 -
/// \operatorname{erfc}(x)$. NaN in, NaN out.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < SERIES_BELOW {
        1.0 - erf_series(x)
    } else {
        erfc_fraction(x)
    }
}

/// $Q(z) = P(Z > z) = \tfrac12\operatorname{erfc}(z/\sqrt2)$ for a standard normal $Z$, accurate
/// in relative terms far into the upper tail (no $1 - \Phi$ cancellation).
pub fn upper_tail(z: f64) -> f64 {
    0.5 * erfc(z * FRAC_1_SQRT_2)
}

/// The density $\varphi(z) = e^{-z^2/2}/\sqrt{2\pi}$.
fn density(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * PI).sqrt()
}

/// $\Phi^{-1}(p)$, the standard normal quantile, for $0 < p < 1$ (NaN otherwise).
///
/// For the tail $q = \min(p, 1 - p)$ it starts from Abramowitz and Stegun 26.2.23 (error below
/// 4.5e-4) and takes Newton steps on $Q(z) = q$ until a step is below 1e-15 relative, so the
/// result is as accurate as [`upper_tail`] (a few steps; quadratic convergence).
pub fn quantile(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    let q = p.min(1.0 - p);
    let t = (-2.0 * q.ln()).sqrt();
    // [Abramowitz and Stegun 26.2.23]
    let mut z = t
        - (2.515_517 + 0.802_853 * t + 0.010_328 * t * t)
            / (1.0 + 1.432_788 * t + 0.189_269 * t * t + 0.001_308 * t * t * t);
    for _ in 0..50 {
        // Q decreases with slope -phi(z): Newton's step on Q(z) - q = 0.
        let step = (upper_tail(z) - q) / density(z);
        z += step;
        if step.abs() <= 1e-15 * z.abs().max(1e-300) {
            break;
        }
    }
    // Q(z) = q with z >= 0 is the upper quantile of q; the lower tail is its mirror.
    if p < 0.5 { -z } else { z }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp)] // Exact values: a difference of equal sums, an underflow.
    fn known_values_and_symmetry() {
        // erfc(0) = 1 exactly; erfc(1) = 0.157299207050285130658... (Abramowitz and Stegun
        // table 7.1 gives erf(1) = 0.842700792949715); the 97.5 % quantile 1.959963984540054.
        assert!((erfc(0.0) - 1.0).abs() < 1e-16);
        // 1 - erf(1) is exact to a few units of erf's last place (1.1e-16 near 0.84).
        assert!(
            (erfc(1.0) - 0.157_299_207_050_285_13).abs() < 4e-16,
            "{}",
            erfc(1.0)
        );
        assert!((quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-14);
        assert!((quantile(0.5)).abs() < 1e-15);
        for x in [0.1, 0.7, 1.9, 2.0, 2.1, 4.0] {
            assert!((erfc(-x) - (2.0 - erfc(x))).abs() < 1e-15);
        }
        assert!(quantile(0.0).is_nan() && quantile(1.0).is_nan() && quantile(f64::NAN).is_nan());
        assert!(erfc(f64::NAN).is_nan());
        assert_eq!(erfc(30.0), 0.0);
    }

    #[test]
    fn the_two_branches_meet_at_the_switch() {
        // Both formulas are valid on both sides; at x = 2 they must agree to rounding.
        let (a, b) = (1.0 - erf_series(SERIES_BELOW), erfc_fraction(SERIES_BELOW));
        assert!(
            (a - b).abs() < 1e-15 * b / 4.7e-3,
            "series {a} fraction {b}"
        );
    }

    #[test]
    fn quantile_inverts_the_tail() {
        for p in [
            1e-12, 1e-6, 0.001, 0.025, 0.05, 0.3, 0.5, 0.8, 0.95, 0.999_999,
        ] {
            let z = quantile(p);
            let back = 1.0 - upper_tail(z);
            let lower = upper_tail(-z);
            assert!(
                (lower - p).abs() <= 1e-13 * p,
                "p {p}: z {z}, P(Z<=z) {lower} {back}"
            );
        }
    }
}
