"""The Rust extension module of auclearn (crate auc-py); use the package's public API instead."""

from typing import Any

import numpy as np
from numpy.typing import NDArray

__version__: str

def registry() -> str: ...
def default_memory_limit() -> int: ...
def fit(
    name: str,
    params: str,
    x: Any,
    y: NDArray[np.bool_],
    seed: int,
    scale: str,
    positive_labels: list[float],
    positive_rule: str,
    partial: bool = False,
    average: bool = False,
    max_memory: int | None = None,
    features: str | None = None,
    feature_sigma: str | None = None,
    calibration: str | None = None,
    calibration_folds: int = 5,
    cross_hash_bits: int | None = None,
    one_hot: int | None = None,
    table: TableSchema | None = None,
) -> Model: ...
def table_schema(
    names: list[str],
    columns: list[NDArray[np.float64] | list[str | None]],
    label: int,
    positive: str | None = None,
    classes: NDArray[np.float64] | list[str | None] | None = None,
) -> TableSchema: ...

class TableSchema:
    def encode(
        self,
        names: list[str],
        columns: list[NDArray[np.float64] | list[str | None]],
        what: str = "X",
    ) -> tuple[NDArray[np.float64], NDArray[np.bool_] | None]: ...
    @property
    def columns(self) -> list[str]: ...
    @property
    def label(self) -> str: ...
    @property
    def label_values(self) -> list[tuple[str, int]]: ...
    @property
    def positive(self) -> list[str]: ...
    @property
    def positive_rule(self) -> str: ...
    @property
    def feature_names(self) -> list[str]: ...
    @property
    def dim(self) -> int: ...
    @property
    def notes(self) -> list[str]: ...
def stream_fit(
    paths: list[str],
    name: str,
    params: str,
    seed: int,
    scale: str,
    reading: dict[str, Any],
    positive: list[str] | None = None,
    average: bool = False,
    one_hot: int | None = None,
    features: str | None = None,
    feature_sigma: str | None = None,
    unit_norm: bool = False,
    shuffle: int | None = None,
    shuffle_buffer: int = 10000,
    shuffle_full: bool = False,
    threaded: bool = True,
    threads: int | None = None,
    max_memory: int | None = None,
) -> tuple[Model, list[str], list[str]]: ...
def score_file(
    model: Model,
    path: str,
    output: str | None = None,
    strict_dim: bool = False,
    threaded: bool = True,
    zero_based: str | None = None,
) -> NDArray[np.float64] | int: ...
def roc_auc(scores: NDArray[np.float64], y: NDArray[np.bool_]) -> float: ...
def average_precision(scores: NDArray[np.float64], y: NDArray[np.bool_]) -> float: ...
def partial_auc(
    scores: NDArray[np.float64], y: NDArray[np.bool_], max_fpr: float
) -> tuple[float, float]: ...
def multiclass_auc(
    scores: NDArray[np.float64], classes: NDArray[np.int64], multi_class: str, average: str
) -> float: ...
def roc_curve(
    scores: NDArray[np.float64], y: NDArray[np.bool_], drop_intermediate: bool = False
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]: ...
def auc_ci(
    scores: NDArray[np.float64], y: NDArray[np.bool_], level: float
) -> tuple[float, float, float, float]: ...
def delong_test(
    a: NDArray[np.float64], b: NDArray[np.float64], y: NDArray[np.bool_], level: float
) -> tuple[float, float, float, float, float, float, float, float, float]: ...
def bootstrap_ci(
    scores: NDArray[np.float64],
    y: NDArray[np.bool_],
    replicates: int,
    seed: int,
    level: float,
    max_fpr: float | None = None,
) -> str: ...
def operating_point(
    scores: NDArray[np.float64], y: NDArray[np.bool_], target: str
) -> tuple[float, float, float, float, float, float, int, int, int, int]: ...
def pr_curve(
    scores: NDArray[np.float64], y: NDArray[np.bool_]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]: ...
