"""Fit the batch moment learners on Dask collections: one parallel pass, exact.

``fit(name, X, y, ...)`` computes each partition's class moments with the Rust core on the
workers (a moment-file byte string per partition, see ``auclearn.moments``), merges them in a
tree of exact merges (Chan's formula; ``fan_in`` summaries per merge task) and solves on the
client. The model equals the in-memory ``fit`` of the same estimator on the same rows to
rounding (the pytest suite checks 1e-10 on a two-process ``LocalCluster``): the whole-data
surrogates these learners minimize depend on the data only through the merged moments
(``docs/math/batch-moments.md``).

With a feature map (``features="nystroem"``, ``"rff"`` or ``"elm"``, as the linear estimators
take it) the fit takes two passes. The first surveys every partition on the workers: the
feature ranges when ``scale`` is fitted on them, and the map's seeded sample (at most 10,000
rows, each kept by a hash of its content and the seed, so that the samples of partitions merge
into the sample of all rows, whatever the partitioning). The surveys merge in a tree, exactly,
and the client fits the stages (scaling, then the map) on the merged survey: the very transform,
bit for bit, that the in-memory estimator fits on the concatenated rows. The second pass takes
each partition's moments of the mapped rows with that transform (sent once to each worker as
bytes); they merge and solve as above, so the model again equals the in-memory fit to rounding.

Dask is optional (``pip install auclearn[dask]``) and imported only when this module is.
Computations run on Dask's current scheduler: the active ``distributed.Client`` if there is
one, else the local threads (the moment pass releases the GIL).
"""

from __future__ import annotations

import numpy as np

import dask
import dask.array as da

from . import _native
from . import moments as _moments
from ._base import AUCEstimator, _youden_threshold, memory_limit


def _check_columns(X, source: str, dim: int) -> None:
    """Refuses a partition with another number of columns than ``X``, naming it."""
    p = X.shape[1]
    if p != dim:
        raise ValueError(
            f"{source} has {p} features but X has {dim}: every partition must have the same columns"
        )


def _partition_moments(X, y, index: int, dim: int, positive, stages=None) -> bytes:
    """A partition's summary; ``positive``: ``None`` keeps numeric labels by value, otherwise
    rows labelled ``positive`` become label 1 and the others 0; ``stages``: the bytes of the
    fitted transform the rows go through first (a feature map), or ``None``."""
    source = f"partition {index}"
    n = X.shape[0]
    _check_columns(X, source, dim)
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if len(y) != n:
        raise ValueError(f"{source}: X has {n} rows but y has {len(y)} labels")
    if positive is not None:
        y = (y == positive).astype(np.float64)
    try:
        return _moments.summarize(X, y, source=source, stages=stages)
    except (ValueError, TypeError) as e:
        raise type(e)(f"{source}: {e}") from None


def _merge(*parts: bytes) -> bytes:
    return _moments.merge(*parts)


def _partition_sample(X, index: int, dim: int, scale: str, map_args: dict, seed: int) -> bytes:
    """A partition's survey for the stages (``_native.map_sample``): its feature ranges when
    ``scale`` is fitted on them and the map's seeded sample."""
    source = f"partition {index}"
    _check_columns(X, source, dim)
    try:
        return _native.map_sample(_moments._features(X), scale, seed=seed, **map_args)
    except (ValueError, TypeError) as e:
        raise type(e)(f"{source}: {e}") from None


def _merge_samples(*parts: bytes) -> bytes:
    return _native.merge_map_samples(list(parts))


def _fit_stages(est: AUCEstimator, x_parts: list, dim: int, fan_in: int) -> bytes:
    """The bytes of the stages ``est`` asks for (scaling, then its feature map), fitted on the
    merged surveys of the partitions: the transform ``est.fit`` fits on all rows at once."""
    map_args = est._map_kwargs()
    seed = int(est.seed)
    parts = [
        dask.delayed(_partition_sample, pure=True)(xp, k, dim, est.scale, map_args, seed)
        for k, xp in enumerate(x_parts)
    ]
    (survey,) = dask.compute(_tree(parts, fan_in, _merge_samples))
    stages = _native.Transform.fit_from_sample(
        survey, est.scale, seed=seed, max_memory=memory_limit(), **map_args
    )
    return stages.to_bytes()


