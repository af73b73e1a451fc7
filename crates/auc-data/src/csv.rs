//! Delimited numeric text (CSV, TSV): one example per line, one column holding the label.
//!
//! Every field is a number; spaces around a field are ignored (tabs too, unless tab is the
//! delimiter). Blank lines are skipped and CRLF line ends are accepted. There is no quoting.
//! Columns of [`crate::DataError::Parse`] point at the first byte of the bad field (for a short row,
//! just past its end; for a long row, at the first extra field).

use std::io::BufRead;

use crate::lines::Lines;
use crate::number::{Number, whole_number};
use crate::raw::{RawData, canonical};
use crate::{DataError, LabelColumn, ParseErrorKind, ReadOptions};

/// `(offset, field)` pairs of `line` split at `delimiter`, each field trimmed of blanks.
fn fields(line: &[u8], delimiter: u8, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let blank = |b: u8| b == b' ' || (b == b'\t' && delimiter != b'\t');
    let mut start = 0;
    loop {
        let end = line[start..]
            .iter()
            .position(|&b| b == delimiter)
            .map_or(line.len(), |k| start + k);
        let (mut a, mut z) = (start, end);
        while a < z && blank(line[a]) {
            a += 1;
        }
        while z > a && blank(line[z - 1]) {
            z -= 1;
        }
        // An empty field is recorded at the place it was expected.
        out.push((a, z));
        if end == line.len() {
            break;
        }
        start = end + 1;
    }
}

/// Reads delimited numeric text from `reader`; see the module docs for the format.
///
/// `opts.csv` picks the delimiter, the header rule and the label column; `opts.dim` widens the rows
/// (an error if the file has more features); `opts.limit` stops after that many examples. The label
/// column is taken out and the remaining columns, in order, are the features. Storage is dense.
pub fn read_csv<R: BufRead>(
    reader: R,
    source: &str,
    opts: &ReadOptions,
) -> Result<RawData, DataError> {
    let csv = &opts.csv;
    let err = |line: usize, col: usize, kind| DataError::Parse {
        file: source.to_string(),
        line,
        col: col + 1,
        kind,
    };
    let limit = opts.limit.unwrap_or(usize::MAX);
    let mut labels = Vec::new();
    let mut values = Vec::new();
    // (number of fields, label column, dimension) once the first line has been seen.
    let mut shape: Option<(usize, usize, usize)> = None;
    let mut spans = Vec::new();
    let mut lines = Lines::new(reader, source);
    while labels.len() < limit {
        let Some((line_no, line)) = lines.next_line()? else {
            break;
        };
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        fields(line, csv.delimiter, &mut spans);
        let (nfields, label_col, dim) = match shape {
            Some(s) => s,
            None => {
                let header = csv.header.unwrap_or_else(|| {
                    spans.iter().any(|&(a, z)| {
                        a < z && !matches!(whole_number(&line[a..z]), Ok(Number::Finite(..)))
                    })
                });
                let nfields = spans.len();
                let label_col = match &csv.label {
                    LabelColumn::Index(i) if *i < nfields => *i,
                    LabelColumn::Index(i) => {
                        let kind = ParseErrorKind::LabelColumnOutOfRange {
                            index: *i,
                            fields: nfields,
                        };
                        return Err(err(line_no, 0, kind));
                    }
                    LabelColumn::Last => nfields - 1,
                    LabelColumn::Name(_) if !header => {
                        return Err(err(line_no, 0, ParseErrorKind::NoHeader));
                    }
                    LabelColumn::Name(name) => spans
                        .iter()
                        .position(|&(a, z)| &line[a..z] == name.as_bytes())
                        .ok_or_else(|| {
                            err(
                                line_no,
                                0,
                                ParseErrorKind::NoSuchColumn { name: name.clone() },
                            )
                        })?,
                };
                let found = nfields - 1;
                let dim = opts.dim.unwrap_or(found);
                if dim < found {
                    return Err(err(
                        line_no,
                        0,
                        ParseErrorKind::TooManyFeatures { found, dim },
                    ));
                }
                shape = Some((nfields, label_col, dim));
                if header {
                    continue;
                }
                (nfields, label_col, dim)
            }
        };
        if spans.len() != nfields {
            let col = if spans.len() > nfields {
                spans[nfields].0
            } else {
                line.len()
            };
            let kind = ParseErrorKind::FieldCount {
                expected: nfields,
                found: spans.len(),
            };
            return Err(err(line_no, col, kind));
        }
        for (k, &(a, z)) in spans.iter().enumerate() {
            if a == z {
                return Err(err(line_no, a, ParseErrorKind::EmptyField));
            }
            let is_label = k == label_col;
            let x = match whole_number(&line[a..z]) {
                Ok(Number::Finite(x, _)) => x,
                Ok(Number::NonFinite) if is_label => {
                    return Err(err(line_no, a, ParseErrorKind::NonFiniteLabel));
                }
                Ok(Number::NonFinite) => {
                    return Err(err(line_no, a, ParseErrorKind::NonFiniteValue));
                }
                _ if is_label => return Err(err(line_no, a, ParseErrorKind::BadLabel)),
                Ok(Number::Invalid) => return Err(err(line_no, a, ParseErrorKind::BadValue)),
                Err(off) => return Err(err(line_no, a + off, ParseErrorKind::TrailingGarbage)),
            };
            if is_label {
                labels.push(canonical(x));
            } else {
                values.push(x);
            }
        }
        values.resize(labels.len() * dim, 0.0);
    }
    let dim = shape.map_or(opts.dim.unwrap_or(0), |s| s.2);
    Ok(RawData::from_dense(labels, dim, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_trimmed_and_empty_fields_kept() {
        let mut spans = Vec::new();
        fields(b" 1 ,,2", b',', &mut spans);
        assert_eq!(spans, vec![(1, 2), (4, 4), (5, 6)]);
        fields(b"1\t 2", b'\t', &mut spans);
        assert_eq!(spans, vec![(0, 1), (3, 4)]);
    }
}
