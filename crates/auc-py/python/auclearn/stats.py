"""The Friedman test with the Iman-Davenport correction and the Nemenyi critical difference
[Demsar06], as ``auc friedman`` computes them (``auc_eval::stats``)."""

from __future__ import annotations

import json

import numpy as np

from . import _native

__all__ = ["friedman_nemenyi"]


def friedman_nemenyi(scores, *, names=None, alpha: float = 0.05) -> dict:
    """Compares k methods on N observations (data sets, runs).

    ``scores`` is an (N, k) array-like of a larger-is-better measure (AUC), one row per
    observation and one column per method (ties get average ranks). Returns a dict with
    ``average_ranks`` (1 = best), the Friedman statistic ``chi2`` and its p-value, the
    Iman-Davenport ``ff`` with its degrees of freedom, p-value, critical value and ``rejected``,
    the ``decision`` (F test, or the chi-square test when F does not apply) and ``nemenyi_cd``:
    two methods whose average ranks differ by more than it differ significantly at level
    ``alpha``. With ``names``, ``average_ranks`` is a dict by name and ``different`` lists the
    pairs farther apart than the critical difference.
    """
    m = np.asarray(scores, dtype=np.float64)
    if m.ndim != 2:
        raise ValueError("scores must be a 2-D array: one row per observation, one column per method")
    out = json.loads(_native.friedman(m.tolist(), float(alpha)))
    for key in ("ff",):
        if out[key] == "inf":
            out[key] = float("inf")
    if out["decision"]["statistic"] == "inf":
        out["decision"]["statistic"] = float("inf")
    ranks = out["average_ranks"]
    if names is not None:
        names = list(names)
        if len(names) != len(ranks):
            raise ValueError(f"{len(names)} names for {len(ranks)} methods")
        out["average_ranks"] = dict(zip(names, ranks))
        cd = out["nemenyi_cd"]
        out["different"] = [
            (a, b)
            for i, a in enumerate(names)
            for j, b in enumerate(names)
            if i < j and abs(ranks[i] - ranks[j]) > cd
        ]
    return out
