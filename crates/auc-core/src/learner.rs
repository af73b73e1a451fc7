//! The traits every learner implements, and their object-safe forms used by the evaluation layer.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Dataset, FitError, Label, ParamError, Params, Row, StateError};

/// A learned scoring function $f: \mathbb{R}^p \to \mathbb{R}$; larger means more likely positive.
pub trait Scorer {
    /// $f(x)$. Never NaN for finite input.
    fn score(&self, x: Row<'_>) -> f64;

    /// $f$ on every row of `data`, in order.
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        data.iter().map(|(x, _)| self.score(x)).collect()
    }

    /// Whether the training run went past a bound its theory gives (or hit a safety cap), so
    /// that its scores are not to be trusted: the parameter to lower and what was seen. `None`
    /// for a healthy run and for learners without such a bound.
    fn divergence(&self) -> Option<Divergence> {
        None
    }
}

/// A training run that left the region its theory allows: see [`Scorer::divergence`].
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// What was seen, with the bound: `||w|| = 1.6e60 is past 2/sqrt(lambda) = 63.2`.
    pub what: String,
    /// What to change, naming the parameter: `lower eta (now 0.25)`.
    pub advice: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.advice)
    }
}

/// A one-pass learner: sees each example once, in stream order, in memory independent of the
/// stream's length. Cannot fail: bad input is rejected upstream, at the data layer.
pub trait OnlineLearner: Scorer {
    /// Takes one step on example `(x, y)`.
    fn update(&mut self, x: Row<'_>, y: Label);

    /// A hint that `x` is the row of the next [`OnlineLearner::update`]: a learner whose state
    /// is read feature by feature at the row's indices may start loading those entries now, so
    /// that their cache misses overlap the step before (at $2^{20}$ features the state is tens
    /// of MB and each of a sparse row's features is a miss). It changes nothing a learner
    /// computes; an index beyond the state is ignored. The default does nothing.
    fn prefetch(&self, x: Row<'_>) {
        let _ = x;
    }

    /// Grows the state to `dim` features (a smaller or equal `dim` changes nothing), for a stream
    /// that meets a feature index larger than any seen so far: the state becomes the one the
    /// learner would hold had it been built for `dim` features from the start, every earlier
    /// example having had zeros at the new features.
    ///
    /// For the learners of this workspace that state is the old one padded with zeros: a zero
    /// feature never moves a weight, a mean or a co-moment, and a stored example padded with
    /// zeros has the same norms and kernel values. The equality is exact in exact arithmetic; in
    /// floating point, sums whose grouping depends on the vector length (the lane-wise dot
    /// products of dense rows and of the moment learners' $O(p^2)$ kernels) may differ from the
    /// known-dimension run in the last bits, while the new features' entries are exactly zero.
    ///
    /// The default refuses: a learner whose state for new features is not the zero state, or
    /// that was not written with growth in mind, returns an error and is left unchanged.
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        Err(StateError::new(format!(
            "this learner cannot grow its state to {dim} features: give the dimension up front"
        )))
    }
}

/// A learner's or model's whole state as a model file stores it (postcard bytes of this type,
/// tagged with the algorithm's name and [`SavedState::STATE_VERSION`]).
pub trait SavedState: Serialize + DeserializeOwned {
    /// The layout version of the serialized state; raised whenever the layout changes, so that
    /// an old file is refused with a message instead of misread.
    const STATE_VERSION: u32;

    /// The oldest layout version this build still reads (a file between it and
    /// [`SavedState::STATE_VERSION`] is converted on reading); older files are refused.
    const OLDEST_STATE_VERSION: u32 = Self::STATE_VERSION;

    /// Checks a decoded state before it is used: dimensions agree, every number is finite,
    /// parameters are in range, counters are consistent. A crafted or damaged file must fail
    /// here rather than panic or score NaN later.
    fn validate(&self) -> Result<(), StateError>;

    /// The postcard bytes of a state saved at layout `version` (from
    /// [`SavedState::OLDEST_STATE_VERSION`] to [`SavedState::STATE_VERSION`]) rewritten in the
    /// current layout, for a learner whose layout gained fields whose old value is implied.
    /// The default returns them unchanged: every version it reads has the current layout.
    ///
    /// # Errors
    /// When the bytes are too short for the old layout.
    fn upgrade_layout(bytes: &[u8], version: u32) -> Result<Cow<'_, [u8]>, StateError> {
        let _ = version;
        Ok(Cow::Borrowed(bytes))
    }
}

