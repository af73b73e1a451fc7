//! Public-API tests of the evaluation protocol: nested CV and holdout runs
//! (determinism across threads, parameter choice, scaling on training parts only, errors), and
//! learning curves (the folds' own tests are `auc-metrics`' `tests/folds.rs`). Learners are small test doubles defined here; data is made from fixed seeds.

use std::sync::{Arc, Mutex};

use auc_core::Label::{Neg, Pos};
use auc_core::testing::OnlineFit;
use auc_core::{
    BoxedModel, Dataset, DynFit, FitError, Label, OnlineLearner, ParamError, ParamMap, Row, Scorer,
    check,
};
use auc_eval::EvalError;
use auc_eval::curve::{convergence_curve, prequential};
use auc_eval::cv::{Algo, CvConfig, Progress, RunRecord, holdout, nested_cv, summarize};
use auc_eval::folds::repeated_stratified_kfold;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------------------------------------
// Test data and learners.

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut StdRng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Two Gaussian classes in 2-d, positives centred at +1 and negatives at -1 (unit variance),
/// then shifted by 50 and stretched by 10 so that unscaled values are far from [-1, 1].
/// Rows are sorted by class (positives first), as many files are.
fn two_gaussians(n_pos: usize, n_neg: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut values = Vec::new();
    let mut labels = Vec::new();
    for (label, n, centre) in [(Pos, n_pos, 1.0), (Neg, n_neg, -1.0)] {
        for _ in 0..n {
            for _ in 0..2 {
                values.push(50.0 + 10.0 * (centre + normal(&mut rng)));
            }
            labels.push(label);
        }
    }
    Dataset::dense(2, values, labels).unwrap()
}

/// The parameters [`make_drift`] knows, with their defaults.
const KNOWN: &[(&str, f64)] = &[("eta", 0.5), ("sign", 1.0), ("gain", 1.0), ("blowup", 0.0)];

/// The value of `name` in `m`, else its default in [`KNOWN`].
fn value(m: &ParamMap, name: &str) -> f64 {
    m.get(name)
        .and_then(|v| v.as_f64())
        .or_else(|| KNOWN.iter().find(|k| k.0 == name).map(|k| k.1))
        .expect("a known name")
}

/// Parameters of [`Drift`].
#[derive(Clone, Debug)]
struct DriftParams {
    eta: f64,
    sign: f64,
    gain: f64,
    blowup: bool,
}

/// Exponentially weighted class means $m_y \leftarrow m_y + \eta (x - m_y)$ (order sensitive),
/// scoring $f(x) = \text{sign} \cdot \text{gain} \cdot x^\top (m_+ - m_-)$.
struct Drift {
    p: DriftParams,
    means: [Vec<f64>; 2],
}

impl Scorer for Drift {
    fn score(&self, x: Row<'_>) -> f64 {
        if self.p.blowup {
            return f64::INFINITY;
        }
        self.p.sign * self.p.gain * (x.dot(&self.means[0]) - x.dot(&self.means[1]))
    }
}

impl OnlineLearner for Drift {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let m = &mut self.means[y.index()];
        for (j, mj) in m.iter_mut().enumerate() {
            *mj += self.p.eta * (x.get(j) - *mj);
        }
    }
}

impl DriftParams {
    fn build(&self, dim: usize) -> Result<Drift, ParamError> {
        check::positive("eta", self.eta)?;
        check::positive("gain", self.gain)?;
        Ok(Drift {
            p: self.clone(),
            means: [vec![0.0; dim], vec![0.0; dim]],
        })
    }
}

/// The factory handed to the protocol: rejects unknown names and a sign other than +-1 here;
/// `eta` and `gain` are checked when the learner is built.
fn make_drift(m: &ParamMap) -> Result<Box<dyn DynFit>, ParamError> {
    if let Some((name, _)) = m.iter().find(|(k, _)| !KNOWN.iter().any(|n| n.0 == *k)) {
        return Err(ParamError::Unknown {
            name: name.to_owned(),
            known: "eta, sign, gain, blowup".to_owned(),
            suggestion: None,
        });
    }
    let sign = value(m, "sign");
    if ![1.0, -1.0].contains(&sign) {
        return Err(ParamError::OutOfRange {
            name: "sign",
            value: sign,
            allowed: "-1 or 1",
        });
    }
    let p = DriftParams {
        eta: value(m, "eta"),
        sign,
        gain: value(m, "gain"),
        blowup: value(m, "blowup") > 0.5,
    };
    Ok(Box::new(OnlineFit(move |dim, _seed| p.build(dim))))
}

