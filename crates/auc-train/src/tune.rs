//! `--tune`: the parameters chosen by a stratified cross-validation of the training rows over
//! a grid ([`auc_eval::cv::tune`]), before the model is fitted with them.

use std::sync::atomic::{AtomicU64, Ordering};

use auc_core::Dataset;
use auc_core::ParamMap;
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig, Tuned};
use auc_eval::grid::{self, GridAxis};
use auc_learners::Algorithm;
use auc_stream::Report;

use crate::request::Tune;
use crate::{Error, Options, pool};

/// The grid points of `axes` (`NAME=SPEC` as `auc cv --grid` takes them; `default` is `algo`'s
/// own grid): the product of the axes.
pub fn grid_points(algo: &Algorithm, axes: &[String]) -> Result<Vec<ParamMap>, Error> {
    let mut parsed: Vec<GridAxis> = Vec::new();
    for g in axes {
        if g == "default" {
            for d in algo.grid {
                parsed.push(grid::parse_grid_arg(d).map_err(|e| Error::usage(e.to_string()))?);
            }
        } else {
            parsed.push(grid::parse_grid_arg(g).map_err(|e| Error::usage(e.to_string()))?);
        }
    }
    grid::expand(&parsed).map_err(|e| Error::usage(e.to_string()))
}

/// Chooses `algo`'s parameters (on top of `given`) by `t.folds`-fold cross-validation of the
/// prepared `data` over `t`'s grid on the `--threads` pool, and says what it chose. The data is
/// already scaled and in its training order: the folds see it as is. With a `calibration` on
/// `t.folds` folds, the chosen parameters' held-out scores are kept for it
/// ([`Tuned::held_out`]): one cross-validation serves both.
pub fn tune(
    algo: &'static Algorithm,
    given: &ParamMap,
    data: &Dataset,
    t: &Tune,
    calibration: Option<auc_learners::CalibrationSpec>,
    opts: &Options,
    report: &dyn Report,
) -> Result<Tuned, Error> {
    let axes: Vec<String> = if t.grid.is_empty() {
        vec!["default".to_owned()]
    } else {
        t.grid.clone()
    };
    let points = grid_points(algo, &axes)?;
    for p in &points {
        algo.configure(&given.merged(p))?;
    }
    // The kept held-out scores: every grid point's, until the choice.
    let calibration = calibration.filter(|c| c.folds == t.folds && points.len() > 1);
    if calibration.is_some() {
        auc_stream::memory::check(
            (data.n() * points.len() * std::mem::size_of::<f64>()) as u64,
            opts.max_memory,
            &format!(
                "the held-out scores of {} grid points on {} rows, kept for --calibrate",
                points.len(),
                data.n()
            ),
            "use fewer grid points, or --calibration-folds different from --folds (a cross-validation of its own)",
        )?;
    }
    let average = opts.average;
    let make = move |p: &ParamMap| -> Result<Box<dyn auc_core::DynFit>, auc_core::ParamError> {
        algo.configure(p)?.procedure(average)
    };
    let cv_algo = CvAlgo {
        base: given.clone(),
        grid: points,
        make: &make,
    };
    let cfg = CvConfig {
        inner_folds: t.folds,
        seed: opts.seed,
        scaling: auc_data::Scaling::None,
        unit_norm: false,
        calibration,
        ..CvConfig::default()
    };
    let progress = report.fits();
    progress.start(algo.name, None);
    let done = AtomicU64::new(0);
    let tuned = pool(opts.threads)?.install(|| {
        cv::tune(data, &cv_algo, &cfg, &|p| match p {
            cv::Progress::Total(n) => progress.start(algo.name, Some(n)),
            cv::Progress::Tick => {
                progress.update(0, done.fetch_add(1, Ordering::Relaxed) + 1);
            }
        })
    });
    progress.finish();
    let mut tuned = tuned?;
    let chosen = algo.configure(&tuned.params)?.params();
    tuned.params = chosen.clone();
    report.note(&format!(
        "--tune chose {chosen} ({}-fold CV AUC {} over {} grid points, {:.1} s)",
        t.folds,
        tuned
            .mean_auc
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.4}")),
        tuned.grid_points,
        tuned.seconds
    ));
    Ok(tuned)
}
