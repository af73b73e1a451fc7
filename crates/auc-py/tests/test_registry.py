"""The classes are generated from the Rust registry: one per row, constructor = its parameters."""

import inspect
import json
import subprocess

import numpy as np
import pytest

import auclearn
from auclearn import _native

from conftest import ALL_CLASSES, ids


def test_one_class_per_registry_row_in_order():
    rows = json.loads(_native.registry())
    assert [r["name"] for r in rows] == list(auclearn.ESTIMATORS)
    assert len(rows) == len(ALL_CLASSES) >= 20
    for cls in ALL_CLASSES:
        assert getattr(auclearn, cls.__name__) is cls


def test_issue_class_names():
    for name in ["OPAUC", "OAUCM", "AdmOAM", "OKAUCM", "GAMCVM"]:
        assert issubclass(getattr(auclearn, name), auclearn.AUCEstimator)


def test_registry_equals_the_cli_listing(auc_bin):
    out = subprocess.run([auc_bin, "algos", "--json"], capture_output=True, text=True, check=True)
    text = out.stdout.strip()
    cli = json.loads(text) if text.startswith("[") else [json.loads(l) for l in text.splitlines()]
    assert [r["name"] for r in cli] == [r["name"] for r in auclearn.REGISTRY]
    for mine, theirs in zip(auclearn.REGISTRY, cli):
        assert [p["name"] for p in mine["params"]] == [p["name"] for p in theirs["params"]]
        assert [p["default"] for p in mine["params"]] == [p["default"] for p in theirs["params"]]


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_constructor_is_the_registry_parameters_with_defaults(cls):
    row = cls._row
    sig = inspect.signature(cls.__init__)
    params = [p for p in sig.parameters.values() if p.name != "self"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    by_name = {p.name: p.default for p in params}
    for spec in row["params"]:
        py = auclearn.PYTHON_NAMES.get(spec["name"], spec["name"])
        assert by_name.pop(py) == spec["default"]
    expected_common = {
        "seed": 0,
        "scale": "none",
        "pos_label": None,
        "calibration": None,
        "calibration_folds": 5,
        "cross_hash_bits": None,
    }
    if row["family"] == "linear":
        expected_common["average"] = False
    if row["linear_model"]:
        expected_common.update(
            one_hot=None, features=None, n_features_map=None, feature_sigma="scale"
        )
    assert by_name == expected_common
    # Docstrings come from the registry: the citation line and every parameter's doc.
    assert row["about"] in cls.__doc__
    for spec in row["params"]:
        assert spec["doc"] in cls.__doc__


def test_lambda_is_spelled_lam():
    assert "lam" in auclearn.OPAUC().get_params()
    assert "lambda" not in auclearn.OPAUC().get_params()
    assert auclearn.Learner("opauc", **{"lambda": 0.5}).lam == 0.5


def test_learner_factory_takes_names_and_aliases():
    for row in auclearn.REGISTRY:
        assert type(auclearn.Learner(row["name"])) is auclearn.ESTIMATORS[row["name"]]
        for alias in row["aliases"]:
            assert type(auclearn.Learner(alias)) is auclearn.ESTIMATORS[row["name"]]
    est = auclearn.Learner("opauc", eta=0.5)
    assert isinstance(est, auclearn.OPAUC) and est.eta == 0.5
    with pytest.raises(ValueError, match="unknown algorithm"):
        auclearn.Learner("no-such-learner")


def test_bad_parameter_is_the_registry_error():
    X, y = __import__("conftest").blobs()
    with pytest.raises(ValueError, match="eta"):
        auclearn.OPAUC(eta=-1.0).fit(X, y)


def test_committed_type_stub_is_the_generated_one():
    from pathlib import Path

    from auclearn import _stubs

    stub = Path(__file__).resolve().parents[1] / "python" / "auclearn" / "__init__.pyi"
    assert stub.read_text() == _stubs.render(), "regenerate: python -m auclearn._stubs > " + str(stub)
    compile(stub.read_text(), str(stub), "exec")


def test_gam_cvm_on_landmarks_takes_the_measured_epsilon_unless_given():
    # As `auc` without `--param epsilon`: a default left in place follows landmarks
    # (docs/results/cvm-epsilon.md); a given epsilon is kept.
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=120) > 0).astype(int)
    def epsilon(**kw):
        return json.loads(auclearn.GAMCVM(n_loc=8, **kw).fit(X, y).model_.params)["epsilon"]

    assert epsilon(landmarks=40) == 3e-5
    # Python passes the registry the values that differ from its defaults, so a given 1e-4 is
    # kept (an epsilon equal to the default 1e-3 reads as not given).
    assert epsilon(landmarks=40, epsilon=1e-4) == 1e-4
    assert epsilon() == 1e-3
