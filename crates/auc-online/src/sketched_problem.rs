//! [`SketchedProblem`]: the whole-data pair problem from the two classes' sketched moments
//! (`auc_stats::SketchedMoments`: exact counts, means and covariance diagonals, and a
//! Frequent Directions sketch of rank $\ell$ for the rest), as a [`PairOperator`] for
//! [`crate::solve_square_cg`]: $O(\ell t + p)$ per product for $t$ touched features,
//! $O(\ell t + p)$ memory, never a $p \times p$ matrix (`docs/math/sketched-moments.md`).
//!
//! **What the sketch changes.** With $\hat S = \hat\Sigma_+ + \hat\Sigma_-$ and
//! $\varepsilon = \Delta_+/n_+ + \Delta_-/n_-$ (the two sketches' bounds),
//! $\lvert w^\top (S - \hat S) w\rvert \le \varepsilon \lVert w\rVert^2$, and $\Delta$ and the
//! diagonal are exact. $\hat S$ is not always positive semi-definite, but each class's
//! $\hat\Sigma$ is a positive semi-definite matrix minus one rank-one term plus a non-negative
//! diagonal, so it has at most one negative direction, which
//! `SketchedMoments::negative_part` finds without a $p \times p$ matrix: the operator is
//! $\hat S^+ = \hat S + \sum_\pm \mu_\pm v_\pm v_\pm^\top \succeq 0$, and
//! [`SketchedProblem::error_bound`] is $\varepsilon + \mu_+ + \mu_-$
//! (`docs/math/sketched-moments.md` section 6). Should rounding still leave negative curvature,
//! `opauc-batch` solves with $\hat S^+ + \sigma I$ ([`SketchedProblem::set_shift`]) for the
//! smallest $\sigma$ of $\varepsilon/1024, \varepsilon/256, \dots, \varepsilon$ that has none.

use auc_core::{Dataset, FitError, Label};
use auc_stats::SketchedMoments;

use crate::pair_operator::PairOperator;

/// The pair problem of two classes' sketched moments.
#[derive(Clone, Debug)]
pub struct SketchedProblem {
    pos: SketchedMoments,
    neg: SketchedMoments,
    delta: Vec<f64>,
    diag: Vec<f64>,
    scratch: Vec<f64>,
    shift: f64,
    /// Each class's negative part $(\mu, v)$, added back as $\mu v v^\top$ (module docs).
    clips: Vec<(f64, Vec<f64>)>,
}

impl SketchedProblem {
    /// The problem of these moments (grown to a common dimension).
    ///
    /// # Errors
    /// [`FitError::Empty`] / [`FitError::SingleClass`] for missing classes,
    /// [`FitError::NotFinite`] when the sums overflowed.
    pub fn new(mut pos: SketchedMoments, mut neg: SketchedMoments) -> Result<Self, FitError> {
        match (pos.count(), neg.count()) {
            (0, 0) => return Err(FitError::Empty),
            (0, _) | (_, 0) => return Err(FitError::SingleClass),
            _ => {}
        }
        let p = pos.dim().max(neg.dim());
        pos.grow(p);
        neg.grow(p);
        let (mut mp, mut mn) = (vec![0.0; p], vec![0.0; p]);
        let (mut dp, mut dn) = (vec![0.0; p], vec![0.0; p]);
        for (m, mean, diag) in [(&pos, &mut mp, &mut dp), (&neg, &mut mn, &mut dn)] {
            m.mean_into(mean).expect("grown to p");
            m.cov_diag_into(diag).expect("grown to p");
        }
        let delta: Vec<f64> = mp.iter().zip(&mn).map(|(a, b)| a - b).collect();
        let diag: Vec<f64> = dp.iter().zip(&dn).map(|(a, b)| a + b).collect();
        if !delta.iter().chain(&diag).all(|v| v.is_finite()) {
            return Err(FitError::NotFinite {
                what: "class moments",
            });
        }
        let not_finite = |_| FitError::NotFinite {
            what: "class moments",
        };
        let mut clips = Vec::new();
        let mut diag = diag;
        for m in [&pos, &neg] {
            if let Some((mu, v)) = m.negative_part().map_err(not_finite)? {
                for (d, x) in diag.iter_mut().zip(&v) {
                    *d += mu * x * x;
                }
                clips.push((mu, v));
            }
        }
        Ok(Self {
            pos,
            neg,
            delta,
            diag,
            scratch: vec![0.0; p],
            shift: 0.0,
            clips,
        })
    }

