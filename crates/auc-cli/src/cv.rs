//! `auc cv`: the papers' nested cross-validation protocol on any learner (`RunArgs`, which
//! `auc curve` shares: the algorithm, its data and how to prepare it).

use std::path::PathBuf;
use std::time::Instant;

use auc_core::{Dataset, ParamMap};
use auc_data::{Layout, PositiveChoice};
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig, RunRecord};
use auc_learners::{Algorithm, Configured, lookup};
use serde_json::json;

use crate::hyper::{HyperArgs, grid_points};
use crate::input::{self, ReadArgs};
use crate::output::{Error, line};
use crate::progress::{Bar, Stderr};
use crate::stage_args::StageArgs;
use auc_stream::memory::{self, Bytes};
use auc_train::{Learner, pool};

/// What both `cv` and `curve` need: an algorithm, its data and how to prepare it.
#[derive(clap::Args, Debug)]
pub(crate) struct RunArgs {
    /// Algorithm name (see `auc algos`). `auc cv` without it: the blend of a Nystroem-kernel
    /// model and boosted trees, the best default measured (docs/results/default-learner.md);
    /// opauc-batch (lambda 2^-10) on a map asked for with --features, opauc-batch on the
    /// features when there are more than 4,096.
    #[arg(long)]
    pub(crate) algo: Option<String>,
    /// Data file(s); repeated files are concatenated in order.
    #[arg(
        value_name = "DATA",
        conflicts_with = "data",
        required_unless_present = "data"
    )]
    files: Vec<PathBuf>,
    /// The data file(s) as a flag: the same as the positional DATA (repeated, concatenated in
    /// order).
    #[arg(long = "data", id = "data", value_name = "DATA")]
    data_flag: Vec<PathBuf>,
    /// Keep only the first N examples.
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// A fixed test set instead of held-out folds.
    #[arg(long)]
    pub(crate) test: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one.
    #[arg(long)]
    pub(crate) average: bool,
    /// Seed of every random choice (folds, training order, the learners' own).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    #[command(flatten)]
    pub(crate) stages: StageArgs,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
    /// Refuse to start when the data and models would need more memory than this (8G, 512M).
    /// Default: three quarters of the least of physical memory, the cgroup's memory limit and RLIMIT_AS / RLIMIT_DATA.
    #[arg(long, value_name = "SIZE")]
    pub(crate) max_memory: Option<Bytes>,
}

impl RunArgs {
    /// The data files, given positionally or with `--data` (clap lets only one of the two be
    /// given, and one must be).
    pub(crate) fn data(&self) -> &[PathBuf] {
        if self.files.is_empty() {
            &self.data_flag
        } else {
            &self.files
        }
    }

    /// The algorithm and its fixed parameters (names checked).
    pub(crate) fn algo(&self) -> Result<(&'static Algorithm, ParamMap), Error> {
        let name = self.algo.as_deref().ok_or("--algo NAME is required here")?;
        let algo = lookup(name)?;
        let params = self.hyper.to_map()?;
        algo.check_names(&params)?;
        crate::training::check_average(algo, self.average)?;
        Ok((algo, params))
    }

    /// The training data and the optional test set, with one dimension and positive class.
    /// Checks, before any fit, the memory of `threads` fits at once of `first` (a configured
    /// `algo`) on `data` and `test`, and of the stages fitted on a training part (the feature
    /// ranges and the scaler are O(p)).
    pub(crate) fn check_fit_memory(
        &self,
        first: &dyn Configured,
        algo: &Algorithm,
        data: &Dataset,
        test: Option<&Dataset>,
        threads: usize,
    ) -> Result<(), Error> {
        let limit = memory::limit(self.max_memory);
        // The learner sees the stages' output: a feature map's or one-hot indicators' features
        // (at most; the fitted stages may give fewer).
        let shape = auc_core::DataShape {
            n: data.n() + test.map_or(0, Dataset::n),
            dim: self.stages.spec().max_output_dim(data.dim()),
            positives: data.class_counts().0,
            negatives: data.class_counts().1,
        };
        let stages = self.stages.spec().fit_bytes(data.dim());
        memory::check(
            first
                .memory_bytes(&shape, self.average)
                .saturating_add(stages)
                .saturating_mul(threads as u64),
            limit,
            &format!("{} fits of {} at once", threads, algo.name),
            "use --threads 1, --max-train N or --hash-bits",
        )?;
        Ok(())
    }

