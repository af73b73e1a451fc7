//! A linear score carried back to the input: the names of a preparation's input features and
//! the weights of a linear model in the units of the input, the scaling undone.
//!
//! # The derivation
//! A linear model scores the prepared row $z$ with $s = \sum_k w_k z_k$. The scaling stage maps
//! each input feature affinely, $z_j = a_j x_j + c_j$:
//!
//! | scaling | $a_j$ | $c_j$ |
//! |---|---|---|
//! | min-max to $[-1, 1]$ on $[l_j, h_j]$, $l_j < h_j$ | $2 / (h_j - l_j)$ | $-1 - a_j l_j$ |
//! | min-max of a constant feature ($l_j = h_j$) | $0$ | $0$ |
//! | max-abs by $m_j > 0$ | $1 / m_j$ | $0$ |
//! | max-abs of a feature that was always 0 | $0$ | $0$ |
//! | none, or a feature past the fitted ones | $1$ | $0$ |
//!
//! so that $s = \sum_j (w_j a_j) x_j + \sum_j w_j c_j$: the weight of input feature $j$ in its
//! own units is $w'_j = w_j a_j$ and the intercept is $b' = \sum_j w_j c_j$. This is an
//! equality, not only a monotone equivalence: the model's score of a raw row equals
//! $\sum_j w'_j x_j + b'$ up to rounding, as long as no scaled value is saturated at
//! $\pm 10^{12}$ (`auc_data::SCALED_LIMIT`, reached only by values some $10^{12}$ ranges away
//! from the training range). A probability of a calibrated model is a monotone map of $s$.
//!
//! One-hot indicators (`--one-hot`) are not affine in their feature: their weight is the score
//! added when the feature equals the level, and the level is written back in the input's units.
//! Rows divided by their norm (`--unit-norm`) or sent through a feature map (`--features`) are
//! no affine function of the input, so per-input weights are not defined there
//! ([`NotPerInput`]); permutation importance describes such models instead.

use auc_data::Scaler;

use crate::preparation::Preparation;

/// A linear model's weights in the units of the input ([`Preparation::input_weights`]).
#[derive(Clone, Debug, PartialEq)]
pub struct InputWeights {
    /// One name per weight: the input features (`age`, `color=red`, `f3`), then one per
    /// one-hot indicator (`f2=0.5`).
    pub names: Vec<String>,
    /// $w'$: the score gained per unit of each input feature (per indicator set to 1).
    pub weights: Vec<f64>,
    /// $b'$: the score of a row of zeros (all indicators 0).
    pub intercept: f64,
}

/// Why a preparation has no per-input weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPerInput {
    /// A feature map (described) sits between the input and the weights.
    FeatureMap(String),
    /// Rows are divided by their norm.
    UnitNorm,
}

impl std::fmt::Display for NotPerInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPerInput::FeatureMap(m) => write!(
                f,
                "the weights are over the features of the map {m}, not over the input: per-input weights are not defined (auc importance measures each input column instead)"
            ),
            NotPerInput::UnitNorm => write!(
                f,
                "rows are divided by their norm, which is no affine map of the input: per-input weights are not defined (auc importance measures each input column instead)"
            ),
        }
    }
}

impl std::error::Error for NotPerInput {}

/// $(a_j, c_j)$ of the table in the module docs: $z_j = a_j x_j + c_j$.
fn affine(scaler: &Scaler, j: usize) -> (f64, f64) {
    match scaler {
        Scaler::None => (1.0, 0.0),
        Scaler::MinMax { min, max } => match (min.get(j), max.get(j)) {
            (Some(&lo), Some(&hi)) if lo < hi => {
                let a = 2.0 / (hi - lo);
                if a.is_finite() {
                    (a, -1.0 - a * lo)
                } else {
                    (0.0, 0.0)
                }
            }
            (Some(_), Some(_)) => (0.0, 0.0),
            _ => (1.0, 0.0),
        },
        Scaler::MaxAbs { max_abs } => match max_abs.get(j) {
            Some(&m) if m > 0.0 => (1.0 / m, 0.0),
            Some(_) => (0.0, 0.0),
            None => (1.0, 0.0),
        },
    }
}

impl Preparation {
    /// The names of the input features, one per feature of the rows as read ([`Preparation::dim`]
    /// of them): a table's (`age`, `age (missing)`, `color=red`, `color (other)`), a CSV
    /// header's, `f1`..`fp` for LIBSVM and arrays (`f0`.. for 0-based LIBSVM), `hash #k` for
    /// hashed features and `cross #k` for the crosses after them.
    pub fn feature_names(&self) -> Vec<String> {
        let base = self.base_dim();
        let first = usize::from(!self.reading.is_zero_based());
        let mut names: Vec<String> = if self.hash_bits.is_some() {
            (0..base).map(|k| format!("hash #{k}")).collect()
        } else {
            self.reading.feature_names().unwrap_or_default()
        };
        names.truncate(base);
        let known = names.len();
        names.extend((known..base).map(|j| format!("f{}", j + first)));
        names.extend((0..self.dim - base).map(|k| format!("cross #{k}")));
        names
    }

    /// The weights `w` of a linear model over the prepared rows, carried back to the input's
    /// units with the intercept the scaling's offsets make (the module docs derive it). `w` may
    /// be shorter than the prepared dimension (the missing weights are 0).
    ///
    /// # Errors
    /// [`NotPerInput`] when a feature map or unit norm sits between the input and `w`.
    pub fn input_weights(&self, w: &[f64]) -> Result<InputWeights, NotPerInput> {
        if let Some(m) = self.transform.feature_map() {
            return Err(NotPerInput::FeatureMap(m.describe()));
        }
        if self.transform.unit_norm() {
            return Err(NotPerInput::UnitNorm);
        }
        Ok(self.carry(w))
    }

