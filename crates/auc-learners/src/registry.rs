//! The one list of algorithms: a row per parameter type, built from its [`Params`] constants.
//! Every front end (command line, tests, reproductions, Python) enumerates [`ALL`].

use std::fmt;

use auc_blend::BlendParams;
use auc_core::{
    BatchParams, DataShape, Family, FitError, OnlineParams, ParamError, ParamKind, ParamMap,
    ParamSpec, Params, StateError,
};
use auc_cvm::{
    AucSvm, GamCvm, GamCvmK1, GamCvmK2, GamCvmK3, GamCvmK12, GamCvmK13, GamCvmK23, RhoAucCvm,
};
use auc_kernel::{KernelLearner, KoilParams, OkaucMParams, OkaucSParams};
use auc_online::{
    AdaOamParams, AdmOamParams, BalAdagradParams, BalFtrlParams, Linear, MomentParams,
    OamGraParams, OamSeqParams, OaucMBatchParams, OaucMParams, OaucMcParams, OpaucBatchParams,
    OpaucParams, PaIParams, PaucSvmParams, PerceptronParams, SolamParams,
};
use auc_stats::Moments;
use auc_trees::BoostedTreesParams;
use serde_json::{Value, json};

use crate::params::{self, from_json, object, suggest};
use crate::trained::{
    BatchConfig, BatchState, Configured, Describe, Fitted, KernelConfig, LinearConfig, Trained,
    decode_batch, decode_kernel, decode_linear,
};

/// Decodes and validates a saved state (`bool`: averaged iterates; `u32`: the file's state
/// version, one this build reads).
type Decode = fn(&[u8], bool, u32) -> Result<Box<dyn Trained>, StateError>;

/// Fits a batch moment learner with these parameters on (scaled) class moments.
pub(crate) type FromMoments = fn(&ParamMap, &Moments) -> Result<Fitted, FitError>;

/// One algorithm: its identity, its parameters, and how to configure it and decode its saved
/// state. Built by [`Algorithm::linear`], [`Algorithm::kernel`] or [`Algorithm::batch`] from a
/// parameter type, so everything here comes from that type's own declaration.
pub struct Algorithm {
    /// Lower-case, hyphenated name, as typed after `--algo` and stored in model files.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The name papers and tables print.
    pub title: &'static str,
    /// One line, with citation keys.
    pub about: &'static str,
    /// Linear, kernel or batch.
    pub family: Family,
    /// The parameters, in the order they are listed.
    pub specs: &'static [ParamSpec],
    /// The default search grid (`--grid` axes) of `auc train --tune` and the reproductions.
    pub grid: &'static [&'static str],
    /// The papers' full grid.
    pub paper_grid: &'static [&'static str],
    /// The version of the state layout this build writes.
    pub state_version: u32,
    /// The oldest version of the state layout this build reads.
    pub oldest_state_version: u32,
    configure: fn(&ParamMap) -> Result<Box<dyn Configured>, ParamError>,
    decode: Decode,
    defaults: fn() -> serde_json::Map<String, Value>,
    asks_transductive: fn(&ParamMap) -> bool,
    /// How a batch moment learner fits from merged class moments; `None` for every other.
    pub(crate) from_moments: Option<FromMoments>,
    /// Whether these parameters of a moment learner solve over the rows themselves
    /// (`MomentParams::solves_over_rows`); `false` for every other learner.
    over_rows: fn(&ParamMap) -> bool,
    /// Whether the model is a linear score $w^\top z$ of the prepared features $z$ (the linear
    /// one-pass learners, the moment learners, pAUC-SVM): what a feature map makes nonlinear.
    pub linear_model: bool,
    /// Whether a one-pass learner's model depends on the dimension it starts from
    /// ([`auc_core::OnlineParams::STARTING_DIMENSION_MATTERS`]); `false` for batch learners.
    pub starting_dimension_matters: bool,
    /// Parameters a model file written before them reads with these values
    /// ([`auc_core::Params::VALUES_OF_OLDER_FILES`]).
    pub values_of_older_files: &'static [(&'static str, f64)],
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Algorithm")
            .field("name", &self.name)
            .field("family", &self.family)
            .finish_non_exhaustive()
    }
}

