//! The pairwise squared hinge over every positive-negative pair of a score vector, with negative
//! weights, evaluated from sorted scores: no pair is ever stored.
//!
//! For scores $s$ of $n_+$ positives (first) and $n_-$ negatives, and a weight $\omega_j \ge 0$
//! per negative ($1$ for the plain AUC loss; the partial-AUC learner puts its weight on the
//! negatives ranked highest),
//! $$\ell(s) = \tfrac12 \sum_{i \in P,\, j \in N} \omega_j \max(0, 1 - s_i + s_j)^2 .$$
//! With the active pairs $A = \{(i, j) : s_i < s_j + 1\}$, $A(i)$ the active partners of $i$,
//! $$\partial_i \ell = -\sum_{j \in A(i)} \omega_j (1 - s_i + s_j), \qquad
//!   \partial_j \ell = \omega_j \sum_{i \in A(j)} (1 - s_i + s_j),$$
//! and the generalized Hessian is $D = \sum_{(i, j) \in A} \omega_j (e_i - e_j)(e_i - e_j)^\top$:
//! $(Dv)_i = c_i v_i - \sum_{j \in A(i)} \omega_j v_j$ with $c_i = \sum_{j \in A(i)} \omega_j$, and
//! $(Dv)_j = c_j v_j - \omega_j \sum_{i \in A(j)} v_i$ with $c_j = \omega_j |A(j)|$.
//! With the negatives sorted by $s_j + 1$ and the positives by $s_i$, $A(i)$ is a suffix of the
//! negatives' order and $A(j)$ a prefix of the positives' order, so every sum over pairs is a
//! prefix-sum lookup: $O(n \log n)$ for the sorts and $O(n)$ after, never $O(n_+ n_-)$ (Chapelle
//! and Keerthi's observation for ranking SVMs). A pair is active by one comparison,
//! $s_i < s_j + 1$, from both sides, so $D$ is symmetric and the gradient consistent with it.
//!
//! With every weight $1$ each weighted sum is the unweighted one bit for bit ($1 \cdot y = y$
//! and sums of ones are exact integers), so AUCSVM's primal solver (auc-cvm) keeps its results.

/// The active pairs of a score vector (positives first) and the negatives' weights: sorted
/// orders, cut points and prefix sums.
#[derive(Clone, Debug)]
pub struct PairHinge {
    np: usize,
    /// Positive slots by increasing score.
    pos_order: Vec<u32>,
    /// Negative slots by increasing score.
    neg_order: Vec<u32>,
    /// Per positive: the first place in `neg_order` whose $s_j + 1$ exceeds $s_i$ (its active
    /// negatives are the rest of the list).
    pos_cut: Vec<u32>,
    /// Per negative: how many positives (the first ones of `pos_order`) are below $s_j + 1$.
    neg_cut: Vec<u32>,
    /// Per negative slot: $\omega_j$.
    weights: Vec<f64>,
    /// Suffix sums of the weights in `neg_order`, $n_- + 1$ values.
    weight_suffix: Vec<f64>,
    /// Prefix sums, $\max(n_+, n_-) + 1$ values.
    acc: Vec<f64>,
    /// Prefix sums of squares over the positives, $n_+ + 1$ values.
    acc2: Vec<f64>,
}

impl PairHinge {
    /// `np` positives and `nn` negatives, every weight $1$, no pair built yet.
    pub fn new(np: usize, nn: usize) -> Self {
        Self {
            np,
            pos_order: (0..np as u32).collect(),
            neg_order: (0..nn as u32).collect(),
            pos_cut: vec![0; np],
            neg_cut: vec![0; nn],
            weights: vec![1.0; nn],
            weight_suffix: vec![0.0; nn + 1],
            acc: vec![0.0; np.max(nn) + 1],
            acc2: vec![0.0; np + 1],
        }
    }

    /// The number of positives.
    pub fn positives(&self) -> usize {
        self.np
    }

