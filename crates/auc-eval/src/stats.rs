//! Comparing k methods over N observations: Friedman ranks, the Iman-Davenport F test and the
//! Nemenyi critical difference [Demsar06 sec. 3.2.2], as the CVM paper uses them [CVM Table 4].
//!
//! An observation is one row of scores (one data set and metric, say), one score per method; a
//! higher score is better. Each row is ranked on its own (rank 1 = best, ties share their average
//! rank), the ranks are averaged over rows, and the Friedman statistic asks whether the average
//! ranks differ more than chance allows.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $k$ | `k` | number of methods (columns) |
//! | $N$ | `n` | number of observations (rows) |
//! | $r_i^j$ | `ranks(..)[i][j]` | rank of method $j$ on observation $i$ |
//! | $R_j$ | `average_ranks(..)[j]` | average rank of method $j$ |
//! | $\chi^2_F$ | [`Friedman::chi2`] | Friedman statistic |
//! | $F_F$ | [`Friedman::ff`] | Iman-Davenport statistic |
//! | $\alpha$ | `alpha` | significance level |
//! | $q_\alpha$ | [`studentized_range_quantile_inf`] | Nemenyi critical value |
//! | $CD$ | [`nemenyi_cd`] | critical difference of average ranks |
//!
//! Nothing here returns NaN: bad input is a [`StatsError`].

use std::cmp::Ordering;
use std::fmt;

use statrs::distribution::{ChiSquared, Continuous, ContinuousCDF, Normal};
use statrs::function::beta::beta_reg;

/// Why a test statistic could not be computed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StatsError {
    /// Fewer than two methods to compare.
    TooFewMethods {
        /// Number of methods given.
        k: usize,
    },
    /// Too few observations (rows).
    TooFewObservations {
        /// Number of observations given.
        n: usize,
        /// The smallest number accepted.
        min: usize,
    },
    /// The significance level is not in the open interval $(0, 1)$.
    AlphaOutOfRange {
        /// The level given.
        alpha: f64,
    },
    /// A row has a different number of scores than the first row.
    RaggedRows {
        /// The offending row (0-based).
        row: usize,
        /// Its length.
        len: usize,
        /// The length of the first row.
        expected: usize,
    },
    /// A score is NaN or infinite.
    NonFinite {
        /// Its row (0-based).
        row: usize,
        /// Its method (column, 0-based).
        method: usize,
    },
    /// An average rank is not finite or lies outside $[1, k]$.
    RankOutOfRange {
        /// The method (0-based).
        method: usize,
        /// Its average rank.
        rank: f64,
        /// The number of methods.
        k: usize,
    },
    /// The significance level is in $(0, 1)$ but so close to an end that the critical value of
    /// `test` cannot be computed in double precision (the tail probability underflows).
    NoCriticalValue {
        /// The level given.
        alpha: f64,
        /// The test, e.g. `chi-square` or `Iman-Davenport F`.
        test: &'static str,
    },
    /// The average ranks do not sum to $k(k+1)/2$, as every rank vector does (within the slack
    /// allowed for rounded, published ranks).
    RankSum {
        /// Their sum.
        sum: f64,
        /// $k(k+1)/2$.
        expected: f64,
    },
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::TooFewMethods { k } => {
                write!(f, "need at least 2 methods to compare, got {k}")
            }
            StatsError::TooFewObservations { n, min } => {
                write!(f, "need at least {min} observation(s), got {n}")
            }
            StatsError::AlphaOutOfRange { alpha } => {
                write!(
                    f,
                    "significance level must lie strictly between 0 and 1, got {alpha}"
                )
            }
            StatsError::RaggedRows { row, len, expected } => write!(
                f,
                "row {} has {len} score(s) but row 1 has {expected}",
                row + 1
            ),
            StatsError::NonFinite { row, method } => write!(
                f,
                "score of method {} on observation {} is not finite",
                method + 1,
                row + 1
            ),
            StatsError::RankOutOfRange { method, rank, k } => write!(
                f,
                "method {} has average rank {rank}, outside [1, {k}]",
                method + 1
            ),
            StatsError::NoCriticalValue { alpha, test } => write!(
                f,
                "no finite critical value of the {test} test at significance level {}: its \
                 tail probability is below what double precision resolves (levels from about \
                 1e-300 to 1 - 1e-14 are)",
                auc_core::shortest(*alpha)
            ),
            StatsError::RankSum { sum, expected } => {
                write!(
                    f,
                    "average ranks sum to {sum}, but ranks of these methods sum to {expected}"
                )
            }
        }
    }
}

