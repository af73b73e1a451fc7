//! Points with their per-sample statistics, exact k-nearest neighbours, and the three sub-kernels
//! of \[CVM eqs. 14-17\] behind the [`SubKernel`] trait.
//!
//! Every sub-kernel is evaluated between two [`Points`] sets (the fitted set with itself, or new
//! points against the fitted set for out-of-sample scoring), so a new sub-kernel only has to say
//! how one value is computed from the stored statistics.

use std::fmt;

use auc_core::Dataset;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Dense copies of rows with the statistics the sub-kernels need.
///
/// `spa` is the local sparsity of \[CVM eq. 16\]: the mean Euclidean distance to the `n_loc`
/// nearest points of the reference set (the set itself, excluding the point, when fitting).
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    n: usize,
    p: usize,
    x: Vec<f64>,
    sq_norm: Vec<f64>,
    mean: Vec<f64>,
    /// $\sqrt{\sum_k (x_k - \bar x)^2}$: the centred norm, for the Pearson kernel.
    cnorm: Vec<f64>,
    spa: Vec<f64>,
}

impl Points {
    /// Dense copies of every row of `data` (labels are ignored), with their statistics; the local
    /// sparsity is left at 0 until [`Points::set_sparsity`].
    pub fn from_dataset(data: &Dataset) -> Self {
        let (n, p) = (data.n(), data.dim());
        let mut x = vec![0.0; n * p];
        for i in 0..n {
            data.row(i).write_dense(&mut x[i * p..(i + 1) * p]);
        }
        Self::from_dense(p, x)
    }

    /// From `n * p` row-major values (`p >= 1`).
    ///
    /// # Panics
    /// If `x.len()` is not a multiple of `p` (a programmer error).
    pub fn from_dense(p: usize, x: Vec<f64>) -> Self {
        assert!(
            p > 0 && x.len() % p == 0,
            "{} values are not rows of {p}",
            x.len()
        );
        let n = x.len() / p;
        let mut sq_norm = Vec::with_capacity(n);
        let mut mean = Vec::with_capacity(n);
        let mut cnorm = Vec::with_capacity(n);
        for r in x.chunks_exact(p) {
            sq_norm.push(r.iter().map(|v| v * v).sum());
            let m = r.iter().sum::<f64>() / p as f64;
            mean.push(m);
            cnorm.push(r.iter().map(|v| (v - m) * (v - m)).sum::<f64>().sqrt());
        }
        Self {
            n,
            p,
            x,
            sq_norm,
            mean,
            cnorm,
            spa: vec![0.0; n],
        }
    }

    /// The points of `x` (as [`Points::from_dense`]) with local sparsities `spa` that were set
    /// before, as a saved model restores them.
    ///
    /// # Panics
    /// If `spa` does not hold one value per point (a programmer error: callers check).
    pub(crate) fn with_sparsity(p: usize, x: Vec<f64>, spa: Vec<f64>) -> Self {
        let mut pts = Self::from_dense(p, x);
        assert_eq!(
            spa.len(),
            pts.n,
            "{} sparsities for {} points",
            spa.len(),
            pts.n
        );
        pts.spa = spa;
        pts
    }

    /// Every point's features, row-major ($n p$ values).
    pub(crate) fn values(&self) -> &[f64] {
        &self.x
    }

