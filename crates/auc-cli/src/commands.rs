//! The subcommands: their flags (clap) and what they do.

use std::path::PathBuf;
use std::time::Instant;

use auc_core::{Label, ParamMap};
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig, RunRecord};
use auc_eval::grid::{self, GridAxis};
use auc_eval::metrics;
use clap::{Parser, Subcommand};
use serde_json::json;

use crate::algos::{self, ALGOS};
use crate::batch;
use crate::hyper::HyperArgs;
use crate::load::{self, ReadArgs};
use crate::output::{Error, line};
use crate::progress::Bar;

/// Online and batch AUC maximization on imbalanced data.
#[derive(Parser, Debug)]
#[command(name = "auc", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Describe a data file: instances, features, classes, imbalance ratio, density.
    Info(InfoArgs),
    /// AUC and AP of scores (one per line) against the labels of a data file.
    Metrics(MetricsArgs),
    /// Nested cross-validation [OAUC sec. 6.3]: repeated stratified k-fold, inner grid search.
    Cv(CvArgs),
    /// Convergence curve of a one-pass learner: test AUC after every N updates.
    Curve(CurveArgs),
    /// Friedman test (Iman-Davenport) and Nemenyi critical difference across methods (Demsar 2006).
    Friedman(FriedmanArgs),
    /// Train a learner on data files and save the model (continue an online one with --resume).
    ///
    /// Online learners take one pass over the data; batch learners (gam-cvm and its baselines)
    /// are fitted on it and saved as their inductive model, O(n p) for n rows of p features.
    Train(crate::train::TrainArgs),
    /// Score a data file with a saved model.
    Predict(crate::train::PredictArgs),
    /// Prequential (test-then-train) AUC of a one-pass (online) learner along a stream.
    Stream(crate::train::StreamArgs),
    /// List the algorithms with their parameters and defaults.
    Algos,
}

#[derive(clap::Args, Debug)]
struct InfoArgs {
    /// A LIBSVM or CSV file.
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct MetricsArgs {
    /// File with one score per line.
    #[arg(long)]
    scores: PathBuf,
    /// Any data file the reader accepts (a file of bare labels, one per line, works).
    #[arg(long)]
    labels: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Print `{"auc": .., "ap": ..}`.
    #[arg(long)]
    json: bool,
}

/// What both `cv` and `curve` need: an algorithm, its data and how to prepare it.
#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Algorithm name (see `auc algos`).
    #[arg(long)]
    algo: String,
    /// Data file(s); repeated files are concatenated in order.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Keep only the first N examples.
    #[arg(long)]
    limit: Option<usize>,
    /// A fixed test set instead of held-out folds.
    #[arg(long)]
    test: Option<PathBuf>,
    #[command(flatten)]
    hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one.
    #[arg(long)]
    average: bool,
    /// Seed of every random choice (folds, training order).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Do not min-max scale features to [-1, 1] (scaling is fitted on each training part).
    #[arg(long)]
    no_scale: bool,
    /// Divide every example by its Euclidean norm (after scaling).
    #[arg(long)]
    unit_norm: bool,
    #[command(flatten)]
    read: ReadArgs,
}

impl RunArgs {
    /// The online algorithm and its fixed parameters; a batch algorithm is an error.
    fn algo(&self) -> Result<(&'static algos::Algo, ParamMap), Error> {
        match batch::lookup(&self.algo)? {
            batch::Entry::Online(a) => Ok((a, self.hyper.to_map()?)),
            batch::Entry::Batch(b) => Err(format!(
                "`{}` is a batch learner: `auc cv` and `auc train` run it; this command takes online learners",
                b.name
            )
            .into()),
        }
    }

    /// The algorithm, online or batch, and its fixed parameters.
    fn entry(&self) -> Result<(batch::Entry, ParamMap), Error> {
        let entry = batch::lookup(&self.algo)?;
        if let batch::Entry::Batch(b) = entry
            && self.average
        {
            return Err(format!("--average applies to online learners, not `{}`", b.name).into());
        }
        Ok((entry, self.hyper.to_map()?))
    }

    /// The training data and the optional test set, with one dimension and positive class.
    fn load(&self) -> Result<(auc_core::Dataset, Option<auc_core::Dataset>), Error> {
        load::train_and_test(&self.read, &self.data, self.test.as_deref(), self.limit)
    }
}

