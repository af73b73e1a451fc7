//! Parameter grids as written on the command line, and their cartesian product (conventions section 8).
//!
//! One axis is `NAME=SPEC`, where `SPEC` is one of
//!
//! | form | values |
//! |---|---|
//! | `2^a..2^b` | $2^a, 2^{a+1}, \dots, 2^b$ (integers $a \le b$, may be negative) |
//! | `2^a..2^b:s` | $2^a, 2^{a+s}, \dots$ up to $2^b$ (integer step $s \ge 1$) |
//! | `v1,v2,...` | the listed finite numbers (`0.5`, `1e-3`, `2^-3`) or words (`fifo`, `true`), at least one, no repeats |
//!
//! and `NAME` is lower case, `[a-z][a-z0-9_]*`, like every parameter name in
//! [`auc_core::ParamSpec`]. The papers' grid $2^{[-10..10]}$ for $\eta$ is `eta=2^-10..2^10`.
//!
//! ```
//! use auc_eval::grid::{expand, parse_grid_arg};
//! let axes = [parse_grid_arg("eta=2^-1..2^1").unwrap(), parse_grid_arg("lambda=0,1").unwrap()];
//! let points = expand(&axes).unwrap();
//! assert_eq!(points.len(), 6);
//! assert_eq!(points[1].to_string(), "eta=0.5 lambda=1");
//! ```

use std::fmt;

use auc_core::{ParamMap, ParamValue};

/// Largest absolute power-of-two exponent accepted: $2^{\pm 1000}$ is still a normal `f64`.
const MAX_EXPONENT: i32 = 1000;

/// Most grid points [`expand`] builds; more is a typo, not an experiment.
pub const MAX_GRID_POINTS: usize = 10_000_000;

/// One parameter and the values to try for it.
#[derive(Clone, Debug, PartialEq)]
pub struct GridAxis {
    /// The parameter's name.
    pub name: String,
    /// The values, in the order they are tried.
    pub values: Vec<ParamValue>,
}

/// Why a grid argument could not be parsed or expanded.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum GridError {
    /// No `=` between name and values.
    MissingEquals {
        /// The argument as given.
        input: String,
    },
    /// The name is not `[a-z][a-z0-9_]*`.
    BadName {
        /// The argument as given.
        input: String,
        /// The name part.
        name: String,
    },
    /// A list item is not a finite number.
    BadNumber {
        /// The argument as given.
        input: String,
        /// The offending item.
        token: String,
    },
    /// An exponent of a `2^a..2^b` range is not an integer in `[-1000, 1000]`.
    BadExponent {
        /// The argument as given.
        input: String,
        /// The offending exponent.
        token: String,
    },
    /// The step of a `2^a..2^b:s` range is not an integer `>= 1`.
    BadStep {
        /// The argument as given.
        input: String,
        /// The offending step.
        token: String,
    },
    /// A range `2^a..2^b` with `a > b`.
    EmptyRange {
        /// The argument as given.
        input: String,
        /// First exponent.
        from: i32,
        /// Last exponent.
        to: i32,
    },
    /// The same value is listed twice on one axis.
    RepeatedValue {
        /// The argument as given.
        input: String,
        /// The value as printed.
        value: String,
    },
    /// Two axes have the same name.
    RepeatedName {
        /// The name.
        name: String,
    },
    /// The cartesian product has more than [`MAX_GRID_POINTS`] points.
    TooLarge {
        /// The product of the axis lengths (saturating).
        points: usize,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::MissingEquals { input } => {
                write!(
                    f,
                    "grid `{input}`: expected NAME=VALUES, e.g. eta=2^-10..2^10 or c=0.1,1,10"
                )
            }
            GridError::BadName { input, name } => write!(
                f,
                "grid `{input}`: name `{name}` must start with a lower-case letter and hold only \
                 a-z, 0-9 and _"
            ),
            GridError::BadNumber { input, token } => {
                write!(
                    f,
                    "grid `{input}`: `{token}` is neither a finite number nor a lower-case word"
                )
            }
            GridError::BadExponent { input, token } => write!(
                f,
                "grid `{input}`: exponent `{token}` must be an integer between -{MAX_EXPONENT} and \
                 {MAX_EXPONENT}"
            ),
            GridError::BadStep { input, token } => {
                write!(f, "grid `{input}`: step `{token}` must be an integer >= 1")
            }
            GridError::EmptyRange { input, from, to } => {
                write!(
                    f,
                    "grid `{input}`: range 2^{from}..2^{to} is empty ({from} > {to})"
                )
            }
            GridError::RepeatedValue { input, value } => {
                write!(f, "grid `{input}`: value {value} is listed twice")
            }
            GridError::RepeatedName { name } => write!(f, "grid parameter `{name}` is given twice"),
            GridError::TooLarge { points } => write!(
                f,
                "the grid has {points} points, more than the limit of {MAX_GRID_POINTS}; use a \
                 coarser step (2^a..2^b:s)"
            ),
        }
    }
}

impl std::error::Error for GridError {}

/// Whether `name` is `[a-z][a-z0-9_]*`.
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Parses an exponent of a power of two.
fn exponent(input: &str, token: &str) -> Result<i32, GridError> {
    let bad = || GridError::BadExponent {
        input: input.to_owned(),
        token: token.to_owned(),
    };
    let e: i32 = token.trim().parse().map_err(|_| bad())?;
    if e.abs() > MAX_EXPONENT {
        return Err(bad());
    }
    Ok(e)
}

