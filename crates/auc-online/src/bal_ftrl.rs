//! Balanced FTRL-Proximal: one pass of per-coordinate FTRL-Proximal \[FTRL13\] on the
//! class-balanced logistic loss of [`crate::BalAdagrad`], with the L1 and L2 terms in the closed
//! form of each weight, so a step costs $O(\mathrm{nnz}(x))$ with no catching up and the
//! regularization weighs against the *sum* of the losses seen, not their mean (issue 23;
//! derivation in `docs/math/bal-ftrl.md`).
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $t$, $n^+_t$ | `counts` | examples seen (this one included), and positives |
//! | $c_t$ | `c` | the example's class weight $t / (2 n^{y_t}_t)$, as in [`crate::BalAdagrad`] |
//! | $g_t$ | `g` | the gradient $-c_t\, y_t\, \sigma(-m_t)\, x_t$ of $c_t \ell(y_t w_t^\top x_t)$ |
//! | $n_{t,j}$ | `n` | $\sum_{s \le t} g_{s,j}^2$ |
//! | $z_{t,j}$ | `z` | $\sum_{s \le t} (g_{s,j} - \sigma_{s,j} w_{s,j})$ |
//! | $\sigma_{t,j}$ | `sigma` | $(\sqrt{n_{t,j}} - \sqrt{n_{t-1,j}}) / \alpha$ |
//! | $\alpha$, $\beta$ | `alpha`, `beta` | per-coordinate rate $\alpha / (\beta + \sqrt{n_j})$ |
//! | $\lambda_1$, $\lambda_2$ | `l1`, `l2` | L1 and L2 weights |
//!
//! # One step \[FTRL13\]
//!
//! The weight after step $t$ minimizes, coordinate by coordinate, the linearized losses so far
//! plus a proximal term centred on each past iterate and the two regularizers:
//! $$w_{t+1,j} = \arg\min_v\; \Bigl(\sum_{s \le t} g_{s,j}\Bigr) v +
//! \sum_{s \le t} \frac{\sigma_{s,j}}{2} (v - w_{s,j})^2 + \frac{\beta}{2\alpha} v^2 +
//! \lambda_1 |v| + \frac{\lambda_2}{2} v^2,$$
//! whose solution is a soft threshold of $z_{t,j}$:
//! $$w_{t+1,j} = \begin{cases} 0 & |z_{t,j}| \le \lambda_1, \\
//! \dfrac{\operatorname{sgn}(z_{t,j})\lambda_1 - z_{t,j}}{(\beta + \sqrt{n_{t,j}})/\alpha + \lambda_2}
//! & \text{otherwise,} \end{cases}$$
//! since $\sum_{s \le t} \sigma_{s,j} = \sqrt{n_{t,j}} / \alpha$ telescopes. A feature off the row
//! has $g_{t,j} = 0$, so $\sigma_{t,j} = 0$ and neither $z_j$ nor $n_j$ nor $w_j$ moves: the step
//! touches the row's features only, with nothing to catch up ([`Linear::SPARSE_STEPS`]).
//! `tests` solves the argmin from the whole history of every coordinate and compares.
//!
//! **The intercept.** The margin is $y_t (w^\top x_t + b)$, with $b$ a coordinate of value 1 on
//! every row stepped the same way but with $\lambda_1 = \lambda_2 = 0$ (Vowpal Wabbit's constant
//! feature): it carries the classes' base rate, so that a feature seen for the first time need
//! not. A constant ranks nothing, so scores are $w^\top x$ alone ([`BalFtrl::intercept`]).
//!
//! The regularizers enter once, against $\sum_s c_s \ell_s$: on a long stream they weigh less
//! and less against the data, where [`crate::BalAdagrad`]'s proximal step shrinks every weight
//! at every step, so its $\lambda$ weighs against the mean loss and its best value depends on the
//! stream's length (`docs/math/bal-adagrad.md` section 4).
//!
//! Memory: $(z_j, n_j)$ and $w_j$, $24p$ bytes; $w$ is stored (it is the closed form of
//! $z_j$ and $n_j$, recomputed when they change) so scores and averaging read it directly.
//!
//! Numerical safety: a NaN margin takes no step and is counted; a coordinate whose gradient,
//! accumulator or $z$ would stop being finite keeps its state and is counted.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, SavedState, Scorer, StateError, check,
};
use serde::{Deserialize, Serialize};

