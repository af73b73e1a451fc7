"""The estimators on tables (SPEC 11): fitting on a data frame (or an array with NaN or text)
through a schema the Rust table layer fits on its columns, and reading later frames by it.

The schema (the label's map, each column's encoding: numbers with their training mean filled in
for a missing cell and a "was missing" feature, categories one-hot or hashed) is fitted on the
training rows and stored in the model file, whose reading it becomes: ``auc predict`` reads a CSV
file with the frame's column names exactly as the estimator reads the frame. The encoded rows are
a float64 matrix that trains through the same route as any array.

Columns are matched by name, in any order; a column the model needs and the frame lacks is a
``ValueError`` naming it; other columns are ignored. An array (no names) is read by position.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from . import _frames, _native


def fit(est, X, y, *, partial: bool, classes=None):
    """Fits ``est`` on the table ``X`` and the labels ``y`` (``partial``: the first batch of
    ``partial_fit``, with its ``classes``)."""
    names, columns, named = _frames.table_columns(X)
    values, y_name = _frames.label_values(y)
    n = _frames.n_rows(columns)
    if len(values) != n:
        raise ValueError(f"X has {n} rows but y has {len(values)} labels")
    values, found = est._binary_targets(values, classes)
    if not set(np.unique(values).tolist()) <= set(found.tolist()):
        raise ValueError(
            f"y holds labels outside the classes {found.tolist()}: {np.unique(values).tolist()}"
        )
    given = est._given_positive()
    if given is not None and given not in found.tolist():
        raise ValueError(f"positive={given!r} is not one of the classes {found.tolist()}")
    label = _frames.label_name(y_name, names)
    all_names = names + [label]
    all_columns = columns + [_frames.label_column(values, label)]
    class_column = None if classes is None else _frames.label_column(found, label)

    def schema_with(positive):
        return _native.table_schema(
            all_names, all_columns, len(names), positive=positive, classes=class_column
        )

    schema = schema_with(None if given is None else _frames.positive_word(given))
    greater = _frames.positive_word(found[1])
    if given is None and values.dtype.kind in "iuf" and schema.positive != [greater]:
        # Numeric labels: the greater is positive, as on arrays (scikit-learn's convention), so
        # a frame and the same numbers as an array train the same model.
        schema = schema_with(greater)
    encoded, positive = schema.encode(all_names, all_columns, "X")
    if positive.any():
        pos = values[int(np.argmax(positive))]
    else:  # a first batch without the positive class: the class it lacks
        pos = next(c for c in found.tolist() if c not in set(values.tolist()))
    est._train(encoded, positive, found, pos, partial, table=schema)
    est.n_features_in_ = len(names)
    if named:
        est.feature_names_in_ = np.asarray(names, dtype=object)
    elif hasattr(est, "feature_names_in_"):
        del est.feature_names_in_
    return est


def rows(est, X, table):
    """The rows of ``X`` encoded by the model's schema ``table``: a frame's columns by name, an
    array's by position."""
    if sp.issparse(X):
        raise TypeError(
            f"{type(est).__name__} was fitted on a table: pass a data frame or a dense array, not "
            "a sparse matrix"
        )
    fitted = getattr(est, "feature_names_in_", None)
    expected = list(fitted) if fitted is not None else list(table.columns)
    if _frames.is_frame(X):
        names, columns, named = _frames.frame_columns(X)
        if fitted is None and named:
            warnings.warn(
                f"X has feature names, but {type(est).__name__} was fitted without feature "
                "names: its columns are read by position",
                UserWarning,
                stacklevel=3,
            )
        if fitted is None:
            if len(names) != len(expected):
                raise ValueError(
                    f"X has {len(names)} features, but {type(est).__name__} is expecting "
                    f"{len(expected)} features as input"
                )
            names = expected
    else:
        names, columns = expected, _frames.array_columns(X, expected, type(est).__name__)
    encoded, _ = table.encode(names, columns, "X")
    return encoded


def continue_fit(est, X, y, table):
    """``partial_fit`` after the first batch of a model of a table."""
    encoded = rows(est, X, table)
    values, _ = _frames.label_values(y)
    if len(values) != encoded.shape[0]:
        raise ValueError(f"X has {encoded.shape[0]} rows but y has {len(values)} labels")
    values, found = est._binary_targets(values, est.classes_)
    if not set(np.unique(values).tolist()) <= set(found.tolist()):
        raise ValueError(
            f"y holds labels outside the classes {found.tolist()}: {np.unique(values).tolist()}"
        )
    positive = values == est._positive_class()
    est.model_.partial_fit(encoded, np.ascontiguousarray(positive), calibration=est.calibration)
    est._set_threshold(encoded, positive)
    est._check_divergence(fitting=False)
    return est


def _label_values(keys: list) -> np.ndarray:
    """Label values as a model file stores them (text, numbers in shortest form): numbers when
    every one is, sorted."""
    try:
        numbers = [float(k) for k in keys]
    except ValueError:
        return np.unique(np.asarray(keys, dtype=object))
    if all(x.is_integer() for x in numbers):
        return np.unique(np.asarray(numbers, dtype=np.int64))
    return np.unique(np.asarray(numbers))


def loaded(est, model) -> None:
    """The attributes of an estimator read from the model file of a table: its columns as
    ``feature_names_in_``, and ``classes_`` its label's two values (sorted; ``decision_function``
    scores ``classes_[1]``, with the sign of the model's own scores when that is its positive
    class). A label of more than two values keeps ``classes_ = [0, 1]``, 1 the positive class."""
    table = model.table
    est.n_features_in_ = len(table.columns)
    est.feature_names_in_ = np.asarray(table.columns, dtype=object)
    keys = [k for k, _ in table.label_values]
    if len(keys) != 2 or len(table.positive) != 1:
        return
    classes = _label_values(keys)
    pos = _label_values(table.positive)[0]
    est.classes_ = classes
    est._sign = 1.0 if classes[1] == pos else -1.0
