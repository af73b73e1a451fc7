//! Balanced AdaGrad's step on a whole row at once: [`crate::BalAdagrad`] gathers the row's
//! features into the arrays of [`RowState`], these two kernels compute on them, and the learner
//! scatters the results back.
//!
//! Feature by feature, the lazy catch-up $\tilde w_j \rho_j^{\,k_j}$ was a chain of dependent
//! multiplications of data-dependent length (`powi`'s repeated squaring), and each chain ended in
//! a mispredicted loop exit, so no two features' chains overlapped: 30 % of the learner's time was
//! `powi` and most of the rest the square roots and divisions waiting on it. Here the row's
//! features go [`LANES`] at a time through one square-and-multiply of a fixed number of rounds
//! (the bits of the largest $k$ among them), every lane taking the same products in the same
//! order as `powi`: for the bits $b$ of $k$ from the lowest, $r \leftarrow r \cdot a$ when bit $b$
//! is set (here $r \cdot 1$ otherwise, which is $r$ exactly), then $a \leftarrow a^2$; from
//! $r = 1$, $a = \rho$. So the weights are bit for bit those of the feature-by-feature step
//! (`row_kernels_equal_the_feature_by_feature_step`), and the rounds run in vector registers.
//!
//! The multiplications of `powi` are those of compiler-rt's `__powidf2`, which Rust's
//! `f64::powi` calls for an exponent not known at compile time; a gap of more than `i32::MAX`
//! steps goes through `powf`, as the feature-by-feature step did.

/// AdaGrad's $\delta$ in $H = \delta + \sqrt G$ \[ADAGRAD11\]: keeps the first step on a feature
/// finite when its gradient is tiny; far below the gradients of scaled features.
pub(crate) const DELTA: f64 = 1e-8;

/// $\rho = 1 / (1 + \eta\lambda / H)$: 1 when $\lambda = 0$ or $H = \infty$.
#[inline]
pub(crate) fn shrink(eta_lambda: f64, h: f64) -> f64 {
    1.0 / (1.0 + eta_lambda / h)
}

/// $\rho^k$ for a step count $k$.
#[inline]
pub(crate) fn power(rho: f64, k: u64) -> f64 {
    match i32::try_from(k) {
        Ok(k) => rho.powi(k),
        Err(_) => rho.powf(k as f64),
    }
}

/// Features per round of the kernels: the width of an AVX2 register of `f64` (measured against 8,
/// an AVX-512 register: 0.97 times the whole `auc train` on the 10^6-row stream, since a row of 20
/// features pads to 20 lanes instead of 24).
pub(crate) const LANES: usize = 4;

/// One row's features gathered from the learner's state, padded with zeros to a multiple of
/// [`LANES`]. The padding lanes ($x = 0$, $G = 0$, $\tilde w = 0$, $k = 0$) compute finite
/// values that are never scattered back.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowState {
    /// $k_j = t - 1 - \tau_j$, the steps since the feature's last touch (0 when $\lambda = 0$).
    pub(crate) gap: Vec<u64>,
    /// $x_j$.
    pub(crate) x: Vec<f64>,
    /// $\tilde w_j$, then the weight at step $t$, then after the step.
    pub(crate) w: Vec<f64>,
    /// $G_j$, then after the step.
    pub(crate) g2: Vec<f64>,
}

impl RowState {
    /// Sizes the arrays for a row of `n` features, padded with zero features to a multiple of
    /// [`LANES`] (capacity kept across rows), and returns `n`.
    pub(crate) fn reset(&mut self, n: usize) -> usize {
        let padded = n.div_ceil(LANES) * LANES;
        for v in [&mut self.x, &mut self.w, &mut self.g2] {
            v.clear();
            v.resize(padded, 0.0);
        }
        self.gap.clear();
        self.gap.resize(padded, 0);
        n
    }

    /// Sets feature `i` of the row.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, gap: u64, x: f64, w: f64, g2: f64) {
        self.gap[i] = gap;
        self.x[i] = x;
        self.w[i] = w;
        self.g2[i] = g2;
    }

    /// Brings every weight to step $t$: $w_j \leftarrow \tilde w_j\, \rho_j^{\,k_j}$,
    /// $\rho_j = 1 / (1 + \eta\lambda / (\delta + \sqrt{G_j}))$ (the module docs say how).
    /// A feature with $k_j = 0$ keeps its weight ($\rho^0 = 1$), as does a zero weight.
    pub(crate) fn catch_up(&mut self, eta_lambda: f64) {
        catch_up(eta_lambda, &self.gap, &self.g2, &mut self.w);
    }

    /// AdaGrad's proximal step on every feature with the gradient $g_j = a x_j$ (the step of
    /// `bal_adagrad.rs`): $G_j \leftarrow G_j + g_j^2$, $H_j = \delta + \sqrt{G_j}$,
    /// $w_j \leftarrow (w_j - \eta g_j / H_j)\, \rho_j$, with $g_j / H_j$ taken as 0 when $H_j$ is
    /// infinite. A feature whose $g_j$ is not finite keeps its $w_j$ and $G_j$; the caller counts
    /// it (it recomputes $a x_j$, the same product).
    pub(crate) fn step(&mut self, a: f64, eta: f64, eta_lambda: f64) {
        step(a, eta, eta_lambda, &self.x, &mut self.w, &mut self.g2);
    }
}