    /// Number of points.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.p
    }

    /// Point `i`'s features.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.p..(i + 1) * self.p]
    }

    /// The local sparsities \[CVM eq. 16\].
    pub fn sparsity(&self) -> &[f64] {
        &self.spa
    }

    /// Sets the local sparsity of every point from its neighbour list (mean distance).
    pub fn set_sparsity(&mut self, knn: &Knn) {
        for i in 0..self.n {
            let d = knn.dist(i);
            self.spa[i] = if d.is_empty() {
                0.0
            } else {
                d.iter().sum::<f64>() / d.len() as f64
            };
        }
    }

    /// Per-sample population standard deviation over the features of point `i`.
    pub fn sample_std(&self, i: usize) -> f64 {
        self.cnorm[i] / (self.p as f64).sqrt()
    }

    /// $\lVert x_i - y_j \rVert^2$ for point `i` of `self` and point `j` of `other`, never negative.
    #[inline]
    pub fn sq_dist(&self, i: usize, other: &Points, j: usize) -> f64 {
        let (a, b) = (self.row(i), other.row(j));
        let mut s = 0.0;
        for (u, v) in a.iter().zip(b) {
            s += (u - v) * (u - v);
        }
        s
    }

    /// The points in the order `order` (`order[r]` is the point that becomes point `r`), with
    /// their statistics and sparsities.
    pub(crate) fn permuted(&self, order: &[u32]) -> Self {
        let p = self.p;
        let mut x = Vec::with_capacity(order.len() * p);
        for &i in order {
            x.extend_from_slice(self.row(i as usize));
        }
        let spa = order.iter().map(|&i| self.spa[i as usize]).collect();
        Self::with_sparsity(p, x, spa)
    }
}

/// A feature-major copy of a point set, for evaluating a sub-kernel between one point and a run
/// of consecutive points of this set (the natural kernels of the fusion, the neighbour search).
///
/// Every value is computed by the same operations in the same order as [`SubKernel::value`]
/// and [`Points::sq_dist`] (the sums over features run feature by feature, one accumulator per
/// point, never a fused multiply-add), so the results are bit-identical to theirs (tests
/// `columns_match_the_scalar_kernels` and `fast_search_is_the_search`); only the loops run
/// across points, where they vectorize.
#[derive(Clone, Debug)]
pub(crate) struct Columns {
    n: usize,
    /// `x[f * n + j]`: feature `f` of point `j`.
    x: Vec<f64>,
    /// `c[f * n + j] = x_jf - mean_j`: the centred features, for the Pearson kernel.
    c: Vec<f64>,
}

/// Points of a run evaluated at once by [`Columns`].
pub(crate) const RUN: usize = 512;

impl Columns {
    /// The feature-major copy of `pts`.
    pub(crate) fn new(pts: &Points) -> Self {
        let (n, p) = (pts.n, pts.p);
        let mut x = vec![0.0; n * p];
        let mut c = vec![0.0; n * p];
        for j in 0..n {
            let m = pts.mean[j];
            for (f, &v) in pts.row(j).iter().enumerate() {
                x[f * n + j] = v;
                c[f * n + j] = v - m;
            }
        }
        Self { n, x, c }
    }

    /// `out[t]` $= \lVert a_i - b_{j_0 + t} \rVert^2$ for the points `b` this copy was made of.
    pub(crate) fn sq_dists(&self, a: &Points, i: usize, j0: usize, out: &mut [f64]) {
        sq_dists_run(&self.x, self.n, a.row(i), j0, out);
    }

    /// `out[t]` $= k(a_i, b_{j_0 + t})$ for the sub-kernel `kernel`, where `b` is the point set
    /// this copy was made of (its sparsities set).
    pub(crate) fn values(
        &self,
        kernel: FittedKernel,
        a: &Points,
        i: usize,
        b: &Points,
        j0: usize,
        out: &mut [f64],
    ) {
        let len = out.len();
        match kernel {
            FittedKernel::Gaussian { sigma1 } => {
                self.sq_dists(a, i, j0, out);
                let den = 2.0 * sigma1 * sigma1;
                for o in out.iter_mut() {
                    *o = (-*o / den).exp();
                }
            }
            FittedKernel::Pearson => {
                let ci = a.cnorm[i];
                let mi = a.mean[i];
                let centred: Vec<f64> = a.row(i).iter().map(|u| u - mi).collect();
                pearson_run(&self.c, self.n, &centred, j0, out);
                for (o, &cj) in out.iter_mut().zip(&b.cnorm[j0..j0 + len]) {
                    *o = if ci <= 0.0 || cj <= 0.0 {
                        0.5
                    } else {
                        0.5 * (1.0 + (*o / (ci * cj)).clamp(-1.0, 1.0))
                    };
                }
            }
            FittedKernel::Density { sigma2 } => {
                let si = a.spa[i];
                for (o, &sj) in out.iter_mut().zip(&b.spa[j0..j0 + len]) {
                    let d = si - sj;
                    *o = (-d * d / (2.0 * sigma2 * sigma2)).exp();
                }
            }
        }
    }
}

