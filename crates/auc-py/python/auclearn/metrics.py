"""ROC AUC, average precision and the ROC curve, computed in Rust (``auc_eval::metrics``) with
scikit-learn's definitions and conventions, and equal to its values to 1e-12.

AUC is the Wilcoxon-Mann-Whitney statistic with ties counted one half, by one sort and a walk
over groups of tied scores; AP is scikit-learn's step sum (no interpolation).
"""

from __future__ import annotations

import numpy as np

from . import _native

__all__ = ["roc_auc_score", "average_precision_score", "roc_curve"]


def _binary(y_true, y_score, pos_label, default_greater: bool):
    """Boolean positives and float64 scores, checked."""
    y = np.asarray(y_true)
    s = np.ascontiguousarray(y_score, dtype=np.float64)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError("y_true and y_score must be 1-D")
    if len(y) != len(s):
        raise ValueError(f"y_true has {len(y)} labels but y_score {len(s)} scores")
    if y.dtype == np.bool_:
        classes = [False, True]
    elif y.dtype.kind in "iuf" and len(y):
        # Two values at most, found in O(n) without sorting (np.unique would sort them).
        lo, hi = y.min(), y.max()
        if lo != hi and not ((y == lo) | (y == hi)).all():
            raise ValueError("only binary labels are supported, found more than 2 classes")
        classes = [lo.item()] if lo == hi else [lo.item(), hi.item()]
    else:
        classes = np.unique(y).tolist()
        if len(classes) > 2:
            raise ValueError(f"only binary labels are supported, found {len(classes)} classes")
    if pos_label is None:
        values = set(classes)
        if values <= {0, 1} or values <= {-1, 1}:
            pos_label = 1
        elif default_greater and len(classes) == 2:
            pos_label = classes[1]
        else:
            raise ValueError(
                f"y_true takes values {sorted(values)}: pass pos_label (it is not {{0, 1}} or {{-1, 1}})"
            )
    return np.ascontiguousarray(y == pos_label), s


def roc_auc_score(y_true, y_score, *, pos_label=None) -> float:
    """Area under the ROC curve of binary labels ``y_true`` and scores ``y_score``.

    As scikit-learn's ``roc_auc_score`` for binary targets: the positive class is the greater
    label (``pos_label`` may name it). Raises ``ValueError`` when only one class is present.
    """
    y, s = _binary(y_true, y_score, pos_label, default_greater=True)
    return _native.roc_auc(s, y)


def average_precision_score(y_true, y_score, *, pos_label=1) -> float:
    """Average precision: the sum over decreasing thresholds of (R_k - R_{k-1}) P_k, as
    scikit-learn's ``average_precision_score`` (binary targets, ``pos_label=1`` by default)."""
    y, s = _binary(y_true, y_score, pos_label, default_greater=False)
    return _native.average_precision(s, y)


def roc_curve(y_true, y_score, *, pos_label=None, drop_intermediate=True):
    """``(fpr, tpr, thresholds)`` as scikit-learn's ``roc_curve``: thresholds decreasing, the
    first ``inf`` with ``(0, 0)``; ``drop_intermediate`` drops the points that are collinear
    with both neighbours (corners kept), as scikit-learn does."""
    y, s = _binary(y_true, y_score, pos_label, default_greater=False)
    # The corners are found in Rust on the integer counts, where rounding of the rates cannot
    # fake a bend; the (0, 0) point at +inf is always kept.
    fpr, tpr, thr = _native.roc_curve(s, y, bool(drop_intermediate))
    return fpr, tpr, thr
