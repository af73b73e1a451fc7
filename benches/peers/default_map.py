"""docs/results/default-map.md: the default lambda of `opauc-batch` on a feature map, and the
default learner of `auc train` / `auc cv` without `--algo`, by the rule of the defaults page.

    python3 benches/peers/default_map.py --auc target/release/auc --datasets ../shared/datasets

For every shared binary set of nonlinear.py (the ten nonlinear ones and the fourteen others),
`auc cv --each` cross-validates every lambda of the grid on its own (1 x 5 folds, seed 0, the
same splits for every point) with `--features nystroem:500` and without a map. The rule, fixed
before these runs (docs/results/defaults.md's, restated): a point must have a clean run on every
set; among those, the one with the best mean rank across the sets (1 = best on a set, ties share
their mean rank) is the default, ties to the higher mean AUC. Only Python's standard library is
needed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nonlinear import OTHER_SETS, SETS  # noqa: E402

GRID = "lambda=2^-24..2^0:2"

# The candidates: the map (kind, size, width rule) with lambda on the grid; `linear` is the
# model without a map, for the choice of the default learner.
VARIANTS = [
    ("nystroem:500", ["--features", "nystroem:500"]),
    ("linear", []),
    ("nystroem:1000", ["--features", "nystroem:1000"]),
    ("nystroem:500-median", ["--features", "nystroem:500", "--feature-sigma", "median"]),
    ("rff:1000", ["--features", "rff:1000"]),
]


def each(auc, files, positive, limit, extra):
    cmd = [auc, "cv", "--algo", "opauc-batch", "--each", "--json", "--repeats", "1",
           "--positive", positive, "--grid", GRID, *extra]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    for f in files:
        cmd += ["--data", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    points = {}
    for line in out.splitlines():
        r = json.loads(line)
        if r.get("summary"):
            lam = r["params"]["lambda"] if "params" in r else None
            points[lam] = (r["auc_mean"], r.get("diverged_runs", 0))
    return points


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: -values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--out", default="docs/results/default-map.md")
    p.add_argument("--variants", default=",".join(v for v, _ in VARIANTS),
                   help="the candidate maps, among " + ", ".join(v for v, _ in VARIANTS))
    p.add_argument("--cache", default="target/default-map",
                   help="one JSON file per set and variant; a rerun reuses them")
    a = p.parse_args()
    keep = a.variants.split(",")
    variants = [v for v in VARIANTS if v[0] in keep]
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    table = {}
    sets = SETS + OTHER_SETS
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        for v, extra in variants:
            f = cache / f"{name}.{v.replace(':', '-')}.json"
            if f.exists():
                table[(name, v)] = {float(k): tuple(x) for k, x in json.loads(f.read_text()).items()}
                continue
            table[(name, v)] = each(a.auc, files, positive, limit, extra)
            f.write_text(json.dumps({str(k): list(x) for k, x in table[(name, v)].items()}))
            best = max(table[(name, v)].items(), key=lambda kv: kv[1][0])
            print(f"{name} {v}: best lambda {best[0]} AUC {100 * best[1][0]:.2f}", file=sys.stderr)
    names = [s[0] for s in sets]
    lines = ["# The default feature map and lambda, and the default learner", "",
             "Produced by `python3 benches/peers/default_map.py` (see its docs for the rule, "
             "fixed before the runs). `auc cv --each --repeats 1 --grid " + GRID + "` of "
             "`opauc-batch` on every set of nonlinear.py (the ten nonlinear and the fourteen "
             "other shared binary sets), for each candidate map and without a map; AUC in "
             "percent. A point is a map with a lambda; the rule ranks all map points together.",
             ""]

    def choose(points):
        """The rule over `points` [(variant, lambda)]: clean on every set, best mean rank."""
        clean = [pt for pt in points
                 if all(pt[1] in table[(n, pt[0])] and table[(n, pt[0])][pt[1]][1] == 0
                        for n in names)]
        per_set = {n: ranks([table[(n, v)][lam][0] for v, lam in clean]) for n in names}
        mean_rank = {pt: sum(per_set[n][i] for n in names) / len(names)
                     for i, pt in enumerate(clean)}
        mean_auc = {pt: sum(table[(n, pt[0])][pt[1]][0] for n in names) / len(names)
                    for pt in clean}
        best = min(clean, key=lambda pt: (mean_rank[pt], -mean_auc[pt]))
        return best, clean, mean_rank, mean_auc

    mapped = [v for v, _ in variants if v != "linear"]
    points = [(v, lam) for v in mapped for lam in sorted({lam for n in names for lam in table[(n, v)]})]
    best_map, clean, mean_rank, mean_auc = choose(points)
    lines += ["## Maps", "", "| map | lambda | mean AUC | mean rank |", "|---|---|---:|---:|"]
    for pt in sorted(clean, key=lambda pt: mean_rank[pt])[:15]:
        mark = " **(chosen)**" if pt == best_map else ""
        lines.append(f"| {pt[0]} | 2^{round(__import__('math').log2(pt[1]))}{mark} | "
                     f"{100 * mean_auc[pt]:.2f} | {mean_rank[pt]:.2f} |")
    lines += ["", f"(the 15 best of {len(clean)} clean points)", ""]
    for v in mapped:
        per = [pt for pt in clean if pt[0] == v]
        if per:
            b = min(per, key=lambda pt: (mean_rank[pt], -mean_auc[pt]))
            lines.append(f"- best point of {v}: lambda 2^{round(__import__('math').log2(b[1]))}, "
                         f"mean AUC {100 * mean_auc[b]:.2f}, mean rank {mean_rank[b]:.2f}")
    lines.append("")
    best_lin = None
    if "linear" in [v for v, _ in variants]:
        lin_points = [("linear", lam) for lam in sorted({lam for n in names for lam in table[(n, "linear")]})]
        best_lin, lclean, lrank, lauc = choose(lin_points)
        lines.append(f"Without a map the rule picks lambda 2^{round(__import__('math').log2(best_lin[1]))} "
                     f"(mean AUC {100 * lauc[best_lin]:.2f}).")
        lines += ["", "## Per set, at the chosen points", "",
                  f"| data set | linear | {best_map[0]} |", "|---|---:|---:|"]
        wins = 0
        pair = []
        for n in names:
            lin = table[(n, "linear")][best_lin[1]][0]
            nys = table[(n, best_map[0])][best_map[1]][0]
            wins += nys > lin
            pair.append(ranks([lin, nys]))
            lines.append(f"| {n} | {100 * lin:.2f} | {100 * nys:.2f} |")
        lr = sum(x[0] for x in pair) / len(pair)
        nr = sum(x[1] for x in pair) / len(pair)
        lines += ["", f"At the chosen points the map ranks ahead of the linear model on {wins} of "
                  f"{len(names)} sets (mean rank {nr:.2f} against {lr:.2f}): by the rule, the "
                  "default learner is " + (f"`opauc-batch --features {best_map[0]}`" if nr < lr
                                           else "linear `opauc-batch`") + "."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
