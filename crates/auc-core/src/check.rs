//! Parameter checks, run once when a learner is built (unchecked params never reach an algorithm).
//!
//! ```
//! use auc_core::check;
//! assert!(check::positive("eta", 0.5).is_ok());
//! assert!(check::positive("eta", 0.0).is_err());
//! ```

use crate::{ParamError, ParamKind, ParamValue, Params, StateError};

/// Checks every field of `params` by name against its spec in [`Params::SPECS`]: a real in its
/// range (the error of [`crate::ParamSpec::check_real`]), an integer at or above its minimum, a
/// choice among its words. The default [`Params::check`]. A spec without a scalar field of its
/// name is an error too: the specs and the struct have drifted apart.
///
/// Fields are read through the struct's `Serialize` impl (a newtype around a struct, as
/// `#[serde(transparent)]` writes it, reads as the struct); fields no spec names are not read.
pub fn specs<P: Params>(params: &P) -> Result<(), ParamError> {
    let fields = crate::fields::read(params);
    for spec in P::SPECS {
        let value = fields
            .iter()
            .find(|(name, _)| *name == spec.name)
            .and_then(|(_, v)| v.as_ref());
        let bad = |value: String| ParamError::BadValue {
            name: spec.name.to_owned(),
            value,
            expected: spec.kind.describe(),
        };
        match (spec.kind, value) {
            (ParamKind::Real(_), Some(ParamValue::Num(v))) => {
                spec.check_real(*v)?;
            }
            (ParamKind::Integer { min }, Some(ParamValue::Num(v))) => {
                if *v < min as f64 {
                    return Err(bad(crate::shortest(*v)));
                }
            }
            (ParamKind::Bool, Some(ParamValue::Bool(_))) => {}
            (ParamKind::Choice(words), Some(ParamValue::Word(w))) => {
                if !words.contains(&w.as_str()) {
                    return Err(bad(w.clone()));
                }
            }
            (_, Some(other)) => return Err(bad(other.to_string())),
            (_, None) => return Err(bad("no such field".to_owned())),
        }
    }
    Ok(())
}

/// `value > 0` and finite.
pub fn positive(name: &'static str, value: f64) -> Result<f64, ParamError> {
    range(
        name,
        value,
        value > 0.0 && value.is_finite(),
        "finite and > 0",
    )
}

/// `value >= 0` and finite.
pub fn non_negative(name: &'static str, value: f64) -> Result<f64, ParamError> {
    range(
        name,
        value,
        value >= 0.0 && value.is_finite(),
        "finite and >= 0",
    )
}

/// `0 < value < 1`.
pub fn open_unit(name: &'static str, value: f64) -> Result<f64, ParamError> {
    range(name, value, value > 0.0 && value < 1.0, "in (0, 1)")
}

/// `0 <= value < 1`.
pub fn unit_half_open(name: &'static str, value: f64) -> Result<f64, ParamError> {
    range(name, value, (0.0..1.0).contains(&value), "in [0, 1)")
}

/// An integer `>= min` (given as `f64`, as every value in a [`crate::ParamMap`] is).
pub fn integer_at_least(
    name: &'static str,
    value: f64,
    min: u64,
    allowed: &'static str,
) -> Result<u64, ParamError> {
    let ok = value.is_finite()
        && value.fract() == 0.0
        && value >= min as f64
        && value <= u64::MAX as f64;
    range(name, value, ok, allowed).map(|v| v as u64)
}

/// Every value of `values` is finite (for decoded states).
pub fn finite(name: &str, values: &[f64]) -> Result<(), StateError> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(StateError::new(format!(
            "{name}[{i}] = {} is not finite",
            values[i]
        ))),
    }
}

/// `found == expected` for the length of a decoded array.
pub fn len(name: &str, found: usize, expected: usize) -> Result<(), StateError> {
    if found == expected {
        Ok(())
    } else {
        Err(StateError::new(format!(
            "{name} has {found} values where {expected} are expected"
        )))
    }
}

/// A decoded condition that must hold, described by `what` when it does not.
pub fn state(ok: bool, what: impl FnOnce() -> String) -> Result<(), StateError> {
    if ok {
        Ok(())
    } else {
        Err(StateError::new(what()))
    }
}

