//! OKAUC-M and OKAUC-S, online kernel AUC maximization on the second-order surrogates
//! [OAUC sec. 5, algs. 2-4].
//!
//! # One step
//!
//! On $(x_t, y_t)$ the comparison set $S_t$ is the **opposite** class's buffer, of size $N_t$.
//! From the cached f-values [OAUC eq. 21]:
//! $$\mu_t = \tfrac{1}{N_t}\textstyle\sum_{i \in S_t} f_t(x_i), \qquad
//!   \sigma_t^2 = \tfrac{1}{N_t}\sum_{i\in S_t} (f_t(x_i) - \mu_t)^2,$$
//! $b_t = 1 - y_t(f_t(x_t) - \mu_t)$ and $A_t = b_t^2 + \sigma_t^2$ [OAUC eq. 23]. With
//! $s = 1 - \lambda\eta_t$ the OGD step [OAUC eq. 22] changes the weights to
//!
//! | | new point $x_t$ | $i \in S_t$ | every other row |
//! |---|---|---|---|
//! | OKAUC-M [eq. 26] | $\eta_t y_t \Psi_t / \sqrt{A_t}$ | $s\alpha_i - \frac{\eta_t}{N_t \sqrt{A_t}}\left(y_t\Psi_t + \tfrac12 (f_t(x_i) - \mu_t)\right)$ | $s\alpha_i$ |
//! | OKAUC-S [eq. 27] | $\eta_t y_t b_t$ | $s\alpha_i - \frac{\eta_t}{N_t}\left(y_t b_t + f_t(x_i) - \mu_t\right)$ | $s\alpha_i$ |
//!
//! with $\Psi_t = (b_t + \sqrt{A_t})/2$ [OAUC eq. 24]. OKAUC-M steps with $\eta_t = 1/(\lambda t)$
//! [OAUC Lemma 7], OKAUC-S with a constant $\eta$; OKAUC-S descends
//! $\frac12\psi_S$, as [OAUC sec. 5.2] writes its loss. Then $x_t$ enters its own class's buffer
//! [OAUC alg. 4] (see [`crate::Support`]): the buffer is also the comparison set of later
//! examples, so every example enters, whatever its weight.
//!
//! Conventions fixed here (SPEC sections 5 and 6):
//! - $t$ counts every example, from 1; the new point's weight uses index $t+1$ of eq. 26,
//!   i.e. the new example $x_t$ itself.
//! - An empty comparison buffer means no loss term: only the shrink $s$ acts (SPEC section 5).
//! - At $A_t = 0$ ($b_t = 0$ and $\sigma_t = 0$) $\psi_M$ is not differentiable; the hinge
//!   subgradient at $b_t = 0$ is taken, which is 0: the loss term vanishes (SPEC section 4).
//! - A step whose result is not finite or beyond [`crate::MAX_WEIGHT`] is rejected; the example
//!   still enters its buffer with weight 0.

use auc_core::{
    Label, OnlineLearner, OnlineParams, ParamError, ParamMap, ParamSpec, Row, Scorer, check,
};
use serde::{Deserialize, Serialize};

use crate::{AnyKernel, Compensation, Gaussian, Removal, Support};

const LAMBDA: ParamSpec = ParamSpec {
    name: "lambda",
    default: None,
    help: "regularization lambda > 0 of lambda/2 ||f||^2 [OAUC eq. 21]; tuned in 2^[-10..10] [OAUC sec. 6.3]",
};
const ETA: ParamSpec = ParamSpec {
    name: "eta",
    default: None,
    help: "constant step size eta > 0 [OAUC eq. 27]; tuned in 2^[-10..10] [OAUC sec. 6.3]",
};
const SIGMA: ParamSpec = ParamSpec {
    name: "sigma",
    default: None,
    help: "Gaussian width sigma > 0, k = exp(-||x-z||^2/sigma^2) [OAUC sec. 6.3]; tuned in 2^[-10..10]",
};
const BUDGET: ParamSpec = ParamSpec {
    name: "budget",
    default: Some(100.0),
    help: "support buffer size per class, an integer >= 1; 100 + 100 in [OAUC sec. 6.3]",
};
const REMOVAL: ParamSpec = ParamSpec {
    name: "removal",
    default: Some(0.0),
    help: "0 = FIFO [OAUC alg. 4] (default), 1 = reservoir sampling; the evicted weight is projected onto the best remaining row [OAUC eq. 28]",
};