/// What one fit saw.
#[derive(Clone, Debug)]
struct Seen {
    min: Vec<f64>,
    max: Vec<f64>,
    labels: Vec<Label>,
    max_norm: f64,
}

/// Shared logs of a [`Recorder`]: the fits, and the largest absolute feature value scored.
#[derive(Default)]
struct Log {
    fits: Mutex<Vec<Seen>>,
    scored_max: Mutex<f64>,
}

/// A batch "learner" that records what it was trained on and what it scored; fails to train
/// when `fail` is set.
struct Recorder {
    log: Arc<Log>,
    fail: bool,
}

/// The model of a [`Recorder`]: the mean gap, recording every row it scores.
struct RecModel {
    w: Vec<f64>,
    log: Arc<Log>,
}

impl Scorer for RecModel {
    fn score(&self, x: Row<'_>) -> f64 {
        let mut big = self.log.scored_max.lock().unwrap();
        for j in 0..self.w.len() {
            *big = big.max(x.get(j).abs());
        }
        x.dot(&self.w)
    }
}

impl DynFit for Recorder {
    fn fit_dyn(&self, train: &Dataset, _seed: u64) -> Result<BoxedModel, FitError> {
        if self.fail {
            return Err(FitError::Param(ParamError::OutOfRange {
                name: "fail",
                value: 1.0,
                allowed: "0",
            }));
        }
        let p = train.dim();
        let (mut min, mut max) = (vec![f64::INFINITY; p], vec![f64::NEG_INFINITY; p]);
        let (mut sums, mut counts) = ([vec![0.0; p], vec![0.0; p]], [0.0; 2]);
        let mut max_norm: f64 = 0.0;
        for (x, y) in train.iter() {
            for j in 0..p {
                let v = x.get(j);
                min[j] = min[j].min(v);
                max[j] = max[j].max(v);
                sums[y.index()][j] += v;
            }
            counts[y.index()] += 1.0;
            max_norm = max_norm.max(x.norm_sq().sqrt());
        }
        let w = (0..p)
            .map(|j| sums[0][j] / counts[0] - sums[1][j] / counts[1])
            .collect();
        let labels = train.labels().to_vec();
        self.log.fits.lock().unwrap().push(Seen {
            min,
            max,
            labels,
            max_norm,
        });
        Ok(Box::new(RecModel {
            w,
            log: Arc::clone(&self.log),
        }))
    }

    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        None
    }
}

fn grid(axes: &[(&str, &[f64])]) -> Vec<ParamMap> {
    let parsed: Vec<_> = axes
        .iter()
        .map(|(n, v)| auc_eval::grid::GridAxis {
            name: (*n).to_owned(),
            values: v.iter().map(|&x| x.into()).collect(),
        })
        .collect();
    auc_eval::grid::expand(&parsed).unwrap()
}

fn small_cfg() -> CvConfig {
    CvConfig {
        folds: 3,
        repeats: 2,
        inner_folds: 3,
        seed: 11,
        ..CvConfig::default()
    }
}

fn quiet(_: Progress) {}

/// A record without its timings: run, repeat, fold, AUC and AP bits, params, inner AUC bits, n_test.
type Fingerprint = (usize, usize, usize, u64, u64, String, Option<u64>, usize);

