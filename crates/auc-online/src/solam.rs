//! SOLAM, stochastic online AUC maximization [SOLAM16, alg. 1]: stochastic gradient descent and
//! ascent on a saddle-point form of the square-loss AUC risk, with weighted averaged output.
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $w$, $a$, $b$ | `s * v`, `a`, `b` | primal variables: weights, and the score means of the two classes |
//! | $\alpha$ | `alpha` | dual variable |
//! | $v = (w, a, b)$ | | the primal block |
//! | $\hat p_t$ | `p` | running positive rate, $\hat p_t = \frac1t \sum_{s \le t} [y_s = 1]$ |
//! | $\gamma_t$ | `gamma` | step size $\eta / \sqrt t$ |
//! | $\eta$ | `eta` | step scale (SOLAM16 writes it $\zeta$) |
//! | $R$ | `r` | radius of the ball $\lVert w \rVert \le R$ |
//! | $\kappa$ | `kappa` | bound on $\lVert x \rVert$ (here: the largest norm seen so far) |
//! | $\bar w_t$ | `weights()` | averaged output $\sum_{j \le t} \gamma_j w_j / \sum_{j \le t} \gamma_j$ |
//!
//! # The saddle-point problem
//!
//! With $p = \Pr(y = 1)$, the square-loss AUC risk
//! $\mathbb E[(1 - w^\top (x - x'))^2 \mid y = 1, y' = -1]$ equals, up to the factor
//! $p(1-p)$ and an additive constant, $\min_{w, a, b} \max_\alpha \mathbb E[F(w, a, b, \alpha; z)]$
//! with [SOLAM16, thm. 1]
//! $$\begin{aligned} F(w, a, b, \alpha; z) ={}& (1-p)(w^\top x - a)^2 [y = 1] + p (w^\top x - b)^2 [y = -1] \\
//! &+ 2(1 + \alpha)\bigl(p\, w^\top x [y = -1] - (1-p)\, w^\top x [y = 1]\bigr) - p(1-p)\alpha^2 .
//! \end{aligned}$$
//! (At the saddle point $a$ and $b$ are the class means of $w^\top x$ and
//! $\alpha = b - a$.) The feasible sets are
//! $\Omega_1 = \{\lVert w \rVert \le R,\ |a| \le \kappa R,\ |b| \le \kappa R\}$ and
//! $\Omega_2 = \{|\alpha| \le 2 \kappa R\}$ with $\kappa \ge \sup \lVert x \rVert$.
//!
//! # One step [SOLAM16, alg. 1]
//!
//! On $z_t = (x_t, y_t)$: $\hat p_t = \frac{t-1}{t} \hat p_{t-1} + \frac1t [y_t = 1]$,
//! $\gamma_t = \eta / \sqrt t$, and with every partial derivative of $F$ (taken with
//! $p = \hat p_t$) at $(v_t, \alpha_t)$,
//! $$v_{t+1} = P_{\Omega_1}\bigl(v_t - \gamma_t \partial_v F(v_t, \alpha_t; z_t)\bigr), \qquad
//! \alpha_{t+1} = P_{\Omega_2}\bigl(\alpha_t + \gamma_t \partial_\alpha F(v_t, \alpha_t; z_t)\bigr),$$
//! $$\bar v_t = \frac{\sum_{j=1}^t \gamma_j v_j}{\sum_{j=1}^t \gamma_j}.$$
//! $\Omega_1$ is a product, so $P_{\Omega_1}$ scales $w$ back onto the ball and clamps $a$ and
//! $b$. The derivatives are, for $y_t = 1$ (with $q = 1 - \hat p_t$, $s = w^\top x_t$)
//! $\partial_w F = 2q(s - a - 1 - \alpha)\, x_t$, $\partial_a F = -2q(s - a)$, $\partial_b F = 0$,
//! $\partial_\alpha F = -2q s - 2\hat p_t q \alpha$; and for $y_t = -1$
//! $\partial_w F = 2\hat p_t(s - b + 1 + \alpha)\, x_t$, $\partial_a F = 0$,
//! $\partial_b F = -2\hat p_t(s - b)$, $\partial_\alpha F = 2 \hat p_t s - 2\hat p_t q \alpha$.
//! The learner starts from $v_1 = 0$, $\alpha_1 = 0$, scores with $\bar w_t$ (the $w$ block of
//! $\bar v_t$), and keeps no average of $a$, $b$, $\alpha$, which scoring does not use.
//!
//! Note on the numbering: the theorem and algorithm numbers are those of the NeurIPS 2016
//! version as we recall it; the equations above are written out in full so that they can be
//! checked without the numbers. The average after $t$ examples includes $v_1, \dots, v_t$, the
//! points at which gradients were taken, not $v_{t+1}$; so after one example $\bar w_1 = w_1 = 0$.
//!
//! Deviation: [SOLAM16] assumes a known $\kappa \ge \sup \lVert x \rVert$. A stream does not know
//! it, so $\kappa_t = \max_{s \le t} \lVert x_s \rVert$ is used, a bound on every example seen so
//! far that grows to the true supremum. The test `boxes_use_the_largest_norm_seen` checks that
//! $a$, $b$, $\alpha$ stay in the boxes of the running $\kappa$.
//!
//! # Cost
//!
//! $w$ is stored as $s \cdot v$ (a scalar times a vector). The gradient step touches only the
//! stored entries of $x_t$; the projection onto the ball multiplies the scalar; $\lVert v \rVert^2$
//! is kept up to date entry by entry and recomputed exactly after as many touched entries as the
//! learner's *reach*, one past the largest feature a step has moved (every entry of $v$ and $u$
//! from the reach on is zero, so the recomputation and the fold below read only that prefix). The
//! reach depends on the rows alone, not on the dimension the learner was built with, so a learner
//! grown feature by feature as a one-pass read meets them (`auc_stream::ReadOnce`) takes the same
//! steps, to the last bit, as one built with the file's whole dimension. The
//! weighted sum $U_t = \sum_{j \le t} \gamma_j w_j$ is kept lazily as $U = u + \beta v$: adding
//! $\gamma_t w_t$ is $\beta \mathrel{+}= \gamma_t s$, and changing $v_j$ by $\delta$ subtracts
//! $\beta \delta$ from $u_j$. So a step costs $O(\mathrm{nnz}(x_t))$ for a sparse row and $O(p)$
//! for a dense one, plus an $O(p)$ fold when $s$ falls below $10^{-4}$ (see below).
//!
//! Deviation (numerical, same iterates up to rounding): as $s$ shrinks, $\beta v$ and $u$ grow
//! like $1/s$ while their sum $U$ does not, so digits cancel. When $s < 10^{-4}$ the state is
//! folded: $u \leftarrow u + \beta v$, $v \leftarrow s v$, $s \leftarrow 1$, $\beta \leftarrow 0$,
//! which bounds the cancellation to about four digits. The test
//! `many_projections_keep_the_average_accurate` compares against a direct dense computation.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, SavedState, Scorer, StateError, check,
};
use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::moment_layout::{push_varint, varint};
use crate::{Linear, WeightsCache, linear_divergence};

