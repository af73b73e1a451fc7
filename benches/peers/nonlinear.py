"""docs/results/nonlinear.md: our batch moment learner (opauc-batch) without and with each
feature map, beside LightGBM, XGBoost and scikit-learn's RBF SVC at their defaults, on the same
stratified splits of the nonlinear shared data sets.

Run from the repository root with the peers' venv (benches/peers/setup_venv.sh):

    target/peers-venv/bin/python benches/peers/nonlinear.py --auc target/release/auc \
        --datasets ../shared/datasets --repeats 4 --out docs/results/nonlinear.md

Every `auc cv` run writes its outer splits (`--save-splits`), and the peers are measured on
those files, so each column sees the same training and test rows. Our runs choose lambda by
the inner 5-fold CV over --grid; the map's width is the `scale` rule (conventions section 9).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (name, files, positive class, --limit): the sets and positive classes of the linear
# reproduction (crates/auc-repro/src/sets.rs), the ten nonlinear sets of issue 22.
SETS = [
    ("fourclass", ["fourclass"], "1", None),
    ("ionosphere", ["ionosphere"], "-1", None),
    ("splice", ["splice"], "-1", None),
    ("magic04", ["magic04"], "-1", None),
    ("satimage", ["satimage", "satimage.t"], "4", None),
    ("vehicle", ["vehicle"], "2", None),
    ("letter", ["letter"], "26", 15000),
    ("svmguide1", ["svmguide1", "svmguide1.t"], "0", None),
    ("segment", ["segment"], "1", None),
    ("poker", ["poker"], "3", None),
]

# The other shared binary sets (positive class as the linear reproduction takes it): where a
# default map must not cost what a linear scorer already gets.
OTHER_SETS = [
    ("heart", ["heart"], "1", None),
    ("diabetes", ["diabetes"], "1", None),
    ("german", ["german"], "-1", None),
    ("australian", ["australian"], "1", None),
    ("breast-cancer", ["breast-cancer"], "-1", None),
    ("wdbc", ["wdbc"], "0", None),
    ("sonar", ["sonar"], "1", None),
    ("haberman", ["haberman"], "1", None),
    ("abalone19", ["abalone19"], "1", None),
    ("yeast1", ["yeast1"], "1", None),
    ("page-blocks0", ["page-blocks0"], "1", None),
    ("glass6", ["glass6"], "1", None),
    ("vehicle2", ["vehicle2"], "1", None),
    ("a1a", ["a1a"], "1", None),
]

VARIANTS = [
    ("linear", []),
    ("rff:1000", ["--features", "rff:1000"]),
    ("nystroem:500", ["--features", "nystroem:500"]),
]

PEERS = ["lightgbm", "xgboost", "svc"]


def run_ours(auc, files, positive, limit, variant_args, grid, repeats, threads, splits):
    cmd = [auc, "cv", "--algo", "opauc-batch", "--positive", positive, "--json",
           "--repeats", str(repeats), "--folds", "5", "--threads", str(threads)]
    for g in grid:
        cmd += ["--grid", g]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    if splits is not None:
        cmd += ["--save-splits", str(splits)]
    cmd += variant_args
    for f in files:
        cmd += ["--data", f]
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    summary = [x for x in lines if x.get("summary")][-1]
    runs = [x for x in lines if not x.get("summary")]
    fit = sum(r["train_seconds"] for r in runs) / max(1, len(runs))
    return {
        "auc": summary["auc_mean"], "auc_std": summary["auc_std"],
        "ap": summary["ap_mean"], "ap_std": summary["ap_std"],
        "fit": fit, "wall": wall,
        "lambdas": sorted({r["params"].get("lambda") for r in runs if r.get("params")}),
    }


def peer_summary(python, splits, names, threads, work, peers, extra=()):
    """Runs run_peers.py on the splits files (named by `names`, (path, name) pairs) and returns
    its summary rows, {(dataset, peer): row} with the TSV's text values. `extra` goes to
    run_peers.py as given (e.g. `--max-fpr 0.1`)."""
    out, summary = work / "peers.tsv", work / "peers_summary.tsv"
    cmd = [python, str(HERE / "run_peers.py"), "--splits", *map(str, splits),
           "--peers", ",".join(peers), "--threads", str(threads), *extra,
           "--out", str(out), "--summary", str(summary)]
    for path, name in names:
        cmd += ["--name", f"{path}={name}"]
    subprocess.run(cmd, check=True)
    with open(summary) as f:
        return {(row["dataset"], row["peer"]): row for row in csv.DictReader(f, delimiter="\t")}


def run_peers(python, splits, names, threads, work):
    rows = peer_summary(python, splits, names, threads, work, PEERS)
    return {
        key: {
            "auc": float(row["mean_auc"]), "auc_std": float(row["std_auc"]),
            "ap": float(row["mean_ap"]), "ap_std": float(row["std_ap"]),
            "fit": float(row["mean_fit_seconds"]),
        }
        for key, row in rows.items()
    }


def cell(r, key="auc"):
    if r is None:
        return "-"
    return f"{100 * r[key]:.2f} ± {100 * r[key + '_std']:.2f}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--repeats", type=int, default=4)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--grid", action="append", default=None,
                   help="grid axes of our runs (default lambda=2^-16..2^0:2)")
    p.add_argument("--sets", default=None, help="comma-separated subset of the sets")
    p.add_argument("--other", action="store_true",
                   help="the other shared binary sets instead of the ten nonlinear ones")
    p.add_argument("--variants", default=None,
                   help="comma-separated subset of our columns (linear, rff:1000, nystroem:500)")
    p.add_argument("--work", default="target/nonlinear")
    p.add_argument("--out", default="docs/results/nonlinear.md")
    a = p.parse_args(argv)
    grid = a.grid or ["lambda=2^-16..2^0:2"]
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    if a.variants is not None:
        keep = set(a.variants.split(","))
        VARIANTS[:] = [v for v in VARIANTS if v[0] in keep]
    wanted = None if a.sets is None else set(a.sets.split(","))
    pool = OTHER_SETS if a.other else SETS
    sets = [s for s in pool if wanted is None or s[0] in wanted]
    ours, splits, names = {}, [], []
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        split_file = work / f"{name}.splits.json"
        for i, (variant, args) in enumerate(VARIANTS):
            r = run_ours(a.auc, files, positive, limit, args, grid, a.repeats, a.threads,
                         split_file if i == 0 else None)
            ours[(name, variant)] = r
            print(f"{name} {variant}: AUC {cell(r)} ({r['wall']:.1f} s)", file=sys.stderr)
        splits.append(split_file)
        names.append((str(split_file), name))
    peers = run_peers(sys.executable, splits, names, a.threads, work)
    write_table(a, sets, ours, peers, grid)


def write_table(a, sets, ours, peers, grid):
    cols = [v for v, _ in VARIANTS]
    lines = [
        "# Nonlinear data: feature maps beside LightGBM, XGBoost and RBF SVC",
        "",
        "Produced by `target/peers-venv/bin/python benches/peers/nonlinear.py --repeats "
        f"{a.repeats}` (see the script's docs; the peers' venv is made by "
        "`benches/peers/setup_venv.sh`). Each set is cut into the same "
        f"{a.repeats} x 5 stratified folds for every column (`auc cv --save-splits`). Ours: "
        f"`opauc-batch`, lambda chosen by inner 5-fold CV over `{' '.join(grid)}`, min-max "
        "scaling, and no map (linear), `--features rff:1000` or `--features nystroem:500` "
        "(sigma by the `scale` rule, seed 0), each map fitted on the training part only. "
        "Peers at their library defaults with 2 threads; trees see the same min-max scaled "
        "features. AUC and AP in percent, mean ± standard deviation over the splits.",
        "",
        "## AUC",
        "",
        "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost | RBF SVC |",
        "|---|" + "---:|" * (len(cols) + 3),
    ]
    level = 0
    best_means, lgb_means = [], []
    for name, *_ in sets:
        row = [cell(ours.get((name, v))) for v in cols]
        row += [cell(peers.get((name, q))) for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
        mapped = [ours[(name, v)] for v in cols if v != "linear"] or [ours[(name, cols[0])]]
        best = max(mapped, key=lambda r: r["auc"])
        lgb = peers.get((name, "lightgbm"))
        if lgb is not None:
            best_means.append(best["auc"])
            lgb_means.append(lgb["auc"])
            if best["auc"] >= lgb["auc"] - max(best["auc_std"], lgb["auc_std"]):
                level += 1
    lines += ["", "## Average precision", "",
              "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost | RBF SVC |",
              "|---|" + "---:|" * (len(cols) + 3)]
    for name, *_ in sets:
        row = [cell(ours.get((name, v)), "ap") for v in cols]
        row += [cell(peers.get((name, q)), "ap") for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines += ["", "## Mean fit time of one final fit (seconds)", "",
              "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost | RBF SVC |",
              "|---|" + "---:|" * (len(cols) + 3)]
    for name, *_ in sets:
        row = [f"{ours[(name, v)]['fit']:.3f}" for v in cols]
        row += [f"{peers[(name, q)]['fit']:.3f}" if (name, q) in peers else "-" for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    n = len(best_means)
    if n:
        lines += [
            "",
            "## Against the target",
            "",
            f"The better map is ahead of or level with LightGBM (within the larger of the two "
            f"standard deviations) on **{level} of {n}** sets; mean AUC over the {n} sets: "
            f"better map {100 * sum(best_means) / n:.2f}, LightGBM "
            f"{100 * sum(lgb_means) / n:.2f}. Fit time of ours is one final fit after the stages "
            "(the moments of the mapped rows and the solve; the map is fitted before), not the inner search.",
        ]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