fn configure_linear<P>(m: &ParamMap) -> Result<Box<dyn Configured>, ParamError>
where
    P: OnlineParams,
    P::Learner: Linear,
{
    Ok(Box::new(LinearConfig(params::typed::<P>(m)?)))
}

fn configure_kernel<P>(m: &ParamMap) -> Result<Box<dyn Configured>, ParamError>
where
    P: OnlineParams,
    P::Learner: KernelLearner,
{
    Ok(Box::new(KernelConfig(params::typed::<P>(m)?)))
}

fn configure_batch<P>(m: &ParamMap) -> Result<Box<dyn Configured>, ParamError>
where
    P: BatchParams,
    P::Model: Describe,
{
    Ok(Box::new(BatchConfig(params::typed::<P>(m)?)))
}

fn fit_moments_of<P>(m: &ParamMap, moments: &Moments) -> Result<Fitted, FitError>
where
    P: MomentParams,
{
    let params = params::typed::<P>(m).map_err(FitError::Param)?;
    let (model, line) = params.fit_moments(moments)?;
    Ok((Box::new(BatchState(model)) as Box<dyn Trained>, line))
}

fn over_rows_of<P: MomentParams>(given: &ParamMap) -> bool {
    params::typed::<P>(given).is_ok_and(|p| p.solves_over_rows())
}

fn never(_: &ParamMap) -> bool {
    false
}

fn defaults_of<P: Params>() -> serde_json::Map<String, Value> {
    object(&P::default())
}

/// Whether `given` (over the inductive form of the defaults) turns a transductive mode on.
fn asks_transductive_of<P: Params>(given: &ParamMap) -> bool {
    params::typed_over(&P::default().inductive(), given).is_ok_and(|p| p.is_transductive())
}

fn decode_kernel_state<P>(
    bytes: &[u8],
    _averaged: bool,
    _version: u32,
) -> Result<Box<dyn Trained>, StateError>
where
    P: OnlineParams,
    P::Learner: KernelLearner,
{
    decode_kernel::<P>(bytes)
}

fn decode_batch_state<P>(
    bytes: &[u8],
    _averaged: bool,
    _version: u32,
) -> Result<Box<dyn Trained>, StateError>
where
    P: BatchParams,
    P::Model: Describe,
{
    decode_batch::<P>(bytes)
}

impl Algorithm {
    /// The row of a linear one-pass learner.
    pub const fn linear<P>() -> Self
    where
        P: OnlineParams,
        P::Learner: Linear,
    {
        Self {
            name: P::NAME,
            aliases: P::ALIASES,
            title: P::TITLE,
            about: P::ABOUT,
            family: Family::Linear,
            specs: P::SPECS,
            grid: P::GRID,
            paper_grid: P::PAPER_GRID,
            state_version: <P::Learner as auc_core::SavedState>::STATE_VERSION,
            oldest_state_version: <P::Learner as auc_core::SavedState>::OLDEST_STATE_VERSION,
            configure: configure_linear::<P>,
            decode: decode_linear::<P>,
            defaults: defaults_of::<P>,
            asks_transductive: asks_transductive_of::<P>,
            from_moments: None,
            over_rows: never,
            linear_model: true,
            starting_dimension_matters: P::STARTING_DIMENSION_MATTERS,
            values_of_older_files: P::VALUES_OF_OLDER_FILES,
        }
    }

