#!/usr/bin/env python3
"""Does `opauc-batch`'s ridge transfer better as an absolute lambda or as lambda = c / n?

The question (issue 23's wide-data default lambda; README, wide data): `opauc-batch` minimizes
lambda/2 ||w||^2 + 1/2 mean over pairs of (1 - w'(x+ - x-))^2. Its data term is a mean, so its
curvature does not grow with the number of training rows n, and the ridge that balances it in
ordinary ridge regression shrinks like 1/n. By hand the best lambda moved that way on the wide
train/test pairs of docs/results/wide.md (the 10^6-row stream about 2^-13, the 80,000-row click
log 2^-7, a9a with hashed crosses, 32,561 rows, 2^-5), where the registry's absolute 2^-9 was
chosen on the dense shared sets. This script measures both forms side by side on the same
splits and applies the rule below.

The rule, fixed before the runs (the defaults page's, docs/results/defaults.md, over the points
below as one grid):
  1. clean: no failure and no diverged run on any set;
  2. not beaten (a lower mean AUC than the best point of the set) on two thirds of the sets or
     more, unless every point is;
  3. the best mean rank over the sets (ranked by mean AUC on each set, ties share their rank);
     ties go to the higher mean AUC, then to the earlier point.
Points: the absolute lambda = 2^-13, 2^-11, 2^-9 (the registry's), 2^-7, 2^-5, and the
per-row lambda = c / n for c = 2^6, 2^8, 2^10, 2^12, n the rows the model is fitted on.
Mean AUCs are compared at two decimals of a percent, as the defaults page does.

Sets: the moments family's 15 sets of docs/results/defaults.md, `auc cv --algo opauc-batch
--scale minmax --repeats 2 --folds 5 --seed 0 --each` (n = the training part's rows, taken as
the set's rows times 4/5: the folds differ by a row at most), and the four train/test pairs of
docs/results/wide.md (a9a; a9a with hashed pairwise crosses, `--hash-bits 18
--cross-hash-bits 18`; the click log; the 10^6-row stream), `auc train` then `auc predict` on
the test file, one thread, wide.md's preparation (n = the training file's rows). The wide
files are the ones `benches/peers/wide.py` writes (its --work folder, target/wide).

    python3 benches/lambda_per_row.py --auc target/release/auc > docs/results/lambda-per-row.md

Only the standard library is used.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SETS = [
    "fourclass", "heart", "ionosphere", "australian", "diabetes", "vehicle", "german",
    "splice", "segment", "satimage", "svmguide1", "letter", "magic04", "poker", "shuttle",
]
ABSOLUTE = [-13, -11, -9, -7, -5]
PER_ROW = [6, 8, 10, 12]
POINTS = [f"2^{e}" for e in ABSOLUTE] + [f"2^{e} / n" for e in PER_ROW]


def lambdas(n: float) -> list:
    return [2.0 ** e for e in ABSOLUTE] + [2.0 ** e / n for e in PER_ROW]


def rows_of(auc: str, path: Path) -> int:
    out = subprocess.run([auc, "info", "--json", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return int(json.loads(out)["instances"])


def cv_set(auc: str, path: Path) -> list:
    n = rows_of(auc, path) * 4 / 5
    grid = ",".join(repr(v) for v in lambdas(n))
    cmd = [auc, "cv", "--algo", "opauc-batch", "--scale", "minmax", "--repeats", "2",
           "--folds", "5", "--seed", "0", "--each", "--grid", f"lambda={grid}", "--json",
           "--data", str(path)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    summaries = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    summaries = [s for s in summaries if s.get("summary")]
    if len(summaries) != len(POINTS):
        sys.exit(f"{len(summaries)} summaries from {' '.join(cmd)}")
    # Each summary names its point's lambda (JSON's shortest round trip: the same double).
    by_lambda = {s["params"]["lambda"]: s for s in summaries}
    if len(by_lambda) != len(POINTS):
        sys.exit(f"two points of {path} share a lambda")
    return [(100 * by_lambda[v]["auc_mean"], by_lambda[v]["diverged_runs"] > 0)
            for v in lambdas(n)]


WIDE = [
    ("a9a", "a9a", []),
    ("a9a crossed (2^18)", "a9a", ["--hash-bits", "18", "--cross-hash-bits", "18"]),
    ("click log", "clicklog", []),
    ("stream (10^6 rows)", "stream", []),
]


def wide_pair(name: str, datasets: Path, work: Path) -> tuple:
    if name == "a9a":
        return datasets / "a9a.libsvm", datasets / "a9a.t.libsvm"
    return work / f"{name}.train.libsvm", work / f"{name}.test.libsvm"


def train_test(auc: str, train: Path, test: Path, extra: list, lam: float, model: Path):
    cmd = [auc, "train", "--algo", "opauc-batch", "--param", f"lambda={lam!r}", *extra,
           "--threads", "1", "--one-thread", str(train), "-o", str(model)]
    if subprocess.run(cmd, capture_output=True, text=True).returncode != 0:
        return None
    p = subprocess.run([auc, "predict", "--json", "--one-thread", "-m", str(model), str(test)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None
    for line in p.stderr.splitlines() + p.stdout.splitlines():
        if line.startswith("{") and '"auc"' in line:
            return 100 * json.loads(line)["auc"]
    return None


def ranks(values: list) -> list:
    """Rank 1 = the highest; ties share their mean rank."""
    return [sum(1 for w in values if w > v) + (sum(1 for w in values if w == v) + 1) / 2
            for v in values]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default=str(REPO / "target" / "release" / "auc"))
    p.add_argument("--datasets", default=str(REPO.parent / "shared" / "datasets"))
    p.add_argument("--work", default=str(REPO / "target" / "wide"))
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--skip-wide", action="store_true")
    a = p.parse_args()
    datasets, work = Path(a.datasets), Path(a.work)
    rows = []  # (set, n, [(auc or None, diverged)])
    start = time.time()
    for s in a.sets.split(","):
        path = datasets / f"{s}.libsvm"
        t0 = time.time()
        res = cv_set(a.auc, path)
        rows.append((s, rows_of(a.auc, path) * 4 / 5, res))
        print(f"{s}: {time.time() - t0:.1f} s", file=sys.stderr)
    if not a.skip_wide:
        model = work / "lambda-per-row.model"
        for label, name, extra in WIDE:
            train, test = wide_pair(name, datasets, work)
            if not train.exists():
                sys.exit(f"{train} is missing: run benches/peers/wide.py first")
            n = rows_of(a.auc, train)
            t0 = time.time()
            res = []
            for lam in lambdas(n):
                v = train_test(a.auc, train, test, extra, lam, model)
                res.append((v, False))
            rows.append((label, n, res))
            print(f"{label}: {time.time() - t0:.1f} s", file=sys.stderr)
    k = len(rows)
    print("# `opauc-batch`: an absolute lambda against lambda = c / n\n")
    print(f"Produced by `python3 benches/lambda_per_row.py` (its docstring states the question and "
          f"the rule, committed before the runs) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
          f", {time.time() - start:.0f} s. AUC in % (the dense sets: mean over `auc cv --repeats 2 "
          f"--folds 5`; the wide pairs: the test file's); n is the rows a model is fitted on.\n")
    print("| set | n | " + " | ".join(POINTS) + " |")
    print("|---|---:|" + "---:|" * len(POINTS))
    clean = [True] * len(POINTS)
    rank_sum = [0.0] * len(POINTS)
    beaten = [0] * len(POINTS)
    auc_sum = [0.0] * len(POINTS)
    for s, n, res in rows:
        means = [None if v is None else round(v, 2) for v, _ in res]
        for i, (v, d) in enumerate(res):
            if v is None or d:
                clean[i] = False
        ok = [m for m in means if m is not None]
        best = max(ok) if ok else None
        cells = []
        for m in means:
            if m is None:
                cells.append("failed")
            elif m == best and means.count(best) == 1:
                cells.append(f"**{m:.2f}**")
            else:
                cells.append(f"{m:.2f}")
        print(f"| {s} | {n:,.0f} | " + " | ".join(cells) + " |")
        filled = [m if m is not None else -1.0 for m in means]
        for i, r in enumerate(ranks(filled)):
            rank_sum[i] += r
            beaten[i] += int(filled[i] < best)
            auc_sum[i] += max(filled[i], 0.0)
    mean_auc = [t / k for t in auc_sum]
    print("| mean | | " + " | ".join(f"{m:.2f}" for m in mean_auc) + " |\n")
    eligible = [i for i in range(len(POINTS)) if clean[i] and beaten[i] < 2 * k / 3]
    dropped = False
    if not eligible:
        eligible = [i for i in range(len(POINTS)) if clean[i]]
        dropped = True
    for i, name in enumerate(POINTS):
        print(f"- lambda = {name}: {'clean' if clean[i] else 'NOT clean'}, beaten on {beaten[i]} "
              f"of {k} sets, mean rank {rank_sum[i] / k:.2f}, mean AUC {mean_auc[i]:.2f}")
    if dropped:
        print("\nEvery clean point is beaten on two thirds of the sets or more: condition 2 dropped.")
    if eligible:
        chosen = min(eligible, key=lambda i: (rank_sum[i] / k, -mean_auc[i], i))
        print(f"\nChosen by the rule: lambda = {POINTS[chosen]}")
    else:
        print("\nChosen by the rule: none (no clean point)")


if __name__ == "__main__":
    main()
