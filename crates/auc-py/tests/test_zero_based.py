"""0-based LIBSVM files, as scikit-learn's ``dump_svmlight_file`` writes them: ``stream_fit``
reads them by default (``zero_based="auto"``, scikit-learn's rule), the model records it and
``scores_file`` reads later files the same way; ``zero_based=`` chooses, as ``--zero-based``."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import auclearn

from conftest import blobs, cli_scores, write_libsvm


def data():
    X, y = blobs(n=120, p=5, seed=11)
    # Feature 0 is non-zero in every row, so the 0-based file holds index 0 on every line.
    X[:, 0] = np.abs(X[:, 0]) + 0.5
    # Six decimals: scikit-learn's writer (16 significant digits) and the suite's (repr) then
    # write the same numbers.
    return np.round(X, 6), y


@pytest.fixture()
def files(tmp_path):
    """The same rows written 0-based by scikit-learn and 1-based by the suite's own writer."""
    X, y = data()
    zero, one = tmp_path / "zero.svm", tmp_path / "one.svm"
    dump_svmlight_file(X, y, str(zero))
    write_libsvm(one, X, y)
    return X, y, zero, one


def test_stream_fit_reads_scikit_learns_file_as_its_1_based_twin(files):
    X, _, zero, one = files
    want = auclearn.stream_fit(one, "pa-i")
    for z in ("auto", "yes", True):
        est = auclearn.stream_fit(zero, "pa-i", zero_based=z)
        assert est.model_.reading.startswith("LIBSVM (0-based), 5 features"), est.model_.reading
        assert est.n_features_in_ == X.shape[1]
        # The model reads later files 0-based, so its own file scores as the twin does.
        assert np.array_equal(est.scores_file(zero), want.scores_file(one))
        np.testing.assert_allclose(est.scores(X), want.scores(X), rtol=1e-12, atol=1e-12)
    assert want.model_.reading.startswith("LIBSVM, 5 features"), want.model_.reading


def test_no_refuses_index_0_with_its_place_and_the_way_out(files):
    _, _, zero, _ = files
    for z in ("no", False):
        with pytest.raises(ValueError, match=r"zero\.svm:1:3: feature index 0.*--zero-based yes"):
            auclearn.stream_fit(zero, "pa-i", zero_based=z)
    with pytest.raises(ValueError, match="zero_based must be 'auto', 'yes' or 'no'"):
        auclearn.stream_fit(zero, "pa-i", zero_based="maybe")


def test_a_model_fitted_on_arrays_scores_a_0_based_file_when_told(files, auc_bin, tmp_path):
    """An array fit records 1-based LIBSVM (columns are indices 1, 2, ...): scikit-learn's file
    is refused by default and read right with ``zero_based="yes"``, as ``auc predict
    --zero-based yes`` reads it."""
    X, y, zero, one = files
    est = auclearn.ESTIMATORS["pa-i"]().fit(X, y)
    with pytest.raises(ValueError, match="--zero-based yes"):
        est.scores_file(zero)
    got = est.scores_file(zero, zero_based="yes")
    assert np.array_equal(got, est.scores_file(one))
    np.testing.assert_allclose(got, est.scores(X), rtol=1e-12, atol=1e-12)
    model = tmp_path / "arrays.auc"
    est.save(model)
    assert np.array_equal(auclearn.score_file(model, zero, zero_based=True), got)
    # A model of the 0-based file: the CLI's predict reads the file the model's way.
    streamed = auclearn.stream_fit(zero, "pa-i")
    saved = tmp_path / "zero.auc"
    streamed.save(saved)
    assert np.array_equal(cli_scores(auc_bin, saved, zero, tmp_path), streamed.scores_file(zero))