impl std::error::Error for StatsError {}

/// Checks the score matrix: at least one row, at least two methods, equal row lengths, finite
/// values. Returns $k$.
fn check_matrix(scores: &[Vec<f64>]) -> Result<usize, StatsError> {
    let Some(first) = scores.first() else {
        return Err(StatsError::TooFewObservations { n: 0, min: 1 });
    };
    let k = first.len();
    if k < 2 {
        return Err(StatsError::TooFewMethods { k });
    }
    for (row, r) in scores.iter().enumerate() {
        if r.len() != k {
            return Err(StatsError::RaggedRows {
                row,
                len: r.len(),
                expected: k,
            });
        }
        if let Some(method) = r.iter().position(|s| !s.is_finite()) {
            return Err(StatsError::NonFinite { row, method });
        }
    }
    Ok(k)
}

fn check_alpha(alpha: f64) -> Result<(), StatsError> {
    // Written so that NaN fails too.
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(StatsError::AlphaOutOfRange { alpha })
    }
}

/// Ranks of the $k$ methods within each observation [Demsar06 sec. 3.2.2]: rank 1 is the
/// highest score, and tied scores share the average of the ranks they span, so every row's ranks
/// sum to $k(k+1)/2$. For a row with sorted scores $s_{(1)} \ge \dots \ge s_{(k)}$ and a tie
/// group occupying positions $a..=b$, each member gets rank $(a + b)/2$.
///
/// `scores` has $N$ rows of $k$ scores. `-0.0` and `0.0` tie. Errors on an empty matrix,
/// $k < 2$, rows of different lengths and non-finite scores.
pub fn ranks(scores: &[Vec<f64>]) -> Result<Vec<Vec<f64>>, StatsError> {
    let k = check_matrix(scores)?;
    let mut out = Vec::with_capacity(scores.len());
    let mut order: Vec<usize> = Vec::with_capacity(k);
    for row in scores {
        order.clear();
        order.extend(0..k);
        // Finite scores, so partial_cmp never fails; sort descending.
        order.sort_by(|&a, &b| row[b].partial_cmp(&row[a]).unwrap_or(Ordering::Equal));
        let mut r = vec![0.0; k];
        let mut start = 0;
        while start < k {
            let mut end = start + 1;
            // partial_cmp, not ==, so the tie test reads as deliberate; -0.0 ties with 0.0.
            while end < k
                && row[order[end]].partial_cmp(&row[order[start]]) == Some(Ordering::Equal)
            {
                end += 1;
            }
            // Positions start..end (0-based) hold ranks start+1..=end; their mean is below.
            let shared = (start + 1 + end) as f64 / 2.0;
            for &j in &order[start..end] {
                r[j] = shared;
            }
            start = end;
        }
        out.push(r);
    }
    Ok(out)
}

/// Average rank of each method over the $N$ observations,
/// $$R_j = \frac1N \sum_{i=1}^N r_i^j,$$
/// with $r_i^j$ from [`ranks`]. Same errors as [`ranks`].
pub fn average_ranks(scores: &[Vec<f64>]) -> Result<Vec<f64>, StatsError> {
    let r = ranks(scores)?;
    let k = r[0].len();
    let mut sum = vec![0.0; k];
    for row in &r {
        for (s, v) in sum.iter_mut().zip(row) {
            *s += v;
        }
    }
    let n = r.len() as f64;
    Ok(sum.into_iter().map(|s| s / n).collect())
}

