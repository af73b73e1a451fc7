//! [`FrequentDirections`]: a mergeable, deterministic low-rank sketch $B$ of a row stream $A$
//! with $0 \preceq A^\top A - B^\top B \preceq \Delta I$ (Liberty, KDD 2013; Ghashami, Liberty,
//! Phillips and Woodruff, SIAM J. Comput. 2016). The derivation, the bound and the costs are in
//! `docs/math/sketched-moments.md`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use auc_core::Row;
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par, Side};

use crate::StatsError;
use crate::kernels::{axpy, dot};

/// The largest rank parameter $\ell$ a sketch accepts: its Gram matrix is $2\ell \times 2\ell$.
pub const MAX_ELL: usize = 4096;

/// The `format_version` the sketches' serde encoding writes and the only one it reads.
pub const SKETCH_FORMAT_VERSION: u32 = 1;

/// A Frequent Directions sketch of the rows $a_1, a_2, \dots$ of a matrix $A$ (Liberty 2013;
/// Ghashami et al. 2016, the buffered variant): $\ell$ dense rows $B$ plus up to $\ell - 1$
/// buffered input rows $R$, so that the sketch $[B; R]$ satisfies, for every unit $x$,
/// $$0 \le x^\top (A^\top A - B^\top B - R^\top R)\, x \le \Delta, \qquad
/// \Delta \le \min_{0 \le k \le \ell} \frac{\lVert A - A_k\rVert_F^2}{\ell + 1 - k},$$
/// where $\Delta$ is [`delta`](Self::delta), the sum of the values subtracted at the shrinks, and
/// $A_k$ is the best rank-$k$ approximation of $A$. With $\operatorname{rank} A \le \ell$ the
/// sketch is exact ($\Delta = 0$ up to rounding).
///
/// **Storage is by feature.** Only features some row has touched hold storage: feature $j$'s
/// $\ell$ values $B_{\cdot j}$ are contiguous (a *slot*), found through a hash map, so the
/// dimension $p$ may grow at no cost and memory is $O(\ell\, t)$ for $t \le p$ touched features.
///
/// **Deviation from the printed algorithm:** the papers subtract the $\ell$-th largest squared
/// singular value of the $2\ell$-row buffer and keep $\ell - 1$ rows; we subtract the
/// $(\ell{+}1)$-th and keep $\ell$, which gives the (stronger) denominator $\ell + 1 - k$ above
/// and exactness at rank $\ell$ (`docs/math/sketched-moments.md` has the proof; the test
/// `rank_at_most_ell_is_exact` pins it).
#[derive(Clone, Debug)]
pub struct FrequentDirections {
    ell: usize,
    dim: usize,
    /// Rows inserted or merged in.
    rows: u64,
    /// $\Delta$, the total shrinkage.
    delta: f64,
    /// $\lVert A \rVert_F^2$, the squared norms of every row inserted.
    mass: f64,
    slot: HashMap<u32, u32, BuildHasherDefault<Mix>>,
    /// Slot $s$ to its feature.
    features: Vec<u32>,
    /// $B_{i, f(s)}$ at `sketch[s * ell + i]`.
    sketch: Vec<f64>,
    /// The buffered rows $R$, by slot: row $q$ is `buf_slot[buf_ptr[q]..buf_ptr[q + 1]]`.
    buf_ptr: Vec<usize>,
    buf_slot: Vec<u32>,
    buf_val: Vec<f64>,
    /// Gram matrix of $[B; R]$, $2\ell \times 2\ell$ row-major: $B B^\top$ in the top-left
    /// block, $B R^\top$ and $R R^\top$ filled as rows are buffered.
    gram: Vec<f64>,
    /// One value per slot, zero between calls.
    scatter: Vec<f64>,
    /// $\ell$ values for the projection $B x$.
    col: Vec<f64>,
}

