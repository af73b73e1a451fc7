//! The fast path of the LIBSVM line parser: one pass over the bytes of a line of the common form
//! (an integer or short decimal label, `INDEX:VALUE` tokens with short decimal values, no
//! comment, no `qid:`), with no error reporting of its own.
//!
//! Anything else, and every line that would be an error, is left to the full parser
//! (`LineParser::line` in `libsvm.rs`): [`simple_line`] returns `None` and the caller parses the
//! line again there, so the rows, the dimension and every error message are the full parser's.
//! What it does accept it reads exactly as the full parser does: the same tokens (split at
//! spaces and tabs), the same checks (indices strictly increasing, at least 1, at most
//! `u32::MAX` and the given dimension, values within [`crate::MAX_BOUNDED_VALUE`] when bounded),
//! explicit zeros dropped but counted in the dimension, and each number converted by the same
//! arithmetic as the fast path of `number::to_f64` (an integer of at most 19 digits and
//! $2^{53}$, divided by an exact power of ten of at most 22), so bit for bit the same `f64`
//! (the tests below compare the two on random strings).

use crate::number::POW10;

/// A line the fast path read: its label as written (not yet canonical) and its largest index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Simple {
    pub(crate) label: f64,
    /// The line's last (so largest) index counted from 1 (as written plus the shift), explicit
    /// zeros included; 0 without features.
    pub(crate) max_index: u64,
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Reads `[+-]? digits ('.' digits?)? | [+-]? '.' digits` at the start of `b`, ending at a space,
/// a tab or the end of `b`, with at most 19 digits in all, a mantissa of at most $2^{53}$ and at
/// most 22 digits after the point; the value and the bytes taken, or `None` (anything else:
/// another form, a longer number, trailing bytes).
#[inline(always)]
pub(crate) fn simple_number(b: &[u8]) -> Option<(f64, usize)> {
    // One digit (the `1` of one-hot data): the general case below gives `d * 10^0`, `d`.
    if let Some(&d) = b.first()
        && d.is_ascii_digit()
        && b.get(1).is_none_or(|&c| is_space(c))
    {
        return Some((f64::from(d - b'0'), 1));
    }
    let mut i = 0;
    let neg = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    while let Some(&c) = b.get(i)
        && c.is_ascii_digit()
    {
        digits += 1;
        if digits > 19 {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(c - b'0');
        i += 1;
    }
    let mut frac = 0usize;
    if b.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&c) = b.get(i)
            && c.is_ascii_digit()
        {
            digits += 1;
            if digits > 19 {
                return None;
            }
            mantissa = mantissa * 10 + u64::from(c - b'0');
            frac += 1;
            i += 1;
        }
    }
    if digits == 0 || frac > 22 || mantissa > 1 << 53 {
        return None;
    }
    if let Some(&c) = b.get(i)
        && !is_space(c)
    {
        return None;
    }
    let m = mantissa as f64;
    // As `number::fast_path`: `m * 10^0` for an integer, one division by an exact power of ten
    // otherwise; both are correctly rounded.
    let x = if frac == 0 {
        m * POW10[0]
    } else {
        m / POW10[frac]
    };
    Some((if neg { -x } else { x }, i))
}

