//! What the user asked for: [`PrepSpec`] (reading, positive-class rule, dimension, hashing, the
//! stages, `--scale-from`) and its stage part [`TransformSpec`], each built once from the CLI's
//! flags or Python's keyword arguments and checked there; fitting them on evidence gives the
//! [`Transform`] and the [`Preparation`].

use auc_core::Dataset;
use auc_data::{FeatureRanges, Positive, PositiveChoice, ReadOptions, Reading, Scaler, Scaling};

use crate::error::PrepError;
use crate::features::{FeatureMapSpec, MAP_SAMPLE_ROWS};
use crate::one_hot::OneHotSpec;
use crate::preparation::Preparation;
use crate::stages::UnitNorm;
use crate::transform::{Stage, Transform};

/// The stages asked for, in their fixed order: scaling, one-hot indicators, the feature map,
/// unit norm.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformSpec {
    /// Feature scaling, fitted on training data only (`--scale`).
    pub scaling: Scaling,
    /// Indicators of the levels of categorical features, read from a sample of the scaled
    /// training rows (`--one-hot`).
    pub one_hot: Option<OneHotSpec>,
    /// A feature map fitted on a sample of the scaled training rows (`--features`).
    pub features: Option<FeatureMapSpec>,
    /// Divide every row by its norm after the other stages (`--unit-norm`).
    pub unit_norm: bool,
}

impl Default for TransformSpec {
    /// `--scale auto`, no map, no unit norm: the CLI's defaults.
    fn default() -> Self {
        TransformSpec {
            scaling: Scaling::Auto,
            one_hot: None,
            features: None,
            unit_norm: false,
        }
    }
}

