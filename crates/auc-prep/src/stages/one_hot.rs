//! The one-hot stage: indicator columns for the features that take only a few values
//! (categories coded as numbers: a card's suit, a nucleotide, a questionnaire's answer),
//! appended after the features themselves (conventions section 12,
//! [docs/math/one-hot.md](../../../../docs/math/one-hot.md)).
//!
//! Fitted on the sample of the training rows after scaling ([`crate::OneHotSpec::fit`]): a
//! feature whose sample values (a sparse row's missing entries count as the value 0) number
//! from 3 to $K$ is *categorical*, and its distinct values, in increasing order, are its
//! *levels*. A row $x$ of $p$ features then becomes
//! $$ (x_1, \dots, x_p,\ [x_{j_1} = v_{1,1}], \dots, [x_{j_1} = v_{1,L_1}],\ [x_{j_2} = v_{2,1}],
//! \dots) $$
//! with $1$ for the level the value equals and $0$ elsewhere: $p + \sum_c L_c$ features. A value
//! that is no level (a category the sample never showed) sets no indicator, as scikit-learn's
//! `OneHotEncoder(handle_unknown="ignore")`. Features past $p$ are dropped, as features a model
//! never saw. The features keep their own column, so nothing of an ordered code is lost.
//!
//! Binary features are left alone: their indicators are an affine function of the feature, so
//! a linear model gains nothing from them.
//!
//! A dense row gives a dense row, a sparse row a sparse row (the indicators of level 0 included
//! for the categorical features the row does not store); a dataset is prepared row by row with
//! the row's own code, so the two agree bit for bit.

use auc_core::{Dataset, Row, RowBuf};
use serde::{Deserialize, Serialize};

use crate::fitted::FittedStage;

/// One categorical feature: its index and its levels, strictly increasing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Levels {
    /// The feature's index among the stage's input features.
    pub feature: u32,
    /// Its distinct values in the sample, strictly increasing, finite, `-0.0` written as `0.0`.
    pub values: Vec<f64>,
}

/// A fitted one-hot stage (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OneHot {
    pub(crate) input_dim: usize,
    /// The categorical features, by increasing index.
    pub(crate) columns: Vec<Levels>,
    /// The most levels a feature could have to be categorical, as asked ($K$).
    pub(crate) max_levels: u16,
}

impl OneHot {
    /// The number of input features it reads (entries past it are dropped).
    pub fn input_dim(&self) -> usize {
        self.input_dim
    }

    /// The number of features it gives: the input's plus one per level.
    pub fn output_dim(&self) -> usize {
        self.input_dim + self.indicators()
    }

    /// The number of indicator columns.
    pub fn indicators(&self) -> usize {
        self.columns.iter().map(|c| c.values.len()).sum()
    }

    /// The categorical features and their levels.
    pub fn columns(&self) -> &[Levels] {
        &self.columns
    }

    /// $K$, the most levels a categorical feature could have.
    pub fn max_levels(&self) -> u16 {
        self.max_levels
    }

    /// Bytes the stage holds.
    pub fn bytes(&self) -> u64 {
        self.columns
            .iter()
            .map(|c| 16 + 8 * c.values.len() as u64)
            .sum()
    }

    /// `one-hot:16 (3 of 10 features, 30 indicators)`.
    pub fn describe(&self) -> String {
        format!(
            "one-hot:{} ({} of {} features, {} indicators)",
            self.max_levels,
            self.columns.len(),
            self.input_dim,
            self.indicators()
        )
    }

    /// The level index of `v` among `levels`, if it is one.
    fn level_of(levels: &[f64], v: f64) -> Option<usize> {
        let v = if v == 0.0 { 0.0 } else { v };
        levels.binary_search_by(|l| l.total_cmp(&v)).ok()
    }

    /// The value of feature `j` in a sparse row whose stored entries from `*at` on have indices
    /// at least `j` (a merge: `*at` moves forward).
    fn sparse_value(indices: &[u32], values: &[f64], at: &mut usize, j: u32) -> f64 {
        while *at < indices.len() && indices[*at] < j {
            *at += 1;
        }
        if *at < indices.len() && indices[*at] == j {
            values[*at]
        } else {
            0.0
        }
    }

