"""docs/results/nonlinear.md: our nonlinear learners (the default `blend`, `gbt-auc`, and the
batch moment learner `opauc-batch` without and with feature maps) beside LightGBM, XGBoost and
scikit-learn's RBF SVC at their defaults, on the same stratified splits of the nonlinear shared
data sets.

Run from the repository root with the peers' venv (benches/peers/setup_venv.sh):

    target/peers-venv/bin/python benches/peers/nonlinear.py --auc target/release/auc \
        --datasets ../shared/datasets --repeats 4 --out docs/results/nonlinear.md

Every `auc cv` run writes its outer splits (`--save-splits`), and the peers are measured on
those files, so each column sees the same training and test rows. The `opauc-batch` columns
choose lambda by the inner 5-fold CV over --grid; the maps' width is the `scale` rule
(conventions section 9); `blend` and `gbt-auc` run at their defaults, with no inner search.
The one-hot columns (conventions section 12) run only where the set's features are category
codes (CODED below): elsewhere the indicators are not what a user would ask for.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shlex
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

# (column, `auc cv` arguments, whether the column searches lambda by the inner CV).
VARIANTS = [
    ("blend", ["--algo", "blend"], False),
    ("gbt-auc", ["--algo", "gbt-auc"], False),
    ("linear", ["--algo", "opauc-batch"], True),
    ("nystroem:500", ["--algo", "opauc-batch", "--features", "nystroem:500"], True),
    ("one-hot + nystroem:500",
     ["--algo", "opauc-batch", "--one-hot", "--features", "nystroem:500"], True),
    ("one-hot + poly2",
     ["--algo", "opauc-batch", "--param", "solver=cholesky", "--one-hot", "--features", "poly2"],
     True),
]

# The sets whose features are category codes (a card's rank and suit, a nucleotide), where the
# one-hot columns run.
CODED = {"poker", "splice"}

PEERS = ["lightgbm", "xgboost", "svc"]


def run_ours(auc, files, positive, limit, variant_args, grid, repeats, threads, splits):
    cmd = [auc, "cv", "--positive", positive, "--json",
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
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        # A refused run (a learner too large for --max-memory, say) is a `-` in its cell.
        why = (done.stderr.strip().splitlines() or ["failed"])[-1]
        print(f"  refused: {why}", file=sys.stderr)
        return None
    result, runs = cv_result(done.stdout, wall)
    result["lambdas"] = sorted({r["params"].get("lambda") for r in runs if r.get("params")})
    return result


def cv_result(stdout, wall):
    """An `auc cv --json` run's AUC and AP (mean and standard deviation over the splits), mean
    fit seconds and wall time, and its per-split lines."""
    lines = [json.loads(x) for x in stdout.splitlines() if x.strip()]
    summary = [x for x in lines if x.get("summary")][-1]
    runs = [x for x in lines if not x.get("summary")]
    return {
        "auc": summary["auc_mean"], "auc_std": summary["auc_std"],
        "ap": summary["ap_mean"], "ap_std": summary["ap_std"],
        "fit": sum(r["train_seconds"] for r in runs) / max(1, len(runs)), "wall": wall,
    }, runs


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
    """`mean ± std` in percent, or `-` for a run that did not run or was refused."""
    if r is None or "error" in r:
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
                   help="comma-separated subset of our columns (" + ", ".join(v[0] for v in VARIANTS) + ")")
    p.add_argument("--work", default="target/nonlinear")
    p.add_argument("--out", default="docs/results/nonlinear.md")
    a = p.parse_args(argv)
    a.argv = list(sys.argv[1:] if argv is None else argv)
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
    # The 1-minute load average, sampled at the start and after every run: the fit times are
    # only comparable when nothing else shared the cores.
    loads = [os.getloadavg()[0]]
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        split_file = work / f"{name}.splits.json"
        for i, (variant, args, searches) in enumerate(VARIANTS):
            if variant.startswith("one-hot") and name not in CODED:
                continue
            r = run_ours(a.auc, files, positive, limit, args, grid if searches else [],
                         a.repeats, a.threads, split_file if i == 0 else None)
            if r is None:
                continue
            loads.append(os.getloadavg()[0])
            ours[(name, variant)] = r
            print(f"{name} {variant}: AUC {cell(r)} ({r['wall']:.1f} s)", file=sys.stderr)
        splits.append(split_file)
        names.append((str(split_file), name))
    peers = run_peers(sys.executable, splits, names, a.threads, work)
    loads.append(os.getloadavg()[0])
    write_table(a, sets, ours, peers, grid, loads)


def load_note(loads):
    """A sentence on the machine's load during the run (1-minute load averages sampled)."""
    cores = os.cpu_count() or 1
    note = (f"Load average {loads[0]:.1f} at the start, {loads[-1]:.1f} at the end and at most "
            f"{max(loads):.1f} between runs, on {cores} cores.")
    if max(loads) > cores:
        note += (" Other jobs shared the machine: fit times are inflated and noisy (AUC and AP "
                 "do not depend on it; the runs are deterministic).")
    return note


