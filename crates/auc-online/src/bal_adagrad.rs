//! Balanced AdaGrad: one pass of diagonal AdaGrad \[ADAGRAD11\] on the class-balanced logistic
//! loss, with its L2 proximal step applied lazily, so that a step on a sparse row costs
//! $O(\mathrm{nnz}(x))$ whatever $p$ (issue 23; derivation in `docs/math/bal-adagrad.md`).
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $t$, $n^+_t$, $n^-_t$ | `t`, `n_pos` | examples seen (this one included), and per class |
//! | $c_t$ | `c` | the example's class weight $t / (2 n^{y_t}_t)$ |
//! | $\ell(m)$ | `logistic` | $\log(1 + e^{-m})$ of the margin $m = y\, w^\top x$ |
//! | $g_t$ | `g` | the gradient $-c_t\, y_t\, \sigma(-m_t)\, x_t$ of $c_t \ell(y_t w^\top x_t)$ |
//! | $G_{t,j}$ | `g2` | $\sum_{s \le t} g_{s,j}^2$, AdaGrad's accumulator |
//! | $H_{t,j}$ | | $\delta + \sqrt{G_{t,j}}$, $\delta$ = [`DELTA`] |
//! | $\eta$ | `eta` | step scale |
//! | $\lambda$ | `lambda` | L2 weight of the proximal step |
//! | $\rho_{t,j}$ | `rho` | $H_{t,j} / (H_{t,j} + \eta\lambda)$, the factor the proximal step leaves |
//! | $\tau_j$ | `last` | the last step that touched feature $j$ (only when $\lambda > 0$) |
//!
//! # The loss
//!
//! With $\pi^\pm$ the class frequencies, weighting an example of class $y$ by $1/(2\pi^y)$ makes
//! the expected loss the mean over positive-negative pairs of a pair loss:
//! $$\mathbb E\Bigl[\tfrac{1}{2\pi^{y}} \ell(y\, w^\top x)\Bigr]
//! = \tfrac12 \mathbb E^+ \ell(w^\top x) + \tfrac12 \mathbb E^- \ell(-w^\top x)
//! = \mathbb E_{x^+, x^-}\Bigl[\tfrac12\bigl(\ell(w^\top x^+) + \ell(-w^\top x^-)\bigr)\Bigr],$$
//! and in base 2 the pair loss bounds the pair's misranking:
//! $\ell_2(s^+) + \ell_2(-s^-) \ge [s^+ \le s^-]$ (one of $s^+ \le 0$, $s^- \ge 0$ holds, and
//! $\ell_2 \ge 1$ there), so twice the balanced risk in bits bounds $1 - \mathrm{AUC}$. \[KDH11\]
//! bound the AUC regret by the regret of this balanced logistic loss, and \[Agarwal14\] derive such
//! bounds for strongly proper losses, logistic among them, without the balancing: a univariate
//! loss, so a step costs one row rather than a pair. The stream does not know $\pi^y$; the step
//! uses the running frequency, $c_t = t / (2 n^{y_t}_t)$, the inverse of the class's count scaled by
//! $t/2$ so that $c_t$ stays near 1 on balanced data (a plain $1/n^y_t$ would shrink every step
//! like $1/t$ on top of AdaGrad's own decay).
//!
//! # One step: diagonal AdaGrad with the composite mirror descent step \[ADAGRAD11\]
//!
//! On $(x_t, y_t)$, with $m_t = y_t w_t^\top x_t$ and $g_t = -c_t y_t \sigma(-m_t) x_t$:
//! $$G_{t,j} = G_{t-1,j} + g_{t,j}^2, \qquad H_{t,j} = \delta + \sqrt{G_{t,j}},$$
//! $$w_{t+1,j} = \arg\min_v \; \eta g_{t,j} v + \frac{\eta\lambda}{2} v^2 + \frac{H_{t,j}}{2}(v - w_{t,j})^2
//! = \rho_{t,j}\Bigl(w_{t,j} - \eta \frac{g_{t,j}}{H_{t,j}}\Bigr), \qquad \rho_{t,j} = \frac{1}{1 + \eta\lambda / H_{t,j}},$$
//! for **every** $j$: that is the eager (dense) step, which `tests` writes out over all $p$.
//! A rare feature has a small $H_{t,j}$, so it gets a large step (up to $\eta$ in one go, since
//! $|g_{t,j}| \le \sqrt{G_{t,j}}$) and a strong shrinkage; a frequent one, small steps.
//! Starting point $w_1 = 0$, $G_0 = 0$.
//!
//! # Lazy L2: $O(\mathrm{nnz})$ per step
//!
//! A feature $j$ with $x_{t,j} = 0$ has $g_{t,j} = 0$, so $G$ and $H$ stay put and the step
//! multiplies $w_j$ by the same $\rho_j$ every time. So we store, per feature, $w_j$ as of its
//! last touch $\tau_j$ and bring it forward on demand: $w_{t,j} = \rho_j^{\,t - 1 - \tau_j} \tilde w_j$.
//! A step reads the row's features brought to step $t$ (the margin), then applies the step above
//! to them and sets $\tau_j = t$: two passes over the row, $O(1)$ scalars. With $\lambda = 0$,
//! $\rho = 1$ and nothing is raised to a power. The power is `powi`'s repeated squaring, where
//! the eager step multiplies once per step: they agree to a few ulps per factor (tested to
//! $10^{-12}$ relative; with $\lambda = 0$ bit for bit). A step gathers the row into arrays and
//! takes the powers and AdaGrad's steps for four features at a time (`adagrad_row`, the same
//! products as `powi` and the scalar step, so the same bits).
//!
//! Memory: $w$, $G$ and $\tau$ side by side in one 24-byte slot per feature (one cache miss per
//! touched feature, a quarter of them two), $24p$ bytes. Scoring is $O(\mathrm{nnz})$ too; [`Linear::weights`]
//! materializes the $p$ current weights once per state that asks. [`crate::Averaged`] works on
//! top, but as its plain $O(p)$ loop: weights shrink off the row when $\lambda > 0$, so the
//! lazy averaging of [`Linear::SPARSE_STEPS`] does not apply.
//!
//! Deviations from VW's defaults (which the issue compares with): no per-feature normalization
//! \[NOL13\] (our pipeline scales features by their largest magnitude before learning) and no
//! importance-invariant step \[IWA11\] (the class weight multiplies the gradient, as AdaGrad on
//! the weighted loss prescribes).
//!
//! Numerical safety: a margin that is NaN (an infinite product of unscaled features of about
//! $10^{308}$) takes no step and is counted; $|\eta g_j / H_j| \le \eta$ bounds each weight's
//! move, so weights stay finite; an accumulator that overflows to $+\infty$ freezes its feature
//! ($g / H = 0$, $\rho = 1$).

