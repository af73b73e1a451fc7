//! The checks every route of training shares: the memory a learner's state takes (and the
//! copies saving it holds), sketching a moment learner that would not fit, a state that
//! diverged or is not finite.

use auc_core::{DataShape, Dataset, ParamMap};
use auc_learners::{Algorithm, Configured, Trained};
use auc_stream::Report;
use auc_stream::memory::{self, Bytes, Refusal};

use crate::Error;

/// The shape of a training set, for memory estimates.
pub fn shape(data: &Dataset) -> DataShape {
    let (positives, negatives) = data.class_counts();
    DataShape {
        n: data.n(),
        dim: data.dim(),
        positives,
        negatives,
    }
}

/// The shape that sizes a one-pass learner's state: only the dimension matters.
pub fn dim_shape(dim: usize) -> DataShape {
    DataShape {
        dim,
        ..DataShape::default()
    }
}

/// What a learner's memory error suggests instead: hashing the features, or one of the learners
/// whose state is a few vectors of $p$ numbers (the registry's `linear_state_names`).
pub fn linear_state_advice(algo: &str) -> String {
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
/// not fit the memory limit and no `sketch` was asked for (docs/math/sketched-moments.md
/// section 5 measures it).
pub const AUTO_SKETCH: usize = 32;

/// Whether `algo` keeps class covariances that it can sketch (`--param sketch=K`): a linear
/// learner with a `sketch` parameter.
pub fn sketchable(algo: &Algorithm) -> bool {
    algo.family == auc_core::Family::Linear && algo.specs.iter().any(|s| s.name == "sketch")
}

/// `config`, or, when its state for `shape` (plus `beside` bytes that stay alive) would exceed
/// `limit` and `algo` is a one-pass learner whose moments can be sketched and no `sketch` was
/// given, `algo` configured from `given` with `sketch = AUTO_SKETCH`, said as a note. The memory
/// check itself stays with the caller: a sketched state that is still too large is refused
/// there with the usual advice. Returns the parameters it used.
#[allow(clippy::too_many_arguments)]
pub fn sketched_if_too_wide(
    algo: &Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
    shape: &DataShape,
    average: bool,
    beside: u64,
    limit: Bytes,
    report: &dyn Report,
) -> Result<(Box<dyn Configured>, ParamMap), Error> {
    let need = config.memory_bytes(shape, average).saturating_add(beside);
    let Some((config, sketched)) = auto_sketched(algo, given, need, limit)? else {
        return Ok((config, given.clone()));
    };
    report.note(&format!(
        "{} keeps both classes' {} x {} covariances, about {}, over --max-memory {}: using --param sketch={AUTO_SKETCH} (each class's covariance from a Frequent Directions sketch of rank {AUTO_SKETCH}, within a stated bound; --param sketch=K chooses the rank)",
        algo.name,
        shape.dim,
        shape.dim,
        Bytes(need),
        limit
    ));
    Ok((config, sketched))
}

/// A learner configured, with the parameters it was configured from.
type ConfiguredWith = (Box<dyn Configured>, ParamMap);

/// `algo` configured from `given` with `sketch = AUTO_SKETCH` and those parameters, when a state
/// of `need` bytes exceeds `limit`, `algo` can sketch and no `sketch` was given; `None`
/// otherwise ([`sketched_if_too_wide`] says why it sketched).
fn auto_sketched(
    algo: &Algorithm,
    given: &ParamMap,
    need: u64,
    limit: Bytes,
) -> Result<Option<ConfiguredWith>, Error> {
    if need <= limit.0 || !sketchable(algo) || given.get("sketch").is_some() {
        return Ok(None);
    }
    let mut sketched = given.clone();
    sketched.set("sketch", auc_core::ParamValue::Num(AUTO_SKETCH as f64));
    let config = algo.configure(&sketched)?;
    Ok(Some((config, sketched)))
}

/// The check `auc_stream::plan_beside` runs whenever its first pass's dimension grows: refuses
/// a one-pass learner's state on `dim` features (sketched as [`sketched_if_too_wide`] would
/// sketch it) beside the `held` bytes the pass is about to hold for its scaling's ranges, before
/// it allocates them. Without it a file with one huge feature index had its ranges (gigabytes)
/// fitted before the learner's refusal.
pub fn state_beside_ranges<'a>(
    algo: &'a Algorithm,
    given: &'a ParamMap,
    config: &'a dyn Configured,
    average: bool,
    limit: Bytes,
) -> impl Fn(usize, u64) -> Result<(), auc_stream::Error> + 'a {
    move |dim: usize, held: u64| {
        let shape = dim_shape(dim);
        let mut need = config.memory_bytes(&shape, average);
        let sketched = auto_sketched(algo, given, need, limit)
            .map_err(|e| auc_stream::Error::usage(e.to_string()))?;
        if let Some((sketched, _)) = sketched {
            need = sketched.memory_bytes(&shape, average);
        }
        memory::check(
            need.saturating_add(held),
            limit,
            &format!(
                "{} on {dim} features beside the first pass's ranges of them",
                algo.name
            ),
            &linear_state_advice(algo.name),
        )?;
        Ok(())
    }
}

