//! [OAUC Lemma 4] (properties of $\Psi_M(w) = \psi_M(y w^\top (x - \bar x), w^\top \Sigma w)$) as
//! property tests: the gradient (eq. 14, in the crate's $1/\sqrt{A}$ form) against central finite
//! differences and against eq. 14 as printed, convexity along segments and the first-order
//! (subgradient) inequality, and $\lVert \nabla \Psi_M \rVert \le 3$ on the unit ball. The square
//! surrogate $\Psi_S$ is checked alongside where the claim applies to it too.
//!
//! Also a counterexample to part 1 of the lemma ("$\Psi_M$ is differentiable"): where $A = 0$ it
//! has a kink.

mod common;

use auc_core::testing::finite;
use auc_core::testing::tol::close_with;
use auc_core::{Label, Row};
use auc_surrogate::{Inputs, Surrogate, big_phi_m, loss, loss_and_grad, phi_m};
use common::{config, coord, dot, mat_vec, moments, norm};
use proptest::collection::vec;
use proptest::prelude::*;

/// The example and the opposite class's moments, fixed while $w$ varies.
#[derive(Clone, Debug)]
struct Fixed {
    x: Vec<f64>,
    y: Label,
    mean: Vec<f64>,
    cov: Vec<f64>,
}

impl Fixed {
    fn new(x: Vec<f64>, y: Label, points: &[Vec<f64>]) -> Self {
        let (mean, cov) = moments(points);
        Self { x, y, mean, cov }
    }

    /// $\Psi(w)$, with $S w$ and $w^\top S w$ recomputed from the fixed $S$.
    fn value(&self, kind: Surrogate, w: &[f64]) -> f64 {
        let sw = mat_vec(&self.cov, w);
        loss(kind, &self.inputs(&sw, w), dot(w, &sw))
    }

    /// $(\Psi(w), \nabla \Psi(w))$.
    fn value_and_grad(&self, kind: Surrogate, w: &[f64]) -> (f64, Vec<f64>) {
        let sw = mat_vec(&self.cov, w);
        let mut g = vec![f64::NAN; w.len()];
        let v = loss_and_grad(kind, &self.inputs(&sw, w), dot(w, &sw), &mut g);
        (v, g)
    }

    fn inputs<'a>(&'a self, sw: &'a [f64], w: &'a [f64]) -> Inputs<'a> {
        Inputs {
            x: Row::Dense(&self.x),
            y: self.y,
            m: &self.mean,
            sw,
            w,
        }
    }

    /// $\sqrt{A(w)}$, the distance from the kink.
    fn root_a(&self, w: &[f64]) -> f64 {
        let d: Vec<f64> = self.x.iter().zip(&self.mean).map(|(a, b)| a - b).collect();
        let b = 1.0 - self.y.sign() * dot(w, &d);
        let s2 = dot(w, &mat_vec(&self.cov, w)).max(0.0);
        b.hypot(s2.sqrt())
    }
}

fn label() -> impl Strategy<Value = Label> {
    any::<bool>().prop_map(|b| if b { Label::Pos } else { Label::Neg })
}

/// $(p, n)$ with $p \le 4$ and $n \le 8$, weighted towards $n = 1$ (so $\Sigma = 0$) and $n = 2$.
fn sizes() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        4 => (1usize..=4, 1usize..=8),
        1 => (1usize..=4, 1usize..=2),
    ]
}

/// A fixed example and cloud with coordinates in $[-1, 1]$, plus `k` weight vectors in
/// $[-3, 3]^p$.
fn setup(k: usize) -> impl Strategy<Value = (Fixed, Vec<Vec<f64>>)> {
    sizes().prop_flat_map(move |(p, n)| {
        (
            vec(coord(1.0), p),
            label(),
            vec(vec(coord(1.0), p), n),
            vec(vec(coord(3.0), p), k),
        )
            .prop_map(|(x, y, points, ws)| (Fixed::new(x, y, &points), ws))
    })
}

/// Like [`setup`] with one weight vector, but with $n \ge 2$ continuous points and non-zero
/// weights, so that $w^\top \Sigma w > 0$ except on a set of tiny probability.
fn spread_setup() -> impl Strategy<Value = (Fixed, Vec<f64>)> {
    (1usize..=4, 2usize..=8).prop_flat_map(|(p, n)| {
        let c = || vec(finite(-1.0, 1.0), p);
        let w = vec(prop_oneof![finite(-3.0, -0.1), finite(0.1, 3.0)], p);
        (c(), label(), vec(c(), n), w).prop_map(|(x, y, points, w)| (Fixed::new(x, y, &points), w))
    })
}

