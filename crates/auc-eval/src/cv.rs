//! The papers' nested cross-validation protocol [OAUC sec. 6.3] (also ADM's "Experimental testbed
//! and setup"), as conventions section 8 fixes it.
//!
//! For each of $R$ repetitions of a stratified $K$-fold split of the data (outer split):
//!
//! 1. Scaling ([`CvConfig::scaling`]) is fitted on the outer training part only and applied to
//!    both parts; then rows are divided by their norm if [`CvConfig::unit_norm`] (conventions section 1).
//! 2. If there is more than one candidate parameter set, an inner stratified
//!    [`CvConfig::inner_folds`]-fold CV on the outer training part scores each candidate by its
//!    mean validation AUC. Each inner fold re-fits the scaler on its own training rows, starting
//!    from the raw data (never scaling twice).
//! 3. The best candidate (ties go to the earliest in grid order) is re-trained on the whole outer
//!    training part and scored on the test part: AUC and AP (and, with [`CvConfig::max_fpr`],
//!    the partial AUC).
//!
//! Every training part is fed to the learner in a seeded random permutation, because files are
//! often sorted by class and one-pass learners are order sensitive (conventions section 1).
//!
//! Every fit goes through [`DynFit::fit_transductive`] with the (scaled) features of the part it
//! will score: the validation part in the inner CV, the test part in the final fit. Inductive
//! learners ignore them (the trait's default); transductive ones (GAM-CVM, conventions section 7) build
//! their kernel on both, never reading the labels of the scored part.
//!
//! # Seeds and threads
//!
//! Every seed is [`derive_seed`]`(cfg.seed, &[purpose, repeat, fold, inner_fold])`, and the work
//! runs as a flat list of independent jobs with rayon, whose results are reduced in job order. So
//! the records (apart from the timings) are bit-identical for any number of threads. The caller
//! picks the thread count by running inside a `rayon::ThreadPool::install`.
//!
//! # Memory
//!
//! An inner fold's prepared (selected, permuted, scaled) training and validation sets are built
//! once, by the first job that needs them, shared by every candidate's job, and dropped when the
//! last of those jobs finishes; so only a few copies of the data are alive at any time.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $R$ | [`CvConfig::repeats`] | repetitions of the outer split |
//! | $K$ | [`CvConfig::folds`] | outer folds |
//! | $K'$ | [`CvConfig::inner_folds`] | inner folds used to pick the parameters |
//! | $G$ | [`Algo::grid`] | candidate parameter sets |

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use auc_core::{Dataset, DynFit, FitError, Label, ParamError, ParamMap};
use auc_data::Scaling;
use auc_prep::{FeatureMapSpec, OneHotSpec, ScaleEvidence, TransformSpec};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::Serialize;

use crate::calibration_cv::CalibrationSpec;
use crate::delong::{auc_ci, check_level};
pub use crate::error::EvalError;
use crate::folds::{FoldError, Split, derive_seed, repeated_stratified_kfold, stratified_kfold};
use crate::metrics::{MetricError, auc, average_precision};
use crate::partial::{check_max_fpr, partial_auc};
pub use crate::record::{RunRecord, Summary, summarize};
use crate::scoring_rules;

/// Seed-path tag: inner fold assignment of an outer training part.
const TAG_INNER_FOLDS: u64 = 2;
/// Seed-path tag: the order in which an inner training part is fed.
const TAG_INNER_ORDER: u64 = 3;
/// Seed-path tag: the seed passed to `fit_dyn` for an inner fit.
const TAG_INNER_FIT: u64 = 4;
/// Seed-path tag: the order in which an outer training part is fed.
const TAG_OUTER_ORDER: u64 = 5;
/// Seed-path tag: the seed passed to `fit_dyn` for the final fit of a split.
const TAG_OUTER_FIT: u64 = 6;
/// Seed-path tag: the sample kept from an outer training part over [`CvConfig::max_train`].
const TAG_SUBSAMPLE: u64 = 7;
/// Folds of [`tune`].
const TAG_TUNE_FOLDS: u64 = 8;
/// Seed-path tag of the calibration fitted on an outer training part (`CvConfig::calibration`).
const TAG_OUTER_CALIBRATION: u64 = 9;

