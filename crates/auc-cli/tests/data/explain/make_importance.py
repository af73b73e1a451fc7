"""Writes importance.json, the fixture of `auc importance` (crates/auc-cli/tests/explain.rs).

For each case (a saved model and a labelled CSV file) it runs scikit-learn's own
``sklearn.inspection.permutation_importance(estimator, X, y, scoring="roc_auc", n_repeats,
random_state)``: scikit-learn shuffles the columns of ``X`` and calls the estimator, a thin
wrapper whose ``decision_function`` writes the shuffled rows to a CSV file and scores them with
``auc predict``. So the shuffles, the AUC and the means are scikit-learn's, and only the
scores come from the model: an independent computation of what ``auc importance`` reports.

The two heart models are trained here from data/heart.csv (and committed beside this file);
the applicants models are the golden models of tests/data/golden.

Usage (from the repository root, after `cargo build -p auc-cli`):
    python crates/auc-cli/tests/data/explain/make_importance.py target/debug/auc
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.inspection import permutation_importance
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", ".."))


def rel(path):
    return os.path.relpath(path, ROOT)


def read_csv(path, label):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    k = header.index(label)
    names = [h for i, h in enumerate(header) if i != k]
    X = np.array([[c for i, c in enumerate(r) if i != k] for r in body], dtype=object)
    labels = [r[k] for r in body]
    return names, X, labels, label


class SavedModel(ClassifierMixin, BaseEstimator):
    """A model file scored by `auc predict`; rows are written with their (unused) labels."""

    def __init__(self, auc=None, model=None, names=None, labels=None, label=None):
        self.auc = auc
        self.model = model
        self.names = names
        self.labels = labels
        self.label = label

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def decision_function(self, X):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "rows.csv")
            with open(path, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(list(self.names) + [self.label])
                for row, lab in zip(X, self.labels):
                    w.writerow(list(row) + [lab])
            out = subprocess.run(
                [self.auc, "predict", "-m", self.model, path, "--no-metrics"],
                check=True,
                capture_output=True,
                text=True,
            )
        return np.array([float(v) for v in out.stdout.split()])


def case(auc, model, data, label, positive, repeats, seed):
    names, X, labels, label = read_csv(data, label)
    y = np.array([1 if v == positive else 0 for v in labels])
    est = SavedModel(auc, model, names, labels, label).fit(X, y)
    r = permutation_importance(
        est, X, y, scoring="roc_auc", n_repeats=repeats, random_state=seed
    )
    baseline = float(roc_auc_score(y, est.decision_function(X)))
    return {
        "model": rel(model),
        "data": rel(data),
        "repeats": repeats,
        "seed": seed,
        "baseline": baseline,
        "columns": names,
        "importances": r.importances.tolist(),
        "mean": r.importances_mean.tolist(),
        "std": r.importances_std.tolist(),
    }


def main():
    auc = os.path.abspath(sys.argv[1])
    heart = os.path.join(ROOT, "data", "heart.csv")
    cases = []
    for algo in ["opauc-batch", "gbt-auc"]:
        model = os.path.join(HERE, f"heart-{algo}.auc")
        subprocess.run(
            [auc, "train", "--algo", algo, heart, "-o", model], check=True,
            capture_output=True,
        )
        cases.append(case(auc, model, heart, "label", "1", 5, 42))
    golden = os.path.join(ROOT, "crates", "auc-cli", "tests", "data", "golden")
    applicants = os.path.join(ROOT, "crates", "auc-cli", "tests", "data", "applicants.csv")
    for algo in ["opauc-batch", "gbt-auc"]:
        model = os.path.join(golden, f"applicants-{algo}.auc")
        cases.append(case(auc, model, applicants, "Status", "bad", 3, 7))
    with open(os.path.join(HERE, "importance.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