/// Reusable space for [`FrequentDirections::apply_into`]: $\ell$ values of $B w$ and one
/// diagonal value per touched feature.
#[derive(Clone, Debug, Default)]
pub struct ApplyScratch {
    y: Vec<f64>,
    diag: Vec<f64>,
}

impl ApplyScratch {
    /// $(B^\top B + R^\top R)_{jj}$ per touched feature, in slot order, from the last
    /// [`FrequentDirections::apply_into`].
    pub fn diag(&self) -> &[f64] {
        &self.diag
    }
}

/// The splitmix64 finalizer as the slot map's hash: every input bit reaches the low bits the
/// table indexes by, so strided feature indices do not collide.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = u64::from(i);
    }
}

impl FrequentDirections {
    /// An empty sketch of rank $\ell$ = `ell` and dimension $p$ = `dim` (which grows as rows with
    /// larger indices arrive).
    ///
    /// # Errors
    /// [`StatsError::Rank`] unless $1 \le \ell \le$ [`MAX_ELL`].
    pub fn new(ell: usize, dim: usize) -> Result<Self, StatsError> {
        if ell == 0 || ell > MAX_ELL {
            return Err(StatsError::Rank { ell, max: MAX_ELL });
        }
        Ok(Self {
            ell,
            dim,
            rows: 0,
            delta: 0.0,
            mass: 0.0,
            slot: HashMap::default(),
            features: Vec::new(),
            sketch: Vec::new(),
            buf_ptr: vec![0],
            buf_slot: Vec::new(),
            buf_val: Vec::new(),
            gram: vec![0.0; 4 * ell * ell],
            scatter: Vec::new(),
            col: vec![0.0; ell],
        })
    }

    /// An upper bound on the bytes a sketch of rank `ell` holds once `touched` features have been
    /// seen by rows of at most `max_nnz` non-zeros (`touched` $\le p$; pass $p$ for the worst
    /// case), to check before building one. Per touched feature: $8\ell$ bytes of $B$, 4 of the
    /// slot's feature, 8 of scatter space and 32 of hash map; each growing array counted three
    /// times (the old and the doubled allocation alive during a reallocation). Plus the
    /// $32\ell^2$ bytes of the Gram matrix, the buffer's $12\,\ell\,$`max_nnz` (also tripled) and
    /// the eigendecomposition's workspace, bounded by $10 \cdot 8 (2\ell)^2$.
    pub fn bytes_for(ell: usize, touched: usize, max_nnz: usize) -> usize {
        let per_slot = (8 * ell + 4 + 8 + 32).saturating_mul(3);
        let gram = 32 * ell * ell + 10 * 32 * ell * ell;
        let buffer = ell.saturating_mul(max_nnz).saturating_mul(12 * 3);
        touched
            .saturating_mul(per_slot)
            .saturating_add(gram)
            .saturating_add(buffer)
    }

    /// An upper bound on the bytes of a sketch's serialized form (what a model or moment file
    /// holds of it) once `touched` features have been seen by rows of at most `max_nnz`
    /// non-zeros: per touched feature its index (a varint of at most 5 bytes) and $8\ell$ bytes
    /// of $B$; the $8\ell^2$ of $B B^\top$; per buffered non-zero a slot (at most 5) and a value
    /// (8), at most $\ell\,$`max_nnz` of them with $\ell + 1$ row offsets; and the scalars.
    /// Unlike [`FrequentDirections::bytes_for`] nothing grows: no slot map, no scratch space.
    pub fn saved_bytes_for(ell: usize, touched: usize, max_nnz: usize) -> usize {
        let slots = touched.saturating_mul(5 + 8 * ell);
        let buffer = ell.saturating_mul(max_nnz).saturating_mul(13);
        slots
            .saturating_add(buffer)
            .saturating_add(8 * ell * ell + 10 * (ell + 1) + 128)
    }

    /// The rank parameter $\ell$.
    pub fn ell(&self) -> usize {
        self.ell
    }

