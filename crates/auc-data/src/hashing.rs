//! Feature hashing's fold of one row, shared by the LIBSVM and CSV parsers: the entries of a row
//! ([`Hashed`]) summed by hashed index ([`fold_hashed`]), and the parsers' line-level error
//! ([`LineError`]) that a sum which overflows returns. See [`crate::ReadOptions::hash_bits`].

use crate::ParseErrorKind;

/// A parse error as an offset into the line (or record) and a kind; the caller adds file and line.
pub(crate) type LineError = (usize, ParseErrorKind);

/// One entry of a row being folded by feature hashing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hashed {
    /// The hashed index, $j \mathbin{\&} (2^B - 1)$.
    pub(crate) index: u32,
    /// Position in the row, so that colliding values are summed in the order they were written.
    pub(crate) seq: usize,
    /// The value (not 0).
    pub(crate) value: f64,
    /// Offset of the entry in its line, for errors.
    pub(crate) at: usize,
}

/// Sums the entries of one row that share a hashed index, in the order written, and appends the
/// non-zero sums in increasing index order. A sum that overflows is an error at the entry that
/// made it overflow. Sorts in place without allocating.
pub(crate) fn fold_hashed(
    row: &mut [Hashed],
    indices: &mut Vec<u32>,
    values: &mut Vec<f64>,
) -> Result<(), LineError> {
    row.sort_unstable_by_key(|h| (h.index, h.seq));
    let mut k = 0;
    while k < row.len() {
        let j = row[k].index;
        let mut sum = row[k].value;
        k += 1;
        while k < row.len() && row[k].index == j {
            sum += row[k].value;
            if !sum.is_finite() {
                return Err((row[k].at, ParseErrorKind::HashedSumNotFinite { index: j }));
            }
            k += 1;
        }
        if sum != 0.0 {
            indices.push(j);
            values.push(sum);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(index: u32, seq: usize, value: f64) -> Hashed {
        Hashed {
            index,
            seq,
            value,
            at: seq * 10,
        }
    }

    #[test]
    fn folding_sums_collisions_in_order_and_drops_zero_sums() {
        let mut row = [
            entry(3, 0, 1.0),
            entry(1, 1, 2.0),
            entry(3, 2, 0.5),
            entry(0, 3, -1.0),
            entry(0, 4, 1.0),
        ];
        let (mut idx, mut val) = (vec![], vec![]);
        fold_hashed(&mut row, &mut idx, &mut val).unwrap();
        assert_eq!(idx, [1, 3]);
        assert_eq!(val, [2.0, 1.5]);
    }

    #[test]
    fn an_overflowing_sum_points_at_the_entry_that_overflowed() {
        let mut row = [entry(2, 0, 1e308), entry(2, 1, -1.0), entry(2, 2, 1e308)];
        let (mut idx, mut val) = (vec![], vec![]);
        assert_eq!(
            fold_hashed(&mut row, &mut idx, &mut val),
            Err((20, ParseErrorKind::HashedSumNotFinite { index: 2 }))
        );
    }
}