/// A point where $A = 0$ exactly while $\Sigma \ne 0$: two points $m \pm t e_1$, the example
/// $x = m + e_0$, and $w = y e_0 + \sum_{j \ge 2} r_j e_j$ (so $\mu = 1$ and $w^\top \Sigma w = 0$).
/// All coordinates are on a half-integer grid, so every step is exact. Returns $(F, w, v)$ with a
/// second, arbitrary weight vector $v$.
fn kink() -> impl Strategy<Value = (Fixed, Vec<f64>, Vec<f64>)> {
    (2usize..=4).prop_flat_map(|p| {
        (
            vec((-2i32..=2).prop_map(|k| f64::from(k) * 0.5), p),
            (1i32..=4).prop_map(|k| f64::from(k) * 0.5),
            label(),
            vec((-6i32..=6).prop_map(|k| f64::from(k) * 0.5), p),
            vec(coord(3.0), p),
        )
            .prop_map(|(m, t, y, r, v)| {
                let mut lo = m.clone();
                let mut hi = m.clone();
                lo[1] -= t;
                hi[1] += t;
                let mut x = m.clone();
                x[0] += 1.0;
                let mut w = r;
                w[0] = y.sign();
                w[1] = 0.0;
                (Fixed::new(x, y, &[lo, hi]), w, v)
            })
    })
}

/// Points of the closed unit ball: a cube sample, shrunk onto the sphere if it lies outside.
fn unit_ball_point(p: usize) -> impl Strategy<Value = Vec<f64>> {
    vec(finite(-1.0, 1.0), p).prop_map(|mut v| {
        let r = norm(&v);
        if r > 1.0 {
            v.iter_mut().for_each(|c| *c /= r);
        }
        v
    })
}

/// Weights of every size: moderate, huge, tiny, zero.
fn any_weights(p: usize) -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        4 => vec(finite(-10.0, 10.0), p),
        1 => vec(finite(-1e6, 1e6), p),
        1 => vec(finite(-1e-9, 1e-9), p),
        1 => Just(vec![0.0; p]),
    ]
}

const KINDS: [Surrogate; 2] = [Surrogate::Square, Surrogate::Moment];

