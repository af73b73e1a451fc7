//! A configured algorithm ([`Configured`]) and a trained or training model ([`Trained`]) as
//! trait objects, implemented once per family (linear, kernel, batch) for any parameter type:
//! what the front ends hold without knowing which algorithm they run.

use auc_blend::BlendModel;
use auc_core::{
    BatchParams, BoxedModel, DataShape, Dataset, Divergence, DynFit, FitError, Label,
    OnlineLearner, OnlineParams, ParamError, ParamMap, Row, SavedState, Scorer, StateError,
    Streaming,
};
use auc_cvm::InductiveModel;
use auc_kernel::KernelLearner;
use auc_online::{Averaged, Linear, Materialized, MomentModel, PaucModel};
use auc_trees::BoostedModel;
use serde_json::{Value, json};

use crate::params::{object, to_map};

/// A fitted batch model with a one-line summary of the fit.
pub type Fitted = (Box<dyn Trained>, String);

/// An algorithm with checked parameters: everything a front end does with it.
pub trait Configured: Send + Sync {
    /// Every parameter, defaults included, as untyped values in spec order.
    fn params(&self) -> ParamMap;

    /// Every parameter as the JSON object a model file stores.
    fn params_json(&self) -> String;

    /// The training procedure the evaluation protocol runs (`average`: score with the mean of
    /// the iterates, linear learners only).
    fn procedure(&self, average: bool) -> Result<Box<dyn DynFit>, ParamError>;

    /// How it trains: a one-pass learner started fresh and fed rows, or a batch learner fitted
    /// on all its data at once.
    fn trainer(&self) -> Trainer<'_>;

    /// Bytes a model of this algorithm takes while training on data of this shape (the
    /// state of a one-pass learner; the peak of a batch fit), before anything is allocated.
    fn memory_bytes(&self, shape: &DataShape, average: bool) -> u64;

    /// An upper bound on the bytes of the trained state's serialized form for data of this
    /// shape, for the memory saving takes ([`OnlineParams::saved_bytes`] for a one-pass
    /// learner). The default is [`Configured::memory_bytes`].
    fn saved_bytes(&self, shape: &DataShape, average: bool) -> u64 {
        self.memory_bytes(shape, average)
    }
}

/// How a configured algorithm trains ([`Configured::trainer`]): every algorithm is exactly one
/// of the two, so a front end matches on this instead of asking for one and expecting the other.
#[derive(Clone, Copy)]
pub enum Trainer<'a> {
    /// A one-pass learner: started for a dimension, then fed rows ([`Trained::learner`]).
    Online(&'a dyn OnlineTrainer),
    /// A batch learner: fitted on all its data at once.
    Batch(&'a dyn BatchTrainer),
}

/// The training side of a configured one-pass learner.
pub trait OnlineTrainer: Send + Sync {
    /// A fresh learner for `dim` features, for training from a stream (`average`: score with
    /// the mean of the iterates, linear learners only; refused for the others).
    fn start(&self, dim: usize, seed: u64, average: bool) -> Result<Box<dyn Trained>, ParamError>;
}

/// The training side of a configured batch learner.
pub trait BatchTrainer: Send + Sync {
    /// Fits on `train` and returns the model with a one-line summary of the fit.
    fn fit(&self, train: &Dataset, seed: u64) -> Result<Fitted, FitError>;
}

/// A trained (or training) model of any algorithm: it scores, it may continue training, and it
/// saves its state.
pub trait Trained: Scorer + Send + Sync {
    /// The one-pass learner to update, or `None` for a batch model (which cannot continue).
    fn learner(&mut self) -> Option<&mut dyn OnlineLearner>;

    /// The learner's own bytes for a model file (postcard), tagged by the registry with its
    /// state version.
    fn state_bytes(&self) -> Vec<u8>;

    /// Checks the state: dimensions agree, every number finite (see `SavedState::validate`).
    fn validate(&self) -> Result<(), StateError>;

    /// Whether it scores with the average of its iterates.
    fn averaged(&self) -> bool;

    /// The number of features it scores (rows may have fewer, never more).
    fn dim(&self) -> usize;

    /// What `auc model` prints about the state: norms, sizes.
    fn describe(&self) -> Value;

    /// The optimality certificate of a model fitted by an iterative solver that certifies its
    /// result (the moment learners' Newton method); `None` for every other model.
    fn certificate(&self) -> Option<Certificate> {
        None
    }

    /// What its scores are made of per prepared feature, for an explanation
    /// (`Model::explain`).
    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Opaque
    }

    /// A copy behind a new box.
    fn box_clone(&self) -> Box<dyn Trained>;
}

