"""Class moments: fit the batch moment learners from data summarized anywhere.

The batch learners fitted from class moments (``moment_learners()``: the registry rows whose
procedure is "moments", e.g. ``opauc-batch``, ``oauc-m-batch``) minimize a whole-data surrogate
over all positive-negative pairs that depends on the data only through each class's count, mean
and covariance. Those moments, with the per-feature ranges the scaling needs, merge exactly
(``docs/math/batch-moments.md``), so data held in pieces can be summarized piece by piece,
wherever each piece lives, and fitted once:

>>> part = summarize(X_part, y_part, source="part 3")   # doctest: +SKIP
>>> whole = merge(part_a, part_b, part_c)              # doctest: +SKIP
>>> est = fit("opauc-batch", whole, scale="minmax")    # doctest: +SKIP

A summary is the bytes of a moment file (``AUCMOMNT``, as ``auc moments`` writes them): it
pickles cheaply between processes and machines, ``auc train --algo opauc-batch PART.mom ...``
reads it, and ``fit`` reads the files ``auc moments`` writes. ``auclearn.dask.fit`` runs this
over a Dask array or DataFrame; the README and ``docs/distributed.md`` give a Spark recipe.

Moments of mapped rows. A feature map does not commute with moments, so a learner on a map
(``features=`` of the linear estimators) is fitted from the moments of the mapped rows: fit the
map once (``auclearn.FeatureMap(...).fit(X_sample)``, or on the whole data's survey as
``auclearn.dask.fit`` does), then summarize every part through it:

>>> fm = auclearn.FeatureMap("nystroem", 200, seed=3).fit(X_first)        # doctest: +SKIP
>>> parts = [summarize(X_k, y_k, stages=fm) for X_k, y_k in pieces]        # doctest: +SKIP
>>> est = fit("opauc-batch", merge(parts))                                # doctest: +SKIP

Such a summary records the fitted stages (``info(...).stages``); it merges only with summaries
of the same stages (``ValueError`` naming both otherwise), ``auc train`` reads it as a moment
file of ``auc moments --map-from``, and ``fit`` uses the stages it holds, as they are (the
scaling was applied before the map, so ``scale`` is not applied again). The model scores raw
rows: its preparation holds the scaling and the map.
"""

from __future__ import annotations

import json
import numbers
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from . import _native
from ._base import REGISTRY, AUCEstimator, _as_native
from ._feature_map import FeatureMap
from ._registry import Learner


def moment_learners() -> list:
    """Registry names of the learners fitted from class moments, in the registry's order."""
    return [row["name"] for row in REGISTRY if row["from_moments"]]


class MomentsInfo(NamedTuple):
    """What a summary holds."""

    n_features: int
    n_rows: int
    #: ``{label: rows}`` for every label value met, sorted by label.
    label_counts: dict
    #: The ``source`` names of the summarized parts, in the order first met.
    sources: list
    #: The fitted stages (``auclearn._native.Transform``: scaling, then a feature map) the rows
    #: went through before their moments were taken; ``None`` for rows as given.
    stages: object = None


def info(moments: bytes) -> MomentsInfo:
    """The features (of the mapped rows, for a summary with stages), rows, label counts,
    sources and stages of a summary."""
    dim, rows, counts, sources, stages = _native.moments_info(bytes(moments))
    return MomentsInfo(dim, rows, dict(counts), list(sources), stages)


def _stages(stages):
    """Fitted stages as ``_native.moments`` takes them: the map of a fitted ``FeatureMap``, a
    ``_native.Transform``, or the bytes of either's ``to_bytes``."""
    if stages is None or isinstance(stages, _native.Transform):
        return stages
    if isinstance(stages, FeatureMap):
        check_is_fitted(stages, "map_")
        return stages.map_
    if isinstance(stages, (bytes, bytearray, memoryview)):
        return _native.Transform.from_bytes(bytes(stages))
    raise TypeError(
        "stages must be a fitted auclearn.FeatureMap, its map_ (auclearn._native.Transform) or "
        f"the bytes of its to_bytes(), not {type(stages).__name__}"
    )


