//! The feature-map stage: a fitted map $z: \mathbb{R}^p \to \mathbb{R}^D$ (conventions section 9),
//! after scaling and before unit norm. It holds everything needed to apply it bit-identically
//! (kind, width, seed, weights or landmarks, projection), so a model file applies the map its
//! learner was trained on.
//!
//! All three kinds start with the same product: for a row $x$ (sparse or dense; entries past the
//! map's input dimension are ignored, as features a model never saw), $a = b + W^T x$ where $W$
//! is $p \times w$ stored by input feature (so a sparse row costs $\mathrm{nnz}(x) \cdot w$:
//! one contiguous `axpy` per stored entry). Then
//! - random Fourier features: $z_j = \sqrt{2/D} \cos a_j$, with $W_{kj} \sim N(0, 2/\sigma^2)$,
//!   $b_j \sim U[0, 2\pi)$;
//! - the extreme learning machine: $z_j = 1 / (1 + e^{-a_j})$;
//! - Nystroem: $W$ holds the $M$ landmarks as columns and $b = 0$, so $a_i = l_i \cdot x$;
//!   $k_i = \exp(-\max(0, \lVert x \rVert^2 + \lVert l_i \rVert^2 - 2 a_i) / \sigma^2)$ and
//!   $z = P^T k$ with the $M \times D$ projection $P = U \Lambda^{-1/2}$ of the kept
//!   eigenpairs of $K_{LL}$.
//!
//! The degree-2 polynomial map (`poly2`) holds no weights: its products are in `poly2.rs`, and
//! it gives sparse rows (only the non-zeros' products), where the kernel maps give dense ones.
//!
//! A feature whose arithmetic overflows (a non-finite product, phase or kernel value, from
//! entries near `f64::MAX`) is 0, so mapped rows are always finite.
//!
//! A dataset is mapped row by row with the row's own code, so the two agree bit for bit.

use auc_core::{Dataset, Row, RowBuf};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use serde::{Deserialize, Serialize};

use crate::draws::for_each_entry;
use crate::exp::gaussian_values;
use crate::features::{MAX_POLY2_DIM, MapKind};
use crate::fitted::FittedStage;
use crate::project::{pack_panels, project};

use super::poly2;