/// What a model's scores are made of per prepared feature ([`Trained::anatomy`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Anatomy<'a> {
    /// A linear score $w^\top z$ of the prepared row $z$: the weights $w$.
    Linear(&'a [f64]),
    /// Boosted trees: per prepared feature, the number of splits on it.
    Trees(Vec<u64>),
    /// The blend: its kernel member scores mapped features (no weight per prepared feature);
    /// its tree member's split counts per prepared feature.
    Blend(Vec<u64>),
    /// Neither (kernel expansions, GAM-CVM): only permutation importance describes it.
    Opaque,
}

/// The configured form of an online linear learner.
pub(crate) struct LinearConfig<P>(pub(crate) P);

/// The configured form of an online kernel learner.
pub(crate) struct KernelConfig<P>(pub(crate) P);

/// The configured form of a batch learner.
pub(crate) struct BatchConfig<P>(pub(crate) P);

/// A linear learner as trained: last iterate or averaged iterates.
#[derive(Clone)]
pub(crate) enum LinearState<L> {
    Last(L),
    Averaged(Averaged<L>),
}

/// A kernel learner as trained.
#[derive(Clone)]
pub(crate) struct KernelState<L>(pub(crate) L);

/// A batch model as fitted.
#[derive(Clone)]
pub(crate) struct BatchState<M>(pub(crate) M);

/// Streams a training set through a fresh averaged learner.
struct AveragedStreaming<P>(P);

impl<P> DynFit for AveragedStreaming<P>
where
    P: OnlineParams,
    P::Learner: Linear,
{
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        let mut l = Averaged::new(self.0.build(train.dim(), seed)?);
        auc_core::update_in_order(&mut l, train, |_| {});
        Ok(Box::new(l))
    }

    fn online(
        &self,
        dim: usize,
        seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        Some(
            self.0
                .build(dim, seed)
                .map(|l| Box::new(Averaged::new(l)) as Box<dyn OnlineLearner + Send>),
        )
    }
}

/// Refuses averaging for learners without a weight vector.
fn no_average(name: &str, average: bool) -> Result<(), ParamError> {
    if average {
        Err(ParamError::BadValue {
            name: "average".to_owned(),
            value: "true".to_owned(),
            expected: format!(
                "false: {name} has no weight vector to average (--average is for linear one-pass learners)"
            ),
        })
    } else {
        Ok(())
    }
}

impl<P> Configured for LinearConfig<P>
where
    P: OnlineParams,
    P::Learner: Linear,
{
    fn params(&self) -> ParamMap {
        to_map(&self.0)
    }

    fn params_json(&self) -> String {
        Value::Object(object(&self.0)).to_string()
    }

    fn procedure(&self, average: bool) -> Result<Box<dyn DynFit>, ParamError> {
        if average {
            Ok(Box::new(AveragedStreaming(self.0.clone())))
        } else {
            Ok(Box::new(Streaming(self.0.clone())))
        }
    }

    fn trainer(&self) -> Trainer<'_> {
        Trainer::Online(self)
    }

    fn memory_bytes(&self, shape: &DataShape, average: bool) -> u64 {
        self.0.state_bytes(shape.dim) + average_bytes::<P::Learner>(shape.dim, average)
    }

    fn saved_bytes(&self, shape: &DataShape, average: bool) -> u64 {
        self.0.saved_bytes(shape.dim) + average_bytes::<P::Learner>(shape.dim, average)
    }
}

