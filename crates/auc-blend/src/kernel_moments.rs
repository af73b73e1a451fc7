//! The class moments of the landmarks' kernel values at the speed of a matrix product.
//!
//! Per class, with a fixed shift $s \in \mathbb{R}^M$ (the kernel values' mean over the first
//! block of rows), the pass keeps the count $n$, the shifted sum $u = \sum_i (k_i - s)$ and the
//! shifted cross product $G = \sum_i (k_i - s)(k_i - s)^\top$; a block of $b$ rows adds
//! $Y^\top Y$ for its $b \times M$ matrix $Y$ of shifted rows, one symmetric rank-$b$ product
//! (faer, lower triangle only: $b M^2$ multiply-adds). At the end
//! $$\bar k = s + u / n, \qquad C = G - u u^\top / n,$$
//! the mean and co-moment of the class (the shifted-data formula: it loses accuracy only in
//! proportion to $\lVert \bar k - s \rVert^2$ against the spread, and kernel values lie in
//! $[0, 1]$ with $s$ a mean of them).
//!
//! The alternative this replaced, two-pass moments of 256-row blocks merged one by one, spent
//! as long packing and merging each block's $M \times M$ moments as multiplying them.
//!
//! The rows are cut into a few fixed parts of consecutive blocks (`blocks::parts`, a function
//! of $n$ alone); each part's blocks are added into that part's sums one after the other, the
//! parts in parallel, and the parts' sums added in order, so the result is the same whatever
//! the number of threads. (Sums of their own for every block of 1,024 rows, zeroed and then
//! added, cost as long as the products at $M = 1000$: $16$ MB a block; so a part holds at
//! least four blocks where there are that many, and the first part's sums are the start of
//! the total.)

use std::borrow::Cow;

use auc_core::{Dataset, Label};
use auc_prep::FeatureMap;
use auc_stats::{ClassMoments, Moments};
use faer::linalg::matmul::triangular::{BlockStructure, matmul};
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

/// One class's shifted sums over some rows.
#[derive(Clone)]
pub(crate) struct ShiftedSums {
    count: u64,
    sum: Vec<f64>,
    /// $G$: only the lower triangle (with the diagonal) is kept up to date.
    cross: Mat<f64>,
}

impl ShiftedSums {
    fn new(m: usize) -> ShiftedSums {
        ShiftedSums {
            count: 0,
            sum: vec![0.0; m],
            cross: Mat::zeros(m, m),
        }
    }

    /// Adds `other`'s sums.
    fn add(&mut self, other: &ShiftedSums) {
        self.count += other.count;
        for (a, b) in self.sum.iter_mut().zip(&other.sum) {
            *a += b;
        }
        let m = self.sum.len();
        for j in 0..m {
            let from = &other.cross.col_as_slice(j)[j..];
            for (a, b) in self.cross.col_as_slice_mut(j)[j..].iter_mut().zip(from) {
                *a += b;
            }
        }
    }

    /// The class's moments: the mean and the packed upper triangle of the co-moment.
    fn moments(&self, shift: &[f64]) -> Option<ClassMoments> {
        let m = shift.len();
        if self.count == 0 {
            return Some(ClassMoments::new(m));
        }
        let n = self.count as f64;
        let mean: Vec<f64> = shift
            .iter()
            .zip(&self.sum)
            .map(|(s, u)| s + u / n)
            .collect();
        let mut packed = Vec::with_capacity(m * (m + 1) / 2);
        for i in 0..m {
            let col = &self.cross.col_as_slice(i)[i..];
            for (t, (g, uj)) in col.iter().zip(&self.sum[i..]).enumerate() {
                let c = g - self.sum[i] * uj / n;
                packed.push(if t == 0 { c.max(0.0) } else { c });
            }
        }
        ClassMoments::from_parts(self.count, mean, packed).ok()
    }
}

/// Both classes' shifted sums (index [`Label::index`]).
#[derive(Clone)]
pub(crate) struct KernelSums {
    shift: Vec<f64>,
    classes: [ShiftedSums; 2],
}

impl KernelSums {
    /// Empty sums about `shift`.
    pub(crate) fn new(shift: Vec<f64>) -> KernelSums {
        let m = shift.len();
        KernelSums {
            shift,
            classes: [ShiftedSums::new(m), ShiftedSums::new(m)],
        }
    }