    /// The number of negatives.
    pub fn negatives(&self) -> usize {
        self.neg_order.len()
    }

    /// Sets the negatives' weights $\omega_j$ (slot order), keeping the pairs built: every sum
    /// is linear in the weights, so they may be of any sign (a difference of two weightings) and
    /// a change of weights on the same scores needs no new sort.
    ///
    /// # Panics
    /// If `weights` does not hold one value per negative.
    pub fn set_weights(&mut self, weights: &[f64]) {
        self.weights.copy_from_slice(weights);
        self.sum_weights();
    }

    /// `weight_suffix` from the weights in the negatives' current order.
    fn sum_weights(&mut self) {
        let nn = self.neg_order.len();
        self.weight_suffix[nn] = 0.0;
        for t in (0..nn).rev() {
            self.weight_suffix[t] =
                self.weight_suffix[t + 1] + self.weights[self.neg_order[t] as usize];
        }
    }

    /// The active pairs of the scores `s` ($n_+ + n_-$ values, positives first): $(i, j)$ with
    /// $s_i < s_j + 1$.
    pub fn build(&mut self, s: &[f64]) {
        let np = self.np;
        let (sp, sn) = s.split_at(np);
        self.pos_order
            .sort_unstable_by(|&a, &b| sp[a as usize].total_cmp(&sp[b as usize]).then(a.cmp(&b)));
        self.neg_order
            .sort_unstable_by(|&a, &b| sn[a as usize].total_cmp(&sn[b as usize]).then(a.cmp(&b)));
        self.sum_weights();
        let nn = self.neg_order.len();
        let key = |j: u32| sn[j as usize] + 1.0;
        let mut t = 0;
        for &i in &self.pos_order {
            let a = sp[i as usize];
            while t < nn && key(self.neg_order[t]) <= a {
                t += 1;
            }
            self.pos_cut[i as usize] = t as u32;
        }
        let mut c = 0;
        for &j in &self.neg_order {
            let b = key(j);
            while c < self.pos_order.len() && sp[self.pos_order[c] as usize] < b {
                c += 1;
            }
            self.neg_cut[j as usize] = c as u32;
        }
    }

    /// $c_t$: the weight of the active pairs of point `t` (module docs).
    pub fn count(&self, t: usize) -> f64 {
        if t < self.np {
            self.weight_suffix[self.pos_cut[t] as usize]
        } else {
            let j = t - self.np;
            self.weights[j] * f64::from(self.neg_cut[j])
        }
    }

    /// `out[i]` $= \sum_{j \in A(i)} \omega_j y_j$ for a positive, `out[j]` $= \omega_j
    /// \sum_{i \in A(j)} y_i$ for a negative.
    pub fn partner_sums(&mut self, y: &[f64], out: &mut [f64]) {
        let np = self.np;
        let nn = self.neg_order.len();
        // Suffix sums over the negatives in order.
        self.acc[nn] = 0.0;
        for t in (0..nn).rev() {
            let j = self.neg_order[t] as usize;
            self.acc[t] = self.acc[t + 1] + self.weights[j] * y[np + j];
        }
        for (o, &c) in out[..np].iter_mut().zip(&self.pos_cut) {
            *o = self.acc[c as usize];
        }
        // Prefix sums over the positives in order.
        self.acc[0] = 0.0;
        for c in 0..np {
            self.acc[c + 1] = self.acc[c] + y[self.pos_order[c] as usize];
        }
        for (j, (o, &c)) in out[np..np + nn].iter_mut().zip(&self.neg_cut).enumerate() {
            *o = self.weights[j] * self.acc[c as usize];
        }
    }

    /// $g = \nabla \ell(s)$ into `g` (module docs), using `tmp`; the pairs must have been built
    /// on `s`.
    pub fn gradient(&mut self, s: &[f64], g: &mut [f64], tmp: &mut [f64]) {
        self.partner_sums(s, tmp);
        for t in 0..s.len() {
            let c = self.count(t);
            g[t] = if t < self.np {
                -(c * (1.0 - s[t]) + tmp[t])
            } else {
                c * (1.0 + s[t]) - tmp[t]
            };
        }
    }

