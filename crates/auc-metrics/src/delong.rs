//! How sure an AUC is: DeLong's variance of the AUC \[DeLong88\], computed by Sun and Xu's
//! $O(n \log n)$ algorithm \[SunXu14\], its confidence interval, and the paired test of two
//! score vectors on the same rows. Definitions and a worked example: `docs/math/delong.md`.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $m$, $n$ | `pos`, `neg` | positives, negatives |
//! | $V_{10}(X_i)$ | positive placement | share of negatives below positive $i$, ties 1/2 |
//! | $V_{01}(Y_j)$ | negative placement | share of positives above negative $j$, ties 1/2 |
//! | $S_{10}$, $S_{01}$ | `s10`, `s01` | sample (co)variances of the placements ($m-1$, $n-1$) |
//! | $\hat\theta$ | [`DelongAuc::auc`] | the AUC, the mean of either placement |
//! | $S = S_{10}/m + S_{01}/n$ | [`DelongAuc::variance`] | DeLong's variance of $\hat\theta$ |
//!
//! **The placements from midranks** \[SunXu14, eqs. 5-8\]: with $T_Z$ the midranks of all scores,
//! $T_X$ those of the positives among themselves and $T_Y$ of the negatives,
//! $V_{10}(X_i) = (T_Z(X_i) - T_X(X_i))/n$ and $V_{01}(Y_j) = 1 - (T_Z(Y_j) - T_Y(Y_j))/m$. A
//! midrank difference $T_Z(X_i) - T_X(X_i)$ is the count of negatives below $X_i$ plus half the
//! negatives tied with it, which is what the code reads off one walk over the tie groups in
//! increasing score order (tied scores are one group, compared with `==`, as in
//! [`crate::metrics::auc`]): one sort, $O(n \log n)$, then $O(n)$.

use auc_core::Label;

use crate::metrics::{MetricError, Sorted, check, order_key};
use crate::normal;

/// DeLong's estimate for one score vector.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DelongAuc {
    /// The AUC (ties 1/2), equal to [`crate::metrics::auc`] up to rounding.
    pub auc: f64,
    /// $S_{10}/m + S_{01}/n$ \[DeLong88, eq. 4; SunXu14, eq. 2\].
    pub variance: f64,
    /// Positives.
    pub pos: usize,
    /// Negatives.
    pub neg: usize,
}

impl DelongAuc {
    /// The standard error $\sqrt{S}$.
    pub fn se(&self) -> f64 {
        self.variance.sqrt()
    }
}

/// A two-sided confidence interval for the AUC.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct AucCi {
    /// The AUC.
    pub auc: f64,
    /// DeLong's standard error.
    pub se: f64,
    /// The confidence level, in $(0, 1)$.
    pub level: f64,
    /// $\max(0, \hat\theta - z\,\mathrm{se})$, $z = \Phi^{-1}((1 + \text{level})/2)$.
    pub lower: f64,
    /// $\min(1, \hat\theta + z\,\mathrm{se})$.
    pub upper: f64,
}

/// The paired DeLong test of two score vectors on the same rows \[DeLong88, eq. 6\].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PairedTest {
    /// AUC of the first score vector.
    pub auc_a: f64,
    /// AUC of the second.
    pub auc_b: f64,
    /// `auc_a - auc_b`.
    pub delta: f64,
    /// Standard error of the difference, $\sqrt{S_{aa} + S_{bb} - 2 S_{ab}}$.
    pub se: f64,
    /// The confidence level of `delta_ci`.
    pub level: f64,
    /// `delta` $\pm z\,$`se`, clipped to $[-1, 1]$.
    pub delta_ci: (f64, f64),
    /// `delta / se` (0 when both are 0).
    pub z: f64,
    /// Two-sided: $P(|Z| \ge |z|) = \operatorname{erfc}(|z|/\sqrt2)$.
    pub p_value: f64,
    /// The estimated correlation of the two AUCs, $S_{ab}/\sqrt{S_{aa} S_{bb}}$ (0 when a
    /// variance is 0).
    pub correlation: f64,
}

/// Refuses a confidence level outside $(0, 1)$, NaN included.
pub fn check_level(level: f64) -> Result<(), MetricError> {
    if level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(MetricError::Setting {
            name: "level",
            value: level,
            allowed: "in (0, 1), e.g. 0.95",
        })
    }
}