/// Fold $w = s v$ back to $s = 1$ when $s$ falls below this (see the module docs).
const S_MIN: f64 = 1e-4;

/// Parameters of [`Solam`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SolamParams {
    /// Step scale $\eta > 0$: step $t$ has size $\gamma_t = \eta / \sqrt t$ [SOLAM16, alg. 1].
    pub eta: f64,
    /// Radius $R > 0$ of the feasible ball $\lVert w \rVert \le R$ [SOLAM16, thm. 1].
    pub r: f64,
}

impl Default for SolamParams {
    /// $\eta = 1$, $R = 1$: [SOLAM16, sec. 4] tunes both by cross-validation and recommends no
    /// value; this point has the best mean rank (5.5 of 33) across the 19 data sets of
    /// `docs/results/linear.md` (`docs/results/defaults.md`: mean AUC 84.55 %, leave-one-set-out
    /// regret 0.07 points median, 1.17 worst on dna).
    fn default() -> Self {
        Self { eta: 1.0, r: 1.0 }
    }
}

impl Params for SolamParams {
    const NAME: &'static str = "solam";
    const TITLE: &'static str = "SOLAM";
    const ABOUT: &'static str = "SOLAM [SOLAM16]: stochastic saddle-point square-loss AUC, O(nnz) per step, averaged output";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::real(
            "eta",
            Range::Positive,
            "step scale eta > 0, step t is eta/sqrt(t) [SOLAM16]; tuned in [1, 100] there",
        ),
        ParamSpec::real(
            "r",
            Range::Positive,
            "radius R > 0 of the ball ||w|| <= R [SOLAM16]; tuned in 10^[-1..5] there",
        ),
    ];
    const GRID: &'static [&'static str] = &["eta=2^-10..2^10:2", "r=1,10,100"];
    const PAPER_GRID: &'static [&'static str] = &["eta=2^-10..2^10", "r=1,10,100"];
}