def friedman(scores: list[list[float]], alpha: float) -> str: ...
def nested_cv(
    name: str,
    x: Any,
    y: NDArray[np.bool_],
    params: str,
    grid_words: list[str],
    grid: list[tuple[str, str]],
    repeats: int,
    folds: int,
    inner_folds: int,
    seed: int,
    scale: str,
    unit_norm: bool,
    max_train: int | None,
    average: bool,
) -> str: ...
def moments(
    x: Any,
    y: NDArray[np.float64],
    source: str | None = None,
    stages: Transform | bytes | None = None,
) -> bytes: ...
def merge_moments(parts: list[bytes], same_dim: bool = True) -> bytes: ...
def moments_info(
    bytes: bytes,
) -> tuple[int, int, list[tuple[float, int]], list[str], Transform | None]: ...
def map_sample(
    x: Any,
    scale: str,
    features: str | None = None,
    feature_sigma: str | None = None,
    seed: int = 0,
    one_hot: int | None = None,
) -> bytes: ...
def merge_map_samples(parts: list[bytes]) -> bytes: ...
def fit_moments(
    name: str,
    params: str,
    moments: bytes,
    positive_labels: list[float],
    positive_rule: str,
    scale: str,
    seed: int,
) -> Model: ...

class Model:
    @staticmethod
    def from_bytes(bytes: bytes) -> Model: ...
    def to_bytes(self) -> bytes: ...
    def decision_function(self, x: Any) -> NDArray[np.float64]: ...
    def partial_fit(
        self, x: Any, y: NDArray[np.bool_], calibration: str | None = None
    ) -> None: ...
    def predict_proba(self, x: Any) -> NDArray[np.float64]: ...
    def log_odds(self, x: Any) -> NDArray[np.float64]: ...
    @property
    def calibration(self) -> str | None: ...
    def copy(self) -> Model: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def is_online(self) -> bool: ...
    @property
    def params(self) -> str: ...
    @property
    def dim(self) -> int: ...
    @property
    def cross_bits(self) -> int | None: ...
    @property
    def positive_labels(self) -> list[float]: ...
    @property
    def positive_rule(self) -> str: ...
    @property
    def scaling(self) -> str: ...
    @property
    def feature_map(self) -> tuple[str, int, float] | None: ...
    @property
    def one_hot(self) -> int | None: ...
    @property
    def averaged(self) -> bool: ...
    @property
    def seed(self) -> int: ...
    @property
    def counts(self) -> tuple[int, int, int]: ...
    @property
    def table(self) -> TableSchema | None: ...
    @property
    def explanation(self) -> str: ...
    @property
    def diverged(self) -> str | None: ...
    @property
    def reading(self) -> str: ...
    @property
    def describe(self) -> str: ...

class Transform:
    @staticmethod
    def fit(
        x: Any,
        scale: str,
        features: str | None = None,
        feature_sigma: str | None = None,
        seed: int = 0,
        max_memory: int | None = None,
        one_hot: int | None = None,
    ) -> Transform: ...
    @staticmethod
    def fit_from_sample(
        sample: bytes,
        scale: str,
        features: str | None = None,
        feature_sigma: str | None = None,
        seed: int = 0,
        max_memory: int | None = None,
        one_hot: int | None = None,
    ) -> Transform: ...
    def transform(self, x: Any, max_memory: int | None = None) -> NDArray[np.float64]: ...
    @staticmethod
    def from_bytes(bytes: bytes) -> Transform: ...
    def to_bytes(self) -> bytes: ...
    @property
    def input_dim(self) -> int: ...
    @property
    def output_dim(self) -> int: ...
    @property
    def scaling(self) -> str: ...
    @property
    def feature_map(self) -> tuple[str, int, float] | None: ...
    @property
    def one_hot(self) -> int | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def describe(self) -> str: ...