#[derive(clap::Args, Debug)]
struct CvArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Outer repetitions (with --test: the number of runs).
    #[arg(long, default_value_t = 4)]
    repeats: usize,
    /// Outer folds.
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Inner folds of the grid search.
    #[arg(long, default_value_t = 5)]
    inner_folds: usize,
    /// Train on a seeded uniform sample of at most N rows of each outer training part (the
    /// kernel experiments of [OAUC sec. 6.3] use 10000).
    #[arg(long, value_name = "N")]
    max_train: Option<std::num::NonZeroUsize>,
    /// A grid axis NAME=SPEC: `2^a..2^b` (every power), `2^a..2^b:s` (every s-th), or `v1,v2,..`.
    #[arg(long = "grid", value_name = "NAME=SPEC")]
    grid: Vec<String>,
    /// Worker threads (default: all cores); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// One JSON object per run, then a summary line.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct CurveArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Hold out 1 of this many stratified folds when no --test is given.
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Record the test AUC after every N updates (and after the last).
    #[arg(long, default_value_t = 100)]
    every: usize,
    /// One JSON object per point.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct FriedmanArgs {
    /// CSV table: a header `name,METHOD1,METHOD2,..`, then one row per observation (data set or
    /// metric) with its name and each method's score (higher is better).
    table: PathBuf,
    /// Significance level.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs the parsed command.
pub(crate) fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Info(a) => info(a),
        Command::Metrics(a) => metrics_cmd(a),
        Command::Cv(a) => cv_cmd(a),
        Command::Curve(a) => curve_cmd(a),
        Command::Friedman(a) => friedman_cmd(a),
        Command::Train(a) => crate::train::train(a),
        Command::Predict(a) => crate::train::predict(a),
        Command::Stream(a) => crate::train::stream(a),
        Command::Algos => list_algos(),
    }
}

/// A label as files write it: `+1` for one, other values as Rust prints them (`-1`, `2`, `0.5`).
fn fmt_label(l: f64) -> String {
    match l {
        1.0 => "+1".to_owned(),
        _ => format!("{l}"),
    }
}

