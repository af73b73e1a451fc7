"""Model files are shared with the `auc` command: a model trained in Python scores identically
with `auc predict`, and one trained by `auc train` scores identically in Python; nested_cv equals
`auc cv --json` on the same rows."""

import json
import subprocess

import numpy as np
import pytest

import auclearn

from conftest import ALL_CLASSES, blobs, cli_scores, ids, small, write_libsvm


def data(n=150, p=5, seed=3):
    X, y01 = blobs(n=n, p=p, seed=seed)
    return np.round(X, 6), np.where(y01 == 1, 1, -1)


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_python_model_scores_identically_with_auc_predict(cls, auc_bin, tmp_path):
    X, y = data()
    for scale in ["none", "minmax"]:
        est = small(cls, scale=scale).fit(X, y)
        model = tmp_path / f"py-{scale}.model"
        est.save(model)
        svm = tmp_path / "data.svm"
        write_libsvm(svm, X, y)
        got = cli_scores(auc_bin, model, svm, tmp_path)
        want = est.scores(X)
        # The CLI reads the LIBSVM file as sparse rows: equal up to the order of the sums.
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=scale)


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_cli_model_scores_identically_in_python(cls, auc_bin, tmp_path):
    X, y = data(seed=4)
    svm = tmp_path / "train.svm"
    write_libsvm(svm, X, y)
    model = tmp_path / "cli.model"
    extra = ["--budget", "20"] if "budget" in cls().get_params() else []
    subprocess.run(
        [auc_bin, "train", "--algo", cls._row["name"], "--scale", "minmax", "--output", str(model), *extra, str(svm)],
        check=True,
        capture_output=True,
        text=True,
    )
    est = auclearn.load(model)
    assert type(est) is cls
    assert est.scale == "minmax" and est.n_features_in_ == X.shape[1]
    got = est.scores(X)
    want = cli_scores(auc_bin, model, svm, tmp_path)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    # Fitting the same rows in Python (as sparse rows, like the CLI reads them) gives the same model.
    import scipy.sparse as sp

    params = {k: v for k, v in est.get_params().items()}
    again = cls(**params).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(again.scores(X), want, rtol=1e-10, atol=1e-12)


def test_partial_fit_equals_auc_train_resume(auc_bin, tmp_path):
    X, y = data(n=200, seed=5)
    a, b = tmp_path / "a.svm", tmp_path / "b.svm"
    write_libsvm(a, X[:120], y[:120])
    write_libsvm(b, X[120:], y[120:])
    m0, m1 = tmp_path / "m0.model", tmp_path / "m1.model"
    run = lambda *args: subprocess.run([auc_bin, *args], check=True, capture_output=True, text=True)  # noqa: E731
    run("train", "--algo", "opauc", "--scale", "none", "--output", str(m0), str(a))
    run("train", "--resume", str(m0), "--output", str(m1), str(b))
    est = auclearn.load(m0)
    est.partial_fit(X[120:], y[120:] == 1)
    np.testing.assert_allclose(est.scores(X), auclearn.load(m1).scores(X), rtol=1e-12, atol=1e-12)
    assert est.model_.counts == auclearn.load(m1).model_.counts


def test_nested_cv_equals_auc_cv_json(auc_bin, tmp_path):
    X, y = data(n=120, seed=6)
    svm = tmp_path / "cv.svm"
    write_libsvm(svm, X, y)
    out = subprocess.run(
        [auc_bin, "cv", "--algo", "opauc", "--data", str(svm), "--repeats", "2", "--folds", "3",
         "--inner-folds", "2", "--grid", "eta=0.01,0.1", "--json", "--threads", "1"],
        check=True,
        capture_output=True,
        text=True,
    )
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    cli_runs = [l for l in lines if not l.get("summary")]
    import scipy.sparse as sp

    got = auclearn.nested_cv("opauc", sp.csr_matrix(X), y, grid={"eta": [0.01, 0.1]}, repeats=2, folds=3, inner_folds=2)
    assert len(got["runs"]) == len(cli_runs) == 6
    for mine, theirs in zip(got["runs"], cli_runs):
        assert (mine["repeat"], mine["fold"]) == (theirs["repeat"], theirs["fold"])
        assert mine["params"] == theirs["params"]
        assert mine["auc"] == pytest.approx(theirs["auc"], abs=1e-12)
        assert mine["ap"] == pytest.approx(theirs["ap"], abs=1e-12)
    assert got["summary"]["runs"] == 6 and got["summary"]["algo"] == "opauc"
