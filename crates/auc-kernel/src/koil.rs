//! KOIL, kernelized online imbalanced learning with fixed budgets \[KOIL18\]: the kernel
//! baseline of [OAUC sec. 6.1].
//!
//! # One step
//!
//! On $(x_t, y_t)$, with the opposite class's buffer as comparison set:
//! 1. the *violators* are the buffered opposite rows $x_i$ with a positive pairwise hinge,
//!    $1 - y_t (f(x_t) - f(x_i)) > 0$; of these, the $k$ most similar to $x_t$ (largest
//!    $k(x_t, x_i)$; all of them when fewer) form the neighbourhood $N_t$: the *localized* AUC
//!    loss $\sum_{i \in N_t} \max(0, 1 - y_t(f(x_t) - f(x_i)))$;
//! 2. every weight shrinks by $(1 - \eta)$, then a gradient step of size $\eta C$ on the
//!    localized loss: each $i \in N_t$ gets $-\eta C y_t$ and the new point gets
//!    $\eta C |N_t| y_t$;
//! 3. a point whose weight is 0 is never inserted; otherwise it enters its class's buffer, and a
//!    full buffer evicts by FIFO++ (the oldest row) or RS++ (reservoir), adding the evicted
//!    weight to the most similar remaining row ([`crate::Compensation::Nearest`]).
//!
//! Bootstrap: while the opposite buffer is empty, or while the own buffer is empty and nothing
//! violates, the new point enters with weight $\eta C y_t$, as \[KOIL18\]'s reference code does.
//! Without it both buffers would stay empty forever (every first weight would be 0).
//! The threshold $b$ KOIL also learns for classification is left out: it does not change AUC.

use auc_core::{
    Label, OnlineLearner, OnlineParams, ParamError, ParamMap, ParamSpec, Row, Scorer, check,
};
use serde::{Deserialize, Serialize};

use crate::okauc::{SHARED, buffer_params, checked_support, gaussian};
use crate::{AnyKernel, Compensation, Removal, Support};

/// Parameters of [`Koil`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KoilParams {
    /// Step size $\eta \in (0, 1]$; weights shrink by $(1-\eta)$ each step.
    pub eta: f64,
    /// Loss weight $C > 0$.
    pub c: f64,
    /// Neighbourhood size $k \ge 1$ (10 in [OAUC sec. 6.3], after \[KOIL18\]).
    pub k: usize,
    /// The kernel (Gaussian in [OAUC sec. 6.3]).
    pub kernel: AnyKernel,
    /// Buffer budget per class.
    pub budget: usize,
    /// FIFO++ or RS++.
    pub removal: Removal,
}

const PARAMS: [ParamSpec; 6] = [
    ParamSpec {
        name: "eta",
        default: None,
        help: "step size eta in (0, 1]; weights shrink by (1 - eta) each step [KOIL18]",
    },
    ParamSpec {
        name: "c",
        default: Some(1.0),
        help: "loss weight C > 0 of the localized hinge loss [KOIL18]",
    },
    ParamSpec {
        name: "k",
        default: Some(10.0),
        help: "number of nearest violating opposite support vectors, an integer >= 1; 10 in [OAUC sec. 6.3]",
    },
    SHARED[0],
    SHARED[1],
    ParamSpec {
        name: "removal",
        default: Some(0.0),
        help: "0 = FIFO++ (default), 1 = RS++ (reservoir); the evicted weight goes to the most similar remaining row [KOIL18]",
    },
];

impl KoilParams {
    /// The parameters the command line and grids may set: `eta` and `sigma` (required), `c` (1),
    /// `k` (10), `budget` (100) and `removal` (0, FIFO++).
    pub const PARAMS: &'static [ParamSpec] = &PARAMS;

    /// Reads and checks the parameters from a map (Gaussian kernel), rejecting unknown names.
    pub fn from_map(map: &ParamMap) -> Result<Self, ParamError> {
        map.check_names(Self::PARAMS)?;
        let (budget, removal) = buffer_params(map)?;
        let k = check::integer_at_least("k", map.value(&PARAMS[2])?, 1, "an integer >= 1")?;
        Ok(Self {
            eta: map.value(&PARAMS[0])?,
            c: map.value(&PARAMS[1])?,
            k: usize::try_from(k).unwrap_or(usize::MAX),
            kernel: gaussian(map)?,
            budget,
            removal,
        })
    }
}

impl OnlineParams for KoilParams {
    type Learner = Koil;

    fn build(&self, dim: usize) -> Result<Koil, ParamError> {
        self.build_seeded(dim, 0)
    }

    fn build_seeded(&self, _dim: usize, seed: u64) -> Result<Koil, ParamError> {
        let eta = check::positive("eta", self.eta)?;
        if eta > 1.0 {
            return Err(ParamError::OutOfRange {
                name: "eta",
                value: eta,
                allowed: "in (0, 1]",
            });
        }
        let c = check::positive("c", self.c)?;
        if self.k == 0 {
            return Err(ParamError::OutOfRange {
                name: "k",
                value: 0.0,
                allowed: "an integer >= 1",
            });
        }
        Ok(Koil {
            eta,
            c,
            k: self.k,
            support: checked_support(
                self.kernel,
                self.budget,
                self.removal,
                Compensation::Nearest,
                seed,
            )?,
            t: 0,
            near: Vec::new(),
        })
    }
}

/// KOIL \[KOIL18\] with FIFO++ or RS++ buffers: $O(B^2 + Bp)$ per example.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Koil {
    eta: f64,
    c: f64,
    k: usize,
    support: Support,
    t: u64,
    /// Scratch: (kernel value, slot) of the violators.
    #[serde(skip)]
    near: Vec<(f64, usize)>,
}

impl PartialEq for Koil {
    fn eq(&self, o: &Self) -> bool {
        // `near` is scratch.
        (self.eta, self.c, self.k, &self.support, self.t) == (o.eta, o.c, o.k, &o.support, o.t)
    }
}

impl Koil {
    /// The support buffers, weights and caches.
    pub fn support(&self) -> &Support {
        &self.support
    }

    /// Examples seen.
    pub fn steps(&self) -> u64 {
        self.t
    }
}

impl Scorer for Koil {
    fn score(&self, x: Row<'_>) -> f64 {
        self.support.score(x)
    }
}

impl OnlineLearner for Koil {
    fn update(&mut self, x: Row<'_>, y: Label) {
        self.t += 1;
        let sp = &mut self.support;
        let Some((fx, kxx, nx)) = sp.kernel_row(x) else {
            return;
        };
        let opp = sp.class_slots(y.opposite());
        let ys = y.sign();
        let step = self.eta * self.c;
        self.near.clear();
        for i in opp.clone() {
            if 1.0 - ys * (fx - sp.f(i)) > 0.0 {
                self.near.push((sp.krow(i), i));
            }
        }
        let a = if opp.is_empty() || (sp.len(y) == 0 && self.near.is_empty()) {
            step * ys
        } else {
            if self.near.len() > self.k {
                // Most similar first; ties by slot, so the choice is deterministic.
                self.near.select_nth_unstable_by(self.k - 1, |a, b| {
                    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
                });
                self.near.truncate(self.k);
            }
            for &(_, i) in &self.near {
                sp.deltas_mut()[i] = -step * ys;
            }
            step * self.near.len() as f64 * ys
        };
        let shrink = 1.0 - self.eta;
        if let Some(f_new) = sp.apply(shrink, a, fx, kxx, opp) {
            if a != 0.0 {
                sp.insert(x, y, a, f_new, kxx, nx);
            }
        }
    }
}
