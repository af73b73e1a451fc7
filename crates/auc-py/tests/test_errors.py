"""One refusal, one Python exception, whatever the path: the library's typed error is mapped once
(``MemoryError`` for a memory refusal, ``ValueError`` for the rest), so a file fit by
``stream_fit`` (streamed, moment pass or in memory) and an array fit raise the same class for the
same refusal."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

import auclearn


def rows(n=80, p=5, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, p)) + y[:, None]
    return X, y


@pytest.mark.parametrize("algorithm", ["pa-i", "opauc-batch", "gbt-auc"])
def test_a_memory_refusal_is_a_memory_error_on_every_file_route(tmp_path, algorithm):
    # pa-i streams the file, opauc-batch takes a moment pass, gbt-auc loads the rows.
    X, y = rows()
    path = tmp_path / "d.libsvm"
    dump_svmlight_file(X, 2 * y - 1, str(path), zero_based=False)
    with pytest.raises(MemoryError, match="--max-memory"):
        auclearn.stream_fit(str(path), algorithm, max_memory=1000)


def test_a_memory_refusal_is_a_memory_error_on_arrays():
    n, p = 200, 200_000
    X = sp.random(n, p, density=2e-5, format="csr", random_state=1)
    y = np.random.default_rng(1).integers(0, 2, n)
    with pytest.raises(MemoryError, match="features"):
        auclearn.OPAUC().fit(X, y)


@pytest.mark.parametrize("algorithm", ["pa-i", "opauc-batch", "gbt-auc"])
def test_one_class_is_a_value_error_on_every_file_route(tmp_path, algorithm):
    X, _ = rows()
    path = tmp_path / "one.libsvm"
    dump_svmlight_file(X, np.ones(len(X)), str(path), zero_based=False)
    with pytest.raises(ValueError, match="class"):
        auclearn.stream_fit(str(path), algorithm, positive=[1.0])
