//! $e^x$ for $x \le 0$ written so that a loop over many values vectorizes: the kernel values of
//! a block of rows are a million exponentials, and the C library's `exp` is a call a value.
//!
//! Range reduction (Cody and Waite): $x = n \ln 2 + r$ with $n = \mathrm{round}(x / \ln 2)$
//! (rounded by adding and subtracting $1.5 \cdot 2^{52}$, which needs no rounding instruction)
//! and $\ln 2$ split in a high part with trailing zeros and a low part, so that $n \ln 2_{hi}$
//! is exact and $|r| \le \ln 2 / 2$. Then $e^r$ by its Taylor polynomial of degree 13
//! (remainder below $0.347^{14} / 14! < 5 \cdot 10^{-18}$, under the rounding of the Horner
//! sums) and $e^x = 2^n e^r$, with $2^n$ built from its exponent bits. Below $-708$ (where
//! $2^n$ would be subnormal) the value is 0: the C library would give at most
//! $3 \cdot 10^{-308}$ there. The tests bound the relative error against `f64::exp` by
//! $4 \cdot 10^{-16}$.

/// $1 / \ln 2$.
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// The high part of $\ln 2$ (0.693147180369...): its last 21 bits are zero, so $n \ln 2_{hi}$
/// is exact for $|n| \le 2^{21}$.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// $\ln 2 - \ln 2_{hi}$, rounded (about $1.9 \cdot 10^{-10}$).
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// $1.5 \cdot 2^{52}$: adding it rounds a value of magnitude below $2^{51}$ to an integer, held
/// in the low bits of the sum.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// Below this, $e^x$ is taken as 0.
const LOWEST: f64 = -708.0;

/// $1 / k!$ for $k = 13, 12, \dots, 0$ (Horner's order).
const TAYLOR: [f64; 14] = [
    1.0 / 6_227_020_800.0,
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
    1.0,
    1.0,
];

/// $e^x$ for $x \le 0$ (see the module docs); NaN gives 0, and so does any $x$ below $-708$.
#[inline(always)]
pub(crate) fn exp_nonpositive(x: f64) -> f64 {
    // Clamped between LOWEST and 0 without a branch (NaN becomes LOWEST).
    let c = x.clamp(LOWEST, 0.0);
    let c = if c.is_nan() { LOWEST } else { c };
    let t = c * LOG2_E + ROUNDER;
    let n = t - ROUNDER;
    let r = (c - n * LN2_HI) - n * LN2_LO;
    let mut e = TAYLOR[0];
    for &k in &TAYLOR[1..] {
        e = e * r + k;
    }
    // n is in [-1022, 0]: its two's complement sits in the low bits of t's mantissa.
    let n_bits = (t.to_bits() as i64).wrapping_sub(ROUNDER.to_bits() as i64);
    let scale = f64::from_bits(((n_bits + 1023) as u64) << 52);
    let v = e * scale;
    if x < LOWEST || x.is_nan() { 0.0 } else { v }
}

/// Gaussian kernel values in place: $a_i \leftarrow \exp(-\max(0, \lVert x \rVert^2 +
/// \lVert l_i \rVert^2 - 2 a_i) / \sigma^2)$ from the products $a_i = l_i \cdot x$, the
/// squared norm `xx` of the row and the landmarks' `norms`; `neg_inv_s2` is $-1 / \sigma^2$.
///
/// Compiled for AVX-512 and AVX2 besides the baseline, chosen at run time; every version does
/// the same rounded operations in the same order (no fused multiply-adds), so the values are
/// the same bits on every machine.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
pub(crate) fn gaussian_values(xx: f64, norms: &[f64], neg_inv_s2: f64, a: &mut [f64]) {
    for (ai, ll) in a.iter_mut().zip(norms) {
        let d = (xx + ll - 2.0 * *ai).max(0.0);
        *ai = exp_nonpositive(d * neg_inv_s2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        if b == 0.0 {
            a.abs()
        } else {
            ((a - b) / b).abs()
        }
    }

    #[test]
    fn matches_the_library_exp_to_two_ulps() {
        let mut worst = 0.0f64;
        let mut x = 0.0;
        while x > -708.0 {
            worst = worst.max(rel(exp_nonpositive(x), x.exp()));
            x -= 0.000_731_3;
        }
        // Around each multiple of ln 2 / 2, where the reduction switches n.
        for k in 0..2000 {
            for d in [-1e-12, 0.0, 1e-12] {
                let x = -(k as f64) * std::f64::consts::LN_2 / 2.0 + d;
                if x <= 0.0 && x > -708.0 {
                    worst = worst.max(rel(exp_nonpositive(x), x.exp()));
                }
            }
        }
        assert!(worst < 4e-16, "relative error {worst:e}");
    }

    #[test]
    fn edges() {
        assert_eq!(exp_nonpositive(0.0).to_bits(), 1f64.to_bits());
        assert_eq!(exp_nonpositive(-0.0).to_bits(), 1f64.to_bits());
        assert_eq!(exp_nonpositive(-709.0).to_bits(), 0f64.to_bits());
        assert_eq!(exp_nonpositive(f64::NEG_INFINITY).to_bits(), 0f64.to_bits());
        assert_eq!(exp_nonpositive(f64::NAN).to_bits(), 0f64.to_bits());
        assert!(rel(exp_nonpositive(-707.9), (-707.9f64).exp()) < 4e-16);
    }

    #[test]
    fn gaussian_values_are_the_kernel() {
        let norms = [0.0f64, 1.0, 2.5, 1e6];
        let mut a = [0.0f64, 0.5, -1.0, 3.0];
        let (xx, s2) = (1.25f64, 0.7f64);
        let want: Vec<f64> = a
            .iter()
            .zip(&norms)
            .map(|(ai, ll)| (-(xx + ll - 2.0 * ai).max(0.0) / s2).exp())
            .collect();
        gaussian_values(xx, &norms, -1.0 / s2, &mut a);
        for (got, want) in a.iter().zip(&want) {
            assert!(rel(*got, *want) < 1e-15, "{got} vs {want}");
        }
    }
}
