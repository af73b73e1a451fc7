"""The hand-written half of the estimators: the base classes and the registry they read.

Every estimator class is ordinary source in ``estimators.py``, generated from the Rust learner
registry (``auc_learners::ALL``) by ``python -m auclearn._generate``: one class per registry row
whose constructor takes the row's parameters with the row's defaults (``lambda`` is spelled
``lam``) plus the shared arguments of ``common_params`` (``seed``, ``scale``, ``positive``,
``pos_label``, ``calibration``, ``calibration_folds``, ``cross_hash_bits``, ``allow_diverged``,
for linear learners ``average``,
and for the learners whose model is linear in its input (``takes_map``: the linear learners and
the moment learners) ``one_hot`` and the feature map's ``features``, ``n_features_map`` and
``feature_sigma``). What the classes do is here, in ``AUCEstimator`` and
``OnlineAUCEstimator``, driven by each class's registry row (``_row``). Nothing here names a
learner. Data frames and arrays with missing values or text go through a table's schema
(``auclearn._tables``); numeric arrays and sparse matrices are read as they are.
"""

from __future__ import annotations

import json
import keyword
import numbers
import os
import tempfile
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _frames, _native, _tables

#: Registry parameter names that are Python keywords, and how Python spells them.
PYTHON_NAMES = {"lambda": "lam"}

#: Every registry row (``auc algos --json``), in the registry's order.
REGISTRY = json.loads(_native.registry())


def python_name(spec_name: str) -> str:
    """The constructor argument of a registry parameter."""
    name = PYTHON_NAMES.get(spec_name, spec_name.replace("-", "_"))
    if keyword.iskeyword(name) or not name.isidentifier():
        raise RuntimeError(f"registry parameter {spec_name!r} has no Python spelling")
    return name


def registry_row(name: str) -> dict:
    """The registry row of the learner called ``name`` (its registry name, not an alias): what
    a generated class reads as ``_row``."""
    for row in REGISTRY:
        if row["name"] == name:
            return row
    raise RuntimeError(
        f"the learner registry has no {name!r}: regenerate auclearn/estimators.py "
        "(python crates/auc-py/python/auclearn/_generate.py)"
    )


def default_row() -> dict:
    """The registry row of the default learner (``auc train`` without ``--algo``; ``"default":
    true`` in ``auc algos --json``)."""
    rows = [row for row in REGISTRY if row.get("default")]
    if len(rows) != 1:
        raise RuntimeError(f"the registry marks {len(rows)} default learners, not one")
    return rows[0]


#: The feature maps, as the CLI's ``--features`` names them.
MAP_KINDS = ("nystroem", "rff", "elm", "poly2")


def takes_map(row: dict) -> bool:
    """Whether the estimator of a registry row takes a feature map (``features=``): the rows
    whose model is linear in its input features (``linear_model``: the linear learners, the
    batch learners fitted from class moments and pAUC-SVM), as ``auc train --features`` maps
    the rows of any of them."""
    return bool(row["linear_model"])


def memory_limit() -> int:
    """Bytes a learner may take: the ``auc`` command's default ``--max-memory``, three quarters
    of the least of physical memory, the process's cgroup limit (a container's) and its
    ``ulimit -v`` / data limits; a larger estimate raises ``MemoryError`` before anything is
    allocated."""
    return _native.default_memory_limit()


def _as_native(X):
    """What ``_native`` reads: the array itself, or a CSR matrix's arrays (CSC converted to CSR,
    duplicates summed and indices sorted; nothing is densified)."""
    if sp.issparse(X):
        if X.format != "csr":
            X = X.tocsr()
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        return ("csr", X.data, X.indices, X.indptr, X.shape[1])
    return X


