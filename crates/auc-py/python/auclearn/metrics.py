"""ROC AUC, average precision and the ROC curve, computed in Rust (``auc_eval::metrics``) with
scikit-learn's definitions and conventions, and equal to its values to 1e-12.

AUC is the Wilcoxon-Mann-Whitney statistic with ties counted one half, by one sort and a walk
over groups of tied scores; AP is scikit-learn's step sum (no interpolation). ``roc_auc_score``
also takes scikit-learn's ``max_fpr`` (the McClish-standardized partial AUC,
``auc_eval::partial``) and, for a 2-D ``y_score``, ``multi_class="ovr"|"ovo"`` with
``average="macro"|"weighted"`` (``auc_eval::multiclass``; docs/math/partial-auc.md).

How sure an AUC is: ``roc_auc_ci`` (DeLong's interval), ``delong_test`` (the paired test of two
score vectors on the same rows) and ``bootstrap_ci`` (seeded stratified bootstrap intervals of
AUC, AP and the partial AUC); docs/math/delong.md. Decisions: ``operating_point`` (the threshold
meeting a recall, precision, false-positive rate or cost target) and ``precision_recall_curve``
(scikit-learn's).
"""

from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np

from . import _native

__all__ = [
    "roc_auc_score",
    "average_precision_score",
    "roc_curve",
    "precision_recall_curve",
    "roc_auc_ci",
    "delong_test",
    "bootstrap_ci",
    "operating_point",
    "AucCI",
    "DelongTest",
    "OperatingPoint",
]


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


def precision_recall_curve(y_true, y_score, *, pos_label=None):
    """``(precision, recall, thresholds)`` as scikit-learn's ``precision_recall_curve``
    (``drop_intermediate=False``): thresholds are the distinct scores, increasing; precision and
    recall have one more entry, the end point (1, 0)."""
    y, s = _binary(y_true, y_score, pos_label, default_greater=False)
    return _native.pr_curve(s, y)


class AucCI(NamedTuple):
    """The AUC with DeLong's two-sided interval: ``auc -/+ z se`` clipped to [0, 1]."""

    auc: float
    lower: float
    upper: float
    se: float
    level: float


class DelongTest(NamedTuple):
    """The paired DeLong test of two score vectors on the same rows."""

    auc_a: float
    auc_b: float
    delta: float
    delta_ci: tuple[float, float]
    se: float
    z: float
    p_value: float
    correlation: float


class OperatingPoint(NamedTuple):
    """Rates and confusion counts when rows scoring at least ``threshold`` are called positive
    (``threshold`` is ``inf`` when nothing is); ``precision`` is 1 when nothing is."""

    threshold: float
    tpr: float
    fpr: float
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    tn: int
    fn: int


def roc_auc_ci(y_true, y_score, *, level=0.95, pos_label=None) -> AucCI:
    """The AUC with DeLong's confidence interval at ``level`` (DeLong, DeLong and Clarke-Pearson
    1988; Sun and Xu 2014's O(n log n) algorithm): the Wald interval ``auc -/+ z se`` on the AUC
    scale, clipped to [0, 1], as R's pROC ``ci.auc(method="delong")``. Needs 2 examples of each
    class."""
    y, s = _binary(y_true, y_score, pos_label, default_greater=True)
    auc, se, lower, upper = _native.auc_ci(s, y, float(level))
    return AucCI(auc, lower, upper, se, float(level))


def delong_test(y_true, y_score_a, y_score_b, *, level=0.95, pos_label=None) -> DelongTest:
    """The paired DeLong test of two score vectors for the same rows ``y_true``: both AUCs, the
    difference ``auc_a - auc_b`` with its interval at ``level``, ``z`` and the two-sided
    ``p_value``. Raises ``ValueError`` when the two AUCs differ but the difference has no
    variance."""
    y, a = _binary(y_true, y_score_a, pos_label, default_greater=True)
    b = np.ascontiguousarray(y_score_b, dtype=np.float64)
    if b.ndim != 1 or len(b) != len(a):
        raise ValueError(f"y_score_b must be 1-D with {len(a)} scores, got shape {b.shape}")
    auc_a, auc_b, delta, se, lo, hi, z, p, corr = _native.delong_test(a, b, y, float(level))
    return DelongTest(auc_a, auc_b, delta, (lo, hi), se, z, p, corr)


def bootstrap_ci(y_true, y_score, *, n_bootstraps=1000, seed=0, level=0.95, max_fpr=None, pos_label=None) -> dict:
    """Stratified bootstrap percentile intervals (each class resampled apart, ``n_bootstraps``
    replicates drawn from ``seed``) of the AUC, AP and, with ``max_fpr``, the standardized partial
    AUC: ``{"auc": {"lower", "upper", "se"}, "ap": {...}, "pauc": {...} or None, "replicates",
    "seed", "level"}``. The same seed gives the same intervals as ``auc metrics --bootstrap``."""
    y, s = _binary(y_true, y_score, pos_label, default_greater=True)
    mf = None if max_fpr is None else float(max_fpr)
    return json.loads(_native.bootstrap_ci(s, y, int(n_bootstraps), int(seed), float(level), mf))


def operating_point(y_true, y_score, *, recall=None, precision=None, fpr=None, cost=None, pos_label=None) -> OperatingPoint:
    """The operating point meeting exactly one target, on scikit-learn's ``roc_curve`` thresholds
    (``inf``, then the distinct scores decreasing; a row is positive when score >= threshold):

    - ``recall=R``: the largest threshold whose recall (TPR) reaches R;
    - ``precision=P``: the largest recall among thresholds with precision >= P (the largest such
      threshold); ``ValueError`` when no threshold reaches P;
    - ``fpr=F``: the largest TPR with FPR <= F (the largest such threshold);
    - ``cost=(c_fn, c_fp)``: the least ``c_fn * FN + c_fp * FP`` (the largest threshold on ties).
    """
    given = {k: v for k, v in [("recall", recall), ("precision", precision), ("fpr", fpr), ("cost", cost)] if v is not None}
    if len(given) != 1:
        raise ValueError(f"give exactly one of recall, precision, fpr, cost; got {sorted(given) or 'none'}")
    kind, value = next(iter(given.items()))
    if kind == "cost":
        c_fn, c_fp = value
        target = f"cost={float(c_fn)!r}:{float(c_fp)!r}"
    else:
        target = f"{kind}={float(value)!r}"
    y, s = _binary(y_true, y_score, pos_label, default_greater=False)
    return OperatingPoint(*_native.operating_point(s, y, target))
