"""Tables as users hold them (SPEC 11, issue 50) in every estimator: pandas, polars and pyarrow
frames with text, categories, booleans, nullable columns and missing cells, numpy arrays with
NaN, and labels of any two values. The schema fitted on the frame is stored in the model: pickles,
model files and `auc predict` on a CSV file of the same columns all score the same rows alike."""

import pickle
import subprocess
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from sklearn.model_selection import cross_val_score

import auclearn
from auclearn.metrics import roc_auc_score

from conftest import ALL_CLASSES, ONLINE, blobs, ids, small


def applicants(n=240, seed=0):
    """A frame of every column kind with missing cells, and a label "bad"/"good" (bad the
    minority) that depends on income, color and owner."""
    rng = np.random.default_rng(seed)
    income = rng.normal(50, 10, n).round(3)
    color = rng.choice(["red", "blue", "green"], n)
    owner = rng.random(n) < 0.4
    risk = (50 - income) / 10 + 1.5 * (color == "red") - owner + rng.normal(0, 0.7, n)
    status = np.where(risk > 0.8, "bad", "good")
    df = pd.DataFrame(
        {
            "income": income,
            "color": pd.Categorical(color),
            "owner": owner,
            "age": pd.array(rng.integers(20, 70, n), dtype="Int64"),
            "note": pd.array(rng.choice(["a", "b", "c", "d"], n), dtype="string"),
            "ratio": pd.array(rng.random(n).round(4), dtype="Float64"),
            "vip": pd.array(rng.random(n) < 0.1, dtype="boolean"),
            "code": np.array(rng.choice(["x", "y"], n), dtype=object),
        }
    )
    df.loc[::9, "income"] = np.nan
    df.loc[::13, "age"] = pd.NA
    df.loc[::17, "note"] = pd.NA
    df.loc[::19, "vip"] = pd.NA
    df.loc[::23, "code"] = None
    df.loc[::29, "color"] = np.nan
    return df, status


def model_scores(est, X):
    """The model's own scores (of its positive class), as `auc predict` prints them."""
    return est.scores(X) * est._sign


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_every_estimator_fits_a_frame_and_its_model_file_scores_a_csv_alike(cls, auc_bin, tmp_path):
    df, y = applicants()
    est = small(cls).fit(df, y)
    assert est.classes_.tolist() == ["bad", "good"]
    assert est.feature_names_in_.dtype == object
    assert est.feature_names_in_.tolist() == list(df.columns) and est.n_features_in_ == 8
    assert est.model_.table.positive == ["bad"] and est._sign == -1.0
    s = est.scores(df)
    assert np.isfinite(s).all()
    assert set(est.predict(df).tolist()) <= {"bad", "good"}
    # Pickles and model files read back to the same scores.
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.scores(df), s)
    est.save(tmp_path / "m.auc")
    loaded = auclearn.load(tmp_path / "m.auc")
    np.testing.assert_array_equal(loaded.scores(df), s)
    assert loaded.classes_.tolist() == ["bad", "good"]
    assert loaded.feature_names_in_.tolist() == list(df.columns)
    # The CLI reads a CSV file of the frame's columns, in another order and without the label.
    csv = tmp_path / "rows.csv"
    df[df.columns[::-1]].to_csv(csv, index=False)
    out = tmp_path / "scores.txt"
    subprocess.run(
        [auc_bin, "predict", "-m", str(tmp_path / "m.auc"), "-o", str(out), str(csv)],
        check=True,
        capture_output=True,
        text=True,
    )
    cli = np.array([float(v) for v in out.read_text().split()])
    np.testing.assert_allclose(cli, model_scores(est, df), rtol=1e-10, atol=1e-12)


def test_a_frame_ranks_well_and_works_in_scikit_learn_tools():
    df, y = applicants(n=400)
    est = auclearn.Opauc(scale="auto").fit(df, y)
    assert roc_auc_score(y == "good", est.decision_function(df)) > 0.8
    got = cross_val_score(auclearn.Opauc(scale="auto"), df, y, scoring="roc_auc", cv=3)
    assert got.min() > 0.75