/// The result of the Friedman test with the Iman-Davenport correction [Demsar06 sec. 3.2.2].
#[derive(Clone, Debug, PartialEq)]
pub struct Friedman {
    /// Number of methods $k$.
    pub k: usize,
    /// Number of observations $N$.
    pub n: usize,
    /// Friedman statistic
    /// $\chi^2_F = \frac{12N}{k(k+1)}\left[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\right]$.
    pub chi2: f64,
    /// Iman-Davenport statistic $F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F}$
    /// [Iman80, F approximation];
    /// `+inf` when every observation ranks the methods identically ($\chi^2_F = N(k-1)$).
    pub ff: f64,
    /// Numerator degrees of freedom, $k - 1$.
    pub df1: f64,
    /// Denominator degrees of freedom, $(k-1)(N-1)$.
    pub df2: f64,
    /// $P(F > F_F)$ for $F \sim F(k-1, (k-1)(N-1))$.
    pub p_value: f64,
    /// $F^{-1}(1-\alpha)$ of that distribution: the null hypothesis is rejected above it.
    pub critical_value: f64,
    /// The significance level $\alpha$.
    pub alpha: f64,
    /// `ff > critical_value`: the methods do not all perform equally at level $\alpha$.
    pub rejected: bool,
    /// $P(\chi^2 > \chi^2_F)$ for $\chi^2$ with $k - 1$ degrees of freedom.
    pub chi2_p_value: f64,
    /// The $1-\alpha$ quantile of $\chi^2_{k-1}$.
    pub chi2_critical_value: f64,
}

/// Fewest observations for which [`Friedman::decision`] uses the Iman-Davenport F
/// approximation; below it the chi-square test is reported.
pub const MIN_OBSERVATIONS_FOR_F: usize = 5;

/// The test a [`Friedman`] result settles on: which statistic, its p-value and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct FriedmanDecision {
    /// `Iman-Davenport F` or `chi-square`.
    pub name: &'static str,
    /// The statistic ($F_F$ or $\chi^2_F$).
    pub statistic: f64,
    /// Its p-value.
    pub p_value: f64,
    /// The critical value at level $\alpha$.
    pub critical_value: f64,
    /// Whether equal performance is rejected at level $\alpha$.
    pub rejected: bool,
    /// Why the chi-square test was used, when it was.
    pub note: Option<&'static str>,
}

impl Friedman {
    /// The Iman-Davenport F test when it applies, else the chi-square test: $F_F$ is infinite
    /// when every observation ranks the methods alike ($\chi^2_F$ at its maximum $N(k-1)$), and
    /// its approximation is poor with fewer than [`MIN_OBSERVATIONS_FOR_F`] observations. Then
    /// the Friedman statistic itself is compared with $\chi^2_{k-1}$, so a verdict never rests on
    /// an infinite statistic.
    pub fn decision(&self) -> FriedmanDecision {
        let note = if !self.ff.is_finite() {
            Some(
                "every observation ranks the methods alike, so F_F is infinite and the F approximation does not apply",
            )
        } else if self.n < MIN_OBSERVATIONS_FOR_F {
            Some("too few observations for the F approximation")
        } else {
            None
        };
        match note {
            None => FriedmanDecision {
                name: "Iman-Davenport F",
                statistic: self.ff,
                p_value: self.p_value,
                critical_value: self.critical_value,
                rejected: self.rejected,
                note: None,
            },
            Some(_) => FriedmanDecision {
                name: "chi-square",
                statistic: self.chi2,
                p_value: self.chi2_p_value,
                critical_value: self.chi2_critical_value,
                rejected: self.chi2 > self.chi2_critical_value,
                note,
            },
        }
    }
}

/// How far the sum of average ranks may stray from $k(k+1)/2$, per method: ranks printed to two
/// decimals (error at most 0.005 each) pass, anything that is not a rank vector does not.
const RANK_SUM_SLACK_PER_METHOD: f64 = 0.005;

