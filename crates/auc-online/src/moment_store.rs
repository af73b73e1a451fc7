//! [`MomentStore`]: the two classes' moments a one-pass moment learner steps on, kept either
//! exactly (packed $p \times p$ covariances, [`Moments`]) or sketched (parameter `sketch` =
//! $\ell > 0$: per class the exact count, sums and diagonal plus a Frequent Directions sketch of
//! rank $\ell$, [`SketchedMoments`]; `docs/math/sketched-moments.md`).
//!
//! # What the sketch changes in a step
//!
//! A step reads the opposite class's mean $\bar x$, $\Sigma w$ and $w^\top \Sigma w$ (module
//! docs of `moment.rs`). Sketched, the mean and the diagonal of $\Sigma$ stay exact and
//! $\Sigma w$ becomes $\hat\Sigma^+ w$ (The negative part, below), with
//! $-2\delta I \preceq \Sigma - \hat\Sigma^+ \preceq \delta I$, $\delta = \Delta/N$ and $\Delta$
//! the sketch's shrinkage ([`SketchedMoments::error_bound`]). So each step's gradient is within
//! $2\lvert b\rvert \delta \lVert w\rVert$ of the exact learner's at the same iterate, and
//! with $\operatorname{rank} \le \ell$ data ($\Delta = 0$) the two learners agree to rounding
//! (the test `sketched_learners_match_dense_on_low_rank_rows` pins this).
//!
//! # The negative part
//!
//! $\hat\Sigma$ itself can be indefinite: the sketch drops mass $E \succeq 0$ off the raw
//! second moment, the rank-one mean term is subtracted exactly, and the diagonal is put back, so
//! $N\hat\Sigma = L + \operatorname{diag} E$ with $L = C - E$ ($C$ the exact co-moment). A step
//! that meets negative curvature moves $w$ along it without bound (OPAUC on a9a at $\ell = 32$
//! with $\hat\Sigma$ as it is diverged to $\lVert w\rVert \approx 4 \cdot 10^{12}$).
//! $L$ is a positive semi-definite matrix minus a rank-one one, so it has at most one negative
//! eigenvalue $\theta$, with unit eigenvector $v$ ([`SketchedMoments::negative_part`]); the
//! learners step on
//! $$\hat\Sigma^+ = \hat\Sigma + \mu\, v v^\top, \qquad \mu = -\theta / N,$$
//! which is positive semi-definite ($L + \lvert\theta\rvert v v^\top \succeq 0$ and
//! $\operatorname{diag} E \succeq 0$). Since $L = C - E \succeq -\Delta I$, $\mu \le \delta$,
//! and with $-\delta I \preceq (E - \operatorname{diag} E)/N \preceq \delta I$ this gives the
//! interval above. Until 2026-12-06 the learners stepped on $\hat\Sigma + \delta I$ (a ridge
//! on every direction, not only the negative one); `benches/sketch_one_pass.py` compared the
//! two by the defaults rule (`docs/math/sketched-moments.md` section 5).
//!
//! The pair $(\mu, v)$ depends on the class's state only, so it is computed when a step first
//! needs it after the class changed and kept until the class changes again (a class is the
//! opposite one of a step while it does not change): the same numbers as computing it at every
//! step, and not saved (a loaded state computes it again).
//!
//! # Cost of a sketched step
//!
//! | part | flops | memory |
//! |---|---|---|
//! | own class: sums and the sketch's insert | $O(\ell \cdot \mathrm{nnz})$, plus a shrink of $O(\ell^2 t + \ell^3)$ every $\ell$ rows of the class | |
//! | the last step's product cleared, the row scattered | $t' + 2\,\mathrm{nnz}$ | |
//! | opposite class: $\hat\Sigma w$, $w^\top\hat\Sigma w$ ([`SketchedMoments::cov_apply_touched`]), $\mu (v^\top w) v$ and $\bar x^\top w$ | $\approx 4 \ell t + 8 t$ | reads $8 \ell t$ bytes of the sketch |
//! | the opposite class's $(\mu, v)$, when it changed since the last step that read it | $\approx \ell^2 t + 4 \ell t + O(\ell^3)$ | allocates $8 t$ bytes |
//! | gradient and step on the touched features $T$ (`crate::support`; $d_j = x_j - \bar x_j$ read in place) | $\approx 8 \lvert T\rvert$ (adaptive $\approx 16 \lvert T\rvert$) plus $p / 64$ words of the set | $O(\lvert T\rvert)$ |
//!
//! where $t \le \lvert T\rvert \le p$ is the number of features the opposite class has
//! touched, $t'$ the same for the class the last step read, and $T$ the features any row has
//! touched: no part is $O(p)$ but the bit set's words (a step on $2^{19}$ hashed crosses of a9a
//! touches a few thousand). State: per class $O(\ell t + p)$ ([`SketchedMoments::bytes_for`]) and
//! the kept $v$ ($8t$) instead of $4 p^2$ bytes; the step allocates nothing except the shrink's
//! $2\ell \times 2\ell$ eigendecomposition, the negative part's when it is computed again, and,
//! amortized, storage for features seen for the first time. With rare positives the positive
//! class is the opposite one of most steps and changes seldom, so its part is computed about
//! twice per positive row.

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

