//! The blend's weight chosen from the training rows (`weight_folds = k`, `docs/math/blend.md`
//! section 3): the members are fitted again on `k - 1` folds of a seeded sample of at most
//! [`WEIGHT_ROWS`] training rows and score the held-out fold; each weight of [`WEIGHTS`] gets the
//! mean over the folds of its blend's held-out AUC; the weight kept is the one nearest the prior
//! `weight` among those within one standard error of the best.
//!
//! The standard error is Hanley and McNeil's for an AUC from independent classes of the
//! sample's sizes [HanleyMcNeil82]. The weights' AUCs come from the same rows and are
//! strongly correlated, so it overstates the error of their differences: on small samples and
//! few positives the prior stands unless the evidence is large, on large ones the best weight
//! wins. The sample's map is the blend's own (fitted without labels on the training rows), so
//! no fold refits it.

use auc_core::{Dataset, FitError, Label, Scorer};
use auc_eval::folds::{derive_seed, stratified_kfold};
use auc_eval::metrics::auc;
use auc_prep::FeatureMap;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::model::BlendModel;
use crate::params::{BlendParams, linear_spread, spread};

/// The weights compared, the kernel member's share.
pub const WEIGHTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Training rows the weight is chosen on, at most: half of them of each class where the classes
/// allow (module docs). The folds' fits then cost a bounded time whatever the training size.
pub const WEIGHT_ROWS: usize = 20_000;

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

/// The weight for the blend of `params` on `train` with the blend's `map`, or `None` (with the
/// reason) when the sample has fewer than `folds` rows of a class.
pub(crate) fn choose(
    params: &BlendParams,
    map: &FeatureMap,
    train: &Dataset,
    folds: usize,
    seed: u64,
) -> Result<Result<WeightChoice, String>, FitError> {
    let rows = sample(train.labels(), WEIGHT_ROWS, derive_seed(seed, &[7, 1]));
    let sample = train.select(&rows);
    let parts = match stratified_kfold(sample.labels(), folds, derive_seed(seed, &[7, 2])) {
        Ok(p) => p,
        Err(e) => return Ok(Err(format!("weight {} kept: {e}", params.weight))),
    };
    let mut sums = [0.0; 5];
    for test in &parts {
        let held: Vec<bool> = {
            let mut h = vec![false; sample.n()];
            test.iter().for_each(|&i| h[i] = true);
            h
        };
        let fit_rows: Vec<usize> = (0..sample.n()).filter(|&i| !held[i]).collect();
        let (k, t) = held_out_scores(params, map, &sample.select(&fit_rows), &sample.select(test))?;
        let labels: Vec<Label> = test.iter().map(|&i| sample.labels()[i]).collect();
        for (s, &w) in sums.iter_mut().zip(&WEIGHTS) {
            let blend: Vec<f64> = k
                .iter()
                .zip(&t)
                .map(|(a, b)| w * a + (1.0 - w) * b)
                .collect();
            *s += auc(&blend, &labels).map_err(|_| FitError::NotFinite {
                what: "the blend's held-out scores",
            })?;
        }
    }
    let aucs = sums.map(|s| s / parts.len() as f64);
    let (np, nn) = sample.class_counts();
    let best = aucs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let margin = hanley_mcneil_se(best, np, nn);
    Ok(Ok(WeightChoice {
        weight: nearest_within(&aucs, best - margin, params.weight),
        aucs,
        margin,
        rows: sample.n(),
        positives: np,
        folds,
    }))
}

/// Among the weights whose AUC is at least `floor`, the one nearest `prior` (of two as near,
/// the one with the higher AUC, then the smaller weight).
fn nearest_within(aucs: &[f64; 5], floor: f64, prior: f64) -> f64 {
    let mut kept: Option<(f64, f64)> = None;
    for (&w, &a) in WEIGHTS.iter().zip(aucs) {
        if a < floor {
            continue;
        }
        let better = match kept {
            None => true,
            Some((kw, ka)) => {
                let (d, kd) = ((w - prior).abs(), (kw - prior).abs());
                d < kd || (d == kd && a > ka)
            }
        };
        if better {
            kept = Some((w, a));
        }
    }
    kept.map_or(prior, |(w, _)| w)
}

/// Each member fitted on `fit` (the kernel member on the blend's `map`) scoring `test`, each
/// divided by its spread on `fit`'s rows as the blend divides it.
fn held_out_scores(
    params: &BlendParams,
    map: &FeatureMap,
    fit: &Dataset,
    test: &Dataset,
) -> Result<(Vec<f64>, Vec<f64>), FitError> {
    let (kernel, trees) = rayon::join(
        || params.kernel_on_map(map, fit),
        || params.tree_params().fit_with_scores(fit),
    );
    let ((kernel, kernel_moments), (trees, t)) = (kernel?, trees?);
    let model = BlendModel {
        dim: fit.dim(),
        map: map.clone(),
        kernel,
        trees,
        kernel_weight: 1.0,
        tree_weight: 1.0,
        collapsed: Vec::new(),
    }
    .with_collapsed();
    let (sk, st) = (linear_spread(&model.collapsed, &kernel_moments), spread(&t));
    let k = model
        .kernel_scores(test)
        .into_iter()
        .map(|s| s / sk)
        .collect();
    let t = test
        .iter()
        .map(|(x, _)| model.trees.score(x) / st)
        .collect();
    Ok((k, t))
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