    /// `out = D v` (module docs), using `tmp`.
    pub fn hess(&mut self, v: &[f64], out: &mut [f64], tmp: &mut [f64]) {
        self.partner_sums(v, tmp);
        for t in 0..v.len() {
            out[t] = self.count(t) * v[t] - tmp[t];
        }
    }

    /// $2\ell(s) = \sum_{(i, j) \in A} \omega_j (1 - s_i + s_j)^2$, by positive from partner sums
    /// of $s$ and $s^2$ (`tmp1`, `tmp2`, `tmp3` of $n_+ + n_-$ values); the pairs must have been
    /// built on `s`.
    pub fn squared_sum(
        &mut self,
        s: &[f64],
        tmp1: &mut [f64],
        tmp2: &mut [f64],
        tmp3: &mut [f64],
    ) -> f64 {
        for (q, &v) in tmp3.iter_mut().zip(s) {
            *q = v * v;
        }
        self.partner_sums(s, tmp1);
        self.partner_sums(tmp3, tmp2);
        (0..self.np)
            .map(|i| {
                let a = 1.0 - s[i];
                self.count(i) * a * a + 2.0 * a * tmp1[i] + tmp2[i]
            })
            .sum::<f64>()
    }

    /// `out[j]` $= h_j = \tfrac12 \sum_{i \in A(j)} (1 - s_i + s_j)^2$ for every negative $j$,
    /// whatever its weight (so $\ell(s) = \sum_j \omega_j h_j$), from prefix sums of $s_i$ and
    /// $s_i^2$ over the positives in order; the pairs must have been built on `s`.
    pub fn negative_losses(&mut self, s: &[f64], out: &mut [f64]) {
        let np = self.np;
        self.acc[0] = 0.0;
        self.acc2[0] = 0.0;
        for c in 0..np {
            let v = s[self.pos_order[c] as usize];
            self.acc[c + 1] = self.acc[c] + v;
            self.acc2[c + 1] = self.acc2[c] + v * v;
        }
        for (j, (o, &c)) in out.iter_mut().zip(&self.neg_cut).enumerate() {
            let a = 1.0 + s[np + j];
            let c = c as usize;
            // sum over the active positives of (a - s_i)^2, never below zero by rounding.
            let q = c as f64 * a * a - 2.0 * a * self.acc[c] + self.acc2[c];
            *o = 0.5 * q.max(0.0);
        }
    }

    /// The number of active pairs, whatever their weights.
    pub fn pairs(&self) -> usize {
        let nn = self.neg_order.len();
        self.pos_cut.iter().map(|&c| nn - c as usize).sum()
    }
}