/// Everything in the records except the timings, floats as bits.
fn fingerprint(rs: &[RunRecord]) -> Vec<Fingerprint> {
    rs.iter()
        .map(|r| {
            (
                r.run,
                r.repeat,
                r.fold,
                r.auc.to_bits(),
                r.ap.to_bits(),
                r.params.to_string(),
                r.inner_auc.map(f64::to_bits),
                r.n_test,
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Nested CV.

#[test]
fn nested_cv_gives_one_record_per_split_with_params_from_the_grid() {
    let data = two_gaussians(20, 40, 1);
    let g = grid(&[("eta", &[0.25, 0.5]), ("sign", &[-1.0, 1.0])]);
    let algo = Algo {
        base: ParamMap::new(),
        grid: g.clone(),
        make: &make_drift,
    };
    let cfg = small_cfg();
    let ticks = Mutex::new((0u64, 0u64));
    let progress = |p: Progress| {
        let mut t = ticks.lock().unwrap();
        match p {
            Progress::Total(n) => t.0 = n,
            Progress::Tick => t.1 += 1,
        }
    };
    let rs = nested_cv(&data, &algo, &cfg, &progress).unwrap();
    assert_eq!(rs.len(), 6);
    // 6 splits x (3 inner folds x 4 candidates + 1 final fit).
    assert_eq!(*ticks.lock().unwrap(), (78, 78));
    let splits = repeated_stratified_kfold(data.labels(), 3, 2, cfg.seed).unwrap();
    for (i, r) in rs.iter().enumerate() {
        assert_eq!((r.run, r.repeat, r.fold), (i, i / 3, i % 3));
        assert_eq!(r.n_test, splits[i].test.len());
        assert_eq!(r.n_train + r.n_test, 60);
        assert!(g.contains(&r.params), "{} is not a grid point", r.params);
        // The anti-correlated sign is never chosen; the good one separates the classes.
        assert_eq!(r.params.get("sign").and_then(|v| v.as_f64()), Some(1.0));
        assert!(r.inner_auc.unwrap() > 0.7, "inner {:?}", r.inner_auc);
        assert!(r.auc > 0.7 && r.ap > 0.5, "auc {} ap {}", r.auc, r.ap);
        assert_eq!(r.grid_points, 4);
        assert!(r.train_seconds >= 0.0 && r.search_seconds >= 0.0);
    }
    let s = summarize(&rs);
    assert_eq!((s.runs, s.grid_points), (6, 4));
    assert!(s.auc_mean > 0.7 && s.auc_std >= 0.0);
}

#[test]
fn nested_cv_is_identical_across_thread_counts_and_calls() {
    let data = two_gaussians(15, 30, 2);
    let g = grid(&[("eta", &[0.125, 0.5, 0.9]), ("sign", &[1.0, -1.0])]);
    let algo = Algo {
        base: ParamMap::new(),
        grid: g,
        make: &make_drift,
    };
    let cfg = small_cfg();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| nested_cv(&data, &algo, &cfg, &quiet))
            .unwrap()
    };
    let one = fingerprint(&run(1));
    assert_eq!(one, fingerprint(&run(2)));
    assert_eq!(one, fingerprint(&run(2)));
    assert_eq!(one, fingerprint(&run(1)));
    // Another seed gives other splits, hence other numbers.
    let other = nested_cv(&data, &algo, &CvConfig { seed: 12, ..cfg }, &quiet).unwrap();
    assert_ne!(one, fingerprint(&other));
}

#[test]
fn inner_cv_keeps_the_earliest_of_tied_candidates() {
    // Gains that are powers of two scale every score exactly, so all candidates tie bit for bit.
    let data = two_gaussians(12, 24, 3);
    let base: ParamMap = [("eta", 0.5)].into_iter().collect();
    let algo = Algo {
        base,
        grid: grid(&[("gain", &[4.0, 1.0, 2.0])]),
        make: &make_drift,
    };
    let rs = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap();
    assert!(rs.iter().all(|r| r.params.to_string() == "eta=0.5 gain=4"));
}

#[test]
fn candidates_with_non_finite_validation_scores_are_never_chosen() {
    let data = two_gaussians(12, 24, 4);
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("blowup", &[1.0, 0.0])]),
        make: &make_drift,
    };
    let rs = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap();
    assert!(
        rs.iter()
            .all(|r| r.params.get("blowup").and_then(|v| v.as_f64()) == Some(0.0))
    );
    // If every candidate blows up there is nothing to choose.
    let algo = Algo {
        base: [("blowup", 1.0)].into_iter().collect(),
        grid: grid(&[("gain", &[1.0, 2.0])]),
        make: &make_drift,
    };
    let e = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap_err();
    assert_eq!(e, EvalError::NoUsableParams { repeat: 0, fold: 0 });
    // Without a choice, non-finite test scores are a metric error.
    let algo = Algo {
        base: [("blowup", 1.0)].into_iter().collect(),
        grid: vec![],
        make: &make_drift,
    };
    let e = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap_err();
    assert!(matches!(e, EvalError::Metric { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "cannot score the test part of repeat 0, fold 0"
    );
}

#[test]
fn without_a_grid_no_inner_cv_runs() {
    let data = two_gaussians(10, 20, 5);
    for g in [vec![], vec![ParamMap::new()], grid(&[("eta", &[0.25])])] {
        let algo = Algo {
            base: [("gain", 2.0)].into_iter().collect(),
            grid: g,
            make: &make_drift,
        };
        let total = Mutex::new(0);
        let progress = |p: Progress| {
            if let Progress::Total(n) = p {
                *total.lock().unwrap() = n;
            }
        };
        let rs = nested_cv(&data, &algo, &small_cfg(), &progress).unwrap();
        assert_eq!(*total.lock().unwrap(), 6);
        assert!(
            rs.iter()
                .all(|r| r.inner_auc.is_none() && r.grid_points == 1)
        );
        assert!(
            rs.iter()
                .all(|r| r.params.get("gain").and_then(|v| v.as_f64()) == Some(2.0))
        );
    }
}

#[test]
fn scaling_is_fitted_on_each_training_part_only() {
    // One positive has an outlying first feature. Wherever it sits in a test or validation part,
    // its scaled value exceeds 1 (not clipped); every training part seen is exactly [-1, 1].
    let mut data = two_gaussians(15, 30, 6);
    let mut values = Vec::new();
    for i in 0..data.n() {
        values.push(data.row(i).get(0));
        values.push(data.row(i).get(1));
    }
    values[0] = 10_000.0;
    data = Dataset::dense(2, values, data.labels().to_vec()).unwrap();

    let log = Arc::new(Log::default());
    let make = |m: &ParamMap| -> Result<Box<dyn DynFit>, ParamError> {
        let fail = m.get("fail").and_then(|v| v.as_f64()) == Some(1.0);
        Ok(Box::new(Recorder {
            log: Arc::clone(&log),
            fail,
        }))
    };
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("c", &[1.0, 2.0])]),
        make: &make,
    };
    let cfg = small_cfg();
    let rs = nested_cv(&data, &algo, &cfg, &quiet).unwrap();
    assert_eq!(rs.len(), 6);
    let fits = log.fits.lock().unwrap().clone();
    // 6 splits x (3 inner folds x 2 candidates + 1 final fit).
    assert_eq!(fits.len(), 42);
    for seen in &fits {
        for j in 0..2 {
            assert!((seen.min[j] + 1.0).abs() < 1e-12, "min {:?}", seen.min);
            assert!((seen.max[j] - 1.0).abs() < 1e-12, "max {:?}", seen.max);
        }
        // Rows are sorted by class in the file but fed in a shuffled order.
        assert!(
            seen.labels.windows(2).any(|w| w[0] == Neg && w[1] == Pos),
            "unshuffled"
        );
    }
    assert!(
        *log.scored_max.lock().unwrap() > 10.0,
        "the outlier was scaled by a training fit"
    );

    // Unit norm after scaling: every training row has norm at most 1.
    let log2 = Arc::new(Log::default());
    let make2 = |_: &ParamMap| -> Result<Box<dyn DynFit>, ParamError> {
        Ok(Box::new(Recorder {
            log: Arc::clone(&log2),
            fail: false,
        }))
    };
    let algo2 = Algo {
        base: ParamMap::new(),
        grid: vec![],
        make: &make2,
    };
    nested_cv(
        &data,
        &algo2,
        &CvConfig {
            unit_norm: true,
            ..cfg
        },
        &quiet,
    )
    .unwrap();
    assert!(
        log2.fits
            .lock()
            .unwrap()
            .iter()
            .all(|s| s.max_norm <= 1.0 + 1e-12)
    );

    // Without scaling the raw values reach the learner.
    let log3 = Arc::new(Log::default());
    let make3 = |_: &ParamMap| -> Result<Box<dyn DynFit>, ParamError> {
        Ok(Box::new(Recorder {
            log: Arc::clone(&log3),
            fail: false,
        }))
    };
    let algo3 = Algo {
        base: ParamMap::new(),
        grid: vec![],
        make: &make3,
    };
    nested_cv(
        &data,
        &algo3,
        &CvConfig {
            scaling: auc_data::Scaling::None,
            ..cfg
        },
        &quiet,
    )
    .unwrap();
    assert!(log3.fits.lock().unwrap().iter().all(|s| s.max[1] > 20.0));

    // A candidate whose training fails is reported with its parameters.
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("fail", &[0.0, 1.0])]),
        make: &make,
    };
    let e = nested_cv(&data, &algo, &cfg, &quiet).unwrap_err();
    assert!(
        matches!(&e, EvalError::Fit { params, .. } if params.to_string() == "fail=1"),
        "{e:?}"
    );
}

