//! [`train`]: the one function that turns a [`TrainRequest`] into a model. It resolves the
//! learner (the default rule included), checks what was asked once, chooses the route in
//! [`choose_route`] and runs it:
//!
//! | route | when | what runs |
//! |---|---|---|
//! | [`Route::Resumed`] | a model to continue | its one-pass learner on the new rows, read its way |
//! | [`Route::Moments`] | a learner fitted from class moments, nothing that needs the rows | one moment pass, the merged moments solved ([`crate::moments`]) |
//! | [`Route::Streamed`] | a one-pass learner, no tuning, no cross-validated calibration, no full permutation | the input read incrementally ([`crate::streamed`]) |
//! | [`Route::InMemory`] | anything else on files | the rows loaded, tuned, fitted, calibrated ([`crate::in_memory`]) |
//! | [`Route::Arrays`] | rows the caller holds | the rows read in place, fitted, calibrated ([`crate::arrays`]) |
//!
//! A moment pass whose class moments would not fit the budget hands over to the rows
//! (`solver=cg`), said as a note. Every route ends in the same checks (divergence reported, a
//! state that is not finite refused, the memory of saving it) and the same record
//! ([`auc_learners::TrainingRecord::first_run`]).

use std::time::Instant;

use auc_core::ParamMap;
use auc_data::Layout;
use auc_learners::{Algorithm, Configured, Model, TrainingRecord};
use auc_stream::Report;
use auc_stream::memory;

use crate::default_learner::{self, DefaultLearner};
use crate::outcome::{MomentSeconds, Route, TrainOutcome};
use crate::request::{CalibrateOn, Input, TrainRequest};
use crate::{Error, Order, arrays, calibrate, checks, in_memory, moments, resume, streamed, tune};

/// The most prequential scores a calibration on them keeps: the last this many rows'.
pub const PREQUENTIAL_CALIBRATION_ROWS: usize = 1 << 20;

/// Trains what `req` asks and returns the model; what is worth saying on the way goes to
/// `report` (the default learner chosen, the positive class, notes, warnings, progress).
pub fn train(mut req: TrainRequest<'_>, report: &dyn Report) -> Result<TrainOutcome, Error> {
    if let Some(model) = req.resume.take() {
        return resume::resume(*model, &req, report);
    }
    let (algo, default) = default_learner::resolve(
        req.learner,
        &mut req.params,
        &req.prep.transform,
        &req.command,
        report,
    )?;
    let mut given = req.params.clone();
    check_request(algo, &given, &req)?;
    survey_tables(&mut req, report)?;
    let observer = req.observer.take();
    // Without scaling the learner sees the values as read: those whose squares overflow are
    // refused.
    req.prep.read.bounded_values = req.prep.transform.reads_raw_values();
    // Whether LIBSVM indices are 0-based, decided once for every file and every pass.
    req.prep.read = moments::data_options(&req.prep.read, req.input.paths());
    if choose_route(algo, &given, &req) == Route::Moments {
        match moment_route(algo, &given, &req, report)? {
            Ok(outcome) => return Ok(outcome),
            // The class moments would not fit: the same minimizer over the rows.
            Err(over_rows) => given = over_rows,
        }
    } else if let Some(why) = moments_refused(algo, &given, &req) {
        moments::refuse_moment_files(req.input.paths(), why)?;
    }
    let config = algo.configure(&given)?;
    config.procedure(req.options.average)?;
    match (choose_route(algo, &given, &req), &req.input) {
        (Route::Arrays, Input::Arrays(arrays)) => arrays::fit(algo, config, arrays, &req, report),
        (Route::Streamed, _) => streamed_route(algo, &given, config, &req, observer, report),
        _ => in_memory_route(algo, default, &given, config, &req, observer, report),
    }
}