/// What a scaling is fitted from.
#[derive(Clone, Copy, Debug)]
pub enum ScaleEvidence<'a> {
    /// Training rows in memory (cv's training part, Python's arrays).
    Data(&'a Dataset),
    /// Per-feature ranges of the training rows (a first pass over a file, a moment summary,
    /// `auc info --json` output).
    Ranges(&'a FeatureRanges),
    /// Nothing: input read once without `--scale-from` (valid only when no scaling is asked).
    Nothing,
}

impl TransformSpec {
    /// The spec of `scaling` and `unit_norm` without a map.
    pub fn scale_then_norm(scaling: Scaling, unit_norm: bool) -> TransformSpec {
        TransformSpec {
            scaling,
            one_hot: None,
            features: None,
            unit_norm,
        }
    }

    /// Whether fitting needs the training rows' ranges.
    pub fn needs_ranges(&self) -> bool {
        self.scaling != Scaling::None
    }

    /// Whether the only stage asked is a max-abs (or auto) scaling, which a pass over rows read
    /// once can fit at first sight ([`auc_data::FirstSight`]) when every feature's first
    /// non-zero has its largest magnitude.
    pub fn scales_at_first_sight(&self) -> bool {
        matches!(self.scaling, Scaling::Auto | Scaling::MaxAbs)
            && !self.unit_norm
            && !self.reshapes()
    }

    /// Whether the learner (or the map) will see the values as read: no scaling is asked, so
    /// training data is read with [`auc_data::ReadOptions::bounded_values`]
    /// ([`Transform::reads_raw_values`] of the fitted stages).
    pub fn reads_raw_values(&self) -> bool {
        self.scaling == Scaling::None
    }

    /// Whether fitting needs a sample of the training rows (a feature map or one-hot
    /// indicators are asked): the stages that change the dimension.
    pub fn needs_sample(&self) -> bool {
        self.reshapes()
    }

    /// Whether a stage that changes the rows' dimension is asked (one-hot indicators, a
    /// feature map): such stages do not commute with class moments of the input.
    pub fn reshapes(&self) -> bool {
        self.features.is_some() || self.one_hot.is_some()
    }

    /// The seed of the sample the reshaping stages are fitted on (the map's, else the one-hot
    /// stage's), when one is needed.
    pub fn sample_seed(&self) -> Option<u64> {
        self.features
            .map(|m| m.seed)
            .or(self.one_hot.map(|o| o.seed))
    }

    /// An empty seeded sample of [`MAP_SAMPLE_ROWS`] rows, the one every reading path draws
    /// the stages' rows into, when one is needed.
    pub fn empty_sample(&self) -> Option<crate::RowSample> {
        self.sample_seed()
            .map(|seed| crate::RowSample::new(MAP_SAMPLE_ROWS, seed))
    }

    /// The scaler fitted on `evidence`. That of [`ScaleEvidence::Data`] is [`Scaler::fit`],
    /// that of [`ScaleEvidence::Ranges`] [`FeatureRanges::finish`]: on the same rows they are
    /// the same scaler, so streamed and in-memory training agree.
    pub fn fit_scaler(&self, evidence: ScaleEvidence<'_>) -> Scaler {
        match evidence {
            _ if self.scaling == Scaling::None => Scaler::None,
            ScaleEvidence::Data(d) => Scaler::fit(self.scaling, d),
            ScaleEvidence::Ranges(r) => r.finish(self.scaling),
            ScaleEvidence::Nothing => Scaler::None,
        }
    }

    /// The stages fitted on `evidence`. A feature map is fitted on the seeded sample
    /// ([`RowSample`](crate::RowSample)) of [`ScaleEvidence::Data`]'s rows; other evidence has no rows, so a map
    /// then needs [`TransformSpec::fit_sampled`].
    pub fn fit(&self, evidence: ScaleEvidence<'_>) -> Result<Transform, PrepError> {
        let scaler = self.fit_scaler(evidence);
        let sample = self.sample_of(evidence);
        self.finish(scaler, sample.as_ref())
    }

    /// The map's sample of [`ScaleEvidence::Data`]'s rows, when a map is asked (other
    /// evidence has no rows).
    fn sample_of(&self, evidence: ScaleEvidence<'_>) -> Option<Dataset> {
        let (Some(mut s), ScaleEvidence::Data(d)) = (self.empty_sample(), evidence) else {
            return None;
        };
        for (x, _) in d.iter() {
            s.offer(x);
        }
        s.cover(d.dim());
        Some(s.into_dataset())
    }

    /// The stages fitted on `evidence`, a feature map on `sample` (the [`RowSample`](crate::RowSample) of the
    /// training rows as read, covering their dimension).
    pub fn fit_sampled(
        &self,
        evidence: ScaleEvidence<'_>,
        sample: &Dataset,
    ) -> Result<Transform, PrepError> {
        self.finish(self.fit_scaler(evidence), Some(sample))
    }

    /// The stages with `scaler` as the scaling (fitted elsewhere) and the reshaping stages
    /// fitted on `sample` scaled by it, when they are asked: the one-hot levels on the scaled
    /// sample, the feature map on the scaled sample through the one-hot stage.
    pub fn finish(&self, scaler: Scaler, sample: Option<&Dataset>) -> Result<Transform, PrepError> {
        let mut stages = Vec::with_capacity(4);
        if self.reshapes() {
            let sample = sample.ok_or(PrepError::MapNeedsSample)?;
            let mut dim = sample.dim().max(scaler.dim());
            let mut rows = if matches!(scaler, Scaler::None) {
                sample.clone().with_dim(dim)
            } else {
                scaler.transform(&sample.clone().with_dim(dim))
            };
            if !matches!(scaler, Scaler::None) {
                stages.push(Stage::Scale(scaler));
            }
            if let Some(one_hot) = &self.one_hot {
                let stage = one_hot.fit(&rows, dim)?;
                if self.features.is_some() {
                    rows = crate::FittedStage::apply_dataset(&stage, &rows);
                }
                dim = stage.output_dim();
                stages.push(Stage::OneHot(stage));
            }
            if let Some(map) = &self.features {
                stages.push(Stage::FeatureMap(map.fit(&rows, dim)?));
            }
        } else if !matches!(scaler, Scaler::None) {
            stages.push(Stage::Scale(scaler));
        }
        if self.unit_norm {
            stages.push(Stage::UnitNorm(UnitNorm));
        }
        Ok(Transform::from_stages(stages).expect("stages pushed in their fixed order"))
    }

    /// Bytes fitting the stages on `dim` features may take (the ranges and the scaler, the
    /// map's sample and the map), for a memory check before fitting.
    pub fn fit_bytes(&self, dim: usize) -> u64 {
        let scale = if self.needs_ranges() {
            Scaler::bytes_for(dim)
        } else {
            0
        };
        let one_hot = self.one_hot.map_or(0, |o| {
            // The levels while counting, and the sample through the stage when a map follows.
            let expanded = match self.features {
                Some(_) => auc_data::dense_bytes(MAP_SAMPLE_ROWS, o.max_output_dim(dim)),
                None => 0,
            };
            o.fit_bytes(dim).saturating_add(expanded)
        });
        let map_input = self.one_hot.map_or(dim, |o| o.max_output_dim(dim));
        let map = self.features.map_or(0, |m| m.fit_bytes(map_input));
        scale.saturating_add(one_hot).saturating_add(map)
    }

    /// The dimension the learner sees for input of `dim` features, at most (a Nystroem map
    /// may drop some of its landmarks; one-hot indicators are counted as if every feature had
    /// the most levels).
    pub fn max_output_dim(&self, dim: usize) -> usize {
        let after_one_hot = self.one_hot.map_or(dim, |o| o.max_output_dim(dim));
        self.features
            .map_or(after_one_hot, |m| m.max_output_dim(after_one_hot))
    }
}

/// Scaling brought from elsewhere (`--scale-from`), for input that cannot be read twice.
#[derive(Clone, Debug)]
pub struct ScaleFrom {
    /// Where it came from, for messages (a path).
    pub origin: String,
    /// A fitted scaler (a model's) or ranges to fit one on.
    pub source: ScaleSource,
    /// The dimension it covers.
    pub dim: usize,
    /// The hashing of the features it describes.
    pub hash_bits: Option<u8>,
    /// The crosses of the features it describes.
    pub cross_bits: Option<u8>,
}

/// What `--scale-from` holds.
#[derive(Clone, Debug)]
pub enum ScaleSource {
    /// A model's fitted scaling, taken as it is.
    Fitted(Scaler),
    /// Per-feature ranges, fitted as the spec's scaling says.
    Ranges(FeatureRanges),
}

/// Everything asked about reading and preparing training data: built once, checked once.
#[derive(Clone, Debug)]
pub struct PrepSpec {
    /// How files are read: format, CSV layout, `--dim`, `--limit`, `--hash-bits`.
    pub read: ReadOptions,
    /// The positive-class rule (`--positive`, or the default rule).
    pub positive: Positive,
    /// The stages.
    pub transform: TransformSpec,
    /// `--scale-from`, when given.
    pub scale_from: Option<ScaleFrom>,
}

impl PrepSpec {
    /// The checked spec: `--scale-from` must not meet `--scale none`, and must describe features
    /// hashed as these are.
    pub fn new(
        read: ReadOptions,
        positive: Positive,
        transform: TransformSpec,
        scale_from: Option<ScaleFrom>,
    ) -> Result<PrepSpec, PrepError> {
        if let Some(s) = &scale_from {
            if transform.scaling == Scaling::None {
                return Err(PrepError::ScaleFromWithoutScaling);
            }
            if (s.hash_bits, s.cross_bits) != (read.hash_bits, read.cross_bits) {
                return Err(PrepError::ScaleFromHashing {
                    origin: s.origin.clone(),
                    theirs: (s.hash_bits, s.cross_bits),
                    ours: (read.hash_bits, read.cross_bits),
                });
            }
        }
        Ok(PrepSpec {
            read,
            positive,
            transform,
            scale_from,
        })
    }

    /// This spec for training on `paths`: CSV files with named columns get their schema from a
    /// survey of their rows (one pass, [`ReadOptions::surveyed`]) and their positive class from
    /// its label map ([`Positive::Table`]); other inputs keep the spec as it is.
    ///
    /// # Errors
    /// Those of the survey.
    pub fn surveyed(&self, paths: &[&std::path::Path]) -> Result<PrepSpec, auc_data::DataError> {
        let Some((mut read, ranges)) = self.read.survey_tables(paths)? else {
            let positive = match &self.positive {
                // Label numbers of a file read without a schema.
                Positive::Named(words) => Positive::Labels(auc_data::named_numbers(words)?),
                other => other.clone(),
            };
            return Ok(PrepSpec {
                positive,
                ..self.clone()
            });
        };
        let dim = read.schema.as_ref().map_or(0, |s| s.dim());
        // The survey's ranges are those of every encoded row: scaling needs no pass of its own
        // when the rows read are exactly those (no limit, no hashing or crosses).
        let exact = read.limit.is_none() && read.hash_bits.is_none() && read.cross_bits.is_none();
        let scale_from = match (&self.scale_from, ranges) {
            (None, Some(r)) if exact && self.transform.needs_ranges() => Some(ScaleFrom {
                origin: format!("the survey of {}", paths[0].display()),
                source: ScaleSource::Ranges(r),
                dim,
                hash_bits: None,
                cross_bits: None,
            }),
            _ => self.scale_from.clone(),
        };
        if read.hash_bits.is_none() && read.cross_bits.is_none() {
            // A table's dimension is its schema's.
            read.dim = Some(read.dim.unwrap_or(0).max(dim));
        }
        Ok(PrepSpec {
            read,
            positive: Positive::Table,
            transform: self.transform.clone(),
            scale_from,
        })
    }

    /// Whether a first pass must find the training rows' ranges before any row is prepared.
    pub fn needs_ranges(&self) -> bool {
        self.transform.needs_ranges() && self.scale_from.is_none()
    }

    /// Whether a first pass must draw a sample of the training rows (for a feature map).
    pub fn needs_sample(&self) -> bool {
        self.transform.needs_sample()
    }

    /// The dimension fixed up front: `--dim`, or $2^B$ with `--hash-bits B`, and $2^C$ more
    /// with `--cross-hash-bits C`.
    pub fn fixed_dim(&self) -> Option<usize> {
        let own = self.read.dim.or(self.read.hash_bits.map(|b| 1usize << b));
        match self.read.cross_bits {
            Some(c) => own.map(|d| d.saturating_add(1usize << c.min(63))),
            None => own,
        }
    }

    /// The stages for training rows described by `evidence`; `--scale-from` wins over it (a
    /// model's scaler is taken as it is, and `--scale` must not contradict it).
    /// A feature map is fitted on `sample` when given (the sample of a first pass), else on
    /// the rows of [`ScaleEvidence::Data`].
    pub fn fit_transform(
        &self,
        evidence: ScaleEvidence<'_>,
        sample: Option<&Dataset>,
    ) -> Result<Transform, PrepError> {
        let fit = |evidence: ScaleEvidence<'_>| match sample {
            Some(s) => self.transform.fit_sampled(evidence, s),
            None => self.transform.fit(evidence),
        };
        let Some(from) = &self.scale_from else {
            return fit(evidence);
        };
        let scaling = self.transform.scaling;
        match &from.source {
            ScaleSource::Ranges(r) => fit(ScaleEvidence::Ranges(r)),
            ScaleSource::Fitted(s) => {
                if scaling != Scaling::Auto && scaling != s.kind() {
                    return Err(PrepError::ScaleFromContradiction {
                        asked: scaling,
                        fitted: s.kind(),
                        origin: from.origin.clone(),
                    });
                }
                let drawn = self.transform.sample_of(evidence);
                self.transform.finish(s.clone(), sample.or(drawn.as_ref()))
            }
        }
    }

    /// The preparation a model stores: how `reading` read the training rows, the positive class
    /// `choice` took, the dimension and the fitted stages.
    pub fn preparation(
        &self,
        reading: Reading,
        choice: &PositiveChoice,
        dim: usize,
        transform: Transform,
    ) -> Preparation {
        let hashing = (self.read.hash_bits, self.read.cross_bits);
        Preparation::new(reading, choice, dim, hashing, transform)
    }
}
