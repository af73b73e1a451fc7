//! The blend's parameters and its fit: [`BlendParams`], registered as `blend`.
//!
//! # Defaults
//!
//! The kernel member is the previous default learner, OPAUC-batch on `nystroem:1000` with
//! $\lambda = 2^{-10}$ (`docs/results/default-map.md`); the tree member is `gbt-auc` at its
//! defaults (`docs/results/boosted-trees.md`); the weight is chosen from the training rows
//! (`weight_folds = 3`) about the prior $w = 1/2$, which gives both members' scaled scores the
//! same say. The measurement that made the blend the default learner, with the rule fixed before
//! it, is `docs/results/default-learner.md`; the one that made the weight chosen rather than
//! fixed at 1/2, `docs/results/blend-weight.md`.

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_prep::features::{MAP_SAMPLE_ROWS, MAX_MAP_SIZE};
use auc_prep::{FeatureMap, FeatureMapSpec, MapKind, MapShape, RowSample, SigmaRule};
use auc_trees::BoostedTreesParams;
use serde::{Deserialize, Serialize};

use crate::kernel_moments;
use crate::members::{self, linear_spread, spread};
use crate::model::BlendModel;
use crate::weight::WeightChoice;

/// Parameters of the blend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BlendParams {
    /// Landmarks of the kernel member's Nystroem map.
    pub landmarks: usize,
    /// $\lambda$ of the kernel member's square surrogate.
    pub lambda: f64,
    /// The tree member's boosting rounds.
    pub trees: usize,
    /// The tree member's leaves a tree.
    pub leaves: usize,
    /// The tree member's learning rate.
    pub eta: f64,
    /// $w \in [0, 1]$: the kernel member's share of the blend (the trees have $1 - w$); with
    /// `weight_folds` the prior of the choice.
    pub weight: f64,
    /// 0: the blend takes `weight`; $k \ge 2$: it chooses its weight by $k$-fold held-out AUC
    /// on a sample of the training rows (`crate::weight`). A model file written before the
    /// choice existed reads as 0, the fit it was (`VALUES_OF_OLDER_FILES`).
    pub weight_folds: usize,
}

impl Default for BlendParams {
    /// The members' own defaults and a weight chosen about an even blend (module docs).
    fn default() -> Self {
        let t = BoostedTreesParams::default();
        Self {
            landmarks: 1000,
            lambda: 2f64.powi(-10),
            trees: t.trees,
            leaves: t.leaves,
            eta: t.eta,
            weight: 0.5,
            weight_folds: 3,
        }
    }
}

impl Params for BlendParams {
    const NAME: &'static str = "blend";
    const TITLE: &'static str = "Blend";
    const ABOUT: &'static str = "The kernel member (the exact square surrogate over all pairs on a Nystroem map [OAUC eq. 13; Williams01]) and the tree member (boosted trees on the pairwise exponential loss [Friedman01; Freund03]) fitted on the same rows, their scores divided by their spread and averaged";
    const FAMILY: Family = Family::Batch;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::integer(
            "landmarks",
            1,
            "landmarks of the kernel member's Nystroem map (at most 16384); the default learner's 1000",
        ),
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "the kernel member's lambda of the square surrogate; the default learner's 2^-10",
        ),
        ParamSpec::integer(
            "trees",
            1,
            "the tree member's boosting rounds; gbt-auc's 100",
        ),
        ParamSpec::integer(
            "leaves",
            2,
            "the tree member's most leaves a tree; gbt-auc's 31",
        ),
        ParamSpec::real(
            "eta",
            Range::Positive,
            "the tree member's learning rate; gbt-auc's 0.1",
        ),
        ParamSpec::real(
            "weight",
            Range::UnitClosed,
            "the kernel member's share w of the blend, the trees' 1 - w, of scores each divided by its standard deviation on the training rows; with weight_folds, the prior of the choice",
        ),
        ParamSpec::integer(
            "weight_folds",
            0,
            "0: the blend takes weight as given; k >= 2: it chooses the weight among 0, 1/4, 1/2, 3/4, 1 by k-fold held-out AUC on at most 20000 training rows, the nearest to weight within one standard error of the best",
        ),
    ];
    const GRID: &'static [&'static str] = &["weight=0,0.25,0.5,0.75,1"];
    /// Blends saved before the weight could be chosen had the fixed `weight`.
    const VALUES_OF_OLDER_FILES: &'static [(&'static str, f64)] = &[("weight_folds", 0.0)];

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        if self.weight_folds == 1 {
            return Err(ParamError::OutOfRange {
                name: "weight_folds",
                value: 1.0,
                allowed: "0 (a fixed weight) or at least 2 folds",
            });
        }
        if self.landmarks > MAX_MAP_SIZE {
            return Err(ParamError::OutOfRange {
                name: "landmarks",
                value: self.landmarks as f64,
                allowed: "an integer in 1..=16384",
            });
        }
        Ok(())
    }
}

