"""Training on data files and scoring them without loading them into numpy: ``stream_fit`` and
``score_file``, over the same Rust library as ``auc train`` and ``auc predict`` (crate
auc-train).

A one-pass learner reads its files in memory bounded by its state and a few chunks of rows; a
file is read twice when the scaling or a reshaping stage must be fitted first (a first pass, then
the learning pass). A learner fitted from class moments takes one parallel pass over the files;
other batch learners (and ``shuffle_full=True``) load the rows, as ``auc train`` does.
"""

from __future__ import annotations

import errno
import json
import os
import warnings

from . import _native
from ._base import PYTHON_NAMES, AUCEstimator, memory_limit, takes_map
from ._frames import positive_word
from ._registry import estimator_class, from_model

#: ``stream_fit``'s own keywords (how the files are read and fed), with their defaults; every
#: other keyword is a constructor argument of the algorithm's estimator.
_FILE_KEYWORDS = {
    "scale": None,
    "unit_norm": False,
    "positive": None,
    "shuffle": None,
    "shuffle_buffer": 10_000,
    "shuffle_full": False,
    "format": "auto",
    "label_column": None,
    "delimiter": None,
    "header": None,
    "hash_bits": None,
    "dim": None,
    "limit": None,
    "zero_based": "auto",
    "max_memory": None,
    "threads": None,
    "one_thread": False,
}


