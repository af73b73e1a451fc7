//! The streamed route: a one-pass learner of the registry trained on its input read
//! incrementally ([`train_streamed`]), or a saved one-pass model continued on more
//! ([`continue_training`]), in memory of the learner's state plus a few chunks.
//!
//! The pass itself is the engine's ([`auc_stream::plan`], [`auc_stream::learn_pass`]); this
//! module builds the learner from the registry, checks its memory before it starts and before
//! it grows, and makes the model file's [`Model`] of the result.

use std::path::PathBuf;
use std::time::Instant;

use auc_core::{Label, ParamMap};
use auc_data::FirstSight;
use auc_learners::{Algorithm, Configured, Model, Trained, Trainer, TrainingRecord};
use auc_stream::memory::{self, Bytes};
use auc_stream::{Classes, Learning, Observer, Plan, ReadOnce, Reader, Report, Shaper, Window};

use crate::checks::{
    check_save_memory, check_state, dim_shape, divergence, linear_state_advice,
    sketched_if_too_wide,
};
use crate::{Error, Options};

/// A fresh one-pass learner of `dim` features, its memory (and that of saving it) checked
/// first.
pub fn start(
    config: &dyn Configured,
    algo: &Algorithm,
    dim: usize,
    opts: &Options,
) -> Result<Box<dyn Trained>, Error> {
    let state = config.memory_bytes(&dim_shape(dim), opts.average);
    let what = format!("{} on {dim} features", algo.name);
    memory::check(
        state,
        opts.max_memory,
        &what,
        &linear_state_advice(algo.name),
    )?;
    let saved = config.saved_bytes(&dim_shape(dim), opts.average);
    check_save_memory(state, saved, opts.max_memory, &what)?;
    match config.trainer() {
        Trainer::Online(t) => Ok(t.start(dim, opts.seed, opts.average)?),
        Trainer::Batch(_) => Err(Error::usage("a batch learner cannot stream")),
    }
}

/// The engine's [`Learning`] of `state`: before the learner grows, the memory of both states
/// (the old one is alive while the new one is filled, beside the scaling fitted at first sight
/// when `first_sight`) and of saving the grown one are checked against `limit`. `algo` is the
/// state's algorithm.
pub fn learning<'a>(
    state: &'a mut dyn Trained,
    config: &'a dyn Configured,
    average: bool,
    limit: Bytes,
    algo: &'a Algorithm,
    first_sight: bool,
) -> Result<Learning<'a>, Error> {
    let dim = state.dim();
    let name = algo.name;
    let learner = state
        .learner()
        .ok_or_else(|| Error::usage("a batch model cannot learn"))?;
    // A moment learner grown on input read once (standard input) can be told to sketch.
    let sketches = crate::checks::sketchable(algo);
    let check = move |old: usize, dim: usize| -> Result<(), auc_stream::Error> {
        let sight = if first_sight {
            FirstSight::bytes_for(dim)
        } else {
            0
        };
        let needed = config
            .memory_bytes(&dim_shape(dim), average)
            .saturating_add(config.memory_bytes(&dim_shape(old), average))
            .saturating_add(sight);
        memory::check(
            needed,
            limit,
            &format!(
                "growing {name} from {old} to {dim} features (a larger feature index appeared)"
            ),
            if sketches {
                "use --hash-bits B to fold the features into 2^B, fix --dim, or --param sketch=K for each class's covariance sketched at rank K (O(pK) memory; a smaller K if it is sketched already)"
            } else {
                "use --hash-bits B to fold the features into 2^B, or fix --dim"
            },
        )?;
        check_save_memory(
            config.memory_bytes(&dim_shape(dim), average),
            config.saved_bytes(&dim_shape(dim), average),
            limit,
            &format!("{name} grown to {dim} features"),
        )?;
        Ok(())
    };
    Ok(Learning::new(learner, dim, name).with_grow_check(Box::new(check)))
}

/// A one-pass learner trained by [`train_streamed`].
pub struct Streamed {
    /// The model, ready to be saved.
    pub model: Model,
    /// Seconds of the learning pass (after the plan and its first pass).
    pub seconds: f64,
    /// The last prequential scores, when asked for (`window_rows`).
    pub window: Option<Window>,
}