    /// The names of the prepared features a learner sees: the input features', then one per
    /// one-hot indicator (`f2=0.5`, the level in the input's units); `None` behind a feature
    /// map, whose features are no input's.
    pub fn prepared_names(&self) -> Option<Vec<String>> {
        if self.transform.feature_map().is_some() {
            return None;
        }
        Some(self.carry(&[]).names)
    }

    /// [`Preparation::input_weights`] without its checks.
    fn carry(&self, w: &[f64]) -> InputWeights {
        let mut names = self.feature_names();
        let scaler = self.scaler();
        let input = self.transform.one_hot().map_or(self.dim, |o| o.input_dim());
        let at = |k: usize| w.get(k).copied().unwrap_or(0.0);
        let mut weights = Vec::with_capacity(names.len());
        let mut intercept = 0.0;
        for j in 0..names.len() {
            if j >= input {
                // Dropped by the one-hot stage before any weight.
                weights.push(0.0);
                continue;
            }
            let (a, c) = affine(scaler, j);
            weights.push(at(j) * a);
            intercept += at(j) * c;
        }
        if let Some(o) = self.transform.one_hot() {
            let mut k = input;
            for col in o.columns() {
                let j = col.feature as usize;
                let (a, c) = affine(scaler, j);
                let name = names
                    .get(j)
                    .cloned()
                    .unwrap_or_else(|| format!("f{}", j + 1));
                for &v in &col.values {
                    // Categorical features take at least 3 values, so a != 0.
                    let raw = if a == 0.0 { v } else { (v - c) / a };
                    names.push(format!("{name}={}", auc_core::shortest(raw)));
                    weights.push(at(k));
                    k += 1;
                }
            }
        }
        InputWeights {
            names,
            weights,
            intercept,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::Transform;
    use auc_core::{Dataset, Label};
    use auc_data::Scaling;

    fn prep(scaler: Scaler) -> Preparation {
        Preparation::for_arrays(
            3,
            None,
            vec![1.0],
            "given".to_owned(),
            Transform::scale_then_norm(scaler, false),
        )
    }

    /// The raw-unit weights reproduce the score of raw rows: min-max on [2, 6] gives
    /// z = (x - 2) / 2 - 1 = x / 2 - 2; with w = (1, 3, -2) and feature 1 constant, feature 2
    /// past the scaler, s = x0 / 2 - 2 + 0 - 2 x2: w' = (0.5, 0, -2), b' = -2.
    #[test]
    fn min_max_weights_by_hand() {
        let s = Scaler::MinMax {
            min: vec![2.0, 5.0],
            max: vec![6.0, 5.0],
        };
        let iw = prep(s).input_weights(&[1.0, 3.0, -2.0]).unwrap();
        assert_eq!(iw.names, ["f1", "f2", "f3"]);
        assert_eq!(iw.weights, [0.5, 0.0, -2.0]);
        assert_eq!(iw.intercept.to_bits(), (-2.0f64).to_bits());
    }

    /// Max-abs keeps zeros: no intercept; a feature that was always 0 has weight 0.
    #[test]
    fn max_abs_weights_by_hand() {
        let s = Scaler::MaxAbs {
            max_abs: vec![4.0, 0.0, 0.5],
        };
        let iw = prep(s).input_weights(&[2.0, 7.0, 1.0]).unwrap();
        assert_eq!(iw.weights, [0.5, 0.0, 2.0]);
        assert_eq!(iw.intercept.to_bits(), 0.0f64.to_bits());
    }

    /// On fitted scalers and random rows, the prepared dot product equals the raw-unit form.
    #[test]
    fn raw_form_equals_prepared_score() {
        let rows = [
            [3.0, -1.0, 100.0],
            [-2.5, 0.0, 250.0],
            [7.0, 4.0, 175.0],
            [0.5, 2.0, 120.0],
        ];
        let flat: Vec<f64> = rows.iter().flatten().copied().collect();
        let labels = vec![Label::Pos, Label::Neg, Label::Pos, Label::Neg];
        let data = Dataset::dense(3, flat, labels).unwrap();
        let w = [0.3, -1.7, 0.02];
        for scaling in [Scaling::MinMax, Scaling::MaxAbs, Scaling::None] {
            let p = prep(Scaler::fit(scaling, &data));
            let iw = p.input_weights(&w).unwrap();
            let prepared = p.apply(&data);
            for (i, r) in rows.iter().enumerate() {
                let z = prepared.row(i).dot(&w);
                let raw: f64 = iw.weights.iter().zip(r).map(|(a, b)| a * b).sum::<f64>();
                let raw = raw + iw.intercept;
                assert!(
                    (z - raw).abs() <= 1e-12 * (1.0 + z.abs()),
                    "{scaling:?} row {i}: {z} vs {raw}"
                );
            }
        }
    }

    #[test]
    fn unit_norm_has_no_input_weights() {
        let p = Preparation::for_arrays(
            2,
            None,
            vec![1.0],
            "given".to_owned(),
            Transform::scale_then_norm(Scaler::None, true),
        );
        assert_eq!(p.input_weights(&[1.0, 2.0]), Err(NotPerInput::UnitNorm));
    }
}