def test_columns_match_by_name_in_any_order():
    df, y = applicants()
    est = auclearn.Opauc().fit(df, y)
    want = est.scores(df)
    np.testing.assert_array_equal(est.scores(df[df.columns[::-1]]), want)
    np.testing.assert_array_equal(est.scores(df.assign(extra=1.0, label=y)), want)
    with pytest.raises(ValueError, match='the model needs the column {"age"}'):
        est.scores(df.drop(columns="age"))
    with pytest.raises(ValueError, match='column "income": the value is not a number'):
        est.scores(df.assign(income="high"))
    # An array is read by position.
    np.testing.assert_array_equal(est.scores(df.to_numpy(dtype=object)), want)
    with pytest.raises(ValueError, match="X has 7 features, but Opauc is expecting 8"):
        est.scores(df.iloc[:, :7].to_numpy(dtype=object))


def test_unseen_categories_and_missing_cells_score():
    df, y = applicants()
    est = auclearn.Opauc().fit(df, y)
    fresh = df.head(3).copy()
    fresh["color"] = pd.Categorical(["purple", None, "red"])
    fresh["income"] = [np.nan, 1.0, np.nan]
    assert np.isfinite(est.scores(fresh)).all()
    names = est.model_.table.feature_names
    assert "income (missing)" in names and "color (other)" in names and "color (missing)" in names


def test_polars_and_pyarrow_frames_read_as_the_pandas_frame():
    df, y = applicants()
    want = auclearn.Opauc().fit(df, y)
    for frame in (pl.from_pandas(df), pa.Table.from_pandas(df, preserve_index=False)):
        got = auclearn.Opauc().fit(frame, y)
        np.testing.assert_array_equal(got.scores(frame), want.scores(df))
        np.testing.assert_array_equal(want.scores(frame), want.scores(df))
        assert got.feature_names_in_.tolist() == list(df.columns)
    labels = auclearn.Opauc().fit(pl.from_pandas(df), pl.Series("status", y))
    assert labels.model_.table.label == "status"
    arrow = auclearn.Opauc().fit(df, pa.array(y))
    np.testing.assert_array_equal(arrow.scores(df), want.scores(df))


@pytest.mark.parametrize("library", ["pandas", "polars", "pyarrow"])
def test_date_columns_are_refused_naming_the_column(library):
    df, y = applicants(n=40)
    df["when"] = pd.date_range("2024-01-01", periods=len(df), freq="D")
    frame = {
        "pandas": lambda: df,
        "polars": lambda: pl.from_pandas(df),
        "pyarrow": lambda: pa.Table.from_pandas(df, preserve_index=False),
    }[library]()
    with pytest.raises(TypeError, match="column 'when' holds dates or times"):
        auclearn.Opauc().fit(frame, y)


@pytest.mark.parametrize(
    "labels,positive,want",
    [
        (("no", "yes"), None, "yes"),
        (("good", "bad"), None, "bad"),
        ((False, True), None, True),
        ((0, 1), None, 1),
        ((1, 2), None, 2),
        ((2, 1), None, 2),
        ((3, 7), 3, 3),
        (("bad", "good"), "good", "good"),
        ((-1.0, 1.0), -1.0, -1.0),
    ],
)
def test_labels_of_any_two_values_and_the_positive_class(labels, positive, want):
    X, y01 = blobs(n=200)
    X[::7, 0] = np.nan
    # The second value is the minority, shifted up. Numbers and booleans: the greater is
    # positive, as on arrays; text: yes or true, else the minority (the CLI's rule).
    y = np.array(labels, dtype=object)[y01]
    y = y.astype(type(labels[0])) if not isinstance(labels[0], str) else y
    est = auclearn.Opauc(positive=positive).fit(X, y)
    assert est.classes_.tolist() == sorted(labels)
    assert est._positive_class() == want
    assert roc_auc_score(y == est.classes_[1], est.decision_function(X)) > 0.8
    assert est.model_.positive_labels == [1.0]
    assert "given" in est.model_.positive_rule if positive is not None else True


