//! Grid axes as the reproductions pass them to `auc cv --grid` and key their measurements.
//!
//! An axis is read by [`auc_eval::grid::parse_grid_arg`], the parser `auc` itself uses (so an
//! axis is accepted here exactly when `auc cv --grid` accepts it, with its errors). On top of its
//! values an [`Axis`] keeps what the defaults' measurements are keyed by: each value as a
//! [`Token`], `2^k` with its exponent on a power axis (`2^a..2^b[:s]`) and the text as written on
//! a list axis, and the power axis's step, by which an axis is extended past an end.
//! [`quick_axis`] is the harness's three-value version of an axis for `--quick`.

use auc_core::ParamValue;

/// Exponents of extended power axes stay within `2^-MAX_EXPONENT ..= 2^MAX_EXPONENT`.
const MAX_EXPONENT: i32 = 40;

/// One value of an axis, as passed to `--grid NAME=v1,v2`: `2^k` for powers of two on a power
/// axis, else the number or word as written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub(crate) text: String,
    /// The exponent, for `2^k`.
    pub(crate) exp: Option<i32>,
}

impl Token {
    pub(crate) fn power(k: i32) -> Self {
        Token {
            text: format!("2^{k}"),
            exp: Some(k),
        }
    }

    pub(crate) fn plain(text: &str) -> Self {
        Token {
            text: text.to_owned(),
            exp: None,
        }
    }

    /// The number this token stands for (`None` for a word).
    pub(crate) fn value(&self) -> Option<f64> {
        match self.exp {
            Some(k) => Some(2f64.powi(k)),
            None => number(&self.text),
        }
    }

    /// Whether this token stands for the JSON value `v`.
    pub(crate) fn is(&self, v: &serde_json::Value) -> bool {
        match (self.exp, v) {
            (Some(k), serde_json::Value::Number(n)) => n.as_f64() == Some(2f64.powi(k)),
            (None, serde_json::Value::Number(n)) => {
                let x = number(&self.text);
                x.is_some() && n.as_f64() == x
            }
            (None, serde_json::Value::Bool(b)) => self.text == b.to_string(),
            (None, serde_json::Value::String(s)) => &self.text == s,
            _ => false,
        }
    }

    /// The token for a default value `v` on an axis (`power`: a power-of-2 axis).
    fn of(v: &serde_json::Value, power: bool) -> Option<Self> {
        match v {
            serde_json::Value::Number(n) => {
                let x = n.as_f64()?;
                let k = x.log2().round();
                if power && x > 0.0 && 2f64.powi(k as i32).to_bits() == x.to_bits() {
                    Some(Token::power(k as i32))
                } else {
                    Some(Token::plain(&x.to_string()))
                }
            }
            serde_json::Value::Bool(b) => Some(Token::plain(&b.to_string())),
            serde_json::Value::String(s) => Some(Token::plain(s)),
            _ => None,
        }
    }
}

/// The number a list value stands for: a decimal, or `2^k` as `auc cv --grid` also reads it in
/// a list (`lambda=0,2^-16,2^-14`), whose JSON value would otherwise match no token.
fn number(text: &str) -> Option<f64> {
    match text.strip_prefix("2^") {
        Some(k) => k.parse::<i32>().ok().map(|k| 2f64.powi(k)),
        None => text.parse().ok(),
    }
}

/// The exponent `k` of a grid value that is exactly `2^k`.
fn exponent_of(v: &ParamValue) -> Option<i32> {
    let ParamValue::Num(x) = v else { return None };
    let k = x.log2().round() as i32;
    (*x > 0.0 && 2f64.powi(k).to_bits() == x.to_bits()).then_some(k)
}

/// One grid axis: a parameter and its values; `step` for an axis of powers of 2 (`2^a..2^b:s`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Axis {
    pub(crate) name: String,
    pub(crate) values: Vec<Token>,
    pub(crate) step: Option<i32>,
}

