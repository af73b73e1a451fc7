//! [`Transform`]: the fitted stages a row goes through before a learner sees it, in their fixed
//! order, and [`Stage`], the one list of stage kinds: scaling, one-hot indicators, the feature
//! map, unit norm.
//!
//! # Adding a stage
//! A new stage (the feature maps of the nonlinear issue, for one) is a type in its own file
//! under `stages/` that implements [`FittedStage`], one variant of [`Stage`] with its arm in
//! [`Stage::fitted`] and its place in [`Stage::rank`], and, when users ask for it, a field of
//! [`crate::TransformSpec`] that fits it. Variants are only ever appended, so model files that
//! hold the older variants keep decoding (postcard tags a variant by its position).

use auc_core::{Dataset, DatasetError, Row, RowBuf};
use auc_data::Scaler;
use serde::{Deserialize, Serialize};

use crate::fitted::FittedStage;
use crate::stages::{FeatureMap, OneHot, UnitNorm};

/// One fitted stage. The variants are the list of stage kinds; their order in a [`Transform`] is
/// fixed by [`Stage::rank`] (scaling first, unit norm last). A new kind is appended: model files
/// tag a variant by its position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Stage {
    /// Per-feature scaling fitted on training data (`--scale`).
    Scale(Scaler),
    /// Division of every row by its Euclidean norm (`--unit-norm`).
    UnitNorm(UnitNorm),
    /// A feature map fitted on training rows (`--features`), between scaling and unit norm.
    FeatureMap(FeatureMap),
    /// Indicators of the levels of categorical features (`--one-hot`), after scaling and
    /// before the feature map.
    OneHot(OneHot),
}

impl Stage {
    /// The stage as its trait object: the one place that lists how each kind is applied.
    pub fn fitted(&self) -> &dyn FittedStage {
        match self {
            Stage::Scale(s) => s,
            Stage::UnitNorm(u) => u,
            Stage::FeatureMap(m) => m,
            Stage::OneHot(o) => o,
        }
    }

    /// Where the stage stands in a transform: stages apply in increasing rank, at most one of
    /// each rank.
    pub fn rank(&self) -> u8 {
        match self {
            Stage::Scale(_) => 0,
            Stage::OneHot(_) => 1,
            Stage::FeatureMap(_) => 2,
            Stage::UnitNorm(_) => 3,
        }
    }
}

/// The fitted stages, in order: what training applied to its rows and what every later reader
/// (predict, stream, cv's test part, Python) applies to theirs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    stages: Vec<Stage>,
}

/// The two row buffers [`Transform::apply_row`] alternates between; keep one per scoring loop so
/// that preparing a row allocates nothing once the buffers have grown.
#[derive(Clone, Debug, Default)]
pub struct RowBuffers {
    out: RowBuf,
    spare: RowBuf,
}

impl RowBuffers {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }
}

/// [`Scaler::None`], what [`Transform::scaler`] returns for a transform without scaling.
static NO_SCALER: Scaler = Scaler::None;

impl Transform {
    /// The transform of `stages`, in the given order; an error when two stages share a rank or
    /// the order is not the fixed one.
    pub fn from_stages(stages: Vec<Stage>) -> Result<Transform, String> {
        let t = Transform { stages };
        t.check_order()?;
        Ok(t)
    }

    /// Scaling by `scaler` (left out when it is [`Scaler::None`]), then unit norm if asked: the
    /// stages of every model written before feature maps existed.
    pub fn scale_then_norm(scaler: Scaler, unit_norm: bool) -> Transform {
        let mut stages = Vec::with_capacity(2);
        if !matches!(scaler, Scaler::None) {
            stages.push(Stage::Scale(scaler));
        }
        if unit_norm {
            stages.push(Stage::UnitNorm(UnitNorm));
        }
        Transform { stages }
    }

    /// The stages, in order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The fitted scaling ([`Scaler::None`] when the transform has no scaling stage).
    pub fn scaler(&self) -> &Scaler {
        self.stages
            .iter()
            .find_map(|s| match s {
                Stage::Scale(s) => Some(s),
                _ => None,
            })
            .unwrap_or(&NO_SCALER)
    }

    /// Whether the first stage sees the values as read (no scaling stage): data learned from
    /// through this transform is then read with [`auc_data::ReadOptions::bounded_values`].
    pub fn reads_raw_values(&self) -> bool {
        matches!(self.scaler(), Scaler::None)
    }

    /// The fitted feature map, when there is one.
    pub fn feature_map(&self) -> Option<&FeatureMap> {
        self.stages.iter().find_map(|s| match s {
            Stage::FeatureMap(m) => Some(m),
            _ => None,
        })
    }