/// Trains `config` (algorithm `algo`, parameters `given`) on `paths` read incrementally as
/// `spec` asks: the plan (a first pass over a file that must be read twice; a file whose
/// scaling needs no ranges, or only a max-abs scaling fitted at first sight, is read once while
/// its labels stay binary and the scaling holds, and again after a first pass when they do
/// not: [`read_once`]), the learner sketched when its exact state would not fit, started, fed in
/// the order `opts` asks and checked; the model records the preparation.
///
/// With `window_rows`, the last that many prequential scores (each row scored before the step
/// on it) are kept, for a calibration fitted on them.
///
/// With an `observer` (prequential evaluation, `auc stream`), each row's score before the step
/// on it goes there too; a file is then always read after a first pass (a pass is never begun
/// again once rows were observed), and the result is returned as it is: input of one class and
/// a state that is not finite are the observer's to report, not errors.
#[allow(clippy::too_many_arguments)]
pub fn train_streamed(
    algo: &'static Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
    paths: &[PathBuf],
    spec: &auc_prep::PrepSpec,
    opts: &Options,
    window_rows: Option<usize>,
    observer: Option<Observer<'_>>,
    report: &dyn Report,
) -> Result<Streamed, Error> {
    let observing = observer.is_some();
    let mut observer = observer;
    let what = if observing {
        format!("streaming {}", algo.name)
    } else {
        format!("training {}", algo.name)
    };
    let limit = opts.max_memory;
    // A file whose labels turn out not to be binary, or whose scaling cannot be fitted at
    // first sight, is read again after a first pass.
    // A learner that sketches its covariances when they would not fit decides it on the
    // dimension before the pass: unless the reading fixes it (--dim, --hash-bits), a first pass
    // finds it (read once, a wide file grew the exact state until its memory check refused).
    let once = if observing || (crate::checks::sketchable(algo) && spec.fixed_dim().is_none()) {
        ReadOnce::Never
    } else {
        read_once(algo)
    };
    // A dimension whose learner would not fit is refused during the first pass, before its
    // ranges are allocated.
    let mut plan = {
        let beside =
            crate::checks::state_beside_ranges(algo, given, config.as_ref(), opts.average, limit);
        auc_stream::plan_beside(spec, paths, &what, limit, once, &beside, report)?
    };
    let (config, _) = sketched_if_too_wide(
        algo,
        given,
        config,
        &dim_shape(plan.dim),
        opts.average,
        0,
        limit,
        report,
    )?;
    let start_time = Instant::now();
    let (state, done, positives, negatives, window) = loop {
        let mut state = start(config.as_ref(), algo, plan.dim, opts)?;
        let mut window = window_rows.map(Window::new);
        let (pass, counts, sight) = {
            let mut learning = learning(
                state.as_mut(),
                config.as_ref(),
                opts.average,
                limit,
                algo,
                plan.first_sight.is_some(),
            )?
            .with_first_sight(plan.first_sight());
            match (window.as_mut(), observer.take()) {
                (Some(w), Some(mut o)) => {
                    learning = learning.with_observer(Box::new(move |s: f64, y: Label, seen| {
                        w.push(s, y);
                        o(s, y, seen)
                    }));
                }
                (Some(w), None) => {
                    learning = learning.with_observer(Box::new(|s: f64, y: Label, _seen| {
                        w.push(s, y);
                        Ok(())
                    }));
                }
                (None, Some(o)) => learning = learning.with_observer(o),
                (None, None) => {}
            }
            let pass = learn(&plan, paths, &mut learning, opts, report, &what);
            let sight = learning.take_first_sight();
            (pass, (learning.positives(), learning.negatives()), sight)
        };
        // Every way out of this match that does not break or return reads the file again.
        match pass {
            Ok(done) => {
                let kept = match sight {
                    Some(s) => plan.sighted(s, done.dim)?,
                    None => true,
                };
                if kept {
                    break (state, done, counts.0, counts.1, window);
                }
            }
            Err(Error::Engine(auc_stream::Error::NotBinary(_))) if plan.hopeful => {}
            Err(Error::Engine(auc_stream::Error::Unsighted(_))) if plan.first_sight.is_some() => {}
            Err(e) => return Err(e),
        }
        plan = auc_stream::plan(spec, paths, &what, limit, ReadOnce::Never, report)?;
    };
    let seconds = start_time.elapsed().as_secs_f64();
    plan.check_unchanged(done.rows, &what)?;
    let choice = match &plan.choice {
        Some(c) => c.clone(),
        None => {
            let mut c = auc_stream::final_choice(&plan.classes, &done.seen)?;
            if spec.positive == auc_data::Positive::Table {
                // A table's label map chose the class, and its survey said so.
                c.rule = auc_data::PositiveRule::Table;
            }
            report.positive_class(&c, positives, negatives);
            c
        }
    };
    if !observing {
        auc_stream::need_both(positives, negatives, &what)?;
    }
    if let Some(w) = plan.unscaled_warning(done.dim) {
        report.warning(&w);
    }
    let diverged = divergence(state.as_ref(), algo.name, report);
    if !observing {
        check_state(state.as_ref(), algo.name)?;
    }
    let dim = plan.model_dim(state.dim());
    let model = Model {
        algorithm: algo,
        config,
        preparation: plan
            .spec
            .preparation(done.reading, &choice, dim, plan.transform),
        training: TrainingRecord::first_run(
            opts.seed,
            positives,
            negatives,
            diverged,
            opts.written_by.clone(),
        ),
        state,
        calibration: None,
    };
    Ok(Streamed {
        model,
        seconds,
        window,
    })
}

