//! The one-pass learners that keep both classes' moments: OAUC-M and OAUC-M$_c$ [OAUC alg. 1,
//! eq. 14], OAUC-S = OPAUC [OAUC eq. 13; OPAUC16], and the adaptive AdaOAM and AdmOAM
//! [ADM alg. 1].
//!
//! # One step
//!
//! Every learner here runs the same step on an example $(x_t, y_t)$, $t = 1, 2, \dots$ counting
//! every example (conventions section 5):
//! 1. read the opposite class's mean $\bar x$ and covariance $\Sigma$ and compute $d = x_t - \bar x$,
//!    $\Sigma w_t$, $\mu = y_t w_t^\top d$ and $\sigma^2 = w_t^\top \Sigma w_t$;
//! 2. take a gradient step on $L_t(w) = \frac{\lambda}{2} \lVert w \rVert^2 + \Psi_t(w)$, with
//!    $$\nabla L_t(w) = \lambda w + a\, d + b\, \Sigma w,$$
//!    where $(a, b) = (-y_t(1 - \mu), 1)$ for the square surrogate halved, $\Psi = \psi_S/2$
//!    [OAUC eq. 13], and $(a, b) = (y_t \partial_\mu\psi_M, 2 \partial_{\sigma^2}\psi_M)$ for
//!    $\Psi = \psi_M$ [OAUC eq. 14] (in the form of `auc_surrogate::psi_m`, which never divides
//!    by $\sigma$);
//! 3. add $x_t$ to its own class's moments [OAUC alg. 1, lines 4-13].
//!
//! Steps 1 and 3 touch different classes, so they run as one call
//! (`Moments::update_and_mul_opposite`). While the opposite class is empty the loss term is absent
//! and only the regularizer acts, $a = b = 0$. (Since $w_1 = 0$ and the regularizer keeps $0$
//! at $0$, every learner here still has $w = 0$ when the second class first appears.)
//!
//! # Cost of a step (dense or sparse $x$)
//!
//! | part | flops | bytes of memory traffic |
//! |---|---|---|
//! | own class: Welford rank-one update of the packed triangle | $p(p+1)$ | $8p(p+1)$ (read + write) |
//! | opposite class: $\Sigma w$ and $w^\top \Sigma w$ | $\approx 2p^2$ | $4p(p+1)$ (read) |
//! | $d$, $w^\top d$, gradient, step, norm check | $\approx 10p$ (Adam $\approx 20p$) | $O(p)$ |
//!
//! So $\approx 3p^2$ flops and $12p(p+1)$ bytes per step; at $p = 123$ that is about $46\,000$
//! flops over $183$ KB of triangles that fit in L2 together. A sparse row costs the same: the
//! moment update needs $x - \bar x$, which is dense. State: two packed triangles, $2 \cdot 8p(p+1)/2$
//! bytes, plus $O(p)$ vectors. No step allocates, except the first after deserializing, which
//! sizes the scratch buffers once. With sketched moments (parameter `sketch`) no part of a step
//! is $O(p)$: the vector work runs on the features some row has touched ([`Span`],
//! `crate::support`) and $d$ is read in place ([`Diff`]); `moment_store.rs` has that table.
//!
//! # Deviations
//!
//! Deviation: the papers let $w$ grow without limit under OGD. With an absurd step size
//! (OPAUC with $\eta \lambda \gg 2$, or $\eta = 2^{10}$ on large features) the iterate doubles
//! every step and would overflow to $\pm\infty$ and then NaN within a few hundred steps. Every
//! learner here therefore
//! - projects $w$ onto the ball $\lVert w \rVert \le$ [`MAX_NORM`] $= 2^{200}$ (AdaOAM and AdmOAM
//!   onto $\min(1/\sqrt\lambda, 2^{200})$); no sensible run comes near it, and it keeps every
//!   score $w^\top x$ finite for features up to $10^{200}$ and $w^\top \Sigma w$ finite for
//!   features up to about $10^{80}$;
//! - rejects a step whose new iterate (or, for AdaOAM and AdmOAM, whose gradient) is not finite:
//!   $w$ and the Adagrad/Adam accumulators stay as they were, while the moments and $t$ still
//!   advance. So a NaN met inside a step (say $w^\top \Sigma w$ overflowing on features near
//!   $10^{150}$) is never stored and never reaches a score.
//!
//! The test `huge_steps_stay_finite_and_bounded` pins both. Either event is counted, and a
//! run that met one, or whose constant-step iterate left twice the ball that holds the
//! objective's minimizer, reports itself through `Scorer::divergence` (the command line warns
//! and names the parameter to change).
//!
//! # Defaults
//!
//! Every parameter has a default: the papers recommend none, so each tuned one is the grid
//! point with the best mean rank across the 19 data sets of `docs/results/linear.md`, each
//! point cross-validated on its own (`cargo xtask reproduce defaults`, whose rule and
//! leave-one-set-out regrets are in `docs/results/defaults.md`); each `Default` impl gives its
//! figures.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, SavedState, Scorer, StateError, check,
};
use auc_stats::{ApplyScratch, SketchedMoments};
use auc_surrogate::psi_m;
use serde::{Deserialize, Serialize};

