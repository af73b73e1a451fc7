"""auclearn.metrics' DeLong interval and paired test against the numpy O(mn) definition
(crates/auc-metrics/test_data/gen_delong_fixtures.py) to 1e-10, and its operating points and
precision-recall curve against scikit-learn's roc_curve / precision_recall_curve."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from auclearn import metrics

DATA = Path(__file__).resolve().parents[2] / "auc-metrics" / "test_data"
TOL = 1e-10


def load(name):
    return json.loads((DATA / name).read_text())


def labels(s):
    return np.array([1 if c == "1" else 0 for c in s])


@pytest.mark.parametrize("case", load("delong_fixtures.json")["cases"], ids=lambda c: c["name"])
def test_delong_equals_the_definition(case):
    y, a, b = labels(case["labels"]), np.array(case["a"]), np.array(case["b"])
    for ci in case["ci_a"]:
        got = metrics.roc_auc_ci(y, a, level=ci["level"])
        assert got.auc == pytest.approx(case["auc_a"], abs=TOL)
        assert got.lower == pytest.approx(ci["lower"], abs=TOL)
        assert got.upper == pytest.approx(ci["upper"], abs=TOL)
        assert got.se**2 == pytest.approx(case["var_a"], abs=TOL)
        assert got.auc == pytest.approx(skm.roc_auc_score(y, a), abs=1e-12)
    for t in case["test"]:
        got = metrics.delong_test(y, a, b, level=t["level"])
        assert got.delta == pytest.approx(t["delta"], abs=TOL)
        assert got.z == pytest.approx(t["z"], abs=TOL)
        assert got.p_value == pytest.approx(t["p_value"], abs=TOL, rel=1e-9)
        assert got.delta_ci == pytest.approx(tuple(t["delta_ci"]), abs=TOL)
        assert got.se == pytest.approx(t["se"], abs=TOL)


def test_bootstrap_is_seeded():
    case = load("delong_fixtures.json")["cases"][2]
    y, a = labels(case["labels"]), np.array(case["a"])
    one = metrics.bootstrap_ci(y, a, n_bootstraps=200, seed=3, max_fpr=0.2)
    assert one == metrics.bootstrap_ci(y, a, n_bootstraps=200, seed=3, max_fpr=0.2)
    assert one != metrics.bootstrap_ci(y, a, n_bootstraps=200, seed=4, max_fpr=0.2)
    ap = skm.average_precision_score(y, a)
    assert one["ap"]["lower"] < ap < one["ap"]["upper"]
    assert one["pauc"]["lower"] < skm.roc_auc_score(y, a, max_fpr=0.2) < one["pauc"]["upper"]
    assert metrics.bootstrap_ci(y, a, n_bootstraps=20)["pauc"] is None


def _target_kwargs(target):
    kind, value = target.split("=")
    if kind == "cost":
        return {"cost": tuple(float(v) for v in value.split(":"))}
    return {kind: float(value)}


@pytest.mark.parametrize("case", load("operating_fixtures.json")["cases"], ids=lambda c: c["name"])
def test_operating_points_equal_scikit_learn(case):
    y, s = labels(case["labels"]), np.array(case["scores"])
    for p in case["points"]:
        kwargs = _target_kwargs(p["target"])
        want = p["point"]
        if want is None:
            with pytest.raises(ValueError, match="no threshold reaches"):
                metrics.operating_point(y, s, **kwargs)
            continue
        got = metrics.operating_point(y, s, **kwargs)
        t = np.inf if want["threshold"] is None else want["threshold"]
        assert got.threshold == t, p["target"]
        assert (got.tp, got.fp, got.tn, got.fn) == (want["tp"], want["fp"], want["tn"], want["fn"])
        for key in ["precision", "recall", "fpr", "f1"]:
            assert getattr(got, key) == pytest.approx(want[key], abs=1e-12), key
    prec, rec, thr = metrics.precision_recall_curve(y, s)
    sp, sr, st = skm.precision_recall_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(prec, sp, atol=1e-12)
    np.testing.assert_allclose(rec, sr, atol=1e-12)
    np.testing.assert_array_equal(thr, st)


def test_bad_arguments_raise():
    y, s = np.array([0, 1, 0, 1]), np.array([0.4, 0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="exactly one"):
        metrics.operating_point(y, s)
    with pytest.raises(ValueError, match="exactly one"):
        metrics.operating_point(y, s, recall=0.5, fpr=0.1)
    with pytest.raises(ValueError, match="expected a number in"):
        metrics.operating_point(y, s, recall=1.5)
    with pytest.raises(ValueError, match="level"):
        metrics.roc_auc_ci(y, s, level=1.0)
    with pytest.raises(ValueError, match="at least 2 positives"):
        metrics.roc_auc_ci([0, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="y_score_b"):
        metrics.delong_test(y, s, s[:3])
    with pytest.raises(ValueError, match="replicates"):
        metrics.bootstrap_ci(y, s, n_bootstraps=1)
