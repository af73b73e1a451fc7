//! `auc stream`: prequential (test-then-train) evaluation of a one-pass learner on its input read
//! incrementally, or in memory with `--shuffle-full`: one `auc_train::TrainRequest` whose
//! observer records each row's score before the learner's step on it; the route (and its
//! memory checks, sketching, first pass) is `auc_train::train`'s.

use std::path::PathBuf;

use auc_eval::running::RunningAuc;
use auc_learners::lookup;
use auc_stream::Window;
use auc_stream::memory;
use auc_train::{Input, Learner, TrainRequest};
use serde_json::json;

use crate::input::{self};
use crate::learning::Prequential;
use crate::output::{Error, line, write_text};
use crate::plot;
use crate::progress::Stderr;
use crate::training::LearnArgs;

/// Flags of `auc stream`.
#[derive(clap::Args, Debug)]
pub(crate) struct StreamArgs {
    /// Algorithm name (see `auc algos`), a one-pass learner.
    #[arg(long)]
    algo: String,
    /// Data file(s), read in order and concatenated (`-` for standard input).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Print the AUC of all scores so far after every N examples (and at the end), as the
    /// stream is read.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Print at each point the AUC of the last N scores only (a sliding window, which follows
    /// drift), keeping N scores in memory instead of every score of the stream; each point then
    /// sorts the window (O(N log N)), so choose --every not much below N / 100.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    window: Option<u64>,
    /// Keep every score for an exact AUC so far (8 bytes a row, growing with the stream).
    /// Without it, the last 2^20 scores are kept exactly and older ones are folded into 2^16
    /// score intervals: memory stays under 200 MB whatever the stream's length, and the AUC is
    /// printed with the largest distance to the exact one once scores were folded.
    #[arg(long, conflicts_with = "window")]
    exact_auc: bool,
    /// Draw the prequential curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    learn: LearnArgs,
    /// One JSON object per point, then a summary.
    #[arg(long)]
    json: bool,
}

pub(crate) fn stream(a: StreamArgs) -> Result<(), Error> {
    let algo = lookup(&a.algo)?;
    if !algo.is_online() {
        return Err(format!(
            "`{}` is a batch learner, fitted on all its data at once: `auc stream` needs a one-pass learner that updates after each example (`auc cv` and `auc train` run batch learners)",
            algo.name
        )
        .into());
    }
    let limit = memory::limit(a.learn.max_memory);
    let mut prequential = Prequential::new(a.every, a.json);
    if let Some(n) = a.window {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        // 16 bytes a score (value and label, padded), checked like any other state.
        memory::check(
            (n as u64).saturating_mul(16),
            limit,
            &format!("a --window of {n} scores"),
            "use a smaller --window",
        )?;
        prequential.window = Some(Window::new(n));
    } else if !a.exact_auc {
        let (exact, bins) = (RunningAuc::DEFAULT_EXACT, RunningAuc::DEFAULT_BINS);
        memory::check(
            RunningAuc::bounded_bytes(exact, bins),
            limit,
            "the prequential AUC's scores",
            "use --window N for the AUC of the last N scores",
        )?;
        prequential.auc = RunningAuc::bounded(exact, bins);
    }
    let mut run = prequential;
    let outcome = {
        let request = TrainRequest {
            params: a.learn.hyper.to_map()?,
            options: a.learn.train_options(None),
            observer: Some(Box::new(|score, y, seen| {
                run.record(score, y, seen)
                    .map_err(auc_stream::Error::Callback)
            })),
            command: "auc stream".to_owned(),
            ..TrainRequest::new(
                Learner::Named(algo),
                a.learn.prep_spec()?,
                Input::Files(a.data.clone()),
            )
        };
        auc_train::train(request, &Stderr)?
    };
    let model = &outcome.model;
    let examples = model.training.examples;
    run.header()?;
    run.point(examples)?;
    if run.non_finite > 0 {
        crate::notes::warning(format_args!(
            "{} scores were not finite (features too large unscaled?) and are left out of the AUC",
            run.non_finite
        ));
    }
    if run.skipped > 0 {
        crate::notes::note(format_args!(
            "{} checkpoints came before both classes had appeared, so no AUC is defined there (the learner still trained on those examples)",
            run.skipped
        ));
    }
    let error_bound = match run.window {
        Some(_) => 0.0,
        None => run.auc.error_bound(),
    };
    if error_bound > 0.0 {
        crate::notes::note(format_args!(
            "past {} scores the older ones are folded into at most {} intervals: each AUC so far is within {error_bound:.2e} of the exact one (--exact-auc keeps every score)",
            RunningAuc::DEFAULT_EXACT,
            RunningAuc::DEFAULT_BINS
        ));
    }
    let diverged = &model.training.diverged;
    if let Some(path) = &a.svg {
        let xy: Vec<(f64, f64)> = run
            .points
            .iter()
            .map(|p| (p.updates as f64, p.auc))
            .collect();
        let title = format!(
            "prequential AUC of {} on {}",
            algo.name,
            input::dataset_name(&a.data)
        );
        write_text(
            path,
            &plot::curve_svg(
                &xy,
                &title,
                "examples",
                if a.window.is_some() {
                    "AUC of the window"
                } else {
                    "AUC so far"
                },
            )?,
        )?;
    }
    if a.json {
        line(json!({
            "summary": true,
            "algo": algo.name,
            "params": model.params(),
            "examples": examples,
            "window": a.window,
            "auc_error_bound": error_bound,
            "skipped": run.skipped,
            "diverged": diverged.is_some(),
            "divergence": diverged,
        }))?;
    }
    Ok(())
}