#[test]
fn invalid_grid_values_name_the_parameter() {
    let data = two_gaussians(10, 20, 7);
    let cfg = small_cfg();
    // Rejected when the learner is built (before any fit): eta must be > 0.
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("eta", &[0.5, -1.0])]),
        make: &make_drift,
    };
    let e = nested_cv(&data, &algo, &cfg, &quiet).unwrap_err();
    assert_eq!(e.to_string(), "training with parameters eta=-1 failed");
    let source = std::error::Error::source(&e).unwrap().to_string();
    assert_eq!(
        source,
        "parameter eta = -1 is out of range: it must be finite and > 0"
    );
    // Rejected by the factory: sign must be +-1.
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("sign", &[1.0, 0.0])]),
        make: &make_drift,
    };
    let e = nested_cv(&data, &algo, &cfg, &quiet).unwrap_err();
    assert!(matches!(
        e,
        EvalError::Param(ParamError::OutOfRange { name: "sign", .. })
    ));
    assert!(e.to_string().contains("parameter sign = 0"), "{e}");
    // Unknown names too.
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("etaa", &[1.0, 2.0])]),
        make: &make_drift,
    };
    let e = nested_cv(&data, &algo, &cfg, &quiet).unwrap_err();
    assert!(e.to_string().starts_with("unknown parameter etaa"), "{e}");
}

