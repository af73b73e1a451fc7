//! `auc predict` and `auc model`: scoring with a saved model, reading new data exactly as the
//! model's training data was read, and describing a saved model.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::Label;
use auc_eval::metrics;
use auc_learners::Model;
use serde_json::{Value, json};

use crate::input::{self, ReadArgs};
use crate::output::{Error, Sink, is_stdout, line};
use crate::progress::Stderr;

/// Flags of `auc predict`.
#[derive(clap::Args, Debug)]
pub(crate) struct PredictArgs {
    /// The model file (from `auc train`; `-` reads it from standard input).
    #[arg(short = 'm', long)]
    model: PathBuf,
    /// The data to score (`-` for standard input). It is read as the model's training data was
    /// read (format, CSV columns, dimension, hashing) and prepared with the model's scaling,
    /// incrementally: scores are written as rows are read, in constant memory.
    data: PathBuf,
    /// Write the scores, one per line, to this file (atomically: it appears, complete, only
    /// when every row is scored). `-` is stdout, the default, which receives the scores as they
    /// come: an error at row k (a malformed line, a score that is not finite, which is never
    /// printed) leaves the k - 1 scores before it there and exits with code 2.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// Reading flags must agree with the model's reading (they cannot change it), except
    /// `--zero-based`, which overrides the model's (a model fitted on arrays in Python scores a
    /// file scikit-learn wrote with `--zero-based yes`); `--positive` picks the class the
    /// printed AUC and AP are computed for (default: the model's).
    #[command(flatten)]
    read: ReadArgs,
    /// Print one JSON object on stdout: the summary (examples, seconds, AUC, AP, ...).
    ///
    /// With `-o FILE` the scores go to the file and the object holds the summary only; with the
    /// scores on stdout (no `-o`, or `-o -`) the object holds them too, as its first field
    /// `"scores": [..]`, written as rows are scored (an error at row k leaves the object
    /// unfinished, with exit code 2).
    #[arg(long)]
    json: bool,
    /// Do not compute the AUC and AP of the file's labels, which keeps every score and label
    /// (9 bytes per row): scoring then runs in constant memory.
    #[arg(long)]
    no_metrics: bool,
    /// Parse and score on one thread, one after the other, instead of overlapping them on two.
    #[arg(long)]
    one_thread: bool,
    /// Refuse a row with a feature index past the model's dimension. By default such a feature
    /// (a one-hot column the training data never had) is dropped: it has no fitted scale and
    /// weight 0. The row is scored, and the number of such rows is reported.
    #[arg(long)]
    strict_dim: bool,
    /// Print the probability of the positive class of each row (the model's calibration,
    /// `auc train --calibrate`) instead of its score. The AUC and AP on stderr stay those of
    /// the scores; the log loss and Brier score of the probabilities are added.
    #[arg(long)]
    proba: bool,
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
    let name = path.display();
    let bytes = if is_stdout(path) {
        model_bytes(&mut std::io::stdin().lock(), "-")?
    } else {
        let mut f = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        model_bytes(&mut f, &name.to_string())?
    };
    Model::from_bytes(&bytes).map_err(|e| format!("{name}: {e}").into())
}

/// A model file's bytes, read no further than its header allows: the magic and the announced
/// payload length are read first, so that `/dev/zero` or a large file that is not a model is
/// refused after 20 bytes (hostile input, item 10), and a header announcing more payload than
/// the memory limit is refused before it is read. One byte past the announced end is read, so
/// an extended file still fails the length check.
fn model_bytes(r: &mut impl Read, name: &str) -> Result<Vec<u8>, Error> {
    let io = |e: std::io::Error| -> Error { format!("{name}: {e}").into() };
    let mut bytes = Vec::with_capacity(20);
    r.by_ref().take(20).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() < 20 || !bytes.starts_with(b"AUCMODEL") {
        return Ok(bytes);
    }
    let announced = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let limit = auc_stream::memory::limit(None);
    auc_stream::memory::check(
        announced,
        limit,
        &format!("{name}: the model's payload"),
        "this is not a model auc wrote (its header announces more bytes than fit in memory)",
    )?;
    r.take(announced.saturating_add(5))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    Ok(bytes)
}

