"""Feature maps (issue 22) from Python: the linear estimators' ``features=`` stage and the
``FeatureMap`` transformer, which fits the same Rust stages, so a Pipeline of the two trains the
model the estimator with ``features=`` trains; model files with a map score the same in Python
and with ``auc predict``."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

import auclearn
from auclearn import FeatureMap, OPAUC, OAMgra
from auclearn.metrics import roc_auc_score

from conftest import cli_scores, write_libsvm

KINDS = ["nystroem", "rff", "elm"]


def rings(n=600, seed=0, noise=0.15):
    """Two concentric rings in the plane (inner one positive, radius 1; outer radius 2.5),
    shuffled: no linear scorer ranks them (every direction sees both classes on both sides)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.5).astype(np.int64)
    radius = np.where(y == 1, 1.0, 2.5) + noise * rng.normal(size=n)
    angle = rng.uniform(0.0, 2.0 * np.pi, size=n)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return X, y


def auc(est, X, y):
    return roc_auc_score(y, est.decision_function(X))


# -- the estimators' map ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [OPAUC, OAMgra], ids=["opauc", "oam-gra"])
def test_a_map_ranks_the_rings_no_linear_scorer_ranks(cls):
    X, y = rings()
    linear = auc(cls().fit(X, y), X, y)
    assert linear < 0.7
    got = {}
    for kind, n in [("rff", 300), ("nystroem", 100), ("elm", 300)]:
        est = cls(features=kind, n_features_map=n).fit(X, y)
        got[kind] = auc(est, X, y)
        kind_, size, sigma = est.model_.feature_map
        assert (kind_, size) == (kind, n) and sigma > 0
    assert got["rff"] > 0.95 and got["nystroem"] > 0.95, got
    assert got["elm"] > linear + 0.3, (got, linear)


@pytest.mark.parametrize("kind", KINDS)
def test_the_estimator_records_and_restores_its_map(kind, tmp_path, auc_bin):
    X, y = rings(n=200, seed=1)
    est = OPAUC(features=kind, n_features_map=40, feature_sigma="median", scale="minmax", seed=3)
    est.fit(X, y)
    want = est.scores(X)
    back = auclearn.from_bytes(est.to_bytes())
    assert back.features == kind
    assert back.n_features_map == 40
    # The fitted width, a number: fitting again with it draws the same map.
    assert back.feature_sigma == est.model_.feature_map[2]
    assert back.scale == "minmax" and back.seed == 3
    np.testing.assert_array_equal(back.scores(X), want)
    refit = clone(back).fit(X, y)
    np.testing.assert_array_equal(refit.scores(X), want)
    # The model file: auclearn.load and `auc predict` on a LIBSVM file of the same rows.
    path = tmp_path / "mapped.model"
    est.save(path)
    np.testing.assert_array_equal(auclearn.load(path).scores(X), want)
    svm = tmp_path / "rings.svm"
    write_libsvm(svm, X, np.where(y == 1, 1, -1))
    # The CLI reads the file as sparse rows: the same values, summed in another order.
    np.testing.assert_allclose(cli_scores(auc_bin, path, svm, tmp_path), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "params",
    [
        {"features": "kernel"},
        {"features": "RFF"},
        {"features": 3},
        {"features": "rff", "n_features_map": 0},
        {"features": "rff", "n_features_map": -5},
        {"features": "rff", "n_features_map": 2.5},
        {"features": "rff", "n_features_map": True},
        {"features": "rff", "n_features_map": 100_000},
        {"features": "rff", "feature_sigma": "wide"},
        {"features": "rff", "feature_sigma": -1.0},
        {"features": "nystroem", "feature_sigma": 0},
    ],
    ids=lambda p: ",".join(f"{k}={v!r}" for k, v in p.items()),
)
def test_bad_map_parameters_are_value_errors(params):
    X, y = rings(n=60)
    with pytest.raises(ValueError):
        OPAUC(**params).fit(X, y)


# -- the transformer ----------------------------------------------------------------------------


def mapped_pair(kind, n, sigma, scale, seed, cls=OPAUC):
    """The estimator with the map as a stage, and the Pipeline of FeatureMap and the plain
    estimator, with the same map and learner seed."""
    staged = cls(features=kind, n_features_map=n, feature_sigma=sigma, scale=scale, seed=seed)
    pipe = make_pipeline(
        FeatureMap(kind, n, sigma, scale, seed), cls(features=None, scale="none", seed=seed)
    )
    return staged, pipe


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "n,sigma,scale,seed",
    [(None, "scale", "none", 0), (48, "median", "minmax", 7), (24, 0.8, "maxabs", 11)],
)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_a_pipeline_of_the_map_equals_the_estimator_with_the_map(kind, n, sigma, scale, seed, sparse):
    X, y = rings(n=250, seed=seed)
    X = X + 0.5  # off the origin, so that scaling does something
    data = sp.csr_matrix(X) if sparse else X
    for cls in [OPAUC, OAMgra]:
        staged, pipe = mapped_pair(kind, n, sigma, scale, seed, cls)
        staged.fit(data, y)
        pipe.fit(data, y)
        fm = pipe[0]
        assert staged.model_.feature_map == (kind, fm.map_.feature_map[1], fm.sigma_)
        # Bit for bit: both fit the stages with one function on the same rows and the same
        # seed, the learner sees each mapped row once in the same order (the transformer maps a
        # block of rows with the per-row arithmetic), and scoring maps the rows the same way.
        np.testing.assert_array_equal(pipe.decision_function(data), staged.decision_function(data))
        np.testing.assert_array_equal(pipe[-1].scores(fm.transform(data)), staged.scores(data))
        assert pipe[-1].threshold_ == staged.threshold_