    /// The dimension $p$: one more than the largest feature index seen, or what was asked.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of rows inserted (merged sketches count their rows).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The number of features some row has touched, $t \le p$: memory is $O(\ell t)$.
    pub fn touched(&self) -> usize {
        self.features.len()
    }

    /// $\Delta$: the sum of the values subtracted at every shrink (here and in merged sketches),
    /// the spectral bound on $A^\top A - B^\top B - R^\top R$.
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// $\lVert A\rVert_F^2$, the sum of the squared norms of all rows inserted.
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// $\lVert B\rVert_F^2 + \lVert R\rVert_F^2$, the sketch's own squared Frobenius norm.
    pub fn sketch_mass(&self) -> f64 {
        dot(&self.sketch, &self.sketch) + dot(&self.buf_val, &self.buf_val)
    }

    /// The a-posteriori bound $(\lVert A\rVert_F^2 - \lVert (B;R) \rVert_F^2)/(\ell + 1)$ on
    /// [`delta`](Self::delta), never larger than the a-priori one (the docs' proof shows
    /// $(\ell + 1)\Delta \le \lVert A\rVert_F^2 - \lVert (B;R)\rVert_F^2$).
    pub fn mass_bound(&self) -> f64 {
        ((self.mass - self.sketch_mass()) / (self.ell as f64 + 1.0)).max(0.0)
    }

    /// Grows the dimension to `dim` (a smaller `dim` changes nothing); the new features are zero
    /// in every row, so no storage changes.
    pub fn grow(&mut self, dim: usize) {
        self.dim = self.dim.max(dim);
    }

    /// Adds one row $a$, dense or sparse; a dense row shorter than $p$ is padded with zeros, and
    /// a longer one, or a sparse index $\ge p$, grows $p$.
    ///
    /// Cost: $O(\ell \cdot \mathrm{nnz})$ for the projection $B a$ and the products with the
    /// buffered rows, plus, every $\ell$-th row, a shrink of $O(\ell^2 t + \ell^3)$ flops. The
    /// insert allocates only when the row touches a new feature or outgrows the buffer's
    /// capacity (amortized); the shrink allocates the $2\ell \times 2\ell$ eigendecomposition.
    ///
    /// # Errors
    /// [`StatsError::NonFinite`] for a NaN or infinite entry; the sketch is then unchanged.
    pub fn insert(&mut self, a: Row<'_>) -> Result<(), StatsError> {
        let (mut sq, mut top) = (0.0, 0usize);
        let mut bad = None;
        a.for_each(|j, v| {
            if !v.is_finite() && bad.is_none() {
                bad = Some((j, v));
            }
            sq += v * v;
            top = top.max(j + 1);
        });
        if let Some((index, v)) = bad {
            return Err(StatsError::NonFinite {
                what: "row",
                index,
                value: v.to_string(),
            });
        }
        self.grow(top);
        self.rows += 1;
        self.mass += sq;
        a.for_each(|j, v| {
            if v != 0.0 {
                let s = self.slot_of(j as u32);
                self.buf_slot.push(s);
                self.buf_val.push(v);
            }
        });
        self.close_row();
        Ok(())
    }

    /// The slot of feature `j`, made (with zero values) on first use.
    fn slot_of(&mut self, j: u32) -> u32 {
        let next = self.features.len() as u32;
        let s = *self.slot.entry(j).or_insert(next);
        if s == next {
            self.features.push(j);
            self.sketch.resize(self.sketch.len() + self.ell, 0.0);
            self.scatter.push(0.0);
        }
        s
    }

    /// The row just appended to the buffer's arrays becomes buffered row $q$: its column of the
    /// Gram matrix is filled, and a full buffer is shrunk.
    fn close_row(&mut self) {
        self.buf_ptr.push(self.buf_slot.len());
        let q = self.buf_ptr.len() - 2;
        self.gram_column(q);
        if q + 1 == self.ell {
            self.shrink();
        }
    }