/// Bytes [`Averaged`] adds to a linear learner's state of `dim` features when `average`: the
/// mean, and the step counters of lazy averaging (`Linear::SPARSE_STEPS`); held and saved alike.
fn average_bytes<L: Linear>(dim: usize, average: bool) -> u64 {
    let per_feature = if L::SPARSE_STEPS { 16 } else { 8 };
    if average { per_feature * dim as u64 } else { 0 }
}

impl<P> Configured for KernelConfig<P>
where
    P: OnlineParams,
    P::Learner: KernelLearner,
{
    fn params(&self) -> ParamMap {
        to_map(&self.0)
    }

    fn params_json(&self) -> String {
        Value::Object(object(&self.0)).to_string()
    }

    fn procedure(&self, average: bool) -> Result<Box<dyn DynFit>, ParamError> {
        no_average(P::NAME, average)?;
        Ok(Box::new(Streaming(self.0.clone())))
    }

    fn trainer(&self) -> Trainer<'_> {
        Trainer::Online(self)
    }

    fn memory_bytes(&self, shape: &DataShape, _average: bool) -> u64 {
        self.0.state_bytes(shape.dim)
    }
}

impl<P> Configured for BatchConfig<P>
where
    P: BatchParams,
    P::Model: Describe,
{
    fn params(&self) -> ParamMap {
        to_map(&self.0)
    }

    fn params_json(&self) -> String {
        Value::Object(object(&self.0)).to_string()
    }

    fn procedure(&self, average: bool) -> Result<Box<dyn DynFit>, ParamError> {
        no_average(P::NAME, average)?;
        self.0.procedure()
    }

    fn trainer(&self) -> Trainer<'_> {
        Trainer::Batch(self)
    }

    fn memory_bytes(&self, shape: &DataShape, _average: bool) -> u64 {
        self.0.fit_bytes(shape)
    }
}

impl<P> OnlineTrainer for LinearConfig<P>
where
    P: OnlineParams,
    P::Learner: Linear,
{
    fn start(&self, dim: usize, seed: u64, average: bool) -> Result<Box<dyn Trained>, ParamError> {
        let l = self.0.build(dim, seed)?;
        let state = if average {
            LinearState::Averaged(Averaged::new(l))
        } else {
            LinearState::Last(l)
        };
        Ok(Box::new(state))
    }
}

impl<P> OnlineTrainer for KernelConfig<P>
where
    P: OnlineParams,
    P::Learner: KernelLearner,
{
    fn start(&self, dim: usize, seed: u64, average: bool) -> Result<Box<dyn Trained>, ParamError> {
        no_average(P::NAME, average)?;
        Ok(Box::new(KernelState(self.0.build(dim, seed)?)))
    }
}

impl<P> BatchTrainer for BatchConfig<P>
where
    P: BatchParams,
    P::Model: Describe,
{
    fn fit(&self, train: &Dataset, seed: u64) -> Result<Fitted, FitError> {
        let (m, summary) = self.0.fit_model(train, seed)?;
        Ok((Box::new(BatchState(m)), summary))
    }
}

/// The optimality certificate of a fit ([`Trained::certificate`]): how far the saved weights
/// may be from the exact minimizer of the fitted objective.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Certificate {
    /// Whether the solver met its tolerance (else it stopped at its step cap or a rounding
    /// floor, and only `distance_bound` holds).
    pub converged: bool,
    /// The solver's steps.
    pub solver_steps: u64,
    /// The certified bound on $\lVert w - w^* \rVert$.
    pub distance_bound: f64,
    /// The distance the solver aims for.
    pub tolerance: f64,
}

impl Certificate {
    /// As `auc train --json` prints it: `converged`, `solver_steps`, `distance_bound` and
    /// `tolerance` (a bound that is not finite prints as `null`).
    pub fn to_json(&self) -> Value {
        json!({
            "converged": self.converged,
            "solver_steps": self.solver_steps,
            "distance_bound": self.distance_bound,
            "tolerance": self.tolerance,
        })
    }
}

