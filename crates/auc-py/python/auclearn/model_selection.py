"""The papers' evaluation protocol from Python: repeated stratified K-fold cross-validation with
an inner grid search on each training part, run in Rust exactly as ``auc cv`` runs it."""

from __future__ import annotations

import json

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_array

from ._base import PYTHON_NAMES, _as_native, _plain
from ._registry import estimator_class

__all__ = ["nested_cv"]

_REGISTRY_NAMES = {v: k for k, v in PYTHON_NAMES.items()}


def _registry_name(name: str) -> str:
    return _REGISTRY_NAMES.get(name, name)


def nested_cv(
    estimator_name: str,
    X,
    y,
    *,
    grid="default",
    params=None,
    repeats: int = 4,
    folds: int = 5,
    inner_folds: int = 5,
    seed: int = 0,
    scale: str = "minmax",
    unit_norm: bool = False,
    max_train=None,
    average: bool = False,
    pos_label=None,
) -> dict:
    """Runs ``repeats`` x ``folds`` stratified outer splits; on each training part the grid's
    candidates are compared by ``inner_folds``-fold CV (mean validation AUC), the best is fitted
    on the whole part (fed in a seeded random order, scaled on itself) and scored on the test
    part. Every random choice derives from ``seed``, so results repeat exactly (and equal
    ``auc cv`` on the same rows).

    ``estimator_name``: a registry name or alias (``"opauc"``) or an estimator class.
    ``grid``: ``"default"`` (the registry's grid), ``"paper"`` (the papers' full grid), ``None``
    (no search), or a dict ``{parameter: [values]}`` (Python or registry spelling).
    ``params``: fixed parameters. ``scale``: ``minmax`` (the papers'), ``maxabs``, ``auto`` or
    ``none``, fitted on each training part only.

    Returns ``{"runs": [...], "summary": {...}}``: one record per run as ``auc cv --json`` prints
    them (``run``, ``repeat``, ``fold``, ``auc``, ``ap``, ``params``, ``inner_auc``,
    ``train_seconds``, ...) and the summary line (means, standard deviations, costs).
    """
    if isinstance(estimator_name, type):
        name = estimator_name._row["name"]
    else:
        name = estimator_class(estimator_name)._row["name"]
    X = check_array(X, accept_sparse=("csr", "csc"), dtype=[np.float64, np.float32])
    y = np.asarray(y)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"nested_cv needs exactly two classes in y, got {classes.tolist()}")
    pos = classes[1] if pos_label is None else pos_label
    words, axes = [], []
    if isinstance(grid, str):
        words = [grid]
    elif grid is not None:
        for k, values in dict(grid).items():
            axes.append((_registry_name(k), json.dumps([_plain(v) for v in values])))
    fixed = {_registry_name(k): _plain(v) for k, v in (params or {}).items()}
    from . import _native

    out = _native.nested_cv(
        name,
        _as_native(X) if sp.issparse(X) else X,
        np.ascontiguousarray(y == pos),
        json.dumps(fixed),
        words,
        axes,
        int(repeats),
        int(folds),
        int(inner_folds),
        int(seed),
        scale,
        bool(unit_norm),
        None if max_train is None else int(max_train),
        bool(average),
    )
    return json.loads(out)
