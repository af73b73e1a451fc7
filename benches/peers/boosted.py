"""docs/results/boosted-trees.md: the pairwise surrogate of `gbt-auc` chosen by the rule of the
defaults page, and the boosted trees beside LightGBM and XGBoost on the same splits.

    target/peers-venv/bin/python benches/peers/boosted.py --auc target/release/auc \
        --datasets ../shared/datasets --repeats 1

For every shared binary set of nonlinear.py (the ten nonlinear ones and the fourteen others),
`auc cv --algo gbt-auc` runs with each candidate `loss` at the other parameters' defaults
(LightGBM's tree defaults), on R x 5 stratified folds (seed 0; the same splits for every
candidate, saved with `--save-splits`), and LightGBM and XGBoost run at their library defaults
on those splits (run_peers.py, 2 threads).

The rule, fixed before the runs (docs/results/defaults.md's, restated): a candidate must have a
clean run on every set; among those, the one with the best mean rank across the sets (1 = best
on a set, ties share their mean rank) is the default, ties to the higher mean AUC.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from default_map import ranks  # noqa: E402
from nonlinear import OTHER_SETS, SETS, cell, cv_result, peer_summary  # noqa: E402

LOSSES = ["square", "hinge", "exp"]
PEERS = ["lightgbm", "xgboost"]


def run_ours(auc, files, positive, limit, loss, repeats, threads, splits):
    cmd = [auc, "cv", "--algo", "gbt-auc", "--param", f"loss={loss}", "--positive", positive,
           "--json", "--repeats", str(repeats), "--folds", "5", "--threads", str(threads)]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    if splits is not None:
        cmd += ["--save-splits", str(splits)]
    for f in files:
        cmd += ["--data", f]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return cv_result(done.stdout, wall)[0]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--sets", default=None, help="comma-separated subset of the sets")
    p.add_argument("--work", default="target/boosted")
    p.add_argument("--out", default="docs/results/boosted-trees.md")
    a = p.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    wanted = None if a.sets is None else set(a.sets.split(","))
    sets = [s for s in SETS + OTHER_SETS if wanted is None or s[0] in wanted]
    ours, splits, names = {}, [], []
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        split_file = work / f"{name}.splits.json"
        for i, loss in enumerate(LOSSES):
            r = run_ours(a.auc, files, positive, limit, loss, a.repeats, a.threads,
                         split_file if i == 0 else None)
            ours[(name, loss)] = r
            print(f"{name} {loss}: AUC {cell(r)}", file=sys.stderr)
        splits.append(split_file)
        names.append((str(split_file), name))
    rows = peer_summary(sys.executable, splits, names, a.threads, work, PEERS)
    peers = {
        key: {"auc": float(r["mean_auc"]), "auc_std": float(r["std_auc"]),
              "ap": float(r["mean_ap"]), "ap_std": float(r["std_ap"]),
              "fit": float(r["mean_fit_seconds"])}
        for key, r in rows.items()
    }
    write_page(a, sets, ours, peers)


def write_page(a, sets, ours, peers):
    clean = [l for l in LOSSES if all("error" not in ours[(s[0], l)] for s in sets)]
    mean_rank = {l: 0.0 for l in clean}
    mean_auc = {l: 0.0 for l in clean}
    for name, *_ in sets:
        r = ranks([ours[(name, l)]["auc"] for l in clean])
        for l, k in zip(clean, r):
            mean_rank[l] += k / len(sets)
            mean_auc[l] += ours[(name, l)]["auc"] / len(sets)
    chosen = min(clean, key=lambda l: (mean_rank[l], -mean_auc[l]))
    cols = [f"loss={l}" for l in LOSSES]
    lines = [
        "# Boosted trees on the AUC surrogates beside LightGBM and XGBoost",
        "",
        f"Produced by `target/peers-venv/bin/python benches/peers/boosted.py --repeats {a.repeats}` "
        "(see the script's docs for the rule, fixed before the runs). Every column sees the same "
        f"{a.repeats} x 5 stratified folds of each set (`auc cv --save-splits`, seed 0); ours is "
        "`gbt-auc` at its defaults but `loss`, min-max scaling; the peers run at their library "
        "defaults with 2 threads on the same min-max scaled features. AUC in percent, mean ± "
        "standard deviation over the splits.",
        "",
        "## The rule",
        "",
        "| loss | mean rank | mean AUC |",
        "|---|---:|---:|",
    ]
    for l in clean:
        tag = " **(chosen)**" if l == chosen else ""
        lines.append(f"| {l}{tag} | {mean_rank[l]:.2f} | {100 * mean_auc[l]:.2f} |")
    lines += ["", "## AUC", "", "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost |",
              "|---|" + "---:|" * (len(cols) + 2)]
    level, n, ours_mean, lgb_mean = 0, 0, 0.0, 0.0
    for name, *_ in sets:
        row = [cell(ours[(name, l)]) for l in LOSSES] + [cell(peers.get((name, q))) for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
        mine, lgb = ours[(name, chosen)], peers.get((name, "lightgbm"))
        if lgb is not None:
            n += 1
            ours_mean += mine["auc"]
            lgb_mean += lgb["auc"]
            if mine["auc"] >= lgb["auc"] - max(mine["auc_std"], lgb["auc_std"]):
                level += 1
    lines += ["", "## Mean fit time of one final fit (seconds)", "",
              "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost |",
              "|---|" + "---:|" * (len(cols) + 2)]
    for name, *_ in sets:
        row = [f"{ours[(name, l)]['fit']:.3f}" if "error" not in ours[(name, l)] else "-"
               for l in LOSSES]
        row += [f"{peers[(name, q)]['fit']:.3f}" if (name, q) in peers else "-" for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    if n:
        lines += ["", "## Against LightGBM", "",
                  f"At the chosen loss ({chosen}), `gbt-auc` is ahead of or level with LightGBM "
                  f"(within the larger standard deviation) on **{level} of {n}** sets; mean AUC "
                  f"{100 * ours_mean / n:.2f} against {100 * lgb_mean / n:.2f}."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}; chosen loss {chosen}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
