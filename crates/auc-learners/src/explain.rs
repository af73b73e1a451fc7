//! [`Explanation`]: what a saved model says about its input features without data (`auc
//! model`): a linear model's weights in the units of the input ([`auc_prep::InputWeights`]),
//! the split counts of boosted trees and of the blend's tree member, or why neither exists.
//! Permutation importance, which needs data, is `auc_train::importance`.

use auc_prep::{InputWeights, NotPerInput};
use serde_json::{Value, json};

use crate::model::Model;
use crate::trained::Anatomy;

/// What a model says about its input features ([`Model::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Explanation {
    /// A linear model: its weights in the units of the input and its intercept.
    Linear(InputWeights),
    /// A linear model whose weights are over features no input has (a feature map, unit norm).
    NotPerInput(NotPerInput),
    /// Boosted trees (`member`: the blend's tree member): per prepared feature its name and the
    /// number of splits on it.
    Splits {
        /// The prepared features' names.
        names: Vec<String>,
        /// The number of splits on each.
        splits: Vec<u64>,
        /// Whether these are the trees of a blend, whose kernel member has no per-feature part.
        member: bool,
    },
    /// A kernel expansion or GAM-CVM: only permutation importance describes it.
    Opaque,
}

impl Model {
    /// What the model says about its input features (see [`Explanation`]).
    pub fn explain(&self) -> Explanation {
        let p = &self.preparation;
        let splits = |splits: Vec<u64>, member: bool| {
            let names = p
                .prepared_names()
                .unwrap_or_else(|| (0..splits.len()).map(|k| format!("map #{k}")).collect());
            Explanation::Splits {
                names,
                splits,
                member,
            }
        };
        match self.state.anatomy() {
            Anatomy::Linear(w) => match p.input_weights(w) {
                Ok(iw) => Explanation::Linear(iw),
                Err(e) => Explanation::NotPerInput(e),
            },
            Anatomy::Trees(s) => splits(s, false),
            Anatomy::Blend(s) => splits(s, true),
            Anatomy::Opaque => Explanation::Opaque,
        }
    }
}

/// The indices of `values` by decreasing magnitude, ties in feature order.
pub fn by_magnitude(values: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].abs().total_cmp(&values[a].abs()).then(a.cmp(&b)));
    order
}

impl Explanation {
    /// The JSON `auc model --json` prints under `explanation`: `kind` (`linear`,
    /// `not_per_input`, `splits` or `none`), and for a linear model `intercept` and `weights`
    /// (every feature, by decreasing magnitude: `feature`, `weight`), for trees `member` and
    /// `splits` (every feature, most splits first: `feature`, `splits`, `share`).
    pub fn to_json(&self) -> Value {
        match self {
            Explanation::Linear(iw) => {
                let weights: Vec<Value> = by_magnitude(&iw.weights)
                    .into_iter()
                    .map(|j| json!({"feature": iw.names[j], "weight": iw.weights[j]}))
                    .collect();
                json!({
                    "kind": "linear",
                    "units": "input",
                    "intercept": iw.intercept,
                    "weights": weights,
                })
            }
            Explanation::NotPerInput(e) => json!({
                "kind": "not_per_input",
                "reason": e.to_string(),
            }),
            Explanation::Splits {
                names,
                splits,
                member,
            } => {
                let total: u64 = splits.iter().sum();
                let counts: Vec<f64> = splits.iter().map(|&c| c as f64).collect();
                let rows: Vec<Value> = by_magnitude(&counts)
                    .into_iter()
                    .map(|j| {
                        json!({
                            "feature": names[j],
                            "splits": splits[j],
                            "share": if total > 0 { splits[j] as f64 / total as f64 } else { 0.0 },
                        })
                    })
                    .collect();
                json!({
                    "kind": "splits",
                    "member": if *member { "trees of the blend" } else { "trees" },
                    "total_splits": total,
                    "splits": rows,
                })
            }
            Explanation::Opaque => json!({
                "kind": "none",
                "reason": "a kernel expansion has no weight per input feature: auc importance measures each input column",
            }),
        }
    }
}
