//! Cross-diffusion fusion of sub-kernels \[CVM eqs. 18-22\] into one symmetric kernel matrix, with
//! sparse local kernels and `f32` storage.
//!
//! # The iteration
//!
//! With $M \ge 2$ sub-kernels, the status matrices start at the natural kernels
//! $P^{(m)}_0 = \bar K^{(m)}$ (eq. 18, normalized as below) and are updated by eq. 21,
//! $$P^{(m)}_{t+1} = \bar L^{(m)} \Big(\frac{1}{M-1}\sum_{s \ne m} P^{(s)}_t\Big) \bar L^{(m)\top} + \rho I,$$
//! where $\bar L^{(m)}$ keeps $n_{loc}$ entries per row (eqs. 19-20). The fused kernel is eq. 22,
//! $\tilde K = \frac1M \sum_m \tfrac12 (P^{(m)}_T + P^{(m)\top}_T)$. Iteration stops when the
//! distance of Theorem 1, $d_t = \max_{m<s} \lVert P^{(m)}_t - P^{(s)}_t \rVert_F$, changes by
//! less than `tol` relative to its previous value, or after `max_iter` rounds.
//!
//! Each product is sparse-dense-sparse. $Y = \bar L A$ adds $n_{loc}$ dense rows per row;
//! after a blocked, parallel transpose, $\bar L Y^\top = \bar L A^\top \bar L^\top$ is again
//! $n_{loc}$ dense row additions per row: $O(n^2 n_{loc})$ per sub-kernel and round, contiguous
//! and vectorizable, never $O(n^3)$. That product is the *transpose* of eq. 21's
//! $\bar L A \bar L^\top$. Since it is applied to every status matrix, the stored matrices
//! alternate exactly between $P_t$ (even $t$) and $P_t^\top$ (odd $t$): if every stored matrix is
//! $P_t^\top$, their $A$ is $A_t^\top$ and the product gives $\bar L A_t \bar L^\top = P_{t+1}$
//! minus $\rho I$. Eq. 22 and Theorem 1's distance do not change under transposing all of them,
//! so no second transpose is needed (the dense reference in the tests transposes nothing).
//!
//! # Memory
//!
//! Jacobi order (eq. 21 reads round $t$ only) is kept with $M + 2$ dense $n \times n$ `f32`
//! matrices: the $M$ status matrices, their sum $S$ (so $\sum_{s \ne m} P^{(s)}_t = S - P^{(m)}_t$
//! stays available after $P^{(m)}$ is replaced), and one scratch matrix. For Letter-z
//! ($n = 20{,}000$, $M = 3$) that is $5 \cdot 4 n^2$ bytes = 8.0 GB at the peak, and the fused
//! kernel alone is 1.6 GB. `f32` changes the fused kernel by less than $10^{-6}$ of its largest
//! entry against an `f64` computation (test `f32_fusion_matches_an_f64_dense_reference`).
//!
//! # Normalization: each kernel by its own rows (deviation from eqs. 18 and 20 as printed)
//!
//! Eqs. 18 and 20 as printed divide each entry $K^{(m)}_{ij}$ by the sum over the *sub-kernels*
//! of that entry, so that $\sum_m \bar K^{(m)}_{ij} = 1$. We normalize each kernel by its own
//! rows instead, as the cross-diffusion the paper adopts does \[Wang12\]:
//! $$\bar K^{(m)}_{ij} = \frac{n\,K^{(m)}_{ij}}{\sum_k K^{(m)}_{ik}}, \qquad
//! \bar L^{(m)}_{ij} = \frac{L^{(m)}_{ij}}{\sum_k L^{(m)}_{ik}}.$$
//! Three reasons:
//! - The paper itself says that $\bar K^{(m)}_t$ and $\bar L^{(m)}$ are "generally asymmetric".
//!   Entrywise ratios of symmetric kernels are symmetric. Row-normalized kernels are not.
//! - Theorem 1's proof needs row-stochastic local kernels (eq. 25, the stationary
//!   distribution $\mathbf 1 \pi^\top$). With eq. 20 as printed a row of $\bar L^{(m)}$ sums to
//!   about $n_{loc}/M$, and each round multiplies $P$ by about $(n_{loc}/M)^2$: the iteration
//!   overflows (test `printed_local_kernel_diverges_and_row_stochastic_stays_bounded`).
//! - The printed eq. 18 keeps only each kernel's *share* of an entry. Two identical sub-kernels
//!   give $\bar K^{(1)} = \bar K^{(2)} = \tfrac12$ everywhere, which carries no similarity at
//!   all. With $M = 2$, eq. 21 diffuses $1 - \bar K^{(m)}$, the complement of the kernel's own
//!   similarity. Our two-kernel ablations inverted the ranking this way (AUC 0.14 on Breast-w
//!   for K2+K3; test `two_copies_of_one_kernel_keep_its_ranking`).
//!
//! The factor $n$ (rows of $\bar K$ average 1, not sum to 1) keeps the entries on the scale of
//! the sub-kernels, so $\rho$ and $C_1$ mean the same thing for every $n$.
//! [`Normalization::AcrossKernels`] keeps the printed eq. 18. It uses the printed eq. 20 too,
//! with rows then divided by their sum so that the iteration stays bounded
//! (`--param normalization=printed`).
//!
//! Measured (docs/results/README.md): the printed form makes two-kernel fusions rank below
//! chance on three of 13 data sets, yet gives the better three-kernel model on 12 of them. One
//! known weakness of ours: an isolated point has a small row sum, so its self-similarity
//! $n K_{ii} / \sum_k K_{ik}$ can be hundreds of times the median diagonal, and a few such
//! points then dominate the pairs of the CVM dual.
//!
//! # Positive definiteness
//!
//! The natural kernels of eq. 18 (row-normalized or entrywise ratios) can be indefinite; the dual
//! of eq. 40 needs a positive semi-definite kernel. The row-stochastic local kernels damp the
//! indefinite part round after round, and every round adds $\rho I$: the fused kernel's
//! smallest eigenvalue comes out at about $\rho$ (test
//! `fused_kernel_is_positive_definite_where_the_natural_kernel_is_not`). So $\rho > 0$ is what
//! makes $\tilde K$ a valid kernel, and is required.
//!
//! # One sub-kernel
//!
//! Eq. 21 needs $M \ge 2$ (and with $M = 1$ the printed eq. 18 would make every entry 1). The
//! single-kernel variants of \[CVM Table 6\] therefore use the sub-kernel matrix itself.

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::kernels::{Knn, Points, SubKernel};