    /// Fills row and column $\ell + q$ of the Gram matrix: $B r_q$ and $r_{q'} \cdot r_q$ for
    /// $q' \le q$ [Ghashami et al. 2016, Alg. 3.1, the SVD of the buffer, here through its Gram].
    fn gram_column(&mut self, q: usize) {
        let (ell, m) = (self.ell, 2 * self.ell);
        let (lo, hi) = (self.buf_ptr[q], self.buf_ptr[q + 1]);
        self.col.fill(0.0);
        for (&s, &v) in self.buf_slot[lo..hi].iter().zip(&self.buf_val[lo..hi]) {
            let s = s as usize;
            axpy(v, &self.sketch[s * ell..(s + 1) * ell], &mut self.col);
            self.scatter[s] = v;
        }
        let r = ell + q;
        for i in 0..ell {
            self.gram[i * m + r] = self.col[i];
            self.gram[r * m + i] = self.col[i];
        }
        for q2 in 0..=q {
            let (a, b) = (self.buf_ptr[q2], self.buf_ptr[q2 + 1]);
            let g: f64 = self.buf_slot[a..b]
                .iter()
                .zip(&self.buf_val[a..b])
                .map(|(&s, &v)| self.scatter[s as usize] * v)
                .sum();
            self.gram[(ell + q2) * m + r] = g;
            self.gram[r * m + ell + q2] = g;
        }
        for &s in &self.buf_slot[lo..hi] {
            self.scatter[s as usize] = 0.0;
        }
    }

