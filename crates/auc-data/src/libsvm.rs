//! The LIBSVM / svmlight text format, parsed with nom one line at a time (conventions section 1).
//!
//! A line is `LABEL (INDEX:VALUE | qid:N)*`, tokens separated by spaces or tabs, with `#` starting
//! a comment that runs to the end of the line. Blank, whitespace-only and comment-only lines are
//! skipped; CRLF line ends are accepted. Indices are 1-based (or 0-based, [`crate::ZeroBased`])
//! and strictly increasing within a line.
//!
//! Where an error points (the column of [`crate::DataError::Parse`]):
//! - label errors, and index errors (not a number, 0, too large, out of order, duplicate, missing
//!   `:` or value): the first byte of the token;
//! - value errors (not a number, not finite): the first byte after `:`;
//! - bytes after a number (`3:0.5x`): the first such byte;
//! - with feature hashing, a sum of folded values that overflows: the token whose value made it
//!   overflow;
//! - with feature crosses, a row of too many non-zeros or a cross that overflows: the line's
//!   first byte.

use std::io::BufRead;

use nom::bytes::complete::{tag, take_while};
use nom::{IResult, Offset, Parser};

use crate::cross::Crosses;
use crate::fast::simple_line;
use crate::hashing::{Hashed, LineError, fold_hashed};
use crate::input::{Decoded, io_error};
use crate::lines::{LineReadError, Lines};
use crate::number::{Number, number, token, whole_number};
use crate::raw::canonical;
use crate::zero_based::Ahead;
use crate::{DataError, ParseErrorKind, ReadOptions, ZeroBased};

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn spaces(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    take_while(is_space).parse(input)
}

fn qid(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    tag("qid:").parse(input)
}

/// The CSR arrays a chunk of rows is appended to.
pub(crate) struct Csr<'a> {
    pub(crate) labels: &'a mut Vec<f64>,
    pub(crate) indptr: &'a mut Vec<usize>,
    pub(crate) indices: &'a mut Vec<u32>,
    pub(crate) values: &'a mut Vec<f64>,
}

/// The line parser's state: the largest index so far, the limits, the index base and the
/// hashing scratch. Indices are counted from 1 inside: an index as written plus `shift`.
struct LineParser {
    /// Largest index seen (counted from 1), explicit zeros included.
    max_index: u64,
    /// Largest index (counted from 1) allowed (the given dimension), if any; not used with
    /// hashing.
    dim_limit: Option<u64>,
    /// `2^B - 1` with feature hashing.
    hash_mask: Option<u32>,
    /// The current row's folded entries, with hashing.
    scratch: Vec<Hashed>,
    /// The crossing of each row, with its reused buffer of pairs.
    crosses: Option<Crosses>,
    /// [`ReadOptions::bounded_values`].
    bounded: bool,
    /// 1 when the indices are 0-based, else 0.
    shift: u64,
    /// The lines of a window that decided the input is 1-based ([`ZeroBased::Auto`] on input
    /// read once), which an index 0 found later contradicts.
    window: Option<usize>,
}

impl LineParser {
    /// Parses one line (without its line end). Appends a row and returns `true` unless the line
    /// holds no data. On error nothing is appended.
    fn line(&mut self, line: &[u8], out: &mut Csr<'_>) -> Result<bool, LineError> {
        if self.hash_mask.is_none() && self.crosses.is_none() {
            let start = out.indices.len();
            let fast = simple_line(
                line,
                self.dim_limit,
                self.bounded,
                self.shift,
                out.indices,
                out.values,
            );
            match fast {
                Some(None) => return Ok(false),
                Some(Some(row)) => {
                    self.max_index = self.max_index.max(row.max_index);
                    out.labels.push(canonical(row.label));
                    out.indptr.push(out.indices.len());
                    return Ok(true);
                }
                // Not the common form, or an error: the full parser reads the line again.
                None => {
                    out.indices.truncate(start);
                    out.values.truncate(start);
                }
            }
        }
        self.full_line(line, out)
    }