/// Reads `budget` and `removal` from a map, checked.
pub(crate) fn buffer_params(map: &ParamMap) -> Result<(usize, Removal), ParamError> {
    let budget = check_budget(map.value(&BUDGET)?)?;
    let code = map.value(&REMOVAL)?;
    let removal = Removal::from_code(code).ok_or(ParamError::OutOfRange {
        name: "removal",
        value: code,
        allowed: "0 (FIFO) or 1 (reservoir)",
    })?;
    Ok((budget, removal))
}

pub(crate) fn check_budget(budget: f64) -> Result<usize, ParamError> {
    let b = check::integer_at_least("budget", budget, 1, "an integer in 1..=100000")?;
    usize::try_from(b)
        .ok()
        .filter(|&b| b <= 100_000)
        .ok_or(ParamError::OutOfRange {
            name: "budget",
            value: budget,
            allowed: "an integer in 1..=100000",
        })
}

/// Empty buffers for a learner, the budget checked as the parameter maps check it.
pub(crate) fn checked_support(
    kernel: AnyKernel,
    budget: usize,
    removal: Removal,
    compensation: Compensation,
    seed: u64,
) -> Result<Support, ParamError> {
    let budget = check_budget(budget as f64)?;
    Ok(Support::new(kernel, budget, removal, compensation, seed))
}

pub(crate) fn gaussian(map: &ParamMap) -> Result<AnyKernel, ParamError> {
    Ok(Gaussian::new(map.value(&SIGMA)?)?.into())
}

pub(crate) const SHARED: [ParamSpec; 3] = [SIGMA, BUDGET, REMOVAL];

/// Which closed-form weight update a learner takes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Surrogate {
    /// $\psi_M$, [OAUC eq. 26].
    Moment,
    /// $\frac12 \psi_S$, [OAUC eq. 27].
    HalfSquare,
}

/// The state both learners share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Core {
    support: Support,
    lambda: f64,
    surrogate: Surrogate,
    t: u64,
}

impl Core {
    /// A core on fresh checked buffers whose evictions compensate by projection
    /// \[OAUC eq. 28\].
    fn new(
        kernel: AnyKernel,
        budget: usize,
        removal: Removal,
        seed: u64,
        lambda: f64,
        surrogate: Surrogate,
    ) -> Result<Self, ParamError> {
        let support = checked_support(kernel, budget, removal, Compensation::Projection, seed)?;
        Ok(Self {
            support,
            lambda,
            surrogate,
            t: 0,
        })
    }

    fn step(&mut self, x: Row<'_>, y: Label, eta: f64) {
        self.t += 1;
        let sp = &mut self.support;
        let Some((fx, kxx, nx)) = sp.kernel_row(x) else {
            return;
        };
        let opp = sp.class_slots(y.opposite());
        let n = opp.len();
        let ys = y.sign();
        let shrink = 1.0 - self.lambda * eta;
        let mut a = 0.0;
        if n > 0 {
            let nf = n as f64;
            let mu = opp.clone().map(|i| sp.f(i)).sum::<f64>() / nf;
            let s2 = opp.clone().map(|i| (sp.f(i) - mu).powi(2)).sum::<f64>() / nf;
            let b = 1.0 - ys * (fx - mu);
            match self.surrogate {
                Surrogate::Moment => {
                    let root = (b * b + s2).sqrt();
                    if root > 0.0 {
                        let psi = 0.5 * (b + root);
                        a = eta * ys * psi / root;
                        let scale = eta / (nf * root);
                        for i in opp.clone() {
                            let fi = sp.f(i);
                            sp.deltas_mut()[i] = -scale * (ys * psi + 0.5 * (fi - mu));
                        }
                    }
                }
                Surrogate::HalfSquare => {
                    a = eta * ys * b;
                    let scale = eta / nf;
                    for i in opp.clone() {
                        let fi = sp.f(i);
                        sp.deltas_mut()[i] = -scale * (ys * b + fi - mu);
                    }
                }
            }
        }
        let (a, f_new) = match sp.apply(shrink, a, fx, kxx, opp) {
            Some(f_new) => (a, f_new),
            None => (0.0, fx),
        };
        sp.insert(x, y, a, f_new, kxx, nx);
    }
}

/// Parameters of [`OkaucM`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OkaucMParams {
    /// Regularization $\lambda > 0$; the step is $\eta_t = 1/(\lambda t)$ [OAUC Lemma 7].
    pub lambda: f64,
    /// The kernel (Gaussian in [OAUC sec. 6.3]).
    pub kernel: AnyKernel,
    /// Buffer budget $B$ per class.
    pub budget: usize,
    /// Which row leaves a full buffer.
    pub removal: Removal,
}

