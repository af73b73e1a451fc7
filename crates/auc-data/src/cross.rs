//! Feature crosses ([`crate::ReadOptions::cross_bits`], the CLI's `--cross-hash-bits C`): the
//! products of a row's pairs of features, folded into $2^C$ buckets after the row's own
//! features, as Vowpal Wabbit's `-q` does for fielded data (docs/math/crosses.md).
//!
//! For a row whose non-zeros, after hashing and combining duplicates, are $x_{i_1}, \dots,
//! x_{i_m}$ with $i_1 < \dots < i_m < d$ ($d$ the row's own dimension, $2^B$ with hashing), every
//! pair $a < b$ adds $x_{i_a} x_{i_b}$ at index
//! $d + (\mathrm{fmix64}(i_a \cdot 2^{32} + i_b) \bmod 2^C)$, where fmix64 is MurmurHash3's
//! 64-bit finalizer ([`pair_hash`]). Products that land in one bucket are summed in pair order
//! (a before b, lexicographically), and a bucket that sums to exactly 0 is dropped, as feature
//! hashing drops its zero sums. The row's own features stay as they are, at $[0, d)$, so the
//! dimension is $d + 2^C$.
//!
//! A row of more than [`MAX_CROSS_NNZ`] non-zeros is refused
//! ([`crate::ParseErrorKind::CrossTooManyNonZeros`]): its pairs (over half a million) would
//! dwarf the row. The pairs' buffer belongs to the parser and is reused from row to row, so a
//! steady stream allocates nothing.

use crate::ParseErrorKind;

/// The most non-zeros a row may have to be crossed: $2^{10}$, which make 523,776 pairs.
pub const MAX_CROSS_NNZ: usize = 1 << 10;

/// The largest number of cross bits $C$: the dimension $2^B + 2^C$ stays below $2^{32}$.
pub const MAX_CROSS_BITS: u8 = 30;

/// MurmurHash3's 64-bit finalizer (`fmix64`) of $i \cdot 2^{32} + j$: the hash of the pair of
/// 0-based feature indices $(i, j)$, $i < j$. Fixed: model files rely on it.
pub fn pair_hash(i: u32, j: u32) -> u64 {
    let mut k = (u64::from(i) << 32) | u64::from(j);
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// The crossing of rows of `base` own features into $2^C$ buckets, with the buffer of one
/// row's pairs (kept between rows).
#[derive(Clone, Debug)]
pub struct Crosses {
    base: u32,
    mask: u64,
    /// One row's products: (bucket << 32 | pair number, product).
    pairs: Vec<(u64, f64)>,
}

impl Crosses {
    /// The crossing of rows of `base` features into `2^bits` buckets at `[base, base + 2^bits)`.
    ///
    /// # Panics
    /// When `bits` is outside `1..=MAX_CROSS_BITS` or `base + 2^bits` exceeds `2^32` (the
    /// readers check both first: [`crate::DataError::CrossBits`]).
    pub fn new(base: usize, bits: u8) -> Crosses {
        assert!((1..=MAX_CROSS_BITS).contains(&bits), "cross bits {bits}");
        let base = u32::try_from(base).expect("a base dimension below 2^32");
        assert!(u64::from(base) + (1u64 << bits) <= 1u64 << 32);
        Crosses {
            base,
            mask: (1u64 << bits) - 1,
            pairs: Vec::new(),
        }
    }

    /// The dimension of crossed rows, `base + 2^bits`.
    pub fn dim(&self) -> usize {
        self.base as usize + (self.mask as usize + 1)
    }

    /// The bucket of the pair of features `(i, j)`, `i < j`: its index in crossed rows.
    pub fn index(&self, i: u32, j: u32) -> u32 {
        // Fits: base + mask < 2^32 (checked in `new`).
        self.base + (pair_hash(i, j) & self.mask) as u32
    }

    /// Appends the crosses of the row held at `indices[start..]`, `values[start..]` (strictly
    /// increasing indices below the base, no zeros: a row as the parsers store it) to the same
    /// vectors, in increasing index order after the row's own entries. On error nothing is
    /// appended.
    ///
    /// # Errors
    /// [`ParseErrorKind::CrossTooManyNonZeros`] for a row of more than [`MAX_CROSS_NNZ`]
    /// non-zeros, [`ParseErrorKind::CrossNotFinite`] when a product or a bucket's sum overflows.
    pub fn append(
        &mut self,
        indices: &mut Vec<u32>,
        values: &mut Vec<f64>,
        start: usize,
    ) -> Result<(), ParseErrorKind> {
        let m = indices.len() - start;
        if m > MAX_CROSS_NNZ {
            return Err(ParseErrorKind::CrossTooManyNonZeros {
                nnz: m,
                cap: MAX_CROSS_NNZ,
            });
        }
        self.pairs.clear();
        let (idx, val) = (&indices[start..], &values[start..]);
        let mut seq = 0u64;
        for a in 0..m {
            for b in a + 1..m {
                let bucket = u64::from(self.index(idx[a], idx[b]));
                let x = val[a] * val[b];
                if !x.is_finite() {
                    return Err(ParseErrorKind::CrossNotFinite {
                        index: bucket as u32,
                    });
                }
                self.pairs.push(((bucket << 32) | seq, x));
                seq += 1;
            }
        }
        self.pairs.sort_unstable_by_key(|p| p.0);
        let end = indices.len();
        let mut k = 0;
        while k < self.pairs.len() {
            let bucket = self.pairs[k].0 >> 32;
            let mut sum = self.pairs[k].1;
            k += 1;
            while k < self.pairs.len() && self.pairs[k].0 >> 32 == bucket {
                sum += self.pairs[k].1;
                k += 1;
            }
            if !sum.is_finite() {
                indices.truncate(end);
                values.truncate(end);
                return Err(ParseErrorKind::CrossNotFinite {
                    index: bucket as u32,
                });
            }
            if sum != 0.0 {
                indices.push(bucket as u32);
                values.push(sum);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_hash_is_murmur3s_finalizer() {
        // fmix64 of 0 is 0; of 1, MurmurHash3's published constant chain.
        assert_eq!(pair_hash(0, 0), 0);
        assert_eq!(pair_hash(0, 1), 0xb456_bcfc_34c2_cb2c);
        assert_ne!(pair_hash(1, 2), pair_hash(2, 1));
    }

    #[test]
    #[allow(clippy::float_cmp)] // Sums of small integers are exact.
    fn crosses_follow_the_row_and_sum_collisions() {
        let mut c = Crosses::new(4, 1);
        let (mut idx, mut val) = (vec![7, 0, 1, 3], vec![9.0, 2.0, 3.0, 5.0]);
        c.append(&mut idx, &mut val, 1).unwrap();
        assert_eq!(&idx[..4], &[7, 0, 1, 3]);
        // Three pairs into two buckets at 4 and 5.
        let total: f64 = val[4..].iter().sum();
        assert_eq!(total, 6.0 + 10.0 + 15.0);
        assert!(idx[4..].windows(2).all(|w| w[0] < w[1]));
        assert!(idx[4..].iter().all(|&j| (4..6).contains(&j)));
    }
}
