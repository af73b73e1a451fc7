//! The landmark approximation of the fused kernel, for more points than the dense fusion's
//! $n^2$ memory allows (opt-in, `landmarks = m`).
//!
//! # The kernel
//!
//! $m$ landmark points are chosen among the $n$ points; the cross-diffusion of \[CVM eqs. 18-22\]
//! runs on them alone (an $m \times m$ fused kernel $\tilde K_m$, dense, as [`crate::fusion`]
//! builds it), and every point $x$ is tied to its $n_{loc}$ nearest landmarks by the local
//! kernels of eqs. 19-20, averaged over the sub-kernels: weights $\lambda(x, \cdot)$ summing to 1.
//! The kernel on all points is one diffusion step through them, plus eq. 21's $\rho I$:
//! $$\tilde K_n = \Lambda \tilde K_m \Lambda^\top + \rho I,$$
//! the extension the inductive model uses for a new point (conventions section 7), applied to every
//! point. It is positive definite where $\tilde K_m$ is positive semi-definite, and non-negative.
//! Nothing of size $n^2$ exists: an entry costs $O(n_{loc}^2)$, $f = \tilde K_n w$ costs
//! $O(m^2 + n\, n_{loc})$, and the memory is $O(m^2 + n (p + n_{loc}))$
//! ([`landmark_bytes`]).
//!
//! Every point is treated alike, landmarks included (a landmark's own landmark is left out of
//! its neighbours), so no pair is favoured by a sharper self-similarity. The local sparsity of
//! eq. 16 is measured against the landmarks for every point, so that the density kernel compares
//! like with like; bandwidths are the medians over all $n$ points.
//!
//! # Which landmarks
//!
//! The $m$ points whose feature bits hash lowest (SplitMix64 over the `f64` bit patterns): a
//! uniform-looking sample that needs no random generator, does not depend on the order of the
//! rows, and is the same for every fit on the same points (so the kernel cache still applies).
//! Duplicate rows hash alike; the hash ties are broken by index.
//!
//! # When to use it
//!
//! When $4 n^2$ bytes (the fused kernel alone; the dense fusion needs about twice that) do not
//! fit in memory, or the dense fusion's $O(n^2 n_{loc})$ per round is too slow: beyond about
//! 20,000 points on a machine with a few GB. docs/results/cvm-approx.md measures it against the
//! dense fusion and at $n = 100{,}000$.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::fusion::{FusionInfo, FusionParams, MemoryError, fuse, local_weights};
use crate::gram::Gram;
pub use crate::gram::LandmarkKernel;
use crate::kernels::{Knn, Points, SubKernel};

/// Whether the fused kernel is dense or approximated (`landmarks = m`, module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FusionApprox {
    /// The dense fusion of \[CVM eqs. 18-22\] on every point (`landmarks = 0`, the default).
    #[default]
    Dense,
    /// The fusion on `count` landmarks, extended to every point by one diffusion step.
    Landmarks {
        /// Landmarks $m$, above $n_{loc}$; with $m \ge n$ the dense fusion runs instead.
        count: usize,
    },
}

/// Bytes of the landmark kernel and its fusion for `n` points of `dim` features, `m` landmarks,
/// `kernels` sub-kernels and `n_loc` neighbours: the fusion on the landmarks
/// ([`crate::fusion::peak_bytes`]), the weights and neighbour lists, the dense copies of the
/// points and their neighbour search.
pub fn landmark_bytes(
    n: usize,
    dim: usize,
    m: usize,
    kernels: usize,
    n_loc: usize,
    norm: crate::fusion::Normalization,
) -> u64 {
    let (n64, m64, k) = (n as u64, m as u64, n_loc as u64 + 1);
    crate::fusion::peak_bytes(m, kernels, norm)
        + 4 * m64 * m64
        + n64 * k * (4 + 8 + 8 + 4)
        + (n64 + m64) * (dim as u64 + 4) * 8
}

/// SplitMix64 of the feature bits of point `i`.
fn row_hash(pts: &Points, i: usize) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for v in pts.row(i) {
        h ^= (v + 0.0).to_bits();
        h = h.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = h;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h = z ^ (z >> 31);
    }
    h
}

