"""docs/results/pauc.md: the standardized partial AUC up to FPR 0.1 (the low-false-positive
corner a fraud or screening team works in) of our AUC learners at their defaults, beside
LightGBM and scikit-learn's RBF SVC at theirs, on the same stratified splits of every shared
binary set, and the partial-AUC learner pauc-svm (linear, and on a nystroem:1000 map at the
lambda values from which its default there is chosen by a rule fixed before measuring).

Run from the repository root with the peers' venv (benches/peers/setup_venv.sh):

    target/peers-venv/bin/python benches/peers/pauc.py --auc target/release/auc \\
        --datasets ../shared/datasets --repeats 1 --out docs/results/pauc.md

Our cells are `auc cv --max-fpr 0.1` (McClish-standardized, scikit-learn's
`roc_auc_score(max_fpr=0.1)`) at each learner's default parameters (no grid); the first run of
each set writes its outer splits (`--save-splits`) and every other column is measured on them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from nonlinear import OTHER_SETS, SETS, peer_summary  # noqa: E402  (sets, positive classes)

# pauc-svm's lambda on the map is chosen by the rule of LAMBDA_RULE from these columns.
LAMBDAS = [-12, -9, -6, -3]
LAMBDA_RULE = (
    "the lambda of the sweep columns with the best mean rank of pAUC(FPR <= B) over every set "
    "of the table (rank 1 = best of the sweep, ties share their mean rank); mean ranks within "
    "0.1 of each other count as tied, and a tie goes to the larger lambda (the more "
    "regularized model, which small sets and few positives favour). Fixed before measuring."
)
BASE = [
    ("pa-i", ["--algo", "pa-i"]),
    ("opauc", ["--algo", "opauc"]),
    ("default", []),  # opauc-batch on nystroem:1000, lambda 2^-10: `auc cv` without --algo
]
SWEEP = {
    kind: [(e, f"pauc-svm{suffix} 2^{e}") for e in LAMBDAS]
    for kind, suffix in [("linear", ""), ("map", " map")]
}
LEARNERS = BASE + [
    (name, ["--algo", "pauc-svm", "--lambda", repr(2.0 ** e)]
     + (["--features", "nystroem:1000"] if kind == "map" else []))
    for kind, cols in SWEEP.items()
    for e, name in cols
]
PEERS = ["lightgbm", "svc"]


def run_ours(auc, files, positive, limit, args, max_fpr, repeats, threads, splits):
    cmd = [auc, "cv", "--positive", positive, "--json", "--max-fpr", str(max_fpr),
           "--repeats", str(repeats), "--folds", "5", "--threads", str(threads), *args]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    if splits is not None:
        cmd += ["--save-splits", str(splits)]
    for f in files:
        cmd += ["--data", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    s = [x for x in lines if x.get("summary")][-1]
    return {"pauc": s["pauc_mean"], "pauc_std": s["pauc_std"], "auc": s["auc_mean"]}


def run_peers(python, splits, names, threads, work, max_fpr, svc_max_rows):
    rows = peer_summary(python, splits, names, threads, work, PEERS,
                        ["--max-fpr", str(max_fpr), "--svc-max-rows", str(svc_max_rows)])
    return {
        key: {"pauc": float(row["mean_pauc"]), "pauc_std": float(row["std_pauc"]),
              "auc": float(row["mean_auc"])}
        for key, row in rows.items()
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-fpr", type=float, default=0.1)
    p.add_argument("--svc-max-rows", type=int, default=6000,
                   help="skip the SVC where a training part has more rows (its fit grows "
                   "quadratically)")
    p.add_argument("--work", default="target/pauc")
    p.add_argument("--out", default="docs/results/pauc.md")
    p.add_argument("--sets", nargs="*", default=None,
                   help="only these sets (by name), for a quick check of the script")
    a = p.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    sets = [x for x in SETS + OTHER_SETS if a.sets is None or x[0] in a.sets]
    ours, splits, names = {}, [], []
    start = time.time()
    for name, stems, positive, limit in sets:
        files = [str(Path(a.datasets) / f"{s}.libsvm") for s in stems]
        split_file = work / f"{name}.splits.json"
        for i, (learner, args) in enumerate(LEARNERS):
            r = run_ours(a.auc, files, positive, limit, args, a.max_fpr, a.repeats, a.threads,
                         split_file if i == 0 else None)
            ours[(name, learner)] = r
            print(f"{name} {learner}: pAUC {r['pauc']:.4f}", file=sys.stderr)
        splits.append(split_file)
        names.append((str(split_file), name))
    peers = run_peers(sys.executable, splits, names, a.threads, work, a.max_fpr,
                      a.svc_max_rows)
    write(a, sets, ours, peers, time.time() - start)


def cell(r):
    if r is None:
        return "-"
    return f"{100 * r['pauc']:.2f} ± {100 * r['pauc_std']:.2f}"


def write(a, sets, ours, peers, wall):
    chosen, rule_lines = lambda_choice(sets, ours)
    shown = [l for l, _ in BASE] + [f"pauc-svm 2^{chosen}", f"pauc-svm map 2^{chosen}"]
    cols = shown + PEERS
    lines = [
        f"# Partial AUC up to FPR {a.max_fpr} (issue 25)",
        "",
        f"Generated by `benches/peers/pauc.py --repeats {a.repeats} --max-fpr {a.max_fpr}` "
        f"({wall:.0f} s on the shared 2-core machine, {a.threads} threads for every column). "
        f"Each cell is the mean ± standard deviation over {a.repeats} x 5 outer folds of the "
        f"test parts' McClish-standardized partial AUC up to FPR {a.max_fpr} (50 = random, 100 "
        "= perfect; scikit-learn's `roc_auc_score(max_fpr=...)`), every column on the same "
        "splits, every learner at its defaults: `pa-i` and `opauc` (one pass, min-max scaled), "
        "`default` (`auc cv` without `--algo`: opauc-batch on a nystroem:1000 map), LightGBM "
        f"and scikit-learn's RBF SVC (min-max scaled; the SVC is skipped above {a.svc_max_rows:,} "
        "training rows, `-`). `pauc-svm` is the partial-AUC learner (`docs/math/pauc-learner.md`, "
        f"beta = 0.1), linear and on a nystroem:1000 map, at the lambda the rule of the last "
        "section chooses from a sweep. The best of a row is in bold. Every other column is an AUC learner or "
        "a classifier measured in the low-FPR corner.",
        "",
        "| set | " + " | ".join(cols) + " |",
        "|" + "|".join(["---"] + ["---:"] * len(cols)) + "|",
    ]
    wins = {c: 0 for c in cols}
    for name, *_ in sets:
        row = {l: ours.get((name, l)) for l in shown}
        row.update({peer: peers.get((name, peer)) for peer in PEERS})
        best = max(r["pauc"] for r in row.values() if r is not None)
        texts = []
        for c in cols:
            t = cell(row[c])
            if row[c] is not None and row[c]["pauc"] == best:
                t = f"**{t}**"
                wins[c] += 1
            texts.append(t)
        lines.append(f"| {name} | " + " | ".join(texts) + " |")
    means = []
    for c in cols:
        vals = [ours[(n, c)]["pauc"] if (n, c) in ours else peers.get((n, c), {}).get("pauc")
                for n, *_ in sets]
        vals = [v for v in vals if v is not None]
        means.append(f"{100 * sum(vals) / len(vals):.2f} ({len(vals)} sets)")
    lines.append("| mean | " + " | ".join(means) + " |")
    lines += ["", "Best of its row: " + ", ".join(f"{c} {wins[c]}" for c in cols) + ".", ""]
    lines += rule_lines
    Path(a.out).write_text("\n".join(lines))
    print(f"wrote {a.out}", file=sys.stderr)


def mean_ranks(sets, ours, cols):
    """Each column's mean rank of pAUC among `cols` over the sets where all were measured."""
    ranks = {c: [] for c in cols}
    for name, *_ in sets:
        if not all((name, c) in ours for c in cols):
            continue
        vals = [ours[(name, c)]["pauc"] for c in cols]
        for c, v in zip(cols, vals):
            ranks[c].append(sum(u > v for u in vals) + (sum(u == v for u in vals) + 1) / 2)
    return {c: sum(r) / len(r) for c, r in ranks.items() if r}, len(ranks[cols[0]])


