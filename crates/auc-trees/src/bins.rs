//! Feature bins: each feature's values cut into at most $B$ bins ([`Bins::fit`]), so that a
//! tree's split search scans $B$ histogram cells instead of sorting rows, and the training rows
//! as bin numbers, one byte each, feature by feature ([`Binned`]).
//!
//! A feature with at most $B$ distinct values among the rows binning looks at gets one bin per
//! value; otherwise bins hold about equal numbers of those rows (a value never straddles two
//! bins, so a frequent value, such as the zero of sparse data, is a bin of its own). Bin $b$ of
//! a feature holds the values $v$ with $t_{b-1} < v \le t_b$ for its cut points $t$ (the
//! midpoints between the largest value of a bin and the smallest of the next), so a split
//! "bins $\le b$ to the left" is the rule $v \le t_b$ on raw values, which is how a fitted tree
//! scores rows it never saw.

use auc_core::Dataset;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The most bins a feature can have: bin numbers are bytes.
pub const MAX_BINS: usize = 256;

/// The most rows binning looks at: beyond it an evenly spaced subset of the rows (LightGBM
/// constructs its bins from 200,000 sampled rows too).
pub const BIN_ROWS: usize = 200_000;

/// Each feature's cut points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bins {
    /// `cuts[f]`: the strictly increasing cut points of feature `f`, one fewer than its bins.
    cuts: Vec<Vec<f64>>,
}

impl Bins {
    /// Cut points of every feature of `data` into at most `max_bins` bins (2 to
    /// [`MAX_BINS`]), from at most [`BIN_ROWS`] of its rows.
    pub fn fit(data: &Dataset, max_bins: usize) -> Bins {
        let max_bins = max_bins.clamp(2, MAX_BINS);
        let n = data.n();
        let step = n.div_ceil(BIN_ROWS).max(1);
        let rows: Vec<usize> = (0..n).step_by(step).collect();
        let p = data.dim();
        // Feature by feature: its values in the chosen rows (zeros of sparse rows included).
        let mut columns: Vec<Vec<f64>> = vec![Vec::with_capacity(rows.len()); p];
        let mut stored = vec![0usize; p];
        for &i in &rows {
            data.row(i).for_each(|j, v| {
                columns[j].push(if v == 0.0 { 0.0 } else { v });
                stored[j] += 1;
            });
        }
        // Each feature's sort on its own thread: the same cuts whatever the number of threads.
        let cuts = columns
            .into_par_iter()
            .zip(stored)
            .map(|(mut values, s)| {
                values.extend(std::iter::repeat_n(0.0, rows.len() - s));
                cut_points(&mut values, max_bins)
            })
            .collect();
        Bins { cuts }
    }

    /// The number of features.
    pub fn dim(&self) -> usize {
        self.cuts.len()
    }

    /// The number of bins of feature `f`.
    pub fn bins(&self, f: usize) -> usize {
        self.cuts[f].len() + 1
    }

    /// The cut point between bin `b` and bin `b + 1` of feature `f`: a split after bin `b`
    /// sends $v \le$ it to the left.
    pub fn cut(&self, f: usize, b: usize) -> f64 {
        self.cuts[f][b]
    }

    /// The bin of value `v` of feature `f`: the number of cut points below `v`.
    pub fn bin(&self, f: usize, v: f64) -> u8 {
        let b = self.cuts[f].partition_point(|&t| t < v);
        u8::try_from(b).expect("at most MAX_BINS bins")
    }

    /// Bytes of the binned rows of an `n`-row dataset of `p` features.
    pub fn binned_bytes(n: usize, p: usize) -> u64 {
        (n as u64).saturating_mul(p as u64)
    }
}

/// The cut points of one feature's `values` (sorted here) into at most `max_bins` bins.
fn cut_points(values: &mut [f64], max_bins: usize) -> Vec<f64> {
    values.sort_unstable_by(f64::total_cmp);
    // Distinct values and their counts.
    let mut distinct: Vec<(f64, usize)> = Vec::new();
    for &v in values.iter() {
        match distinct.last_mut() {
            // Sorted by total order with -0.0 read as 0.0: equal values are bit-equal.
            Some((last, c)) if last.to_bits() == v.to_bits() => *c += 1,
            _ => distinct.push((v, 1)),
        }
    }
    if distinct.len() <= 1 {
        return Vec::new();
    }
    let mut cuts = Vec::new();
    if distinct.len() <= max_bins {
        for w in distinct.windows(2) {
            cuts.push(midpoint(w[0].0, w[1].0));
        }
        return cuts;
    }
    // About equal counts a bin: close a bin once it holds its share of the rows still to be
    // binned, never splitting a value.
    let mut left = values.len();
    let mut bins_left = max_bins;
    let mut in_bin = 0usize;
    for (k, &(v, c)) in distinct.iter().enumerate() {
        in_bin += c;
        let is_last = k + 1 == distinct.len();
        if is_last || bins_left == 1 {
            break;
        }
        let share = left.div_ceil(bins_left);
        if in_bin >= share {
            cuts.push(midpoint(v, distinct[k + 1].0));
            left -= in_bin;
            bins_left -= 1;
            in_bin = 0;
        }
    }
    cuts
}

