"""Explanations: coef_ / intercept_ of linear models in the input's units, feature_importances_
of trees, and permutation_importance equal to scikit-learn's."""

import numpy as np
import pytest
import sklearn.inspection

import auclearn
from auclearn.inspection import permutation_importance
from conftest import LINEAR, LINEAR_BATCH, blobs


def shifted_blobs():
    """blobs with offsets and scales far from [-1, 1], so the scaling's undoing shows."""
    X, y = blobs(n=200, p=5, seed=3)
    return X * np.array([1.0, 10.0, 0.1, 1000.0, 3.0]) + np.array([5, -50, 0.3, 2e4, 0]), y


# Unscaled, the one-pass learners' steps diverge on features of size 2e4: "none" is for the
# batch learners, which solve exactly.
CASES = [(c, s) for c in LINEAR + LINEAR_BATCH for s in ["minmax", "maxabs"]] + [
    (c, "none") for c in LINEAR_BATCH
]


@pytest.mark.parametrize("cls,scale", CASES, ids=lambda v: getattr(v, "__name__", v))
def test_coef_reproduces_the_decision_function(cls, scale):
    X, y = shifted_blobs()
    est = cls(scale=scale).fit(X, y)
    assert est.coef_.shape == (1, X.shape[1])
    assert est.intercept_.shape == (1,)
    direct = est.decision_function(X)
    linear = X @ est.coef_.ravel() + est.intercept_[0]
    np.testing.assert_allclose(linear, direct, rtol=1e-9, atol=1e-9 * np.abs(direct).max())


def test_coef_scores_classes_1_whichever_class_is_positive():
    # The pairwise objective is symmetric in the classes: ranking class 0 first gives -w, and
    # coef_ (the weights of classes_[1]) turns it back.
    X, y = shifted_blobs()
    a = auclearn.OpaucBatch().fit(X, y)
    b = auclearn.OpaucBatch(positive=0).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9)
    linear = X @ b.coef_.ravel() + b.intercept_[0]
    np.testing.assert_allclose(linear, b.decision_function(X), rtol=1e-9, atol=1e-9)


def test_mapped_models_have_no_coef():
    X, y = shifted_blobs()
    est = auclearn.OpaucBatch(features="rff", n_features_map=32).fit(X, y)
    assert not hasattr(est, "coef_")
    assert est.explanation_["kind"] == "not_per_input"


def test_tree_importances_are_split_shares():
    X, y = shifted_blobs()
    est = auclearn.GbtAuc().fit(X, y)
    fi = est.feature_importances_
    assert fi.shape == (X.shape[1],)
    assert abs(fi.sum() - 1.0) < 1e-12
    e = est.explanation_
    splits = np.asarray(e["splits"], dtype=float)
    np.testing.assert_allclose(fi, splits / splits.sum())
    assert not hasattr(est, "coef_")


@pytest.mark.parametrize("seed", [0, 7, 123456])
@pytest.mark.parametrize("cls", [auclearn.OpaucBatch, auclearn.GbtAuc], ids=lambda c: c.__name__)
def test_permutation_importance_equals_sklearns(cls, seed):
    X, y = shifted_blobs()
    est = cls().fit(X, y)
    ours = permutation_importance(est, X, y, n_repeats=4, random_state=seed)
    theirs = sklearn.inspection.permutation_importance(
        est, X, y, scoring="roc_auc", n_repeats=4, random_state=seed
    )
    for key in ["importances", "importances_mean", "importances_std"]:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=0, atol=1e-12)
    # The drops are not all zero: the test can tell shuffles apart.
    assert np.abs(ours.importances).max() > 0.01


def test_permutation_importance_refuses_no_repeats():
    X, y = shifted_blobs()
    est = auclearn.OpaucBatch().fit(X, y)
    with pytest.raises(ValueError, match="n_repeats"):
        permutation_importance(est, X, y, n_repeats=0)


def applicants_frame():
    """A data frame with a categorical column and missing cells."""
    import pandas as pd

    X, y = blobs(n=240, p=3, seed=5)
    rng = np.random.default_rng(5)
    region = np.where(X[:, 1] > 0.5, "north", np.where(rng.random(len(y)) < 0.5, "east", "west"))
    income = X[:, 0] * 1000.0 + 30000.0
    income[rng.random(len(y)) < 0.1] = np.nan
    df = pd.DataFrame({"income": income, "region": region, "age": X[:, 2] * 10 + 40})
    return df, y


def test_frames_importances_are_per_column():
    df, y = applicants_frame()
    est = auclearn.GbtAuc().fit(df, y)
    fi = est.feature_importances_
    assert fi.shape == (3,)
    assert abs(fi.sum() - 1.0) < 1e-12
    e = est.explanation_
    by_name = {c["name"]: c for c in e["columns"]}
    splits = np.asarray(e["splits"], dtype=float)
    region = by_name["region"]
    want = splits[region["first"] : region["first"] + region["width"]].sum() / splits.sum()
    assert abs(fi[list(est.feature_names_in_).index("region")] - want) < 1e-12


def test_frames_with_categories_list_weights_by_name():
    df, y = applicants_frame()
    est = auclearn.OpaucBatch().fit(df, y)
    assert not hasattr(est, "coef_")
    names = est.explanation_["names"]
    assert "region=north" in names and "income (missing)" in names


def test_numeric_frames_have_coef_in_column_order():
    df, y = applicants_frame()
    num = df[["age", "income"]].fillna(30000.0)
    est = auclearn.OpaucBatch().fit(num, y)
    linear = num.to_numpy() @ est.coef_.ravel() + est.intercept_[0]
    np.testing.assert_allclose(linear, est.decision_function(num), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("cls", [auclearn.OpaucBatch, auclearn.GbtAuc], ids=lambda c: c.__name__)
def test_permutation_importance_of_frames_equals_sklearns(cls):
    df, y = applicants_frame()
    est = cls().fit(df, y)
    ours = permutation_importance(est, df, y, n_repeats=3, random_state=11)
    theirs = sklearn.inspection.permutation_importance(
        est, df, y, scoring="roc_auc", n_repeats=3, random_state=11
    )
    np.testing.assert_allclose(ours.importances, theirs.importances, rtol=0, atol=1e-12)