impl BlendParams {
    /// The tree member's parameters.
    pub(crate) fn tree_params(&self) -> BoostedTreesParams {
        BoostedTreesParams {
            trees: self.trees,
            leaves: self.leaves,
            eta: self.eta,
            ..BoostedTreesParams::default()
        }
    }

    /// The blend fitted on `train`; `seed` draws the map's sample and its landmarks (and, with
    /// `weight_folds`, the weight's sample and folds).
    pub fn fit(&self, train: &Dataset, seed: u64) -> Result<BlendModel, FitError> {
        self.fit_told(train, seed).map(|(m, _)| m)
    }

    /// [`BlendParams::fit`] and, with `weight_folds`, what the weight's choice saw (or why the
    /// prior `weight` was kept: a class with fewer than `MIN_FOLD_CLASS_ROWS` rows a fold).
    pub fn fit_told(
        &self,
        train: &Dataset,
        seed: u64,
    ) -> Result<(BlendModel, Option<Result<WeightChoice, String>>), FitError> {
        self.check()?;
        let (np, nn) = train.class_counts();
        if np + nn == 0 {
            return Err(FitError::Empty);
        }
        if np == 0 || nn == 0 {
            return Err(FitError::SingleClass);
        }
        // The trees are fitted on every row beside the kernel member's side (the map, the
        // weight's choice, the kernel member: `fit_kernel_side`); a kernel member of weight 0
        // is fitted on the weight's sample alone, which keeps the fit of a large set whose best
        // blend is the trees near the trees' own time. The trees' serial steps (partitions,
        // gradients) overlap the other side's products. Each side is the same whatever the
        // threads do, so the blend is too.
        let (kernel, trees) = rayon::join(
            || self.fit_kernel_side(train, seed),
            || self.tree_params().fit_with_scores(train),
        );
        let (
            KernelSide {
                map,
                told,
                kernel,
                kernel_moments,
            },
            (trees, t),
        ) = (kernel?, trees?);
        let weight = self.weight_kept(told.as_ref());
        let blend = BlendModel {
            dim: train.dim(),
            map,
            kernel,
            trees,
            kernel_weight: 0.0,
            tree_weight: 0.0,
            collapsed: Vec::new(),
        }
        .with_collapsed();
        // Each member's spread over the training rows: the kernel member's from the moments of
        // the kernel values (its score is linear in them), the trees' from the scores the
        // boosting kept; neither scores a row again.
        let (sk, st) = (linear_spread(&blend.collapsed, &kernel_moments), spread(&t));
        let blend = BlendModel {
            kernel_weight: weight / sk,
            tree_weight: (1.0 - weight) / st,
            ..blend
        };
        Ok((blend, told))
    }

    /// The kernel member's side of the fit: the map, with `weight_folds` the weight's choice,
    /// then the kernel member on every row, or from the weight's sample alone when its weight is
    /// 0.
    fn fit_kernel_side(&self, train: &Dataset, seed: u64) -> Result<KernelSide, FitError> {
        let map = self.fit_map(train, seed)?;
        let members = crate::weight::Members {
            lambda: self.lambda,
            trees: self.tree_params(),
            prior: self.weight,
        };
        let (told, sample) = match self.weight_folds {
            0 => (None, None),
            k => {
                let c = crate::weight::choose(&map, train, k, seed, &members)?;
                (Some(c.told), c.sample)
            }
        };
        let zero = self.weight_kept(told.as_ref()) == 0.0;
        let (kernel, kernel_moments) = match sample {
            // The choice's sums of its sample: alone for a member of weight 0 or a sample of
            // every row, otherwise with those of the rows outside it (sums merge).
            Some(s) => {
                let sums = if zero || s.rows.len() == train.n() {
                    s.sums
                } else {
                    let rest = kernel_moments::sums_except(&map, s.sums.shift(), train, &s.rows);
                    s.sums.add(&rest)
                };
                members::kernel_of_sums(&map, &sums, self.lambda)?
            }
            None if zero => {
                members::kernel_on_map(&map, &crate::weight::sample_of(train, seed), self.lambda)?
            }
            None => members::kernel_on_map(&map, train, self.lambda)?,
        };
        Ok(KernelSide {
            map,
            told,
            kernel,
            kernel_moments,
        })
    }

    /// The kernel member's share: the weight chosen, or `weight` when none was (no choice, or
    /// the prior kept).
    fn weight_kept(&self, told: Option<&Result<WeightChoice, String>>) -> f64 {
        match told {
            Some(Ok(c)) => c.weight,
            _ => self.weight,
        }
    }