use crate::bal_adagrad::{ClassCounts, logistic};
use crate::{Linear, WeightsCache, check_dense_len, linear_divergence};

/// Parameters of [`BalFtrl`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BalFtrlParams {
    /// Rate scale $\alpha > 0$: feature $j$'s rate is $\alpha / (\beta + \sqrt{n_j})$.
    pub alpha: f64,
    /// Rate smoothing $\beta \ge 0$: keeps a feature's first steps in proportion to its
    /// gradient rather than of size $\alpha$.
    pub beta: f64,
    /// L1 weight $\lambda_1 \ge 0$ (weights with $|z_j| \le \lambda_1$ are exactly 0).
    pub l1: f64,
    /// L2 weight $\lambda_2 \ge 0$.
    pub l2: f64,
}

impl Default for BalFtrlParams {
    /// $\alpha = 2^{-2}$, $\beta = 1$, $\lambda_1 = 2^{-2}$, $\lambda_2 = 0$: the point the defaults
    /// rule fixed before the measurements (`docs/math/bal-ftrl.md` section 4) chooses on the 19
    /// data sets of `docs/results/linear.md`, 135 grid points (`docs/results/defaults.md`: mean
    /// AUC 85.00 %, mean rank 47.3 of 135, beaten on 12 of 19 sets, leave-one-set-out regret 0.72
    /// points median, 4.45 worst on svmguide1). $\beta$ is not searched (the usual 1 of \[FTRL13\]).
    fn default() -> Self {
        Self {
            alpha: 0.25,
            beta: 1.0,
            l1: 0.25,
            l2: 0.0,
        }
    }
}

impl Params for BalFtrlParams {
    const NAME: &'static str = "bal-ftrl";
    const ALIASES: &'static [&'static str] = &["balanced-ftrl", "ftrl"];
    const TITLE: &'static str = "Balanced FTRL-Proximal";
    const ABOUT: &'static str = "Per-coordinate FTRL-Proximal [FTRL13] on the class-balanced logistic loss, a univariate AUC surrogate [KDH11]; L1/L2 in closed form, O(nnz) per step";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "alpha",
            Range::Positive,
            "rate scale alpha > 0: feature j's rate is alpha / (beta + sqrt(n_j)) [FTRL13]",
        ),
        ParamSpec::real(
            "beta",
            Range::NonNegative,
            "rate smoothing beta >= 0 in alpha / (beta + sqrt(n_j)) [FTRL13]",
        ),
        ParamSpec::real(
            "l1",
            Range::NonNegative,
            "L1 weight lambda1 >= 0 (exact zeros where |z_j| <= lambda1) [FTRL13]",
        ),
        ParamSpec::real(
            "l2",
            Range::NonNegative,
            "L2 weight lambda2 >= 0, against the sum of the losses seen [FTRL13]",
        ),
    ];
    const GRID: &'static [&'static str] = &["alpha=2^-6..2^2", "l1=0,2^-2,1", "l2=0,2^-2,1,4,16"];
}

impl OnlineParams for BalFtrlParams {
    type Learner = BalFtrl;

