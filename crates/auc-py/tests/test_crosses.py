"""``cross_hash_bits=``, the CLI's ``--cross-hash-bits`` for arrays: the crosses equal a
brute force with MurmurHash3's fmix64 of the pair, the model records them and crosses the rows
it scores, ``auc predict`` crosses a LIBSVM file the same way, and a model trained by ``auc
train --hash-bits B --cross-hash-bits C`` scores arrays in Python as ``auc predict`` does."""

import subprocess

import numpy as np
import pytest

import auclearn

from conftest import blobs, cli_scores, write_libsvm

M64 = (1 << 64) - 1


def fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    k ^= k >> 33
    return k


def crossed(X, bits):
    """The rows of ``X`` with their crosses by brute force: columns first, then 2^bits buckets
    where every pair i < j of a row's non-zeros adds x_i x_j at p + fmix64(i 2^32 + j) mod 2^bits."""
    n, p = X.shape
    out = np.zeros((n, p + (1 << bits)))
    out[:, :p] = X
    for r in range(n):
        nz = np.flatnonzero(X[r])
        for a in range(len(nz)):
            for b in range(a + 1, len(nz)):
                i, j = int(nz[a]), int(nz[b])
                out[r, p + fmix64((i << 32) | j) % (1 << bits)] += X[r, i] * X[r, j]
    return out


def data(seed=5):
    X, y01 = blobs(n=120, p=6, seed=seed)
    X = np.round(X, 3)
    X[np.abs(X) < 0.4] = 0.0  # some zeros, which make no crosses
    return X, np.where(y01 == 1, 1, -1)


@pytest.mark.parametrize("name", ["pa-i", "opauc", "opauc-batch"])
def test_crosses_equal_brute_force_and_are_stored(name, auc_bin, tmp_path):
    X, y = data()
    est = auclearn.Learner(name, cross_hash_bits=4).fit(X, y)
    assert est.model_.cross_bits == 4 and est.model_.dim == X.shape[1]
    assert est.n_features_in_ == X.shape[1]
    # The same learner on the crosses made by hand scores the same.
    by_hand = auclearn.Learner(name).fit(crossed(X, 4), y)
    np.testing.assert_allclose(est.scores(X), by_hand.scores(crossed(X, 4)), rtol=1e-12, atol=1e-12)
    # The model file crosses test rows for `auc predict` and when read back.
    model = tmp_path / "m.model"
    est.save(model)
    svm = tmp_path / "x.svm"
    write_libsvm(svm, X, y)
    np.testing.assert_allclose(cli_scores(auc_bin, model, svm, tmp_path), est.scores(X), rtol=1e-12, atol=1e-12)
    back = auclearn.load(model)
    assert back.cross_hash_bits == 4
    np.testing.assert_array_equal(back.scores(X), est.scores(X))


def test_a_cli_model_with_crosses_scores_arrays_as_auc_predict(auc_bin, tmp_path):
    X, y = data(seed=6)
    svm = tmp_path / "train.svm"
    write_libsvm(svm, X, y)
    model = tmp_path / "cli.model"
    subprocess.run(
        [auc_bin, "train", "--algo", "pa-i", "--hash-bits", "3", "--cross-hash-bits", "5",
         "--output", str(model), str(svm)],
        check=True,
        capture_output=True,
        text=True,
    )
    est = auclearn.load(model)
    assert est.model_.cross_bits == 5 and est.n_features_in_ == 8
    # Six columns hashed into 2^3 keep their indices: the array holds the hashed features.
    X8 = np.hstack([X, np.zeros((X.shape[0], 2))])
    np.testing.assert_allclose(est.scores(X8), cli_scores(auc_bin, model, svm, tmp_path), rtol=1e-12, atol=1e-12)


def test_bad_bits_and_rows_past_the_cap_are_refused():
    X, y = data()
    with pytest.raises(ValueError, match="cross_hash_bits"):
        auclearn.Learner("pa-i", cross_hash_bits=31).fit(X, y)
    with pytest.raises(ValueError, match="cross_hash_bits"):
        auclearn.Learner("pa-i", cross_hash_bits=0).fit(X, y)
    wide = np.ones((4, 1025))
    with pytest.raises(ValueError, match=r"row 0: the row has 1025 non-zero features, more than the 1024"):
        auclearn.Learner("pa-i", cross_hash_bits=4).fit(wide, np.array([1, -1, 1, -1]))