impl OnlineParams for SolamParams {
    type Learner = Solam;

    fn build(&self, dim: usize, _seed: u64) -> Result<Solam, ParamError> {
        self.check()?;
        Ok(Solam {
            eta: self.eta,
            r: self.r,
            t: 0,
            n_pos: 0,
            kappa: 0.0,
            s: 1.0,
            v: vec![0.0; dim],
            v_norm_sq: 0.0,
            touched: 0,
            reach: 0,
            a: 0.0,
            b: 0.0,
            alpha: 0.0,
            u: vec![0.0; dim],
            beta: 0.0,
            gamma_sum: 0.0,
            rejected: 0,
            cache: WeightsCache::default(),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        // v, u and the materialized average.
        24 * dim as u64
    }
}

/// Stochastic online AUC maximization [SOLAM16, alg. 1]: stochastic descent in $v = (w, a, b)$ and
/// ascent in $\alpha$ on the saddle function [SOLAM16, thm. 1]
/// $$F = (1-p)(w^\top x - a)^2 [y = 1] + p (w^\top x - b)^2 [y = -1] +
/// 2(1 + \alpha)\bigl(p\, w^\top x [y = -1] - (1-p)\, w^\top x [y = 1]\bigr) - p(1-p)\alpha^2,$$
/// with $p = \hat p_t$ the running positive rate and step $\gamma_t = \eta / \sqrt t$:
/// $$v_{t+1} = P_{\Omega_1}\bigl(v_t - \gamma_t \partial_v F\bigr), \qquad
/// \alpha_{t+1} = P_{\Omega_2}\bigl(\alpha_t + \gamma_t \partial_\alpha F\bigr),$$
/// $\Omega_1 = \{\lVert w \rVert \le R, |a|, |b| \le \kappa R\}$, $\Omega_2 = \{|\alpha| \le 2\kappa R\}$,
/// with $\kappa$ the largest $\lVert x \rVert$ seen so far (a deviation: the paper assumes it
/// known). The partial derivatives, the cost ($O(\mathrm{nnz}(x))$ per step with $w = s v$ and a
/// lazy average) and the numerical safeguards are written out in the source's module docs.
///
/// Scores with the averaged weights
/// $$\bar w_t = \frac{\sum_{j=1}^t \gamma_j w_j}{\sum_{j=1}^t \gamma_j}, \qquad
/// f(x) = \bar w_t^\top x,$$
/// and before any update with $w_1 = 0$.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solam {
    eta: f64,
    r: f64,
    /// Examples seen.
    t: u64,
    /// Positives seen.
    n_pos: u64,
    /// Largest $\lVert x \rVert$ seen.
    kappa: f64,
    /// $w = s v$.
    s: f64,
    v: Vec<f64>,
    /// $\lVert v \rVert^2$, kept entry by entry.
    v_norm_sq: f64,
    /// Entries changed since `v_norm_sq` was last recomputed exactly.
    touched: usize,
    /// One past the largest feature a step has changed: `v` and `u` are zero from here on, and
    /// `v_norm_sq` is recomputed after this many touched entries (state version 2; version 1
    /// recomputed after `v.len()`, the value its files read with).
    reach: usize,
    a: f64,
    b: f64,
    alpha: f64,
    /// $\sum_j \gamma_j w_j = u + \beta v$.
    u: Vec<f64>,
    beta: f64,
    /// $\sum_j \gamma_j$.
    gamma_sum: f64,
    /// Steps refused because a value would not be finite (features too large unscaled).
    rejected: u64,
    /// The materialized $\bar w$, filled on the first [`Linear::weights`] call after an update.
    #[serde(skip)]
    cache: WeightsCache,
}

impl Solam {
    /// The current (last) iterate $w_{t+1}$, the point the next gradient is taken at, written
    /// into `out` (length $p$).
    pub fn last_iterate(&self, out: &mut [f64]) {
        for (o, v) in out.iter_mut().zip(&self.v) {
            *o = self.s * v;
        }
    }