    fn build(&self, dim: usize, _seed: u64) -> Result<BalFtrl, ParamError> {
        self.check()?;
        Ok(BalFtrl {
            params: self.clone(),
            counts: ClassCounts::default(),
            coords: vec![Coord::default(); dim],
            bias: Coord::default(),
            rejected: 0,
            cache: WeightsCache::default(),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        // (w, z, n) in 32 bytes, the weights materialized when asked (the intercept's slot is
        // in the constant part).
        40 * dim as u64
    }
}

/// One feature's FTRL state and weight, aligned to 32 bytes so that one cache line holds all of
/// it: a step misses the cache once per feature of the row (the margin's read of $w_j$ brings
/// $z_j$ and $n_j$ along).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[repr(C, align(32))]
struct Coord {
    /// $w_j$, the closed form of $z_j$ and $n_j$ (checked on load).
    w: f64,
    /// $z_j$.
    z: f64,
    /// $n_j$.
    n: f64,
}

/// One pass of per-coordinate FTRL-Proximal on the class-balanced logistic loss (module docs): on
/// $(x_t, y_t)$, $c_t = t / (2 n^{y_t}_t)$, $g_t = -c_t y_t \sigma(-y_t w_t^\top x_t)\, x_t$, and
/// for the row's features
/// $$\sigma_j = \frac{\sqrt{n_j + g_j^2} - \sqrt{n_j}}{\alpha},\quad z_j \mathrel{+}= g_j - \sigma_j w_j,
/// \quad n_j \mathrel{+}= g_j^2,\quad
/// w_j = -\frac{z_j - \operatorname{sgn}(z_j)\lambda_1}{(\beta + \sqrt{n_j})/\alpha + \lambda_2}
/// \ (0 \text{ if } |z_j| \le \lambda_1),$$
/// in $O(\mathrm{nnz}(x_t))$. Scores with the current weights, $f(x) = w^\top x$.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalFtrl {
    params: BalFtrlParams,
    /// Examples and positives seen.
    counts: ClassCounts,
    /// $(w_j, z_j, n_j)$ per feature.
    coords: Vec<Coord>,
    /// The intercept $(b, z_0, n_0)$: a feature that is 1 on every row, with no L1 or L2 (in
    /// the margin, not in the scores).
    bias: Coord,
    /// Steps refused because the margin was NaN, and coordinates whose update overflowed.
    rejected: u64,
    /// The weights materialized, filled on the first [`Linear::weights`] call after an update.
    #[serde(skip)]
    cache: WeightsCache,
}

/// The closed-form weight of a coordinate with sum `z`, $\sqrt{n}$ = `sqrt_n`, L1 weight `l1`
/// and L2 weight `l2` (the parameters' for a feature, 0 for the intercept; module docs).
#[inline]
fn closed_form(p: &BalFtrlParams, l1: f64, l2: f64, z: f64, sqrt_n: f64) -> f64 {
    if z.abs() <= l1 {
        0.0
    } else {
        -(z - l1.copysign(z)) / ((p.beta + sqrt_n) / p.alpha + l2)
    }
}

/// One FTRL-Proximal step on a coordinate `c` with gradient `g` and regularizers `l1`, `l2`:
/// its new state and weight, or `None` when a value would stop being finite (the coordinate
/// then keeps its state).
#[inline]
fn stepped(p: &BalFtrlParams, l1: f64, l2: f64, c: Coord, g: f64) -> Option<Coord> {
    let n = c.n + g * g;
    let sqrt_n = n.sqrt();
    // [FTRL13]: sigma = (sqrt(n + g^2) - sqrt(n)) / alpha, z += g - sigma w.
    let z = c.z + (g - (sqrt_n - c.n.sqrt()) / p.alpha * c.w);
    (g.is_finite() && n.is_finite() && z.is_finite()).then(|| Coord {
        w: closed_form(p, l1, l2, z, sqrt_n),
        z,
        n,
    })
}

impl BalFtrl {
    /// Examples seen.
    pub fn steps(&self) -> u64 {
        self.counts.steps()
    }

    /// The running positive rate $n^+_t / t$ (0 before any example).
    pub fn positive_rate(&self) -> f64 {
        self.counts.positive_rate()
    }

    /// The accumulators $n_j$, one per feature.
    pub fn accumulators(&self) -> Vec<f64> {
        self.coords.iter().map(|c| c.n).collect()
    }

    /// The intercept $b$ of the margin $y(w^\top x + b)$ the steps take (not in the scores:
    /// a constant ranks nothing).
    pub fn intercept(&self) -> f64 {
        self.bias.w
    }

    /// The sums $z_j$, one per feature.
    pub fn sums(&self) -> Vec<f64> {
        self.coords.iter().map(|c| c.z).collect()
    }
}

impl Linear for BalFtrl {
    const SPARSE_STEPS: bool = true;

    fn dim(&self) -> usize {
        self.coords.len()
    }

    fn weights(&self) -> &[f64] {
        self.cache
            .0
            .get_or_init(|| self.coords.iter().map(|c| c.w).collect())
    }

