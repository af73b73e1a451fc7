//! The kernel member's problem without mapping a row: the OPAUC-batch problem of the mapped
//! rows from the class moments of the landmarks' kernel values $k = k(L, x) \in \mathbb{R}^M$.
//!
//! The map is $z = P^\top k$ with $P$ of $M \times D$. A linear map of the rows is a linear
//! map of their moments, so the problem's mean difference and summed class covariances are
//! $$\Delta_z = P^\top \Delta_k, \qquad S_z = P^\top (\Sigma^+_k + \Sigma^-_k) P$$
//! exactly. The classes' covariances are added before the projection, so it is one product
//! $S_k P$ ($2 M^2 D$ flops) and the lower triangle of $P^\top (S_k P)$ ($M D^2$), not two of
//! each per class. A row then costs the $M p$ flops of its kernel values and its share of the
//! moments' product, not the $M D$ of its projection. The result equals the problem of the
//! mapped rows' moments up to rounding; the blend's tests compare the fitted kernel member
//! with OPAUC-batch on the mapped rows.

use auc_core::FitError;
use auc_online::PairProblem;
use auc_prep::FeatureMap;
use auc_stats::Moments;
use faer::linalg::matmul::matmul;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatRef, Par};

/// The OPAUC-batch problem of the mapped rows from the moments `k` of their kernel values.
///
/// # Errors
/// Those of [`PairProblem::new`] on `k`; [`FitError::NotFinite`] if the projection is not
/// finite.
pub(crate) fn project(map: &FeatureMap, k: &Moments) -> Result<PairProblem, FitError> {
    let in_k = PairProblem::new(k)?;
    let (m, d) = (map.size(), map.output_dim());
    let p = MatRef::from_row_major_slice(map.projection(), m, d);
    let s = MatRef::from_row_major_slice(&in_k.s, m, m);
    let mut sp = Mat::<f64>::zeros(m, d);
    matmul(sp.as_mut(), Accum::Replace, s, p, 1.0, Par::Seq);
    let mut sz = Mat::<f64>::zeros(d, d);
    triangular::matmul(
        sz.as_mut(),
        BlockStructure::TriangularLower,
        Accum::Replace,
        p.transpose(),
        BlockStructure::Rectangular,
        sp.as_ref(),
        BlockStructure::Rectangular,
        1.0,
        Par::Seq,
    );
    let mut s_z = vec![0.0; d * d];
    for j in 0..d {
        // The diagonal is a sum of squares: rounding must not make it negative.
        s_z[j * d + j] = sz[(j, j)].max(0.0);
        for i in j + 1..d {
            s_z[i * d + j] = sz[(i, j)];
            s_z[j * d + i] = sz[(i, j)];
        }
    }
    let delta: Vec<f64> = (0..d)
        .map(|j| (0..m).map(|i| p[(i, j)] * in_k.delta[i]).sum())
        .collect();
    if !delta.iter().chain(&s_z).all(|v| v.is_finite()) {
        return Err(FitError::NotFinite {
            what: "the kernel member's projected moments",
        });
    }
    Ok(PairProblem {
        dim: d,
        delta,
        s: s_z,
        positives: in_k.positives,
        negatives: in_k.negatives,
    })
}
