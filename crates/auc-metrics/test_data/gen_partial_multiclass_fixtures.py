#!/usr/bin/env python3
"""Write scikit-learn's partial AUC and multiclass AUC on fixed cases to
partial_multiclass_fixtures.json.

Run from anywhere (needs numpy and scikit-learn; Python is never a runtime dependency):

    python3 crates/auc-metrics/test_data/gen_partial_multiclass_fixtures.py

The Rust test crates/auc-metrics/tests/sklearn_partial_multiclass.rs reads the JSON and checks that
auc_metrics::partial and auc_metrics::multiclass agree with scikit-learn to 1e-12; the Python tests
(crates/auc-py/tests/test_metrics_partial_multiclass.py) read it too. The cases are
deterministic (one fixed numpy seed), so re-running the script rewrites the same file unless
scikit-learn's answers change.

Partial AUC: for each case, scikit-learn's `roc_auc_score(y, s, max_fpr=B)` (McClish's
standardized value) at a grid of B, at B equal to false-positive rates of ROC vertices (where
`searchsorted(..., "right")` must take the vertex) and at B halfway between consecutive vertices.
The unstandardized area is McClish's formula solved for the area,
area = B^2/2 + (2 v - 1) (B - B^2/2), so both numbers come from scikit-learn's one value.

Multiclass: `roc_auc_score(y, S, multi_class=m, average=a)` for m in ovr, ovo and a in macro,
weighted. scikit-learn needs rows of S summing to 1, so the cases are probability rows; ties come
from rounding every entry but the last of a row to a coarse grid (the last is 1 minus the others).
Labels are written as class indices 0..K-1 (the column order), scores row by row.

Floats are written with Python's repr, which reads back to the same double.
"""

import json
import os

import numpy as np
import sklearn
from sklearn.metrics import roc_auc_score, roc_curve

SEED = 20250117
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "partial_multiclass_fixtures.json")
GRID = [0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.5, 0.7, 0.75, 0.9, 0.999, 1.0]


def label_string(y):
    return "".join("1" if v else "0" for v in y)


def point(y, s, max_fpr, kind):
    v = float(roc_auc_score(y, s, max_fpr=max_fpr))
    b = float(max_fpr)
    lo = 0.5 * b * b
    area = v if b == 1.0 else lo + (2.0 * v - 1.0) * (b - lo)
    return {"max_fpr": b, "kind": kind, "pauc": v, "area": area}


def partial_case(name, scores, labels):
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    assert s.shape == y.shape and 0 < y.sum() < len(y), name
    fpr, _, _ = roc_curve(y, s, drop_intermediate=False)
    vertices = np.unique(fpr)  # increasing, 0 first, 1 last
    points = [point(y, s, b, "grid") for b in GRID]
    # Vertices strictly inside (0, 1): B on the vertex itself.
    for b in vertices[1:-1][:8]:
        points.append(point(y, s, b, "vertex"))
    # Halfway between consecutive vertices.
    for lo, hi in list(zip(vertices[:-1], vertices[1:]))[:8]:
        points.append(point(y, s, (lo + hi) / 2.0, "between"))
    return {
        "name": name,
        "scores": [float(v) for v in s],
        "labels": label_string(y),
        "points": points,
    }


def probability_rows(rng, n, k, grid, shift, y):
    """Rows summing to 1 (to np.allclose), entries but the last rounded to `grid` (ties)."""
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += shift
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    p[:, :-1] = np.round(p[:, :-1] / grid) * grid
    over = p[:, :-1].sum(axis=1) > 1.0
    p[over, :-1] *= 0.5  # keep the last entry non-negative
    p[:, -1] = 1.0 - p[:, :-1].sum(axis=1)
    return p


def multiclass_case(name, scores, labels):
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    k = s.shape[1]
    assert sorted(set(y.tolist())) == list(range(k)), name
    out = {
        "name": name,
        "classes": k,
        "labels": [int(v) for v in y],
        "scores": [[float(v) for v in row] for row in s],
    }
    for m in ("ovr", "ovo"):
        for a in ("macro", "weighted"):
            out[f"{m}_{a}"] = float(roc_auc_score(y, s, multi_class=m, average=a))
    return out


def main():
    rng = np.random.default_rng(SEED)
    partial = []

    # Heavy ties: 120 scores on a grid of 0.25, classes shifted apart.
    y = rng.random(120) < 0.4
    y[:2] = [True, False]
    partial.append(partial_case("heavy_ties", np.round(4 * (rng.normal(size=120) + 0.8 * y)) / 4, y))

    # 20 negatives exactly, so B = k/20 lands on vertices; integer scores with ties.
    y = np.array([1] * 12 + [0] * 20)
    rng.shuffle(y)
    partial.append(partial_case("twenty_negatives_integer_scores", rng.integers(0, 6, 32) + 2 * y, y))

    # No ties, continuous scores.
    y = rng.random(60) < 0.3
    y[:2] = [True, False]
    partial.append(partial_case("continuous", rng.normal(size=60) + y, y))

    # All scores equal: the diagonal, standardized value 1/2 at every B.
    y = np.array([1, 0, 0, 1, 0, 0, 0, 1, 0, 0])
    partial.append(partial_case("all_equal", np.full(len(y), 0.3), y))

    # Worse than random: standardized values below 1/2.
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 0, 1])
    partial.append(partial_case("reversed", np.arange(10, dtype=float), -y + 1))

    # One negative: the ROC curve has a single FPR step.
    y = np.array([1, 1, 0, 1, 1, 1])
    partial.append(partial_case("one_negative", [0.9, 0.4, 0.5, 0.5, 0.2, 0.1], y))

    multiclass = []
    for name, n, k, grid, shift in [
        ("three_classes_ties", 90, 3, 0.1, 1.0),
        ("three_classes_fine", 60, 3, 0.01, 0.5),
        ("four_classes_ties", 120, 4, 0.1, 1.2),
        ("four_classes_imbalanced", 100, 4, 0.05, 0.8),
    ]:
        if name == "four_classes_imbalanced":
            y = rng.choice(k, size=n, p=[0.55, 0.25, 0.15, 0.05])
        else:
            y = rng.integers(0, k, n)
        y[:k] = np.arange(k)  # every class present
        multiclass.append(multiclass_case(name, probability_rows(rng, n, k, grid, shift, y), y))

    # Hand-sized: three classes, five rows, the example of auc_metrics::multiclass's unit tests
    # (its rows sum to 1).
    multiclass.append(
        multiclass_case(
            "five_rows_by_hand",
            [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.3, 0.4, 0.3], [0.1, 0.1, 0.8], [0.5, 0.2, 0.3]],
            [0, 0, 1, 2, 2],
        )
    )

    body = {
        "sklearn_version": sklearn.__version__,
        "n_partial": len(partial),
        "n_multiclass": len(multiclass),
        "partial": partial,
        "multiclass": multiclass,
    }
    with open(OUT, "w") as f:
        json.dump(body, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(partial)} partial, {len(multiclass)} multiclass cases")


if __name__ == "__main__":
    main()