    /// The fitted one-hot stage, when there is one.
    pub fn one_hot(&self) -> Option<&OneHot> {
        self.stages.iter().find_map(|s| match s {
            Stage::OneHot(o) => Some(o),
            _ => None,
        })
    }

    /// Whether a stage changes the rows' dimension (one-hot indicators or a feature map): such
    /// a stage is fitted on a sample of rows, fixes the input's dimension, and does not commute
    /// with class moments of the input.
    pub fn reshapes(&self) -> bool {
        self.input_dim().is_some()
    }

    /// The input dimension a reshaping stage fixes (the first one's: one-hot's, else the
    /// map's); rows are cut to it before the stages. `None` without such a stage.
    pub fn input_dim(&self) -> Option<usize> {
        self.one_hot()
            .map(OneHot::input_dim)
            .or_else(|| self.feature_map().map(FeatureMap::input_dim))
    }

    /// The dimension of the rows a learner sees when the input has `input_dim` features: the
    /// map's output dimension, else the one-hot stage's, or the input's when neither is there.
    pub fn output_dim(&self, input_dim: usize) -> usize {
        match (self.feature_map(), self.one_hot()) {
            (Some(m), _) => m.output_dim(),
            (None, Some(o)) => o.output_dim(),
            (None, None) => input_dim,
        }
    }

    /// Whether rows are divided by their norm.
    pub fn unit_norm(&self) -> bool {
        self.stages.iter().any(|s| matches!(s, Stage::UnitNorm(_)))
    }

    /// Whether every row passes unchanged.
    pub fn is_identity(&self) -> bool {
        self.stages.iter().all(|s| s.fitted().is_identity())
    }

    /// The stage names in order, `scale(minmax) -> unit-norm`, or `none`.
    pub fn describe(&self) -> String {
        if self.stages.is_empty() {
            return "none".to_owned();
        }
        self.stages
            .iter()
            .map(|s| match s {
                Stage::Scale(sc) => format!("scale({})", sc.kind()),
                Stage::FeatureMap(m) => format!("map({})", m.describe()),
                Stage::OneHot(o) => o.describe(),
                other => other.fitted().name().to_owned(),
            })
            .collect::<Vec<_>>()
            .join(" -> ")
    }

    /// Checks a decoded transform for input of `dim` features: the order and every stage, each
    /// for the dimension the stages before it give (a map after one-hot indicators reads them
    /// all).
    pub fn validate(&self, dim: usize) -> Result<(), String> {
        self.check_order()?;
        let mut dim = dim;
        for s in &self.stages {
            s.fitted()
                .validate(dim)
                .map_err(|e| format!("the {} stage: {e}", s.fitted().name()))?;
            if let Stage::OneHot(o) = s {
                dim = o.output_dim();
            }
        }
        if let (Some(o), Some(m)) = (self.one_hot(), self.feature_map())
            && m.input_dim() != o.output_dim()
        {
            return Err(format!(
                "the feature map reads {} features, the one-hot stage gives {}",
                m.input_dim(),
                o.output_dim()
            ));
        }
        Ok(())
    }

    fn check_order(&self) -> Result<(), String> {
        for pair in self.stages.windows(2) {
            if pair[0].rank() >= pair[1].rank() {
                return Err(format!(
                    "the stage {} cannot follow {}",
                    pair[1].fitted().name(),
                    pair[0].fitted().name()
                ));
            }
        }
        Ok(())
    }

    /// `data` through every stage in order (a copy when there is none).
    pub fn apply_dataset(&self, data: &Dataset) -> Dataset {
        let mut stages = self.stages.iter();
        let Some(first) = stages.next() else {
            return data.clone();
        };
        let mut out = first.fitted().apply_dataset(data);
        for s in stages {
            out = s.fitted().apply_dataset(&out);
        }
        out
    }

    /// [`Transform::apply_dataset`] of a dataset taken by value: each stage writes in place where
    /// it can, and no stage leaves the dataset as it is (no copy of the rows when there is no
    /// stage). A non-finite result is refused with its place.
    pub fn apply_owned(&self, data: Dataset) -> Result<Dataset, DatasetError> {
        self.stages
            .iter()
            .try_fold(data, |d, s| s.fitted().apply_owned(d))
    }

    /// One row through every stage in order; the result lives in `bufs`.
    pub fn apply_row<'b>(&self, x: Row<'_>, bufs: &'b mut RowBuffers) -> Row<'b> {
        let mut stages = self.stages.iter();
        match stages.next() {
            None => bufs.out.assign(x),
            Some(first) => {
                first.fitted().apply_row(x, &mut bufs.out);
                for s in stages {
                    std::mem::swap(&mut bufs.out, &mut bufs.spare);
                    s.fitted().apply_row(bufs.spare.as_row(), &mut bufs.out);
                }
            }
        }
        bufs.out.as_row()
    }
}