    /// [`LineParser::line`] without the fast path: every form and every error.
    fn full_line(&mut self, line: &[u8], out: &mut Csr<'_>) -> Result<bool, LineError> {
        let content = match line.iter().position(|&b| b == b'#') {
            Some(k) => &line[..k],
            None => line,
        };
        // Where a sub-slice of the line starts.
        let at = |part: &[u8]| line.offset(part);
        let (rest, _) = spaces(content).unwrap_or((content, &[]));
        let Ok((mut rest, label)) = token(rest) else {
            return Ok(false);
        };
        let label = match whole_number(label) {
            Ok(Number::Finite(x, _)) => canonical(x),
            Ok(Number::NonFinite) => return Err((at(label), ParseErrorKind::NonFiniteLabel)),
            Ok(Number::Invalid) | Err(_) => return Err((at(label), ParseErrorKind::BadLabel)),
        };
        let start = out.indices.len();
        self.scratch.clear();
        let mut previous = 0u64;
        let result = loop {
            rest = spaces(rest).map_or(rest, |(r, _)| r);
            let Ok((after, tok)) = token(rest) else {
                break Ok(());
            };
            rest = after;
            if qid(tok).is_ok() {
                continue;
            }
            let (index, x) = match self.feature(tok, previous, &at) {
                Ok(f) => f,
                Err(e) => break Err(e),
            };
            previous = index;
            self.max_index = self.max_index.max(index);
            if x == 0.0 {
                continue;
            }
            // Fits: 1 <= index <= u32::MAX was checked, so index - 1 < u32::MAX.
            let j = (index - 1) as u32;
            match self.hash_mask {
                Some(mask) => self.scratch.push(Hashed {
                    index: j & mask,
                    seq: self.scratch.len(),
                    value: x,
                    at: at(tok),
                }),
                None => {
                    out.indices.push(j);
                    out.values.push(x);
                }
            }
        };
        let result = result
            .and_then(|()| match self.hash_mask {
                Some(_) => fold_hashed(&mut self.scratch, out.indices, out.values),
                None => Ok(()),
            })
            .and_then(|()| match &mut self.crosses {
                Some(c) => c.append(out.indices, out.values, start).map_err(|k| (0, k)),
                None => Ok(()),
            });
        if let Err(e) = result {
            out.indices.truncate(start);
            out.values.truncate(start);
            return Err(e);
        }
        out.labels.push(label);
        out.indptr.push(out.indices.len());
        Ok(true)
    }

    /// Parses one `INDEX:VALUE` token into the index counted from 1 (as written plus the
    /// shift) and the value.
    fn feature(
        &self,
        tok: &[u8],
        previous: u64,
        at: &impl Fn(&[u8]) -> usize,
    ) -> Result<(u64, f64), LineError> {
        let err = |pos: &[u8], kind| Err((at(pos), kind));
        let digits = tok.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return err(tok, ParseErrorKind::BadIndex);
        }
        let mut written: u64 = 0;
        for &b in &tok[..digits] {
            written = written
                .saturating_mul(10)
                .saturating_add(u64::from(b - b'0'));
        }
        let index = written.saturating_add(self.shift);
        if index > u64::from(u32::MAX) {
            return err(tok, ParseErrorKind::IndexOverflow);
        }
        let Ok((value, _)) = tag::<_, _, ()>(":").parse(&tok[digits..]) else {
            return err(tok, ParseErrorKind::MissingColon);
        };
        if index == 0 {
            return err(
                tok,
                match self.window {
                    Some(lines) => ParseErrorKind::LateIndexZero { lines },
                    None => ParseErrorKind::IndexZero,
                },
            );
        }
        if index == previous {
            return err(tok, ParseErrorKind::DuplicateIndex { index: written });
        }
        if index < previous {
            return err(
                tok,
                ParseErrorKind::IndexNotIncreasing {
                    index: written,
                    previous: previous - self.shift,
                },
            );
        }
        if let Some(dim) = self.dim_limit
            && index > dim
        {
            return err(
                tok,
                ParseErrorKind::IndexExceedsDim {
                    index: written,
                    dim: dim as usize,
                    zero_based: self.shift == 1,
                },
            );
        }
        if value.is_empty() {
            return err(tok, ParseErrorKind::MissingValue);
        }
        match number(value) {
            Number::Finite(x, len)
                if len == value.len() && self.bounded && x.abs() > crate::MAX_BOUNDED_VALUE =>
            {
                err(value, ParseErrorKind::ValueTooLarge)
            }
            Number::Finite(x, len) if len == value.len() => Ok((index, x)),
            Number::Finite(_, len) => err(&value[len..], ParseErrorKind::TrailingGarbage),
            Number::NonFinite => err(value, ParseErrorKind::NonFiniteValue),
            Number::Invalid => err(value, ParseErrorKind::BadValue),
        }
    }
}