    /// The data (and `--test` data), binarized by the positive class chosen on the training
    /// data, and that choice.
    pub(crate) fn load(&self) -> Result<(Dataset, Option<Dataset>, PositiveChoice), Error> {
        let limit = memory::limit(self.max_memory);
        // Learning from the values as read: refuse those whose squares overflow.
        let mut opts = self.read.options(self.limit)?;
        opts.bounded_values = self.stages.spec().reads_raw_values();
        // The training and test files count LIBSVM indices from one base, decided together
        // (a test file whose feature 0 is never set is 0-based like its training file).
        let all: Vec<&PathBuf> = self.data().iter().chain(&self.test).collect();
        opts = opts.zero_based_for(&all);
        let paths: Vec<&std::path::Path> = self.data().iter().map(|p| p.as_path()).collect();
        let opts = opts.surveyed(&paths)?;
        input::report_schema(&opts);
        let mut train = input::read_with(&opts, self.data(), self.limit)?;
        memory::check(
            train.stored_bytes(),
            limit,
            "the data",
            "use --limit or --hash-bits",
        )?;
        let choice = train.choose_positive(&self.read.positive_rule())?;
        if let Some(note) = self.read.label_note(train.reading()) {
            crate::notes::note(note);
        }
        input::warn_many_labels(&choice, &train);
        let Some(test_path) = &self.test else {
            // The rows move into the dataset (`into_binarized`), not copied.
            let data = train.into_binarized(&choice.known(), Layout::ByDensity)?;
            input::report_positive(&choice, &data);
            return Ok((data, None, choice));
        };
        let mut test_opts = opts.clone();
        test_opts.limit = None;
        let mut test = input::read_with(&test_opts, std::slice::from_ref(test_path), None)?;
        train
            .reading()
            .check_index_base(test.reading(), &test_path.display().to_string())?;
        let dim = train.dim().max(test.dim());
        train = train.with_dim(dim)?;
        test = test.with_dim(dim)?;
        let data = train.into_binarized(&choice.known(), Layout::ByDensity)?;
        input::report_positive(&choice, &data);
        let test = test.into_binarized(&choice.known(), Layout::ByDensity)?;
        Ok((data, Some(test), choice))
    }

    pub(crate) fn config(&self, folds: usize, repeats: usize, inner: usize) -> CvConfig {
        let stages = self.stages.spec();
        CvConfig {
            folds,
            repeats,
            inner_folds: inner,
            seed: self.seed,
            scaling: stages.scaling,
            one_hot: stages.one_hot,
            features: stages.features,
            unit_norm: stages.unit_norm,
            max_train: None,
            max_fpr: None,
            ci_level: None,
            calibration: None,
        }
    }
}

