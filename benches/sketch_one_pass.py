#!/usr/bin/env python3
"""Two builds of `auc` compared on the one-pass sketched moment learners, by the defaults rule.

The question (docs/math/sketched-moments.md section 5): a one-pass moment learner on a sketch
(`--param sketch=K`) replaces the opposite class's covariance by the sketch's estimate, which can
have one negative direction. Until 2026-12-06 a step added a ridge delta I (delta = Delta / N,
the sketch's error bound) to make it positive semi-definite; the alternative puts back the
negative direction only, as the batch solve does since 2026-12-05 (section 6). Each build does
one of the two; this script runs both on the same splits and applies the rule below.

The rule, fixed before the runs (the defaults page's, docs/results/defaults.md, with the two
builds as the two points of a grid):
  1. clean: no diverged run on any set;
  2. not beaten (a lower mean AUC than the other) on two thirds of the sets or more;
  3. the best mean rank over the sets (ranked by mean AUC on each set, ties share their rank);
     ties go to the higher mean AUC, then to the first build (the incumbent).

Protocol: `auc cv --algo ALGO --param sketch=K --scale minmax --repeats 2 --folds 5 --seed 0
--json --data SET` on the moments family's 15 sets of docs/results/defaults.md (the training
file of each). Only the standard library is used.

    python3 benches/sketch_one_pass.py --first /tmp/auc-ridge --second target/release/auc \
        --names "ridge,negative part" --algo opauc --sketch 8
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


def cv(binary: str, algo: str, sketch: int, data: Path) -> dict:
    cmd = [binary, "cv", "--algo", algo, "--param", f"sketch={sketch}", "--scale", "minmax",
           "--repeats", "2", "--folds", "5", "--seed", "0", "--json", "--data", str(data)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    summary = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    summary = [s for s in summary if s.get("summary")]
    if len(summary) != 1:
        sys.exit(f"no summary line from {' '.join(cmd)}")
    return summary[0]


def ranks(values: list) -> list:
    """Rank 1 = the highest; ties share their mean rank."""
    out = []
    for v in values:
        above = sum(1 for w in values if w > v)
        equal = sum(1 for w in values if w == v)
        out.append(above + (equal + 1) / 2)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--first", required=True, help="the incumbent build")
    p.add_argument("--second", required=True, help="the challenger build")
    p.add_argument("--names", default="first,second")
    p.add_argument("--algo", default="opauc")
    p.add_argument("--sketch", type=int, default=8)
    p.add_argument("--datasets", default=str(REPO.parent / "shared" / "datasets"))
    p.add_argument("--sets", default=",".join(SETS))
    a = p.parse_args()
    names = a.names.split(",")
    builds = [a.first, a.second]
    rows = []
    for s in a.sets.split(","):
        data = Path(a.datasets) / f"{s}.libsvm"
        res = []
        for b in builds:
            t0 = time.time()
            r = cv(b, a.algo, a.sketch, data)
            res.append((100 * r["auc_mean"], 100 * r["auc_std"], r["diverged_runs"], time.time() - t0))
        rows.append((s, res))
        print(f"{s}: " + "; ".join(f"{n} {m:.2f} ± {sd:.2f} ({d} diverged, {t:.1f} s)"
                                    for n, (m, sd, d, t) in zip(names, res)), file=sys.stderr)
    print(f"`{a.algo}` with `sketch={a.sketch}`, `auc cv --scale minmax --repeats 2 --folds 5 "
          f"--seed 0`, AUC in % (mean ± standard deviation over the 10 runs):\n")
    print("| set | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    rank_sum = [0.0] * len(builds)
    beaten = [0] * len(builds)
    diverged = [0] * len(builds)
    for s, res in rows:
        means = [round(m, 2) for m, _, _, _ in res]
        best = max(means)
        print(f"| {s} | " + " | ".join(
            (f"**{m:.2f}**" if m == best and means.count(best) == 1 else f"{m:.2f}") + f" ± {sd:.2f}"
            for m, (_, sd, _, _) in zip(means, res)) + " |")
        for i, r in enumerate(ranks(means)):
            rank_sum[i] += r
            beaten[i] += int(means[i] < best)
            diverged[i] += res[i][2]
    k = len(rows)
    mean_auc = [sum(round(res[i][0], 2) for _, res in rows) / k for i in range(len(builds))]
    print("| mean | " + " | ".join(f"{m:.2f}" for m in mean_auc) + " |\n")
    eligible = [i for i in range(len(builds))
                if diverged[i] == 0 and beaten[i] < 2 * k / 3]
    if not eligible:
        eligible = [i for i in range(len(builds)) if diverged[i] == 0]
    chosen = min(eligible, key=lambda i: (rank_sum[i] / k, -mean_auc[i], i)) if eligible else None
    for i, n in enumerate(names):
        print(f"- {n}: diverged runs {diverged[i]}, beaten on {beaten[i]} of {k} sets, "
              f"mean rank {rank_sum[i] / k:.2f}, mean AUC {mean_auc[i]:.2f}")
    print(f"\nChosen by the rule: {names[chosen] if chosen is not None else 'none (every build diverged)'}")


if __name__ == "__main__":
    main()
