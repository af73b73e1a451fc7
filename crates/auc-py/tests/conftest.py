"""Shared data and helpers of the auclearn test suite."""

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import auclearn

REPO = Path(__file__).resolve().parents[3]


def blobs(n=160, p=6, seed=0, positive_rate=0.3):
    """Two Gaussian classes whose means differ along every feature: separable enough that every
    learner ranks them well, with a minority positive class."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < positive_rate).astype(np.int64)
    y[:2] = [0, 1]
    X = rng.normal(size=(n, p)) + 1.6 * y[:, None] * np.linspace(1.0, 0.2, p)[None, :]
    return X, y


def is_linear(cls):
    return cls._row["family"] == "linear"


def is_online(cls):
    return cls._row["online"]


ALL_CLASSES = list(auclearn.ESTIMATORS.values())
LINEAR = [c for c in ALL_CLASSES if is_linear(c)]
#: The batch learners whose model is linear in the prepared features (the moment learners and
#: pAUC-SVM).
LINEAR_BATCH = [c for c in ALL_CLASSES if c._row["linear_model"] and c._row["family"] == "batch"]
ONLINE = [c for c in ALL_CLASSES if is_online(c)]


def ids(classes):
    return [c._row["name"] for c in classes]


def small(cls, **extra):
    """An estimator cheap enough for many fits in a test (small budgets for kernel learners)."""
    params = {}
    names = cls().get_params()
    if "budget" in names:
        params["budget"] = 20
    params.update(extra)
    return cls(**params)


@pytest.fixture(scope="session")
def auc_bin():
    """The `auc` binary built with the package (AUC_BIN, set by `cargo xtask python`), else the
    workspace's release or debug build."""
    given = os.environ.get("AUC_BIN")
    candidates = [given] if given else []
    candidates += [str(REPO / "target" / "release" / "auc"), str(REPO / "target" / "debug" / "auc")]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    found = shutil.which("auc")
    if found:
        return found
    pytest.fail("no `auc` binary: build it with `cargo build --release -p auc-cli` or set AUC_BIN")


def write_libsvm(path, X, y):
    """Writes ``X`` (dense) and the labels ``y`` as a LIBSVM file, values in repr (exact)."""
    with open(path, "w") as f:
        for row, label in zip(X, y):
            feats = " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row.tolist()) if v != 0.0)
            f.write(f"{int(label):+d} {feats}\n")


def cli_scores(auc_bin, model, data, tmp_path):
    """The scores ``auc predict --model MODEL DATA`` writes."""
    out = tmp_path / "scores.txt"
    subprocess.run(
        [auc_bin, "predict", "--model", str(model), "--output", str(out), str(data)],
        check=True,
        capture_output=True,
        text=True,
    )
    return np.array([float(line) for line in out.read_text().split()])