/// A point $t$ with $a \le t < b$ for $a < b$: the midpoint (halves added, so that it does
/// not overflow), or `a` where rounding puts it outside (neighbouring floats).
fn midpoint(a: f64, b: f64) -> f64 {
    let m = a / 2.0 + b / 2.0;
    if a <= m && m < b { m } else { a }
}

/// The rows of a dataset as bin numbers, feature by feature (`p` columns of `n` bytes), and
/// each feature's count of rows per bin (the root's counts, the same for every tree).
pub struct Binned {
    n: usize,
    columns: Vec<u8>,
    counts: Vec<[u32; MAX_BINS]>,
}

impl Binned {
    /// `data`'s rows through `bins`.
    pub fn new(data: &Dataset, bins: &Bins) -> Binned {
        let (n, p) = (data.n(), data.dim());
        let zero: Vec<u8> = (0..p).map(|f| bins.bin(f, 0.0)).collect();
        let mut columns = Vec::with_capacity(n * p);
        for &z in &zero {
            columns.extend(std::iter::repeat_n(z, n));
        }
        // Blocks of rows in parallel, each writing its segment of every column.
        const BLOCK: usize = 1 << 14;
        let mut blocks: Vec<Vec<&mut [u8]>> = (0..n.div_ceil(BLOCK))
            .map(|_| Vec::with_capacity(p))
            .collect();
        for col in columns.chunks_mut(n.max(1)) {
            for (segments, segment) in blocks.iter_mut().zip(col.chunks_mut(BLOCK)) {
                segments.push(segment);
            }
        }
        blocks
            .into_par_iter()
            .enumerate()
            .for_each(|(b, mut segments)| {
                let rows = segments.first().map_or(0, |s| s.len());
                // Row r of the block writes position r of every column's segment.
                (0..rows).for_each(|r| {
                    data.row(b * BLOCK + r).for_each(|j, v| {
                        if j < p {
                            segments[j][r] = bins.bin(j, v);
                        }
                    });
                });
            });
        let counts = columns
            .par_chunks(n.max(1))
            .map(|col| {
                let mut c = [0u32; MAX_BINS];
                for &b in col {
                    c[usize::from(b)] += 1;
                }
                c
            })
            .collect();
        Binned { n, columns, counts }
    }

    /// Feature `f`'s bins, one per row.
    pub fn column(&self, f: usize) -> &[u8] {
        &self.columns[f * self.n..(f + 1) * self.n]
    }

    /// Feature `f`'s count of rows in each bin.
    pub fn counts(&self, f: usize) -> &[u32; MAX_BINS] {
        &self.counts[f]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_values_get_a_bin_each_and_many_get_equal_counts() {
        let mut v = vec![3.0, 1.0, 2.0, 1.0, 3.0];
        assert_eq!(cut_points(&mut v, 255), vec![1.5, 2.5]);
        let mut v: Vec<f64> = (0..1000).map(f64::from).collect();
        let cuts = cut_points(&mut v, 10);
        assert_eq!(cuts.len(), 9);
        // Every bin holds 100 values.
        let mut last = f64::NEG_INFINITY;
        for &c in &cuts {
            let k = (0..1000)
                .filter(|&i| f64::from(i) > last && f64::from(i) <= c)
                .count();
            assert_eq!(k, 100);
            last = c;
        }
        // A frequent value is one bin, never split.
        let mut v: Vec<f64> = std::iter::repeat_n(0.0, 900)
            .chain((1..=100).map(f64::from))
            .collect();
        let cuts = cut_points(&mut v, 4);
        assert!(cuts[0] > 0.0 && cuts[0] < 1.0, "{cuts:?}");
        assert!(cuts.len() <= 3);
        let mut one = vec![5.0; 10];
        assert!(cut_points(&mut one, 10).is_empty());
    }

    #[test]
    fn midpoints_stay_below_the_next_value() {
        let a = 1.0f64;
        let b = f64::from_bits(a.to_bits() + 1);
        let m = midpoint(a, b);
        assert!(a <= m && m < b);
        assert_eq!(midpoint(-1e308, 1e308).to_bits(), 0.0f64.to_bits());
    }
}