/// The size of a training set, for memory estimates made before anything is allocated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataShape {
    /// Rows.
    pub n: usize,
    /// Features.
    pub dim: usize,
    /// Positive rows.
    pub positives: usize,
    /// Negative rows.
    pub negatives: usize,
}

/// Checked parameters that build an online learner for dimension $p$.
pub trait OnlineParams: Params {
    /// The learner they build.
    type Learner: OnlineLearner + SavedState + Clone + fmt::Debug + Send + Sync + 'static;

    /// Validates the parameters ([`Params::check`]) and builds a fresh learner for `dim`
    /// features, with `seed` driving every random choice it makes (reservoir buffers).
    fn build(&self, dim: usize, seed: u64) -> Result<Self::Learner, ParamError>;

    /// Bytes the learner's state takes for `dim` features, estimated before building it.
    fn state_bytes(&self, dim: usize) -> u64;

    /// An upper bound on the bytes of the learner's serialized state for `dim` features (what a
    /// model file holds of it), for the memory that saving takes. The default is
    /// [`OnlineParams::state_bytes`], right for a state saved as it is held; a learner whose
    /// held state has more (hash maps, scratch space, room to grow) says less.
    fn saved_bytes(&self, dim: usize) -> u64 {
        self.state_bytes(dim)
    }

    /// Whether the model trained on some rows depends on the dimension the learner was built
    /// with, not only on the rows: a learner grown on the way ([`OnlineLearner::grow`]) then
    /// rounds differently from one built at the data's dimension (lane-wise sums over the
    /// state, a recomputation scheduled by the dimension). `false`, the default, for learners
    /// whose zero-padded state a zero feature never moves and that sum only stored entries.
    const STARTING_DIMENSION_MATTERS: bool = false;
}

/// Checked parameters of a batch learner: fitted on all its data at once.
pub trait BatchParams: Params {
    /// The saved form of a fitted model.
    type Model: Scorer + SavedState + Clone + fmt::Debug + Send + Sync + 'static;

    /// Fits on `train` and returns the model to save with a one-line summary of the fit.
    fn fit_model(&self, train: &Dataset, seed: u64) -> Result<(Self::Model, String), FitError>;

    /// The procedure the evaluation layer runs (it may share work between fits, or build its
    /// kernel on the rows to be scored too).
    fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError>;

    /// Peak bytes of a fit on data of this shape, estimated before anything is allocated.
    fn fit_bytes(&self, shape: &DataShape) -> u64;
}

/// A (batch) training procedure: what the evaluation layer calls.
pub trait Fit {
    /// The trained model.
    type Model: Scorer;

    /// Trains on `train`. `seed` drives every random choice the procedure makes (conventions section 1).
    fn fit(&self, train: &Dataset, seed: u64) -> Result<Self::Model, FitError>;
}

/// Fits an online learner by streaming the training rows once, **in the dataset's order**.
///
/// Whoever builds the dataset decides the order; the evaluation layer feeds every training part
/// in a seeded random permutation (conventions section 1). The seed goes to [`OnlineParams::build`],
/// for learners that make random choices of their own.
#[derive(Clone, Debug, PartialEq)]
pub struct Streaming<P>(pub P);

impl<P: OnlineParams> Fit for Streaming<P> {
    type Model = P::Learner;

    fn fit(&self, train: &Dataset, seed: u64) -> Result<Self::Model, FitError> {
        let mut learner = self.0.build(train.dim(), seed)?;
        update_in_order(&mut learner, train, |_| {});
        Ok(learner)
    }
}

/// Steps `learner` on every row of `data` in the dataset's order, telling it each row before
/// the step on the row before ([`OnlineLearner::prefetch`]); `after(i)` runs after the step on
/// row `i`.
pub fn update_in_order<L: OnlineLearner + ?Sized>(
    learner: &mut L,
    data: &Dataset,
    mut after: impl FnMut(usize),
) {
    for (i, (x, y)) in data.iter().enumerate() {
        if i + 1 < data.n() {
            learner.prefetch(data.row(i + 1));
        }
        learner.update(x, y);
        after(i);
    }
}

/// A trained model behind a pointer, as returned by [`DynFit`].
pub type BoxedModel = Box<dyn Scorer + Send + Sync>;

/// What a transductive fit returns: the model and its scores of the unlabeled rows it was shown.
pub struct Transductive {
    /// The model, for any other row.
    pub model: BoxedModel,
    /// The scores of the unlabeled rows, in their order.
    pub scores: Vec<f64>,
}

