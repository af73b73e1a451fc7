//! The learner trained when none is named (`auc train` and `auc cv` without `--algo`), so that
//! a new user's first model is the best default we have:
//!
//! - without a feature map, the registry's default learner, the blend of a Nystroem-kernel
//!   model and boosted trees ([`auc_learners::default_algorithm`]), which the measurement of
//!   `docs/results/default-learner.md` ranks first across the shared data sets (by the rule of
//!   the defaults page, fixed before the runs); on wide data, more than [`BLEND_MAX_DIM`]
//!   features, the map learner on the features instead ([`DefaultLearner::on_wide_data`]);
//! - with a feature map asked for, the learner measured on maps
//!   ([`auc_learners::default_map_algorithm`], OPAUC-batch) at the lambda that ranks first
//!   there (`docs/results/default-map.md`).
//!
//! [`resolve`] applies the rule for [`crate::train`] and for `auc cv` alike (the learner, the
//! map learner's `lambda` filled in, the note saying so); [`wide_instead`] switches to the map
//! learner on data too wide for the blend. The rule lives here once.

use auc_core::ParamMap;
use auc_learners::Algorithm;
use auc_prep::{MapShape, TransformSpec};
use auc_stream::Report;

use crate::Error;
use crate::request::Learner;

/// The map learner's `lambda` when not given, as a power of 2: the point of the lambda grid
/// with the best mean rank across the sets on a map (`docs/results/default-map.md`); the
/// registry's default is for rows as read.
pub const MAP_LAMBDA_LOG2: i32 = -10;

/// The most features the default blend takes. Past it (wide data: hashed fields, one-hot
/// columns, text) its trees would bin every row's every feature and its map read every feature
/// of every landmark, where the map learner, OPAUC-batch without a map, solves over the rows
/// with no p x p matrix (conjugate gradients above 4096 features).
pub const BLEND_MAX_DIM: usize = 4096;

/// The learner trained when none is named, for the stages asked for.
#[derive(Clone, Copy, Debug)]
pub struct DefaultLearner {
    /// The learner.
    pub algo: &'static Algorithm,
    /// The feature map asked for, on which [`DefaultLearner::algo`] is the map learner; `None`
    /// for the blend on the features as read.
    pub map: Option<MapShape>,
}

impl DefaultLearner {
    /// The default learner for `stages`: the map learner on a feature map asked for, else the
    /// blend.
    pub fn for_stages(stages: &TransformSpec) -> DefaultLearner {
        match &stages.features {
            Some(map) => DefaultLearner {
                algo: auc_learners::default_map_algorithm(),
                map: Some(map.shape),
            },
            None => DefaultLearner {
                algo: auc_learners::default_algorithm(),
                map: None,
            },
        }
    }

    /// The `lambda` it takes unless one is given: $2^{-10}$ for the map learner
    /// ([`MAP_LAMBDA_LOG2`]); `None` for the blend, whose defaults are its own.
    pub fn lambda(&self) -> Option<f64> {
        self.map.map(|_| 2f64.powi(MAP_LAMBDA_LOG2))
    }

    /// What a front end says when `command` (`auc train`) fills in this learner;
    /// `lambda_given` whether the user gave the `lambda` that [`DefaultLearner::lambda`] would
    /// have set.
    pub fn message(&self, command: &str, lambda_given: bool) -> String {
        let name = self.algo.name;
        match self.map {
            Some(map) => format!(
                "no --algo: {command} uses {name} on the {map} feature map asked for{}, the learner measured best on maps (docs/results/default-map.md); --algo NAME chooses another learner",
                if lambda_given {
                    String::new()
                } else {
                    format!(", lambda=2^{MAP_LAMBDA_LOG2}")
                }
            ),
            None => format!(
                "no --algo: {command} uses {name}, kernel model + boosted trees, the default measured best (docs/results/default-learner.md); --algo NAME chooses another learner"
            ),
        }
    }

    /// On data of `dim` features, more than [`BLEND_MAX_DIM`], the learner `command` trains
    /// instead of the blend (the map learner on the features, with its defaults) and what it
    /// says; `None` when the blend takes the data or the default is the map learner.
    pub fn on_wide_data(&self, dim: usize, command: &str) -> Option<(&'static Algorithm, String)> {
        if self.map.is_some() || dim <= BLEND_MAX_DIM {
            return None;
        }
        let wide = auc_learners::default_map_algorithm();
        let message = format!(
            "{command}: {dim} features are more than the default blend takes ({BLEND_MAX_DIM}): fitting {} on the features instead (the exact square surrogate over all pairs, solved over the rows on wide data); --algo NAME chooses another learner",
            wide.name
        );
        Some((wide, message))
    }
}

/// The learner `learner` names, or the default rule's for `stages` (the map learner's `lambda`
/// set in `params` unless given), said as a note naming `command`; with the default learner it
/// resolved to, for [`wide_instead`].
pub fn resolve(
    learner: Learner,
    params: &mut ParamMap,
    stages: &TransformSpec,
    command: &str,
    report: &dyn Report,
) -> Result<(&'static Algorithm, Option<DefaultLearner>), Error> {
    match learner {
        Learner::Named(algo) => Ok((algo, None)),
        Learner::Resumed => Err(Error::usage(
            "a resumed learner needs the model to continue (--resume MODEL)",
        )),
        Learner::Default => {
            let default = DefaultLearner::for_stages(stages);
            let lambda_given = match default.lambda() {
                Some(lambda) if params.get("lambda").is_none() => {
                    params.set("lambda", lambda);
                    false
                }
                Some(_) => true,
                None => false,
            };
            report.note(&default.message(command, lambda_given));
            Ok((default.algo, Some(default)))
        }
    }
}

/// The learner to fit instead of the default one `resolved` (by [`resolve`]) on data of `dim`
/// features too wide for it, said as a note; `None` when the learner was named or takes the
/// data.
pub fn wide_instead(
    resolved: Option<DefaultLearner>,
    dim: usize,
    command: &str,
    report: &dyn Report,
) -> Option<&'static Algorithm> {
    let (wide, message) = resolved?.on_wide_data(dim, command)?;
    report.note(&message);
    Some(wide)
}