    /// The kernel member's Nystroem map fitted on a seeded sample of `train`.
    fn fit_map(&self, train: &Dataset, seed: u64) -> Result<FeatureMap, FitError> {
        let dim = train.dim();
        let spec = FeatureMapSpec {
            shape: MapShape {
                kind: MapKind::Nystroem,
                size: self.landmarks,
            },
            sigma: SigmaRule::Scale,
            seed,
        };
        let sample = RowSample::of_dataset(train, MAP_SAMPLE_ROWS, seed).into_dataset();
        spec.fit(&sample.with_dim(dim), dim)
            .map_err(|_| FitError::NotFinite {
                what: "the kernel member's Nystroem map",
            })
    }

    /// Peak bytes of a fit on data of `shape`: the trees' fit (with their training scores), the
    /// map and its fit, a block of mapped rows, the moments of the map's features and the
    /// weight's choice.
    pub fn bytes(&self, shape: &DataShape) -> u64 {
        let d = self.landmarks as u64;
        let spec = FeatureMapSpec::new(MapShape {
            kind: MapKind::Nystroem,
            size: self.landmarks,
        });
        let map = spec.fit_bytes(shape.dim);
        // The parts' sums and a block of kernel values each, alive at once.
        let block = (crate::blocks::BLOCK_ROWS as u64)
            .saturating_mul(d.saturating_add(shape.dim as u64))
            .saturating_mul(8)
            .saturating_add(auc_online::moment_fit_bytes(self.landmarks))
            .saturating_mul(crate::blocks::PARTS as u64);
        let moments = auc_online::moment_fit_bytes(self.landmarks);
        self.tree_params()
            .bytes(shape)
            .saturating_add(map)
            .saturating_add(block)
            .saturating_add(moments)
            .saturating_add(self.choice_bytes(shape))
    }

    /// Peak bytes of the weight's choice (0 without `weight_folds`): each fold's sums of kernel
    /// values, and the folds' fits side by side, each with the sums of the other folds, its
    /// kernel member's solve, its trees and its copies of the sample's rows.
    fn choice_bytes(&self, shape: &DataShape) -> u64 {
        let folds = self.weight_folds as u64;
        if folds == 0 {
            return 0;
        }
        // The map has at most as many landmarks as distinct training rows.
        let d = self.landmarks.min(shape.n) as u64;
        let rows = shape.n.min(crate::weight::WEIGHT_ROWS);
        let sample = DataShape {
            n: rows,
            positives: shape.positives.min(rows),
            negatives: shape.negatives.min(rows),
            ..*shape
        };
        // Two classes' M x M cross products.
        let sums = d.saturating_mul(d).saturating_mul(16);
        let rows_copy = (rows as u64)
            .saturating_mul(shape.dim as u64)
            .saturating_mul(16);
        let fold = sums
            .saturating_add(auc_online::moment_fit_bytes(d as usize))
            .saturating_add(self.tree_params().bytes(&sample))
            .saturating_add(rows_copy);
        folds.saturating_mul(sums.saturating_add(fold))
    }
}

/// What the kernel member's side of a fit gives: the map, the weight's choice (with
/// `weight_folds`; [`BlendParams::weight_kept`] reads the weight from it), the kernel member
/// and the moments of its kernel values.
struct KernelSide {
    map: FeatureMap,
    told: Option<Result<WeightChoice, String>>,
    kernel: auc_online::MomentModel,
    kernel_moments: auc_stats::Moments,
}

/// The evaluation protocol's fit.
#[derive(Clone, Debug)]
struct BlendFit(BlendParams);

impl DynFit for BlendFit {
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<auc_core::BoxedModel, FitError> {
        Ok(Box::new(self.0.fit(train, seed)?))
    }

    /// None: the blend is fitted on all its rows at once.
    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn auc_core::OnlineLearner + Send>, ParamError>> {
        None
    }
}

impl BatchParams for BlendParams {
    type Model = BlendModel;

    fn fit_model(&self, train: &Dataset, seed: u64) -> Result<(BlendModel, String), FitError> {
        let (m, told) = self.fit_told(train, seed)?;
        let summary = match told {
            Some(Ok(c)) => format!("{}; {}", m.summary(), c.describe()),
            Some(Err(why)) => format!("{}; {why}", m.summary()),
            None => m.summary(),
        };
        Ok((m, summary))
    }

    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
        self.check()?;
        Ok(Box::new(BlendFit(self.clone())))
    }

    fn fit_bytes(&self, shape: &DataShape) -> u64 {
        self.bytes(shape)
    }
}