    /// One row into `out`: dense for a dense row, sparse for a sparse one.
    fn map_row(&self, x: Row<'_>, out: &mut RowBuf) {
        let p = self.input_dim;
        match x {
            Row::Dense(v) => {
                let mut z = match std::mem::take(out) {
                    RowBuf::Dense(z) => z,
                    RowBuf::Sparse { .. } => Vec::new(),
                };
                z.clear();
                z.extend(v.iter().take(p));
                z.resize(self.output_dim(), 0.0);
                let mut offset = p;
                for c in &self.columns {
                    let value = v.get(c.feature as usize).copied().unwrap_or(0.0);
                    if let Some(l) = Self::level_of(&c.values, value) {
                        z[offset + l] = 1.0;
                    }
                    offset += c.values.len();
                }
                *out = RowBuf::Dense(z);
            }
            Row::Sparse(s) => {
                let (mut idx, mut val) = match std::mem::take(out) {
                    RowBuf::Sparse { indices, values } => (indices, values),
                    RowBuf::Dense(_) => (Vec::new(), Vec::new()),
                };
                idx.clear();
                val.clear();
                for (&j, &v) in s.indices().iter().zip(s.values()) {
                    if (j as usize) >= p {
                        break;
                    }
                    idx.push(j);
                    val.push(v);
                }
                let mut offset = p;
                let mut at = 0;
                for c in &self.columns {
                    let value = Self::sparse_value(s.indices(), s.values(), &mut at, c.feature);
                    if let Some(l) = Self::level_of(&c.values, value) {
                        idx.push(u32::try_from(offset + l).expect("checked below 2^32"));
                        val.push(1.0);
                    }
                    offset += c.values.len();
                }
                *out = RowBuf::Sparse {
                    indices: idx,
                    values: val,
                };
            }
        }
    }
}

impl FittedStage for OneHot {
    fn name(&self) -> &'static str {
        "one-hot"
    }

    fn apply_dataset(&self, data: &Dataset) -> Dataset {
        let d = self.output_dim();
        let mut out = RowBuf::default();
        if data.is_sparse() {
            let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
            for (x, _) in data.iter() {
                self.map_row(x, &mut out);
                if let RowBuf::Sparse {
                    indices: i,
                    values: v,
                } = &out
                {
                    indices.extend_from_slice(i);
                    values.extend_from_slice(v);
                }
                indptr.push(indices.len());
            }
            return Dataset::sparse(d, indptr, indices, values, data.labels().to_vec()).expect(
                "a prepared row has strictly increasing indices below the output dimension",
            );
        }
        let mut values = Vec::with_capacity(data.n().saturating_mul(d));
        for (x, _) in data.iter() {
            self.map_row(x, &mut out);
            if let RowBuf::Dense(z) = &out {
                values.extend_from_slice(z);
            }
        }
        Dataset::dense(d, values, data.labels().to_vec())
            .expect("a prepared row has the output dimension")
    }

    fn apply_row(&self, x: Row<'_>, out: &mut RowBuf) {
        self.map_row(x, out);
    }

    /// Categorical features below the input dimension (itself at most `dim`), by increasing
    /// index, each with 3 to $K$ strictly increasing finite levels, and an output dimension
    /// that indices can address.
    fn validate(&self, dim: usize) -> Result<(), String> {
        if self.input_dim > dim {
            return Err(format!(
                "the stage reads {} features, the data has {dim}",
                self.input_dim
            ));
        }
        if self.max_levels < 3 {
            return Err(format!(
                "at most {} levels: a categorical feature has at least 3",
                self.max_levels
            ));
        }
        if !self.columns.windows(2).all(|w| w[0].feature < w[1].feature) {
            return Err("the categorical features are not in increasing order".to_owned());
        }
        for c in &self.columns {
            let n = c.values.len();
            if (c.feature as usize) >= self.input_dim {
                return Err(format!(
                    "feature {} is past the input's {}",
                    c.feature, self.input_dim
                ));
            }
            if n < 3 || n > usize::from(self.max_levels) {
                return Err(format!(
                    "feature {} has {n} levels, not 3 to {}",
                    c.feature, self.max_levels
                ));
            }
            let ordered = c.values.windows(2).all(|w| w[0] < w[1]);
            let clean = c
                .values
                .iter()
                .all(|v| v.is_finite() && !(*v == 0.0 && v.is_sign_negative()));
            if !ordered || !clean {
                return Err(format!(
                    "the levels of feature {} are not strictly increasing finite values",
                    c.feature
                ));
            }
        }
        if self.output_dim() > u32::MAX as usize {
            return Err(format!("{} features cannot be indexed", self.output_dim()));
        }
        Ok(())
    }
}