    #[inline]
    fn weight(&self, j: usize) -> f64 {
        self.coords[j].w
    }
}

impl Scorer for BalFtrl {
    /// $w^\top x$ over the row's stored features, $O(\mathrm{nnz}(x))$.
    fn score(&self, x: Row<'_>) -> f64 {
        check_dense_len(x, self.coords.len());
        let mut s = 0.0;
        x.for_each(|j, xj| s += xj * self.coords[j].w);
        s
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(self.weights(), None, self.rejected)
    }
}

impl OnlineLearner for BalFtrl {
    fn prefetch(&self, x: Row<'_>) {
        crate::prefetch_rows_features(x, &self.coords);
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        let c = self.counts.weigh(y);
        let yv = y.sign();
        self.cache = WeightsCache::default();
        let m = yv * (self.score(x) + self.bias.w);
        if m.is_nan() {
            self.rejected += 1;
            return;
        }
        // g_t = a x_t with a = c_t y_t l'(m_t), l'(m) = -sigma(-m).
        let a = c * yv * logistic(m).1;
        let p = &self.params;
        let mut overflowed = 0u64;
        // The intercept: a feature of value 1 (so its gradient is a), with no L1 or L2.
        match stepped(p, 0.0, 0.0, self.bias, a) {
            Some(b) => self.bias = b,
            None => overflowed += 1,
        }
        let coords = &mut self.coords;
        x.for_each(|j, xj| match stepped(p, p.l1, p.l2, coords[j], a * xj) {
            Some(cj) => coords[j] = cj,
            None => overflowed += 1,
        });
        self.rejected += overflowed;
    }

    /// Pads the state with zeros: a feature that has been zero throughout has $z_j = n_j = 0$
    /// and weight 0.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        if dim > self.coords.len() {
            self.coords.resize(dim, Coord::default());
            self.cache = WeightsCache::default();
        }
        Ok(())
    }
}