proptest! {
    #![proptest_config(config(1000, "proptest-regressions/lemma4.txt"))]

    /// [OAUC Lemma 4], part 1 (and eq. 13 for $\Psi_S$, times 2): the analytic gradient equals
    /// central finite differences of $w \mapsto \psi(y w^\top (x - \bar x), w^\top \Sigma w)$, with
    /// $\bar x$, $\Sigma$ the two-pass moments of a random cloud, so that $S w$ and $w^\top S w$
    /// are consistent.
    ///
    /// Step $h = 10^{-6}$. $\Psi_M$ is checked only where $\sqrt{A} \ge 0.05$ (it has a kink at
    /// $A = 0$; see `lemma_oauc_not_differentiable_where_a_vanishes`). Tolerance $10^{-6}$
    /// absolute plus $10^{-6}$ relative: the truncation error $h^2 |f'''|/6$ is below
    /// $10^{-8}$ there ($|f'''| \lesssim 30/A$ with $|x - \bar x| \le 4$), and the rounding
    /// error $\epsilon |f| / h$ is below $2 \cdot 10^{-7}$ ($|f| \le 625$ for $\Psi_S$).
    #[test]
    fn lemma_oauc_gradient_matches_central_differences((fx, ws) in setup(1)) {
        let w = &ws[0];
        let h = 1e-6;
        for kind in KINDS {
            if kind == Surrogate::Moment && fx.root_a(w) < 0.05 {
                continue;
            }
            let (_, g) = fx.value_and_grad(kind, w);
            for j in 0..w.len() {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[j] += h;
                down[j] -= h;
                let fd = (fx.value(kind, &up) - fx.value(kind, &down)) / (2.0 * h);
                prop_assert!(
                    close_with(g[j], fd, 1e-6, 1e-6),
                    "{kind:?} d/dw_{j}: analytic {} vs central difference {fd}", g[j]
                );
            }
        }
    }

    /// [OAUC eq. 14] as printed, $-\Phi_M(v) y (x - \bar x) + \phi_M(v) \Sigma w / \sigma$ with
    /// $\sigma = \sqrt{w^\top \Sigma w}$ and $v = (1 - \mu)/\sigma$, equals the crate's gradient
    /// $-\frac12 (1 + b/\sqrt{A}) y (x - \bar x) + \Sigma w / (2\sqrt{A})$ wherever
    /// $\sigma \ge 10^{-3}$ (where eq. 14 is defined and well conditioned).
    ///
    /// Tolerance: relative $10^{-9}$ plus absolute $10^{-12}$ of the terms' size
    /// $1 + |x_j - \bar x_j| + |(\Sigma w)_j| / \sigma$; both sides are a few correctly rounded
    /// operations on the same inputs.
    #[test]
    fn lemma_oauc_gradient_matches_eq14((fx, w) in spread_setup()) {
        let w = &w;
        let sw = mat_vec(&fx.cov, w);
        let sigma = dot(w, &sw).max(0.0).sqrt();
        prop_assume!(sigma >= 1e-3, "eq. 14 divides by sigma");
        let (_, g) = fx.value_and_grad(Surrogate::Moment, w);
        let d: Vec<f64> = fx.x.iter().zip(&fx.mean).map(|(a, b)| a - b).collect();
        let mu = fx.y.sign() * dot(w, &d);
        let v = (1.0 - mu) / sigma;
        for j in 0..w.len() {
            let eq14 = -big_phi_m(v) * fx.y.sign() * d[j] + phi_m(v) * sw[j] / sigma;
            let size = 1.0 + d[j].abs() + sw[j].abs() / sigma;
            prop_assert!(
                close_with(g[j], eq14, 1e-12 * size, 1e-9),
                "component {j}: ours {} vs eq. 14 {eq14}", g[j]
            );
        }
    }

    /// [OAUC Lemma 4], part 2: $\Psi_M$ (and $\Psi_S$) is convex:
    /// $f(a u + (1-a) v) \le a f(u) + (1-a) f(v)$ along random segments $[u, v]$.
    ///
    /// Tolerance $10^{-10} (1 + |f(u)| + |f(v)|)$: each value is accurate to a few hundred ulps
    /// of that size (margins of at most 4 terms, then a handful of operations), and on an affine
    /// piece of the function the two sides are equal in exact arithmetic.
    #[test]
    fn lemma_oauc_convex_along_segments((fx, ws) in setup(2), a in prop_oneof![
        4 => finite(0.0, 1.0), 1 => Just(0.5), 1 => Just(0.0), 1 => Just(1.0)
    ]) {
        let (u, v) = (&ws[0], &ws[1]);
        let mid: Vec<f64> = u.iter().zip(v).map(|(ui, vi)| a * ui + (1.0 - a) * vi).collect();
        for kind in KINDS {
            let (fu, fv, fm) = (fx.value(kind, u), fx.value(kind, v), fx.value(kind, &mid));
            let chord = a * fu + (1.0 - a) * fv;
            prop_assert!(
                fm <= chord + 1e-10 * (1.0 + fu.abs() + fv.abs()),
                "{kind:?}: f(mid) = {fm} above the chord {chord}"
            );
        }
    }

    /// [OAUC Lemma 4], parts 1-2 together: the returned gradient $g(u)$ satisfies the
    /// first-order convexity inequality $f(v) \ge f(u) + g(u)^\top (v - u)$ for all $v$, i.e. it
    /// is a subgradient. This also covers the kink $A = 0$ (weighted edge case, built exactly
    /// with $\Sigma \ne 0$), where the crate returns the hinge subgradient $0$.
    ///
    /// Tolerance $10^{-10} (1 + |f(u)| + |f(v)| + \lVert g \rVert \lVert v - u \rVert)$, the
    /// size of the terms compared (see the convexity test).
    #[test]
    fn lemma_oauc_gradient_is_a_subgradient((fx, u, v) in prop_oneof![
        3 => setup(2).prop_map(|(fx, ws)| (fx, ws[0].clone(), ws[1].clone())),
        1 => kink(),
    ]) {
        for kind in KINDS {
            let (fu, g) = fx.value_and_grad(kind, &u);
            let fv = fx.value(kind, &v);
            let step: Vec<f64> = v.iter().zip(&u).map(|(a, b)| a - b).collect();
            let linear = fu + dot(&g, &step);
            let tol = 1e-10 * (1.0 + fu.abs() + fv.abs() + norm(&g) * norm(&step));
            prop_assert!(fv >= linear - tol, "{kind:?}: f(v) = {fv} < f(u) + g.(v - u) = {linear}");
        }
    }

    /// [OAUC Lemma 4], part 3: if the example and all opposite-class points lie in the unit ball,
    /// $\lVert \nabla \Psi_M(w) \rVert \le 3$ for every $w$ (including $w = 0$, huge and tiny
    /// $w$). Also the sharper constant $1 + \sqrt5/2 \approx 2.118$ that follows from
    /// $\mathrm{tr}\Sigma \le 1$ (the appendix bounds the trace by $4$; see
    /// `docs/math/psi-m-gradient.md`), and that trace bound itself.
    ///
    /// Tolerance: none for $3$ (the slack is large); $10^{-9}$ for the sharp constant and the
    /// trace, whose inputs are rounded onto the sphere (norm $1$ up to an ulp).
    #[test]
    fn lemma_oauc_gradient_norm_at_most_three(
        (x, points, w, y) in (1usize..=4, 1usize..=8).prop_flat_map(|(p, n)| (
            unit_ball_point(p),
            vec(unit_ball_point(p), n),
            any_weights(p),
            label(),
        ))
    ) {
        let fx = Fixed::new(x, y, &points);
        let p = w.len();
        let trace: f64 = (0..p).map(|j| fx.cov[j * p + j]).sum();
        prop_assert!(trace <= 1.0 + 1e-9, "tr(Sigma) = {trace} > 1");
        let (_, g) = fx.value_and_grad(Surrogate::Moment, &w);
        let size = norm(&g);
        prop_assert!(size <= 3.0, "|grad| = {size} > 3");
        prop_assert!(size <= 1.0 + 5f64.sqrt() / 2.0 + 1e-9, "|grad| = {size} > 1 + sqrt(5)/2");
    }

    /// The identity $v \Phi_M'(v) + \phi_M'(v) = 0$ used in the proof of [OAUC Lemma 4] (it is
    /// why the derivative of $v$ drops out of the gradient), and $\Phi_M'(v) = 4 \phi_M(v)^3$,
    /// checked with central differences of [`big_phi_m`] and [`phi_m`].
    ///
    /// Step $h = 10^{-5} (1 + |v|)$; tolerance $10^{-7}$ absolute: the derivatives are at most
    /// $1/2$ in size, the truncation error is $O(h^2)$ times bounded third derivatives, and the
    /// rounding error is about $\epsilon / h \le 2 \cdot 10^{-11}$.
    #[test]
    fn lemma_oauc_phi_derivative_identity(v in prop_oneof![
        4 => finite(-50.0, 50.0), 1 => Just(0.0), 1 => finite(-1.0, 1.0)
    ]) {
        let h = 1e-5 * (1.0 + v.abs());
        let big_d = (big_phi_m(v + h) - big_phi_m(v - h)) / (2.0 * h);
        let small_d = (phi_m(v + h) - phi_m(v - h)) / (2.0 * h);
        prop_assert!((v * big_d + small_d).abs() <= 1e-7, "v Phi' + phi' = {}", v * big_d + small_d);
        prop_assert!((big_d - 4.0 * phi_m(v).powi(3)).abs() <= 1e-7);
    }
}