use std::borrow::Cow;

pub(crate) use crate::batch_moments::dot;
use crate::moment_layout::{SKETCH_STATE_VERSION, upgrade_v1};
use crate::moment_solver::check_sketch;
use crate::moment_store::MomentStore;
use crate::span::{Diff, Span};
use crate::support::Support;
use crate::{Linear, NormBound, linear_divergence};

/// The largest norm an iterate may reach, $2^{200} \approx 1.6 \cdot 10^{60}$: see the module's
/// Deviation paragraph.
pub const MAX_NORM: f64 = 1.606_938_044_258_990_3e60;

/// Which surrogate $\Psi$ a learner descends.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loss {
    /// $\psi_S / 2$ [OAUC eq. 13; OPAUC16].
    HalfSquare,
    /// $\psi_M$ [OAUC eq. 14].
    Moment,
}

impl Loss {
    /// $(\Psi, a, b)$ at $w^\top d$ = `wd` and $\sigma^2$ = `s2`, so that
    /// $\nabla \Psi = a\, d + b\, \Sigma w$.
    #[inline]
    pub(crate) fn eval(self, wd: f64, s2: f64, y: Label) -> (f64, f64, f64) {
        let ys = y.sign();
        match self {
            Loss::HalfSquare => {
                // psi_S / 2 = ((1 - mu)^2 + s2) / 2, gradient -(1 - mu) y d + S w [OAUC eq. 13].
                let b = 1.0 - ys * wd;
                (0.5 * (b * b + s2.max(0.0)), -b * ys, 1.0)
            }
            Loss::Moment => {
                // [OAUC eq. 14], as psi_M's partial derivatives through the chain rule.
                let psi = psi_m(ys * wd, s2);
                (psi.value, psi.d_mu * ys, 2.0 * psi.d_s2)
            }
        }
    }
}

/// Scratch buffers of a step; not part of a learner's value (never compared or serialized).
#[derive(Clone, Default)]
pub(crate) struct Scratch {
    /// $d = x - \bar x$.
    pub(crate) d: Vec<f64>,
    /// $\Sigma w$.
    pub(crate) sw: Vec<f64>,
    /// The candidate iterate $w_{t+1}$, swapped in when accepted.
    pub(crate) next: Vec<f64>,
    /// The gradient (adaptive learners only).
    pub(crate) g: Vec<f64>,
    /// The sketched product's space (sketched moments only).
    pub(crate) sketch: ApplyScratch,
    /// The features a sketched step visits (sketched moments only; rebuilt after loading).
    pub(crate) support: Support,
    /// Sketched: the step's row scattered to length $p$ (zero elsewhere).
    pub(crate) xs: Vec<f64>,
    /// Sketched: the features where `xs` holds the row, cleared at the next step.
    pub(crate) xs_at: Vec<usize>,
    /// Sketched: the class whose $\hat\Sigma w$ the step holds in `sw` (on that class's touched
    /// features, zero elsewhere) and whose mean $d$ subtracts: the opposite one of the last
    /// prepared step.
    pub(crate) opposite: Option<Label>,
}

impl Scratch {
    pub(crate) fn ensure(&mut self, p: usize) {
        for v in [
            &mut self.d,
            &mut self.sw,
            &mut self.next,
            &mut self.g,
            &mut self.xs,
        ] {
            if v.len() != p {
                v.resize(p, 0.0);
            }
        }
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// What every moment learner keeps: both classes' moments (exact or sketched), $w$ and $t$.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Core {
    pub(crate) moments: MomentStore,
    pub(crate) w: Vec<f64>,
    pub(crate) t: u64,
    /// Steps refused because the new iterate or the gradient was not finite.
    pub(crate) rejected: u64,
    #[serde(skip)]
    pub(crate) scratch: Scratch,
}

/// The coefficients of one step's gradient $\lambda w + a\, d + b\, \Sigma w$.
#[derive(Clone, Copy)]
pub(crate) struct Coef {
    pub(crate) a: f64,
    pub(crate) b: f64,
}

impl Core {
    /// A fresh core for `dim` features, its moments sketched at rank `sketch` (0: exact).
    pub(crate) fn new(sketch: usize, dim: usize) -> Self {
        let mut scratch = Scratch::default();
        scratch.ensure(dim);
        Self {
            moments: MomentStore::new(sketch, dim),
            w: vec![0.0; dim],
            t: 0,
            rejected: 0,
            scratch,
        }
    }

