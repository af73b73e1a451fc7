//! Parameter checks, run once when a learner is built (unchecked params never reach an algorithm).
//!
//! ```
//! use auc_core::check;
//! assert!(check::positive("eta", 0.5).is_ok());
//! assert!(check::positive("eta", 0.0).is_err());
//! ```

use crate::{ParamError, StateError};

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
}