def test_a_wrong_positive_class_and_missing_labels_are_refused():
    df, y = applicants(n=60)
    wrong = r"positive='nope' is not one of the classes \['bad', 'good'\]"
    with pytest.raises(ValueError, match=wrong):
        auclearn.Opauc(positive="nope").fit(df, y)
    with pytest.raises(ValueError, match="give one of them"):
        auclearn.Opauc(positive="bad", pos_label="good").fit(df, y)
    gaps = pd.Series(y, dtype=object)
    gaps[3] = None
    with pytest.raises(ValueError, match="y: row 3 has no label"):
        auclearn.Opauc().fit(df, gaps)
    with pytest.raises(ValueError, match="X has 60 rows but y has 59 labels"):
        auclearn.Opauc().fit(df, y[:-1])


def test_numpy_arrays_with_nan_or_text_go_through_a_schema():
    X, y = blobs(n=200, p=4)
    X[::5, 1] = np.nan
    est = auclearn.Opauc().fit(X, y)
    assert est.model_.table.columns == ["x0", "x1", "x2", "x3"]
    assert est.model_.table.feature_names[:3] == ["x0", "x1", "x1 (missing)"]
    assert not hasattr(est, "feature_names_in_") and est.n_features_in_ == 4
    assert np.isfinite(est.scores(X)).all()
    # A frame without string names is read by position, as scikit-learn reads it, silently.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(est.scores(pd.DataFrame(X)), est.scores(X))
    with pytest.warns(UserWarning, match="fitted without feature names"):
        est.scores(pd.DataFrame(X, columns=list("abcd")))
    text = X.astype(object)
    text[:, 3] = np.where(y == 1, "up", "down")
    est = auclearn.Opauc().fit(text, y)
    assert "x3=down" in est.model_.table.feature_names


def test_numeric_arrays_without_nan_keep_their_schemaless_models():
    X, y = blobs(n=200, p=4)
    est = auclearn.Opauc().fit(X, y)
    assert est.model_.table is None
    assert est.model_.reading.startswith("LIBSVM")
    assert est.classes_.tolist() == [0, 1] and est._positive_class() == 1
    with pytest.raises(ValueError, match="NaN"):
        est.scores(np.where(X > 1, np.nan, X))


def test_a_cli_model_of_a_csv_file_scores_the_frame_alike(auc_bin, tmp_path):
    df, y = applicants()
    csv = tmp_path / "train.csv"
    df.assign(status=y).to_csv(csv, index=False)
    model = tmp_path / "cli.auc"
    subprocess.run(
        [auc_bin, "train", "--label-column", "status", "--algo", "opauc", "-o", str(model), csv],
        check=True,
        capture_output=True,
        text=True,
    )
    est = auclearn.load(model)
    assert est.classes_.tolist() == ["bad", "good"] and est._positive_class() == "bad"
    assert est.feature_names_in_.tolist() == list(df.columns)
    out = tmp_path / "scores.txt"
    subprocess.run(
        [auc_bin, "predict", "-m", str(model), "-o", str(out), str(csv)],
        check=True,
        capture_output=True,
        text=True,
    )
    cli = np.array([float(v) for v in out.read_text().split()])
    np.testing.assert_allclose(model_scores(est, df), cli, rtol=1e-10, atol=1e-12)
    by_file = est.scores_file(csv) * est._sign
    np.testing.assert_allclose(model_scores(est, df), by_file, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", ONLINE[:3], ids=ids(ONLINE[:3]))
def test_partial_fit_on_frames(cls):
    df, y = applicants()
    est = small(cls)
    # A first batch of one class: the classes name the other, which the label map takes.
    est.partial_fit(df[y == "good"].head(20), y[y == "good"][:20], classes=["bad", "good"])
    assert est._positive_class() == "bad"
    est.partial_fit(df.iloc[20:], y[20:])
    fresh = df.head(5).assign(color=pd.Categorical(["purple"] * 5))
    assert np.isfinite(est.scores(fresh)).all()
    with pytest.raises(ValueError, match="outside the classes"):
        est.partial_fit(df.head(3), np.array(["bad", "good", "ugly"]))
