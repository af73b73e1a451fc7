//! Helpers shared by the learner tests: seeded Gaussian streams and a brute-force AUC.

#![allow(dead_code, unreachable_pub)] // Each test file uses some of these.

use auc_core::Label::{self, Neg, Pos};
use auc_core::{OnlineLearner, Row, Scorer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Updates `l` on every example of `stream`, in order.
pub fn feed<L: OnlineLearner>(l: &mut L, stream: &[(Vec<f64>, Label)]) {
    for (x, y) in stream {
        l.update(Row::Dense(x), *y);
    }
}

/// A standard normal draw (Box-Muller).
pub fn normal(rng: &mut StdRng) -> f64 {
    let u1 = 1.0 - rng.random::<f64>(); // in (0, 1]
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Two Gaussians in `p` dimensions, unit covariance, means `+0.6` and `-0.6` in every
/// coordinate (Bayes AUC = Phi(0.6 * 2 sqrt(p) / sqrt 2) = Phi(1.70) = 0.955 at p = 4); one
/// positive for three negatives.
pub fn two_gaussians(n: usize, p: usize, seed: u64) -> Vec<(Vec<f64>, Label)> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let y = if rng.random_range(0..4) == 0 {
                Pos
            } else {
                Neg
            };
            let x = (0..p).map(|_| 0.6 * y.sign() + normal(&mut rng)).collect();
            (x, y)
        })
        .collect()
}

/// Wilcoxon-Mann-Whitney AUC by brute force over all pairs, ties counted 1/2.
#[allow(clippy::float_cmp)] // A tie is exact equality of two scores, by the AUC's definition.
pub fn auc<S: Scorer>(model: &S, data: &[(Vec<f64>, Label)]) -> f64 {
    let scores: Vec<(f64, Label)> = data
        .iter()
        .map(|(x, y)| (model.score(Row::Dense(x)), *y))
        .collect();
    let (mut wins, mut pairs) = (0.0, 0.0);
    for (sp, _) in scores.iter().filter(|(_, y)| *y == Pos) {
        for (sn, _) in scores.iter().filter(|(_, y)| *y == Neg) {
            pairs += 1.0;
            if sp > sn {
                wins += 1.0;
            } else if sp == sn {
                wins += 0.5;
            }
        }
    }
    wins / pairs
}