/// Fits the schema of CSV files with named columns by a survey of their rows (SPEC 11), and says
/// what it decided: the label column and positive class, categorical columns, filled cells.
fn survey_tables(req: &mut TrainRequest<'_>, report: &dyn Report) -> Result<(), Error> {
    let Input::Files(paths) = &req.input else {
        return Ok(());
    };
    let paths: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    req.prep = req.prep.surveyed(&paths)?;
    if let Some(schema) = &req.prep.read.schema {
        let (pos, neg) = schema.label.class_counts();
        report.note(&format!(
            "label column \"{}\"; positive class: {}; {pos} positive, {neg} negative",
            schema.label.name, schema.label
        ));
        for note in schema.notes() {
            report.note(&note);
        }
    }
    Ok(())
}

/// The route of `algo` with parameters `given` for `req` (a resumed model aside): a moment
/// pass when the learner is fitted from moments and nothing asks for the rows, the stream for
/// a one-pass learner that needs no cross-validation and no full permutation, else the rows in
/// memory.
pub fn choose_route(algo: &Algorithm, given: &ParamMap, req: &TrainRequest<'_>) -> Route {
    if req.resume.is_some() {
        return Route::Resumed;
    }
    match req.input {
        Input::Arrays(_) => return Route::Arrays,
        Input::Moments { .. } => return Route::Moments,
        Input::Files(_) => {}
    }
    if moments_refused(algo, given, req).is_none() {
        return Route::Moments;
    }
    let prequential = req
        .calibrate
        .is_none_or(|c| c.on == CalibrateOn::Prequential);
    if algo.is_online()
        && req.tune.is_none()
        && prequential
        && !matches!(req.options.order, Order::Full { .. })
    {
        Route::Streamed
    } else {
        Route::InMemory
    }
}

/// Why `algo` does not take the moment route for `req`, or `None` when it does.
fn moments_refused(
    algo: &Algorithm,
    given: &ParamMap,
    req: &TrainRequest<'_>,
) -> Option<&'static str> {
    moments::in_memory_reason(
        algo,
        given,
        req.tune.is_some(),
        req.calibrate.is_some(),
        req.prep.read.limit,
        &req.prep.transform,
    )
}

/// What `req` asks that `algo` cannot do, refused before anything is read.
fn check_request(algo: &Algorithm, given: &ParamMap, req: &TrainRequest<'_>) -> Result<(), Error> {
    algo.check_names(given)?;
    checks::check_average(algo, req.options.average)?;
    if !algo.is_online() && algo.asks_transductive(given) {
        return Err(Error::usage(format!(
            "transductive=true needs the rows to be scored while {} fits; `auc train` fits on the training rows alone and saves the inductive model (leave the parameter out; `auc cv` measures the transductive mode)",
            algo.name
        )));
    }
    if req.observer.is_some()
        && (!algo.is_online()
            || req.tune.is_some()
            || req.calibrate.is_some()
            || !matches!(req.input, Input::Files(_)))
    {
        return Err(Error::usage(format!(
            "prequential evaluation scores each row before a one-pass learner's step on it: {} {}",
            algo.name,
            if algo.is_online() {
                "cannot be tuned or calibrated at the same time, and watches rows read from files"
            } else {
                "is a batch learner, fitted on all its data at once"
            }
        )));
    }
    if req.tune.is_some() && !matches!(req.input, Input::Files(_)) {
        return Err(Error::usage(
            "--tune cross-validates on rows read from files; tune arrays with the caller's own cross-validation (auclearn.model_selection)",
        ));
    }
    let prequential = req
        .calibrate
        .is_some_and(|c| c.on == CalibrateOn::Prequential);
    let full = matches!(req.options.order, Order::Full { .. });
    if prequential && (!algo.is_online() || req.tune.is_some() || full) {
        return Err(Error::usage(format!(
            "--calibrate-on prequential needs a one-pass learner trained in one pass ({} is {}): leave out --tune and --shuffle-full, or use --calibrate-on cv",
            algo.name,
            if algo.is_online() {
                "one, but --tune or --shuffle-full loads the data in memory"
            } else {
                "a batch learner"
            }
        )));
    }
    Ok(())
}