/// The value and number `k` of the decimal digits `b` starts with, when `b` holds at least 8
/// bytes and `1 <= k <= 7`, read from its first 8 bytes at once (SWAR: no branch on the number of
/// digits, which varies from index to index and made the byte loop's exit a mispredicted branch);
/// `None` otherwise (the caller reads the digits one by one).
#[inline(always)]
fn leading_digits(b: &[u8]) -> Option<(u64, usize)> {
    let x = u64::from_le_bytes(b.get(..8)?.try_into().ok()?);
    // A byte is a digit when its high nibble is 3 and its low nibble at most 9; each byte of
    // `other` is 0 for a digit and has a bit of 0xF0 set otherwise (no carries across bytes:
    // a low nibble plus 6 stays below 0x100).
    let high = x & 0xF0F0_F0F0_F0F0_F0F0;
    let low = x & 0x0F0F_0F0F_0F0F_0F0F;
    let other =
        (high ^ 0x3030_3030_3030_3030) | ((low + 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0);
    // Little-endian: the first byte is the lowest.
    let k = (other.trailing_zeros() / 8) as usize;
    if k == 0 || k == 8 {
        return None;
    }
    // The k digits moved to the top bytes (zeros before them are leading zeros), then summed in
    // pairs, fours and eights.
    let d = low << (8 * (8 - k));
    let d = (d.wrapping_mul(10 * 256 + 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let d = (d.wrapping_mul(100 * 65536 + 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    let d = d.wrapping_mul(10000 * (1 << 32) + 1) >> 32;
    Some((d, k))
}

/// Parses `line` (without its line end) when it has the common form of the module docs,
/// appending its stored entries (0-based indices and non-zero values) to `indices` and `values`.
/// `shift` (1 for a 0-based file, else 0) is added to each index as written, which then counts
/// from 1.
///
/// `Some(None)`: a line of spaces and tabs only (no row). `Some(Some(_))`: a row. `None`: not
/// the common form or an error; entries may have been appended, which the caller removes before
/// it parses the line with the full parser.
pub(crate) fn simple_line(
    line: &[u8],
    dim_limit: Option<u64>,
    bounded: bool,
    shift: u64,
    indices: &mut Vec<u32>,
    values: &mut Vec<f64>,
) -> Option<Option<Simple>> {
    let n = line.len();
    let mut i = 0;
    while i < n && is_space(line[i]) {
        i += 1;
    }
    if i == n {
        return Some(None);
    }
    let (label, len) = simple_number(&line[i..])?;
    i += len;
    let limit = dim_limit.unwrap_or(u64::from(u32::MAX));
    let mut previous = 0u64;
    loop {
        while i < n && is_space(line[i]) {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        let index = match leading_digits(&line[i..]) {
            Some((index, k)) => {
                i += k;
                index
            }
            None => {
                let mut index = 0u64;
                while i < n && line[i].is_ascii_digit() {
                    index = index * 10 + u64::from(line[i] - b'0');
                    i += 1;
                    if i - start > 10 {
                        return None;
                    }
                }
                index
            }
        };
        let index = index + shift;
        if i == start || index <= previous || index > limit || line.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        let (x, len) = simple_number(&line[i..])?;
        if bounded && x.abs() > crate::MAX_BOUNDED_VALUE {
            return None;
        }
        i += len;
        previous = index;
        if x != 0.0 {
            // Fits: 1 <= index <= u32::MAX.
            indices.push((index - 1) as u32);
            values.push(x);
        }
    }
    Some(Some(Simple {
        label,
        max_index: previous,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::{Number, number};
    use proptest::prelude::*;

    /// What the full parser's number reader makes of `s` as a whole token.
    fn full(s: &[u8]) -> Option<f64> {
        match number(s) {
            Number::Finite(x, len) if len == s.len() => Some(x),
            _ => None,
        }
    }

    fn agree(s: &[u8]) {
        if let Some((x, len)) = simple_number(s) {
            assert_eq!(len, s.len(), "{:?}", String::from_utf8_lossy(s));
            let want = full(s).expect("the full parser reads what the fast path reads");
            assert_eq!(
                x.to_bits(),
                want.to_bits(),
                "{:?}",
                String::from_utf8_lossy(s)
            );
        }
    }

    #[test]
    fn common_values_take_the_fast_path_and_agree() {
        for s in [
            "1",
            "-1",
            "+1",
            "0",
            "-0",
            "0.5",
            ".5",
            "5.",
            "0.1",
            "0.3",
            "123.456",
            "1e3",
            "9007199254740992",
            "9007199254740993",
            "0.0000000000000000000001",
            "0.00000000000000000000001",
            "1234567890123456789",
            "12345678901234567890",
        ] {
            agree(s.as_bytes());
        }
        assert_eq!(simple_number(b"1"), Some((1.0, 1)));
        assert_eq!(simple_number(b"-0.25 "), Some((-0.25, 5)));
        assert_eq!(simple_number(b"1e3"), None);
        assert_eq!(simple_number(b"."), None);
        assert_eq!(simple_number(b"-"), None);
        assert_eq!(simple_number(b"1x"), None);
        assert_eq!(simple_number(b"nan"), None);
    }

    #[test]
    fn lines_of_the_common_form() {
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        let got = simple_line(b" -1 3:1\t7:0 10:0.5 ", None, false, 0, &mut ix, &mut vs);
        assert_eq!(
            got,
            Some(Some(Simple {
                label: -1.0,
                max_index: 10
            }))
        );
        assert_eq!((ix, vs), (vec![2, 9], vec![1.0, 0.5]));
        // 0-based: index 0 is the first feature, and the dimension is the last index plus one.
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        let got = simple_line(b"1 0:2 9:1", Some(10), false, 1, &mut ix, &mut vs);
        assert_eq!(got.map(|r| r.map(|r| r.max_index)), Some(Some(10)));
        assert_eq!((ix, vs), (vec![0, 9], vec![2.0, 1.0]));
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        assert_eq!(
            simple_line(b"1 10:1", Some(10), false, 1, &mut ix, &mut vs),
            None
        );
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        assert_eq!(
            simple_line(b" \t", None, false, 0, &mut ix, &mut vs),
            Some(None)
        );
        for bad in [
            "1 2:1 2:1",
            "1 3:1 2:1",
            "1 0:1",
            "1 4294967296:1",
            "1 11:1",
            "1 2:1 # c",
            "1 qid:3 2:1",
            "1 2:",
            "1 2",
            "1 :1",
            "x 2:1",
            "1 2:1e1",
        ] {
            let (mut ix, mut vs) = (Vec::new(), Vec::new());
            assert_eq!(
                simple_line(bad.as_bytes(), Some(10), false, 0, &mut ix, &mut vs),
                None,
                "{bad}"
            );
        }
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        assert_eq!(
            simple_line(b"1 2:1e300", None, true, 0, &mut ix, &mut vs),
            None
        );
    }

    /// [`leading_digits`] by the byte loop.
    fn digits_one_by_one(b: &[u8]) -> Option<(u64, usize)> {
        let k = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let value = b[..k]
            .iter()
            .fold(0u64, |v, &c| v * 10 + u64::from(c - b'0'));
        (b.len() >= 8 && (1..=7).contains(&k)).then_some((value, k))
    }

    #[test]
    fn leading_digits_of_common_indices() {
        assert_eq!(leading_digits(b"1048576:1"), Some((1_048_576, 7)));
        assert_eq!(leading_digits(b"7:1 8:1 "), Some((7, 1)));
        assert_eq!(leading_digits(b"0012:1  "), Some((12, 4)));
        assert_eq!(leading_digits(b"12345678:1"), None);
        assert_eq!(leading_digits(b":1 2:1 3"), None);
        assert_eq!(leading_digits(b"12:1"), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn leading_digits_agree_with_the_byte_loop(
            s in proptest::collection::vec(proptest::sample::select(
                b"0123456789:/;. \t\x00\x7f\x80\xb9\xba\xff\x30\x39\x3a\x2f\xf0\xf9".to_vec()), 0..12),
            digits in "[0-9]{0,9}",
        ) {
            let mut b = digits.into_bytes();
            b.extend_from_slice(&s);
            prop_assert_eq!(leading_digits(&b), digits_one_by_one(&b));
        }

        #[test]
        fn agrees_with_the_full_number_reader(s in "[-+]?[0-9]{0,21}(\\.[0-9]{0,24})?") {
            agree(s.as_bytes());
        }

        #[test]
        fn agrees_on_any_short_bytes(s in proptest::collection::vec(
            proptest::sample::select(b"0123456789.-+eE \tx".to_vec()), 0..12)) {
            // A token never holds a space or tab; a fast read ends before one.
            if let Some((x, len)) = simple_number(&s) {
                let want = full(&s[..len]).expect("read by the full parser");
                prop_assert_eq!(x.to_bits(), want.to_bits());
                prop_assert!(len == s.len() || is_space(s[len]));
            }
        }

        #[test]
        fn agrees_on_short_decimals(m in 0u64..=(1u64 << 53), frac in 0usize..=22, neg: bool) {
            let digits = m.to_string();
            let s = if frac == 0 {
                digits
            } else {
                let padded = format!("{digits:0>width$}", width = frac + 1);
                let (a, b) = padded.split_at(padded.len() - frac);
                format!("{a}.{b}")
            };
            let s = if neg { format!("-{s}") } else { s };
            agree(s.as_bytes());
        }
    }
}
