"""Estimator classes by registry name, and the fitted estimators of model files."""

from __future__ import annotations

import json
import os

import numpy as np

from . import _native, _tables
from ._base import PYTHON_NAMES, REGISTRY, AUCEstimator, python_name, takes_map
from .estimators import ESTIMATORS


def estimator_class(name: str) -> type:
    """The class of the algorithm called ``name`` (a registry name or alias, as after ``auc
    train --algo``)."""
    for row in REGISTRY:
        if name == row["name"] or name in row["aliases"]:
            return ESTIMATORS[row["name"]]
    raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(ESTIMATORS)}")


def Learner(name: str, **params) -> AUCEstimator:  # noqa: N802 (a factory spelled as a class)
    """The estimator of the algorithm called ``name`` (a registry name or alias), e.g.
    ``Learner("opauc", eta=0.5)`` is ``Opauc(eta=0.5)``. Parameters use the Python spelling
    (``lam`` for ``lambda``); the registry spelling is accepted too."""
    cls = estimator_class(name)
    params = {PYTHON_NAMES.get(k, k): v for k, v in params.items()}
    return cls(**params)


def load(path) -> AUCEstimator:
    """Reads a model file written by ``auc train`` or ``save`` and returns its fitted estimator.

    The file does not store the Python labels nor a ``predict`` threshold: the loaded estimator
    has ``classes_ = [0, 1]`` (1: the model's positive class) and ``threshold_ = 0.0``, so
    ``scores`` and ``decision_function`` both return the model's scores of its positive class
    (as ``auc predict`` prints them). Set ``threshold_`` to predict with another cut.

    A model of a table (fitted on a data frame, or by ``auc train`` on a CSV file with named
    columns) stores its columns and its label's values: ``feature_names_in_`` are its columns,
    ``classes_`` the label's two values (sorted; numbers when both are), and ``scores`` those
    of ``classes_[1]``, which is the model's scores negated when its positive class is
    ``classes_[0]`` (as for the estimator that was saved).
    """
    with open(os.fspath(path), "rb") as f:
        data = f.read()
    return from_bytes(data)


def from_bytes(data: bytes) -> AUCEstimator:
    """The fitted estimator of a model file's bytes (see ``load``)."""
    return from_model(_native.Model.from_bytes(data))


def from_model(model) -> AUCEstimator:
    """The fitted estimator of a native model (``_native.Model``): its class, its parameters,
    ``classes_ = [0, 1]`` and ``threshold_ = 0.0`` (see ``load``)."""
    cls = ESTIMATORS[model.algorithm]
    stored = json.loads(model.params)
    kwargs = {python_name(k): v for k, v in stored.items()}
    kwargs["seed"] = model.seed
    kwargs["scale"] = model.scaling
    kwargs["cross_hash_bits"] = model.cross_bits
    row = ESTIMATORS[model.algorithm]._row
    if row["family"] == "linear":
        kwargs["average"] = model.averaged
    if takes_map(row):
        kwargs["one_hot"] = model.one_hot
        fm = model.feature_map
        if fm is not None:
            kwargs["features"], kwargs["n_features_map"], kwargs["feature_sigma"] = fm
            if fm[0] == "poly2":
                kwargs["n_features_map"], kwargs["feature_sigma"] = None, "scale"
    est = cls(**kwargs)
    est.model_ = model
    est.classes_ = np.array([0, 1])
    est._sign = 1.0
    est.threshold_ = 0.0
    est.n_features_in_ = model.dim
    if model.table is not None:
        _tables.loaded(est, model)
    return est
