//! The $p$-dimensional losses $\Psi(w) = \psi(y w^\top (x - m), w^\top S w)$ and their gradients
//! in $w$, assembled from the one-dimensional [`Psi`] by the chain rule.
//!
//! Nothing here allocates: the gradient is written into a caller's buffer in $O(p)$, plus
//! $O(\mathrm{nnz})$ for a sparse $x$, whose difference $x - m$ is formed one coordinate at a time
//! while walking the stored entries beside $m$ (never as a dense copy of $x$). Dense and sparse
//! rows go through the same arithmetic in the same order, so they give bit-identical results.

use auc_core::{Label, Row};

use crate::scalar::{Psi, Surrogate};

/// One example $(x, y)$ against the opposite class's moments, at a weight vector $w$.
///
/// The covariance $S$ itself is not needed: only $S w$ (`sw`) and $w^\top S w$ enter the loss and
/// its gradient, and the caller (who owns $S$, e.g. in auc-stats) computes them.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The example's features $x$ (length $p$ if dense; indices below $p$ if sparse).
    pub x: Row<'a>,
    /// Its label $y$.
    pub y: Label,
    /// The opposite class's mean $m = \bar x$ (length $p$).
    pub m: &'a [f64],
    /// $S w$, the opposite class's covariance times $w$ (length $p$).
    pub sw: &'a [f64],
    /// The weights $w$ (length $p$).
    pub w: &'a [f64],
}

impl Inputs<'_> {
    /// The margin $\mu = y w^\top (x - m)$: [`margin`].
    #[inline]
    pub fn margin(&self) -> f64 {
        margin(self.x, self.y, self.m, self.w)
    }

    /// $w^\top (S w)$, the $\sigma^2$ to pass to [`loss_and_grad`] when the caller has no more
    /// accurate value of $w^\top S w$ at hand.
    ///
    /// # Panics
    /// If `w` and `sw` differ in length.
    pub fn quad_form(&self) -> f64 {
        assert_eq!(
            self.w.len(),
            self.sw.len(),
            "w has {} entries, S w {}",
            self.w.len(),
            self.sw.len()
        );
        self.w.iter().zip(self.sw).map(|(a, b)| a * b).sum()
    }
}

/// Calls `f(j, scale * x_j - scale * m_j)` for every `j` in `0..p`, `p = m.len()`.
///
/// A sparse `x` is walked beside `m`: absent entries are `0.0`, so `scale * 0.0 - scale * m_j`
/// is computed exactly as a dense row holding a zero would compute it.
///
/// # Panics
/// If a dense `x` has a length other than `p`, or a sparse index is `>= p`.
#[inline]
fn for_each_diff(x: Row<'_>, m: &[f64], scale: f64, mut f: impl FnMut(usize, f64)) {
    match x {
        Row::Dense(xs) => {
            assert_eq!(
                xs.len(),
                m.len(),
                "row has {} features, the mean {}",
                xs.len(),
                m.len()
            );
            for (j, (&xj, &mj)) in xs.iter().zip(m).enumerate() {
                f(j, scale * xj - scale * mj);
            }
        }
        Row::Sparse(s) => {
            let (idx, val) = (s.indices(), s.values());
            if let Some(&last) = idx.last() {
                assert!(
                    (last as usize) < m.len(),
                    "sparse row has index {last} but the mean has {} features",
                    m.len()
                );
            }
            let mut next = 0;
            for (j, &mj) in m.iter().enumerate() {
                let xj = if next < idx.len() && idx[next] as usize == j {
                    next += 1;
                    val[next - 1]
                } else {
                    0.0
                };
                f(j, scale * xj - scale * mj);
            }
        }
    }
}

