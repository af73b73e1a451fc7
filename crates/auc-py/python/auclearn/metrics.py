"""ROC AUC, average precision and the ROC curve, computed in Rust (``auc_eval::metrics``) with
scikit-learn's definitions and conventions, and equal to its values to 1e-12.

AUC is the Wilcoxon-Mann-Whitney statistic with ties counted one half, by one sort and a walk
over groups of tied scores; AP is scikit-learn's step sum (no interpolation). ``roc_auc_score``
also takes scikit-learn's ``max_fpr`` (the McClish-standardized partial AUC,
``auc_eval::partial``) and, for a 2-D ``y_score``, ``multi_class="ovr"|"ovo"`` with
``average="macro"|"weighted"`` (``auc_eval::multiclass``; docs/math/partial-auc.md).
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


def roc_auc_score(
    y_true, y_score, *, pos_label=None, max_fpr=None, multi_class="raise", average="macro"
) -> float:
    """Area under the ROC curve, as scikit-learn's ``roc_auc_score`` for these arguments.

    Binary targets (1-D ``y_score``): the positive class is the greater label (``pos_label``
    may name it; scikit-learn has no such argument). With ``max_fpr`` in (0, 1], the partial
    AUC over false-positive rates in [0, max_fpr], standardized by McClish's correction
    (0.5 for random scores, 1 for a perfect ranking); ``max_fpr=1`` is the plain AUC.

    Multiclass targets (2-D ``y_score`` of shape (n, K), column c the score of the c-th class
    in sorted label order, K the number of distinct labels): ``multi_class="ovr"`` (each class
    against the rest, by its own column) or ``"ovo"`` (Hand and Till's pairwise M), averaged by
    ``average="macro"`` (plain mean) or ``"weighted"`` (by class prevalence; for ``ovo`` the
    pair's prevalence). Unlike scikit-learn, rows need not sum to 1 (raw scores are ranked as
    they are); where scikit-learn accepts the rows, the values are its own.

    ``average`` is ignored for binary targets, as in scikit-learn. Raises ``ValueError`` when
    only one class is present (scikit-learn warns and returns NaN), and where scikit-learn
    raises: ``multi_class="raise"`` with a 2-D ``y_score``, ``max_fpr`` below 1 for multiclass
    targets, a column count that is not the number of classes.
    """
    s = np.asarray(y_score)
    if s.ndim == 2:
        return _multiclass_auc(y_true, s, pos_label, max_fpr, multi_class, average)
    y, s = _binary(y_true, y_score, pos_label, default_greater=True)
    if max_fpr is None or max_fpr == 1:
        return _native.roc_auc(s, y)
    standardized, _area = _native.partial_auc(s, y, float(max_fpr))
    return standardized


def _multiclass_auc(y_true, s, pos_label, max_fpr, multi_class, average) -> float:
    """The multiclass branch of ``roc_auc_score`` (``y_score`` is 2-D)."""
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError("y_true must be 1-D")
    if len(y) != s.shape[0]:
        raise ValueError(f"y_true has {len(y)} labels but y_score {s.shape[0]} rows")
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) <= 2 and s.shape[1] <= 2:
        raise ValueError(
            f"y_score has shape {s.shape} but y_true is binary: pass the positive class's scores as a 1-D array"
        )
    if pos_label is not None:
        raise ValueError("pos_label is for binary targets; a multiclass y_score has one column per class")
    if max_fpr is not None and max_fpr != 1:
        raise ValueError(f"the partial AUC is not available for multiclass targets: max_fpr={max_fpr!r} must be None")
    if multi_class not in ("ovr", "ovo"):
        raise ValueError(f"multi_class must be 'ovr' or 'ovo' for a 2-D y_score, got {multi_class!r}")
    if average not in ("macro", "weighted"):
        raise ValueError(f"average must be 'macro' or 'weighted' for multiclass targets, got {average!r}")
    if s.shape[1] != len(classes):
        raise ValueError(
            f"y_true holds {len(classes)} classes but y_score has {s.shape[1]} columns (one per class)"
        )
    scores = np.ascontiguousarray(s, dtype=np.float64)
    return _native.multiclass_auc(scores, codes.reshape(-1).astype(np.int64), multi_class, average)


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
