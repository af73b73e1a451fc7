//! The subcommands: their flags (clap) and the ones that read data without training a model
//! (`info`, `metrics`, `cv`, `curve`, `friedman`, `algos`).

use std::path::PathBuf;
use std::time::Instant;

use auc_core::{Dataset, Label, ParamMap};
use auc_data::{FeatureRanges, Scaling};
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig, RunRecord};
use auc_eval::grid::{self, GridAxis};
use auc_eval::metrics;
use auc_learners::{ALL, Algorithm, lookup};
use clap::{Parser, Subcommand};
use serde_json::json;

use crate::hyper::HyperArgs;
use crate::input::{self, ReadArgs};
use crate::memory::{self, Bytes};
use crate::output::{Error, line, write_text};
use crate::plot;
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
    /// Describe a data file: instances, features, classes, positive class, imbalance, density,
    /// the scaling `--scale auto` picks.
    Info(InfoArgs),
    /// AUC and AP of scores (one per line) against the labels of a data file; ROC points and plot.
    Metrics(MetricsArgs),
    /// Nested cross-validation [OAUC sec. 6.3]: repeated stratified k-fold, inner grid search.
    /// Loads the data in memory.
    Cv(CvArgs),
    /// Convergence curve of a one-pass learner: test AUC after every N updates. Loads the data
    /// in memory.
    Curve(CurveArgs),
    /// Friedman test (Iman-Davenport) and Nemenyi critical difference across methods (Demsar 2006).
    Friedman(FriedmanArgs),
    /// Train a learner on data files and save the model (continue an online one with --resume).
    ///
    /// One-pass learners take one pass over the data in file order (--shuffle to permute it),
    /// reading it incrementally in memory that does not grow with it: a file is read twice (a
    /// first pass for the scaling's ranges, the positive class and the dimension), standard input
    /// once (it takes --scale-from FILE or --scale none). Batch learners (gam-cvm and its
    /// baselines), --tune and --shuffle-full load the data in memory; batch learners are fitted
    /// on all of it and saved as their inductive model. Every parameter has a default; --tune
    /// picks them by cross-validation.
    Train(crate::train::TrainArgs),
    /// Class moments and feature ranges of data files, for the learners fitted from moments:
    /// `auc train --algo NAME A.mom B.mom C.svm` merges them exactly.
    Moments(crate::moments::MomentsArgs),
    /// Score a data file with a saved model, reading it as the model's training data was read,
    /// incrementally: scores are written as rows are read.
    Predict(crate::predict::PredictArgs),
    /// Prequential (test-then-train) AUC of a one-pass learner along a stream, printed as it is
    /// read (input read incrementally, as `auc train` reads it).
    Stream(crate::train::StreamArgs),
    /// Describe a saved model: algorithm, parameters, positive class, reading, scaling, state.
    Model(crate::predict::ModelArgs),
    /// List the algorithms with their parameters, defaults and grids.
    Algos(AlgosArgs),
}