impl SavedState for BalFtrl {
    const STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        self.params.check()?;
        self.counts.validate()?;
        let p = &self.params;
        check::state(
            self.coords
                .iter()
                .chain([&self.bias])
                .all(|c| c.z.is_finite() && c.n.is_finite() && c.n >= 0.0),
            || "a sum or accumulator is not finite, or an accumulator is negative".to_owned(),
        )?;
        // The weights are a function of (z, n): the same bits, or the state was altered.
        let closed = |c: &Coord, l1: f64, l2: f64| {
            closed_form(p, l1, l2, c.z, c.n.sqrt()).to_bits() == c.w.to_bits()
        };
        check::state(
            self.coords.iter().all(|c| closed(c, p.l1, p.l2)) && closed(&self.bias, 0.0, 0.0),
            || "a weight is not the closed form of its sum and accumulator".to_owned(),
        )
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Bit-for-bit comparisons of resumed states are the point.
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::SparseVec;
    use auc_core::testing::{sparse_row, tol};
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The argmin of the module docs solved from the whole history, for every coordinate every
    /// step (dense over all $p$): per coordinate the objective is
    /// $G v + \sum_s \frac{\sigma_s}{2}(v - w_s)^2 + \frac{\beta/\alpha + \lambda_2}{2} v^2 + \lambda_1 |v|$,
    /// minimized by soft-thresholding $b = G - \sum_s \sigma_s w_s$ against
    /// $a = \sum_s \sigma_s + \beta/\alpha + \lambda_2$: $v = -\mathrm{soft}(b, \lambda_1) / a$.
    /// The sums are taken afresh from the history, in a different order from the learner's
    /// running ones, so the two agree to rounding.
    /// The intercept is one more coordinate, of value 1 on every row, with no L1 or L2; the
    /// returned rows are the $p$ weights followed by it.
    fn from_history(p: &BalFtrlParams, dim: usize, rows: &[(SparseVec, Label)]) -> Vec<Vec<f64>> {
        // history[j]: (g_s, sigma_s, w_s) of every step s, the off-row steps included (g = 0);
        // history[dim] is the intercept's.
        let mut history: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); dim + 1];
        let mut w = vec![0.0; dim + 1];
        let (mut t, mut n_pos) = (0u64, 0u64);
        let mut out = Vec::new();
        for (x, y) in rows {
            t += 1;
            if y.is_pos() {
                n_pos += 1;
            }
            let n_y = if y.is_pos() { n_pos } else { t - n_pos };
            let c = t as f64 / (2.0 * n_y as f64);
            let m = y.sign() * (Row::Sparse(x.view()).dot(&w[..dim]) + w[dim]);
            let a = c * y.sign() * logistic(m).1;
            let mut next = vec![0.0; dim + 1];
            for j in 0..=dim {
                let (g, l1, l2) = if j == dim {
                    (a, 0.0, 0.0)
                } else {
                    (a * Row::Sparse(x.view()).get(j), p.l1, p.l2)
                };
                let n_before: f64 = history[j].iter().map(|h| h.0 * h.0).sum();
                let sigma = ((n_before + g * g).sqrt() - n_before.sqrt()) / p.alpha;
                history[j].push((g, sigma, w[j]));
                let g_sum: f64 = history[j].iter().map(|h| h.0).sum();
                let sigma_sum: f64 = history[j].iter().map(|h| h.1).sum();
                let pull: f64 = history[j].iter().map(|h| h.1 * h.2).sum();
                let b = g_sum - pull;
                let curvature = sigma_sum + p.beta / p.alpha + l2;
                next[j] = if b.abs() <= l1 {
                    0.0
                } else {
                    -(b - l1 * b.signum()) / curvature
                };
            }
            w = next;
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
            1..100,
        )
    }

    fn params() -> impl Strategy<Value = BalFtrlParams> {
        (
            0.01f64..2.0,
            prop_oneof![Just(0.0), 0.1f64..2.0],
            prop_oneof![Just(0.0), 1e-3f64..0.5],
            prop_oneof![Just(0.0), 1e-3f64..4.0],
        )
            .prop_map(|(alpha, beta, l1, l2)| BalFtrlParams {
                alpha,
                beta,
                l1,
                l2,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The learner's running $z$ and $n$ give the argmin solved from the whole history, on
        /// every coordinate and the intercept after every step (off-row ones included: they
        /// must not move). The
        /// sum of $\sigma_s$ telescopes to $\sqrt{n}/\alpha$ in the learner and is summed term by
        /// term here: $10^{-9}$ of the largest weight (at most 100 steps of rounding).
        #[test]
        fn closed_form_steps_equal_the_argmin_of_the_history(rows in stream(12, 5), p in params()) {
            let dim = 12;
            let want = from_history(&p, dim, &rows);
            let mut l = p.build(dim, 0).unwrap();
            for ((x, y), w) in rows.iter().zip(&want) {
                l.update(Row::Sparse(x.view()), *y);
                let scale = w.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                let b = l.intercept();
                let got = l.weights().iter().chain([&b]);
                for (j, (a, b)) in got.zip(w).enumerate() {
                    prop_assert!(
                        (a - b).abs() <= 1e-9 * scale,
                        "feature {j}: running {a}, from the history {b}"
                    );
                }
            }
        }

        /// A state saved halfway resumes bit for bit, and validates.
        #[test]
        fn saved_states_resume_exactly(rows in stream(20, 5), p in params()) {
            let mut a = p.build(20, 0).unwrap();
            let half = rows.len() / 2;
            for (x, y) in &rows[..half] {
                a.update(Row::Sparse(x.view()), *y);
            }
            let mut b: BalFtrl = postcard::from_bytes(&postcard::to_allocvec(&a).unwrap()).unwrap();
            prop_assert!(b.validate().is_ok());
            for (x, y) in &rows[half..] {
                a.update(Row::Sparse(x.view()), *y);
                b.update(Row::Sparse(x.view()), *y);
            }
            prop_assert_eq!(postcard::to_allocvec(&a).unwrap(), postcard::to_allocvec(&b).unwrap());
        }

        /// Growing the dimension midway is the same as starting with it.
        #[test]
        fn growing_is_padding(rows in stream(10, 4), p in params()) {
            let (mut a, mut b) = (p.build(10, 0).unwrap(), p.build(4, 0).unwrap());
            b.grow(10).unwrap();
            for (x, y) in &rows {
                a.update(Row::Sparse(x.view()), *y);
                b.update(Row::Sparse(x.view()), *y);
            }
            prop_assert_eq!(a, b);
        }

        /// The closed form minimizes its coordinate's objective: no nearby value does better.
        #[test]
        fn the_closed_form_is_the_minimizer(
            z in -5.0f64..5.0,
            n in 0.0f64..10.0,
            p in params(),
        ) {
            let w = closed_form(&p, p.l1, p.l2, z, n.sqrt());
            let a = (p.beta + n.sqrt()) / p.alpha + p.l2;
            let objective = |v: f64| z * v + a / 2.0 * v * v + p.l1 * v.abs();
            for d in [1e-3, -1e-3, 1e-6, -1e-6] {
                prop_assert!(objective(w) <= objective(w + d) + 1e-12, "w {w}, d {d}");
            }
        }
    }

    #[test]
    fn first_steps_by_hand() {
        // alpha 1/2, beta 1, no regularization. Step 1: x = (1, 0)+, c = 1/2, m = 0,
        // g = (-1/4, 0), n = 1/16, sigma = (1/4 - 0) / (1/2) = 1/2, z = -1/4 - 1/2 * 0,
        // w = 1/4 / ((1 + 1/4) / (1/2)) = 1/4 / (5/2) = 1/10.
        let p = BalFtrlParams {
            alpha: 0.5,
            beta: 1.0,
            l1: 0.0,
            l2: 0.0,
        };
        let mut l = p.build(2, 0).unwrap();
        l.update(Row::Dense(&[1.0, 0.0]), Pos);
        assert!(tol::close(l.weights()[0], 0.1));
        assert_eq!(l.weights()[1], 0.0);
        assert_eq!(l.accumulators(), vec![1.0 / 16.0, 0.0]);
        // The intercept took the same step (its feature is 1): b = 1/10 too, and the score of
        // (1, 0) is w_0 alone (a constant ranks nothing).
        assert!(tol::close(l.intercept(), 0.1));
        assert_eq!(l.score(Row::Dense(&[1.0, 0.0])), l.weights()[0]);
        // An L1 of 1/4 holds |z| = 1/4 at exactly 0.
        let mut l = BalFtrlParams { l1: 0.25, ..p }.build(2, 0).unwrap();
        l.update(Row::Dense(&[1.0, 0.0]), Pos);
        assert_eq!(l.weights(), &[0.0, 0.0]);
        assert_eq!(l.sums()[0], -0.25);
    }

    /// The regularization does not grow with the stream: a feature seen once keeps its weight
    /// however many rows pass without it (the contrast with `bal-adagrad`'s per-step shrinkage).
    #[test]
    fn untouched_weights_keep_their_value() {
        let mut l = BalFtrlParams::default().build(2, 0).unwrap();
        l.update(Row::Dense(&[1.0, 0.0]), Pos);
        let w = l.weights()[0];
        let x = SparseVec::from_pairs([(1, 1.0)]).unwrap();
        for i in 0..1000 {
            l.update(Row::Sparse(x.view()), if i % 10 == 0 { Pos } else { Neg });
        }
        assert_eq!(l.weights()[0], w);
        assert_eq!(l.score(Row::Dense(&[1.0, 0.0])), w);
    }

    /// On a dense problem the learner ranks well and tracks the positive rate.
    #[test]
    fn a_separable_imbalanced_stream_is_ranked() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut l = BalFtrlParams::default().build(3, 0).unwrap();
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
        let mut good = 0.0;
        let mut pairs = 0.0;
        for a in test.iter().filter(|t| t.1) {
            for b in test.iter().filter(|t| !t.1) {
                pairs += 1.0;
                good += if a.0 > b.0 {
                    1.0
                } else if a.0 == b.0 {
                    0.5
                } else {
                    0.0
                };
            }
        }
        assert!(good / pairs > 0.98, "AUC {}", good / pairs);
        assert!((l.positive_rate() - 0.1).abs() < 0.03);
    }

    #[test]
    fn huge_features_keep_the_state_finite_and_report_it() {
        let mut l = BalFtrlParams::default().build(2, 0).unwrap();
        for _ in 0..4 {
            l.update(Row::Dense(&[1e308, -1e308]), Pos);
            l.update(Row::Dense(&[-1e308, 1e308]), Neg);
        }
        assert!(l.weights().iter().all(|w| w.is_finite()));
        assert!(l.validate().is_ok());
        assert!(l.score(Row::Dense(&[1.0, 1.0])).is_finite());
        assert!(l.divergence().is_some());
    }

    #[test]
    fn params_and_states_are_checked() {
        let bad = |p: BalFtrlParams| p.build(3, 0).is_err();
        let d = BalFtrlParams::default();
        assert!(bad(BalFtrlParams { alpha: 0.0, ..d }));
        assert!(bad(BalFtrlParams { beta: -1.0, ..d }));
        assert!(bad(BalFtrlParams { l1: -1.0, ..d }));
        assert!(bad(BalFtrlParams { l2: f64::NAN, ..d }));
        let mut good = d.build(3, 0).unwrap();
        good.update(Row::Dense(&[1.0, 0.5, 0.0]), Pos);
        assert!(good.validate().is_ok());
        let mut altered = good.clone();
        altered.coords[0].w += 1.0;
        assert!(altered.validate().is_err());
        let mut altered = good.clone();
        altered.coords[1].n = -1.0;
        assert!(altered.validate().is_err());
        let mut altered = good.clone();
        altered.bias.w += 1.0;
        assert!(altered.validate().is_err());
        let mut altered = good;
        altered.counts.n_pos = 5;
        assert!(altered.validate().is_err());
    }
}
