//! The one-dimensional surrogates $\psi(\mu, \sigma^2)$ with their partial derivatives, and the
//! functions $\Phi_M$, $\phi_M$ of [OAUC eq. 10].
//!
//! Everything here is written in terms of $b = 1 - \mu$, $s = \sqrt{\sigma^2}$ and
//! $r = \sqrt{A} = \sqrt{b^2 + \sigma^2}$, where $r$ comes from `hypot` so that neither $b^2$ nor
//! $\sigma^2 / \sigma$ is ever formed. The derivation is in `docs/math/psi-m-gradient.md`.

/// The value of a surrogate $\psi(\mu, \sigma^2)$ and its two partial derivatives, at one point.
///
/// The $p$-dimensional gradient follows by the chain rule, since
/// $\nabla_w \mu = y (x - m)$ and $\nabla_w (w^\top S w) = 2 S w$ for a symmetric $S$:
/// $$\nabla_w \Psi(w) = \frac{\partial \psi}{\partial \mu} y (x - m) +
///   2 \frac{\partial \psi}{\partial \sigma^2} S w .$$
/// [`Psi::write_gradient`] evaluates exactly this, for both surrogates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Psi {
    /// $\psi(\mu, \sigma^2)$.
    pub value: f64,
    /// $\partial \psi / \partial \mu$.
    pub d_mu: f64,
    /// $\partial \psi / \partial \sigma^2$ (with respect to the variance, not to $\sigma$).
    pub d_s2: f64,
}

/// Which second-order surrogate to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Surrogate {
    /// $\psi_S$, the square surrogate of [OAUC eq. 3] (OAUC-S, the loss of OPAUC): [`psi_s`].
    Square,
    /// $\psi_M$, the moment-constrained hinge bound of [OAUC eq. 8] (OAUC-M): [`psi_m`].
    Moment,
}

impl Surrogate {
    /// $\psi(\mu, \sigma^2)$ and its partial derivatives: [`psi_s`] or [`psi_m`].
    #[inline]
    pub fn eval(self, mu: f64, s2: f64) -> Psi {
        match self {
            Surrogate::Square => psi_s(mu, s2),
            Surrogate::Moment => psi_m(mu, s2),
        }
    }
}

/// A variance as the surrogates use it: negative values become `0`, NaN stays NaN.
///
/// Deviation: the papers take $\sigma^2 = w^\top S w \ge 0$ for granted. Computed in floating
/// point from a positive semidefinite $S$ (a covariance updated one example at a time, then a
/// quadratic form), it can come out a few ulps below zero, and $\sqrt{\cdot}$ of that is NaN. The
/// true value is $\ge 0$, so any negative input is read as rounding noise around $0$ and clamped;
/// the unit test `negative_rounding_noise_in_s2_is_zero` pins this.
#[inline]
fn clamp_variance(s2: f64) -> f64 {
    if s2 <= 0.0 { 0.0 } else { s2 }
}

/// The square surrogate of [OAUC eq. 3] and its partial derivatives:
/// $$\psi_S(\mu, \sigma^2) = (1 - \mu)^2 + \sigma^2, \qquad
///   \frac{\partial \psi_S}{\partial \mu} = -2 (1 - \mu), \qquad
///   \frac{\partial \psi_S}{\partial \sigma^2} = 1 .$$
///
/// By [OAUC eq. 1] it equals the mean pairwise square loss
/// $\frac{1}{n} \sum_i (1 - y w^\top (x - x_i))^2$ when $\mu$ and $\sigma^2$ are the moments of the
/// opposite class (checked in `tests/eq1.rs`). The $w$-gradient built from these partials
/// ([`Psi::write_gradient`]) is the true gradient $-2 b y (x - m) + 2 S w$; [OAUC eq. 13] and
/// OPAUC drop the factor $2$, i.e. they descend $\psi_S / 2$. A learner that wants the papers'
/// step sizes halves it (conventions section 4); this crate does not.
///
/// A negative `s2` is treated as $0$ (see the crate docs, "Deviations"). Never NaN unless an input
/// is NaN; for $|1 - \mu| > 1.3 \cdot 10^{154}$ the value is `+inf`, which is its true size.
#[inline]
pub fn psi_s(mu: f64, s2: f64) -> Psi {
    let s2 = clamp_variance(s2);
    let b = 1.0 - mu;
    Psi {
        value: b * b + s2,
        d_mu: -2.0 * b,
        d_s2: 1.0,
    }
}

