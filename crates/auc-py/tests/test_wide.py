"""The batch moment learners on wide sparse matrices: conjugate gradients over the rows fit
what the dense solver fits, and a width whose p x p matrices would not fit still trains."""

import functools

import numpy as np
import pytest
import scipy.sparse as sp

import auclearn


def sparse_problem(n, p, nnz, seed):
    rng = np.random.default_rng(seed)
    rows = np.repeat(np.arange(n), nnz)
    cols = (rng.random(n * nnz) ** 2 * p).astype(np.int64)
    y = np.where(np.arange(n) % 4 == 0, 1, -1)
    vals = rng.uniform(-0.5, 0.5, n * nnz) + np.where((y[rows] == 1) & (cols % 3 == 0), 0.4, 0.0)
    x = sp.csr_matrix((vals, (rows, cols)), shape=(n, p))
    x.sum_duplicates()
    return x, y


@pytest.mark.parametrize("cls", [auclearn.OPAUCbatch, auclearn.OAUCMbatch])
def test_conjugate_gradients_fit_what_cholesky_fits(cls):
    x, y = sparse_problem(400, 60, 6, 1)
    dense = cls(solver="cholesky").fit(x, y).decision_function(x)
    cg = cls(solver="cg").fit(x, y).decision_function(x)
    np.testing.assert_allclose(cg, dense, atol=1e-6 * np.abs(dense).max())
    # auto is Cholesky at 60 features: the same model exactly.
    np.testing.assert_array_equal(cls().fit(x, y).decision_function(x), dense)


def test_wide_data_train_without_a_p_by_p_matrix():
    # 200,000 features: the dense system alone would be 320 GB.
    x, y = sparse_problem(3000, 200_000, 10, 2)
    model = auclearn.OPAUCbatch().fit(x, y)
    s = model.decision_function(x)
    assert np.isfinite(s).all()
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(y, s) > 0.9
    with pytest.raises(MemoryError, match="no p x p matrix"):
        auclearn.OPAUCbatch(solver="cholesky").fit(x, y)


def test_a_sketch_of_full_rank_fits_the_exact_model():
    x, y = sparse_problem(400, 30, 5, 3)
    exact = auclearn.OPAUCbatch().fit(x, y).decision_function(x)
    sk = auclearn.OPAUCbatch(sketch=64).fit(x, y).decision_function(x)
    np.testing.assert_allclose(sk, exact, atol=1e-5 * np.abs(exact).max())


@pytest.mark.parametrize("name", ["opauc", "oauc-m", "oauc-mc", "adaoam", "admoam"])
def test_one_pass_moment_learners_take_a_sketch(name):
    # Rows as given: a sketch of them is what is tested (min-max scaling, the default on rows
    # this dense, shifts every row off zero).
    cls = functools.partial(auclearn.ESTIMATORS[name], scale="none")
    x, y = sparse_problem(400, 20, 5, 4)
    exact = cls().fit(x, y).decision_function(x)
    # A sketch of rank >= p holds the rows exactly: the same model to rounding.
    full = cls(sketch=20).fit(x, y).decision_function(x)
    np.testing.assert_allclose(full, exact, atol=1e-8 * np.abs(exact).max())
    # Below the rank it is an approximation, finite and still ranking the classes.
    small = cls(sketch=4).fit(x, y).decision_function(x)
    assert np.isfinite(small).all()
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(y, small) > 0.6
    with pytest.raises(ValueError, match="sketch"):
        cls(sketch=5000).fit(x, y)