use auc_core::{
    Dataset, Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params,
    Range, Row, SavedState, Scorer, StateError, check,
};
use serde::{Deserialize, Serialize};

mod saved;

use crate::adagrad_row::{DELTA, RowState, power, shrink};
use crate::{Linear, WeightsCache, linear_divergence};

/// Parameters of [`BalAdagrad`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BalAdagradParams {
    /// Step scale $\eta > 0$: feature $j$ moves by $\eta g_j / (\delta + \sqrt{G_j})$ \[ADAGRAD11\].
    pub eta: f64,
    /// L2 weight $\lambda \ge 0$ of the proximal step, applied lazily (module docs).
    pub lambda: f64,
}

impl Default for BalAdagradParams {
    /// $\eta = 2^{-2}$, $\lambda = 2^{-10}$: the point the defaults rule fixed before the
    /// measurements (`docs/math/bal-adagrad.md` section 4) chooses on the 19 data sets of
    /// `docs/results/linear.md`, 88 grid points (`docs/results/defaults.md`: mean AUC 84.16 %,
    /// mean rank 30.8 of 88, beaten on 10 of 19 sets, leave-one-set-out regret 0.76 points
    /// median, 6.66 worst on ionosphere).
    fn default() -> Self {
        Self {
            eta: 0.25,
            lambda: 1.0 / 1024.0,
        }
    }
}

impl Params for BalAdagradParams {
    const NAME: &'static str = "bal-adagrad";
    const ALIASES: &'static [&'static str] = &["balanced-adagrad"];
    const TITLE: &'static str = "Balanced AdaGrad";
    const ABOUT: &'static str = "Diagonal AdaGrad [ADAGRAD11] on the class-balanced logistic loss, a univariate AUC surrogate [KDH11]; lazy L2, O(nnz) per step";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "step scale eta > 0: feature j moves by eta g_j / (1e-8 + sqrt(G_j)) [ADAGRAD11]",
        ),
        ParamSpec::real(
            "lambda",
            Range::NonNegative,
            "L2 weight lambda >= 0, AdaGrad's proximal step [ADAGRAD11], applied lazily",
        ),
    ];
    const GRID: &'static [&'static str] = &[
        "eta=2^-8..2^2",
        "lambda=0,2^-16,2^-14,2^-12,2^-10,2^-8,2^-6,2^-4",
    ];
}

impl OnlineParams for BalAdagradParams {
    type Learner = BalAdagrad;