def _plain(value):
    """A parameter value as JSON: numpy scalars become Python numbers."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _youden_threshold(scores: np.ndarray, positive: np.ndarray) -> float:
    """A score threshold maximizing TPR - FPR (Youden's J) on these scores: among the ROC
    points, the first (highest-threshold) maximum, placed halfway between its score and the next
    lower distinct score, so that no training score lies on it."""
    if positive.all() or not positive.any():
        return 0.0
    fpr, tpr, thr = _native.roc_curve(np.ascontiguousarray(scores, dtype=np.float64), positive)
    k = int(np.argmax(tpr - fpr))
    if k == 0:  # nothing positive is best: above every score
        return float(thr[1]) + 1.0
    if k == len(thr) - 1:  # everything positive is best: below every score
        return float(thr[k]) - 1.0
    return float(thr[k] + (thr[k + 1] - thr[k]) / 2)


class AUCEstimator(ClassifierMixin, BaseEstimator):
    """Base class of the generated estimators (see the class of each algorithm).

    The threshold rule: these learners have no intercept, so the estimator stores one.
    ``scores(X)`` are the model's own scores of ``classes_[1]`` (what ``auc predict`` prints for
    the saved model); ``threshold_`` is the score threshold that maximizes TPR - FPR (Youden's J)
    on the training rows of the last ``fit`` (or of the last ``partial_fit`` batch holding both
    classes), halfway between two distinct training scores; ``decision_function(X) = scores(X) -
    threshold_`` and ``predict`` returns ``classes_[1]`` where it is positive (scikit-learn's
    convention). The offset changes no ranking: AUC of ``decision_function`` and ``scores`` are
    equal. The scores are not probabilities: ``predict_proba`` exists only with ``calibration``.

    With ``calibration="sigmoid"`` or ``"isotonic"``, ``fit`` also fits a map from scores to
    probabilities on the held-out scores of a stratified ``calibration_folds``-fold
    cross-validation of the training rows (``auc train --calibrate``; scikit-learn's
    ``CalibratedClassifierCV(ensemble=False)``), stored in the model; ``partial_fit`` refits it
    on each batch's prequential scores (each row scored before the learner steps on it). Then
    ``predict_proba`` gives the two classes' probabilities in ``classes_`` order,
    ``decision_function`` is the calibrated log-odds of ``classes_[1]`` and ``predict`` the class
    whose probability is above 1/2, so the three agree.
    """

    #: The registry row (set on each generated class).
    _row: dict = {}

    # -- parameters ---------------------------------------------------------------------------

    def _registry_params(self) -> dict:
        """The parameters given to the registry: those that differ from the row's defaults
        (a default left in place may follow another parameter there, as GAM-CVM's epsilon on
        landmarks does, like ``auc`` without ``--param epsilon``)."""
        out = {}
        for spec in self._row["params"]:
            value = _plain(getattr(self, python_name(spec["name"])))
            if spec["type"] == "integer" and isinstance(value, float) and value.is_integer():
                value = int(value)
            if value == spec["default"] and type(value) is type(spec["default"]):
                continue
            out[spec["name"]] = value
        return out

    def _check_common(self):
        if self.scale not in ("none", "minmax", "maxabs", "auto"):
            raise ValueError(
                f"scale must be one of 'none', 'minmax', 'maxabs', 'auto', not {self.scale!r}"
            )
        if not isinstance(self.allow_diverged, (bool, np.bool_)):
            raise ValueError(f"allow_diverged must be True or False, not {self.allow_diverged!r}")
        if (
            self.positive is not None
            and self.pos_label is not None
            and self.positive != self.pos_label
        ):
            raise ValueError(
                f"positive={self.positive!r} and pos_label={self.pos_label!r} name two classes: "
                "give one of them"
            )
        if not isinstance(self.seed, numbers.Integral) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, not {self.seed!r}")
        if self.calibration not in (None, "sigmoid", "isotonic"):
            raise ValueError(
                f"calibration must be None, 'sigmoid' or 'isotonic', not {self.calibration!r}"
            )
        folds = self.calibration_folds
        if isinstance(folds, bool) or not isinstance(folds, numbers.Integral) or folds < 2:
            raise ValueError(f"calibration_folds must be an integer >= 2, not {folds!r}")
        bits = self.cross_hash_bits
        if bits is not None and (
            isinstance(bits, bool) or not isinstance(bits, numbers.Integral) or not 1 <= bits <= 30
        ):
            raise ValueError(f"cross_hash_bits must be None or an integer from 1 to 30, not {bits!r}")
        features = getattr(self, "features", None)
        if features is not None and features not in MAP_KINDS:
            raise ValueError(
                f"features must be None, 'nystroem', 'rff', 'elm' or 'poly2', not {features!r}"
            )
        n = getattr(self, "n_features_map", None)
        if n is not None and (
            isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1
        ):
            raise ValueError(f"n_features_map must be a positive integer or None, not {n!r}")
        if n is not None and features == "poly2":
            raise ValueError(
                "n_features_map must be None with features='poly2' (it gives the features and "
                "their pairwise products)"
            )
        k = getattr(self, "one_hot", None)
        if k is not None and (
            isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 3 <= k <= 1024
        ):
            raise ValueError(f"one_hot must be None or an integer from 3 to 1024, not {k!r}")

    def _map_kwargs(self) -> dict:
        """The arguments of ``_native.fit`` for the one-hot stage and the feature map (none
        without ``one_hot`` and ``features``)."""
        out = {}
        k = getattr(self, "one_hot", None)
        if k is not None:
            out["one_hot"] = int(k)
        features = getattr(self, "features", None)
        if features is None:
            return out
        n = getattr(self, "n_features_map", None)
        sigma = getattr(self, "feature_sigma", "scale")
        out["features"] = features if n is None else f"{features}:{int(n)}"
        out["feature_sigma"] = str(_plain(sigma))
        return out

    # -- data ---------------------------------------------------------------------------------

    def _validate_X(self, X, reset: bool):
        return validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=("csr", "csc"),
            dtype=[np.float64, np.float32],
        )

    def _binary_targets(self, y, classes=None):
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected.",
                DataConversionWarning,
            )
            y = y.ravel()
        check_classification_targets(y)
        found = np.unique(y) if classes is None else np.unique(np.asarray(classes))
        if len(found) > 2:
            raise ValueError(
                f"Only binary classification is supported: {type(self).__name__} needs exactly "
                f"two classes in y, got {len(found)}: {found.tolist()}"
            )
        if len(found) != 2:
            raise ValueError(
                f"{type(self).__name__} needs two classes in y, got one class: {found.tolist()}"
            )
        return y, found

    def _given_positive(self):
        """The positive class the user named (``positive``, or its older name ``pos_label``),
        or ``None``."""
        return self.pos_label if self.positive is None else self.positive

    def _positive(self, classes):
        given = self._given_positive()
        pos = classes[1] if given is None else given
        if pos not in classes.tolist():
            word = "pos_label" if self.positive is None else "positive"
            raise ValueError(f"{word}={pos!r} is not one of the classes {classes.tolist()}")
        return pos

    def _positive_class(self):
        """The class the model ranks first (its positive class)."""
        return self.classes_[1] if self._sign > 0 else self.classes_[0]

    # -- training -----------------------------------------------------------------------------

    def _start(self, X, y, classes, partial: bool):
        self._check_common()
        pos = self._positive(classes)
        if isinstance(pos, (numbers.Real, np.bool_)) and not isinstance(pos, str):
            positive_labels = [float(pos)]
            rule = f"pos_label {pos!r} (auclearn)"
        else:
            positive_labels = [1.0]
            rule = f"pos_label {pos!r} (auclearn; written as label 1)"
        self._train(X, y == pos, classes, pos, partial, positive_labels, rule)

    def _train(
        self, X, positive, classes, pos, partial, positive_labels=(1.0,), rule="", table=None
    ):
        """Trains on the rows ``X`` (numeric) whose positive-class rows ``positive`` marks, the
        class ``pos`` of ``classes`` positive; ``table``: the schema ``X`` was encoded by."""
        self.classes_ = classes
        self._sign = 1.0 if pos == classes[1] else -1.0
        kwargs = {}
        if self._row["family"] == "linear":
            kwargs["average"] = bool(self.average)
        if takes_map(self._row):
            kwargs.update(self._map_kwargs())
        self.model_ = _native.fit(
            self._row["name"],
            json.dumps(self._registry_params()),
            _as_native(X),
            np.ascontiguousarray(positive),
            int(self.seed),
            self.scale,
            list(positive_labels),
            rule,
            partial=partial,
            max_memory=memory_limit(),
            calibration=self.calibration,
            calibration_folds=int(self.calibration_folds),
            cross_hash_bits=None if self.cross_hash_bits is None else int(self.cross_hash_bits),
            table=table,
            **kwargs,
        )
        self._set_threshold(X, positive)
        self._check_divergence(fitting=not partial)

    def _set_threshold(self, X, positive):
        if positive.all() or not positive.any():
            if not hasattr(self, "threshold_"):
                self.threshold_ = 0.0
            return
        scores = self.model_.decision_function(_as_native(X)) * self._sign
        self.threshold_ = _youden_threshold(scores, positive if self._sign > 0 else ~positive)

    def _check_divergence(self, fitting: bool):
        """A model whose training diverged (its state grew without bound): with
        ``allow_diverged`` a ``RuntimeWarning``; else a ``RuntimeError``, and a ``fit`` leaves no
        model behind (a continued model keeps its diverged state)."""
        d = self.model_.diverged
        if d is None:
            return
        text = f"{self._row['name']} diverged: {d}"
        if self.allow_diverged:
            warnings.warn(text, RuntimeWarning, stacklevel=5)
            return
        if fitting:
            del self.model_
        advice = " or scale the features (scale='auto')" if self.scale == "none" else ""
        raise RuntimeError(
            f"{text}; pass allow_diverged=True to keep the model with a warning{advice}"
        )

    def fit(self, X, y):
        """Trains on ``X`` (n_samples, n_features) and the two-valued labels ``y``.

        ``X`` is a numeric array, a sparse matrix, or a table: a pandas or polars DataFrame, a
        pyarrow Table, or an array with NaN or text, whose columns (numbers, text, categories,
        booleans, with missing values) are encoded by a schema fitted here and stored in the
        model (see the package docs). ``y`` holds any two values: numbers, strings or booleans.

        One-pass learners see the rows once, in the given order (shuffle sorted data first);
        batch learners fit on all of them. The GIL is released while training. A training run
        that diverged raises ``RuntimeError`` unless ``allow_diverged``.
        """
        if _frames.is_table(X):
            self._check_common()
            return _tables.fit(self, X, y, partial=False)
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse=("csr", "csc"),
            dtype=[np.float64, np.float32],
        )
        y, classes = self._binary_targets(y)
        self._start(X, y, classes, partial=False)
        return self

    def _rows(self, X):
        """``X`` as the model reads it: a table's rows encoded by the model's schema (columns
        matched by name), other input checked as arrays."""
        check_is_fitted(self, "model_")
        table = self.model_.table
        if table is not None:
            return _tables.rows(self, X, table)
        return _as_native(self._validate_X(X, reset=False))

    def scores(self, X):
        """The model's scores of ``classes_[1]`` (larger: more likely ``classes_[1]``), with the
        scaling fitted on the training data applied: for a model saved with ``save``, the numbers
        ``auc predict`` prints (up to the sign when the positive class is ``classes_[0]``). The
        GIL is released while scoring."""
        rows = self._rows(X)
        return self.model_.decision_function(rows) * self._sign

    def scores_file(self, path, output=None, *, strict_dim=False, zero_based=None):
        """``scores`` of every row of the data file ``path`` (LIBSVM or CSV, gzip detected),
        read as the model's training data was read (for a model fitted on arrays: LIBSVM, the
        columns as feature indices 1, 2, ...) and prepared with its stages, chunk by chunk: the
        file is never loaded into numpy, memory is the output array and a few chunks. The
        numbers ``auc predict`` prints for the saved model (up to the sign when ``pos_label``
        is ``classes_[0]``). With ``output`` (a path), the scores are written there one per
        line as ``auc predict -o`` writes them, the file appearing when every row is scored,
        and the number of rows is returned. A feature past the model's columns is dropped
        unless ``strict_dim``. ``zero_based`` (``"auto"``, ``"yes"`` / ``True``, ``"no"`` /
        ``False``) says whether LIBSVM indices count from 0, as ``auc predict --zero-based``:
        by default (``None``) as the model's training data was read, so a model fitted on
        arrays, whose columns are indices 1, 2, ..., scores a file that scikit-learn's
        ``dump_svmlight_file`` wrote (0-based) with ``zero_based="yes"``. The GIL is released
        while reading and scoring."""
        check_is_fitted(self, "model_")
        from ._stream import check_paths, zero_based_word

        (path,) = check_paths(path)
        if output is not None:
            output = os.fspath(output)
            if self._sign < 0:
                raise ValueError(
                    "output= writes the model's own scores, of the model's positive class; "
                    "this estimator scores classes_[1] with the opposite sign (pos_label is "
                    "classes_[0]): call scores_file without output and write the array"
                )
        got = _native.score_file(
            self.model_,
            path,
            output,
            strict_dim=bool(strict_dim),
            zero_based=None if zero_based is None else zero_based_word(zero_based),
        )
        if output is not None:
            return got
        return got * self._sign

    def decision_function(self, X):
        """``scores(X) - threshold_``: positive where ``predict`` says ``classes_[1]``. With
        ``calibration``: the calibrated log-odds of ``classes_[1]``."""
        if self.calibration is None:
            return self.scores(X) - self.threshold_
        rows = self._rows(X)
        return self.model_.log_odds(rows) * self._sign

    def predict(self, X):
        """``classes_[1]`` where ``decision_function(X) > 0`` (the score is above
        ``threshold_``; with ``calibration``, the probability of ``classes_[1]`` is above 1/2),
        else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.intp)]

    @property
    def explanation_(self) -> dict:
        """What the model says per feature (``auc model``'s explanation), in feature order:
        ``kind`` is ``"linear"`` (``names``, ``weights`` and ``intercept`` in the units of the
        input: the model's score of a row is ``intercept + sum(weights * row)``), ``"splits"``
        (``names`` and ``splits``: the number of splits of the trees on each feature),
        ``"not_per_input"`` or ``"none"`` (``reason``); ``columns`` lists the input columns
        (``name``, ``first``, ``width``: the features each is encoded as)."""
        check_is_fitted(self, "model_")
        return json.loads(self.model_.explanation)

    def _linear_weights(self) -> dict:
        e = self.explanation_
        if e["kind"] != "linear":
            raise AttributeError(
                f"coef_ is defined for linear models only: {e.get('reason', e['kind'])}"
            )
        if len(e["weights"]) != self.n_features_in_:
            raise AttributeError(
                "coef_ holds one weight per input column, and this model has "
                f"{len(e['weights'])} weights for {self.n_features_in_} columns (one-hot "
                "categories or missing-value indicators): explanation_ lists them by name"
            )
        return e

    @property
    def coef_(self) -> np.ndarray:
        """The weights of the input columns in their own units (the scaling undone), shape
        ``(1, n_features_in_)`` in ``feature_names_in_`` order, for ``classes_[1]``: without a
        calibration, ``decision_function(X) == X @ coef_.T + intercept_`` up to rounding (with
        one, the log-odds are a monotone function of it). Linear models only."""
        e = self._linear_weights()
        return (np.asarray(e["weights"], dtype=np.float64) * self._sign).reshape(1, -1)

    @property
    def intercept_(self) -> np.ndarray:
        """The intercept of ``coef_`` (the scaling's offsets, minus ``threshold_``), shape
        ``(1,)``."""
        e = self._linear_weights()
        return np.array([e["intercept"] * self._sign - self.threshold_])

    @property
    def feature_importances_(self) -> np.ndarray:
        """Per input column, its share of the trees' splits (boosted trees and the blend's
        tree member; LightGBM's ``importance_type="split"``): the splits on the column's
        features over all splits, summing to 1. The model file keeps no split gains, so these
        are split counts, not gains. ``auclearn.inspection.permutation_importance`` measures
        any model."""
        e = self.explanation_
        if e["kind"] != "splits":
            raise AttributeError(
                f"feature_importances_ is defined for tree models only: {e.get('reason', e['kind'])}"
            )
        splits = np.asarray(e["splits"], dtype=np.float64)
        if "columns" in e:
            per = np.array(
                [splits[c["first"] : c["first"] + c["width"]].sum() for c in e["columns"]]
            )
        else:
            per = splits[: self.n_features_in_]
        total = per.sum()
        return per / total if total > 0 else per

    def _calibrated(self):
        return self.calibration is not None

    @available_if(_calibrated)
    def predict_proba(self, X):
        """The probabilities of ``classes_[0]`` and ``classes_[1]`` (columns in that order) by
        the model's calibration."""
        rows = self._rows(X)
        p = self.model_.predict_proba(rows)
        p1 = p if self._sign > 0 else 1.0 - p
        return np.column_stack([1.0 - p1, p1])

    @available_if(_calibrated)
    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba(X)``."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    # -- model files --------------------------------------------------------------------------

    def save(self, path) -> None:
        """Writes the model in the ``auc`` command's model-file format (``auc predict --model
        PATH`` scores LIBSVM files with it). The file is written atomically."""
        check_is_fitted(self, "model_")
        data = self.model_.to_bytes()
        path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".auclearn-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def to_bytes(self) -> bytes:
        """The model file's bytes."""
        check_is_fitted(self, "model_")
        return self.model_.to_bytes()

    # -- pickling -----------------------------------------------------------------------------

    def __getstate__(self):
        state = super().__getstate__()
        if "model_" in state:
            state = dict(state)
            state["model_"] = state["model_"].to_bytes()
        return state

    def __setstate__(self, state):
        if isinstance(state.get("model_"), bytes):
            state = dict(state)
            state["model_"] = _native.Model.from_bytes(state["model_"])
        super().__setstate__(state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        # NaN is a missing value, filled by the model's schema (SPEC 11).
        tags.input_tags.allow_nan = True
        tags.classifier_tags.multi_class = False
        return tags


class OnlineAUCEstimator(AUCEstimator):
    """Base class of the one-pass learners: adds ``partial_fit``."""

    def partial_fit(self, X, y, classes=None):
        """Continues training on ``X``, ``y`` in row order, exactly as ``auc train --resume``
        continues a saved model (same scaling, same updates): ``fit(X1); partial_fit(X2)``
        gives the model one ``fit`` on ``X1`` followed by ``X2`` gives.

        ``classes`` (the two labels) is required on the first call. A first call starts the
        learner (the scaling, if any, is fitted on this batch, and on a table the schema: its
        categories, its means of missing cells). ``threshold_`` is recomputed on each batch that
        holds both classes. A batch whose training diverged raises ``RuntimeError`` unless
        ``allow_diverged``, and the model keeps its diverged state.
        """
        first = not hasattr(self, "model_")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit")
        if first and _frames.is_table(X):
            self._check_common()
            return _tables.fit(self, X, y, partial=True, classes=classes)
        if not first and self.model_.table is not None:
            return _tables.continue_fit(self, X, y, self.model_.table)
        X, y = validate_data(
            self,
            X,
            y,
            reset=first,
            accept_sparse=("csr", "csc"),
            dtype=[np.float64, np.float32],
        )
        y, found = self._binary_targets(y, classes if first else self.classes_)
        if not set(np.unique(y).tolist()) <= set(found.tolist()):
            raise ValueError(
                f"y holds labels outside the classes {found.tolist()}: {np.unique(y).tolist()}"
            )
        if first:
            self._start(X, y, found, partial=True)
            return self
        pos = self._positive(self.classes_)
        self.model_.partial_fit(
            _as_native(X), np.ascontiguousarray(y == pos), calibration=self.calibration
        )
        self._set_threshold(X, y == pos)
        self._check_divergence(fitting=False)
        return self


def common_params(row: dict) -> list:
    """The constructor arguments every estimator of ``row`` takes besides the row's own
    parameters, in signature order: ``(name, annotation, numpydoc type, default, doc)``."""
    out = [
        (
            "seed",
            "int",
            "int",
            0,
            "Seed of the learner's own random choices (reservoirs, landmarks).",
        ),
        (
            "scale",
            "Literal['none', 'minmax', 'maxabs', 'auto']",
            "{'none', 'minmax', 'maxabs', 'auto'}",
            "auto",
            "Feature scaling fitted on the training rows and stored in the model (the CLI's "
            "``--scale``): ``auto``, as the CLI, is min-max to [-1, 1] on rows of density at "
            "least 10 % and max-abs on sparser ones (the scale the learners' defaults were "
            "measured on); ``none`` uses the values as given.",
        ),
        (
            "positive",
            "Any",
            "label or None",
            None,
            "The positive class the learner ranks first: a value of ``y`` (string, number or "
            "bool). ``None``: ``classes_[1]`` (the greater label), except for text labels on a "
            "table (a data frame, an array with NaN or text), where it is the CLI's rule on a "
            "CSV file: yes or true (any case) when ``y`` holds one of them, else the rarer "
            "class. ``decision_function`` scores ``classes_[1]`` either way.",
        ),
        (
            "pos_label",
            "Any",
            "label or None",
            None,
            "The earlier name of ``positive`` (scikit-learn's); give one of the two.",
        ),
        (
            "calibration",
            "Literal['sigmoid', 'isotonic'] | None",
            "{None, 'sigmoid', 'isotonic'}",
            None,
            "Fit a calibration of the scores to probabilities (``predict_proba``): Platt's "
            "sigmoid or isotonic regression on the held-out scores of an internal "
            "cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each "
            "batch's prequential scores. Stored in the model.",
        ),
        (
            "calibration_folds",
            "int",
            "int",
            5,
            "Folds of the calibration's internal cross-validation.",
        ),
        (
            "cross_hash_bits",
            "int | None",
            "int or None",
            None,
            "Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the "
            "product of every pair of a row's non-zero features is added as a feature, folded "
            "into 2^C columns after the n_features_in_ columns (colliding products are summed; "
            "a row of more than 1024 non-zeros is refused). Stored in the model, which crosses "
            "the rows it scores the same way.",
        ),
        (
            "allow_diverged",
            "bool",
            "bool",
            False,
            "Keep a model whose training diverged (its state grew without bound; the model "
            "records it): ``fit`` then warns (``RuntimeWarning``) instead of raising "
            "``RuntimeError``.",
        ),
    ]
    if row["family"] == "linear":
        out.append(
            (
                "average",
                "bool",
                "bool",
                False,
                "Score with the average of the iterates (``--average``).",
            )
        )
    if takes_map(row):
        out += [
            (
                "one_hot",
                "int | None",
                "int or None",
                None,
                "Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose "
                "values in a seeded sample of the scaled training rows number from 3 to K gets "
                "one 0/1 column per value, appended after the features, before the map. Stored "
                "in the model.",
            ),
            (
                "features",
                "Literal['nystroem', 'rff', 'elm', 'poly2'] | None",
                "{None, 'nystroem', 'rff', 'elm', 'poly2'}",
                None,
                "A nonlinear feature map after scaling, fitted on a seeded sample of the "
                "training rows and stored in the model (the CLI's ``--features``): Nystroem "
                "landmarks of the Gaussian kernel, random Fourier features, a random "
                "sigmoid layer, or the features with their pairwise products (``poly2``, "
                "exact). The learner then learns on the map's features.",
            ),
            (
                "n_features_map",
                "int | None",
                "int or None",
                None,
                "Landmarks (Nystroem) or random features (1000 by default for each).",
            ),
            (
                "feature_sigma",
                "Literal['scale', 'median'] | float",
                "'scale', 'median' or float",
                "scale",
                "The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): "
                "``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.",
            ),
        ]
    return out


