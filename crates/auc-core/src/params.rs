//! Parameters: the typed [`Params`] every algorithm declares once, in its own file, and the
//! untyped [`ParamMap`] in which values travel through command lines, grids and JSON records.
//!
//! An algorithm's parameters are a plain struct with public fields, `serde` (with
//! `deny_unknown_fields` and `default`), a [`Default`] whose values are documented with their
//! evidence, and [`Params::SPECS`]: one [`ParamSpec`] per field, with its kind, range and doc
//! line. Everything that enumerates algorithms (the command line's flags, `auc algos --json`,
//! grids, the Python layer) reads these constants; nobody keeps a second list.
//!
//! Validation runs in one place, [`Params::check`], whose default checks every field against its
//! spec's [`ParamKind`]; algorithms add cross-field rules by overriding it.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::ParamError;

/// One parameter value as typed on the command line, in a grid or in JSON: a number, a boolean
/// or a word (the lower-case name of an enum variant such as `fifo`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` or `false`.
    Bool(bool),
    /// Any number; integers are numbers with no fractional part.
    Num(f64),
    /// A word: the name of a choice.
    Word(String),
}

impl ParamValue {
    /// Reads a value as typed: a number if it parses as one (a power of two written `2^k`, an
    /// integer $|k| \le 1000$, as grids write it, included), `true`/`false` as booleans, else the
    /// word itself (trimmed).
    pub fn from_text(text: &str) -> Self {
        let t = text.trim();
        if let Ok(v) = t.parse::<f64>() {
            return ParamValue::Num(v);
        }
        if let Some(k) = t.strip_prefix("2^").and_then(|e| e.parse::<i32>().ok())
            && k.abs() <= 1000
        {
            return ParamValue::Num(2f64.powi(k));
        }
        match t {
            "true" => ParamValue::Bool(true),
            "false" => ParamValue::Bool(false),
            _ => ParamValue::Word(t.to_owned()),
        }
    }

    /// The number, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ParamValue::Num(v) => Some(*v),
            _ => None,
        }
    }
}

impl From<f64> for ParamValue {
    fn from(v: f64) -> Self {
        ParamValue::Num(v)
    }
}

impl From<bool> for ParamValue {
    fn from(v: bool) -> Self {
        ParamValue::Bool(v)
    }
}

impl From<&str> for ParamValue {
    fn from(v: &str) -> Self {
        ParamValue::Word(v.to_owned())
    }
}

impl fmt::Display for ParamValue {
    /// Numbers in the shortest form that reads back to the same `f64` (`0.25`, `1e-8`, `1024`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Num(v) => f.write_str(&crate::shortest(*v)),
            ParamValue::Word(w) => f.write_str(w),
        }
    }
}

/// Parameter values by name, ordered by name so that printing and hashing are deterministic.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ParamMap(BTreeMap<String, ParamValue>);