/// Settings of the protocol. `Default` is the OAUC/ADM protocol [OAUC sec. 6.3]: 4 repetitions
/// of stratified 5-fold CV with a 5-fold inner CV, min-max scaling on, unit norm off.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CvConfig {
    /// Outer folds $K$.
    pub folds: usize,
    /// Repetitions $R$ of the outer split (for [`holdout`]: the number of runs).
    pub repeats: usize,
    /// Inner folds $K'$ of the parameter search.
    pub inner_folds: usize,
    /// Base seed of every random choice.
    pub seed: u64,
    /// Feature scaling, fitted on each training part only (conventions section 1); `Auto` resolves on
    /// each part by its density.
    pub scaling: Scaling,
    /// One-hot indicators of categorical features, fitted on each training part (after
    /// scaling, before the feature map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_hot: Option<OneHotSpec>,
    /// A feature map fitted on each training part (after scaling, before unit norm).
    pub features: Option<FeatureMapSpec>,
    /// Divide every row by its Euclidean norm (after scaling).
    pub unit_norm: bool,
    /// Cap on an outer training part: a larger part is replaced by a seeded uniform sample of
    /// this many rows, drawn without replacement, before its inner CV and final fit. The kernel
    /// experiments of [OAUC sec. 6.3] cap at 10,000. `None` keeps every row.
    pub max_train: Option<usize>,
    /// Also score each test part by the partial AUC up to this false-positive rate
    /// ([`crate::partial::partial_auc`], McClish-standardized): [`RunRecord::pauc`]. `None`
    /// leaves the records as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_fpr: Option<f64>,
    /// Also give each test part's AUC DeLong's confidence interval at this level
    /// ([`crate::delong::auc_ci`]): [`RunRecord::auc_ci`] and [`RunRecord::auc_se`]. `None`
    /// leaves the records as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_level: Option<f64>,
    /// Also fit a calibration on each training part (its held-out scores of an inner
    /// cross-validation, [`CalibrationSpec::fit`]) and score the test part's probabilities:
    /// [`RunRecord::log_loss`] and [`RunRecord::brier`]. `None` leaves the records as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibration: Option<CalibrationSpec>,
}

impl CvConfig {
    /// The preparation stages fitted on each training part.
    pub fn stages(&self) -> TransformSpec {
        TransformSpec {
            scaling: self.scaling,
            one_hot: self.one_hot,
            features: self.features,
            unit_norm: self.unit_norm,
        }
    }
}

impl Default for CvConfig {
    fn default() -> Self {
        Self {
            folds: 5,
            repeats: 4,
            inner_folds: 5,
            seed: 0,
            scaling: Scaling::MinMax,
            one_hot: None,
            features: None,
            unit_norm: false,
            max_train: None,
            max_fpr: None,
            ci_level: None,
            calibration: None,
        }
    }
}

/// What [`Algo::make`] points to: builds the training procedure for one full parameter set.
pub type MakeFit<'a> = dyn Fn(&ParamMap) -> Result<Box<dyn DynFit>, ParamError> + Sync + 'a;

/// An algorithm and the parameter sets to choose from.
pub struct Algo<'a> {
    /// Parameters common to every candidate.
    pub base: ParamMap,
    /// The candidates are `base.merged(g)` for each `g`, in this order. Empty (or one map) means
    /// there is nothing to choose and no inner CV runs.
    pub grid: Vec<ParamMap>,
    /// Builds the training procedure for one full parameter set.
    pub make: &'a MakeFit<'a>,
}

impl Algo<'_> {
    /// The full parameter sets tried, in grid order (at least one).
    pub fn candidates(&self) -> Vec<ParamMap> {
        if self.grid.is_empty() {
            vec![self.base.clone()]
        } else {
            self.grid.iter().map(|g| self.base.merged(g)).collect()
        }
    }
}