/// A dense symmetric kernel matrix in `f32`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Gram {
    n: usize,
    v: Vec<f32>,
}

impl Gram {
    /// The matrix with entries `f(i, j)`, rows computed in parallel.
    pub fn from_fn(n: usize, f: impl Fn(usize, usize) -> f64 + Sync) -> Self {
        let mut v = vec![0f32; n * n];
        if n > 0 {
            v.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
                for (j, e) in row.iter_mut().enumerate() {
                    *e = f(i, j) as f32;
                }
            });
        }
        Self { n, v }
    }

    /// From row-major values.
    ///
    /// # Panics
    /// If `v.len() != n * n` (a programmer error).
    pub fn from_vec(n: usize, v: Vec<f32>) -> Self {
        assert_eq!(v.len(), n * n, "a {n} x {n} matrix needs {} values", n * n);
        Self { n, v }
    }

    /// Order $n$.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Entry $(i, j)$.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> f64 {
        f64::from(self.v[i * self.n + j])
    }

    /// Row $i$ (also column $i$: the matrix is symmetric).
    #[inline]
    pub fn row(&self, i: usize) -> &[f32] {
        &self.v[i * self.n..(i + 1) * self.n]
    }

    /// Bytes of the stored entries.
    pub fn bytes(&self) -> usize {
        self.v.len() * std::mem::size_of::<f32>()
    }

    /// $\max_{i,j} |G_{ij} - G_{ji}|$.
    pub fn asymmetry(&self) -> f64 {
        let n = self.n;
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| (self.get(i, j) - self.get(j, i)).abs())
            .fold(0.0, f64::max)
    }
}

