"""Writes the type stub ``__init__.pyi`` from the registry: the estimator classes exist only at
run time (made from ``auc_learners::ALL`` at import), so type checkers and IDEs learn them from
this generated file. The test suite fails when the committed stub differs from this output.

Regenerate: ``python -m auclearn._stubs > crates/auc-py/python/auclearn/__init__.pyi``.
"""

from __future__ import annotations

import sys

from ._estimators import ESTIMATORS, _common_params, python_name

_TYPES = {"real": "float", "integer": "int", "bool": "bool"}

HEADER = '''"""Type stubs of auclearn, generated from the learner registry by ``python -m auclearn._stubs``
(do not edit: the test suite compares this file with the generator's output)."""

from typing import Any, Literal

from numpy.typing import ArrayLike

from . import metrics as metrics
from . import model_selection as model_selection
from . import moments as moments
from . import stats as stats
from ._estimators import AUCEstimator as AUCEstimator
from ._estimators import ESTIMATORS as ESTIMATORS
from ._estimators import PYTHON_NAMES as PYTHON_NAMES
from ._estimators import REGISTRY as REGISTRY
from ._estimators import OnlineAUCEstimator as OnlineAUCEstimator
from ._estimators import estimator_class as estimator_class
from ._estimators import from_bytes as from_bytes
from ._estimators import load as load
from ._feature_map import FeatureMap as FeatureMap
from ._stream import score_file as score_file
from ._stream import stream_fit as stream_fit
from .model_selection import nested_cv as nested_cv
from .stats import friedman_nemenyi as friedman_nemenyi

__version__: str

def Learner(name: str, **params: Any) -> AUCEstimator: ...
'''


def _annotation(spec: dict) -> str:
    if spec["type"] == "choice":
        return "Literal[" + ", ".join(repr(c) for c in spec["choices"]) + "]"
    return _TYPES[spec["type"]]


def render() -> str:
    """The stub file's text."""
    out = [HEADER]
    for cls in ESTIMATORS.values():
        row = cls._row
        base = "OnlineAUCEstimator" if row["online"] else "AUCEstimator"
        doc = cls.__doc__.replace("\\", "\\\\").replace('"""', "'''")
        out.append(f"\nclass {cls.__name__}({base}):")
        out.append('    """' + doc.replace("\n", "\n    ").replace("\n    \n", "\n\n") + '\n    """')
        args = []
        for spec in row["params"]:
            name = python_name(spec["name"])
            out.append(f"    {name}: {_annotation(spec)}")
            args.append(f"{name}: {_annotation(spec)} = {spec['default']!r}")
        for name, kind, default, _ in _common_params(row):
            ann = {
                "seed": "int",
                "scale": "Literal['none', 'minmax', 'maxabs', 'auto']",
                "pos_label": "Any",
                "calibration": "Literal['sigmoid', 'isotonic'] | None",
                "calibration_folds": "int",
                "average": "bool",
                "one_hot": "int | None",
                "features": "Literal['nystroem', 'rff', 'elm', 'poly2'] | None",
                "n_features_map": "int | None",
                "feature_sigma": "Literal['scale', 'median'] | float",
                "cross_hash_bits": "int | None",
            }[name]
            out.append(f"    {name}: {ann}")
            args.append(f"{name}: {ann} = {default!r}")
        out.append("    def __init__(")
        out.append("        self,")
        out.append("        *,")
        for a in args:
            out.append(f"        {a},")
        out.append("    ) -> None: ...")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