/// Friedman test from the average ranks $R_1, \dots, R_k$ of $k$ methods on $N$ observations
/// [Demsar06 sec. 3.2.2]:
/// $$\chi^2_F = \frac{12N}{k(k+1)}\left[\sum_{j=1}^k R_j^2 - \frac{k(k+1)^2}{4}\right],\qquad
///   F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F},$$
/// with $F_F \sim F(k-1, (k-1)(N-1))$ under the null hypothesis [Iman80, F approximation]; the
/// p-value is its upper tail and the critical value its $1-\alpha$ quantile.
///
/// This is the entry point for published tables, whose ranks are rounded: the ranks must lie in
/// $[1, k]$ and sum to $k(k+1)/2$ within $0.005k$.
///
/// Deviation: with rounded ranks $\chi^2_F$ can fall a hair outside its range $[0, N(k-1)]$. It is
/// clamped into that range, so $F_F$ is never negative or NaN; at the upper end $F_F = +\infty$
/// and the p-value is 0.
///
/// Errors: $k < 2$, $N < 2$, $\alpha \notin (0, 1)$, invalid ranks, and a level whose critical
/// value cannot be computed in double precision ([`StatsError::NoCriticalValue`]; see the private
/// `upper_quantile`).
pub fn friedman_from_ranks(
    avg_ranks: &[f64],
    n: usize,
    alpha: f64,
) -> Result<Friedman, StatsError> {
    let k = avg_ranks.len();
    if k < 2 {
        return Err(StatsError::TooFewMethods { k });
    }
    if n < 2 {
        return Err(StatsError::TooFewObservations { n, min: 2 });
    }
    check_alpha(alpha)?;
    let kf = k as f64;
    let nf = n as f64;
    if let Some((method, &rank)) = avg_ranks
        .iter()
        .enumerate()
        .find(|&(_, r)| !(r.is_finite() && (1.0..=kf).contains(r)))
    {
        return Err(StatsError::RankOutOfRange { method, rank, k });
    }
    let sum: f64 = avg_ranks.iter().sum();
    let expected = kf * (kf + 1.0) / 2.0;
    if (sum - expected).abs() > RANK_SUM_SLACK_PER_METHOD * kf {
        return Err(StatsError::RankSum { sum, expected });
    }
    let sum_sq: f64 = avg_ranks.iter().map(|r| r * r).sum();
    // [Demsar06 sec. 3.2.2]: chi2_F, clamped into its range [0, N(k-1)] (see Deviation).
    let chi2_max = nf * (kf - 1.0);
    let chi2 = (12.0 * nf / (kf * (kf + 1.0)) * (sum_sq - kf * (kf + 1.0).powi(2) / 4.0))
        .clamp(0.0, chi2_max);
    // [Iman80, F approximation]: F_F = (N-1) chi2_F / (N(k-1) - chi2_F).
    let denom = chi2_max - chi2;
    let ff = if denom > 0.0 {
        (nf - 1.0) * chi2 / denom
    } else {
        f64::INFINITY
    };
    let df1 = kf - 1.0;
    let df2 = (kf - 1.0) * (nf - 1.0);
    let (f_cdf, f_sf) = (|x| fisher_cdf(df1, df2, x), |x| fisher_sf(df1, df2, x));
    let p_value = if ff.is_finite() { f_sf(ff) } else { 0.0 };
    let critical_value = upper_quantile(alpha, f_cdf, f_sf).ok_or(StatsError::NoCriticalValue {
        alpha,
        test: "Iman-Davenport F",
    })?;
    let c = ChiSquared::new(df1).expect("k >= 2 makes df >= 1");
    let chi2_critical_value =
        upper_quantile(alpha, |x| c.cdf(x), |x| c.sf(x)).ok_or(StatsError::NoCriticalValue {
            alpha,
            test: "chi-square",
        })?;
    Ok(Friedman {
        chi2_p_value: c.sf(chi2),
        chi2_critical_value,
        k,
        n,
        chi2,
        ff,
        df1,
        df2,
        p_value,
        critical_value,
        alpha,
        rejected: ff > critical_value,
    })
}

/// $P(F \le x)$ for $F \sim F(d_1, d_2)$: $I_{d_1 x / (d_1 x + d_2)}(d_1/2, d_2/2)$.
fn fisher_cdf(df1: f64, df2: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x.is_infinite() {
        return 1.0;
    }
    beta_reg(df1 / 2.0, df2 / 2.0, df1 * x / (df1 * x + df2))
}

/// $P(F > x)$ for $F \sim F(d_1, d_2)$: $I_{d_2 / (d_1 x + d_2)}(d_2/2, d_1/2)$.
///
/// Deviation: statrs computes the argument as $1 - d_1 x / (d_1 x + d_2)$, which is 0 once
/// $d_1 x / d_2$ passes $10^{16}$, so its tail (and the critical value inverted from it) ended at
/// about $10^{-64}$ for $F(2, 8)$; the form here keeps full relative precision down to the
/// underflow of `f64`.
fn fisher_sf(df1: f64, df2: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    beta_reg(df2 / 2.0, df1 / 2.0, df2 / (df1 * x + df2))
}