    /// Replaces $[B; R]$ by the $\ell$ rows $\sqrt{\max(\lambda_i - \delta, 0)/\lambda_i}\,
    /// u_i^\top [B; R]$, $\delta = \lambda_{\ell+1}$, from the eigenpairs
    /// $(\lambda_i, u_i)$ of the Gram matrix in decreasing order, and adds $\delta$ to
    /// $\Delta$ [Ghashami et al. 2016, Alg. 3.1, with the Deviation of the type's docs].
    fn shrink(&mut self) {
        let (ell, stride) = (self.ell, 2 * self.ell);
        let m = ell + self.buf_ptr.len() - 1;
        let g = Mat::from_fn(m, m, |i, j| self.gram[i * stride + j]);
        // A symmetric eigendecomposition fails only on non-finite input, which `insert` refuses;
        // should it fail anyway, the buffer is kept exact by folding it in with delta = 0 below.
        let (lambda, u) = match g.self_adjoint_eigen(Side::Lower) {
            Ok(evd) => {
                let s = evd.S().column_vector();
                let mut order: Vec<usize> = (0..m).collect();
                order.sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
                let lambda: Vec<f64> = order.iter().map(|&j| s[j]).collect();
                let u = Mat::from_fn(m, m, |i, k| evd.U()[(i, order[k])]);
                (lambda, u)
            }
            Err(_) => (vec![0.0; m], Mat::identity(m, m)),
        };
        let delta = if m > ell { lambda[ell].max(0.0) } else { 0.0 };
        // coef[k * ell + i] = c_i[k]: new row i = sum_k c_i[k] [B; R]_k.
        let mut coef = vec![0.0; m * ell];
        for i in 0..ell.min(m) {
            let l = lambda[i];
            if l > delta && l > 0.0 {
                let scale = ((l - delta) / l).sqrt();
                for k in 0..m {
                    coef[k * ell + i] = scale * u[(k, i)];
                }
            }
        }
        // New B = C_top^T B, C_top = coef's first ell rows (k, i): a product of an ell x ell
        // matrix with the ell x t matrix of the slots (column-major), by faer's matmul on chunks
        // of slots so that the temporary stays at ell x CHUNK values.
        const CHUNK: usize = 1024;
        let tiny = 1e-100 * lambda[0].max(0.0).sqrt();
        let c_top = MatRef::from_row_major_slice(&coef[..ell * ell], ell, ell).transpose();
        let mut tmp = Mat::<f64>::zeros(ell, CHUNK.min(self.features.len()));
        for chunk in self.sketch.chunks_mut(ell * CHUNK) {
            let n = chunk.len() / ell;
            let src = MatRef::from_column_major_slice(chunk, ell, n);
            matmul(
                tmp.as_mut().subcols_mut(0, n),
                Accum::Replace,
                c_top,
                src,
                1.0,
                Par::Seq,
            );
            for (j, col) in chunk.chunks_exact_mut(ell).enumerate() {
                for (i, v) in col.iter_mut().enumerate() {
                    // Values below 1e-100 sigma_1 (features the shrinks have rotated out of
                    // every kept direction) are flushed to zero: they change B'B by less than
                    // 1e-200 sigma_1^2 per entry, and would otherwise decay into subnormals that
                    // slow every later product many times over.
                    let x = tmp[(i, j)];
                    *v = if x.abs() < tiny { 0.0 } else { x };
                }
            }
        }
        for q in 0..m - ell {
            let c = &coef[(ell + q) * ell..(ell + q + 1) * ell];
            for t in self.buf_ptr[q]..self.buf_ptr[q + 1] {
                let s = self.buf_slot[t] as usize;
                axpy(self.buf_val[t], c, &mut self.sketch[s * ell..(s + 1) * ell]);
            }
        }
        // The new B B^T = C^T G C with C = coef (m x ell): ell x ell, O(ell m^2).
        let mut gc = vec![0.0; m * ell];
        for a in 0..m {
            for k in 0..m {
                let gak = self.gram[a * stride + k];
                if gak != 0.0 {
                    axpy(
                        gak,
                        &coef[k * ell..(k + 1) * ell],
                        &mut gc[a * ell..(a + 1) * ell],
                    );
                }
            }
        }
        self.gram.fill(0.0);
        for a in 0..m {
            for i in 0..ell {
                let c = coef[a * ell + i];
                if c != 0.0 {
                    let row = &mut self.gram[i * stride..i * stride + ell];
                    axpy(c, &gc[a * ell..(a + 1) * ell], row);
                }
            }
        }
        // Exactly symmetric, as a Gram matrix is (and as a saved one is checked to be).
        for i in 0..ell {
            for j in i + 1..ell {
                let v = 0.5 * (self.gram[i * stride + j] + self.gram[j * stride + i]);
                self.gram[i * stride + j] = v;
                self.gram[j * stride + i] = v;
            }
        }
        self.delta += delta;
        self.buf_ptr.truncate(1);
        self.buf_slot.clear();
        self.buf_val.clear();
    }

    /// Merges a sketch of another stream into this one: a sketch of the concatenated stream,
    /// of dimension the larger of the two, whose $\Delta$ is the sum of both and of the shrinks
    /// of the merge, with the same bound against the union's $A$ (mergeability,
    /// Ghashami et al. 2016, sec. 3). The other's $\ell$ sketch rows and buffered rows are
    /// inserted as rows.
    ///
    /// Cost: at most two shrinks, $O(\ell^2 (t_1 + t_2))$ flops.
    ///
    /// # Errors
    /// [`StatsError::RankMismatch`] if the two $\ell$ differ (nothing changes).
    pub fn merge(&mut self, other: &FrequentDirections) -> Result<(), StatsError> {
        if other.ell != self.ell {
            return Err(StatsError::RankMismatch {
                left: self.ell,
                right: other.ell,
            });
        }
        self.grow(other.dim);
        let ell = self.ell;
        for i in 0..ell {
            for (s, col) in other.sketch.chunks_exact(ell).enumerate() {
                if col[i] != 0.0 {
                    let t = self.slot_of(other.features[s]);
                    self.buf_slot.push(t);
                    self.buf_val.push(col[i]);
                }
            }
            if self.buf_slot.len() > self.buf_ptr[self.buf_ptr.len() - 1] {
                self.close_row();
            }
        }
        for q in 0..other.buf_ptr.len() - 1 {
            for t in other.buf_ptr[q]..other.buf_ptr[q + 1] {
                let s = self.slot_of(other.features[other.buf_slot[t] as usize]);
                self.buf_slot.push(s);
                self.buf_val.push(other.buf_val[t]);
            }
            self.close_row();
        }
        self.rows += other.rows;
        self.mass += other.mass;
        self.delta += other.delta;
        Ok(())
    }