    /// The scalars $(a, b, \alpha)$ of the current iterate.
    pub fn scalars(&self) -> (f64, f64, f64) {
        (self.a, self.b, self.alpha)
    }

    /// The running positive rate $\hat p_t$ (0 before any example).
    pub fn positive_rate(&self) -> f64 {
        if self.t == 0 {
            0.0
        } else {
            self.n_pos as f64 / self.t as f64
        }
    }

    /// $\kappa_t$, the largest $\lVert x_s \rVert$ seen, which sets the boxes of $a, b, \alpha$.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    fn recompute_norm(&mut self) {
        self.v_norm_sq = self.v[..self.reach].iter().map(|v| v * v).sum();
        self.touched = 0;
    }

    /// $u \leftarrow u + \beta v$, $v \leftarrow s v$, $s \leftarrow 1$, $\beta \leftarrow 0$:
    /// the same $w$ and $U$, without the cancellation a small $s$ brings.
    fn fold(&mut self) {
        let reach = self.reach;
        for (u, v) in self.u[..reach].iter_mut().zip(self.v[..reach].iter_mut()) {
            *u += self.beta * *v;
            *v *= self.s;
        }
        self.s = 1.0;
        self.beta = 0.0;
        self.recompute_norm();
    }
}

impl Linear for Solam {
    fn dim(&self) -> usize {
        self.v.len()
    }

    fn weights(&self) -> &[f64] {
        self.cache.0.get_or_init(|| {
            if self.gamma_sum > 0.0 {
                let inv = 1.0 / self.gamma_sum;
                self.u
                    .iter()
                    .zip(&self.v)
                    .map(|(u, v)| (u + self.beta * v) * inv)
                    .collect()
            } else {
                vec![0.0; self.v.len()]
            }
        })
    }
}

impl Scorer for Solam {
    /// $\bar w_t^\top x = (u^\top x + \beta\, v^\top x) / \sum_j \gamma_j$ in $O(\mathrm{nnz}(x))$;
    /// equal to `x.dot(self.weights())` up to rounding.
    fn score(&self, x: Row<'_>) -> f64 {
        if self.gamma_sum > 0.0 {
            (x.dot(&self.u) + self.beta * x.dot(&self.v)) / self.gamma_sum
        } else {
            0.0
        }
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(self.weights(), None, self.rejected)
    }
}

impl SavedState for Solam {
    /// Version 2 added `reach` after `touched`; a version 1 state reads with `reach = v.len()`,
    /// which keeps its recomputation schedule, so a resumed old learner steps as before.
    const STATE_VERSION: u32 = 2;
    const OLDEST_STATE_VERSION: u32 = 1;