thread_local! {
    /// The non-zeros of the row being mapped by `poly2`, reused across rows of one thread.
    static POLY2_SCRATCH: std::cell::RefCell<Vec<(usize, f64)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A fitted feature map (see the module docs for the arithmetic).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureMap {
    pub(crate) kind: MapKind,
    pub(crate) input_dim: usize,
    pub(crate) sigma: f64,
    pub(crate) seed: u64,
    /// $W$, `input_dim` rows of `width` values: row $k$ holds input feature $k$'s weights.
    pub(crate) weights: Vec<f64>,
    /// $b$ (`width` values): the random offsets, or for Nystroem the landmarks' squared norms.
    pub(crate) offsets: Vec<f64>,
    /// Nystroem's projection $P$, `width` rows of `output_dim` values; empty otherwise.
    pub(crate) projection: Vec<f64>,
    pub(crate) output_dim: usize,
}

impl FeatureMap {
    /// The kind.
    pub fn kind(&self) -> MapKind {
        self.kind
    }

    /// The number of input features it reads (entries past it are ignored).
    pub fn input_dim(&self) -> usize {
        self.input_dim
    }

    /// The number of features it gives.
    pub fn output_dim(&self) -> usize {
        self.output_dim
    }

    /// The kernel width $\sigma$ it was fitted with.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The seed of its random draws and sample.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The columns of $W$: landmarks (Nystroem) or random units.
    fn width(&self) -> usize {
        self.offsets.len()
    }

    /// The size asked for as it was fitted: landmarks (Nystroem) or random units; 0 for the
    /// polynomial map, which has none.
    pub fn size(&self) -> usize {
        self.width()
    }

    /// Bytes the map holds.
    pub fn bytes(&self) -> u64 {
        8 * (self.weights.len() + self.offsets.len() + self.projection.len()) as u64
    }

    /// `nystroem:M`, `rff:D` or `elm:D` with its width: `rff:1000 (sigma 0.83)`; `poly2`.
    pub fn describe(&self) -> String {
        if !self.kind.has_width() {
            return self.kind.to_string();
        }
        format!("{}:{} (sigma {:.6})", self.kind, self.width(), self.sigma)
    }

    /// Flops of mapping one row with `nnz` stored entries: what the map's throughput is
    /// measured against.
    pub fn flops_per_row(&self, nnz: usize) -> u64 {
        let w = self.width() as u64;
        let t = nnz.min(self.input_dim) as u64;
        let product = 2 * t * w;
        match self.kind {
            MapKind::Nystroem => product + 2 * w * self.output_dim as u64,
            MapKind::Rff | MapKind::Elm => product,
            MapKind::Poly2 => t * (t + 1) / 2,
        }
    }

    /// $a = b + W^T x$ into `a` (resized to the width).
    fn product(&self, x: Row<'_>, a: &mut Vec<f64>) {
        let w = self.width();
        a.clear();
        match self.kind {
            MapKind::Nystroem | MapKind::Poly2 => a.resize(w, 0.0),
            MapKind::Rff | MapKind::Elm => a.extend_from_slice(&self.offsets),
        }
        let mut add = |k: usize, v: f64| {
            let col = &self.weights[k * w..(k + 1) * w];
            for (ai, wi) in a.iter_mut().zip(col) {
                *ai += v * wi;
            }
        };
        match x {
            Row::Dense(v) => {
                for (k, &xk) in v.iter().enumerate().take(self.input_dim) {
                    if xk != 0.0 {
                        add(k, xk);
                    }
                }
            }
            Row::Sparse(s) => {
                for (&k, &xk) in s.indices().iter().zip(s.values()) {
                    let k = k as usize;
                    if k >= self.input_dim {
                        break;
                    }
                    if xk != 0.0 {
                        add(k, xk);
                    }
                }
            }
        }
    }

    /// $\lVert x \rVert^2$ over the features the map reads, in index order.
    fn squared_norm(&self, x: Row<'_>) -> f64 {
        match x {
            Row::Dense(v) => v.iter().take(self.input_dim).map(|a| a * a).sum(),
            Row::Sparse(s) => s
                .indices()
                .iter()
                .zip(s.values())
                .take_while(|(k, _)| (**k as usize) < self.input_dim)
                .map(|(_, a)| a * a)
                .sum(),
        }
    }

    /// $z(x)$ into `out` (resized to the output dimension); allocation-free once `out` has
    /// the capacity of the width plus the output.
    pub fn map_into(&self, x: Row<'_>, out: &mut Vec<f64>) {
        if self.kind == MapKind::Poly2 {
            let (mut nz, mut idx, mut val) = (Vec::new(), Vec::new(), Vec::new());
            poly2::map_sparse(x, self.input_dim, &mut nz, &mut idx, &mut val);
            out.clear();
            out.resize(self.output_dim, 0.0);
            for (&j, &v) in idx.iter().zip(&val) {
                out[j as usize] = v;
            }
            return;
        }
        self.product(x, out);
        match self.kind {
            MapKind::Rff => {
                let c = (2.0 / self.output_dim as f64).sqrt();
                for a in out.iter_mut() {
                    *a = c * a.cos();
                }
            }
            MapKind::Elm => {
                for a in out.iter_mut() {
                    *a = 1.0 / (1.0 + (-*a).exp());
                }
            }
            MapKind::Nystroem => {
                self.kernel_values(x, out);
                // z = P^T k, written after the M kernel values, then moved to the front.
                let (m, d) = (self.width(), self.output_dim);
                out.resize(m + d, 0.0);
                let (k, z) = out.split_at_mut(m);
                for (ki, prow) in k.iter().zip(self.projection.chunks_exact(d)) {
                    for (zj, pij) in z.iter_mut().zip(prow) {
                        *zj += ki * pij;
                    }
                }
                out.copy_within(m.., 0);
                out.truncate(d);
            }
            MapKind::Poly2 => unreachable!("mapped above"),
        }
        finite(out);
    }

    /// For Nystroem, the kernel values $k(L, x)$ of every row of `data` (a dense dataset of $M$
    /// features, the labels kept), with $z(x) = P^\top k(L, x)$; `None` for the other kinds.
    /// The class moments of these rows, transformed by $P$, are those of the mapped rows (up
    /// to rounding), at $M p$ flops a row instead of $M (p + D)$.
    ///
    /// The products $l_i \cdot x$ of all rows are one matrix product $X W$ (faer), so a value
    /// may differ from the row-at-a-time [`FeatureMap::map_into`]'s in its last bits: these
    /// values feed moments, where only rounding-level agreement is asked; the same `data`
    /// gives the same values, bit for bit. The exponentials are a polynomial's that
    /// vectorize (within $4 \cdot 10^{-16}$ of the C library's).
    pub fn kernel_values_dataset(&self, data: &Dataset) -> Option<Dataset> {
        if self.kind != MapKind::Nystroem {
            return None;
        }
        let (n, m, p) = (data.n(), self.width(), self.input_dim);
        let mut x = vec![0.0; n.saturating_mul(p)];
        let mut norms = Vec::with_capacity(n);
        for (xi, (row, _)) in x.chunks_exact_mut(p.max(1)).zip(data.iter()) {
            for_each_entry(row, p, |k, v| xi[k] = v);
            norms.push(self.squared_norm(row));
        }
        let mut values = vec![0.0; n.saturating_mul(m)];
        if p > 0 && n > 0 && m > 0 {
            matmul(
                MatMut::from_row_major_slice_mut(&mut values, n, m),
                Accum::Replace,
                MatRef::from_row_major_slice(&x, n, p),
                MatRef::from_row_major_slice(&self.weights, p, m),
                1.0,
                Par::Seq,
            );
        }
        let neg_inv_s2 = -1.0 / (self.sigma * self.sigma);
        for (row, xx) in values.chunks_exact_mut(m.max(1)).zip(norms) {
            gaussian_values(xx, &self.offsets, neg_inv_s2, row);
            finite(row);
        }
        Some(
            Dataset::dense(m, values, data.labels().to_vec())
                .expect("kernel values of finite rows are finite"),
        )
    }

    /// Nystroem's projection $P$: `size()` rows of `output_dim()` values, row $i$ for landmark
    /// $i$ (empty for the other kinds).
    pub fn projection(&self) -> &[f64] {
        &self.projection
    }

    /// For Nystroem, the weights $v = P w$ on the landmarks' kernel values of a linear scorer
    /// $w$ of the mapped features: $w^\top z(x) = w^\top P^\top k(L, x) = v^\top k(L, x)$, so
    /// [`FeatureMap::collapsed_score`] scores a row with $M p$ flops instead of the $M p + M D$
    /// of mapping it first (equal up to rounding). `None` for the other kinds or a `w` of
    /// another length.
    pub fn collapse(&self, w: &[f64]) -> Option<Vec<f64>> {
        if self.kind != MapKind::Nystroem || w.len() != self.output_dim {
            return None;
        }
        Some(
            self.projection
                .chunks_exact(self.output_dim)
                .map(|row| row.iter().zip(w).map(|(p, wj)| p * wj).sum())
                .collect(),
        )
    }

    /// $v^\top k(L, x)$ for the weights `v` of [`FeatureMap::collapse`]; `a` is scratch (the
    /// kernel values). 0 when the sum is not finite.
    pub fn collapsed_score(&self, x: Row<'_>, v: &[f64], a: &mut Vec<f64>) -> f64 {
        self.product(x, a);
        self.kernel_values(x, a);
        let s: f64 = a.iter().zip(v).map(|(k, vi)| k * vi).sum();
        if s.is_finite() { s } else { 0.0 }
    }

    /// Nystroem's kernel values $k_i = k(l_i, x)$ from the product $a$ already in `a`.
    fn kernel_values(&self, x: Row<'_>, a: &mut [f64]) {
        let xx = self.squared_norm(x);
        let s2 = self.sigma * self.sigma;
        for (ai, ll) in a.iter_mut().zip(&self.offsets) {
            let d = (xx + ll - 2.0 * *ai).max(0.0);
            *ai = (-d / s2).exp();
        }
    }

    /// Nystroem on a dataset, [`NYSTROEM_BLOCK`] rows at a time: the kernel values of a block,
    /// then its projection $Z = K P$ by register tiles (`project.rs`), so that $P$ is read once
    /// per block instead of once per row. Every output still sums over $i$ in increasing
    /// order, as [`FeatureMap::map_into`] does: the values are the same, bit for bit.
    fn nystroem_dataset(&self, data: &Dataset) -> Vec<f64> {
        let (m, d) = (self.width(), self.output_dim);
        let mut values = vec![0.0; data.n().saturating_mul(d)];
        let mut k = vec![0.0; NYSTROEM_BLOCK * m];
        let mut a = Vec::with_capacity(m);
        let panels = pack_panels(&self.projection, m, d);
        let mut tile = Vec::new();
        for (start, z) in (0..data.n())
            .step_by(NYSTROEM_BLOCK)
            .zip(values.chunks_mut(NYSTROEM_BLOCK * d))
        {
            let rows = z.len() / d;
            for b in 0..rows {
                let x = data.row(start + b);
                self.product(x, &mut a);
                self.kernel_values(x, &mut a);
                k[b * m..(b + 1) * m].copy_from_slice(&a);
            }
            project(
                &k[..rows * m],
                m,
                &self.projection,
                &panels,
                d,
                z,
                &mut tile,
            );
            finite(z);
        }
        values
    }
}

/// Rows of a dataset Nystroem's projection is applied to at once.
const NYSTROEM_BLOCK: usize = 32;

/// A product that overflows (entries near f64::MAX, or weights of a tiny width) has no phase or
/// activation: such features are 0, so every mapped row is finite, as a dataset's rows must be.
fn finite(z: &mut [f64]) {
    for v in z.iter_mut() {
        if !v.is_finite() {
            *v = 0.0;
        }
    }
}

impl FittedStage for FeatureMap {
    fn name(&self) -> &'static str {
        "feature-map"
    }

    fn apply_dataset(&self, data: &Dataset) -> Dataset {
        let d = self.output_dim;
        if self.kind == MapKind::Poly2 {
            let (mut nz, mut idx, mut val) = (Vec::new(), Vec::new(), Vec::new());
            let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
            for (x, _) in data.iter() {
                poly2::map_sparse(x, self.input_dim, &mut nz, &mut idx, &mut val);
                indices.extend_from_slice(&idx);
                values.extend_from_slice(&val);
                indptr.push(indices.len());
            }
            return Dataset::sparse(d, indptr, indices, values, data.labels().to_vec())
                .expect("a mapped row has strictly increasing indices below D");
        }
        if self.kind == MapKind::Nystroem {
            return Dataset::dense(d, self.nystroem_dataset(data), data.labels().to_vec())
                .expect("a mapped row has the map's output dimension");
        }
        let mut values = Vec::with_capacity(data.n().saturating_mul(d));
        let mut z = Vec::with_capacity(self.width() + d);
        for (x, _) in data.iter() {
            self.map_into(x, &mut z);
            values.extend_from_slice(&z);
        }
        Dataset::dense(d, values, data.labels().to_vec())
            .expect("a mapped row has the map's output dimension")
    }

    fn apply_row(&self, x: Row<'_>, out: &mut RowBuf) {
        if self.kind == MapKind::Poly2 {
            if !matches!(out, RowBuf::Sparse { .. }) {
                *out = RowBuf::Sparse {
                    indices: Vec::new(),
                    values: Vec::new(),
                };
            }
            let RowBuf::Sparse { indices, values } = out else {
                unreachable!("made sparse above")
            };
            POLY2_SCRATCH.with_borrow_mut(|nz| {
                poly2::map_sparse(x, self.input_dim, nz, indices, values);
            });
            return;
        }
        if !matches!(out, RowBuf::Dense(_)) {
            *out = RowBuf::Dense(Vec::with_capacity(self.width() + self.output_dim));
        }
        let RowBuf::Dense(v) = out else {
            unreachable!("made dense above")
        };
        self.map_into(x, v);
    }

    /// Consistent shapes, finite values, a positive width, an input dimension of at most
    /// `dim` (the data's).
    fn validate(&self, dim: usize) -> Result<(), String> {
        let w = self.width();
        if self.input_dim > dim {
            return Err(format!(
                "the map reads {} features, the data has {dim}",
                self.input_dim
            ));
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return Err(format!("the kernel width {} is not positive", self.sigma));
        }
        if self.kind == MapKind::Poly2 {
            let d = super::poly2_dim(self.input_dim).filter(|&d| d <= MAX_POLY2_DIM);
            if self.input_dim == 0 || d != Some(self.output_dim) {
                return Err(format!(
                    "a polynomial map of {} features gives {} of them",
                    self.input_dim, self.output_dim
                ));
            }
            if !(self.weights.is_empty() && self.offsets.is_empty() && self.projection.is_empty()) {
                return Err("a polynomial map holds no weights".to_owned());
            }
            return Ok(());
        }
        if w == 0 || self.output_dim == 0 {
            return Err("the map has no features".to_owned());
        }
        if self.weights.len() != self.input_dim.saturating_mul(w) {
            return Err(format!(
                "{} weights for {} input features of {w} units",
                self.weights.len(),
                self.input_dim
            ));
        }
        let projection = match self.kind {
            MapKind::Nystroem => w.saturating_mul(self.output_dim),
            MapKind::Poly2 => unreachable!("checked above"),
            MapKind::Rff | MapKind::Elm => {
                if self.output_dim != w {
                    return Err(format!("{} outputs of {w} random units", self.output_dim));
                }
                0
            }
        };
        if self.projection.len() != projection {
            return Err(format!(
                "a projection of {} values where {projection} belong",
                self.projection.len()
            ));
        }
        let finite = |v: &[f64]| v.iter().all(|a| a.is_finite());
        if !(finite(&self.weights) && finite(&self.offsets) && finite(&self.projection)) {
            return Err("the map holds a value that is not finite".to_owned());
        }
        Ok(())
    }
}