/// `out[t] = sum_f (xi[f] - x[f * n + j0 + t])^2`, features in order.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn sq_dists_run(x: &[f64], n: usize, xi: &[f64], j0: usize, out: &mut [f64]) {
    out.fill(0.0);
    let len = out.len();
    for (f, &u) in xi.iter().enumerate() {
        let col = &x[f * n + j0..f * n + j0 + len];
        for (o, &v) in out.iter_mut().zip(col) {
            *o += (u - v) * (u - v);
        }
    }
}

/// `out[t] = sum_f ci[f] * c[f * n + j0 + t]`, features in order.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn pearson_run(c: &[f64], n: usize, ci: &[f64], j0: usize, out: &mut [f64]) {
    out.fill(0.0);
    let len = out.len();
    for (f, &u) in ci.iter().enumerate() {
        let col = &c[f * n + j0..f * n + j0 + len];
        for (o, &v) in out.iter_mut().zip(col) {
            *o += u * v;
        }
    }
}

/// Each query point's `k` nearest reference points (Euclidean), nearest first; ties go to the
/// smaller index.
#[derive(Clone, Debug, PartialEq)]
pub struct Knn {
    k: usize,
    idx: Vec<u32>,
    dist: Vec<f64>,
}

impl Knn {
    /// Exact search of every `query` point's `k` nearest points of `reference`: one O(n p) pass
    /// per query, queries in parallel. With `exclude_self`, query `i` skips reference `i` (the
    /// two sets are the same). `k` is capped at the number of candidates.
    pub fn search(query: &Points, reference: &Points, k: usize, exclude_self: bool) -> Self {
        let cand = reference.n - usize::from(exclude_self && reference.n > 0);
        let k = k.min(cand);
        let rows: Vec<(Vec<u32>, Vec<f64>)> = (0..query.n)
            .into_par_iter()
            .map_init(Vec::new, |buf: &mut Vec<(f64, u32)>, i| {
                buf.clear();
                for j in 0..reference.n {
                    if exclude_self && i == j {
                        continue;
                    }
                    buf.push((query.sq_dist(i, reference, j), j as u32));
                }
                let by = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
                if k < buf.len() && k > 0 {
                    buf.select_nth_unstable_by(k - 1, by);
                }
                let top = &mut buf[..k];
                top.sort_unstable_by(by);
                (
                    top.iter().map(|t| t.1).collect(),
                    top.iter().map(|t| t.0.sqrt()).collect(),
                )
            })
            .collect();
        let mut idx = Vec::with_capacity(query.n * k);
        let mut dist = Vec::with_capacity(query.n * k);
        for (a, b) in rows {
            idx.extend(a);
            dist.extend(b);
        }
        Self { k, idx, dist }
    }

