//! Every learner the command line can train, as one serializable type, and the training
//! procedure the evaluation layer runs for it; [`Trained`], what a model file holds.

use auc_core::{
    BoxedModel, Dataset, DynFit, FitError, Label, OnlineLearner, ParamError, ParamMap, Row, Scorer,
};
use auc_cvm::InductiveModel;
use auc_kernel::{Koil, OkaucM, OkaucS};
use auc_online::{
    AdaOam, AdmOam, Averaged, Linear, OamGra, OamSeq, OaucM, OaucMc, Opauc, PaI, Perceptron, Solam,
};
use serde::{Deserialize, Serialize};

/// One trained or training learner of any algorithm. New algorithms add a variant here (and an
/// entry in `algos.rs`); the model file stores this enum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum AnyLearner {
    /// `perceptron`.
    Perceptron(Perceptron),
    /// `pa-i`.
    PaI(PaI),
    /// `oauc-m`.
    OaucM(OaucM),
    /// `oauc-mc`.
    OaucMc(OaucMc),
    /// `opauc` (`oauc-s`).
    Opauc(Opauc),
    /// `adaoam`.
    AdaOam(AdaOam),
    /// `admoam`.
    AdmOam(AdmOam),
    /// `oam-seq`.
    OamSeq(OamSeq),
    /// `oam-gra`.
    OamGra(OamGra),
    /// `solam`.
    Solam(Solam),
    /// `okauc-m`.
    OkaucM(OkaucM),
    /// `okauc-s`.
    OkaucS(OkaucS),
    /// `koil`.
    Koil(Koil),
}

/// Calls `$body` with `$l` bound to the learner inside any variant.
macro_rules! each {
    ($self:expr, $l:ident => $body:expr) => {
        match $self {
            AnyLearner::Perceptron($l) => $body,
            AnyLearner::PaI($l) => $body,
            AnyLearner::OaucM($l) => $body,
            AnyLearner::OaucMc($l) => $body,
            AnyLearner::Opauc($l) => $body,
            AnyLearner::AdaOam($l) => $body,
            AnyLearner::AdmOam($l) => $body,
            AnyLearner::OamSeq($l) => $body,
            AnyLearner::OamGra($l) => $body,
            AnyLearner::Solam($l) => $body,
            AnyLearner::OkaucM($l) => $body,
            AnyLearner::OkaucS($l) => $body,
            AnyLearner::Koil($l) => $body,
        }
    };
}

impl Scorer for AnyLearner {
    fn score(&self, x: Row<'_>) -> f64 {
        each!(self, l => l.score(x))
    }
}

impl OnlineLearner for AnyLearner {
    fn update(&mut self, x: Row<'_>, y: Label) {
        each!(self, l => l.update(x, y))
    }
}

/// Averaging needs a weight vector: kernel learners have none, and the commands refuse
/// `--average` for them ([`crate::algos::Algo::check_average`]), so they never reach this.
impl Linear for AnyLearner {
    fn weights(&self) -> &[f64] {
        match self {
            AnyLearner::Perceptron(l) => l.weights(),
            AnyLearner::PaI(l) => l.weights(),
            AnyLearner::OaucM(l) => l.weights(),
            AnyLearner::OaucMc(l) => l.weights(),
            AnyLearner::Opauc(l) => l.weights(),
            AnyLearner::AdaOam(l) => l.weights(),
            AnyLearner::AdmOam(l) => l.weights(),
            AnyLearner::OamSeq(l) => l.weights(),
            AnyLearner::OamGra(l) => l.weights(),
            AnyLearner::Solam(l) => l.weights(),
            AnyLearner::OkaucM(_) | AnyLearner::OkaucS(_) | AnyLearner::Koil(_) => &[],
        }
    }
}

/// A learner as trained: scoring with its last iterate (the papers' algorithms) or with the
/// average of its iterates (`--average`, SPEC section 5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Learner {
    /// Scores with the last iterate.
    Last(AnyLearner),
    /// Scores with the mean of the iterates.
    Averaged(Averaged<AnyLearner>),
}

impl Learner {
    /// Wraps `l`, averaging its iterates when asked (linear learners only: the commands check).
    pub(crate) fn new(l: AnyLearner, average: bool) -> Self {
        debug_assert!(
            !(average && l.weights().is_empty()),
            "averaging a kernel learner"
        );
        if average {
            Learner::Averaged(Averaged::new(l))
        } else {
            Learner::Last(l)
        }
    }

    /// Updates on every row of `data`, in order.
    pub(crate) fn stream(&mut self, data: &Dataset) {
        for (x, y) in data.iter() {
            self.update(x, y);
        }
    }
}

impl Scorer for Learner {
    fn score(&self, x: Row<'_>) -> f64 {
        match self {
            Learner::Last(l) => l.score(x),
            Learner::Averaged(l) => l.score(x),
        }
    }
}

impl OnlineLearner for Learner {
    fn update(&mut self, x: Row<'_>, y: Label) {
        match self {
            Learner::Last(l) => l.update(x, y),
            Learner::Averaged(l) => l.update(x, y),
        }
    }
}

/// What a model file holds: a one-pass learner, which `auc train --resume` can continue, or a
/// batch learner's inductive model (the GAM-CVM family), which can only score.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Trained {
    /// A one-pass learner's whole state.
    Online(Learner),
    /// The fitted points, bandwidths, scores and weights of a batch learner: O(n p) values for
    /// n training rows of p features, not its n x n kernel matrix.
    Batch(InductiveModel),
}

impl Scorer for Trained {
    fn score(&self, x: Row<'_>) -> f64 {
        match self {
            Trained::Online(l) => l.score(x),
            Trained::Batch(m) => m.score(x),
        }
    }

    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        match self {
            Trained::Online(l) => l.score_all(data),
            Trained::Batch(m) => m.score_all(data),
        }
    }
}

/// Builds a learner of one algorithm from checked parameters: `(params, dim, seed)`.
pub(crate) type Build = fn(&ParamMap, usize, u64) -> Result<AnyLearner, ParamError>;

/// The training procedure `auc cv` and `auc curve` run: build the learner for the training
/// part's dimension with the protocol's seed, then stream the part once in its order.
pub(crate) struct StreamFit {
    pub(crate) build: Build,
    pub(crate) params: ParamMap,
    pub(crate) average: bool,
}

impl DynFit for StreamFit {
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        let mut l = Learner::new((self.build)(&self.params, train.dim(), seed)?, self.average);
        l.stream(train);
        Ok(Box::new(l))
    }

    fn online(&self, dim: usize) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        Some(
            (self.build)(&self.params, dim, 0)
                .map(|l| Box::new(Learner::new(l, self.average)) as Box<dyn OnlineLearner + Send>),
        )
    }
}
