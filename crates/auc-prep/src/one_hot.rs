//! What the user asks of the one-hot stage (`--one-hot[=K]`, Python's `one_hot=K`):
//! [`OneHotSpec`], and its fit on the sample of the scaled training rows into the stage
//! [`crate::OneHot`] (conventions section 12).

use std::collections::BTreeSet;

use auc_core::Dataset;
use serde::{Deserialize, Serialize};

use crate::error::PrepError;
use crate::features::MAP_SAMPLE_ROWS;
use crate::fitted::FittedStage;
use crate::stages::{Levels, OneHot};

/// The most levels of a categorical feature when `--one-hot` gives none: the thirteen ranks of
/// a card fit, sixteen-valued integer codes (letter's) fit.
pub const DEFAULT_MAX_LEVELS: u16 = 16;
/// The largest $K$ accepted.
pub const MAX_LEVELS: u16 = 1024;
/// The widest input the stage is fitted on: counting levels keeps up to $K + 1$ values a
/// feature, and wide data (hashed or one-hot already) has no numeric codes to expand.
pub const MAX_INPUT_DIM: usize = 1 << 16;

/// The one-hot stage as asked: the most levels of a categorical feature, and the seed of the
/// sample its levels are read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneHotSpec {
    /// $K$: a feature with 3 to $K$ distinct sample values is categorical.
    pub max_levels: u16,
    /// The seed of the sample (the feature map's, when there is one).
    pub seed: u64,
}

impl OneHotSpec {
    /// The spec of `max_levels`, checked: from 3 to [`MAX_LEVELS`].
    pub fn new(max_levels: u16, seed: u64) -> Result<OneHotSpec, String> {
        if !(3..=MAX_LEVELS).contains(&max_levels) {
            return Err(format!(
                "--one-hot {max_levels}: the most levels of a categorical feature must be from 3 to {MAX_LEVELS}"
            ));
        }
        Ok(OneHotSpec { max_levels, seed })
    }

    /// The most features the fitted stage can give for `input_dim` input features (every
    /// feature categorical with $K$ levels).
    pub fn max_output_dim(&self, input_dim: usize) -> usize {
        input_dim.saturating_mul(usize::from(self.max_levels) + 1)
    }

    /// Bytes fitting takes beyond the sample: up to $K + 1$ values a feature while counting.
    pub fn fit_bytes(&self, input_dim: usize) -> u64 {
        let per = 48 + 40 * (u64::from(self.max_levels) + 1);
        (input_dim.min(MAX_INPUT_DIM) as u64).saturating_mul(per)
    }

    /// The stage fitted on `sample` (training rows after scaling) for input of `input_dim`
    /// features: the features whose sample values, a sparse row's missing entries counted as
    /// 0, number from 3 to $K$, with those values as levels.
    pub fn fit(&self, sample: &Dataset, input_dim: usize) -> Result<OneHot, PrepError> {
        if input_dim > MAX_INPUT_DIM {
            return Err(PrepError::OneHot(format!(
                "the data has {input_dim} features, more than the {MAX_INPUT_DIM} the stage looks at: categorical codes are few numeric columns (hashed or already one-hot data has none to expand)"
            )));
        }
        let k = usize::from(self.max_levels);
        // Per feature: its distinct values so far (as ordered bits of -0.0-free values), or
        // None once there are more than K.
        let mut seen: Vec<Option<BTreeSet<u64>>> = vec![Some(BTreeSet::new()); input_dim];
        let mut stored = vec![0usize; input_dim];
        let add = |j: usize, v: f64, seen: &mut Vec<Option<BTreeSet<u64>>>| {
            if let Some(set) = &mut seen[j] {
                set.insert(order_key(v));
                if set.len() > k {
                    seen[j] = None;
                }
            }
        };
        for (x, _) in sample.iter() {
            x.for_each(|j, v| {
                if j < input_dim {
                    stored[j] += 1;
                    add(j, v, &mut seen);
                }
            });
        }
        let n = sample.n();
        for (j, &count) in stored.iter().enumerate() {
            if count < n {
                add(j, 0.0, &mut seen);
            }
        }
        let columns: Vec<Levels> = seen
            .into_iter()
            .enumerate()
            .filter_map(|(j, set)| {
                let set = set?;
                (set.len() >= 3).then(|| Levels {
                    feature: u32::try_from(j).expect("below MAX_INPUT_DIM"),
                    values: set.into_iter().map(from_order_key).collect(),
                })
            })
            .collect();
        let stage = OneHot {
            input_dim,
            columns,
            max_levels: self.max_levels,
        };
        stage
            .validate(input_dim)
            .map_err(|e| PrepError::OneHot(e.to_string()))?;
        Ok(stage)
    }

    /// The sample's capacity: the feature map's.
    pub fn sample_rows(&self) -> usize {
        MAP_SAMPLE_ROWS
    }
}

/// A key whose unsigned order is the numeric order of finite values (`-0.0` taken as `0.0`).
fn order_key(v: f64) -> u64 {
    let v = if v == 0.0 { 0.0 } else { v };
    let b = v.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// The value of an [`order_key`].
fn from_order_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

impl std::fmt::Display for OneHotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "one-hot:{}", self.max_levels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_sort_as_the_values_and_come_back() {
        let vals = [-3.5, -1.0, -1e-300, 0.0, 1e-300, 0.25, 7.0, 1e300];
        let keys: Vec<u64> = vals.iter().map(|&v| order_key(v)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        for (&v, &k) in vals.iter().zip(&keys) {
            assert_eq!(from_order_key(k).to_bits(), v.to_bits());
        }
        assert_eq!(order_key(-0.0), order_key(0.0));
    }
}
