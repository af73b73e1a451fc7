#!/usr/bin/env python3
"""Write operating points and precision-recall curves from scikit-learn's roc_curve,
precision_recall_curve and confusion_matrix on fixed cases with ties to operating_fixtures.json.

Run from anywhere (needs numpy and scikit-learn; Python is never a runtime dependency):

    python3 crates/auc-metrics/test_data/gen_operating_fixtures.py

The Rust test crates/auc-metrics/tests/operating_fixtures.rs reads the JSON and checks
auc_metrics::operating against it (thresholds exactly, rates to 1e-12).

Each target's definition is applied to scikit-learn's own arrays, thresholds in its order
(roc_curve(drop_intermediate=False): inf, then distinct scores decreasing; positive when
score >= threshold):
- recall=R: the first threshold with tpr >= R;
- fpr=F: among thresholds with fpr <= F, the largest tpr, first threshold with it;
- precision=P: precision_recall_curve's points (without its final (1, 0) point) with
  precision >= P; the largest recall, and the largest threshold among those;
- cost=a:b: the first threshold minimizing a * fn + b * fp.
The confusion counts at the chosen threshold come from sklearn.metrics.confusion_matrix of
(score >= threshold), and precision and F1 from precision_score and f1_score (zero_division=1
for precision when nothing is predicted positive, as the end of precision_recall_curve).

Floats are written with Python's repr, which reads back to the same double.
"""

import json
import os

import numpy as np
import sklearn
from sklearn.metrics import confusion_matrix, f1_score, precision_recall_curve, precision_score, roc_curve

TARGETS = ["recall=0.5", "recall=0.9", "recall=1", "recall=0", "precision=0.5", "precision=0.8",
           "fpr=0.01", "fpr=0.1", "fpr=0", "cost=1:1", "cost=5:1", "cost=1:3"]


def choose(target, y, s):
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    kind, value = target.split("=")
    if kind == "recall":
        return thr[np.argmax(tpr >= float(value))]
    if kind == "fpr":
        ok = np.where(fpr <= float(value))[0]
        best = tpr[ok].max()
        return thr[ok[np.argmax(tpr[ok] == best)]]
    if kind == "precision":
        prec, rec, pthr = precision_recall_curve(y, s)
        prec, rec = prec[:-1], rec[:-1]
        ok = np.where(prec >= float(value))[0]
        if len(ok) == 0:
            return None
        best = rec[ok].max()
        return pthr[ok[rec[ok] == best]].max()
    a, b = (float(v) for v in value.split(":"))
    tn, fp, fn, tp = (np.array(v) for v in zip(*[confusion_matrix(y, s >= t, labels=[0, 1]).ravel() for t in thr]))
    cost = a * fn + b * fp
    return thr[np.argmin(cost)]


def point(y, s, t):
    pred = s >= t
    tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    return {
        "threshold": None if np.isinf(t) else float(t),
        "tp": int(tp), "fp": int(fp), "tn": int(tn), "fn": int(fn),
        "precision": float(precision_score(y, pred, zero_division=1)),
        "recall": float(tp / (tp + fn)),
        "fpr": float(fp / (fp + tn)),
        "f1": float(f1_score(y, pred, zero_division=0)),
    }


def case(name, y, s):
    prec, rec, thr = precision_recall_curve(y, s)
    out = {
        "name": name,
        "scores": [float(v) for v in s],
        "labels": "".join("1" if v else "0" for v in y),
        "points": [],
        "pr": {"precision": [float(v) for v in prec], "recall": [float(v) for v in rec],
               "threshold": [float(v) for v in thr]},
    }
    for target in TARGETS:
        t = choose(target, y, s)
        out["points"].append({"target": target, "point": None if t is None else point(y, s, t)})
    return out


def main():
    rng = np.random.default_rng(51)
    cases = []
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    cases.append(case("by_hand", y, s))
    for n, prev, digits in [(50, 0.3, 1), (500, 0.1, 2), (3000, 0.02, 2), (1000, 0.5, 0)]:
        y = (rng.random(n) < prev).astype(int)
        y[0], y[1] = 1, 0
        s = np.round(rng.normal(size=n) + 1.2 * y, digits)
        cases.append(case(f"n{n}_p{prev}_d{digits}", y, s))
    out = {"sklearn_version": sklearn.__version__, "cases": cases}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "operating_fixtures.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