    fn build(&self, dim: usize, _seed: u64) -> Result<BalAdagrad, ParamError> {
        self.check()?;
        Ok(BalAdagrad {
            params: self.clone(),
            counts: ClassCounts::default(),
            slots: vec![Slot::default(); dim],
            rejected: 0,
            cache: WeightsCache::default(),
            row: RowScratch::default(),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        // w, G and the step counter of every feature, the materialized weights.
        32 * dim as u64
    }
}

/// One feature's state in memory: its weight as of its last touch, AdaGrad's accumulator and
/// the step of the last touch, side by side so that a step misses the cache once per touched
/// feature (24 bytes; a quarter of the slots straddle two cache lines).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Slot {
    /// $\tilde w_j$.
    w: f64,
    /// $G_j$.
    g2: f64,
    /// $\tau_j$ (0 throughout when $\lambda = 0$).
    last: u64,
}

/// One pass of diagonal AdaGrad on the class-balanced logistic loss, with lazy L2 (module docs):
/// on $(x_t, y_t)$, $c_t = t / (2 n^{y_t}_t)$, $g_t = -c_t y_t \sigma(-y_t w_t^\top x_t)\, x_t$,
/// $$G_{t,j} = G_{t-1,j} + g_{t,j}^2, \qquad
/// w_{t+1,j} = \frac{w_{t,j} - \eta g_{t,j} / (\delta + \sqrt{G_{t,j}})}{1 + \eta\lambda / (\delta + \sqrt{G_{t,j}})}
/// \quad \text{for every } j,$$
/// in $O(\mathrm{nnz}(x_t))$: the features off the row only shrink, by a factor that stays the
/// same until they are touched again, so the shrinkage is applied in one power when they are.
/// Scores with the current weights, $f(x) = w^\top x$.
///
/// Saved as `SavedBalAdagrad` (version 1: the weights and accumulators, then the step counters
/// when $\lambda > 0$), held as one `Slot` per feature.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "saved::SavedBalAdagrad")]
pub struct BalAdagrad {
    params: BalAdagradParams,
    /// Examples and positives seen.
    counts: ClassCounts,
    /// $(\tilde w_j, G_j, \tau_j)$ per feature.
    slots: Vec<Slot>,
    /// Steps refused because the margin was NaN, and coordinates whose gradient overflowed.
    rejected: u64,
    /// The materialized current weights, filled on the first [`Linear::weights`] call after an
    /// update.
    cache: WeightsCache,
    /// Scratch of a step: the row's features gathered for the row kernels, its capacity kept
    /// across steps.
    row: RowScratch,
}

/// A step's scratch arrays (their capacity kept across steps); not serialized, ignored by `==`.
#[derive(Clone, Debug, Default)]
struct RowScratch(RowState);

impl PartialEq for RowScratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// $\log(1 + e^{-m})$ and its derivative $-\sigma(-m) = -1 / (1 + e^{m})$, without overflow for
/// any $m$ (for $m \to -\infty$ the loss is $-m$, for $m = +\infty$ both are 0).
pub(crate) fn logistic(m: f64) -> (f64, f64) {
    if m >= 0.0 {
        let e = (-m).exp();
        (e.ln_1p(), -e / (1.0 + e))
    } else {
        let e = m.exp();
        (-m + e.ln_1p(), -1.0 / (1.0 + e))
    }
}

/// The running class counts of the balanced learners, and the class weight they give each step.
/// Serialized as its two fields in order, so a learner that holds it has the layout of one that
/// held `t` and `n_pos` itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClassCounts {
    /// Examples seen.
    pub(crate) t: u64,
    /// Positives seen.
    pub(crate) n_pos: u64,
}

impl ClassCounts {
    /// Counts the example of class `y` and returns its class weight $c_t = t / (2 n^{y_t}_t)$
    /// (this example counted): the inverse of its class's running count, times $t/2$.
    #[inline]
    pub(crate) fn weigh(&mut self, y: Label) -> f64 {
        self.t += 1;
        if y.is_pos() {
            self.n_pos += 1;
        }
        let n_y = if y.is_pos() {
            self.n_pos
        } else {
            self.t - self.n_pos
        };
        self.t as f64 / (2.0 * n_y as f64)
    }

    /// Examples seen.
    pub(crate) fn steps(&self) -> u64 {
        self.t
    }

    /// The running positive rate $n^+_t / t$ (0 before any example).
    pub(crate) fn positive_rate(&self) -> f64 {
        if self.t == 0 {
            0.0
        } else {
            self.n_pos as f64 / self.t as f64
        }
    }

    /// Refuses more positives than examples.
    pub(crate) fn validate(&self) -> Result<(), StateError> {
        check::state(self.n_pos <= self.t, || {
            format!("{} positives of {} examples", self.n_pos, self.t)
        })
    }
}

impl BalAdagrad {
    /// Examples seen.
    pub fn steps(&self) -> u64 {
        self.counts.steps()
    }

    /// The running positive rate $n^+_t / t$ (0 before any example).
    pub fn positive_rate(&self) -> f64 {
        self.counts.positive_rate()
    }

    /// AdaGrad's accumulators $G_j$, one per feature.
    pub fn accumulators(&self) -> Vec<f64> {
        self.slots.iter().map(|c| c.g2).collect()
    }

    /// Whether weights shrink off the row ($\lambda > 0$), so that steps are counted per feature.
    fn lazy(&self) -> bool {
        self.params.lambda > 0.0
    }

    /// $\eta\lambda$, the numerator of the shrinkage.
    fn eta_lambda(&self) -> f64 {
        self.params.eta * self.params.lambda
    }

