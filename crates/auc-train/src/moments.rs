//! The moment pass: the route of the learners fitted from merged class moments
//! (`Algorithm::fits_from_moments`), and the pass behind `auc moments`.
//!
//! A moment pass reads each input once and keeps only per-label class moments and feature
//! ranges ([`MomentSummary`]), so memory does not grow with the number of rows.
//! A plain (not gzipped) LIBSVM file is cut into blocks of whole lines that are parsed and
//! summarized in parallel on the thread pool, a window of blocks at a time
//! ([`auc_stream::blocks`]); the summaries are then merged **in file order**, so the result depends
//! on the block size only, never on the number of threads. CSV files, gzip and standard input are
//! parsed by one `RowStream`, the next chunk being parsed while the last one is summarized.
//! Inputs that are moment files (they start with `AUCMOMNT`, whatever their name) are read and
//! merged as they are, so a training run over `A.mom B.mom C.svm` merges the pass over `C.svm`
//! with parts computed anywhere else.

use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::ParamMap;
use auc_data::{Positive, ReadOptions, RowStream, ZeroBased};
use auc_learners::{Algorithm, Model, MomentSummary, fit_from_moments};
use auc_prep::{Transform, TransformSpec};
use auc_stream::Report;
use auc_stream::blocks::{self, BLOCK_BYTES};
use auc_stream::memory::{self, Bytes};

pub use crate::map_pass::{is_moment_file, stages_for};
use crate::{Error, pool};

/// The memory a moment pass may use and what its refusal advises instead.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// The limit.
    pub limit: Bytes,
    /// What a refusal advises instead.
    pub instead: &'a str,
    /// Stop with [`TooWide`] instead of refusing when the class moments exceed the limit (a
    /// learner that can solve over the rows instead).
    pub stop_when_too_wide: bool,
}

/// A moment pass stopped because the class moments of `dim` features would need `needed`
/// bytes over the limit: what [`train_from_moments`] turns into [`FromMoments::OverRows`].
#[derive(Debug)]
pub struct TooWide {
    dim: usize,
    needed: u64,
}

impl std::fmt::Display for TooWide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the class moments of {} features need about {}",
            self.dim,
            Bytes(self.needed)
        )
    }
}

impl std::error::Error for TooWide {}

/// A model fitted from the moments of a pass.
pub struct MomentFit {
    /// The model, ready to be saved.
    pub model: Model,
    /// Seconds of the moment pass.
    pub pass_seconds: f64,
    /// Seconds of the fit from the merged moments.
    pub solve_seconds: f64,
    /// The fit's one-line summary.
    pub summary: String,
}

/// How [`train_from_moments`] ended: a model from the moments, or a pass stopped for the rows
/// instead.
pub enum FromMoments {
    /// The model.
    Trained(Box<MomentFit>),
    /// The class moments would not fit; the learner solves over the rows with these
    /// parameters instead, and the message says so.
    OverRows {
        /// The parameters of the fit over the rows (`solver=cg`).
        given: ParamMap,
        /// What to tell the user.
        message: String,
    },
}

/// What a refused moment pass advises without a learner that can do otherwise.
pub const FOLD_ADVICE: &str = "use --hash-bits B to fold the features into 2^B, relabel the file's classes to two, or --max-memory";

/// Rows per chunk of the sequential (CSV, gzip, stdin) pass.
const CHUNK_ROWS: usize = 16_384;

/// What [`train_from_moments`] fits.
pub struct MomentTraining<'a> {
    /// The algorithm (one whose `fits_from_moments`).
    pub algo: &'static Algorithm,
    /// Its parameters.
    pub given: &'a ParamMap,
    /// Data files and moment files, merged in order.
    pub inputs: &'a [PathBuf],
    /// How the data files are read (rows as read: no dimension, no limit).
    pub read: &'a ReadOptions,
    /// The positive-class rule, applied to the merged label counts.
    pub positive: &'a Positive,
    /// The stages: the scaling applied to the moments at solve time, a map to the rows first.
    pub stages: &'a TransformSpec,
    /// Worker threads of the pass (all cores when `None`).
    pub threads: Option<usize>,
    /// The learner's seed.
    pub seed: u64,
    /// The memory limit.
    pub limit: Bytes,
}