/// How [`train_streamed`] may read a file once for `algo`: on the hope of binary labels for
/// every learner; also with a max-abs scaling fitted at first sight, unless `algo` keeps class
/// covariances that it sketches when they would not fit (that choice is made on the dimension
/// before the pass, which a file read once does not tell: [`train_streamed`] reads such a
/// learner's file twice unless the reading fixes the dimension) or its model depends on the
/// dimension it starts from (`Algorithm::starting_dimension_matters`: the model must be the one
/// of a first pass, byte for byte, and a file read once starts small).
pub fn read_once(algo: &Algorithm) -> ReadOnce {
    if crate::checks::sketchable(algo) || algo.starting_dimension_matters {
        ReadOnce::IfBinary
    } else {
        ReadOnce::IfBinaryOrFirstSight
    }
}

/// The learning pass of `plan` over `paths` into `learning`, in the order `opts` asks, with a
/// progress display from `report`.
pub fn learn(
    plan: &Plan,
    paths: &[PathBuf],
    learning: &mut Learning<'_>,
    opts: &Options,
    report: &dyn Report,
    what: &str,
) -> Result<auc_stream::Done, Error> {
    let reader = plan.reader(paths)?;
    Ok(auc_stream::learn_pass(
        reader,
        plan.shaper(),
        learning,
        opts.pass(),
        report.pass().as_ref(),
        what,
    )?)
}

/// How [`continue_training`] reads the new input beyond what the model fixes.
#[derive(Clone, Copy, Debug)]
pub struct ContinueReading {
    /// Keep only the first rows (`--limit`).
    pub limit: Option<usize>,
    /// The longest line a data file may hold.
    pub max_line_bytes: usize,
}

/// Continues the saved one-pass `model` on `paths`, read as its training data was read and
/// prepared with its stages (positive class, reading, scaling fixed by the model: no first
/// pass), in the order `opts` asks (its seed, averaging and written-by are the model's
/// business and are not used). Returns the positive and negative rows of this run; the model's
/// training record is the caller's to update.
pub fn continue_training(
    model: &mut Model,
    paths: &[PathBuf],
    reading: ContinueReading,
    opts: &Options,
    report: &dyn Report,
) -> Result<(u64, u64), Error> {
    let name = model.algorithm.name;
    let prep = &model.preparation;
    let mut read = prep.read_options();
    read.limit = reading.limit;
    read.max_line_bytes = reading.max_line_bytes;
    read.bounded_values = prep.transform.reads_raw_values();
    let mut reader = Reader::open(paths, &read)?;
    reader.on_wider(format!("the model was trained on {} features", prep.dim));
    if let (Some(want), Some(found)) = (prep.reading.csv(), reader.reading().csv()) {
        want.check(found, &paths[0].display().to_string())?;
    }
    let what = format!("training {name}");
    let shaper = Shaper::new(
        Classes::Known {
            labels: prep.positive_labels.clone(),
            given: false,
        },
        prep.dim,
        prep.transform.clone(),
    );
    let config = model.algorithm.configure(&model.params())?;
    let averaged = model.state.averaged();
    let mut learning = learning(
        model.state.as_mut(),
        config.as_ref(),
        averaged,
        opts.max_memory,
        model.algorithm,
        false,
    )?;
    auc_stream::learn_pass(
        reader,
        shaper,
        &mut learning,
        opts.pass(),
        report.pass().as_ref(),
        &what,
    )?;
    Ok((learning.positives(), learning.negatives()))
}
