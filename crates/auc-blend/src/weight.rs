//! The blend's weight chosen from the training rows (`weight_folds = k`, `docs/math/blend.md`
//! section 2a): the members are fitted again on `k - 1` folds of a seeded sample of at most
//! [`WEIGHT_ROWS`] training rows and score the held-out fold; each weight of [`WEIGHTS`] gets the
//! mean over the folds of its blend's held-out AUC; the weight kept is the one nearest the prior
//! `weight` among those within one standard error of the best.
//!
//! The standard error is Hanley and McNeil's for an AUC from independent classes of the
//! sample's sizes [HanleyMcNeil82]. The weights' AUCs come from the same rows and are
//! strongly correlated, so it overstates the error of their differences: on small samples and
//! few positives the prior stands unless the evidence is large, on large ones the best weight
//! wins. The sample's map is the blend's own (fitted without labels on the training rows), so
//! no fold refits it. The folds' fits run side by side (each alone leaves a thread idle much of
//! the time); their AUCs are added in fold order, so the choice does not depend on the threads.

use std::borrow::Cow;

use auc_core::{Dataset, FitError, Label, Scorer};
use auc_metrics::folds::{derive_seed, splits_of_folds, stratified_kfold};
use auc_metrics::metrics::auc;
use auc_online::{Linear, MomentModel};
use auc_prep::FeatureMap;
use auc_stats::Moments;
use auc_trees::BoostedTreesParams;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use crate::kernel_moments::{self, KernelSums};
use crate::members::{self, linear_spread, spread};
use crate::model::collapsed_scores;

/// The weights compared, the kernel member's share.
pub const WEIGHTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Training rows the weight is chosen on, at most: half of them of each class where the classes
/// allow (module docs). The folds' fits then cost a bounded time whatever the training size.
pub const WEIGHT_ROWS: usize = 20_000;

/// Rows of each class every fold of the weight's sample must hold for the choice to be made:
/// with fewer, a fold's held-out AUC rests on a handful of pairs (one positive and one negative
/// give an AUC of 0 or 1), so the prior is kept and the fit says why. No training part of the
/// 24 shared binary sets at 4 x 5 folds has fewer than 23 rows of a class, 7 a fold: the guard
/// acts on tiny data only.
pub const MIN_FOLD_CLASS_ROWS: usize = 5;

/// What the choice saw and kept.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightChoice {
    /// The weight kept.
    pub weight: f64,
    /// The mean held-out AUC of each weight of [`WEIGHTS`].
    pub aucs: [f64; 5],
    /// The standard error the choice allowed.
    pub margin: f64,
    /// Rows of the sample and their positives.
    pub rows: usize,
    /// Positive rows of the sample.
    pub positives: usize,
    /// Folds.
    pub folds: usize,
}

impl WeightChoice {
    /// One line about the choice.
    pub fn describe(&self) -> String {
        let aucs: Vec<String> = WEIGHTS
            .iter()
            .zip(&self.aucs)
            .map(|(w, a)| format!("{w}: {a:.4}"))
            .collect();
        format!(
            "weight {} chosen by {}-fold held-out AUC on {} rows ({} positive; {}; one standard error {:.4})",
            self.weight,
            self.folds,
            self.rows,
            self.positives,
            aucs.join(", "),
            self.margin
        )
    }
}

/// What the choice fits on each fold: the kernel member's `lambda`, the trees' parameters,
/// and the prior weight.
pub(crate) struct Members {
    pub(crate) lambda: f64,
    pub(crate) trees: BoostedTreesParams,
    pub(crate) prior: f64,
}

/// What [`choose`] gives the fit: the choice (or why the prior was kept) and, when the folds
/// were fitted, the sums of the whole sample's kernel values, from which the kernel member is
/// fitted without another pass over the sample's rows.
pub(crate) struct Choice {
    pub(crate) told: Result<WeightChoice, String>,
    pub(crate) sample: Option<SampleSums>,
}

/// The sums of the kernel values of the weight's sample and which training rows it holds.
pub(crate) struct SampleSums {
    pub(crate) sums: KernelSums,
    /// The sample's rows of the training data, increasing (every row when there are at most
    /// [`WEIGHT_ROWS`]).
    pub(crate) rows: Vec<usize>,
}

