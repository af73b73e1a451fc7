//! The traits every learner implements, and their object-safe forms used by the evaluation layer.

use crate::{Dataset, FitError, Label, ParamError, Row};

/// A learned scoring function $f: \mathbb{R}^p \to \mathbb{R}$; larger means more likely positive.
pub trait Scorer {
    /// $f(x)$. Never NaN for finite input.
    fn score(&self, x: Row<'_>) -> f64;

    /// $f$ on every row of `data`, in order.
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        data.iter().map(|(x, _)| self.score(x)).collect()
    }
}

/// A one-pass learner: sees each example once, in stream order, in memory independent of the
/// stream's length. Cannot fail: bad input is rejected upstream, at the data layer.
pub trait OnlineLearner: Scorer {
    /// Takes one step on example `(x, y)`.
    fn update(&mut self, x: Row<'_>, y: Label);
}

/// Checked parameters that build an online learner for dimension $p$.
pub trait OnlineParams {
    /// The learner they build.
    type Learner: OnlineLearner;

    /// Validates the parameters and builds a fresh learner for `dim` features.
    fn build(&self, dim: usize) -> Result<Self::Learner, ParamError>;

    /// As [`OnlineParams::build`], with `seed` driving every random choice the learner makes
    /// (reservoir buffers, sampling). Learners that draw no random numbers keep this default,
    /// which ignores the seed; randomized learners override it (and make `build` use seed 0).
    fn build_seeded(&self, dim: usize, seed: u64) -> Result<Self::Learner, ParamError> {
        let _ = seed;
        self.build(dim)
    }
}

/// A (batch) training procedure: what the evaluation layer calls.
pub trait Fit {
    /// The trained model.
    type Model: Scorer;

    /// Trains on `train`. `seed` drives every random choice the procedure makes (SPEC section 1).
    fn fit(&self, train: &Dataset, seed: u64) -> Result<Self::Model, FitError>;
}

/// Fits an online learner by streaming the training rows once, **in the dataset's order**.
///
/// Whoever builds the dataset decides the order; the evaluation layer feeds every training part
/// in a seeded random permutation (SPEC section 1). The seed goes to
/// [`OnlineParams::build_seeded`], for learners that make random choices of their own.
#[derive(Clone, Debug, PartialEq)]
pub struct Streaming<P>(pub P);

impl<P: OnlineParams> Fit for Streaming<P> {
    type Model = P::Learner;

    fn fit(&self, train: &Dataset, seed: u64) -> Result<Self::Model, FitError> {
        let mut learner = self.0.build_seeded(train.dim(), seed)?;
        for (x, y) in train.iter() {
            learner.update(x, y);
        }
        Ok(learner)
    }
}

/// A trained model behind a pointer, as returned by [`DynFit`].
pub type BoxedModel = Box<dyn Scorer + Send + Sync>;

/// The object-safe form of [`Fit`], so that one protocol can run any algorithm.
pub trait DynFit: Send + Sync {
    /// As [`Fit::fit`], boxing the model.
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError>;

    /// As [`DynFit::fit_dyn`], also shown the features of the rows the model will score
    /// (`unlabeled`), for transductive procedures such as GAM-CVM, whose kernel is built on
    /// training and test points together (SPEC section 7). The evaluation layer passes each
    /// validation or test part here; a procedure must not read its labels. The default ignores
    /// `unlabeled` and calls `fit_dyn`, so inductive learners need not know about it.
    fn fit_transductive(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        seed: u64,
    ) -> Result<BoxedModel, FitError> {
        let _ = unlabeled;
        self.fit_dyn(train, seed)
    }

    /// An online learner for `dim` features when the procedure is a one-pass learner (so that
    /// convergence curves and prequential evaluation can watch it step by step), else `None`.
    fn online(&self, dim: usize) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>>;
}

impl<P> DynFit for Streaming<P>
where
    P: OnlineParams + Send + Sync,
    P::Learner: Send + Sync + 'static,
{
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        Ok(Box::new(self.fit(train, seed)?))
    }

    fn online(&self, dim: usize) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        Some(
            self.0
                .build(dim)
                .map(|l| Box::new(l) as Box<dyn OnlineLearner + Send>),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Label::{Neg, Pos};

    /// Scores by the running mean of positives minus the running mean of negatives, in 1-d.
    struct MeanGap {
        sums: [f64; 2],
        counts: [f64; 2],
    }

    impl Scorer for MeanGap {
        fn score(&self, x: Row<'_>) -> f64 {
            let m = |k: usize| {
                if self.counts[k] > 0.0 {
                    self.sums[k] / self.counts[k]
                } else {
                    0.0
                }
            };
            x.get(0) * (m(0) - m(1))
        }
    }

    impl OnlineLearner for MeanGap {
        fn update(&mut self, x: Row<'_>, y: Label) {
            self.sums[y.index()] += x.get(0);
            self.counts[y.index()] += 1.0;
        }
    }

    struct MeanGapParams;

    impl OnlineParams for MeanGapParams {
        type Learner = MeanGap;
        fn build(&self, dim: usize) -> Result<MeanGap, ParamError> {
            if dim != 1 {
                return Err(ParamError::OutOfRange {
                    name: "dim",
                    value: dim as f64,
                    allowed: "1",
                });
            }
            Ok(MeanGap {
                sums: [0.0; 2],
                counts: [0.0; 2],
            })
        }
    }

    #[test]
    fn streaming_fit_visits_every_row_once() {
        // Positives at 3 and 5 (mean 4), negatives at -1 (mean -1): f(x) = 5 x.
        let data = Dataset::dense(1, vec![3.0, -1.0, 5.0], vec![Pos, Neg, Pos]).unwrap();
        let fit: &dyn DynFit = &Streaming(MeanGapParams);
        let model = fit.fit_dyn(&data, 0).unwrap();
        assert_eq!(model.score_all(&data), vec![15.0, -5.0, 25.0]);
        assert!(fit.online(1).unwrap().is_ok());
        assert!(fit.online(2).unwrap().is_err());
    }

    #[test]
    fn public_types_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Dataset>();
        check::<crate::ParamMap>();
        check::<FitError>();
        check::<Streaming<MeanGapParams>>();
    }
}
