//! `auc moments` and the moment pass of `auc train` for the learners fitted from merged class
//! moments (`Algorithm::fits_from_moments`).
//!
//! A moment pass reads each input once and keeps only per-label class moments and feature
//! ranges (`auc_learners::MomentSummary`), so memory does not grow with the number of rows.
//! A plain (not gzipped) LIBSVM file is cut into blocks of whole lines that are parsed and
//! summarized in parallel on the thread pool (`--threads`), a window of blocks at a time
//! ([`auc_stream::blocks`]); the summaries are then merged **in file order**, so the result depends
//! on the block size only, never on the number of threads. CSV files, gzip and standard input are
//! parsed by one `RowStream`, the next chunk being parsed while the last one is summarized.
//! Inputs that are moment files (they start with `AUCMOMNT`, whatever their name) are read and
//! merged as they are, so `auc train --algo opauc-batch A.mom B.mom C.svm` merges the pass
//! over `C.svm` with parts computed anywhere else.

use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::ParamMap;
use auc_data::{ReadOptions, RowStream};
use auc_learners::{Algorithm, MomentSummary, fit_from_moments};
use serde_json::json;

use auc_prep::{Transform, TransformSpec};

use crate::stage_args::StageArgs;

use crate::input::{self, ReadArgs};
pub(crate) use crate::map_pass::is_moment_file;
use crate::output::{Error, line, write_atomic};
use crate::threads::pool;
use auc_stream::memory::{self, Bytes};

use auc_stream::blocks::{self, BLOCK_BYTES};

/// The memory a moment pass may use and what its refusal advises instead.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget<'a> {
    pub(crate) limit: Bytes,
    pub(crate) instead: &'a str,
    /// Stop with [`TooWide`] instead of refusing when the class moments exceed the limit (a
    /// learner that can solve over the rows instead).
    pub(crate) stop_when_too_wide: bool,
}