    /// Checks a decoded core: dimensions agree, $w$ finite, $t$ counts every example.
    pub(crate) fn validate(&self) -> Result<(), StateError> {
        check::len("w", self.w.len(), self.moments.dim())?;
        check::finite("w", &self.w)?;
        self.moments.check().map_err(StateError::new)?;
        let (pos, neg) = self.moments.counts();
        let n = pos.saturating_add(neg);
        check::state(n == self.t, || {
            format!("t = {} but the class moments hold {n} examples", self.t)
        })?;
        check::state(self.rejected <= self.t, || {
            format!("{} rejected steps of {}", self.rejected, self.t)
        })
    }

    /// Grows the moments and $w$ to `dim` features (see [`OnlineLearner::grow`]).
    pub(crate) fn grow(&mut self, dim: usize) {
        if dim > self.w.len() {
            self.moments.grow(dim);
            crate::grow_zeros(&mut self.w, dim);
            self.scratch.ensure(dim);
        }
    }

    /// Bytes of the state for `dim` features: two packed covariance triangles and means (or,
    /// sketched at rank `sketch`, two [`SketchedMoments::bytes_for`] with every feature touched
    /// and rows as wide as $p$, plus the product's scratch, the two classes' kept negative
    /// directions and the mean and direction of one being computed: $4p$ values, the scattered
    /// row and its positions, $2p$, and the touched set's bits), $w$ and four scratch vectors.
    pub(crate) fn bytes(sketch: usize, dim: usize) -> u64 {
        let p = dim as u64;
        let vectors = 8 * (5 * p + 4 * p);
        if sketch == 0 {
            return 8 * (p * (p + 1) + 2 * p) + vectors;
        }
        let class = SketchedMoments::bytes_for(sketch, dim, dim) as u64;
        let scratch = 8 * (sketch as u64 + p + 4 * p + 2 * p) + p.div_ceil(64) * 8;
        class.saturating_mul(2).saturating_add(scratch + vectors)
    }

    /// An upper bound on the bytes of the serialized core for `dim` features: as
    /// [`Core::bytes`] for exact moments (saved as held); sketched, two
    /// [`SketchedMoments::saved_bytes_for`] (no slot maps, scratch or growth) and $w$. The
    /// scratch vectors are not saved.
    pub(crate) fn saved_bytes(sketch: usize, dim: usize) -> u64 {
        if sketch == 0 {
            return Self::bytes(0, dim);
        }
        let class = SketchedMoments::saved_bytes_for(sketch, dim, dim) as u64;
        class.saturating_mul(2).saturating_add(8 * dim as u64 + 64)
    }

    /// Steps 1 and 3 of the module docs: counts the example, adds it to its own class, and leaves
    /// $d$ and $\Sigma w$ in the scratch buffers. Returns the gradient's coefficients, or `None`
    /// (no step, nothing counted) when a sketch refuses the row ([`MomentStore`]).
    #[inline]
    pub(crate) fn prepare(&mut self, x: Row<'_>, y: Label, loss: Loss) -> Option<Coef> {
        let p = self.w.len();
        self.scratch.ensure(p);
        let s = &mut self.scratch;
        let sketched = self.moments.sketched().is_some();
        if sketched {
            if !s.support.is_built() {
                let w_support = (0..p).filter(|&j| self.w[j] != 0.0);
                s.support
                    .build(self.moments.touched().into_iter().chain(w_support));
            }
            s.support.note(x);
            // The last step's product and row go, this one's row is scattered: O(t + nnz).
            if let Some(class) = s.opposite.take() {
                self.moments.clear_product(class, &mut s.sw);
            }
            for j in s.xs_at.drain(..) {
                s.xs[j] = 0.0;
            }
            x.for_each(|j, v| {
                if v != 0.0 {
                    s.xs[j] = v;
                    s.xs_at.push(j);
                }
            });
        }
        let s2 = self
            .moments
            .update_and_mul_opposite(x, y, &self.w, &mut s.sw, &mut s.sketch)?;
        if sketched {
            s.opposite = Some(y.opposite());
        }
        self.t = self.t.saturating_add(1);
        if self.moments.opposite_count(y) == 0 {
            // The mean over an empty set is 0: only the regularizer acts (conventions section 5).
            return Some(Coef { a: 0.0, b: 0.0 });
        }
        let wd = if sketched {
            // d = x - mean is not formed: w'd = x'w - mean'w over the opposite class's touched
            // features, and the step reads each d_j from the row and the sums (`Diff`).
            x.dot(&self.w) - self.moments.opposite_mean_dot(y, &self.w)
        } else {
            self.moments.write_opposite_diff(x, y, &mut s.d);
            dot(&self.w, &s.d)
        };
        let (_, a, b) = loss.eval(wd, s2, y);
        Some(Coef { a, b })
    }