#[derive(clap::Args, Debug)]
struct InfoArgs {
    /// A LIBSVM or CSV file (`-` for standard input; gzip is detected).
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Print one JSON object instead of a table, with the per-feature ranges (`ranges`: min, max
    /// and non-zero count of each feature, and the row count), which `auc train --scale-from`
    /// fits a scaling on when the data to learn from can be read only once.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct MetricsArgs {
    /// File with one score per line (`-` for standard input).
    #[arg(long)]
    scores: PathBuf,
    /// Any data file the reader accepts (a file of bare labels, one per line, works).
    #[arg(long)]
    labels: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Write the ROC curve's points (false and true positive rates, thresholds) as CSV (`-`:
    /// stdout).
    #[arg(long, value_name = "OUT.csv")]
    roc: Option<PathBuf>,
    /// Draw the ROC curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// Print `{"auc": .., "ap": .., "positive": [..]}`.
    #[arg(long)]
    json: bool,
}

/// Scaling and row normalization, fitted on training data only.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct PrepArgs {
    /// Feature scaling, fitted on the training data: `auto` is min-max to [-1, 1] on data with
    /// at least 10 % non-zeros and max-abs (x / max|x|, zeros stay zero) below, so sparse data
    /// stays sparse; `minmax`, `maxabs`, `none`.
    #[arg(long, value_enum, default_value = "auto", help_heading = "Preparation")]
    scale: ScaleArg,
    /// The same as `--scale none`.
    #[arg(long, help_heading = "Preparation")]
    no_scale: bool,
    /// Divide every example by its Euclidean norm (after scaling).
    #[arg(long, help_heading = "Preparation")]
    pub(crate) unit_norm: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ScaleArg {
    Auto,
    Minmax,
    Maxabs,
    None,
}

impl PrepArgs {
    /// The scaling asked for.
    pub(crate) fn scaling(&self) -> Scaling {
        if self.no_scale {
            return Scaling::None;
        }
        match self.scale {
            ScaleArg::Auto => Scaling::Auto,
            ScaleArg::Minmax => Scaling::MinMax,
            ScaleArg::Maxabs => Scaling::MaxAbs,
            ScaleArg::None => Scaling::None,
        }
    }

    /// Whether any preparation flag differs from its default.
    pub(crate) fn is_given(&self) -> bool {
        self.no_scale || self.unit_norm || self.scale != ScaleArg::Auto
    }
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
    /// Seed of every random choice (folds, training order, the learners' own).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    prep: PrepArgs,
    #[command(flatten)]
    read: ReadArgs,
    /// Refuse to start when the data and models would need more memory than this (8G, 512M).
    /// Default: three quarters of physical memory.
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<Bytes>,
}

impl RunArgs {
    /// The algorithm and its fixed parameters (names checked).
    fn algo(&self) -> Result<(&'static Algorithm, ParamMap), Error> {
        let algo = lookup(&self.algo)?;
        let params = self.hyper.to_map()?;
        algo.check_names(&params)?;
        crate::train::check_average(algo, self.average)?;
        Ok((algo, params))
    }

    /// The training data and the optional test set, with one dimension and positive class.
    fn load(&self) -> Result<(Dataset, Option<Dataset>), Error> {
        let limit = memory::limit(self.max_memory);
        let mut train = self.read.read(&self.data, self.limit)?;
        memory::check(
            train.stored_bytes(),
            limit,
            "the data",
            "use --limit or --hash-bits",
        )?;
        let choice = train.choose_positive(&self.read.positive_rule())?;
        let Some(test_path) = &self.test else {
            let data = train.binarize(&choice.known())?;
            input::report_positive(&choice, &data);
            return Ok((data, None));
        };
        let mut test = self.read.read(std::slice::from_ref(test_path), None)?;
        let dim = train.dim().max(test.dim());
        train = train.with_dim(dim)?;
        test = test.with_dim(dim)?;
        let data = train.binarize(&choice.known())?;
        input::report_positive(&choice, &data);
        Ok((data, Some(test.binarize(&choice.known())?)))
    }