/// [`RowState::catch_up`] on arrays whose length is a multiple of [`LANES`].
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2", "x86_64+avx2"))]
fn catch_up(eta_lambda: f64, gap: &[u64], g2: &[f64], w: &mut [f64]) {
    for ((gap, g2), w) in gap
        .chunks_exact(LANES)
        .zip(g2.chunks_exact(LANES))
        .zip(w.chunks_exact_mut(LANES))
    {
        let any = gap.iter().fold(0u64, |m, &k| m | k);
        if any > i32::MAX as u64 {
            // A gap beyond i32: the scalar powf of the feature-by-feature step.
            for l in 0..LANES {
                let rho = shrink(eta_lambda, DELTA + g2[l].sqrt());
                w[l] *= power(rho, gap[l]);
            }
            continue;
        }
        let mut a = [0.0; LANES];
        for l in 0..LANES {
            a[l] = shrink(eta_lambda, DELTA + g2[l].sqrt());
        }
        let mut r = [1.0; LANES];
        for b in 0..(u64::BITS - any.leading_zeros()) {
            for l in 0..LANES {
                let f = if (gap[l] >> b) & 1 == 1 { a[l] } else { 1.0 };
                r[l] *= f;
                a[l] *= a[l];
            }
        }
        for l in 0..LANES {
            w[l] *= r[l];
        }
    }
}

/// [`RowState::step`] on arrays whose length is a multiple of [`LANES`].
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2", "x86_64+avx2"))]
fn step(a: f64, eta: f64, eta_lambda: f64, x: &[f64], w: &mut [f64], g2: &mut [f64]) {
    for ((x, w), g2) in x
        .chunks_exact(LANES)
        .zip(w.chunks_exact_mut(LANES))
        .zip(g2.chunks_exact_mut(LANES))
    {
        // One array operation a line, so that each vectorizes (written as one loop with its
        // selects, the compiler kept it scalar).
        let mut g = [0.0; LANES];
        let mut sum = [0.0; LANES];
        let mut h = [0.0; LANES];
        let mut step = [0.0; LANES];
        for l in 0..LANES {
            g[l] = a * x[l];
        }
        for l in 0..LANES {
            sum[l] = g2[l] + g[l] * g[l]; // [ADAGRAD11]: G_t = G_{t-1} + g_t^2
        }
        for l in 0..LANES {
            h[l] = DELTA + sum[l].sqrt();
        }
        for l in 0..LANES {
            step[l] = if h[l].is_finite() { g[l] / h[l] } else { 0.0 };
        }
        for l in 0..LANES {
            // [ADAGRAD11]: the composite (proximal) step with the regularizer lambda/2 ||w||^2.
            let next = (w[l] - eta * step[l]) * shrink(eta_lambda, h[l]);
            if g[l].is_finite() {
                g2[l] = sum[l];
                w[l] = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Gaps of every size: none, small, up to `i32::MAX`, and beyond (the `powf` path).
    fn gap() -> impl Strategy<Value = u64> {
        prop_oneof![
            Just(0u64),
            1u64..64,
            1u64..(1 << 24),
            Just(i32::MAX as u64),
            (i32::MAX as u64 + 1)..(1u64 << 40),
        ]
    }

    /// A feature: its gap, value, weight (zero or not) and accumulator (zero, tiny, ordinary,
    /// overflowed).
    fn feature() -> impl Strategy<Value = (u64, f64, f64, f64)> {
        (
            gap(),
            prop_oneof![Just(0.0), -4.0f64..4.0, Just(1e300)],
            prop_oneof![Just(0.0), Just(-0.0), -3.0f64..3.0],
            prop_oneof![
                Just(0.0),
                1e-20f64..1e-10,
                1e-6f64..1e3,
                Just(f64::INFINITY)
            ],
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The row kernels give the feature-by-feature step's bits: the catch-up
        /// `w * powi(rho, k)` where `k > 0` and `w != 0` (else `w`), then the proximal step with
        /// its non-finite-gradient rule.
        #[test]
        fn row_kernels_equal_the_feature_by_feature_step(
            features in prop::collection::vec(feature(), 1..30),
            a in prop_oneof![-2.0f64..2.0, Just(1e10)],
            eta in 0.01f64..2.0,
            eta_lambda in prop_oneof![Just(0.0), 1e-6f64..1.0, 1.0f64..100.0],
        ) {
            let mut row = RowState::default();
            let n = row.reset(features.len());
            for (i, &(k, x, w, g2)) in features.iter().enumerate() {
                row.set(i, k, x, w, g2);
            }
            row.catch_up(eta_lambda);
            for (i, &(k, _, w, g2)) in features.iter().enumerate() {
                let want = if k > 0 && w != 0.0 {
                    w * power(shrink(eta_lambda, DELTA + g2.sqrt()), k)
                } else {
                    w
                };
                prop_assert_eq!(row.w[i].to_bits(), want.to_bits(), "catch-up of feature {}", i);
            }
            let caught: Vec<f64> = row.w[..n].to_vec();
            row.step(a, eta, eta_lambda);
            for (i, &(_, x, _, g2)) in features.iter().enumerate() {
                let g = a * x;
                let (mut w, mut s) = (caught[i], g2);
                if g.is_finite() {
                    s += g * g;
                    let h = DELTA + s.sqrt();
                    let step = if h.is_finite() { g / h } else { 0.0 };
                    w = (w - eta * step) * shrink(eta_lambda, h);
                }
                prop_assert_eq!(row.w[i].to_bits(), w.to_bits(), "weight of feature {}", i);
                prop_assert_eq!(row.g2[i].to_bits(), s.to_bits(), "accumulator of feature {}", i);
            }
        }
    }
}
