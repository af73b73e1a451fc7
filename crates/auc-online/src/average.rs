//! Averaged iterates (Polyak-Ruppert) for any linear online learner (conventions section 5).
//!
//! With a constant step near the edge of stability a pass can end on a poor last iterate; the
//! running mean $\bar w_t = \frac1t \sum_{s \le t} w_s$ of the iterates is far steadier. The
//! papers' algorithms score with the last iterate, so averaging is an option, off by default.

use auc_core::{Divergence, Label, OnlineLearner, Row, SavedState, Scorer, StateError, check};
use serde::{Deserialize, Serialize};

/// A linear scorer $f(x) = w^\top x$ whose weights can be read.
pub trait Linear {
    /// The weight vector $w$ the learner scores with.
    fn weights(&self) -> &[f64];
}

/// A learner that updates like `L` and scores with the mean of `L`'s iterates after each update,
/// $\bar w_t = \bar w_{t-1} + (w_t - \bar w_{t-1}) / t$. Costs $O(p)$ per update on top of `L`'s
/// step, also for sparse rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Averaged<L> {
    inner: L,
    mean: Vec<f64>,
    t: u64,
}

impl<L: Linear> Averaged<L> {
    /// Wraps a fresh learner; before any update the average is the learner's own weights.
    pub fn new(inner: L) -> Self {
        let mean = inner.weights().to_vec();
        Self { inner, mean, t: 0 }
    }

    /// The wrapped learner (its last iterate).
    pub fn inner(&self) -> &L {
        &self.inner
    }
}

impl<L: Linear> Linear for Averaged<L> {
    fn weights(&self) -> &[f64] {
        &self.mean
    }
}

impl<L: Linear + Scorer> Scorer for Averaged<L> {
    fn score(&self, x: Row<'_>) -> f64 {
        x.dot(&self.mean)
    }

    /// The wrapped learner's: a diverged last iterate makes the average meaningless too.
    fn divergence(&self) -> Option<Divergence> {
        self.inner.divergence()
    }
}

impl<L: Linear + SavedState> SavedState for Averaged<L> {
    const STATE_VERSION: u32 = L::STATE_VERSION;

    fn validate(&self) -> Result<(), StateError> {
        self.inner.validate()?;
        check::len("mean", self.mean.len(), self.inner.weights().len())?;
        check::finite("mean", &self.mean)
    }
}

impl<L: Linear + OnlineLearner> OnlineLearner for Averaged<L> {
    fn update(&mut self, x: Row<'_>, y: Label) {
        self.inner.update(x, y);
        self.t += 1;
        let inv = 1.0 / self.t as f64;
        for (m, w) in self.mean.iter_mut().zip(self.inner.weights()) {
            *m += (w - *m) * inv;
        }
    }

    /// Grows the wrapped learner, then pads the mean with zeros: every iterate had 0 there.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.inner.grow(dim)?;
        crate::grow_zeros(&mut self.mean, dim);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Small dyadic values: the means below are exact.
mod tests {
    use super::*;
    use crate::PerceptronParams;
    use auc_core::Label::{Neg, Pos};
    use auc_core::OnlineParams;

    #[test]
    fn the_average_is_the_mean_of_the_iterates() {
        // Perceptron iterates: (1, 0) after (1, 0)+; (1, -1) after (0, 1)-; unchanged after (2, -1)+.
        // Mean of (1, 0), (1, -1), (1, -1) = (1, -2/3).
        let mut a = Averaged::new(PerceptronParams {}.build(2, 0).unwrap());
        for (x, y) in [([1.0, 0.0], Pos), ([0.0, 1.0], Neg), ([2.0, -1.0], Pos)] {
            a.update(Row::Dense(&x), y);
        }
        assert_eq!(a.inner().weights(), &[1.0, -1.0]);
        assert_eq!(a.weights()[0], 1.0);
        assert!((a.weights()[1] + 2.0 / 3.0).abs() < 1e-15);
        assert!((a.score(Row::Dense(&[0.0, 3.0])) + 2.0).abs() < 1e-15);
    }
}
