//! [OAUC Theorem 1] (moment-constrained upper bound for the hinge-based AUC loss, eq. 6) as a
//! property test on random point clouds.

mod common;

use auc_surrogate::{Inputs, Surrogate, loss, margin, psi_m};
use common::{Problem, config, dot, mat_vec, moments, problem};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(2000, "proptest-regressions/theorem1.txt"))]

    /// [OAUC Theorem 1], eq. 6: for an example $(x, y)$, opposite-class points $x_1..x_n$ and any
    /// $w$, with pairwise margins $c_i = y w^\top (x - x_i)$,
    /// $\frac1n \sum_i \mathbb{1}[c_i < 0] \le \frac1n \sum_i \max(0, 1 - c_i)
    /// \le \psi_M(y w^\top (x - \bar x), w^\top \Sigma w)$, where $\bar x$, $\Sigma$ are the
    /// points' mean and population covariance (computed here by two passes, independently of the
    /// crate). Also with ties counted $1/2$ (conventions section 2), which the hinge still bounds.
    ///
    /// The clouds include $n = 1$, $n = 2$, identical points and $w = 0$, where
    /// $w^\top \Sigma w = 0$ and the bound is an equality. The first inequality is checked
    /// exactly (each hinge term is at least its indicator, also after rounding, and rounded
    /// sums are monotone). The second allows an absolute $10^{-12}$ plus relative $10^{-10}$ of
    /// the scale $1 + \sum_j |w_j| (|x_j| + \max_i |x_{ij}|)$: the margins are sums of at most 4
    /// products of numbers below $3$, computed in two different ways, so their rounding error is
    /// about $10^{-15}$ of that scale.
    #[test]
    fn lemma_oauc_pairwise_hinge_at_most_psi_m_of_moments(pb in problem(1..=4, 1..=10, 3.0)) {
        let Problem { x, y, points, w, .. } = &pb;
        let c = pb.pairwise_margins(w);
        let n = c.len() as f64;
        let zero_one = c.iter().filter(|&&ci| ci < 0.0).count() as f64 / n;
        let ties_half = c
            .iter()
            .map(|&ci| if ci < 0.0 { 1.0 } else if ci == 0.0 { 0.5 } else { 0.0 })
            .sum::<f64>()
            / n;
        let hinge = c.iter().map(|ci| (1.0 - ci).max(0.0)).sum::<f64>() / n;
        prop_assert!(zero_one <= hinge && ties_half <= hinge, "{zero_one} {ties_half} {hinge}");

        let (mean, cov) = moments(points);
        let sw = mat_vec(&cov, w);
        let s2 = dot(w, &sw);
        let mut holder = None;
        let row = pb.row(&mut holder);
        let inputs = Inputs { x: row, y: *y, m: &mean, sw: &sw, w };
        let bound = loss(Surrogate::Moment, &inputs, s2);
        prop_assert_eq!(bound.to_bits(), psi_m(margin(row, *y, &mean, w), s2).value.to_bits());

        let max_abs = |j: usize| points.iter().map(|pt| pt[j].abs()).fold(0.0, f64::max);
        let scale = 1.0 + (0..x.len()).map(|j| w[j].abs() * (x[j].abs() + max_abs(j))).sum::<f64>();
        prop_assert!(
            hinge <= bound + 1e-12 + 1e-10 * scale,
            "mean hinge {hinge} > psi_M {bound} (n = {n}, s2 = {s2})"
        );
    }
}
