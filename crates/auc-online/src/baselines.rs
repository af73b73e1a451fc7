//! Classification baselines: the Perceptron and PA-I.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, SavedState, Scorer, StateError, check,
};
use serde::{Deserialize, Serialize};

use crate::{Linear, linear_divergence};

/// Parameters of the [`Perceptron`]: it has none (with $w_0 = 0$ a step size only rescales $w$,
/// which leaves every AUC unchanged).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerceptronParams {}

impl Params for PerceptronParams {
    const NAME: &'static str = "perceptron";
    const TITLE: &'static str = "Perceptron";
    const ABOUT: &'static str = "Perceptron [Rosenblatt58]: w += y x on each mistake; classification baseline of [OAUC sec. 6.1]";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[];
    const GRID: &'static [&'static str] = &[];
}

impl OnlineParams for PerceptronParams {
    type Learner = Perceptron;

    fn build(&self, dim: usize, _seed: u64) -> Result<Perceptron, ParamError> {
        Ok(Perceptron { w: vec![0.0; dim] })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        8 * dim as u64
    }
}

/// The Perceptron \[Rosenblatt58\], as the first baseline of [OAUC sec. 6.1]: on a mistake,
/// $y_t w^\top x_t \le 0$, it steps $w \leftarrow w + y_t x_t$.
///
/// The mistake test uses $\le$, so the first example (scored 0 by $w_0 = 0$) always updates.
/// Weights saturate at the largest finite value instead of overflowing (features near $10^{308}$
/// without scaling), so the state stays finite; such a run reports itself as diverged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perceptron {
    w: Vec<f64>,
}

impl Linear for Perceptron {
    /// A step adds a multiple of $x$.
    const SPARSE_STEPS: bool = true;

    fn weights(&self) -> &[f64] {
        &self.w
    }
}

impl Scorer for Perceptron {
    fn score(&self, x: Row<'_>) -> f64 {
        x.dot(&self.w)
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(&self.w, None, 0)
    }
}

impl OnlineLearner for Perceptron {
    fn prefetch(&self, x: Row<'_>) {
        crate::prefetch_rows_features(x, &self.w);
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        let yv = y.sign();
        if yv * x.dot(&self.w) <= 0.0 {
            crate::saturating_axpy(x, yv, &mut self.w);
        }
    }

    /// Pads $w$ with zeros: a zero feature never moves its weight.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        crate::grow_zeros(&mut self.w, dim);
        Ok(())
    }
}

impl SavedState for Perceptron {
    /// Version 2 saves the averaged state with its step counters ([`crate::Averaged`]'s lazy
    /// averaging); version 1 files (the same learner layout, an averaged state without counters)
    /// still read.
    const STATE_VERSION: u32 = 2;
    const OLDEST_STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        check::finite("w", &self.w)
    }
}

/// Parameters of [`PaI`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PaIParams {
    /// Aggressiveness $C > 0$: the largest step PA-I may take [PA06, sec. 3].
    pub c: f64,
}

impl Default for PaIParams {
    /// $C = 2^{-2}$, chosen by measurement across the 19 data sets of `docs/results/linear.md`
    /// (`docs/results/defaults.md`: best mean rank of the 11 grid points, 4.3; mean AUC 82.10 %;
    /// leave-one-set-out regret 1.25 points median, 14.99 worst, on splice).
    fn default() -> Self {
        Self { c: 0.25 }
    }
}

impl Params for PaIParams {
    const NAME: &'static str = "pa-i";
    const ALIASES: &'static [&'static str] = &["pa1"];
    const TITLE: &'static str = "PA-I";
    const ABOUT: &'static str = "Passive-aggressive PA-I [PA06]: hinge step capped by c; classification baseline of [OAUC sec. 6.1]";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = &[ParamSpec::real(
        "c",
        Range::Positive,
        "aggressiveness C > 0, the cap on each step [PA06]",
    )];
    const GRID: &'static [&'static str] = &["c=2^-10..2^10:2"];
    const PAPER_GRID: &'static [&'static str] = &["c=2^-10..2^10"];
}

impl OnlineParams for PaIParams {
    type Learner = PaI;

    fn build(&self, dim: usize, _seed: u64) -> Result<PaI, ParamError> {
        self.check()?;
        Ok(PaI {
            c: self.c,
            w: vec![0.0; dim],
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        8 * dim as u64
    }
}

/// Passive-aggressive learning, variant I [PA06, sec. 3], the second baseline of [OAUC sec. 6.1].
///
/// With the hinge loss $\ell_t = \max(0, 1 - y_t w^\top x_t)$ it steps
/// $$w \leftarrow w + \tau_t y_t x_t, \qquad \tau_t = \min\left(C, \frac{\ell_t}{\lVert x_t \rVert^2}\right),$$
/// and does nothing when $\ell_t = 0$ or $x_t = 0$; weights saturate as the Perceptron's do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaI {
    c: f64,
    w: Vec<f64>,
}

impl Linear for PaI {
    /// A step adds a multiple of $x$.
    const SPARSE_STEPS: bool = true;