    /// [`Knn::search`] with the distances of each query computed in runs of reference points
    /// (column-major): the same distances bit for bit, hence the same neighbours, several times
    /// faster. The fit uses it; scoring one new row keeps [`Knn::search`].
    pub fn search_fast(query: &Points, reference: &Points, k: usize, exclude_self: bool) -> Self {
        let cand = reference.n - usize::from(exclude_self && reference.n > 0);
        let k = k.min(cand);
        let cols = Columns::new(reference);
        let rows: Vec<(Vec<u32>, Vec<f64>)> = (0..query.n)
            .into_par_iter()
            .map_init(
                || (Vec::new(), vec![0.0; RUN]),
                |(buf, run): &mut (Vec<(f64, u32)>, Vec<f64>), i| {
                    buf.clear();
                    for j0 in (0..reference.n).step_by(RUN) {
                        let len = RUN.min(reference.n - j0);
                        cols.sq_dists(query, i, j0, &mut run[..len]);
                        for (t, &d) in run[..len].iter().enumerate() {
                            let j = j0 + t;
                            if !(exclude_self && i == j) {
                                buf.push((d, j as u32));
                            }
                        }
                    }
                    let by =
                        |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
                    if k < buf.len() && k > 0 {
                        buf.select_nth_unstable_by(k - 1, by);
                    }
                    let top = &mut buf[..k];
                    top.sort_unstable_by(by);
                    (
                        top.iter().map(|t| t.1).collect(),
                        top.iter().map(|t| t.0.sqrt()).collect(),
                    )
                },
            )
            .collect();
        let mut idx = Vec::with_capacity(query.n * k);
        let mut dist = Vec::with_capacity(query.n * k);
        for (a, b) in rows {
            idx.extend(a);
            dist.extend(b);
        }
        Self { k, idx, dist }
    }

    /// From `k` neighbours per point, `idx` and `dist` row by row (`n * k` each).
    pub(crate) fn from_parts(k: usize, idx: Vec<u32>, dist: Vec<f64>) -> Self {
        debug_assert_eq!(idx.len(), dist.len());
        Self { k, idx, dist }
    }

    /// Neighbours per point.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Point `i`'s neighbours, nearest first.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.idx[i * self.k..(i + 1) * self.k]
    }

    /// Point `i`'s neighbour distances, increasing.
    pub fn dist(&self, i: usize) -> &[f64] {
        &self.dist[i * self.k..(i + 1) * self.k]
    }
}

/// A similarity between two points, one view of the data \[CVM sec. 3.1\].
///
/// Implementations must be symmetric, finite and non-negative; `value(a, i, a, i)` is the
/// self-similarity.
pub trait SubKernel: Send + Sync + fmt::Debug {
    /// Short name (`gaussian`, `pearson`, `density`).
    fn name(&self) -> &'static str;

    /// $k(a_i, b_j)$.
    fn value(&self, a: &Points, i: usize, b: &Points, j: usize) -> f64;

    /// The kernel with its fitted bandwidth as plain data, for saved models. A new sub-kernel
    /// adds a [`FittedKernel`] variant.
    fn fitted(&self) -> FittedKernel;
}

/// A sub-kernel with its fitted bandwidth, as a saved model stores it (serde): the
/// serializable twin of the `Box<dyn SubKernel>` a fit builds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum FittedKernel {
    /// [`Gaussian`] with bandwidth $\sigma_1$.
    Gaussian {
        /// $\sigma_1 > 0$.
        sigma1: f64,
    },
    /// [`Pearson`] (no parameter).
    Pearson,
    /// [`Density`] with bandwidth $\sigma_2$.
    Density {
        /// $\sigma_2 > 0$.
        sigma2: f64,
    },
}

impl FittedKernel {
    /// The kernel it describes.
    pub fn build(self) -> Box<dyn SubKernel> {
        match self {
            FittedKernel::Gaussian { sigma1 } => Box::new(Gaussian { sigma1 }),
            FittedKernel::Pearson => Box::new(Pearson),
            FittedKernel::Density { sigma2 } => Box::new(Density { sigma2 }),
        }
    }

    /// Its bandwidth ($\sigma_1$ or $\sigma_2$), or `None` for Pearson.
    pub fn bandwidth(self) -> Option<f64> {
        match self {
            FittedKernel::Gaussian { sigma1 } => Some(sigma1),
            FittedKernel::Pearson => None,
            FittedKernel::Density { sigma2 } => Some(sigma2),
        }
    }
}

