//! The blend's parameters and its fit: [`BlendParams`], registered as `blend`.
//!
//! # Defaults
//!
//! The kernel member is the previous default learner, OPAUC-batch on `nystroem:1000` with
//! $\lambda = 2^{-10}$ (`docs/results/default-map.md`); the tree member is `gbt-auc` at its
//! defaults (`docs/results/boosted-trees.md`); the weight $w = 1/2$ gives both members' scaled
//! scores the same say. The measurement that made the blend the default learner, with the rule
//! fixed before it, is `docs/results/default-learner.md`.

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use auc_online::{MomentModel, solve_square};
use auc_prep::features::{MAP_SAMPLE_ROWS, MAX_MAP_SIZE};
use auc_prep::{FeatureMap, FeatureMapSpec, MapKind, MapShape, RowSample, SigmaRule};
use auc_stats::Moments;
use auc_trees::BoostedTreesParams;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::kernel_moments::{self, KernelSums};
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
    /// choice existed reads as 0, the fit it was.
    #[serde(default = "fixed_weight")]
    pub weight_folds: usize,
}

/// `weight_folds` of a model file that has none: the fixed weight every blend had then.
fn fixed_weight() -> usize {
    0
}

impl Default for BlendParams {
    /// The members' own defaults and an even blend (module docs).
    fn default() -> Self {
        let t = BoostedTreesParams::default();
        Self {
            landmarks: 1000,
            lambda: 2f64.powi(-10),
            trees: t.trees,
            leaves: t.leaves,
            eta: t.eta,
            weight: 0.5,
            weight_folds: 0,
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
    /// prior `weight` was kept: a class with fewer rows than folds).
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
        // The two members are fitted at the same time: the trees' serial steps (partitions,
        // gradients) then overlap the kernel member's map and products. Each is the same
        // whatever the threads do, so the blend is too.
        let (kernel, trees) = rayon::join(
            || {
                let map = self.fit_map(train, seed)?;
                let (kernel, moments) = self.kernel_on_map(&map, train)?;
                Ok::<_, FitError>((map, kernel, moments))
            },
            || self.tree_params().fit_with_scores(train),
        );
        let ((map, kernel, kernel_moments), (trees, t)) = (kernel?, trees?);
        let told = match self.weight_folds {
            0 => None,
            k => Some(crate::weight::choose(self, &map, train, k, seed)?),
        };
        let weight = match &told {
            Some(Ok(c)) => c.weight,
            _ => self.weight,
        };
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

    /// The kernel member on `map`: OPAUC-batch on the mapped rows of `train` from the projected
    /// moments of their kernel values (also returned).
    pub(crate) fn kernel_on_map(
        &self,
        map: &FeatureMap,
        train: &Dataset,
    ) -> Result<(MomentModel, Moments), FitError> {
        // The mapped rows' moments from those of the kernel values (projected.rs), summed a
        // block at a time about a fixed shift into the sums of a few fixed parts of the rows
        // (kernel_moments.rs; parts in parallel, added in order, so memory is the parts' sums).
        let first =
            train.select(&(0..train.n().min(crate::blocks::BLOCK_ROWS)).collect::<Vec<_>>());
        let shift = kernel_moments::shift_of(map, &first);
        let kernel_moments = crate::blocks::parts(train.n())
            .into_par_iter()
            .map(|rows| KernelSums::of_rows(map, &shift, train, rows))
            .collect::<Vec<_>>()
            .into_iter()
            .fold(KernelSums::new(shift.clone()), KernelSums::add)
            .moments()
            .ok_or(FitError::NotFinite {
                what: "the kernel member's moments",
            })?;
        let moments = crate::projected::project(map, &kernel_moments)?;
        let (kernel, _) = MomentModel::fit(self.lambda, &moments, solve_square)?;
        Ok((kernel, kernel_moments))
    }

    /// Peak bytes of a fit on data of `shape`: the trees' fit (with their training scores), the
    /// map and its fit, a block of mapped rows and the moments of the map's features.
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
    }
}

/// The standard deviation over all rows of the score $c^\top k$ from the two classes' moments
/// of $k$: with class means $m_\pm = c^\top \bar k_\pm$ and variances $q_\pm = c^\top
/// \Sigma_\pm c$, the pooled variance is $\bigl(n_+ q_+ + n_- q_- + \frac{n_+ n_-}{n}(m_+ -
/// m_-)^2\bigr) / n$ (within the classes plus between them), exactly that of the scores up to
/// rounding; 1 when it is 0 or not finite, as [`spread`].
pub(crate) fn linear_spread(c: &[f64], k: &Moments) -> f64 {
    let (np, nn) = (k.pos.count() as f64, k.neg.count() as f64);
    let n = np + nn;
    if c.len() != k.pos.dim() || n == 0.0 {
        return 1.0;
    }
    let (qp, qn) = (k.pos.quad_form(c), k.neg.quad_form(c));
    let gap = k.pos.mean_dot(c) - k.neg.mean_dot(c);
    let var = (np * qp + nn * qn + np * nn / n * gap * gap) / n;
    let s = var.sqrt();
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}

/// The standard deviation of `v`, or 1 when it is 0 or not finite (a member that scores every
/// row alike adds a constant, which changes no ranking).
pub(crate) fn spread(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / n;
    let s = var.sqrt();
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
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