/// Parameters of [`OkaucS`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OkaucSParams {
    /// Constant step size $\eta > 0$.
    pub eta: f64,
    /// Regularization $\lambda \ge 0$.
    pub lambda: f64,
    /// The kernel (Gaussian in [OAUC sec. 6.3]).
    pub kernel: AnyKernel,
    /// Buffer budget $B$ per class.
    pub budget: usize,
    /// Which row leaves a full buffer.
    pub removal: Removal,
}

impl OkaucMParams {
    /// The parameters the command line and grids may set: `lambda` and `sigma` (required),
    /// `budget` (100) and `removal` (0, FIFO).
    pub const PARAMS: &'static [ParamSpec] = &[LAMBDA, SIGMA, BUDGET, REMOVAL];

    /// Reads and checks the parameters from a map (Gaussian kernel), rejecting unknown names.
    pub fn from_map(map: &ParamMap) -> Result<Self, ParamError> {
        map.check_names(Self::PARAMS)?;
        let (budget, removal) = buffer_params(map)?;
        Ok(Self {
            lambda: map.value(&LAMBDA)?,
            kernel: gaussian(map)?,
            budget,
            removal,
        })
    }
}

impl OkaucSParams {
    /// The parameters the command line and grids may set: `eta`, `lambda` and `sigma`
    /// (required), `budget` (100) and `removal` (0, FIFO).
    pub const PARAMS: &'static [ParamSpec] = &[ETA, LAMBDA, SIGMA, BUDGET, REMOVAL];

    /// Reads and checks the parameters from a map (Gaussian kernel), rejecting unknown names.
    pub fn from_map(map: &ParamMap) -> Result<Self, ParamError> {
        map.check_names(Self::PARAMS)?;
        let (budget, removal) = buffer_params(map)?;
        Ok(Self {
            eta: map.value(&ETA)?,
            lambda: map.value(&LAMBDA)?,
            kernel: gaussian(map)?,
            budget,
            removal,
        })
    }
}

impl OnlineParams for OkaucMParams {
    type Learner = OkaucM;

    fn build(&self, dim: usize) -> Result<OkaucM, ParamError> {
        self.build_seeded(dim, 0)
    }

    fn build_seeded(&self, _dim: usize, seed: u64) -> Result<OkaucM, ParamError> {
        let lambda = check::positive("lambda", self.lambda)?; // eta_t = 1/(lambda t)
        Ok(OkaucM {
            core: Core::new(
                self.kernel,
                self.budget,
                self.removal,
                seed,
                lambda,
                Surrogate::Moment,
            )?,
        })
    }
}

impl OnlineParams for OkaucSParams {
    type Learner = OkaucS;

    fn build(&self, dim: usize) -> Result<OkaucS, ParamError> {
        self.build_seeded(dim, 0)
    }

    fn build_seeded(&self, _dim: usize, seed: u64) -> Result<OkaucS, ParamError> {
        let eta = check::positive("eta", self.eta)?;
        let lambda = check::non_negative("lambda", self.lambda)?;
        Ok(OkaucS {
            eta,
            core: Core::new(
                self.kernel,
                self.budget,
                self.removal,
                seed,
                lambda,
                Surrogate::HalfSquare,
            )?,
        })
    }
}

/// OKAUC-M [OAUC algs. 2-4, eq. 26]: kernel OGD on $\psi_M$ with $\eta_t = 1/(\lambda t)$ over
/// budgeted per-class buffers. $O(B^2 + Bp)$ per example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OkaucM {
    core: Core,
}

/// OKAUC-S [OAUC algs. 2-4, eq. 27]: kernel OGD on $\frac12\psi_S$ with a constant step over
/// budgeted per-class buffers. $O(B^2 + Bp)$ per example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OkaucS {
    eta: f64,
    core: Core,
}

impl OkaucM {
    /// The support buffers, weights and caches.
    pub fn support(&self) -> &Support {
        &self.core.support
    }

    /// Examples seen, $t$.
    pub fn steps(&self) -> u64 {
        self.core.t
    }
}

impl OkaucS {
    /// The support buffers, weights and caches.
    pub fn support(&self) -> &Support {
        &self.core.support
    }

    /// Examples seen, $t$.
    pub fn steps(&self) -> u64 {
        self.core.t
    }
}

impl Scorer for OkaucM {
    fn score(&self, x: Row<'_>) -> f64 {
        self.core.support.score(x)
    }
}

impl Scorer for OkaucS {
    fn score(&self, x: Row<'_>) -> f64 {
        self.core.support.score(x)
    }
}

impl OnlineLearner for OkaucM {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let eta = 1.0 / (self.core.lambda * (self.core.t + 1) as f64);
        self.core.step(x, y, eta);
    }
}

impl OnlineLearner for OkaucS {
    fn update(&mut self, x: Row<'_>, y: Label) {
        self.core.step(x, y, self.eta);
    }
}