/// The weight for the blend of `params` on `train` with the blend's `map`, or the reason the
/// prior was kept (the sample has fewer than [`MIN_FOLD_CLASS_ROWS`] rows of a class a fold).
///
/// Each fold's kernel values are summed once; a fold's fit takes the sums of the others (sums
/// merge exactly), and all of them are the sample's.
pub(crate) fn choose(
    map: &FeatureMap,
    train: &Dataset,
    folds: usize,
    seed: u64,
    members: &Members,
) -> Result<Choice, FitError> {
    let rows = sample_rows(train, seed);
    let sample = train.select(&rows);
    let kept = |why: String| {
        Ok(Choice {
            told: Err(format!("weight {} kept: {why}", members.prior)),
            sample: None,
        })
    };
    let (np, nn) = sample.class_counts();
    // Saturating: `weight_folds` may be any integer.
    let fewest = MIN_FOLD_CLASS_ROWS.saturating_mul(folds);
    if np.min(nn) < fewest {
        let (class, rows) = if np <= nn {
            ("positive", np)
        } else {
            ("negative", nn)
        };
        return kept(format!(
            "a {folds}-fold choice needs at least {fewest} rows of each class ({MIN_FOLD_CLASS_ROWS} a fold), and the {class} class has {rows}"
        ));
    }
    let parts = match stratified_kfold(sample.labels(), folds, derive_seed(seed, &[7, 2])) {
        Ok(p) => p,
        Err(e) => return kept(e.to_string()),
    };
    let shift = kernel_moments::first_block_shift(map, &sample);
    let fold_sums: Vec<KernelSums> = parts
        .par_iter()
        .map(|test| kernel_moments::sums_of(map, &shift, &sample.select(test)))
        .collect();
    let others = |f: usize| {
        let rest = fold_sums
            .iter()
            .enumerate()
            .filter(|&(g, _)| g != f)
            .map(|(_, s)| Cow::Borrowed(s));
        kernel_moments::total(&shift, rest)
    };
    // The folds side by side (each fit's own steps are serial enough to leave a thread idle);
    // their AUCs are added in fold order, as one after the other would.
    let fold_aucs: Vec<[f64; 5]> = splits_of_folds(0, parts, sample.n())
        .into_par_iter()
        .map(|split| {
            let kernel = members::kernel_of_sums(map, &others(split.fold), members.lambda)?;
            let test = sample.select(&split.test);
            let (k, t) = held_out_scores(
                &members.trees,
                map,
                kernel,
                &sample.select(&split.train),
                &test,
            )?;
            let labels = test.labels();
            let mut aucs = [0.0; 5];
            for (a, &w) in aucs.iter_mut().zip(&WEIGHTS) {
                let blend: Vec<f64> = k
                    .iter()
                    .zip(&t)
                    .map(|(a, b)| w * a + (1.0 - w) * b)
                    .collect();
                *a = auc(&blend, labels).map_err(|_| FitError::NotFinite {
                    what: "the blend's held-out scores",
                })?;
            }
            Ok(aucs)
        })
        .collect::<Result<_, FitError>>()?;
    let mut sums = [0.0; 5];
    for aucs in &fold_aucs {
        for (s, a) in sums.iter_mut().zip(aucs) {
            *s += a;
        }
    }
    let aucs = sums.map(|s| s / folds as f64);
    let best = aucs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let margin = hanley_mcneil_se(best, np, nn);
    let whole = kernel_moments::total(&shift, fold_sums.into_iter().map(Cow::Owned));
    Ok(Choice {
        told: Ok(WeightChoice {
            weight: nearest_within(&aucs, best - margin, members.prior),
            aucs,
            margin,
            rows: sample.n(),
            positives: np,
            folds,
        }),
        sample: Some(SampleSums { sums: whole, rows }),
    })
}

/// The rows the weight is chosen on (a seeded sample of at most [`WEIGHT_ROWS`] of `train`, the
/// same for the same seed); a kernel member whose weight is 0 is fitted on them alone.
pub(crate) fn sample_of(train: &Dataset, seed: u64) -> Dataset {
    train.select(&sample_rows(train, seed))
}

/// The indices in `train` of [`sample_of`]'s rows, increasing.
fn sample_rows(train: &Dataset, seed: u64) -> Vec<usize> {
    sample(train.labels(), WEIGHT_ROWS, derive_seed(seed, &[7, 1]))
}

/// Among the weights whose AUC is at least `floor`, the one nearest `prior` (of two as near,
/// the one with the higher AUC, then the smaller weight).
fn nearest_within(aucs: &[f64; 5], floor: f64, prior: f64) -> f64 {
    WEIGHTS
        .iter()
        .zip(aucs)
        .filter(|&(_, &a)| a >= floor)
        .min_by(|&(&w, &a), &(&v, &b)| {
            (w - prior)
                .abs()
                .total_cmp(&(v - prior).abs())
                .then(b.total_cmp(&a))
        })
        .map_or(prior, |(&w, _)| w)
}

/// The trees fitted on `fit` and the kernel member fitted on its rows (on the blend's `map`,
/// with the moments of their kernel values) scoring `test`, each divided by its spread on
/// `fit`'s rows as the blend divides it.
fn held_out_scores(
    trees: &BoostedTreesParams,
    map: &FeatureMap,
    (kernel, kernel_moments): (MomentModel, Moments),
    fit: &Dataset,
    test: &Dataset,
) -> Result<(Vec<f64>, Vec<f64>), FitError> {
    let (trees, t) = trees.fit_with_scores(fit)?;
    let collapsed = map.collapse(Linear::weights(&kernel)).unwrap_or_default();
    let (sk, st) = (linear_spread(&collapsed, &kernel_moments), spread(&t));
    let k = collapsed_scores(map, &collapsed, test);
    let t = trees.score_all(test);
    Ok((
        k.into_iter().map(|s| s / sk).collect(),
        t.into_iter().map(|s| s / st).collect(),
    ))
}

