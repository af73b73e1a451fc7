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

GRID = "lambda=2^-16..2^0:2"


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
    a = p.parse_args()
    variants = [("nystroem:500", ["--features", "nystroem:500"]), ("linear", [])]
    table = {}
    sets = SETS + OTHER_SETS
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        for v, extra in variants:
            table[(name, v)] = each(a.auc, files, positive, limit, extra)
            best = max(table[(name, v)].items(), key=lambda kv: kv[1][0])
            print(f"{name} {v}: best lambda {best[0]} AUC {100 * best[1][0]:.2f}", file=sys.stderr)
    names = [s[0] for s in sets]
    lines = ["# The default lambda on a feature map, and the default learner", "",
             "Produced by `python3 benches/peers/default_map.py` (see its docs for the rule, "
             "fixed before the runs). `auc cv --each --repeats 1 --grid " + GRID + "` of "
             "`opauc-batch` on every set of nonlinear.py, with `--features nystroem:500` and "
             "without a map; AUC in percent.", ""]
    chosen = {}
    for v, _ in variants:
        lams = sorted({lam for n in names for lam in table[(n, v)]})
        clean = [lam for lam in lams
                 if all(lam in table[(n, v)] and table[(n, v)][lam][1] == 0 for n in names)]
        per_set = {n: ranks([table[(n, v)][lam][0] for lam in clean]) for n in names}
        mean_rank = {lam: sum(per_set[n][i] for n in names) / len(names)
                     for i, lam in enumerate(clean)}
        mean_auc = {lam: sum(table[(n, v)][lam][0] for n in names) / len(names) for lam in clean}
        best = min(clean, key=lambda lam: (mean_rank[lam], -mean_auc[lam]))
        chosen[v] = best
        lines += [f"## {v}", "", "| lambda | mean AUC | mean rank |", "|---|---:|---:|"]
        for lam in clean:
            mark = " (chosen)" if lam == best else ""
            lines.append(f"| {lam:g}{mark} | {100 * mean_auc[lam]:.2f} | {mean_rank[lam]:.2f} |")
        lines.append("")
    lines += ["## Per set, at the chosen lambdas", "",
              "| data set | linear | nystroem:500 |", "|---|---:|---:|"]
    wins = 0
    for n in names:
        lin = table[(n, "linear")][chosen["linear"]][0]
        nys = table[(n, "nystroem:500")][chosen["nystroem:500"]][0]
        wins += nys > lin
        lines.append(f"| {n} | {100 * lin:.2f} | {100 * nys:.2f} |")
    r = [ranks([table[(n, "linear")][chosen["linear"]][0],
                table[(n, "nystroem:500")][chosen["nystroem:500"]][0]]) for n in names]
    lr = sum(x[0] for x in r) / len(r)
    nr = sum(x[1] for x in r) / len(r)
    lines += ["", f"At their chosen lambdas the map ranks ahead of the linear model on {wins} of "
              f"{len(names)} sets (mean rank {nr:.2f} against {lr:.2f}): by the rule, the "
              "default learner is " + ("`opauc-batch --features nystroem:500`" if nr < lr
                                       else "linear `opauc-batch`") + "."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