    fn upgrade_layout(bytes: &[u8], version: u32) -> Result<Cow<'_, [u8]>, StateError> {
        if version >= 2 {
            return Ok(Cow::Borrowed(bytes));
        }
        // Version 1: eta, r (reals), t, n_pos (varints), kappa, s (reals), v (a vector of
        // reals), v_norm_sq (real), touched (varint), then the fields version 2 keeps after
        // `reach`.
        let short = || StateError::new("the SOLAM state (layout version 1) ends early");
        let mut at = 16;
        for _ in 0..2 {
            at += varint(bytes.get(at..).ok_or_else(short)?)
                .ok_or_else(short)?
                .1;
        }
        at += 16;
        let (len, width) = varint(bytes.get(at..).ok_or_else(short)?).ok_or_else(short)?;
        at = len
            .checked_mul(8)
            .and_then(|b| b.checked_add(at + width + 8))
            .ok_or_else(short)?;
        at += varint(bytes.get(at..).ok_or_else(short)?)
            .ok_or_else(short)?
            .1;
        if at > bytes.len() {
            return Err(short());
        }
        let mut out = Vec::with_capacity(bytes.len() + 10);
        out.extend_from_slice(&bytes[..at]);
        push_varint(&mut out, len);
        out.extend_from_slice(&bytes[at..]);
        Ok(Cow::Owned(out))
    }

    fn validate(&self) -> Result<(), StateError> {
        SolamParams {
            eta: self.eta,
            r: self.r,
        }
        .check()?;
        check::len("u", self.u.len(), self.v.len())?;
        check::state(self.reach <= self.v.len(), || {
            format!("reach {} past the {} features", self.reach, self.v.len())
        })?;
        check::state(
            self.v[self.reach..]
                .iter()
                .chain(&self.u[self.reach..])
                .all(|&x| x == 0.0),
            || "a weight past the reach is not zero".to_owned(),
        )?;
        check::finite("v", &self.v)?;
        check::finite("u", &self.u)?;
        let scalars = [
            self.kappa,
            self.s,
            self.v_norm_sq,
            self.a,
            self.b,
            self.alpha,
            self.beta,
            self.gamma_sum,
        ];
        check::finite("SOLAM scalars", &scalars)?;
        check::state(self.n_pos <= self.t, || {
            format!("{} positives of {} examples", self.n_pos, self.t)
        })?;
        check::state(
            self.s > 0.0 && self.kappa >= 0.0 && self.gamma_sum >= 0.0,
            || "scale, kappa and step sum must be positive".to_owned(),
        )
    }
}

/// $(v^\top x, \lVert x \rVert^2)$ as [`Row::dot_and_norm_sq`] computes them (the same sums in
/// the same order), reading $u_j$ beside $v_j$ for a sparse row: the step writes both, and
/// loading them together lets their cache misses overlap, where the step's own read of $u_j$
/// waited on each miss in turn (80 % of the step's samples on the 10^6-row wide stream).
#[inline]
fn dot_and_norm_sq_touching(x: Row<'_>, v: &[f64], u: &[f64]) -> (f64, f64) {
    match x {
        Row::Sparse(s) => {
            let (mut d, mut n, mut touch) = (0.0, 0.0, 0.0);
            for (&j, &xj) in s.indices().iter().zip(s.values()) {
                d += xj * v[j as usize];
                n += xj * xj;
                touch += u[j as usize];
            }
            std::hint::black_box(touch);
            (d, n)
        }
        Row::Dense(_) => x.dot_and_norm_sq(v),
    }
}