    /// The row of a budgeted kernel one-pass learner.
    pub const fn kernel<P>() -> Self
    where
        P: OnlineParams,
        P::Learner: KernelLearner,
    {
        Self {
            name: P::NAME,
            aliases: P::ALIASES,
            title: P::TITLE,
            about: P::ABOUT,
            family: Family::Kernel,
            specs: P::SPECS,
            grid: P::GRID,
            paper_grid: P::PAPER_GRID,
            state_version: <P::Learner as auc_core::SavedState>::STATE_VERSION,
            oldest_state_version: <P::Learner as auc_core::SavedState>::OLDEST_STATE_VERSION,
            configure: configure_kernel::<P>,
            decode: decode_kernel_state::<P>,
            defaults: defaults_of::<P>,
            asks_transductive: asks_transductive_of::<P>,
            from_moments: None,
            over_rows: never,
            linear_model: false,
            starting_dimension_matters: P::STARTING_DIMENSION_MATTERS,
            values_of_older_files: P::VALUES_OF_OLDER_FILES,
        }
    }

    /// The row of a batch learner.
    pub const fn batch<P>() -> Self
    where
        P: BatchParams,
        P::Model: Describe,
    {
        Self {
            name: P::NAME,
            aliases: P::ALIASES,
            title: P::TITLE,
            about: P::ABOUT,
            family: Family::Batch,
            specs: P::SPECS,
            grid: P::GRID,
            paper_grid: P::PAPER_GRID,
            state_version: <P::Model as auc_core::SavedState>::STATE_VERSION,
            oldest_state_version: <P::Model as auc_core::SavedState>::OLDEST_STATE_VERSION,
            configure: configure_batch::<P>,
            decode: decode_batch_state::<P>,
            defaults: defaults_of::<P>,
            asks_transductive: asks_transductive_of::<P>,
            from_moments: None,
            over_rows: never,
            linear_model: false,
            starting_dimension_matters: false,
            values_of_older_files: P::VALUES_OF_OLDER_FILES,
        }
    }

    /// The row of a batch learner fitted exactly from merged class moments: as
    /// [`Algorithm::batch`], and also from moment files and a parallel moment pass
    /// ([`crate::fit_from_moments`]).
    pub const fn moment<P: MomentParams>() -> Self {
        let mut row = Self::linear_batch::<P>();
        row.from_moments = Some(fit_moments_of::<P>);
        row.over_rows = over_rows_of::<P>;
        row
    }

    /// The row of a batch learner whose model is linear in the prepared features: as
    /// [`Algorithm::batch`], with [`Algorithm::linear_model`] set.
    pub const fn linear_batch<P>() -> Self
    where
        P: BatchParams,
        P::Model: Describe,
    {
        let mut row = Self::batch::<P>();
        row.linear_model = true;
        row
    }

    /// Whether it is fitted from merged class moments ([`Algorithm::moment`]).
    pub fn fits_from_moments(&self) -> bool {
        self.from_moments.is_some()
    }

    /// Whether `given` makes this moment learner solve over the training rows instead of
    /// their merged moments (`opauc-batch` with `solver = cg` or a `sketch`): a front end then
    /// loads the rows, and moment files cannot be merged into the fit.
    pub fn solves_over_rows(&self, given: &ParamMap) -> bool {
        (self.over_rows)(given)
    }

    /// The algorithm with these parameters (the rest at their defaults), checked.
    pub fn configure(&self, params: &ParamMap) -> Result<Box<dyn Configured>, ParamError> {
        (self.configure)(params)
    }

    /// Decodes a state of layout `version` (one this build reads, `oldest_state_version` to
    /// `state_version`; `averaged`: iterates averaged) and validates it.
    pub(crate) fn decode(
        &self,
        bytes: &[u8],
        averaged: bool,
        version: u32,
    ) -> Result<Box<dyn Trained>, StateError> {
        (self.decode)(bytes, averaged, version)
    }

    /// Every parameter's default, in spec order.
    pub fn defaults(&self) -> ParamMap {
        let d = (self.defaults)();
        self.specs
            .iter()
            .filter_map(|s| d.get(s.name).map(|v| (s.name, from_json(v))))
            .collect()
    }

