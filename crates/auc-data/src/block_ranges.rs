//! [`BlockRanges`]: the feature ranges of one block of rows, kept only for the features the
//! block stores, so that a parallel first pass over a wide file costs $O(\mathrm{nnz})$ per
//! block instead of $O(p)$ (a [`FeatureRanges`] of $2^{20}$ features is 24 MB to clear, fill
//! and merge for every block of a few thousand rows).

use crate::RawData;
use crate::scale::FeatureRanges;

/// Minima, maxima and non-zero counts of the features one block stores, in increasing order
/// of feature, with the block's dimension and row count. Merged into the file's ranges by
/// [`FeatureRanges::merge_block`], which gives exactly what observing the rows would.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockRanges {
    dim: usize,
    rows: u64,
    features: Vec<u32>,
    min: Vec<f64>,
    max: Vec<f64>,
    nnz: Vec<u64>,
}

impl BlockRanges {
    /// The ranges of `data`'s rows: $O(\mathrm{nnz})$ time (the non-zeros are sorted by
    /// feature, `sorted_by_feature`) and memory.
    pub fn of_rows(data: &RawData) -> Self {
        let mut entries: Vec<(u32, f64)> = Vec::new();
        for i in 0..data.n() {
            data.row(i).for_each(|j, v| {
                if v != 0.0 {
                    // Indices of rows are below the dimension, which fits in u32 (a parsed
                    // index is a u32 plus one at most).
                    entries.push((j as u32, v));
                }
            });
        }
        let entries = sorted_by_feature(entries);
        let mut out = Self {
            dim: data.dim(),
            rows: data.n() as u64,
            ..Self::default()
        };
        for (j, v) in entries {
            if out.features.last() == Some(&j) {
                let k = out.features.len() - 1;
                out.min[k] = out.min[k].min(v);
                out.max[k] = out.max[k].max(v);
                out.nnz[k] += 1;
            } else {
                out.features.push(j);
                out.min.push(v);
                out.max.push(v);
                out.nnz.push(1);
            }
        }
        out
    }

    /// The block's dimension (the rows' [`RawData::dim`]).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Rows of the block.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Features the block stores a non-zero of.
    pub fn touched(&self) -> usize {
        self.features.len()
    }
}

/// `entries` sorted by feature, stably: a least-significant-digit radix sort in passes of at
/// most 11 bits over the bits the largest feature needs (two passes at $2^{20}$ features), so
/// $O(\mathrm{nnz})$ per pass; a comparison sort took a tenth of a first pass over a wide file.
/// (The ranges do not depend on the order within a feature: minima, maxima and counts of
/// non-zero finite values are the same in any order.)
fn sorted_by_feature(entries: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
    let mut src = entries;
    if src.len() < 64 {
        src.sort_by_key(|&(j, _)| j);
        return src;
    }
    let max = src.iter().map(|&(j, _)| j).max().unwrap_or(0);
    let bits = u32::BITS - max.leading_zeros();
    let passes = bits.div_ceil(11).max(1);
    let width = bits.div_ceil(passes);
    let mask = (1u32 << width) - 1;
    let mut dst = vec![(0u32, 0.0f64); src.len()];
    let mut starts = vec![0usize; 1 << width];
    for pass in 0..passes {
        let shift = pass * width;
        let digit = |j: u32| ((j >> shift) & mask) as usize;
        starts.fill(0);
        for &(j, _) in &src {
            starts[digit(j)] += 1;
        }
        let mut sum = 0;
        for s in &mut starts {
            let count = *s;
            *s = sum;
            sum += count;
        }
        for &e in &src {
            let d = digit(e.0);
            dst[starts[d]] = e;
            starts[d] += 1;
        }
        std::mem::swap(&mut src, &mut dst);
    }
    src
}

impl FeatureRanges {
    /// Adds a block's rows: equal, exactly, to observing them
    /// ([`FeatureRanges::observe_rows`]), in $O(\text{touched})$ plus the growth to the
    /// block's dimension.
    pub fn merge_block(&mut self, block: &BlockRanges) {
        self.grow(block.dim);
        for (k, &j) in block.features.iter().enumerate() {
            self.merge_feature(j as usize, block.min[k], block.max[k], block.nnz[k]);
        }
        self.add_rows(block.rows);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReadOptions, read_libsvm};

    #[test]
    fn merged_blocks_equal_the_rows_observed() {
        let (head, tail) = (
            "1 3:0.5 9:-2 40:1\n-1 3:-0.25 7:4\n",
            "1 1:1e-3 3:0.5 40:-7\n-1\n1 9:3 12:0\n",
        );
        let read = |t: &str| read_libsvm(t.as_bytes(), "t.svm", &ReadOptions::default()).unwrap();
        let raw = read(&format!("{head}{tail}"));
        let mut want = FeatureRanges::new(0);
        want.observe_rows(&raw);
        let mut got = FeatureRanges::new(0);
        got.merge_block(&BlockRanges::of_rows(&raw));
        assert_eq!(got, want);
        // In parts, in any order, with a wider total first.
        let (a, b) = (read(head), read(tail));
        let mut parts = FeatureRanges::new(50);
        parts.merge_block(&BlockRanges::of_rows(&b));
        parts.merge_block(&BlockRanges::of_rows(&a));
        let mut want = FeatureRanges::new(50);
        want.observe_rows(&raw);
        assert_eq!(parts, want);
        // Features 1, 3, 7, 9 and 40: the stored zero of feature 12 is no non-zero.
        assert_eq!(BlockRanges::of_rows(&raw).touched(), 5);
    }

    #[test]
    fn the_radix_sort_is_a_stable_sort_by_feature() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, bits) in [
            (0, 1),
            (5, 3),
            (63, 20),
            (64, 0),
            (1000, 1),
            (5000, 20),
            (3000, 32),
        ] {
            let entries: Vec<(u32, f64)> = (0..n)
                .map(|k| {
                    let j = if bits == 0 {
                        0
                    } else {
                        (next() >> (64 - bits)) as u32
                    };
                    (j, k as f64)
                })
                .collect();
            let mut want = entries.clone();
            want.sort_by_key(|&(j, _)| j);
            assert_eq!(sorted_by_feature(entries), want, "{n} entries, {bits} bits");
        }
    }
}
