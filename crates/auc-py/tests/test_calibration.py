"""``calibration=``: probabilities from the estimators (issue 25).

``fit`` fits the calibration on held-out scores of an internal cross-validation, ``partial_fit``
on each batch's prequential scores; ``predict_proba``, ``decision_function`` and ``predict``
agree; the calibration is stored in the model file (``auc predict --proba`` prints the same
probabilities); scikit-learn's own checks pass with probabilities; the prequential calibration
equals scikit-learn's calibrators fitted on the same scores.
"""

import pickle
import subprocess
import warnings

import numpy as np
import pytest
from sklearn.calibration import _SigmoidCalibration
from sklearn.isotonic import IsotonicRegression
from sklearn.utils.estimator_checks import check_estimator

import auclearn
from conftest import ALL_CLASSES, LINEAR, blobs, ids, small, write_libsvm


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_every_estimator_gives_consistent_probabilities(cls):
    X, y = blobs(n=150, seed=3)
    est = small(cls, calibration="sigmoid").fit(X, y)
    proba = est.predict_proba(X)
    assert proba.shape == (len(y), 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    assert ((proba >= 0) & (proba <= 1)).all()
    pred = est.predict(X)
    np.testing.assert_array_equal(est.classes_[np.argmax(proba, axis=1)], pred)
    np.testing.assert_array_equal(est.classes_[(est.decision_function(X) > 0).astype(int)], pred)
    # The sigmoid is monotone in the score: the probabilities rank as the scores do.
    order = np.argsort(est.scores(X), kind="stable")
    assert (np.diff(proba[order, 1]) >= -1e-15).all()
    assert "sigmoid" in est.model_.calibration


def test_no_calibration_no_predict_proba():
    est = auclearn.Learner("pa-i").fit(*blobs())
    assert not hasattr(est, "predict_proba")
    assert est.model_.calibration is None


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_pos_label_of_the_first_class_keeps_columns_in_classes_order(method):
    X, y = blobs(n=200, seed=5)
    labels = np.where(y == 1, "fraud", "ok")  # classes_ = ["fraud", "ok"]
    est = auclearn.Learner("opauc-batch", calibration=method, pos_label="fraud").fit(X, labels)
    assert est.classes_.tolist() == ["fraud", "ok"]
    proba = est.predict_proba(X)
    fraud = labels == "fraud"
    # Column 0 is the probability of "fraud": higher on the fraud rows.
    assert proba[fraud, 0].mean() > proba[~fraud, 0].mean() + 0.3
    np.testing.assert_array_equal(est.classes_[np.argmax(proba, axis=1)], est.predict(X))


def test_bad_calibration_arguments_are_refused():
    X, y = blobs()
    with pytest.raises(ValueError, match="sigmoid"):
        auclearn.Learner("pa-i", calibration="platt").fit(X, y)
    with pytest.raises(ValueError, match="calibration_folds"):
        auclearn.Learner("pa-i", calibration="sigmoid", calibration_folds=1).fit(X, y)
    # One positive: no held-out score of it can exist.
    X2 = np.random.default_rng(0).normal(size=(40, 3))
    y2 = np.zeros(40, dtype=int)
    y2[0] = 1
    with pytest.raises(ValueError, match="at least 2 folds"):
        auclearn.Learner("pa-i", calibration="sigmoid").fit(X2, y2)
    # Three positives: three folds instead of five, and it fits.
    y2[:3] = 1
    est = auclearn.Learner("pa-i", calibration="sigmoid").fit(X2, y2)
    assert est.predict_proba(X2).shape == (40, 2)


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_saved_probabilities_equal_auc_predict_proba(method, auc_bin, tmp_path):
    X, y = blobs(n=180, seed=7)
    est = auclearn.Learner("opauc", calibration=method).fit(X, y)
    model = tmp_path / "m.auc"
    est.save(model)
    svm = tmp_path / "d.svm"
    write_libsvm(svm, X, y)
    out = subprocess.run(
        [auc_bin, "predict", "-m", str(model), str(svm), "--proba"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    cli = np.array([float(v) for v in out.split()])
    np.testing.assert_allclose(cli, est.predict_proba(X)[:, 1], rtol=1e-12, atol=1e-12)
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    loaded = auclearn.load(model)
    assert method in loaded.model_.calibration


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_prequential_calibration_equals_scikit_learn(method):
    X, y = blobs(n=60, seed=11)
    # Unscaled, so that a replay on the first i rows learns what the whole batch learned on them
    # (a scaling is fitted on the rows of a first partial_fit).
    est = auclearn.Learner("pa-i", calibration=method, scale="none")
    est.partial_fit(X, y, classes=[0, 1])
    # The prequential scores, replayed: row i scored by the learner trained on rows < i (the
    # untrained PA-I scores 0).
    scores = [0.0]
    for i in range(1, len(y)):
        step = auclearn.Learner("pa-i", scale="none").partial_fit(X[:i], y[:i], classes=[0, 1])
        scores.append(float(step.scores(X[i : i + 1])[0]))
    scores = np.array(scores)
    test_scores = est.scores(X)
    if method == "sigmoid":
        want = _SigmoidCalibration().fit(scores, y).predict(test_scores)
        tol = 5e-8  # scikit-learn's L-BFGS tolerance (the Rust fixtures test 1e-12 to Newton's)
    else:
        want = IsotonicRegression(out_of_bounds="clip").fit(scores, y).predict(test_scores)
        tol = 1e-12
    np.testing.assert_allclose(est.predict_proba(X)[:, 1], want, rtol=0, atol=tol)


def run_checks(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(est, on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:300]) for r in results if r["status"] == "failed"]
    assert failed == []
    assert len(results) > 40


@pytest.mark.parametrize("cls", LINEAR, ids=ids(LINEAR))
def test_check_estimator_with_probabilities(cls):
    run_checks(cls(calibration="sigmoid"))


def test_check_estimator_with_isotonic_probabilities():
    run_checks(auclearn.Learner("opauc", calibration="isotonic"))