def _partition_scores(model, X, y, positive):
    """Scores of a partition's rows (of the model's positive class) and which rows are
    positive."""
    scores = model.decision_function(_moments._features(X))
    y = np.asarray(y)
    if y.ndim == 2:
        y = y.ravel()
    return scores, np.asarray(y == positive)


def _tree(parts: list, fan_in: int, merge=_merge):
    """A tree of ``merge`` tasks over ``parts``, ``fan_in`` summaries per task."""
    level = parts
    while len(level) > 1:
        level = [
            dask.delayed(merge, pure=True)(*level[i : i + fan_in])
            for i in range(0, len(level), fan_in)
        ]
    return level[0]


def _is_dataframe(obj) -> bool:
    return dask.is_dask_collection(obj) and hasattr(obj, "columns") and hasattr(obj, "dtypes")


def _split(X, y):
    """Delayed partitions of X and y (aligned), the number of features, the feature names of a
    DataFrame (or None) and the labels' dtype."""
    names = None
    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (rows, features); got a dask array of shape {X.shape}")
        if len(X.chunks[1]) > 1:
            X = X.rechunk({1: -1})
        dim = X.shape[1]
        x_parts = X.to_delayed().ravel().tolist()
    elif _is_dataframe(X):
        dim = len(X.columns)
        if all(isinstance(c, str) for c in X.columns):
            names = np.asarray(list(X.columns), dtype=object)
        x_parts = X.to_delayed()
    else:
        raise TypeError(
            f"X must be a dask array or a dask DataFrame, not {type(X).__name__}; "
            "fit in-memory data with the estimator itself (auclearn.Learner(name).fit(X, y))"
        )
    if isinstance(y, da.Array):
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1:
            raise ValueError(f"y must be 1-D; got a dask array of shape {y.shape}")
        known = isinstance(X, da.Array) and not any(np.isnan(X.chunks[0]))
        if known and not any(np.isnan(y.chunks[0])) and y.chunks[0] != X.chunks[0]:
            if y.shape[0] != X.shape[0]:
                raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels")
            y = y.rechunk((X.chunks[0],))
        dtype = y.dtype
        y_parts = y.to_delayed().ravel().tolist()
    elif dask.is_dask_collection(y) and hasattr(y, "dtype"):  # a dask Series
        dtype = y.dtype
        y_parts = y.to_delayed()
    elif isinstance(X, da.Array) and not any(np.isnan(X.chunks[0])):
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.shape != (X.shape[0],):
            raise ValueError(f"X has {X.shape[0]} rows but y has shape {y.shape}")
        dtype = y.dtype
        y_parts = np.split(y, np.cumsum(X.chunks[0])[:-1])
    else:
        raise TypeError(
            "y must be a dask array or Series partitioned like X (or an in-memory array when X "
            "is a dask array with known chunk sizes)"
        )
    if len(x_parts) != len(y_parts):
        raise ValueError(
            f"X has {len(x_parts)} partitions but y has {len(y_parts)}: partition them alike "
            "(e.g. X = frame[features], y = frame[label] of one dask DataFrame)"
        )
    return x_parts, y_parts, dim, names, dtype


def _unique(y) -> np.ndarray:
    return np.unique(np.asarray(y))


def _classes(y_parts) -> np.ndarray:
    """The sorted distinct labels (a pass over the labels alone)."""
    found = dask.compute(*[dask.delayed(_unique, pure=True)(v) for v in y_parts])
    return np.unique(np.concatenate(found))


