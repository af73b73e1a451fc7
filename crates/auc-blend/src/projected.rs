//! The kernel member's class moments without mapping a row: the moments of the landmarks'
//! kernel values $k = k(L, x) \in \mathbb{R}^M$, transformed by the Nystroem projection.
//!
//! The map is $z = P^\top k$ with $P$ of $M \times D$, so per class
//! $\bar z = P^\top \bar k$ and $\sum_i (z_i - \bar z)(z_i - \bar z)^\top = P^\top C_k P$,
//! exactly (a linear map of the rows is a linear map of their moments). A row then costs the
//! $M p$ flops of its kernel values and its share of the moments' product, not the $M D$ of its
//! projection; the transform is two products of $M \times M$ by $M \times D$ once per class
//! (faer). The result equals the moments of the mapped rows up to rounding; the blend's tests
//! compare the fitted kernel member with OPAUC-batch on the mapped rows.

use auc_core::FitError;
use auc_prep::FeatureMap;
use auc_stats::{ClassMoments, Moments};
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

/// The moments of the mapped rows from the moments `k` of the kernel values.
pub(crate) fn project(map: &FeatureMap, k: &Moments) -> Result<Moments, FitError> {
    let p = map.projection();
    let (m, d) = (map.size(), map.output_dim());
    let p = MatRef::from_row_major_slice(p, m, d);
    let class = |c: &ClassMoments| -> Result<ClassMoments, FitError> {
        if c.count() == 0 {
            return Ok(ClassMoments::new(d));
        }
        // The packed upper triangle of C_k, unpacked.
        let mut ck = Mat::<f64>::zeros(m, m);
        let packed = c.comoment();
        let mut at = 0;
        for i in 0..m {
            for j in i..m {
                ck[(i, j)] = packed[at];
                ck[(j, i)] = packed[at];
                at += 1;
            }
        }
        let mut t = Mat::<f64>::zeros(m, d);
        matmul(t.as_mut(), Accum::Replace, ck.as_ref(), p, 1.0, Par::Seq);
        let mut cz = Mat::<f64>::zeros(d, d);
        matmul(
            cz.as_mut(),
            Accum::Replace,
            p.transpose(),
            t.as_ref(),
            1.0,
            Par::Seq,
        );
        let mean: Vec<f64> = (0..d)
            .map(|j| (0..m).map(|i| p[(i, j)] * c.mean()[i]).sum())
            .collect();
        let mut out = Vec::with_capacity(d * (d + 1) / 2);
        for i in 0..d {
            for j in i..d {
                out.push(if i == j {
                    cz[(i, i)].max(0.0)
                } else {
                    0.5 * (cz[(i, j)] + cz[(j, i)])
                });
            }
        }
        ClassMoments::from_parts(c.count(), mean, out).map_err(|_| FitError::NotFinite {
            what: "the kernel member's projected moments",
        })
    };
    Ok(Moments {
        pos: class(&k.pos)?,
        neg: class(&k.neg)?,
    })
}
