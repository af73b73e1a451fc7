//! The adaptive-step moment learners of [ADM]: AdaOAM (Adagrad steps) and AdmOAM (Adam steps,
//! bias-corrected) on OPAUC's gradient, each projected onto the ball of radius $1/\sqrt\lambda$
//! (conventions section 5). They share the moment learners' [`Core`] (class moments, scratch,
//! the gradient) with OPAUC and differ only in the step.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, SavedState, Scorer, StateError, check,
};
use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::{Linear, NormBound, linear_divergence};

use crate::moment::*;
use crate::moment_layout::{Field, SKETCH_STATE_VERSION, upgrade_v1};
use crate::moment_solver::check_sketch;
use crate::moment_store::MomentStore;
use crate::span::Span;

/// The shared read-only API of the moment learners.
macro_rules! moment_learner_common {
    ($ty:ident, $loss:expr, $reals:expr, $before_core:expr) => {
        impl $ty {
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
                    .loss_and_grad(x, y, self.params.lambda, $loss, grad)
            }
        }

        impl Linear for $ty {
            fn weights(&self) -> &[f64] {
                &self.core.w
            }

            fn for_each_live(&self, f: impl FnMut(usize)) -> bool {
                crate::span::for_each_live(&self.core.moments, &self.core.scratch.support, f)
            }
        }

        impl Scorer for $ty {
            fn score(&self, x: Row<'_>) -> f64 {
                x.dot(&self.core.w)
            }

            fn divergence(&self) -> Option<Divergence> {
                linear_divergence(&self.core.w, Some(self.bound()), self.core.rejected)
            }
        }

        impl SavedState for $ty {
            /// Version 2 added `sketch` (`moment_layout.rs`); version 1 files read as exact
            /// moments.
            const STATE_VERSION: u32 = SKETCH_STATE_VERSION;
            const OLDEST_STATE_VERSION: u32 = 1;

            fn validate(&self) -> Result<(), StateError> {
                self.params.check()?;
                check::state(
                    self.params.sketch == self.core.moments.sketch_rank(),
                    || "the parameter sketch does not match the moments".to_owned(),
                )?;
                self.core.validate()?;
                self.validate_extra()
            }

            fn upgrade_layout(bytes: &[u8], version: u32) -> Result<Cow<'_, [u8]>, StateError> {
                upgrade_v1(bytes, version, $reals, $before_core)
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// AdaOAM

/// Parameters of [`AdaOam`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdaOamParams {
    /// Base step $\eta > 0$ [ADM sec. 3]; the ADM grid is $2^{[-10..3]}$ (conventions section 8).
    pub eta: f64,
    /// Regularization $\lambda > 0$; also sets the projection radius $1/\sqrt\lambda$ [ADM sec. 3].
    pub lambda: f64,
    /// Smoothing $\epsilon > 0$ added to the Adagrad denominator [ADM sec. 3].
    pub epsilon: f64,
    /// The class moments' sketch rank, 0 for exact ([`MomentStore`]).
    pub sketch: usize,
}

impl Default for AdaOamParams {
    /// $\eta = 2^{-4}$, $\lambda = 2^{-10}$ (module docs, Defaults: mean rank 11.2 of 63
    /// points, mean AUC 86.03 %, leave-one-set-out regret 0.11 points median, 6.20 worst on
    /// vehicle; the previous $\eta = 2^{-2}$: rank 17.2, 86.07 %) and $\epsilon = 10^{-8}$,
    /// Adagrad's customary smoothing (ADM gives none).
    fn default() -> Self {
        Self {
            eta: 0.0625,
            lambda: 0.0009765625,
            epsilon: 1e-8,
            sketch: 0,
        }
    }
}

/// ADM's grid, every second power of its range [ADM, experimental setup].
const ADM_GRID: &[&str] = &["eta=2^-10..2^2:2", "lambda=2^-10..2^2:2"];
/// ADM's full grid [ADM, experimental setup].
const ADM_PAPER_GRID: &[&str] = &["eta=2^-10..2^3", "lambda=2^-10..2^3"];

impl Params for AdaOamParams {
    const NAME: &'static str = "adaoam";
    const TITLE: &'static str = "AdaOAM";
    const ABOUT: &'static str = "AdaOAM [ADM]: diagonal Adagrad steps on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "base step eta > 0 [ADM sec. 3]; ADM picks it from 2^[-10..3]",
        ),
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0, projection radius 1/sqrt(lambda) [ADM sec. 3]; ADM picks it from 2^[-10..3]",
        ),
        ParamSpec::real(
            "epsilon",
            Range::Positive,
            "epsilon > 0 added to sqrt(sum of squared gradients) [ADM sec. 3]",
        ),
        ONLINE_SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = ADM_GRID;
    const PAPER_GRID: &'static [&'static str] = ADM_PAPER_GRID;

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        check_sketch(self.sketch)
    }
}

