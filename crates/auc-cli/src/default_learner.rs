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

/// Fills in the default learner (and, on a map, its lambda) when `algo` is `None`, and says so.
pub(crate) fn fill(
    algo: &mut Option<String>,
    stages: &StageArgs,
    hyper: &mut HyperArgs,
    command: &str,
) {
    if algo.is_some() {
        return;
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
        return;
    }
    let name = auc_learners::default_algorithm().name;
    *algo = Some(name.to_owned());
    eprintln!(
        "auc: no --algo: {command} uses {name} (a Nystroem-kernel model and boosted trees, their scores averaged), the best default measured across the shared data sets (docs/results/default-learner.md); --algo NAME chooses another learner"
    );
}
