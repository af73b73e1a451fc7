//! [`MomentStore`]: the two classes' moments a one-pass moment learner steps on, kept either
//! exactly (packed $p \times p$ covariances, [`Moments`]) or sketched (parameter `sketch` =
//! $\ell > 0$: per class the exact count, sums and diagonal plus a Frequent Directions sketch of
//! rank $\ell$, [`SketchedMoments`]; `docs/math/sketched-moments.md`).
//!
//! # What the sketch changes in a step
//!
//! A step reads the opposite class's mean $\bar x$, $\Sigma w$ and $w^\top \Sigma w$ (module
//! docs of `moment.rs`). Sketched, the mean and the diagonal of $\Sigma$ stay exact and
//! $\Sigma w$ becomes $(\hat\Sigma + \delta I) w$ (The shift, below), within
//! $2\delta\lVert w\rVert$ of it, $\delta = \Delta/N$ and $\Delta$ the sketch's shrinkage
//! ([`SketchedMoments::error_bound`]). So each step's gradient is within
//! $2\lvert b\rvert \delta \lVert w\rVert$ of the exact learner's at the same iterate, and
//! with $\operatorname{rank} \le \ell$ data ($\Delta = 0$) the two learners agree to rounding
//! (the test `sketched_learners_match_dense_on_low_rank_rows` pins this).
//!
//! # The shift
//!
//! $\hat\Sigma$ itself can be indefinite: the sketch drops mass $E \succeq 0$ off the raw
//! second moment, the rank-one mean term is subtracted exactly, and the diagonal is put back, so
//! $\hat\Sigma = \Sigma - (E - \operatorname{diag} E)/N$. A step that meets negative curvature
//! moves $w$ along it without bound (OPAUC on a9a at $\ell = 32$ diverged to
//! $\lVert w\rVert \approx 4 \cdot 10^{12}$). The learners therefore step on
//! $\hat\Sigma + \delta I$, $\delta = \Delta/N$. Since $0 \preceq E \preceq \Delta I$ and
//! $0 \le E_{jj} \le \Delta$,
//! $$\Sigma \preceq \hat\Sigma + \delta I \preceq \Sigma + 2\delta I:$$
//! positive semi-definite, and the exact covariance plus a ridge of at most $2\delta$, that is,
//! the exact learner's objective with $\lambda$ raised by at most $2 \lvert b\rvert\delta$.
//! With $\Delta = 0$ (rows of rank $\le \ell$) there is no shift.
//!
//! # Cost of a sketched step
//!
//! | part | flops | memory |
//! |---|---|---|
//! | own class: sums and the sketch's insert | $O(\ell \cdot \mathrm{nnz})$, plus a shrink of $O(\ell^2 t + \ell^3)$ every $\ell$ rows of the class | |
//! | opposite class: $\hat\Sigma w$, $w^\top\hat\Sigma w$ ([`SketchedMoments::cov_apply_into`]) | $\approx 4 \ell t + 6 p$ | reads $8 \ell t$ bytes of the sketch |
//! | $d$, $w^\top d$, gradient, step | $\approx 10 p$ | $O(p)$ |
//!
//! where $t \le p$ is the number of features the opposite class has touched. State: per class
//! $O(\ell t + p)$ ([`SketchedMoments::bytes_for`]) instead of $4 p^2$ bytes; the step allocates
//! nothing except the shrink's $2\ell \times 2\ell$ eigendecomposition and, amortized, storage
//! for features seen for the first time.

use auc_core::{Label, Row};
use auc_stats::{ApplyScratch, Moments, SketchedMoments};
use serde::{Deserialize, Serialize};

/// Both classes' moments, exact or sketched (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MomentStore {
    /// Exact: both packed covariance triangles.
    Dense(Moments),
    /// Sketched: per class the exact count, sums and diagonal and a sketch of rank $\ell$.
    Sketched(Box<SketchedClasses>),
}

/// The two classes' [`SketchedMoments`], of one rank $\ell$ and one dimension.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SketchedClasses {
    /// The positive class.
    pub pos: SketchedMoments,
    /// The negative class.
    pub neg: SketchedMoments,
}

impl PartialEq for SketchedClasses {
    /// Equal when they encode to the same bytes (a sketch has no other notion of equality).
    fn eq(&self, other: &Self) -> bool {
        self.pos.to_bytes() == other.pos.to_bytes() && self.neg.to_bytes() == other.neg.to_bytes()
    }
}

impl MomentStore {
    /// Empty moments for `dim` features: exact for `sketch == 0`, else sketched with
    /// $\ell$ = `sketch` (checked by the parameters, $1 \le \ell \le$ [`auc_stats::MAX_ELL`]).
    pub(crate) fn new(sketch: usize, dim: usize) -> Self {
        if sketch == 0 {
            return Self::Dense(Moments::new(dim));
        }
        let class = || {
            SketchedMoments::new(sketch, dim)
                .unwrap_or_else(|e| unreachable!("the parameters checked the sketch rank: {e}"))
        };
        Self::Sketched(Box::new(SketchedClasses {
            pos: class(),
            neg: class(),
        }))
    }

    /// The exact moments, when they are kept.
    pub fn dense(&self) -> Option<&Moments> {
        match self {
            Self::Dense(m) => Some(m),
            Self::Sketched(_) => None,
        }
    }

    /// The sketched moments, when they are kept.
    pub fn sketched(&self) -> Option<&SketchedClasses> {
        match self {
            Self::Dense(_) => None,
            Self::Sketched(s) => Some(s),
        }
    }

    /// The sketch rank $\ell$, 0 for exact moments.
    pub fn sketch_rank(&self) -> usize {
        match self {
            Self::Dense(_) => 0,
            Self::Sketched(s) => s.pos.sketch().ell(),
        }
    }

