"""auclearn: scikit-learn estimators that maximize ROC AUC, over the ``auc`` Rust core.

``Default`` is the estimator to reach for first: the default learner, what ``auc train`` fits
without ``--algo`` (today the blend of a Nystroem-kernel model and boosted trees, ``Blend``).

Every algorithm of the Rust registry (``auc algos`` lists them) has its class, in the module
``auclearn.estimators``: ordinary source generated from the registry by ``python -m
auclearn._generate``. A class is named after the algorithm's registry name in CapWords
(``opauc`` -> ``Opauc``, ``oauc-m`` -> ``OaucM``, ``bal-ftrl`` -> ``BalFtrl``, ``gam-cvm-k12``
-> ``GamCvmK12``); the earlier names (``OPAUC``, ``OAUCM``, ``BALFTRL``, ``GAMCVMK12``, ...)
are aliases of the same classes. ``ESTIMATORS`` maps each CLI name to its class, and
``Learner("opauc", eta=0.5)`` builds one by CLI name.

Nonlinear feature maps of the Gaussian kernel (Nystroem, random Fourier features, a random
sigmoid layer) are a stage of every linear estimator (``features=``, ``n_features_map=``,
``feature_sigma=``, stored in the model file) and a transformer of their own, ``FeatureMap``,
for scikit-learn pipelines.

Data files (LIBSVM or CSV) train and score without being loaded into numpy:
``stream_fit(path, "pa-i", ...)`` trains as ``auc train`` does (a first pass fits the scaling, the
second learns in bounded memory) and returns the fitted estimator; ``est.scores_file(path)`` and
``score_file(model, path)`` score a file chunk by chunk.

Submodules: ``auclearn.metrics`` (ROC AUC, average precision, ROC curve), ``auclearn.stats``
(Friedman test with the Nemenyi critical difference), ``auclearn.model_selection``
(``nested_cv``, the papers' protocol), ``auclearn.moments`` (class moments computed per part,
merged exactly and fitted: the batch moment learners on data held in pieces) and
``auclearn.dask`` (``fit`` on dask arrays and DataFrames; imported on request, it needs dask).
"""

from . import _native
from . import estimators
from ._base import PYTHON_NAMES, REGISTRY, AUCEstimator, OnlineAUCEstimator
from ._feature_map import FeatureMap
from ._registry import Learner, estimator_class, from_bytes, load
from ._stream import score_file, stream_fit
from .estimators import *  # noqa: F403 (Default, every class, ESTIMATORS and the earlier names)
from .estimators import ESTIMATORS, Default
from . import inspection, metrics, model_selection, moments, stats
from .model_selection import nested_cv
from .stats import friedman_nemenyi

__version__ = _native.__version__

__all__ = [
    "Default",
    "AUCEstimator",
    "ESTIMATORS",
    "FeatureMap",
    "Learner",
    "OnlineAUCEstimator",
    "PYTHON_NAMES",
    "REGISTRY",
    "estimator_class",
    "estimators",
    "friedman_nemenyi",
    "from_bytes",
    "inspection",
    "load",
    "metrics",
    "model_selection",
    "moments",
    "nested_cv",
    "score_file",
    "stats",
    "stream_fit",
]
# Then every estimator class by its own name (an earlier name is an alias: importable, not listed).
__all__ += [
    name
    for name in estimators.__all__
    if name not in __all__ and getattr(estimators, name).__name__ == name
]
