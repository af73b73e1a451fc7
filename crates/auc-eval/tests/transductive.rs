//! The protocol shows every fit the features of the part it will score
//! (`DynFit::fit_transductive`), and inductive learners are unaffected by it.

use std::sync::Mutex;

use auc_core::Label::{Neg, Pos};
use auc_core::{
    BoxedModel, Dataset, DynFit, FitError, OnlineLearner, ParamError, ParamMap, Row, Scorer,
    Transductive,
};
use auc_eval::calibration_cv::held_out_scores;
use auc_eval::cv::{Algo, CvConfig, nested_cv};

/// Scores by the first feature; records (training rows, unlabeled rows) of every fit.
struct Recorder {
    seen: Mutex<Vec<(usize, usize)>>,
}

struct FirstFeature;

impl Scorer for FirstFeature {
    fn score(&self, x: Row<'_>) -> f64 {
        x.get(0)
    }
}

impl DynFit for Recorder {
    fn fit_dyn(&self, _train: &Dataset, _seed: u64) -> Result<BoxedModel, FitError> {
        panic!("the protocol must call fit_transductive")
    }

    fn fit_transductive(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        _seed: u64,
    ) -> Result<Transductive, FitError> {
        self.seen.lock().unwrap().push((train.n(), unlabeled.n()));
        let model: BoxedModel = Box::new(FirstFeature);
        let scores = model.score_all(unlabeled);
        Ok(Transductive { model, scores })
    }

    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        None
    }
}

#[test]
fn every_fit_sees_the_part_it_scores() {
    // 20 rows, 10 per class; 5 outer folds (16 train / 4 test), 2 inner folds (8 / 8).
    let values: Vec<f64> = (0..20).map(f64::from).collect();
    let labels = (0..20)
        .map(|i| if i % 2 == 0 { Pos } else { Neg })
        .collect();
    let data = Dataset::dense(1, values, labels).unwrap();
    let grid: Vec<ParamMap> = vec![
        [("a", 1.0)].into_iter().collect(),
        [("a", 2.0)].into_iter().collect(),
    ];
    let cfg = CvConfig {
        folds: 5,
        repeats: 1,
        inner_folds: 2,
        seed: 3,
        scaling: auc_data::Scaling::MinMax,
        one_hot: None,
        features: None,
        unit_norm: false,
        max_train: None,
        max_fpr: None,
        ci_level: None,
        calibration: None,
    };
    let recorder: &'static Recorder = leak();
    let make_static = move |_: &ParamMap| -> Result<Box<dyn DynFit>, ParamError> {
        Ok(Box::new(Shared(recorder)))
    };
    let algo = Algo {
        base: ParamMap::new(),
        grid,
        make: &make_static,
    };
    let records = nested_cv(&data, &algo, &cfg, &|_| {}).unwrap();
    assert_eq!(records.len(), 5);
    let seen = recorder.seen.lock().unwrap().clone();
    // 5 outer splits x 2 inner folds x 2 candidates inner fits, plus 5 final fits.
    assert_eq!(seen.len(), 5 * 2 * 2 + 5);
    assert_eq!(seen.iter().filter(|s| **s == (8, 8)).count(), 20);
    assert_eq!(seen.iter().filter(|s| **s == (16, 4)).count(), 5);
}

/// A `'static` recorder for the `make` closure (the protocol needs `Box<dyn DynFit>`).
fn leak() -> &'static Recorder {
    Box::leak(Box::new(Recorder {
        seen: Mutex::new(Vec::new()),
    }))
}

struct Shared(&'static Recorder);

impl DynFit for Shared {
    fn fit_dyn(&self, t: &Dataset, s: u64) -> Result<BoxedModel, FitError> {
        self.0.fit_dyn(t, s)
    }
    fn fit_transductive(&self, t: &Dataset, u: &Dataset, s: u64) -> Result<Transductive, FitError> {
        self.0.fit_transductive(t, u, s)
    }
    fn online(
        &self,
        d: usize,
        s: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        self.0.online(d, s)
    }
}

/// The held-out scores a calibration is fitted on come from `fit_transductive` too (the
/// recorder panics on `fit_dyn`): each fold is shown to the fit that scores it.
#[test]
fn calibration_folds_are_fitted_transductively() {
    let values: Vec<f64> = (0..20).map(f64::from).collect();
    let labels = (0..20)
        .map(|i| if i % 2 == 0 { Pos } else { Neg })
        .collect();
    let data = Dataset::dense(1, values.clone(), labels).unwrap();
    let rec = Recorder {
        seen: Mutex::new(Vec::new()),
    };
    let scores = held_out_scores(&data, &rec, &ParamMap::new(), 4, 7).unwrap();
    assert_eq!(scores, values);
    let mut seen = rec.seen.into_inner().unwrap();
    seen.sort_unstable();
    assert_eq!(seen, vec![(15, 5); 4]);
}