    /// The objective $L_t(w) = \frac{\lambda}{2}\lVert w\rVert^2 + \Psi_t(w)$ at the current $w$
    /// for the example $(x, y)$ against the current opposite class, and its gradient in `grad`
    /// (allocates $2p$ values).
    pub(crate) fn loss_and_grad(
        &self,
        x: Row<'_>,
        y: Label,
        lambda: f64,
        loss: Loss,
        grad: &mut [f64],
    ) -> f64 {
        let p = self.w.len();
        assert_eq!(
            grad.len(),
            p,
            "gradient buffer has {} entries, model {p}",
            grad.len()
        );
        let reg = 0.5 * lambda * dot(&self.w, &self.w);
        if self.moments.opposite_count(y) == 0 {
            for (g, &w) in grad.iter_mut().zip(&self.w) {
                *g = lambda * w;
            }
            return reg;
        }
        let (mut d, mut sw) = (vec![0.0; p], vec![0.0; p]);
        let s2 = self.moments.opposite_mul(y, &self.w, &mut sw);
        self.moments.write_opposite_diff(x, y, &mut d);
        let (value, a, b) = loss.eval(dot(&self.w, &d), s2, y);
        for j in 0..p {
            grad[j] = gradient(lambda, self.w[j], a, d[j], b, sw[j]);
        }
        reg + value
    }

    /// A plain OGD step [OAUC eq. 12]: $w \leftarrow w - \eta\, \nabla L_t(w)$, then the safety
    /// projection of the module docs.
    #[inline]
    pub(crate) fn ogd_step(&mut self, eta: f64, lambda: f64, c: Coef) {
        let Scratch {
            d,
            sw,
            next,
            support,
            xs,
            opposite,
            ..
        } = &mut self.scratch;
        let diff = Diff::of(&self.moments, d, xs, *opposite);
        let span = Span::of(&self.moments, support);
        let w = &self.w;
        let regularizer_only = c.a == 0.0 && c.b == 0.0;
        // One component; with the regularizer only, w <- w - eta lambda w (conventions section
        // 5), d and S w not read.
        let step = |w: f64, d: f64, sw: f64| {
            if regularizer_only {
                w - eta * (lambda * w)
            } else {
                w - eta * (lambda * w + c.a * d + c.b * sw)
            }
        };
        match span {
            // Exact moments: one pass over slices the compiler vectorizes.
            Span::All => {
                for (((n, &wj), &dj), &swj) in next.iter_mut().zip(w).zip(d.iter()).zip(sw.iter()) {
                    *n = step(wj, dj, swj);
                }
            }
            Span::Touched(s) => s.for_each(|j| next[j] = step(w[j], diff.at(j), sw[j])),
        }
        let sq = span.dot(next, next);
        if !commit(&mut self.w, next, MAX_NORM, sq) {
            self.rejected += 1;
        }
    }

    /// Writes $\nabla L_t(w)$ into the scratch gradient; returns whether all of it is finite
    /// (and squares to a finite value), else the step is to be rejected.
    #[inline]
    pub(crate) fn write_gradient(&mut self, lambda: f64, c: Coef) -> bool {
        let Scratch {
            d,
            sw,
            g,
            support,
            xs,
            opposite,
            ..
        } = &mut self.scratch;
        let diff = Diff::of(&self.moments, d, xs, *opposite);
        let w = &self.w;
        let mut sq = 0.0;
        match Span::of(&self.moments, support) {
            Span::All => {
                for (((gj, &wj), &dj), &swj) in g.iter_mut().zip(w).zip(d.iter()).zip(sw.iter()) {
                    *gj = gradient(lambda, wj, c.a, dj, c.b, swj);
                    sq += *gj * *gj;
                }
            }
            Span::Touched(s) => s.for_each(|j| {
                g[j] = gradient(lambda, w[j], c.a, diff.at(j), c.b, sw[j]);
                sq += g[j] * g[j];
            }),
        }
        let ok = sq.is_finite();
        if !ok {
            self.rejected += 1;
        }
        ok
    }
}

/// One component of $\nabla L_t(w) = \lambda w + a\, d + b\, \Sigma w$ (the OGD step inlines
/// the same expression). When the opposite class is empty ($a = b = 0$) the scratch $d$ and
/// $\Sigma w$ are not read, so stale values can't leak.
#[inline(always)]
pub(crate) fn gradient(lambda: f64, w: f64, a: f64, d: f64, b: f64, sw: f64) -> f64 {
    if a == 0.0 && b == 0.0 {
        lambda * w
    } else {
        lambda * w + a * d + b * sw
    }
}

/// $\lVert v \rVert$ given $s = \lVert v \rVert^2$ as summed (`sq`), without overflow while every
/// component is finite; NaN or $\infty$ otherwise.
pub(crate) fn norm(v: &[f64], sq: f64) -> f64 {
    if sq.is_finite() {
        return sq.sqrt();
    }
    let big = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !big.is_finite() || v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let scaled: f64 = v.iter().map(|x| (x / big) * (x / big)).sum();
    big * scaled.sqrt()
}

/// Accepts the candidate iterate `next` as $w$ after projecting it onto the ball of radius
/// `radius` [ADM alg. 1, projection], or rejects it (leaves $w$) if it is not finite. Returns
/// whether it was accepted. `radius` is at most [`MAX_NORM`], so its square is finite. `sq` is
/// $\lVert$`next`$\rVert^2$ as summed by the caller (over a span that holds every feature where
/// `next` may be non-zero: [`Span::dot`]).
#[inline]
pub(crate) fn commit(w: &mut Vec<f64>, next: &mut Vec<f64>, radius: f64, sq: f64) -> bool {
    if sq <= radius * radius {
        // The common case: inside the ball (a NaN compares false and falls through).
        std::mem::swap(w, next);
        return true;
    }
    let n = norm(next, sq);
    if !n.is_finite() {
        return false;
    }
    if n > radius {
        let s = radius / n;
        next.iter_mut().for_each(|v| *v *= s);
    }
    std::mem::swap(w, next);
    true
}

/// The bound a constant-step OGD iterate stays within when it converges: twice the radius
/// $\sqrt{2\Psi(0)/\lambda}$ of the ball that holds the minimizer of
/// $\frac\lambda2\lVert w\rVert^2 + \Psi$ (since $\frac\lambda2\lVert w^*\rVert^2 \le
/// L(w^*) \le L(0) = \Psi(0)$), with $\Psi(0) = \frac12$ for $\psi_S/2$ and 1 for $\psi_M$.
/// Infinite for $\lambda = 0$.
pub(crate) fn step_bound(lambda: f64, psi0: f64, what: &'static str, eta: f64) -> NormBound {
    NormBound {
        value: if lambda > 0.0 {
            2.0 * (2.0 * psi0 / lambda).sqrt()
        } else {
            f64::INFINITY
        },
        what,
        advice: "lower eta",
        now: eta,
    }
}

// ---------------------------------------------------------------------------------------------
// OGD on the moments: OAUC-M, OAUC-M_c, OPAUC

/// What tells apart the learners that take a plain OGD step [OAUC eq. 12] on the moments
/// (OAUC-M, OAUC-M$_c$, OPAUC): the surrogate $\Psi$ they descend and their step size $\eta_t$.
/// Implemented by their parameter types, which [`OgdMoment`] holds.
pub(crate) trait OgdRule: Params {
    /// The surrogate $\Psi$.
    const LOSS: Loss;

