//! How a fitted GAM-CVM model scores a row, shared by the fitted [`GamCvmModel`](crate::GamCvmModel) and the saved
//! [`InductiveModel`](crate::InductiveModel): a fitted point by its exact feature bits, any other row inductively
//! through its local kernels ([`crate::model`] docs). One piece of code for both is why a saved
//! model scores bit for bit as the fitted one.

use std::collections::HashMap;
use std::hash::Hasher;

use auc_core::{Dataset, Row};
use rayon::prelude::*;

use crate::fusion::{Normalization, local_weights};
use crate::kernels::{Knn, Points, SubKernel};

/// What scoring reads, borrowed from a [`GamCvmModel`](crate::GamCvmModel) or an [`InductiveModel`](crate::InductiveModel): both score
/// through this one piece of code, which is why a saved model scores bit for bit as the fitted
/// one.
pub(crate) struct Scoring<'a> {
    pub(crate) pts: &'a Points,
    pub(crate) kernels: &'a [Box<dyn SubKernel>],
    pub(crate) normalization: Normalization,
    pub(crate) f: &'a [f64],
    pub(crate) w: &'a [(usize, f64)],
    pub(crate) n_loc: usize,
    pub(crate) index: &'a PointIndex,
    /// The points and scores a new point is scored through: `pts` and `f`, or the landmarks
    /// and their scores.
    pub(crate) new_pts: &'a Points,
    pub(crate) new_f: &'a [f64],
}

impl Scoring<'_> {
    /// The inductive score of a new point ([`crate::model`] docs): one kernel's expansion
    /// $\sum_k w_k k(x, x_k)$ \[CVM eq. 44\], or one diffusion step of the local kernels
    /// through the fitted scores.
    pub(crate) fn score_new(&self, x: &[f64]) -> f64 {
        let q = Points::from_dense(self.pts.dim(), x.to_vec());
        let knn = Knn::search(&q, self.new_pts, self.n_loc, false);
        let mut q = q;
        q.set_sparsity(&knn);
        let s: f64 = if self.kernels.len() == 1 {
            let k = &self.kernels[0];
            self.w
                .iter()
                .map(|&(j, wj)| wj * k.value(&q, 0, self.pts, j))
                .sum()
        } else {
            let nb = knn.neighbours(0);
            let lw = local_weights(&q, 0, self.new_pts, nb, self.kernels, self.normalization);
            let m = lw.len() as f64;
            nb.iter()
                .enumerate()
                .map(|(t, &k)| lw.iter().map(|r| r[t]).sum::<f64>() / m * self.new_f[k as usize])
                .sum()
        };
        if s.is_finite() { s } else { 0.0 }
    }

    /// A point of the set by its exact features gets its fitted score; any other is new.
    ///
    /// # Panics
    /// If the row has a feature at or beyond the model's dimension (a programmer error: the
    /// data layer pads or rejects rows first).
    pub(crate) fn score(&self, x: Row<'_>) -> f64 {
        let p = self.pts.dim();
        let mut dense = vec![0.0; p];
        x.for_each(|j, v| {
            assert!(
                j < p,
                "row has feature {j}, the model was fitted on {p} features"
            );
            dense[j] = v;
        });
        match self.index.find(self.pts, &dense) {
            Some(k) => self.f[k],
            None => self.score_new(&dense),
        }
    }

    pub(crate) fn score_all(&self, data: &Dataset) -> Vec<f64> {
        (0..data.n())
            .into_par_iter()
            .map(|i| self.score(data.row(i)))
            .collect()
    }
}

/// The fitted points by their exact feature bits ($-0$ as $0$): the first point whose features
/// equal a row's. Points are bucketed by a 64-bit hash of their bits and a lookup compares the
/// row with each point of its bucket, so the index takes O(n) memory (keying by the bits
/// themselves copied every point: as much memory again as the points, for every model in
/// memory).
#[derive(Debug)]
pub(crate) struct PointIndex {
    buckets: HashMap<u64, Vec<usize>>,
}

impl PointIndex {
    /// The index of `pts`.
    pub(crate) fn new(pts: &Points) -> Self {
        let mut buckets: HashMap<u64, Vec<usize>> = HashMap::new();
        for i in 0..pts.n() {
            buckets.entry(key(pts.row(i))).or_default().push(i);
        }
        PointIndex { buckets }
    }

    /// The first point of `pts` (the points the index was built on) whose features are `x`'s.
    pub(crate) fn find(&self, pts: &Points, x: &[f64]) -> Option<usize> {
        self.buckets
            .get(&key(x))?
            .iter()
            .copied()
            .find(|&i| same_bits(pts.row(i), x))
    }
}

/// The hash of a point's feature bits.
fn key(x: &[f64]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for v in x {
        h.write_u64((v + 0.0).to_bits());
    }
    h.finish()
}

/// Whether two points have the same feature bits ($-0$ as $0$).
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x + 0.0).to_bits() == (y + 0.0).to_bits())
}