impl fmt::Debug for Algo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Algo")
            .field("base", &self.base)
            .field("grid", &self.grid)
            .finish_non_exhaustive()
    }
}

/// Progress reports, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Sent once, first: the number of fits that will run (inner and final).
    Total(u64),
    /// Sent after each fit (and its scoring) finishes.
    Tick,
}

/// Repeated stratified K-fold CV with an inner grid search on each training part; see the
/// [module docs](self). Returns `cfg.repeats * cfg.folds` records ordered by `(repeat, fold)`.
///
/// Errors: a class with fewer than `cfg.folds` examples (or, in some outer training part, fewer
/// than `cfg.inner_folds`), parameters rejected by `algo.make` or by the learner
/// ([`EvalError::Param`], [`EvalError::Fit`] naming the full parameter set), and undefined test
/// metrics. Non-finite *validation* scores only disqualify a candidate (a step size that
/// diverges is a bad choice, not a broken run).
pub fn nested_cv(
    data: &Dataset,
    algo: &Algo<'_>,
    cfg: &CvConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<RunRecord>, EvalError> {
    let splits = repeated_stratified_kfold(data.labels(), cfg.folds, cfg.repeats, cfg.seed)?;
    run_protocol(data, data, splits, algo, cfg, progress)
}

/// A fixed test set: `cfg.repeats` runs (fold 0 each), each choosing parameters by inner CV on
/// all of `train`, then fitting on all of `train` fed in a seeded random order and scoring
/// `test`. The scaler is fitted on `train`. Runs differ in their inner folds and training order.
///
/// If the two sets differ in dimension, both are padded with zero features to the larger one.
/// Errors as [`nested_cv`].
pub fn holdout(
    train: &Dataset,
    test: &Dataset,
    algo: &Algo<'_>,
    cfg: &CvConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<RunRecord>, EvalError> {
    if cfg.repeats == 0 || cfg.repeats > crate::folds::MAX_SPLITS {
        // Checked before the runs are allocated: `--repeats 18446744073709551615` asked for a
        // vector of that many splits (hostile input, item 2).
        return Err(EvalError::Config {
            name: "repeats",
            value: cfg.repeats,
            allowed: "at least 1 and at most 1000000 (at most a million runs)",
        });
    }
    let dim = train.dim().max(test.dim());
    let pad = |d: &Dataset| -> Dataset { d.clone().with_dim(dim) };
    let train: Cow<'_, Dataset> = if train.dim() < dim {
        Cow::Owned(pad(train))
    } else {
        Cow::Borrowed(train)
    };
    let test: Cow<'_, Dataset> = if test.dim() < dim {
        Cow::Owned(pad(test))
    } else {
        Cow::Borrowed(test)
    };
    let splits = (0..cfg.repeats)
        .map(|repeat| Split {
            repeat,
            fold: 0,
            train: (0..train.n()).collect(),
            test: (0..test.n()).collect(),
        })
        .collect();
    run_protocol(&train, &test, splits, algo, cfg, progress)
}

/// What [`tune`] chose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tuned {
    /// The chosen parameters (the full set, base included).
    pub params: ParamMap,
    /// Their mean validation AUC over the folds; `None` when there was nothing to choose.
    pub mean_auc: Option<f64>,
    /// Number of candidate parameter sets.
    pub grid_points: usize,
    /// Compute seconds of the search, summed over its fit-and-score jobs.
    pub seconds: f64,
    /// With [`CvConfig::calibration`] on [`CvConfig::inner_folds`] folds: the chosen
    /// candidate's score of every row by its fit on the folds without the row, in row order,
    /// which is what the calibration is fitted on ([`crate::calibration_cv`]), so `auc train
    /// --tune --calibrate` runs one cross-validation, not two. `None` otherwise, and when there
    /// was nothing to choose.
    pub held_out: Option<Vec<f64>>,
}