/// $z = \Phi^{-1}((1 + \text{level})/2)$, the half-width of a two-sided interval in standard
/// errors.
fn half_width(level: f64) -> f64 {
    normal::quantile(0.5 + level / 2.0)
}

/// DeLong's AUC and variance of `scores` for `labels`.
///
/// With the placements of the module docs and $\hat\theta$ the AUC,
/// $$S_{10} = \frac{1}{m-1}\sum_{i=1}^m (V_{10}(X_i) - \hat\theta)^2,\quad
///   S_{01} = \frac{1}{n-1}\sum_{j=1}^n (V_{01}(Y_j) - \hat\theta)^2,\quad
///   \widehat{\mathrm{Var}}(\hat\theta) = \frac{S_{10}}{m} + \frac{S_{01}}{n}.$$
/// All positives of one tie group share a placement, so each sum is taken over tie groups
/// (weighted by their counts) in two walks of the sorted scores: the first gives $\hat\theta$,
/// the second the centred squares. $O(n \log n)$, no per-row array.
///
/// Errors: as [`crate::metrics::auc`], and [`MetricError::TooFew`] with fewer than two
/// positives or negatives.
pub fn delong(scores: &[f64], labels: &[Label]) -> Result<DelongAuc, MetricError> {
    let sorted = Sorted::new(scores, labels)?;
    let (pos, neg) = (sorted.pos(), sorted.neg());
    if pos < 2 || neg < 2 {
        return Err(MetricError::TooFew { pos, neg });
    }
    let (m, n) = (pos as f64, neg as f64);
    // Walking down from the highest score: negatives below a group are those not yet passed,
    // positives above it those already passed.
    let walk = |f: &mut dyn FnMut(usize, f64, usize, f64)| {
        let (mut neg_above, mut pos_above) = (0usize, 0usize);
        sorted.for_each_group(|_, gp, gn| {
            let neg_below = neg - neg_above - gn;
            // [SunXu14, eqs. 7-8] as counts: T_Z - T_X = negatives below + half the tied ones.
            let v10 = (neg_below as f64 + 0.5 * gn as f64) / n;
            let v01 = (pos_above as f64 + 0.5 * gp as f64) / m;
            f(gp, v10, gn, v01);
            neg_above += gn;
            pos_above += gp;
        });
    };
    let mut sum10 = 0.0;
    walk(&mut |gp, v10, _, _| sum10 += gp as f64 * v10);
    let auc = sum10 / m;
    let (mut ss10, mut ss01) = (0.0, 0.0);
    walk(&mut |gp, v10, gn, v01| {
        ss10 += gp as f64 * (v10 - auc) * (v10 - auc);
        ss01 += gn as f64 * (v01 - auc) * (v01 - auc);
    });
    // [DeLong88, eq. 4]
    let variance = ss10 / ((m - 1.0) * m) + ss01 / ((n - 1.0) * n);
    Ok(DelongAuc {
        auc,
        variance,
        pos,
        neg,
    })
}

/// The AUC with DeLong's two-sided confidence interval at `level` (e.g. 0.95): the Wald
/// interval $\hat\theta \pm \Phi^{-1}((1+\text{level})/2)\sqrt{S}$ on the AUC scale, clipped to
/// $[0, 1]$ (as R's pROC `ci.auc(method = "delong")` reports it).
///
/// Errors: as [`delong`], and [`MetricError::Setting`] for a level outside $(0, 1)$.
pub fn auc_ci(scores: &[f64], labels: &[Label], level: f64) -> Result<AucCi, MetricError> {
    check_level(level)?;
    let d = delong(scores, labels)?;
    let se = d.se();
    let z = half_width(level);
    Ok(AucCi {
        auc: d.auc,
        se,
        level,
        lower: (d.auc - z * se).max(0.0),
        upper: (d.auc + z * se).min(1.0),
    })
}

