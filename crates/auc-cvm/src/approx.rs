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

use crate::fusion::{FusionInfo, FusionParams, Gram, MemoryError, fuse, local_weights};
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

/// The fused kernel of all points through their landmarks: see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct LandmarkKernel {
    /// Landmarks $m$.
    m: usize,
    /// $\tilde K_m$, row-major $m \times m$.
    core: Vec<f32>,
    /// Weights per point ($n_{loc}$).
    k: usize,
    /// Each point's landmarks (slots into the landmark list), `n * k`.
    nbr: Vec<u32>,
    /// Each point's weights $\lambda$, `n * k`, each row summing to 1.
    lam: Vec<f64>,
    /// $\rho$ on the diagonal.
    rho: f64,
}

impl LandmarkKernel {
    /// Number of landmarks.
    pub fn landmarks(&self) -> usize {
        self.m
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.core.len() * 4 + self.nbr.len() * 4 + self.lam.len() * 8
    }

    #[inline]
    fn core(&self, a: u32, b: u32) -> f64 {
        f64::from(self.core[a as usize * self.m + b as usize])
    }

    /// Entry $(i, j)$: $\lambda_i^\top \tilde K_m \lambda_j + \rho\,\delta_{ij}$.
    pub(crate) fn get(&self, i: usize, j: usize) -> f64 {
        let k = self.k;
        let (ni, li) = (&self.nbr[i * k..(i + 1) * k], &self.lam[i * k..(i + 1) * k]);
        let (nj, lj) = (&self.nbr[j * k..(j + 1) * k], &self.lam[j * k..(j + 1) * k]);
        let mut s = 0.0;
        for (&a, &wa) in ni.iter().zip(li) {
            let mut t = 0.0;
            for (&b, &wb) in nj.iter().zip(lj) {
                t += wb * self.core(a, b);
            }
            s += wa * t;
        }
        if i == j { s + self.rho } else { s }
    }

    /// The landmark-space scores $u = \tilde K_m \Lambda^\top w$ of point weights `w`: a point's
    /// score is $\lambda_x^\top u + \rho w_x$, a new point's $\lambda_x^\top u$.
    pub fn landmark_scores(&self, w: &[(usize, f64)]) -> Vec<f64> {
        let (m, k) = (self.m, self.k);
        let mut v = vec![0.0f64; m];
        for &(x, wx) in w {
            for (&a, &l) in self.nbr[x * k..(x + 1) * k]
                .iter()
                .zip(&self.lam[x * k..(x + 1) * k])
            {
                v[a as usize] += wx * l;
            }
        }
        let nonzero: Vec<(usize, f64)> = v
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0.0)
            .map(|(a, &x)| (a, x))
            .collect();
        self.core_times(&v, &nonzero, nonzero.len() * 8 < m)
    }

    /// $\tilde K_m v$ for `v` whose nonzero entries are `nonzero`: one dot product per row, or,
    /// with `sparse`, the sum of the rows of the nonzero entries ($\tilde K_m$ is symmetric:
    /// eq. 22 symmetrizes it), $O(m \cdot \mathrm{nnz})$ instead of $O(m^2)$. The core vector
    /// machine's updates change a few points' weights, so their `v` has a few times $n_{loc}$
    /// nonzeros.
    fn core_times(&self, v: &[f64], nonzero: &[(usize, f64)], sparse: bool) -> Vec<f64> {
        let m = self.m;
        if sparse {
            let mut u = vec![0.0f64; m];
            for &(a, x) in nonzero {
                for (o, &c) in u.iter_mut().zip(&self.core[a * m..(a + 1) * m]) {
                    *o += x * f64::from(c);
                }
            }
            return u;
        }
        self.core
            .par_chunks(m.max(1))
            .map(|row| row.iter().zip(v).map(|(&c, &x)| f64::from(c) * x).sum())
            .collect()
    }

    /// `f += K w` on every point.
    pub(crate) fn add_scores(&self, w: &[(usize, f64)], f: &mut [f64]) {
        let u = self.landmark_scores(w);
        let k = self.k;
        f.par_iter_mut().enumerate().for_each(|(x, o)| {
            *o += self.nbr[x * k..(x + 1) * k]
                .iter()
                .zip(&self.lam[x * k..(x + 1) * k])
                .map(|(&a, &l)| l * u[a as usize])
                .sum::<f64>();
        });
        for &(x, wx) in w {
            f[x] += self.rho * wx;
        }
    }

    /// `out[t] = K(i, idx[t])`.
    pub(crate) fn gather_row(&self, i: usize, idx: &[usize], out: &mut [f32]) {
        let (m, k) = (self.m, self.k);
        // u = K_m lambda_i over all landmarks, then lambda_j . u.
        let mut u = vec![0.0f64; m];
        for (&a, &l) in self.nbr[i * k..(i + 1) * k]
            .iter()
            .zip(&self.lam[i * k..(i + 1) * k])
        {
            for (o, &c) in u
                .iter_mut()
                .zip(&self.core[a as usize * m..(a as usize + 1) * m])
            {
                *o += l * f64::from(c);
            }
        }
        for (o, &j) in out.iter_mut().zip(idx) {
            let mut s: f64 = self.nbr[j * k..(j + 1) * k]
                .iter()
                .zip(&self.lam[j * k..(j + 1) * k])
                .map(|(&b, &l)| l * u[b as usize])
                .sum();
            if i == j {
                s += self.rho;
            }
            *o = s as f32;
        }
    }

    /// An upper bound of $\max_{i, j} K_{ii} + K_{jj} - 2K_{ij}$ over `pos` x `neg`:
    /// $\max_i K_{ii} + \max_j K_{jj}$, since no entry is negative. Near the exact value when the
    /// farthest pairs are far apart ($K_{ij}$ small); computing it exactly would cost
    /// $O(n_+ n_- n_{loc}^2)$. A larger $\varsigma$ keeps the CCMEB form of \[CVM eq. 42\] valid.
    pub(crate) fn pair_diag_bound(&self, pos: &[usize], neg: &[usize]) -> f64 {
        let dmax = |v: &[usize]| {
            v.par_iter()
                .map(|&i| self.get(i, i))
                .reduce(|| f64::NEG_INFINITY, f64::max)
        };
        dmax(pos) + dmax(neg)
    }
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
mod tests {
    use super::*;
    use crate::fusion::Normalization;
    use crate::kernels::SubKernelKind;
    use crate::model::{FusedSet, KernelSpec};