#[derive(clap::Args, Debug)]
pub(crate) struct CvArgs {
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// Outer repetitions (with --test: the number of runs).
    #[arg(long, default_value_t = 4)]
    pub(crate) repeats: usize,
    /// Outer folds.
    #[arg(long, default_value_t = 5)]
    pub(crate) folds: usize,
    /// Inner folds of the grid search.
    #[arg(long, default_value_t = 5)]
    pub(crate) inner_folds: usize,
    /// Train on a seeded uniform sample of at most N rows of each outer training part (the
    /// kernel experiments of [OAUC sec. 6.3] use 10000).
    #[arg(long, value_name = "N")]
    pub(crate) max_train: Option<std::num::NonZeroUsize>,
    /// Also score each test part by the partial AUC over false-positive rates in [0, B], B in
    /// (0, 1], McClish-standardized (scikit-learn's `roc_auc_score(max_fpr=B)`): a `pauc` field
    /// per run and `pauc_mean` / `pauc_std` in the summary.
    #[arg(long, value_name = "B")]
    pub(crate) max_fpr: Option<f64>,
    /// Also give each test part's AUC DeLong's confidence interval (DeLong et al. 1988; Sun and
    /// Xu's algorithm) at level L (default 0.95): `auc_ci` and `auc_se` per run, a CI column in
    /// the table.
    #[arg(long, value_name = "L", num_args = 0..=1, default_missing_value = "0.95")]
    pub(crate) ci: Option<f64>,
    #[command(flatten)]
    pub(crate) calibration: crate::calibration_args::CalibrationArgs,
    /// A grid axis NAME=SPEC: `2^a..2^b` (every power), `2^a..2^b:s` (every s-th), or
    /// `v1,v2,..` (numbers or words). `--grid default` searches the algorithm's default grid.
    #[arg(long = "grid", value_name = "NAME=SPEC")]
    pub(crate) grid: Vec<String>,
    /// Cross-validate every grid point on its own instead of choosing one by inner CV: one
    /// summary per point (a sensitivity analysis; how the defaults were chosen).
    #[arg(long)]
    pub(crate) each: bool,
    /// Worker threads (default: all cores); results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// One JSON object per run, then a summary line (with --each: one summary per point).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the outer splits to FILE as JSON before running (the data files, `--limit`, the
    /// positive labels, and each split's test rows as 0-based row numbers in file order, the
    /// files read one after the other), so that other
    /// tools can be measured on the same splits.
    #[arg(long, value_name = "FILE", conflicts_with = "test")]
    pub(crate) save_splits: Option<PathBuf>,
}

/// `--save-splits`: the outer splits of `cfg` on `data` as JSON (format `auc-splits-1`).
fn save_splits(
    path: &std::path::Path,
    a: &CvArgs,
    data: &Dataset,
    choice: &PositiveChoice,
    cfg: &CvConfig,
) -> Result<(), Error> {
    let splits = auc_eval::folds::repeated_stratified_kfold(
        data.labels(),
        cfg.folds,
        cfg.repeats,
        cfg.seed,
    )?;
    let files: Vec<String> = a
        .run
        .data()
        .iter()
        .map(|p| {
            std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string()
        })
        .collect();
    let body = serde_json::json!({
        "format": "auc-splits-1",
        "data": files,
        "rows": data.n(),
        "limit": a.run.limit,
        "positive_labels": choice.labels,
        "seed": cfg.seed,
        "folds": cfg.folds,
        "repeats": cfg.repeats,
        "splits": splits
            .iter()
            .map(|s| serde_json::json!({"repeat": s.repeat, "fold": s.fold, "test": s.test}))
            .collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string(&body).map_err(|e| e.to_string())?;
    text.push('\n');
    crate::output::write_atomic(path, text.as_bytes())
}

pub(crate) fn cv_cmd(a: CvArgs) -> Result<(), Error> {
    let learner = match &a.run.algo {
        Some(name) => Learner::Named(lookup(name)?),
        None => Learner::Default,
    };
    let mut base = a.run.hyper.to_map()?;
    let (mut algo, defaulted) = auc_train::default_learner::resolve(
        learner,
        &mut base,
        &a.run.stages.spec(),
        "auc cv",
        &Stderr,
    )?;
    algo.check_names(&base)?;
    crate::training::check_average(algo, a.run.average)?;
    if let Some(b) = a.max_fpr {
        auc_eval::partial::check_max_fpr(b).map_err(|e| format!("--max-fpr {b}: {e}"))?;
    }
    let points = grid_points(algo, &a.grid)?;
    // Check every parameter combination before reading data or training anything.
    for p in &points {
        algo.configure(&base.merged(p))?;
    }
    let mut first = algo.configure(&base.merged(points.first().unwrap_or(&ParamMap::new())))?;
    first.procedure(a.run.average)?;
    let (data, test, choice) = a.run.load()?;
    input::need_both_classes(&data, "cross-validation")?;
    let mut points = points;
    if let Some(wide) =
        auc_train::default_learner::wide_instead(defaulted, data.dim(), "auc cv", &Stderr)
    {
        (algo, base, points) = (wide, ParamMap::new(), vec![ParamMap::new()]);
        first = algo.configure(&base)?;
    }
    let threads = a.threads.unwrap_or_else(rayon::current_num_threads).max(1);
    a.run
        .check_fit_memory(first.as_ref(), algo, &data, test.as_ref(), threads)?;
    let mut cfg = a.run.config(a.folds, a.repeats, a.inner_folds);
    cfg.max_train = a.max_train.map(std::num::NonZeroUsize::get);
    cfg.max_fpr = a.max_fpr;
    cfg.ci_level = a.ci;
    cfg.calibration = a.calibration.spec();
    if let Some(path) = &a.save_splits {
        save_splits(path, &a, &data, &choice, &cfg)?;
    }
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
        crate::notes::warning(format_args!(
            "{} of {} runs diverged ({})",
            summary.diverged_runs,
            summary.runs,
            first.unwrap_or("see the JSON records")
        ));
    }
    let dataset = input::dataset_name(a.run.data());
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
            obj.insert(
                "scaling".into(),
                json!(a.run.stages.spec().scaling.to_string()),
            );
            obj.insert("diverged".into(), json!(summary.diverged_runs > 0));
            obj.insert("wall_seconds".into(), json!(total));
        }
        return line(s);
    }
    print_table(&records)?;
    line(format!(
        "{} on {dataset}: {} runs, AUC {:.4} ± {:.4}, AP {:.4} ± {:.4}{} ({} grid points, {:.2} s)",
        algo.name,
        summary.runs,
        summary.auc_mean,
        summary.auc_std,
        summary.ap_mean,
        summary.ap_std,
        optional_metrics_text(&summary, cfg.max_fpr),
        points.len().max(1),
        total
    ))
}