impl OnlineParams for AdaOamParams {
    type Learner = AdaOam;

    /// The covariance and gradient sums run lane-wise over the whole state, grouped by its
    /// length.
    const STARTING_DIMENSION_MATTERS: bool = true;

    fn build(&self, dim: usize, _seed: u64) -> Result<AdaOam, ParamError> {
        self.check()?;
        Ok(AdaOam {
            params: self.clone(),
            radius: radius(self.lambda),
            sum_sq: vec![0.0; dim],
            core: Core::new(self.sketch, dim),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        Core::bytes(self.sketch, dim) + 8 * dim as u64
    }

    fn saved_bytes(&self, dim: usize) -> u64 {
        Core::saved_bytes(self.sketch, dim) + 8 * dim as u64
    }
}

/// $\min(1/\sqrt\lambda, 2^{200})$: the ball [ADM sec. 3] restricts $w$ to, since the minimizer
/// of a $\lambda$-strongly convex objective with these losses lies in it.
fn radius(lambda: f64) -> f64 {
    (1.0 / lambda.sqrt()).min(MAX_NORM)
}

/// AdaOAM, as described in [ADM sec. 3]: OPAUC's gradient $g_t$ (of
/// $\frac{\lambda}{2}\lVert w\rVert^2 + \psi_S/2$) with diagonal Adagrad steps and projection
/// onto the ball $\lVert w \rVert \le 1/\sqrt\lambda$:
/// $$G_{t,i} = G_{t-1,i} + g_{t,i}^2, \qquad
///   w_{t+1} = \Pi\left(w_t - \eta\, \frac{g_t}{\sqrt{G_t} + \epsilon}\right)$$
/// (componentwise; $\epsilon$ outside the square root, as in diagonal Adagrad).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaOam {
    /// Its parameters (first, so a model file stores their fields in order).
    params: AdaOamParams,
    radius: f64,
    /// $G_t$, the running sums of squared gradient components.
    sum_sq: Vec<f64>,
    core: Core,
}

// Saved: the 3 real parameters and `sketch`, the radius, G_t, then the core.
moment_learner_common!(AdaOam, Loss::HalfSquare, 3, &[Field::Real, Field::Reals]);

impl AdaOam {
    /// Projected on the ball, so only the safety checks can trip.
    fn bound(&self) -> NormBound {
        NormBound {
            value: f64::INFINITY,
            what: "",
            advice: "lower eta",
            now: self.params.eta,
        }
    }

    fn validate_extra(&self) -> Result<(), StateError> {
        check::len("sum_sq", self.sum_sq.len(), self.core.w.len())?;
        check::finite("sum_sq", &self.sum_sq)?;
        check::state(
            self.radius.to_bits() == radius(self.params.lambda).to_bits(),
            || "the projection radius does not match lambda".to_owned(),
        )
    }
}

impl OnlineLearner for AdaOam {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let Some(c) = self.core.prepare(x, y, Loss::HalfSquare) else {
            return;
        };
        if !self.core.write_gradient(self.params.lambda, c) {
            return; // Deviation: a non-finite gradient is rejected (module docs).
        }
        let Scratch {
            next, g, support, ..
        } = &mut self.core.scratch;
        let span = Span::of(&self.core.moments, support);
        let (w, acc, eta, epsilon) = (
            &self.core.w,
            &mut self.sum_sq,
            self.params.eta,
            self.params.epsilon,
        );
        let step = |w: f64, g: f64, acc: &mut f64| {
            *acc += g * g;
            w - eta * g / (acc.sqrt() + epsilon)
        };
        match span {
            Span::All => {
                for (((n, &wj), &gj), a) in next.iter_mut().zip(w).zip(g.iter()).zip(acc.iter_mut())
                {
                    *n = step(wj, gj, a);
                }
            }
            Span::Touched(s) => s.for_each(|j| next[j] = step(w[j], g[j], &mut acc[j])),
        }
        commit(&mut self.core.w, next, self.radius, span.dot(next, next)); // [ADM sec. 3, projection]
    }