    /// The regularization $\lambda$.
    fn lambda(&self) -> f64;

    /// The sketch rank of the class moments, 0 for exact ([`MomentStore`]).
    fn sketch(&self) -> usize;

    /// The step $\eta_t$ of step $t \ge 1$ (every example counts).
    fn eta(&self, t: u64) -> f64;

    /// The norm a healthy run's iterate stays within, for [`Scorer::divergence`].
    fn bound(&self) -> NormBound;
}

/// A learner that takes one plain OGD step [OAUC eq. 12] per example on
/// $L_t(w) = \frac{\lambda}{2}\lVert w\rVert^2 + \Psi_t(w)$ from both classes' moments (module
/// docs, One step), with the surrogate and step size of its parameters `P`: [`OaucM`],
/// [`OaucMc`] and [`Opauc`]. It holds its checked parameters and the shared state; a model file
/// stores exactly these, the parameters' fields first, in their declaration order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OgdMoment<P> {
    params: P,
    core: Core,
}

impl<P> OgdMoment<P> {
    /// A fresh learner for `dim` features with checked parameters.
    pub(crate) fn new(params: P, dim: usize) -> Self
    where
        P: OgdRule,
    {
        let core = Core::new(params.sketch(), dim);
        Self { params, core }
    }
}

/// The read-only API of [`OgdMoment`], one block per parameter type (a generic block would bound
/// a public type's methods by the crate's private [`OgdRule`]).
macro_rules! ogd_moment_api {
    ($($p:ty),+) => {$(
        impl OgdMoment<$p> {
            /// Both classes' moments after the examples seen so far, exact or sketched.
            pub fn moments(&self) -> &MomentStore {
                &self.core.moments
            }

            /// $t$, the number of examples seen (every class counts).
            pub fn steps(&self) -> u64 {
                self.core.t
            }

            /// The objective the next step descends, at the current $w$, for the example $(x, y)$
            /// scored against the current opposite class (without adding $x$):
            /// $L(w) = \frac{\lambda}{2}\lVert w\rVert^2 + \Psi(w)$, and its gradient
            /// $\lambda w + a\,(x - \bar x) + b\,\Sigma w$ written into `grad` (see the module
            /// docs for $\Psi$, $a$, $b$). With an empty opposite class $\Psi = 0$.
            /// A diagnostic: it allocates $2p$ values.
            ///
            /// # Panics
            /// If `grad.len()` or the row's dimension differs from the model's.
            pub fn loss_and_grad(&self, x: Row<'_>, y: Label, grad: &mut [f64]) -> f64 {
                self.core
                    .loss_and_grad(x, y, self.params.lambda(), <$p as OgdRule>::LOSS, grad)
            }
        }
    )+};
}

ogd_moment_api!(OaucMParams, OaucMcParams, OpaucParams);

impl<P: OgdRule> Linear for OgdMoment<P> {
    fn weights(&self) -> &[f64] {
        &self.core.w
    }