/// The moment-constrained hinge bound of [OAUC eq. 8] and its partial derivatives, with
/// $b = 1 - \mu$ and $A = b^2 + \sigma^2$:
/// $$\psi_M(\mu, \sigma^2) = \frac{b + \sqrt{A}}{2}, \qquad
///   \frac{\partial \psi_M}{\partial \mu} = -\frac12 \left(1 + \frac{b}{\sqrt{A}}\right)
///   = -\Phi_M(v), \qquad
///   \frac{\partial \psi_M}{\partial \sigma^2} = \frac{1}{4 \sqrt{A}}
///   = \frac{\phi_M(v)}{2 \sigma},$$
/// where $v = b / \sigma$ (the last two forms only for $\sigma > 0$). So the gradient in $w$ is
/// [OAUC eq. 14] rewritten without any division by $\sigma$:
/// $-\frac12 (1 + b/\sqrt{A}) y (x - m) + S w / (2 \sqrt{A})$.
///
/// By [OAUC Lemma 2] $\psi_M(\mu, \sigma^2)$ bounds the mean hinge loss of every vector with mean
/// $\mu$ and variance $\sigma^2$ (`tests/lemma2.rs`); by [OAUC Lemma 3] it lies within $\sigma/2$
/// above the hinge $\max(0, 1 - \mu)$ (`tests/lemma3.rs`).
///
/// Edge cases and numerics:
/// - At $A = 0$ ($b = 0$ and $\sigma^2 = 0$) $\psi_M$ has a kink and no derivative. There the
///   result is value $0$ with the hinge subgradient: `d_mu` $= -1$ if $b > 0$, else $0$ (so $0$,
///   since $b = 0$), and `d_s2` $= 0$. Every $w$ with $A = 0$ minimizes $\Psi_M \ge 0$, so a zero
///   gradient is a valid subgradient there.
/// - $\sqrt{A}$ is `b.hypot(s)`: no overflow of $b^2$ for huge $|b|$, no underflow for tiny ones.
///   Since $|b|$ is either $0$ or at least $2^{-53}$ (it is $1 - \mu$ rounded), $\sqrt{A}$ is $0$
///   or at least $2^{-538}$ and `d_s2` $\le 2^{536}$ stays finite.
/// - For $b < 0$ the printed formula $(b + \sqrt{A})/2$ cancels catastrophically (at
///   $\mu = 1 + 10^8$, $\sigma^2 = 1$ it returns $0$ instead of $2.5 \cdot 10^{-9}$). It is
///   evaluated as $\sigma^2 / (2 (\sqrt{A} + |b|))$ instead, and $\Phi_M$ likewise.
/// - A negative `s2` is rounding noise and is treated as $0$.
///
/// Never NaN unless an input is NaN or `s2` is infinite; $\mu = \pm\infty$ (an overflowed
/// margin) gives the limits ($\mu \to -\infty$: value `+inf`, `d_mu` $= -1$;
/// $\mu \to +\infty$: value $0$, `d_mu` $= 0$).
#[inline]
pub fn psi_m(mu: f64, s2: f64) -> Psi {
    let s2 = clamp_variance(s2);
    let b = 1.0 - mu;
    let s = s2.sqrt();
    let r = b.hypot(s); // sqrt(A) = sqrt(b^2 + s2), without forming b^2
    if r == 0.0 {
        // A = 0, so b = 0 and s2 = 0: the hinge subgradient (conventions section 4).
        let d_mu = if b > 0.0 { -1.0 } else { 0.0 };
        return Psi {
            value: 0.0,
            d_mu,
            d_s2: 0.0,
        };
    }
    // h = (r + |b|) / 2 never overflows, and
    // q = (r - |b|) / (2 r) = s^2 / (4 r h) is in [0, 1/2], computed from ratios that are <= 2.
    let h = 0.5 * r + 0.5 * b.abs();
    let q = 0.25 * (s / r) * (s / h);
    // d psi / d b = (1 + b / r) / 2 = Phi_M(b / s), [OAUC eq. 10]: 1 - q for b >= 0, q for b < 0.
    let (value, d_b) = if b >= 0.0 {
        (0.5 * b + 0.5 * r, 1.0 - q)
    } else {
        // (b + r) / 2 = s^2 / (2 (r + |b|)) = s^2 / (4 h), free of cancellation.
        (0.25 * s * (s / h), q)
    };
    Psi {
        value,
        d_mu: -d_b,
        d_s2: 0.25 / r,
    }
}