    /// Whether the parameters `given` themselves ask for a transductive fit
    /// ([`Params::is_transductive`]), which a model saved for rows not yet seen cannot run; a
    /// default that is transductive (GAM-CVM's in `auc cv`) does not count. `false` when the
    /// parameters do not configure (the error comes when they are configured).
    pub fn asks_transductive(&self, given: &ParamMap) -> bool {
        (self.asks_transductive)(given)
    }

    /// Whether a name refers to this algorithm.
    pub fn is_called(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// Whether it learns in one pass (and so can stream, resume and draw curves).
    pub fn is_online(&self) -> bool {
        self.family != Family::Batch
    }

    /// Checks that every parameter of `map` is one of this algorithm's, naming the closest
    /// when one is not.
    pub fn check_names(&self, map: &ParamMap) -> Result<(), ParamError> {
        for (name, _) in map.iter() {
            if !self.specs.iter().any(|s| s.name == name) {
                return Err(params::unknown(name, self.specs));
            }
        }
        Ok(())
    }

    /// The description `auc algos --json` prints: name, aliases, family, citation line and
    /// every parameter with its type, default, allowed values and doc.
    pub fn to_json(&self) -> Value {
        let defaults = (self.defaults)();
        let params: Vec<Value> = self
            .specs
            .iter()
            .map(|s| {
                let mut p = json!({
                    "name": s.name,
                    "type": s.kind.type_name(),
                    "default": defaults.get(s.name).cloned().unwrap_or(Value::Null),
                    "allowed": s.kind.describe(),
                    "doc": s.doc,
                });
                if let ParamKind::Choice(words) = s.kind {
                    p["choices"] = json!(words);
                }
                p
            })
            .collect();
        json!({
            "name": self.name,
            "aliases": self.aliases,
            "title": self.title,
            "family": self.family.name(),
            "about": self.about,
            "state_version": self.state_version,
            "from_moments": self.fits_from_moments(),
            "linear_model": self.linear_model,
            "params": params,
            "grid": self.grid,
            "paper_grid": self.paper_grid,
        })
    }
}

/// Every algorithm, in the order `auc algos` lists them.
pub static ALL: &[Algorithm] = &[
    Algorithm::linear::<PerceptronParams>(),
    Algorithm::linear::<PaIParams>(),
    Algorithm::linear::<OaucMParams>(),
    Algorithm::linear::<OaucMcParams>(),
    Algorithm::linear::<OpaucParams>(),
    Algorithm::linear::<AdaOamParams>(),
    Algorithm::linear::<AdmOamParams>(),
    Algorithm::linear::<OamSeqParams>(),
    Algorithm::linear::<OamGraParams>(),
    Algorithm::linear::<SolamParams>(),
    Algorithm::linear::<BalAdagradParams>(),
    Algorithm::linear::<BalFtrlParams>(),
    Algorithm::kernel::<OkaucMParams>(),
    Algorithm::kernel::<OkaucSParams>(),
    Algorithm::kernel::<KoilParams>(),
    Algorithm::batch::<GamCvm>(),
    Algorithm::batch::<GamCvmK1>(),
    Algorithm::batch::<GamCvmK2>(),
    Algorithm::batch::<GamCvmK3>(),
    Algorithm::batch::<GamCvmK12>(),
    Algorithm::batch::<GamCvmK13>(),
    Algorithm::batch::<GamCvmK23>(),
    Algorithm::batch::<RhoAucCvm>(),
    Algorithm::batch::<AucSvm>(),
    Algorithm::moment::<OpaucBatchParams>(),
    Algorithm::moment::<OaucMBatchParams>(),
    Algorithm::linear_batch::<PaucSvmParams>(),
    Algorithm::batch::<BoostedTreesParams>(),
    Algorithm::batch::<BlendParams>(),
];

/// The learner `auc train` and `auc cv` fit when no algorithm is named: the blend of a
/// Nystroem-kernel model and boosted trees, which the measurement of
/// `docs/results/default-learner.md` ranks first across the shared data sets (by the rule fixed
/// before it).
pub fn default_algorithm() -> &'static Algorithm {
    find(<BlendParams as auc_core::Params>::NAME).expect("the blend is in the registry")
}