/// A seeded sample of at most `cap` row indices, in increasing order: every row when there are
/// no more, otherwise up to half of `cap` of each class, the rest from the other class when one
/// has fewer.
fn sample(labels: &[Label], cap: usize, seed: u64) -> Vec<usize> {
    if labels.len() <= cap {
        return (0..labels.len()).collect();
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos: Vec<usize> = (0..labels.len()).filter(|&i| labels[i].is_pos()).collect();
    let mut neg: Vec<usize> = (0..labels.len()).filter(|&i| !labels[i].is_pos()).collect();
    let half = cap / 2;
    let kp = pos.len().min(cap - neg.len().min(half));
    let kn = neg.len().min(cap - kp);
    pos.shuffle(&mut rng);
    neg.shuffle(&mut rng);
    pos.truncate(kp);
    neg.truncate(kn);
    pos.extend(neg);
    pos.sort_unstable();
    pos
}

/// Hanley and McNeil's standard error of an AUC `a` from `np` positive and `nn` negative
/// independent rows [HanleyMcNeil82]: with $Q_1 = a / (2 - a)$ and $Q_2 = 2a^2 / (1 + a)$,
/// $$ \mathrm{SE}^2 = \frac{a(1 - a) + (n_+ - 1)(Q_1 - a^2) + (n_- - 1)(Q_2 - a^2)}{n_+ n_-}. $$
fn hanley_mcneil_se(a: f64, np: usize, nn: usize) -> f64 {
    let (p, n) = (np as f64, nn as f64);
    let q1 = a / (2.0 - a);
    let q2 = 2.0 * a * a / (1.0 + a);
    let var = (a * (1.0 - a) + (p - 1.0) * (q1 - a * a) + (n - 1.0) * (q2 - a * a)) / (p * n);
    var.max(0.0).sqrt()
}

#[cfg(test)]
#[allow(clippy::float_cmp, reason = "the weights are exact grid values")]
mod tests {
    use super::*;

    #[test]
    fn hanley_mcneil_matches_a_hand_computation() {
        // a = 0.8, 10 positives, 20 negatives: Q1 = 2/3, Q2 = 1.28 / 1.8; the variance is
        // (0.16 + 9 (2/3 - 0.64) + 19 (1.28/1.8 - 0.64)) / 200.
        let want: f64 = (0.16 + 9.0 * (2.0 / 3.0 - 0.64) + 19.0 * (1.28 / 1.8 - 0.64)) / 200.0;
        let want = want.sqrt();
        assert!((hanley_mcneil_se(0.8, 10, 20) - want).abs() < 1e-15);
        assert!((want - 0.09357).abs() < 1e-4);
        // More rows, less error; a perfect AUC has none.
        assert!(hanley_mcneil_se(0.8, 1000, 2000) < hanley_mcneil_se(0.8, 10, 20) / 9.0);
        assert_eq!(hanley_mcneil_se(1.0, 10, 20), 0.0);
    }

    #[test]
    fn the_nearest_weight_to_the_prior_within_the_margin_is_kept() {
        let aucs = [0.90, 0.91, 0.92, 0.93, 0.94];
        // The best alone within the margin.
        assert_eq!(nearest_within(&aucs, 0.935, 0.5), 1.0);
        // Two within: the nearer to the prior.
        assert_eq!(nearest_within(&aucs, 0.925, 0.5), 0.75);
        // Every one within: the prior itself.
        assert_eq!(nearest_within(&aucs, 0.0, 0.5), 0.5);
        // As near on both sides: the higher AUC.
        assert_eq!(
            nearest_within(&[0.9, 0.95, 0.8, 0.94, 0.9], 0.93, 0.5),
            0.25
        );
        assert_eq!(
            nearest_within(&[0.9, 0.94, 0.8, 0.95, 0.9], 0.93, 0.5),
            0.75
        );
    }

    #[test]
    fn the_sample_keeps_every_row_of_small_data_and_balances_large() {
        let labels: Vec<Label> = (0..100)
            .map(|i| if i % 10 == 0 { Label::Pos } else { Label::Neg })
            .collect();
        assert_eq!(sample(&labels, 100, 1), (0..100).collect::<Vec<_>>());
        // 10 positives, 90 negatives, cap 40: every positive and 30 negatives.
        let s = sample(&labels, 40, 1);
        assert_eq!(s.len(), 40);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(s.iter().filter(|&&i| labels[i].is_pos()).count(), 10);
        // Cap 10: five of each.
        let s = sample(&labels, 10, 2);
        assert_eq!(s.iter().filter(|&&i| labels[i].is_pos()).count(), 5);
        assert_eq!(s.len(), 10);
        // Seeded: the same seed, the same rows.
        assert_eq!(sample(&labels, 10, 2), s);
    }
}