/// How the natural and local kernels of eqs. 18 and 20 are normalized (see the module docs).
/// Saved models store it (serde), since inductive scoring normalizes the local kernels of a new
/// point the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Normalization {
    /// Each kernel by its own rows, as the cross-diffusion of \[Wang12\]: $\bar K^{(m)}$'s rows
    /// average 1 and $\bar L^{(m)}$'s rows sum to 1. The default.
    #[default]
    #[serde(rename = "rows")]
    Rows,
    /// Eqs. 18 and 20 as printed: each entry over the sum of that entry across the sub-kernels.
    /// The local kernels' rows are then divided by their sums, or the iteration overflows.
    #[serde(rename = "printed")]
    AcrossKernels,
}

/// Settings of the cross-diffusion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusionParams {
    /// $\rho > 0$ of eq. 21.
    pub rho: f64,
    /// At most this many rounds $T$.
    pub max_iter: usize,
    /// Relative change of the Theorem 1 distance below which the iteration stops.
    pub tol: f64,
    /// Normalization of eqs. 18 and 20.
    pub normalization: Normalization,
}

/// What the fusion did.
#[derive(Clone, Debug, PartialEq)]
pub struct FusionInfo {
    /// Rounds run.
    pub iterations: usize,
    /// The Theorem 1 distance $d_t$ after each round ($t = 0$ first).
    pub distances: Vec<f64>,
    /// Whether the relative change fell below `tol` before `max_iter`.
    pub converged: bool,
    /// Wall-clock seconds of the whole fusion (sub-kernels, local kernels, diffusion).
    pub seconds: f64,
    /// Bytes of dense matrices alive at the peak.
    pub peak_bytes: usize,
}

/// The local kernels $\bar L^{(m)}(a_i, \cdot)$ of point `i` of `a` over its neighbours `nbrs` in
/// `b` (eqs. 19-20, normalized as `norm` says: see the module docs), one weight list per
/// sub-kernel. Each list sums to 1.
pub fn local_weights(
    a: &Points,
    i: usize,
    b: &Points,
    nbrs: &[u32],
    kernels: &[Box<dyn SubKernel>],
    norm: Normalization,
) -> Vec<Vec<f64>> {
    local_weights_impl(a, i, b, nbrs, kernels, norm, true)
}

/// [`local_weights`], with the final row normalization optional: without it (and with
/// [`Normalization::AcrossKernels`]) this is eq. 20 exactly as printed.
fn local_weights_impl(
    a: &Points,
    i: usize,
    b: &Points,
    nbrs: &[u32],
    kernels: &[Box<dyn SubKernel>],
    norm: Normalization,
    row_normalize: bool,
) -> Vec<Vec<f64>> {
    let m = kernels.len();
    let mut w: Vec<Vec<f64>> = kernels
        .iter()
        .map(|k| nbrs.iter().map(|&j| k.value(a, i, b, j as usize)).collect())
        .collect();
    if norm == Normalization::AcrossKernels {
        for t in 0..nbrs.len() {
            let s: f64 = w.iter().map(|r| r[t]).sum();
            for r in &mut w {
                r[t] = if s > 0.0 { r[t] / s } else { 1.0 / m as f64 };
            }
        }
    }
    if row_normalize {
        for r in &mut w {
            let s: f64 = r.iter().sum();
            let k = r.len() as f64;
            for v in r.iter_mut() {
                *v = if s > 0.0 { *v / s } else { 1.0 / k };
            }
        }
    }
    w
}

/// The fused kernel of the points `pts` (whose sparsity is set), their neighbour lists `knn` and
/// the sub-kernels; see the module docs. One sub-kernel gives its own matrix.
pub fn fuse(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    params: &FusionParams,
) -> (Gram, FusionInfo) {
    fuse_impl(pts, knn, kernels, params, true)
}