impl Axis {
    /// Reads a `--grid` axis of the registry, `NAME=2^a..2^b[:s]` or `NAME=v1,v2,..`, through
    /// [`auc_eval::grid::parse_grid_arg`].
    pub(crate) fn parse(arg: &str) -> Result<Self, String> {
        let axis = auc_eval::grid::parse_grid_arg(arg).map_err(|e| e.to_string())?;
        let spec = arg.split_once('=').map_or("", |(_, spec)| spec);
        if spec.contains("..") {
            // A power range: its values are 2^a, 2^(a+s), .. and its step is their exponents'
            // difference (1 when the range holds one power).
            let exps: Vec<i32> = axis
                .values
                .iter()
                .map(exponent_of)
                .collect::<Option<_>>()
                .ok_or_else(|| format!("grid axis `{arg}`: a range of non-powers"))?;
            let step = match exps.as_slice() {
                [a, b, ..] => b - a,
                _ => 1,
            };
            return Ok(Axis {
                name: axis.name,
                values: exps.into_iter().map(Token::power).collect(),
                step: Some(step),
            });
        }
        // A list: each value keeps the text it was written with, which keys the measurements.
        let values: Vec<Token> = spec.split(',').map(|t| Token::plain(t.trim())).collect();
        debug_assert_eq!(values.len(), axis.values.len(), "{arg}");
        Ok(Axis {
            name: axis.name,
            values,
            step: None,
        })
    }

    /// The `--grid` argument for these values.
    pub(crate) fn arg(&self) -> String {
        let vals: Vec<&str> = self.values.iter().map(|t| t.text.as_str()).collect();
        format!("{}={}", self.name, vals.join(","))
    }

    /// Three values (the ends and the middle), for `--quick`.
    pub(crate) fn thin(&self) -> Self {
        let n = self.values.len();
        let mut values: Vec<Token> = Vec::new();
        for i in [0, n / 2, n.saturating_sub(1)] {
            if let Some(v) = self.values.get(i)
                && !values.contains(v)
            {
                values.push(v.clone());
            }
        }
        Axis {
            values,
            ..self.clone()
        }
    }

    /// Adds the value `v` (the registry default) unless the axis has it; powers stay sorted.
    pub(crate) fn insert(&mut self, v: &serde_json::Value) {
        if self.values.iter().any(|t| t.is(v)) {
            return;
        }
        let Some(tok) = Token::of(v, self.step.is_some()) else {
            return;
        };
        match tok.exp {
            Some(k) => {
                let at = self
                    .values
                    .iter()
                    .position(|t| t.exp.is_some_and(|e| e > k))
                    .unwrap_or(self.values.len());
                self.values.insert(at, tok);
            }
            None => self.values.push(tok),
        }
    }

    /// The smallest and largest exponent of a power axis.
    fn ends(&self) -> Option<(i32, i32)> {
        let exps = self.values.iter().filter_map(|t| t.exp);
        Some((exps.clone().min()?, exps.max()?))
    }

    /// The tokens two steps past the end at `low` (or the high end), within `allowed` (the
    /// spec's range in words) and `2^±MAX_EXPONENT`; empty for a list axis.
    pub(crate) fn beyond(&self, low: bool, allowed: &str) -> Vec<Token> {
        let (Some(step), Some((lo, hi))) = (self.step, self.ends()) else {
            return Vec::new();
        };
        let upper_one_open = allowed.contains("1)");
        let upper_one_closed = allowed.contains("1]");
        (1..=2)
            .map(|i| if low { lo - i * step } else { hi + i * step })
            .filter(|k| k.abs() <= MAX_EXPONENT)
            .filter(|&k| !(upper_one_open && k >= 0 || upper_one_closed && k > 0))
            .map(Token::power)
            .collect()
    }