#[test]
fn too_small_classes_are_reported_with_the_part_that_is_split() {
    let data = two_gaussians(5, 20, 8);
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("eta", &[0.25, 0.5])]),
        make: &make_drift,
    };
    // 6 outer folds of 5 positives: impossible.
    let e = nested_cv(
        &data,
        &algo,
        &CvConfig {
            folds: 6,
            ..small_cfg()
        },
        &quiet,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            EvalError::Folds {
                class: Pos,
                count: 5,
                k: 6,
                ..
            }
        ),
        "{e:?}"
    );
    // 3 outer folds leave 3 or 4 positives per training part: 4 inner folds are impossible.
    let e = nested_cv(
        &data,
        &algo,
        &CvConfig {
            inner_folds: 4,
            ..small_cfg()
        },
        &quiet,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("of the training part of repeat 0, fold"),
        "{e}"
    );
    let e = nested_cv(
        &data,
        &algo,
        &CvConfig {
            inner_folds: 1,
            ..small_cfg()
        },
        &quiet,
    )
    .unwrap_err();
    assert_eq!(e, EvalError::FoldCount { k: 1 });
}

#[test]
fn holdout_runs_repeats_on_a_fixed_test_set() {
    let train = two_gaussians(15, 30, 9);
    let test = two_gaussians(10, 10, 10);
    let algo = Algo {
        base: ParamMap::new(),
        grid: grid(&[("sign", &[-1.0, 1.0])]),
        make: &make_drift,
    };
    let cfg = small_cfg();
    let rs = holdout(&train, &test, &algo, &cfg, &quiet).unwrap();
    assert_eq!(rs.len(), 2);
    for (i, r) in rs.iter().enumerate() {
        assert_eq!(
            (r.run, r.repeat, r.fold, r.n_train, r.n_test),
            (i, i, 0, 45, 20)
        );
        assert_eq!(r.params.get("sign").and_then(|v| v.as_f64()), Some(1.0));
        assert!(r.auc > 0.7);
    }
    let again = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| holdout(&train, &test, &algo, &cfg, &quiet))
        .unwrap();
    assert_eq!(fingerprint(&rs), fingerprint(&again));

    // The scaler is fitted on the training set: a test row far outside its range stays outside.
    let mut far = vec![1e4, 1e4];
    far.extend(std::iter::repeat_n(50.0, 2));
    let test_far = Dataset::dense(2, far, vec![Pos, Neg]).unwrap();
    let log = Arc::new(Log::default());
    let make = |_: &ParamMap| -> Result<Box<dyn DynFit>, ParamError> {
        Ok(Box::new(Recorder {
            log: Arc::clone(&log),
            fail: false,
        }))
    };
    let rec = Algo {
        base: ParamMap::new(),
        grid: vec![],
        make: &make,
    };
    holdout(&train, &test_far, &rec, &cfg, &quiet).unwrap();
    assert!(*log.scored_max.lock().unwrap() > 100.0);
    assert!(
        log.fits
            .lock()
            .unwrap()
            .iter()
            .all(|s| (s.max[0] - 1.0).abs() < 1e-12)
    );

    // A test set with fewer features lines up with the training set (missing features are 0).
    let narrow = Dataset::dense(1, vec![100.0, 0.0], vec![Pos, Neg]).unwrap();
    let rs = holdout(&train, &narrow, &rec, &cfg, &quiet).unwrap();
    assert_eq!(rs[0].n_test, 2);
}

