#!/usr/bin/env python3
"""docs/results/missing.md: our default learner (the `auc` CLI) beside LightGBM (NaN native) on
the shared binary data sets with 0 %, 10 % and 30 % of their feature values removed completely
at random, on the same stratified folds.

    python3 benches/peers/missing.py                       # the committed page
    python3 benches/peers/missing.py --sets heart,sonar --folds 2 \
        --out target/missing/quick.md --tsv target/missing/quick.tsv      # a quick check

Any python3 will do: outside the peers' venv (--venv, default target/peers-venv) the script runs
setup_venv.sh with tabular-requirements.txt and re-runs itself there.

Sets: the binary sets of ../shared/datasets/MANIFEST.tsv (--datasets) up to 50,000 rows and 500
features (SETS below, with the positive class nonlinear.py takes; svmguide1 is its training and
test files together, as there). Each is read as LIBSVM (1-based indices, the files of a set
concatenated with one feature count) and made dense: an index absent from a row is the value 0,
which then can be removed like any other value.

Removal: one seeded uniform draw U per feature cell (numpy default_rng(--seed), the set's rows
by columns); at rate r the cells with U < r are removed. So the 10 % cells are among the 30 %
cells, and the label is never removed. Each rate's frame is written as NAME.rR.csv under --work:
header `label,f1,..,fd` (f<i> = LIBSVM index i), the label as in the file (e.g. -1 / 1), numbers
as Python writes floats, an empty cell for a removed value.

Folds: --folds (5) stratified folds of the labels, shuffled with --seed (0), written to
WORK/NAME.folds.json (format "tabular-folds-1", as tabular.py) and shared by every rate and both
columns.
  ours-cli  the fold's training and test lines of the rate's CSV as files, `auc train TRAIN.csv
            --label-column label --positive=P -o m.auc` (the default learner) and `auc predict
            -m m.auc TEST.csv -o scores.txt`; fit seconds: the `auc train` process.
  lightgbm  lightgbm.LGBMClassifier(n_jobs=T, verbose=-1) on the same cells as a float array,
            NaN for a removed value (its native missing-value handling); predict_proba[:, 1];
            fit seconds: `fit` alone. Fitted once on a tiny array first, untimed.
AUC: roc_auc_score, AP: average_precision_score of the test part. A column that fails on a fold
records its first error line, and the run goes on; the page lists the failures.
Outputs: --tsv (every fold: set, rate, learner, fold, auc, ap, fit_seconds, error) and --out.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tabular  # noqa: E402
import tabular_data  # noqa: E402

# (name, LIBSVM files, positive label): the MANIFEST's binary sets of at most 50,000 rows and
# 500 features, with nonlinear.py's positive classes (a9a's is its +1, the income > 50K class).
SETS = [
    ("fourclass", ["fourclass"], "1"),
    ("ionosphere", ["ionosphere"], "-1"),
    ("splice", ["splice"], "-1"),
    ("magic04", ["magic04"], "-1"),
    ("svmguide1", ["svmguide1", "svmguide1.t"], "0"),
    ("heart", ["heart"], "1"),
    ("diabetes", ["diabetes"], "1"),
    ("german", ["german"], "-1"),
    ("australian", ["australian"], "1"),
    ("breast-cancer", ["breast-cancer"], "-1"),
    ("wdbc", ["wdbc"], "0"),
    ("sonar", ["sonar"], "1"),
    ("haberman", ["haberman"], "1"),
    ("abalone19", ["abalone19"], "1"),
    ("yeast1", ["yeast1"], "1"),
    ("page-blocks0", ["page-blocks0"], "1"),
    ("glass6", ["glass6"], "1"),
    ("vehicle2", ["vehicle2"], "1"),
    ("a1a", ["a1a"], "1"),
    ("a9a", ["a9a"], "1"),
]
NAMES = [s[0] for s in SETS]
LEARNERS = ["ours-cli", "lightgbm"]
TITLES = {"ours-cli": "ours (CLI)", "lightgbm": "LightGBM"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load(datasets: Path, files):
    """Dense X (rows x max index) and the labels as strings ("-1", "1", "0", ...)."""
    import numpy as np
    from sklearn.datasets import load_svmlight_files

    loaded = load_svmlight_files([str(datasets / f"{f}.libsvm") for f in files],
                                 zero_based=False, dtype=np.float64)
    X = np.vstack([m.toarray() for m in loaded[0::2]])
    labels = np.concatenate(loaded[1::2])
    return X, [f"{v:g}" for v in labels]


def write_csv(path: Path, X, labels, missing) -> None:
    """header label,f1..fd; an empty cell where `missing` is set."""
    d = X.shape[1]
    with open(path, "w") as f:
        f.write("label," + ",".join(f"f{i + 1}" for i in range(d)) + "\n")
        for row, lab, miss in zip(X.tolist(), labels, missing.tolist()):
            cells = ["" if m else repr(v) for v, m in zip(row, miss)]
            f.write(lab + "," + ",".join(cells) + "\n")


def fit_lightgbm(X_train, y_train, X_test, threads):
    from lightgbm import LGBMClassifier

    model = LGBMClassifier(n_jobs=threads, verbose=-1)
    start = time.perf_counter()
    model.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    return model.predict_proba(X_test)[:, 1], seconds


def run(a):
    import numpy as np
    from sklearn.metrics import average_precision_score, roc_auc_score

    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    wanted = NAMES if a.sets is None else [s.strip() for s in a.sets.split(",")]
    rng0 = np.random.default_rng(0)
    Xw = rng0.normal(size=(200, 3))
    Xw[::7, 1] = np.nan
    fit_lightgbm(Xw, (rng0.random(200) < 0.4).astype(int), Xw, a.threads)  # warm-up, untimed
    rows, info = [], {}
    for name, files, positive in SETS:
        if name not in wanted:
            continue
        X, labels = load(Path(a.datasets), files)
        y = np.array([lab == positive for lab in labels], dtype=int)
        if y.sum() == 0 or y.sum() == len(y):
            raise RuntimeError(f"{name}: positive label {positive} gives one class")
        info[name] = {"rows": X.shape[0], "features": X.shape[1], "positive": positive,
                      "share": float(y.mean())}
        folds = tabular.load_or_make_folds(work / f"{name}.folds.json", name, y, a.folds,
                                           a.seed, {"label": "label", "positive": positive})
        u = np.random.default_rng(a.seed).random(X.shape)
        for rate in a.rates:
            missing = u < rate
            Xr = np.where(missing, np.nan, X)
            csv = work / f"{name}.r{round(100 * rate)}.csv"
            write_csv(csv, X, labels, missing)
            header, lines = tabular.csv_lines(csv)
            for learner in LEARNERS:
                for k, test_rows in enumerate(folds):
                    test_set = set(test_rows)
                    train_rows = [i for i in range(len(y)) if i not in test_set]
                    row = {"set": name, "rate": rate, "learner": learner, "fold": k,
                           "auc": float("nan"), "ap": float("nan"),
                           "fit_seconds": float("nan"), "error": ""}
                    try:
                        if learner == "ours-cli":
                            s, sec = tabular.fit_ours_cli(
                                a.auc, header, lines, train_rows, test_rows, "label", positive,
                                work / name / f"r{round(100 * rate)}" / f"fold{k}",
                                keep=a.keep_csv)
                        else:
                            s, sec = fit_lightgbm(Xr[train_rows], y[train_rows], Xr[test_rows],
                                                  a.threads)
                        s = np.asarray(s, dtype=np.float64)
                        if not np.all(np.isfinite(s)):
                            raise RuntimeError("non-finite test scores")
                        yt = y[test_rows]
                        row.update(auc=float(roc_auc_score(yt, s)),
                                   ap=float(average_precision_score(yt, s)), fit_seconds=sec)
                    except Exception as e:
                        row["error"] = str(e) if isinstance(e, RuntimeError) else tabular.exc_line(e)
                    rows.append(row)
                done = [r for r in rows if r["set"] == name and r["rate"] == rate
                        and r["learner"] == learner]
                ok = [r for r in done if not r["error"]]
                what = (f"AUC {100 * np.mean([r['auc'] for r in ok]):.2f} ({len(ok)}/{len(done)})"
                        if ok else f"failed: {done[0]['error']}")
                log(f"{name} {100 * rate:.0f}% {learner}: {what}")
            if not a.keep_csv:
                csv.unlink()
    return [n for n in NAMES if n in info], info, rows


def write_tsv(path: Path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        f.write("set\trate\tlearner\tfold\tauc\tap\tfit_seconds\terror\n")
        for r in rows:
            err = r["error"].replace("\t", " ").replace("\n", " ")
            f.write(f"{r['set']}\t{r['rate']:g}\t{r['learner']}\t{r['fold']}\t{r['auc']:.6f}\t"
                    f"{r['ap']:.6f}\t{r['fit_seconds']:.4f}\t{err}\n")


def page(a, sets, info, rows, argv):
    import numpy as np

    cols = [(lr, rate) for lr in LEARNERS for rate in a.rates]
    summ = {}
    for name in sets:
        for lr, rate in cols:
            rs = [r for r in rows if r["set"] == name and r["learner"] == lr and r["rate"] == rate]
            ok = [r for r in rs if not r["error"]]
            d = {"n": len(rs), "ok": len(ok), "failed": len(rs) - len(ok),
                 "error": next((r["error"] for r in rs if r["error"]), None)}
            if ok:
                d.update(auc=float(np.mean([r["auc"] for r in ok])),
                         auc_std=float(np.std([r["auc"] for r in ok], ddof=1)) if len(ok) > 1 else 0.0,
                         ap=float(np.mean([r["ap"] for r in ok])),
                         fit=float(np.mean([r["fit_seconds"] for r in ok])))
            summ[(name, lr, rate)] = d

    def full(name, lr, rate):
        d = summ[(name, lr, rate)]
        return d["n"] > 0 and d["ok"] == d["n"]

    def head(label):
        return ("| set | rows | features | " + " | ".join(
            f"{TITLES[lr]} {100 * rate:.0f} %" for lr, rate in cols) + " |",
            "|---|---:|---:|" + "---:|" * len(cols))

    cmd = "python3 benches/peers/missing.py" + ("" if not argv else " " + shlex.join(argv))
    rates = ", ".join(f"{100 * r:.0f} %" for r in a.rates)
    L = ["# Missing values: removed completely at random",
         "",
         f"Our default learner through the `auc` CLI beside LightGBM (NaN native, library "
         f"defaults, {a.threads} threads) on the shared binary sets of at most 50,000 rows and "
         f"500 features, with {rates} of the feature values removed completely at random "
         f"(seed {a.seed}; the removed cells of a lower rate are among those of a higher one) "
         f"and written as empty CSV cells. Both columns see the same {a.folds} stratified folds "
         "(shared by the rates) and the same cells. AUC in percent, mean over the folds. How "
         "each column is called: benches/peers/missing.py's docstring.",
         "",
         f"Produced by `{cmd}`; {a.provenance}.",
         "",
         "Fit times are only comparable on an otherwise idle machine (1-minute load average "
         f"{a.load[0]:.2f} at the start of this run, {a.load[1]:.2f} at its end, on "
         f"{os.cpu_count()} cores; the run took {a.minutes:.0f} minutes).",
         "", "## Summary", ""]
    L += ["Mean AUC over the sets where the column completed every fold at that rate, and the "
          "mean change from 0 % over the sets where it completed both:", "",
          "| column | rate | sets completed | mean AUC | mean change from 0 % |",
          "|---|---:|---:|---:|---:|"]
    for lr, rate in cols:
        done = [n for n in sets if full(n, lr, rate)]
        m = f"{100 * np.mean([summ[(n, lr, rate)]['auc'] for n in done]):.2f}" if done else "-"
        both = [n for n in done if 0.0 in a.rates and full(n, lr, 0.0)]
        ch = ("-" if not both or rate == 0.0 else
              f"{100 * np.mean([summ[(n, lr, rate)]['auc'] - summ[(n, lr, 0.0)]['auc'] for n in both]):+.2f}")
        L.append(f"| {TITLES[lr]} | {100 * rate:.0f} % | {len(done)} of {len(sets)} | {m} | {ch} |")
    L += ["", "## AUC", "", *head("auc")]
    for name in sets:
        cells = []
        for lr, rate in cols:
            d = summ[(name, lr, rate)]
            cells.append(f"{100 * d['auc']:.2f}" if d["ok"] == d["n"] and "auc" in d
                         else ("-" if "auc" not in d else f"{100 * d['auc']:.2f} ({d['ok']}/{d['n']})"))
        L.append(f"| {name} | {info[name]['rows']} | {info[name]['features']} | "
                 + " | ".join(cells) + " |")
    L += ["", "## AP", "", *head("ap")]
    for name in sets:
        cells = [f"{100 * summ[(name, lr, rate)]['ap']:.2f}" if "ap" in summ[(name, lr, rate)]
                 else "-" for lr, rate in cols]
        L.append(f"| {name} | {info[name]['rows']} | {info[name]['features']} | "
                 + " | ".join(cells) + " |")
    L += ["", "## Mean fit time of one fit (seconds)", "", *head("fit")]
    for name in sets:
        cells = [f"{summ[(name, lr, rate)]['fit']:.3f}" if "fit" in summ[(name, lr, rate)]
                 else "-" for lr, rate in cols]
        L.append(f"| {name} | {info[name]['rows']} | {info[name]['features']} | "
                 + " | ".join(cells) + " |")
    L += ["", "## Failures", ""]
    by_msg, example = {}, {}
    for name in sets:
        for lr, rate in cols:
            d = summ[(name, lr, rate)]
            if d["failed"]:
                key = (lr, tabular.error_kind(d["error"]))
                example.setdefault(key, d["error"])
                by_msg.setdefault(key, []).append(
                    f"{name} {100 * rate:.0f} % ({d['failed']}/{d['n']})")
    if not by_msg:
        L.append("None: every column completed every fold.")
    else:
        L += ["The first error line, with the set and rate (failed folds / folds) where it was "
              "the first failure (messages that differ only in a line:column position or a quoted "
              "value are listed once, with the first set's):", "", "| column | first error line | where |",
              "|---|---|---|"]
        for key, where in by_msg.items():
            lr, msg = key[0], example[key]
            L.append(f"| {TITLES[lr]} | `{msg.replace('|', chr(92) + '|')}` | {', '.join(where)} |")
    L += ["", "## Rerun", "", "```sh", "cargo build --release -p auc-cli", cmd, "```", "",
          f"The folds are in {a.work}/NAME.folds.json; every fold's figures in `{a.tsv}`."]
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text("\n".join(L) + "\n")
    log(f"wrote {a.out} and {a.tsv}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc")
    p.add_argument("--datasets", default="../shared/datasets")
    p.add_argument("--sets", default=None, help="comma-separated subset of: " + ",".join(NAMES))
    p.add_argument("--rates", default="0,0.1,0.3",
                   help="comma-separated fractions of feature values removed (default 0,0.1,0.3)")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--work", default="target/missing", help="CSV files, folds, fold scratch files")
    p.add_argument("--keep-csv", action="store_true",
                   help="keep each rate's NAME.rR.csv and each fold's train.csv, test.csv, model "
                   "and scores (by default removed once used: a9a's make 600 MB)")
    p.add_argument("--tsv", default="docs/results/missing-folds.tsv")
    p.add_argument("--out", default="docs/results/missing.md")
    p.add_argument("--venv", default=str(tabular_data.DEFAULT_VENV))
    a = p.parse_args(argv)
    try:
        a.rates = sorted({float(x) for x in a.rates.split(",") if x.strip()})
    except ValueError:
        p.error(f"--rates wants numbers, got {a.rates!r}")
    if not a.rates or any(not 0 <= r < 1 for r in a.rates):
        p.error("--rates wants fractions in [0, 1)")
    if a.sets:
        bad = [s for s in a.sets.split(",") if s.strip() not in NAMES]
        if bad:
            p.error(f"unknown --sets {bad}; choose from {','.join(NAMES)}")
    if a.folds < 2:
        p.error("--folds must be at least 2")
    tabular_data.bootstrap(Path(a.venv), __file__, argv)
    tabular.limit_threads(a.threads)
    start_load, started = os.getloadavg()[0], time.perf_counter()
    a.provenance = tabular.provenance(a.auc)
    sets, info, rows = run(a)
    a.load = (start_load, os.getloadavg()[0])
    a.minutes = (time.perf_counter() - started) / 60
    write_tsv(Path(a.tsv), rows)
    page(a, sets, info, rows, argv)


if __name__ == "__main__":
    main()