pub(crate) fn fuse_impl(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    params: &FusionParams,
    row_normalize: bool,
) -> (Gram, FusionInfo) {
    let start = Instant::now();
    let n = pts.n();
    let m = kernels.len();
    if m <= 1 || n == 0 {
        let g = match kernels.first() {
            Some(k) => Gram::from_fn(n, |i, j| k.value(pts, i, pts, j)),
            None => Gram::from_fn(n, |_, _| 0.0),
        };
        let peak = g.bytes();
        return (
            g,
            FusionInfo {
                iterations: 0,
                distances: Vec::new(),
                converged: true,
                seconds: start.elapsed().as_secs_f64(),
                peak_bytes: peak,
            },
        );
    }
    let k = knn.k();
    // Local kernels, f32, n * k weights per sub-kernel [eqs. 19-20].
    let mut lw: Vec<Vec<f32>> = vec![vec![0f32; n * k]; m];
    let rows: Vec<Vec<Vec<f64>>> = (0..n)
        .into_par_iter()
        .map(|i| {
            let nb = knn.neighbours(i);
            local_weights_impl(
                pts,
                i,
                pts,
                nb,
                kernels,
                params.normalization,
                row_normalize,
            )
        })
        .collect();
    for (i, r) in rows.into_iter().enumerate() {
        for (mm, w) in r.into_iter().enumerate() {
            for (t, v) in w.into_iter().enumerate() {
                lw[mm][i * k + t] = v as f32;
            }
        }
    }
    // Natural kernels [eq. 18]: raw sub-kernel matrices, then normalized.
    let mut p: Vec<Vec<f32>> = kernels
        .iter()
        .map(|kk| Gram::from_fn(n, |i, j| kk.value(pts, i, pts, j)).v)
        .collect();
    let mut s = vec![0f32; n * n];
    match params.normalization {
        Normalization::Rows => {
            // Rows averaging 1; sums in f64 so that n = 20,000 entries add without drift.
            for pm in &mut p {
                pm.par_chunks_mut(n).for_each(|row| {
                    let sum: f64 = row.iter().map(|&v| f64::from(v)).sum();
                    let scale = if sum > 0.0 {
                        (n as f64 / sum) as f32
                    } else {
                        0.0
                    };
                    for v in row.iter_mut() {
                        *v = if sum > 0.0 { *v * scale } else { 1.0 };
                    }
                });
            }
        }
        Normalization::AcrossKernels => {
            sum_into(&mut s, &p);
            let inv_m = 1.0 / m as f32;
            for pm in &mut p {
                pm.par_iter_mut().zip(s.par_iter()).for_each(|(x, &t)| {
                    *x = if t > 0.0 { *x / t } else { inv_m };
                });
            }
        }
    }
    sum_into(&mut s, &p);
    let mut y = vec![0f32; n * n];
    let peak_bytes = (m + 2) * n * n * std::mem::size_of::<f32>();
    let mut distances = vec![max_distance(&p)];
    let mut converged = false;
    let mut iterations = 0;
    let inv = 1.0 / (m - 1) as f32;
    let rho = params.rho as f32;
    while iterations < params.max_iter {
        for (mm, w) in lw.iter().enumerate() {
            // A = (S - P_m) / (M - 1) into the scratch matrix; P_m is free afterwards.
            y.par_iter_mut()
                .zip(s.par_iter().zip(p[mm].par_iter()))
                .for_each(|(yv, (sv, pv))| *yv = (sv - pv) * inv);
            // P_m := L A [eq. 21, left product]: n_loc dense rows per row.
            let pm = &mut p[mm];
            add_rows(pm, &y, n, k, w, knn, 0.0);
            // Right product through the symmetry of A: (L A)^T = A L^T, so
            // L (L A)^T = L A L^T; transpose into the scratch matrix (A is consumed), then
            // P_m := L (L A)^T + rho I [eq. 21].
            transpose_into(pm, &mut y, n);
            add_rows(pm, &y, n, k, w, knn, rho);
        }
        sum_into(&mut s, &p);
        iterations += 1;
        let d = max_distance(&p);
        let prev = *distances.last().unwrap_or(&d);
        distances.push(d);
        if !d.is_finite() {
            break;
        }
        if (d - prev).abs() <= params.tol * prev.max(f64::MIN_POSITIVE) {
            converged = true;
            break;
        }
    }
    drop(y);
    // Fused kernel [eq. 22], written over S.
    let half = 0.5 / m as f32;
    s.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        for (j, e) in row.iter_mut().enumerate() {
            let mut acc = 0f32;
            for pm in &p {
                acc += pm[i * n + j] + pm[j * n + i];
            }
            *e = half * acc;
        }
    });
    (
        Gram { n, v: s },
        FusionInfo {
            iterations,
            distances,
            converged,
            seconds: start.elapsed().as_secs_f64(),
            peak_bytes,
        },
    )
}

