#!/usr/bin/env python3
"""Write scikit-learn's AUC, AP and ROC points on fixed cases to metric_fixtures.json.

Run from anywhere (needs numpy and scikit-learn; Python is never a runtime dependency):

    python3 crates/auc-metrics/test_data/gen_metric_fixtures.py

The Rust test crates/auc-metrics/tests/sklearn_fixtures.rs reads the JSON and checks that
auc_metrics::metrics agrees with scikit-learn to 1e-12 on every case. The cases are deterministic
(one fixed numpy seed), so re-running the script rewrites the same file unless scikit-learn's
answers change.

Floats are written with Python's repr (the shortest string that reads back to the same double,
at most 17 significant digits), so nothing is lost on the way to Rust. Labels are a string of
'1' (positive) and '0' (negative), one character per score. Infinite ROC thresholds are written
as the string "inf" (JSON has no infinity), so every threshold is a string parsed by the test.
"""

import json
import math
import os

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

SEED = 20240611
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "metric_fixtures.json")


def label_string(y):
    return "".join("1" if v else "0" for v in y)


def as_floats(scores):
    # Python floats, so json writes repr; -0.0 stays -0.0.
    return [float(s) for s in scores]


def as_numbers(scores):
    # Integer-valued scores become JSON integers ("3", not "3.0"); the rest stay floats.
    return [int(s) if float(s).is_integer() else float(s) for s in scores]


def metric_case(name, scores, labels, integers=False):
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    assert scores.shape == labels.shape
    assert 0 < labels.sum() < len(labels), name
    return {
        "name": name,
        "scores": as_numbers(scores) if integers else as_floats(scores),
        "labels": label_string(labels),
        "roc_auc": float(roc_auc_score(labels, scores)),
        "average_precision": float(average_precision_score(labels, scores)),
    }


def round_sig(x, digits):
    """Round every entry to `digits` significant decimal digits."""
    return np.array([float(f"{v:.{digits}g}") for v in x])


def main():
    rng = np.random.default_rng(SEED)
    cases = []

    # Heavy ties: 200 scores on a grid of 0.1, classes shifted apart a little.
    y = rng.random(200) < 0.4
    s = np.round(rng.normal(size=200) + 0.6 * y, 1)
    cases.append(metric_case("heavy_ties", s, y))

    # Ties at a coarser grid with a rare positive class.
    y = rng.random(300) < 0.07
    s = np.round(rng.normal(size=300) * 0.3 + 0.3 * y, 1)
    cases.append(metric_case("heavy_ties_rare_positive", s, y))

    # All scores equal: AUC 1/2, AP the positive rate.
    y = np.array([1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])
    cases.append(metric_case("all_equal", np.full(len(y), 0.25), y))

    # Exactly one positive, tied with some negatives.
    y = np.zeros(40, dtype=np.int64)
    y[17] = 1
    s = np.round(rng.normal(size=40), 1)
    cases.append(metric_case("one_positive", s, y))

    # Exactly one negative.
    y = np.ones(40, dtype=np.int64)
    y[5] = 0
    s = np.round(rng.normal(size=40), 1)
    cases.append(metric_case("one_negative", s, y))

    # Huge and tiny magnitudes, subnormals, signed zeros (-0.0 ties with 0.0).
    s = np.array([
        1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308,
        1e-300, -1e-300, 5e-324, -5e-324, 2.2250738585072014e-308,
        0.0, -0.0, 0.0, -0.0, 1e-17, -1e-17, 1e17, -1e17, 123456789.0, 1.0, -1.0,
    ])
    y = np.array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1])
    cases.append(metric_case("extreme_magnitudes_and_signed_zero", s, y))

    # Integer scores, written as JSON integers.
    y = rng.random(120) < 0.5
    s = rng.integers(-5, 6, size=120) + (y & (rng.random(120) < 0.5))
    cases.append(metric_case("integer_scores", s.astype(np.float64), y, integers=True))

    # Perfect and reversed rankings.
    s = np.arange(30, dtype=np.float64)
    y = (s >= 20).astype(np.int64)
    cases.append(metric_case("perfect_ranking", s, y))
    cases.append(metric_case("reversed_ranking", -s, y))

    # Untied random scores at a few class balances.
    for i, rate in enumerate([0.5, 0.2, 0.9]):
        n = 60 + 40 * i
        y = rng.random(n) < rate
        y[0], y[1] = True, False
        s = rng.normal(size=n) + 0.8 * y
        cases.append(metric_case(f"random_rate_{rate}", s, y))

    # 10^5 scores at 6 significant digits (some ties), about 10 % positives.
    n = 100_000
    y = rng.random(n) < 0.1
    s = round_sig(rng.normal(size=n) + 1.0 * y, 6)
    cases.append(metric_case("large_1e5", s, y))

    # A small tied case for the ROC points, every threshold kept.
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.8, 0.7, 0.5, 0.5, 0.5, 0.3, 0.2, -0.0, 0.0, 0.95])
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    roc = {
        "name": "small_ties_roc",
        "scores": as_floats(s),
        "labels": label_string(y),
        "fpr": as_floats(fpr),
        "tpr": as_floats(tpr),
        "thresholds": [repr(float(t)) for t in thr],
    }
    assert all(math.isfinite(v) for v in roc["fpr"] + roc["tpr"])

    doc = {
        "generator": "crates/auc-metrics/test_data/gen_metric_fixtures.py",
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "seed": SEED,
        "n_cases": len(cases),
        "cases": cases,
        "roc": roc,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    size = os.path.getsize(OUT)
    print(f"wrote {len(cases)} cases + 1 ROC case to {OUT} ({size} bytes)")


if __name__ == "__main__":
    main()
