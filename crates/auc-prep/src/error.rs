//! [`PrepError`]: a preparation that cannot be built as asked.

use std::fmt;

use auc_data::Scaling;

/// Why a [`crate::PrepSpec`] cannot be built or fitted.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PrepError {
    /// `--scale-from` and `--scale none` together.
    ScaleFromWithoutScaling,
    /// `--scale-from` describes features hashed otherwise.
    ScaleFromHashing {
        /// Where the scaling came from.
        origin: String,
        /// Its hashing and crosses (bits).
        theirs: (Option<u8>, Option<u8>),
        /// This data's hashing and crosses.
        ours: (Option<u8>, Option<u8>),
    },
    /// `--scale` names another kind than the model's fitted scaling of `--scale-from`.
    ScaleFromContradiction {
        /// The kind asked.
        asked: Scaling,
        /// The model's kind.
        fitted: Scaling,
        /// The model it came from.
        origin: String,
    },
    /// A feature map that cannot be fitted as asked.
    FeatureMap(String),
    /// A one-hot stage that cannot be fitted as asked.
    OneHot(String),
    /// A feature map asked where no sample of the training rows can be had before learning.
    MapNeedsSample,
}

fn hashing((b, c): (Option<u8>, Option<u8>)) -> String {
    let hash = b.map_or_else(|| "no hashing".to_owned(), |b| format!("--hash-bits {b}"));
    match c {
        Some(c) => format!("{hash} --cross-hash-bits {c}"),
        None => hash,
    }
}

impl fmt::Display for PrepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepError::ScaleFromWithoutScaling => f.write_str(
                "--scale-from takes the scaling from a file, --scale none (or --no-scale) asks for none: give one of them",
            ),
            PrepError::ScaleFromHashing {
                origin,
                theirs,
                ours,
            } => write!(
                f,
                "--scale-from {origin} holds the ranges of features read with {}, but this data is read with {}: give the same --hash-bits and --cross-hash-bits",
                hashing(*theirs),
                hashing(*ours)
            ),
            PrepError::ScaleFromContradiction {
                asked,
                fitted,
                origin,
            } => write!(
                f,
                "--scale {asked} contradicts the {fitted} scaling the model {origin} was trained with (--scale-from takes a model's scaling as it is; leave --scale out)"
            ),
            PrepError::FeatureMap(why) => write!(f, "the feature map: {why}"),
            PrepError::OneHot(why) => write!(f, "the one-hot stage: {why}"),
            PrepError::MapNeedsSample => f.write_str(
                "a feature map (or a one-hot stage) is fitted on a sample of the training rows, and none can be had before learning starts: read the data from a file (it is read twice)",
            ),
        }
    }
}

impl std::error::Error for PrepError {}
