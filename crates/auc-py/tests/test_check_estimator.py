"""scikit-learn's own estimator checks for every linear learner, plain and with a feature map
(issue 22) as a stage. No check is skipped or expected to fail: binary-only is declared with the
`multi_class = False` tag, under which scikit-learn runs its binary checks and
`check_classifier_not_supporting_multiclass` instead; the only check scikit-learn skips by itself
is array-API input (see the test)."""

import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

from conftest import LINEAR, LINEAR_BATCH, ids


def run_checks(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(est, on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:300]) for r in results if r["status"] == "failed"]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert failed == []
    assert len(results) > 40
    # The one check scikit-learn skips by itself: array-API input runs only with the
    # SCIPY_ARRAY_API environment variable and array_api_compat installed (these estimators
    # take numpy and scipy.sparse input).
    assert skipped <= {"check_array_api_input"}


@pytest.mark.parametrize("cls", LINEAR, ids=ids(LINEAR))
def test_check_estimator(cls):
    run_checks(cls())


@pytest.mark.parametrize("cls", LINEAR, ids=ids(LINEAR))
def test_check_estimator_with_a_feature_map(cls):
    # Random Fourier features of the default width: the checks' data (blobs, one sample, one
    # feature, constant columns, float32, sparse) all go through the map first.
    run_checks(cls(features="rff", n_features_map=32))


@pytest.mark.parametrize("cls", LINEAR_BATCH, ids=ids(LINEAR_BATCH))
def test_check_estimator_batch_linear(cls):
    # The batch learners linear in their features: plain and on a map.
    run_checks(cls())
    run_checks(cls(features="rff", n_features_map=32))