    /// `out` $= (B^\top B + R^\top R)\, w$ in $O(\ell t + \mathrm{nnz}(R) + p)$ flops, without
    /// forming a $p \times p$ matrix: $y = B w$, then $B^\top y$, then each buffered row.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `w` or `out` is not of length $p$; [`StatsError::NonFinite`]
    /// for a non-finite weight.
    pub fn apply(&self, w: &[f64], out: &mut [f64]) -> Result<(), StatsError> {
        self.check(w, out.len())?;
        let y = self.project(w);
        out.fill(0.0);
        for (col, &f) in self.sketch.chunks_exact(self.ell).zip(&self.features) {
            out[f as usize] = dot(col, &y);
        }
        for q in 0..self.buf_ptr.len() - 1 {
            let z = self.row_dot(q, w);
            for t in self.buf_ptr[q]..self.buf_ptr[q + 1] {
                out[self.features[self.buf_slot[t] as usize] as usize] += z * self.buf_val[t];
            }
        }
        Ok(())
    }

    /// [`apply`](Self::apply) without allocating once `scratch` has grown to the sketch: `out`
    /// $= (B^\top B + R^\top R)\, w$, and [`ApplyScratch::diag`] holds
    /// $(B^\top B + R^\top R)_{jj}$ for the touched features in slot order
    /// ([`touched_features`](Self::touched_features)), read from the same pass over $B$. For a
    /// learner's step, whose $w$ is finite by construction, it checks lengths only.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `w` or `out` is not of length $p$.
    pub fn apply_into(
        &self,
        w: &[f64],
        out: &mut [f64],
        scratch: &mut ApplyScratch,
    ) -> Result<(), StatsError> {
        self.check_lengths(w.len(), out.len())?;
        out.fill(0.0);
        self.apply_touched(w, out, scratch)
    }

    /// [`apply_into`](Self::apply_into) on the touched features only: assigns `out` at every
    /// touched feature and leaves its other entries as they are (the product is zero there), so
    /// a caller that keeps them zero gets $(B^\top B + R^\top R)\, w$ in
    /// $O(\ell t + \mathrm{nnz}(R))$ flops, with no $O(p)$ term.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `w` or `out` is not of length $p$.
    pub fn apply_touched(
        &self,
        w: &[f64],
        out: &mut [f64],
        scratch: &mut ApplyScratch,
    ) -> Result<(), StatsError> {
        self.check_lengths(w.len(), out.len())?;
        let ApplyScratch { y, diag } = scratch;
        y.clear();
        y.resize(self.ell, 0.0);
        for (col, &f) in self.sketch.chunks_exact(self.ell).zip(&self.features) {
            let wf = w[f as usize];
            if wf != 0.0 {
                axpy(wf, col, y);
            }
        }
        diag.clear();
        for (col, &f) in self.sketch.chunks_exact(self.ell).zip(&self.features) {
            out[f as usize] = dot(col, y);
            diag.push(dot(col, col));
        }
        for q in 0..self.buf_ptr.len() - 1 {
            let z = self.row_dot(q, w);
            for t in self.buf_ptr[q]..self.buf_ptr[q + 1] {
                let s = self.buf_slot[t] as usize;
                out[self.features[s] as usize] += z * self.buf_val[t];
                diag[s] += self.buf_val[t] * self.buf_val[t];
            }
        }
        Ok(())
    }