    /// The sums of the kernel values under `map` (a Nystroem map) of `data`'s rows `rows`
    /// but those in `skip` (increasing), about `shift`: a block of
    /// [`crate::blocks::BLOCK_ROWS`] rows at a time, each block's product added into the same
    /// sums (one allocation of the $M \times M$ sums, not one a block).
    pub(crate) fn of_rows(
        map: &FeatureMap,
        shift: &[f64],
        data: &Dataset,
        rows: std::ops::Range<usize>,
        skip: &[usize],
    ) -> KernelSums {
        let mut out = KernelSums::new(shift.to_vec());
        let mut y = Vec::new();
        let mut start = rows.start;
        while start < rows.end {
            let end = (start + crate::blocks::BLOCK_ROWS).min(rows.end);
            let skipped =
                &skip[skip.partition_point(|&i| i < start)..skip.partition_point(|&i| i < end)];
            let kept: Vec<usize> = (start..end)
                .filter(|i| skipped.binary_search(i).is_err())
                .collect();
            if !kept.is_empty() {
                out.add_block(map, &data.select(&kept), &mut y);
            }
            start = end;
        }
        out
    }

    /// Adds the kernel values of `block`'s rows (`y` is scratch).
    fn add_block(&mut self, map: &FeatureMap, block: &Dataset, y: &mut Vec<f64>) {
        let shift = &self.shift;
        let m = shift.len();
        let k = map
            .kernel_values_dataset(block)
            .expect("the kernel member's map is Nystroem");
        for label in [Label::Pos, Label::Neg] {
            y.clear();
            let mut rows = 0;
            for (x, l) in k.iter() {
                if l != label {
                    continue;
                }
                let start = y.len();
                y.resize(start + m, 0.0);
                x.write_dense(&mut y[start..]);
                for (v, s) in y[start..].iter_mut().zip(shift) {
                    *v -= s;
                }
                rows += 1;
            }
            if rows == 0 {
                continue;
            }
            let c = &mut self.classes[label.index()];
            c.count += rows as u64;
            for row in y.chunks_exact(m) {
                for (u, v) in c.sum.iter_mut().zip(row) {
                    *u += v;
                }
            }
            let yt = MatRef::from_row_major_slice(y, rows, m);
            matmul(
                c.cross.as_mut(),
                BlockStructure::TriangularLower,
                Accum::Add,
                yt.transpose(),
                BlockStructure::Rectangular,
                yt,
                BlockStructure::Rectangular,
                1.0,
                Par::Seq,
            );
        }
    }

    /// The shift the sums are about.
    pub(crate) fn shift(&self) -> &[f64] {
        &self.shift
    }

    /// Adds `other`'s sums (about the same shift).
    pub(crate) fn add(mut self, other: &KernelSums) -> KernelSums {
        for (a, b) in self.classes.iter_mut().zip(&other.classes) {
            a.add(b);
        }
        self
    }

    /// Both classes' moments; `None` when a sum is not finite.
    pub(crate) fn moments(&self) -> Option<Moments> {
        Some(Moments {
            pos: self.classes[Label::Pos.index()].moments(&self.shift)?,
            neg: self.classes[Label::Neg.index()].moments(&self.shift)?,
        })
    }
}

/// The sums of the kernel values of every row of `data` about `shift`: a few fixed parts of the
/// rows ([`crate::blocks::parts`]) in parallel, added in order, so that the sums do not depend
/// on the number of threads and memory is the parts' sums.
pub(crate) fn sums_of(map: &FeatureMap, shift: &[f64], data: &Dataset) -> KernelSums {
    sums_except(map, shift, data, &[])
}

/// [`sums_of`] the rows of `data` that are not in `skip` (increasing row indices): the rest of
/// the training rows, whose sums added to those of the rows in `skip` are every row's.
pub(crate) fn sums_except(
    map: &FeatureMap,
    shift: &[f64],
    data: &Dataset,
    skip: &[usize],
) -> KernelSums {
    let parts = crate::blocks::parts(data.n())
        .into_par_iter()
        .map(|rows| KernelSums::of_rows(map, shift, data, rows, skip))
        .collect::<Vec<_>>();
    total(shift, parts.into_iter().map(Cow::Owned))
}

/// The sums of `parts` added in order, about `shift` (empty sums when there is no part). The
/// first part's sums are the start (moved when owned, copied when borrowed): 0 + x is x, so
/// these are the sums of adding every part to zeros, without zeroing and adding one
/// $M \times M$ matrix more.
pub(crate) fn total<'a>(
    shift: &[f64],
    parts: impl IntoIterator<Item = Cow<'a, KernelSums>>,
) -> KernelSums {
    let mut parts = parts.into_iter();
    let first = parts
        .next()
        .map_or_else(|| KernelSums::new(shift.to_vec()), Cow::into_owned);
    parts.fold(first, |a, s| a.add(&s))
}

/// The shift of `data`'s sums: [`shift_of`] its first block of rows.
pub(crate) fn first_block_shift(map: &FeatureMap, data: &Dataset) -> Vec<f64> {
    let first = data.select(&(0..data.n().min(crate::blocks::BLOCK_ROWS)).collect::<Vec<_>>());
    shift_of(map, &first)
}