/// What `auc model` says about a batch model's state.
pub trait Describe {
    /// Sizes and norms, as a JSON object.
    fn describe(&self) -> Value;

    /// Its optimality certificate, if its solver certifies the result.
    fn certificate(&self) -> Option<Certificate> {
        None
    }

    /// What its scores are made of ([`Trained::anatomy`]).
    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Opaque
    }

    /// The number of features it scores.
    fn dim(&self) -> usize;
}

impl Describe for InductiveModel {
    fn dim(&self) -> usize {
        InductiveModel::dim(self)
    }

    fn describe(&self) -> Value {
        json!({
            "fitted_points": self.n(),
            "features": self.dim(),
            "n_loc": self.n_loc(),
            "sub_kernels": self.kernels().len(),
            "weighted_points": self.weights().iter().filter(|w| w.1 != 0.0).count(),
        })
    }
}

impl Describe for MomentModel {
    fn dim(&self) -> usize {
        self.weights().len()
    }

    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Linear(self.weights())
    }

    fn describe(&self) -> Value {
        let mut v = weight_summary(self.weights());
        let (pos, neg) = self.counts();
        v["objective"] = json!(self.objective());
        v["solver_steps"] = json!(self.steps());
        v["gradient_norm"] = json!(self.grad_norm());
        v["gap_bound"] = json!(self.gap_bound());
        v["distance_bound"] = json!(self.distance_bound());
        v["converged"] = json!(self.converged());
        v["tolerance"] = json!(self.tolerance());
        v["fitted_positives"] = json!(pos);
        v["fitted_negatives"] = json!(neg);
        v
    }

    fn certificate(&self) -> Option<Certificate> {
        Some(Certificate {
            converged: self.converged(),
            solver_steps: u64::from(self.steps()),
            distance_bound: self.distance_bound(),
            tolerance: self.tolerance(),
        })
    }
}

impl Describe for BoostedModel {
    fn dim(&self) -> usize {
        BoostedModel::dim(self)
    }

    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Trees(self.split_counts())
    }

    fn describe(&self) -> Value {
        let (first, last) = self.losses();
        let (pos, neg) = self.counts();
        json!({
            "features": self.dim(),
            "trees": self.trees().len(),
            "leaves": self.leaves(),
            "loss_first": first,
            "loss_last": last,
            "fitted_positives": pos,
            "fitted_negatives": neg,
        })
    }
}

impl Describe for BlendModel {
    fn dim(&self) -> usize {
        BlendModel::dim(self)
    }

    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Blend(self.trees().split_counts())
    }

    fn describe(&self) -> Value {
        let (a, b) = self.weights();
        json!({
            "features": self.dim(),
            "map": self.map().describe(),
            "kernel": Describe::describe(self.kernel()),
            "trees": Describe::describe(self.trees()),
            "kernel_weight": a,
            "tree_weight": b,
        })
    }
}

impl Describe for PaucModel {
    fn dim(&self) -> usize {
        self.weights().len()
    }

    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Linear(self.weights())
    }

    fn describe(&self) -> Value {
        let mut v = weight_summary(self.weights());
        let (k, pos, neg) = self.counts();
        let (newton, weight) = self.steps();
        v["objective"] = json!(self.objective());
        v["beta"] = json!(self.beta());
        v["top_negatives"] = json!(k);
        v["newton_steps"] = json!(newton);
        v["weight_steps"] = json!(weight);
        v["constant_scores"] = json!(self.is_constant());
        v["solver_steps"] = json!(u64::from(newton) + u64::from(weight));
        v["gap_bound"] = json!(self.gap());
        v["distance_bound"] = json!(self.distance_bound());
        v["converged"] = json!(self.converged());
        v["fitted_positives"] = json!(pos);
        v["fitted_negatives"] = json!(neg);
        v
    }

    fn certificate(&self) -> Option<Certificate> {
        let (newton, weight) = self.steps();
        Some(Certificate {
            converged: self.converged(),
            solver_steps: u64::from(newton) + u64::from(weight),
            distance_bound: self.distance_bound(),
            tolerance: (2.0 * self.tolerance_gap() / self.lambda()).sqrt(),
        })
    }
}