/// [`Route::Moments`]: the model from the moments of a pass over the files (or from moments
/// already merged), or (the class moments of a pass too large for the budget, a learner that
/// can solve over the rows) the parameters to fit it over the rows with instead, said as a
/// note.
fn moment_route(
    algo: &'static Algorithm,
    given: &ParamMap,
    req: &TrainRequest<'_>,
    report: &dyn Report,
) -> Result<Result<TrainOutcome, ParamMap>, Error> {
    if let Input::Moments { summary, source } = &req.input {
        let start = Instant::now();
        let (mut model, line) = moments::solve(
            algo,
            given,
            summary,
            &req.prep.positive,
            &req.prep.transform,
            req.options.seed,
            req.options.max_memory,
            source,
        )?;
        model.training.written_by = req.options.written_by.clone();
        let solve = start.elapsed().as_secs_f64();
        return Ok(Ok(TrainOutcome {
            model,
            route: Route::Moments,
            seconds: solve,
            moment_seconds: Some(MomentSeconds { pass: 0.0, solve }),
            summary: Some(line),
            tuned: None,
        }));
    }
    let mut read = req.prep.read.clone();
    read.dim = None;
    read.bounded_values = false;
    let training = moments::MomentTraining {
        algo,
        given,
        inputs: req.input.paths(),
        read: &read,
        positive: &req.prep.positive,
        stages: &req.prep.transform,
        threads: req.options.threads,
        seed: req.options.seed,
        limit: req.options.max_memory,
    };
    match moments::train_from_moments(training, report)? {
        moments::FromMoments::Trained(fit) => {
            let mut model = fit.model;
            model.training.written_by = req.options.written_by.clone();
            let (p, t) = (&model.preparation, &model.training);
            let table = p.reading.schema().is_some();
            let labels: Vec<String> = p
                .positive_labels
                .iter()
                .map(|l| auc_stream::fmt_label(*l))
                .collect();
            // A table's positive class was said when its schema was fitted.
            if !table {
                report.note(&format!(
                    "positive class: {} ({}); {} positive, {} negative",
                    labels.join(","),
                    p.positive_rule,
                    t.positives,
                    t.negatives
                ));
            }
            Ok(Ok(TrainOutcome {
                model,
                route: Route::Moments,
                seconds: fit.pass_seconds + fit.solve_seconds,
                moment_seconds: Some(MomentSeconds {
                    pass: fit.pass_seconds,
                    solve: fit.solve_seconds,
                }),
                summary: Some(fit.summary),
                tuned: None,
            }))
        }
        moments::FromMoments::OverRows { given, message } => {
            report.note(&message);
            Ok(Err(given))
        }
    }
}

/// [`Route::Streamed`]: the one-pass learner on its input read incrementally, with a
/// calibration on the last prequential scores when asked.
fn streamed_route(
    algo: &'static Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
    req: &TrainRequest<'_>,
    observer: Option<auc_stream::Observer<'_>>,
    report: &dyn Report,
) -> Result<TrainOutcome, Error> {
    let window = match req.calibrate {
        Some(_) => {
            // A score and a label, padded: 16 bytes each.
            memory::check(
                16 * PREQUENTIAL_CALIBRATION_ROWS as u64,
                req.options.max_memory,
                "the prequential scores --calibrate-on prequential keeps",
                "raise --max-memory, or use --calibrate-on cv",
            )?;
            Some(PREQUENTIAL_CALIBRATION_ROWS)
        }
        None => None,
    };
    let s = streamed::train_streamed(
        algo,
        given,
        config,
        req.input.paths(),
        &req.prep,
        &req.options,
        window,
        observer,
        report,
    )?;
    let mut model = s.model;
    if let (Some(c), Some(w)) = (req.calibrate, &s.window) {
        model.calibration = Some(calibrate::on_prequential(c.spec.kind, w, report)?);
    }
    Ok(TrainOutcome {
        model,
        route: Route::Streamed,
        seconds: s.seconds,
        moment_seconds: None,
        summary: None,
        tuned: None,
    })
}

