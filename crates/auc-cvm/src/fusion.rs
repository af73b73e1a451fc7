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
//! # The state: each kernel's sum of the others
//!
//! Eq. 21 reads round $t$ only (Jacobi order). Instead of the status matrices we keep
//! $Q^{(m)} = \sum_{s \ne m} P^{(s)}_t$, the matrix eq. 21 diffuses for kernel $m$: the product
//! $R^{(m)} = \bar L^{(m)} Q^{(m)} \bar L^{(m)\top} / (M-1) + \rho I$ is $P^{(m)}_{t+1}$, and
//! $Q^{(m)}$ is read by that product only. So each product writes into the one free buffer,
//! and the buffer of the $Q^{(m)}$ it consumed becomes the free one for the next kernel. After
//! the round the state is turned back in place, entry by entry:
//! $Q^{(m)} = \sum_s R^{(s)} - R^{(m)}$. Theorem 1's distance is read from either form
//! ($P^{(m)} - P^{(s)} = Q^{(s)} - Q^{(m)}$). That is **$M + 1$ dense matrices** at the peak,
//! not the $M + 2$ of the status matrices, their sum and a scratch matrix.
//!
//! # Symmetric forms: one packed triangle per matrix
//!
//! With the printed normalization (the default) every natural kernel is an entrywise ratio of
//! symmetric kernels, hence symmetric, and $\bar L Q \bar L^\top$ is symmetric whenever $Q$
//! is: every status matrix stays symmetric, and each is stored as its lower triangle, packed by
//! rows ($n(n+1)/2$ values). Row normalization makes $\bar K^{(m)}$ asymmetric (rows scaled
//! differently), so its matrices are stored square. [`keeps_symmetry`] says which;
//! [`peak_bytes`] gives the bytes.
//!
//! The symmetric product splits $Q = D + D^\top$ ($D$ the strict lower triangle plus half the
//! diagonal, i.e. the packed rows as stored): $\bar L Q \bar L^\top = W + W^\top$ with
//! $U = \bar L D$ and $W = U \bar L^\top$. The crate's private module `packed` computes it by
//! blocks of 16 rows, with the points renumbered along their neighbour graph (reverse
//! Cuthill-McKee) so that a block's reads stay in cache, and skips the tiles of $W$ that are
//! exactly zero in that order; its module docs give the stages. An off-diagonal entry receives at most two values, which
//! commute, so the result does not depend on the order the blocks run in.
//!
//! The square product of the row form adds $n_{loc}$ dense rows per row, $Y = \bar L Q$; after a
//! blocked, parallel transpose, $\bar L Y^\top = \bar L Q^\top \bar L^\top$ is again $n_{loc}$
//! row additions per row: $O(n^2 n_{loc})$ per sub-kernel and round, never $O(n^3)$. That is the
//! *transpose* of eq. 21's product. Since it is applied to every matrix, the stored matrices
//! alternate between $P_t$ and $P_t^\top$; eq. 22 and Theorem 1's distance do not change under
//! transposing all of them, so no second transpose is needed (the dense reference in the tests
//! transposes nothing).
//!
//! # Memory
//!
//! For Letter-z ($n = 20{,}000$, $M = 3$): 4 packed triangles, 3.2 GB, with the printed
//! normalization (8.0 GB before: 5 squares); 4 squares, 6.4 GB, with row normalization. The
//! fused kernel (one square, 1.6 GB) is built after all but one triangle are freed. Every
//! buffer is reserved fallibly: a fusion the system cannot hold is a [`MemoryError`], never an
//! abort. `f32` changes the fused kernel by less than $10^{-6}$ of its largest entry against an
//! `f64` computation (test `f32_fusion_matches_an_f64_dense_reference`). Beyond that, the
//! landmark approximation ([`crate::approx`]) needs no $n \times n$ matrix.
//!
//! # Normalization: the printed form by default, each kernel by its rows as an option
//!
//! Eqs. 18 and 20 as printed divide each entry $K^{(m)}_{ij}$ by the sum over the *sub-kernels*
//! of that entry, so that $\sum_m \bar K^{(m)}_{ij} = 1$ ([`Normalization::AcrossKernels`],
//! the default, `normalization = printed`). The cross-diffusion the paper adopts \[Wang12\] normalizes
//! each kernel by its own rows instead ([`Normalization::Rows`], `normalization = rows`):
//! $$\bar K^{(m)}_{ij} = \frac{n\,K^{(m)}_{ij}}{\sum_k K^{(m)}_{ik}}, \qquad
//! \bar L^{(m)}_{ij} = \frac{L^{(m)}_{ij}}{\sum_k L^{(m)}_{ik}}.$$
//! What each form gets right:
//! - The paper itself says that $\bar K^{(m)}_t$ and $\bar L^{(m)}$ are "generally asymmetric".
//!   Entrywise ratios of symmetric kernels are symmetric. Row-normalized kernels are not.
//! - Theorem 1's proof needs row-stochastic local kernels (eq. 25, the stationary
//!   distribution $\mathbf 1 \pi^\top$). With eq. 20 as printed a row of $\bar L^{(m)}$ sums to
//!   about $n_{loc}/M$, and each round multiplies $P$ by about $(n_{loc}/M)^2$: the iteration
//!   overflows (test `printed_local_kernel_diverges_and_row_stochastic_stays_bounded`). Both
//!   forms therefore divide the local kernels' rows by their sums.
//! - **Two copies of one kernel.** The printed eq. 18 keeps only each kernel's *share* of an
//!   entry. Two identical sub-kernels give $\bar K^{(1)} = \bar K^{(2)} = \tfrac12$ everywhere,
//!   which carries no similarity at all; with $M = 2$, eq. 21 diffuses $1 - \bar K^{(m)}$, the
//!   complement of the kernel's own similarity. Two-kernel ablations rank below chance this way
//!   on some data sets (AUC 0.19-0.51 on Breast-w; test
//!   `two_copies_of_one_kernel_keep_its_ranking`). The row form fuses two copies into the kernel.
//! - **But the printed form measures better for the three-kernel model**, which is the
//!   default: on 12 of 13 shared data sets (docs/results/README.md). The row form's weakness:
//!   an isolated point has a small row sum, so its self-similarity
//!   $n K_{ii} / \sum_k K_{ik}$ can be hundreds of times the median diagonal (1,447 against
//!   1.75 on PageBlocks-I), and a few such points then dominate the pairs of the CVM dual.
//!
//! The factor $n$ of the row form (rows of $\bar K$ average 1, not sum to 1) keeps the entries
//! on the scale of the sub-kernels, so $\rho$ and $C_1$ mean the same thing for every $n$.
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

