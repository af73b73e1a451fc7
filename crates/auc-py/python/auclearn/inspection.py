"""Permutation importance measured by the AUC: ``permutation_importance``.

The procedure is scikit-learn's ``sklearn.inspection.permutation_importance(estimator, X, y,
scoring="roc_auc", n_repeats, random_state)`` (Breiman 2001, sec. 10), step for step, so that
the same seed gives the same numbers: a ``RandomState(random_state)`` draws one column seed;
each column is shuffled ``n_repeats`` times by a ``RandomState`` of that seed, the row order
shuffled in place once per repeat and the column taken in that order (so the repeats compose);
the importance of a repeat is the AUC of ``X`` minus the AUC after it. It is the computation
``auc importance`` runs on a file.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import Bunch, check_random_state

from .metrics import roc_auc_score

__all__ = ["permutation_importance"]


def _auc(estimator, X, y) -> float:
    # The roc_auc scorer of scikit-learn: the decision function, else the probability of
    # classes_[1], against y == classes_[1].
    if hasattr(estimator, "decision_function"):
        scores = estimator.decision_function(X)
    else:
        scores = estimator.predict_proba(X)[:, 1]
    positive = np.asarray(y) == estimator.classes_[1]
    return float(roc_auc_score(positive, np.asarray(scores, dtype=np.float64)))


def permutation_importance(estimator, X, y, *, n_repeats=5, random_state=None):
    """The drop in AUC when each column of ``X`` is shuffled, ``n_repeats`` times per column.

    ``estimator`` is fitted (any classifier with ``decision_function`` or ``predict_proba``
    and ``classes_``); ``X`` an array or a data frame (columns shuffled by position, as
    scikit-learn does); ``y`` its labels; ``random_state`` an integer, ``None`` or a
    ``RandomState``. Returns a ``Bunch`` with ``importances`` (columns x repeats),
    ``importances_mean`` and ``importances_std`` (population standard deviation), equal to
    scikit-learn's ``permutation_importance(..., scoring="roc_auc")`` with the same
    ``random_state``."""
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be at least 1, got {n_repeats}")
    rng = check_random_state(random_state)
    column_seed = rng.randint(np.iinfo(np.int32).max + 1)
    baseline = _auc(estimator, X, y)
    frame = hasattr(X, "iloc")
    n, p = X.shape
    importances = np.empty((p, n_repeats))
    for j in range(p):
        col_rng = check_random_state(column_seed)
        permuted = X.copy()
        order = np.arange(n)
        for r in range(n_repeats):
            col_rng.shuffle(order)
            if frame:
                col = permuted.iloc[order, j]
                col.index = permuted.index
                permuted[permuted.columns[j]] = col
            else:
                permuted[:, j] = permuted[order, j]
            importances[j, r] = baseline - _auc(estimator, permuted, y)
    return Bunch(
        importances_mean=np.mean(importances, axis=1),
        importances_std=np.std(importances, axis=1),
        importances=importances,
    )