/// Reads LIBSVM lines from a decoded input, a chunk at a time.
pub(crate) struct LibsvmParser<R> {
    lines: Lines<Decoded<R>>,
    gzip: bool,
    state: LineParser,
    /// The dimension every row is read into (given, or $2^B$ with hashing).
    fixed_dim: Option<usize>,
    ahead: Ahead,
}

impl<R: BufRead> LibsvmParser<R> {
    /// A parser of `input`, named `source` in errors, with the dimension rules of `opts`
    /// (already checked: `fixed_dim` is `opts.fixed_dim()`, `crosses` is `opts.crosses()`).
    /// With [`ZeroBased::Auto`] (input that could not be scanned first) the first lines are
    /// read here and decide the index base: 0-based when one of them holds an index 0. An
    /// error while reading them is raised after the rows before it.
    pub(crate) fn new(
        input: Decoded<R>,
        source: &str,
        opts: &ReadOptions,
        fixed_dim: Option<usize>,
        crosses: Option<Crosses>,
    ) -> Self {
        let hash_mask = opts.hash_bits.map(|b| (1u32 << b) - 1);
        let mut parser = Self {
            gzip: input.is_gzip(),
            lines: Lines::new(input, opts.max_line_bytes),
            state: LineParser {
                max_index: 0,
                dim_limit: if hash_mask.is_some() {
                    None
                } else {
                    opts.dim.map(|d| d as u64)
                },
                hash_mask,
                scratch: Vec::new(),
                crosses,
                bounded: opts.bounded_values,
                shift: u64::from(opts.zero_based == ZeroBased::Yes),
                window: None,
            },
            fixed_dim,
            ahead: Ahead::default(),
        };
        if opts.zero_based == ZeroBased::Auto {
            let gzip = parser.gzip;
            let found = parser
                .ahead
                .read(&mut parser.lines, |e| line_error(source, gzip, e));
            match found {
                (true, _) => parser.state.shift = 1,
                (false, lines) => parser.state.window = Some(lines),
            }
        }
        parser
    }

    /// Whether the indices are read 0-based.
    pub(crate) fn zero_based(&self) -> bool {
        self.state.shift == 1
    }

    /// The dimension so far: the given one, $2^B$ with hashing, or the largest index seen.
    pub(crate) fn dim(&self) -> usize {
        self.fixed_dim
            .unwrap_or(usize::try_from(self.state.max_index).unwrap_or(usize::MAX))
    }

    /// Bytes taken from the underlying reader.
    pub(crate) fn consumed(&self) -> u64 {
        self.lines.get_ref().consumed() + self.lines.held() as u64
    }

    /// Appends up to `max_rows` rows to `out`; returns how many (0 at the end of the input).
    pub(crate) fn read_rows(
        &mut self,
        source: &str,
        out: &mut Csr<'_>,
        max_rows: usize,
    ) -> Result<usize, DataError> {
        let mut rows = 0;
        while rows < max_rows {
            let (line_no, line) = if let Some(kept) = self.ahead.next() {
                kept?
            } else {
                let gzip = self.gzip;
                let line = self
                    .lines
                    .next_line()
                    .map_err(|e| line_error(source, gzip, e))?;
                match line {
                    Some(l) => l,
                    None => break,
                }
            };
            let added = self
                .state
                .line(line, out)
                .map_err(|(offset, kind)| DataError::Parse {
                    file: source.to_string(),
                    line: line_no,
                    col: offset + 1,
                    kind,
                })?;
            rows += usize::from(added);
        }
        Ok(rows)
    }
}

