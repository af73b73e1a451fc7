"""nested_cv (the papers' protocol) and the Friedman/Nemenyi test."""

import numpy as np
import pytest
from scipy import stats as sps

import auclearn
from auclearn.stats import friedman_nemenyi

from conftest import blobs


def test_nested_cv_runs_and_repeats_exactly():
    X, y = blobs(n=150)
    a = auclearn.nested_cv("opauc", X, y, grid={"eta": [0.01, 0.1], "lam": [0.001]}, repeats=2, folds=3, inner_folds=2, seed=7)
    b = auclearn.nested_cv(auclearn.OPAUC, X, y, grid={"eta": [0.01, 0.1], "lambda": [0.001]}, repeats=2, folds=3, inner_folds=2, seed=7)
    assert [r["auc"] for r in a["runs"]] == [r["auc"] for r in b["runs"]]
    assert len(a["runs"]) == 6
    for r in a["runs"]:
        assert set(r) >= {"run", "repeat", "fold", "auc", "ap", "params", "inner_auc", "train_seconds", "grid_points"}
        assert r["grid_points"] == 2 and r["params"]["lambda"] == 0.001
        assert r["params"]["eta"] in (0.01, 0.1)
        assert 0.5 < r["auc"] <= 1.0
    s = a["summary"]
    assert s["runs"] == 6
    assert s["auc_mean"] == pytest.approx(np.mean([r["auc"] for r in a["runs"]]), abs=1e-12)
    assert s["auc_std"] == pytest.approx(np.std([r["auc"] for r in a["runs"]], ddof=1), abs=1e-12)
    c = auclearn.nested_cv("opauc", X, y, grid=None, repeats=1, folds=2, inner_folds=2, seed=8)
    assert len(c["runs"]) == 2 and c["runs"][0]["inner_auc"] is None
    d = auclearn.nested_cv("opauc", X, y, grid="default", repeats=1, folds=2, inner_folds=2)
    assert d["runs"][0]["grid_points"] > 1


def test_nested_cv_errors():
    X, y = blobs(n=60)
    with pytest.raises(ValueError, match="eta"):
        auclearn.nested_cv("opauc", X, y, grid={"eta": [-1.0]}, repeats=1, folds=2, inner_folds=2)
    with pytest.raises(ValueError, match="unknown algorithm"):
        auclearn.nested_cv("nope", X, y)


def test_friedman_matches_scipy_and_demsar():
    rng = np.random.default_rng(0)
    scores = rng.random((12, 4)) + np.array([0.0, 0.1, 0.2, 0.3])
    out = friedman_nemenyi(scores, names=["a", "b", "c", "d"])
    chi2, p = sps.friedmanchisquare(*scores.T)
    assert out["chi2"] == pytest.approx(chi2, rel=1e-12)
    assert out["chi2_p_value"] == pytest.approx(p, rel=1e-9)
    ranks = sps.rankdata(-scores, axis=1).mean(axis=0)
    assert list(out["average_ranks"].values()) == pytest.approx(ranks.tolist(), abs=1e-12)
    # Iman-Davenport F from the chi-square [Demsar06 sec. 3.2.2].
    n, k = scores.shape
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert out["ff"] == pytest.approx(ff, rel=1e-12)
    assert out["p_value"] == pytest.approx(sps.f.sf(ff, k - 1, (k - 1) * (n - 1)), rel=1e-9)
    # Nemenyi: q_0.05 for k = 4 is 2.569 [Demsar06 Table 5], CD = q sqrt(k(k+1)/(6N)).
    assert out["nemenyi_cd"] == pytest.approx(2.569 * np.sqrt(4 * 5 / (6 * 12)), abs=1e-3)
    for a, b in out["different"]:
        assert abs(out["average_ranks"][a] - out["average_ranks"][b]) > out["nemenyi_cd"]


def test_friedman_errors():
    with pytest.raises(ValueError):
        friedman_nemenyi([1.0, 2.0])
    with pytest.raises(ValueError):
        friedman_nemenyi([[1.0, 2.0]], alpha=0.05)
