"""Class names: CapWords of the registry name, the earlier names as aliases of the same classes,
and ``auclearn.Default``, the default learner, first in ``__all__``."""

import ast
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from sklearn.base import clone

import auclearn
from auclearn import _generate, estimators

from conftest import ALL_CLASSES, blobs, ids

PACKAGE = Path(auclearn.__file__).resolve().parent

#: The rule, spelled out for a few rows (the generator's docstring states it).
NEW_NAMES = {
    "opauc": "Opauc",
    "oauc-m": "OaucM",
    "oauc-mc": "OaucMc",
    "adaoam": "Adaoam",
    "bal-ftrl": "BalFtrl",
    "bal-adagrad": "BalAdagrad",
    "oam-gra": "OamGra",
    "oam-seq": "OamSeq",
    "gam-cvm-k12": "GamCvmK12",
    "opauc-batch": "OpaucBatch",
    "pa-i": "PaI",
    "gbt-auc": "GbtAuc",
    "blend": "Blend",
    "perceptron": "Perceptron",
}


def test_every_class_is_its_registry_name_in_capwords():
    for row in auclearn.REGISTRY:
        words = row["name"].split("-")
        expected = "".join(w[0].upper() + w[1:].lower() for w in words)
        cls = auclearn.ESTIMATORS[row["name"]]
        assert cls.__name__ == expected
        assert getattr(auclearn, expected) is cls
        assert cls.__module__ == "auclearn.estimators"
    for name, expected in NEW_NAMES.items():
        assert auclearn.ESTIMATORS[name].__name__ == expected


def test_earlier_names_are_aliases_of_the_same_classes():
    assert len(_generate.OLD_NAMES) == 27
    for registry_name, old in _generate.OLD_NAMES.items():
        cls = auclearn.ESTIMATORS[registry_name]
        assert getattr(auclearn, old) is cls
        assert getattr(estimators, old) is cls
        assert old not in auclearn.__all__
    assert auclearn.BALFTRL is auclearn.BalFtrl
    assert auclearn.OAMgra is auclearn.OamGra
    assert auclearn.GAMCVMK12 is auclearn.GamCvmK12
    assert auclearn.OPAUC is auclearn.Opauc
    assert auclearn.AdaOAM is auclearn.Adaoam
    # from auclearn import <old name> works as before.
    namespace = {}
    exec("from auclearn import OPAUC, BALFTRL, GAMCVMK12, OAUCMbatch", namespace)  # noqa: S102
    assert namespace["OAUCMbatch"] is auclearn.OaucMBatch


def test_all_lists_default_first_then_every_class_by_its_own_name():
    assert auclearn.__all__[0] == "Default"
    for cls in ALL_CLASSES:
        assert cls.__name__ in auclearn.__all__
    assert len(auclearn.__all__) == len(set(auclearn.__all__))
    for name in auclearn.__all__:
        assert hasattr(auclearn, name), name
    star = {}
    exec("from auclearn import *", star)  # noqa: S102
    assert star["Default"] is auclearn.Default and star["BalFtrl"] is auclearn.BalFtrl


def test_default_is_the_registrys_default_learner(auc_bin):
    out = subprocess.run([auc_bin, "algos", "--json"], capture_output=True, text=True, check=True)
    marked = [row["name"] for row in json.loads(out.stdout) if row["default"]]
    assert marked == [row["name"] for row in auclearn.REGISTRY if row["default"]] == ["blend"]
    assert issubclass(auclearn.Default, auclearn.Blend)
    assert auclearn.Default._row is auclearn.Blend._row
    assert auclearn.Default().get_params() == auclearn.Blend().get_params()
    assert "default learner" in auclearn.Default.__doc__
    assert auclearn.Blend._row["about"] in " ".join(auclearn.Default.__doc__.split())


def test_default_fits_clones_pickles_and_saves_as_its_learner(tmp_path):
    X, y = blobs(n=120)
    est = auclearn.Default(landmarks=20, trees=5, seed=1).fit(X, y)
    again = auclearn.Blend(landmarks=20, trees=5, seed=1).fit(X, y)
    assert (est.scores(X) == again.scores(X)).all()
    assert est.to_bytes() == again.to_bytes()
    assert type(clone(est)) is auclearn.Default
    assert (pickle.loads(pickle.dumps(est)).scores(X) == est.scores(X)).all()
    est.save(tmp_path / "default.model")
    assert type(auclearn.load(tmp_path / "default.model")) is auclearn.Blend
    assert "Default(" in repr(auclearn.Default())


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=ids(ALL_CLASSES))
def test_pickles_name_the_class_by_its_new_name(cls):
    est = cls()
    again = pickle.loads(pickle.dumps(est))
    assert type(again) is cls and again.get_params() == est.get_params()


def test_classes_are_ordinary_source():
    # No class is made at import: each is a class statement of estimators.py, whose
    # __init__ names its arguments (what type checkers and IDEs read; no stub file).
    tree = ast.parse((PACKAGE / "estimators.py").read_text())
    classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    assert classes == {cls.__name__ for cls in ALL_CLASSES} | {"Default"}
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        assert "exec(" not in text and "globals().update" not in text, path.name
    assert not (PACKAGE / "__init__.pyi").exists()
    assert (PACKAGE / "py.typed").exists()
    assert (PACKAGE / "_native.pyi").exists()


def test_generator_check_mode_and_file_mode(tmp_path):
    # `python -m auclearn._generate --check` exits 0 on the committed file; the file run as a
    # script (which does not import the package's __init__) renders the same text.
    env_python = sys.executable
    ok = subprocess.run(
        [env_python, "-m", "auclearn._generate", "--check"], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    script = (
        "import runpy, sys; sys.argv = ['_generate.py', '--check']; "
        f"runpy.run_path({str(PACKAGE / '_generate.py')!r}, run_name='__main__')"
    )
    as_file = subprocess.run([env_python, "-c", script], capture_output=True, text=True)
    assert as_file.returncode == 0, as_file.stdout + as_file.stderr