    fn points(n: usize, seed: u64) -> Points {
        let mut s = seed;
        let x = (0..n * 3)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect();
        Points::from_dense(3, x)
    }

    fn spec(count: usize) -> KernelSpec {
        KernelSpec {
            kernels: SubKernelKind::ALL.to_vec(),
            sigma_scale: 1.0,
            n_loc: 5,
            fusion: FusionParams {
                rho: 0.1,
                max_iter: 10,
                tol: 1e-3,
                normalization: Normalization::AcrossKernels,
            },
            approx: FusionApprox::Landmarks { count },
        }
    }

    /// Every access path of the landmark kernel against the explicit product
    /// Lambda K_m Lambda^T + rho I, formed densely in f64.
    #[test]
    fn landmark_kernel_is_lambda_core_lambda_plus_rho() {
        let set = FusedSet::build(points(90, 3), &spec(30)).unwrap();
        let g = &set.gram;
        let lk = g.landmarks().expect("a landmark kernel");
        let (n, m, k) = (90, lk.m, lk.k);
        assert_eq!(m, 30);
        let mut lam = vec![0.0; n * m];
        for i in 0..n {
            let s: f64 = lk.lam[i * k..(i + 1) * k].iter().sum();
            assert!((s - 1.0).abs() < 1e-12, "row {i} of Lambda sums to {s}");
            for t in 0..k {
                lam[i * m + lk.nbr[i * k + t] as usize] += lk.lam[i * k + t];
            }
        }
        let want = |i: usize, j: usize| -> f64 {
            let mut s = if i == j { 0.1 } else { 0.0 };
            for a in 0..m {
                for b in 0..m {
                    s += lam[i * m + a] * f64::from(lk.core[a * m + b]) * lam[j * m + b];
                }
            }
            s
        };
        let mut worst_diag = 0.0f64;
        for i in 0..n {
            for j in 0..n {
                assert!((g.get(i, j) - want(i, j)).abs() < 1e-9, "({i}, {j})");
            }
            worst_diag = worst_diag.max(want(i, i));
        }
        // Scores of point weights, and gathered rows.
        let w = vec![(3, 0.5), (17, -0.25), (60, 1.0)];
        let mut f = vec![0.0; n];
        g.add_scores(&w, &mut f);
        for (x, fx) in f.iter().enumerate() {
            let e: f64 = w.iter().map(|&(p, wp)| wp * want(p, x)).sum();
            assert!((fx - e).abs() < 1e-9, "f[{x}]");
        }
        let idx: Vec<usize> = (0..n).rev().collect();
        let mut row = vec![0f32; n];
        g.gather_row(11, &idx, &mut row);
        for (t, &j) in idx.iter().enumerate() {
            assert!((f64::from(row[t]) - want(11, j)).abs() < 1e-6);
        }
        // varsigma's bound is at least the exact maximum.
        let (pos, neg): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % 4 == 0);
        let exact = pos
            .iter()
            .flat_map(|&i| neg.iter().map(move |&j| (i, j)))
            .map(|(i, j)| want(i, i) + want(j, j) - 2.0 * want(i, j))
            .fold(f64::NEG_INFINITY, f64::max);
        let bound = g.max_pair_diag(&pos, &neg);
        assert!(
            bound >= exact - 1e-9 && bound <= 2.0 * worst_diag + 1e-9,
            "{bound} {exact}"
        );
        // Landmarks are the lowest hashes, a set independent of the row order.
        let pts = points(90, 3);
        let chosen = choose_landmarks(&pts, 30);
        let mut hashes: Vec<u64> = (0..90).map(|i| row_hash(&pts, i)).collect();
        hashes.sort_unstable();
        assert!(chosen.iter().all(|&i| row_hash(&pts, i) <= hashes[29]));
    }

    /// The core's product by the rows of the nonzero entries equals the product by rows: the
    /// core is symmetric, with either normalization.
    #[test]
    fn sparse_core_product_is_the_dense_one() {
        for norm in [Normalization::AcrossKernels, Normalization::Rows] {
            let mut sp = spec(120);
            sp.fusion.normalization = norm;
            sparse_core_product_case(&FusedSet::build(points(200, 5), &sp).unwrap());
        }
    }

    fn sparse_core_product_case(set: &FusedSet) {
        let lk = set.gram.landmarks().expect("a landmark kernel");
        let m = lk.m;
        for a in 0..m {
            for b in 0..a {
                assert_eq!(
                    lk.core[a * m + b].to_bits(),
                    lk.core[b * m + a].to_bits(),
                    "({a}, {b})"
                );
            }
        }
        let mut v = vec![0.0f64; m];
        let nonzero = vec![(3, 0.7), (40, -1.25), (41, 0.125), (m - 1, 2.0)];
        for &(a, x) in &nonzero {
            v[a] = x;
        }
        let dense = lk.core_times(&v, &nonzero, false);
        let sparse = lk.core_times(&v, &nonzero, true);
        let scale = dense.iter().fold(0.0f64, |t, x| t.max(x.abs()));
        assert!(scale > 0.0);
        for (b, (d, s)) in dense.iter().zip(&sparse).enumerate() {
            assert!((d - s).abs() <= 1e-12 * scale, "entry {b}: {d} against {s}");
        }
        // Through the public path: few weights take the sparse product, and give the scores
        // of the entries.
        let w = vec![(7, 0.5), (150, -0.5)];
        let mut f = vec![0.0; 200];
        set.gram.add_scores(&w, &mut f);
        for (x, fx) in f.iter().enumerate() {
            let e: f64 = w.iter().map(|&(p, wp)| wp * set.gram.get(p, x)).sum();
            assert!((fx - e).abs() < 1e-9, "f[{x}]");
        }
    }

    /// With every point but a few as a landmark the approximation is close to the dense fusion
    /// in the ranking it induces; the symmetric positive definiteness of Lambda K Lambda^T + rho
    /// I holds by construction (smallest eigenvalue at least rho).
    #[test]
    fn landmark_kernel_is_positive_definite() {
        let set = FusedSet::build(points(60, 9), &spec(25)).unwrap();
        let a: Vec<f64> = (0..3600).map(|e| set.gram.get(e / 60, e % 60)).collect();
        let min = auc_core::testing::symmetric_eigenvalues(60, a)
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        assert!(min > 0.09, "smallest eigenvalue {min}");
    }
}