/// Gaussian kernel \[CVM eq. 14\]:
/// $$K^{(1)}_{ij} = \exp\left(-\frac{\lVert x_i - x_j \rVert^2}{2\sigma_1^2}\right).$$
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gaussian {
    /// Bandwidth $\sigma_1 > 0$.
    pub sigma1: f64,
}

impl Gaussian {
    /// $\sigma_1$ = the median over points of the per-sample standard deviation (conventions section 7).
    /// Falls back to 1 when that median is 0 (every point constant across its features).
    pub fn median_std(pts: &Points) -> Self {
        let stds: Vec<f64> = (0..pts.n()).map(|i| pts.sample_std(i)).collect();
        let m = median(stds);
        Self {
            sigma1: if m > 0.0 { m } else { 1.0 },
        }
    }
}

impl SubKernel for Gaussian {
    fn name(&self) -> &'static str {
        "gaussian"
    }

    fn value(&self, a: &Points, i: usize, b: &Points, j: usize) -> f64 {
        (-a.sq_dist(i, b, j) / (2.0 * self.sigma1 * self.sigma1)).exp()
    }

    fn fitted(&self) -> FittedKernel {
        FittedKernel::Gaussian {
            sigma1: self.sigma1,
        }
    }
}

/// Pearson-correlation kernel \[CVM eq. 15\], computed over the features of the two samples:
/// $$K^{(2)}_{ij} = \frac{\operatorname{Cov}(x_i, x_j) + \sqrt{\operatorname{Var}(x_i)\operatorname{Var}(x_j)}}{2\sqrt{\operatorname{Var}(x_i)\operatorname{Var}(x_j)}} = \frac{1 + r_{ij}}{2}.$$
///
/// A sample with zero variance has no correlation; we set $r_{ij} = 0$ for it (value $1/2$),
/// which keeps the kernel positive semi-definite: it is $\tfrac12 + \tfrac12 u_i^\top u_j$ with
/// $u_i$ the centred, normalized sample, or $u_i = 0$.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pearson;

impl SubKernel for Pearson {
    fn name(&self) -> &'static str {
        "pearson"
    }

    fn value(&self, a: &Points, i: usize, b: &Points, j: usize) -> f64 {
        let (ci, cj) = (a.cnorm[i], b.cnorm[j]);
        if ci <= 0.0 || cj <= 0.0 {
            return 0.5;
        }
        let (mi, mj) = (a.mean[i], b.mean[j]);
        let mut s = 0.0;
        for (u, v) in a.row(i).iter().zip(b.row(j)) {
            s += (u - mi) * (v - mj);
        }
        let r = (s / (ci * cj)).clamp(-1.0, 1.0);
        0.5 * (1.0 + r)
    }

    fn fitted(&self) -> FittedKernel {
        FittedKernel::Pearson
    }
}

/// Density kernel \[CVM eq. 17\] on the local sparsities of eq. 16:
/// $$K^{(3)}_{ij} = \exp\left(-\frac{(\mathrm{SPA}(x_i) - \mathrm{SPA}(x_j))^2}{2\sigma_2^2}\right).$$
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Density {
    /// Bandwidth $\sigma_2 > 0$.
    pub sigma2: f64,
}

impl Density {
    /// $\sigma_2$ = the median local sparsity (conventions section 7); the largest sparsity when the
    /// median is 0 (many duplicate points), and 1 when every sparsity is 0.
    pub fn median_sparsity(pts: &Points) -> Self {
        let m = median(pts.spa.clone());
        let max = pts.spa.iter().copied().fold(0.0, f64::max);
        let sigma2 = if m > 0.0 {
            m
        } else if max > 0.0 {
            max
        } else {
            1.0
        };
        Self { sigma2 }
    }
}

impl SubKernel for Density {
    fn name(&self) -> &'static str {
        "density"
    }

    fn value(&self, a: &Points, i: usize, b: &Points, j: usize) -> f64 {
        let d = a.spa[i] - b.spa[j];
        (-d * d / (2.0 * self.sigma2 * self.sigma2)).exp()
    }

    fn fitted(&self) -> FittedKernel {
        FittedKernel::Density {
            sigma2: self.sigma2,
        }
    }
}