/// The object-safe form of [`Fit`], so that one protocol can run any algorithm.
pub trait DynFit: Send + Sync {
    /// As [`Fit::fit`], boxing the model.
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError>;

    /// As [`DynFit::fit_dyn`], also shown the features of the rows the model will score
    /// (`unlabeled`), for transductive procedures such as GAM-CVM, whose kernel is built on
    /// training and test points together (conventions section 7); returns the model and its scores of
    /// those rows. The evaluation layer passes each validation or test part here; a procedure
    /// must not read its labels. The default fits on `train` alone and scores `unlabeled` with
    /// the model, so inductive learners need not know about it.
    fn fit_transductive(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        seed: u64,
    ) -> Result<Transductive, FitError> {
        let model = self.fit_dyn(train, seed)?;
        let scores = model.score_all(unlabeled);
        Ok(Transductive { model, scores })
    }

    /// An online learner for `dim` features, built with `seed`, when the procedure is a
    /// one-pass learner (so that convergence curves and prequential evaluation can watch it step
    /// by step), else `None`.
    fn online(
        &self,
        dim: usize,
        seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>>;
}

impl<P> DynFit for Streaming<P>
where
    P: OnlineParams,
{
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        Ok(Box::new(self.fit(train, seed)?))
    }

    fn online(
        &self,
        dim: usize,
        seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        Some(
            self.0
                .build(dim, seed)
                .map(|l| Box::new(l) as Box<dyn OnlineLearner + Send>),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Label::{Neg, Pos};
    use crate::{Family, ParamSpec, Range};
    use serde::Deserialize;

    /// Scores by the running mean of positives minus the running mean of negatives, in 1-d.
    #[derive(Clone, Debug, Serialize, Deserialize)]
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

    impl SavedState for MeanGap {
        const STATE_VERSION: u32 = 1;
        fn validate(&self) -> Result<(), StateError> {
            crate::check::finite("sums", &self.sums)
        }
    }

    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    struct MeanGapParams {
        scale: f64,
    }

    impl Params for MeanGapParams {
        const NAME: &'static str = "mean-gap";
        const TITLE: &'static str = "MeanGap";
        const ABOUT: &'static str = "a test learner";
        const FAMILY: Family = Family::Linear;
        const SPECS: &'static [ParamSpec] =
            &[ParamSpec::real("scale", Range::NonNegative, "unused")];
        const GRID: &'static [&'static str] = &[];
        fn check(&self) -> Result<(), ParamError> {
            Self::SPECS[0].check_real(self.scale).map(|_| ())
        }
    }

    impl OnlineParams for MeanGapParams {
        type Learner = MeanGap;
        fn build(&self, dim: usize, _seed: u64) -> Result<MeanGap, ParamError> {
            self.check()?;
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
        fn state_bytes(&self, _dim: usize) -> u64 {
            32
        }
    }

    #[test]
    fn streaming_fit_visits_every_row_once() {
        // Positives at 3 and 5 (mean 4), negatives at -1 (mean -1): f(x) = 5 x.
        let data = Dataset::dense(1, vec![3.0, -1.0, 5.0], vec![Pos, Neg, Pos]).unwrap();
        let fit: &dyn DynFit = &Streaming(MeanGapParams::default());
        let model = fit.fit_dyn(&data, 0).unwrap();
        assert_eq!(model.score_all(&data), vec![15.0, -5.0, 25.0]);
        assert!(model.divergence().is_none());
        let t = fit.fit_transductive(&data, &data, 0).unwrap();
        assert_eq!(t.scores, vec![15.0, -5.0, 25.0]);
        assert!(fit.online(1, 0).unwrap().is_ok());
        assert!(fit.online(2, 0).unwrap().is_err());
        // A learner that does not implement growth refuses it and stays as it was.
        let mut l = MeanGapParams::default().build(1, 0).unwrap();
        l.update(Row::Dense(&[2.0]), Pos);
        let e = l.grow(3).unwrap_err();
        assert!(e.to_string().contains("3 features"), "{e}");
        assert_eq!(l.sums.map(f64::to_bits), [2.0f64.to_bits(), 0]);
        let bad = Streaming(MeanGapParams { scale: -1.0 });
        assert!(bad.fit_dyn(&data, 0).is_err());
    }

    #[test]
    fn public_types_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Dataset>();
        check::<crate::ParamMap>();
        check::<FitError>();
        check::<Streaming<MeanGapParams>>();
        check::<Transductive>();
    }
}
