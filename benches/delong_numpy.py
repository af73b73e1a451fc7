#!/usr/bin/env python3
"""Time DeLong's paired test on 10^7 scores in numpy (the reference) and with `auc compare` on the
same rows, in one run.

    python3 benches/delong_numpy.py [--n 10000000] [--auc target/release/auc]

The numpy reference is Sun and Xu's (2014) fast algorithm written from their paper: midranks by
scipy.stats.rankdata (O(n log n)), placements V10 = (T_Z - T_X) / n and V01 = 1 - (T_Z - T_Y) / m,
covariances by numpy.cov. Its time covers the computation only (data in memory). `auc compare`
is timed end to end (reading the three text files included); the criterion bench
`cargo bench -p auc-benches --bench eval_delong` times the Rust computation alone. Both results
are printed side by side and must agree to 1e-9 (the z statistic), or the script fails.
"""

import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np
from scipy.stats import norm, rankdata


def fast_delong(scores, y):
    """AUCs and covariance S of the rows of `scores` (k x n) for boolean labels y."""
    pos, neg = scores[:, y], scores[:, ~y]
    m, n = pos.shape[1], neg.shape[1]
    tx = np.array([rankdata(r) for r in pos])
    ty = np.array([rankdata(r) for r in neg])
    tz = np.array([rankdata(r) for r in np.concatenate([pos, neg], axis=1)])
    aucs = tz[:, :m].sum(axis=1) / m / n - (m + 1.0) / 2.0 / n
    v10 = (tz[:, :m] - tx) / n
    v01 = 1.0 - (tz[:, m:] - ty) / m
    return aucs, np.cov(v10) / m + np.cov(v01) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--auc", default="target/release/auc")
    args = ap.parse_args()
    rng = np.random.default_rng(20140711)
    n = args.n
    y = rng.random(n) < 0.2
    y[0], y[1] = True, False
    signal = rng.random(n) + 0.4 * y
    a = np.round((signal + 0.3 * rng.random(n)) * 1e5) / 1e5
    b = np.round((signal + 0.6 * rng.random(n)) * 1e5) / 1e5

    t0 = time.perf_counter()
    aucs, S = fast_delong(np.vstack([a, b]), y)
    z = (aucs[0] - aucs[1]) / np.sqrt(S[0, 0] + S[1, 1] - 2 * S[0, 1])
    numpy_s = time.perf_counter() - t0
    p = 2 * norm.sf(abs(z))
    print(f"numpy (Sun and Xu, rankdata), n = {n}: {numpy_s:.2f} s; AUC {aucs[0]:.6f} vs {aucs[1]:.6f}, z {z:.6f}, p {p:.3g}")

    with tempfile.TemporaryDirectory() as d:
        paths = {k: os.path.join(d, f"{k}.txt") for k in ("a", "b", "labels")}
        np.savetxt(paths["a"], a, fmt="%.5f")
        np.savetxt(paths["b"], b, fmt="%.5f")
        np.savetxt(paths["labels"], y.astype(int), fmt="%d")
        t0 = time.perf_counter()
        out = subprocess.run(
            [args.auc, "compare", "--labels", paths["labels"], paths["a"], paths["b"], "--json"],
            check=True, capture_output=True, text=True,
        ).stdout
        cli_s = time.perf_counter() - t0
    r = json.loads(out)
    print(f"auc compare (reading 3 x {n} lines included): {cli_s:.2f} s; z {r['z']:.6f}, p {r['p_value']:.3g}")
    if abs(r["z"] - z) > 1e-9 * max(1.0, abs(z)):
        raise SystemExit(f"z differs: numpy {z} vs auc {r['z']}")


if __name__ == "__main__":
    main()