/// A moment pass stopped because the class moments of `dim` features would need `needed`
/// bytes over the limit: what [`train`] reports to route the fit to the rows in memory. Only
/// [`check_moments`] makes one and only [`train`] looks for it.
#[derive(Debug)]
struct TooWide {
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

/// How [`train`] ended: a model from the moments, or a pass stopped for the rows instead.
pub(crate) enum FromMoments {
    /// The model file is written.
    Trained,
    /// The class moments would not fit; the learner solves over the rows with these
    /// parameters instead, and the message says so.
    OverRows { given: ParamMap, message: String },
}

/// What a refused moment pass advises without a learner that can do otherwise.
const FOLD_ADVICE: &str = "use --hash-bits B to fold the features into 2^B, relabel the file's classes to two, or --max-memory";

/// Rows per chunk of the sequential (CSV, gzip, stdin) pass.
const CHUNK_ROWS: usize = 16_384;

/// Flags of `auc moments`.
#[derive(clap::Args, Debug)]
pub(crate) struct MomentsArgs {
    /// Data files (LIBSVM or CSV, gzip detected, `-` for standard input) and moment files,
    /// merged in order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The moment file to write (atomically; `-` writes it to stdout).
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// Worker threads of the pass (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Bytes per parallel block of a LIBSVM file (the result depends on it only through
    /// rounding).
    #[arg(long, hide = true, default_value_t = BLOCK_BYTES)]
    block_bytes: usize,
    /// Print a JSON object describing the result on stdout.
    #[arg(long)]
    json: bool,
    /// Take the moments of rows mapped by the fitted map of FILE (a moment file written with
    /// --features or --fit-map-only, or a model trained with a map), so that parts computed
    /// anywhere merge.
    #[arg(long, value_name = "FILE")]
    map_from: Option<PathBuf>,
    /// Fit the --features map (on a first pass over the inputs) and write it alone, with no
    /// rows, for --map-from.
    #[arg(long, requires = "sampled")]
    fit_map_only: bool,
    /// Refuse a first pass (the scaling's ranges, the map's sample) that would need more than
    /// this (8G, 512M). Default: three quarters of physical memory.
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<Bytes>,
    #[command(flatten)]
    read: ReadArgs,
    /// The stages: only with --features (scaling, then the map, fitted on a first pass and
    /// applied to every row before its moments are taken); without a map, moments are of rows
    /// as read and `auc train` scales them.
    #[command(flatten)]
    stages: StageArgs,
}

/// `auc moments`.
pub(crate) fn moments(a: MomentsArgs) -> Result<(), Error> {
    let start = Instant::now();
    let spec = a.stages.spec();
    if !spec.reshapes() && a.stages.is_given() {
        return Err("moments of rows as read are scaled when `auc train` fits them: give --scale and --unit-norm to `auc train` (here they apply only with --features or --one-hot)".into());
    }
    if spec.unit_norm {
        return Err("--unit-norm divides each row by its own norm, which does not commute with class moments".into());
    }
    let limit = memory::limit(a.max_memory);
    let stages =
        crate::map_pass::stages_for(&a.inputs, &a.read, &spec, a.map_from.as_deref(), limit)?;
    let summary = match (&stages, a.fit_map_only) {
        (Some(t), true) => {
            let first = a
                .inputs
                .iter()
                .find(|p| !is_moment_file(p))
                .ok_or("--fit-map-only needs a data file")?;
            let opts = a.read.options(None)?;
            let reading = RowStream::open(first, &opts)?.reading().clone();
            MomentSummary::for_stages(t.clone(), reading, opts.hash_bits)
                .with_cross_bits(opts.cross_bits)
        }
        _ => summarize(
            &a.inputs,
            &a.read,
            a.threads,
            a.block_bytes,
            stages.as_ref(),
            Budget {
                limit,
                instead: FOLD_ADVICE,
                stop_when_too_wide: false,
            },
        )?,
    };
    let bytes = summary.to_bytes();
    write_atomic(&a.output, &bytes)?;
    let seconds = start.elapsed().as_secs_f64();
    let labels = summary
        .label_counts()
        .iter()
        .map(|(l, c)| format!("{}: {c}", input::fmt_label(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    eprintln!(
        "auc: moments of {} rows ({labels}), {} features, from {} input(s) in {seconds:.2} s -> {} ({} bytes)",
        summary.rows(),
        summary.dim(),
        a.inputs.len(),
        a.output.display(),
        bytes.len()
    );
    if a.json {
        let labels: Vec<_> = summary
            .label_counts()
            .iter()
            .map(|(l, c)| json!({"label": l, "count": c}))
            .collect();
        line(json!({
            "rows": summary.rows(),
            "features": summary.dim(),
            "labels": labels,
            "inputs": a.inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "seconds": seconds,
            "output": a.output.display().to_string(),
            "bytes": bytes.len(),
        }))?;
    }
    Ok(())
}

/// What `auc train` hands over for a fit from moments.
pub(crate) struct TrainFromMoments<'a> {
    pub(crate) algo: &'static Algorithm,
    pub(crate) given: &'a ParamMap,
    pub(crate) inputs: &'a [PathBuf],
    pub(crate) output: &'a Path,
    pub(crate) read: &'a ReadArgs,
    pub(crate) stages: TransformSpec,
    pub(crate) threads: Option<usize>,
    pub(crate) seed: u64,
    pub(crate) max_memory: Option<Bytes>,
    pub(crate) json: bool,
}

/// Why `auc train` of `algo` reads its data in memory rather than by a moment pass, or `None`
/// when the moment pass runs.
pub(crate) fn in_memory_reason(
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

/// Which inputs are moment files, for `auc train` to refuse them where a moment pass cannot
/// run (`--tune`, `--calibrate`, `--limit`, `--unit-norm`, a learner not fitted from moments).
pub(crate) fn refuse_moment_files(inputs: &[PathBuf], why: &str) -> Result<(), Error> {
    if let Some(p) = inputs.iter().find(|p| is_moment_file(p)) {
        return Err(format!(
            "{} is a moment file; {why}: moment files are only merged by a plain `auc train` of a learner fitted from moments",
            p.display()
        )
        .into());
    }
    Ok(())
}

/// `auc train` of a moment learner: the parallel pass, the merge, the solve, the model file.
pub(crate) fn train(t: TrainFromMoments<'_>) -> Result<FromMoments, Error> {
    let algo = t.algo;
    algo.check_names(t.given)?;
    let config = algo.configure(t.given)?;
    if t.stages.unit_norm {
        return Err(format!(
            "--unit-norm divides each row by its own norm, which does not commute with class moments; {} is fitted from moments and cannot use it",
            algo.name
        )
        .into());
    }
    let start = Instant::now();
    let limit = memory::limit(t.max_memory);
    let stages = crate::map_pass::stages_for(t.inputs, t.read, &t.stages, None, limit)?;
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
            return match e.downcast_ref::<TooWide>() {
                Some(w) => {
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
                None => Err(e),
            };
        }
    };
    let pass = start.elapsed().as_secs_f64();
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
    let solve_start = Instant::now();
    let positive = t.read.positive_rule();
    let (mut model, line_text) = fit_from_moments(
        algo, t.given, &summary, &positive, &t.stages, t.seed,
    )
    .map_err(|e| -> Error {
        // The message is a new error: carry the cause chain into it ("fitting from
        // moments failed" alone does not say that a class was missing).
        let mut msg = format!(
            "training {} from the moments of {}: {e}",
            algo.name,
            inputs_name(t.inputs)
        );
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            msg.push_str(&format!(": {c}"));
            cause = c.source();
        }
        msg.into()
    })?;
    let solve = solve_start.elapsed().as_secs_f64();
    model.training.written_by = format!("auc {}", env!("CARGO_PKG_VERSION"));
    let tr = &model.training;
    eprintln!(
        "auc: positive class: {} ({}); {} positive, {} negative",
        input::fmt_labels(&model.preparation.positive_labels),
        model.preparation.positive_rule,
        tr.positives,
        tr.negatives
    );
    let bytes = model.to_checked_bytes()?;
    write_atomic(t.output, &bytes)?;
    let seconds = start.elapsed().as_secs_f64();
    let cert = crate::training::certificate(model.state.as_ref(), algo.name);
    eprintln!(
        "auc: trained {} ({}) on {} examples ({} positive, {} negative), {} in {seconds:.2} s (moment pass {pass:.2} s, solve {solve:.3} s): {line_text} -> {} ({} bytes)",
        algo.name,
        model.params(),
        tr.examples,
        tr.positives,
        tr.negatives,
        crate::training::features_text(&model.preparation),
        t.output.display(),
        bytes.len()
    );
    if t.json {
        line(json!({
            "algo": algo.name,
            "params": model.params(),
            "examples": tr.examples,
            "positives": tr.positives,
            "negatives": tr.negatives,
            "positive": model.preparation.positive_labels,
            "features": model.preparation.dim,
            "scaling": model.preparation.scaler().kind().to_string(),
            "diverged": false,
            "divergence": null,
            "tuned": null,
            "converged": cert.map(|c| c.converged),
            "certificate": cert.map(|c| c.to_json()),
            "seconds": seconds,
            "moment_pass_seconds": pass,
            "solve_seconds": solve,
            "summary": line_text,
            "output": t.output.display().to_string(),
            "bytes": bytes.len(),
        }))?;
    }
    Ok(FromMoments::Trained)
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

/// The merged summary of `inputs` (data files and moment files, in order) on a pool of
/// `threads` workers.
pub(crate) fn summarize(
    inputs: &[PathBuf],
    read: &ReadArgs,
    threads: Option<usize>,
    block_bytes: usize,
    stages: Option<&Transform>,
    budget: Budget<'_>,
) -> Result<MomentSummary, Error> {
    let mut opts = read.options(None)?;
    // Raw moments (no stages, or stages without a scaling) sum the values' squares as read.
    opts.bounded_values = stages.is_none_or(Transform::reads_raw_values);
    let pool = pool(threads)?;
    let mut total: Option<MomentSummary> = None;
    for path in inputs {
        let part = if is_moment_file(path) {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            MomentSummary::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?
        } else {
            pool.install(|| summarize_data(path, &opts, block_bytes.max(1), stages, budget))?
        };
        match &mut total {
            None => total = Some(part),
            Some(t) => t
                .merge(&part)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        }
    }
    let total = total.expect("clap requires at least one input");
    if let Some(bits) = opts.hash_bits
        && total.hash_bits() != Some(bits)
    {
        return Err(format!(
            "--hash-bits {bits} was given, but the moment files were read without it (or with other bits)"
        )
        .into());
    }
    if opts.hash_bits.is_some() && total.cross_bits() != opts.cross_bits {
        let asked = opts.cross_bits.map_or_else(
            || "no --cross-hash-bits".to_owned(),
            |c| format!("--cross-hash-bits {c}"),
        );
        return Err(format!(
            "{asked} was given, but the moment files were read with {}",
            total.cross_bits().map_or_else(
                || "no crosses".to_owned(),
                |c| format!("--cross-hash-bits {c}")
            )
        )
        .into());
    }
    Ok(total)
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
        return Err(Box::new(TooWide { dim, needed }));
    }
    memory::check(
        needed,
        budget.limit,
        &format!(
            "{name}: the class moments of {labels} label(s) x {dim} features ({in_flight} summaries at once; each label keeps its own co-moment until the positive class is chosen)"
        ),
        budget.instead,
    )
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
            .merge(&part.map_err(|e| format!("{name}: {e}"))?)
            .map_err(|e| format!("{name}: {e}"))?;
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
    let mut total = empty(fixed, auc_data::Reading::Libsvm, opts, stages);
    total.add_source(&name);
    blocks::for_each(
        path,
        opts,
        block_bytes,
        |raw| {
            check_moments(&raw, stages, in_flight, budget, &name)?;
            let mut s = empty(0, auc_data::Reading::Libsvm, opts, stages);
            s.observe_mapped(&raw, &name)
                .map_err(|e| -> Error { format!("{name}: {e}").into() })?;
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
                .map_err(|e| -> Error { format!("{name}: {e}").into() })
        },
    )?;
    Ok(total)
}
