//! `auc info`: a data file's shape, label counts, density and feature ranges.

use std::path::PathBuf;

use auc_data::{FeatureRanges, Scaler, Scaling};
use auc_stream::memory::{self, Bytes};
use serde_json::json;

use crate::input::{self, ReadArgs};
use crate::output::{Error, line};

#[derive(clap::Args, Debug)]
pub(crate) struct InfoArgs {
    /// A LIBSVM or CSV file (`-` for standard input; gzip is detected).
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
    /// Print one JSON object instead of a table, with the per-feature ranges (`ranges`: min, max
    /// and non-zero count of each feature, and the row count), which `auc train --scale-from`
    /// fits a scaling on when the data to learn from can be read only once.
    #[arg(long)]
    pub(crate) json: bool,
    /// Refuse to start when the data and its feature ranges would need more memory than this
    /// (8G, 512M). Default: three quarters of the least of physical memory, the cgroup's memory limit and RLIMIT_AS / RLIMIT_DATA.
    #[arg(long, value_name = "SIZE")]
    pub(crate) max_memory: Option<Bytes>,
}

pub(crate) fn info(a: InfoArgs) -> Result<(), Error> {
    let limit = memory::limit(a.max_memory);
    let raw = a.read.read(std::slice::from_ref(&a.file), None)?;
    memory::check(
        raw.stored_bytes(),
        limit,
        "the data",
        "use --hash-bits B to fold the features into 2^B",
    )?;
    // The ranges are O(p): a single index near 2^32 would ask for tens of GB (hostile input,
    // item 3).
    memory::check(
        Scaler::bytes_for(raw.dim()),
        limit,
        &format!("the feature ranges of {} features", raw.dim()),
        "use --hash-bits B to fold the features into 2^B",
    )?;
    let counts = raw.label_counts();
    let choice = raw.choose_positive(&a.read.positive_rule())?;
    let data = raw.binarize(&choice.known())?;
    let (pos, neg) = data.class_counts();
    let ir = (pos > 0).then(|| neg as f64 / pos as f64);
    let density = data.density();
    let ranges = FeatureRanges::of(&data);
    let scaling = ranges.finish(Scaling::Auto).kind();
    if a.json {
        let classes: Vec<_> = counts
            .iter()
            .map(|(l, c)| json!({"label": l, "count": c}))
            .collect();
        return line(json!({
            "file": a.file.display().to_string(),
            "instances": data.n(),
            "features": data.dim(),
            "classes": classes,
            "positive": choice.labels,
            "positive_rule": choice.rule.to_string(),
            "positives": pos,
            "negatives": neg,
            "imbalance_ratio": ir,
            "density": density,
            "sparse": data.is_sparse(),
            "scale_auto": scaling.to_string(),
            "reading": raw.reading(),
            "hash_bits": a.read.hash_bits,
            "cross_bits": a.read.cross_hash_bits,
            "ranges": ranges,
        }));
    }
    let classes = counts
        .iter()
        .map(|(l, c)| format!("{}: {c}", input::fmt_label(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    line(format!("file        {}", a.file.display()))?;
    line(format!("instances   {}", data.n()))?;
    let base = if raw.reading().is_zero_based() {
        " (LIBSVM indices read 0-based: index 0 is the first feature)"
    } else {
        ""
    };
    line(format!("features    {}{base}", data.dim()))?;
    line(format!("classes     {} ({classes})", counts.len()))?;
    line(format!(
        "positive    {} ({}): {pos} positives, {neg} negatives",
        input::fmt_labels(&choice.labels),
        choice.rule
    ))?;
    match ir {
        Some(ir) => line(format!("imbalance   {ir:.2} (negatives / positives)"))?,
        None => line("imbalance   undefined (no positives)")?,
    }
    line(format!(
        "density     {density:.4} ({} storage, {} non-zeros)",
        if data.is_sparse() { "sparse" } else { "dense" },
        data.nnz()
    ))?;
    line(format!("scale auto  {scaling}"))
}
