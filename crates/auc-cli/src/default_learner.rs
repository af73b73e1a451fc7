//! What `auc train` and `auc cv` fit when no `--algo` is given: the learner and feature map
//! that the measurement of `docs/results/default-map.md` ranks first across the shared data
//! sets (by the rule of the defaults page, fixed before the runs), so a new user's first model
//! is the best default we have. It is said on stderr, with how to choose another.

use auc_prep::MapShape;

use crate::hyper::HyperArgs;
use crate::stage_args::StageArgs;

/// Its feature map when `--features` is not given.
pub(crate) const DEFAULT_MAP: MapShape = MapShape {
    kind: auc_prep::MapKind::Nystroem,
    size: auc_prep::features::DEFAULT_LANDMARKS,
};
/// Its `lambda` when not given: the point of the lambda grid with the best mean rank across the
/// sets on the map (`docs/results/default-map.md`); the registry's default is for rows as read.
pub(crate) const DEFAULT_LAMBDA_LOG2: i32 = -10;

/// Fills in the default learner, map and lambda when `algo` is `None`, and says so.
pub(crate) fn fill(
    algo: &mut Option<String>,
    stages: &mut StageArgs,
    hyper: &mut HyperArgs,
    command: &str,
) {
    if algo.is_some() {
        return;
    }
    let name = auc_learners::default_algorithm().name;
    *algo = Some(name.to_owned());
    let map_given = stages.spec().features.is_some();
    let map = stages.default_map(DEFAULT_MAP);
    let lambda = 2f64.powi(DEFAULT_LAMBDA_LOG2);
    let lambda_given = hyper.set_default("lambda", lambda);
    eprintln!(
        "auc: no --algo: {command} uses {name} on {}{}, the best default measured across the shared data sets (docs/results/default-map.md); --algo NAME chooses another learner",
        if map_given {
            format!("the {map} feature map asked for")
        } else {
            format!("a {map} feature map")
        },
        if lambda_given {
            String::new()
        } else {
            format!(", lambda=2^{DEFAULT_LAMBDA_LOG2}")
        }
    );
}
