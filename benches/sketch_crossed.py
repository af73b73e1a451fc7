#!/usr/bin/env python3
"""Sketched moment learners against their exact selves on a9a with pairwise crosses, at a size
where the exact learners still fit (docs/math/sketched-moments.md, "Crossed features where the
exact learners fit").

Issue 23 asks the sketched OPAUC / OAUC-M for at least the dense learner's AUC minus 0.5 point
where the dense one fits. On a9a crossed into 2^18 + 2^18 features the dense one-pass learners
are refused, so this folds the same crosses into 2^11 + 2^11 = 4,096 features (`--hash-bits 11
--cross-hash-bits 11`), where every learner runs exactly, and compares each with its `sketch=32`
self and with SOLAM. One thread (`--threads 1 --one-thread`), whole-process wall time; about 7
minutes, most of it the two exact one-pass learners (an O(p^2) step).

    python3 benches/sketch_crossed.py --auc target/release/auc

With `--model` it also runs a numpy model of the batch solve on the same idea (the a9a features
plus their pairwise products hashed into 2^10 columns by `cross_bucket` of
benches/peers/wide.py, Frequent Directions of rank 32 per class, the square surrogate's
normal equations solved densely) and prints the test AUC of the covariance estimates compared
in section 6: the exact one, the sketch with its diagonal put back (with and without the
negative part), the sketch with its shrinkage put back along its own directions, and ridges of
the sketch's error bound. It needs numpy and scikit-learn (the peers' venv of
benches/peers/setup_venv.sh) and about 2 minutes:

    target/peers-venv/bin/python benches/sketch_crossed.py --auc target/release/auc --model
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUNS = [
    ("solam", []),
    ("opauc", []),
    ("opauc", ["--param", "sketch=32"]),
    ("oauc-m", []),
    ("oauc-m", ["--param", "sketch=32"]),
    ("opauc-batch", []),
    ("opauc-batch", ["--param", "sketch=32"]),
]


def auc_runs(auc: str, data: Path, work: Path) -> None:
    train, test = data / "a9a.libsvm", data / "a9a.t.libsvm"
    print("| learner | test AUC | train s (whole process) |")
    print("|---|---:|---:|")
    for algo, extra in RUNS:
        model = work / f"{algo}{len(extra)}.auc"
        cmd = [auc, "train", "--algo", algo, *extra, "--hash-bits", "11", "--cross-hash-bits",
               "11", "--threads", "1", "--one-thread", "-o", str(model), str(train)]
        t0 = time.monotonic()
        subprocess.run(cmd, check=True, capture_output=True)
        wall = time.monotonic() - t0
        pr = subprocess.run([auc, "predict", "--json", "--one-thread", "-m", str(model), str(test)],
                            check=True, capture_output=True, text=True)
        score = json.loads(pr.stdout)["auc"]
        name = algo + (" " + " ".join(extra[1:]) if extra else "")
        print(f"| {name} | {score:.4f} | {wall:.2f} |", flush=True)


def numpy_model(data: Path, bits: int = 10, ell: int = 32, lam: float = 2.0 ** -9) -> None:
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.metrics import roc_auc_score
    sys.path.insert(0, str(ROOT / "benches" / "peers"))
    from wide import cross_bucket

    def load(name):
        x, y = load_svmlight_file(str(data / name), n_features=123)
        x = x.tocsr()
        rows = np.zeros((x.shape[0], 123 + (1 << bits)))
        for r in range(x.shape[0]):
            idx = x.indices[x.indptr[r]:x.indptr[r + 1]]
            rows[r, idx] = x.data[x.indptr[r]:x.indptr[r + 1]]
            for a in range(len(idx)):
                for b in range(a + 1, len(idx)):
                    rows[r, 123 + cross_bucket(int(idx[a]), int(idx[b]), bits)] += 1.0
        return rows, y > 0

    xtr, ytr = load("a9a.libsvm")
    xte, yte = load("a9a.t.libsvm")

    def frequent_directions(x):
        b, delta = np.zeros((0, x.shape[1])), 0.0
        for s in range(0, x.shape[0], ell):
            m = np.vstack([b, x[s:s + ell]])
            if m.shape[0] <= ell:
                b = m
                continue
            _, sv, vt = np.linalg.svd(m, full_matrices=False)
            lam2 = sv ** 2
            d = lam2[ell] if len(lam2) > ell else 0.0
            b = np.sqrt(np.maximum(lam2[:ell] - d, 0.0))[:, None] * vt[:ell]
            delta += d
        return b, delta

    def negative_part_put_back(s):
        w, v = np.linalg.eigh(s)
        return s - w[0] * np.outer(v[:, 0], v[:, 0]) if w[0] < 0 else s

    est = {k: 0.0 for k in ["exact", "diag", "diag+neg", "compensated", "L"]}
    eps = 0.0
    means = {}
    for cls in (True, False):
        x = xtr[ytr == cls]
        n, mu = x.shape[0], x.mean(0)
        means[cls] = mu
        b, delta = frequent_directions(x)
        bb = b.T @ b
        sq = (x ** 2).sum(0)
        lmat = bb - n * np.outer(mu, mu)
        _, sv, vt = np.linalg.svd(b, full_matrices=False)
        v = vt[sv > 1e-12 * sv[0]]
        comp = bb + delta * (v.T @ v)
        est["exact"] = est["exact"] + (x.T @ x - n * np.outer(mu, mu)) / n
        diag = (lmat + np.diag(sq - np.diag(bb))) / n
        est["diag"] = est["diag"] + diag
        est["diag+neg"] = est["diag+neg"] + negative_part_put_back(diag)
        est["compensated"] = est["compensated"] + (
            comp - n * np.outer(mu, mu) + np.diag(np.maximum(sq - np.diag(comp), 0.0))) / n
        est["L"] = est["L"] + lmat / n
        eps += delta / n
        print(f"class {'+' if cls else '-'}: {n} rows, Delta/N {delta / n:.3f}, "
              f"tr(E)/N {(sq - np.diag(bb)).sum() / n:.2f}", flush=True)
    d = means[True] - means[False]
    p = len(d)

    def test_auc(s):
        w = np.linalg.solve(lam * np.eye(p) + s + np.outer(d, d), d)
        return roc_auc_score(yte, xte @ w)

    print(f"numpy model: {p} features, rank {ell}, lambda 2^-9")
    rows = [
        ("exact covariances", est["exact"]),
        ("sketch + diag(E)", est["diag"]),
        ("sketch + diag(E), negative part put back (what auc does)", est["diag+neg"]),
        ("sketch + Delta V V' + diag(E - Delta V V')+", est["compensated"]),
        ("sketch + diag(E) + eps I (the old ridge at its end)", est["diag"] + eps * np.eye(p)),
        ("sketch + diag(E) + eps/2 I", est["diag"] + eps / 2 * np.eye(p)),
        ("sketch + eps/2 I, no diagonal", est["L"] + eps / 2 * np.eye(p)),
    ]
    for name, s in rows:
        print(f"| {name} | {test_auc(s):.4f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--auc", default=str(ROOT / "target" / "release" / "auc"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "datasets"))
    ap.add_argument("--model", action="store_true", help="also run the numpy model")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        auc_runs(a.auc, Path(a.data), Path(work))
    if a.model:
        numpy_model(Path(a.data))


if __name__ == "__main__":
    main()