/// The margin of [OAUC Theorem 1], $\mu = y w^\top (x - m)$, where $m$ is the opposite class's
/// mean; it is the mean of the pairwise margins $c_i = y w^\top (x - x_i)$.
///
/// Summed as $\sum_j w_j (x_j - m_j)$ (not $w^\top x - w^\top m$, which cancels when the features
/// carry a large common offset), in $O(p + \mathrm{nnz})$ for a sparse $x$.
///
/// Never NaN for finite input. If a product or the sum overflows, the sum is redone on scaled
/// copies ($w / \max_j |w_j|$ and $(x - m) / \max_j |x_j - m_j|$, differences taken in halves), so
/// the result is $\pm\infty$ only when the true margin is beyond the `f64` range, and never NaN
/// from $\infty - \infty$.
///
/// # Panics
/// If `w` and `m` differ in length, or `x` does not fit them (a programmer error).
pub fn margin(x: Row<'_>, y: Label, m: &[f64], w: &[f64]) -> f64 {
    assert_eq!(
        w.len(),
        m.len(),
        "w has {} entries, the mean {}",
        w.len(),
        m.len()
    );
    let mut sum = 0.0;
    for_each_diff(x, m, 1.0, |j, d| sum += w[j] * d);
    if !sum.is_finite() {
        sum = scaled_dot_diff(x, m, w);
    }
    y.sign() * sum
}

/// $\sum_j w_j (x_j - m_j)$ when the plain sum overflowed: on scaled copies, then scaled back.
#[cold]
fn scaled_dot_diff(x: Row<'_>, m: &[f64], w: &[f64]) -> f64 {
    let w_max = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let mut d_max = 0.0f64; // of the halved differences, which cannot overflow
    for_each_diff(x, m, 0.5, |_, d| d_max = d_max.max(d.abs()));
    if w_max == 0.0 || d_max == 0.0 || !w_max.is_finite() || !d_max.is_finite() {
        // A zero factor, or non-finite input (which the callers promise not to pass).
        let mut sum = 0.0;
        for_each_diff(x, m, 1.0, |j, d| sum += w[j] * d);
        return sum;
    }
    let mut acc = 0.0; // |acc| <= p: every term is at most 1 in size
    for_each_diff(x, m, 0.5, |j, d| acc += (w[j] / w_max) * (d / d_max));
    // sum = acc * w_max * d_max * 2. Multiplying by the factors in increasing order keeps every
    // intermediate product between |acc| <= p and the final result, so it overflows only if the
    // result does (2 * d_max alone could overflow while the result is finite).
    let mut factors = [w_max, d_max, 2.0];
    factors.sort_by(f64::total_cmp);
    acc * factors[0] * factors[1] * factors[2]
}

impl Psi {
    /// Writes the gradient in $w$ of $\Psi(w) = \psi(y w^\top (x - m), w^\top S w)$ into `out`,
    /// given these partial derivatives of $\psi$ at $(\mu, \sigma^2)$ and $S w$:
    /// $$\nabla_w \Psi = \frac{\partial \psi}{\partial \mu} y (x - m) +
    ///   2 \frac{\partial \psi}{\partial \sigma^2} S w .$$
    /// For $\psi_M$ this is [OAUC eq. 14] in the form that never divides by $\sigma$; for
    /// $\psi_S$ it is twice [OAUC eq. 13] (see [`psi_s`](crate::psi_s)).
    ///
    /// This is the entry point when $\mu$ and $\sigma^2$ are already known:
    /// `kind.eval(mu, s2).write_gradient(x, y, m, sw, out)`. It costs $O(p)$, plus $O(\mathrm{nnz})$
    /// for a sparse $x$, and does not allocate.
    ///
    /// For finite input with finite $x - m$ no component is NaN: the $x - m$ term is taken as $0$
    /// wherever $x_j = m_j$ or $\partial\psi/\partial\mu = 0$ (so an overflowed margin, which
    /// makes $\partial\psi_S/\partial\mu$ infinite, gives $\pm\infty$ rather than $0 \cdot \infty$).
    /// For $\psi_M$ the coefficients are bounded ($|\partial\psi_M/\partial\mu| \le 1$), so
    /// components stay finite; for $\psi_S$ they grow with the margin and overflow to $\pm\infty$
    /// only where the true component is beyond the `f64` range.
    ///
    /// # Panics
    /// If `m`, `sw` and `out` differ in length, or `x` does not fit them (a programmer error).
    pub fn write_gradient(&self, x: Row<'_>, y: Label, m: &[f64], sw: &[f64], out: &mut [f64]) {
        assert!(
            sw.len() == m.len() && out.len() == m.len(),
            "the mean has {} entries, S w {}, the gradient buffer {}",
            m.len(),
            sw.len(),
            out.len()
        );
        let g = self.d_mu * y.sign(); // coefficient of (x - m)
        let c = 2.0 * self.d_s2; // coefficient of S w
        for_each_diff(x, m, 1.0, |j, d| {
            let along_x = if d == 0.0 || g == 0.0 { 0.0 } else { g * d };
            out[j] = along_x + c * sw[j];
        });
    }
}