/// $\lVert w \rVert$, the count of non-zero weights and the largest $|w_j|$.
fn weight_summary(w: &[f64]) -> Value {
    let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
    json!({
        "weights": w.len(),
        "nonzero_weights": w.iter().filter(|v| **v != 0.0).count(),
        "weight_norm": norm,
        "max_abs_weight": w.iter().fold(0.0f64, |m, v| m.max(v.abs())),
    })
}

impl<L: Scorer> Scorer for LinearState<L>
where
    L: Linear,
{
    fn score(&self, x: Row<'_>) -> f64 {
        match self {
            LinearState::Last(l) => l.score(x),
            LinearState::Averaged(l) => l.score(x),
        }
    }

    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        match self {
            LinearState::Last(l) => l.score_all(data),
            LinearState::Averaged(l) => l.score_all(data),
        }
    }

    fn divergence(&self) -> Option<Divergence> {
        match self {
            LinearState::Last(l) => l.divergence(),
            LinearState::Averaged(l) => l.divergence(),
        }
    }
}

impl<L> Trained for LinearState<L>
where
    L: OnlineLearner + Linear + SavedState + Clone + Send + Sync + 'static,
{
    fn learner(&mut self) -> Option<&mut dyn OnlineLearner> {
        Some(match self {
            LinearState::Last(l) => l,
            LinearState::Averaged(l) => l,
        })
    }

    fn state_bytes(&self) -> Vec<u8> {
        match self {
            LinearState::Last(l) => encode(l),
            LinearState::Averaged(l) => encode(l),
        }
    }

    fn validate(&self) -> Result<(), StateError> {
        match self {
            LinearState::Last(l) => l.validate(),
            LinearState::Averaged(l) => l.validate(),
        }
    }

    fn averaged(&self) -> bool {
        matches!(self, LinearState::Averaged(_))
    }

    fn dim(&self) -> usize {
        match self {
            LinearState::Last(l) => l.dim(),
            LinearState::Averaged(l) => l.dim(),
        }
    }

    fn describe(&self) -> Value {
        match self {
            LinearState::Last(l) => weight_summary(l.weights()),
            LinearState::Averaged(l) => weight_summary(l.weights()),
        }
    }

    fn anatomy(&self) -> Anatomy<'_> {
        Anatomy::Linear(match self {
            LinearState::Last(l) => l.weights(),
            LinearState::Averaged(l) => l.weights(),
        })
    }

    fn box_clone(&self) -> Box<dyn Trained> {
        Box::new(self.clone())
    }
}

impl<L: Scorer> Scorer for KernelState<L> {
    fn score(&self, x: Row<'_>) -> f64 {
        self.0.score(x)
    }

    fn divergence(&self) -> Option<Divergence> {
        self.0.divergence()
    }
}

impl<L> Trained for KernelState<L>
where
    L: OnlineLearner + KernelLearner + SavedState + Clone + Send + Sync + 'static,
{
    fn learner(&mut self) -> Option<&mut dyn OnlineLearner> {
        Some(&mut self.0)
    }

    fn state_bytes(&self) -> Vec<u8> {
        encode(&self.0)
    }

    fn validate(&self) -> Result<(), StateError> {
        self.0.validate()
    }

    fn averaged(&self) -> bool {
        false
    }

    fn dim(&self) -> usize {
        self.0.support().dim()
    }

    fn describe(&self) -> Value {
        let sp = self.0.support();
        json!({
            "budget": sp.budget(),
            "support_positive": sp.len(Label::Pos),
            "support_negative": sp.len(Label::Neg),
            "rkhs_norm": sp.norm_sq_h().max(0.0).sqrt(),
        })
    }

    fn box_clone(&self) -> Box<dyn Trained> {
        Box::new(self.clone())
    }
}