/// $\Phi_M$ of [OAUC eq. 10]:
/// $$\Phi_M(v) = \frac12 \left(1 + \frac{v}{\sqrt{1 + v^2}}\right) \in [0, 1].$$
///
/// In [OAUC Lemma 2] $v = (1 - \mu)/\sigma$, $\Phi_M(v)$ is the weight of $1 - \mu$ in the
/// bound $\psi_M(\mu, \sigma^2) = \Phi_M(v)(1 - \mu) + \phi_M(v) \sigma$ [OAUC eq. 9], and
/// $k^\star = n \Phi_M(v)$ is the number of coordinates at or below $1$ in the worst-case vector
/// (appendix, proof of Lemma 2, Part 2). It is also $\partial \psi_M / \partial (1 - \mu)$, the
/// factor in front of $-y (x - m)$ in [OAUC eq. 14].
///
/// For $v < 0$ it is evaluated as $1 / (2 \sqrt{1+v^2} (\sqrt{1+v^2} + |v|))$ (and
/// $1 - \Phi_M(|v|)$ the same way), so it neither cancels nor overflows for large $|v|$;
/// $\Phi_M(\pm\infty)$ is $1$ and $0$.
#[inline]
pub fn big_phi_m(v: f64) -> f64 {
    let h = 1.0f64.hypot(v); // sqrt(1 + v^2)
    // (1 - |v| / h) / 2 = 1 / (2 h (h + |v|))
    let tail = 0.5 / h / (h + v.abs());
    if v >= 0.0 { 1.0 - tail } else { tail }
}

