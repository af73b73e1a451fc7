"""Training on files and scoring files without numpy arrays (``stream_fit``, ``scores_file``,
``score_file``): the same Rust routes as ``auc train`` and ``auc predict``, so the model and the
scores are the command's, for every algorithm; bad paths fail with the file's name."""

import subprocess
import warnings

import numpy as np
import pytest

import auclearn

from conftest import ALL_CLASSES, blobs, cli_scores, ids, small, write_libsvm


def data(n=150, p=5, seed=3):
    X, y01 = blobs(n=n, p=p, seed=seed)
    return np.round(X, 6), np.where(y01 == 1, 1, -1)


def budget(cls):
    """The CLI flags and keywords that keep a kernel learner cheap."""
    return (["--budget", "20"], {"budget": 20}) if "budget" in cls().get_params() else ([], {})


def auc_train(auc_bin, out, name, files, *flags):
    subprocess.run(
        [auc_bin, "train", "--algo", name, "--output", str(out), *flags, *map(str, files)],
        check=True,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_stream_fit_trains_the_model_auc_train_writes(cls, auc_bin, tmp_path):
    """For every algorithm (its route: moment pass, streamed or in memory), ``stream_fit`` on a
    LIBSVM file gives the model ``auc train`` writes for the same file and flags: the same
    class, parameters and counts, and the same scores, exactly, from ``scores_file`` and ``auc
    predict``; ``decision_function`` on the same rows as an array agrees to rounding."""
    X, y = data()
    svm = tmp_path / "train.svm"
    write_libsvm(svm, X, y)
    flags, kw = budget(cls)
    name = cls._row["name"]
    model = tmp_path / "cli.model"
    auc_train(auc_bin, model, name, [svm], *flags)
    est = auclearn.stream_fit(svm, name, **kw)
    cli = auclearn.load(model)
    assert type(est) is cls
    assert est.get_params() == cli.get_params()
    assert est.model_.counts == cli.model_.counts
    assert est.classes_.tolist() == [0, 1] and est.threshold_ == 0.0
    assert est.n_features_in_ == X.shape[1]
    want = cli_scores(auc_bin, model, svm, tmp_path)
    got = est.scores_file(svm)
    assert np.array_equal(got, want)
    # The same rows as an array (dense, not the file's sparse rows): equal to rounding.
    np.testing.assert_allclose(est.decision_function(X), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["pa-i", "oauc-m"])
def test_stream_fit_takes_the_flags_of_auc_train(name, auc_bin, tmp_path):
    """Scaling, a feature map drawn with the seed, one-hot indicators, the shuffle buffer,
    feature hashing, the positive class and several files: the model ``auc train`` writes with
    the matching flags."""
    X, y = data(n=200, p=4, seed=5)
    a, b = tmp_path / "a.svm", tmp_path / "b.svm"
    write_libsvm(a, X[:120], y[:120])
    write_libsvm(b, X[120:], y[120:])
    cases = [
        ({"scale": "minmax"}, ["--scale", "minmax"]),
        ({"shuffle": 7, "shuffle_buffer": 50}, ["--shuffle", "7", "--shuffle-buffer", "50"]),
        ({"shuffle": 7, "shuffle_full": True}, ["--shuffle", "7", "--shuffle-full"]),
        ({"hash_bits": 3, "scale": "maxabs"}, ["--hash-bits", "3", "--scale", "maxabs"]),
        ({"positive": -1}, ["--positive", "-1"]),
        (
            {"features": "rff", "n_features_map": 30, "seed": 2},
            ["--features", "rff:30", "--seed", "2", "--feature-seed", "2"],
        ),
        ({"one_hot": 3, "scale": "none"}, ["--one-hot", "3", "--scale", "none"]),
    ]
    for kw, flags in cases:
        model = tmp_path / "cli.model"
        auc_train(auc_bin, model, name, [a, b], *flags)
        est = auclearn.stream_fit([a, b], name, **kw)
        assert est.model_.counts == auclearn.load(model).model_.counts, kw
        want = cli_scores(auc_bin, model, b, tmp_path)
        assert np.array_equal(est.scores_file(b), want), kw
    # An estimator as the algorithm: its parameters and its own scale.
    cls = auclearn.estimator_class(name)
    param = "c" if name == "pa-i" else "lam"
    registry = "c" if name == "pa-i" else "lambda"
    model = tmp_path / "cli.model"
    auc_train(auc_bin, model, name, [a], "--param", f"{registry}=0.5", "--scale", "none")
    est = auclearn.stream_fit(a, cls(**{param: 0.5}, scale="none"))
    assert est.scale == "none" and getattr(est, param) == 0.5
    assert np.array_equal(est.scores_file(a), cli_scores(auc_bin, model, a, tmp_path))


def test_a_measurement_read_as_the_label_warns(tmp_path):
    """A headerless CSV whose first column is a measurement is read with it as the label, as
    ``auc train`` reads it; the rarest of its many values as the positive class draws the
    library's warning, and naming the label column does not."""
    csv = tmp_path / "no-header.csv"
    csv.write_text("".join(f"{20 + (i * 7) % 61}.5,{(i * 13) % 10},{i % 2}\n" for i in range(120)))
    with pytest.warns(RuntimeWarning, match="61 distinct values"):
        auclearn.stream_fit(csv, "pa-i")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = auclearn.stream_fit(csv, "pa-i", label_column=2)
    assert est.model_.counts == (120, 60, 60)
    assert est.model_.reading.startswith("CSV (label column 2, no header"), est.model_.reading
    # With a header, the default takes its column named label and the model says so: a table
    # with named columns (SPEC 11).
    named = tmp_path / "named.csv"
    named.write_text("age,visits,label\n" + csv.read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = auclearn.stream_fit(named, "pa-i")
    assert est.model_.counts == (120, 60, 60)
    assert est.model_.reading.startswith('table (label "label"'), est.model_.reading
    assert est.feature_names_in_.tolist() == ["age", "visits"]


def test_scores_file_scores_rows_as_the_array_path_and_writes_predicts_text(auc_bin, tmp_path):
    """An estimator fitted on arrays scores a LIBSVM file of the same rows as it scores the
    array (to rounding: sparse against dense sums); ``output=`` writes the text ``auc predict
    -o`` writes and returns the rows; ``auclearn.score_file`` takes a model file or an
    estimator; the sign follows ``pos_label``."""
    X, y = data(seed=8)
    svm = tmp_path / "rows.svm"
    write_libsvm(svm, X, y)
    for scale in ["none", "minmax"]:
        est = small(auclearn.estimator_class("opauc"), scale=scale).fit(X, y)
        np.testing.assert_allclose(est.scores_file(svm), est.scores(X), rtol=1e-12, atol=1e-12)
        path = tmp_path / f"m-{scale}.model"
        est.save(path)
        assert np.array_equal(auclearn.score_file(path, svm), est.scores_file(svm))
        assert np.array_equal(auclearn.score_file(est, svm), est.scores_file(svm))
        out = tmp_path / "scores.txt"
        assert est.scores_file(svm, output=out) == len(y)
        cli = tmp_path / "cli.txt"
        subprocess.run(
            [auc_bin, "predict", "--model", str(path), "--output", str(cli), str(svm)],
            check=True,
            capture_output=True,
        )
        assert out.read_text() == cli.read_text()
    flipped = auclearn.estimator_class("pa-i")(pos_label=-1).fit(X, y)
    np.testing.assert_allclose(flipped.scores_file(svm), flipped.scores(X), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="opposite sign"):
        flipped.scores_file(svm, output=tmp_path / "x.txt")


def test_bad_paths_and_files_name_the_file(tmp_path):
    """A missing file is a ``FileNotFoundError`` naming it; a malformed row a ``ValueError``
    naming the file and its line; an unknown keyword a ``TypeError``; calibration is refused."""
    X, y = data()
    svm = tmp_path / "ok.svm"
    write_libsvm(svm, X, y)
    missing = tmp_path / "missing.svm"
    with pytest.raises(FileNotFoundError) as e:
        auclearn.stream_fit(missing, "pa-i")
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        auclearn.stream_fit([svm, missing], "pa-i")
    est = auclearn.stream_fit(svm, "pa-i")
    with pytest.raises(FileNotFoundError) as e:
        est.scores_file(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        auclearn.score_file(tmp_path / "no.model", svm)
    with pytest.raises(IsADirectoryError):
        auclearn.stream_fit(tmp_path, "pa-i")
    lines = svm.read_text().splitlines()
    lines[41] = "+1 1:abc"
    bad = tmp_path / "bad.svm"
    bad.write_text("\n".join(lines) + "\n")
    for call in (lambda: auclearn.stream_fit(bad, "pa-i"), lambda: est.scores_file(bad)):
        with pytest.raises(ValueError, match=r"bad\.svm:42:"):
            call()
    with pytest.raises(TypeError):
        auclearn.stream_fit(svm, "pa-i", no_such_keyword=1)
    with pytest.raises(ValueError, match="calibration"):
        auclearn.stream_fit(svm, "pa-i", calibration="sigmoid")
    with pytest.raises(ValueError, match="unknown algorithm"):
        auclearn.stream_fit(svm, "no-such-learner")


def test_a_csv_table_trains_with_a_text_positive_class(auc_bin, tmp_path):
    """A CSV file with a header and text labels (SPEC 11): ``positive=`` names a value of its
    label column, as ``auc train --positive`` does, and the model is the CLI's."""
    X, y01 = data(n=120, p=3, seed=2)
    csv = tmp_path / "t.csv"
    rows = [",".join(["a", "b", "c", "status"])]
    rows += [",".join([*(repr(v) for v in x), "bad" if t > 0 else "good"]) for x, t in zip(X, y01)]
    csv.write_text("\n".join(rows) + "\n")
    model = tmp_path / "cli.auc"
    auc_train(auc_bin, model, "pa-i", [csv], "--label-column", "status", "--positive", "good")
    est = auclearn.stream_fit(csv, "pa-i", label_column="status", positive="good")
    assert est.model_.table.positive == ["good"]
    assert est.classes_.tolist() == ["bad", "good"] and est._positive_class() == "good"
    assert np.array_equal(est.scores_file(csv), cli_scores(auc_bin, model, csv, tmp_path))
    same = auclearn.stream_fit(csv, auclearn.PaI(positive="good"), label_column="status")
    assert np.array_equal(same.scores_file(csv), est.scores_file(csv))
