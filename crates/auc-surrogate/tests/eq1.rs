//! [OAUC eq. 1] as a property test: the mean pairwise square loss against the opposite class
//! equals $\psi_S$ of the class's mean and covariance.

mod common;

use auc_surrogate::{Inputs, Surrogate, loss};
use common::{Problem, config, dot, mat_vec, moments, problem};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(2000, "proptest-regressions/eq1.txt"))]

    /// [OAUC eq. 1]: $\frac1n \sum_i (1 - y w^\top (x - x_i))^2
    /// = (1 - y w^\top (x - \bar x))^2 + w^\top \Sigma w = \psi_S(\mu, \sigma^2)$ with the
    /// population covariance $\Sigma$ (computed here by two passes, independently of the crate).
    ///
    /// Tolerance: relative $10^{-10}$. Both sides are sums of at most 10 non-negative terms, each
    /// built from at most 4 products of numbers below $3$; the terms differ only by rounding, so the
    /// relative difference of the sums is a few hundred ulps at most (about $10^{-13}$), three
    /// orders below the tolerance. The absolute floor $10^{-13} s^2$, with
    /// $s = 1 + \sum_j |w_j| (|x_j| + \max_i |x_{ij}|)$, covers sums near $0$ (the margin is
    /// exact to about $10^{-15} s$, not relatively).
    #[test]
    fn lemma_oauc_pairwise_square_equals_psi_s(pb in problem(1..=4, 1..=10, 3.0)) {
        let Problem { x, y, points, w, .. } = &pb;
        let c = pb.pairwise_margins(w);
        let brute = c.iter().map(|ci| (1.0 - ci) * (1.0 - ci)).sum::<f64>() / c.len() as f64;

        let (mean, cov) = moments(points);
        let sw = mat_vec(&cov, w);
        let s2 = dot(w, &sw);
        let mut holder = None;
        let inputs = Inputs { x: pb.row(&mut holder), y: *y, m: &mean, sw: &sw, w };
        let closed = loss(Surrogate::Square, &inputs, s2);

        let max_abs = |j: usize| points.iter().map(|pt| pt[j].abs()).fold(0.0, f64::max);
        let s = 1.0 + (0..x.len()).map(|j| w[j].abs() * (x[j].abs() + max_abs(j))).sum::<f64>();
        let tol = 1e-13 * s * s + 1e-10 * brute.max(closed);
        prop_assert!((brute - closed).abs() <= tol, "pairwise {brute} != psi_S {closed}");
    }
}