/// The learner `auc train` and `auc cv` fit on a feature map asked for (`--features`) when no
/// algorithm is named: OPAUC-batch, the exact whole-data square surrogate from class moments,
/// which the measurement of `docs/results/default-map.md` ranks first on a map.
pub fn default_map_algorithm() -> &'static Algorithm {
    find(<OpaucBatchParams as auc_core::Params>::NAME).expect("OPAUC-batch is in the registry")
}

/// The algorithm called `name` (or an alias of it).
pub fn find(name: &str) -> Option<&'static Algorithm> {
    ALL.iter().find(|a| a.is_called(name))
}

/// The algorithm called `name`, or an error naming the closest one.
pub fn lookup(name: &str) -> Result<&'static Algorithm, crate::Error> {
    find(name).ok_or_else(|| crate::Error::UnknownAlgorithmName {
        name: name.to_owned(),
        suggestion: suggest(
            name,
            ALL.iter()
                .flat_map(|a| std::iter::once(a.name).chain(a.aliases.iter().copied())),
        ),
    })
}

/// Every algorithm's name, in [`ALL`]'s order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|a| a.name).collect()
}

/// The most numbers per feature the state of a learner [`linear_state_names`] lists may hold: a
/// few weight-sized vectors (SOLAM keeps three; Balanced FTRL five: its weight, sum and
/// accumulator padded to a 32-byte line share, and the weights materialized for a summary), never
/// a buffer of examples (OAM's and the kernel learners' $2B + 1$ rows) or a covariance (the
/// moment learners' $p + 1$ per feature).
const LINEAR_STATE_VECTORS: u64 = 5;

/// The one-pass learners whose state at their default parameters is a few vectors of $p$
/// numbers (at most five): what a memory error suggests instead of a learner whose state grows
/// as $p^2$ or with a buffer of examples. Computed from each algorithm's memory estimate, in
/// [`ALL`]'s order.
pub fn linear_state_names() -> Vec<&'static str> {
    // Large enough that constant terms do not count, small enough that p^2 bytes fit in u64.
    const DIM: usize = 1 << 16;
    let shape = DataShape {
        dim: DIM,
        ..DataShape::default()
    };
    let limit = LINEAR_STATE_VECTORS * 8 * DIM as u64;
    ALL.iter()
        .filter(|a| a.is_online())
        .filter(|a| {
            a.configure(&ParamMap::new())
                .is_ok_and(|c| c.memory_bytes(&shape, false) <= limit)
        })
        .map(|a| a.name)
        .collect()
}

/// The batch learners whose fit at their default parameters on wide data (more than
/// `auc_online::AUTO_DENSE_MAX_DIM` features) needs $O(n + p)$ memory beside the rows: the
/// moment learners solving by conjugate gradients over the rows, and pAUC-SVM. Computed from each
/// algorithm's memory estimate at $2^{17}$ features and $10^5$ rows (at most $8(n + 32p)$
/// bytes), in [`ALL`]'s order.
pub fn linear_memory_batch_names() -> Vec<&'static str> {
    const DIM: usize = 1 << 17;
    const ROWS: usize = 100_000;
    let shape = DataShape {
        dim: DIM,
        n: ROWS,
        ..DataShape::default()
    };
    let limit = 8 * (ROWS + 32 * DIM) as u64;
    ALL.iter()
        .filter(|a| !a.is_online())
        .filter(|a| {
            a.configure(&ParamMap::new())
                .is_ok_and(|c| c.memory_bytes(&shape, false) <= limit)
        })
        .map(|a| a.name)
        .collect()
}
