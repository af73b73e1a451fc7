//! The evaluation layer for Python: AUC, average precision, the partial and multiclass AUC and
//! the ROC curve of auc-eval, DeLong's interval and paired test, bootstrap intervals, operating
//! points and the precision-recall curve, the
//! Friedman test with the Nemenyi critical difference, and the papers' nested cross-validation
//! protocol returning the records `auc cv --json` prints. Everything runs with the GIL released.

use auc_core::{Label, ParamMap, ParamValue};
use auc_eval::bootstrap::{BootstrapParams, bootstrap};
use auc_eval::cv::{self, Algo, CvConfig};
use auc_eval::grid::{self, GridAxis};
use auc_eval::multiclass::{Average, Scheme};
use auc_eval::operating::{self, Target};
use auc_eval::{delong, metrics, multiclass, partial, stats};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::json;

use crate::input::{Borrowed, labels};
use crate::model::{param_map, scaling, value_error};

/// Scores and labels borrowed from numpy, as the metrics take them.
fn scored(
    scores: &PyReadonlyArray1<'_, f64>,
    y: &PyReadonlyArray1<'_, bool>,
) -> PyResult<Vec<Label>> {
    labels(y, scores.len()?)
}

/// The length of a borrowed array.
trait Len {
    fn len(&self) -> PyResult<usize>;
}

impl Len for PyReadonlyArray1<'_, f64> {
    fn len(&self) -> PyResult<usize> {
        Ok(self.as_array().len())
    }
}

/// Scores as a slice (a copy only when numpy's array is not contiguous).
fn slice<'a>(scores: &'a PyReadonlyArray1<'_, f64>) -> std::borrow::Cow<'a, [f64]> {
    match scores.as_slice() {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(scores.as_array().to_vec()),
    }
}

/// Area under the ROC curve of `scores` for the boolean labels `y` (true = positive).
#[pyfunction]
pub(crate) fn roc_auc(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
) -> PyResult<f64> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    py.detach(|| metrics::auc(&s, &labels)).map_err(value_error)
}

/// The partial AUC up to false-positive rate `max_fpr`: `(standardized, area)`, McClish's value
/// (scikit-learn's `roc_auc_score(max_fpr=...)`) and the raw area.
#[pyfunction]
pub(crate) fn partial_auc(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
    max_fpr: f64,
) -> PyResult<(f64, f64)> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let p = py
        .detach(|| partial::partial_auc(&s, &labels, max_fpr))
        .map_err(value_error)?;
    Ok((p.standardized, p.area))
}

/// The multiclass AUC of the `n x K` matrix `scores` for class indices `classes` (in `0..K`),
/// `multi_class` `ovr` or `ovo`, `average` `macro` or `weighted`.
#[pyfunction]
pub(crate) fn multiclass_auc(
    py: Python<'_>,
    scores: PyReadonlyArray2<'_, f64>,
    classes: PyReadonlyArray1<'_, i64>,
    multi_class: &str,
    average: &str,
) -> PyResult<f64> {
    let scheme: Scheme = multi_class.parse().map_err(value_error)?;
    let average: Average = average.parse().map_err(value_error)?;
    let view = scores.as_array();
    let k = view.ncols();
    // Row-major, as auc_eval::multiclass reads it (a copy unless numpy's array is C-ordered).
    let flat: std::borrow::Cow<'_, [f64]> = match scores.as_slice() {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(view.iter().copied().collect()),
    };
    let labels: Vec<usize> = classes
        .as_array()
        .iter()
        .map(|&c| usize::try_from(c))
        .collect::<Result<_, _>>()
        .map_err(|_| PyValueError::new_err("class indices must be non-negative"))?;
    py.detach(|| multiclass::multiclass_auc(&flat, k, &labels, scheme, average))
        .map_err(value_error)
}

/// Average precision (scikit-learn's step sum) of `scores` for the boolean labels `y`.
#[pyfunction]
pub(crate) fn average_precision(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
) -> PyResult<f64> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    py.detach(|| metrics::average_precision(&s, &labels))
        .map_err(value_error)
}

/// The ROC curve `(fpr, tpr, thresholds)`, the first threshold `+inf`: every distinct score,
/// or with `drop_intermediate` only the corners (`metrics::roc_curve_corners`, scikit-learn's
/// rule).
#[pyfunction]
#[pyo3(signature = (scores, y, drop_intermediate=false))]
#[allow(clippy::type_complexity)]
pub(crate) fn roc_curve<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray1<'py, f64>,
    y: PyReadonlyArray1<'py, bool>,
    drop_intermediate: bool,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let points = py
        .detach(|| {
            if drop_intermediate {
                metrics::roc_curve_corners(&s, &labels)
            } else {
                metrics::roc_curve(&s, &labels)
            }
        })
        .map_err(value_error)?;
    let fpr: Vec<f64> = points.iter().map(|p| p.fpr).collect();
    let tpr: Vec<f64> = points.iter().map(|p| p.tpr).collect();
    let thr: Vec<f64> = points.iter().map(|p| p.threshold).collect();
    Ok((
        fpr.into_pyarray(py),
        tpr.into_pyarray(py),
        thr.into_pyarray(py),
    ))
}