/// The [`DataError`] of a line that could not be read from `source`.
fn line_error(source: &str, gzip: bool, e: LineReadError) -> DataError {
    match e {
        LineReadError::Io(e) => io_error(source, gzip, e),
        LineReadError::TooLong { line, limit } => DataError::Parse {
            file: source.to_string(),
            line,
            col: limit.saturating_add(1),
            kind: ParseErrorKind::LineTooLong { limit },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_line_leaves_no_partial_row() {
        let mut p = LineParser {
            max_index: 0,
            dim_limit: None,
            hash_mask: None,
            scratch: Vec::new(),
            crosses: None,
            bounded: false,
            shift: 0,
            window: None,
        };
        let (mut labels, mut indptr, mut indices, mut values) = (vec![], vec![0], vec![], vec![]);
        let mut out = Csr {
            labels: &mut labels,
            indptr: &mut indptr,
            indices: &mut indices,
            values: &mut values,
        };
        assert!(p.line(b"1 1:1 2:x", &mut out).is_err());
        p.hash_mask = Some(1);
        assert!(p.line(b"1 1:1e308 3:1e308", &mut out).is_err());
        assert!(indices.is_empty() && labels.is_empty() && indptr == [0]);
    }

    fn parser(dim_limit: Option<u64>, bounded: bool, shift: u64) -> LineParser {
        LineParser {
            max_index: 0,
            dim_limit,
            hash_mask: None,
            scratch: Vec::new(),
            crosses: None,
            bounded,
            shift,
            window: None,
        }
    }

    type Parsed = (
        Result<bool, LineError>,
        u64,
        Vec<f64>,
        Vec<usize>,
        Vec<u32>,
        Vec<u64>,
    );

    /// The line parsed with or without the fast path: the outcome, the dimension and the rows.
    fn parse_with(
        line: &[u8],
        fast: bool,
        dim_limit: Option<u64>,
        bounded: bool,
        shift: u64,
    ) -> Parsed {
        let mut p = parser(dim_limit, bounded, shift);
        p.max_index = 3;
        let (mut labels, mut indptr, mut indices, mut values) = (vec![], vec![0], vec![], vec![]);
        let mut out = Csr {
            labels: &mut labels,
            indptr: &mut indptr,
            indices: &mut indices,
            values: &mut values,
        };
        let r = match fast {
            true => p.line(line, &mut out),
            false => p.full_line(line, &mut out),
        };
        let bits = values.iter().map(|v| v.to_bits()).collect();
        (r, p.max_index, labels, indptr, indices, bits)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// The fast path changes nothing: the same rows, dimension, outcome and error position on
        /// lines of common tokens, near misses and garbage.
        #[test]
        fn the_fast_path_reads_as_the_full_parser(
            tokens in proptest::collection::vec(
                "([0-9]{1,3}:[-+]?[0-9]{0,4}(\\.[0-9]{0,3})?|[0-9]{1,11}:1|[-+]?[0-9]{1,3}\
                 |qid:[0-9]|#x|[0-9.:eE+-]{1,5}| |\t|[0-9]{1,2}:1e[0-9])",
                0..8),
            dim in proptest::option::of(1u64..2000),
            bounded: bool,
            shift in 0u64..2,
        ) {
            let line = tokens.join(" ");
            let fast = parse_with(line.as_bytes(), true, dim, bounded, shift);
            let full = parse_with(line.as_bytes(), false, dim, bounded, shift);
            proptest::prop_assert_eq!(fast, full, "{:?}", line);
        }
    }
}