pub use crate::gram::Gram;
use crate::gram::fill_rows;
use crate::kernels::{Knn, Points, SubKernel};

/// How the natural and local kernels of eqs. 18 and 20 are normalized (see the module docs).
/// Saved models store it (serde), since inductive scoring normalizes the local kernels of a new
/// point the same way.
///
/// Saved models encode it by variant position (postcard), so new variants go at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Normalization {
    /// Each kernel by its own rows, as the cross-diffusion of \[Wang12\]: $\bar K^{(m)}$'s rows
    /// average 1 and $\bar L^{(m)}$'s rows sum to 1 (`normalization = rows`). Fuses a kernel
    /// with a copy of itself into that kernel, but measured worse for three kernels.
    #[serde(rename = "rows")]
    Rows,
    /// Eqs. 18 and 20 as printed: each entry over the sum of that entry across the sub-kernels.
    /// The local kernels' rows are then divided by their sums, or the iteration overflows.
    /// The default (`normalization = printed`): the better three-kernel GAM-CVM on 12 of 13 shared data sets
    /// (docs/results/README.md).
    #[default]
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

/// Why the fusion could not run: a dense matrix could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryError {
    /// Bytes the fusion's matrices need at its peak ([`peak_bytes`]).
    pub needed: u64,
    /// Bytes that were held when the allocation failed.
    pub held: u64,
}

impl std::fmt::Display for MemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the fused kernel needs {:.2} GB of dense matrices; the system refused an allocation \
             with {:.2} GB held",
            self.needed as f64 / 1e9,
            self.held as f64 / 1e9
        )
    }
}

