#!/usr/bin/env python3
"""Trains OPAUC and OAUC-M with numpy and with auc-online on the same stream; compares w and speed.

Usage (from the workspace root):

    cargo build --release -p auc-benches --bin moment_throughput
    python3 benches/compare_numpy_moment.py [FILE] [--n N] [--p P] [--seed S] [--reps R] [--bin PATH]

Without FILE a dense stream is drawn with numpy (fixed seed; 25 % positives, features
(+-0.2 + N(0, 1)) / sqrt(p), so ||x|| is about 1) and written to a temporary LIBSVM file with every
value in full precision (repr), so both sides read the same doubles. With FILE (for example
../shared/datasets/a9a.libsvm, 0/1 features that need no scaling) that file is used as it is.

The numpy learners work the way the papers' own code does: a dense p x p covariance per class,
updated by Welford's form S <- S + (outer(x - m_old, x - m_new) - S) / n [OAUC eqs. 15-16], and the
gradient step of [OAUC eq. 12] with the psi_S/2 gradient of [OAUC eq. 13] (OPAUC) or the psi_M
gradient of [OAUC eq. 14] in its 1/sqrt(A) form (OAUC-M, step 1/(lambda t)). Step t counts every
example; an empty opposite class leaves only the regularizer (SPEC section 5).

Prints, per learner, examples/s of both (best of R passes), the speed ratio ours / numpy and the
largest relative difference of the final w, max_j |w_j - v_j| / max(||w||_inf, tiny), which must be
<= 1e-9. numpy is needed only for this comparison, never at run time.
"""

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOL = 1e-9


def make_stream(n, p, seed):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.25, 1.0, -1.0)
    x = (0.2 * y[:, None] + rng.standard_normal((n, p))) / math.sqrt(p)
    return x, y


def write_libsvm(path, x, y):
    with open(path, "w") as f:
        for xi, yi in zip(x, y):
            feats = " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(xi.tolist()) if v != 0.0)
            f.write(f"{'+1' if yi > 0 else '-1'} {feats}\n")


def read_libsvm(path):
    labels, rows, dim = [], [], 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            labels.append(1.0 if float(parts[0]) == 1.0 else -1.0)
            row = {}
            for tok in parts[1:]:
                j, v = tok.split(":")
                row[int(j) - 1] = float(v)
                dim = max(dim, int(j))
            rows.append(row)
    x = np.zeros((len(rows), dim))
    for i, row in enumerate(rows):
        for j, v in row.items():
            x[i, j] = v
    return x, np.array(labels)


class Moments:
    """Count, mean and dense population covariance of one class (Welford)."""

    def __init__(self, p):
        self.n = 0
        self.m = np.zeros(p)
        self.s = np.zeros((p, p))

    def update(self, x):
        self.n += 1
        d_old = x - self.m
        self.m += d_old / self.n  # [OAUC eq. 15]
        d_new = x - self.m
        self.s += (np.outer(d_old, d_new) - self.s) / self.n  # [OAUC eq. 16], Welford's form


def train_numpy(x, y, algo, lam, eta):
    n, p = x.shape
    w = np.zeros(p)
    pos, neg = Moments(p), Moments(p)
    for t in range(1, n + 1):
        xt, yt = x[t - 1], y[t - 1]
        own, opp = (pos, neg) if yt > 0 else (neg, pos)
        own.update(xt)
        step = 1.0 / (lam * t) if algo == "oauc-m" else eta
        if opp.n == 0:
            w = w - step * (lam * w)
            continue
        d = xt - opp.m
        sw = opp.s @ w
        wd = d @ w
        if algo == "opauc":
            g = lam * w - (1.0 - yt * wd) * yt * d + sw  # [OAUC eq. 13]
        else:
            s2 = max(w @ sw, 0.0)
            b = 1.0 - yt * wd
            r = math.hypot(b, math.sqrt(s2))
            if r == 0.0:
                d_mu, d_s2 = (-1.0 if b > 0 else 0.0), 0.0
            else:
                d_mu, d_s2 = -0.5 * (1.0 + b / r), 0.25 / r
            g = lam * w + d_mu * yt * d + 2.0 * d_s2 * sw  # [OAUC eq. 14], 1/sqrt(A) form
        w = w - step * g  # [OAUC eq. 12]
    return w


def time_numpy(x, y, algo, lam, eta, reps):
    best, w = math.inf, None
    for _ in range(reps):
        start = time.perf_counter()
        w = train_numpy(x, y, algo, lam, eta)
        best = min(best, time.perf_counter() - start)
    return best, w


def run_ours(binary, path, algo, lam, eta, reps, dim):
    out = subprocess.run(
        [binary, path, algo, repr(lam), repr(eta), str(reps), str(dim)],
        check=True, capture_output=True, text=True,
    )
    rec = json.loads(out.stdout.strip().splitlines()[-1])
    return rec["best_s"], np.array(rec["w"], dtype=float), rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--p", type=int, default=123)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--opauc-eta", type=float, default=2.0 ** -1,
                    help="OPAUC step (default 2^-1; on a9a, where ||x||^2 is about 14, use 2^-6 or less)")
    ap.add_argument("--opauc-lambda", type=float, default=2.0 ** -6)
    ap.add_argument("--oaucm-lambda", type=float, default=2.0 ** -4)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "moment_throughput"))
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: run `cargo build --release -p auc-benches --bin moment_throughput`")

    tmp = None
    if args.file:
        path = args.file
        x, y = read_libsvm(path)
        what = os.path.basename(path)
    else:
        x, y = make_stream(args.n, args.p, args.seed)
        tmp = tempfile.NamedTemporaryFile("w", suffix=".libsvm", delete=False)
        tmp.close()
        path = tmp.name
        write_libsvm(path, x, y)
        x, y = read_libsvm(path)  # exactly what the Rust side parses
        what = f"synthetic n={args.n} p={args.p} seed={args.seed}"
    n, p = x.shape
    print(f"{what}: {n} x {p}, {int((y > 0).sum())} positives; numpy {np.__version__}, "
          f"Python {platform.python_version()}; best of {args.reps} passes each")
    # Parameters inside the papers' grids 2^[-10..10]; steps small enough that the pass is stable
    # (an unstable numpy pass ends in NaN, where ours stops at the 2^200 cap: nothing to compare).
    configs = [("opauc", args.opauc_lambda, args.opauc_eta), ("oauc-m", args.oaucm_lambda, None)]
    print("| learner | params | numpy ex/s | ours ex/s | ours / numpy | max rel. diff of w |")
    print("|---|---|---:|---:|---:|---:|")
    ok = True
    try:
        for algo, lam, eta in configs:
            np_s, w_np = time_numpy(x, y, algo, lam, eta or 1.0, args.reps)
            our_s, w_ours, _ = run_ours(args.bin, path, algo, lam, eta or 1.0, max(args.reps, 5), p)
            scale = max(np.max(np.abs(w_np)), np.finfo(float).tiny)
            rel = float(np.max(np.abs(w_ours - w_np)) / scale)
            ok &= rel <= TOL and w_ours.shape == w_np.shape
            params = f"lambda={lam:g}" + (f", eta={eta:g}" if eta else "")
            print(f"| {algo} | {params} | {n / np_s:,.0f} | {n / our_s:,.0f} | "
                  f"{np_s / our_s:.1f}x | {rel:.2e} |")
    finally:
        if tmp is not None:
            os.unlink(path)
    print("w agreement: " + ("OK" if ok else f"FAILED (tolerance {TOL:g})"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
