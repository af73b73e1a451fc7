//! What the user asked for: [`PrepSpec`] (reading, positive-class rule, dimension, hashing, the
//! stages, `--scale-from`) and its stage part [`TransformSpec`], each built once from the CLI's
//! flags or Python's keyword arguments and checked there; fitting them on evidence gives the
//! [`Transform`] and the [`Preparation`].

use auc_core::Dataset;
use auc_data::{FeatureRanges, Positive, PositiveChoice, ReadOptions, Reading, Scaler, Scaling};

use crate::error::PrepError;
use crate::preparation::Preparation;
use crate::transform::Transform;

/// The stages asked for, in their fixed order: scaling, then unit norm.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformSpec {
    /// Feature scaling, fitted on training data only (`--scale`).
    pub scaling: Scaling,
    /// Divide every row by its norm after the other stages (`--unit-norm`).
    pub unit_norm: bool,
}

impl Default for TransformSpec {
    /// `--scale auto`, no unit norm: the CLI's defaults.
    fn default() -> Self {
        TransformSpec {
            scaling: Scaling::Auto,
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
    /// Whether fitting needs the training rows' ranges.
    pub fn needs_ranges(&self) -> bool {
        self.scaling != Scaling::None
    }

    /// The stages fitted on `evidence`. The scaling of [`ScaleEvidence::Data`] is
    /// [`Scaler::fit`], that of [`ScaleEvidence::Ranges`] [`FeatureRanges::finish`]: on the same
    /// rows they are the same scaler, so streamed and in-memory training agree.
    pub fn fit(&self, evidence: ScaleEvidence<'_>) -> Transform {
        let scaler = match evidence {
            _ if self.scaling == Scaling::None => Scaler::None,
            ScaleEvidence::Data(d) => Scaler::fit(self.scaling, d),
            ScaleEvidence::Ranges(r) => r.finish(self.scaling),
            ScaleEvidence::Nothing => Scaler::None,
        };
        self.with_scaler(scaler)
    }

    /// The stages with `scaler` as the scaling, fitted elsewhere.
    pub fn with_scaler(&self, scaler: Scaler) -> Transform {
        Transform::scale_then_norm(scaler, self.unit_norm)
    }

    /// Bytes fitting the stages on `dim` features may take (the ranges and the scaler), for a
    /// memory check before fitting.
    pub fn fit_bytes(&self, dim: usize) -> u64 {
        if self.needs_ranges() {
            Scaler::bytes_for(dim)
        } else {
            0
        }
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
            if s.hash_bits != read.hash_bits {
                return Err(PrepError::ScaleFromHashing {
                    origin: s.origin.clone(),
                    theirs: s.hash_bits,
                    ours: read.hash_bits,
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

    /// Whether a first pass must find the training rows' ranges before any row is prepared.
    pub fn needs_ranges(&self) -> bool {
        self.transform.needs_ranges() && self.scale_from.is_none()
    }

    /// The dimension fixed up front: `--dim`, or $2^B$ with `--hash-bits B`.
    pub fn fixed_dim(&self) -> Option<usize> {
        self.read.dim.or(self.read.hash_bits.map(|b| 1usize << b))
    }

    /// The stages for training rows described by `evidence`; `--scale-from` wins over it (a
    /// model's scaler is taken as it is, and `--scale` must not contradict it).
    pub fn fit_transform(&self, evidence: ScaleEvidence<'_>) -> Result<Transform, PrepError> {
        let Some(from) = &self.scale_from else {
            return Ok(self.transform.fit(evidence));
        };
        let scaling = self.transform.scaling;
        match &from.source {
            ScaleSource::Ranges(r) => Ok(self.transform.fit(ScaleEvidence::Ranges(r))),
            ScaleSource::Fitted(s) => {
                if scaling != Scaling::Auto && scaling != s.kind() {
                    return Err(PrepError::ScaleFromContradiction {
                        asked: scaling,
                        fitted: s.kind(),
                        origin: from.origin.clone(),
                    });
                }
                Ok(self.transform.with_scaler(s.clone()))
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
        Preparation::new(reading, choice, dim, self.read.hash_bits, transform)
    }
}