impl std::error::Error for MemoryError {}

/// A zeroed `f32` buffer of `len` values, or `None` if the system refuses the memory (never an
/// abort).
///
/// The reservation is tried first (fallible, nothing touched); the buffer is then allocated
/// zeroed (`calloc`: fresh pages are zero already, and are touched first by the parallel passes
/// that fill them). Writing the zeros here instead cost 1.4 s for the 3.2 GB of a Letter-z
/// fusion, on one thread.
pub(crate) fn try_zeroed(len: usize) -> Option<Vec<f32>> {
    let mut probe: Vec<f32> = Vec::new();
    probe.try_reserve_exact(len).ok()?;
    drop(probe);
    Some(vec![0.0; len])
}

/// Whether the status matrices of `norm` stay symmetric (see the module docs): then each is
/// stored as one packed triangle.
pub fn keeps_symmetry(norm: Normalization) -> bool {
    norm == Normalization::AcrossKernels
}

/// Values of a packed lower triangle of order `n`.
fn tri_len(n: usize) -> usize {
    n * (n + 1) / 2
}

/// Offset of row `i` in a packed lower triangle.
#[inline]
fn tri_off(i: usize) -> usize {
    i * (i + 1) / 2
}

/// Bytes of dense `f32` matrices [`fuse`] holds at its peak for `n` points and `m` sub-kernels:
/// the $M$ state matrices and one output ($M + 1$ triangles when the normalization keeps them
/// symmetric, else $M + 1$ squares), or one square for a single sub-kernel. The fused kernel
/// (one square) is built after the state is freed but one triangle, so it does not raise the
/// peak for $M \ge 2$.
pub fn peak_bytes(n: usize, m: usize, norm: Normalization) -> u64 {
    let (n, m) = (n as u64, m as u64);
    let square = 4 * n * n;
    if m <= 1 || n == 0 {
        return square;
    }
    if keeps_symmetry(norm) {
        let tri = 4 * (n * (n + 1) / 2);
        ((m + 1) * tri).max(tri + square)
    } else {
        (m + 1) * square
    }
}

/// The fused kernel of the points `pts` (whose sparsity is set), their neighbour lists `knn` and
/// the sub-kernels; see the module docs. One sub-kernel gives its own matrix.
///
/// # Errors
/// [`MemoryError`] if the system refuses a dense matrix ([`peak_bytes`] says how much is needed).
pub fn fuse(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    params: &FusionParams,
) -> Result<(Gram, FusionInfo), MemoryError> {
    fuse_impl(pts, knn, kernels, params, true)
}

/// Rows of a block of the packed triangle or of the square matrices.
const BLOCK: usize = 64;