    /// The dimension $p$ (both classes agree: see `MomentStore::check`).
    pub fn dim(&self) -> usize {
        match self {
            Self::Dense(m) => m.dim(),
            Self::Sketched(s) => s.pos.dim(),
        }
    }

    /// The examples counted in each class, `(positives, negatives)`.
    pub fn counts(&self) -> (u64, u64) {
        match self {
            Self::Dense(m) => (m.pos.count(), m.neg.count()),
            Self::Sketched(s) => (s.pos.count(), s.neg.count()),
        }
    }

    /// The examples counted in the class opposite to `y`.
    pub(crate) fn opposite_count(&self, y: Label) -> u64 {
        let (pos, neg) = self.counts();
        match y {
            Label::Pos => neg,
            Label::Neg => pos,
        }
    }

    /// Checks a decoded store: the sketched classes share one rank and one dimension.
    pub(crate) fn check(&self) -> Result<(), String> {
        if let Self::Sketched(s) = self {
            let (a, b) = (s.pos.sketch(), s.neg.sketch());
            if a.ell() != b.ell() || s.pos.dim() != s.neg.dim() {
                return Err(format!(
                    "the classes' sketches differ: rank {} over {} features against rank {} over {}",
                    a.ell(),
                    s.pos.dim(),
                    b.ell(),
                    s.neg.dim()
                ));
            }
        }
        Ok(())
    }

    /// Grows both classes to `dim` features (exactly: the new features are 0 in every row).
    pub(crate) fn grow(&mut self, dim: usize) {
        match self {
            Self::Dense(m) => m.grow(dim),
            Self::Sketched(s) => {
                s.pos.grow(dim);
                s.neg.grow(dim);
            }
        }
    }

    /// Adds $x$ to class $y$, then writes the opposite class's $\Sigma w$ into `sw` and returns
    /// $w^\top \Sigma w$ (sketched: $\hat\Sigma$). `None` when the sketch refuses the row (a
    /// non-finite value, which the data layer never passes): nothing changed then.
    ///
    /// # Panics
    /// Exact moments: as [`Moments::update_and_mul_opposite`], if `w`, `sw` or $x$ is longer
    /// than $p$ (callers grow first).
    pub(crate) fn update_and_mul_opposite(
        &mut self,
        x: Row<'_>,
        y: Label,
        w: &[f64],
        sw: &mut [f64],
        scratch: &mut ApplyScratch,
    ) -> Option<f64> {
        match self {
            Self::Dense(m) => Some(m.update_and_mul_opposite(x, y, w, sw)),
            Self::Sketched(s) => {
                let (own, opp) = match y {
                    Label::Pos => (&mut s.pos, &s.neg),
                    Label::Neg => (&mut s.neg, &s.pos),
                };
                own.update(x).ok()?;
                opp.cov_apply_into(w, sw, scratch)
                    .ok()
                    .map(|s2| shift(opp, w, sw, s2))
            }
        }
    }

    /// `d` $= x - \bar x$ for the class opposite to `y`.
    pub(crate) fn write_opposite_diff(&self, x: Row<'_>, y: Label, d: &mut [f64]) {
        match self {
            Self::Dense(m) => write_diff(x, m.opposite(y).mean(), d),
            Self::Sketched(s) => {
                let opp = match y {
                    Label::Pos => &s.neg,
                    Label::Neg => &s.pos,
                };
                // -mean everywhere, then x added on its support: O(p + nnz).
                for (j, dj) in d.iter_mut().enumerate() {
                    *dj = -opp.mean_at(j);
                }
                x.for_each(|j, v| d[j] += v);
            }
        }
    }

    /// The opposite class's $\Sigma w$ into `sw` and $w^\top \Sigma w$ (a diagnostic: allocates).
    pub(crate) fn opposite_mul(&self, y: Label, w: &[f64], sw: &mut [f64]) -> f64 {
        match self {
            Self::Dense(m) => m.opposite(y).cov_mul_and_quad(w, sw),
            Self::Sketched(s) => {
                let opp = match y {
                    Label::Pos => &s.neg,
                    Label::Neg => &s.pos,
                };
                let s2 = opp
                    .cov_apply_into(w, sw, &mut ApplyScratch::default())
                    .unwrap_or_else(|e| unreachable!("w and sw have the model's length: {e}"));
                shift(opp, w, sw, s2)
            }
        }
    }
}

/// $(\hat\Sigma + \delta I) w$ and $w^\top (\hat\Sigma + \delta I) w$ from $\hat\Sigma w$
/// (in `sw`) and $w^\top\hat\Sigma w$ = `s2`, with $\delta = \Delta / N$ the class's
/// [`SketchedMoments::error_bound`] (module docs, The shift).
fn shift(class: &SketchedMoments, w: &[f64], sw: &mut [f64], s2: f64) -> f64 {
    let delta = class.error_bound();
    if delta == 0.0 {
        return s2;
    }
    let mut ww = 0.0;
    for (o, &v) in sw.iter_mut().zip(w) {
        *o += delta * v;
        ww += v * v;
    }
    s2 + delta * ww
}

/// `out` $= x - m$, identical for a dense row and a sparse row with the same values.
#[inline]
fn write_diff(x: Row<'_>, m: &[f64], out: &mut [f64]) {
    match x {
        Row::Dense(v) => {
            for ((o, &xv), &mv) in out.iter_mut().zip(v).zip(m) {
                *o = xv - mv;
            }
        }
        Row::Sparse(_) => {
            x.write_dense(out);
            for (o, &mv) in out.iter_mut().zip(m) {
                *o -= mv;
            }
        }
    }
}
