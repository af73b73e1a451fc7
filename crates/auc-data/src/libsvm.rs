//! The LIBSVM / svmlight text format, parsed with nom one line at a time (SPEC section 1).
//!
//! A line is `LABEL (INDEX:VALUE | qid:N)*`, tokens separated by spaces or tabs, with `#` starting
//! a comment that runs to the end of the line. Blank, whitespace-only and comment-only lines are
//! skipped; CRLF line ends are accepted. Indices are 1-based and strictly increasing within a line.
//!
//! Where an error points (the column of [`crate::DataError::Parse`]):
//! - label errors, and index errors (not a number, 0, too large, out of order, duplicate, missing
//!   `:` or value): the first byte of the token;
//! - value errors (not a number, not finite): the first byte after `:`;
//! - bytes after a number (`3:0.5x`): the first such byte.

use std::io::BufRead;

use nom::bytes::complete::{tag, take_while};
use nom::{IResult, Offset, Parser};

use crate::lines::Lines;
use crate::number::{Number, number, token, whole_number};
use crate::raw::{RawData, canonical};
use crate::{DataError, ParseErrorKind, ReadOptions};

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn spaces(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    take_while(is_space).parse(input)
}

fn qid(input: &[u8]) -> IResult<&[u8], &[u8], ()> {
    tag("qid:").parse(input)
}

/// CSR arrays being filled, one line at a time.
struct Builder {
    labels: Vec<f64>,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f64>,
    /// Largest 1-based index seen, explicit zeros included.
    max_index: u64,
    /// Largest 1-based index allowed (the given dimension), if any.
    dim_limit: Option<u64>,
}

/// A parse error as an offset into the line and a kind; the caller adds file and line.
type LineError = (usize, ParseErrorKind);

impl Builder {
    /// Parses one line (without its line end). Appends a row unless the line holds no data.
    fn line(&mut self, line: &[u8]) -> Result<(), LineError> {
        let content = match line.iter().position(|&b| b == b'#') {
            Some(k) => &line[..k],
            None => line,
        };
        // Where a sub-slice of the line starts.
        let at = |part: &[u8]| line.offset(part);
        let (rest, _) = spaces(content).unwrap_or((content, &[]));
        let Ok((mut rest, label)) = token(rest) else {
            return Ok(());
        };
        let label = match whole_number(label) {
            Ok(Number::Finite(x, _)) => canonical(x),
            Ok(Number::NonFinite) => return Err((at(label), ParseErrorKind::NonFiniteLabel)),
            Ok(Number::Invalid) | Err(_) => return Err((at(label), ParseErrorKind::BadLabel)),
        };
        let start = self.indices.len();
        let mut previous = 0u64;
        loop {
            rest = spaces(rest).map_or(rest, |(r, _)| r);
            let Ok((after, tok)) = token(rest) else { break };
            rest = after;
            if qid(tok).is_ok() {
                continue;
            }
            match self.feature(tok, previous, &at) {
                Ok(index) => previous = index,
                Err(e) => {
                    self.indices.truncate(start);
                    self.values.truncate(start);
                    return Err(e);
                }
            }
        }
        self.labels.push(label);
        self.indptr.push(self.indices.len());
        Ok(())
    }

