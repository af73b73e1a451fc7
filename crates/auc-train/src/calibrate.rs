//! `--calibrate`: the map from a model's scores to probabilities, fitted on scores of rows the
//! model did not train on: the held-out scores of a cross-validation ([`on_folds`]) or the
//! prequential scores of a one-pass learner's pass ([`on_prequential`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use auc_core::Dataset;
use auc_learners::{Algorithm, Calibration, CalibrationKind, CalibrationSpec, Configured};
use auc_stream::{Report, Window, memory};

use crate::{Error, Options, checks, in_memory, pool};

/// Fits `spec`'s calibration of `config` on the held-out scores of a cross-validation of the
/// prepared `data` (memory checked first, the folds on the `--threads` pool), and says what it
/// fitted.
pub fn on_folds(
    algo: &Algorithm,
    config: &dyn Configured,
    data: &Dataset,
    spec: CalibrationSpec,
    opts: &Options,
    report: &dyn Report,
) -> Result<Calibration, Error> {
    let pool = pool(opts.threads)?;
    check_memory(
        algo,
        &spec,
        config,
        &checks::shape(data),
        in_memory::data_bytes(data),
        pool.current_num_threads(),
        opts,
    )?;
    let start = Instant::now();
    let progress = report.fits();
    progress.start(
        "calibration folds",
        spec.folds_for(data).ok().map(|k| k as u64),
    );
    let done = AtomicU64::new(0);
    let tick = || progress.update(0, done.fetch_add(1, Ordering::Relaxed) + 1);
    let fitted = pool.install(|| {
        auc_learners::fit_calibration(&spec, config, opts.average, data, opts.seed, &tick)
    });
    progress.finish();
    let (c, folds) = fitted?;
    let fewer = if folds < spec.folds {
        format!(" (not {}: the smaller class has {folds} rows)", spec.folds)
    } else {
        String::new()
    };
    report.note(&format!(
        "calibration: {} fitted on the held-out scores of {folds}-fold cross-validation{fewer} ({:.2} s)",
        c.describe(),
        start.elapsed().as_secs_f64()
    ));
    Ok(c)
}

/// Fits `spec`'s calibration on the held-out scores `--tune`'s cross-validation kept for the
/// parameters it chose (each row scored by the fit on the folds without it, as [`on_folds`]
/// scores them), and says so: the calibration costs no fit of its own.
pub fn on_tuning_scores(
    spec: CalibrationSpec,
    scores: &[f64],
    data: &Dataset,
    report: &dyn Report,
) -> Result<Calibration, Error> {
    let c = Calibration::fit(spec.kind, scores, data.labels())
        .map_err(|e| Error::input(format!("--calibrate: {e}")))?;
    report.note(&format!(
        "calibration: {} fitted on the held-out scores of --tune's {}-fold cross-validation at the chosen parameters (no fits of its own)",
        c.describe(),
        spec.folds
    ));
    Ok(c)
}

/// Refuses a calibration by `spec`'s cross-validation of `config` on data of `shape` taking
/// `data_bytes` (its folds' copies) with `threads` fits at once, when it would exceed the
/// budget.
pub fn check_memory(
    algo: &Algorithm,
    spec: &CalibrationSpec,
    config: &dyn Configured,
    shape: &auc_core::DataShape,
    data_bytes: u64,
    threads: usize,
    opts: &Options,
) -> Result<(), Error> {
    memory::check(
        auc_learners::calibration_bytes(spec, config, shape, data_bytes, opts.average, threads),
        opts.max_memory,
        &format!(
            "calibrating {} by {}-fold cross-validation on {} rows",
            algo.name, spec.folds, shape.n
        ),
        "use fewer --threads or --calibration-folds",
    )?;
    Ok(())
}

/// Fits a calibration of `kind` on the scores a pass kept in `w` (each row's score before the
/// learner stepped on it) and says what it fitted.
pub fn on_prequential(
    kind: CalibrationKind,
    w: &Window,
    report: &dyn Report,
) -> Result<Calibration, Error> {
    let c = Calibration::fit(kind, &w.scores, &w.labels)
        .map_err(|e| Error::input(format!("--calibrate-on prequential: {e}")))?;
    let skipped = if w.non_finite > 0 {
        format!(" ({} scores that were not finite left out)", w.non_finite)
    } else {
        String::new()
    };
    report.note(&format!(
        "calibration: {} fitted on the prequential scores of the last {} rows (each scored before the learner stepped on it){skipped}",
        c.describe(),
        w.scores.len()
    ));
    Ok(c)
}