def lambda_choice(sets, ours):
    """The lambda LAMBDA_RULE picks from the map sweep, and the section stating it."""
    rank, n = mean_ranks(sets, ours, [c for _, c in SWEEP["map"]])
    by_e = {e: rank[c] for e, c in SWEEP["map"]}
    best = min(by_e.values())
    chosen = max(e for e, r in by_e.items() if r <= best + 0.1)
    lines = [
        "## pauc-svm's lambda",
        "",
        f"The rule, applied to the nystroem:1000 columns: {LAMBDA_RULE} The table above shows "
        "pauc-svm, linear and on the map, at the chosen lambda; every lambda of the sweep:",
        "",
        "| lambda | map: mean pAUC | map: mean rank | linear: mean pAUC | linear: mean rank |",
        "|---|---:|---:|---:|---:|",
    ]
    lin_rank, _ = mean_ranks(sets, ours, [c for _, c in SWEEP["linear"]])

    def mean(c):
        v = [ours[(nm, c)]["pauc"] for nm, *_ in sets if (nm, c) in ours]
        return 100 * sum(v) / len(v)

    for (e, cm), (_, cl) in zip(SWEEP["map"], SWEEP["linear"]):
        mark = " (chosen)" if e == chosen else ""
        lines.append(f"| 2^{e}{mark} | {mean(cm):.2f} | {rank[cm]:.2f} | {mean(cl):.2f} | "
                     f"{lin_rank[cl]:.2f} |")
    lines += ["", f"Mean ranks among the {len(LAMBDAS)} lambdas over {n} sets (1 = best). "
              f"Chosen: lambda = 2^{chosen}.", ""]
    return chosen, lines


if __name__ == "__main__":
    main()
