"""docs/results/default-learner.md: the learner `auc train` and `auc cv` fit when no `--algo` is
given, chosen among our candidates by the rule of the defaults page, beside LightGBM, XGBoost
and scikit-learn's RBF SVC at their defaults on the same splits.

    target/peers-venv/bin/python benches/peers/default_learner.py --auc target/release/auc \
        --datasets ../shared/datasets --repeats 1

Candidates, each at its registry defaults with no inner search (a new user's first model):
- `map`: `opauc-batch` on `--features nystroem:1000` with lambda 2^-10 (the previous default,
  docs/results/default-map.md);
- `gbt-auc`: the boosted trees (docs/results/boosted-trees.md);
- `blend`: both members fitted on the same rows, scores divided by their spread and averaged.

Every candidate runs `auc cv --repeats R --folds 5` (seed 0; min-max scaling by `--scale auto`
on these dense sets) on every shared binary set of nonlinear.py (the ten nonlinear and the
fourteen others); the first saves the splits and the peers run on them (run_peers.py, 2
threads). The rule, fixed before the runs (docs/results/defaults.md's, restated): a candidate
must have a clean run on every set; among those, the one with the best mean rank across the
sets (1 = best on a set, ties share their mean rank) is the default, ties to the higher mean
AUC. The ranks against the peers are reported beside it, not used by the rule.
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

CANDIDATES = [
    ("map", ["--algo", "opauc-batch", "--features", "nystroem:1000", "--param", "lambda=0.0009765625"]),
    ("gbt-auc", ["--algo", "gbt-auc"]),
    ("blend", ["--algo", "blend"]),
]
PEERS = ["lightgbm", "xgboost", "svc"]


def run_ours(auc, files, positive, limit, args, repeats, threads, splits):
    cmd = [auc, "cv", *args, "--positive", positive, "--json", "--repeats", str(repeats),
           "--folds", "5", "--threads", str(threads)]
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
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return cv_result(done.stdout, wall)[0]


def arguments(description, repeats, work, out, argv=None):
    """The command line of a candidates-against-peers page (this script's and blend_weight.py's)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--repeats", type=int, default=repeats)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--sets", default=None, help="comma-separated subset of the sets")
    p.add_argument("--work", default=work)
    p.add_argument("--out", default=out)
    return p.parse_args(argv)


def run_candidates(a, candidates, peers, per_set=None):
    """Every candidate `(name, auc cv args)` on every chosen set (the first saves the splits),
    `per_set(files, positive, limit)` once a set when given, then the peers on the saved splits.
    Returns the sets, {(set, candidate): cv result}, {(set, peer): summary} and {set: per_set}."""
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    wanted = None if a.sets is None else set(a.sets.split(","))
    sets = [s for s in SETS + OTHER_SETS if wanted is None or s[0] in wanted]
    ours, splits, names, extra = {}, [], [], {}
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        split_file = work / f"{name}.splits.json"
        for i, (cand, args) in enumerate(candidates):
            r = run_ours(a.auc, files, positive, limit, args, a.repeats, a.threads,
                         split_file if i == 0 else None)
            ours[(name, cand)] = r
            print(f"{name} {cand}: AUC {cell(r)}", file=sys.stderr)
        if per_set is not None:
            extra[name] = per_set(files, positive, limit)
        splits.append(split_file)
        names.append((str(split_file), name))
    rows = peer_summary(sys.executable, splits, names, a.threads, work, peers)
    summary = {
        key: {"auc": float(r["mean_auc"]), "auc_std": float(r["std_auc"]),
              "ap": float(r["mean_ap"]), "ap_std": float(r["std_ap"]),
              "fit": float(r["mean_fit_seconds"])}
        for key, r in rows.items()
    }
    return sets, ours, summary, extra


def main(argv=None):
    a = arguments(__doc__.splitlines()[0], 1, "target/default-learner",
                  "docs/results/default-learner.md", argv)
    sets, ours, peers, _ = run_candidates(a, CANDIDATES, PEERS)
    write_page(a, sets, ours, peers)


def mean_ranks(sets, columns, value):
    """Mean rank and mean value of each column over the sets where every column has a value."""
    rank = {c: 0.0 for c in columns}
    mean = {c: 0.0 for c in columns}
    used = 0
    for name, *_ in sets:
        vals = [value(name, c) for c in columns]
        if any(v is None for v in vals):
            continue
        used += 1
        for c, k, v in zip(columns, ranks(vals), vals):
            rank[c] += k
            mean[c] += v
    return ({c: rank[c] / max(used, 1) for c in columns},
            {c: mean[c] / max(used, 1) for c in columns}, used)


def fit_time_table(sets, ours, peers, names, peer_keys, cols):
    """The lines of a page's table of mean fit times: our `names`, then the peers."""
    lines = ["", "## Mean fit time of one fit (seconds)", "", "| data set | " + " | ".join(cols) + " |",
             "|---|" + "---:|" * len(cols)]
    for name, *_ in sets:
        row = [f"{ours[(name, c)]['fit']:.3f}" if "error" not in ours[(name, c)] else "-" for c in names]
        row += [f"{peers[(name, q)]['fit']:.3f}" if (name, q) in peers else "-" for q in peer_keys]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    return lines


def write_page(a, sets, ours, peers):
    names = [c for c, _ in CANDIDATES]
    clean = [c for c in names if all("error" not in ours[(s[0], c)] for s in sets)]
    rank, mean, _ = mean_ranks(sets, clean, lambda n, c: ours[(n, c)]["auc"])
    chosen = min(clean, key=lambda c: (rank[c], -mean[c]))
    everyone = clean + PEERS

    def value(n, c):
        if c in clean:
            return ours[(n, c)]["auc"]
        r = peers.get((n, c))
        return None if r is None else r["auc"]

    prank, pmean, used = mean_ranks(sets, everyone, value)
    lines = [
        "# The default learner",
        "",
        f"Produced by `target/peers-venv/bin/python benches/peers/default_learner.py --repeats {a.repeats}` "
        "(see the script's docs: the candidates and the rule, fixed before the runs). Every column "
        f"sees the same {a.repeats} x 5 stratified folds of each shared binary set (seed 0); ours "
        "run at their defaults with no inner search, the peers at their library defaults with 2 "
        "threads on the same min-max scaled features. AUC in percent, mean ± standard deviation "
        "over the splits.",
        "",
        "## The rule: our candidates",
        "",
        "| candidate | mean rank | mean AUC |",
        "|---|---:|---:|",
    ]
    for c in clean:
        tag = " **(chosen)**" if c == chosen else ""
        lines.append(f"| {c}{tag} | {rank[c]:.2f} | {100 * mean[c]:.2f} |")
    lines += ["", f"## Beside the peers (the {used} sets where every column ran)", "",
              "| column | mean rank | mean AUC |", "|---|---:|---:|"]
    for c in sorted(everyone, key=lambda c: prank[c]):
        lines.append(f"| {c} | {prank[c]:.2f} | {100 * pmean[c]:.2f} |")
    cols = names + ["LightGBM", "XGBoost", "RBF SVC"]
    lines += ["", "## AUC", "", "| data set | " + " | ".join(cols) + " |",
              "|---|" + "---:|" * len(cols)]
    for name, *_ in sets:
        row = [cell(ours[(name, c)]) for c in names] + [cell(peers.get((name, q))) for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines += fit_time_table(sets, ours, peers, names, PEERS, cols)
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}; chosen {chosen}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