/// Why training `algo` reads its data in memory rather than by a moment pass, or `None` when
/// the moment pass runs. `tune` and `calibrate` are cross-validations on the rows, `limit` a
/// row limit.
pub fn in_memory_reason(
    algo: &Algorithm,
    given: &ParamMap,
    tune: bool,
    calibrate: bool,
    limit: Option<usize>,
    stages: &TransformSpec,
) -> Option<&'static str> {
    if !algo.fits_from_moments() {
        Some("this learner is not fitted from class moments")
    } else if algo.solves_over_rows(given) {
        Some("solver=cg and sketch solve over the rows themselves")
    } else if tune {
        Some("--tune cross-validates on the rows themselves")
    } else if calibrate {
        Some("--calibrate cross-validates on the rows themselves")
    } else if limit.is_some() {
        Some("--limit keeps a prefix of the rows, which a moment file no longer has")
    } else if stages.unit_norm {
        Some("--unit-norm divides each row by its own norm, which does not commute with moments")
    } else {
        None
    }
}

/// Refuses moment files among `inputs` where a moment pass cannot run (`why`).
pub fn refuse_moment_files(inputs: &[PathBuf], why: &str) -> Result<(), Error> {
    if let Some(p) = inputs.iter().find(|p| is_moment_file(p)) {
        return Err(Error::usage(format!(
            "{} is a moment file; {why}: moment files are only merged by a plain `auc train` of a learner fitted from moments",
            p.display()
        )));
    }
    Ok(())
}

/// Trains a moment learner: the parallel pass, the merge, the solve. The model's training
/// record is written by the registry (`written_by` is the caller's to set).
pub fn train_from_moments(
    t: MomentTraining<'_>,
    report: &dyn Report,
) -> Result<FromMoments, Error> {
    let algo = t.algo;
    algo.check_names(t.given)?;
    algo.configure(t.given)?;
    if t.stages.unit_norm {
        return Err(Error::usage(format!(
            "--unit-norm divides each row by its own norm, which does not commute with class moments; {} is fitted from moments and cannot use it",
            algo.name
        )));
    }
    let start = Instant::now();
    let limit = t.limit;
    let stages = stages_for(t.inputs, t.read, t.stages, None, limit, report)?;
    let over_rows = algo_over_rows_advice(algo, t.given);
    // solver=auto of a learner that can solve over the rows, and only data files: a pass too
    // wide for the moments falls back to the rows in memory.
    let fallback = t.given.get("solver").is_none()
        && over_rows.is_some()
        && !t.inputs.iter().any(|p| is_moment_file(p));
    let summary = match summarize(
        t.inputs,
        t.read,
        t.threads,
        BLOCK_BYTES,
        stages.as_ref(),
        Budget {
            limit,
            instead: over_rows.as_deref().unwrap_or(FOLD_ADVICE),
            stop_when_too_wide: fallback,
        },
    ) {
        Ok(s) => s,
        Err(e) => {
            return match e {
                Error::MomentsTooWide(w) => {
                    let mut given = t.given.clone();
                    given.set("solver", "cg");
                    Ok(FromMoments::OverRows {
                        given,
                        message: format!(
                            "{w} but --max-memory is {limit}: fitting {} by conjugate gradients over the rows in memory instead (solver=cg: the same minimizer, no p x p matrix)",
                            algo.name
                        ),
                    })
                }
                e => Err(e),
            };
        }
    };
    let pass_seconds = start.elapsed().as_secs_f64();
    let solve_start = Instant::now();
    let (model, line) = solve(
        algo,
        t.given,
        &summary,
        t.positive,
        t.stages,
        t.seed,
        limit,
        &inputs_name(t.inputs),
    )?;
    if let Some(w) = summary.many_labels_warning(t.positive) {
        report.warning(&w);
    }
    Ok(FromMoments::Trained(Box::new(MomentFit {
        model,
        pass_seconds,
        solve_seconds: solve_start.elapsed().as_secs_f64(),
        summary: line,
    })))
}

/// Fits `algo` (parameters `given`, already configured as `config` would be) on the merged
/// `summary` of `source` (for messages): its memory checked against `limit` first, the
/// positive class by `positive`, the stages fitted on the summary's ranges.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    algo: &'static Algorithm,
    given: &ParamMap,
    summary: &MomentSummary,
    positive: &Positive,
    stages: &TransformSpec,
    seed: u64,
    limit: Bytes,
    source: &str,
) -> Result<(Model, String), Error> {
    let config = algo.configure(given)?;
    // Both classes, or the refusal every route gives (a solve would fail on an empty class).
    if let Ok(choice) = summary.choose_positive(positive) {
        let (mut positives, mut negatives) = (0u64, 0u64);
        for (label, count) in summary.label_counts() {
            if choice.labels.contains(&label) {
                positives += count;
            } else {
                negatives += count;
            }
        }
        auc_stream::need_both(
            positives,
            negatives,
            &format!("training {} from the moments of {source}", algo.name),
        )?;
    }
    memory::check(
        config.memory_bytes(
            &auc_core::DataShape {
                n: usize::try_from(summary.rows()).unwrap_or(usize::MAX),
                dim: summary.dim(),
                positives: 0,
                negatives: 0,
            },
            false,
        ),
        limit,
        &format!("{} on {} features", algo.name, summary.dim()),
        "use --hash-bits B to fold the features into 2^B",
    )?;
    let (model, line) =
        fit_from_moments(algo, given, summary, positive, stages, seed).map_err(|e| -> Error {
            // The message is a new error: carry the cause chain into it ("fitting from
            // moments failed" alone does not say that a class was missing).
            let mut msg = format!("training {} from the moments of {source}: {e}", algo.name);
            let mut cause = std::error::Error::source(&e);
            while let Some(c) = cause {
                msg.push_str(&format!(": {c}"));
                cause = c.source();
            }
            Error::input(msg)
        })?;
    crate::checks::check_state(model.state.as_ref(), algo.name)?;
    Ok((model, line))
}