    /// Whether `tok` is the lowest (`Some(true)`) or highest (`Some(false)`) power of the axis.
    pub(crate) fn end_of(&self, tok: &Token) -> Option<bool> {
        let (lo, hi) = self.ends()?;
        match tok.exp? {
            k if k == lo => Some(true),
            k if k == hi => Some(false),
            _ => None,
        }
    }
}

/// The key of a point: `name=token` for every axis, in axis order.
fn key_of(axes: &[Axis], point: &[&Token]) -> String {
    axes.iter()
        .zip(point)
        .map(|(a, t)| format!("{}={}", a.name, t.text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every point of the product of `axes`, as keys, first axis slowest (the order of
/// [`auc_eval::grid::expand`]).
pub(crate) fn product(axes: &[Axis]) -> Vec<String> {
    let mut points: Vec<Vec<&Token>> = vec![Vec::new()];
    for a in axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                a.values.iter().map(move |t| {
                    let mut q = p.clone();
                    q.push(t);
                    q
                })
            })
            .collect();
    }
    points.iter().map(|p| key_of(axes, p)).collect()
}

/// The key of the point a JSON `params` object holds, if every axis has a token for it.
pub(crate) fn key_of_params(axes: &[Axis], params: &serde_json::Value) -> Option<String> {
    let toks: Option<Vec<&Token>> = axes
        .iter()
        .map(|a| a.values.iter().find(|t| t.is(&params[&a.name])))
        .collect();
    Some(key_of(axes, &toks?))
}

/// The harness's three-value version of a registry axis for `--quick`: a power range keeps its
/// ends as written with a step of 10 (`2^-10..2^10:2` becomes `2^-10..2^10:10`, three powers), a
/// list keeps its first, middle and last value.
pub(crate) fn quick_axis(axis: &str) -> String {
    let (name, spec) = axis.split_once('=').unwrap_or((axis, ""));
    if let Some((range, _)) = spec
        .split_once(':')
        .or(Some((spec, "")))
        .filter(|(r, _)| r.contains(".."))
    {
        return format!("{name}={range}:10");
    }
    let vals: Vec<&str> = spec.split(',').collect();
    let mut pick: Vec<&str> = [0, vals.len() / 2, vals.len() - 1]
        .iter()
        .map(|&i| vals[i])
        .collect();
    pick.dedup();
    format!("{name}={}", pick.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_extend_and_key_points() {
        let a = Axis::parse("c=2^-10..2^10:2").unwrap();
        assert_eq!(a.values.len(), 11);
        assert_eq!(a.values[0].text, "2^-10");
        assert_eq!(a.step, Some(2));
        assert_eq!(a.ends(), Some((-10, 10)));
        assert_eq!(
            a.beyond(true, "finite and > 0")
                .iter()
                .map(|t| t.text.clone())
                .collect::<Vec<_>>(),
            ["2^-12", "2^-14"]
        );
        // (0, 1]: 2^0 allowed, 2^2 not.
        let e = Axis::parse("eta=2^-4..2^-2:2").unwrap();
        let up: Vec<String> = e
            .beyond(false, "in (0, 1]")
            .iter()
            .map(|t| t.text.clone())
            .collect();
        assert_eq!(up, ["2^0"]);
        assert!(e.beyond(false, "in (0, 1)").is_empty());
        let l = Axis::parse("beta1=0.5,0.9").unwrap();
        assert_eq!(l.step, None);
        assert!(l.beyond(false, "in [0, 1)").is_empty());
        assert_eq!(l.arg(), "beta1=0.5,0.9");
        // The default is inserted in order and found again from JSON.
        let mut o = Axis::parse("lambda=2^-10..2^-2:4").unwrap();
        o.insert(&serde_json::json!(0.125));
        assert_eq!(o.arg(), "lambda=2^-10,2^-6,2^-3,2^-2");
        o.insert(&serde_json::json!(0.0009765625));
        assert_eq!(o.values.len(), 4);
        let mut n = Axis::parse("n_loc=8,32").unwrap();
        n.insert(&serde_json::json!(16));
        assert_eq!(n.arg(), "n_loc=8,32,16");
        let axes = [o, n];
        let points = product(&axes);
        assert_eq!(points.len(), 12);
        assert_eq!(points[0], "lambda=2^-10 n_loc=8");
        assert_eq!(points[2], "lambda=2^-10 n_loc=16");
        let params = serde_json::json!({"lambda": 0.125, "n_loc": 16, "other": 1});
        assert_eq!(
            key_of_params(&axes, &params).as_deref(),
            Some("lambda=2^-3 n_loc=16")
        );
        assert_eq!(
            key_of_params(&axes, &serde_json::json!({"lambda": 0.3})),
            None
        );
        let thin = Axis::parse("c=2^-10..2^10:2").unwrap().thin();
        assert_eq!(thin.arg(), "c=2^-10,2^0,2^10");
    }

    #[test]
    fn axes_hold_the_values_auc_reads_and_its_errors() {
        // A range's last power is the last one the step reaches, as `auc cv --grid` reads it.
        let a = Axis::parse("c=2^0..2^11:3").unwrap();
        assert_eq!(a.arg(), "c=2^0,2^3,2^6,2^9");
        assert_eq!(a.step, Some(3));
        // One power: step 1.
        assert_eq!(Axis::parse("c=2^4..2^4").unwrap().step, Some(1));
        // Words and numbers keep the text they were written with.
        assert_eq!(
            Axis::parse("removal=fifo,reservoir").unwrap().arg(),
            "removal=fifo,reservoir"
        );
        assert_eq!(Axis::parse("eps=1e-8,0.5").unwrap().arg(), "eps=1e-8,0.5");
        // What `auc` refuses is refused, with its message.
        let err = Axis::parse("c=2^3..2^1").unwrap_err();
        assert!(err.contains("is empty"), "{err}");
        assert!(Axis::parse("c").is_err());
        assert!(Axis::parse("c=1,1").is_err());
    }

    #[test]
    fn power_tokens_match_the_printed_value_exactly() {
        // The shortest form `auc` prints for 2^-24; without `float_roundtrip` serde_json read it
        // back one bit off, and the point was "outside the grid".
        let v: serde_json::Value = serde_json::from_str("5.960464477539063e-8").unwrap();
        assert!(Token::power(-24).is(&v));
        assert!(!Token::power(-23).is(&v));
    }

    #[test]
    fn powers_written_in_a_list_match_their_values() {
        // bal-adagrad's lambda axis is a list (0 is not a power) of powers written as `2^k`.
        let l = Axis::parse("lambda=0,2^-16,2^-4").unwrap();
        assert_eq!(l.step, None);
        assert_eq!(l.arg(), "lambda=0,2^-16,2^-4");
        let axes = [l];
        for (v, key) in [
            (0.0, "lambda=0"),
            (2f64.powi(-16), "lambda=2^-16"),
            (0.0625, "lambda=2^-4"),
        ] {
            assert_eq!(
                key_of_params(&axes, &serde_json::json!({ "lambda": v })).as_deref(),
                Some(key)
            );
        }
        assert_eq!(
            key_of_params(&axes, &serde_json::json!({"lambda": 0.125})),
            None
        );
    }

    #[test]
    fn quick_axes_keep_three_values() {
        assert_eq!(quick_axis("eta=2^-10..2^10:2"), "eta=2^-10..2^10:10");
        assert_eq!(quick_axis("lambda=2^-10..2^10"), "lambda=2^-10..2^10:10");
        assert_eq!(quick_axis("r=1,10,100,1000"), "r=1,100,1000");
        assert_eq!(quick_axis("beta1=0.5,0.9"), "beta1=0.5,0.9");
        assert_eq!(quick_axis("k=3"), "k=3");
    }
}