def fit(
    name: str,
    X,
    y,
    *,
    pos_label=None,
    scale: str = "auto",
    seed: int = 0,
    threshold: str = "zero",
    fan_in: int = 8,
    features=None,
    n_features_map=None,
    feature_sigma="scale",
    one_hot=None,
    **params,
) -> AUCEstimator:
    """Fits moment learner ``name`` (``auclearn.moments.moment_learners()``; a registry name or
    alias) on a Dask collection and returns its fitted estimator, the same object the
    estimator's own ``fit`` returns (``scores``, ``decision_function``, ``predict`` on in-memory
    data, ``save``, pickling).

    ``X``: a dask array (chunked along rows; column chunks are merged into one), whose blocks are
    numpy arrays or scipy.sparse matrices, or a dask DataFrame of numeric columns. ``y``: a dask
    array or Series with the same partitions (a dask array is rechunked like ``X`` when both
    chunk sizes are known; an in-memory array is split like a dask array ``X``). Labels: any two
    values, ``pos_label`` as in the estimators (``None``: the larger). Numeric labels take one
    pass over the data; other labels (strings, categories) take a first pass over ``y`` alone to
    find the classes. ``scale`` (``auto`` by default, as the estimators; ``none``, ``minmax``,
    ``maxabs``) is fitted on the merged feature ranges, as the in-memory estimator fits it on all
    rows. Empty partitions are
    fine; a partition with other columns, or whose X and y lengths differ, is named in the error.

    ``features`` (``None``, ``"nystroem"``, ``"rff"``, ``"elm"``, ``"poly2"``),
    ``n_features_map``, ``feature_sigma`` and ``one_hot``: one-hot indicators and a feature map
    after the scaling, as the linear estimators take them (the sample's seed is ``seed``). It is fitted on the client from the partitions' merged surveys (a
    first pass: see the module docs), exactly the map the in-memory estimator fits, and the
    moments are then those of the mapped rows; the model stores the scaling and the map and
    scores raw rows.

    ``threshold``: ``"zero"`` sets ``threshold_ = 0`` (``decision_function`` equals ``scores``,
    as for ``auclearn.load``); ``"youden"`` computes the in-memory estimator's threshold (the
    score maximizing TPR - FPR on the training rows) by a second pass over the data that brings
    every row's score and class to the client (9 bytes a row). ``fan_in``: summaries per merge
    task. Learner parameters (``lam``, ...) follow as keywords.
    """
    if threshold not in ("zero", "youden"):
        raise ValueError(f"threshold must be 'zero' or 'youden', not {threshold!r}")
    if not isinstance(fan_in, int) or fan_in < 2:
        raise ValueError(f"fan_in must be an integer of at least 2, not {fan_in!r}")
    if (
        features is not None
        or n_features_map is not None
        or feature_sigma != "scale"
        or one_hot is not None
    ):
        params = dict(
            params,
            features=features,
            n_features_map=n_features_map,
            feature_sigma=feature_sigma,
            one_hot=one_hot,
        )
    est = _moments._estimator(name, pos_label, scale, seed, params)
    x_parts, y_parts, dim, names, dtype = _split(X, y)
    if not x_parts:
        raise ValueError("X has no partitions")
    numeric = _moments._is_numeric(dtype)
    positive = None
    if not numeric:
        classes = _classes(y_parts)
        _moments._binary(est, classes)
        positive = est._positive(classes)
    stages = None
    if getattr(est, "features", None) is not None or getattr(est, "one_hot", None) is not None:
        stages = dask.delayed(_fit_stages(est, x_parts, dim, fan_in), pure=True)
    parts = [
        dask.delayed(_partition_moments, pure=True)(xp, yp, k, dim, positive, stages)
        for k, (xp, yp) in enumerate(zip(x_parts, y_parts))
    ]
    (summary,) = dask.compute(_tree(parts, fan_in))
    if numeric:
        counts = _moments.info(summary).label_counts
        classes = np.array(sorted(counts), dtype=np.float64).astype(dtype)
        _moments._binary(est, classes)
        code = float
    else:
        code = lambda pos: 1.0  # noqa: E731 (rows of the positive class were written as 1)
    est = _moments._finish(est, summary, classes, code)
    if names is not None:
        est.feature_names_in_ = names
    if threshold == "youden":
        pos = est._positive(classes)
        model = dask.delayed(est.model_)
        pairs = dask.compute(
            *[
                dask.delayed(_partition_scores, pure=True)(model, xp, yp, pos)
                for xp, yp in zip(x_parts, y_parts)
            ]
        )
        scores = np.concatenate([s for s, _ in pairs]) * est._sign
        is_pos = np.concatenate([p for _, p in pairs])
        est.threshold_ = _youden_threshold(scores, is_pos if est._sign > 0 else ~is_pos)
    return est