/// The placements of every row, in row order: $V_{10}$ for a positive row, $V_{01}$ for a
/// negative one (module docs), from one sort of the rows by score.
fn placements(scores: &[f64], labels: &[Label], pos: usize, neg: usize) -> Vec<f64> {
    let (m, n) = (pos as f64, neg as f64);
    let mut order: Vec<(u64, usize)> = scores
        .iter()
        .enumerate()
        .map(|(i, &s)| (order_key(s), i))
        .collect();
    order.sort_unstable();
    let mut place = vec![0.0; scores.len()];
    let (mut pos_below, mut neg_below) = (0usize, 0usize);
    let mut start = 0;
    while start < order.len() {
        // The tie group: equal scores by `==` (-0.0 and 0.0 sort next to each other).
        let s = scores[order[start].1];
        let mut end = start;
        #[allow(clippy::float_cmp)] // Ties are exactly equal scores, as in scikit-learn.
        while end < order.len() && scores[order[end].1] == s {
            end += 1;
        }
        let group = &order[start..end];
        let gp = group.iter().filter(|&&(_, i)| labels[i].is_pos()).count();
        let gn = group.len() - gp;
        let pos_above = pos - pos_below - gp;
        // [SunXu14, eqs. 7-8] as counts.
        let v10 = (neg_below as f64 + 0.5 * gn as f64) / n;
        let v01 = (pos_above as f64 + 0.5 * gp as f64) / m;
        for &(_, i) in group {
            place[i] = if labels[i].is_pos() { v10 } else { v01 };
        }
        pos_below += gp;
        neg_below += gn;
        start = end;
    }
    place
}