/// The inner search of the protocol on all of `data`: stratified `cfg.inner_folds`-fold CV of
/// every candidate (each training part fed in a seeded order, scaled on itself, as in
/// [`nested_cv`]) and the candidate with the best mean validation AUC (ties: the first in grid
/// order). What `auc train --tune` runs before fitting the model it saves; with a calibration
/// asked for on as many folds, it keeps the chosen candidate's held-out scores
/// ([`Tuned::held_out`]).
///
/// Errors as [`nested_cv`]; a class with fewer than `cfg.inner_folds` rows cannot be split.
pub fn tune(
    data: &Dataset,
    algo: &Algo<'_>,
    cfg: &CvConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Tuned, EvalError> {
    let candidates = algo.candidates();
    let fits = candidates
        .iter()
        .map(|p| check_candidate(algo, p, data.dim()))
        .collect::<Result<Vec<_>, _>>()?;
    if candidates.len() == 1 {
        return Ok(Tuned {
            params: candidates[0].clone(),
            mean_auc: None,
            grid_points: 1,
            seconds: 0.0,
            held_out: None,
        });
    }
    if cfg.inner_folds < 2 {
        return Err(EvalError::FoldCount { k: cfg.inner_folds });
    }
    let inner = stratified_kfold(
        data.labels(),
        cfg.inner_folds,
        derive_seed(cfg.seed, &[TAG_TUNE_FOLDS]),
    )?;
    let plan = OuterPlan {
        split: Split {
            repeat: 0,
            fold: 0,
            train: (0..data.n()).collect(),
            test: Vec::new(),
        },
        inner,
    };
    progress(Progress::Total((cfg.inner_folds * candidates.len()) as u64));
    let keep = cfg.calibration.is_some_and(|c| c.folds == cfg.inner_folds);
    let searched = inner_search(data, &[plan], &fits, &candidates, cfg, keep, progress)?
        .pop()
        .expect("one plan gives one choice");
    match searched.choice {
        Choice::Best { index, mean_auc } => Ok(Tuned {
            params: candidates[index].clone(),
            mean_auc: Some(mean_auc),
            grid_points: candidates.len(),
            seconds: searched.seconds,
            held_out: searched.held_out,
        }),
        Choice::Only => unreachable!("more than one candidate"),
        Choice::NoneUsable => Err(EvalError::NoUsableParams { repeat: 0, fold: 0 }),
    }
}

/// A training part ready to fit (selected in a seeded order, scaled) and its evaluation part.
pub(crate) struct Parts {
    pub(crate) train: Dataset,
    pub(crate) eval: Dataset,
}

/// Selects `train_idx` of `train_src` in that order and `eval_idx` of `eval_src`, fits the stages
/// of [`CvConfig::stages`] on the selected training rows and applies them to both.
pub(crate) fn split_parts(
    train_src: &Dataset,
    train_idx: &[usize],
    eval_src: &Dataset,
    eval_idx: &[usize],
    cfg: &CvConfig,
) -> Result<Parts, EvalError> {
    let train = train_src.select(train_idx);
    let eval = eval_src.select(eval_idx);
    // conventions section 1: fitted on the training part only, applied to both, never clipped
    // (a feature map too: conventions section 9).
    let transform = cfg
        .stages()
        .fit(ScaleEvidence::Data(&train))
        .map_err(EvalError::Prep)?;
    if transform.is_identity() {
        return Ok(Parts { train, eval });
    }
    Ok(Parts {
        train: transform.apply_dataset(&train),
        eval: transform.apply_dataset(&eval),
    })
}

/// `idx` shuffled by a generator seeded with `seed`.
pub(crate) fn permuted(mut idx: Vec<usize>, seed: u64) -> Vec<usize> {
    idx.shuffle(&mut StdRng::seed_from_u64(seed));
    idx
}

/// An inner fold's prepared data, built by the first job that needs it and dropped after the
/// last one.
struct Slot {
    data: Mutex<Option<Arc<Parts>>>,
    remaining: AtomicUsize,
}

impl Slot {
    fn new(jobs: usize) -> Self {
        Self {
            data: Mutex::new(None),
            remaining: AtomicUsize::new(jobs),
        }
    }

    /// The prepared data, building it under the lock if no job has yet.
    fn get(
        &self,
        build: impl FnOnce() -> Result<Parts, EvalError>,
    ) -> Result<Arc<Parts>, EvalError> {
        let mut guard = self.data.lock().unwrap_or_else(PoisonError::into_inner);
        match guard.as_ref() {
            Some(p) => Ok(Arc::clone(p)),
            None => {
                let p = Arc::new(build()?);
                *guard = Some(Arc::clone(&p));
                Ok(p)
            }
        }
    }

    /// Marks one job done; the last one frees the data.
    fn release(&self) {
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            *self.data.lock().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }
}

/// One outer split with its inner folds (positions into `split.train`).
struct OuterPlan {
    split: Split,
    inner: Vec<Vec<usize>>,
}

/// Outcome of one inner job: the validation AUC (`None` if the scores were not finite), the
/// seconds it took, and the validation scores when they are kept.
type InnerOutcome = Result<(Option<f64>, f64, Option<Vec<f64>>), EvalError>;

/// What the inner search of one outer plan found.
struct Searched {
    choice: Choice,
    /// Compute seconds of its jobs.
    seconds: f64,
    /// The chosen candidate's validation scores of every row of the plan's training part, in
    /// the order of `split.train`, when kept.
    held_out: Option<Vec<f64>>,
}

/// The shared engine of [`nested_cv`] and [`holdout`]: inner CV on `train_src` rows of each
/// split, final fit, scoring of `test_src` rows.
fn run_protocol(
    train_src: &Dataset,
    test_src: &Dataset,
    splits: Vec<Split>,
    algo: &Algo<'_>,
    cfg: &CvConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<RunRecord>, EvalError> {
    if let Some(b) = cfg.max_fpr {
        // Refused before any fit, rather than after the first one.
        check_max_fpr(b).map_err(|source| EvalError::Metric {
            context: "test parts by a partial AUC".into(),
            source,
        })?;
    }
    if let Some(level) = cfg.ci_level {
        check_level(level).map_err(|source| EvalError::Metric {
            context: "test parts' AUC intervals".into(),
            source,
        })?;
    }
    let candidates = algo.candidates();
    let fits = candidates
        .iter()
        .map(|p| check_candidate(algo, p, train_src.dim()))
        .collect::<Result<Vec<_>, _>>()?;
    let search = candidates.len() > 1;
    if search && cfg.inner_folds < 2 {
        return Err(EvalError::FoldCount { k: cfg.inner_folds });
    }

    // Inner fold assignments: cheap (indices only), made up front so that a class too small for
    // the inner CV is reported before any fitting.
    let mut plans = Vec::with_capacity(splits.len());
    for mut split in splits {
        if let Some(cap) = cfg.max_train.filter(|&c| split.train.len() > c) {
            let seed = derive_seed(
                cfg.seed,
                &[TAG_SUBSAMPLE, split.repeat as u64, split.fold as u64],
            );
            let mut kept = permuted(std::mem::take(&mut split.train), seed);
            kept.truncate(cap);
            kept.sort_unstable();
            split.train = kept;
        }
        let inner = if search {
            let labels: Vec<Label> = split.train.iter().map(|&i| train_src.label(i)).collect();
            let seed = derive_seed(
                cfg.seed,
                &[TAG_INNER_FOLDS, split.repeat as u64, split.fold as u64],
            );
            stratified_kfold(&labels, cfg.inner_folds, seed).map_err(|e| match e {
                FoldError::Folds {
                    class, count, k, ..
                } => EvalError::Folds {
                    class,
                    count,
                    k,
                    part: format!(
                        "the training part of repeat {}, fold {}",
                        split.repeat, split.fold
                    ),
                },
                other => other.into(),
            })?
        } else {
            Vec::new()
        };
        plans.push(OuterPlan { split, inner });
    }

    let inner_jobs = plans.len()
        * if search {
            cfg.inner_folds * candidates.len()
        } else {
            0
        };
    progress(Progress::Total((inner_jobs + plans.len()) as u64));

    let inner = inner_search(train_src, &plans, &fits, &candidates, cfg, false, progress)?;

    let outer: Vec<Result<RunRecord, EvalError>> = plans
        .par_iter()
        .enumerate()
        .map(|(run, plan)| {
            let Searched {
                choice,
                seconds: search_seconds,
                ..
            } = &inner[run];
            let (best, inner_auc) = match choice {
                Choice::Only => (0, None),
                Choice::Best { index, mean_auc } => (*index, Some(*mean_auc)),
                Choice::NoneUsable => {
                    return Err(EvalError::NoUsableParams {
                        repeat: plan.split.repeat,
                        fold: plan.split.fold,
                    });
                }
            };
            let mut record = final_fit(train_src, test_src, plan, fits[best].as_ref(), cfg)
                .map_err(|e| with_params(e, &candidates[best]))?;
            progress(Progress::Tick);
            record.run = run;
            record.params = candidates[best].clone();
            record.inner_auc = inner_auc;
            record.search_seconds = *search_seconds;
            record.grid_points = candidates.len();
            Ok(record)
        })
        .collect();
    outer.into_iter().collect()
}

/// Makes the procedure for one candidate, and when it is a one-pass learner also builds it once,
/// so that bad parameters are reported before any work, in grid order.
fn check_candidate(
    algo: &Algo<'_>,
    params: &ParamMap,
    dim: usize,
) -> Result<Box<dyn DynFit>, EvalError> {
    let fit = (algo.make)(params).map_err(EvalError::Param)?;
    if let Some(Err(e)) = fit.online(dim, 0) {
        return Err(EvalError::Fit {
            params: params.clone(),
            source: FitError::Param(e),
        });
    }
    Ok(fit)
}

/// Fills in the parameters of a fit error raised where they were not known.
fn with_params(e: EvalError, params: &ParamMap) -> EvalError {
    match e {
        EvalError::Fit { source, .. } => EvalError::Fit {
            params: params.clone(),
            source,
        },
        other => other,
    }
}

/// What the inner CV of one outer split decided.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// One candidate only: no search ran.
    Only,
    /// The candidate with the best mean validation AUC.
    Best { index: usize, mean_auc: f64 },
    /// Every candidate had non-finite validation scores in some inner fold.
    NoneUsable,
}

/// Runs every (outer split, inner fold, candidate) job in parallel and picks each split's best
/// candidate. Returns what each split's search found; with `keep`, the chosen candidate's
/// validation scores too (every job's scores are held until the choice: $n G$ numbers).
#[allow(clippy::too_many_arguments)] // The protocol's pieces, passed as they are.
fn inner_search(
    train_src: &Dataset,
    plans: &[OuterPlan],
    fits: &[Box<dyn DynFit>],
    candidates: &[ParamMap],
    cfg: &CvConfig,
    keep: bool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Searched>, EvalError> {
    if candidates.len() <= 1 {
        return Ok(plans
            .iter()
            .map(|_| Searched {
                choice: Choice::Only,
                seconds: 0.0,
                held_out: None,
            })
            .collect());
    }
    let (k_in, g) = (cfg.inner_folds, candidates.len());
    let slots: Vec<Slot> = (0..plans.len() * k_in).map(|_| Slot::new(g)).collect();
    let failed = AtomicBool::new(false);
    let outcomes: Vec<Option<InnerOutcome>> = (0..slots.len() * g)
        .into_par_iter()
        .map(|job| {
            let (slot_index, cand) = (job / g, job % g);
            let (s, j) = (slot_index / k_in, slot_index % k_in);
            let slot = &slots[slot_index];
            // After a failure the remaining jobs are skipped; the first error in job order is
            // reported.
            let out = if failed.load(Ordering::Relaxed) {
                None
            } else {
                let start = Instant::now();
                let plan = &plans[s].split;
                let data = slot.get(|| inner_parts(train_src, &plans[s], j, cfg));
                let seed = derive_seed(
                    cfg.seed,
                    &[
                        TAG_INNER_FIT,
                        plan.repeat as u64,
                        plan.fold as u64,
                        j as u64,
                    ],
                );
                let result = data
                    .and_then(|data| {
                        validation_auc(&data, fits[cand].as_ref(), seed, plan, j, keep)
                    })
                    .map_err(|e| with_params(e, &candidates[cand]))
                    .map(|(a, scores)| (a, start.elapsed().as_secs_f64(), scores));
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                progress(Progress::Tick);
                Some(result)
            };
            slot.release();
            out
        })
        .collect();

    let mut sums = vec![Some(0.0f64); plans.len() * g];
    let mut seconds = vec![0.0f64; plans.len()];
    // With `keep`: each job's validation scores, by job.
    let mut kept: Vec<Option<Vec<f64>>> = if keep {
        vec![None; outcomes.len()]
    } else {
        Vec::new()
    };
    for (job, out) in outcomes.into_iter().enumerate() {
        let Some(out) = out else { continue };
        let (a, secs, scores) = out?;
        let (s, cand) = (job / (g * k_in), job % g);
        seconds[s] += secs;
        let sum = &mut sums[s * g + cand];
        *sum = sum.zip(a).map(|(x, y)| x + y);
        if keep {
            kept[job] = scores;
        }
    }
    let choices: Vec<(Choice, f64)> = (0..plans.len())
        .map(|s| {
            let mut choice = Choice::NoneUsable;
            for (cand, sum) in sums[s * g..(s + 1) * g].iter().enumerate() {
                let Some(sum) = sum else { continue };
                let mean_auc = sum / k_in as f64;
                // Strictly better only: ties keep the earliest candidate in grid order.
                let better = match choice {
                    Choice::Best { mean_auc: best, .. } => mean_auc > best,
                    _ => true,
                };
                if better {
                    choice = Choice::Best {
                        index: cand,
                        mean_auc,
                    };
                }
            }
            (choice, seconds[s])
        })
        .collect();
    Ok(choices
        .into_iter()
        .enumerate()
        .map(|(s, (choice, seconds))| {
            let held_out = match choice {
                Choice::Best { index, .. } if keep => {
                    held_out_of(&plans[s], k_in, g, s, index, &mut kept)
                }
                _ => None,
            };
            Searched {
                choice,
                seconds,
                held_out,
            }
        })
        .collect())
}

/// Candidate `cand`'s validation scores of plan `s` from the kept jobs' scores, placed at each
/// row's position in the plan's training part; `None` if a job kept none.
fn held_out_of(
    plan: &OuterPlan,
    k_in: usize,
    g: usize,
    s: usize,
    cand: usize,
    kept: &mut [Option<Vec<f64>>],
) -> Option<Vec<f64>> {
    let mut scores = vec![0.0; plan.split.train.len()];
    for (j, positions) in plan.inner.iter().enumerate() {
        let job = (s * k_in + j) * g + cand;
        let part = kept.get_mut(job)?.take()?;
        for (&p, v) in positions.iter().zip(part) {
            scores[p] = v;
        }
    }
    Some(scores)
}

/// Inner fold `j` of an outer split: training rows in a seeded order, scaled on themselves, and
/// the validation rows scaled the same way, all taken from the raw rows.
fn inner_parts(
    train_src: &Dataset,
    plan: &OuterPlan,
    j: usize,
    cfg: &CvConfig,
) -> Result<Parts, EvalError> {
    let outer_train = &plan.split.train;
    let val_pos = &plan.inner[j];
    let mut in_val = vec![false; outer_train.len()];
    for &p in val_pos {
        in_val[p] = true;
    }
    let train_idx: Vec<usize> = (0..outer_train.len())
        .filter(|&p| !in_val[p])
        .map(|p| outer_train[p])
        .collect();
    let val_idx: Vec<usize> = val_pos.iter().map(|&p| outer_train[p]).collect();
    let seed = derive_seed(
        cfg.seed,
        &[
            TAG_INNER_ORDER,
            plan.split.repeat as u64,
            plan.split.fold as u64,
            j as u64,
        ],
    );
    split_parts(
        train_src,
        &permuted(train_idx, seed),
        train_src,
        &val_idx,
        cfg,
    )
}

/// Fits on the prepared training rows and returns the validation AUC, or `None` when a score is
/// not finite.
fn validation_auc(
    data: &Parts,
    fit: &dyn DynFit,
    seed: u64,
    split: &Split,
    j: usize,
    keep: bool,
) -> Result<(Option<f64>, Option<Vec<f64>>), EvalError> {
    let fitted = fit
        .fit_transductive(&data.train, &data.eval, seed)
        .map_err(|source| EvalError::Fit {
            params: ParamMap::new(),
            source,
        })?;
    let a = match auc(&fitted.scores, data.eval.labels()) {
        Ok(a) => Some(a),
        Err(MetricError::NonFinite { .. }) => None,
        Err(source) => Err(EvalError::Metric {
            context: format!(
                "validation part of inner fold {j}, repeat {}, fold {}",
                split.repeat, split.fold
            ),
            source,
        })?,
    };
    // The scores move out when kept: no copy.
    Ok((a, keep.then_some(fitted.scores)))
}

/// The final fit of one split on its whole training part (seeded order), scored on its test part.
/// Fills the metric, timing and size fields; the caller fills the rest.
fn final_fit(
    train_src: &Dataset,
    test_src: &Dataset,
    plan: &OuterPlan,
    fit: &dyn DynFit,
    cfg: &CvConfig,
) -> Result<RunRecord, EvalError> {
    let split = &plan.split;
    let (r, f) = (split.repeat as u64, split.fold as u64);
    let order = permuted(
        split.train.clone(),
        derive_seed(cfg.seed, &[TAG_OUTER_ORDER, r, f]),
    );
    let data = split_parts(train_src, &order, test_src, &split.test, cfg)?;
    let start = Instant::now();
    let fitted = fit
        .fit_transductive(
            &data.train,
            &data.eval,
            derive_seed(cfg.seed, &[TAG_OUTER_FIT, r, f]),
        )
        .map_err(|source| EvalError::Fit {
            params: ParamMap::new(),
            source,
        })?;
    let train_seconds = start.elapsed().as_secs_f64();
    let divergence = fitted.model.divergence().map(|d| d.to_string());
    let scores = fitted.scores;
    let metric_err = |source| EvalError::Metric {
        context: format!("test part of repeat {}, fold {}", split.repeat, split.fold),
        source,
    };
    let test_auc = auc(&scores, data.eval.labels()).map_err(metric_err)?;
    let ap = average_precision(&scores, data.eval.labels()).map_err(metric_err)?;
    let pauc = cfg
        .max_fpr
        .map(|b| partial_auc(&scores, data.eval.labels(), b).map(|p| p.standardized))
        .transpose()
        .map_err(metric_err)?;
    let ci = cfg
        .ci_level
        .map(|level| auc_ci(&scores, data.eval.labels(), level))
        .transpose()
        .map_err(metric_err)?;
    let (log_loss, brier) = match &cfg.calibration {
        None => (None, None),
        Some(spec) => {
            let seed = derive_seed(cfg.seed, &[TAG_OUTER_CALIBRATION, r, f]);
            let (c, _) = spec.fit(&data.train, fit, &ParamMap::new(), seed)?;
            let probs = c.probabilities(&scores);
            let labels = data.eval.labels();
            (
                Some(scoring_rules::log_loss(&probs, labels).map_err(metric_err)?),
                Some(scoring_rules::brier_score(&probs, labels).map_err(metric_err)?),
            )
        }
    };
    Ok(RunRecord {
        run: 0,
        repeat: split.repeat,
        fold: split.fold,
        auc: test_auc,
        ap,
        pauc,
        auc_ci: ci.map(|c| [c.lower, c.upper]),
        auc_se: ci.map(|c| c.se),
        log_loss,
        brier,
        params: ParamMap::new(),
        inner_auc: None,
        train_seconds,
        search_seconds: 0.0,
        grid_points: 0,
        n_train: data.train.n(),
        n_test: data.eval.n(),
        diverged: divergence.is_some(),
        divergence,
    })
}

#[cfg(test)]
#[path = "cv_tests.rs"]
mod tests;