/// `out[i, :] = sum over the neighbours j of i of w_ij src[j, :]`, plus `diag` on the diagonal.
fn add_rows(out: &mut [f32], src: &[f32], n: usize, k: usize, w: &[f32], knn: &Knn, diag: f32) {
    out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        row.fill(0.0);
        for (&j, &wij) in knn.neighbours(i).iter().zip(&w[i * k..(i + 1) * k]) {
            let j = j as usize;
            for (o, v) in row.iter_mut().zip(&src[j * n..(j + 1) * n]) {
                *o += wij * v;
            }
        }
        row[i] += diag;
    });
}

/// `dst = src^T` for `n x n` row-major matrices, in parallel blocks of 64 output rows.
fn transpose_into(src: &[f32], dst: &mut [f32], n: usize) {
    const B: usize = 64;
    dst.par_chunks_mut(B * n)
        .enumerate()
        .for_each(|(bk, rows)| {
            let r0 = bk * B;
            let nr = rows.len() / n;
            for c0 in (0..n).step_by(B) {
                for c in c0..(c0 + B).min(n) {
                    let from = &src[c * n + r0..c * n + r0 + nr];
                    for (r, &v) in from.iter().enumerate() {
                        rows[r * n + c] = v;
                    }
                }
            }
        });
}

/// `s = sum of p`, elementwise.
fn sum_into(s: &mut [f32], p: &[Vec<f32>]) {
    s.par_iter_mut().enumerate().for_each(|(e, v)| {
        *v = p.iter().map(|pm| pm[e]).sum();
    });
}

