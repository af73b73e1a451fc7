//! `auc predict` and `auc model`: scoring with a saved model, reading new data exactly as the
//! model's training data was read, and describing a saved model.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::Label;
use auc_data::Positive;
use auc_eval::metrics;
use auc_learners::Model;
use serde_json::json;

use crate::input::{self, ReadArgs};
use crate::output::{Error, is_stdout, line, write_text};

/// Flags of `auc predict`.
#[derive(clap::Args, Debug)]
pub(crate) struct PredictArgs {
    /// The model file (from `auc train`; `-` reads it from standard input).
    #[arg(short = 'm', long)]
    model: PathBuf,
    /// The data to score (`-` for standard input). It is read as the model's training data was
    /// read (format, CSV columns, dimension, hashing) and prepared with the model's scaling.
    data: PathBuf,
    /// Write the scores, one per line, to this file (atomically; `-` is stdout, the default).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// Reading flags must agree with the model's reading (they cannot change it); `--positive`
    /// picks the class the printed AUC and AP are computed for (default: the model's).
    #[command(flatten)]
    read: ReadArgs,
    /// Print the AUC/AP summary as one JSON object on stderr instead of a sentence.
    #[arg(long)]
    json: bool,
}

/// Flags of `auc model`.
#[derive(clap::Args, Debug)]
pub(crate) struct ModelArgs {
    /// The model file (`-` for standard input).
    model: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Reads and checks a model file; errors name the file.
pub(crate) fn load(path: &Path) -> Result<Model, Error> {
    let bytes = if is_stdout(path) {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| format!("-: {e}"))?;
        b
    } else {
        std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?
    };
    Model::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()).into())
}

pub(crate) fn predict(a: PredictArgs) -> Result<(), Error> {
    if is_stdout(&a.model) && is_stdout(&a.data) {
        return Err("the model and the data cannot both be standard input".into());
    }
    let m = load(&a.model)?;
    a.read.check_against(&m.preparation, &a.model)?;
    let raw = input::read_like(&m.preparation, &a.data)?;
    let model_positive = Positive::Known(m.preparation.positive_labels.clone());
    let data = raw.binarize(&model_positive)?;
    let prepared = m.preparation.apply(&data);
    // The metrics' class: the model's, or the one --positive names (it must occur in the file),
    // checked before anything is written.
    let (labels, positive) = match &a.read.positive {
        None => (
            data.labels().to_vec(),
            m.preparation.positive_labels.clone(),
        ),
        Some(given) => {
            let choice = raw.choose_positive(&Positive::Labels(given.clone()))?;
            let d = raw.binarize(&choice.known())?;
            (d.labels().to_vec(), choice.labels)
        }
    };
    let start = Instant::now();
    let scores = m
        .scores(&prepared)
        .map_err(|e| format!("{}: {e}", a.data.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    let mut text = String::with_capacity(scores.len() * 20);
    for s in &scores {
        text.push_str(&auc_core::shortest(*s));
        text.push('\n');
    }
    write_text(a.output.as_deref().unwrap_or(Path::new("-")), &text)?;
    report_metrics(&a, &scores, &labels, &positive, seconds);
    Ok(())
}

/// AUC and AP on stderr when the file's labels hold both classes.
fn report_metrics(
    a: &PredictArgs,
    scores: &[f64],
    labels: &[Label],
    positive: &[f64],
    seconds: f64,
) {
    let n = scores.len();
    let metrics = metrics::auc(scores, labels)
        .and_then(|auc| Ok((auc, metrics::average_precision(scores, labels)?)));
    if a.json {
        let (auc, ap) = metrics
            .as_ref()
            .map_or((None, None), |&(x, y)| (Some(x), Some(y)));
        eprintln!(
            "{}",
            json!({"examples": n, "seconds": seconds, "positive": positive, "auc": auc, "ap": ap})
        );
        return;
    }
    match metrics {
        Ok((auc, ap)) => eprintln!(
            "auc: {n} examples scored in {seconds:.3} s; AUC {auc:.6}, AP {ap:.6} against the file's labels (positive class {})",
            input::fmt_labels(positive)
        ),
        Err(_) => eprintln!(
            "auc: {n} examples scored in {seconds:.3} s (the file's labels hold one class: no AUC)"
        ),
    }
}

pub(crate) fn model(a: ModelArgs) -> Result<(), Error> {
    let m = load(&a.model)?;
    let p = &m.preparation;
    let t = &m.training;
    let state = m.state.describe();
    if a.json {
        return line(json!({
            "file": a.model.display().to_string(),
            "algo": m.algorithm.name,
            "family": m.algorithm.family.name(),
            "params": m.params(),
            "averaged": m.state.averaged(),
            "positive": p.positive_labels,
            "positive_rule": p.positive_rule,
            "features": p.dim,
            "reading": p.reading,
            "hash_bits": p.hash_bits,
            "scaling": p.scaler.kind().to_string(),
            "unit_norm": p.unit_norm,
            "training": t,
            "state": state,
            "format_version": auc_learners::FORMAT_VERSION,
        }));
    }
    line(format!("file        {}", a.model.display()))?;
    line(format!(
        "algorithm   {} ({}){}",
        m.algorithm.name,
        m.algorithm.family.name(),
        if m.state.averaged() {
            ", averaged iterates"
        } else {
            ""
        }
    ))?;
    line(format!("parameters  {}", m.params()))?;
    line(format!(
        "positive    {} ({})",
        input::fmt_labels(&p.positive_labels),
        p.positive_rule
    ))?;
    line(format!("reading     {}", input::describe_reading(p)))?;
    line(format!(
        "scaling     {}{}",
        p.scaler.kind(),
        if p.unit_norm { ", then unit norm" } else { "" }
    ))?;
    line(format!(
        "training    {} examples ({} positive, {} negative), seed {}, {}",
        t.examples, t.positives, t.negatives, t.seed, t.written_by
    ))?;
    if let Some(d) = &t.diverged {
        line(format!("diverged    {d}"))?;
    }
    if let serde_json::Value::Object(fields) = state {
        let parts: Vec<String> = fields
            .iter()
            .map(|(k, v)| {
                format!(
                    "{k} {}",
                    v.as_f64().map_or_else(|| v.to_string(), auc_core::shortest)
                )
            })
            .collect();
        line(format!("state       {}", parts.join(", ")))?;
    }
    Ok(())
}