    fn for_each_live(&self, f: impl FnMut(usize)) -> bool {
        crate::span::for_each_live(&self.core.moments, &self.core.scratch.support, f)
    }
}

impl<P: OgdRule> Scorer for OgdMoment<P> {
    fn score(&self, x: Row<'_>) -> f64 {
        x.dot(&self.core.w)
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(&self.core.w, Some(self.params.bound()), self.core.rejected)
    }
}

impl<P: OgdRule> SavedState for OgdMoment<P> {
    /// Version 2 added `sketch` (`moment_layout.rs`); version 1 files read as exact moments.
    const STATE_VERSION: u32 = SKETCH_STATE_VERSION;
    const OLDEST_STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        self.params.check()?;
        check::state(
            self.params.sketch() == self.core.moments.sketch_rank(),
            || "the parameter sketch does not match the moments".to_owned(),
        )?;
        self.core.validate()
    }

    /// The parameters are reals but for `sketch`, the last; the core follows them.
    fn upgrade_layout(bytes: &[u8], version: u32) -> Result<Cow<'_, [u8]>, StateError> {
        upgrade_v1(bytes, version, P::SPECS.len() - 1, &[])
    }
}

impl<P: OgdRule> OnlineLearner for OgdMoment<P> {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let Some(c) = self.core.prepare(x, y, P::LOSS) else {
            return;
        };
        let eta = self.params.eta(self.core.t);
        self.core.ogd_step(eta, self.params.lambda(), c);
    }

    /// Pads the moments (exactly: see `Moments::grow`), $w$ with zeros: at a
    /// feature that was 0 in every example, $d_j = 0$ and $(\Sigma w)_j = 0$, so the gradient and
    /// every step leave its entries at 0.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.core.grow(dim);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// OAUC-M

/// Parameters of [`OaucM`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OaucMParams {
    /// Regularization $\lambda > 0$; the step is $\eta_t = 1/(\lambda t)$ [OAUC Thm 6].
    pub lambda: f64,
    /// The class moments' sketch rank, 0 for exact ([`MomentStore`]).
    pub sketch: usize,
}

impl Default for OaucMParams {
    /// $\lambda = 2^{-4}$ (module docs, Defaults): mean rank 6.3 of 21 points, mean AUC
    /// 85.68 %, leave-one-set-out regret 0.44 points median, 4.99 worst (vehicle). The previous
    /// $2^{-5}$ has a higher mean AUC (85.90 %) and beats it on 12 of 19 sets, short of the
    /// rule's two thirds, with mean rank 6.6.
    fn default() -> Self {
        Self {
            lambda: 0.0625,
            sketch: 0,
        }
    }
}

impl Params for OaucMParams {
    const NAME: &'static str = "oauc-m";
    const TITLE: &'static str = "OAUC-M";
    const ABOUT: &'static str = "OAUC-M [OAUC alg. 1, eq. 14]: OGD on the second-order hinge surrogate psi_M, eta_t = 1/(lambda t)";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0; the step is 1/(lambda t) [OAUC Thm 6]",
        ),
        ONLINE_SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = &["lambda=2^-10..2^10"];

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        check_sketch(self.sketch)
    }
}

impl OnlineParams for OaucMParams {
    type Learner = OaucM;

    /// The covariance and gradient sums run lane-wise over the whole state, grouped by its
    /// length.
    const STARTING_DIMENSION_MATTERS: bool = true;

    fn build(&self, dim: usize, _seed: u64) -> Result<OaucM, ParamError> {
        self.check()?;
        Ok(OgdMoment::new(self.clone(), dim))
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        Core::bytes(self.sketch, dim)
    }

    fn saved_bytes(&self, dim: usize) -> u64 {
        Core::saved_bytes(self.sketch, dim)
    }
}

/// OAUC-M [OAUC alg. 1, eq. 14]: online gradient descent on
/// $L_t(w) = \frac{\lambda}{2}\lVert w\rVert^2 + \psi_M(y_t w^\top(x_t - \bar x_t), w^\top \Sigma_t w)$
/// with the step $\eta_t = 1/(\lambda t)$ of [OAUC Thm 6] (regret $O(\ln T / \lambda)$):
/// $$w_{t+1} = w_t - \eta_t \left(\lambda w_t - \Phi_M(v_t)\, y_t (x_t - \bar x_t) +
///   \frac{\phi_M(v_t)}{\sigma_t}\Sigma_t w_t\right) \quad \text{[OAUC eq. 12, 14]},$$
/// evaluated as $-\frac12(1 + b/\sqrt A)\, y_t(x_t - \bar x_t) + \Sigma_t w_t / (2\sqrt A)$, which
/// never divides by $\sigma_t$ (conventions section 4). Cost: see the module docs.
pub type OaucM = OgdMoment<OaucMParams>;

impl OgdRule for OaucMParams {
    const LOSS: Loss = Loss::Moment;