/// The `m` landmark indices (module docs), ascending.
pub fn choose_landmarks(pts: &Points, m: usize) -> Vec<usize> {
    let mut keyed: Vec<(u64, usize)> = (0..pts.n())
        .into_par_iter()
        .map(|i| (row_hash(pts, i), i))
        .collect();
    let m = m.min(keyed.len());
    if m < keyed.len() && m > 0 {
        keyed.select_nth_unstable(m - 1);
    }
    let mut idx: Vec<usize> = keyed[..m].iter().map(|e| e.1).collect();
    idx.sort_unstable();
    idx
}

/// What [`build`] gives: the landmark points (sparsity set) and the kernel on all points.
pub(crate) struct Built {
    pub(crate) landmarks: Points,
    pub(crate) gram: Gram,
    pub(crate) info: FusionInfo,
}

/// Every point's `n_loc` nearest landmarks, its own landmark left out (module docs), as a
/// neighbour list into the landmarks.
fn nearest_landmarks(pts: &Points, lm: &Points, lm_idx: &[usize], n_loc: usize) -> Knn {
    let wide = Knn::search_fast(pts, lm, n_loc + 1, false);
    let mut idx = Vec::with_capacity(pts.n() * n_loc);
    let mut dist = Vec::with_capacity(pts.n() * n_loc);
    for i in 0..pts.n() {
        let own = lm_idx.binary_search(&i).ok().map(|s| s as u32);
        let mut taken = 0;
        for (&j, &d) in wide.neighbours(i).iter().zip(wide.dist(i)) {
            if Some(j) == own || taken == n_loc {
                continue;
            }
            idx.push(j);
            dist.push(d);
            taken += 1;
        }
    }
    Knn::from_parts(n_loc, idx, dist)
}

/// Builds the landmark kernel of the points `pts` with `m` landmarks: sparsities and bandwidths
/// are set here (the caller's `make_kernels` fits the sub-kernels on the points once their
/// sparsities are known). Needs `n_loc < m <= n`.
pub(crate) fn build(
    pts: &mut Points,
    m: usize,
    n_loc: usize,
    params: &FusionParams,
    make_kernels: impl FnOnce(&Points) -> Vec<Box<dyn SubKernel>>,
) -> Result<(Built, Vec<Box<dyn SubKernel>>), MemoryError> {
    let n = pts.n();
    let lm_idx = choose_landmarks(pts, m);
    let m = lm_idx.len();
    let p = pts.dim();
    let mut x = Vec::with_capacity(m * p);
    for &i in &lm_idx {
        x.extend_from_slice(pts.row(i));
    }
    let near = nearest_landmarks(pts, &Points::from_dense(p, x.clone()), &lm_idx, n_loc);
    pts.set_sparsity(&near);
    let spa: Vec<f64> = lm_idx.iter().map(|&i| pts.sparsity()[i]).collect();
    let lm = Points::with_sparsity(p, x, spa);
    let kernels = make_kernels(pts);
    // The landmarks' own neighbours among the landmarks: the same lists, as slots.
    let lm_knn = {
        let mut idx = Vec::with_capacity(m * n_loc);
        let mut dist = Vec::with_capacity(m * n_loc);
        for &i in &lm_idx {
            idx.extend_from_slice(near.neighbours(i));
            dist.extend_from_slice(near.dist(i));
        }
        Knn::from_parts(n_loc, idx, dist)
    };
    let (core, info) = fuse(&lm, &lm_knn, &kernels, params)?;
    let k = near.k();
    let rows: Vec<Vec<f64>> = (0..n)
        .into_par_iter()
        .map(|i| {
            let lw = local_weights(
                pts,
                i,
                &lm,
                near.neighbours(i),
                &kernels,
                params.normalization,
            );
            let mm = lw.len() as f64;
            (0..k)
                .map(|t| lw.iter().map(|r| r[t]).sum::<f64>() / mm)
                .collect()
        })
        .collect();
    let lam: Vec<f64> = rows.into_iter().flatten().collect();
    let nbr: Vec<u32> = (0..n).flat_map(|i| near.neighbours(i).to_vec()).collect();
    let lk = LandmarkKernel {
        m,
        core: core.into_dense(),
        k,
        nbr,
        lam,
        rho: params.rho,
    };
    let gram = Gram::landmark(n, lk);
    Ok((
        Built {
            landmarks: lm,
            gram,
            info,
        },
        kernels,
    ))
}

#[cfg(test)]
mod tests;