/// DeLong's interval of the AUC at `level`: `(auc, se, lower, upper)` (Wald, clipped to [0, 1]).
#[pyfunction]
pub(crate) fn auc_ci(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
    level: f64,
) -> PyResult<(f64, f64, f64, f64)> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let c = py
        .detach(|| delong::auc_ci(&s, &labels, level))
        .map_err(value_error)?;
    Ok((c.auc, c.se, c.lower, c.upper))
}

/// The paired DeLong test of `a` against `b` on the rows `y`: `(auc_a, auc_b, delta, se,
/// delta_lower, delta_upper, z, p_value, correlation)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn delong_test(
    py: Python<'_>,
    a: PyReadonlyArray1<'_, f64>,
    b: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
    level: f64,
) -> PyResult<(f64, f64, f64, f64, f64, f64, f64, f64, f64)> {
    let labels = scored(&a, &y)?;
    let (sa, sb) = (slice(&a), slice(&b));
    let t = py
        .detach(|| delong::delong_test(&sa, &sb, &labels, level))
        .map_err(value_error)?;
    Ok((
        t.auc_a,
        t.auc_b,
        t.delta,
        t.se,
        t.delta_ci.0,
        t.delta_ci.1,
        t.z,
        t.p_value,
        t.correlation,
    ))
}

/// Stratified bootstrap percentile intervals as JSON (`auc`, `ap`, optionally `pauc`, each
/// `{lower, upper, se}`, with `replicates`, `seed`, `level`).
#[pyfunction]
#[pyo3(signature = (scores, y, replicates, seed, level, max_fpr=None))]
pub(crate) fn bootstrap_ci(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
    replicates: usize,
    seed: u64,
    level: f64,
    max_fpr: Option<f64>,
) -> PyResult<String> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let params = BootstrapParams {
        replicates,
        seed,
        level,
        max_fpr,
    };
    let b = py
        .detach(|| bootstrap(&s, &labels, &params))
        .map_err(value_error)?;
    serde_json::to_string(&b).map_err(value_error)
}

/// The operating point of one target (`recall=0.9`, `precision=0.5`, `fpr=0.01`,
/// `cost=5:1`): `(threshold, tpr, fpr, precision, recall, f1, tp, fp, tn, fn)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn operating_point(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, bool>,
    target: &str,
) -> PyResult<(f64, f64, f64, f64, f64, f64, usize, usize, usize, usize)> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let t: Target = target.parse().map_err(value_error)?;
    let p = py
        .detach(|| operating::operating_points(&s, &labels, &[t]))
        .map_err(|e| match e {
            metrics::MetricError::Setting { value, .. } => PyValueError::new_err(format!(
                "precision={value}: no threshold reaches this precision"
            )),
            other => value_error(other),
        })?[0];
    Ok((
        p.threshold,
        p.tpr,
        p.fpr,
        p.precision,
        p.recall,
        p.f1,
        p.tp,
        p.fp,
        p.tn,
        p.fn_,
    ))
}

/// The precision-recall curve `(precision, recall, thresholds)` as scikit-learn's
/// `precision_recall_curve`: thresholds increasing; precision and recall end with the point
/// (1, 0), which has no threshold.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn pr_curve<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray1<'py, f64>,
    y: PyReadonlyArray1<'py, bool>,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    let labels = scored(&scores, &y)?;
    let s = slice(&scores);
    let curve = py
        .detach(|| operating::pr_curve(&s, &labels))
        .map_err(value_error)?;
    let precision: Vec<f64> = curve.iter().map(|p| p.precision).collect();
    let recall: Vec<f64> = curve.iter().map(|p| p.recall).collect();
    // The end point (1, 0) has no threshold in scikit-learn's arrays.
    let thr: Vec<f64> = curve[..curve.len() - 1]
        .iter()
        .map(|p| p.threshold)
        .collect();
    Ok((
        precision.into_pyarray(py),
        recall.into_pyarray(py),
        thr.into_pyarray(py),
    ))
}

/// The Friedman test (with the Iman-Davenport F) of `scores[observation][method]` (larger is
/// better) at level `alpha`, the average ranks and the Nemenyi critical difference, as JSON.
#[pyfunction]
pub(crate) fn friedman(py: Python<'_>, scores: Vec<Vec<f64>>, alpha: f64) -> PyResult<String> {
    py.detach(|| -> Result<String, stats::StatsError> {
        let ranks = stats::average_ranks(&scores)?;
        let f = stats::friedman(&scores, alpha)?;
        let cd = stats::nemenyi_cd(f.k, f.n, alpha)?;
        let d = f.decision();
        Ok(json!({
            "k": f.k,
            "n": f.n,
            "average_ranks": ranks,
            "chi2": f.chi2,
            "chi2_p_value": f.chi2_p_value,
            "chi2_critical_value": f.chi2_critical_value,
            "ff": if f.ff.is_finite() { json!(f.ff) } else { json!("inf") },
            "df1": f.df1,
            "df2": f.df2,
            "p_value": f.p_value,
            "critical_value": f.critical_value,
            "alpha": f.alpha,
            "rejected": f.rejected,
            "decision": {
                "test": d.name,
                "statistic": if d.statistic.is_finite() { json!(d.statistic) } else { json!("inf") },
                "p_value": d.p_value,
                "critical_value": d.critical_value,
                "rejected": d.rejected,
                "note": d.note,
            },
            "nemenyi_cd": cd,
        })
        .to_string())
    })
    .map_err(value_error)
}