/// The shift: the mean kernel value of each landmark over `rows` (the first block of the
/// training rows; zeros when it is empty).
pub(crate) fn shift_of(map: &FeatureMap, rows: &Dataset) -> Vec<f64> {
    let k = map
        .kernel_values_dataset(rows)
        .expect("the kernel member's map is Nystroem");
    let mut s = vec![0.0; map.size()];
    for (x, _) in k.iter() {
        x.axpy(1.0, &mut s);
    }
    let n = k.n().max(1) as f64;
    s.iter_mut().for_each(|v| *v /= n);
    s
}

#[cfg(test)]
mod tests {
    use auc_prep::{FeatureMapSpec, MapKind, MapShape, SigmaRule};

    use super::*;

    /// Rows of 3 features, about a third positive.
    fn data(n: usize) -> Dataset {
        let mut values = Vec::with_capacity(3 * n);
        let mut labels = Vec::with_capacity(n);
        for i in 0..n {
            let t = i as f64;
            values.extend([
                (0.37 * t).sin(),
                (0.11 * t).cos(),
                ((i * 7) % 13) as f64 / 13.0,
            ]);
            labels.push(if i % 3 == 0 { Label::Pos } else { Label::Neg });
        }
        Dataset::dense(3, values, labels).unwrap()
    }

    /// A 25-landmark Nystroem map of `d`.
    fn map_of(d: &Dataset) -> FeatureMap {
        let spec = FeatureMapSpec {
            shape: MapShape {
                kind: MapKind::Nystroem,
                size: 25,
            },
            sigma: SigmaRule::Scale,
            seed: 3,
        };
        spec.fit(d, 3).unwrap()
    }

    /// `got` equals the two-pass moments `want` to rounding.
    fn assert_moments_match(got: &Moments, want: &Moments) {
        for (g, w) in [(&got.pos, &want.pos), (&got.neg, &want.neg)] {
            assert_eq!(g.count(), w.count());
            for (a, b) in g.mean().iter().zip(w.mean()) {
                assert!((a - b).abs() <= 1e-13, "mean {a} against {b}");
            }
            let scale = w.comoment().iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (a, b) in g.comoment().iter().zip(w.comoment()) {
                assert!((a - b).abs() <= 1e-12 * scale, "co-moment {a} against {b}");
            }
        }
    }

    #[test]
    fn the_sums_outside_some_rows_plus_theirs_are_every_rows() {
        // Nine blocks of rows (the last short): two parts.
        let d = data(8 * crate::blocks::BLOCK_ROWS + 17);
        assert_eq!(crate::blocks::parts(d.n()).len(), 2);
        let map = map_of(&d);
        let want = auc_online::moments_of(&map.kernel_values_dataset(&d).unwrap());
        let shift = first_block_shift(&map, &d);
        // Skipped rows in both parts, a whole block among them, and the last row.
        let mut skip: Vec<usize> = (0..d.n()).filter(|i| i % 7 == 3).collect();
        skip.extend(2048..3072);
        skip.push(d.n() - 1);
        skip.sort_unstable();
        skip.dedup();
        let rest = sums_except(&map, &shift, &d, &skip);
        let skipped = sums_of(&map, &shift, &d.select(&skip));
        let (rp, rn) = (rest.classes[0].count, rest.classes[1].count);
        assert_eq!((rp + rn) as usize, d.n() - skip.len());
        assert_moments_match(&skipped.add(&rest).moments().unwrap(), &want);
        // Nothing skipped: every row's sums; everything skipped: none.
        assert_moments_match(
            &sums_except(&map, &shift, &d, &[]).moments().unwrap(),
            &want,
        );
        let all: Vec<usize> = (0..d.n()).collect();
        let none = sums_except(&map, &shift, &d, &all);
        assert_eq!(none.classes[0].count + none.classes[1].count, 0);
    }

    #[test]
    fn shifted_sums_of_blocks_are_the_two_pass_moments() {
        let d = data(2600);
        let map = map_of(&d);
        // Two-pass moments of the kernel values of every row at once.
        let want = auc_online::moments_of(&map.kernel_values_dataset(&d).unwrap());
        // Sums of uneven parts (one with no positive row), about the first rows' mean.
        let shift = shift_of(&map, &d.select(&(0..50).collect::<Vec<_>>()));
        // The last part is three blocks of rows added into the same sums.
        let cuts = [0, 1, 2, 300, 301, 2600];
        let got = cuts
            .windows(2)
            .map(|w| KernelSums::of_rows(&map, &shift, &d, w[0]..w[1], &[]))
            .fold(KernelSums::new(shift.clone()), |a, s| a.add(&s))
            .moments()
            .unwrap();
        assert_moments_match(&got, &want);
    }
}
