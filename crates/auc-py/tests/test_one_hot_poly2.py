"""One-hot indicators of categorical features and the degree-2 polynomial map from Python
(``one_hot=``, ``features="poly2"``; ``FeatureMap(kind="poly2", one_hot=K)``): the expansion
against numpy written out by hand, the pair structure that no linear scorer of the codes finds,
model files that restore both stages and score as ``auc predict`` does, Dask and moments."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

import auclearn
from auclearn import FeatureMap, OPAUC, OPAUCbatch, PAI
from auclearn.metrics import roc_auc_score

from conftest import cli_scores, write_libsvm


def pairs(n=800, seed=0):
    """Hands of three cards of 5 ranks (coded 1..5) and a noise feature: a hand is positive
    when two of its cards share a rank. The codes' order says nothing, so no linear scorer of
    them ranks the hands; the products of rank indicators count the pairs."""
    rng = np.random.default_rng(seed)
    ranks = rng.integers(1, 6, size=(n, 3)).astype(np.float64)
    y = (
        (ranks[:, 0] == ranks[:, 1]) | (ranks[:, 0] == ranks[:, 2]) | (ranks[:, 1] == ranks[:, 2])
    ).astype(np.int64)
    X = np.column_stack([ranks, rng.normal(size=n)])
    return X, y


def expand_by_hand(X, K):
    """The one-hot stage without scaling: the features, then per feature with 3..K distinct
    values an indicator per value in increasing order."""
    cols = [X]
    for j in range(X.shape[1]):
        levels = np.unique(X[:, j])
        if 3 <= len(levels) <= K:
            cols.append((X[:, j : j + 1] == levels[None, :]).astype(np.float64))
    return np.hstack(cols)


def poly2_by_hand(Z):
    p = Z.shape[1]
    iu = np.triu_indices(p)
    return np.hstack([Z, (Z[:, :, None] * Z[:, None, :])[:, iu[0], iu[1]]])


def test_the_transformer_equals_the_expansion_written_out():
    X, _ = pairs(n=300)
    fm = FeatureMap(kind=None, one_hot=8).fit(X)
    want = expand_by_hand(X, 8)
    assert fm.n_components_ == want.shape[1] == 4 + 15
    np.testing.assert_array_equal(fm.transform(X), want)
    fm2 = FeatureMap(kind="poly2", one_hot=8).fit(X)
    np.testing.assert_allclose(fm2.transform(X), poly2_by_hand(want), rtol=0, atol=0)
    assert fm2.sigma_ is None
    # An unseen code sets no indicator.
    odd = X[:1].copy()
    odd[0, 0] = 9.0
    row = fm.transform(odd)[0]
    assert row[0] == 9.0 and row[4:9].sum() == 0.0


def test_pairs_of_categories_are_learned_through_one_hot_and_poly2():
    X, y = pairs()
    Xt, yt = pairs(seed=1)
    linear = roc_auc_score(yt, OPAUCbatch(scale="minmax").fit(X, y).decision_function(Xt))
    both = OPAUCbatch(scale="minmax", one_hot=8, features="poly2").fit(X, y)
    got = roc_auc_score(yt, both.decision_function(Xt))
    assert linear < 0.65 and got > 0.99, (linear, got)
    assert both.model_.one_hot == 8 and both.model_.feature_map[0] == "poly2"


def test_the_estimator_records_and_restores_both_stages(tmp_path, auc_bin):
    X, y = pairs(n=300, seed=2)
    for cls in [OPAUCbatch, OPAUC, PAI]:
        est = cls(scale="minmax", one_hot=6, features="poly2", seed=4).fit(X, y)
        want = est.scores(X)
        back = auclearn.from_bytes(est.to_bytes())
        assert back.one_hot == 6 and back.features == "poly2"
        assert back.n_features_map is None and back.feature_sigma == "scale"
        np.testing.assert_array_equal(back.scores(X), want)
        np.testing.assert_array_equal(clone(back).fit(X, y).scores(X), want)
        path = tmp_path / f"{cls.__name__}.model"
        est.save(path)
        svm = tmp_path / "pairs.svm"
        write_libsvm(svm, X, np.where(y == 1, 1, -1))
        np.testing.assert_allclose(
            cli_scores(auc_bin, path, svm, tmp_path), want, rtol=1e-12, atol=1e-12
        )


def test_a_pipeline_equals_the_estimator_with_the_stages():
    X, y = pairs(n=400, seed=3)
    staged = OPAUC(scale="minmax", one_hot=8, features="poly2", seed=2).fit(X, y)
    pipe = make_pipeline(
        FeatureMap("poly2", None, "scale", "minmax", 2, one_hot=8), OPAUC(scale="none", seed=2)
    ).fit(X, y)
    # The transformer gives dense rows, the stage sparse ones: the same values, whose dot
    # products are summed in another order.
    np.testing.assert_allclose(
        pipe.decision_function(X), staged.decision_function(X), rtol=1e-12, atol=1e-14
    )


@pytest.mark.parametrize(
    "params",
    [
        {"one_hot": 2},
        {"one_hot": 2000},
        {"one_hot": 4.5},
        {"one_hot": True},
        {"features": "poly2", "n_features_map": 10},
    ],
    ids=lambda p: ",".join(f"{k}={v!r}" for k, v in p.items()),
)
def test_bad_one_hot_or_poly2_parameters_are_value_errors(params):
    X, y = pairs(n=60)
    with pytest.raises(ValueError):
        OPAUC(**params).fit(X, y)


def test_moments_of_expanded_rows_merge_to_the_in_memory_fit():
    X, y = pairs(n=600, seed=5)
    fm = FeatureMap("poly2", scale="minmax", one_hot=8, seed=0).fit(X)
    parts = [
        auclearn.moments.summarize(X[i : i + 200], y[i : i + 200], stages=fm)
        for i in range(0, 600, 200)
    ]
    merged = auclearn.moments.merge(*parts)
    est = auclearn.moments.fit("opauc-batch", merged)
    whole = OPAUCbatch(scale="minmax", one_hot=8, features="poly2").fit(X, y)
    np.testing.assert_allclose(est.scores(X), whole.scores(X), rtol=1e-10, atol=1e-10)
    assert est.one_hot == 8 and est.features == "poly2"