impl OnlineLearner for Solam {
    /// Starts loading the row's entries of $v$ and $u$.
    fn prefetch(&self, x: Row<'_>) {
        crate::prefetch_rows_features(x, &self.v);
        crate::prefetch_rows_features(x, &self.u);
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        self.cache = WeightsCache::default();
        self.t += 1;
        if y.is_pos() {
            self.n_pos += 1;
        }
        let t = self.t as f64;
        let p = self.n_pos as f64 / t; // [SOLAM16, alg. 1]: p_t
        let q = 1.0 - p;
        let gamma = self.eta / t.sqrt();
        let (vx, x_norm_sq) = dot_and_norm_sq_touching(x, &self.v, &self.u);
        let score = self.s * vx;
        if !(x_norm_sq.is_finite() && score.is_finite()) {
            // Deviation: a step on features too large to square finitely is refused (the
            // example still counts towards t and p), so the state stays finite.
            self.rejected += 1;
            return;
        }
        self.kappa = self.kappa.max(x_norm_sq.sqrt());

        // The average takes in v_t, the point of this step's gradient.
        self.beta += gamma * self.s;
        self.gamma_sum += gamma;

        // Partial derivatives of F at (v_t, alpha_t) (module docs).
        let (g_w, g_a, g_b, g_alpha) = match y {
            Label::Pos => (
                2.0 * q * (score - self.a - 1.0 - self.alpha),
                -2.0 * q * (score - self.a),
                0.0,
                -2.0 * q * score - 2.0 * p * q * self.alpha,
            ),
            Label::Neg => (
                2.0 * p * (score - self.b + 1.0 + self.alpha),
                0.0,
                -2.0 * p * (score - self.b),
                2.0 * p * score - 2.0 * p * q * self.alpha,
            ),
        };

        // [SOLAM16, alg. 1]: descent on v = (w, a, b), ascent on alpha, then projections.
        let dv = -gamma * g_w / self.s;
        if dv != 0.0 {
            let (v, u, beta) = (&mut self.v, &mut self.u, self.beta);
            let mut norm_delta = 0.0;
            let mut touched = 0;
            let mut reach = self.reach;
            x.for_each(|j, xj| {
                if xj != 0.0 {
                    reach = reach.max(j + 1);
                    let old = v[j];
                    let new = (old + dv * xj).clamp(-f64::MAX, f64::MAX);
                    v[j] = new;
                    u[j] -= beta * (new - old);
                    norm_delta += new * new - old * old;
                    touched += 1;
                }
            });
            self.v_norm_sq = (self.v_norm_sq + norm_delta).max(0.0);
            self.touched += touched;
            self.reach = reach;
            if self.touched >= self.reach {
                self.recompute_norm();
            }
        }
        let box_ab = self.kappa * self.r;
        self.a = (self.a - gamma * g_a).clamp(-box_ab, box_ab);
        self.b = (self.b - gamma * g_b).clamp(-box_ab, box_ab);
        self.alpha = (self.alpha + gamma * g_alpha).clamp(-2.0 * box_ab, 2.0 * box_ab);
        let w_norm = self.s * self.v_norm_sq.sqrt();
        if w_norm > self.r {
            self.s *= self.r / w_norm; // P_Omega1 on w: scale back onto the ball
        }
        if self.s < S_MIN {
            self.fold();
        }
    }