/// Correction to [OAUC Lemma 4], part 1: $\Psi_M$ is not differentiable where
/// $A = (1 - \mu)^2 + w^\top \Sigma w = 0$, which happens with $\Sigma \ne 0$ whenever $w$ is in
/// the null space of $\Sigma$ and $y w^\top (x - \bar x) = 1$.
///
/// Here $\bar x = 0$, $\Sigma = \mathrm{diag}(0, 1)$ (points $(0, \pm 1)$), $x = (1, 0)$, $y = +1$,
/// $w = (1, 0)$: $\mu = 1$, $A = 0$, $\Psi_M(w) = 0$. Moving along $\pm e_1$ keeps $\mu = 1$ and
/// gives $\Psi_M(w \pm h e_1) = \sqrt{h^2}/2 = h/2$: both one-sided slopes are $+1/2$, which no
/// gradient can produce (it would make them opposite). The crate returns $0$ there, a valid
/// subgradient since $\Psi_M \ge 0$. All numbers are exact in binary, except $h$.
#[test]
#[allow(clippy::float_cmp)] // 0, 1 and 0.5 are exact results here (see the doc comment).
fn lemma_oauc_not_differentiable_where_a_vanishes() {
    let fx = Fixed::new(
        vec![1.0, 0.0],
        Label::Pos,
        &[vec![0.0, 1.0], vec![0.0, -1.0]],
    );
    assert_eq!(fx.cov, [0.0, 0.0, 0.0, 1.0]);
    let w = [1.0, 0.0];
    let (value, g) = fx.value_and_grad(Surrogate::Moment, &w);
    assert_eq!((value, g.as_slice()), (0.0, [0.0, 0.0].as_slice()));
    for h in [1e-2, 1e-4, 1e-6] {
        let up = fx.value(Surrogate::Moment, &[1.0, h]);
        let down = fx.value(Surrogate::Moment, &[1.0, -h]);
        // (f(w + h e1) + f(w - h e1) - 2 f(w)) / h would tend to 0 if f were differentiable.
        let second = (up + down - 2.0 * value) / h;
        assert!((second - 1.0).abs() <= 1e-12, "h = {h}: {second}");
    }
}