/// The two classes' [`SketchedMoments`], of one rank $\ell$ and one dimension, and each
/// class's negative part while it is current (module docs, The negative part).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SketchedClasses {
    /// The positive class.
    pub(crate) pos: SketchedMoments,
    /// The negative class.
    pub(crate) neg: SketchedMoments,
    /// The positive class's negative part, `None` until computed for its current state.
    #[serde(skip)]
    pos_part: Option<NegativePart>,
    /// The negative class's.
    #[serde(skip)]
    neg_part: Option<NegativePart>,
}

/// A class's $(\mu, v)$ of the module docs, or nothing to put back.
#[derive(Clone, Debug)]
enum NegativePart {
    /// $\hat\Sigma$ has no negative direction.
    Nothing,
    /// $\hat\Sigma + \mu v v^\top \succeq 0$, $\mu > 0$, $\lVert v\rVert = 1$; $v$ in the
    /// class's slot order ([`auc_stats::FrequentDirections::touched_features`], which does not
    /// change while the part is current), zero at the other features.
    Direction { mu: f64, v: Vec<f64> },
}

impl NegativePart {
    /// The part of `class` as it is now (no part when it cannot be computed, which moments
    /// built by `update` never give).
    fn of(class: &SketchedMoments) -> Self {
        match class.negative_part_touched() {
            Ok(Some((mu, v))) if mu > 0.0 && mu.is_finite() => Self::Direction { mu, v },
            _ => Self::Nothing,
        }
    }

    /// Adds $\mu (v^\top w) v$ to `sw` and returns `s2` $+ \mu (v^\top w)^2$; `class` is the
    /// one the part was computed for, unchanged since.
    fn put_back(&self, class: &SketchedMoments, w: &[f64], sw: &mut [f64], s2: f64) -> f64 {
        match self {
            Self::Nothing => s2,
            Self::Direction { mu, v } => {
                let touched = class.sketch().touched_features();
                debug_assert_eq!(touched.len(), v.len(), "the part is of the class as it is");
                let vw: f64 = touched
                    .iter()
                    .zip(v)
                    .map(|(&j, &a)| a * w[j as usize])
                    .sum();
                let c = mu * vw;
                for (&j, &a) in touched.iter().zip(v) {
                    sw[j as usize] += c * a;
                }
                s2 + c * vw
            }
        }
    }
}

impl SketchedClasses {
    /// Class `y`'s moments.
    pub(crate) fn class(&self, y: Label) -> &SketchedMoments {
        match y {
            Label::Pos => &self.pos,
            Label::Neg => &self.neg,
        }
    }

    /// The positive class's moments.
    pub fn pos(&self) -> &SketchedMoments {
        &self.pos
    }