/// The grid's axes: the words `default` and `paper` (the registry's grids) or `(name,
/// JSON list of values)` pairs.
fn axes(
    algo: &auc_learners::Algorithm,
    words: &[String],
    given: &[(String, String)],
) -> PyResult<Vec<ParamMap>> {
    let mut axes: Vec<GridAxis> = Vec::new();
    for w in words {
        let list = match w.as_str() {
            "default" => algo.grid,
            "paper" => algo.paper_grid,
            other => {
                return Err(PyValueError::new_err(format!(
                    "grid words are `default` and `paper`, not {other:?}"
                )));
            }
        };
        for a in list {
            axes.push(grid::parse_grid_arg(a).map_err(value_error)?);
        }
    }
    for (name, values) in given {
        let values: Vec<ParamValue> = serde_json::from_str(values)
            .map_err(|e| value_error(format!("grid values of {name}: {e}")))?;
        axes.push(GridAxis {
            name: name.clone(),
            values,
        });
    }
    grid::expand(&axes).map_err(value_error)
}

/// Repeated stratified K-fold CV with an inner grid search (the papers' protocol): the run
/// records and the summary `auc cv --json` prints, as one JSON object `{runs, summary}`.
#[pyfunction]
#[pyo3(signature = (name, x, y, params, grid_words, grid, repeats, folds, inner_folds, seed, scale, unit_norm, max_train, average))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn nested_cv(
    py: Python<'_>,
    name: &str,
    x: &Bound<'_, PyAny>,
    y: PyReadonlyArray1<'_, bool>,
    params: &str,
    grid_words: Vec<String>,
    grid: Vec<(String, String)>,
    repeats: usize,
    folds: usize,
    inner_folds: usize,
    seed: u64,
    scale: &str,
    unit_norm: bool,
    max_train: Option<usize>,
    average: bool,
) -> PyResult<String> {
    let algo = auc_learners::lookup(name).map_err(value_error)?;
    let base = param_map(params)?;
    algo.check_names(&base).map_err(value_error)?;
    let points = axes(algo, &grid_words, &grid)?;
    for p in &points {
        algo.check_names(p).map_err(value_error)?;
        algo.configure(&base.merged(p)).map_err(value_error)?;
    }
    algo.configure(&base)
        .map_err(value_error)?
        .procedure(average)
        .map_err(value_error)?;
    let cfg = CvConfig {
        folds,
        repeats,
        inner_folds,
        seed,
        scaling: scaling(scale)?,
        one_hot: None,
        features: None,
        unit_norm,
        max_train,
        max_fpr: None,
        ci_level: None,
        calibration: None,
    };
    let borrowed = Borrowed::extract(x)?;
    let rows = borrowed.rows()?;
    let labels = labels(&y, rows.n())?;
    py.detach(|| -> Result<String, String> {
        let data = rows.collect(labels)?;
        let make = move |p: &ParamMap| -> Result<Box<dyn auc_core::DynFit>, auc_core::ParamError> {
            algo.configure(p)?.procedure(average)
        };
        let cv_algo = Algo {
            base,
            grid: points,
            make: &make,
        };
        let start = std::time::Instant::now();
        let records = cv::nested_cv(&data, &cv_algo, &cfg, &|_| {}).map_err(|e| e.to_string())?;
        let summary = cv::summarize(&records);
        let mut s = serde_json::to_value(&summary).map_err(|e| e.to_string())?;
        if let Some(obj) = s.as_object_mut() {
            let (pos, neg) = data.class_counts();
            obj.insert("summary".into(), json!(true));
            obj.insert("algo".into(), json!(algo.name));
            obj.insert("n_examples".into(), json!(data.n()));
            obj.insert("positives".into(), json!(pos));
            obj.insert("negatives".into(), json!(neg));
            obj.insert("repeats".into(), json!(repeats));
            obj.insert("folds".into(), json!(folds));
            obj.insert("inner_folds".into(), json!(inner_folds));
            obj.insert("seed".into(), json!(seed));
            obj.insert("scaling".into(), json!(cfg.scaling.to_string()));
            obj.insert("diverged".into(), json!(summary.diverged_runs > 0));
            obj.insert("wall_seconds".into(), json!(start.elapsed().as_secs_f64()));
        }
        Ok(json!({"runs": records, "summary": s}).to_string())
    })
    .map_err(PyValueError::new_err)
}