    /// One step on the row whose features are `js` (increasing) with values `xs`: gather the
    /// row's slots in a loop whose loads do not depend on one another (so that their cache misses
    /// overlap), bring the weights to step $t$ (they shrank at steps $\tau_j + 1, \dots, t - 1$)
    /// and take AdaGrad's step for the whole row at once (`adagrad_row`), scatter back.
    fn step_on(&mut self, js: impl Iterator<Item = usize> + Clone, xs: &[f64], y: Label) {
        self.cache = WeightsCache::default();
        let c = self.counts.weigh(y);
        let t = self.counts.steps();
        let yv = y.sign();
        let (eta, eta_lambda, lazy) = (self.params.eta, self.eta_lambda(), self.lazy());
        let (slots, row) = (&mut self.slots, &mut self.row.0);
        let n = row.reset(xs.len());
        for (i, (j, &xj)) in js.clone().zip(xs).enumerate() {
            let s = slots[j];
            let gap = if lazy { (t - 1) - s.last } else { 0 };
            row.set(i, gap, xj, s.w, s.g2);
        }
        if lazy {
            row.catch_up(eta_lambda);
        }
        // The margin m_t = y w_t' x_t, summed in the row's order.
        let score = (row.x[..n].iter().zip(&row.w[..n])).fold(0.0, |s, (xj, wj)| s + xj * wj);
        let m = yv * score;
        // g_t = a x_t with a = c_t y_t l'(m_t), l'(m) = -sigma(-m); no step on a NaN margin.
        let a = c * yv * logistic(m).1;
        let stepped = !m.is_nan();
        if stepped {
            row.step(a, eta, eta_lambda);
        }
        // Scatter: the stepped features' step counter is t, the others' (a NaN margin, a gradient
        // that overflowed) t - 1, the step their weight was brought to.
        let mut refused = u64::from(!stepped);
        for (i, j) in js.enumerate() {
            let ok = stepped && (a * row.x[i]).is_finite();
            refused += u64::from(stepped && !ok);
            slots[j] = Slot {
                w: row.w[i],
                g2: row.g2[i],
                last: match (lazy, ok) {
                    (false, _) => 0,
                    (true, true) => t,
                    (true, false) => t - 1,
                },
            };
        }
        self.rejected += refused;
    }

    /// The weight of feature `j` after `steps` steps (its stored weight shrunk for the steps since
    /// its last touch).
    #[inline]
    fn weight_at(&self, j: usize, steps: u64) -> f64 {
        let c = self.slots[j];
        if !self.lazy() {
            return c.w;
        }
        let k = steps - c.last;
        if k == 0 || c.w == 0.0 {
            c.w
        } else {
            c.w * power(shrink(self.eta_lambda(), DELTA + c.g2.sqrt()), k)
        }
    }
}

impl Linear for BalAdagrad {
    fn dim(&self) -> usize {
        self.slots.len()
    }

    fn weights(&self) -> &[f64] {
        self.cache.0.get_or_init(|| {
            if !self.lazy() {
                return self.slots.iter().map(|s| s.w).collect();
            }
            // Every weight brought to the current step by the row kernel, a block at a time: the
            // bits of `weight_at`, without a `powi` call per feature.
            let steps = self.counts.steps();
            let mut out = Vec::with_capacity(self.slots.len());
            let mut block = RowState::default();
            for slots in self.slots.chunks(1024) {
                let n = block.reset(slots.len());
                for (i, s) in slots.iter().enumerate() {
                    block.set(i, steps - s.last, 0.0, s.w, s.g2);
                }
                block.catch_up(self.eta_lambda());
                out.extend_from_slice(&block.w[..n]);
            }
            out
        })
    }
}

impl Scorer for BalAdagrad {
    /// $w^\top x$ over the row's stored features, $O(\mathrm{nnz}(x))$: from the materialized
    /// weights when a [`Linear::weights`] call since the last update left them, else each
    /// feature's weight brought to the current step (a power per feature; the same bits).
    fn score(&self, x: Row<'_>) -> f64 {
        crate::check_dense_len(x, self.slots.len());
        let mut s = 0.0;
        match self.cache.0.get() {
            Some(w) => x.for_each(|j, xj| s += xj * w[j]),
            None => x.for_each(|j, xj| s += xj * self.weight_at(j, self.counts.steps())),
        }
        s
    }

    /// Materializes the weights first (kept until the next update) when the rows store at
    /// least one value for every 16 features: the catch-up in vector rounds costs about 10 ns a
    /// feature, a scalar power and a slot's cache miss about 160 ns a stored value (measured at
    /// $2^{20}$ features), so the $O(p)$ pass is then the cheaper. The same scores, bit for bit.
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        if data.nnz().saturating_mul(16) >= self.slots.len() {
            self.weights();
        }
        data.iter().map(|(x, _)| self.score(x)).collect()
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(self.weights(), None, self.rejected)
    }
}

impl OnlineLearner for BalAdagrad {
    fn prefetch(&self, x: Row<'_>) {
        crate::prefetch_rows_features(x, &self.slots);
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        match x {
            Row::Sparse(r) => self.step_on(r.indices().iter().map(|&j| j as usize), r.values(), y),
            Row::Dense(v) => self.step_on(0..v.len(), v, y),
        }
    }