pub(crate) fn predict(a: PredictArgs) -> Result<(), Error> {
    if is_stdout(&a.model) && is_stdout(&a.data) {
        return Err("the model and the data cannot both be standard input".into());
    }
    let m = load(&a.model)?;
    if a.proba && m.calibration.is_none() {
        return Err(format!(
            "--proba: {}: {}",
            a.model.display(),
            auc_learners::Error::NotCalibrated
        )
        .into());
    }
    a.read.check_against(&m.preparation, &a.model)?;
    let prep = &m.preparation;
    let options = auc_train::ScoreOptions {
        positive: a.read.positive.clone(),
        strict_dim: a.strict_dim,
        threaded: !a.one_thread,
        max_line_bytes: a.read.max_line_bytes(),
        zero_based: a.read.zero_based(),
    };
    let scoring = auc_train::Scoring::open(&m, &a.data, &options, &Stderr)?;
    // Rows without the label column are scored and nothing else: there is nothing to measure.
    let no_metrics = a.no_metrics || !scoring.labelled();
    if !a.json {
        if !scoring.labelled() && !a.no_metrics {
            crate::notes::note(format_args!(
                "{} has no label column: scoring its rows only (no AUC)",
                a.data.display()
            ));
        }
        let ignored = scoring.ignored_columns();
        if !ignored.is_empty() {
            crate::notes::note(format_args!(
                "{} column{} the model does not use {} ignored: {}",
                ignored.len(),
                if ignored.len() == 1 { "" } else { "s" },
                if ignored.len() == 1 { "is" } else { "are" },
                ignored.join(", ")
            ));
        }
    }
    let output = a.output.as_deref().unwrap_or(Path::new("-"));
    let mut sink = Sink::create(output)?;
    // With --json and the scores on stdout, they are the first field of the one JSON object.
    let json_scores = a.json && is_stdout(output);
    if json_scores {
        sink.write(b"{\"scores\":[")?;
    }
    let mut first = true;
    // Kept for the metrics: the scores, with --proba the probabilities printed, the labels.
    let (mut scores, mut probs, mut labels) = (Vec::new(), Vec::new(), Vec::new());
    let mut text = String::new();
    let start = Instant::now();
    let scored = scoring.run(|chunk| {
        let s = chunk.scores;
        let p = if a.proba {
            m.probabilities(s)?
        } else {
            Vec::new()
        };
        text.clear();
        for v in if a.proba { &p[..] } else { s } {
            if json_scores {
                if !first {
                    text.push(',');
                }
                first = false;
                text.push_str(&auc_core::shortest(*v));
            } else {
                text.push_str(&auc_core::shortest(*v));
                text.push('\n');
            }
        }
        sink.write(text.as_bytes())
            .map_err(auc_train::Error::Callback)?;
        if !no_metrics {
            scores.extend_from_slice(s);
            probs.extend_from_slice(&p);
            labels.extend_from_slice(chunk.labels);
        }
        Ok(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let (done, positive) = (scored.done, scored.positive);
    let unseen = done.seen.unseen_rows;
    if unseen > 0 && !a.json {
        crate::notes::note(format_args!(
            "{unseen} rows held features past the model's {} (never seen in training): those features were dropped, as they have weight 0 and no fitted scale (--strict-dim refuses such rows)",
            prep.dim
        ));
    }
    let summary = if no_metrics {
        report_count(&a, done.rows, seconds, unseen)
    } else {
        report_metrics(
            &a,
            &scores,
            a.proba.then_some(probs.as_slice()),
            &labels,
            (&positive, &positive_words(&a, prep, &positive)),
            seconds,
            unseen,
        )
    };
    if let Some(summary) = summary {
        let text = summary.to_string();
        if json_scores {
            // The summary's fields follow the scores in the same object.
            let fields = text.strip_prefix('{').unwrap_or(&text);
            sink.write(b"],")?;
            sink.write(fields.as_bytes())?;
            sink.write(b"\n")?;
            sink.finish()?;
        } else {
            sink.finish()?;
            line(text)?;
        }
    } else {
        sink.finish()?;
    }
    Ok(())
}

/// The class the printed metrics take as positive, in words: a table's label values (the
/// model's, or those of `--positive`), else the label numbers.
fn positive_words(a: &PredictArgs, prep: &auc_prep::Preparation, positive: &[f64]) -> String {
    match (prep.reading.schema(), &a.read.positive) {
        (Some(_), Some(given)) => given.join(","),
        (Some(s), None) => s.label.positive.join(","),
        (None, _) => input::fmt_labels(positive),
    }
}

/// The number of rows scored, when no metrics are computed.
fn report_count(a: &PredictArgs, n: u64, seconds: f64, unseen: u64) -> Option<Value> {
    if a.json {
        return Some(json!({"examples": n, "seconds": seconds, "unseen_feature_rows": unseen}));
    }
    crate::notes::note(format_args!("{n} examples scored in {seconds:.3} s"));
    None
}

/// AUC and AP when the file's labels hold both classes, as a note on stderr or, with `--json`,
/// returned as the summary object. With `probs` (`--proba`) also their log loss and Brier score.
fn report_metrics(
    a: &PredictArgs,
    scores: &[f64],
    probs: Option<&[f64]>,
    labels: &[Label],
    (positive, positive_words): (&[f64], &str),
    seconds: f64,
    unseen: u64,
) -> Option<Value> {
    let n = scores.len();
    let metrics = metrics::auc(scores, labels)
        .and_then(|auc| Ok((auc, metrics::average_precision(scores, labels)?)));
    let losses = probs.and_then(|p| {
        Some((
            auc_eval::scoring_rules::log_loss(p, labels).ok()?,
            auc_eval::scoring_rules::brier_score(p, labels).ok()?,
        ))
    });
    if a.json {
        let (auc, ap) = metrics
            .as_ref()
            .map_or((None, None), |&(x, y)| (Some(x), Some(y)));
        let mut out = json!({"examples": n, "seconds": seconds, "positive": positive, "auc": auc, "ap": ap, "unseen_feature_rows": unseen});
        if let Some((log_loss, brier)) = losses {
            out["log_loss"] = json!(log_loss);
            out["brier"] = json!(brier);
        }
        return Some(out);
    }
    let loss_text = losses.map_or_else(String::new, |(l, b)| {
        format!("; log loss {l:.6}, Brier score {b:.6} of the probabilities")
    });
    match metrics {
        Ok((auc, ap)) => crate::notes::note(format_args!(
            "{n} examples scored in {seconds:.3} s; AUC {auc:.6}, AP {ap:.6}{loss_text} against the file's labels (positive class {})",
            positive_words
        )),
        Err(_) => crate::notes::note(format_args!(
            "{n} examples scored in {seconds:.3} s (the file's labels hold one class: no AUC){loss_text}"
        )),
    }
    None
}

/// A table column in words: `income (number, missing filled)`, `color (3 categories)`.
fn describe_column(c: &auc_data::table::Column) -> String {
    use auc_data::table::Encoding;
    let what = match &c.encoding {
        Encoding::Numeric {
            indicator: false, ..
        } => "number".to_owned(),
        Encoding::Numeric {
            indicator: true, ..
        } => "number, missing filled".to_owned(),
        Encoding::OneHot { kept, .. } => format!("{} categories", kept.len()),
        Encoding::Hashed { buckets, .. } => format!("categories hashed into {buckets}"),
    };
    format!("{} ({what})", c.name)
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
            "feature_names": p.reading.feature_names(),
            "hash_bits": p.hash_bits,
            "cross_bits": p.cross_bits,
            "scaling": p.scaler().kind().to_string(),
            "unit_norm": p.unit_norm(),
            "stages": p.transform.describe(),
            "training": t,
            "state": state,
            "calibration": m.calibration,
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
    line(format!("positive    {}", p.positive_words()))?;
    line(format!("reading     {}", p.describe_reading()))?;
    if let Some(schema) = p.reading.schema() {
        let columns: Vec<String> = schema.columns.iter().map(describe_column).collect();
        line(format!("columns     {}", columns.join(", ")))?;
    }
    line(format!(
        "scaling     {}{}",
        p.scaler().kind(),
        if p.unit_norm() {
            ", then unit norm"
        } else {
            ""
        }
    ))?;
    if let Some(input) = p.transform.input_dim() {
        let seed = p
            .transform
            .feature_map()
            .map_or_else(String::new, |fm| format!(", seed {}", fm.seed()));
        line(format!(
            "stages      {} ({input} features mapped to {}{seed})",
            p.transform.describe(),
            p.transform.output_dim(input),
        ))?;
    }
    line(format!(
        "training    {} examples ({} positive, {} negative), seed {}, {}",
        t.examples, t.positives, t.negatives, t.seed, t.written_by
    ))?;
    if let Some(d) = &t.diverged {
        line(format!("diverged    {d}"))?;
    }
    if let Some(c) = &m.calibration {
        line(format!(
            "calibration {} (auc predict --proba)",
            c.describe()
        ))?;
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
