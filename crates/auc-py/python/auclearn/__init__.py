"""auclearn: scikit-learn estimators that maximize ROC AUC, over the ``auc`` Rust core.

One estimator class per algorithm of the Rust registry (``auc algos`` lists them), created at
import from that registry: ``OPAUC``, ``OAUCM``, ``AdmOAM``, ``OKAUCM``, ``GAMCVM``, ... (the class
name is the algorithm's printed title without punctuation; ``ESTIMATORS`` maps each CLI name to
its class, and ``Learner("opauc", eta=0.5)`` builds one by CLI name).

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
from ._feature_map import FeatureMap
from ._estimators import (
    ESTIMATORS,
    PYTHON_NAMES,
    REGISTRY,
    AUCEstimator,
    OnlineAUCEstimator,
    Learner,
    estimator_class,
    from_bytes,
    load,
)
from ._stream import score_file, stream_fit
from . import metrics, model_selection, moments, stats
from .model_selection import nested_cv
from .stats import friedman_nemenyi

__version__ = _native.__version__

globals().update({cls.__name__: cls for cls in ESTIMATORS.values()})

__all__ = [
    "AUCEstimator",
    "ESTIMATORS",
    "FeatureMap",
    "Learner",
    "OnlineAUCEstimator",
    "PYTHON_NAMES",
    "REGISTRY",
    "estimator_class",
    "friedman_nemenyi",
    "from_bytes",
    "load",
    "metrics",
    "model_selection",
    "moments",
    "nested_cv",
    "score_file",
    "stats",
    "stream_fit",
] + [cls.__name__ for cls in ESTIMATORS.values()]
