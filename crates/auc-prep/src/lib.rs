//! The preparation pipeline: from what the user asked to the rows a learner sees.
//!
//! Three types carry it, each built in one place:
//!
//! - [`PrepSpec`] is what was asked (reading, positive-class rule, dimension, hashing, the
//!   stages, `--scale-from`), built once from the CLI's flags or Python's keyword arguments and
//!   checked by [`PrepSpec::new`]; its stage part is [`TransformSpec`].
//! - [`Transform`] is the fitted stages in their fixed order (scaling, one-hot indicators, the
//!   feature map, unit norm), fitted on
//!   training data only ([`TransformSpec::fit`] from a [`ScaleEvidence`]: rows in memory, the
//!   ranges of a first pass or of merged moment files) and applied identically to whole
//!   datasets ([`Transform::apply_dataset`]) and single rows ([`Transform::apply_row`]).
//! - [`Preparation`] is what a model stores: the reading, the positive class, the dimension,
//!   hashing and the transform. [`Preparation::new`] is its only constructor.
//!
//! Every command and binding goes through these types: train, stream, predict, `cv` (a transform
//! fitted per training part), moments, `--tune`, Python and Dask. A stage is a type implementing
//! [`FittedStage`] in its own file and one variant of [`Stage`] (see [`transform`]'s docs).

mod draws;
mod error;
mod exp;
mod explain;
pub mod features;
mod fitted;
mod map_fit;
mod nystroem;
pub mod one_hot;
mod preparation;
mod project;
mod sample;
mod spec;
mod stages;
pub mod transform;

pub use error::PrepError;
pub use explain::{InputWeights, NotPerInput};
pub use features::{FeatureMapSpec, MapKind, MapShape, SigmaRule};
pub use fitted::FittedStage;
pub use map_fit::kernel_width;
pub use one_hot::OneHotSpec;
pub use preparation::{Preparation, PreparationV3, PreparationV5};
pub use sample::RowSample;
pub use spec::{PrepSpec, ScaleEvidence, ScaleFrom, ScaleSource, TransformSpec};
pub use stages::{FeatureMap, Levels, OneHot, UnitNorm, poly2_dim};
pub use transform::{RowBuffers, Stage, Transform};
