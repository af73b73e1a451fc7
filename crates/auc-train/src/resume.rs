//! [`crate::Route::Resumed`]: a saved one-pass model continued on new rows read as its
//! training data was read and prepared (the model fixes the reading, the positive class and
//! the scaling: no first pass). Without a shuffle the result equals one uninterrupted run over
//! both inputs in order.

use std::time::Instant;

use auc_learners::Model;
use auc_stream::Report;

use crate::outcome::{Route, TrainOutcome};
use crate::request::{Learner, TrainRequest};
use crate::{Error, checks, streamed};

/// Continues `model` on `req`'s input (its row limit and line cap; the rest of `req.prep` is
/// the model's business), checks the result as every route does and returns it. A calibration
/// fitted on the earlier training is dropped (said as a note): it does not hold after more.
pub fn resume(
    mut model: Model,
    req: &TrainRequest<'_>,
    report: &dyn Report,
) -> Result<TrainOutcome, Error> {
    let name = model.algorithm.name;
    if !model.algorithm.is_online() {
        return Err(Error::usage(format!(
            "--resume continues a one-pass learner; the model is {name}, a batch learner fitted on all its data at once: train it again on all the data instead"
        )));
    }
    if let Learner::Named(a) = req.learner
        && a.name != name
    {
        return Err(Error::usage(format!(
            "--algo {} differs from the model's algorithm {name}",
            a.name
        )));
    }
    let start = Instant::now();
    let (positives, negatives) = streamed::continue_training(
        &mut model,
        req.input.paths(),
        streamed::ContinueReading {
            limit: req.prep.read.limit,
            max_line_bytes: req.prep.read.max_line_bytes,
        },
        &req.options,
        report,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(c) = model.calibration.take() {
        report.note(&format!(
            "the model's calibration ({}) was fitted on its earlier training and does not hold after --resume: the saved model has none (train with --calibrate on all the data for probabilities)",
            c.describe()
        ));
    }
    let mut record = model
        .training
        .after_run(positives, negatives)
        .map_err(Error::Input)?;
    if record.positives == 0 || record.negatives == 0 {
        return Err(Error::OneClass {
            what: format!("training {name} (the model and the new data together)"),
            positives: record.positives,
            negatives: record.negatives,
        });
    }
    record.diverged = checks::divergence(model.state.as_ref(), name, report);
    checks::check_state(model.state.as_ref(), name)?;
    record.written_by = req.options.written_by.clone();
    model.training = record;
    Ok(TrainOutcome {
        model,
        route: Route::Resumed,
        seconds,
        moment_seconds: None,
        summary: None,
        tuned: None,
    })
}