/// [`Route::InMemory`]: the rows loaded and prepared; the default learner's wide-data rule
/// applied to their dimension; the learner sketched when its exact state would not fit and its
/// memory checked beside the rows; tuned, fitted, checked and calibrated.
fn in_memory_route(
    algo: &'static Algorithm,
    default: Option<DefaultLearner>,
    given: &ParamMap,
    config: Box<dyn Configured>,
    req: &TrainRequest<'_>,
    mut observer: Option<auc_stream::Observer<'_>>,
    report: &dyn Report,
) -> Result<TrainOutcome, Error> {
    let opts = &req.options;
    let limit = opts.max_memory;
    let what = format!("training {}", algo.name);
    let layout = if algo.is_online() {
        Layout::AsRead
    } else {
        Layout::ByDensity
    };
    let loaded = in_memory::load_training(
        &req.prep,
        req.input.paths(),
        &what,
        layout,
        limit,
        opts.order.seed(),
        report,
    )?;
    let data = &loaded.data;
    let no_params = ParamMap::new();
    let (algo, given, config) =
        match default_learner::wide_instead(default, data.dim(), &req.command, report) {
            Some(wide) => (wide, &no_params, wide.configure(&no_params)?),
            None => (algo, given, config),
        };
    let (mut config, given) =
        checks::fit_in_memory_limit(algo, given, config, data, opts.average, limit, report)?;
    let tuned = match &req.tune {
        Some(t) => {
            let spec = req.calibrate.map(|c| c.spec);
            let tuned = tune::tune(algo, &given, data, t, spec, opts, report)?;
            config = algo.configure(&tuned.params)?;
            Some(tuned)
        }
        None => None,
    };
    let start = Instant::now();
    let (state, summary) = in_memory::fit(
        config.as_ref(),
        data,
        opts.seed,
        opts.average,
        report.rows().as_ref(),
        algo.name,
        observer.as_mut(),
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let diverged = checks::divergence(state.as_ref(), algo.name, report);
    if observer.is_none() {
        checks::check_state(state.as_ref(), algo.name)?;
    }
    let held_out = tuned.as_ref().and_then(|t| t.held_out.as_deref());
    let calibration = match (req.calibrate, held_out) {
        (Some(c), Some(scores)) => Some(calibrate::on_tuning_scores(c.spec, scores, data, report)?),
        (Some(c), None) => Some(calibrate::on_folds(
            algo,
            config.as_ref(),
            data,
            c.spec,
            opts,
            report,
        )?),
        (None, _) => None,
    };
    // The outcome reports what was chosen; the scores served the calibration.
    let tuned = tuned.map(|t| auc_eval::cv::Tuned {
        held_out: None,
        ..t
    });
    let (positives, negatives) = data.class_counts();
    let in_memory::TrainingData { data, preparation } = loaded;
    // Saving needs the rows no more; it holds several copies of the state (GAM-CVM keeps its
    // training points), counted before it starts.
    drop(data);
    let saved = state.state_bytes().len() as u64;
    checks::check_save_memory(saved, saved, limit, &format!("the {} model", algo.name))?;
    Ok(TrainOutcome {
        model: Model {
            algorithm: algo,
            config,
            preparation,
            training: TrainingRecord::first_run(
                opts.seed,
                positives as u64,
                negatives as u64,
                diverged,
                opts.written_by.clone(),
            ),
            state,
            calibration,
        },
        route: Route::InMemory,
        seconds,
        moment_seconds: None,
        summary,
        tuned,
    })
}