def test_feature_map_attributes_and_output():
    X, y = rings(n=300)
    fm = FeatureMap("rff", 64, sigma=1.5, seed=2).fit(X)
    Z = fm.transform(X)
    assert Z.shape == (300, 64) and Z.dtype == np.float64 and Z.flags.c_contiguous
    assert fm.n_features_in_ == 2 and fm.n_components_ == 64 and fm.sigma_ == 1.5
    assert np.all(np.abs(Z) <= np.sqrt(2.0 / 64) + 1e-15)
    # Dense and sparse, float64 and float32 (converted exactly), and the same rows in any order.
    np.testing.assert_array_equal(fm.transform(sp.csr_matrix(X)), Z)
    np.testing.assert_array_equal(fm.transform(sp.csc_matrix(X)), Z)
    X32 = X.astype(np.float32)
    np.testing.assert_array_equal(fm.transform(X32), fm.transform(X32.astype(np.float64)))
    np.testing.assert_array_equal(fm.transform(np.asfortranarray(X)), Z)
    np.testing.assert_array_equal(fm.transform(X[::-1]), Z[::-1])
    assert fm.get_feature_names_out().tolist() == [f"featuremap{i}" for i in range(64)]
    # Nystroem keeps at most its landmarks, never more than the distinct rows.
    ny = FeatureMap("nystroem", 500).fit(X[:40])
    assert 1 <= ny.n_components_ <= 40
    assert ny.transform(X).shape == (300, ny.n_components_)
    # The "scale" width: sigma^2 = p Var(x) over every entry of the sample.
    assert FeatureMap("elm", 8).fit(X).sigma_ == pytest.approx(np.sqrt(2 * X.var()), rel=1e-12)
    with pytest.raises(ValueError, match="features"):
        fm.transform(X[:, :1])


@pytest.mark.parametrize("kind", KINDS)
def test_many_rows_map_as_each_row_alone(kind):
    # More rows than one block of the transformer (1024): every block, the last one partial,
    # gives each row's own values; and the estimator with the map agrees on all of them.
    X, y = rings(n=2500, seed=6)
    fm = FeatureMap(kind, 50, scale="minmax", seed=1).fit(X)
    Z = fm.transform(X)
    alone = np.vstack([fm.transform(X[i : i + 1]) for i in range(0, 2500, 97)])
    np.testing.assert_array_equal(alone, Z[::97])
    np.testing.assert_array_equal(fm.transform(sp.csr_matrix(X)), Z)
    staged, pipe = mapped_pair(kind, 50, "scale", "minmax", 1)
    np.testing.assert_array_equal(pipe.fit(X, y).decision_function(X), staged.fit(X, y).decision_function(X))


@pytest.mark.parametrize("kind", KINDS)
def test_feature_map_pickles_and_round_trips_its_bytes(kind):
    X, _ = rings(n=200, seed=4)
    fm = FeatureMap(kind, 30, sigma="median", scale="minmax", seed=5).fit(X)
    Z = fm.transform(X)
    again = pickle.loads(pickle.dumps(fm))
    np.testing.assert_array_equal(again.transform(X), Z)
    assert again.get_params() == fm.get_params()
    back = FeatureMap.from_bytes(fm.to_bytes())
    np.testing.assert_array_equal(back.transform(X), Z)
    assert (back.kind, back.n_components, back.sigma, back.scale, back.seed) == (
        kind, 30, fm.sigma_, "minmax", 5,
    )
    assert back.n_features_in_ == 2 and back.n_components_ == fm.n_components_
    # Fitting with the restored parameters gives the same map (the width is now a number).
    np.testing.assert_array_equal(clone(back).fit(X).transform(X), Z)
    with pytest.raises(ValueError, match="transform"):
        FeatureMap.from_bytes(b"not a transform")
    with pytest.raises(ValueError):
        FeatureMap.from_bytes(fm.to_bytes()[:-3])


@pytest.mark.parametrize(
    "params",
    [
        {"kind": "kernel"},
        {"kind": None},
        {"n_components": 0},
        {"n_components": 1.5},
        {"n_components": False},
        {"n_components": 16_385},
        {"sigma": "wide"},
        {"sigma": 0.0},
        {"sigma": float("nan")},
        {"sigma": True},
        {"scale": "standard"},
        {"seed": -1},
        {"seed": 1.0},
    ],
    ids=lambda p: ",".join(f"{k}={v!r}" for k, v in p.items()),
)
def test_feature_map_checks_its_parameters_in_fit(params):
    fm = FeatureMap(**params)  # scikit-learn's convention: nothing is checked before fit
    with pytest.raises(ValueError):
        fm.fit(rings(n=20)[0])


@pytest.mark.parametrize(
    "fm",
    [FeatureMap(), FeatureMap("rff", 16, scale="minmax", seed=1), FeatureMap("elm", 8, sigma="median")],
    ids=["nystroem", "rff-minmax", "elm-median"],
)
def test_feature_map_check_estimator(fm):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(fm, on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:300]) for r in results if r["status"] == "failed"]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert failed == []
    assert len(results) > 30
    # The one check scikit-learn skips by itself: array-API input (it needs array_api_compat).
    assert skipped <= {"check_array_api_input"}, skipped