fn range(
    name: &'static str,
    value: f64,
    ok: bool,
    allowed: &'static str,
) -> Result<f64, ParamError> {
    if ok {
        Ok(value)
    } else {
        Err(ParamError::OutOfRange {
            name,
            value,
            allowed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_reject_nan_and_bounds() {
        assert!(positive("eta", f64::NAN).is_err());
        assert!(positive("eta", f64::INFINITY).is_err());
        assert_eq!(non_negative("lambda", 0.0), Ok(0.0));
        assert!(non_negative("lambda", -1e-300).is_err());
        assert!(open_unit("beta1", 1.0).is_err());
        assert!(open_unit("beta1", 0.0).is_err());
        assert_eq!(unit_half_open("beta1", 0.0), Ok(0.0));
        assert_eq!(integer_at_least("budget", 3.0, 1, "an integer >= 1"), Ok(3));
        assert!(integer_at_least("budget", 2.5, 1, "an integer >= 1").is_err());
        assert!(integer_at_least("budget", 0.0, 1, "an integer >= 1").is_err());
        let msg = positive("eta", -2.0).unwrap_err().to_string();
        assert_eq!(
            msg,
            "parameter eta = -2 is out of range: it must be finite and > 0"
        );
    }

    use crate::{Family, ParamSpec, Range};
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Removal {
        #[default]
        Fifo,
        Reservoir,
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        eta: f64,
        budget: usize,
        removal: Removal,
        average: bool,
        /// Not a parameter: read as no value, and no spec names it.
        extra: Vec<f64>,
    }

    /// As the GAM-CVM variants wrap their shared settings.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(transparent)]
    struct Wrapped(Inner);

    impl Default for Wrapped {
        fn default() -> Self {
            Self(Inner {
                eta: 0.5,
                budget: 2,
                removal: Removal::Fifo,
                average: false,
                extra: vec![1.0],
            })
        }
    }

    impl Params for Wrapped {
        const NAME: &'static str = "wrapped";
        const TITLE: &'static str = "Wrapped";
        const ABOUT: &'static str = "a test";
        const FAMILY: Family = Family::Linear;
        const SPECS: &'static [ParamSpec] = &[
            ParamSpec::real("eta", Range::Positive, "step"),
            ParamSpec::integer("budget", 1, "size"),
            ParamSpec::choice("removal", &["fifo", "reservoir"], "rule"),
            ParamSpec::boolean("average", "averaged"),
        ];
        const GRID: &'static [&'static str] = &[];
    }

    /// The default `Params::check` with `inner` changed by `change`.
    fn check_with(change: impl FnOnce(&mut Inner)) -> Result<(), ParamError> {
        let mut p = Wrapped::default();
        change(&mut p.0);
        p.check()
    }

    #[test]
    fn default_check_reads_every_field_by_name() {
        assert_eq!(check_with(|_| {}), Ok(()));
        assert_eq!(check_with(|p| p.removal = Removal::Reservoir), Ok(()));
        assert_eq!(
            check_with(|p| p.eta = -2.0).unwrap_err().to_string(),
            "parameter eta = -2 is out of range: it must be finite and > 0"
        );
        assert!(check_with(|p| p.eta = f64::NAN).is_err());
        assert_eq!(
            check_with(|p| p.budget = 0).unwrap_err().to_string(),
            "parameter budget = 0: expected an integer >= 1"
        );
    }

    #[test]
    fn a_spec_without_its_field_is_an_error() {
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        struct Drifted {
            etta: f64,
        }
        impl Params for Drifted {
            const NAME: &'static str = "drifted";
            const TITLE: &'static str = "Drifted";
            const ABOUT: &'static str = "a test";
            const FAMILY: Family = Family::Linear;
            const SPECS: &'static [ParamSpec] =
                &[ParamSpec::real("eta", Range::NonNegative, "step")];
            const GRID: &'static [&'static str] = &[];
        }
        let e = Drifted::default().check().unwrap_err().to_string();
        assert!(e.contains("no such field"), "{e}");
    }
}
