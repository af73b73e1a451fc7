//! What `auc train` and `auc stream` share: the learning flags ([`LearnArgs`]) and the one
//! [`auc_prep::PrepSpec`] they build, loading training data in memory through it, and the checks
//! and reports of a trained state (divergence, finiteness, the optimality certificate).

use std::path::PathBuf;

use auc_core::{DataShape, Dataset, OnlineLearner, ParamMap};
use auc_data::{Layout, ReadOptions, Scaler, Scaling};
use auc_learners::{Algorithm, Certificate, Trained};
use auc_prep::{PrepError, PrepSpec, ScaleEvidence};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::hyper::HyperArgs;
use crate::input::{self, ReadArgs};
use crate::output::Error;
use crate::progress::Bar;
use crate::stage_args::StageArgs;
use auc_stream::memory::{self, Bytes};

/// What training needs besides the algorithm: parameters, preparation, order, seed, reading.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    #[command(flatten)]
    pub(crate) hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one (linear
    /// one-pass learners only).
    #[arg(long)]
    pub(crate) average: bool,
    #[command(flatten)]
    pub(crate) stages: StageArgs,
    /// Take the scaling from FILE instead of a first pass over the data: a model file (its
    /// fitted scaling, as it is) or the output of `auc info --json` (its feature ranges, fitted
    /// as --scale says). What standard input and pipes, which are read once, need to be scaled.
    #[arg(long, value_name = "FILE", help_heading = "Preparation")]
    pub(crate) scale_from: Option<PathBuf>,
    /// Feed the examples in a random order drawn from SEED; by default the file order is kept
    /// (files sorted by class make one-pass learners fail: shuffle them). A one-pass learner
    /// draws each example from a buffer of --shuffle-buffer rows (an approximation of a random
    /// permutation that keeps memory bounded; the full permutation when the input fits in the
    /// buffer); --shuffle-full permutes the whole input in memory.
    #[arg(long, value_name = "SEED", help_heading = "Order")]
    pub(crate) shuffle: Option<u64>,
    /// Rows of the shuffle buffer (memory: this many rows).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Order")]
    pub(crate) shuffle_buffer: u64,
    /// With --shuffle, load the input in memory and feed it in a full random permutation.
    #[arg(long, requires = "shuffle", help_heading = "Order")]
    pub(crate) shuffle_full: bool,
    /// The number of features, fixed up front (an index past it is an error). By default a
    /// first pass over a file finds it, and a learner reading standard input grows its state
    /// when a larger index appears.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Reading")]
    pub(crate) dim: Option<u64>,
    /// Parse and learn on one thread, one after the other, instead of overlapping them on two
    /// (for measurements, or a machine with one core).
    #[arg(long)]
    pub(crate) one_thread: bool,
    /// Seed of the learner's own random choices (reservoir buffers, the core vector machine's
    /// sampling).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Keep only the first N examples.
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Refuse to start (or to grow the learner) when it and the data in memory would need more
    /// than this (8G, 512M). Default: three quarters of physical memory.
    #[arg(long, value_name = "SIZE")]
    pub(crate) max_memory: Option<Bytes>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

impl LearnArgs {
    /// The reader options: the reading flags, `--limit` and `--dim`; without scaling the learner
    /// sees the values as read, so those whose squares overflow are refused.
    pub(crate) fn options(&self) -> Result<ReadOptions, Error> {
        let mut opts = self.read.options(self.limit)?;
        opts.dim = self.dim.map(|d| d as usize);
        opts.bounded_values = self.stages.spec().reads_raw_values();
        Ok(opts)
    }

    /// What was asked about reading and preparing the data, built and checked once.
    pub(crate) fn prep_spec(&self) -> Result<PrepSpec, Error> {
        let stages = self.stages.spec();
        let scale_from = match &self.scale_from {
            Some(_) if stages.scaling == Scaling::None => {
                return Err(PrepError::ScaleFromWithoutScaling.into());
            }
            Some(path) => Some(input::load_scale_from(path)?),
            None => None,
        };
        Ok(PrepSpec::new(
            self.options()?,
            self.read.positive_rule(),
            stages,
            scale_from,
        )?)
    }
}

/// Training data read in memory, binarized and prepared, with the preparation a model stores.
pub(crate) struct TrainingData {
    pub(crate) data: Dataset,
    pub(crate) preparation: auc_prep::Preparation,
}

/// `data` in a random order drawn from `seed`, or unchanged.
pub(crate) fn shuffled(data: Dataset, seed: Option<u64>) -> Dataset {
    match seed {
        None => data,
        Some(s) => {
            let mut idx: Vec<usize> = (0..data.n()).collect();
            idx.shuffle(&mut StdRng::seed_from_u64(s));
            data.select(&idx)
        }
    }
}

/// Reads the training input in memory, reports the positive class, refuses one-class data, fits
/// the scaling on it (or takes `--scale-from`'s), checking the memory of a scaling that would
/// densify sparse data. `layout` is the rows' storage: one-pass learners see them as read (as a
/// stream does), batch learners by density.
///
/// Each stage drops the copy it no longer needs, so at most two copies of the rows are alive at
/// once (the file's rows as read, then binarized, scaled and ordered).
pub(crate) fn load_training(
    learn: &LearnArgs,
    paths: &[PathBuf],
    what: &str,
    layout: Layout,
) -> Result<TrainingData, Error> {
    let limit = memory::limit(learn.max_memory);
    let spec = learn.prep_spec()?;
    let raw = input::read_with(&spec.read, paths, learn.limit)?;
    memory::check(
        raw.stored_bytes(),
        limit,
        "the data",
        "use --limit or --hash-bits",
    )?;
    let (mut data, choice) = input::binarize(&raw, &spec.positive, layout)?;
    let reading = raw.reading().clone();
    drop(raw);
    input::need_both_classes(&data, what)?;
    if let Some(s) = &spec.scale_from
        && s.dim > data.dim()
    {
        data = data.with_dim(s.dim);
    }
    check_stages_fit(&spec.transform, data.dim(), limit)?;
    if spec.needs_sample() {
        memory::check(
            auc_data::dense_bytes(data.n(), spec.transform.max_output_dim(data.dim())),
            limit,
            "the mapped rows of --features or --one-hot",
            "use a smaller --features size, or a one-pass learner, which maps row by row",
        )?;
    }
    let transform = spec.fit_transform(ScaleEvidence::Data(&data), None)?;
    if matches!(transform.scaler(), Scaler::MinMax { .. }) && data.is_sparse() {
        memory::check(
            auc_data::dense_bytes(data.n(), data.dim()),
            limit,
            "min-max scaling (which makes sparse data dense)",
            "use --scale maxabs, which keeps zeros zero",
        )?;
    }
    let preparation = spec.preparation(reading, &choice, data.dim(), transform);
    let prepared = preparation.apply(&data);
    drop(data);
    Ok(TrainingData {
        data: shuffled(prepared, learn.shuffle),
        preparation,
    })
}

/// The shape of a training set, for memory estimates.
pub(crate) fn shape(data: &Dataset) -> DataShape {
    let (positives, negatives) = data.class_counts();
    DataShape {
        n: data.n(),
        dim: data.dim(),
        positives,
        negatives,
    }
}

/// The shape that sizes a one-pass learner's state: only the dimension matters.
pub(crate) fn dim_shape(dim: usize) -> DataShape {
    DataShape {
        dim,
        ..DataShape::default()
    }
}

/// Streams `data` through a one-pass learner, with a progress bar on a terminal.
pub(crate) fn stream_into(learner: &mut dyn OnlineLearner, data: &Dataset, what: &str) {
    let bar = Bar::rows(what, data.n() as u64);
    for (i, (x, y)) in data.iter().enumerate() {
        learner.update(x, y);
        if i % 4096 == 4095 {
            bar.set(i as u64 + 1);
        }
    }
    bar.finish();
}

/// Prints a divergence warning and returns its text for the model file.
pub(crate) fn warn_divergence(state: &dyn Trained, algo: &str) -> Option<String> {
    let d = state.divergence()?;
    eprintln!("auc: warning: {algo} diverged: {d}");
    Some(d.to_string())
}

/// The optimality certificate of a model fitted by an iterative solver that certifies its result
/// (a `converged` entry in its description, e.g. the moment learners' Newton method), as JSON
/// for `--json`: `converged`, `solver_steps`, `distance_bound` and `tolerance`. A fit that
/// stopped short of its tolerance (step cap, rounding floor) is never silent: a warning on
/// stderr names the algorithm, the steps and the certified distance.
pub(crate) fn certificate(state: &dyn Trained, algo: &str) -> Option<Certificate> {
    let cert = state.certificate()?;
    if !cert.converged {
        eprintln!(
            "auc: warning: {algo} stopped after {} solver steps without meeting its tolerance: the certificate only guarantees ||w - w*|| <= {:.3e} (tolerance {:.1e}); the model is saved, but it is not the exact minimizer (see max_steps)",
            cert.solver_steps, cert.distance_bound, cert.tolerance,
        );
    }
    Some(cert)
}

/// What a learner's memory error suggests instead: hashing the features, or one of the learners
/// whose state is a few vectors of $p$ numbers (the registry's `linear_state_names`).
pub(crate) fn linear_state_advice(algo: &str) -> String {
    let names = auc_learners::linear_state_names();
    if names.contains(&algo) {
        // Already one of them: only fewer features help.
        return format!(
            "use --hash-bits B to fold the features into 2^B ({algo} already keeps O(p) state)"
        );
    }
    let batch = auc_learners::linear_memory_batch_names();
    let sketchable = auc_learners::lookup(algo).is_ok_and(|a| {
        a.family == auc_core::Family::Linear && a.specs.iter().any(|s| s.name == "sketch")
    });
    format!(
        "use {}--hash-bits B to fold the features into 2^B, a learner with O(p) state ({}), or a batch learner that needs no p x p matrix on wide data ({}: the whole-data objectives solved over the rows)",
        if sketchable {
            "--param sketch=K for each class's covariance sketched at rank K (O(pK) memory; a smaller K if it is sketched already), "
        } else {
            ""
        },
        names.join(", "),
        batch.join(", ")
    )
}

/// The sketch rank a one-pass moment learner is given when its exact class covariances would
/// not fit `--max-memory` and no `sketch` was asked for (docs/math/sketched-moments.md section 5
/// measures it).
pub(crate) const AUTO_SKETCH: usize = 32;

/// `config`, or, when its state for `shape` (plus `beside` bytes that stay alive) would exceed
/// `limit` and `algo` is a one-pass learner whose moments can be sketched and no `sketch` was
/// given, `algo` configured from `given` with `sketch = AUTO_SKETCH`, said on stderr. The memory
/// check itself stays with the caller: a sketched state that is still too large is refused
/// there with the usual advice. Returns the parameters it used.
pub(crate) fn sketched_if_too_wide(
    algo: &Algorithm,
    given: &ParamMap,
    config: Box<dyn auc_learners::Configured>,
    shape: &DataShape,
    average: bool,
    beside: u64,
    limit: Bytes,
) -> Result<(Box<dyn auc_learners::Configured>, ParamMap), Error> {
    let need = config.memory_bytes(shape, average).saturating_add(beside);
    let sketchable =
        algo.family == auc_core::Family::Linear && algo.specs.iter().any(|s| s.name == "sketch");
    if need <= limit.0 || !sketchable || given.get("sketch").is_some() {
        return Ok((config, given.clone()));
    }
    let mut sketched = given.clone();
    sketched.set("sketch", auc_core::ParamValue::Num(AUTO_SKETCH as f64));
    let config = algo.configure(&sketched)?;
    eprintln!(
        "auc: {} keeps both classes' {} x {} covariances, about {}, over --max-memory {}: using --param sketch={AUTO_SKETCH} (each class's covariance from a Frequent Directions sketch of rank {AUTO_SKETCH}, within a stated bound; --param sketch=K chooses the rank)",
        algo.name,
        shape.dim,
        shape.dim,
        Bytes(need),
        limit
    );
    Ok((config, sketched))
}

/// Checks the trained state before it is saved: a state that is not finite (features too large
/// without scaling) is an error, never a model that scores NaN.
pub(crate) fn check_state(state: &dyn Trained, algo: &str) -> Result<(), Error> {
    state.validate().map_err(|e| {
        format!(
            "training {algo} left an unusable state ({e}); the features are probably too large for it unscaled: use --scale"
        )
        .into()
    })
}

/// The parameters given, checked against the algorithm, and whether they ask for the
/// transductive mode.
pub(crate) fn given_params(algo: &Algorithm, hyper: &HyperArgs) -> Result<(ParamMap, bool), Error> {
    let given = hyper.to_map()?;
    algo.check_names(&given)?;
    let transductive = algo.asks_transductive(&given);
    Ok((given, transductive))
}

/// `13 features`, or with a map `13 features mapped to 500 (nystroem)`, with one-hot
/// indicators `13 features mapped to 40 (one-hot)`: what a model's learner was trained on, for
/// the message after training.
pub(crate) fn features_text(p: &auc_prep::Preparation) -> String {
    let t = &p.transform;
    let how = match (t.one_hot(), t.feature_map()) {
        (None, None) => return format!("{} features", p.dim),
        (Some(_), None) => "one-hot".to_owned(),
        (None, Some(m)) => m.kind().to_string(),
        (Some(_), Some(m)) => format!("one-hot, {}", m.kind()),
    };
    format!(
        "{} features mapped to {} ({how})",
        p.dim,
        t.output_dim(p.dim)
    )
}

/// Refuses fitting `stages` on `dim` input features (the scaling's ranges, the feature map, its
/// sample made dense) when it would need more than `limit`: every path checks this before it
/// fits, in memory, after a first pass and before a moment pass.
pub(crate) fn check_stages_fit(
    stages: &auc_prep::TransformSpec,
    dim: usize,
    limit: Bytes,
) -> Result<(), Error> {
    memory::check(
        stages.fit_bytes(dim),
        limit,
        &format!(
            "fitting the stages on {dim} features (the scaling's ranges, the feature map and its sample)"
        ),
        "use --hash-bits B to fold the features into 2^B, or a smaller --features size",
    )
}

/// Copies of a state that saving its model holds at once, the state included: the serialized
/// state, the payload, the model read back and its re-serialized state for the comparison
/// (measured: a 400 MB PA-I state of 5e7 features peaked at 1.96 GB while saved).
pub(crate) const SAVE_COPIES: u64 = 5;

/// Refuses a state of `state_bytes` whose model could not be saved within `limit` (saving
/// holds [`SAVE_COPIES`] copies), before the state is allocated or grown.
pub(crate) fn check_save_memory(state_bytes: u64, limit: Bytes, what: &str) -> Result<(), Error> {
    memory::check(
        state_bytes.saturating_mul(SAVE_COPIES),
        limit,
        &format!("{what}, saved (the state, its bytes and the model read back to check them)"),
        "use --hash-bits B to fold the features into 2^B, or a larger --max-memory",
    )
}

pub(crate) fn written_by() -> String {
    format!("auc {}", env!("CARGO_PKG_VERSION"))
}

/// Refuses `--average` for learners without a weight vector.
pub(crate) fn check_average(algo: &Algorithm, average: bool) -> Result<(), Error> {
    if average && algo.family != auc_core::Family::Linear {
        return Err(format!(
            "--average averages the iterates of a linear one-pass learner; {} is a {} learner",
            algo.name,
            algo.family.name()
        )
        .into());
    }
    Ok(())
}