// ---------------------------------------------------------------------------------------------
// Learning curves.

#[test]
fn curves_track_a_learner_along_the_stream() {
    let train = two_gaussians(20, 20, 11);
    let test = two_gaussians(10, 10, 12);
    let params = DriftParams {
        eta: 0.2,
        sign: 1.0,
        gain: 1.0,
        blowup: false,
    };
    let c = convergence_curve(&mut params.build(2).unwrap(), &train, &test, 15).unwrap();
    let at: Vec<usize> = c.iter().map(|p| p.updates).collect();
    assert_eq!(at, vec![15, 30, 40]);
    // Rows are sorted by class: after 15 updates only positives were seen, so the score is
    // x . m_+ (a direction, not yet a separator); after both classes the AUC is high.
    assert!(c[2].auc > 0.8, "{c:?}");

    let mut order: Vec<usize> = (0..40).collect();
    order.reverse();
    let stream = train.select(&order);
    let p = prequential(&mut params.build(2).unwrap(), &stream, 10).unwrap();
    // The stream holds negatives first: no AUC until a positive arrives after 20 examples.
    let at: Vec<usize> = p.points.iter().map(|q| q.updates).collect();
    assert_eq!(at, vec![30, 40]);
    // Checkpoints 10 and 20 saw negatives only.
    assert_eq!(p.skipped, 2);
    assert!(matches!(
        convergence_curve(&mut params.build(2).unwrap(), &train, &test, 0),
        Err(EvalError::Config {
            name: "every",
            value: 0,
            ..
        })
    ));
    let narrow = Dataset::dense(1, vec![0.0, 1.0], vec![Pos, Neg]).unwrap();
    assert_eq!(
        convergence_curve(&mut params.build(2).unwrap(), &train, &narrow, 5),
        Err(EvalError::Dimension { train: 2, test: 1 })
    );
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<CvConfig>();
    check::<RunRecord>();
    check::<EvalError>();
    check::<auc_eval::cv::Summary>();
    check::<auc_eval::folds::Split>();
    check::<auc_eval::curve::CurvePoint>();
    check::<Algo<'static>>();
}

#[test]
fn max_train_subsamples_each_outer_training_part() {
    let data = two_gaussians(30, 60, 5);
    let base: ParamMap = [("eta", 0.5)].into_iter().collect();
    let algo = Algo {
        base,
        grid: grid(&[("gain", &[1.0, 2.0])]),
        make: &make_drift,
    };
    let full = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap();
    assert!(full.iter().all(|r| r.n_train == 60));
    let cfg = CvConfig {
        max_train: Some(25),
        ..small_cfg()
    };
    let capped = nested_cv(&data, &algo, &cfg, &quiet).unwrap();
    assert!(capped.iter().all(|r| r.n_train == 25));
    // Test parts are untouched; the sample is seeded: the same on every call.
    for (a, b) in full.iter().zip(&capped) {
        assert_eq!(a.n_test, b.n_test);
    }
    assert_eq!(
        fingerprint(&capped),
        fingerprint(&nested_cv(&data, &algo, &cfg, &quiet).unwrap())
    );
    // A cap above the part size changes nothing.
    let loose = CvConfig {
        max_train: Some(1000),
        ..small_cfg()
    };
    assert_eq!(
        fingerprint(&full),
        fingerprint(&nested_cv(&data, &algo, &loose, &quiet).unwrap())
    );
}