/// Theorem 1's distance: the largest Frobenius distance between two status matrices. Partial
/// sums over fixed blocks are added in order, so the value (and the round the iteration stops
/// at) does not depend on how rayon schedules the work.
fn max_distance(p: &[Vec<f32>]) -> f64 {
    const BLOCK: usize = 1 << 14;
    let mut best = 0.0f64;
    for a in 0..p.len() {
        for b in a + 1..p.len() {
            let parts: Vec<f64> = p[a]
                .par_chunks(BLOCK)
                .zip(p[b].par_chunks(BLOCK))
                .map(|(x, y)| {
                    x.iter()
                        .zip(y)
                        .map(|(&u, &v)| {
                            let d = f64::from(u) - f64::from(v);
                            d * d
                        })
                        .sum::<f64>()
                })
                .collect();
            best = best.max(parts.iter().sum::<f64>().sqrt());
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::SubKernelKind;

    fn problem(n: usize, p: usize, seed: u64) -> Points {
        let mut s = seed;
        let x = (0..n * p)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect();
        Points::from_dense(p, x)
    }

    fn setup(n: usize, k: usize) -> (Points, Knn, Vec<Box<dyn SubKernel>>) {
        let mut pts = problem(n, 4, 42);
        let knn = Knn::search(&pts, &pts, k, true);
        pts.set_sparsity(&knn);
        let kernels = SubKernelKind::build_all(&pts);
        (pts, knn, kernels)
    }

    /// Dense f64 reference of eqs. 18-22 with O(n^3) products, normalized as `norm` says
    /// (rows of L always summing to 1).
    fn dense_reference(
        pts: &Points,
        knn: &Knn,
        kernels: &[Box<dyn SubKernel>],
        rho: f64,
        iters: usize,
        norm: Normalization,
    ) -> Vec<f64> {
        let n = pts.n();
        let m = kernels.len();
        let raw: Vec<Vec<f64>> = kernels
            .iter()
            .map(|kk| {
                (0..n * n)
                    .map(|e| kk.value(pts, e / n, pts, e % n))
                    .collect()
            })
            .collect();
        let across = norm == Normalization::AcrossKernels;
        let mut p: Vec<Vec<f64>> = (0..m)
            .map(|mm| {
                (0..n * n)
                    .map(|e| {
                        if across {
                            raw[mm][e] / (0..m).map(|q| raw[q][e]).sum::<f64>()
                        } else {
                            let row = &raw[mm][(e / n) * n..(e / n + 1) * n];
                            raw[mm][e] * n as f64 / row.iter().sum::<f64>()
                        }
                    })
                    .collect()
            })
            .collect();
        // Dense L: eq. 19 keeps neighbour entries, eq. 20 (printed) divides by the sum over
        // kernels, then each row is divided by its sum.
        let l: Vec<Vec<f64>> = (0..m)
            .map(|mm| {
                let mut l = vec![0.0; n * n];
                for i in 0..n {
                    for &j in knn.neighbours(i) {
                        let j = j as usize;
                        let tot: f64 = if across {
                            (0..m).map(|q| raw[q][i * n + j]).sum()
                        } else {
                            1.0
                        };
                        l[i * n + j] = raw[mm][i * n + j] / tot;
                    }
                    let rs: f64 = l[i * n..(i + 1) * n].iter().sum();
                    for v in &mut l[i * n..(i + 1) * n] {
                        *v /= rs;
                    }
                }
                l
            })
            .collect();
        let matmul = |a: &[f64], b: &[f64], bt: bool| -> Vec<f64> {
            let mut c = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    let mut s = 0.0;
                    for t in 0..n {
                        let bv = if bt { b[j * n + t] } else { b[t * n + j] };
                        s += a[i * n + t] * bv;
                    }
                    c[i * n + j] = s;
                }
            }
            c
        };
        for _ in 0..iters {
            let old = p.clone();
            for mm in 0..m {
                let a: Vec<f64> = (0..n * n)
                    .map(|e| {
                        (0..m).filter(|&q| q != mm).map(|q| old[q][e]).sum::<f64>() / (m - 1) as f64
                    })
                    .collect();
                let la = matmul(&l[mm], &a, false);
                let mut next = matmul(&la, &l[mm], true);
                for i in 0..n {
                    next[i * n + i] += rho;
                }
                p[mm] = next;
            }
        }
        (0..n * n)
            .map(|e| {
                let (i, j) = (e / n, e % n);
                (0..m)
                    .map(|q| p[q][i * n + j] + p[q][j * n + i])
                    .sum::<f64>()
                    / (2 * m) as f64
            })
            .collect()
    }

    /// Odd and even round counts: the fast path stores transposed status matrices after odd
    /// rounds (module docs), the reference never transposes.
    #[test]
    fn f32_fusion_matches_an_f64_dense_reference() {
        let (pts, knn, kernels) = setup(30, 5);
        for normalization in [Normalization::Rows, Normalization::AcrossKernels] {
            for rounds in [3, 4] {
                let params = FusionParams {
                    rho: 0.1,
                    max_iter: rounds,
                    tol: 0.0,
                    normalization,
                };
                let (g, info) = fuse(&pts, &knn, &kernels, &params);
                assert_eq!(info.iterations, rounds);
                let want = dense_reference(&pts, &knn, &kernels, 0.1, rounds, normalization);
                let n = pts.n();
                let scale = want.iter().fold(0.0, |a: f64, v| a.max(v.abs()));
                let worst = (0..n * n)
                    .map(|e| (g.get(e / n, e % n) - want[e]).abs())
                    .fold(0.0, f64::max);
                assert!(
                    worst < 1e-6 * scale.max(1.0),
                    "{normalization:?}, {rounds} rounds: max |f32 - f64| = {worst}, scale {scale}"
                );
                assert!(g.asymmetry() < 1e-12);
                assert_eq!(info.peak_bytes, 5 * 30 * 30 * 4);
            }
        }
    }

    /// Fraction of the triples (i, j, k), j, k != i, on which `a` and `b` order K(i, j) and
    /// K(i, k) the same way (ties in `a` skipped).
    #[allow(clippy::float_cmp, reason = "exact ties are what is skipped")]
    fn concordance(
        a: &dyn Fn(usize, usize) -> f64,
        b: &dyn Fn(usize, usize) -> f64,
        n: usize,
    ) -> f64 {
        let (mut same, mut all) = (0usize, 0usize);
        for i in 0..n {
            for j in 0..n {
                for k in j + 1..n {
                    if i == j || i == k || a(i, j) == a(i, k) {
                        continue;
                    }
                    all += 1;
                    if (a(i, j) > a(i, k)) == (b(i, j) > b(i, k)) {
                        same += 1;
                    }
                }
            }
        }
        same as f64 / all as f64
    }

    /// Fusing a kernel with a copy of itself must keep its similarity order. With the printed
    /// eq. 18 both natural kernels are 1/2 everywhere and eq. 20 gives uniform weights, so the
    /// fused matrix depends only on the neighbour graph: the Gaussian and the Pearson kernel
    /// fuse to the same matrix, and the Gaussian order is largely lost.
    #[test]
    fn two_copies_of_one_kernel_keep_its_ranking() {
        let (pts, knn, _) = setup(40, 8);
        let n = pts.n();
        let twice = |kind: SubKernelKind| -> Vec<Box<dyn SubKernel>> {
            vec![kind.build(&pts), kind.build(&pts)]
        };
        let fuse_with = |ks: &[Box<dyn SubKernel>], normalization| {
            let params = FusionParams {
                rho: 0.1,
                max_iter: 20,
                tol: 1e-3,
                normalization,
            };
            fuse(&pts, &knn, ks, &params).0
        };
        let gauss = SubKernelKind::Gaussian.build(&pts);
        let k = |i: usize, j: usize| gauss.value(&pts, i, &pts, j);
        let rows = fuse_with(&twice(SubKernelKind::Gaussian), Normalization::Rows);
        let printed = fuse_with(
            &twice(SubKernelKind::Gaussian),
            Normalization::AcrossKernels,
        );
        let printed_pearson =
            fuse_with(&twice(SubKernelKind::Pearson), Normalization::AcrossKernels);
        assert_eq!(
            printed, printed_pearson,
            "printed form ignores the kernel values"
        );
        let ours = concordance(&k, &|i, j| rows.get(i, j), n);
        let theirs = concordance(&k, &|i, j| printed.get(i, j), n);
        // Measured: 0.85 against 0.50 (chance).
        assert!(
            ours > 0.8,
            "row-normalized fusion keeps {ours} of the order"
        );
        assert!(theirs < 0.6, "printed {theirs}, rows {ours}");
    }

    #[test]
    fn fused_kernel_is_symmetric_non_negative_and_converges() {
        let (pts, knn, kernels) = setup(60, 8);
        let params = FusionParams {
            rho: 0.05,
            max_iter: 100,
            tol: 1e-4,
            normalization: Normalization::Rows,
        };
        let (g, info) = fuse(&pts, &knn, &kernels, &params);
        assert!(info.converged, "{:?}", info.distances);
        assert!(info.iterations < 100);
        assert_eq!(
            g.asymmetry().to_bits(),
            0f64.to_bits(),
            "eq. 22 averages P and P^T exactly"
        );
        for i in 0..60 {
            for j in 0..60 {
                assert!(g.get(i, j) >= 0.0 && g.get(i, j).is_finite());
            }
        }
        // The distance sequence settles: successive changes shrink.
        let d = &info.distances;
        let last = (d[d.len() - 1] - d[d.len() - 2]).abs();
        let first = (d[1] - d[0]).abs();
        assert!(last < first, "{d:?}");
    }

    #[test]
    fn printed_local_kernel_diverges_and_row_stochastic_stays_bounded() {
        let (pts, knn, kernels) = setup(40, 16);
        let params = |normalization| FusionParams {
            rho: 0.1,
            max_iter: 6,
            tol: 0.0,
            normalization,
        };
        let across = params(Normalization::AcrossKernels);
        let (printed, _) = fuse_impl(&pts, &knn, &kernels, &across, false);
        let (bounded, _) = fuse(&pts, &knn, &kernels, &across);
        let (rows, _) = fuse(&pts, &knn, &kernels, &params(Normalization::Rows));
        let max = |g: &Gram| {
            (0..40 * 40)
                .map(|e| g.get(e / 40, e % 40).abs())
                .fold(0.0, f64::max)
        };
        // Rows of eq. 20 sum to about 16/3, so six rounds scale entries by about (16/3)^12.
        assert!(max(&printed) > 1e6, "printed form: {}", max(&printed));
        // Row-stochastic L: natural entries at most 1 stay below 1 + rho * rounds.
        assert!(
            max(&bounded) <= 1.0 + 0.1 * 6.0 + 1e-6,
            "bounded: {}",
            max(&bounded)
        );
        // Rows averaging 1: entries stay of order 1 (a row's largest natural entry is at most
        // n / (its row sum), here below 40 / 1).
        assert!(max(&rows) < 40.0, "rows: {}", max(&rows));
    }

    #[test]
    fn one_sub_kernel_is_its_own_matrix() {
        let (pts, knn, kernels) = setup(10, 3);
        let one = vec![SubKernelKind::Gaussian.build(&pts)];
        let (g, info) = fuse(
            &pts,
            &knn,
            &one,
            &FusionParams {
                rho: 0.1,
                max_iter: 5,
                tol: 1e-3,
                normalization: Normalization::Rows,
            },
        );
        assert_eq!(info.iterations, 0);
        assert!((g.get(2, 7) - kernels[0].value(&pts, 2, &pts, 7)).abs() < 1e-7);
    }
}

