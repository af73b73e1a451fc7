"""The blend (the CLI's default learner) from Python: it chooses its weight by held-out AUC by
default (``weight_folds=3``), ``weight_folds=0`` keeps ``weight``, and a saved blend scores the
same in Python and with ``auc predict``."""

import numpy as np

import auclearn
from auclearn import GBTAUC, Blend
from auclearn.metrics import roc_auc_score

from conftest import cli_scores, write_libsvm


def step(n=900, seed=0):
    """A step in two of six features (an XOR of thresholds): the trees' kind of signal."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 6))
    y = ((X[:, 0] > 0.5) != (X[:, 1] > 0.5)).astype(np.int64)
    return X, y


def test_the_default_blend_chooses_its_weight():
    est = Blend(landmarks=50, trees=30)
    assert est.get_params()["weight_folds"] == 3
    X, y = step()
    est.fit(X, y)
    assert roc_auc_score(y, est.decision_function(X)) > 0.9
    # weight_folds=0 keeps weight: at 1/2 both members count, and the scores differ from a
    # blend that kept only the trees.
    fixed = Blend(landmarks=50, trees=30, weight_folds=0).fit(X, y)
    assert fixed.get_params()["weight_folds"] == 0
    trees_only = Blend(landmarks=50, trees=30, weight=0.0, weight_folds=0).fit(X, y)
    assert not np.allclose(fixed.scores(X), trees_only.scores(X))


def test_weight_zero_ranks_as_the_trees_alone():
    X, y = step(seed=1)
    Xt, yt = step(300, seed=2)
    blend = Blend(landmarks=30, trees=20, weight=0.0, weight_folds=0).fit(X, y)
    trees = GBTAUC(trees=20).fit(X, y)
    np.testing.assert_array_equal(
        np.argsort(blend.decision_function(Xt), kind="stable"),
        np.argsort(trees.decision_function(Xt), kind="stable"),
    )


def test_a_saved_blend_scores_the_same_in_python_and_the_cli(auc_bin, tmp_path):
    X, y = step(seed=3)
    est = Blend(landmarks=40, trees=20).fit(X, y)
    model = tmp_path / "blend.auc"
    est.save(model)
    data = tmp_path / "data.libsvm"
    write_libsvm(data, X, np.where(y == 1, 1, -1))
    np.testing.assert_allclose(cli_scores(auc_bin, model, data, tmp_path),
                               est.scores(X), rtol=0, atol=1e-12)
    again = auclearn.load(model)
    assert again.get_params()["weight_folds"] == 3
