//! `auc moments`: the class moments of data files (and moment files merged with them) written to
//! a moment file, flags and report; the pass and the merge are `auc_train::moments`', whose fit
//! from moments `auc train` reaches through `auc_train::train`.

use std::path::PathBuf;
use std::time::Instant;

use auc_data::RowStream;
use auc_learners::MomentSummary;
use auc_train::moments::{Budget, FOLD_ADVICE};
use serde_json::json;

use crate::stage_args::StageArgs;

use crate::input::{self, ReadArgs};
use crate::output::{Error, line, write_atomic};

/// Labels a message lists by name; the others are counted (`--json` lists them all).
const SHOWN_LABELS: usize = 10;
use crate::progress::Stderr;
use auc_stream::memory::{self, Bytes};

use auc_train::moments::is_moment_file;

use auc_stream::blocks::BLOCK_BYTES;

/// Flags of `auc moments`.
#[derive(clap::Args, Debug)]
pub(crate) struct MomentsArgs {
    /// Data files (LIBSVM or CSV, gzip detected, `-` for standard input) and moment files,
    /// merged in order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The moment file to write (atomically; `-` writes it to stdout).
    ///
    /// Default: the first input's name with the extension `.mom`, in the current folder
    /// (`data/heart.csv` -> `heart.mom`); standard input needs `-o`.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
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
    /// this (8G, 512M). Default: three quarters of the least of physical memory, the cgroup's memory limit and RLIMIT_AS / RLIMIT_DATA.
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
    let output = match &a.output {
        Some(path) => path.clone(),
        None => crate::output::default_output(&a.inputs, "mom")?,
    };
    let spec = a.stages.spec();
    if !spec.reshapes() && a.stages.is_given() {
        return Err("moments of rows as read are scaled when `auc train` fits them: give --scale and --unit-norm to `auc train` (here they apply only with --features or --one-hot)".into());
    }
    if spec.unit_norm {
        return Err("--unit-norm divides each row by its own norm, which does not commute with class moments".into());
    }
    let limit = memory::limit(a.max_memory);
    // LIBSVM's index base decided once for the data files, so that every part agrees; CSV
    // files with named columns: one schema for every data file of the call (moment files
    // already hold theirs).
    let read = auc_train::moments::data_options(&a.read.options(None)?, &a.inputs);
    let data_files: Vec<&std::path::Path> = a
        .inputs
        .iter()
        .filter(|p| !is_moment_file(p))
        .map(|p| p.as_path())
        .collect();
    let read = read.surveyed(&data_files)?;
    input::report_schema(&read);
    let stages = auc_train::moments::stages_for(
        &a.inputs,
        &read,
        &spec,
        a.map_from.as_deref(),
        limit,
        &Stderr,
    )?;
    let summary = match (&stages, a.fit_map_only) {
        (Some(t), true) => {
            let first = a
                .inputs
                .iter()
                .find(|p| !is_moment_file(p))
                .ok_or("--fit-map-only needs a data file")?;
            let reading = RowStream::open(first, &read)?.reading().clone();
            MomentSummary::for_stages(t.clone(), reading, read.hash_bits)
                .with_cross_bits(read.cross_bits)
        }
        _ => auc_train::moments::summarize(
            &a.inputs,
            &read,
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
    write_atomic(&output, &bytes)?;
    let seconds = start.elapsed().as_secs_f64();
    let counts = summary.label_counts();
    let mut labels = counts
        .iter()
        .take(SHOWN_LABELS)
        .map(|(l, c)| format!("{}: {c}", input::fmt_label(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    if counts.len() > SHOWN_LABELS {
        // A file of thousands of label values printed them all on one line (issue 53).
        labels.push_str(&format!(" and {} more labels", counts.len() - SHOWN_LABELS));
    }
    crate::notes::note(format_args!(
        "moments of {} rows ({labels}), {} features, from {} input(s) in {seconds:.2} s -> {} ({} bytes)",
        summary.rows(),
        summary.dim(),
        a.inputs.len(),
        output.display(),
        bytes.len()
    ));
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
            "output": output.display().to_string(),
            "bytes": bytes.len(),
        }))?;
    }
    Ok(())
}
