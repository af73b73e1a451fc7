#!/usr/bin/env python3
"""Write DeLong's AUC variance, interval and paired test on fixed cases with ties to
delong_fixtures.json, computed from the definitions by an independent numpy implementation.

Run from anywhere (needs numpy and scipy; Python is never a runtime dependency):

    python3 crates/auc-metrics/test_data/gen_delong_fixtures.py

The Rust test crates/auc-metrics/tests/delong_fixtures.rs reads the JSON and checks that
auc_metrics::delong and auc_metrics::normal agree to 1e-10 (the Python tests of auclearn read it
too). The cases are deterministic (one fixed numpy seed).

The reference is the O(m n) definition of DeLong, DeLong and Clarke-Pearson (1988), not the fast
midrank algorithm the crate implements: the kernel psi(x, y) = 1 if x > y, 1/2 if x == y, 0
otherwise is evaluated on the full m x n matrix of (positive, negative) pairs; the placements are
its row means V10 (one per positive) and column means V01 (one per negative); S10 and S01 are their
sample covariance matrices across the score vectors (numpy.cov, divisor m - 1 and n - 1), and
S = S10 / m + S01 / n (eqs. 4-5). The interval is AUC -/+ z se clipped to [0, 1] with
z = scipy.stats.norm.ppf((1 + level) / 2); the paired test's z is (AUC_a - AUC_b) / sqrt(c' S c)
with c = (1, -1) (eq. 6) and its two-sided p-value 2 scipy.stats.norm.sf(|z|).

The normal-distribution section lists Python's math.erfc (the C library's) and scipy's norm.ppf
at fixed points, for auc_metrics::normal.

Floats are written with Python's repr, which reads back to the same double.
"""

import json
import math
import os

import numpy as np
from scipy.stats import norm

LEVELS = [0.95, 0.9, 0.99]


def placements(pos, neg):
    """V10 (per positive) and V01 (per negative) from the m x n kernel matrix."""
    diff = pos[:, None] - neg[None, :]
    psi = (diff > 0) + 0.5 * (diff == 0)
    return psi.mean(axis=1), psi.mean(axis=0)


def delong_reference(score_sets, y):
    """AUCs and the covariance matrix S of several score vectors on the same labels y (bool)."""
    v10 = []
    v01 = []
    for s in score_sets:
        a, b = placements(s[y], s[~y])
        v10.append(a)
        v01.append(b)
    v10 = np.array(v10)
    v01 = np.array(v01)
    m, n = v10.shape[1], v01.shape[1]
    aucs = v10.mean(axis=1)
    s10 = np.atleast_2d(np.cov(v10))
    s01 = np.atleast_2d(np.cov(v01))
    return aucs, s10 / m + s01 / n


def case(name, a, b, y):
    aucs, S = delong_reference([a, b], y)
    out = {
        "name": name,
        "a": [float(v) for v in a],
        "b": [float(v) for v in b],
        "labels": "".join("1" if v else "0" for v in y),
        "auc_a": float(aucs[0]),
        "auc_b": float(aucs[1]),
        "var_a": float(S[0, 0]),
        "var_b": float(S[1, 1]),
        "cov_ab": float(S[0, 1]),
        "ci_a": [],
        "test": [],
    }
    se_a = math.sqrt(S[0, 0])
    delta = float(aucs[0] - aucs[1])
    var_d = float(S[0, 0] + S[1, 1] - 2 * S[0, 1])
    se_d = math.sqrt(max(var_d, 0.0))
    for level in LEVELS:
        z = norm.ppf((1 + level) / 2)
        out["ci_a"].append(
            {
                "level": level,
                "lower": max(0.0, float(aucs[0] - z * se_a)),
                "upper": min(1.0, float(aucs[0] + z * se_a)),
            }
        )
        zstat = delta / se_d
        out["test"].append(
            {
                "level": level,
                "delta": delta,
                "se": se_d,
                "delta_ci": [max(-1.0, delta - z * se_d), min(1.0, delta + z * se_d)],
                "z": zstat,
                "p_value": float(2 * norm.sf(abs(zstat))),
            }
        )
    return out


def main():
    rng = np.random.default_rng(20140711)
    cases = []

    # Small, with many ties within and across classes (scores on a grid of 5 values).
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0], dtype=bool)
    a = np.array([3, 1, 2, 3, 2, 1, 4, 0, 2, 2, 3, 1], dtype=float)
    b = np.array([2, 2, 4, 1, 0, 1, 3, 1, 2, 4, 1, 0], dtype=float)
    cases.append(case("small_grid", a, b, y))

    # Correlated models on moderately sized data, scores rounded to 2 decimals (ties common).
    for n, prevalence, digits in [(60, 0.3, 1), (400, 0.2, 2), (1500, 0.05, 2), (2000, 0.5, 3)]:
        y = rng.random(n) < prevalence
        y[0], y[1] = True, False
        signal = rng.normal(size=n) + 1.0 * y
        a = np.round(signal + 0.6 * rng.normal(size=n), digits)
        b = np.round(0.5 * signal + rng.normal(size=n), digits)
        cases.append(case(f"correlated_n{n}_p{prevalence}_d{digits}", a, b, y))

    # Integer scores with few levels: most pairs tie; one model is the other with noise added.
    n = 300
    y = rng.random(n) < 0.4
    y[0], y[1] = True, False
    a = rng.integers(0, 4, size=n) + y.astype(int)
    b = a + rng.integers(-1, 2, size=n)
    cases.append(case("integer_levels", a.astype(float), b.astype(float), y))

    # Large and negative values with ties at -0.0 / 0.0 written as 0.0 (JSON has one zero).
    n = 200
    y = rng.random(n) < 0.25
    y[0], y[1] = True, False
    a = np.round(rng.normal(size=n) * 1e6 + 2e5 * y, -5)
    b = np.round(rng.normal(size=n) + 0.3 * y, 0)
    cases.append(case("large_values_rounded", a, b, y))

    xs = [0.0, 1e-8, 0.1, 0.5, 1.0, 1.5, 1.99, 2.0, 2.01, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 20.0,
          26.0, -0.3, -1.7, -3.0]
    ps = [1e-10, 1e-4, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 0.6, 0.9, 0.95, 0.975, 0.995, 0.9999]
    normal = {
        "erfc": [[x, math.erfc(x)] for x in xs],
        "ppf": [[p, float(norm.ppf(p))] for p in ps],
    }

    import scipy

    out = {
        "numpy_version": np.__version__,
        "scipy_version": scipy.__version__,
        "cases": cases,
        "normal": normal,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "delong_fixtures.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
