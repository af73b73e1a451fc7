//! Named numeric parameters, as they appear on the command line, in grids and in JSON records.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ParamError;

/// What an algorithm says about one of its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The paper's symbol in lower case: `eta`, `lambda`, `c`, `beta1`, `sigma`, `budget`, ...
    pub name: &'static str,
    /// The value used when none is given; `None` makes the parameter required.
    pub default: Option<f64>,
    /// One line for `auc algos`: what it does and where it comes from.
    pub help: &'static str,
}

/// Parameter values by name, ordered by name so that printing and hashing are deterministic.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ParamMap(BTreeMap<String, f64>);

impl ParamMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value`, replacing any earlier value.
    pub fn set(&mut self, name: impl Into<String>, value: f64) -> &mut Self {
        self.0.insert(name.into(), value);
        self
    }

    /// The value given for `name`, if any.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.get(name).copied()
    }

    /// The value for `spec`: the given one, else its default, else [`ParamError::Missing`].
    pub fn value(&self, spec: &ParamSpec) -> Result<f64, ParamError> {
        self.get(spec.name)
            .or(spec.default)
            .ok_or_else(|| ParamError::Missing {
                name: spec.name.to_owned(),
            })
    }

    /// Fails with [`ParamError::Unknown`] on the first name that no spec declares.
    pub fn check_names(&self, specs: &[ParamSpec]) -> Result<(), ParamError> {
        for name in self.0.keys() {
            if !specs.iter().any(|s| s.name == name) {
                let known = specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
                return Err(ParamError::Unknown {
                    name: name.clone(),
                    known,
                });
            }
        }
        Ok(())
    }

    /// This map with every value of `other` set on top.
    pub fn merged(&self, other: &ParamMap) -> ParamMap {
        let mut out = self.clone();
        out.0.extend(other.0.iter().map(|(k, v)| (k.clone(), *v)));
        out
    }

    /// `(name, value)` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// Whether no value is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Into<String>> FromIterator<(K, f64)> for ParamMap {
    fn from_iter<I: IntoIterator<Item = (K, f64)>>(iter: I) -> Self {
        Self(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl fmt::Display for ParamMap {
    /// `eta=0.5 lambda=0.001`, or `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            name: "c",
            default: Some(1.0),
            help: "aggressiveness",
        },
        ParamSpec {
            name: "eta",
            default: None,
            help: "step",
        },
    ];

    #[test]
    fn value_falls_back_to_default_then_errors() {
        let m: ParamMap = [("eta", 0.25)].into_iter().collect();
        assert_eq!(m.value(&SPECS[0]), Ok(1.0));
        assert_eq!(m.value(&SPECS[1]), Ok(0.25));
        assert_eq!(
            ParamMap::new().value(&SPECS[1]),
            Err(ParamError::Missing { name: "eta".into() })
        );
    }

    #[test]
    fn unknown_names_are_reported_with_the_known_ones() {
        let m: ParamMap = [("lambda", 1.0)].into_iter().collect();
        let e = m.check_names(SPECS).unwrap_err();
        assert_eq!(e.to_string(), "unknown parameter lambda (known: c, eta)");
    }

    #[test]
    fn display_and_json_are_ordered_by_name() {
        let m: ParamMap = [("lambda", 0.5), ("eta", 2.0)].into_iter().collect();
        assert_eq!(m.to_string(), "eta=2 lambda=0.5");
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"eta":2.0,"lambda":0.5}"#
        );
        assert_eq!(ParamMap::new().to_string(), "-");
    }
}