def write_table(a, sets, ours, peers, grid, loads):
    cols = [v for v, _, _ in VARIANTS]
    lines = [
        "# Nonlinear data: our learners beside LightGBM, XGBoost and RBF SVC",
        "",
        "Produced by `target/peers-venv/bin/python benches/peers/nonlinear.py "
        f"{shlex.join(a.argv)}` (see the script's docs; the peers' venv is made by "
        "`benches/peers/setup_venv.sh`). Each set is cut into the same "
        f"{a.repeats} x 5 stratified folds for every column (`auc cv --save-splits`). Ours "
        f"(the columns of this page: {', '.join(cols)}): "
        "`blend` (the default learner) and `gbt-auc` at their defaults; `opauc-batch` with "
        f"lambda chosen by inner 5-fold CV over `{' '.join(grid)}` without a map (linear), on "
        "`--features nystroem:500` (sigma by the `scale` rule, seed 0), and, on the sets whose "
        "features are category codes (poker, splice), after `--one-hot` indicators; every stage "
        "fitted on the training part only; min-max scaling. Peers at their library defaults "
        "with 2 threads; trees see the same min-max scaled features. AUC and AP in percent, "
        "mean ± standard deviation over the splits; `-` where a column does not run. "
        + load_note(loads),
        "",
        "## AUC",
        "",
        "| data set | " + " | ".join(cols) + " | LightGBM | XGBoost | RBF SVC |",
        "|---|" + "---:|" * (len(cols) + 3),
    ]
    for name, *_ in sets:
        row = [cell(ours.get((name, v))) for v in cols]
        row += [cell(peers.get((name, q))) for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
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
        row = [f"{ours[(name, v)]['fit']:.3f}" if (name, v) in ours else "-" for v in cols]
        row += [f"{peers[(name, q)]['fit']:.3f}" if (name, q) in peers else "-" for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")

    def against(pick):
        """Sets level with or ahead of LightGBM (within the larger std) and both means, for
        the result `pick(name)` of ours on each set."""
        level, mine, theirs = 0, [], []
        for name, *_ in sets:
            r, lgb = pick(name), peers.get((name, "lightgbm"))
            if r is None or lgb is None:
                continue
            mine.append(r["auc"])
            theirs.append(lgb["auc"])
            if r["auc"] >= lgb["auc"] - max(r["auc_std"], lgb["auc_std"]):
                level += 1
        n = len(mine)
        return level, n, 100 * sum(mine) / max(n, 1), 100 * sum(theirs) / max(n, 1)

    def best(name):
        rs = [ours[(name, v)] for v in cols if (name, v) in ours]
        return max(rs, key=lambda r: r["auc"]) if rs else None

    rows = [(f"`{v}` alone", lambda n, v=v: ours.get((n, v))) for v in ("blend", "gbt-auc")
            if v in cols]
    rows.append(("the best of our columns on each set", best))
    lines += ["", "## Against the target", "",
              "Ahead of or level with LightGBM means within the larger of the two standard "
              "deviations.", "",
              "| ours | ahead or level | of | mean AUC ours | mean AUC LightGBM |",
              "|---|---:|---:|---:|---:|"]
    for label, pick in rows:
        level, n, m, l = against(pick)
        if n:
            lines.append(f"| {label} | {level} | {n} | {m:.2f} | {l:.2f} |")
    lines += ["", "Fit time of ours is one final fit after the stages (for the map columns the "
              "moments of the mapped rows and the solve; the map is fitted before), not the "
              "inner search."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
