"""The estimators' defaults are the CLI's (issue 50): features scaled as `--scale auto` does, so
raw features such as scikit-learn's breast-cancer data train without diverging; a fit that
diverged anyway raises, unless the user opts into keeping it."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

import auclearn
from auclearn.metrics import roc_auc_score

from conftest import ALL_CLASSES, ids


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_estimators_scale_as_the_cli_by_default(cls):
    est = cls()
    assert est.scale == "auto"
    assert est.allow_diverged is False and est.positive is None


def test_opauc_on_raw_breast_cancer_features_does_not_diverge():
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = auclearn.OPAUC().fit(X, y)
    assert est.model_.diverged is None
    assert est.model_.scaling == "minmax"
    assert roc_auc_score(y, est.decision_function(X)) > 0.95


def test_a_diverged_fit_raises_unless_allowed():
    X, y = load_breast_cancer(return_X_y=True)
    # The raw features (up to 4254) without scaling blow the iterate up.
    est = auclearn.OPAUC(scale="none")
    with pytest.raises(RuntimeError, match="opauc diverged: .*allow_diverged=True.*scale='auto'"):
        est.fit(X, y)
    assert not hasattr(est, "model_")
    with pytest.warns(RuntimeWarning, match="opauc diverged"):
        kept = auclearn.OPAUC(scale="none", allow_diverged=True).fit(X, y)
    assert kept.model_.diverged is not None
    with pytest.raises(ValueError, match="allow_diverged must be True or False"):
        auclearn.OPAUC(allow_diverged="yes").fit(X, y)


def test_a_diverged_partial_fit_raises_and_keeps_the_model():
    X, y = load_breast_cancer(return_X_y=True)
    est = auclearn.OPAUC(scale="none")
    with pytest.raises(RuntimeError, match="opauc diverged"):
        est.partial_fit(X, y, classes=np.array([0, 1]))
    assert est.model_.diverged is not None


def test_the_memory_limit_is_the_clis_and_knows_the_address_space_limit():
    """Python's budget is `auc`'s default --max-memory (issue 53): three quarters of the least
    of physical memory, the cgroup's limit and the rlimits; under `prlimit --as` it follows
    the address-space limit."""
    import os
    import shutil
    import subprocess
    import sys

    from auclearn._base import memory_limit

    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert 0 < memory_limit() <= physical // 4 * 3 + 4096
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        pytest.skip("prlimit is not installed: the address-space case is not run")
    limit = 8 << 30
    if limit >= memory_limit() * 4 // 3:
        pytest.skip("this machine's own limit is below 8 GiB: the rlimit would not bound it")
    code = "from auclearn._base import memory_limit; print(memory_limit())"
    out = subprocess.run([prlimit, f"--as={limit}", sys.executable, "-c", code],
                         capture_output=True, text=True, check=True)
    assert int(out.stdout) == limit // 4 * 3, out.stderr