/// The sub-kernels of \[CVM sec. 3.1\], by the numbers K1, K2, K3 of \[CVM Table 6\].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubKernelKind {
    /// K1: [`Gaussian`] with the median-std bandwidth.
    Gaussian,
    /// K2: [`Pearson`].
    Pearson,
    /// K3: [`Density`] with the median-sparsity bandwidth.
    Density,
}

impl SubKernelKind {
    /// K1, K2 and K3: the three sub-kernels GAM-CVM fuses.
    pub const ALL: [SubKernelKind; 3] = [Self::Gaussian, Self::Pearson, Self::Density];

    /// The three sub-kernels of [`SubKernelKind::ALL`] fitted on `pts` (sparsity set).
    pub fn build_all(pts: &Points) -> Vec<Box<dyn SubKernel>> {
        Self::ALL.iter().map(|k| k.build(pts)).collect()
    }

    /// The kernel with its bandwidth fitted on `pts` (whose sparsity must be set for K3).
    pub fn build(self, pts: &Points) -> Box<dyn SubKernel> {
        match self {
            SubKernelKind::Gaussian => Box::new(Gaussian::median_std(pts)),
            SubKernelKind::Pearson => Box::new(Pearson),
            SubKernelKind::Density => Box::new(Density::median_sparsity(pts)),
        }
    }

    /// From the digit of an ablation name: 1, 2 or 3.
    pub fn from_digit(d: char) -> Option<Self> {
        match d {
            '1' => Some(Self::Gaussian),
            '2' => Some(Self::Pearson),
            '3' => Some(Self::Density),
            _ => None,
        }
    }
}