    /// Pads the moments (exactly: see `Moments::grow`), $w$ and the squared-gradient sums with zeros: at a
    /// feature that was 0 in every example, $d_j = 0$ and $(\Sigma w)_j = 0$, so the gradient and
    /// every step leave its entries at 0.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.core.grow(dim);
        crate::grow_zeros(&mut self.sum_sq, dim);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// AdmOAM

/// Parameters of [`AdmOam`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdmOamParams {
    /// Base step $\eta > 0$ [ADM alg. 1]; the ADM grid is $2^{[-10..3]}$.
    pub eta: f64,
    /// Regularization $\lambda > 0$; also sets the projection radius $1/\sqrt\lambda$ [ADM alg. 1].
    pub lambda: f64,
    /// Decay $\beta_1 \in [0, 1)$ of the first moment [ADM alg. 1]; the ADM grid is
    /// $\{0.1, \dots, 0.9\}$.
    pub beta1: f64,
    /// Decay $\beta_2 \in [0, 1)$ of the second raw moment [ADM alg. 1]; the ADM grid is
    /// $\{0.099, 0.199, \dots, 0.999\}$.
    pub beta2: f64,
    /// Smoothing $\epsilon > 0$ added to $\sqrt{\hat v}$ [ADM alg. 1].
    pub epsilon: f64,
    /// The class moments' sketch rank, 0 for exact ([`MomentStore`]).
    pub sketch: usize,
}

impl Default for AdmOamParams {
    /// $\eta = 2^{-8}$, $\lambda = 2^{-10}$, $\beta_1 = 0.5$, $\beta_2 = 0.999$ (module docs,
    /// Defaults: mean rank 44.9 of 324 points, mean AUC 85.65 %, leave-one-set-out regret 0.21
    /// points median, 6.98 worst on vehicle; the previous $\eta = 2^{-10}$, $\beta_1 = \beta_2
    /// = 0.9$: rank 65.2, 85.09 %, worst regret 11.61) and Adam's customary $\epsilon = 10^{-8}$
    /// (ADM gives none).
    fn default() -> Self {
        Self {
            eta: 0.00390625,
            lambda: 0.0009765625,
            beta1: 0.5,
            beta2: 0.999,
            epsilon: 1e-8,
            sketch: 0,
        }
    }
}

impl Params for AdmOamParams {
    const NAME: &'static str = "admoam";
    const TITLE: &'static str = "AdmOAM";
    const ABOUT: &'static str = "AdmOAM [ADM alg. 1]: Adam steps (bias-corrected) on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "base step eta > 0 [ADM alg. 1]; ADM picks it from 2^[-10..3]",
        ),
        ParamSpec::real(
            "lambda",
            Range::Positive,
            "regularization lambda > 0, projection radius 1/sqrt(lambda) [ADM alg. 1]; ADM picks it from 2^[-10..3]",
        ),
        ParamSpec::real(
            "beta1",
            Range::UnitHalfOpen,
            "first-moment decay beta1 in [0, 1) [ADM alg. 1]; ADM picks it from 0.1..0.9",
        ),
        ParamSpec::real(
            "beta2",
            Range::UnitHalfOpen,
            "second-moment decay beta2 in [0, 1) [ADM alg. 1]; ADM picks it from 0.099..0.999",
        ),
        ParamSpec::real(
            "epsilon",
            Range::Positive,
            "epsilon > 0 added to sqrt(v_hat) [ADM alg. 1]",
        ),
        ONLINE_SKETCH_SPEC,
    ];
    const GRID: &'static [&'static str] = &[
        "eta=2^-10..2^2:2",
        "lambda=2^-10..2^2:2",
        "beta1=0.5,0.9",
        "beta2=0.9,0.999",
    ];
    const PAPER_GRID: &'static [&'static str] = &[
        "eta=2^-10..2^3",
        "lambda=2^-10..2^3",
        "beta1=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9",
        "beta2=0.099,0.199,0.299,0.399,0.499,0.599,0.699,0.799,0.899,0.999",
    ];

    fn check(&self) -> Result<(), ParamError> {
        auc_core::check::specs(self)?;
        check_sketch(self.sketch)
    }
}

impl OnlineParams for AdmOamParams {
    type Learner = AdmOam;

    /// The covariance and gradient sums run lane-wise over the whole state, grouped by its
    /// length.
    const STARTING_DIMENSION_MATTERS: bool = true;

