"""Type stubs of auclearn, generated from the learner registry by ``python -m auclearn._stubs``
(do not edit: the test suite compares this file with the generator's output)."""

from typing import Any, Literal

from numpy.typing import ArrayLike

from . import metrics as metrics
from . import model_selection as model_selection
from . import moments as moments
from . import stats as stats
from ._estimators import AUCEstimator as AUCEstimator
from ._estimators import ESTIMATORS as ESTIMATORS
from ._estimators import PYTHON_NAMES as PYTHON_NAMES
from ._estimators import REGISTRY as REGISTRY
from ._estimators import OnlineAUCEstimator as OnlineAUCEstimator
from ._estimators import estimator_class as estimator_class
from ._estimators import from_bytes as from_bytes
from ._estimators import load as load
from ._feature_map import FeatureMap as FeatureMap
from ._stream import score_file as score_file
from ._stream import stream_fit as stream_fit
from .model_selection import nested_cv as nested_cv
from .stats import friedman_nemenyi as friedman_nemenyi

__version__: str

def Learner(name: str, **params: Any) -> AUCEstimator: ...


class Perceptron(OnlineAUCEstimator):
    """Perceptron: Perceptron [Rosenblatt58]: w += y x on each mistake; classification baseline of [OAUC sec. 6.1]

    Registry name ``perceptron``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).
    """
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class PAI(OnlineAUCEstimator):
    """PA-I: Passive-aggressive PA-I [PA06]: hinge step capped by c; classification baseline of [OAUC sec. 6.1]

    Registry name ``pa-i`` (aliases pa1); linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    c : real, default=0.25
        aggressiveness C > 0, the cap on each step [PA06] (finite and > 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c=2^-10..2^10:2.
    """
    c: float
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        c: float = 0.25,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OAUCM(OnlineAUCEstimator):
    """OAUC-M: OAUC-M [OAUC alg. 1, eq. 14]: OGD on the second-order hinge surrogate psi_M, eta_t = 1/(lambda t)

    Registry name ``oauc-m``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    lam : real, default=0.0625
        regularization lambda > 0; the step is 1/(lambda t) [OAUC Thm 6] (finite and > 0).
    sketch : integer, default=0
        0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): lambda=2^-10..2^10.
    """
    lam: float
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        lam: float = 0.0625,
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OAUCMc(OnlineAUCEstimator):
    """OAUC-M_c: OAUC-M_c [OAUC alg. 1, eq. 14]: OGD on psi_M with a constant step eta

    Registry name ``oauc-mc`` (aliases oauc-m-c); linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.015625
        constant step eta > 0 [OAUC eq. 12]; the paper picks it from 2^[-10..10] (finite and > 0).
    lam : real, default=2.384185791015625e-07
        regularization lambda >= 0 [OAUC alg. 1]; the paper picks it from 2^[-10..10] (finite and >= 0).
    sketch : integer, default=0
        0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^10:2; lambda=2^-10..2^10:2.
    """
    eta: float
    lam: float
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 0.015625,
        lam: float = 2.384185791015625e-07,
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OPAUC(OnlineAUCEstimator):
    """OPAUC (OAUC-S): OPAUC = OAUC-S [OAUC eq. 13; OPAUC16]: OGD on the square surrogate psi_S/2 from class moments

    Registry name ``opauc`` (aliases oauc-s); linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.00390625
        constant step eta > 0 [OPAUC16]; the papers pick it from 2^[-10..10] (OAUC) or 2^[-10..3] (ADM) (finite and > 0).
    lam : real, default=0.00390625
        regularization lambda >= 0 [OPAUC16]; picked from the same grids as eta (finite and >= 0).
    sketch : integer, default=0
        0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^10:2; lambda=2^-10..2^10:2.
    """
    eta: float
    lam: float
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 0.00390625,
        lam: float = 0.00390625,
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class AdaOAM(OnlineAUCEstimator):
    """AdaOAM: AdaOAM [ADM]: diagonal Adagrad steps on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)

    Registry name ``adaoam``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.0625
        base step eta > 0 [ADM sec. 3]; ADM picks it from 2^[-10..3] (finite and > 0).
    lam : real, default=0.0009765625
        regularization lambda > 0, projection radius 1/sqrt(lambda) [ADM sec. 3]; ADM picks it from 2^[-10..3] (finite and > 0).
    epsilon : real, default=1e-08
        epsilon > 0 added to sqrt(sum of squared gradients) [ADM sec. 3] (finite and > 0).
    sketch : integer, default=0
        0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^2:2; lambda=2^-10..2^2:2.
    """
    eta: float
    lam: float
    epsilon: float
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 0.0625,
        lam: float = 0.0009765625,
        epsilon: float = 1e-08,
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class AdmOAM(OnlineAUCEstimator):
    """AdmOAM: AdmOAM [ADM alg. 1]: Adam steps (bias-corrected) on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)

    Registry name ``admoam``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.00390625
        base step eta > 0 [ADM alg. 1]; ADM picks it from 2^[-10..3] (finite and > 0).
    lam : real, default=0.0009765625
        regularization lambda > 0, projection radius 1/sqrt(lambda) [ADM alg. 1]; ADM picks it from 2^[-10..3] (finite and > 0).
    beta1 : real, default=0.5
        first-moment decay beta1 in [0, 1) [ADM alg. 1]; ADM picks it from 0.1..0.9 (in [0, 1)).
    beta2 : real, default=0.999
        second-moment decay beta2 in [0, 1) [ADM alg. 1]; ADM picks it from 0.099..0.999 (in [0, 1)).
    epsilon : real, default=1e-08
        epsilon > 0 added to sqrt(v_hat) [ADM alg. 1] (finite and > 0).
    sketch : integer, default=0
        0 = exact class covariances (p^2 memory); K >= 1 = each class's covariance from a Frequent Directions sketch of rank K (O(pK) memory and work a step, within a stated bound) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^2:2; lambda=2^-10..2^2:2; beta1=0.5,0.9; beta2=0.9,0.999.
    """
    eta: float
    lam: float
    beta1: float
    beta2: float
    epsilon: float
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 0.00390625,
        lam: float = 0.0009765625,
        beta1: float = 0.5,
        beta2: float = 0.999,
        epsilon: float = 1e-08,
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OAMseq(OnlineAUCEstimator):
    """OAM-seq: OAM-seq [OAM11]: per-class reservoir buffers, a PA-style step per buffered opposite example

    Registry name ``oam-seq``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    c : real, default=0.000244140625
        penalty C > 0 on the pairwise hinge losses [OAM11]; tuned in 2^[-10..10] [ADM, experimental setup] (finite and > 0).
    budget : integer, default=100
        reservoir buffer size per class; 100 as in [OAUC sec. 6.3] and [ADM, experimental setup] (an integer >= 1).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c=2^-10..2^10:2.
    """
    c: float
    budget: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        c: float = 0.000244140625,
        budget: int = 100,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OAMgra(OnlineAUCEstimator):
    """OAM-gra: OAM-gra [OAM11]: per-class reservoir buffers, one gradient step over all violated pairs

    Registry name ``oam-gra``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    c : real, default=0.000244140625
        penalty C > 0 on the pairwise hinge losses [OAM11]; tuned in 2^[-10..10] [ADM, experimental setup] (finite and > 0).
    budget : integer, default=100
        reservoir buffer size per class; 100 as in [OAUC sec. 6.3] and [ADM, experimental setup] (an integer >= 1).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c=2^-10..2^10:2.
    """
    c: float
    budget: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        c: float = 0.000244140625,
        budget: int = 100,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class SOLAM(OnlineAUCEstimator):
    """SOLAM: SOLAM [SOLAM16]: stochastic saddle-point square-loss AUC, O(nnz) per step, averaged output

    Registry name ``solam``; linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=1.0
        step scale eta > 0, step t is eta/sqrt(t) [SOLAM16]; tuned in [1, 100] there (finite and > 0).
    r : real, default=1.0
        radius R > 0 of the ball ||w|| <= R [SOLAM16]; tuned in 10^[-1..5] there (finite and > 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^10:2; r=1,10,100.
    """
    eta: float
    r: float
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 1.0,
        r: float = 1.0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class BALADAGRAD(OnlineAUCEstimator):
    """Balanced AdaGrad: Diagonal AdaGrad [ADAGRAD11] on the class-balanced logistic loss, a univariate AUC surrogate [KDH11]; lazy L2, O(nnz) per step

    Registry name ``bal-adagrad`` (aliases balanced-adagrad); linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.25
        step scale eta > 0: feature j moves by eta g_j / (1e-8 + sqrt(G_j)) [ADAGRAD11] (finite and > 0).
    lam : real, default=0.0009765625
        L2 weight lambda >= 0, AdaGrad's proximal step [ADAGRAD11], applied lazily (finite and >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-8..2^2; lambda=0,2^-16,2^-14,2^-12,2^-10,2^-8,2^-6,2^-4.
    """
    eta: float
    lam: float
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        eta: float = 0.25,
        lam: float = 0.0009765625,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class BALFTRL(OnlineAUCEstimator):
    """Balanced FTRL-Proximal: Per-coordinate FTRL-Proximal [FTRL13] on the class-balanced logistic loss, a univariate AUC surrogate [KDH11]; L1/L2 in closed form, O(nnz) per step

    Registry name ``bal-ftrl`` (aliases balanced-ftrl, ftrl); linear learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    alpha : real, default=0.25
        rate scale alpha > 0: feature j's rate is alpha / (beta + sqrt(n_j)) [FTRL13] (finite and > 0).
    beta : real, default=1.0
        rate smoothing beta >= 0 in alpha / (beta + sqrt(n_j)) [FTRL13] (finite and >= 0).
    l1 : real, default=0.25
        L1 weight lambda1 >= 0 (exact zeros where |z_j| <= lambda1) [FTRL13] (finite and >= 0).
    l2 : real, default=0.0
        L2 weight lambda2 >= 0, against the sum of the losses seen [FTRL13] (finite and >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    average : bool, default=False
        Score with the average of the iterates (``--average``).
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): alpha=2^-6..2^2; l1=0,2^-2,1; l2=0,2^-2,1,4,16.
    """
    alpha: float
    beta: float
    l1: float
    l2: float
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    average: bool
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        alpha: float = 0.25,
        beta: float = 1.0,
        l1: float = 0.25,
        l2: float = 0.0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        average: bool = False,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OKAUCM(OnlineAUCEstimator):
    """OKAUC-M: OKAUC-M [OAUC algs. 2-4, eq. 26]: kernel OGD on psi_M over budgeted FIFO buffers, eta_t = 1/(lambda t)

    Registry name ``okauc-m``; kernel learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    lam : real, default=0.015625
        regularization lambda > 0 of lambda/2 ||f||^2 [OAUC eq. 21]; tuned in 2^[-10..10] [OAUC sec. 6.3] (finite and > 0).
    sigma : real, default=1.0
        Gaussian width sigma > 0, k = exp(-||x-z||^2/sigma^2) [OAUC sec. 6.3]; tuned in 2^[-10..10] (finite and > 0).
    budget : integer, default=100
        support buffer size per class (at most 100000); 100 + 100 in [OAUC sec. 6.3] (an integer >= 1).
    removal : choice, default='fifo'
        which row a full buffer evicts: fifo [OAUC alg. 4] or reservoir sampling; the evicted weight is projected onto the best remaining row [OAUC eq. 28] (one of fifo, reservoir).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): lambda=2^-10..2^-2:4; sigma=2^-3..2^5.
    """
    lam: float
    sigma: float
    budget: int
    removal: Literal['fifo', 'reservoir']
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        lam: float = 0.015625,
        sigma: float = 1.0,
        budget: int = 100,
        removal: Literal['fifo', 'reservoir'] = 'fifo',
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class OKAUCS(OnlineAUCEstimator):
    """OKAUC-S: OKAUC-S [OAUC algs. 2-4, eq. 27]: kernel OGD on psi_S/2 over budgeted FIFO buffers, constant eta

    Registry name ``okauc-s``; kernel learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.25
        constant step size eta > 0 [OAUC eq. 27]; tuned in 2^[-10..10] [OAUC sec. 6.3] (finite and > 0).
    lam : real, default=0.0625
        regularization lambda >= 0 of lambda/2 ||f||^2 [OAUC eq. 21]; tuned in 2^[-10..10] [OAUC sec. 6.3] (finite and >= 0).
    sigma : real, default=2.0
        Gaussian width sigma > 0, k = exp(-||x-z||^2/sigma^2) [OAUC sec. 6.3]; tuned in 2^[-10..10] (finite and > 0).
    budget : integer, default=100
        support buffer size per class (at most 100000); 100 + 100 in [OAUC sec. 6.3] (an integer >= 1).
    removal : choice, default='fifo'
        which row a full buffer evicts: fifo [OAUC alg. 4] or reservoir sampling; the evicted weight is projected onto the best remaining row [OAUC eq. 28] (one of fifo, reservoir).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-5..2^1:3; lambda=2^-10..2^-4:6; sigma=2^-3..2^5:2.
    """
    eta: float
    lam: float
    sigma: float
    budget: int
    removal: Literal['fifo', 'reservoir']
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        eta: float = 0.25,
        lam: float = 0.0625,
        sigma: float = 2.0,
        budget: int = 100,
        removal: Literal['fifo', 'reservoir'] = 'fifo',
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class KOIL(OnlineAUCEstimator):
    """KOIL: KOIL [KOIL18]: localized kernel hinge against the k nearest violating opposite support vectors, FIFO++/RS++ buffers

    Registry name ``koil``; kernel learner; one pass, with ``partial_fit``.

    Parameters
    ----------
    eta : real, default=0.015625
        step size eta in (0, 1]; weights shrink by (1 - eta) each step [KOIL18] (in (0, 1]).
    c : real, default=4.0
        loss weight C > 0 of the localized hinge loss [KOIL18] (finite and > 0).
    k : integer, default=10
        number of nearest violating opposite support vectors; 10 in [OAUC sec. 6.3] (an integer >= 1).
    sigma : real, default=2.0
        Gaussian width sigma > 0, k = exp(-||x-z||^2/sigma^2) [OAUC sec. 6.3]; tuned in 2^[-10..10] (finite and > 0).
    budget : integer, default=100
        support buffer size per class (at most 100000); 100 + 100 in [OAUC sec. 6.3] (an integer >= 1).
    removal : choice, default='fifo'
        fifo = FIFO++, reservoir = RS++; the evicted weight goes to the most similar remaining row [KOIL18] (one of fifo, reservoir).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-10..2^-6:2; c=2^2..2^8:3; sigma=2^-3..2^5:2.
    """
    eta: float
    c: float
    k: int
    sigma: float
    budget: int
    removal: Literal['fifo', 'reservoir']
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        eta: float = 0.015625,
        c: float = 4.0,
        k: int = 10,
        sigma: float = 2.0,
        budget: int = 100,
        removal: Literal['fifo', 'reservoir'] = 'fifo',
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVM(AUCEstimator):
    """GAM-CVM: GAM-CVM [CVM alg. 1]: Gaussian, Pearson and density kernels fused by cross-diffusion, generalized AUC dual by a core vector machine; transductive by default in `auc cv`, inductive in `auc train`

    Registry name ``gam-cvm``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    rho : real, default=0.1
        rho > 0 of the cross-diffusion [CVM eq. 21] (our default) (finite and > 0).
    t : integer, default=20
        at most this many diffusion rounds [CVM eq. 21] (our default) (an integer >= 1).
    normalization : choice, default='printed'
        printed (the default: the better three-kernel model on 12 of 13 shared sets): across sub-kernels as [CVM eqs. 18, 20] print; rows: each sub-kernel by its own rows [Wang12] (one of printed, rows).
    landmarks : integer, default=0
        0 = dense fusion (n x n matrices); m > n_loc = fuse on m landmarks and extend to every point, memory O(m^2 + n n_loc), for n well past 20,000; on landmarks, epsilon defaults to 3e-5 unless given (docs/results/cvm-epsilon.md) (an integer >= 0).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    rho: float
    t: int
    normalization: Literal['printed', 'rows']
    landmarks: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        rho: float = 0.1,
        t: int = 20,
        normalization: Literal['printed', 'rows'] = 'printed',
        landmarks: int = 0,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK1(AUCEstimator):
    """K1: GAM-CVM with the Gaussian sub-kernel K1 only (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k1``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK2(AUCEstimator):
    """K2: GAM-CVM with the Pearson sub-kernel K2 only (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k2``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK3(AUCEstimator):
    """K3: GAM-CVM with the density sub-kernel K3 only (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k3``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK12(AUCEstimator):
    """K1+K2: GAM-CVM fusing K1 and K2 (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k12``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    rho : real, default=0.1
        rho > 0 of the cross-diffusion [CVM eq. 21] (our default) (finite and > 0).
    t : integer, default=20
        at most this many diffusion rounds [CVM eq. 21] (our default) (an integer >= 1).
    normalization : choice, default='printed'
        printed (the default: the better three-kernel model on 12 of 13 shared sets): across sub-kernels as [CVM eqs. 18, 20] print; rows: each sub-kernel by its own rows [Wang12] (one of printed, rows).
    landmarks : integer, default=0
        0 = dense fusion (n x n matrices); m > n_loc = fuse on m landmarks and extend to every point, memory O(m^2 + n n_loc), for n well past 20,000; on landmarks, epsilon defaults to 3e-5 unless given (docs/results/cvm-epsilon.md) (an integer >= 0).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    rho: float
    t: int
    normalization: Literal['printed', 'rows']
    landmarks: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        rho: float = 0.1,
        t: int = 20,
        normalization: Literal['printed', 'rows'] = 'printed',
        landmarks: int = 0,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK13(AUCEstimator):
    """K1+K3: GAM-CVM fusing K1 and K3 (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k13``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    rho : real, default=0.1
        rho > 0 of the cross-diffusion [CVM eq. 21] (our default) (finite and > 0).
    t : integer, default=20
        at most this many diffusion rounds [CVM eq. 21] (our default) (an integer >= 1).
    normalization : choice, default='printed'
        printed (the default: the better three-kernel model on 12 of 13 shared sets): across sub-kernels as [CVM eqs. 18, 20] print; rows: each sub-kernel by its own rows [Wang12] (one of printed, rows).
    landmarks : integer, default=0
        0 = dense fusion (n x n matrices); m > n_loc = fuse on m landmarks and extend to every point, memory O(m^2 + n n_loc), for n well past 20,000; on landmarks, epsilon defaults to 3e-5 unless given (docs/results/cvm-epsilon.md) (an integer >= 0).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    rho: float
    t: int
    normalization: Literal['printed', 'rows']
    landmarks: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        rho: float = 0.1,
        t: int = 20,
        normalization: Literal['printed', 'rows'] = 'printed',
        landmarks: int = 0,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class GAMCVMK23(AUCEstimator):
    """K2+K3: GAM-CVM fusing K2 and K3 (ablation of [CVM Table 6])

    Registry name ``gam-cvm-k23``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    rho : real, default=0.1
        rho > 0 of the cross-diffusion [CVM eq. 21] (our default) (finite and > 0).
    t : integer, default=20
        at most this many diffusion rounds [CVM eq. 21] (our default) (an integer >= 1).
    normalization : choice, default='printed'
        printed (the default: the better three-kernel model on 12 of 13 shared sets): across sub-kernels as [CVM eqs. 18, 20] print; rows: each sub-kernel by its own rows [Wang12] (one of printed, rows).
    landmarks : integer, default=0
        0 = dense fusion (n x n matrices); m > n_loc = fuse on m landmarks and extend to every point, memory O(m^2 + n n_loc), for n well past 20,000; on landmarks, epsilon defaults to 3e-5 unless given (docs/results/cvm-epsilon.md) (an integer >= 0).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; n_loc=8,32.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    rho: float
    t: int
    normalization: Literal['printed', 'rows']
    landmarks: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        rho: float = 0.1,
        t: int = 20,
        normalization: Literal['printed', 'rows'] = 'printed',
        landmarks: int = 0,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class RhoAUCCVM(AUCEstimator):
    """rho-AUCCVM: rho-AUCCVM-style baseline [CVM sec. 5]: one Gaussian kernel (tune sigma_scale), the same core vector machine

    Registry name ``rho-auccvm``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    c2 : real, default=1.0
        C2 > 0, margin weight of [CVM eq. 11] (only scales the scores) (finite and > 0).
    epsilon : real, default=0.001
        epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding) (in (0, 1)).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10; sigma_scale=0.5,1,2.
    """
    c1: float
    c2: float
    epsilon: float
    n_loc: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        c2: float = 1.0,
        epsilon: float = 0.001,
        n_loc: int = 16,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class AUCSVM(AUCEstimator):
    """AUCSVM: AUCSVM [BS05; CVM eqs. 8-10]: exact pairwise QP with tau = 1 on one Gaussian kernel; refuses more than 2,000,000 pairs

    Registry name ``aucsvm``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    c1 : real, default=1.0
        C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding) (finite and > 0).
    n_loc : integer, default=16
        neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points (an integer >= 1).
    sigma_scale : real, default=1.0
        multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14] (finite and > 0).
    transductive : bool, default=True
        cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves (true or false).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): c1=0.1,1,10.
    """
    c1: float
    n_loc: int
    sigma_scale: float
    transductive: bool
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        c1: float = 1.0,
        n_loc: int = 16,
        sigma_scale: float = 1.0,
        transductive: bool = True,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class OPAUCbatch(AUCEstimator):
    """OPAUC-batch: OPAUC-batch [OAUC eq. 13; OPAUC16]: the square surrogate over all pairs, solved exactly from merged class moments (Cholesky), or over the rows by conjugate gradients on wide data

    Registry name ``opauc-batch``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    lam : real, default=0.001953125
        regularization lambda > 0 of lambda/2 ||w||^2 + (1/2) mean over pairs of (1 - w'(x+ - x-))^2 (finite and > 0).
    solver : choice, default='auto'
        cholesky: dense p x p matrices; cg: conjugate gradients over the training rows, O(nnz + p) per product and no p x p matrix (wide sparse data; auc train fits in memory); auto: cholesky up to 4096 features, cg above (one of auto, cholesky, cg).
    sketch : integer, default=0
        0 = the exact covariances; K >= 1 = each class's co-moment from a Frequent Directions sketch of rank K (O(pK) memory, within a stated bound; solved by cg on the rows in memory) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): lambda=2^-10..2^10.
    """
    lam: float
    solver: Literal['auto', 'cholesky', 'cg']
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        lam: float = 0.001953125,
        solver: Literal['auto', 'cholesky', 'cg'] = 'auto',
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class OAUCMbatch(AUCEstimator):
    """OAUC-M-batch: OAUC-M-batch [OAUC eq. 14, Lemma 2]: psi_M of all pair differences, minimized exactly from merged class moments (Newton, certified), or over the rows by Newton-CG on wide data

    Registry name ``oauc-m-batch``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    lam : real, default=0.0009765625
        regularization lambda > 0 of lambda/2 ||w||^2 + psi_M(w' Delta, w' (S+ + S-) w) (finite and > 0).
    max_steps : integer, default=100
        the most Newton steps (a fit stopped there without its certificate is reported) (an integer >= 1).
    solver : choice, default='auto'
        cholesky: dense p x p matrices; cg: conjugate gradients over the training rows, O(nnz + p) per product and no p x p matrix (wide sparse data; auc train fits in memory); auto: cholesky up to 4096 features, cg above (one of auto, cholesky, cg).
    sketch : integer, default=0
        0 = the exact covariances; K >= 1 = each class's co-moment from a Frequent Directions sketch of rank K (O(pK) memory, within a stated bound; solved by cg on the rows in memory) (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): lambda=2^-10..2^10.
    """
    lam: float
    max_steps: int
    solver: Literal['auto', 'cholesky', 'cg']
    sketch: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        lam: float = 0.0009765625,
        max_steps: int = 100,
        solver: Literal['auto', 'cholesky', 'cg'] = 'auto',
        sketch: int = 0,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class PAUCSVM(AUCEstimator):
    """pAUC-SVM: pAUC-SVM [NA13; SOPA22]: squared pairwise hinge over all positives and the top beta fraction of negatives, linear, certified primal-dual solver

    Registry name ``pauc-svm``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    lam : real, default=0.001953125
        regularization lambda > 0 of lambda/2 ||w||^2 + mean squared hinge over positives x top negatives (finite and > 0).
    beta : real, default=0.1
        the partial AUC's largest false-positive rate: the top ceil(beta n-) negatives count (in (0, 1]).
    tol : real, default=0.001
        stop when the certified gap J(w) - min J is at most tol J(w) (finite and > 0).
    max_steps : integer, default=500
        the most solver steps (a fit stopped there above tol is reported as not converged) (an integer >= 1).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.
    one_hot : int or None, default=None
        Indicators of categorical features (the CLI's ``--one-hot K``): a feature whose values in a seeded sample of the scaled training rows number from 3 to K gets one 0/1 column per value, appended after the features, before the map. Stored in the model.
    features : {None, 'nystroem', 'rff', 'elm', 'poly2'}, default=None
        A nonlinear feature map after scaling, fitted on a seeded sample of the training rows and stored in the model (the CLI's ``--features``): Nystroem landmarks of the Gaussian kernel, random Fourier features, a random sigmoid layer, or the features with their pairwise products (``poly2``, exact). The learner then learns on the map's features.
    n_features_map : int or None, default=None
        Landmarks (Nystroem) or random features (1000 by default for each).
    feature_sigma : 'scale', 'median' or float, default='scale'
        The Gaussian kernel width sigma, k(x, z) = exp(-|x - z|^2 / sigma^2): ``scale`` is sigma^2 = p Var(x) on the sample, ``median`` the median distance.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): lambda=2^-10..2^10.
    """
    lam: float
    beta: float
    tol: float
    max_steps: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    one_hot: int | None
    features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None
    n_features_map: int | None
    feature_sigma: Literal['scale', 'median'] | float
    def __init__(
        self,
        *,
        lam: float = 0.001953125,
        beta: float = 0.1,
        tol: float = 0.001,
        max_steps: int = 500,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
        one_hot: int | None = None,
        features: Literal['nystroem', 'rff', 'elm', 'poly2'] | None = None,
        n_features_map: int | None = None,
        feature_sigma: Literal['scale', 'median'] | float = 'scale',
    ) -> None: ...

class GBTAUC(AUCEstimator):
    """GBT-AUC: Gradient-boosted regression trees on a pairwise surrogate of the AUC over all positive-negative pairs [Friedman01; OAUC eq. 13], histogram trees grown leaf by leaf, gradients from the classes' score moments (square) or sorted scores (hinge)

    Registry name ``gbt-auc`` (aliases boosted-trees, gbt); batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    trees : integer, default=100
        boosting rounds (one tree each); LightGBM's 100 (an integer >= 1).
    leaves : integer, default=31
        the most leaves of a tree; LightGBM's 31 (an integer >= 2).
    eta : real, default=0.1
        learning rate that multiplies each tree's leaf values; LightGBM's 0.1 (finite and > 0).
    min_leaf : integer, default=20
        the fewest training rows a leaf may hold; LightGBM's 20 (an integer >= 1).
    lam : real, default=0.0
        L2 penalty on leaf values, -G/(H + lambda); LightGBM's 0 (finite and >= 0).
    bins : integer, default=255
        the most bins a feature's values are cut into (2 to 256); LightGBM's 255 (an integer >= 2).
    loss : choice, default='exp'
        the pairwise surrogate over all pairs of a positive and a negative score: square (1 - (f+ - f-))^2 / 2, hinge max(0, 1 - (f+ - f-))^2 / 2, or exp e^-(f+ - f-) (RankBoost's; the default by docs/results/boosted-trees.md) (one of square, hinge, exp).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): eta=2^-5..2^-1:2; leaves=7,15,31,63.
    """
    trees: int
    leaves: int
    eta: float
    min_leaf: int
    lam: float
    bins: int
    loss: Literal['square', 'hinge', 'exp']
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        trees: int = 100,
        leaves: int = 31,
        eta: float = 0.1,
        min_leaf: int = 20,
        lam: float = 0.0,
        bins: int = 255,
        loss: Literal['square', 'hinge', 'exp'] = 'exp',
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...

class Blend(AUCEstimator):
    """Blend: The kernel member (the exact square surrogate over all pairs on a Nystroem map [OAUC eq. 13; Williams01]) and the tree member (boosted trees on the pairwise exponential loss [Friedman01; Freund03]) fitted on the same rows, their scores divided by their spread and averaged

    Registry name ``blend``; batch learner; batch (no ``partial_fit``).

    Parameters
    ----------
    landmarks : integer, default=1000
        landmarks of the kernel member's Nystroem map (at most 16384); the default learner's 1000 (an integer >= 1).
    lam : real, default=0.0009765625
        the kernel member's lambda of the square surrogate; the default learner's 2^-10 (finite and > 0).
    trees : integer, default=100
        the tree member's boosting rounds; gbt-auc's 100 (an integer >= 1).
    leaves : integer, default=31
        the tree member's most leaves a tree; gbt-auc's 31 (an integer >= 2).
    eta : real, default=0.1
        the tree member's learning rate; gbt-auc's 0.1 (finite and > 0).
    weight : real, default=0.5
        the kernel member's share w of the blend, the trees' 1 - w, of scores each divided by its standard deviation on the training rows; with weight_folds, the prior of the choice (in [0, 1]).
    weight_folds : integer, default=3
        0: the blend takes weight as given; k >= 2: it chooses the weight among 0, 1/4, 1/2, 3/4, 1 by k-fold held-out AUC on at most 20000 training rows, the nearest to weight within one standard error of the best (an integer >= 0).
    seed : int, default=0
        Seed of the learner's own random choices (reservoirs, landmarks).
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        Feature scaling fitted on the training rows and stored in the model (the CLI's ``--scale``); ``none`` by default, so arrays are used as given.
    pos_label : label or None, default=None
        The positive class the learner ranks first; ``None``: ``classes_[1]``.
    calibration : {None, 'sigmoid', 'isotonic'}, default=None
        Fit a calibration of the scores to probabilities (``predict_proba``): Platt's sigmoid or isotonic regression on the held-out scores of an internal cross-validation (``auc train --calibrate``); ``partial_fit`` refits it on each batch's prequential scores. Stored in the model.
    calibration_folds : int, default=5
        Folds of the calibration's internal cross-validation.
    cross_hash_bits : int or None, default=None
        Feature crosses (the CLI's ``--cross-hash-bits``, Vowpal Wabbit's ``-q``): the product of every pair of a row's non-zero features is added as a feature, folded into 2^C columns after the n_features_in_ columns (colliding products are summed; a row of more than 1024 non-zeros is refused). Stored in the model, which crosses the rows it scores the same way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``decision_function`` scores ``classes_[1]``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    threshold_ : float
        The score threshold maximizing TPR - FPR on the training scores:
        ``decision_function(X) = scores(X) - threshold_`` and ``predict`` returns
        ``classes_[1]`` where it is positive.
    model_ : auclearn._native.Model
        The trained model (the ``auc`` command's model file; see ``save``).

    Default search grid (``auc train --tune``): weight=0,0.25,0.5,0.75,1.
    """
    landmarks: int
    lam: float
    trees: int
    leaves: int
    eta: float
    weight: float
    weight_folds: int
    seed: int
    scale: Literal['none', 'minmax', 'maxabs', 'auto']
    pos_label: Any
    calibration: Literal['sigmoid', 'isotonic'] | None
    calibration_folds: int
    cross_hash_bits: int | None
    def __init__(
        self,
        *,
        landmarks: int = 1000,
        lam: float = 0.0009765625,
        trees: int = 100,
        leaves: int = 31,
        eta: float = 0.1,
        weight: float = 0.5,
        weight_folds: int = 3,
        seed: int = 0,
        scale: Literal['none', 'minmax', 'maxabs', 'auto'] = 'none',
        pos_label: Any = None,
        calibration: Literal['sigmoid', 'isotonic'] | None = None,
        calibration_folds: int = 5,
        cross_hash_bits: int | None = None,
    ) -> None: ...
