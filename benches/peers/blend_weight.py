"""docs/results/blend-weight.md: the blend's weight fixed at 1/2 against the weight chosen from
the training rows (`--param weight_folds=3`), on every shared binary set, beside LightGBM,
XGBoost and scikit-learn's RBF SVC at their defaults on the same splits.

    target/peers-venv/bin/python benches/peers/blend_weight.py --auc target/release/auc \
        --datasets ../shared/datasets --repeats 4

Candidates, each with no inner search (a new user's first model):
- `fixed`: `blend` with `weight_folds=0`, the kernel member's share 1/2 (the default learner of
  docs/results/default-learner.md);
- `chosen`: `blend` with `weight_folds=3`: the share among 0, 1/4, 1/2, 3/4, 1 by 3-fold
  held-out AUC on at most 20,000 training rows, the nearest to 1/2 within one (Hanley-McNeil)
  standard error of the best (docs/math/blend.md section 3).

Every candidate runs `auc cv --repeats R --folds 5` (seed 0, the splits of nonlinear.md and
default-learner.md; min-max scaling by `--scale auto`) on the ten nonlinear and the fourteen
other shared binary sets; the peers run on the saved splits (run_peers.py, 2 threads).

The rule, fixed before the runs (docs/results/defaults.md's, for two candidates): `chosen`
becomes the blend's default if it has a clean run on every set and a lower mean rank across
the 24 sets (1 = the better AUC on a set, a tie shares 1.5); on equal mean ranks the higher mean
AUC; on equal both, `fixed` stays (the simpler). Reported beside it, not used by the rule: the
issue 22 target on the ten nonlinear sets (ahead of or level with LightGBM within the larger
standard deviation, and the mean AUC), the fit times, and the weight each set gets when the
whole set is the training data (`auc train`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from default_learner import arguments, fit_time_table, mean_ranks, run_candidates  # noqa: E402
from nonlinear import SETS, cell  # noqa: E402

CANDIDATES = [
    ("fixed", ["--algo", "blend", "--param", "weight_folds=0"]),
    ("chosen", ["--algo", "blend", "--param", "weight_folds=3"]),
]
PEERS = ["lightgbm", "xgboost", "svc"]
PEER_TITLES = {"lightgbm": "LightGBM", "xgboost": "XGBoost", "svc": "RBF SVC"}


def whole_set_weight(auc, files, positive, limit, threads):
    """The weight `chosen` keeps when every row of the set trains it, from `auc train`'s line."""
    cmd = [auc, "train", "--algo", "blend", "--param", "weight_folds=3", "--positive", positive,
           "--scale", "auto", "--threads", str(threads), "-o", os.devnull]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    done = subprocess.run(cmd + files, capture_output=True, text=True)
    m = re.search(r"weight ([0-9.]+) (chosen|kept)", done.stderr)
    return m.group(1) if m else "-"


def main(argv=None):
    a = arguments(__doc__.splitlines()[0], 4, "target/blend-weight",
                  "docs/results/blend-weight.md", argv)
    sets, ours, peers, weights = run_candidates(
        a, CANDIDATES, PEERS,
        per_set=lambda files, positive, limit: whole_set_weight(a.auc, files, positive, limit,
                                                                a.threads))
    write_page(a, sets, ours, peers, weights)


def against_lightgbm(sets, ours, peers, cand):
    """(ahead or level, of, mean ours, mean LightGBM) on the ten nonlinear sets."""
    level, count, mo, ml = 0, 0, 0.0, 0.0
    nonlinear = {s[0] for s in SETS}
    for name, *_ in sets:
        r, q = ours[(name, cand)], peers.get((name, "lightgbm"))
        if name not in nonlinear or "error" in r or q is None:
            continue
        count += 1
        mo += r["auc"]
        ml += q["auc"]
        if r["auc"] >= q["auc"] - max(r["auc_std"], q["auc_std"]):
            level += 1
    return level, count, 100 * mo / max(count, 1), 100 * ml / max(count, 1)


def write_page(a, sets, ours, peers, weights):
    names = [c for c, _ in CANDIDATES]
    clean = [c for c in names if all("error" not in ours[(s[0], c)] for s in sets)]
    rank, mean, used = mean_ranks(sets, clean, lambda n, c: ours[(n, c)]["auc"])
    if "chosen" in clean and (rank["chosen"], -mean["chosen"]) < (rank["fixed"], -mean["fixed"]):
        verdict = "chosen"
    else:
        verdict = "fixed"
    lines = [
        "# The blend's weight: fixed at 1/2 or chosen from the training rows",
        "",
        f"Produced by `target/peers-venv/bin/python benches/peers/blend_weight.py --repeats {a.repeats}` "
        "(see the script's docs: the candidates and the rule, fixed before the runs). Every column "
        f"sees the same {a.repeats} x 5 stratified folds of each shared binary set (seed 0); ours "
        "with no inner search, the peers at their library defaults with 2 threads on the same "
        "min-max scaled features. AUC in percent, mean ± standard deviation over the splits.",
        "",
        f"## The rule (the {used} sets)",
        "",
        "| candidate | mean rank | mean AUC |",
        "|---|---:|---:|",
    ]
    for c in clean:
        tag = " **(the default)**" if c == verdict else ""
        lines.append(f"| {c}{tag} | {rank[c]:.3f} | {100 * mean[c]:.2f} |")
    lines += ["", "## Issue 22's target on the ten nonlinear sets", "",
              "| candidate | ahead or level with LightGBM | of | mean AUC | LightGBM's mean AUC |",
              "|---|---:|---:|---:|---:|"]
    for c in clean:
        level, count, mo, ml = against_lightgbm(sets, ours, peers, c)
        lines.append(f"| {c} | {level} | {count} | {mo:.2f} | {ml:.2f} |")
    cols = names + [PEER_TITLES[q] for q in PEERS]
    lines += ["", "## AUC", "",
              "| data set | " + " | ".join(cols) + " | weight chosen on the whole set |",
              "|---|" + "---:|" * (len(cols) + 1)]
    for name, *_ in sets:
        row = [cell(ours[(name, c)]) for c in names] + [cell(peers.get((name, q))) for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + f" | {weights[name]} |")
    lines += ["", "## Average precision", "", "| data set | " + " | ".join(cols) + " |",
              "|---|" + "---:|" * len(cols)]
    for name, *_ in sets:
        row = [cell(ours[(name, c)], "ap") for c in names]
        row += [cell(peers.get((name, q)), "ap") for q in PEERS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines += fit_time_table(sets, ours, peers, names, PEERS, cols)
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}; the default: {verdict}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