    fn build(&self, dim: usize, _seed: u64) -> Result<AdmOam, ParamError> {
        self.check()?;
        Ok(AdmOam {
            params: self.clone(),
            radius: radius(self.lambda),
            first: vec![0.0; dim],
            second: vec![0.0; dim],
            beta1_t: 1.0,
            beta2_t: 1.0,
            core: Core::new(self.sketch, dim),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        Core::bytes(self.sketch, dim) + 16 * dim as u64
    }

    fn saved_bytes(&self, dim: usize) -> u64 {
        Core::saved_bytes(self.sketch, dim) + 16 * dim as u64
    }
}

/// AdmOAM [ADM alg. 1]: OPAUC's gradient $g_t$ (of $\frac{\lambda}{2}\lVert w\rVert^2 +
/// \psi_S/2$) with Adam's bias-corrected per-coordinate steps and projection onto the ball
/// $\lVert w \rVert \le 1/\sqrt\lambda$:
/// $$m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t,\quad v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2,
///   \quad \hat m_t = \frac{m_t}{1 - \beta_1^t},\quad \hat v_t = \frac{v_t}{1 - \beta_2^t},$$
/// $$w_{t+1} = \Pi\left(w_t - \eta\, \frac{\hat m_t}{\sqrt{\hat v_t} + \epsilon}\right),$$
/// with $m_0 = v_0 = 0$ and $t$ counting every example (conventions section 5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdmOam {
    /// Its parameters (first, so a model file stores their fields in order).
    params: AdmOamParams,
    radius: f64,
    /// $m_t$, the moving average of the gradients.
    first: Vec<f64>,
    /// $v_t$, the moving average of the squared gradients.
    second: Vec<f64>,
    /// $\beta_1^t$, kept as a running product.
    beta1_t: f64,
    /// $\beta_2^t$.
    beta2_t: f64,
    core: Core,
}

// Saved: the 5 real parameters and `sketch`, the radius, m_t, v_t, beta1^t, beta2^t, the core.
moment_learner_common!(
    AdmOam,
    Loss::HalfSquare,
    5,
    &[
        Field::Real,
        Field::Reals,
        Field::Reals,
        Field::Real,
        Field::Real
    ]
);

impl AdmOam {
    /// Projected on the ball, so only the safety checks can trip.
    fn bound(&self) -> NormBound {
        NormBound {
            value: f64::INFINITY,
            what: "",
            advice: "lower eta",
            now: self.params.eta,
        }
    }

    fn validate_extra(&self) -> Result<(), StateError> {
        let p = self.core.w.len();
        check::len("first", self.first.len(), p)?;
        check::len("second", self.second.len(), p)?;
        check::finite("first", &self.first)?;
        check::finite("second", &self.second)?;
        check::state(
            (0.0..=1.0).contains(&self.beta1_t) && (0.0..=1.0).contains(&self.beta2_t),
            || "the decay powers beta^t are outside [0, 1]".to_owned(),
        )?;
        check::state(
            self.radius.to_bits() == radius(self.params.lambda).to_bits(),
            || "the projection radius does not match lambda".to_owned(),
        )
    }
}

impl OnlineLearner for AdmOam {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let Some(c) = self.core.prepare(x, y, Loss::HalfSquare) else {
            return;
        };
        self.beta1_t *= self.params.beta1;
        self.beta2_t *= self.params.beta2;
        if !self.core.write_gradient(self.params.lambda, c) {
            return; // Deviation: a non-finite gradient is rejected (module docs).
        }
        let (b1, b2) = (self.params.beta1, self.params.beta2);
        let corr1 = 1.0 / (1.0 - self.beta1_t); // [ADM alg. 1]: bias correction
        let corr2 = 1.0 / (1.0 - self.beta2_t);
        let Scratch {
            next, g, support, ..
        } = &mut self.core.scratch;
        let span = Span::of(&self.core.moments, support);
        let (w, m, v) = (&self.core.w, &mut self.first, &mut self.second);
        let (eta, epsilon) = (self.params.eta, self.params.epsilon);
        let step = |w: f64, g: f64, m: &mut f64, v: &mut f64| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * (g * g);
            let m_hat = *m * corr1;
            let v_hat = *v * corr2;
            w - eta * m_hat / (v_hat.sqrt() + epsilon)
        };
        match span {
            Span::All => {
                for ((((n, &wj), &gj), mj), vj) in next
                    .iter_mut()
                    .zip(w)
                    .zip(g.iter())
                    .zip(m.iter_mut())
                    .zip(v.iter_mut())
                {
                    *n = step(wj, gj, mj, vj);
                }
            }
            Span::Touched(s) => s.for_each(|j| next[j] = step(w[j], g[j], &mut m[j], &mut v[j])),
        }
        commit(&mut self.core.w, next, self.radius, span.dot(next, next)); // [ADM alg. 1, projection]
    }

    /// Pads the moments (exactly: see `Moments::grow`), $w$ and both gradient averages with zeros: at a
    /// feature that was 0 in every example, $d_j = 0$ and $(\Sigma w)_j = 0$, so the gradient and
    /// every step leave its entries at 0.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.core.grow(dim);
        crate::grow_zeros(&mut self.first, dim);
        crate::grow_zeros(&mut self.second, dim);
        Ok(())
    }
}