    /// `w` and `out` of length $p$, or the error naming the one that is not.
    fn check_lengths(&self, w: usize, out: usize) -> Result<(), StatsError> {
        for (what, found) in [("w", w), ("out", out)] {
            if found != self.dim {
                return Err(StatsError::Length {
                    what,
                    expected: self.dim,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The touched features in slot order, as [`ApplyScratch::diag`] lists them.
    pub fn touched_features(&self) -> &[u32] {
        &self.features
    }

    /// $w^\top (B^\top B + R^\top R)\, w = \lVert B w\rVert^2 + \lVert R w\rVert^2$ in
    /// $O(\ell t + \mathrm{nnz}(R))$ flops.
    ///
    /// # Errors
    /// As [`apply`](Self::apply).
    pub fn quad(&self, w: &[f64]) -> Result<f64, StatsError> {
        self.check(w, self.dim)?;
        Ok(self.quad_slots(&self.gather(w)))
    }

    /// Calls `f(j, d)` for every touched feature $j$ with $d = (B^\top B + R^\top R)_{jj}$ (the
    /// others are zero), in slot order.
    pub fn for_each_diag(&self, mut f: impl FnMut(usize, f64)) {
        let mut diag: Vec<f64> = self
            .sketch
            .chunks_exact(self.ell)
            .map(|c| dot(c, c))
            .collect();
        for (&s, &v) in self.buf_slot.iter().zip(&self.buf_val) {
            diag[s as usize] += v * v;
        }
        for (d, &j) in diag.into_iter().zip(&self.features) {
            f(j as usize, d);
        }
    }

    /// $B w$ ($\ell$ values).
    fn project(&self, w: &[f64]) -> Vec<f64> {
        self.project_slots(&self.gather(w))
    }

    /// $r_q \cdot w$.
    fn row_dot(&self, q: usize, w: &[f64]) -> f64 {
        (self.buf_ptr[q]..self.buf_ptr[q + 1])
            .map(|t| self.buf_val[t] * w[self.features[self.buf_slot[t] as usize] as usize])
            .sum()
    }

    /// $w$ at the touched features, in slot order.
    fn gather(&self, w: &[f64]) -> Vec<f64> {
        self.features.iter().map(|&f| w[f as usize]).collect()
    }

    /// $B w$ for $w$ given in slot order (zero at the untouched features).
    fn project_slots(&self, w: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.ell];
        for (col, &wf) in self.sketch.chunks_exact(self.ell).zip(w) {
            if wf != 0.0 {
                axpy(wf, col, &mut y);
            }
        }
        y
    }

    /// $r_q \cdot w$ for $w$ in slot order.
    fn row_dot_slots(&self, q: usize, w: &[f64]) -> f64 {
        (self.buf_ptr[q]..self.buf_ptr[q + 1])
            .map(|t| self.buf_val[t] * w[self.buf_slot[t] as usize])
            .sum()
    }

    /// $\lVert B w\rVert^2 + \lVert R w\rVert^2$ for $w$ in slot order.
    fn quad_slots(&self, w: &[f64]) -> f64 {
        let y = self.project_slots(w);
        let rows: f64 = (0..self.buf_ptr.len() - 1)
            .map(|q| self.row_dot_slots(q, w).powi(2))
            .sum();
        dot(&y, &y) + rows
    }

    fn check(&self, w: &[f64], out: usize) -> Result<(), StatsError> {
        self.check_lengths(w.len(), out)?;
        match w.iter().position(|v| !v.is_finite()) {
            Some(index) => Err(StatsError::NonFinite {
                what: "w",
                index,
                value: w[index].to_string(),
            }),
            None => Ok(()),
        }
    }
}

mod negative;
mod wire;

pub(crate) use wire::{Wire, decode_exact};