    fn lambda(&self) -> f64 {
        self.lambda
    }

    fn sketch(&self) -> usize {
        self.sketch
    }

    fn eta(&self, t: u64) -> f64 {
        1.0 / (self.lambda * t as f64) // [OAUC Thm 6]
    }

    /// The step $1/(\lambda t)$ is the theory's, so only the safety cap can trip: a tiny
    /// $\lambda$ makes the first steps huge.
    fn bound(&self) -> NormBound {
        NormBound {
            value: f64::INFINITY,
            what: "",
            advice: "raise lambda",
            now: self.lambda,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// OAUC-M_c

/// Parameters of [`OaucMc`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OaucMcParams {
    /// Constant step $\eta > 0$ [OAUC eq. 12].
    pub eta: f64,
    /// Regularization $\lambda \ge 0$ [OAUC alg. 1, input].
    pub lambda: f64,
    /// The class moments' sketch rank, 0 for exact ([`MomentStore`]).
    pub sketch: usize,
}

impl Default for OaucMcParams {
    /// $\eta = 2^{-6}$, $\lambda = 2^{-22}$ (module docs, Defaults): mean rank 19.3 of 98
    /// clean points, mean AUC 85.70 %, leave-one-set-out regret 0.66 points median, 7.73 worst
    /// (vehicle). Every $\lambda \le 2^{-12}$ with this $\eta$ scores within 0.01 points of it
    /// (the previous $2^{-10}$: 85.69 %): a negligible regularizer.
    fn default() -> Self {
        Self {
            eta: 0.015625,
            lambda: 2.384_185_791_015_625e-7,
            sketch: 0,
        }
    }
}

/// The parameter `sketch` of every one-pass moment learner ([`MomentStore`]).
pub(crate) const ONLINE_SKETCH_SPEC: ParamSpec = ParamSpec::integer(
    "sketch",
    0,
    "0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound)",
);

/// The grid of OAUC-M_c and OPAUC: every second power of the papers' range.
pub(crate) const OAUC_GRID: &[&str] = &["eta=2^-10..2^10:2", "lambda=2^-10..2^10:2"];
/// The papers' grid of OAUC-M_c and OPAUC [OAUC sec. 6.3].
pub(crate) const OAUC_PAPER_GRID: &[&str] = &["eta=2^-10..2^10", "lambda=2^-10..2^10"];

impl Params for OaucMcParams {
    const NAME: &'static str = "oauc-mc";
    const ALIASES: &'static [&'static str] = &["oauc-m-c"];
    const TITLE: &'static str = "OAUC-M_c";
    const ABOUT: &'static str =
        "OAUC-M_c [OAUC alg. 1, eq. 14]: OGD on psi_M with a constant step eta";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "constant step eta > 0 [OAUC eq. 12]; the paper picks it from 2^[-10..10]",
        ),
        ParamSpec::real(
            "lambda",
            Range::NonNegative,
            "regularization lambda >= 0 [OAUC alg. 1]; the paper picks it from 2^[-10..10]",
        ),
        ONLINE_SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = OAUC_GRID;
    const PAPER_GRID: &'static [&'static str] = OAUC_PAPER_GRID;

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        check_sketch(self.sketch)
    }
}

impl OnlineParams for OaucMcParams {
    type Learner = OaucMc;

    /// The covariance and gradient sums run lane-wise over the whole state, grouped by its
    /// length.
    const STARTING_DIMENSION_MATTERS: bool = true;

    fn build(&self, dim: usize, _seed: u64) -> Result<OaucMc, ParamError> {
        self.check()?;
        Ok(OgdMoment::new(self.clone(), dim))
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        Core::bytes(self.sketch, dim)
    }

    fn saved_bytes(&self, dim: usize) -> u64 {
        Core::saved_bytes(self.sketch, dim)
    }
}

/// OAUC-M$_c$: OAUC-M [OAUC alg. 1, eq. 14] with a constant step $\eta$ (conventions section 5):
/// $$w_{t+1} = w_t - \eta \left(\lambda w_t + \nabla\psi_M\right) \quad \text{[OAUC eq. 12]}.$$
pub type OaucMc = OgdMoment<OaucMcParams>;

impl OgdRule for OaucMcParams {
    const LOSS: Loss = Loss::Moment;

    fn lambda(&self) -> f64 {
        self.lambda
    }

    fn sketch(&self) -> usize {
        self.sketch
    }

    fn eta(&self, _t: u64) -> f64 {
        self.eta
    }

    fn bound(&self) -> NormBound {
        step_bound(self.lambda, 1.0, "2 sqrt(2/lambda)", self.eta)
    }
}

// ---------------------------------------------------------------------------------------------
// OPAUC = OAUC-S

/// Parameters of [`Opauc`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpaucParams {
    /// Constant step $\eta > 0$ \[OPAUC16\].
    pub eta: f64,
    /// Regularization $\lambda \ge 0$ [OAUC alg. 1, input].
    pub lambda: f64,
    /// The class moments' sketch rank, 0 for exact ([`MomentStore`]).
    pub sketch: usize,
}