    fn weights(&self) -> &[f64] {
        &self.w
    }
}

impl Scorer for PaI {
    fn score(&self, x: Row<'_>) -> f64 {
        x.dot(&self.w)
    }

    fn divergence(&self) -> Option<Divergence> {
        linear_divergence(&self.w, None, 0)
    }
}

impl OnlineLearner for PaI {
    fn prefetch(&self, x: Row<'_>) {
        crate::prefetch_rows_features(x, &self.w);
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        let yv = y.sign();
        let (score, norm_sq) = x.dot_and_norm_sq(&self.w);
        let loss = 1.0 - yv * score;
        if loss > 0.0 && norm_sq > 0.0 {
            let tau = self.c.min(loss / norm_sq); // [PA06, PA-I update]
            crate::saturating_axpy(x, tau * yv, &mut self.w);
        }
    }

    /// Pads $w$ with zeros: a zero feature never moves its weight.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        crate::grow_zeros(&mut self.w, dim);
        Ok(())
    }
}

impl SavedState for PaI {
    /// Version 2 saves the averaged state with its step counters ([`crate::Averaged`]'s lazy
    /// averaging); version 1 files (the same learner layout, an averaged state without counters)
    /// still read.
    const STATE_VERSION: u32 = 2;
    const OLDEST_STATE_VERSION: u32 = 1;

    fn validate(&self) -> Result<(), StateError> {
        PaIParams { c: self.c }.check()?;
        check::finite("w", &self.w)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::SparseVec;

    fn run<L: OnlineLearner>(mut l: L, stream: &[(&[f64], Label)]) -> L {
        for (x, y) in stream {
            l.update(Row::Dense(x), *y);
        }
        l
    }

    #[test]
    fn perceptron_steps_only_on_mistakes() {
        // w0 = 0: (1, 0)+ is a mistake (score 0) -> w = (1, 0). (0, 1)- scores 0 -> w = (1, -1).
        // (2, -1)+ scores 3 > 0 -> no step.
        let p = run(
            PerceptronParams {}.build(2, 0).unwrap(),
            &[(&[1.0, 0.0], Pos), (&[0.0, 1.0], Neg), (&[2.0, -1.0], Pos)],
        );
        assert_eq!(p.weights(), &[1.0, -1.0]);
    }

    #[test]
    fn pa_i_step_is_capped_by_c() {
        // x = (2, 0)+, w0 = 0: loss 1, ||x||^2 = 4, tau = min(C, 1/4).
        // C = 1 -> tau = 1/4, w = (0.5, 0), margin exactly 1 afterwards.
        let a = run(
            PaIParams { c: 1.0 }.build(2, 0).unwrap(),
            &[(&[2.0, 0.0], Pos)],
        );
        assert_eq!(a.weights(), &[0.5, 0.0]);
        // C = 0.1 -> tau = 0.1, w = (0.2, 0).
        let b = run(
            PaIParams { c: 0.1 }.build(2, 0).unwrap(),
            &[(&[2.0, 0.0], Pos)],
        );
        assert_eq!(b.weights(), &[0.2, 0.0]);
        // A zero example never moves w (no division by zero).
        let z = run(
            PaIParams { c: 1.0 }.build(2, 0).unwrap(),
            &[(&[0.0, 0.0], Neg)],
        );
        assert_eq!(z.weights(), &[0.0, 0.0]);
    }

    #[test]
    fn sparse_and_dense_rows_give_the_same_model() {
        let rows = [
            (SparseVec::from_pairs([(0, 0.5), (3, -1.0)]).unwrap(), Pos),
            (SparseVec::from_pairs([(1, 2.0)]).unwrap(), Neg),
            (
                SparseVec::from_pairs([(0, -0.25), (1, 1.0), (2, 3.0)]).unwrap(),
                Pos,
            ),
            (SparseVec::from_pairs([(3, 0.75)]).unwrap(), Neg),
        ];
        let mut sparse = PaIParams { c: 0.7 }.build(4, 0).unwrap();
        let mut dense = PaIParams { c: 0.7 }.build(4, 0).unwrap();
        let mut buf = [0.0; 4];
        for (x, y) in &rows {
            sparse.update(Row::Sparse(x.view()), *y);
            Row::Sparse(x.view()).write_dense(&mut buf);
            dense.update(Row::Dense(&buf), *y);
        }
        assert_eq!(sparse.weights(), dense.weights());
    }

    #[test]
    fn params_are_checked() {
        assert!(matches!(
            PaIParams { c: 0.0 }.build(3, 0),
            Err(ParamError::OutOfRange { name: "c", .. })
        ));
        assert_eq!(PaIParams::default().c, 0.25);
    }

    #[test]
    fn huge_features_keep_the_state_finite() {
        // Features near 1e308: scores overflow (NaN or infinite margins take no step), the
        // weights stay finite.
        let mut p = PerceptronParams {}.build(1, 0).unwrap();
        for _ in 0..4 {
            p.update(Row::Dense(&[1e308]), Pos);
            p.update(Row::Dense(&[-1e308]), Pos);
        }
        assert!(p.weights().iter().all(|w| w.is_finite()));
        assert!(p.validate().is_ok());
    }
}
