//! Helpers shared by the lemma tests: proptest configuration, point-cloud strategies, and
//! two-pass moments computed independently of the crate under test.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use auc_core::testing::finite;
use auc_core::{Label, Row, SparseVec};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

/// `PROPTEST_CASES` cases if set, else `default`; failures are saved in
/// `proptest-regressions/<file>` (relative to the crate, where `cargo test` runs) and replayed.
pub(crate) fn config(default: u32, regressions: &'static str) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok());
    Config {
        cases: cases.unwrap_or(default),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        ..Config::default()
    }
}

/// One coordinate: continuous, or on a half-integer grid (ties, exact zeros, exact ones).
pub(crate) fn coord(bound: f64) -> impl Strategy<Value = f64> {
    let steps = (2.0 * bound) as i32;
    prop_oneof![
        3 => finite(-bound, bound),
        1 => (-steps..=steps).prop_map(|k| f64::from(k) * 0.5),
    ]
}

/// A scoring problem: the example `(x, y)`, the opposite class's points and a weight vector.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub(crate) x: Vec<f64>,
    pub(crate) y: Label,
    pub(crate) points: Vec<Vec<f64>>,
    pub(crate) w: Vec<f64>,
    /// Pass `x` as a sparse row (its non-zero entries) instead of a dense one.
    pub(crate) sparse: bool,
}

impl Problem {
    /// Dimension `p`.
    pub(crate) fn dim(&self) -> usize {
        self.x.len()
    }

    /// The sparse view of `x`, built on demand.
    pub(crate) fn sparse_x(&self) -> SparseVec {
        SparseVec::from_pairs(
            self.x
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, &v)| (j as u32, v)),
        )
        .expect("increasing indices, finite values")
    }

    /// `x` as the crate sees it; `holder` keeps a sparse copy alive.
    pub(crate) fn row<'a>(&'a self, holder: &'a mut Option<SparseVec>) -> Row<'a> {
        if self.sparse {
            Row::Sparse(holder.insert(self.sparse_x()).view())
        } else {
            Row::Dense(&self.x)
        }
    }

    /// The pairwise margins $c_i = y w^\top (x - x_i)$, each summed coordinate by coordinate.
    pub(crate) fn pairwise_margins(&self, w: &[f64]) -> Vec<f64> {
        self.points
            .iter()
            .map(|xi| {
                let s: f64 = (0..self.dim()).map(|j| w[j] * (self.x[j] - xi[j])).sum();
                self.y.sign() * s
            })
            .collect()
    }
}

/// Problems with `p` in `dims`, `n` in `ns` opposite-class points, coordinates in
/// `[-bound, bound]`. Weighted edge cases: a single point, two points, all points equal
/// ($\Sigma = 0$), the zero weight vector.
pub(crate) fn problem(
    dims: std::ops::RangeInclusive<usize>,
    ns: std::ops::RangeInclusive<usize>,
    bound: f64,
) -> impl Strategy<Value = Problem> {
    let n_lo = *ns.start();
    (dims, ns, 0u8..10).prop_flat_map(move |(p, n, shape)| {
        let n = match shape {
            0 => 1,
            1 => 2.max(n_lo),
            _ => n,
        };
        let points = if shape == 2 {
            vec(coord(bound), p).prop_map(move |pt| vec![pt; n]).boxed()
        } else {
            vec(vec(coord(bound), p), n).boxed()
        };
        let w = if shape == 3 {
            Just(vec![0.0; p]).boxed()
        } else {
            vec(coord(3.0), p).boxed()
        };
        (
            vec(coord(bound), p),
            any::<bool>(),
            points,
            w,
            any::<bool>(),
        )
            .prop_map(|(x, pos, points, w, sparse)| Problem {
                x,
                y: if pos { Label::Pos } else { Label::Neg },
                points,
                w,
                sparse,
            })
    })
}

/// Population moments of a point cloud by the two-pass formulas: the mean, then
/// $\Sigma = \frac1n \sum_i (x_i - \bar x)(x_i - \bar x)^\top$ (row-major, $p \times p$).
pub(crate) fn moments(points: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let n = points.len() as f64;
    let p = points[0].len();
    let mut mean = vec![0.0; p];
    for pt in points {
        for (m, v) in mean.iter_mut().zip(pt) {
            *m += v;
        }
    }
    mean.iter_mut().for_each(|m| *m /= n);
    let mut cov = vec![0.0; p * p];
    for pt in points {
        for a in 0..p {
            for b in 0..p {
                cov[a * p + b] += (pt[a] - mean[a]) * (pt[b] - mean[b]);
            }
        }
    }
    cov.iter_mut().for_each(|c| *c /= n);
    (mean, cov)
}

/// $\Sigma w$ for a row-major $p \times p$ matrix.
pub(crate) fn mat_vec(cov: &[f64], w: &[f64]) -> Vec<f64> {
    let p = w.len();
    (0..p)
        .map(|a| (0..p).map(|b| cov[a * p + b] * w[b]).sum())
        .collect()
}

/// $u^\top v$.
pub(crate) fn dot(u: &[f64], v: &[f64]) -> f64 {
    u.iter().zip(v).map(|(a, b)| a * b).sum()
}

/// Euclidean norm.
pub(crate) fn norm(u: &[f64]) -> f64 {
    dot(u, u).sqrt()
}

/// Mean and population variance of numbers, two-pass.
pub(crate) fn mean_var(c: &[f64]) -> (f64, f64) {
    let n = c.len() as f64;
    let mu = c.iter().sum::<f64>() / n;
    let var = c.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n;
    (mu, var)
}

/// $\frac1n \sum_i \max(0, 1 - c_i)$.
pub(crate) fn mean_hinge(c: &[f64]) -> f64 {
    c.iter().map(|v| (1.0 - v).max(0.0)).sum::<f64>() / c.len() as f64
}