def zero_based_word(value) -> str:
    """The word of ``zero_based=`` that the library takes: ``"auto"``, ``"yes"`` or ``"no"``,
    ``True`` and ``False`` standing for the last two (as scikit-learn's ``zero_based=``)."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value in ("auto", "yes", "no"):
        return value
    raise ValueError(f"zero_based must be 'auto', 'yes' or 'no' (or True / False), not {value!r}")


def check_paths(data) -> list:
    """``data`` (a path or a list of paths) as a list of path strings, each an existing file: a
    missing one raises ``FileNotFoundError`` naming it."""
    paths = [data] if isinstance(data, (str, bytes, os.PathLike)) else list(data)
    if not paths:
        raise ValueError("no data file given")
    out = []
    for p in paths:
        p = os.fsdecode(os.fspath(p))
        if not os.path.exists(p):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), p)
        if os.path.isdir(p):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), p)
        out.append(p)
    return out


def _estimator(algorithm, params: dict) -> AUCEstimator:
    """The (unfitted) estimator ``stream_fit`` trains: ``algorithm`` is a registry name or
    alias, an estimator class, or an estimator whose constructor arguments are the defaults of
    ``params``."""
    if isinstance(algorithm, AUCEstimator):
        merged = {**algorithm.get_params(), **params}
        return type(algorithm)(**merged)
    if isinstance(algorithm, type) and issubclass(algorithm, AUCEstimator):
        cls = algorithm
    elif isinstance(algorithm, str):
        cls = estimator_class(algorithm)
    else:
        raise TypeError(
            f"algorithm must be a registry name, an estimator class or an estimator, not {algorithm!r}"
        )
    params = {PYTHON_NAMES.get(k, k): v for k, v in params.items()}
    return cls(**params)


def stream_fit(data, algorithm, **kwargs) -> AUCEstimator:
    """Trains ``algorithm`` on the data file(s) ``data`` (a path or a list of paths, read in
    order and concatenated; LIBSVM or CSV, gzip detected) the way ``auc train`` does, without
    loading them into numpy, and returns the fitted estimator.

    ``algorithm`` is a registry name (``"pa-i"``), an estimator class (``auclearn.PaI``) or an
    estimator (whose constructor arguments are the defaults of the keywords). Keywords are the
    estimator's constructor arguments (``seed``, ``average``, the algorithm's parameters,
    ``one_hot``, ``features``, ``n_features_map``, ``feature_sigma``, ``cross_hash_bits``) and
    these, which say how the files are read and fed (the ``auc train`` flag in brackets):

    - ``scale``: ``"auto"`` (the default, as the CLI's; an estimator passed as ``algorithm``
      brings its own), ``"minmax"``, ``"maxabs"`` or ``"none"``, fitted on a first pass
      (``--scale``); ``unit_norm`` (``--unit-norm``);
    - ``positive``: the positive label(s) (``--positive``): numbers, or any value of the label
      column of a CSV file with a header (``"bad"``); an estimator passed as ``algorithm``
      brings its own ``positive`` (``pos_label`` is its other name). By default +1 / 1 of a {-1, +1} / {0, 1} file, for a CSV
      file with a header also true or yes, else the minority class;
    - ``shuffle``: the seed of a bounded shuffle buffer of ``shuffle_buffer`` rows
      (``--shuffle``, ``--shuffle-buffer``), or with ``shuffle_full=True`` a full permutation in
      memory (``--shuffle-full``); by default the file order;
    - ``format``, ``label_column``, ``delimiter``, ``header``, ``hash_bits``, ``dim``, ``limit``
      (the reading flags; ``label_column`` is by default the CSV header's column named
      ``label``, ``class``, ``target`` or ``y``, else the first, as ``--label-column auto``;
      ``model_.reading`` says which column it took);
    - ``zero_based``: whether LIBSVM indices count from 0 (``--zero-based``): ``"auto"`` (the
      default, as scikit-learn's ``load_svmlight_file``: 0-based when a file holds an index 0,
      the files decided together), ``"yes"`` / ``True`` or ``"no"`` / ``False``; the model
      records it, so ``scores_file`` reads later files the same way;
    - ``max_memory`` in bytes (``--max-memory``; by default three quarters of physical
      memory); ``threads`` (a moment pass's workers); ``one_thread``.

    A positive class that is the rarest of more than 20 distinct labels (a measurement read as
    the label?) raises a ``RuntimeWarning``, as ``auc train`` warns.

    The map and the one-hot levels are drawn with ``seed`` (``--seed S --feature-seed S``). The
    estimator returned is the one ``auclearn.load`` gives for the model file ``auc train``
    would write (``classes_ = [0, 1]``, 1 the model's positive class, ``threshold_ = 0.0``);
    ``scores_file`` scores another file the same way. A missing file raises
    ``FileNotFoundError``, a malformed one ``ValueError`` naming the file and line. Warnings
    of the run (a divergence) are issued as ``RuntimeWarning``. The GIL is released while the
    files are read and learned from.
    """
    paths = check_paths(data)
    own = {k: kwargs.pop(k, default) for k, default in _FILE_KEYWORDS.items()}
    est = _estimator(algorithm, kwargs)
    est._check_common()
    if est.calibration is not None:
        raise ValueError(
            "calibration is not fitted by stream_fit (it needs the rows held out by a "
            "cross-validation): use auc train --calibrate, or fit on arrays"
        )
    row = est._row
    scale = own["scale"]
    if scale is None:
        scale = est.scale if isinstance(algorithm, AUCEstimator) else "auto"
    if scale not in ("none", "minmax", "maxabs", "auto"):
        raise ValueError(f"scale must be one of 'none', 'minmax', 'maxabs', 'auto', not {scale!r}")
    positive = own["positive"]
    if positive is None:  # an estimator's own, or pos_label=
        positive = est._given_positive()
    if positive is not None:
        many = positive if isinstance(positive, (list, tuple)) else [positive]
        positive = [positive_word(p) for p in many]
    stages = est._map_kwargs() if takes_map(row) else {}
    if est.cross_hash_bits is not None and own["hash_bits"] is None:
        raise ValueError(
            f"cross_hash_bits={est.cross_hash_bits} needs hash_bits=B on a file: the crosses of "
            "a row's hashed features are placed after its 2^B features"
        )
    reading = {
        "format": own["format"],
        "label_column": own["label_column"],
        "delimiter": own["delimiter"],
        "header": own["header"],
        "hash_bits": own["hash_bits"],
        "cross_hash_bits": est.cross_hash_bits,
        "dim": own["dim"],
        "limit": own["limit"],
        "zero_based": zero_based_word(own["zero_based"]),
    }
    model, _notes, warned = _native.stream_fit(
        paths,
        row["name"],
        json.dumps(est._registry_params()),
        int(est.seed),
        scale,
        reading,
        positive=positive,
        average=bool(getattr(est, "average", False)),
        one_hot=stages.get("one_hot"),
        features=stages.get("features"),
        feature_sigma=stages.get("feature_sigma"),
        unit_norm=bool(own["unit_norm"]),
        shuffle=own["shuffle"],
        shuffle_buffer=int(own["shuffle_buffer"]),
        shuffle_full=bool(own["shuffle_full"]),
        threaded=not own["one_thread"],
        threads=own["threads"],
        max_memory=memory_limit() if own["max_memory"] is None else int(own["max_memory"]),
    )
    for text in warned:
        warnings.warn(f"{row['name']}: {text}", RuntimeWarning, stacklevel=2)
    return from_model(model)


def score_file(model, path, output=None, *, strict_dim=False, zero_based=None):
    """The scores of every row of the data file ``path`` by ``model`` (a fitted estimator, or a
    model file's path), streaming: see ``AUCEstimator.scores_file``."""
    if isinstance(model, AUCEstimator):
        est = model
    else:
        from ._registry import load

        (model_path,) = check_paths(model)
        est = load(model_path)
    return est.scores_file(path, output, strict_dim=strict_dim, zero_based=zero_based)


__all__ = ["score_file", "stream_fit"]
