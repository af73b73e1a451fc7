"""auclearn.metrics equals scikit-learn to 1e-12 on the committed fixtures and on random cases."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from auclearn import metrics

FIXTURES = Path(__file__).resolve().parents[2] / "auc-metrics" / "test_data" / "metric_fixtures.json"


def load():
    data = json.loads(FIXTURES.read_text())
    assert data["n_cases"] == len(data["cases"]) >= 13
    return data


def labels(s):
    return np.array([1 if c == "1" else 0 for c in s])


@pytest.mark.parametrize("case", load()["cases"], ids=lambda c: c["name"])
def test_fixture_cases(case):
    y, s = labels(case["labels"]), np.array(case["scores"])
    assert metrics.roc_auc_score(y, s) == pytest.approx(case["roc_auc"], abs=1e-12)
    assert metrics.average_precision_score(y, s) == pytest.approx(case["average_precision"], abs=1e-12)
    assert metrics.roc_auc_score(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert metrics.average_precision_score(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)


def test_fixture_roc_curve():
    roc = load()["roc"]
    y, s = labels(roc["labels"]), np.array(roc["scores"])
    fpr, tpr, thr = metrics.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(fpr, roc["fpr"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(tpr, roc["tpr"], rtol=0, atol=1e-12)
    assert [float(t) for t in roc["thresholds"]] == thr.tolist()


@pytest.mark.parametrize("seed", range(20))
def test_random_cases_with_ties_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n), int(rng.integers(0, 3)))  # many ties
    assert metrics.roc_auc_score(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert metrics.average_precision_score(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    for drop in (False, True):
        a = metrics.roc_curve(y, s, drop_intermediate=drop)
        b = skm.roc_curve(y, s, drop_intermediate=drop)
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=0, atol=1e-12)
    # Labels {-1, +1}, booleans and named labels with pos_label.
    pm = np.where(y == 1, 1, -1)
    assert metrics.roc_auc_score(pm, s) == pytest.approx(skm.roc_auc_score(pm, s), abs=1e-12)
    assert metrics.roc_auc_score(y == 1, s) == pytest.approx(skm.roc_auc_score(y == 1, s), abs=1e-12)
    named = np.where(y == 1, "yes", "no")
    assert metrics.average_precision_score(named, s, pos_label="yes") == pytest.approx(
        skm.average_precision_score(named, s, pos_label="yes"), abs=1e-12
    )
    assert metrics.roc_auc_score(named, s) == pytest.approx(skm.roc_auc_score(named, s), abs=1e-12)


def test_errors():
    with pytest.raises(ValueError):
        metrics.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError):
        metrics.roc_auc_score([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError):
        metrics.roc_auc_score([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError):
        metrics.roc_auc_score([0, 1], [0.1])