fn info(a: InfoArgs) -> Result<(), Error> {
    let raw = a.read.read_one(&a.file)?;
    let counts = raw.label_counts();
    let positive = a.read.positive_for(&raw)?;
    let data = raw.binarize(&positive)?;
    let (pos, neg) = data.class_counts();
    let ir = if pos > 0 {
        neg as f64 / pos as f64
    } else {
        f64::INFINITY
    };
    let pos_labels: Vec<f64> = counts
        .iter()
        .map(|c| c.0)
        .filter(|l| match &positive {
            auc_data::Positive::Labels(v) => v.contains(l),
            _ => false,
        })
        .collect();
    let density = data.density();
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
            "positive_labels": pos_labels,
            "positives": pos,
            "negatives": neg,
            "imbalance_ratio": if ir.is_finite() { json!(ir) } else { json!(null) },
            "density": density,
            "sparse": data.is_sparse(),
        }));
    }
    let classes = counts
        .iter()
        .map(|(l, c)| format!("{}: {c}", fmt_label(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    let pos_names = pos_labels
        .iter()
        .map(|l| fmt_label(*l))
        .collect::<Vec<_>>()
        .join(",");
    let rule = if a.read.positive.is_some() {
        "given"
    } else {
        "minority"
    };
    line(format!("file        {}", a.file.display()))?;
    line(format!("instances   {}", data.n()))?;
    line(format!("features    {}", data.dim()))?;
    line(format!("classes     {} ({classes})", counts.len()))?;
    line(format!(
        "positive    {pos_names} ({rule}): {pos} positives, {neg} negatives"
    ))?;
    if ir.is_finite() {
        line(format!("imbalance   {ir:.2} (negatives / positives)"))?;
    } else {
        line("imbalance   undefined (no positives)")?;
    }
    line(format!(
        "density     {density:.4} ({} storage, {} non-zeros)",
        if data.is_sparse() { "sparse" } else { "dense" },
        data.nnz()
    ))
}

fn metrics_cmd(a: MetricsArgs) -> Result<(), Error> {
    let text =
        std::fs::read_to_string(&a.scores).map_err(|e| format!("{}: {e}", a.scores.display()))?;
    let mut scores = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let v: f64 = t.parse().map_err(|_| {
            format!(
                "{}:{}:1: expected a number (one score per line), found `{t}`",
                a.scores.display(),
                i + 1
            )
        })?;
        if !v.is_finite() {
            return Err(format!(
                "{}:{}:1: score `{t}` is not finite",
                a.scores.display(),
                i + 1
            )
            .into());
        }
        scores.push(v);
    }
    let raw = a.read.read_one(&a.labels)?;
    let labels_data = raw.binarize(&a.read.positive_for(&raw)?)?;
    let labels: &[Label] = labels_data.labels();
    if labels.len() != scores.len() {
        return Err(format!(
            "{} holds {} scores but {} holds {} labels",
            a.scores.display(),
            scores.len(),
            a.labels.display(),
            labels.len()
        )
        .into());
    }
    let auc = metrics::auc(&scores, labels)?;
    let ap = metrics::average_precision(&scores, labels)?;
    if a.json {
        line(json!({"auc": auc, "ap": ap}))
    } else {
        line(format!("AUC {auc:.6}\nAP  {ap:.6}"))
    }
}

fn cv_cmd(a: CvArgs) -> Result<(), Error> {
    let (algo, base) = a.run.entry()?;
    let axes: Vec<GridAxis> = a
        .grid
        .iter()
        .map(|g| grid::parse_grid_arg(g))
        .collect::<Result<_, _>>()?;
    let points = grid::expand(&axes)?;
    // Check every parameter combination before reading data or training anything.
    for p in &points {
        algo.validate(&base.merged(p))?;
    }
    let (data, test) = a.run.load()?;
    let cfg = CvConfig {
        folds: a.folds,
        repeats: a.repeats,
        inner_folds: a.inner_folds,
        seed: a.run.seed,
        scale: !a.run.no_scale,
        unit_norm: a.run.unit_norm,
        max_train: a.max_train.map(std::num::NonZeroUsize::get),
    };
    let average = a.run.average;
    algo.check_average(average)?;
    let make = move |p: &ParamMap| algo.fit(p, average);
    let cv_algo = CvAlgo {
        base: base.clone(),
        grid: points.clone(),
        make: &make,
    };
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = a.threads {
            if t == 0 {
                return Err("--threads must be at least 1".into());
            }
            b = b.num_threads(t);
        }
        b.build()?
    };
    let bar = Bar::new(algo.name());
    let start = Instant::now();
    let records = pool.install(|| match &test {
        None => cv::nested_cv(&data, &cv_algo, &cfg, &|p| bar.event(p)),
        Some(t) => cv::holdout(&data, t, &cv_algo, &cfg, &|p| bar.event(p)),
    });
    bar.finish();
    let records = records?;
    let total = start.elapsed().as_secs_f64();
    let summary = cv::summarize(&records);
    let dataset = load::dataset_name(&a.run.data);
    if a.json {
        for r in &records {
            line(serde_json::to_string(r)?)?;
        }
        let mut s = serde_json::to_value(&summary)?;
        if let Some(obj) = s.as_object_mut() {
            obj.insert("summary".into(), json!(true));
            obj.insert("algo".into(), json!(algo.name()));
            obj.insert("dataset".into(), json!(dataset));
            let (pos, neg) = data.class_counts();
            obj.insert("n_examples".into(), json!(data.n()));
            obj.insert("positives".into(), json!(pos));
            obj.insert("negatives".into(), json!(neg));
            obj.insert("repeats".into(), json!(a.repeats));
            obj.insert(
                "folds".into(),
                json!(if test.is_some() { 0 } else { a.folds }),
            );
            obj.insert("inner_folds".into(), json!(a.inner_folds));
            obj.insert("seed".into(), json!(a.run.seed));
            obj.insert("wall_seconds".into(), json!(total));
        }
        return line(s);
    }
    print_table(&records)?;
    line(format!(
        "{} on {dataset}: {} runs, AUC {:.4} ± {:.4}, AP {:.4} ± {:.4} ({} grid points, {:.2} s)",
        algo.name(),
        summary.runs,
        summary.auc_mean,
        summary.auc_std,
        summary.ap_mean,
        summary.ap_std,
        points.len().max(1),
        total
    ))
}

fn curve_cmd(a: CurveArgs) -> Result<(), Error> {
    let (algo, params) = a.run.algo()?;
    algo.check_average(a.run.average)?;
    let fit = algo.fit(&params, a.run.average)?;
    let (data, test) = a.run.load()?;
    let cfg = CvConfig {
        folds: a.folds,
        seed: a.run.seed,
        scale: !a.run.no_scale,
        unit_norm: a.run.unit_norm,
        ..CvConfig::default()
    };
    let points =
        auc_eval::curve::convergence_protocol(&data, test.as_ref(), fit.as_ref(), &cfg, a.every)?;
    if !a.json {
        line(format!("{:>10} {:>8}", "updates", "AUC"))?;
    }
    for p in points {
        if a.json {
            line(serde_json::to_string(&p)?)?;
        } else {
            line(format!("{:>10} {:>8.4}", p.updates, p.auc))?;
        }
    }
    Ok(())
}

