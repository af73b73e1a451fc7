//! Seeded bootstrap intervals for the metrics without a closed-form variance: average precision
//! and the partial AUC (and the AUC beside them, to compare with DeLong's interval).
//!
//! **Method.** The stratified bootstrap \[Efron93, ch. 13\] (R's pROC resamples this way by
//! default): each replicate draws $n_+$ positives and $n_-$ negatives with replacement from their
//! own class, so every replicate keeps both classes and the class balance, and the metrics are
//! recomputed on it. The interval is the percentile interval, the $(1 \mp \text{level})/2$
//! quantiles of the replicates, each by linear interpolation between order statistics (numpy's
//! default `quantile`); `se` is the replicates' standard deviation ($N - 1$).
//!
//! **Seeds.** Replicate $r$ draws from `StdRng::seed_from_u64(mix(seed, r))`, so the result
//! depends on the seed and the replicate count only, not on the number of threads the replicates
//! are spread over.

use auc_core::Label;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::delong::check_level;
use crate::metrics::{MetricError, auc, average_precision, check};
use crate::partial::{check_max_fpr, partial_auc};

/// What to resample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BootstrapParams {
    /// Replicates $N \ge 2$.
    pub replicates: usize,
    /// The seed of the replicates' draws.
    pub seed: u64,
    /// The confidence level, in $(0, 1)$.
    pub level: f64,
    /// Also resample the partial AUC up to this false-positive rate (McClish-standardized, as
    /// [`crate::partial::PartialAuc::standardized`]).
    pub max_fpr: Option<f64>,
}

/// A percentile interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    /// The lower $(1 - \text{level})/2$ quantile of the replicates.
    pub lower: f64,
    /// The upper $(1 + \text{level})/2$ quantile.
    pub upper: f64,
    /// The replicates' standard deviation.
    pub se: f64,
}

/// The bootstrap intervals of one score vector.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BootstrapCi {
    /// Replicates drawn.
    pub replicates: usize,
    /// The seed.
    pub seed: u64,
    /// The confidence level.
    pub level: f64,
    /// AUC.
    pub auc: Interval,
    /// Average precision.
    pub ap: Interval,
    /// The McClish-standardized partial AUC, when `max_fpr` was given.
    pub pauc: Option<Interval>,
}

/// SplitMix64's finalizer of `seed + r`: distinct, well-mixed seeds for the replicates.
fn mix(seed: u64, r: u64) -> u64 {
    let mut z = seed.wrapping_add(r.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `q`-quantile of sorted `xs` by linear interpolation between order statistics (numpy's
/// `method="linear"`): position $h = (N-1)q$.
fn quantile_sorted(xs: &[f64], q: f64) -> f64 {
    let h = (xs.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(xs.len() - 1);
    xs[lo] + (h - lo as f64) * (xs[hi] - xs[lo])
}

/// The percentile interval and the standard deviation of the replicates `xs`.
fn interval(mut xs: Vec<f64>, level: f64) -> Interval {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    xs.sort_unstable_by(f64::total_cmp);
    Interval {
        lower: quantile_sorted(&xs, (1.0 - level) / 2.0),
        upper: quantile_sorted(&xs, (1.0 + level) / 2.0),
        se: var.sqrt(),
    }
}

/// Stratified bootstrap intervals of the AUC, AP and (with `max_fpr`) the partial AUC of
/// `scores` for `labels` (module docs). $O(N\,n \log n)$, the replicates spread over rayon's
/// threads.
///
/// Errors: as [`crate::metrics::auc`]; [`MetricError::Setting`] for fewer than 2 replicates or
/// a level outside $(0, 1)$; [`MetricError::MaxFpr`] for a `max_fpr` outside $(0, 1]$.
pub fn bootstrap(
    scores: &[f64],
    labels: &[Label],
    params: &BootstrapParams,
) -> Result<BootstrapCi, MetricError> {
    check_level(params.level)?;
    if params.replicates < 2 {
        return Err(MetricError::Setting {
            name: "replicates",
            value: params.replicates as f64,
            allowed: "at least 2 (a few thousand for a 95 % interval)",
        });
    }
    if let Some(b) = params.max_fpr {
        check_max_fpr(b)?;
    }
    check(scores, labels)?;
    let pos: Vec<f64> = (0..scores.len())
        .filter(|&i| labels[i].is_pos())
        .map(|i| scores[i])
        .collect();
    let neg: Vec<f64> = (0..scores.len())
        .filter(|&i| !labels[i].is_pos())
        .map(|i| scores[i])
        .collect();
    let y: Vec<Label> = std::iter::repeat_n(Label::Pos, pos.len())
        .chain(std::iter::repeat_n(Label::Neg, neg.len()))
        .collect();
    let replicate = |r: usize| -> Result<[f64; 3], MetricError> {
        let mut rng = StdRng::seed_from_u64(mix(params.seed, r as u64));
        let mut s: Vec<f64> = Vec::with_capacity(y.len());
        s.extend((0..pos.len()).map(|_| pos[rng.random_range(0..pos.len())]));
        s.extend((0..neg.len()).map(|_| neg[rng.random_range(0..neg.len())]));
        let p = match params.max_fpr {
            Some(b) => partial_auc(&s, &y, b)?.standardized,
            None => 0.0,
        };
        Ok([auc(&s, &y)?, average_precision(&s, &y)?, p])
    };
    let reps: Vec<[f64; 3]> = (0..params.replicates)
        .into_par_iter()
        .map(replicate)
        .collect::<Result<_, _>>()?;
    let column = |k: usize| reps.iter().map(|r| r[k]).collect::<Vec<f64>>();
    Ok(BootstrapCi {
        replicates: params.replicates,
        seed: params.seed,
        level: params.level,
        auc: interval(column(0), params.level),
        ap: interval(column(1), params.level),
        pauc: params.max_fpr.map(|_| interval(column(2), params.level)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_as_numpy() {
        // numpy.quantile([1, 2, 3, 4], [0.025, 0.5, 0.975]) = [1.075, 2.5, 3.925].
        let xs = [1.0, 2.0, 3.0, 4.0];
        for (q, want) in [
            (0.025, 1.075),
            (0.5, 2.5),
            (0.975, 3.925),
            (0.0, 1.0),
            (1.0, 4.0),
        ] {
            assert!((quantile_sorted(&xs, q) - want).abs() < 1e-12, "{q}");
        }
    }

    #[test]
    fn seeds_differ_per_replicate() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|r| mix(7, r)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(mix(7, 0), mix(8, 0));
    }
}
