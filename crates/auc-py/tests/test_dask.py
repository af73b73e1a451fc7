"""auclearn.dask and auclearn.moments: the batch moment learners fitted from partitions' moments
merged exactly equal the in-memory fit of the same estimator on the same rows, on a two-process
distributed LocalCluster, for every moment learner of the registry, dense and sparse arrays and
DataFrames, several chunkings (one with an empty partition), with and without scaling; with a
feature map, the map fitted from the partitions' surveys is the in-memory one, byte for byte."""

import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import auclearn
from auclearn import moments

from conftest import blobs, cli_scores, write_libsvm

import dask
import dask.array as da
import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

import auclearn.dask as adask

MOMENT = moments.moment_learners()
# Rows per partition: one partition, three unequal ones, seven with an empty one.
CHUNKINGS = {"1": (600,), "3": (200, 150, 250), "7-empty": (100, 0, 90, 110, 100, 50, 150)}
TOL = 1e-10


@pytest.fixture(scope="module")
def client():
    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, Client(cluster) as c:
        yield c


def data(sparse=False):
    X, y = blobs(n=600, p=6, seed=5)
    if sparse:
        rng = np.random.default_rng(7)
        X = sp.csr_matrix(X * (rng.random(X.shape) < 0.4))
    return X, y


def effective_weights(est):
    """Score of each unit vector minus the score of 0: w_j a_j for a linear model whose scaling
    maps x_j to a_j x_j + c_j (a_j is the same in two models of the same scaled data)."""
    p = est.n_features_in_
    basis = np.vstack([np.zeros(p), np.eye(p)])
    s = est.model_.decision_function(basis)
    return s[1:] - s[0]