/// `auc cv --each`: the outer protocol for every grid point alone, one summary per point.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cv_each(
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
    let dataset = input::dataset_name(a.run.data());
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
                "{full}: {} runs, AUC {:.4} ± {:.4}, AP {:.4} ± {:.4}{}{}",
                s.runs,
                s.auc_mean,
                s.auc_std,
                s.ap_mean,
                s.ap_std,
                optional_metrics_text(&s, cfg.max_fpr),
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

/// The summary line's optional metrics: `, pAUC(FPR <= B) m ± s` with `--max-fpr`, `, log
/// loss m ± s, Brier m ± s` with `--calibrate`; nothing without them (the line stays as it was).
fn optional_metrics_text(s: &cv::Summary, max_fpr: Option<f64>) -> String {
    let mut out = match (s.pauc_mean, s.pauc_std, max_fpr) {
        (Some(m), Some(sd), Some(b)) => format!(", pAUC(FPR <= {b}) {m:.4} ± {sd:.4}"),
        _ => String::new(),
    };
    if let (Some(m), Some(sd)) = (s.log_loss_mean, s.log_loss_std) {
        out.push_str(&format!(", log loss {m:.4} ± {sd:.4}"));
    }
    if let (Some(m), Some(sd)) = (s.brier_mean, s.brier_std) {
        out.push_str(&format!(", Brier {m:.4} ± {sd:.4}"));
    }
    out
}

pub(crate) fn print_table(records: &[RunRecord]) -> Result<(), Error> {
    // The DeLong column appears only with `auc cv --ci`, so the table is otherwise unchanged.
    let with_ci = records.iter().any(|r| r.auc_ci.is_some());
    let ci_head = if with_ci {
        format!(" {:>17}", "AUC_CI")
    } else {
        String::new()
    };
    line(format!(
        "{:>4} {:>6} {:>4} {:>8}{ci_head} {:>8} {:>10} {:>9}  params",
        "run", "repeat", "fold", "AUC", "AP", "inner_AUC", "train_s"
    ))?;
    for r in records {
        let inner = r
            .inner_auc
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"));
        let flag = if r.diverged { "  (diverged)" } else { "" };
        let ci = match r.auc_ci {
            Some([lo, hi]) => format!(" {:>17}", format!("[{lo:.4}, {hi:.4}]")),
            None if with_ci => format!(" {:>17}", "-"),
            None => String::new(),
        };
        line(format!(
            "{:>4} {:>6} {:>4} {:>8.4}{ci} {:>8.4} {:>10} {:>9.4}  {}{flag}",
            r.run, r.repeat, r.fold, r.auc, r.ap, inner, r.train_seconds, r.params
        ))?;
    }
    Ok(())
}