    /// Parses one `INDEX:VALUE` token, stores it if the value is not 0, and returns the index.
    fn feature(
        &mut self,
        tok: &[u8],
        previous: u64,
        at: &impl Fn(&[u8]) -> usize,
    ) -> Result<u64, LineError> {
        let err = |pos: &[u8], kind| Err((at(pos), kind));
        let digits = tok.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return err(tok, ParseErrorKind::BadIndex);
        }
        let mut index: u64 = 0;
        for &b in &tok[..digits] {
            index = index.saturating_mul(10).saturating_add(u64::from(b - b'0'));
        }
        if index > u64::from(u32::MAX) {
            return err(tok, ParseErrorKind::IndexOverflow);
        }
        let Ok((value, _)) = tag::<_, _, ()>(":").parse(&tok[digits..]) else {
            return err(tok, ParseErrorKind::MissingColon);
        };
        if index == 0 {
            return err(tok, ParseErrorKind::IndexZero);
        }
        if index == previous {
            return err(tok, ParseErrorKind::DuplicateIndex { index });
        }
        if index < previous {
            return err(tok, ParseErrorKind::IndexNotIncreasing { index, previous });
        }
        if let Some(dim) = self.dim_limit
            && index > dim
        {
            return err(
                tok,
                ParseErrorKind::IndexExceedsDim {
                    index,
                    dim: dim as usize,
                },
            );
        }
        if value.is_empty() {
            return err(tok, ParseErrorKind::MissingValue);
        }
        let x = match number(value) {
            Number::Finite(x, len) if len == value.len() => x,
            Number::Finite(_, len) => return err(&value[len..], ParseErrorKind::TrailingGarbage),
            Number::NonFinite => return err(value, ParseErrorKind::NonFiniteValue),
            Number::Invalid => return err(value, ParseErrorKind::BadValue),
        };
        self.max_index = self.max_index.max(index);
        if x != 0.0 {
            // Fits: index <= u32::MAX was checked above.
            self.indices.push((index - 1) as u32);
            self.values.push(x);
        }
        Ok(index)
    }
}

/// Reads LIBSVM text from `reader`, line by line into one reused buffer.
///
/// `source` names the input in errors. Honours `opts.dim` (every index must be at most `dim`, and
/// the result has exactly that dimension) and `opts.limit` (stop after that many examples);
/// `opts.format` and `opts.csv` are ignored. Lines are read as bytes, so invalid UTF-8 is reported as
/// a parse error at its column (or ignored inside a comment), never as a panic.
pub fn read_libsvm<R: BufRead>(
    reader: R,
    source: &str,
    opts: &ReadOptions,
) -> Result<RawData, DataError> {
    let mut b = Builder {
        labels: Vec::new(),
        indptr: vec![0],
        indices: Vec::new(),
        values: Vec::new(),
        max_index: 0,
        dim_limit: opts.dim.map(|d| d as u64),
    };
    let limit = opts.limit.unwrap_or(usize::MAX);
    let mut lines = Lines::new(reader, source);
    while b.labels.len() < limit {
        let Some((line_no, line)) = lines.next_line()? else {
            break;
        };
        b.line(line).map_err(|(offset, kind)| DataError::Parse {
            file: source.to_string(),
            line: line_no,
            col: offset + 1,
            kind,
        })?;
    }
    let dim = opts.dim.unwrap_or(b.max_index as usize);
    Ok(RawData::from_csr(
        b.labels, dim, b.indptr, b.indices, b.values,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::Row;

    fn check(input: &str, labels: &[f64], rows: &[&[(u32, f64)]], dim: usize) {
        let d = read_libsvm(input.as_bytes(), "t", &ReadOptions::default()).unwrap();
        assert_eq!(d.raw_labels(), labels);
        assert_eq!(d.dim(), dim);
        for (i, want) in rows.iter().enumerate() {
            let Row::Sparse(r) = d.row(i) else {
                panic!("sparse storage expected")
            };
            let got: Vec<(u32, f64)> = r
                .indices()
                .iter()
                .copied()
                .zip(r.values().to_vec())
                .collect();
            assert_eq!(&got, want, "row {i}");
        }
    }

    #[test]
    fn explicit_zeros_are_dropped_but_count_for_the_dimension() {
        check("1 2:0 3:1 5:0\n", &[1.0], &[&[(2, 1.0)]], 5);
    }

    #[test]
    fn a_failed_line_leaves_no_partial_row() {
        let mut b = Builder {
            labels: vec![],
            indptr: vec![0],
            indices: vec![],
            values: vec![],
            max_index: 0,
            dim_limit: None,
        };
        assert!(b.line(b"1 1:1 2:x").is_err());
        assert!(b.indices.is_empty() && b.labels.is_empty());
    }
}
