//! [`crate::Route::Arrays`]: rows a front end holds in memory as arrays (Python's numpy and
//! scipy arrays), read in place through [`RowSource`] and prepared row by row with a
//! [`Preparation`] the front end fitted on them; and a one-pass model continued on such rows
//! ([`continue_on_rows`], `partial_fit`). The same checks as every route (memory, both classes,
//! averaging, a finite state) and the same record.

use auc_core::{DataShape, Dataset, Label, OnlineLearner};
use auc_learners::{Calibration, CalibrationSpec, Configured, Model, Trained, Trainer};
use auc_prep::Preparation;
use auc_stream::{Report, memory};

use crate::outcome::{Route, TrainOutcome};
use crate::request::{Arrays, TrainRequest};
use crate::rows::{RowPass, RowSource};
use crate::{Error, checks};

/// The shape that sizes a learner on `rows` with `labels` through `prep`.
fn shape(rows: &dyn RowSource, labels: &[Label], prep: &Preparation) -> DataShape {
    let positives = labels.iter().filter(|l| l.is_pos()).count();
    DataShape {
        n: rows.n(),
        dim: prep.transform.output_dim(rows.dim()),
        positives,
        negatives: labels.len() - positives,
    }
}

/// Trains `req`'s named learner on `arrays` (see the module docs).
pub(crate) fn fit(
    algo: &'static auc_learners::Algorithm,
    config: Box<dyn Configured>,
    arrays: &Arrays<'_>,
    req: &TrainRequest<'_>,
    report: &dyn Report,
) -> Result<TrainOutcome, Error> {
    let opts = &req.options;
    let rows = arrays.rows;
    let labels = &arrays.labels;
    let prep = &arrays.preparation;
    let shape = shape(rows, labels, prep);
    let (pos, neg) = (shape.positives as u64, shape.negatives as u64);
    if !arrays.partial {
        auc_stream::need_both(pos, neg, &format!("training {}", algo.name))?;
    }
    prep.validate().map_err(Error::input)?;
    memory::check(
        config.memory_bytes(&shape, opts.average),
        opts.max_memory,
        &format!(
            "{} on {} rows of {} features",
            algo.name, shape.n, shape.dim
        ),
        &checks::linear_state_advice(algo.name),
    )?;
    let cv_calibration = req.calibrate.filter(|_| !arrays.partial);
    if let Some(c) = cv_calibration {
        // The folds' copies of the rows, as dense values (an upper bound for sparse ones).
        let data_bytes = (shape.n as u64)
            .saturating_mul(shape.dim as u64)
            .saturating_mul(8);
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        crate::calibrate::check_memory(
            algo,
            &c.spec,
            config.as_ref(),
            &shape,
            data_bytes,
            threads,
            opts,
        )?;
    }
    let start = std::time::Instant::now();
    let mut calibration = None;
    let mut prepared = None;
    let (state, summary) = match config.trainer() {
        Trainer::Online(t) => {
            let mut state = t.start(shape.dim, opts.seed, opts.average)?;
            let learner = state
                .learner()
                .ok_or_else(|| Error::usage("a one-pass learner's state learns"))?;
            let mut scores = req
                .calibrate
                .filter(|_| arrays.partial)
                .map(|_| Vec::with_capacity(rows.n()));
            feed(learner, rows, labels, prep, scores.as_mut());
            if let (Some(c), Some(s)) = (req.calibrate, scores) {
                // A batch of one class has no calibration yet.
                calibration = Calibration::fit(c.spec.kind, &s, labels).ok();
            }
            (state, None)
        }
        Trainer::Batch(b) => {
            let data = prep.apply(&rows.dataset(labels.clone())?);
            let (state, summary) = b.fit(&data, opts.seed)?;
            prepared = Some(data);
            (state, Some(summary))
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let diverged = checks::divergence(state.as_ref(), algo.name, report);
    checks::check_state(state.as_ref(), algo.name)?;
    if let Some(c) = cv_calibration {
        let data = match prepared {
            Some(d) => d,
            None => prep.apply(&rows.dataset(labels.clone())?),
        };
        calibration = Some(fit_calibration(&c.spec, config.as_ref(), &data, opts)?);
    }
    Ok(TrainOutcome {
        model: Model {
            algorithm: algo,
            config,
            preparation: arrays.preparation.clone(),
            training: auc_learners::TrainingRecord::first_run(
                opts.seed,
                pos,
                neg,
                diverged,
                opts.written_by.clone(),
            ),
            state,
            calibration,
        },
        route: Route::Arrays,
        seconds,
        moment_seconds: None,
        summary,
        tuned: None,
    })
}

/// The calibration of `spec` on the held-out scores of a cross-validation of `data`.
fn fit_calibration(
    spec: &CalibrationSpec,
    config: &dyn Configured,
    data: &Dataset,
    opts: &crate::Options,
) -> Result<Calibration, Error> {
    let (c, _) =
        auc_learners::fit_calibration(spec, config, opts.average, data, opts.seed, &|| {})?;
    Ok(c)
}

/// Feeds `rows` to `learner` in order, each prepared as `prep` says (lent as they are when there
/// is nothing to prepare). With `prequential`, each row's score by the learner before its step
/// on the row is pushed there. Sparse rows whose features the stages keep are shown to the
/// learner one row ahead (its prefetch of their state, as in `auc train`).
fn feed(
    learner: &mut dyn OnlineLearner,
    rows: &dyn RowSource,
    labels: &[Label],
    prep: &Preparation,
    prequential: Option<&mut Vec<f64>>,
) {
    let ahead = rows.is_sparse() && !prep.transform.reshapes();
    rows.pass(&mut RowPass::learn(
        learner,
        labels,
        prep,
        prequential,
        ahead,
    ));
}

/// Continues the one-pass `model` on `rows` with `labels` in row order, exactly as a resumed
/// model continues on a file (same preparation, same updates), and updates its record. With
/// `calibrate`, its calibration is refitted on the batch's prequential scores when they hold
/// both classes. The rows and the model together must hold both classes.
pub fn continue_on_rows(
    model: &mut Model,
    rows: &dyn RowSource,
    labels: &[Label],
    calibrate: Option<auc_learners::CalibrationKind>,
    written_by: &str,
) -> Result<(), Error> {
    let name = model.algorithm.name;
    if !model.algorithm.is_online() {
        return Err(Error::usage(format!(
            "{name} is a batch learner, fitted on all its data at once: it has no partial_fit"
        )));
    }
    let pos = labels.iter().filter(|l| l.is_pos()).count() as u64;
    let neg = labels.len() as u64 - pos;
    let record = model.training.after_run(pos, neg).map_err(Error::Input)?;
    auc_stream::need_both(
        record.positives,
        record.negatives,
        &format!("training {name} (the model and the new rows together)"),
    )?;
    let learner = model
        .state
        .learner()
        .ok_or_else(|| Error::usage("a one-pass model's state learns"))?;
    let mut prequential = calibrate.map(|_| Vec::with_capacity(rows.n()));
    feed(
        learner,
        rows,
        labels,
        &model.preparation,
        prequential.as_mut(),
    );
    if let (Some(kind), Some(scores)) = (calibrate, prequential) {
        // A batch of one class keeps the calibration the model had.
        if let Ok(c) = Calibration::fit(kind, &scores, labels) {
            model.calibration = Some(c);
        }
    }
    checks::check_state(model.state.as_ref(), name)?;
    model.training = auc_learners::TrainingRecord {
        diverged: model.state.divergence().map(|d| d.to_string()),
        written_by: written_by.to_owned(),
        ..record
    };
    Ok(())
}

/// Scores of `rows` by `state`, each prepared as `prep` says; a score that is not finite is an
/// error naming the row.
pub fn score_rows(
    state: &dyn Trained,
    rows: &dyn RowSource,
    prep: &Preparation,
) -> Result<Vec<f64>, Error> {
    let mut out = Vec::with_capacity(rows.n());
    let mut pass = RowPass::score(state, &mut out, prep);
    rows.pass(&mut pass);
    if let Some((row, value)) = pass.not_finite() {
        return Err(auc_learners::Error::NonFiniteScore { row, value }.into());
    }
    Ok(out)
}