    fn config(&self, folds: usize, repeats: usize, inner: usize) -> CvConfig {
        CvConfig {
            folds,
            repeats,
            inner_folds: inner,
            seed: self.seed,
            scaling: self.prep.scaling(),
            unit_norm: self.prep.unit_norm,
            max_train: None,
        }
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
    /// A grid axis NAME=SPEC: `2^a..2^b` (every power), `2^a..2^b:s` (every s-th), or
    /// `v1,v2,..` (numbers or words). `--grid default` searches the algorithm's default grid.
    #[arg(long = "grid", value_name = "NAME=SPEC")]
    grid: Vec<String>,
    /// Cross-validate every grid point on its own instead of choosing one by inner CV: one
    /// summary per point (a sensitivity analysis; how the defaults were chosen).
    #[arg(long)]
    each: bool,
    /// Worker threads (default: all cores); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// One JSON object per run, then a summary line (with --each: one summary per point).
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
    /// Draw the curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
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

#[derive(clap::Args, Debug)]
struct AlgosArgs {
    /// Every algorithm with each parameter's name, type, default, allowed values and doc.
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
        Command::Friedman(a) => crate::friedman::run(&a.table, a.alpha, a.json),
        Command::Train(a) => crate::train::train(a),
        Command::Moments(a) => crate::moments::moments(a),
        Command::Predict(a) => crate::predict::predict(a),
        Command::Stream(a) => crate::train::stream(a),
        Command::Model(a) => crate::predict::model(a),
        Command::Algos(a) => list_algos(a.json),
    }
}

fn info(a: InfoArgs) -> Result<(), Error> {
    let raw = a.read.read(std::slice::from_ref(&a.file), None)?;
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
    line(format!("features    {}", data.dim()))?;
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

/// Reads one finite score per line (blank lines skipped); errors name file, line and column.
fn read_scores(path: &std::path::Path) -> Result<Vec<f64>, Error> {
    let text = if crate::output::is_stdout(path) {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("-: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
    };
    let mut scores = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let v: f64 = t.parse().map_err(|_| {
            format!(
                "{}:{}:1: expected a number (one score per line), found `{t}`",
                path.display(),
                i + 1
            )
        })?;
        if !v.is_finite() {
            return Err(
                format!("{}:{}:1: score `{t}` is not finite", path.display(), i + 1).into(),
            );
        }
        scores.push(v);
    }
    Ok(scores)
}

fn metrics_cmd(a: MetricsArgs) -> Result<(), Error> {
    if crate::output::is_stdout(&a.scores) && crate::output::is_stdout(&a.labels) {
        return Err("--scores and --labels cannot both be standard input".into());
    }
    let scores = read_scores(&a.scores)?;
    let raw = a.read.read(std::slice::from_ref(&a.labels), None)?;
    let (data, choice) =
        input::binarize(&raw, &a.read.positive_rule(), auc_data::Layout::ByDensity)?;
    let labels: &[Label] = data.labels();
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
    if a.roc.is_some() || a.svg.is_some() {
        let roc = metrics::roc_curve(&scores, labels)?;
        if let Some(path) = &a.roc {
            write_text(path, &plot::roc_csv(&roc))?;
        }
        if let Some(path) = &a.svg {
            let title = format!("ROC of {} (AUC {auc:.4})", a.scores.display());
            write_text(path, &plot::roc_svg(&roc, &title)?)?;
        }
    }
    if a.json {
        line(json!({"auc": auc, "ap": ap, "positive": choice.labels}))
    } else {
        line(format!("AUC {auc:.6}\nAP  {ap:.6}"))
    }
}

/// The grid axes of `--grid` arguments; `default` stands for the algorithm's default grid.
pub(crate) fn grid_points(algo: &Algorithm, args: &[String]) -> Result<Vec<ParamMap>, Error> {
    let mut axes: Vec<GridAxis> = Vec::new();
    for g in args {
        if g == "default" {
            for d in algo.grid {
                axes.push(grid::parse_grid_arg(d)?);
            }
        } else {
            axes.push(grid::parse_grid_arg(g)?);
        }
    }
    Ok(grid::expand(&axes)?)
}

/// A thread pool of `threads` workers (all cores when `None`).
pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err("--threads must be at least 1".into());
        }
        // More threads than cores only adds switching; 100,000 of them kept both cores busy
        // creating threads for minutes (hostile input, item 8).
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = cores.saturating_mul(4);
        if t > most {
            return Err(format!(
                "--threads {t} is more than 4 per core ({cores} cores here): use at most {most}"
            )
            .into());
        }
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

fn cv_cmd(a: CvArgs) -> Result<(), Error> {
    let (algo, base) = a.run.algo()?;
    let points = grid_points(algo, &a.grid)?;
    // Check every parameter combination before reading data or training anything.
    for p in &points {
        algo.configure(&base.merged(p))?;
    }
    let first = algo.configure(&base.merged(points.first().unwrap_or(&ParamMap::new())))?;
    first.procedure(a.run.average)?;
    let (data, test) = a.run.load()?;
    input::need_both_classes(&data, "cross-validation")?;
    let threads = a.threads.unwrap_or_else(rayon::current_num_threads).max(1);
    let shape = auc_core::DataShape {
        n: data.n() + test.as_ref().map_or(0, Dataset::n),
        dim: data.dim(),
        positives: data.class_counts().0,
        negatives: data.class_counts().1,
    };
    memory::check(
        first
            .memory_bytes(&shape, a.run.average)
            .saturating_mul(threads as u64),
        memory::limit(a.run.max_memory),
        &format!("{} fits of {} at once", threads, algo.name),
        "use --threads 1, --max-train N or --hash-bits",
    )?;
    let mut cfg = a.run.config(a.folds, a.repeats, a.inner_folds);
    cfg.max_train = a.max_train.map(std::num::NonZeroUsize::get);
    let average = a.run.average;
    let make = move |p: &ParamMap| -> Result<Box<dyn auc_core::DynFit>, auc_core::ParamError> {
        algo.configure(p)?.procedure(average)
    };
    let cv_algo = CvAlgo {
        base: base.clone(),
        grid: points.clone(),
        make: &make,
    };
    let pool = pool(a.threads)?;
    if a.each {
        return cv_each(&a, algo, &base, &points, &data, test.as_ref(), &cfg, &pool);
    }
    let bar = Bar::fits(algo.name);
    let start = Instant::now();
    let records = pool.install(|| match &test {
        None => cv::nested_cv(&data, &cv_algo, &cfg, &|p| bar.event(p)),
        Some(t) => cv::holdout(&data, t, &cv_algo, &cfg, &|p| bar.event(p)),
    });
    bar.finish();
    let records = records?;
    let total = start.elapsed().as_secs_f64();
    let summary = cv::summarize(&records);
    if summary.diverged_runs > 0 {
        let first = records.iter().find_map(|r| r.divergence.as_deref());
        eprintln!(
            "auc: warning: {} of {} runs diverged ({})",
            summary.diverged_runs,
            summary.runs,
            first.unwrap_or("see the JSON records")
        );
    }
    let dataset = input::dataset_name(&a.run.data);
    if a.json {
        for r in &records {
            line(serde_json::to_string(r)?)?;
        }
        let mut s = serde_json::to_value(&summary)?;
        if let Some(obj) = s.as_object_mut() {
            obj.insert("summary".into(), json!(true));
            obj.insert("algo".into(), json!(algo.name));
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
            obj.insert("scaling".into(), json!(a.run.prep.scaling().to_string()));
            obj.insert("diverged".into(), json!(summary.diverged_runs > 0));
            obj.insert("wall_seconds".into(), json!(total));
        }
        return line(s);
    }
    print_table(&records)?;
    line(format!(
        "{} on {dataset}: {} runs, AUC {:.4} ± {:.4}, AP {:.4} ± {:.4} ({} grid points, {:.2} s)",
        algo.name,
        summary.runs,
        summary.auc_mean,
        summary.auc_std,
        summary.ap_mean,
        summary.ap_std,
        points.len().max(1),
        total
    ))
}

/// `auc cv --each`: the outer protocol for every grid point alone, one summary per point.
#[allow(clippy::too_many_arguments)]
fn cv_each(
    a: &CvArgs,
    algo: &'static Algorithm,
    base: &ParamMap,
    points: &[ParamMap],
    data: &Dataset,
    test: Option<&Dataset>,
    cfg: &CvConfig,
    pool: &rayon::ThreadPool,
) -> Result<(), Error> {
    let average = a.run.average;
    let make = move |p: &ParamMap| -> Result<Box<dyn auc_core::DynFit>, auc_core::ParamError> {
        algo.configure(p)?.procedure(average)
    };
    let dataset = input::dataset_name(&a.run.data);
    let bar = Bar::fits(algo.name);
    for point in points {
        let params = base.merged(point);
        let one = CvAlgo {
            base: params.clone(),
            grid: Vec::new(),
            make: &make,
        };
        let start = Instant::now();
        let records = pool.install(|| match test {
            None => cv::nested_cv(data, &one, cfg, &|p| bar.event(p)),
            Some(t) => cv::holdout(data, t, &one, cfg, &|p| bar.event(p)),
        })?;
        let s = cv::summarize(&records);
        let full = algo.configure(&params)?.params();
        if a.json {
            let mut v = serde_json::to_value(&s)?;
            if let Some(obj) = v.as_object_mut() {
                obj.insert("summary".into(), json!(true));
                obj.insert("algo".into(), json!(algo.name));
                obj.insert("dataset".into(), json!(dataset));
                obj.insert("params".into(), serde_json::to_value(&full)?);
                obj.insert("diverged".into(), json!(s.diverged_runs > 0));
                obj.insert(
                    "aucs".into(),
                    json!(records.iter().map(|r| r.auc).collect::<Vec<_>>()),
                );
                obj.insert("wall_seconds".into(), json!(start.elapsed().as_secs_f64()));
            }
            line(v)?;
        } else {
            line(format!(
                "{full}: {} runs, AUC {:.4} ± {:.4}, AP {:.4} ± {:.4}{}",
                s.runs,
                s.auc_mean,
                s.auc_std,
                s.ap_mean,
                s.ap_std,
                if s.diverged_runs > 0 {
                    " (diverged)"
                } else {
                    ""
                }
            ))?;
        }
    }
    bar.finish();
    Ok(())
}

fn curve_cmd(a: CurveArgs) -> Result<(), Error> {
    let (algo, params) = a.run.algo()?;
    if !algo.is_online() {
        return Err(format!(
            "`{}` is a batch learner, fitted on all its data at once: `auc curve` needs a one-pass learner",
            algo.name
        )
        .into());
    }
    let fit = algo.configure(&params)?.procedure(a.run.average)?;
    let (data, test) = a.run.load()?;
    input::need_both_classes(&data, "a convergence curve")?;
    let cfg = a.run.config(a.folds, 1, 5);
    let points =
        auc_eval::curve::convergence_protocol(&data, test.as_ref(), fit.as_ref(), &cfg, a.every)?;
    if let Some(path) = &a.svg {
        let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.updates as f64, p.auc)).collect();
        let title = format!("{} on {}", algo.name, input::dataset_name(&a.run.data));
        write_text(path, &plot::curve_svg(&xy, &title, "updates", "test AUC")?)?;
    }
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

fn print_table(records: &[RunRecord]) -> Result<(), Error> {
    line(format!(
        "{:>4} {:>6} {:>4} {:>8} {:>8} {:>10} {:>9}  params",
        "run", "repeat", "fold", "AUC", "AP", "inner_AUC", "train_s"
    ))?;
    for r in records {
        let inner = r
            .inner_auc
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"));
        let flag = if r.diverged { "  (diverged)" } else { "" };
        line(format!(
            "{:>4} {:>6} {:>4} {:>8.4} {:>8.4} {:>10} {:>9.4}  {}{flag}",
            r.run, r.repeat, r.fold, r.auc, r.ap, inner, r.train_seconds, r.params
        ))?;
    }
    Ok(())
}

fn list_algos(as_json: bool) -> Result<(), Error> {
    if as_json {
        let all: Vec<_> = ALL.iter().map(Algorithm::to_json).collect();
        return line(serde_json::to_string_pretty(&all)?);
    }
    for a in ALL {
        let alias = if a.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias: {})", a.aliases.join(", "))
        };
        line(format!(
            "{}{alias} [{}]\n    {}",
            a.name,
            a.family.name(),
            a.about
        ))?;
        if a.specs.is_empty() {
            line("    parameters: none")?;
        }
        let defaults = a.defaults();
        for s in a.specs {
            let d = defaults
                .get(s.name)
                .map_or_else(|| "-".to_owned(), ToString::to_string);
            line(format!(
                "    {:<13} {:<10} {}: {}",
                s.name,
                d,
                s.kind.describe(),
                s.doc
            ))?;
        }
        if !a.grid.is_empty() {
            line(format!("    grid: {}", a.grid.join(" ")))?;
        }
    }
    Ok(())
}