def _features(X):
    """``X`` as ``_native`` reads it: a float64/float32 array (DataFrames converted) or a CSR
    matrix's arrays (CSC converted, never densified)."""
    # Arrays rebuilt from a network buffer (Dask's serialization) may be misaligned: copied then.
    if sp.issparse(X):
        if X.dtype not in (np.float64, np.float32):
            X = X.astype(np.float64)
        tag, data, indices, indptr, dim = _as_native(X)
        return (tag, *(np.require(a, requirements=("C", "A")) for a in (data, indices, indptr)), dim)
    if hasattr(X, "dtypes") and hasattr(X, "to_numpy"):  # a pandas DataFrame
        same = all(str(d) == "float32" for d in X.dtypes)
        return np.require(X.to_numpy(dtype=np.float32 if same else np.float64), requirements="A")
    X = np.asarray(X)
    if X.dtype not in (np.float64, np.float32):
        X = X.astype(np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows, features); got an array of shape {X.shape}")
    return np.require(X, requirements="A")


def _is_numeric(dtype) -> bool:
    """Whether labels of this dtype are numbers (or booleans) that a summary keeps by value."""
    try:
        dtype = np.dtype(dtype)
    except TypeError:  # a pandas extension dtype (categorical, nullable, string)
        return False
    return dtype == np.bool_ or np.issubdtype(dtype, np.number)