pub(crate) fn fuse_impl(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    params: &FusionParams,
    row_normalize: bool,
) -> Result<(Gram, FusionInfo), MemoryError> {
    let start = Instant::now();
    let n = pts.n();
    let m = kernels.len();
    let needed = peak_bytes(n, m, params.normalization);
    let oom = |held: usize| MemoryError {
        needed,
        held: (held * std::mem::size_of::<f32>()) as u64,
    };
    if m <= 1 || n == 0 {
        let mut v = try_zeroed(n * n).ok_or_else(|| oom(0))?;
        if let Some(k) = kernels.first() {
            fill_rows(&mut v, n, |i, j| k.value(pts, i, pts, j) as f32);
        }
        let g = Gram::dense(n, v);
        let peak = g.bytes();
        return Ok((
            g,
            FusionInfo {
                iterations: 0,
                distances: Vec::new(),
                converged: true,
                seconds: start.elapsed().as_secs_f64(),
                peak_bytes: peak,
            },
        ));
    }
    if keeps_symmetry(params.normalization) {
        return fuse_packed(pts, knn, kernels, params, row_normalize, start, oom);
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
    // Row normalization from here on: square matrices.
    let len = n * n;
    // The state: Q_m = sum over s != m of P_s (module docs), M buffers, and one free buffer.
    let mut held = 0;
    let mut q: Vec<Vec<f32>> = Vec::with_capacity(m);
    for _ in 0..m {
        q.push(try_zeroed(len).ok_or_else(|| oom(held))?);
        held += len;
    }
    let mut free = try_zeroed(len).ok_or_else(|| oom(held))?;
    let peak_bytes = peak_bytes(n, m, params.normalization) as usize;
    natural_others_rows(pts, kernels, &mut q, n);
    // P_m - P_s = Q_s - Q_m: Theorem 1's distance from the state.
    let mut distances = vec![max_distance(&q, n, false)];
    let mut converged = false;
    let mut iterations = 0;
    let inv = 1.0 / (m - 1) as f32;
    let rho = params.rho as f32;
    // After a round, `q` holds the new status matrices P_m (as R_m) until converted back.
    let mut holds_p = false;
    while iterations < params.max_iter {
        for mm in 0..m {
            let w = &lw[mm];
            // free = L Q / (M-1); Q := free^T; free = L Q^T... = L (L Q)^T / (M-1) + rho I,
            // which is eq. 21's product transposed (module docs).
            add_rows(&mut free, &q[mm], n, k, w, knn, inv, 0.0);
            transpose_into(&free, &mut q[mm], n);
            add_rows(&mut free, &q[mm], n, k, w, knn, 1.0, rho);
            std::mem::swap(&mut free, &mut q[mm]);
        }
        iterations += 1;
        let d = max_distance(&q, n, false);
        let prev = *distances.last().unwrap_or(&d);
        distances.push(d);
        if !d.is_finite() {
            holds_p = true;
            break;
        }
        if (d - prev).abs() <= params.tol * prev.max(f64::MIN_POSITIVE) {
            converged = true;
            holds_p = true;
            break;
        }
        if iterations == params.max_iter {
            holds_p = true;
            break;
        }
        others_in_place(&mut q);
    }
    if !holds_p {
        // No round ran: turn the state back into the natural kernels, P_m = S - Q_m.
        let scale = 1.0 / (m - 1) as f32;
        zip_chunks(&mut q, |parts| {
            for e in 0..parts[0].len() {
                let s: f32 = parts.iter().map(|p| p[e]).sum::<f32>() * scale;
                for p in parts.iter_mut() {
                    p[e] = s - p[e];
                }
            }
        });
    }
    drop(free);
    // Fused kernel [eq. 22].
    let g = {
        // Over the freed buffer: half the sum of P_m and P_m^T over m, divided by M.
        let mut v = try_zeroed(n * n).ok_or_else(|| oom(held))?;
        let half = 0.5 / m as f32;
        v.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
            for (j, e) in row.iter_mut().enumerate() {
                let mut acc = 0f32;
                for pm in &q {
                    acc += pm[i * n + j] + pm[j * n + i];
                }
                *e = half * acc;
            }
        });
        Gram::dense(n, v)
    };
    Ok((
        g,
        FusionInfo {
            iterations,
            distances,
            converged,
            seconds: start.elapsed().as_secs_f64(),
            peak_bytes,
        },
    ))
}