impl ParamMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value`, replacing any earlier value.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<ParamValue>) -> &mut Self {
        self.0.insert(name.into(), value.into());
        self
    }

    /// The value given for `name`, if any.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.0.get(name)
    }

    /// This map with every value of `other` set on top.
    pub fn merged(&self, other: &ParamMap) -> ParamMap {
        let mut out = self.clone();
        out.0
            .extend(other.0.iter().map(|(k, v)| (k.clone(), v.clone())));
        out
    }

    /// `(name, value)` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Whether no value is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of values set.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl<K: Into<String>, V: Into<ParamValue>> FromIterator<(K, V)> for ParamMap {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
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

/// The allowed values of a real parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// Finite and `> 0`.
    Positive,
    /// Finite and `>= 0`.
    NonNegative,
    /// In `(0, 1)`.
    OpenUnit,
    /// In `[0, 1)`.
    UnitHalfOpen,
    /// In `(0, 1]`.
    UnitOpenClosed,
    /// In `[0, 1]`.
    UnitClosed,
}

impl Range {
    /// Whether `v` is allowed.
    pub fn contains(self, v: f64) -> bool {
        match self {
            Range::Positive => v > 0.0 && v.is_finite(),
            Range::NonNegative => v >= 0.0 && v.is_finite(),
            Range::OpenUnit => v > 0.0 && v < 1.0,
            Range::UnitHalfOpen => (0.0..1.0).contains(&v),
            Range::UnitOpenClosed => v > 0.0 && v <= 1.0,
            Range::UnitClosed => (0.0..=1.0).contains(&v),
        }
    }

    /// The allowed set in words, as error messages and `auc algos` print it.
    pub fn describe(self) -> &'static str {
        match self {
            Range::Positive => "finite and > 0",
            Range::NonNegative => "finite and >= 0",
            Range::OpenUnit => "in (0, 1)",
            Range::UnitHalfOpen => "in [0, 1)",
            Range::UnitOpenClosed => "in (0, 1]",
            Range::UnitClosed => "in [0, 1]",
        }
    }
}

/// The type of a parameter and its allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A real number in a range (`f64` field).
    Real(Range),
    /// An integer of at least `min` (`usize` or `u64` field).
    Integer {
        /// The smallest allowed value.
        min: u64,
    },
    /// A boolean (`bool` field).
    Bool,
    /// One of these lower-case words (an enum field whose serde names they are).
    Choice(&'static [&'static str]),
}

impl ParamKind {
    /// The type in words: `real`, `integer`, `bool`, `choice`.
    pub fn type_name(self) -> &'static str {
        match self {
            ParamKind::Real(_) => "real",
            ParamKind::Integer { .. } => "integer",
            ParamKind::Bool => "bool",
            ParamKind::Choice(_) => "choice",
        }
    }

    /// The allowed values in words.
    pub fn describe(self) -> String {
        match self {
            ParamKind::Real(r) => r.describe().to_owned(),
            ParamKind::Integer { min } => format!("an integer >= {min}"),
            ParamKind::Bool => "true or false".to_owned(),
            ParamKind::Choice(words) => format!("one of {}", words.join(", ")),
        }
    }
}

/// What an algorithm says about one of its parameters. The default value is not repeated here:
/// it is the field's value in the parameter type's [`Default`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The field name, the paper's symbol in lower case: `eta`, `lambda`, `c`, `beta1`, ...
    pub name: &'static str,
    /// Its type and range.
    pub kind: ParamKind,
    /// One line for `auc algos` and docstrings: what it does, where it comes from, and the
    /// evidence for its default.
    pub doc: &'static str,
}

impl ParamSpec {
    /// A real parameter.
    pub const fn real(name: &'static str, range: Range, doc: &'static str) -> Self {
        Self {
            name,
            kind: ParamKind::Real(range),
            doc,
        }
    }

    /// An integer parameter of at least `min`.
    pub const fn integer(name: &'static str, min: u64, doc: &'static str) -> Self {
        Self {
            name,
            kind: ParamKind::Integer { min },
            doc,
        }
    }

    /// A boolean parameter.
    pub const fn boolean(name: &'static str, doc: &'static str) -> Self {
        Self {
            name,
            kind: ParamKind::Bool,
            doc,
        }
    }

    /// A choice among lower-case words.
    pub const fn choice(
        name: &'static str,
        words: &'static [&'static str],
        doc: &'static str,
    ) -> Self {
        Self {
            name,
            kind: ParamKind::Choice(words),
            doc,
        }
    }

    /// Checks a real value against this spec's range.
    pub fn check_real(&self, value: f64) -> Result<f64, ParamError> {
        match self.kind {
            ParamKind::Real(r) if r.contains(value) => Ok(value),
            ParamKind::Real(r) => Err(ParamError::OutOfRange {
                name: self.name,
                value,
                allowed: r.describe(),
            }),
            _ => Ok(value),
        }
    }
}

/// What kind of learner an algorithm is, for the front ends: which commands and options apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// A linear one-pass learner: trains from a stream, resumes, averages its iterates.
    Linear,
    /// A kernel one-pass learner on budgeted buffers: streams and resumes, no weight vector.
    Kernel,
    /// A batch learner: fitted on all its data at once, cannot resume.
    Batch,
}

impl Family {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Linear => "linear",
            Family::Kernel => "kernel",
            Family::Batch => "batch",
        }
    }
}

/// The typed, validated parameters of one algorithm: its identity (name, citation), its
/// parameters' specs and defaults, and its default search grid. Declared once, beside the
/// algorithm; the front ends enumerate the types that implement it through the registry.
pub trait Params:
    Clone + fmt::Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The algorithm's name: lower case, hyphenated, as typed after `--algo`. The only place
    /// the string lives.
    const NAME: &'static str;
    /// Other accepted names.
    const ALIASES: &'static [&'static str] = &[];
    /// The name papers and tables print (`OPAUC`, `OAUC-M_c`).
    const TITLE: &'static str;
    /// One line: what it does, with citation keys of `docs/references.md`.
    const ABOUT: &'static str;
    /// What kind of learner it is.
    const FAMILY: Family;
    /// One spec per field, in the order `auc algos` prints them.
    const SPECS: &'static [ParamSpec];
    /// The grid `auc train --tune` searches and reproductions start from, as `--grid` axes
    /// (`eta=2^-10..2^10:2`); empty when there is nothing to tune.
    const GRID: &'static [&'static str];
    /// The papers' full grid (conventions section 8), as `--grid` axes; defaults to [`Params::GRID`].
    const PAPER_GRID: &'static [&'static str] = Self::GRID;
    /// Parameters added after model files of this learner were first written whose default is
    /// not the fit those files had, each with the value that reproduces it (the blend's
    /// `weight_folds`, 0). Reading a model file that has no such parameter fills this value in
    /// before the defaults; empty for every learner whose defaults reproduce its old files.
    const VALUES_OF_OLDER_FILES: &'static [(&'static str, f64)] = &[];

    /// The one validation: every field in its spec's range, plus any rule across fields. Runs
    /// when a learner is built; unchecked parameters never reach an algorithm. (The registry's
    /// tests check that it rejects a value outside every real spec's range, so the two cannot
    /// drift apart.)
    ///
    /// The default, [`crate::check::specs`], checks every field by name against its spec; an
    /// algorithm with a rule the specs cannot state (an upper bound on an integer, a rule
    /// across fields) overrides it.
    fn check(&self) -> Result<(), ParamError> {
        crate::check::specs(self)
    }

    /// These parameters after the defaults that depend on another parameter: `given(name)`
    /// says whether the caller gave `name`, and a default left in place may then follow the
    /// other values (GAM-CVM's `epsilon` on landmarks, by measurement). Applied once, when the
    /// registry types a parameter map; itself for every learner without such a rule.
    fn with_dependent_defaults(self, given: &dyn Fn(&str) -> bool) -> Self {
        let _ = given;
        self
    }

    /// Whether the evaluation protocol's fit with these parameters is transductive: shown the
    /// rows it will score while it fits (GAM-CVM's `transductive`, [`crate::DynFit::fit_transductive`]).
    /// `false` for every learner without such a mode.
    fn is_transductive(&self) -> bool {
        false
    }

    /// These parameters with any transductive mode turned off: what a fit that saves a model
    /// of the training rows alone runs. Itself for every learner without such a mode.
    fn inductive(&self) -> Self {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_from_text_and_print_shortest() {
        assert_eq!(ParamValue::from_text(" 0.25 "), ParamValue::Num(0.25));
        assert_eq!(ParamValue::from_text("1e-8"), ParamValue::Num(1e-8));
        assert_eq!(ParamValue::from_text("true"), ParamValue::Bool(true));
        assert_eq!(
            ParamValue::from_text("fifo"),
            ParamValue::Word("fifo".into())
        );
        // Powers of two as grids write them; past 2^±1000 or not an integer, a word (refused
        // by the parameter's check, which names it).
        assert_eq!(
            ParamValue::from_text("2^-10"),
            ParamValue::Num(0.0009765625)
        );
        assert_eq!(ParamValue::from_text("2^3"), ParamValue::Num(8.0));
        assert_eq!(
            ParamValue::from_text("2^1001"),
            ParamValue::Word("2^1001".into())
        );
        assert_eq!(
            ParamValue::from_text("2^0.5"),
            ParamValue::Word("2^0.5".into())
        );
        assert_eq!(ParamValue::Num(1e-8).to_string(), "1e-8");
        assert_eq!(ParamValue::Num(1024.0).to_string(), "1024");
        assert_eq!(ParamValue::Num(0.1).to_string(), "0.1");
    }

    #[test]
    fn display_and_json_are_ordered_by_name() {
        let mut m: ParamMap = [("lambda", 0.5), ("eta", 2.0)].into_iter().collect();
        assert_eq!(m.to_string(), "eta=2 lambda=0.5");
        m.set("removal", "fifo");
        m.set("average", true);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"average":true,"eta":2.0,"lambda":0.5,"removal":"fifo"}"#
        );
        assert_eq!(ParamMap::new().to_string(), "-");
        let back: ParamMap = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn ranges_and_kinds_describe_themselves() {
        assert!(Range::Positive.contains(1e-300));
        assert!(!Range::Positive.contains(f64::INFINITY));
        assert!(!Range::NonNegative.contains(-1e-300));
        assert!(!Range::OpenUnit.contains(1.0));
        assert!(Range::UnitHalfOpen.contains(0.0));
        assert!(Range::UnitOpenClosed.contains(1.0));
        assert!(!Range::UnitOpenClosed.contains(0.0));
        assert!(!Range::UnitOpenClosed.contains(f64::NAN));
        assert_eq!(
            ParamKind::Choice(&["fifo", "reservoir"]).describe(),
            "one of fifo, reservoir"
        );
        let spec = ParamSpec::real("eta", Range::Positive, "step");
        assert_eq!(
            spec.check_real(-2.0).unwrap_err().to_string(),
            "parameter eta = -2 is out of range: it must be finite and > 0"
        );
    }
}