/// Parses one list item: a finite number, or `2^k` for an integer `k`.
/// Whether two grid values are the same point (numbers by their bits, `0` and `-0` alike).
fn same(a: &ParamValue, b: &ParamValue) -> bool {
    match (a, b) {
        (ParamValue::Num(x), ParamValue::Num(y)) => {
            x.to_bits() == y.to_bits() || (*x == 0.0 && *y == 0.0)
        }
        _ => a == b,
    }
}

/// A list item: a number as [`number`] reads it, else a lower-case word (a choice such as
/// `fifo`, or `true`/`false`).
fn value(input: &str, token: &str) -> Result<ParamValue, GridError> {
    match number(input, token) {
        Ok(v) => Ok(ParamValue::Num(v)),
        Err(e) => {
            let t = token.trim();
            let non_finite_number = t.parse::<f64>().is_ok();
            if !non_finite_number
                && (valid_name(t) || (t.contains('-') && valid_name(&t.replace('-', "_"))))
            {
                Ok(ParamValue::from_text(t))
            } else {
                Err(e)
            }
        }
    }
}

fn number(input: &str, token: &str) -> Result<f64, GridError> {
    let t = token.trim();
    if let Some(e) = t.strip_prefix("2^") {
        return Ok(2f64.powi(exponent(input, e)?));
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(GridError::BadNumber {
            input: input.to_owned(),
            token: t.to_owned(),
        }),
    }
}

/// Parses `2^a..2^b` or `2^a..2^b:s` (the caller has checked for the `..`).
fn power_range(input: &str, spec: &str) -> Result<Vec<f64>, GridError> {
    let (range, step) = match spec.split_once(':') {
        Some((r, s)) => {
            let bad = || GridError::BadStep {
                input: input.to_owned(),
                token: s.to_owned(),
            };
            let step: i64 = s.trim().parse().map_err(|_| bad())?;
            if step < 1 {
                return Err(bad());
            }
            (r, step)
        }
        None => (spec, 1),
    };
    let (lo, hi) = range.split_once("..").unwrap_or((range, ""));
    let power = |side: &str| -> Result<i32, GridError> {
        match side.trim().strip_prefix("2^") {
            Some(e) => exponent(input, e),
            None => Err(GridError::BadExponent {
                input: input.to_owned(),
                token: side.to_owned(),
            }),
        }
    };
    let (from, to) = (power(lo)?, power(hi)?);
    if from > to {
        return Err(GridError::EmptyRange {
            input: input.to_owned(),
            from,
            to,
        });
    }
    let (from, to) = (i64::from(from), i64::from(to));
    Ok((from..=to)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .map(|e| 2f64.powi(e as i32))
        .collect())
}

/// Parses one `NAME=SPEC` argument; see the [module docs](self) for the forms of `SPEC`.
///
/// Errors quote the argument and say which part is wrong.
pub fn parse_grid_arg(s: &str) -> Result<GridAxis, GridError> {
    let (name, spec) = s.split_once('=').ok_or_else(|| GridError::MissingEquals {
        input: s.to_owned(),
    })?;
    let name = name.trim();
    if !valid_name(name) {
        return Err(GridError::BadName {
            input: s.to_owned(),
            name: name.to_owned(),
        });
    }
    let values = if spec.contains("..") {
        power_range(s, spec)?
            .into_iter()
            .map(ParamValue::Num)
            .collect()
    } else {
        let values = spec
            .split(',')
            .map(|t| value(s, t))
            .collect::<Result<Vec<ParamValue>, _>>()?;
        for (i, v) in values.iter().enumerate() {
            // Exact repeats only: 0.1 and 0.1000001 are different grid points.
            if values[..i].iter().any(|u| same(u, v)) {
                return Err(GridError::RepeatedValue {
                    input: s.to_owned(),
                    value: v.to_string(),
                });
            }
        }
        values
    };
    Ok(GridAxis {
        name: name.to_owned(),
        values,
    })
}

/// Every combination of one value per axis, as parameter maps, in axis order: the first axis
/// varies slowest, the last fastest.
///
/// No axes give one empty map (run the base parameters once). Errors on a repeated axis name or
/// when the product exceeds [`MAX_GRID_POINTS`]. An axis with no values gives no points.
pub fn expand(axes: &[GridAxis]) -> Result<Vec<ParamMap>, GridError> {
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.name == a.name) {
            return Err(GridError::RepeatedName {
                name: a.name.clone(),
            });
        }
    }
    let points = axes
        .iter()
        .fold(1usize, |acc, a| acc.saturating_mul(a.values.len()));
    if points > MAX_GRID_POINTS {
        return Err(GridError::TooLarge { points });
    }
    let mut out = vec![ParamMap::new()];
    for axis in axes {
        let mut next = Vec::with_capacity(out.len() * axis.values.len());
        for base in &out {
            for v in &axis.values {
                let mut m = base.clone();
                m.set(axis.name.clone(), v.clone());
                next.push(m);
            }
        }
        out = next;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_param_spec_convention() {
        assert!(valid_name("beta1"));
        assert!(valid_name("n_loc"));
        assert!(!valid_name(""));
        assert!(!valid_name("1eta"));
        assert!(!valid_name("Eta"));
        assert!(!valid_name("_eta"));
        assert!(!valid_name("et-a"));
    }

    #[test]
    fn large_steps_stop_at_the_last_exponent() {
        let axis = parse_grid_arg("c=2^-1000..2^1000:999").unwrap();
        assert_eq!(
            axis.values,
            [2f64.powi(-1000), 2f64.powi(-1), 2f64.powi(998)].map(ParamValue::Num)
        );
        let axis = parse_grid_arg("c=2^0..2^0:9223372036854775807").unwrap();
        assert_eq!(axis.values, [ParamValue::Num(1.0)]);
    }
}