impl Default for OpaucParams {
    /// $\eta = 2^{-8}$, $\lambda = 2^{-8}$ (module docs, Defaults): mean rank 9.4 of 36 clean
    /// points, mean AUC 85.16 %, leave-one-set-out regret 0.39 points median, 8.84 worst
    /// (vehicle); the previous $\eta = 2^{-6}$, $\lambda = 2^{-10}$: rank 9.6, 85.27 %.
    fn default() -> Self {
        Self {
            eta: 0.00390625,
            lambda: 0.00390625,
            sketch: 0,
        }
    }
}

impl Params for OpaucParams {
    const NAME: &'static str = "opauc";
    const ALIASES: &'static [&'static str] = &["oauc-s"];
    const TITLE: &'static str = "OPAUC (OAUC-S)";
    const ABOUT: &'static str = "OPAUC = OAUC-S [OAUC eq. 13; OPAUC16]: OGD on the square surrogate psi_S/2 from class moments";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "constant step eta > 0 [OPAUC16]; the papers pick it from 2^[-10..10] (OAUC) or 2^[-10..3] (ADM)",
        ),
        ParamSpec::real(
            "lambda",
            Range::NonNegative,
            "regularization lambda >= 0 [OPAUC16]; picked from the same grids as eta",
        ),
        ONLINE_SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = OAUC_GRID;
    const PAPER_GRID: &'static [&'static str] = OAUC_PAPER_GRID;

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        check_sketch(self.sketch)
    }
}

impl OnlineParams for OpaucParams {
    type Learner = Opauc;

    /// The covariance and gradient sums run lane-wise over the whole state, grouped by its
    /// length.
    const STARTING_DIMENSION_MATTERS: bool = true;

    fn build(&self, dim: usize, _seed: u64) -> Result<Opauc, ParamError> {
        self.check()?;
        Ok(OgdMoment::new(self.clone(), dim))
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        Core::bytes(self.sketch, dim)
    }

    fn saved_bytes(&self, dim: usize) -> u64 {
        Core::saved_bytes(self.sketch, dim)
    }
}

/// OPAUC \[OPAUC16\], which is OAUC-S [OAUC eq. 13]: OGD with a constant step on
/// $\frac{\lambda}{2}\lVert w\rVert^2 + \psi_S/2$,
/// $$w_{t+1} = w_t - \eta\left(\lambda w_t - y_t (x_t - \bar x_t) +
///   (x_t - \bar x_t)(x_t - \bar x_t)^\top w_t + \Sigma_t w_t\right).$$
/// The outer product is never formed: $(x - \bar x)(x - \bar x)^\top w = (x - \bar x)\,
/// ((x - \bar x)^\top w)$ costs $O(p)$. Like [OAUC eq. 13] and OPAUC's code it descends
/// $\psi_S/2$, so the papers' step grids apply (conventions section 4).
pub type Opauc = OgdMoment<OpaucParams>;

impl OgdRule for OpaucParams {
    const LOSS: Loss = Loss::HalfSquare;

    fn lambda(&self) -> f64 {
        self.lambda
    }

    fn sketch(&self) -> usize {
        self.sketch
    }

    fn eta(&self, _t: u64) -> f64 {
        self.eta
    }

    fn bound(&self) -> NormBound {
        step_bound(self.lambda, 0.5, "2/sqrt(lambda)", self.eta)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;
    use crate::adaptive::*;

    #[test]
    fn norm_survives_overflowing_squares_and_flags_non_finite() {
        // (3e200, 4e200): the squares overflow, the norm 5e200 does not.
        let n = norm(&[3e200, 4e200], f64::INFINITY);
        assert!((n / 5e200 - 1.0).abs() < 1e-15, "{n}");
        assert!(norm(&[1.0, f64::INFINITY], f64::INFINITY).is_nan());
        assert!(norm(&[f64::NAN, 1.0], f64::NAN).is_nan());
        assert_eq!(norm(&[3.0, 4.0], 25.0), 5.0);
    }

    #[test]
    fn commit_projects_and_rejects() {
        let mut w = vec![1.0, 1.0];
        let mut next = vec![6.0, 8.0];
        assert!(commit(&mut w, &mut next, 5.0, 100.0));
        assert_eq!(w, [3.0, 4.0]);
        let mut bad = vec![f64::INFINITY, 0.0];
        assert!(!commit(&mut w, &mut bad, 5.0, f64::INFINITY));
        assert_eq!(w, [3.0, 4.0]);
    }

    #[test]
    fn max_norm_is_two_to_the_200() {
        assert_eq!(MAX_NORM, 2.0f64.powi(200));
    }

    #[test]
    fn public_types_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<OaucM>();
        check::<OaucMc>();
        check::<Opauc>();
        check::<AdaOam>();
        check::<AdmOam>();
        check::<AdmOamParams>();
    }
}