    /// Sketches of rank `ell` of `data`'s two classes, in row order.
    ///
    /// # Errors
    /// A rank outside `1..=auc_stats::MAX_ELL` (as a `sketch` parameter error), then as
    /// [`SketchedProblem::new`].
    pub fn from_dataset(data: &Dataset, ell: usize) -> Result<Self, FitError> {
        let bad = |e: auc_stats::StatsError| {
            FitError::Param(auc_core::ParamError::BadValue {
                name: "sketch".to_owned(),
                value: ell.to_string(),
                expected: e.to_string(),
            })
        };
        let mut pos = SketchedMoments::new(ell, data.dim()).map_err(bad)?;
        let mut neg = SketchedMoments::new(ell, data.dim()).map_err(bad)?;
        for (x, y) in data.iter() {
            let m = match y {
                Label::Pos => &mut pos,
                Label::Neg => &mut neg,
            };
            // Dataset rows are finite by construction.
            m.update(x)
                .map_err(|_| FitError::NotFinite { what: "rows" })?;
        }
        Self::new(pos, neg)
    }

    /// $\varepsilon = \Delta_+/n_+ + \Delta_-/n_-$: $\lvert w^\top(S - \hat S) w\rvert \le
    /// \varepsilon \lVert w\rVert^2$.
    pub fn error_bound(&self) -> f64 {
        self.pos.error_bound() + self.neg.error_bound() + self.clipped()
    }

    /// $\sum \mu$ over the classes' negative parts added back (0 when neither had one).
    pub fn clipped(&self) -> f64 {
        self.clips.iter().map(|c| c.0).sum()
    }

    /// Uses $\hat S + \sigma I$ from now on (module docs; $\sigma \ge 0$, and
    /// $\sigma \ge$ [`error_bound`](Self::error_bound) makes it positive semi-definite).
    pub fn set_shift(&mut self, sigma: f64) {
        self.shift = sigma.max(0.0);
    }

    /// An upper bound on the bytes of a fit on `dim` features with sketch rank `ell` and rows
    /// of at most `max_nnz` non-zeros: both classes' sketched moments, five vectors and the
    /// solver's six.
    pub fn fit_bytes(ell: usize, dim: usize, max_nnz: usize) -> u64 {
        let moments = SketchedMoments::bytes_for(ell, dim, max_nnz) as u64;
        moments
            .saturating_mul(2)
            .saturating_add(8u64.saturating_mul(dim as u64).saturating_mul(11))
    }
}

impl PairOperator for SketchedProblem {
    fn dim(&self) -> usize {
        self.delta.len()
    }

    fn delta(&self) -> &[f64] {
        &self.delta
    }

    fn counts(&self) -> (u64, u64) {
        (self.pos.count(), self.neg.count())
    }

    fn s_apply(&mut self, v: &[f64], out: &mut [f64]) {
        self.pos.cov_apply(v, out).expect("grown to p");
        self.neg
            .cov_apply(v, &mut self.scratch)
            .expect("grown to p");
        for ((o, &s), &vj) in out.iter_mut().zip(&self.scratch).zip(v) {
            *o += s + self.shift * vj;
        }
        for (mu, c) in &self.clips {
            let a = mu * crate::batch_moments::dot(c, v);
            for (o, &cj) in out.iter_mut().zip(c) {
                *o += a * cj;
            }
        }
    }

    fn s_diag(&self) -> Vec<f64> {
        self.diag.iter().map(|d| d + self.shift).collect()
    }
}