    /// Pads $v$ and $u$ (so the average too) with zeros: a zero feature never moves them, and the
    /// scalars ($a$, $b$, $\alpha$, $\kappa$, the norm of $v$) do not depend on it.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        if dim > self.v.len() {
            crate::grow_zeros(&mut self.v, dim);
            crate::grow_zeros(&mut self.u, dim);
            self.cache = WeightsCache::default();
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};

    #[test]
    fn before_any_update_the_model_is_zero() {
        let l = SolamParams { eta: 1.0, r: 1.0 }.build(3, 0).unwrap();
        assert_eq!(l.weights(), &[0.0; 3]);
        assert_eq!(l.score(Row::Dense(&[1.0, 2.0, 3.0])), 0.0);
        assert_eq!(l.positive_rate(), 0.0);
    }

    /// Sparse rows whose features reach further and further, with projections (small `r`)
    /// and norm recomputations along the way.
    fn widening_rows() -> Vec<(Vec<u32>, Vec<f64>, Label)> {
        (0..400u32)
            .map(|i| {
                let top = 2 + i / 8;
                let idx = vec![i % top, top];
                let val = vec![0.5 + f64::from(i % 7) / 7.0, -0.25 - f64::from(i % 3) / 3.0];
                (idx, val, if i % 5 == 0 { Pos } else { Neg })
            })
            .collect()
    }

    #[test]
    fn a_grown_learner_steps_as_one_built_wide_to_the_bit() {
        let params = SolamParams { eta: 1.0, r: 0.3 };
        let mut wide = params.build(80, 0).unwrap();
        let mut grown = params.build(1, 0).unwrap();
        for (idx, val, y) in widening_rows() {
            let x = Row::Sparse(auc_core::SparseRow::new(&idx, &val));
            grown.grow(idx[idx.len() - 1] as usize + 1).unwrap();
            wide.update(x, y);
            grown.update(x, y);
        }
        assert!(wide.reach > 40 && wide.reach < 80, "{}", wide.reach);
        grown.grow(80).unwrap();
        assert_eq!(grown, wide);
        assert_eq!(grown.weights(), wide.weights());
        grown.validate().unwrap();
    }

    #[test]
    fn a_version_1_state_reads_with_the_old_schedule() {
        // The version 1 layout, field for field.
        #[derive(Serialize)]
        struct V1<'a> {
            eta: f64,
            r: f64,
            t: u64,
            n_pos: u64,
            kappa: f64,
            s: f64,
            v: &'a [f64],
            v_norm_sq: f64,
            touched: usize,
            a: f64,
            b: f64,
            alpha: f64,
            u: &'a [f64],
            beta: f64,
            gamma_sum: f64,
            rejected: u64,
        }
        let mut l = SolamParams { eta: 1.0, r: 0.3 }.build(200, 0).unwrap();
        for (idx, val, y) in widening_rows().into_iter().take(300) {
            l.update(Row::Sparse(auc_core::SparseRow::new(&idx, &val)), y);
        }
        let old = postcard::to_allocvec(&V1 {
            eta: l.eta,
            r: l.r,
            t: l.t,
            n_pos: l.n_pos,
            kappa: l.kappa,
            s: l.s,
            v: &l.v,
            v_norm_sq: l.v_norm_sq,
            touched: l.touched,
            a: l.a,
            b: l.b,
            alpha: l.alpha,
            u: &l.u,
            beta: l.beta,
            gamma_sum: l.gamma_sum,
            rejected: l.rejected,
        })
        .unwrap();
        let upgraded = Solam::upgrade_layout(&old, 1).unwrap();
        let read: Solam = postcard::from_bytes(&upgraded).unwrap();
        read.validate().unwrap();
        assert_eq!(read.reach, 200);
        assert_eq!(
            Solam {
                reach: 200,
                ..l.clone()
            },
            read
        );
        assert_eq!(
            postcard::to_allocvec(&read).unwrap(),
            postcard::to_allocvec(&Solam { reach: 200, ..l }).unwrap()
        );
        for cut in [0, 10, 20, 40 + 8 * 100] {
            assert!(Solam::upgrade_layout(&old[..cut], 1).is_err(), "{cut}");
        }
    }

    #[test]
    fn fold_keeps_w_and_the_average() {
        let mut l = SolamParams { eta: 1.0, r: 0.5 }.build(2, 0).unwrap();
        for (x, y) in [([1.0, 0.0], Pos), ([0.0, 1.0], Neg), ([2.0, 1.0], Pos)] {
            l.update(Row::Dense(&x), y);
        }
        let before = l.weights().to_vec();
        let mut w0 = [0.0; 2];
        l.last_iterate(&mut w0);
        let mut folded = l.clone();
        folded.fold();
        let mut w1 = [0.0; 2];
        folded.last_iterate(&mut w1);
        for j in 0..2 {
            assert!((before[j] - folded.weights()[j]).abs() <= 1e-15, "{j}");
            assert!((w0[j] - w1[j]).abs() <= 1e-15, "{j}");
        }
    }
}