/// $\phi_M$ of [OAUC eq. 10]:
/// $$\phi_M(v) = \frac12 \sqrt{\frac{1}{1 + v^2}} \in (0, \tfrac12].$$
///
/// In [OAUC eq. 9] it is the weight of $\sigma$; it equals $\partial \psi_M / \partial \sigma$,
/// and $\phi_M(v)/\sigma = 1/(2\sqrt{A})$ is the factor in front of $S w$ in [OAUC eq. 14].
/// Computed as `0.5 / hypot(1, v)`: no overflow for large $|v|$, $\phi_M(\pm\infty) = 0$.
#[inline]
pub fn phi_m(v: f64) -> f64 {
    0.5 / 1.0f64.hypot(v)
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Exact expectations are exactly representable results (see comments).
mod tests {
    use super::*;
    use auc_core::testing::tol::close;

    /// `psi_m(mu, s2)` against hand-computed `(value, d_mu, d_s2)`.
    fn check_m(mu: f64, s2: f64, expected: (f64, f64, f64)) {
        let got = psi_m(mu, s2);
        assert!(
            close(got.value, expected.0)
                && close(got.d_mu, expected.1)
                && close(got.d_s2, expected.2),
            "psi_m({mu}, {s2}) = {got:?}, expected {expected:?}"
        );
    }

    #[test]
    fn psi_m_hand_checked_values() {
        // mu = 0, s2 = 0: b = 1, sqrt(A) = 1, value (1 + 1)/2 = 1, d_mu = -(1 + 1)/2, d_s2 = 1/4.
        check_m(0.0, 0.0, (1.0, -1.0, 0.25));
        // mu = 2, s2 = 0: b = -1, sqrt(A) = 1, value (-1 + 1)/2 = 0, d_mu = -(1 - 1)/2 = 0.
        check_m(2.0, 0.0, (0.0, 0.0, 0.25));
        // mu = 1, s2 = 1: b = 0, sqrt(A) = 1, value 1/2, d_mu = -1/2, d_s2 = 1/4.
        check_m(1.0, 1.0, (0.5, -0.5, 0.25));
        // mu = 4, s2 = 16: b = -3, sqrt(A) = 5, value (-3 + 5)/2 = 1, d_mu = -(1 - 3/5)/2 = -0.2,
        // d_s2 = 1/20.
        check_m(4.0, 16.0, (1.0, -0.2, 0.05));
        // mu = -2, s2 = 16: b = 3, sqrt(A) = 5, value (3 + 5)/2 = 4, d_mu = -(1 + 3/5)/2 = -0.8.
        check_m(-2.0, 16.0, (4.0, -0.8, 0.05));
    }

    #[test]
    fn psi_s_hand_checked_values() {
        // mu = 0.5, s2 = 0.25: b = 0.5, value 0.25 + 0.25, d_mu = -2 b = -1; all exact in binary.
        assert_eq!(
            psi_s(0.5, 0.25),
            Psi {
                value: 0.5,
                d_mu: -1.0,
                d_s2: 1.0
            }
        );
        assert_eq!(Surrogate::Square.eval(0.5, 0.25), psi_s(0.5, 0.25));
        assert_eq!(Surrogate::Moment.eval(1.0, 1.0), psi_m(1.0, 1.0));
    }

    #[test]
    fn a_zero_gives_the_hinge_subgradient() {
        // b = 0 and s2 = 0 exactly: the kink. Value 0, subgradient 0, never NaN.
        let at_kink = psi_m(1.0, 0.0);
        assert_eq!(
            at_kink,
            Psi {
                value: 0.0,
                d_mu: 0.0,
                d_s2: 0.0
            }
        );
        // Just left of the kink (b = 2^-52 > 0, s2 = 0): the hinge slope -1, d_s2 finite.
        let left = psi_m(1.0 - f64::EPSILON, 0.0);
        assert_eq!(left.value, f64::EPSILON);
        assert_eq!(left.d_mu, -1.0);
        assert!(left.d_s2.is_finite());
        // Just right of it (b = -2^-52 < 0, s2 = 0): flat.
        let right = psi_m(1.0 + f64::EPSILON, 0.0);
        assert_eq!((right.value, right.d_mu), (0.0, 0.0));
    }

    #[test]
    fn negative_rounding_noise_in_s2_is_zero() {
        // A quadratic form of a PSD matrix can round to -1e-17; sqrt of it would be NaN.
        assert_eq!(psi_m(1.0, -1e-17), psi_m(1.0, 0.0));
        assert_eq!(psi_m(0.3, -0.0), psi_m(0.3, 0.0));
        assert_eq!(psi_s(0.3, -1e-17), psi_s(0.3, 0.0));
        // NaN is not rounding noise: it propagates.
        assert!(psi_m(0.3, f64::NAN).value.is_nan());
    }

    /// Deviation test: the printed `(b + sqrt(A))/2` cancels for b << 0.
    #[test]
    fn no_cancellation_for_large_margins() {
        // mu = 1 + 1e8, s2 = 1: b = -1e8, sqrt(A) = 1e8 + 5e-9 rounds to 1e8, so the printed form
        // gives 0. The true value is 1 / (2 (sqrt(A) + 1e8)) = 2.5e-9 (1 - 1.25e-17).
        let naive = {
            let b = -1e8_f64;
            (b + (b * b + 1.0).sqrt()) / 2.0
        };
        assert_eq!(naive, 0.0);
        let got = psi_m(1.0 + 1e8, 1.0);
        assert!(close(got.value, 2.5e-9), "{got:?}");
        // d psi / d b = (1 + b/r)/2 = 1 / (2 r (r + |b|)) = 1/(4e16), also lost by the printed form.
        assert!(close(got.d_mu, -0.25e-16), "{got:?}");
    }

    /// Deviation test: `b^2` overflows long before `psi_m` does.
    #[test]
    fn no_overflow_for_huge_finite_inputs() {
        // b = 1e200, s2 = 1e300: b^2 = inf in the printed form, but sqrt(A) = 1e200 (1 + 5e-101).
        let got = psi_m(1.0 - 1e200, 1e300);
        assert!(close(got.value, 1e200), "{got:?}");
        assert!(
            close(got.d_mu, -1.0) && close(got.d_s2, 0.25e-200),
            "{got:?}"
        );
        // s2 = f64::MAX, b = 0: value sqrt(MAX)/2.
        let got = psi_m(1.0, f64::MAX);
        assert!(close(got.value, f64::MAX.sqrt() / 2.0), "{got:?}");
    }

    #[test]
    fn never_nan_on_extreme_inputs() {
        let mus = [
            0.0,
            1.0,
            -1.0,
            1e-300,
            -1e-300,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            1.0 + f64::EPSILON,
            1.0 - f64::EPSILON / 2.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let s2s = [0.0, -0.0, -1e-17, 5e-324, 1e-300, 1.0, 1e300, f64::MAX];
        for &mu in &mus {
            for &s2 in &s2s {
                for kind in [Surrogate::Square, Surrogate::Moment] {
                    let p = kind.eval(mu, s2);
                    assert!(
                        !p.value.is_nan() && !p.d_mu.is_nan() && !p.d_s2.is_nan(),
                        "{kind:?}({mu}, {s2}) = {p:?}"
                    );
                }
                let p = psi_m(mu, s2);
                assert!(p.value >= 0.0 && (-1.0..=0.0).contains(&p.d_mu), "{p:?}");
                assert!(p.d_s2.is_finite() && p.d_s2 >= 0.0, "{p:?}");
                if mu.is_finite() {
                    assert!(p.value.is_finite(), "psi_m({mu}, {s2}) = {p:?}");
                }
            }
        }
    }

    #[test]
    fn phi_functions_hand_checked_and_extreme() {
        // v = 0: Phi = 1/2, phi = 1/2. v = 3/4: sqrt(1 + v^2) = 5/4, Phi = (1 + 3/5)/2, phi = 2/5.
        assert_eq!((big_phi_m(0.0), phi_m(0.0)), (0.5, 0.5));
        assert!(close(big_phi_m(0.75), 0.8) && close(phi_m(0.75), 0.4));
        assert!(close(big_phi_m(-0.75), 0.2));
        // Huge |v|: Phi(-1e300) = 1/(2 h (h + |v|)) underflows to 0, Phi(1e300) = 1, phi = 5e-301.
        assert_eq!((big_phi_m(1e300), big_phi_m(-1e300)), (1.0, 0.0));
        assert!(close(phi_m(1e300), 5e-301));
        // Phi(-1e8) = 1/(2 h (h + 1e8)) ~ 2.5e-17, lost to cancellation in the printed form.
        assert!(close(big_phi_m(-1e8), 2.5e-17));
        assert_eq!(
            (big_phi_m(f64::INFINITY), big_phi_m(f64::NEG_INFINITY)),
            (1.0, 0.0)
        );
        assert_eq!(phi_m(f64::INFINITY), 0.0);
    }
}