/// The symmetric forms' fusion on packed triangles in neighbour order ([`crate::packed`]).
fn fuse_packed(
    pts: &Points,
    knn: &Knn,
    kernels: &[Box<dyn SubKernel>],
    params: &FusionParams,
    row_normalize: bool,
    start: Instant,
    oom: impl Fn(usize) -> MemoryError,
) -> Result<(Gram, FusionInfo), MemoryError> {
    use crate::packed;
    let n = pts.n();
    let m = kernels.len();
    let k = knn.k();
    let order = packed::neighbour_order(knn, n);
    let pos = packed::inverse(&order);
    // Neighbour lists and local kernels [eqs. 19-20] in neighbour order, f32.
    let nb: Vec<u32> = order
        .iter()
        .flat_map(|&i| knn.neighbours(i as usize).iter().map(|&j| pos[j as usize]))
        .collect();
    let rows: Vec<Vec<Vec<f64>>> = order
        .par_iter()
        .map(|&i| {
            let i = i as usize;
            local_weights_impl(
                pts,
                i,
                pts,
                knn.neighbours(i),
                kernels,
                params.normalization,
                row_normalize,
            )
        })
        .collect();
    let mut lw: Vec<Vec<f32>> = vec![Vec::with_capacity(n * k); m];
    for r in rows {
        for (mm, w) in r.into_iter().enumerate() {
            lw[mm].extend(w.into_iter().map(|v| v as f32));
        }
    }
    let len = tri_len(n);
    let mut held = 0;
    let mut q: Vec<Vec<f32>> = Vec::with_capacity(m);
    for _ in 0..m {
        q.push(try_zeroed(len).ok_or_else(|| oom(held))?);
        held += len;
    }
    let mut free = try_zeroed(len).ok_or_else(|| oom(held))?;
    let peak_bytes = peak_bytes(n, m, params.normalization) as usize;
    let kinds: Vec<_> = kernels.iter().map(|kk| kk.fitted()).collect();
    packed::natural_others(&pts.permuted(&order), &kinds, &mut q);
    let mut distances = vec![max_distance(&q, n, true)];
    let mut converged = false;
    let mut iterations = 0;
    let inv = 1.0 / (m - 1) as f32;
    let rho = params.rho as f32;
    while iterations < params.max_iter {
        for mm in 0..m {
            packed::product(&q[mm], &mut free, n, k, &lw[mm], &nb, inv, rho);
            std::mem::swap(&mut free, &mut q[mm]);
        }
        iterations += 1;
        // The new status matrices' distance, and the state for the next round (or eq. 22).
        let d = packed::distance_then_others(&mut q, n);
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
    drop(free);
    // Eq. 22 from the state, then the square kernel in the points' own numbering.
    let tri = packed::fused_from_others(q);
    let mut v = try_zeroed(n * n).ok_or_else(|| oom(tri.len()))?;
    packed::expand_in_order(&tri, &mut v, n, &order);
    drop(tri);
    Ok((
        Gram::dense(n, v),
        FusionInfo {
            iterations,
            distances,
            converged,
            seconds: start.elapsed().as_secs_f64(),
            peak_bytes,
        },
    ))
}

/// Row blocks of `BLOCK` rows of a packed triangle (or of a square matrix when `tri` is false):
/// `(first row, rows, slice)`.
fn row_blocks(v: &mut [f32], n: usize, tri: bool) -> Vec<(usize, usize, &mut [f32])> {
    let mut out = Vec::with_capacity(n.div_ceil(BLOCK));
    let mut rest = v;
    let mut b0 = 0;
    while b0 < n {
        let b1 = (b0 + BLOCK).min(n);
        let len = if tri {
            tri_off(b1) - tri_off(b0)
        } else {
            (b1 - b0) * n
        };
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
        out.push((b0, b1 - b0, head));
        rest = tail;
        b0 = b1;
    }
    out
}

/// The initial state $Q_m = \sum_{s \ne m} P^{(s)}_0$ from the natural kernels of eq. 18,
/// each kernel normalized by its rows (module docs), into the square matrices `q`. (The printed
/// form's is [`crate::packed::natural_others`].)
fn natural_others_rows(pts: &Points, kernels: &[Box<dyn SubKernel>], q: &mut [Vec<f32>], n: usize) {
    let m = kernels.len();
    // Block b of every buffer, side by side.
    let mut per_block: Vec<Vec<(usize, usize, &mut [f32])>> = Vec::new();
    for buf in q.iter_mut() {
        for (t, blk) in row_blocks(buf, n, false).into_iter().enumerate() {
            if per_block.len() <= t {
                per_block.push(Vec::with_capacity(m));
            }
            per_block[t].push(blk);
        }
    }
    per_block.into_par_iter().for_each(|mut blocks| {
        let (b0, rows) = (blocks[0].0, blocks[0].1);
        for r in 0..rows {
            let i = b0 + r;
            {
                {
                    // Rows averaging 1; sums in f64 so that n = 20,000 entries add without drift.
                    let at = r * n;
                    let mut scale = vec![0f32; m];
                    for (s, kk) in kernels.iter().enumerate() {
                        let row = &mut blocks[s].2[at..at + n];
                        let mut sum = 0f64;
                        for (j, e) in row.iter_mut().enumerate() {
                            *e = kk.value(pts, i, pts, j) as f32;
                            sum += f64::from(*e);
                        }
                        scale[s] = if sum > 0.0 {
                            (n as f64 / sum) as f32
                        } else {
                            0.0
                        };
                        if sum <= 0.0 {
                            row.fill(1.0);
                            scale[s] = 1.0;
                        }
                    }
                    for j in 0..n {
                        let mut tot = 0f32;
                        for s in 0..m {
                            let p = blocks[s].2[at + j] * scale[s];
                            blocks[s].2[at + j] = p;
                            tot += p;
                        }
                        for blk in blocks.iter_mut() {
                            blk.2[at + j] = tot - blk.2[at + j];
                        }
                    }
                }
            }
        }
    });
}

/// Applies `f` to the same chunk of every buffer, chunks in parallel.
fn zip_chunks(bufs: &mut [Vec<f32>], f: impl Fn(&mut [&mut [f32]]) + Sync) {
    const CHUNK: usize = 1 << 14;
    let mut per_chunk: Vec<Vec<&mut [f32]>> = Vec::new();
    for buf in bufs.iter_mut() {
        for (t, c) in buf.chunks_mut(CHUNK).enumerate() {
            if per_chunk.len() <= t {
                per_chunk.push(Vec::new());
            }
            per_chunk[t].push(c);
        }
    }
    per_chunk
        .into_par_iter()
        .for_each(|mut parts| f(&mut parts));
}

/// The new state from the new status matrices: $Q_m = \sum_s P_s - P_m$, elementwise in place.
fn others_in_place(q: &mut [Vec<f32>]) {
    zip_chunks(q, |parts| {
        for e in 0..parts[0].len() {
            let s: f32 = parts.iter().map(|p| p[e]).sum();
            for p in parts.iter_mut() {
                p[e] = s - p[e];
            }
        }
    });
}

/// `out[i, :] = scale * sum over the neighbours j of i of w_ij src[j, :]`, plus `diag` on the
/// diagonal.
#[allow(clippy::too_many_arguments)]
fn add_rows(
    out: &mut [f32],
    src: &[f32],
    n: usize,
    k: usize,
    w: &[f32],
    knn: &Knn,
    scale: f32,
    diag: f32,
) {
    out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        row.fill(0.0);
        for (&j, &wij) in knn.neighbours(i).iter().zip(&w[i * k..(i + 1) * k]) {
            let j = j as usize;
            let c = wij * scale;
            for (o, v) in row.iter_mut().zip(&src[j * n..(j + 1) * n]) {
                *o += c * v;
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

/// Theorem 1's distance: the largest Frobenius distance between two of the matrices (the
/// differences of the state are those of the status matrices, up to sign). A packed triangle
/// counts its off-diagonal entries twice. Partial sums over fixed blocks are added in order, so
/// the value (and the round the iteration stops at) does not depend on how rayon schedules the
/// work.
fn max_distance(p: &[Vec<f32>], n: usize, tri: bool) -> f64 {
    let mut best = 0.0f64;
    for a in 0..p.len() {
        for b in a + 1..p.len() {
            let sq = |x: &[f32], y: &[f32]| -> f64 {
                x.iter()
                    .zip(y)
                    .map(|(&u, &v)| {
                        let d = f64::from(u) - f64::from(v);
                        d * d
                    })
                    .sum::<f64>()
            };
            let total: f64 = if tri {
                let parts: Vec<f64> = (0..n)
                    .into_par_iter()
                    .map(|i| {
                        let (x, y) = (
                            &p[a][tri_off(i)..=tri_off(i) + i],
                            &p[b][tri_off(i)..=tri_off(i) + i],
                        );
                        2.0 * sq(&x[..i], &y[..i]) + sq(&x[i..], &y[i..])
                    })
                    .collect();
                parts.iter().sum()
            } else {
                const CH: usize = 1 << 14;
                let parts: Vec<f64> = p[a]
                    .par_chunks(CH)
                    .zip(p[b].par_chunks(CH))
                    .map(|(x, y)| sq(x, y))
                    .collect();
                parts.iter().sum()
            };
            best = best.max(total.sqrt());
        }
    }
    best
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod positive_definite;
