"""auclearn.metrics.roc_auc_score's max_fpr and multi_class/average equal scikit-learn to 1e-12,
on the committed fixtures and on random cases with ties; raw (unnormalized) multiclass scores
equal scikit-learn's definition built from binary AUCs."""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from auclearn import metrics

FIXTURES = Path(__file__).resolve().parents[2] / "auc-metrics" / "test_data" / "partial_multiclass_fixtures.json"
TOL = 1e-12


def load():
    data = json.loads(FIXTURES.read_text())
    assert data["n_partial"] == len(data["partial"]) >= 6
    assert data["n_multiclass"] == len(data["multiclass"]) >= 5
    return data


def labels(s):
    return np.array([1 if c == "1" else 0 for c in s])


@pytest.mark.parametrize("case", load()["partial"], ids=lambda c: c["name"])
def test_partial_fixture_cases(case):
    y, s = labels(case["labels"]), np.array(case["scores"])
    for p in case["points"]:
        ours = metrics.roc_auc_score(y, s, max_fpr=p["max_fpr"])
        assert ours == pytest.approx(p["pauc"], abs=TOL), (p["kind"], p["max_fpr"])
        assert ours == pytest.approx(skm.roc_auc_score(y, s, max_fpr=p["max_fpr"]), abs=TOL)


@pytest.mark.parametrize("case", load()["multiclass"], ids=lambda c: c["name"])
def test_multiclass_fixture_cases(case):
    y, s = np.array(case["labels"]), np.array(case["scores"])
    for m, a in itertools.product(("ovr", "ovo"), ("macro", "weighted")):
        ours = metrics.roc_auc_score(y, s, multi_class=m, average=a)
        assert ours == pytest.approx(case[f"{m}_{a}"], abs=TOL), (m, a)
        assert ours == pytest.approx(skm.roc_auc_score(y, s, multi_class=m, average=a), abs=TOL)


@pytest.mark.parametrize("seed", range(15))
def test_random_partial_auc_with_ties_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 300))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n) + 0.7 * y, int(rng.integers(0, 3)))
    fpr, _, _ = skm.roc_curve(y, s)
    vertices = [b for b in np.unique(fpr) if 0 < b < 1][:5]
    for b in [0.02, 0.1, 0.37, 0.5, 0.8, 1.0, *vertices]:
        assert metrics.roc_auc_score(y, s, max_fpr=b) == pytest.approx(
            skm.roc_auc_score(y, s, max_fpr=b), abs=TOL
        ), b
    # Named labels with pos_label, and {-1, +1}.
    named = np.where(y == 1, "yes", "no")
    assert metrics.roc_auc_score(named, s, pos_label="yes", max_fpr=0.3) == pytest.approx(
        skm.roc_auc_score(y, s, max_fpr=0.3), abs=TOL
    )
    pm = np.where(y == 1, 1, -1)
    assert metrics.roc_auc_score(pm, s, max_fpr=0.3) == pytest.approx(skm.roc_auc_score(pm, s, max_fpr=0.3), abs=TOL)


def probability_rows(rng, n, k, y):
    """Rows summing to 1, leaning to the true class; every column but the last on a grid of 0.1
    (ties), the last 1 minus the others (non-negative: the others are rounded down)."""
    p = 0.6 * rng.dirichlet(np.ones(k), size=n) + 0.4 * np.eye(k)[y]
    p[:, :-1] = np.floor(p[:, :-1] * 10) / 10
    p[:, -1] = 1.0 - p[:, :-1].sum(axis=1)
    return p


@pytest.mark.parametrize("seed", range(15))
def test_random_multiclass_with_ties_equals_sklearn(seed):
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(3, 6))
    n = int(rng.integers(k, 200))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    s = probability_rows(rng, n, k, y)
    names = np.array(["ant", "bee", "cat", "dog", "eel"])[y]  # sorted order is column order
    for m, a in itertools.product(("ovr", "ovo"), ("macro", "weighted")):
        expected = skm.roc_auc_score(y, s, multi_class=m, average=a)
        assert metrics.roc_auc_score(y, s, multi_class=m, average=a) == pytest.approx(expected, abs=TOL)
        assert metrics.roc_auc_score(names, s, multi_class=m, average=a) == pytest.approx(expected, abs=TOL)
    # A Fortran-ordered copy is read in the same row order.
    f = np.asfortranarray(s)
    assert metrics.roc_auc_score(y, f, multi_class="ovo") == pytest.approx(
        skm.roc_auc_score(y, s, multi_class="ovo"), abs=TOL
    )