/// `max_fpr` adds the partial AUC of each test part and leaves everything else as it was; at
/// `max_fpr = 1` it is the AUC itself. Without it, the JSON of a record has no `pauc` key.
#[test]
fn max_fpr_adds_the_partial_auc_and_nothing_else() {
    let data = two_gaussians(18, 30, 3);
    let base: ParamMap = [("eta", 0.5)].into_iter().collect();
    let algo = Algo {
        base,
        grid: grid(&[("gain", &[1.0, 2.0])]),
        make: &make_drift,
    };
    let plain = nested_cv(&data, &algo, &small_cfg(), &quiet).unwrap();
    assert!(plain.iter().all(|r| r.pauc.is_none()));
    let json = serde_json::to_value(&plain[0]).unwrap();
    assert!(json.get("pauc").is_none(), "{json}");
    let summary = serde_json::to_value(summarize(&plain)).unwrap();
    assert!(summary.get("pauc_mean").is_none(), "{summary}");
    for (b, is_whole_curve) in [(0.2, false), (1.0, true)] {
        let cfg = CvConfig {
            max_fpr: Some(b),
            ..small_cfg()
        };
        let with = nested_cv(&data, &algo, &cfg, &quiet).unwrap();
        assert_eq!(fingerprint(&plain), fingerprint(&with));
        for r in &with {
            let p = r.pauc.unwrap();
            assert!((0.0..=1.0).contains(&p), "{p}");
            if is_whole_curve {
                assert_eq!(p.to_bits(), r.auc.to_bits());
            }
        }
        let s = summarize(&with);
        assert!(s.pauc_mean.is_some() && s.pauc_std.is_some());
    }
    let bad = CvConfig {
        max_fpr: Some(0.0),
        ..small_cfg()
    };
    assert!(nested_cv(&data, &algo, &bad, &quiet).is_err());
}

// ---------------------------------------------------------------------------------------------
// Tuning with a calibration: the chosen candidate's held-out scores are kept.

/// The chosen candidate's held-out scores are the same whatever its place in the grid (the job
/// bookkeeping picks its own scores), they rank the classes as the good candidate does (each at
/// its own row: a misplaced score would rank at chance), and none are kept unless a calibration
/// on as many folds is asked for.
#[test]
fn tune_keeps_the_chosen_candidates_held_out_scores_for_a_calibration() {
    use auc_eval::calibration::CalibrationKind;
    use auc_eval::calibration_cv::CalibrationSpec;
    use auc_eval::cv::tune;
    let data = two_gaussians(20, 40, 5);
    let cfg = CvConfig {
        scaling: auc_data::Scaling::None,
        calibration: Some(CalibrationSpec {
            kind: CalibrationKind::Sigmoid,
            folds: 3,
        }),
        ..small_cfg()
    };
    let run = |g: Vec<ParamMap>, cfg: &CvConfig| {
        let algo = Algo {
            base: ParamMap::new(),
            grid: g,
            make: &make_drift,
        };
        tune(&data, &algo, cfg, &quiet).unwrap()
    };
    let good_last = run(grid(&[("sign", &[-1.0, 1.0])]), &cfg);
    let good_first = run(grid(&[("sign", &[1.0, -1.0]), ("gain", &[1.0, 2.0])]), &cfg);
    assert_eq!(
        good_last.params.get("sign").and_then(|v| v.as_f64()),
        Some(1.0)
    );
    let (a, b) = (good_last.held_out.unwrap(), good_first.held_out.unwrap());
    assert_eq!(a.len(), data.n());
    assert_eq!(
        a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    let pooled = auc_eval::metrics::auc(&a, data.labels()).unwrap();
    assert!(pooled > 0.8, "pooled held-out AUC {pooled}");
    // Other fold counts, or no calibration: nothing kept.
    let other = CvConfig {
        calibration: Some(CalibrationSpec {
            kind: CalibrationKind::Sigmoid,
            folds: 5,
        }),
        ..cfg
    };
    assert!(
        run(grid(&[("sign", &[-1.0, 1.0])]), &other)
            .held_out
            .is_none()
    );
    let none = CvConfig {
        calibration: None,
        ..cfg
    };
    assert!(
        run(grid(&[("sign", &[-1.0, 1.0])]), &none)
            .held_out
            .is_none()
    );
}