/// The advice of a refused moment pass for a learner that can solve over the rows without a
/// $p \times p$ matrix (`solver=cg`), or `None`.
fn algo_over_rows_advice(algo: &Algorithm, given: &ParamMap) -> Option<String> {
    let mut cg = given.clone();
    cg.set("solver", "cg");
    algo.solves_over_rows(&cg).then(|| {
        format!(
            "add --param solver=cg to fit {} on the rows in memory by conjugate gradients, exactly and without a p x p matrix; or {FOLD_ADVICE}",
            algo.name
        )
    })
}

/// The inputs' names for messages: `a.svm` or `a.svm and 2 more`.
fn inputs_name(inputs: &[PathBuf]) -> String {
    match inputs {
        [one] => one.display().to_string(),
        [first, rest @ ..] => format!("{} and {} more", first.display(), rest.len()),
        [] => "no input".to_owned(),
    }
}

/// The merged summary of `inputs` (data files read with `read`, and moment files, in order) on
/// a pool of `threads` workers, the rows mapped through `stages` first when given.
pub fn summarize(
    inputs: &[PathBuf],
    read: &ReadOptions,
    threads: Option<usize>,
    block_bytes: usize,
    stages: Option<&Transform>,
    budget: Budget<'_>,
) -> Result<MomentSummary, Error> {
    let mut opts = data_options(read, inputs);
    // Raw moments (no stages, or stages without a scaling) sum the values' squares as read.
    opts.bounded_values = stages.is_none_or(Transform::reads_raw_values);
    let pool = pool(threads)?;
    let mut total: Option<MomentSummary> = None;
    for path in inputs {
        let part = if is_moment_file(path) {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path.display(), e))?;
            MomentSummary::from_bytes(&bytes)
                .map_err(|e| Error::input(format!("{}: {e}", path.display())))?
        } else {
            pool.install(|| summarize_data(path, &opts, block_bytes.max(1), stages, budget))?
        };
        match &mut total {
            None => total = Some(part),
            Some(t) => t
                .merge(&part)
                .map_err(|e| Error::input(format!("{}: {e}", path.display())))?,
        }
    }
    let total = total.ok_or_else(|| Error::usage("no input to take moments of"))?;
    if let Some(bits) = opts.hash_bits
        && total.hash_bits() != Some(bits)
    {
        return Err(Error::usage(format!(
            "--hash-bits {bits} was given, but the moment files were read without it (or with other bits)"
        )));
    }
    if opts.hash_bits.is_some() && total.cross_bits() != opts.cross_bits {
        let asked = opts.cross_bits.map_or_else(
            || "no --cross-hash-bits".to_owned(),
            |c| format!("--cross-hash-bits {c}"),
        );
        return Err(Error::usage(format!(
            "{asked} was given, but the moment files were read with {}",
            total.cross_bits().map_or_else(
                || "no crosses".to_owned(),
                |c| format!("--cross-hash-bits {c}")
            )
        )));
    }
    Ok(total)
}

/// `read` with the index base of LIBSVM decided for the data files among `inputs` together
/// ([`ReadOptions::zero_based_for`]; moment files are not looked at).
pub fn data_options(read: &ReadOptions, inputs: &[PathBuf]) -> ReadOptions {
    let data: Vec<&PathBuf> = inputs.iter().filter(|p| !is_moment_file(p)).collect();
    read.zero_based_for(&data)
}

/// The summary of one data file: parallel blocks for a plain LIBSVM file, a pipelined stream
/// otherwise.
fn summarize_data(
    path: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
    stages: Option<&Transform>,
    budget: Budget<'_>,
) -> Result<MomentSummary, Error> {
    if blocks::plain_libsvm(path, opts)? {
        return summarize_blocks(path, opts, block_bytes, stages, budget);
    }
    summarize_stream(path, opts, stages, budget)
}

