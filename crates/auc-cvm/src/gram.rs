//! The kernel matrix the solvers read, [`Gram`]: a dense `f32` matrix (what the fusion builds)
//! or the landmark approximation's [`LandmarkKernel`], which stores no $n \times n$ matrix. The
//! fusion ([`crate::fusion`]) and the landmark construction ([`crate::approx`]) produce it; both
//! re-export their type from here.

use rayon::prelude::*;

/// A symmetric kernel matrix over $n$ points: dense `f32`, row-major (what [`crate::fusion::fuse`] builds), or
/// the landmark approximation of [`crate::approx`], which stores no $n \times n$ matrix. The
/// solvers read it only through [`Gram::get`], [`Gram::add_scores`], [`Gram::gather_row`] and
/// [`Gram::max_pair_diag`].
#[derive(Clone, Debug, PartialEq)]
pub struct Gram {
    n: usize,
    repr: Repr,
}

#[derive(Clone, Debug, PartialEq)]
enum Repr {
    Dense(Vec<f32>),
    Landmark(Box<LandmarkKernel>),
}

impl Gram {
    /// The dense matrix with entries `f(i, j)`, rows computed in parallel.
    pub fn from_fn(n: usize, f: impl Fn(usize, usize) -> f64 + Sync) -> Self {
        let mut v = vec![0f32; n * n];
        fill_rows(&mut v, n, |i, j| f(i, j) as f32);
        Self::dense(n, v)
    }

    /// From row-major values.
    ///
    /// # Panics
    /// If `v.len() != n * n` (a programmer error).
    pub fn from_vec(n: usize, v: Vec<f32>) -> Self {
        assert_eq!(v.len(), n * n, "a {n} x {n} matrix needs {} values", n * n);
        Self::dense(n, v)
    }

    pub(crate) fn dense(n: usize, v: Vec<f32>) -> Self {
        Self {
            n,
            repr: Repr::Dense(v),
        }
    }

    /// The landmark kernel over `n` points.
    pub(crate) fn landmark(n: usize, k: LandmarkKernel) -> Self {
        Self {
            n,
            repr: Repr::Landmark(Box::new(k)),
        }
    }

    /// The row-major values of a dense matrix (empty for a landmark kernel).
    pub(crate) fn into_dense(self) -> Vec<f32> {
        match self.repr {
            Repr::Dense(v) => v,
            Repr::Landmark(_) => Vec::new(),
        }
    }

    /// Order $n$.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The landmark kernel, if this is one.
    pub fn landmarks(&self) -> Option<&LandmarkKernel> {
        match &self.repr {
            Repr::Dense(_) => None,
            Repr::Landmark(k) => Some(k),
        }
    }

    /// Entry $(i, j)$.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> f64 {
        match &self.repr {
            Repr::Dense(v) => f64::from(v[i * self.n + j]),
            Repr::Landmark(k) => k.get(i, j),
        }
    }

    /// Row $i$ of a dense matrix (also column $i$: the matrix is symmetric); `None` for a
    /// landmark kernel.
    #[inline]
    pub fn dense_row(&self, i: usize) -> Option<&[f32]> {
        match &self.repr {
            Repr::Dense(v) => Some(&v[i * self.n..(i + 1) * self.n]),
            Repr::Landmark(_) => None,
        }
    }

    /// `f += sum_k w_k K[k, :]` for point weights `w` as (index, weight), over every point.
    pub fn add_scores(&self, w: &[(usize, f64)], f: &mut [f64]) {
        match &self.repr {
            Repr::Dense(v) => {
                const CHUNK: usize = 2048;
                let n = self.n;
                f.par_chunks_mut(CHUNK).enumerate().for_each(|(c, out)| {
                    let lo = c * CHUNK;
                    for &(k, wk) in w {
                        if wk == 0.0 {
                            continue;
                        }
                        let row = &v[k * n + lo..k * n + lo + out.len()];
                        for (o, &r) in out.iter_mut().zip(row) {
                            *o += wk * f64::from(r);
                        }
                    }
                });
            }
            Repr::Landmark(k) => k.add_scores(w, f),
        }
    }

    /// `out[t] = K(i, idx[t])`.
    pub fn gather_row(&self, i: usize, idx: &[usize], out: &mut [f32]) {
        match &self.repr {
            Repr::Dense(v) => {
                let src = &v[i * self.n..(i + 1) * self.n];
                for (o, &b) in out.iter_mut().zip(idx) {
                    *o = src[b];
                }
            }
            Repr::Landmark(k) => k.gather_row(i, idx, out),
        }
    }

    /// $\max_{i \in pos, j \in neg} K_{ii} + K_{jj} - 2 K_{ij}$, the largest pair self-similarity
    /// of \[CVM eq. 39\]: one parallel scan of the pairs for a dense matrix, nothing stored; an
    /// upper bound for a landmark kernel ([`crate::approx`]).
    pub fn max_pair_diag(&self, pos: &[usize], neg: &[usize]) -> f64 {
        match &self.repr {
            Repr::Dense(v) => {
                let n = self.n;
                pos.par_iter()
                    .map(|&i| {
                        let row = &v[i * n..(i + 1) * n];
                        let kii = f64::from(row[i]);
                        neg.iter()
                            .map(|&j| kii + f64::from(v[j * n + j]) - 2.0 * f64::from(row[j]))
                            .fold(f64::NEG_INFINITY, f64::max)
                    })
                    .reduce(|| f64::NEG_INFINITY, f64::max)
            }
            Repr::Landmark(k) => k.pair_diag_bound(pos, neg),
        }
    }

    /// Bytes of the stored entries.
    pub fn bytes(&self) -> usize {
        match &self.repr {
            Repr::Dense(v) => v.len() * std::mem::size_of::<f32>(),
            Repr::Landmark(k) => k.bytes(),
        }
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

/// `v[i * n + j] = f(i, j)` for a square matrix, rows in parallel.
pub(crate) fn fill_rows(v: &mut [f32], n: usize, f: impl Fn(usize, usize) -> f32 + Sync) {
    if n == 0 {
        return;
    }
    v.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        for (j, e) in row.iter_mut().enumerate() {
            *e = f(i, j);
        }
    });
}

/// The fused kernel of all points through their landmarks: see [`crate::approx`], which builds it.
#[derive(Clone, Debug, PartialEq)]
pub struct LandmarkKernel {
    /// Landmarks $m$.
    pub(crate) m: usize,
    /// $\tilde K_m$, row-major $m \times m$.
    pub(crate) core: Vec<f32>,
    /// Weights per point ($n_{loc}$).
    pub(crate) k: usize,
    /// Each point's landmarks (slots into the landmark list), `n * k`.
    pub(crate) nbr: Vec<u32>,
    /// Each point's weights $\lambda$, `n * k`, each row summing to 1.
    pub(crate) lam: Vec<f64>,
    /// $\rho$ on the diagonal.
    pub(crate) rho: f64,
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
    pub(crate) fn core_times(&self, v: &[f64], nonzero: &[(usize, f64)], sparse: bool) -> Vec<f64> {
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