/// The value of $\Psi(w) = \psi(\mu, \sigma^2)$ with $\mu$ = [`margin`] and the given
/// $\sigma^2 = w^\top S w$ (see [`Inputs::quad_form`]), without the gradient.
///
/// For [`Surrogate::Square`] this is the mean pairwise square loss [OAUC eq. 1]; for
/// [`Surrogate::Moment`] an upper bound on the mean pairwise hinge loss [OAUC Theorem 1].
pub fn loss(kind: Surrogate, inputs: &Inputs<'_>, s2: f64) -> f64 {
    kind.eval(inputs.margin(), s2).value
}

/// The value of $\Psi(w) = \psi(y w^\top (x - m), \sigma^2)$, returned, and its gradient in $w$,
/// written into `out` (length $p$):
/// - [`Surrogate::Square`]: $\nabla \Psi_S = -2 b y (x - m) + 2 S w$, the true gradient of
///   [OAUC eq. 3] (eq. 13 prints half of it);
/// - [`Surrogate::Moment`]:
///   $\nabla \Psi_M = -\frac12 (1 + b/\sqrt{A}) y (x - m) + S w / (2 \sqrt{A})$, [OAUC eq. 14] without division by $\sigma$, and the hinge
///   subgradient at $A = 0$;
///
/// with $b = 1 - \mu$, $A = b^2 + \sigma^2$. `s2` should be $w^\top S w$ for the same $S$ as
/// `inputs.sw` ([`Inputs::quad_form`] computes it from them); a slightly negative value is read as
/// $0$. One code path serves both surrogates: [`Surrogate::eval`] gives the partial derivatives and
/// [`Psi::write_gradient`] applies the chain rule. $O(p)$ plus $O(\mathrm{nnz})$ for sparse $x$;
/// no allocation.
///
/// # Panics
/// If the lengths of `m`, `sw`, `w`, `out` differ or `x` does not fit them.
pub fn loss_and_grad(kind: Surrogate, inputs: &Inputs<'_>, s2: f64, out: &mut [f64]) -> f64 {
    let psi = kind.eval(inputs.margin(), s2);
    psi.write_gradient(inputs.x, inputs.y, inputs.m, inputs.sw, out);
    psi.value
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Dense and sparse rows run the same float operations in the same order.
mod tests {
    use super::*;
    use crate::scalar::{psi_m, psi_s};
    use auc_core::SparseVec;
    use auc_core::testing::tol::close;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The sparse view of a dense vector (its non-zero entries).
    fn sparse_of(x: &[f64]) -> SparseVec {
        SparseVec::from_pairs(
            x.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, &v)| (j as u32, v)),
        )
        .expect("increasing indices, finite values")
    }

    #[test]
    fn sparse_and_dense_rows_give_identical_results() {
        let mut rng = StdRng::seed_from_u64(0x5eed_0001);
        for case in 0..200 {
            let p = rng.random_range(1..20);
            let x: Vec<f64> = (0..p)
                .map(|_| {
                    if rng.random_bool(0.6) {
                        0.0
                    } else {
                        rng.random_range(-2.0..2.0)
                    }
                })
                .collect();
            let m: Vec<f64> = (0..p).map(|_| rng.random_range(-1.0..1.0)).collect();
            let sw: Vec<f64> = (0..p).map(|_| rng.random_range(-1.0..1.0)).collect();
            let w: Vec<f64> = (0..p).map(|_| rng.random_range(-3.0..3.0)).collect();
            let y = if rng.random_bool(0.5) {
                Label::Pos
            } else {
                Label::Neg
            };
            let s2 = rng.random_range(0.0..2.0);
            let sv = sparse_of(&x);
            for kind in [Surrogate::Square, Surrogate::Moment] {
                let (mut g_dense, mut g_sparse) = (vec![0.0; p], vec![0.0; p]);
                let dense = Inputs {
                    x: Row::Dense(&x),
                    y,
                    m: &m,
                    sw: &sw,
                    w: &w,
                };
                let sparse = Inputs {
                    x: Row::Sparse(sv.view()),
                    ..dense
                };
                let v_dense = loss_and_grad(kind, &dense, s2, &mut g_dense);
                let v_sparse = loss_and_grad(kind, &sparse, s2, &mut g_sparse);
                assert_eq!(v_dense, v_sparse, "case {case}, {kind:?}");
                assert_eq!(g_dense, g_sparse, "case {case}, {kind:?}");
                assert_eq!(dense.margin(), sparse.margin());
                assert_eq!(v_dense, loss(kind, &sparse, s2));
            }
        }
    }

    #[test]
    fn hand_checked_gradients() {
        // x = (2, 0), m = (1, 1), y = -1, w = (1, 2), S w = (0.5, 0), s2 = 0.5:
        // x - m = (1, -1), w.(x - m) = -1, mu = y * (-1) = 1, b = 0, sqrt(A) = sqrt(0.5).
        let (x, m, w, sw) = ([2.0, 0.0], [1.0, 1.0], [1.0, 2.0], [0.5, 0.0]);
        let inputs = Inputs {
            x: Row::Dense(&x),
            y: Label::Neg,
            m: &m,
            sw: &sw,
            w: &w,
        };
        assert_eq!(inputs.margin(), 1.0);
        assert_eq!(inputs.quad_form(), 0.5);
        let mut g = [0.0; 2];
        // Square: value 0 + 0.5; gradient -2 b y (x - m) + 2 S w = (1, 0).
        assert_eq!(loss_and_grad(Surrogate::Square, &inputs, 0.5, &mut g), 0.5);
        assert_eq!(g, [1.0, 0.0]);
        // Moment: value sqrt(0.5)/2; gradient -(1/2)(1 + 0) y (x - m) + S w / (2 sqrt(0.5))
        // = (0.5, -0.5) + (0.5 / sqrt(2), 0) with y = -1.
        let v = loss_and_grad(Surrogate::Moment, &inputs, 0.5, &mut g);
        assert!(close(v, 0.5f64.sqrt() / 2.0));
        assert!(
            close(g[0], 0.5 + 0.5 / 2.0f64.sqrt()) && close(g[1], -0.5),
            "{g:?}"
        );
    }

    #[test]
    fn square_gradient_is_twice_eq13() {
        // [OAUC eq. 13]: (1 - mu)(-y (x - m)) + S w; ours is the true gradient, twice that.
        let (x, m, w, sw) = (
            [0.5, -1.0, 2.0],
            [0.25, 0.5, -0.5],
            [1.0, -0.5, 0.25],
            [0.3, 0.1, -0.2],
        );
        let inputs = Inputs {
            x: Row::Dense(&x),
            y: Label::Pos,
            m: &m,
            sw: &sw,
            w: &w,
        };
        let mut g = [0.0; 3];
        loss_and_grad(Surrogate::Square, &inputs, inputs.quad_form(), &mut g);
        let b = 1.0 - inputs.margin();
        for j in 0..3 {
            let eq13 = b * -(x[j] - m[j]) + sw[j];
            assert!(close(g[j], 2.0 * eq13), "j = {j}: {} vs 2 * {eq13}", g[j]);
        }
    }

    #[test]
    fn subgradient_where_a_vanishes() {
        // x - m = (1, 0), w = (1, 5), y = +1: mu = 1 exactly, b = 0; S w = 0, s2 = 0: A = 0.
        let (x, m, w, sw) = ([2.0, 3.0], [1.0, 3.0], [1.0, 5.0], [0.0, 0.0]);
        let inputs = Inputs {
            x: Row::Dense(&x),
            y: Label::Pos,
            m: &m,
            sw: &sw,
            w: &w,
        };
        let mut g = [f64::NAN; 2];
        assert_eq!(loss_and_grad(Surrogate::Moment, &inputs, 0.0, &mut g), 0.0);
        assert_eq!(g, [0.0, 0.0]);
        // s2 rounded to -1e-17 and S w to 1e-18 noise: still the subgradient, no NaN.
        let sw_noise = [1e-18, -1e-18];
        let noisy = Inputs {
            sw: &sw_noise,
            ..inputs
        };
        assert_eq!(
            loss_and_grad(Surrogate::Moment, &noisy, -1e-17, &mut g),
            0.0
        );
        assert_eq!(g, [0.0, 0.0]);
    }

    #[test]
    fn never_nan_on_extreme_finite_inputs() {
        let vals = [
            0.0,
            1e-300,
            -1e-300,
            1.0,
            -1.0,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
        ];
        let mut rng = StdRng::seed_from_u64(0x5eed_0002);
        let pick = |rng: &mut StdRng| vals[rng.random_range(0..vals.len())];
        for case in 0..2000 {
            let p = 3;
            let x: Vec<f64> = (0..p).map(|_| pick(&mut rng)).collect();
            // Keep x - m representable (the documented condition), so m from the small values.
            let m: Vec<f64> = (0..p).map(|_| pick(&mut rng).clamp(-1.0, 1.0)).collect();
            let w: Vec<f64> = (0..p).map(|_| pick(&mut rng)).collect();
            let sw: Vec<f64> = (0..p)
                .map(|_| pick(&mut rng).clamp(-1e300, 1e300))
                .collect();
            let s2 = [0.0, -1e-17, 1e-300, 1.0, 1e300, f64::MAX][case % 6];
            let inputs = Inputs {
                x: Row::Dense(&x),
                y: Label::Pos,
                m: &m,
                sw: &sw,
                w: &w,
            };
            assert!(!inputs.margin().is_nan(), "case {case}: {inputs:?}");
            let mut g = vec![0.0; p];
            let v = loss_and_grad(Surrogate::Moment, &inputs, s2, &mut g);
            assert!(
                !v.is_nan() && g.iter().all(|gj| !gj.is_nan()),
                "case {case}: {v} {g:?}"
            );
            let v = loss_and_grad(Surrogate::Square, &inputs, s2, &mut g);
            assert!(
                !v.is_nan() && g.iter().all(|gj| !gj.is_nan()),
                "case {case}: {v} {g:?}"
            );
        }
    }

    #[test]
    fn margin_survives_overflowing_products() {
        // w.(x - m) = 1e300 * 1e300 - 1e300 * 1e300 + 1 * 1: each product overflows, the sum is 1.
        let (x, m, w) = ([1e300, 1e300, 1.0], [0.0, 0.0, 0.0], [1e300, -1e300, 1.0]);
        let mu = margin(Row::Dense(&x), Label::Pos, &m, &w);
        assert!(!mu.is_nan());
        // The scaled sum loses the 1 next to 1e600-sized terms but cancels the rest: 0 or 1.
        assert!(mu.abs() <= 1.0, "{mu}");
        // Overflow with no cancellation is +inf, its true size, for either label.
        let big = margin(Row::Dense(&[f64::MAX]), Label::Neg, &[f64::MIN], &[2.0]);
        assert_eq!(big, f64::NEG_INFINITY);
        // x - m itself overflowing is handled by halving: MAX/2 - (-MAX/2) = MAX, times 0.5.
        let half = margin(Row::Dense(&[f64::MAX]), Label::Pos, &[f64::MIN], &[0.25]);
        assert!(close(half, f64::MAX / 2.0), "{half}");
    }

    #[test]
    fn scalar_and_vector_forms_share_one_implementation() {
        // The value returned by loss_and_grad is psi(mu, s2) of the scalar functions.
        let (x, m, w, sw) = ([0.5, 1.5], [0.0, 1.0], [2.0, -1.0], [0.2, 0.1]);
        let inputs = Inputs {
            x: Row::Dense(&x),
            y: Label::Pos,
            m: &m,
            sw: &sw,
            w: &w,
        };
        let mu = inputs.margin();
        let mut g = [0.0; 2];
        assert_eq!(
            loss_and_grad(Surrogate::Moment, &inputs, 0.3, &mut g),
            psi_m(mu, 0.3).value
        );
        assert_eq!(
            loss_and_grad(Surrogate::Square, &inputs, 0.3, &mut g),
            psi_s(mu, 0.3).value
        );
    }
}
