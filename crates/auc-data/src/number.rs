//! Decimal numbers in data files: a nom recognizer for the syntax and a conversion that rounds
//! exactly like `str::parse::<f64>`.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{char, digit0, digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::{IResult, Parser};

/// The outcome of reading a number at the start of a byte string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    /// A finite number and the bytes it took.
    Finite(f64, usize),
    /// NaN or an infinity, spelled out (`nan`, `inf`, `infinity`) or by overflow (`1e999`).
    NonFinite,
    /// No number starts here.
    Invalid,
}

/// `[+-]? (digits ('.' digits?)? | '.' digits) ([eE] [+-]? digits)?`, the syntax `str::parse`
/// accepts for finite values. An `e` without exponent digits is left unconsumed.
fn decimal(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    recognize((
        opt(one_of("+-")),
        alt((
            recognize((digit1, opt((char('.'), digit0)))),
            recognize((char('.'), digit1)),
        )),
        opt((one_of("eE"), opt(one_of("+-")), digit1)),
    ))
    .parse(input)
}

/// `[+-]? (inf | infinity | nan)`, case-insensitive, as `str::parse` spells non-finite values.
fn non_finite_word(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    recognize((
        opt(one_of("+-")),
        alt((
            tag_no_case("infinity"),
            tag_no_case("inf"),
            tag_no_case("nan"),
        )),
    ))
    .parse(input)
}

/// Reads the longest number at the start of `input`.
pub(crate) fn number(input: &[u8]) -> Number {
    match decimal(input) {
        Ok((_, text)) => {
            let x = to_f64(text);
            if x.is_finite() {
                Number::Finite(x, text.len())
            } else {
                Number::NonFinite
            }
        }
        Err(_) if non_finite_word(input).is_ok() => Number::NonFinite,
        Err(_) => Number::Invalid,
    }
}

/// Reads `input` as one number and nothing else; `Err(offset)` gives where trailing bytes start.
pub(crate) fn whole_number(input: &[u8]) -> Result<Number, usize> {
    match number(input) {
        Number::Finite(_, len) if len < input.len() => Err(len),
        Number::NonFinite => match non_finite_word(input) {
            Ok((rest, _)) if !rest.is_empty() => Err(input.len() - rest.len()),
            _ => match decimal(input) {
                Ok((rest, _)) if !rest.is_empty() => Err(input.len() - rest.len()),
                _ => Ok(Number::NonFinite),
            },
        },
        other => Ok(other),
    }
}

/// Exact powers of ten representable in `f64`.
pub(crate) const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Converts text matched by [`decimal`] to the nearest `f64`.
///
/// Fast path (Clinger 1990): when the digits form an integer $m \le 2^{53}$ and the decimal exponent
/// $e$ has $|e| \le 22$, both $m$ and $10^{|e|}$ are exact doubles, so the single IEEE operation
/// $m \cdot 10^e$ or $m / 10^{-e}$ is correctly rounded. Everything else goes to `str::parse`.
fn to_f64(text: &[u8]) -> f64 {
    if let Some(x) = fast_path(text) {
        return x;
    }
    // `decimal` only matches ASCII, so the conversion to `str` cannot fail.
    std::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::NAN)
}

fn fast_path(text: &[u8]) -> Option<f64> {
    let (neg, mut rest) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    let mut exp: i64 = 0;
    let mut after_point = false;
    while let Some((&b, tail)) = rest.split_first() {
        match b {
            b'0'..=b'9' => {
                // Leading zeros do not count towards the 19 digits a u64 holds exactly.
                if mantissa != 0 || b != b'0' {
                    digits += 1;
                }
                if digits > 19 {
                    return None;
                }
                mantissa = mantissa * 10 + u64::from(b - b'0');
                if after_point {
                    exp -= 1;
                }
            }
            b'.' => after_point = true,
            _ => break,
        }
        rest = tail;
    }
    if let Some((_, tail)) = rest.split_first() {
        // An exponent, already checked by `decimal`: [eE] [+-]? digits.
        let (eneg, tail) = match tail.first() {
            Some(b'-') => (true, &tail[1..]),
            Some(b'+') => (false, &tail[1..]),
            _ => (false, tail),
        };
        let mut e: i64 = 0;
        for &b in tail {
            e = e * 10 + i64::from(b - b'0');
            if e > 1000 {
                return None;
            }
        }
        exp += if eneg { -e } else { e };
    }
    if mantissa > 1 << 53 {
        return None;
    }
    let m = mantissa as f64;
    let x = match exp {
        0..=22 => m * POW10[exp as usize],
        -22..=-1 => m / POW10[(-exp) as usize],
        _ if mantissa == 0 => 0.0,
        _ => return None,
    };
    Some(if neg { -x } else { x })
}

/// Bytes up to the first space or tab (at least one).
pub(crate) fn token(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    take_while1(|b: u8| b != b' ' && b != b'\t').parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Number) {
        assert_eq!(number(input.as_bytes()), expected, "input {input:?}");
    }

    #[test]
    fn recognizes_the_forms_str_parse_accepts() {
        check("1", Number::Finite(1.0, 1));
        check("+1", Number::Finite(1.0, 2));
        check("-1.5e2x", Number::Finite(-150.0, 6));
        check(".5", Number::Finite(0.5, 2));
        check("5.", Number::Finite(5.0, 2));
        check("1e", Number::Finite(1.0, 1));
        check("1e+", Number::Finite(1.0, 1));
        check("1E-3", Number::Finite(1e-3, 4));
        check("0e999999999999", Number::Finite(0.0, 14));
        check("1e999", Number::NonFinite);
        check("-inf", Number::NonFinite);
        check("NaN", Number::NonFinite);
        check("Infinity", Number::NonFinite);
        check(".", Number::Invalid);
        check("x1", Number::Invalid);
        check("", Number::Invalid);
        check("-", Number::Invalid);
    }

    #[test]
    fn whole_number_points_at_trailing_bytes() {
        assert_eq!(whole_number(b"0.5x"), Err(3));
        assert_eq!(whole_number(b"infx"), Err(3));
        assert_eq!(whole_number(b"1e999x"), Err(5));
        assert_eq!(whole_number(b"nan"), Ok(Number::NonFinite));
        assert_eq!(whole_number(b"2"), Ok(Number::Finite(2.0, 1)));
    }

    #[test]
    fn hard_cases_round_like_str_parse() {
        for s in [
            "9007199254740993",
            "0.1",
            "2.2250738585072011e-308",
            "4.9e-324",
            "1.7976931348623157e308",
            "123456789012345678901234567890",
            "0.000000000000000000000000000001",
            "1e22",
            "1e23",
            "9007199254740992e-22",
            "-0",
        ] {
            let want: f64 = s.parse().unwrap();
            assert_eq!(to_f64(s.as_bytes()).to_bits(), want.to_bits(), "{s}");
        }
    }
}