/// The learner an in-memory fit on `data` runs: `config`, or sketched when its state would
/// not fit ([`sketched_if_too_wide`]), then refused when its state beside the rows (which stay
/// alive while it runs) still exceeds `limit`. Returns it with the parameters it used.
pub fn fit_in_memory_limit(
    algo: &Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
    data: &Dataset,
    average: bool,
    limit: Bytes,
    report: &dyn Report,
) -> Result<(Box<dyn Configured>, ParamMap), Error> {
    let rows = crate::in_memory::data_bytes(data);
    let (config, used) = sketched_if_too_wide(
        algo,
        given,
        config,
        &shape(data),
        average,
        rows,
        limit,
        report,
    )?;
    memory::check(
        config
            .memory_bytes(&shape(data), average)
            .saturating_add(rows),
        limit,
        &format!(
            "{} on {} rows of {} features",
            algo.name,
            data.n(),
            data.dim()
        ),
        &linear_state_advice(algo.name),
    )?;
    Ok((config, used))
}

/// Copies of a state that saving its model holds at once, the state included: the serialized
/// state, the payload, the model read back and its re-serialized state for the comparison
/// (measured: a 400 MB PA-I state of 5e7 features peaked at 1.96 GB while saved). Two of them
/// are held states (the trained one and the one read back), three serialized ones.
pub const SAVE_COPIES: u64 = 5;

/// Refuses a state of `held` bytes, `saved` bytes serialized, whose model could not be saved
/// within `limit` (saving holds [`SAVE_COPIES`] copies: two held, the rest serialized), before
/// the state is allocated or grown. For a state saved as it is held, `saved` is `held`.
pub fn check_save_memory(held: u64, saved: u64, limit: Bytes, what: &str) -> Result<(), Refusal> {
    memory::check(
        held.saturating_mul(2)
            .saturating_add(saved.saturating_mul(SAVE_COPIES - 2)),
        limit,
        &format!("{what}, saved (the state, its bytes and the model read back to check them)"),
        "use --hash-bits B to fold the features into 2^B, or a larger --max-memory",
    )
}

/// Checks the trained state before it is saved: a state that is not finite (features too large
/// without scaling) is an error, never a model that scores NaN.
pub fn check_state(state: &dyn Trained, algo: &str) -> Result<(), Error> {
    state.validate().map_err(|source| Error::Unusable {
        learner: algo.to_owned(),
        source,
    })
}

/// Refuses `average` (`--average`) for a learner without a weight vector to average.
pub fn check_average(algo: &Algorithm, average: bool) -> Result<(), Error> {
    if average && algo.family != auc_core::Family::Linear {
        return Err(Error::usage(format!(
            "--average averages the iterates of a linear one-pass learner; {} is a {} learner",
            algo.name,
            algo.family.name()
        )));
    }
    Ok(())
}

/// Reports a state that diverged as a warning and returns the text a model file records.
pub fn divergence(state: &dyn Trained, algo: &str, report: &dyn Report) -> Option<String> {
    let d = state.divergence()?;
    report.warning(&format!("{algo} diverged: {d}"));
    Some(d.to_string())
}