#[cfg(test)]
mod positive_definite {
    use super::*;
    use crate::kernels::SubKernelKind;

    /// Smallest eigenvalue of a symmetric matrix (cyclic Jacobi, `auc_core::testing`).
    pub(super) fn min_eig(a: Vec<f64>, n: usize) -> f64 {
        auc_core::testing::symmetric_eigenvalues(n, a)
            .into_iter()
            .fold(f64::INFINITY, f64::min)
    }

    /// The natural kernel of eq. 18 (an entrywise ratio) can be indefinite; after the diffusion
    /// the fused kernel's smallest eigenvalue is about rho: the negative part decays through
    /// the row-stochastic local kernels and eq. 21 adds rho I every round. So rho is what makes
    /// the fused kernel a valid kernel for the QP.
    #[test]
    fn fused_kernel_is_positive_definite_where_the_natural_kernel_is_not() {
        for seed in [1u64, 3] {
            let mut s = seed;
            let x: Vec<f64> = (0..50 * 4)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (s >> 11) as f64 / (1u64 << 53) as f64
                })
                .collect();
            let mut pts = Points::from_dense(4, x);
            let knn = Knn::search(&pts, &pts, 8, true);
            pts.set_sparsity(&knn);
            let ks = SubKernelKind::build_all(&pts);
            let natural: Vec<f64> = (0..2500)
                .map(|e| {
                    let (i, j) = (e / 50, e % 50);
                    let v: Vec<f64> = ks.iter().map(|k| k.value(&pts, i, &pts, j)).collect();
                    v[0] / v.iter().sum::<f64>()
                })
                .collect();
            let nat_min = min_eig(natural, 50);
            assert!(
                nat_min < -1e-3,
                "seed {seed}: natural kernel min eig {nat_min}"
            );
            for normalization in [Normalization::Rows, Normalization::AcrossKernels] {
                for rho in [1e-4, 0.1] {
                    let params = FusionParams {
                        rho,
                        max_iter: 20,
                        tol: 1e-3,
                        normalization,
                    };
                    let (g, _) = fuse(&pts, &knn, &ks, &params);
                    let a: Vec<f64> = (0..2500).map(|e| g.get(e / 50, e % 50)).collect();
                    let m = min_eig(a, 50);
                    assert!(
                        m > 0.9 * rho,
                        "seed {seed}, {normalization:?}, rho {rho}: fused min eig {m}"
                    );
                }
            }
        }
    }
}