/// The upper-$\alpha$ quantile $x$, $P(X > x) = \alpha$, of a distribution on $[0, \infty)$
/// with a continuous, increasing `cdf` and its survival function `sf`; `None` when it cannot be
/// computed in double precision.
///
/// Deviation: statrs's `inverse_cdf(1 - alpha)` is infinite for $\alpha < 10^{-17}$ (where
/// $1 - \alpha$ rounds to 1) and NaN near $\alpha = 1$, so `auc friedman --alpha 1e-20`
/// printed `critical value inf`. Here the quantile is bracketed by doubling and bisected to the
/// last bit on the tail that is small, compared with $\alpha$ itself (upper tail) or with
/// $1 - \alpha$ (lower tail, exact in floating point for $\alpha \ge \tfrac12$), so neither
/// end loses digits. A tail that underflows, or does not come within a relative $10^{-6}$ of the
/// level at the result, gives `None` rather than a wrong number.
fn upper_quantile(alpha: f64, cdf: impl Fn(f64) -> f64, sf: impl Fn(f64) -> f64) -> Option<f64> {
    let lower = alpha > 0.5;
    let (tail, target): (&dyn Fn(f64) -> f64, f64) = if lower {
        (&cdf, 1.0 - alpha)
    } else {
        (&sf, alpha)
    };
    if target < f64::MIN_POSITIVE {
        return None;
    }
    // `beyond(x)`: the quantile lies above x.
    let beyond = |x: f64| {
        let t = tail(x);
        if lower { t < target } else { t > target }
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while beyond(hi) {
        lo = hi;
        hi *= 2.0;
        if !hi.is_finite() {
            return None;
        }
    }
    loop {
        let mid = lo + 0.5 * (hi - lo);
        if mid <= lo || mid >= hi {
            break;
        }
        if beyond(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let at = tail(hi);
    (hi.is_finite() && hi > 0.0 && (at - target).abs() <= 1e-6 * target).then_some(hi)
}

/// Friedman test on a score matrix of $N$ rows (observations) by $k$ columns (methods), higher
/// scores better: [`average_ranks`] followed by [`friedman_from_ranks`]. Errors as those two.
pub fn friedman(scores: &[Vec<f64>], alpha: f64) -> Result<Friedman, StatsError> {
    if scores.len() < 2 {
        return Err(StatsError::TooFewObservations {
            n: scores.len(),
            min: 2,
        });
    }
    let avg = average_ranks(scores)?;
    friedman_from_ranks(&avg, scores.len(), alpha)
}

/// Nemenyi critical difference [Demsar06 sec. 3.2.2]:
/// $$CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}},$$
/// with $q_\alpha$ from [`studentized_range_quantile_inf`]. Two methods whose average ranks differ
/// by more than $CD$ differ significantly at level $\alpha$.
///
/// Errors: $k < 2$, $N < 2$, $\alpha \notin (0, 1)$.
pub fn nemenyi_cd(k: usize, n: usize, alpha: f64) -> Result<f64, StatsError> {
    if n < 2 {
        return Err(StatsError::TooFewObservations { n, min: 2 });
    }
    let q = studentized_range_quantile_inf(k, alpha)?;
    let (kf, nf) = (k as f64, n as f64);
    Ok(q * (kf * (kf + 1.0) / (6.0 * nf)).sqrt())
}

/// Step of the composite Simpson rule in [`range_upper_tail`]; its error is far below the
/// bisection tolerance (checked against the closed form at $k = 2$ in the tests).
const SIMPSON_STEP: f64 = 0.005;
/// Half-width of the integration window around $z = -w/2$ in [`range_upper_tail`].
const HALF_WINDOW: f64 = 9.0;
/// Absolute tolerance on the quantile $w$ when bisecting.
const QUANTILE_TOL: f64 = 1e-11;

/// Upper tail $P(W > w)$ of the range $W$ of $k$ iid standard normals.
///
/// With $\Phi$, $\varphi$ the standard normal CDF and density and $Q = 1 - \Phi$,
/// $$P(W \le w) = k\int_{-\infty}^{\infty} \varphi(z)\,[\Phi(z+w) - \Phi(z)]^{k-1}\,dz$$
/// (the smallest draw is at $z$ and the other $k-1$ lie in $[z, z+w]$). Because
/// $k\int \varphi(z)\,Q(z)^{k-1}\,dz = 1$ (the density of the minimum), the tail is
/// $$P(W > w) = k\int \varphi(z)\left[a^{k-1} - b^{k-1}\right]dz,\qquad
///   a = Q(z),\ b = Q(z) - Q(z+w),$$
/// and $a^{k-1} - b^{k-1} = -a^{k-1}\,\mathrm{expm1}\big((k-1)\,\mathrm{ln1p}(-Q(z+w)/Q(z))\big)$
/// has no cancellation, so even tiny tails keep full relative precision (computing
/// $1 - P(W \le w)$ would lose every digit below $10^{-16}$).
///
/// The integrand is bounded by $k(k-1)\varphi(z)\,Q(z+w)$, a Gaussian bump at $z = -w/2$ with
/// standard deviation $1/\sqrt2$, so the window $-w/2 \pm 9$ (over 12 standard deviations)
/// loses a relative $e^{-81}$ at most.
fn range_upper_tail(k: usize, w: f64, normal: &Normal) -> f64 {
    let km1 = (k - 1) as f64;
    let integrand = |z: f64| {
        let a = normal.sf(z);
        if a <= 0.0 {
            return 0.0;
        }
        // Q is decreasing, so r <= 1; min() guards against rounding.
        let r = (normal.sf(z + w) / a).min(1.0);
        let diff = -(km1 * a.ln()).exp() * (km1 * (-r).ln_1p()).exp_m1();
        normal.pdf(z) * diff
    };
    let lo = -w / 2.0 - HALF_WINDOW;
    let intervals = (2.0 * HALF_WINDOW / SIMPSON_STEP).round() as usize; // even
    let h = 2.0 * HALF_WINDOW / intervals as f64;
    let mut sum = integrand(lo) + integrand(lo + 2.0 * HALF_WINDOW);
    for i in 1..intervals {
        let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += weight * integrand(lo + i as f64 * h);
    }
    k as f64 * sum * h / 3.0
}

/// Lower tail $P(W \le w)$ of the range $W$ of $k$ iid standard normals,
/// $k\int \varphi(z)\,[\Phi(z+w) - \Phi(z)]^{k-1}\,dz$, by the quadrature of
/// [`range_upper_tail`] on the window $[-w - 9, 9]$ (the integrand is at most $\varphi(z)$ and
/// vanishes outside $z \in (-w - 9, 9)$ to $10^{-18}$).
///
/// Deviation: for $\alpha$ near 1 the quantile is small and its lower tail tiny; computing it as
/// $1 - P(W > w)$ left only the digits above $10^{-16}$, so [`studentized_range_quantile_inf`]
/// inverts this tail there. The difference $\Phi(z+w) - \Phi(z)$ is Simpson's rule on
/// $[z, z+w]$ for $w < 10^{-3}$, else taken on the side of the smaller tail
/// ($Q(z) - Q(z+w)$ for $z > -w/2$), losing at most $10^{-13}/\varphi(z)$ relative.
fn range_lower_tail(k: usize, w: f64, normal: &Normal) -> f64 {
    let km1 = (k - 1) as i32;
    let integrand = |z: f64| {
        let d = if w < 1e-3 {
            // Simpson's rule on [z, z + w]: error w^5 phi''''/2880, below 1e-12 relative,
            // where the difference of two CDFs would keep only 1e-16 / (w phi(z)).
            w / 6.0 * (normal.pdf(z) + 4.0 * normal.pdf(z + 0.5 * w) + normal.pdf(z + w))
        } else if z + 0.5 * w < 0.0 {
            normal.cdf(z + w) - normal.cdf(z)
        } else {
            normal.sf(z) - normal.sf(z + w)
        };
        normal.pdf(z) * d.max(0.0).powi(km1)
    };
    let (lo, width) = (-w - HALF_WINDOW, w + 2.0 * HALF_WINDOW);
    let intervals = 2 * ((width / SIMPSON_STEP / 2.0).ceil() as usize).max(1);
    let h = width / intervals as f64;
    let mut sum = integrand(lo) + integrand(lo + width);
    for i in 1..intervals {
        let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += weight * integrand(lo + i as f64 * h);
    }
    k as f64 * sum * h / 3.0
}

/// Critical value $q_\alpha$ of the Nemenyi test for $k$ methods [Demsar06 sec. 3.2.2, Table 5]:
/// the upper-$\alpha$ quantile of the studentized range of $k$ iid standard normals with infinite
/// degrees of freedom, divided by $\sqrt2$,
/// $$q_\alpha = w_\alpha / \sqrt2,\qquad P(W > w_\alpha) = \alpha,\qquad
///   P(W \le w) = k\int_{-\infty}^{\infty}\varphi(z)\,[\Phi(z+w) - \Phi(z)]^{k-1}\,dz.$$
///
/// Computed, not looked up: composite Simpson quadrature of the tail (see the comment on the
/// private `range_upper_tail`) and bisection on $w$ to $10^{-11}$. For $k = 2$ this is the normal
/// quantile $\Phi^{-1}(1 - \alpha/2)$ (1.960 at $\alpha = 0.05$).
///
/// Near 1, $\alpha$ is compared with the lower tail instead (see the private `range_lower_tail`),
/// so the small quantile keeps its digits.
///
/// Errors: $k < 2$, $\alpha \notin (0, 1)$, and [`StatsError::NoCriticalValue`] for a level whose
/// tail cannot be resolved in double precision (subnormal, or beyond $w = 1000$).
pub fn studentized_range_quantile_inf(k: usize, alpha: f64) -> Result<f64, StatsError> {
    if k < 2 {
        return Err(StatsError::TooFewMethods { k });
    }
    check_alpha(alpha)?;
    if alpha < f64::MIN_POSITIVE {
        // A subnormal tail has too few digits to invert (as in `upper_quantile`).
        return Err(StatsError::NoCriticalValue {
            alpha,
            test: "Nemenyi",
        });
    }
    let normal = Normal::standard();
    // Above 1/2, invert the lower tail against 1 - alpha (exact in floating point), to a
    // relative tolerance: the quantile tends to 0 as alpha tends to 1 (see `range_lower_tail`).
    let lower = alpha > 0.5;
    let beyond = |w: f64| {
        if lower {
            range_lower_tail(k, w, &normal) < 1.0 - alpha
        } else {
            range_upper_tail(k, w, &normal) > alpha
        }
    };
    // The upper tail falls from 1 at w = 0; double the upper end until it brackets alpha.
    let (mut lo, mut hi) = (0.0f64, 4.0f64);
    while beyond(hi) {
        lo = hi;
        hi *= 2.0;
        if hi > 1e3 {
            // The tail at w = 1000 underflows for every k: alpha is below what f64 resolves.
            return Err(StatsError::NoCriticalValue {
                alpha,
                test: "Nemenyi",
            });
        }
    }
    let tol = |hi: f64| {
        if lower {
            QUANTILE_TOL * hi
        } else {
            QUANTILE_TOL
        }
    };
    while hi - lo > tol(hi) {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if beyond(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let q = 0.5 * (lo + hi) / std::f64::consts::SQRT_2;
    // As in `upper_quantile`: a tail that underflowed on the way is no answer.
    let (at, target) = if lower {
        (range_lower_tail(k, hi, &normal), 1.0 - alpha)
    } else {
        (range_upper_tail(k, hi, &normal), alpha)
    };
    if !(q.is_finite() && q > 0.0 && (at - target).abs() <= 1e-6 * target) {
        return Err(StatsError::NoCriticalValue {
            alpha,
            test: "Nemenyi",
        });
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_tail_at_k2_is_the_normal_difference_tail() {
        // For k = 2, W = |Z1 - Z2| and Z1 - Z2 ~ N(0, 2): P(W > w) = 2 Q(w / sqrt 2).
        let normal = Normal::standard();
        for w in [0.5, 1.0, 2.77, 5.0, 12.0, 30.0] {
            let exact = 2.0 * normal.sf(w / std::f64::consts::SQRT_2);
            let got = range_upper_tail(2, w, &normal);
            // Relative 1e-9: Simpson at step 0.005 on a smooth bump is far more accurate.
            assert!(
                (got - exact).abs() <= 1e-9 * exact,
                "w={w}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn range_tail_is_one_at_zero_for_many_methods() {
        // W > 0 almost surely, so the tail at 0 is the whole mass of the minimum's density.
        let normal = Normal::standard();
        for k in [2, 3, 10, 50] {
            let t = range_upper_tail(k, 0.0, &normal);
            assert!((t - 1.0).abs() < 1e-9, "k={k}: {t}");
        }
    }

    #[test]
    fn errors_display_what_and_where() {
        let e = StatsError::RaggedRows {
            row: 2,
            len: 3,
            expected: 4,
        };
        assert_eq!(e.to_string(), "row 3 has 3 score(s) but row 1 has 4");
        let e = StatsError::NonFinite { row: 0, method: 1 };
        assert_eq!(
            e.to_string(),
            "score of method 2 on observation 1 is not finite"
        );
    }
}