    /// Pads the state with zeros: a feature that has been zero throughout has $w_j = 0$ and
    /// $G_j = 0$ (and its step counter, 0, needs no catching up: $0 \cdot \rho^k = 0$).
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        if dim > self.slots.len() {
            self.slots.resize(dim, Slot::default());
            self.cache = WeightsCache::default();
        }
        Ok(())
    }
}

impl SavedState for BalAdagrad {
    const STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        self.params.check()?;
        self.counts.validate()?;
        check::state(self.slots.iter().all(|c| c.w.is_finite()), || {
            "a weight is not finite".to_owned()
        })?;
        // An accumulator may have overflowed to +infinity (module docs), never below 0 or NaN.
        check::state(self.slots.iter().all(|c| c.g2 >= 0.0), || {
            "an accumulator is negative or NaN".to_owned()
        })?;
        // (A saved `last` of the wrong length is refused when the slots are built.)
        let t = self.counts.steps();
        check::state(self.slots.iter().all(|s| s.last <= t), || {
            format!("a step counter is past the {t} steps taken")
        })
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Bit-for-bit comparisons are the point of the lazy-step tests.
mod tests {
    use super::saved::Coord;
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::SparseVec;
    use auc_core::testing::{sparse_dataset, sparse_row, tol};
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The eager step of the module docs, over all $p$ features every step: (weights, G).
    fn eager(eta: f64, lambda: f64, p: usize, rows: &[(SparseVec, Label)]) -> Vec<Vec<f64>> {
        let (mut w, mut g2) = (vec![0.0; p], vec![0.0; p]);
        let (mut t, mut n_pos) = (0u64, 0u64);
        let mut out = Vec::new();
        for (x, y) in rows {
            t += 1;
            if y.is_pos() {
                n_pos += 1;
            }
            let n_y = if y.is_pos() { n_pos } else { t - n_pos };
            let c = t as f64 / (2.0 * n_y as f64);
            let m = y.sign() * Row::Sparse(x.view()).dot(&w);
            let a = c * y.sign() * logistic(m).1;
            let mut g = vec![0.0; p];
            for (&j, &v) in x.view().indices().iter().zip(x.view().values()) {
                g[j as usize] = a * v;
            }
            for j in 0..p {
                if g[j] != 0.0 || x.view().indices().contains(&(j as u32)) {
                    g2[j] += g[j] * g[j];
                    let h = DELTA + g2[j].sqrt();
                    w[j] = (w[j] - eta * (g[j] / h)) * shrink(eta * lambda, h);
                } else {
                    // Untouched: the same proximal step with g = 0.
                    let h = DELTA + g2[j].sqrt();
                    w[j] *= shrink(eta * lambda, h);
                }
            }
            out.push(w.clone());
        }
        out
    }