/// The median of finite values (mean of the middle two for an even count; 0 for none).
pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_unstable_by(f64::total_cmp);
    let h = v.len() / 2;
    if v.len() % 2 == 1 {
        v[h]
    } else {
        0.5 * (v[h - 1] + v[h])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(p: usize, x: &[f64]) -> Points {
        Points::from_dense(p, x.to_vec())
    }

    #[test]
    fn knn_matches_a_brute_force_sort() {
        // 40 pseudo-random points in 3-d, with duplicates to exercise the tie rule.
        let mut x = Vec::new();
        let mut s = 7u64;
        for i in 0..40 {
            for _ in 0..3 {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                x.push(if i % 10 == 3 {
                    0.5
                } else {
                    (s >> 40) as f64 / (1u64 << 24) as f64
                });
            }
        }
        let p = pts(3, &x);
        for k in [1, 5, 39, 60] {
            let knn = Knn::search(&p, &p, k, true);
            assert_eq!(knn.k(), k.min(39));
            for i in 0..40 {
                let mut all: Vec<(f64, u32)> = (0..40)
                    .filter(|&j| j != i)
                    .map(|j| (p.sq_dist(i, &p, j), j as u32))
                    .collect();
                all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let want: Vec<u32> = all[..knn.k()].iter().map(|t| t.1).collect();
                assert_eq!(knn.neighbours(i), &want[..], "k={k} i={i}");
                for (d, t) in knn.dist(i).iter().zip(&all) {
                    assert!((d - t.0.sqrt()).abs() < 1e-12);
                }
            }
        }
    }

    fn random(n: usize, p: usize, seed: u64) -> Points {
        let mut s = seed;
        let x = (0..n * p)
            .map(|e| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Some duplicate points and one constant point, for ties and zero variance.
                if e / p % 17 == 5 || e / p == 3 {
                    0.25
                } else {
                    (s >> 11) as f64 / (1u64 << 53) as f64
                }
            })
            .collect();
        Points::from_dense(p, x)
    }

    #[test]
    fn columns_match_the_scalar_kernels() {
        let mut pts = random(700, 5, 9);
        let knn = Knn::search(&pts, &pts, 6, true);
        pts.set_sparsity(&knn);
        let cols = Columns::new(&pts);
        let kinds = [
            FittedKernel::Gaussian { sigma1: 0.3 },
            FittedKernel::Pearson,
            FittedKernel::Density { sigma2: 0.07 },
        ];
        let mut out = vec![0.0; 700];
        for kind in kinds {
            let k = kind.build();
            for i in [0, 3, 5, 22, 699] {
                for (j0, len) in [(0, 700), (13, 512), (600, 100)] {
                    cols.values(kind, &pts, i, &pts, j0, &mut out[..len]);
                    for (t, got) in out[..len].iter().enumerate() {
                        let want = k.value(&pts, i, &pts, j0 + t);
                        assert_eq!(got.to_bits(), want.to_bits(), "{kind:?} ({i}, {})", j0 + t);
                    }
                }
            }
        }
    }

    #[test]
    fn fast_search_is_the_search() {
        let pts = random(1100, 4, 3);
        let q = random(40, 4, 8);
        for k in [1, 7, 30] {
            assert_eq!(
                Knn::search_fast(&pts, &pts, k, true),
                Knn::search(&pts, &pts, k, true)
            );
            assert_eq!(
                Knn::search_fast(&q, &pts, k, false),
                Knn::search(&q, &pts, k, false)
            );
        }
    }

    #[test]
    fn pearson_is_one_plus_correlation_over_two() {
        // x = (1, 2, 3), y = (2, 4, 6): r = 1; z = (3, 2, 1): r = -1; c = (5, 5, 5): no variance.
        let p = pts(
            3,
            &[1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 3.0, 2.0, 1.0, 5.0, 5.0, 5.0],
        );
        let k = Pearson;
        assert!((k.value(&p, 0, &p, 1) - 1.0).abs() < 1e-15);
        assert!(k.value(&p, 0, &p, 2).abs() < 1e-15);
        assert!((k.value(&p, 0, &p, 3) - 0.5).abs() < 1e-15);
        // x = (1, 0, 0), y = (0, 1, 0): means 1/3; centred (2/3,-1/3,-1/3), (-1/3,2/3,-1/3):
        // dot = -2/9 - 2/9 + 1/9 = -1/3, norms^2 = 6/9 each: r = -1/2, k = 1/4.
        let q = pts(3, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert!((k.value(&q, 0, &q, 1) - 0.25).abs() < 1e-15);
    }

    #[test]
    fn bandwidths_are_medians() {
        // Per-sample population stds of (0, 2), (0, 4), (1, 1): 1, 2, 0 -> median 1.
        let p = pts(2, &[0.0, 2.0, 0.0, 4.0, 1.0, 1.0]);
        assert!((Gaussian::median_std(&p).sigma1 - 1.0).abs() < 1e-15);
        // Gaussian value at squared distance 4 with sigma 1: exp(-2).
        let g = Gaussian { sigma1: 1.0 };
        assert!((g.value(&p, 0, &p, 1) - (-2.0f64).exp()).abs() < 1e-15);
        // Sparsity with k = 1 in 1-d at 0, 1, 3: nearest distances 1, 1, 2 -> median 1.
        let mut q = pts(1, &[0.0, 1.0, 3.0]);
        let knn = Knn::search(&q, &q, 1, true);
        q.set_sparsity(&knn);
        assert_eq!(q.sparsity(), &[1.0, 1.0, 2.0]);
        let d = Density::median_sparsity(&q);
        assert!((d.sigma2 - 1.0).abs() < 1e-15);
        assert!((d.value(&q, 0, &q, 2) - (-0.5f64).exp()).abs() < 1e-15);
        // Degenerate sets never give a zero bandwidth.
        let c = pts(2, &[1.0, 1.0, 1.0, 1.0]);
        assert!((Gaussian::median_std(&c).sigma1 - 1.0).abs() < 1e-15);
        assert!((Density::median_sparsity(&c).sigma2 - 1.0).abs() < 1e-15);
    }
}
