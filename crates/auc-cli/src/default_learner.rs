//! What `auc train` and `auc cv` fit when no `--algo` is given, so that a new user's first
//! model is the best default we have, said on stderr with how to choose another:
//! - without `--features`, the registry's default learner, the blend of a Nystroem-kernel
//!   model and boosted trees, which the measurement of `docs/results/default-learner.md` ranks
//!   first across the shared data sets (by the rule of the defaults page, fixed before the
//!   runs);
//! - with `--features MAP`, the learner measured on maps, OPAUC-batch at the lambda that ranks
//!   first there (`docs/results/default-map.md`).

use crate::hyper::HyperArgs;
use crate::stage_args::StageArgs;

/// The map learner's `lambda` when not given: the point of the lambda grid with the best mean
/// rank across the sets on a map (`docs/results/default-map.md`); the registry's default is
/// for rows as read.
pub(crate) const MAP_LAMBDA_LOG2: i32 = -10;

/// Fills in the default learner (and, on a map, its lambda) when `algo` is `None`, and says so;
/// returns whether it did.
pub(crate) fn fill(
    algo: &mut Option<String>,
    stages: &StageArgs,
    hyper: &mut HyperArgs,
    command: &str,
) -> bool {
    if algo.is_some() {
        return false;
    }
    if let Some(map) = stages.spec().features {
        let name = auc_learners::default_map_algorithm().name;
        *algo = Some(name.to_owned());
        let lambda_given = hyper.set_default("lambda", 2f64.powi(MAP_LAMBDA_LOG2));
        eprintln!(
            "auc: no --algo: {command} uses {name} on the {} feature map asked for{}, the learner measured best on maps (docs/results/default-map.md); --algo NAME chooses another learner",
            map.shape,
            if lambda_given {
                String::new()
            } else {
                format!(", lambda=2^{MAP_LAMBDA_LOG2}")
            }
        );
        return false;
    }
    let name = auc_learners::default_algorithm().name;
    *algo = Some(name.to_owned());
    eprintln!(
        "auc: no --algo: {command} uses {name} (a Nystroem-kernel model and boosted trees, their scores averaged), the best default measured across the shared data sets (docs/results/default-learner.md); --algo NAME chooses another learner"
    );
    true
}

/// The most features the default blend takes. Past it (wide data: hashed fields, one-hot
/// columns, text) its trees would bin every row's every feature and its map read every feature
/// of every landmark, where the map learner, OPAUC-batch without a map, solves over the rows
/// with no p x p matrix (conjugate gradients above 4096 features).
pub(crate) const BLEND_MAX_DIM: usize = 4096;

/// When the learner was filled in by default (`defaulted`) and the data has more than
/// [`BLEND_MAX_DIM`] features, the learner to fit instead, said on stderr; `None` otherwise.
pub(crate) fn for_wide_data(
    defaulted: bool,
    dim: usize,
    command: &str,
) -> Option<&'static auc_learners::Algorithm> {
    if !defaulted || dim <= BLEND_MAX_DIM {
        return None;
    }
    let wide = auc_learners::default_map_algorithm();
    eprintln!(
        "auc: {command}: {dim} features are more than the default blend takes ({BLEND_MAX_DIM}): fitting {} on the features instead (the exact square surrogate over all pairs, solved over the rows on wide data); --algo NAME chooses another learner",
        wide.name
    );
    Some(wide)
}