    fn stream(p: u32, max_nnz: usize) -> impl Strategy<Value = Vec<(SparseVec, Label)>> {
        prop::collection::vec(
            (
                sparse_row(p, max_nnz),
                prop_oneof![1 => Just(Pos), 3 => Just(Neg)],
            ),
            1..150,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A dataset's scores with the weights materialized first (`score_all`) are the scores
        /// row by row with a power per feature, bit for bit, and the materialized weights stay
        /// for the next scores.
        #[test]
        fn score_all_equals_the_scores_row_by_row(
            rows in stream(30, 6),
            lambda in prop_oneof![Just(0.0), 1e-4f64..0.5],
        ) {
            let mut l = BalAdagradParams { eta: 0.5, lambda }.build(30, 0).unwrap();
            for (x, y) in &rows {
                l.update(Row::Sparse(x.view()), *y);
            }
            let one_by_one: Vec<u64> =
                rows.iter().map(|(x, _)| l.score(Row::Sparse(x.view())).to_bits()).collect();
            let data = sparse_dataset(&rows, 30);
            let all: Vec<u64> = l.score_all(&data).iter().map(|s| s.to_bits()).collect();
            prop_assert_eq!(&all, &one_by_one);
            prop_assert_eq!(l.cache.0.get().is_some(), data.nnz() * 16 >= 30);
        }

        /// With $\lambda = 0$ the lazy learner is the eager step bit for bit; with $\lambda > 0$
        /// it agrees to $10^{-12}$ of the largest weight (a power instead of repeated
        /// multiplication: a few ulps per factor, and at most 150 factors here).
        #[test]
        fn lazy_steps_equal_the_eager_dense_step(
            rows in stream(30, 6),
            eta in 0.01f64..2.0,
            lambda in prop_oneof![Just(0.0), 1e-4f64..0.5],
        ) {
            let p = 30;
            let want = eager(eta, lambda, p, &rows);
            let mut l = BalAdagradParams { eta, lambda }.build(p, 0).unwrap();
            for ((x, y), w) in rows.iter().zip(&want) {
                l.update(Row::Sparse(x.view()), *y);
                let got = l.weights();
                if lambda == 0.0 {
                    prop_assert_eq!(got, &w[..]);
                } else {
                    let scale = w.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
                    for (j, (a, b)) in got.iter().zip(w).enumerate() {
                        prop_assert!(
                            tol::close_with(*a, *b, 1e-12 * scale, 1e-12),
                            "feature {j}: lazy {a}, eager {b}"
                        );
                    }
                }
                // The materialized weights are those scoring reads, bit for bit.
                for (j, wj) in got.iter().enumerate() {
                    prop_assert_eq!(wj.to_bits(), l.weight_at(j, l.steps()).to_bits());
                }
                // Scores read the lazy state in O(nnz) and agree with the materialized weights.
                let s = l.score(Row::Sparse(x.view()));
                let d = Row::Sparse(x.view()).dot(got);
                prop_assert!(tol::close(s, d), "score {s}, dot {d}");
            }
        }

        /// A state saved halfway resumes bit for bit.
        #[test]
        fn saved_states_resume_exactly(rows in stream(20, 5), lambda in prop_oneof![Just(0.0), 1e-3f64..0.1]) {
            let p = 20;
            let mut a = BalAdagradParams { eta: 0.5, lambda }.build(p, 0).unwrap();
            let half = rows.len() / 2;
            for (x, y) in &rows[..half] {
                a.update(Row::Sparse(x.view()), *y);
            }
            let mut b: BalAdagrad = postcard::from_bytes(&postcard::to_allocvec(&a).unwrap()).unwrap();
            prop_assert!(b.validate().is_ok());
            for (x, y) in &rows[half..] {
                a.update(Row::Sparse(x.view()), *y);
                b.update(Row::Sparse(x.view()), *y);
            }
            prop_assert_eq!(postcard::to_allocvec(&a).unwrap(), postcard::to_allocvec(&b).unwrap());
        }

        /// The stated loss's derivative against a central difference of
        /// $c \log(1 + e^{-y w^\top x})$ in each weight: $h = 10^{-5}$ has truncation error
        /// $O(h^2)$ times the third derivative ($\le 0.1$ here, margins in $[-6, 6]$), far
        /// below the $10^{-7}$ allowed.
        #[test]
        fn gradient_matches_finite_differences(
            x in sparse_row(8, 8),
            w in prop::collection::vec(-1.0f64..1.0, 8),
            pos in any::<bool>(),
            c in 0.1f64..20.0,
        ) {
            let yv = if pos { 1.0 } else { -1.0 };
            let f = |w: &[f64]| c * logistic(yv * Row::Sparse(x.view()).dot(w)).0;
            let a = c * yv * logistic(yv * Row::Sparse(x.view()).dot(&w)).1;
            let h = 1e-5;
            for j in 0..8 {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[j] += h;
                down[j] -= h;
                let numeric = (f(&up) - f(&down)) / (2.0 * h);
                let analytic = a * Row::Sparse(x.view()).get(j);
                prop_assert!(
                    (numeric - analytic).abs() <= 1e-7 * (1.0 + c),
                    "feature {j}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
    }

    /// Scores in $[-6, 6]$ with ties (drawn from a few values), both classes present.
    fn scored_sample() -> impl Strategy<Value = Vec<(f64, bool)>> {
        prop::collection::vec(
            (
                prop_oneof![3 => -6.0f64..6.0, 1 => Just(0.0), 1 => Just(1.5)],
                any::<bool>(),
            ),
            2..40,
        )
        .prop_map(|mut v| {
            v[0].1 = true;
            v[1].1 = false;
            v
        })
    }

    proptest! {
        /// docs/math/bal-adagrad.md, section 1: with the final counts, the class-weighted mean
        /// $rac1n \sum_i rac{n}{2 n^{y_i}} \ell(y_i s_i)$ equals the mean over
        /// positive-negative pairs of $rac12(\ell(s^+) + \ell(-s^-))$, the balanced risk as a
        /// pair mean in the spirit of \[KDH11\]. Two sums of the same terms in different orders:
        /// `tol::close`.
        #[test]
        fn lemma_kdh11_balanced_risk_is_a_pair_mean(sample in scored_sample()) {
            let n = sample.len() as f64;
            let n_pos = sample.iter().filter(|s| s.1).count() as f64;
            let n_neg = n - n_pos;
            let weighted: f64 = sample
                .iter()
                .map(|&(s, pos)| {
                    let (count, m) = if pos { (n_pos, s) } else { (n_neg, -s) };
                    n / (2.0 * count) * logistic(m).0
                })
                .sum::<f64>()
                / n;
            let mut pairs = 0.0;
            for &(sp, _) in sample.iter().filter(|s| s.1) {
                for &(sn, _) in sample.iter().filter(|s| !s.1) {
                    pairs += 0.5 * (logistic(sp).0 + logistic(-sn).0);
                }
            }
            let pairs = pairs / (n_pos * n_neg);
            prop_assert!(tol::close(weighted, pairs), "weighted {weighted}, pairs {pairs}");
        }

        /// docs/math/bal-adagrad.md, section 1: in base 2 the pair loss bounds the pair's
        /// misranking, $\ell_2(s^+) + \ell_2(-s^-) \ge [s^+ \le s^-]$, so twice the balanced risk
        /// in bits bounds $1 - \mathrm{AUC}$ (ties counted as misranked). Exact at the boundary
        /// $s^+ = s^- = 0$, where the sum is 2; `1e-12` absorbs the rounding of `ln` there.
        #[test]
        fn lemma_kdh11_pair_loss_bounds_misranking(sample in scored_sample()) {
            let bits = |m: f64| logistic(m).0 / std::f64::consts::LN_2;
            let (mut mis, mut bound, mut pairs) = (0.0, 0.0, 0.0);
            for &(sp, _) in sample.iter().filter(|s| s.1) {
                for &(sn, _) in sample.iter().filter(|s| !s.1) {
                    let wrong = if sp <= sn { 1.0 } else { 0.0 };
                    let pair = bits(sp) + bits(-sn);
                    prop_assert!(pair >= wrong - 1e-12, "s+ {sp}, s- {sn}: {pair}");
                    mis += wrong;
                    bound += pair;
                    pairs += 1.0;
                }
            }
            prop_assert!(mis / pairs <= bound / pairs + 1e-12);
        }
    }

    /// On a dense problem the learner ranks well and the positives' weight follows the class
    /// weights: 1 positive in 10 still gets half the loss.
    #[test]
    fn a_separable_imbalanced_stream_is_ranked() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut l = BalAdagradParams {
            eta: 0.5,
            lambda: 1e-4,
        }
        .build(3, 0)
        .unwrap();
        let mut test = Vec::new();
        for i in 0..2000 {
            let pos = rng.random::<f64>() < 0.1;
            let shift = if pos { 0.8 } else { -0.2 };
            let x = [shift + rng.random::<f64>(), rng.random::<f64>(), 1.0];
            let y = if pos { Pos } else { Neg };
            if i < 1500 {
                l.update(Row::Dense(&x), y);
            } else {
                test.push((l.score(Row::Dense(&x)), pos));
            }
        }
        let (np, nn) = (
            test.iter().filter(|t| t.1).count() as f64,
            test.iter().filter(|t| !t.1).count() as f64,
        );
        let mut good = 0.0;
        for a in test.iter().filter(|t| t.1) {
            for b in test.iter().filter(|t| !t.1) {
                good += if a.0 > b.0 {
                    1.0
                } else if a.0 == b.0 {
                    0.5
                } else {
                    0.0
                };
            }
        }
        assert!(good / (np * nn) > 0.98, "AUC {}", good / (np * nn));
        assert!((l.positive_rate() - 0.1).abs() < 0.03);
    }

    #[test]
    fn first_steps_by_hand() {
        // eta = 1/2, lambda = 0. Step 1: x = (1, 0)+, w = 0, c = 1/(2*1) = 1/2, m = 0,
        // l'(0) = -1/2, g = (-1/4, 0), G = (1/16, 0), H = 1e-8 + 1/4,
        // w_0 = 0.5 * (1/4) / (1/4 + 1e-8).
        let mut l = BalAdagradParams {
            eta: 0.5,
            lambda: 0.0,
        }
        .build(2, 0)
        .unwrap();
        l.update(Row::Dense(&[1.0, 0.0]), Pos);
        let h = DELTA + 0.25;
        assert_eq!(l.weights(), &[0.0 - 0.5 * (-0.25 / h), 0.0]);
        // A zero gradient leaves G alone; the unseen feature is untouched.
        assert_eq!(l.accumulators(), vec![1.0 / 16.0, 0.0]);
        // Step 2: x = (0, 2)-: c = 2 / (2 * 1) = 1, m = 0, g = (0, 1 * -1 * -1/2 * 2) = (0, 1).
        l.update(Row::Dense(&[0.0, 2.0]), Neg);
        assert_eq!(l.weights()[1], -0.5 * (1.0 / (DELTA + 1.0)));
    }

    #[test]
    fn lambda_shrinks_untouched_weights_once_per_step() {
        // One touch, then 10 steps on another feature: the first weight is w * rho^10.
        let (eta, lambda) = (0.5, 0.25);
        let mut l = BalAdagradParams { eta, lambda }.build(2, 0).unwrap();
        l.update(Row::Dense(&[1.0, 0.0]), Pos);
        let w1 = l.weights()[0];
        let rho = shrink(eta * lambda, DELTA + l.accumulators()[0].sqrt());
        let x = SparseVec::from_pairs([(1, 1.0)]).unwrap();
        for _ in 0..10 {
            l.update(Row::Sparse(x.view()), Neg);
        }
        let want = w1 * rho.powi(10);
        assert!(
            tol::close(l.weights()[0], want),
            "{} {want}",
            l.weights()[0]
        );
        assert!(tol::close(l.score(Row::Dense(&[1.0, 0.0])), want));
    }

    #[test]
    fn logistic_is_stable_at_the_extremes() {
        assert_eq!(logistic(0.0), (std::f64::consts::LN_2, -0.5));
        let (l, d) = logistic(-1000.0);
        assert_eq!((l, d), (1000.0, -1.0));
        let (l, d) = logistic(1000.0);
        assert_eq!((l, d), (0.0, -0.0));
        assert_eq!(logistic(f64::INFINITY), (0.0, -0.0));
        assert_eq!(logistic(f64::NEG_INFINITY).1, -1.0);
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..1000 {
            let m = rng.random_range(-30.0..30.0);
            let (l, d) = logistic(m);
            assert!(tol::close(l, (1.0 + (-m).exp()).ln()), "{m}");
            assert!(tol::close(d, -1.0 / (1.0 + m.exp())), "{m}");
        }
    }

    #[test]
    fn huge_features_keep_the_state_finite_and_report_it() {
        let mut l = BalAdagradParams::default().build(2, 0).unwrap();
        for _ in 0..4 {
            l.update(Row::Dense(&[1e308, -1e308]), Pos);
            l.update(Row::Dense(&[-1e308, 1e308]), Neg);
        }
        assert!(l.weights().iter().all(|w| w.is_finite()));
        assert!(l.validate().is_ok());
        assert!(l.score(Row::Dense(&[1.0, 1.0])).is_finite());
    }

    #[test]
    fn params_and_states_are_checked() {
        assert!(matches!(
            BalAdagradParams {
                eta: 0.0,
                lambda: 0.0
            }
            .build(3, 0),
            Err(ParamError::OutOfRange { name: "eta", .. })
        ));
        assert!(matches!(
            BalAdagradParams {
                eta: 1.0,
                lambda: -1.0
            }
            .build(3, 0),
            Err(ParamError::OutOfRange { name: "lambda", .. })
        ));
        let good = BalAdagradParams {
            eta: 0.5,
            lambda: 0.1,
        }
        .build(3, 0)
        .unwrap();
        assert!(good.validate().is_ok());
        let mut bad = good.clone();
        bad.slots[1].g2 = f64::NAN;
        assert!(bad.validate().is_err());
        let mut bad = good.clone();
        bad.slots[1].w = f64::INFINITY;
        assert!(bad.validate().is_err());
        let mut bad = good.clone();
        bad.slots[0].last = 5;
        assert!(bad.validate().is_err());
        let mut bad = good;
        bad.counts.n_pos = 1;
        assert!(bad.validate().is_err());
    }

    /// The slots are saved as the two sequences of state version 1, and a saved `last` whose
    /// length disagrees with the weights is refused when loaded.
    #[test]
    fn slots_are_saved_as_weights_then_step_counters() {
        for lambda in [0.0, 0.1] {
            let mut l = BalAdagradParams { eta: 0.5, lambda }.build(3, 0).unwrap();
            l.update(Row::Dense(&[1.0, 0.0, 2.0]), Pos);
            l.update(Row::Dense(&[0.0, 1.0, 0.0]), Neg);
            let saved = SavedLayout {
                params: l.params.clone(),
                counts: l.counts,
                coords: l.slots.iter().map(|s| Coord { w: s.w, g2: s.g2 }).collect(),
                last: if lambda > 0.0 {
                    l.slots.iter().map(|s| s.last).collect()
                } else {
                    Vec::new()
                },
                rejected: l.rejected,
            };
            let bytes = postcard::to_allocvec(&saved).unwrap();
            assert_eq!(postcard::to_allocvec(&l).unwrap(), bytes);
            let back: BalAdagrad = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(back, l);
            // One counter too few (lambda > 0) or one where none belongs (lambda = 0).
            let mut bad = saved;
            if lambda > 0.0 {
                bad.last.pop();
            } else {
                bad.last.push(0);
            }
            let e = postcard::from_bytes::<BalAdagrad>(&postcard::to_allocvec(&bad).unwrap())
                .unwrap_err();
            assert!(matches!(e, postcard::Error::SerdeDeCustom), "{e:?}");
        }
    }

    /// The saved layout written out as plain derived fields, the reference for the hand-written
    /// `Serialize`.
    #[derive(Serialize)]
    struct SavedLayout {
        params: BalAdagradParams,
        counts: ClassCounts,
        coords: Vec<Coord>,
        last: Vec<u64>,
        rejected: u64,
    }

    #[test]
    fn growing_pads_with_zeros() {
        let x = SparseVec::from_pairs([(0, 1.0), (2, -0.5)]).unwrap();
        let p = BalAdagradParams {
            eta: 0.5,
            lambda: 0.01,
        };
        let (mut known, mut grown) = (p.build(6, 0).unwrap(), p.build(3, 0).unwrap());
        for y in [Pos, Neg, Neg] {
            known.update(Row::Sparse(x.view()), y);
            grown.update(Row::Sparse(x.view()), y);
        }
        grown.grow(6).unwrap();
        let z = SparseVec::from_pairs([(1, 1.0), (5, 1.0)]).unwrap();
        known.update(Row::Sparse(z.view()), Pos);
        grown.update(Row::Sparse(z.view()), Pos);
        assert_eq!(
            postcard::to_allocvec(&known).unwrap(),
            postcard::to_allocvec(&grown).unwrap()
        );
    }
}
