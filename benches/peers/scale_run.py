"""The scale run of docs/results/nonlinear.md: a generated nonlinear stream of 10^6 rows (20
features, about 10 % positives) through `auc train` (the default blend, the boosted trees, and
the batch and one-pass learners on feature maps), beside LightGBM at its defaults on the same
machine and threads; whole-process wall time and peak memory (GNU time's
maximum resident set size) of each, and the AUC on a separate generated test file.

    target/peers-venv/bin/python benches/peers/scale_run.py --auc target/release/auc \
        --rows 1000000 --work target/scale --out docs/results/nonlinear-scale.md

Ours run with `--threads 2`; LightGBM with `n_jobs=2`. Each command runs `--repeats` times
and the table gives the fastest run (the least disturbed by other jobs) with the range.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(cmd):
    """Runs `cmd` under GNU time: (wall seconds, peak RSS in MB, stdout, stderr)."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stderr}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    return wall, rss / 1024, p.stdout, p.stderr


def load_reading(before):
    """What the load average before the run says about the times: under 1, nothing else was
    running when it started (the load after it is mostly the run's own threads)."""
    if before < 1.0:
        return "nothing else running at the start; the load after it is mostly the run's own"
    return "another job shared the machine at the start and the times are inflated"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--auc", default="target/release/auc")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", default="target/scale")
    ap.add_argument("--out", default="docs/results/nonlinear-scale.md")
    a = ap.parse_args()
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    train, test = work / "train.libsvm", work / "test.libsvm"
    py = sys.executable
    gen = str(HERE / "gen_nonlinear_stream.py")
    if not train.exists():
        subprocess.run([py, gen, "--rows", str(a.rows), "--features", "20", "--seed", "1",
                        "--out", str(train)], check=True)
    if not test.exists():
        subprocess.run([py, gen, "--rows", "100000", "--features", "20", "--seed", "2",
                        "--out", str(test)], check=True)
    load_before = os.getloadavg()[0]
    rows = []
    for label, named, extra in [
        ("auc train (no --algo: the blend, its weight chosen)", [], []),
        ("auc train --algo gbt-auc", ["--algo", "gbt-auc"], []),
        ("auc train --algo opauc-batch --features nystroem:1000 --lambda 2^-10 (the map learner)",
         ["--algo", "opauc-batch"], ["--features", "nystroem:1000", "--param", "lambda=0.0009765625"]),
        ("auc train --algo opauc-batch (linear)", ["--algo", "opauc-batch"], []),
        ("auc train --algo opauc-batch --features nystroem:500", ["--algo", "opauc-batch"],
         ["--features", "nystroem:500"]),
        ("auc train --algo opauc-batch --features rff:1000", ["--algo", "opauc-batch"],
         ["--features", "rff:1000"]),
        ("auc train --algo pa-i --features rff:1000 (one pass)", ["--algo", "pa-i"],
         ["--features", "rff:1000"]),
    ]:
        algo = named[1] if named else "blend"
        model = work / "model.auc"
        runs = []
        for _ in range(a.repeats):
            cmd = [a.auc, "train", *named, *extra, str(train), "-o", str(model)]
            if algo != "pa-i":
                cmd += ["--threads", str(a.threads)]
            wall, rss, _, err = timed(cmd)
            fit = re.search(r"trained .*? in ([0-9.]+) s", err)
            runs.append((wall, rss, float(fit.group(1)) if fit else float("nan")))
        p = subprocess.run([a.auc, "predict", "--model", str(model), str(test), "--json",
                            "-o", str(work / "scores.txt")],
                           capture_output=True, text=True, check=True)
        auc = json.loads(p.stdout)["auc"]
        rows.append((label, runs, auc))
        print(f"{label}: {min(r[0] for r in runs):.2f} s, {max(r[1] for r in runs):.0f} MB, "
              f"AUC {auc:.4f}", file=sys.stderr)
    runs = []
    auc = float("nan")
    for _ in range(a.repeats):
        wall, rss, out, _ = timed([py, str(HERE / "time_lightgbm.py"), "--train", str(train),
                                   "--test", str(test), "--threads", str(a.threads)])
        r = json.loads(out.strip().splitlines()[-1])
        runs.append((wall, rss, r["fit_seconds"]))
        auc = r["auc"]
    rows.append(("LightGBM (defaults, n_jobs=2), whole script: load, fit, score", runs, auc))
    lgb_fit = min(x[2] for x in runs)
    lines = [
        "# Scale run: 10^6 generated nonlinear rows",
        "",
        f"Produced by `benches/peers/scale_run.py` on {a.rows:,} training rows of 20 dense "
        "features (`gen_nonlinear_stream.py --seed 1`, about 10 % positives) and 100,000 test "
        f"rows (`--seed 2`), {a.threads} threads. Whole-process wall time (fastest of "
        f"{a.repeats}, with the range), the fit alone (ours as `auc train` prints it, from the "
        "rows in memory to the fitted model; LightGBM's `fit` call, timed inside its script), "
        "peak resident memory and test AUC.",
        "",
        "| command | wall s (fastest) | range | fit s (fastest) | fit range | peak MB | test AUC |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, runs, auc in rows:
        walls = [r[0] for r in runs]
        fits = [r[2] for r in runs]
        lines.append(f"| {label} | {min(walls):.2f} | {min(walls):.2f}-{max(walls):.2f} | "
                     f"{min(fits):.2f} | {min(fits):.2f}-{max(fits):.2f} | "
                     f"{max(r[1] for r in runs):.0f} | {auc:.4f} |")
    load_after = os.getloadavg()[0]
    lines += ["", f"LightGBM's fit alone (inside its script): {lgb_fit:.2f} s (fastest); the rest "
              "of its wall time is Python start-up, reading LIBSVM with scikit-learn and scoring. "
              "Ours' wall time beyond the fit is reading and scaling the file and writing the model.",
              "", f"Machine: {os.cpu_count()} CPUs; one-minute load average {load_before:.2f} "
              f"before the run and {load_after:.2f} after it ({load_reading(load_before)})."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
