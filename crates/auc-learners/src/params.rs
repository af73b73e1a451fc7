//! Typed parameters from untyped ones: a [`ParamMap`] (command line, grid point, JSON, Python
//! keyword arguments) becomes an algorithm's [`Params`] struct, with its defaults for every
//! name not given, each value checked against its spec's kind, and [`Params::check`] run once.
//!
//! The conversion goes through the struct's serde form (a JSON object), so the struct's field
//! names and the spec names cannot drift apart unnoticed: a spec without a field, or a field the
//! map cannot set, fails the registry's tests.

use auc_core::{ParamError, ParamKind, ParamMap, ParamSpec, ParamValue, Params};
use serde_json::{Map, Value};

/// The closest of `candidates` to `given` when it is close enough to be a likely typo.
pub(crate) fn suggest<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(given, c), c))
        .filter(|&(d, c)| d <= 2.max(c.len() / 3) && d < c.len().max(given.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The parameters of `P` for `map`: defaults for every name not given; unknown names, values
/// of the wrong kind and values out of range are errors naming the parameter.
pub(crate) fn typed<P: Params>(map: &ParamMap) -> Result<P, ParamError> {
    let p = typed_over(&P::default(), map)?.with_dependent_defaults(&|n| map.get(n).is_some());
    p.check()?;
    Ok(p)
}

/// As [`typed`], with `base`'s values for every name not given.
pub(crate) fn typed_over<P: Params>(base: &P, map: &ParamMap) -> Result<P, ParamError> {
    let mut fields = object(base);
    for (name, value) in map.iter() {
        let spec = P::SPECS
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| unknown(name, P::SPECS))?;
        fields.insert(name.to_owned(), to_json(spec, value)?);
    }
    let p: P = serde_json::from_value(Value::Object(fields)).map_err(|e| ParamError::BadValue {
        name: P::NAME.to_owned(),
        value: map.to_string(),
        expected: format!("parameters of {}: {e}", P::NAME),
    })?;
    p.check()?;
    Ok(p)
}

/// The error for a name no spec declares, with the known names and the closest one.
pub(crate) fn unknown(name: &str, specs: &[ParamSpec]) -> ParamError {
    ParamError::Unknown {
        name: name.to_owned(),
        known: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        suggestion: suggest(name, specs.iter().map(|s| s.name)).map(str::to_owned),
    }
}

/// `p`'s parameters as a JSON object: the fields its specs name (a type shared by several
/// algorithms, such as GAM-CVM's settings, may hold fields another algorithm reads; those keep
/// their defaults and are neither shown nor stored).
pub(crate) fn object<P: Params>(p: &P) -> Map<String, Value> {
    match serde_json::to_value(p) {
        Ok(Value::Object(m)) => m
            .into_iter()
            .filter(|(k, _)| P::SPECS.iter().any(|s| s.name == k))
            .collect(),
        // A parameter struct with no fields serializes as an empty object or unit.
        _ => Map::new(),
    }
}

/// `p`'s fields, in spec order, as untyped values (numbers, booleans, words).
pub(crate) fn to_map<P: Params>(p: &P) -> ParamMap {
    let fields = object(p);
    P::SPECS
        .iter()
        .filter_map(|s| fields.get(s.name).map(|v| (s.name, from_json(v))))
        .collect()
}

/// A JSON value of a parameter struct as an untyped value.
pub(crate) fn from_json(v: &Value) -> ParamValue {
    match v {
        Value::Bool(b) => ParamValue::Bool(*b),
        Value::Number(n) => ParamValue::Num(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => ParamValue::Word(s.clone()),
        other => ParamValue::Word(other.to_string()),
    }
}

/// The JSON value of `value` for a parameter of `spec`'s kind, or an error saying what the
/// parameter takes.
fn to_json(spec: &ParamSpec, value: &ParamValue) -> Result<Value, ParamError> {
    let bad = || ParamError::BadValue {
        name: spec.name.to_owned(),
        value: value.to_string(),
        expected: match spec.kind {
            ParamKind::Real(r) => format!("a number {}", r.describe()),
            other => other.describe(),
        },
    };
    match (spec.kind, value) {
        (ParamKind::Real(_), ParamValue::Num(v)) => {
            spec.check_real(*v)?;
            Ok(Value::from(*v))
        }
        (ParamKind::Integer { min }, ParamValue::Num(v)) => {
            if v.fract() != 0.0 || !v.is_finite() {
                return Err(bad());
            }
            if *v < min as f64 || *v > usize::MAX as f64 {
                return Err(ParamError::OutOfRange {
                    name: spec.name,
                    value: *v,
                    allowed: "an integer in range",
                });
            }
            Ok(Value::from(*v as u64))
        }
        (ParamKind::Bool, ParamValue::Bool(b)) => Ok(Value::Bool(*b)),
        // 0 and 1 as booleans, compared exactly: other numbers are not booleans.
        (ParamKind::Bool, ParamValue::Num(v)) if v.to_bits() == 0f64.to_bits() => {
            Ok(Value::Bool(false))
        }
        (ParamKind::Bool, ParamValue::Num(v)) if v.to_bits() == 1f64.to_bits() => {
            Ok(Value::Bool(true))
        }
        (ParamKind::Choice(words), ParamValue::Word(w)) if words.contains(&w.as_str()) => {
            Ok(Value::String(w.clone()))
        }
        (ParamKind::Choice(words), ParamValue::Word(w)) => Err(ParamError::BadValue {
            name: spec.name.to_owned(),
            value: w.clone(),
            expected: match suggest(w, words.iter().copied()) {
                Some(s) => format!("one of {} (did you mean {s}?)", words.join(", ")),
                None => format!("one of {}", words.join(", ")),
            },
        }),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_catch_typos_only() {
        let names = ["eta", "lambda", "beta1", "beta2", "epsilon"];
        assert_eq!(suggest("lamda", names), Some("lambda"));
        assert_eq!(suggest("beta3", names), Some("beta1"));
        assert_eq!(suggest("sigma", names), None);
        assert_eq!(suggest("opuac", ["opauc", "oauc-m"]), Some("opauc"));
        assert_eq!(suggest("xyz", ["opauc", "koil"]), None);
    }
}