/// The minimizer $t > 0$ of a convex piecewise quadratic $\varphi$ along a descent direction,
/// from $\varphi'(0) = $ `d0` $< 0$ and `slope(t)` $= (\varphi'(t), \varphi''(t))$: safeguarded
/// Newton on the nondecreasing $\varphi'$, starting at $t = 1$, doubling until the root is
/// bracketed and bisecting when a Newton step leaves the bracket; stops at
/// $|\varphi'(t)| \le 10^{-12} |\varphi'(0)|$, a bracket of relative width $10^{-15}$, or 60 steps.
/// What both squared-hinge solvers' exact line searches use (a sort per evaluation: few are
/// needed, since $\varphi'$ is piecewise linear).
pub fn exact_step(d0: f64, mut slope: impl FnMut(f64) -> (f64, f64)) -> f64 {
    let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
    let mut t = 1.0;
    for _ in 0..60 {
        let (d1, d2) = slope(t);
        if d1.abs() <= 1e-12 * d0.abs() {
            break;
        }
        if d1 < 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let next = t - d1 / d2;
        t = if next > lo && next < hi {
            next
        } else if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * t
        };
        if hi - lo <= 1e-15 * hi {
            break;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every quantity by brute force over the pairs.
    fn brute(np: usize, s: &[f64], w: &[f64], v: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
        let n = s.len();
        let (mut loss, mut g, mut dv) = (0.0, vec![0.0; n], vec![0.0; n]);
        for i in 0..np {
            for j in np..n {
                let m = 1.0 - s[i] + s[j];
                if s[i] < s[j] + 1.0 {
                    let wj = w[j - np];
                    loss += wj * m * m;
                    g[i] -= wj * m;
                    g[j] += wj * m;
                    dv[i] += wj * (v[i] - v[j]);
                    dv[j] += wj * (v[j] - v[i]);
                }
            }
        }
        (loss, g, dv)
    }

    #[test]
    fn sums_from_sorted_scores_equal_brute_force_over_pairs() {
        // Ties within and across the classes, and margins exactly 1 apart.
        let np = 4;
        let s = [0.5, 2.0, 0.5, -1.0, 0.5, -0.5, 1.0, 0.5, -2.0];
        let w = [0.25, 1.0, 0.0, 2.0, 0.5];
        let v = [1.0, -2.0, 0.5, 3.0, -1.0, 0.25, 2.0, -0.5, 1.5];
        let mut h = PairHinge::new(np, 5);
        // Weights set after the pairs are built count as if set before.
        h.build(&s);
        h.set_weights(&w);
        let n = s.len();
        let (mut g, mut dv, mut t1, mut t2, mut t3) = (
            vec![0.0; n],
            vec![0.0; n],
            vec![0.0; n],
            vec![0.0; n],
            vec![0.0; n],
        );
        h.gradient(&s, &mut g, &mut t1);
        h.hess(&v, &mut dv, &mut t1);
        let sq = h.squared_sum(&s, &mut t1, &mut t2, &mut t3);
        let (want_sq, want_g, want_dv) = brute(np, &s, &w, &v);
        assert!((sq - want_sq).abs() <= 1e-12, "{sq} vs {want_sq}");
        let mut h_neg = vec![0.0; 5];
        h.negative_losses(&s, &mut h_neg);
        for (j, &hj) in h_neg.iter().enumerate() {
            let want: f64 = (0..np)
                .filter(|&i| s[i] < s[np + j] + 1.0)
                .map(|i| 0.5 * (1.0 - s[i] + s[np + j]).powi(2))
                .sum();
            assert!((hj - want).abs() <= 1e-12, "h[{j}] = {hj} vs {want}");
        }
        let weighted: f64 = h_neg.iter().zip(&w).map(|(a, b)| a * b).sum();
        assert!((2.0 * weighted - want_sq).abs() <= 1e-12);
        for t in 0..n {
            assert!((g[t] - want_g[t]).abs() <= 1e-12, "g[{t}]");
            assert!((dv[t] - want_dv[t]).abs() <= 1e-12, "dv[{t}]");
        }
        let active = (0..np)
            .flat_map(|i| (np..n).map(move |j| (i, j)))
            .filter(|&(i, j)| s[i] < s[j] + 1.0)
            .count();
        assert_eq!(h.pairs(), active);
    }

    #[test]
    #[allow(
        clippy::float_cmp,
        reason = "counts of unit weights are exact integers"
    )]
    fn unit_weights_give_the_unweighted_counts() {
        let s = [0.0, 3.0, 0.5, -0.25];
        let mut h = PairHinge::new(2, 2);
        h.build(&s);
        // Positive 0 (score 0) is active with both negatives; positive 1 (score 3) with none.
        assert_eq!(h.count(0), 2.0);
        assert_eq!(h.count(1), 0.0);
        assert_eq!(h.count(2), 1.0);
        assert_eq!(h.count(3), 1.0);
    }
}