def rel_diff(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def assert_same_model(got, want, X):
    assert rel_diff(effective_weights(got), effective_weights(want)) <= TOL
    assert rel_diff(got.scores(X), want.scores(X)) <= TOL
    assert got.model_.scaling == want.model_.scaling
    assert got.model_.counts == want.model_.counts
    assert got.model_.positive_labels == want.model_.positive_labels
    assert got.classes_.tolist() == want.classes_.tolist()
    assert got.n_features_in_ == want.n_features_in_


def dask_array(X, chunking, columns=(6,)):
    rows = CHUNKINGS[chunking]
    if sp.issparse(X):
        return da.from_array(X, chunks=(rows, columns), asarray=False, fancy=False)
    return da.from_array(X, chunks=(rows, columns))


def dask_frame(X, y, chunking):
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    df["label"] = y
    bounds = np.cumsum((0,) + CHUNKINGS[chunking])
    parts = [dask.delayed(df.iloc[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    frame = dd.from_delayed(parts, meta=df.iloc[:0])
    return frame[[c for c in df.columns if c != "label"]], frame["label"], df.drop(columns="label")


def test_import_auclearn_does_not_import_dask():
    code = "import sys, auclearn, auclearn.moments; assert 'dask' not in sys.modules, 'dask imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("scale", ["none", "minmax"])
@pytest.mark.parametrize("chunking", list(CHUNKINGS))
@pytest.mark.parametrize("kind", ["dense", "sparse", "frame"])
@pytest.mark.parametrize("name", MOMENT)
def test_dask_fit_equals_in_memory_fit(client, name, kind, chunking, scale):
    X, y = data(sparse=kind == "sparse")
    want = auclearn.Learner(name, scale=scale).fit(X, y)
    if kind == "frame":
        dX, dy, frame = dask_frame(X, y, chunking)
        want = auclearn.Learner(name, scale=scale).fit(frame, y)
        got = adask.fit(name, dX, dy, scale=scale)
        assert got.feature_names_in_.tolist() == list(frame.columns)
        X = frame
    else:
        # Dense arrays come in two column chunks: fit merges them into one.
        dX = dask_array(X, chunking, columns=(6,) if kind == "sparse" else (4, 2))
        dy = da.from_array(y, chunks=(CHUNKINGS[chunking],))
        got = adask.fit(name, dX, dy, scale=scale)
    assert type(got) is type(want)
    assert_same_model(got, want, X)


@pytest.mark.parametrize("name", MOMENT)
def test_float32_fortran_and_numpy_labels(client, name):
    X, y = data()
    X32 = np.asfortranarray(X.astype(np.float32))
    want = auclearn.Learner(name, scale="maxabs").fit(X32, y)
    got = adask.fit(name, da.from_array(X32, chunks=(CHUNKINGS["3"], 6)), y, scale="maxabs")
    assert_same_model(got, want, X32)


@pytest.mark.filterwarnings("ignore:X has feature names")
@pytest.mark.parametrize(
    "labels,pos_label",
    [((3, 7), 3), ((3, 7), None), (("fraud", "ok"), "fraud"), (("fraud", "ok"), None)],
    ids=["int-pos-3", "int-default", "str-pos-fraud", "str-default"],
)
def test_labels_with_pos_label(client, labels, pos_label):
    X, y01 = data()
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else np.int64)[y01]
    name = MOMENT[0]
    dX, dy, frame = dask_frame(X, y, "7-empty")
    # The same numbers in memory, as an array: a dask fit of moments has no table schema.
    want = auclearn.Learner(name, pos_label=pos_label, scale="minmax").fit(frame.to_numpy(), y)
    got = adask.fit(name, dX, dy, pos_label=pos_label, scale="minmax")
    assert_same_model(got, want, frame)
    assert got.model_.positive_rule == want.model_.positive_rule
    assert set(got.predict(frame).tolist()) <= set(labels)


@pytest.mark.parametrize("name", MOMENT)
def test_youden_threshold_and_estimator_behaviour(client, name, tmp_path):
    X, y = data()
    want = auclearn.Learner(name, scale="minmax").fit(X, y)
    dX = dask_array(X, "7-empty")
    dy = da.from_array(y, chunks=(CHUNKINGS["7-empty"],))
    got = adask.fit(name, dX, dy, scale="minmax", threshold="youden", fan_in=2)
    assert abs(got.threshold_ - want.threshold_) <= TOL * max(1.0, abs(want.threshold_))
    assert rel_diff(got.decision_function(X), want.decision_function(X)) <= TOL
    assert (got.predict(X) == want.predict(X)).all()
    zero = adask.fit(name, dX, dy, scale="minmax")
    assert zero.threshold_ == 0.0
    np.testing.assert_array_equal(zero.decision_function(X), zero.scores(X))
    again = pickle.loads(pickle.dumps(got))
    np.testing.assert_array_equal(again.decision_function(X), got.decision_function(X))
    got.save(tmp_path / "m.auc")
    loaded = auclearn.load(tmp_path / "m.auc")
    np.testing.assert_array_equal(loaded.scores(X), got.scores(X))
    assert got.get_params()["scale"] == "minmax"


def test_parameters_are_passed(client):
    X, y = data()
    name = MOMENT[0]
    dX = dask_array(X, "3")
    want = auclearn.Learner(name, lam=0.5).fit(X, y)
    got = adask.fit(name, dX, y, lam=0.5)
    assert got.get_params()["lam"] == 0.5
    assert_same_model(got, want, X)
    default = adask.fit(name, dX, y)
    assert rel_diff(effective_weights(default), effective_weights(got)) > 1e-3


def test_one_class_is_refused(client):
    X, _ = data()
    with pytest.raises(ValueError, match="needs two classes in y, got one class"):
        adask.fit(MOMENT[0], dask_array(X, "3"), np.zeros(600, dtype=int))
    with pytest.raises(ValueError, match="Only binary classification"):
        adask.fit(MOMENT[0], dask_array(X, "3"), np.arange(600) % 3)


def test_non_moment_learner_is_refused_with_the_moment_learners_listed(client):
    others = [n for n in auclearn.ESTIMATORS if n not in MOMENT]
    X, y = data()
    with pytest.raises(ValueError, match="is not fitted from class moments") as info:
        adask.fit(others[0], dask_array(X, "3"), y)
    for name in MOMENT:
        assert name in str(info.value)
    with pytest.raises(ValueError, match="unknown algorithm"):
        adask.fit("no-such-learner", dask_array(X, "3"), y)


def test_mismatched_partitions_are_named(client):
    X, y = data()
    parts = [dask.delayed(X[:300]), dask.delayed(X[300:, :5])]
    dX = da.concatenate(
        [da.from_delayed(parts[0], shape=(300, 6), dtype=float),
         da.from_delayed(parts[1], shape=(300, 6), dtype=float)]
    )
    with pytest.raises(ValueError, match="partition 1 has 5 features but X has 6"):
        adask.fit(MOMENT[0], dX, y)
    short = dd.from_delayed(
        [dask.delayed(pd.Series(y[:300])), dask.delayed(pd.Series(y[300:590]))],
        meta=pd.Series(y[:0]),
    )
    frame = dd.from_delayed(
        [dask.delayed(pd.DataFrame(X[:300])), dask.delayed(pd.DataFrame(X[300:]))],
        meta=pd.DataFrame(X[:0]),
    )
    with pytest.raises(ValueError, match="partition 1: X has 300 rows but y has 290 labels"):
        adask.fit(MOMENT[0], frame, short)
    bad = X.copy()
    bad[450, 2] = np.nan
    with pytest.raises(ValueError, match="partition 2: .*row 100, column 2 is NaN"):
        adask.fit(MOMENT[0], dask_array(bad, "3"), y)
    with pytest.raises(TypeError, match="dask array or a dask DataFrame"):
        adask.fit(MOMENT[0], X, y)


def test_moments_summaries_merge_in_any_grouping_and_fit():
    """auclearn.moments alone (the Spark recipe's calls): per-part summaries merged in two
    different trees fit the model of the whole data."""
    X, y = data(sparse=True)
    cuts = [0, 100, 100, 350, 600]
    parts = [moments.summarize(X[a:b], y[a:b], source=f"part {k}") for k, (a, b) in enumerate(zip(cuts[:-1], cuts[1:]))]
    left = moments.merge(moments.merge(parts[0], parts[1]), moments.merge(parts[2], parts[3]))
    right = moments.merge(parts[3], parts[2], parts[1], parts[0])
    summary = moments.info(left)
    assert summary.n_features == 6 and summary.n_rows == 600
    assert summary.label_counts == {0.0: int((y == 0).sum()), 1.0: int((y == 1).sum())}
    for name in MOMENT:
        want = auclearn.Learner(name, scale="maxabs").fit(X, y)
        for merged in (left, right):
            got = moments.fit(name, merged, scale="maxabs")
            assert_same_model(got, want, X)
    with pytest.raises(ValueError, match="part 1 has 5 features but part 0 has 6"):
        moments.merge(parts[0], moments.summarize(X[:10, :5], y[:10], source="part 1"))
    with pytest.raises(TypeError, match="pass y == pos_label"):
        moments.summarize(X[:10], np.array(["a", "b"] * 5))


def test_moment_files_are_shared_with_the_cli(auc_bin, tmp_path):
    """A summary from Python is a moment file `auc train` reads, and `auc moments` writes one
    that auclearn.moments.fit reads: the two models score alike."""
    X, y01 = data()
    X = np.round(X, 6)
    y = np.where(y01 == 1, 1, -1)
    a, b = tmp_path / "a.mom", tmp_path / "b.mom"
    a.write_bytes(moments.summarize(X[:250], y[:250]))
    svm = tmp_path / "b.libsvm"
    with open(svm, "w") as f:
        for row, label in zip(X[250:], y[250:]):
            f.write(f"{label:+d} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row.tolist()) if v) + "\n")
    subprocess.run([auc_bin, "moments", str(svm), "-o", str(b)], check=True, capture_output=True)
    name = MOMENT[0]
    model = tmp_path / "m.auc"
    subprocess.run(
        [auc_bin, "train", "--algo", name, "--scale", "minmax", "-o", str(model), str(a), str(b)],
        check=True, capture_output=True,
    )
    cli = auclearn.load(model)
    py = moments.fit(name, moments.merge(a.read_bytes(), b.read_bytes(), same_dim=False), scale="minmax")
    want = auclearn.Learner(name, scale="minmax").fit(X, y)
    assert rel_diff(cli.scores(X), want.scores(X)) <= TOL
    assert rel_diff(py.scores(X), want.scores(X)) <= TOL


# -- with a feature map ---------------------------------------------------------------------------

MAP = {"features": "nystroem", "n_features_map": 40}


@pytest.mark.parametrize("scale", ["none", "minmax", "auto"])
@pytest.mark.parametrize("chunking", ["3", "7-empty"])
@pytest.mark.parametrize("kind", ["dense", "sparse", "frame"])
def test_dask_fit_with_a_feature_map_equals_in_memory_fit(client, kind, chunking, scale):
    """The map fitted from the partitions' merged surveys is the in-memory estimator's, bit for
    bit, and the moments of the mapped rows give its model to 1e-10."""
    X, y = data(sparse=kind == "sparse")
    cls = auclearn.estimator_class("opauc-batch")
    assert cls is auclearn.OPAUCbatch
    if kind == "frame":
        dX, dy, X = dask_frame(X, y, chunking)
    else:
        dX = dask_array(X, chunking, columns=(6,) if kind == "sparse" else (4, 2))
        dy = da.from_array(y, chunks=(CHUNKINGS[chunking],))
    want = cls(scale=scale, seed=3, **MAP).fit(X, y)
    got = adask.fit("opauc-batch", dX, dy, scale=scale, seed=3, **MAP)
    assert type(got) is cls
    assert got.get_params() == want.get_params()
    assert got.model_.feature_map == want.model_.feature_map
    assert got.model_.scaling == want.model_.scaling
    assert got.model_.counts == want.model_.counts and got.model_.seed == want.model_.seed
    assert got.n_features_in_ == 6
    assert rel_diff(got.scores(X), want.scores(X)) <= TOL
    fresh = np.random.default_rng(11).normal(size=(50, 6)) * 2
    if kind == "frame":
        fresh = pd.DataFrame(fresh, columns=X.columns)
    assert rel_diff(got.scores(fresh), want.scores(fresh)) <= TOL
    # The transform fitted on the client is the in-memory fit's, byte for byte.
    est = moments._estimator("opauc-batch", None, scale, 3, dict(MAP))
    parts, _, dim, _, _ = adask._split(dX, dy)
    stages = adask._fit_stages(est, parts, dim, fan_in=2)
    fm = auclearn.FeatureMap("nystroem", 40, scale=scale, seed=3).fit(X)
    assert stages == fm.to_bytes()


def test_dask_fit_with_each_map_kind_youden_and_model_files(client, tmp_path, auc_bin):
    X, y = data()
    dX = dask_array(X, "3")
    for kind, n, sigma in [("rff", 32, "median"), ("elm", 24, 1.5)]:
        want = auclearn.OPAUCbatch(features=kind, n_features_map=n, feature_sigma=sigma).fit(X, y)
        got = adask.fit(
            "opauc-batch", dX, y, features=kind, n_features_map=n, feature_sigma=sigma,
            threshold="youden", fan_in=2,
        )
        assert got.model_.feature_map == want.model_.feature_map
        assert rel_diff(got.scores(X), want.scores(X)) <= TOL
        assert abs(got.threshold_ - want.threshold_) <= TOL * max(1.0, abs(want.threshold_))
    got.save(tmp_path / "m.auc")
    write_libsvm(tmp_path / "x.svm", X, np.where(y == 1, 1, -1))
    cli = cli_scores(auc_bin, tmp_path / "m.auc", tmp_path / "x.svm", tmp_path)
    assert rel_diff(cli, got.scores(X)) <= 1e-12
    again = pickle.loads(pickle.dumps(got))
    np.testing.assert_array_equal(again.scores(X), got.scores(X))


def test_dask_fit_with_a_map_refuses_bad_partitions_and_parameters(client):
    X, y = data()
    parts = [dask.delayed(X[:300]), dask.delayed(X[300:, :5])]
    dX = da.concatenate(
        [da.from_delayed(parts[0], shape=(300, 6), dtype=float),
         da.from_delayed(parts[1], shape=(300, 6), dtype=float)]
    )
    with pytest.raises(ValueError, match="partition 1 has 5 features but X has 6"):
        adask.fit("opauc-batch", dX, y, **MAP)
    with pytest.raises(ValueError, match="features must be None, 'nystroem'"):
        adask.fit("opauc-batch", dask_array(X, "3"), y, features="poly")
    with pytest.raises(ValueError, match="n_features_map must be a positive integer"):
        adask.fit("opauc-batch", dask_array(X, "3"), y, features="rff", n_features_map=0)