def _labels(y, n: int) -> np.ndarray:
    """Numeric labels as float64."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1 or len(y) != n:
        raise ValueError(f"X has {n} rows but y has shape {y.shape}")
    if not _is_numeric(y.dtype):
        raise TypeError(
            f"labels must be numbers or booleans to be summarized (got dtype {y.dtype}); "
            "pass y == pos_label for other labels"
        )
    return np.require(y, dtype=np.float64, requirements=("C", "A"))


def summarize(X, y, *, source=None, stages=None) -> bytes:
    """The summary (moment-file bytes) of the rows of ``X`` with the numeric labels ``y``.

    ``X``: a 2-D numpy array (float64 C order is read in place; float32 and Fortran order are
    converted a block at a time), a pandas DataFrame or a scipy.sparse CSR/CSC matrix (never
    densified). ``y``: numbers or booleans; moments are kept per label value, and the positive
    class is chosen when fitting. ``source`` names the part in the summary and in error messages.
    ``stages``: a fitted ``auclearn.FeatureMap`` (or its ``map_``, or the bytes of its
    ``to_bytes``): the moments are then of the rows through its scaling and map (a block of rows
    at a time), and the summary records the stages (see the module docs). The GIL is released
    while summarizing.
    """
    shape = X.shape
    return _native.moments(_features(X), _labels(y, shape[0]), source, _stages(stages))


def merge(*parts: bytes, same_dim: bool = True) -> bytes:
    """The exact merge of summaries (Chan's formula per label; ranges by min, max and sums), in
    any grouping. ``same_dim``: refuse parts with different feature counts (parts of one matrix),
    naming them; ``False`` pads the narrower with zero features, as ``auc train`` merges LIBSVM
    files of different widths."""
    if len(parts) == 1 and not isinstance(parts[0], (bytes, bytearray, memoryview)):
        parts = tuple(parts[0])
    return _native.merge_moments([bytes(p) for p in parts], same_dim)


def _estimator(name: str, pos_label, scale, seed, params: dict) -> AUCEstimator:
    """The unfitted estimator of moment learner ``name`` (refusing any other learner)."""
    est = Learner(name, **params)
    if not est._row["from_moments"]:
        raise ValueError(
            f"{est._row['name']} is not fitted from class moments; these are: "
            + ", ".join(moment_learners())
        )
    est.set_params(pos_label=pos_label, scale=scale, seed=seed)
    est._check_common()
    return est


def _binary(est: AUCEstimator, classes: np.ndarray) -> None:
    """Refuses anything but two classes, as ``fit`` of the in-memory estimator does."""
    name = type(est).__name__
    if len(classes) > 2:
        raise ValueError(
            f"Only binary classification is supported: {name} needs exactly two classes in y, "
            f"got {len(classes)}: {classes.tolist()}"
        )
    if len(classes) < 2:
        raise ValueError(f"{name} needs two classes in y, got one class: {classes.tolist()}")


def _finish(est: AUCEstimator, moments: bytes, classes: np.ndarray, code) -> AUCEstimator:
    """Fits ``est`` on merged moments whose positive rows are labelled ``code(pos)``."""
    pos = est._positive(classes)
    if isinstance(pos, (numbers.Real, np.bool_)) and not isinstance(pos, str):
        rule = f"pos_label {pos!r} (auclearn)"
    else:
        rule = f"pos_label {pos!r} (auclearn; written as label 1)"
    est.model_ = _native.fit_moments(
        est._row["name"],
        json.dumps(est._registry_params()),
        bytes(moments),
        [float(code(pos))],
        rule,
        est.scale,
        int(est.seed),
    )
    est.classes_ = classes
    est._sign = 1.0 if pos == classes[1] else -1.0
    est.n_features_in_ = est.model_.dim
    est.threshold_ = 0.0
    return est


#: The linear estimators' feature-map parameters, which a summary's stages decide.
_MAP_PARAMS = ("features", "n_features_map", "feature_sigma", "one_hot")


def fit(name: str, moments: bytes, *, pos_label=None, scale="auto", seed=None, **params):
    """The estimator of moment learner ``name`` (a registry name or alias; parameters as its
    class takes them, ``lam`` or ``lambda``) fitted on a summary.

    The classes are the summary's label values (exactly two; ``pos_label`` as in the
    estimators, ``None``: the larger); ``scale`` (``auto`` by default, as the estimators and the
    CLI) is fitted on the merged feature ranges and applied to the moments, which gives the
    model an in-memory ``fit`` on the same rows gives (to rounding). The summary holds no scores, so ``threshold_`` is 0: ``decision_function``
    equals ``scores`` (as for ``auclearn.load``). Integer-valued labels come back as integers.
    ``seed`` is recorded in the model (0 when ``None``).

    A summary of mapped rows (``summarize(..., stages=...)``) is fitted with the stages it
    records, as they are, like ``auc train`` fits such a moment file: ``scale`` is not applied
    (the rows were scaled before the map), the estimator's ``scale``, ``features``,
    ``n_features_map`` and ``feature_sigma`` are read off the stages, and ``seed`` defaults to
    the map's seed, so the estimator is the one whose ``fit`` would have fitted that map. A map
    cannot be asked for here (``features=``): it is fitted on rows, not on moments.
    """
    given = sorted(set(params) & set(_MAP_PARAMS))
    if given:
        raise ValueError(
            f"{', '.join(given)}: a feature map is fitted on rows, not on their moments; fit the "
            "map (auclearn.FeatureMap), summarize every part with summarize(..., stages=map) "
            "and fit those moments"
        )
    about = info(moments)
    stages = about.stages
    if seed is None:
        seed = stages.seed if stages is not None and stages.seed is not None else 0
    est = _estimator(name, pos_label, scale, seed, params)
    classes = np.array(sorted(about.label_counts), dtype=np.float64)
    if len(classes) and np.all(classes == np.round(classes)):
        classes = classes.astype(np.int64)
    _binary(est, classes)
    est = _finish(est, moments, classes, float)
    if stages is not None:
        fm = est.model_.feature_map
        kind, size, sigma = fm if fm is not None else (None, None, "scale")
        if kind == "poly2":
            size, sigma = None, "scale"
        mapped = {"scale": est.model_.scaling}
        if "features" in est.get_params():
            mapped.update(
                features=kind,
                n_features_map=size,
                feature_sigma=sigma,
                one_hot=est.model_.one_hot,
            )
        est.set_params(**mapped)
    return est