/// The paired DeLong test of `a` against `b`, two score vectors for the same rows `labels`.
///
/// With the placements of each vector, the $2 \times 2$ matrices $S_{10}$ (sample covariance
/// over positives of $(V^a_{10}, V^b_{10})$) and $S_{01}$ (over negatives) give
/// $S = S_{10}/m + S_{01}/n$ \[DeLong88, eq. 5\], and the difference $\hat\theta_a -
/// \hat\theta_b$ has variance $S_{aa} + S_{bb} - 2S_{ab}$ \[DeLong88, eq. 6\]; $z$ is the
/// difference over its standard error and the p-value two-sided. The placements are computed by
/// one sort per vector \[SunXu14\]: $O(n \log n)$ time and $O(n)$ memory.
///
/// When the variance of the difference is 0: $z = 0$ and $p = 1$ if the AUCs are equal, else
/// [`MetricError::ZeroVariance`]. Errors: as [`auc_ci`] (for either vector), and
/// [`MetricError::LengthMismatch`] when `b` is not as long as `a`.
pub fn delong_test(
    a: &[f64],
    b: &[f64],
    labels: &[Label],
    level: f64,
) -> Result<PairedTest, MetricError> {
    check_level(level)?;
    let (pos, neg) = check(a, labels)?;
    check(b, labels)?;
    if pos < 2 || neg < 2 {
        return Err(MetricError::TooFew { pos, neg });
    }
    let (pa, pb) = rayon::join(
        || placements(a, labels, pos, neg),
        || placements(b, labels, pos, neg),
    );
    let (m, n) = (pos as f64, neg as f64);
    // Means per class: each is the vector's AUC.
    let mut sums = [[0.0f64; 2]; 2]; // [class][vector], class 0 positives
    for ((&x, &y), l) in pa.iter().zip(&pb).zip(labels) {
        let c = usize::from(!l.is_pos());
        sums[c][0] += x;
        sums[c][1] += y;
    }
    let auc_a = sums[0][0] / m;
    let auc_b = sums[0][1] / m;
    let means = [[auc_a, auc_b], [sums[1][0] / n, sums[1][1] / n]];
    // Centred cross products per class: [aa, bb, ab].
    let mut cp = [[0.0f64; 3]; 2];
    for ((&x, &y), l) in pa.iter().zip(&pb).zip(labels) {
        let c = usize::from(!l.is_pos());
        let (dx, dy) = (x - means[c][0], y - means[c][1]);
        cp[c][0] += dx * dx;
        cp[c][1] += dy * dy;
        cp[c][2] += dx * dy;
    }
    // [DeLong88, eq. 5]: S = S10 / m + S01 / n, entry by entry.
    let s: [f64; 3] =
        std::array::from_fn(|k| cp[0][k] / ((m - 1.0) * m) + cp[1][k] / ((n - 1.0) * n));
    let delta = auc_a - auc_b;
    // [DeLong88, eq. 6]; rounding can leave a tiny negative for identical vectors.
    let var = (s[0] + s[1] - 2.0 * s[2]).max(0.0);
    let se = var.sqrt();
    let (z, p_value) = if se > 0.0 {
        let z = delta / se;
        (z, normal::erfc(z.abs() * std::f64::consts::FRAC_1_SQRT_2))
    } else if delta == 0.0 {
        (0.0, 1.0)
    } else {
        return Err(MetricError::ZeroVariance { delta });
    };
    let w = half_width(level) * se;
    let correlation = if s[0] > 0.0 && s[1] > 0.0 {
        (s[2] / (s[0] * s[1]).sqrt()).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    Ok(PairedTest {
        auc_a,
        auc_b,
        delta,
        se,
        level,
        delta_ci: ((delta - w).max(-1.0), (delta + w).min(1.0)),
        z,
        p_value,
        correlation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::{Neg, Pos};

    #[test]
    fn variance_by_hand() {
        // Positives 0.9, 0.5, 0.3; negatives 0.6, 0.3 (the AUC example of metrics.rs: 3.5/6).
        // V10: 0.9 beats both (1), 0.5 beats 0.3 (1/2), 0.3 ties 0.3 (1/4).
        // V01: 0.6 is below 0.9 only (1/3), 0.3 is below 0.9, 0.5 and ties 0.3 (2.5/3).
        // mean 7/12; S10 = ((5/12)^2 + (1/12)^2 + (4/12)^2) / 2 = 42/288;
        // S01 = ((1/3 - 7/12)^2 + (5/6 - 7/12)^2) / 1 = 2 (3/12)^2 = 18/144.
        // Var = S10/3 + S01/2 = 42/864 + 18/288 = 0.0486111 + 0.0625.
        let s = [0.9, 0.6, 0.5, 0.3, 0.3];
        let y = [Pos, Neg, Pos, Pos, Neg];
        let d = delong(&s, &y).unwrap();
        assert!((d.auc - 7.0 / 12.0).abs() < 1e-15);
        let expected = 42.0 / 864.0 + 18.0 / 288.0;
        assert!((d.variance - expected).abs() < 1e-15, "{}", d.variance);
        // The per-row placements give the same variance against themselves.
        let t = delong_test(&s, &s, &y, 0.95).unwrap();
        assert_eq!((t.z, t.p_value, t.delta), (0.0, 1.0, 0.0));
        assert!((t.correlation - 1.0).abs() < 1e-12);
    }

    #[test]
    fn interval_is_clipped_and_levels_checked() {
        let s = [4.0, 3.0, 2.0, 1.0];
        let y = [Pos, Pos, Neg, Neg];
        let ci = auc_ci(&s, &y, 0.95).unwrap();
        // A perfect ranking: every placement is 1, the variance 0.
        assert_eq!((ci.auc, ci.se, ci.lower, ci.upper), (1.0, 0.0, 1.0, 1.0));
        for bad in [0.0, 1.0, f64::NAN, -0.5] {
            assert!(matches!(
                auc_ci(&s, &y, bad),
                Err(MetricError::Setting { name: "level", .. })
            ));
        }
        assert_eq!(
            delong(&[1.0, 2.0, 3.0], &[Pos, Neg, Neg]),
            Err(MetricError::TooFew { pos: 1, neg: 2 })
        );
        // A perfect and a useless ranking: the difference has no variance.
        assert!(matches!(
            delong_test(&s, &[1.0; 4], &y, 0.95),
            Err(MetricError::ZeroVariance { .. })
        ));
        assert!(matches!(
            delong_test(&s, &[1.0; 3], &y, 0.95),
            Err(MetricError::LengthMismatch { .. })
        ));
    }

    #[test]
    #[allow(clippy::float_cmp)] // Exact values: a difference of equal sums, an underflow.
    fn negative_zero_ties_with_zero() {
        let y = [Pos, Neg, Pos, Neg];
        let a = delong(&[0.0, -0.0, 1.0, -1.0], &y).unwrap();
        let b = delong(&[0.0, 0.0, 1.0, -1.0], &y).unwrap();
        assert_eq!(a, b);
        let t = delong_test(&[0.0, -0.0, 1.0, -1.0], &[0.0, 0.0, 1.0, -1.0], &y, 0.9).unwrap();
        assert_eq!(t.delta, 0.0);
        assert!(t.se < 1e-15);
    }
}