    /// The negative class's moments.
    pub fn neg(&self) -> &SketchedMoments {
        &self.neg
    }
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
            pos_part: None,
            neg_part: None,
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
                // v has the old length: computed again for the new one.
                s.pos_part = None;
                s.neg_part = None;
            }
        }
    }

    /// Adds $x$ to class $y$, then writes the opposite class's $\Sigma w$ into `sw` and returns
    /// $w^\top \Sigma w$ (sketched: $\hat\Sigma$). `None` when the sketch refuses the row (a
    /// non-finite value, which the data layer never passes): nothing changed then.
    ///
    /// Sketched, `sw` must be zero off the opposite class's touched features (a step clears
    /// the previous product with [`clear_product`](Self::clear_product)): only those are
    /// written, in $O(\ell t)$ with no $O(p)$ term.
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
                let s = &mut **s;
                let (own, own_part, opp, opp_part) = match y {
                    Label::Pos => (&mut s.pos, &mut s.pos_part, &s.neg, &mut s.neg_part),
                    Label::Neg => (&mut s.neg, &mut s.neg_part, &s.pos, &mut s.pos_part),
                };
                own.update(x).ok()?;
                *own_part = None;
                let part = opp_part.get_or_insert_with(|| NegativePart::of(opp));
                opp.cov_apply_touched(w, sw, scratch)
                    .ok()
                    .map(|s2| part.put_back(opp, w, sw, s2))
            }
        }
    }

    /// `d` $= x - \bar x$ for the class opposite to `y`, over all $p$ features (a sketched step
    /// never writes $d$: it reads $d_j$ in place, `crate::span::Diff`; this serves the exact
    /// step and the diagnostic `loss_and_grad`).
    pub(crate) fn write_opposite_diff(&self, x: Row<'_>, y: Label, d: &mut [f64]) {
        match self {
            Self::Dense(m) => write_diff(x, m.opposite(y).mean(), d),
            Self::Sketched(s) => {
                let opp = s.class(y.opposite());
                // -mean everywhere, then x added on its support: O(p + nnz).
                for (j, dj) in d.iter_mut().enumerate() {
                    *dj = -opp.mean_at(j);
                }
                x.for_each(|j, v| d[j] += v);
            }
        }
    }

    /// Zeroes `sw` on the features class `class` has touched: where a sketched step's product
    /// with that class was written (nothing for exact moments).
    pub(crate) fn clear_product(&self, class: Label, sw: &mut [f64]) {
        if let Self::Sketched(s) = self {
            for &j in s.class(class).sketch().touched_features() {
                sw[j as usize] = 0.0;
            }
        }
    }

    /// $\bar x^\top w$ for the class opposite to `y`, over its touched features (sketched
    /// moments; the mean is zero elsewhere).
    pub(crate) fn opposite_mean_dot(&self, y: Label, w: &[f64]) -> f64 {
        match self {
            Self::Dense(m) => crate::batch_moments::dot(m.opposite(y).mean(), w),
            Self::Sketched(s) => {
                let class = s.class(y.opposite());
                let (sums, inv) = class.mean_parts();
                class
                    .sketch()
                    .touched_features()
                    .iter()
                    .map(|&j| sums[j as usize] * inv * w[j as usize])
                    .sum()
            }
        }
    }

    /// Every feature either class has touched, for a `crate::support::Support` being built.
    pub(crate) fn touched(&self) -> Vec<usize> {
        match self {
            Self::Dense(_) => Vec::new(),
            Self::Sketched(s) => [&s.pos, &s.neg]
                .into_iter()
                .flat_map(|c| c.sketch().touched_features())
                .map(|&j| j as usize)
                .collect(),
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
                // The kept part when it is current, else the same part computed afresh.
                let kept = match y {
                    Label::Pos => s.neg_part.as_ref(),
                    Label::Neg => s.pos_part.as_ref(),
                };
                match kept {
                    Some(part) => part.put_back(opp, w, sw, s2),
                    None => NegativePart::of(opp).put_back(opp, w, sw, s2),
                }
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use faer::{Mat, Side};

    /// Rows of `fields` one-hot fields of `width` values each, a class every `period` rows:
    /// wide enough for a sketch of rank 3 to lose mass, so that a negative part arises.
    fn one_hot_rows(
        n: usize,
        fields: usize,
        width: usize,
        period: usize,
    ) -> Vec<(Vec<f64>, Label)> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        (0..n)
            .map(|i| {
                let mut x = vec![0.0; fields * width];
                for f in 0..fields {
                    // Skewed values, as hashed fields are.
                    let v = (next() % width).min(next() % width);
                    x[f * width + v] = 1.0;
                }
                let y = if i % period == 0 {
                    Label::Pos
                } else {
                    Label::Neg
                };
                (x, y)
            })
            .collect()
    }

    /// The class's exact covariance, two-pass, as a dense matrix.
    fn exact_cov(rows: &[(Vec<f64>, Label)], y: Label, p: usize) -> Mat<f64> {
        let class: Vec<&Vec<f64>> = rows.iter().filter(|r| r.1 == y).map(|r| &r.0).collect();
        let n = class.len() as f64;
        let mean: Vec<f64> = (0..p)
            .map(|j| class.iter().map(|x| x[j]).sum::<f64>() / n)
            .collect();
        Mat::from_fn(p, p, |i, j| {
            class
                .iter()
                .map(|x| (x[i] - mean[i]) * (x[j] - mean[j]))
                .sum::<f64>()
                / n
        })
    }

    /// The $p \times p$ matrix of a linear map, column by column.
    fn matrix_of(p: usize, apply: impl Fn(&[f64], &mut [f64])) -> Mat<f64> {
        let mut m = Mat::<f64>::zeros(p, p);
        for j in 0..p {
            let mut e = vec![0.0; p];
            e[j] = 1.0;
            let mut col = vec![0.0; p];
            apply(&e, &mut col);
            for i in 0..p {
                m[(i, j)] = col[i];
            }
        }
        m
    }

    /// The operator a step applies for the class opposite to `y`.
    fn operator(store: &MomentStore, y: Label, p: usize) -> Mat<f64> {
        matrix_of(p, |e, col| {
            store.opposite_mul(y, e, col);
        })
    }

    fn eigenvalues(m: &Mat<f64>) -> Vec<f64> {
        let sym = Mat::from_fn(m.nrows(), m.ncols(), |i, j| 0.5 * (m[(i, j)] + m[(j, i)]));
        let evd = sym.self_adjoint_eigen(Side::Lower).unwrap();
        let s = evd.S().column_vector();
        (0..m.nrows()).map(|i| s[i]).collect()
    }

    #[test]
    fn the_kept_negative_part_is_the_one_computed_at_every_step() {
        let (fields, width) = (4, 5);
        let p = fields * width;
        let rows = one_hot_rows(400, fields, width, 7);
        let mut kept = MomentStore::new(3, p);
        let mut fresh = MomentStore::new(3, p);
        let w: Vec<f64> = (0..p).map(|j| ((j * 7 % 11) as f64 - 5.0) / 8.0).collect();
        let (mut a, mut b) = (vec![0.0; p], vec![0.0; p]);
        let mut scratch = ApplyScratch::default();
        let mut directions = 0;
        for (x, y) in &rows {
            if let MomentStore::Sketched(s) = &mut fresh {
                s.pos_part = None;
                s.neg_part = None;
            }
            a.fill(0.0);
            b.fill(0.0);
            let sa = kept.update_and_mul_opposite(Row::Dense(x), *y, &w, &mut a, &mut scratch);
            let sb = fresh.update_and_mul_opposite(Row::Dense(x), *y, &w, &mut b, &mut scratch);
            assert_eq!(sa.map(f64::to_bits), sb.map(f64::to_bits));
            assert!(a.iter().zip(&b).all(|(u, v)| u.to_bits() == v.to_bits()));
            if let MomentStore::Sketched(s) = &kept {
                let part = if *y == Label::Pos {
                    &s.neg_part
                } else {
                    &s.pos_part
                };
                directions += usize::from(matches!(part, Some(NegativePart::Direction { .. })));
            }
        }
        // The case the part is for arose (else the test would prove nothing).
        assert!(directions > 100, "{directions}");
    }

    #[test]
    fn the_operator_is_positive_semi_definite_and_within_its_bound() {
        let (fields, width) = (4, 5);
        let p = fields * width;
        let rows = one_hot_rows(600, fields, width, 3);
        let mut store = MomentStore::new(3, p);
        let mut sw = vec![0.0; p];
        let mut scratch = ApplyScratch::default();
        for (x, y) in &rows {
            sw.fill(0.0);
            store.update_and_mul_opposite(Row::Dense(x), *y, &vec![0.0; p], &mut sw, &mut scratch);
        }
        let MomentStore::Sketched(s) = &store else {
            unreachable!()
        };
        let mut negative_before = false;
        for (y, class) in [(Label::Neg, &s.pos), (Label::Pos, &s.neg)] {
            let opposite = if y == Label::Pos {
                Label::Neg
            } else {
                Label::Pos
            };
            let exact = exact_cov(&rows, opposite, p);
            let op = operator(&store, y, p);
            let delta = class.error_bound();
            assert!(delta > 0.0, "the sketch lost no mass: nothing to test");
            // The operator is positive semi-definite (to rounding) ...
            let low = eigenvalues(&op).into_iter().fold(f64::INFINITY, f64::min);
            assert!(low > -1e-12, "{y:?}: smallest eigenvalue {low}");
            // ... and -2 delta I <= Sigma - operator <= delta I.
            let diff = Mat::from_fn(p, p, |i, j| exact[(i, j)] - op[(i, j)]);
            for e in eigenvalues(&diff) {
                assert!(
                    e >= -2.0 * delta - 1e-12 && e <= delta + 1e-12,
                    "{y:?}: {e} against delta {delta}"
                );
            }
            // Without the part the estimate had a negative direction: the case is exercised.
            let bare = matrix_of(p, |e, col| class.cov_apply(e, col).unwrap());
            let bare_low = eigenvalues(&bare).into_iter().fold(f64::INFINITY, f64::min);
            negative_before |= bare_low < -1e-6;
        }
        assert!(
            negative_before,
            "no class had a negative direction to put back"
        );
    }
}