impl<M: Scorer> Scorer for BatchState<M> {
    fn score(&self, x: Row<'_>) -> f64 {
        self.0.score(x)
    }

    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        self.0.score_all(data)
    }

    fn divergence(&self) -> Option<Divergence> {
        self.0.divergence()
    }
}

impl<M> Trained for BatchState<M>
where
    M: Scorer + SavedState + Describe + Clone + Send + Sync + 'static,
{
    fn learner(&mut self) -> Option<&mut dyn OnlineLearner> {
        None
    }

    fn state_bytes(&self) -> Vec<u8> {
        encode(&self.0)
    }

    fn validate(&self) -> Result<(), StateError> {
        self.0.validate()
    }

    fn averaged(&self) -> bool {
        false
    }

    fn dim(&self) -> usize {
        self.0.dim()
    }

    fn describe(&self) -> Value {
        self.0.describe()
    }

    fn certificate(&self) -> Option<Certificate> {
        self.0.certificate()
    }

    fn anatomy(&self) -> Anatomy<'_> {
        self.0.anatomy()
    }

    fn box_clone(&self) -> Box<dyn Trained> {
        Box::new(self.clone())
    }
}

/// Postcard bytes of a state (infallible for these types: every field serializes).
fn encode<T: serde::Serialize>(state: &T) -> Vec<u8> {
    postcard::to_allocvec(state).expect("learner states serialize to postcard")
}

/// Decodes a linear learner's state of layout `version` (`averaged`: an [`Averaged`] one) and
/// validates it.
///
/// The bytes are first brought to the current layout ([`SavedState::upgrade_layout`]: the moment
/// learners' version 1, before the `sketch` parameter); an averaged state older than the current
/// version is then [`Materialized`] (the Perceptron's and PA-I's version 1, before their averages
/// kept step counters, and every version of learners without sparse steps).
pub(crate) fn decode_linear<P>(
    bytes: &[u8],
    averaged: bool,
    version: u32,
) -> Result<Box<dyn Trained>, StateError>
where
    P: OnlineParams,
    P::Learner: Linear,
{
    let bytes = &*<P::Learner as SavedState>::upgrade_layout(bytes, version)?;
    let state = if averaged && version < <P::Learner as SavedState>::STATE_VERSION {
        LinearState::Averaged(decode::<Materialized<P::Learner>>(bytes)?.into())
    } else if averaged {
        LinearState::Averaged(decode::<Averaged<P::Learner>>(bytes)?)
    } else {
        LinearState::Last(decode::<P::Learner>(bytes)?)
    };
    state.validate()?;
    Ok(Box::new(state))
}

/// Decodes a kernel learner's state and validates it.
pub(crate) fn decode_kernel<P>(bytes: &[u8]) -> Result<Box<dyn Trained>, StateError>
where
    P: OnlineParams,
    P::Learner: KernelLearner,
{
    let state = KernelState(decode::<P::Learner>(bytes)?);
    state.validate()?;
    Ok(Box::new(state))
}

/// Decodes a batch model and validates it.
pub(crate) fn decode_batch<P>(bytes: &[u8]) -> Result<Box<dyn Trained>, StateError>
where
    P: BatchParams,
    P::Model: Describe,
{
    let state = BatchState(decode::<P::Model>(bytes)?);
    state.validate()?;
    Ok(Box::new(state))
}

/// Postcard bytes to a state, all of them used.
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StateError> {
    let (value, rest) = postcard::take_from_bytes::<T>(bytes)
        .map_err(|e| StateError::new(format!("cannot decode the learner's state: {e}")))?;
    if rest.is_empty() {
        Ok(value)
    } else {
        Err(StateError::new(format!(
            "{} unexpected bytes after the learner's state",
            rest.len()
        )))
    }
}