/// Refuses a chunk whose class moments (one co-moment of the features per label, as many
/// summaries at once as `in_flight`) would exceed `limit`, before they are allocated.
fn check_moments(
    raw: &auc_data::RawData,
    stages: Option<&Transform>,
    in_flight: u64,
    budget: Budget<'_>,
    name: &str,
) -> Result<(), Error> {
    let labels = raw.label_counts().len();
    let dim = stages.map_or(raw.dim(), |t| t.output_dim(raw.dim()));
    let needed = MomentSummary::observe_bytes_for(dim, labels).saturating_mul(in_flight);
    if budget.stop_when_too_wide && needed > budget.limit.0 {
        return Err(Error::MomentsTooWide(TooWide { dim, needed }));
    }
    memory::check(
        needed,
        budget.limit,
        &format!(
            "{name}: the class moments of {labels} label(s) x {dim} features ({in_flight} summaries at once; each label keeps its own co-moment until the positive class is chosen)"
        ),
        budget.instead,
    )?;
    Ok(())
}

/// An empty summary of rows read as `reading` with the hashing and crosses of `opts`, through
/// `stages` when given.
fn empty(
    dim: usize,
    reading: auc_data::Reading,
    opts: &ReadOptions,
    stages: Option<&Transform>,
) -> MomentSummary {
    let s = match stages {
        Some(t) => MomentSummary::for_stages(t.clone(), reading, opts.hash_bits),
        None => MomentSummary::new(dim, reading, opts.hash_bits),
    };
    s.with_cross_bits(opts.cross_bits)
}

/// A CSV file, gzip or standard input: one parser, each chunk summarized while the next is
/// parsed.
fn summarize_stream(
    path: &Path,
    opts: &ReadOptions,
    stages: Option<&Transform>,
    budget: Budget<'_>,
) -> Result<MomentSummary, Error> {
    let name = path.display().to_string();
    let mut stream = RowStream::open(path, opts)?;
    let mut total = empty(0, stream.reading().clone(), opts, stages);
    let mut current = stream.next_chunk(CHUNK_ROWS)?;
    while let Some(chunk) = current {
        // The running total, the chunk's summary and the next chunk's.
        check_moments(&chunk, stages, 3, budget, &name)?;
        let (next, part) = rayon::join(
            || stream.next_chunk(CHUNK_ROWS),
            || {
                let mut s = empty(0, chunk.reading().clone(), opts, stages);
                s.observe_mapped(&chunk, &name).map(|()| s)
            },
        );
        total
            .merge(&part.map_err(|e| Error::input(format!("{name}: {e}")))?)
            .map_err(|e| Error::input(format!("{name}: {e}")))?;
        current = next?;
    }
    // Features a CSV file declares (columns) or hashing fixes count even when all zero (rows
    // as read: mapped rows have the map's dimension).
    if stages.is_none() {
        total.cover(stream.dim());
    }
    total.add_source(&name);
    Ok(total)
}

/// A plain LIBSVM file in parallel blocks (see the module docs).
fn summarize_blocks(
    path: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
    stages: Option<&Transform>,
    budget: Budget<'_>,
) -> Result<MomentSummary, Error> {
    let name = path.display().to_string();
    let opts = &opts.zero_based_for(&[path]);
    let reading = auc_data::Reading::libsvm(opts.zero_based == ZeroBased::Yes);
    // A summary per block in flight (no more than the file has blocks), and the total.
    let file_blocks = std::fs::metadata(path).map_or(u64::MAX, |m| {
        m.len().div_ceil(block_bytes.max(1) as u64).max(1)
    });
    let in_flight =
        ((2 * rayon::current_num_threads()).min(blocks::WINDOW) as u64).min(file_blocks) + 1;
    // Hashing fixes the dimension (with the crosses after the hashed features).
    let fixed = match opts.hash_bits {
        Some(_) => opts.fixed_dim()?.unwrap_or(0),
        None => 0,
    };
    let mut total = empty(fixed, reading.clone(), opts, stages);
    total.add_source(&name);
    blocks::for_each(
        path,
        opts,
        block_bytes,
        |raw| {
            check_moments(&raw, stages, in_flight, budget, &name)?;
            let mut s = empty(0, reading.clone(), opts, stages);
            s.observe_mapped(&raw, &name)
                .map_err(|e| Error::input(format!("{name}: {e}")))?;
            Ok(s)
        },
        |s, _| {
            // The merged total holds every label met so far.
            let labels = total.label_counts().len() + s.label_counts().len();
            memory::check(
                MomentSummary::bytes_for(total.dim().max(s.dim()), labels),
                budget.limit,
                &format!("{name}: the class moments of {labels} label(s) so far"),
                budget.instead,
            )?;
            total
                .merge(&s)
                .map_err(|e| Error::input(format!("{name}: {e}")))
        },
    )?;
    Ok(total)
}
