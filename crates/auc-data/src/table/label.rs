//! The label column of a table: its values as training saw them, which of them are positive and
//! why (SPEC 11: any two values; `--positive`; else 1 / +1 / true / yes when the pair holds one of
//! them, else the minority class; more than two values: the minority class against the rest).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cell::Cell;
use crate::DataError;
use crate::names::list;

/// The key a label or category value is compared by: a number in its shortest round-trip form
/// (`1.0` and `1` are one value), text as written after trimming.
pub fn value_key(cell: Cell<'_>, buf: &mut String) {
    buf.clear();
    match cell {
        // `auc_core::shortest`'s form, written into the reused buffer: every row's label goes
        // through here, so no string is allocated per row.
        Cell::Number(x) => {
            use std::fmt::Write;
            let _ = write!(buf, "{:?}", x + 0.0);
            if buf.ends_with(".0") {
                buf.truncate(buf.len() - 2);
            }
        }
        Cell::Text(t) => buf.push_str(t),
        Cell::Missing => {}
    }
}

/// Why the positive values are positive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LabelRule {
    /// The user named them (`--positive`).
    Given,
    /// The column holds two values and this one is 1, +1, true or yes.
    Affirmative,
    /// The class with the fewest rows (ties: the smaller key), the column holding two values.
    Minority,
    /// The class with the fewest rows against all others: the column holds more than two values.
    MinorityOfMany,
}

/// The label column's map from values to classes, stored in the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelMap {
    /// The column's name.
    pub name: String,
    /// Every value training saw, by key, with its number of rows; sorted by key.
    pub counts: Vec<(String, u64)>,
    /// The positive values' keys, sorted.
    pub positive: Vec<String>,
    /// Why.
    pub rule: LabelRule,
}

/// Values the default rule takes as positive when the pair holds one (compared ignoring case).
const AFFIRMATIVE: [&str; 4] = ["1", "+1", "true", "yes"];

impl LabelMap {
    /// The map of a column with these value counts (sorted by key), the positive class named by
    /// `given` (keys as typed; empty: the default rule).
    ///
    /// # Errors
    /// [`DataError::Table`] when a given value does not occur (with the values that do).
    pub fn choose(
        name: String,
        counts: Vec<(String, u64)>,
        given: &[String],
    ) -> Result<LabelMap, DataError> {
        let (positive, rule) = if !given.is_empty() {
            let mut out = Vec::new();
            for g in given {
                let key = match crate::number::whole_number(g.trim().as_bytes()) {
                    Ok(crate::number::Number::Finite(x, _)) => auc_core::shortest(x + 0.0),
                    _ => g.trim().to_owned(),
                };
                if !counts.iter().any(|(k, _)| *k == key) {
                    let present: Vec<&str> = counts.iter().map(|(k, _)| k.as_str()).collect();
                    return Err(DataError::Table(format!(
                        "--positive {g}: the label column \"{name}\" has no such value; it holds {}",
                        list(&present, 20)
                    )));
                }
                out.push(key);
            }
            (out, LabelRule::Given)
        } else if counts.len() == 2
            && let Some((k, _)) = counts
                .iter()
                .find(|(k, _)| AFFIRMATIVE.iter().any(|a| a.eq_ignore_ascii_case(k)))
        {
            (vec![k.clone()], LabelRule::Affirmative)
        } else {
            let rule = if counts.len() > 2 {
                LabelRule::MinorityOfMany
            } else {
                LabelRule::Minority
            };
            // Fewest rows; among equal counts the first key (the list is sorted).
            let rarest = counts
                .iter()
                .min_by_key(|(_, c)| *c)
                .map(|(k, _)| k.clone());
            (rarest.into_iter().collect(), rule)
        };
        let mut positive = positive;
        positive.sort();
        positive.dedup();
        Ok(LabelMap {
            name,
            counts,
            positive,
            rule,
        })
    }

    /// Whether the value with this key is positive.
    pub fn is_positive(&self, key: &str) -> bool {
        self.positive
            .binary_search_by(|p| p.as_str().cmp(key))
            .is_ok()
    }

    /// Rows of the positive and of the negative class in training.
    pub fn class_counts(&self) -> (u64, u64) {
        self.counts.iter().fold((0, 0), |(p, n), (k, c)| {
            if self.is_positive(k) {
                (p + c, n)
            } else {
                (p, n + c)
            }
        })
    }

    /// A warning for a column of more than two values, whose rarest value alone was made
    /// positive.
    pub fn warning(&self) -> Option<String> {
        (self.rule == LabelRule::MinorityOfMany).then(|| {
            format!(
                "the label column \"{}\" holds {} values, so its rarest, {}, is the positive class against all others: name the positive class with --positive (Python: positive=) if that is not what you mean",
                self.name,
                self.counts.len(),
                self.positive.join(", ")
            )
        })
    }
}

impl fmt::Display for LabelMap {
    /// `bad (the minority class of {bad, good})`, `yes (of {no, yes})`, `1, 2 (given)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: Vec<&str> = self.counts.iter().map(|(k, _)| k.as_str()).collect();
        let why = match self.rule {
            LabelRule::Given => "given".to_owned(),
            LabelRule::Affirmative => format!("of {}", list(&keys, 8)),
            LabelRule::Minority => format!("the minority class of {}", list(&keys, 8)),
            LabelRule::MinorityOfMany => {
                format!("the rarest of {} values, against the rest", keys.len())
            }
        };
        write!(f, "{} ({why})", self.positive.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
        pairs.iter().map(|(k, c)| ((*k).to_owned(), *c)).collect()
    }

    #[test]
    fn the_default_rule_takes_yes_one_true_then_the_minority() {
        let yes = LabelMap::choose("y".into(), counts(&[("no", 2), ("yes", 9)]), &[]).unwrap();
        assert_eq!(
            (yes.positive.clone(), yes.rule.clone()),
            (vec!["yes".to_owned()], LabelRule::Affirmative)
        );
        assert_eq!(yes.to_string(), "yes (of {no, yes})");
        let t = LabelMap::choose("y".into(), counts(&[("False", 5), ("True", 9)]), &[]).unwrap();
        assert_eq!(t.positive, ["True"]);
        let bad = LabelMap::choose("s".into(), counts(&[("bad", 3), ("good", 9)]), &[]).unwrap();
        assert_eq!(
            (bad.positive.clone(), bad.rule.clone()),
            (vec!["bad".to_owned()], LabelRule::Minority)
        );
        assert_eq!(bad.class_counts(), (3, 9));
        let many =
            LabelMap::choose("s".into(), counts(&[("a", 3), ("b", 2), ("c", 2)]), &[]).unwrap();
        assert_eq!(many.positive, ["b"]);
        assert!(many.warning().unwrap().contains("3 values"));
    }

    #[test]
    fn number_keys_are_the_shortest_form() {
        let mut buf = String::new();
        for x in [1.0, -0.0, 0.25, 1e-8, 1e300, 1024.0, -3.5] {
            value_key(Cell::Number(x), &mut buf);
            assert_eq!(buf, auc_core::shortest(x + 0.0), "{x}");
        }
    }

    #[test]
    fn given_values_must_occur_and_numbers_match_by_value() {
        let c = counts(&[("0", 5), ("1", 2)]);
        let m = LabelMap::choose("y".into(), c.clone(), &["1.0".to_owned()]).unwrap();
        assert_eq!(m.positive, ["1"]);
        let e = LabelMap::choose("y".into(), c, &["bad".to_owned()]).unwrap_err();
        assert!(e.to_string().contains("holds {0, 1}"), "{e}");
    }
}