/// Reads a `name,method..` score table; errors name file, line and column.
fn read_score_table(path: &std::path::Path) -> Result<(Vec<String>, Vec<Vec<f64>>), Error> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines
        .next()
        .ok_or_else(|| format!("{}: empty table", path.display()))?;
    let methods: Vec<String> = header
        .split(',')
        .skip(1)
        .map(|m| m.trim().to_owned())
        .collect();
    let mut rows = Vec::new();
    for (i, l) in lines {
        let mut col = 1;
        let mut row = Vec::with_capacity(methods.len());
        for (j, field) in l.split(',').enumerate() {
            if j > 0 {
                let v: f64 = field.trim().parse().map_err(|_| {
                    format!(
                        "{}:{}:{col}: expected a number, found `{}`",
                        path.display(),
                        i + 1,
                        field.trim()
                    )
                })?;
                row.push(v);
            }
            col += field.len() + 1;
        }
        if row.len() != methods.len() {
            return Err(format!(
                "{}:{}:1: expected {} scores (one per method in the header), found {}",
                path.display(),
                i + 1,
                methods.len(),
                row.len()
            )
            .into());
        }
        rows.push(row);
    }
    Ok((methods, rows))
}

fn friedman_cmd(a: FriedmanArgs) -> Result<(), Error> {
    use auc_eval::stats;
    let (methods, rows) = read_score_table(&a.table)?;
    let avg = stats::average_ranks(&rows)?;
    let f = stats::friedman(&rows, a.alpha)?;
    let cd = stats::nemenyi_cd(f.k, f.n, a.alpha)?;
    let mut order: Vec<usize> = (0..avg.len()).collect();
    order.sort_by(|&x, &y| avg[x].total_cmp(&avg[y]));
    let best = order[0];
    if a.json {
        let ranks: Vec<_> = order
            .iter()
            .map(|&j| json!({"method": methods[j], "rank": avg[j], "differs_from_best": avg[j] - avg[best] > cd}))
            .collect();
        return line(json!({
            "methods": f.k, "observations": f.n, "chi2": f.chi2, "ff": if f.ff.is_finite() { json!(f.ff) } else { json!(null) },
            "df1": f.df1, "df2": f.df2, "p_value": f.p_value, "critical_value": f.critical_value,
            "alpha": f.alpha, "rejected": f.rejected, "cd": cd, "ranks": ranks,
        }));
    }
    line(format!(
        "{:<20} {:>8} {:>10}  vs {} (CD {cd:.4})",
        "method", "rank", "diff", methods[best]
    ))?;
    for &j in &order {
        let d = avg[j] - avg[best];
        let verdict = if j == best {
            ""
        } else if d > cd {
            "differs"
        } else {
            "not significant"
        };
        line(format!(
            "{:<20} {:>8.4} {:>10.4}  {verdict}",
            methods[j], avg[j], d
        ))?;
    }
    line(format!(
        "Friedman: chi2 = {:.4}, F_F = {:.4} on ({}, {}) df, critical value {:.4} at alpha {}, p = {:.3e}: null hypothesis {}",
        f.chi2,
        f.ff,
        f.df1,
        f.df2,
        f.critical_value,
        f.alpha,
        f.p_value,
        if f.rejected {
            "rejected"
        } else {
            "not rejected"
        }
    ))
}

fn print_table(records: &[RunRecord]) -> Result<(), Error> {
    line(format!(
        "{:>4} {:>6} {:>4} {:>8} {:>8} {:>10} {:>9}  params",
        "run", "repeat", "fold", "AUC", "AP", "inner_AUC", "train_s"
    ))?;
    for r in records {
        let inner = r
            .inner_auc
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"));
        line(format!(
            "{:>4} {:>6} {:>4} {:>8.4} {:>8.4} {:>10} {:>9.4}  {}",
            r.run, r.repeat, r.fold, r.auc, r.ap, inner, r.train_seconds, r.params
        ))?;
    }
    Ok(())
}

fn list_algos() -> Result<(), Error> {
    for a in ALGOS {
        let alias = if a.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias: {})", a.aliases.join(", "))
        };
        line(format!("{}{alias}\n    {}", a.name, a.about))?;
        if a.params.is_empty() {
            line("    parameters: none")?;
        }
        for p in a.params {
            let default = p
                .default
                .map_or_else(|| "required".to_owned(), |d| format!("default {d}"));
            line(format!("    {:<8} {default}: {}", p.name, p.help))?;
        }
    }
    for b in batch::BATCH {
        line(format!(
            "{} (batch: `auc cv`, `auc train`)\n    {}",
            b.name, b.about
        ))?;
        for p in b.params() {
            let default = p
                .default
                .map_or_else(|| "required".to_owned(), |d| format!("default {d}"));
            line(format!("    {:<8} {default}: {}", p.name, p.help))?;
        }
    }
    Ok(())
}
