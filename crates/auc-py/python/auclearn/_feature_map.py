"""``FeatureMap``: the toolkit's feature maps as a scikit-learn transformer.

The map is fitted and applied by the Rust stages of ``auc_prep`` (``_native.Transform``), the
same code that fits the map of a linear estimator given ``features=``: in a ``Pipeline``,
``FeatureMap(kind, n, sigma, scale, seed, one_hot)`` followed by a linear estimator with
``features=None, scale="none"`` trains on the very rows, bit for bit, that the estimator with
``features=kind, n_features_map=n, feature_sigma=sigma, scale=scale, seed=seed,
one_hot=one_hot`` maps itself.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _native
from ._base import _as_native, _plain, memory_limit

#: The map kinds, as the CLI's ``--features`` names them.
KINDS = ("nystroem", "rff", "elm", "poly2")

#: The scalings, as the CLI's ``--scale`` names them.
SCALINGS = ("none", "minmax", "maxabs", "auto")

#: The largest map (``auc_prep::features::MAX_MAP_SIZE``).
MAX_COMPONENTS = 16_384


class FeatureMap(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """A nonlinear feature map of the Gaussian kernel, fitted on the rows given to ``fit``.

    The stages run in the toolkit's fixed order: the scaling ``scale`` (fitted on all rows of
    ``fit``), the one-hot indicators of ``one_hot``, then the map, fitted on a seeded sample
    of at most 10,000 of the scaled rows (the rows ``auc train --features`` would sample). The
    kernel is ``k(x, z) = exp(-|x - z|^2 / sigma^2)``.

    Parameters
    ----------
    kind : {'nystroem', 'rff', 'elm', 'poly2'} or None, default='nystroem'
        ``nystroem``: landmarks chosen by k-means on the sample and the projection
        ``K_LL^(-1/2)`` (landmarks whose kernel matrix is nearly singular are dropped, so the
        output may have fewer features); ``rff``: random Fourier features; ``elm``: a random
        layer of sigmoid units (the extreme learning machine); ``poly2``: the features and
        their pairwise products (exact, no width); ``None``: no map (with ``one_hot``).
    n_components : int or None, default=None
        Landmarks (Nystroem) or random features (1000 when None), from 1 to
        16384; None for ``poly2``.
    sigma : 'scale', 'median' or float, default='scale'
        The kernel width: ``scale`` takes ``sigma^2 = p Var(x)`` over the sample's entries
        (scikit-learn's ``gamma="scale"``), ``median`` the median distance between sample rows,
        a positive number itself.
    scale : {'none', 'minmax', 'maxabs', 'auto'}, default='none'
        The scaling before the map (the CLI's ``--scale``).
    seed : int, default=0
        Seed of the sample, the random weights and the landmarks' k-means.
    one_hot : int or None, default=None
        Indicators of categorical features before the map (the CLI's ``--one-hot K``): a
        feature whose sample values number from 3 to K gets one 0/1 column per value.

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_components_ : int
        Number of features ``transform`` returns.
    sigma_ : float
        The fitted kernel width.
    map_ : auclearn._native.Transform
        The fitted stages.

    Notes
    -----
    ``transform`` returns a dense float64 array; it runs with the GIL released. Pickles hold
    the fitted stages as bytes.
    """

    def __init__(
        self, kind="nystroem", n_components=None, sigma="scale", scale="none", seed=0, one_hot=None
    ):
        self.kind = kind
        self.n_components = n_components
        self.sigma = sigma
        self.scale = scale
        self.seed = seed
        self.one_hot = one_hot

    def _native_args(self):
        """The map's words for ``_native.Transform.fit``: the map (``rff:64``) and the width
        rule, after checking every parameter."""
        k = self.one_hot
        if k is not None and (
            isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or not 3 <= k <= 1024
        ):
            raise ValueError(f"one_hot must be None or an integer from 3 to 1024, not {k!r}")
        if self.kind is None and k is None:
            raise ValueError("kind=None (no map) needs one_hot: there would be nothing to fit")
        if self.kind is not None and (not isinstance(self.kind, str) or self.kind not in KINDS):
            raise ValueError(
                f"kind must be None or one of {', '.join(map(repr, KINDS))}, not {self.kind!r}"
            )
        if self.kind == "poly2" and self.n_components is not None:
            raise ValueError("n_components must be None with kind='poly2'")
        n = self.n_components
        if n is not None and (
            isinstance(n, (bool, np.bool_))
            or not isinstance(n, numbers.Integral)
            or not 1 <= n <= MAX_COMPONENTS
        ):
            raise ValueError(
                f"n_components must be None or an integer from 1 to {MAX_COMPONENTS}, not {n!r}"
            )
        sigma = _plain(self.sigma)
        if isinstance(sigma, str):
            bad_sigma = sigma not in ("scale", "median")
        else:
            bad_sigma = (
                isinstance(sigma, bool)
                or not isinstance(sigma, numbers.Real)
                or not math.isfinite(sigma)
                or sigma <= 0
            )
        if bad_sigma:
            raise ValueError(f"sigma must be 'scale', 'median' or a positive number, not {sigma!r}")
        if not isinstance(self.scale, str) or self.scale not in SCALINGS:
            raise ValueError(
                f"scale must be one of {', '.join(map(repr, SCALINGS))}, not {self.scale!r}"
            )
        if (
            isinstance(self.seed, (bool, np.bool_))
            or not isinstance(self.seed, numbers.Integral)
            or self.seed < 0
        ):
            raise ValueError(f"seed must be a non-negative integer, not {self.seed!r}")
        spec = self.kind if n is None or self.kind is None else f"{self.kind}:{int(n)}"
        return spec, str(sigma)

    def fit(self, X, y=None):
        """Fits the scaling on ``X`` (n_samples, n_features; dense or CSR/CSC, float64 or
        float32) and the map on its seeded sample. ``y`` is ignored."""
        spec, sigma = self._native_args()
        X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype=[np.float64, np.float32])
        self.map_ = _native.Transform.fit(
            _as_native(X),
            self.scale,
            features=spec,
            feature_sigma=sigma,
            seed=int(self.seed),
            max_memory=memory_limit(),
            one_hot=None if self.one_hot is None else int(self.one_hot),
        )
        self._set_fitted()
        return self

    def _set_fitted(self):
        """The attributes read off the fitted stages."""
        self.n_components_ = self.map_.output_dim
        fm = self.map_.feature_map
        self.sigma_ = None if fm is None or fm[0] == "poly2" else fm[2]
        self._n_features_out = self.n_components_

    def transform(self, X):
        """The mapped rows of ``X``: a dense float64 array (n_samples, n_components_)."""
        check_is_fitted(self, "map_")
        X = validate_data(
            self, X, reset=False, accept_sparse=("csr", "csc"), dtype=[np.float64, np.float32]
        )
        return self.map_.transform(_as_native(X), max_memory=memory_limit())

    def to_bytes(self) -> bytes:
        """The fitted stages' bytes (what ``from_bytes`` and pickles read)."""
        check_is_fitted(self, "map_")
        return self.map_.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> "FeatureMap":
        """The fitted transformer of ``to_bytes``'s bytes, with the fitted parameters: ``kind``,
        ``n_components`` (the map's size as asked), ``sigma`` (the fitted width), ``scale``
        (the fitted scaling's name) and ``seed``."""
        stages = _native.Transform.from_bytes(data)
        fm = stages.feature_map
        if fm is None and stages.one_hot is None:
            raise ValueError("these bytes hold no feature map")
        kind, size, sigma = fm if fm is not None else (None, None, "scale")
        if kind == "poly2":
            size, sigma = None, "scale"
        est = cls(
            kind=kind,
            n_components=size,
            sigma=sigma,
            scale=stages.scaling,
            seed=stages.seed if stages.seed is not None else 0,
            one_hot=stages.one_hot,
        )
        est.map_ = stages
        est.n_features_in_ = stages.input_dim
        est._set_fitted()
        return est

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
