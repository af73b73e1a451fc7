//! What `auc train` and `auc cv` fit when no `--algo` is given: the flags filled in with
//! [`auc_train::default_learner`]'s choice (the blend, or the map learner on `--features`,
//! at its measured lambda unless `--param lambda=` is given), said on stderr with how to
//! choose another.

use auc_train::default_learner::DefaultLearner;

use crate::hyper::HyperArgs;
use crate::stage_args::StageArgs;

/// Fills in the default learner (and, on a map, its lambda) when `algo` is `None`, and says
/// so; returns the learner filled in.
pub(crate) fn fill(
    algo: &mut Option<String>,
    stages: &StageArgs,
    hyper: &mut HyperArgs,
    command: &str,
) -> Option<DefaultLearner> {
    if algo.is_some() {
        return None;
    }
    let default = DefaultLearner::for_stages(&stages.spec());
    *algo = Some(default.algo.name.to_owned());
    let lambda_given = default
        .lambda()
        .is_some_and(|lambda| hyper.set_default("lambda", lambda));
    eprintln!("auc: {}", default.message(command, lambda_given));
    Some(default)
}

/// The learner to fit instead of the default one `filled` (by [`fill`]) on data of `dim`
/// features too wide for it, said on stderr; `None` when the learner was named or takes the
/// data.
pub(crate) fn for_wide_data(
    filled: Option<DefaultLearner>,
    dim: usize,
    command: &str,
) -> Option<&'static auc_learners::Algorithm> {
    let (wide, message) = filled?.on_wide_data(dim, command)?;
    eprintln!("auc: {message}");
    Some(wide)
}
