"""auclearn beside scikit-learn, measured in one run (figures for docs/results/performance.md).

1. Metrics on 10^6 scores: auclearn.metrics.roc_auc_score / average_precision_score / roc_curve
   against scikit-learn's, median of REPEATS timings each, with the values compared.
2. a9a (LIBSVM train/test files): fit time of one pass and test AUC of auclearn's linear learners
   against SGDClassifier (hinge, one epoch), both on the same scipy CSR matrix.

Run with a release build of auclearn (``cargo xtask python`` installs one into
target/python-venv):

    target/python-venv/bin/python crates/auc-py/bench/bench_python.py [DATASETS_DIR]
"""

import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn import metrics as skm
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import SGDClassifier

import auclearn
from auclearn import metrics as am

REPEATS = 7


def timed(f, repeats=REPEATS):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def metrics_bench(n=1_000_000, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.normal(size=n) + y  # distinct scores
    s_ties = np.round(s, 2)  # about 1,000 distinct scores
    rows = []
    for label, scores in (("distinct", s), ("ties (2 decimals)", s_ties)):
        for name, ours, theirs in (
            ("roc_auc_score", am.roc_auc_score, skm.roc_auc_score),
            ("average_precision_score", am.average_precision_score, skm.average_precision_score),
            ("roc_curve", lambda a, b: am.roc_curve(a, b)[0][-1], lambda a, b: skm.roc_curve(a, b)[0][-1]),
        ):
            t_ours, v_ours = timed(lambda: ours(y, scores))
            t_sk, v_sk = timed(lambda: theirs(y, scores))
            assert abs(v_ours - v_sk) <= 1e-12, (name, v_ours, v_sk)
            rows.append((name, label, t_ours, t_sk))
    print(f"\n10^6 scores, 10% positive, median of {REPEATS} (scikit-learn {sklearn.__version__}, numpy {np.__version__})")
    print("| metric | scores | auclearn (ms) | scikit-learn (ms) | speed-up |")
    print("|---|---|---|---|---|")
    for name, label, a, b in rows:
        print(f"| `{name}` | {label} | {a * 1e3:.1f} | {b * 1e3:.1f} | {b / a:.1f}x |")


def a9a_bench(folder):
    train, test = folder / "a9a.libsvm", folder / "a9a.t.libsvm"
    if not train.is_file():
        print(f"\n(no {train}: a9a skipped)")
        return
    X, y = load_svmlight_file(str(train), n_features=123)
    Xt, yt = load_svmlight_file(str(test), n_features=123)
    import scipy.sparse as sp

    # scipy's reader gives int64 indices, which SGDClassifier refuses: int32, as scipy's default.
    X, Xt = (
        sp.csr_matrix((m.data, m.indices.astype(np.int32), m.indptr.astype(np.int32)), shape=m.shape)
        for m in (X, Xt)
    )
    print(f"\na9a: {X.shape[0]} train x {X.shape[1]} features (CSR, density {X.nnz / np.prod(X.shape):.3f}), {Xt.shape[0]} test; median of 3 fits")
    print("| learner | fit (s) | test AUC |")
    print("|---|---|---|")
    candidates = [
        ("auclearn.OAUCM()", lambda: auclearn.OAUCM()),
        ("auclearn.OPAUC()", lambda: auclearn.OPAUC()),
        ("auclearn.SOLAM()", lambda: auclearn.SOLAM()),
        ("auclearn.AdmOAM()", lambda: auclearn.AdmOAM()),
        ("auclearn.PAI()", lambda: auclearn.PAI()),
        (
            "SGDClassifier(hinge, 1 epoch)",
            lambda: SGDClassifier(loss="hinge", max_iter=1, tol=None, shuffle=False, random_state=0),
        ),
    ]
    import warnings

    for name, make in candidates:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, est = timed(lambda: make().fit(X, y), repeats=3)
        auc = skm.roc_auc_score(yt, est.decision_function(Xt))
        print(f"| `{name}` | {t:.3f} | {auc:.4f} |")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3] / ".." / "shared" / "datasets"
    metrics_bench()
    a9a_bench(folder)