def ovr_by_binary(y, s, weighted):
    """scikit-learn's one-vs-rest from its binary roc_auc_score, for rows not summing to 1."""
    k = s.shape[1]
    aucs = [skm.roc_auc_score(y == c, s[:, c]) for c in range(k)]
    w = [np.sum(y == c) for c in range(k)] if weighted else None
    return np.average(aucs, weights=w)


def ovo_by_binary(y, s, weighted):
    """Hand and Till's M from scikit-learn's binary roc_auc_score, pair weights (n_a + n_b)/n."""
    pairs, w = [], []
    for a, b in itertools.combinations(range(s.shape[1]), 2):
        rows = (y == a) | (y == b)
        pair = (skm.roc_auc_score(y[rows] == a, s[rows, a]) + skm.roc_auc_score(y[rows] == b, s[rows, b])) / 2
        pairs.append(pair)
        w.append(rows.mean())
    return np.average(pairs, weights=w if weighted else None)


@pytest.mark.parametrize("seed", range(8))
def test_raw_multiclass_scores_need_not_sum_to_one(seed):
    rng = np.random.default_rng(200 + seed)
    k, n = 4, 150
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    s = np.round(rng.normal(size=(n, k)) + np.eye(k)[y], 1)  # margins with ties
    with pytest.raises(ValueError):
        skm.roc_auc_score(y, s, multi_class="ovr")  # scikit-learn wants probabilities
    for weighted in (False, True):
        a = "weighted" if weighted else "macro"
        assert metrics.roc_auc_score(y, s, multi_class="ovr", average=a) == pytest.approx(
            ovr_by_binary(y, s, weighted), abs=TOL
        )
        assert metrics.roc_auc_score(y, s, multi_class="ovo", average=a) == pytest.approx(
            ovo_by_binary(y, s, weighted), abs=TOL
        )


def test_errors_where_sklearn_raises():
    y3 = np.array([0, 1, 2, 0, 1, 2])
    s3 = np.full((6, 3), 1 / 3)
    y2 = np.array([0, 1, 0, 1])
    s2 = np.array([0.1, 0.4, 0.35, 0.8])
    bad = [
        lambda: metrics.roc_auc_score(y3, s3),  # multi_class="raise"
        lambda: metrics.roc_auc_score(y3, s3, multi_class="ovr", max_fpr=0.5),
        lambda: metrics.roc_auc_score(y3, s3, multi_class="ovr", average="micro"),
        lambda: metrics.roc_auc_score(y3, s3, multi_class="bad"),
        lambda: metrics.roc_auc_score(y3, s3[:, :2], multi_class="ovo"),
        lambda: metrics.roc_auc_score(y3[:5], s3, multi_class="ovo"),
        lambda: metrics.roc_auc_score(y2, np.c_[1 - s2, s2], multi_class="ovr"),
        lambda: metrics.roc_auc_score(y2, s2, max_fpr=0.0),
        lambda: metrics.roc_auc_score(y2, s2, max_fpr=1.5),
        lambda: metrics.roc_auc_score(y2, s2, max_fpr=float("nan")),
        lambda: metrics.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3], max_fpr=0.5),
    ]
    for i, f in enumerate(bad):
        with pytest.raises(ValueError):
            f()
    # max_fpr=1 is the AUC; average and multi_class are ignored for binary targets.
    assert metrics.roc_auc_score(y2, s2, max_fpr=1) == metrics.roc_auc_score(y2, s2)
    assert metrics.roc_auc_score(y2, s2, multi_class="ovo", average="weighted") == metrics.roc_auc_score(y2, s2)
