#!/usr/bin/env python3
"""docs/results/tabular.md: our default learner (the `auc` CLI, and auclearn's Python API) beside
LightGBM, CatBoost, HistGradientBoosting and a scikit-learn logistic-regression pipeline, on real
tabular data as users hold it (string labels, string columns, empty cells): the collection of
tabular_data.py.

    python3 benches/peers/tabular.py                       # the committed page (~15 minutes)
    python3 benches/peers/tabular.py --sets penguins,titanic --folds 2 \
        --out target/tabular/quick.md --tsv target/tabular/quick.tsv     # a quick check

Any python3 will do: outside the peers' venv (--venv, default target/peers-venv) the script runs
setup_venv.sh with tabular-requirements.txt and re-runs itself there. The sets are written to
--data (default target/tabular/data) by tabular_data.py's code at the start of every run.

Splits: per set, --folds (5) stratified folds, shuffled with --seed (0), written to
DATA/NAME.folds.json (format "tabular-folds-1": the 0-based test rows of each fold, rows
numbered as in NAME.csv / NAME.parquet; the training part is every other row), and read back
from there on later runs with the same seed and fold count, so anyone reruns the same splits.

Every column sees the same training and test rows of the frame as the package gave it:
  lightgbm  lightgbm.LGBMClassifier(n_jobs=T, verbose=-1); string columns as pandas `category`
            with the categories of the training part (a value unseen there becomes missing).
  catboost  catboost.CatBoostClassifier(thread_count=T, verbose=0), cat_features = the string
            columns; missing cells of a string column are filled with the string "nan", since
            CatBoost refuses NaN in a categorical feature (numbers keep NaN, which it takes).
            Its scratch files go to WORK/catboost_info (train_dir), which changes no model.
  hgb       sklearn.ensemble.HistGradientBoostingClassifier(categorical_features="from_dtype"),
            the same `category` columns as LightGBM (only with a scikit-learn that has
            "from_dtype", 1.4 on). One thread count for both through OMP_NUM_THREADS. Above
            10,000 training rows its default early stopping holds out a validation part drawn
            with random_state=None (its default), so there (nass_cds) its figures vary a little
            from run to run; every other column is deterministic.
  logreg    scikit-learn pipeline: numbers SimpleImputer(strategy="median") + StandardScaler,
            strings SimpleImputer(strategy="most_frequent") + OneHotEncoder(handle_unknown=
            "ignore"), then LogisticRegression(max_iter=1000).
  ours-cli  the `auc` binary (--auc): the fold's training rows and test rows written as CSV
            files, line for line as NAME.csv holds them (header, string labels, empty cells),
            `auc train TRAIN.csv --label-column LABEL --positive=VALUE -o m.auc` (the default
            learner) and `auc predict -m m.auc TEST.csv -o scores.txt`.
  ours-py   auclearn.Default() (the default learner, auclearn.Blend) fitted on the training
            frame's feature columns and its label column as they are; scores by
            decision_function, negated when classes_[1] is not the positive value.
The peers are scored by predict_proba[:, 1]. AUC is scikit-learn's roc_auc_score and AP its
average_precision_score of the test part; fit seconds are the wall time of `fit` alone for the
Python columns and of the `auc train` process (CSV reading included) for ours-cli. T is
--threads (2), also set as OMP_NUM_THREADS / OPENBLAS_NUM_THREADS / MKL_NUM_THREADS. Each peer
is fitted once on a tiny frame, untimed, before the sets.

A column that fails on a fold writes its first error line for that fold (TSV `error`), and the
run goes on; the page lists the failures per set and column with the first message.
Outputs: --tsv (every fold: set, learner, fold, auc, ap, fit_seconds, error) and --out.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tabular_data  # noqa: E402  (stdlib only at import time)

REPO = HERE.parent.parent
LEARNERS = ["ours-cli", "ours-py", "lightgbm", "catboost", "hgb", "logreg"]
TITLES = {
    "ours-cli": "ours (CLI)", "ours-py": "ours (auclearn)", "lightgbm": "LightGBM",
    "catboost": "CatBoost", "hgb": "HistGB", "logreg": "LogReg pipeline",
}
FOLDS_FORMAT = "tabular-folds-1"


def limit_threads(threads):
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
        os.environ[var] = str(threads)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def first_line(text: str) -> str:
    """The first non-empty line of an error text (the message, not a traceback's header)."""
    lines = [x.strip() for x in str(text).splitlines() if x.strip()]
    return lines[0] if lines else "failed (no message)"


def error_line(stderr: str) -> str:
    """The error of a failed `auc` run: its first line that says error (the CLI prints notes,
    e.g. which learner it fits, before the error), else its first line."""
    lines = [x.strip() for x in str(stderr).splitlines() if x.strip()]
    for x in lines:
        if "error" in x.lower():
            return x
    return lines[0] if lines else "failed (no message)"


def provenance(auc: str) -> str:
    """`auc --version` of the binary and the checkout's commit, for a page's "Produced by"."""
    try:
        v = subprocess.run([auc, "--version"], capture_output=True, text=True, timeout=30)
        version = v.stdout.strip() or error_line(v.stderr)
    except OSError as e:
        version = f"not runnable: {e.strerror}"
    try:
        c = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=30)
        commit = c.stdout.strip() or "unknown"
    except OSError:
        commit = "unknown"
    return f"auc binary `{auc}` ({version}), checkout {commit}"


def error_kind(msg: str) -> str:
    """A message with its line:column positions and quoted values masked, to group the same
    failure (e.g. one refusal of each set's positive label)."""
    import re

    return re.sub(r"'[^']*'", "'_'", re.sub(r":\d+:\d+:", ":L:C:", msg))


def exc_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {first_line(e) if str(e) else ''}".rstrip(": ")


# ---------------------------------------------------------------------------------------------
# Folds

def stratified_folds(y, k: int, seed: int) -> list[list[int]]:
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    return [sorted(int(i) for i in test) for _, test in skf.split(np.zeros(len(y)), y)]


def load_or_make_folds(path: Path, name: str, y, k: int, seed: int, extra: dict) -> list[list[int]]:
    """The folds of DATA/NAME.folds.json when it was written for these rows, k and seed; else
    new ones, written there."""
    if path.exists():
        spec = json.loads(path.read_text())
        if (spec.get("format") == FOLDS_FORMAT and spec.get("rows") == len(y)
                and spec.get("k") == k and spec.get("seed") == seed):
            return [list(map(int, t)) for t in spec["test"]]
    folds = stratified_folds(y, k, seed)
    spec = {"format": FOLDS_FORMAT, "set": name, "rows": len(y), "k": k, "seed": seed,
            "method": "sklearn.model_selection.StratifiedKFold(n_splits=k, shuffle=True, "
                      "random_state=seed) on the 0/1 target",
            **extra, "test": folds}
    path.write_text(json.dumps(spec) + "\n")
    return folds


# ---------------------------------------------------------------------------------------------
# Peers

def as_categories(train, test, cat_cols):
    """Copies of the parts with the string columns as `category`, categories = the training
    part's values (unseen test values become missing)."""
    import pandas as pd

    train, test = train.copy(), test.copy()
    for c in cat_cols:
        cats = sorted(train[c].dropna().astype(str).unique())
        train[c] = pd.Categorical(train[c], categories=cats)
        test[c] = pd.Categorical(test[c].where(test[c].isin(cats)), categories=cats)
    return train, test


def as_objects(frame, cat_cols, fill=None):
    """A copy with the string columns as plain object columns (np.nan for missing, or `fill`)."""
    import numpy as np

    frame = frame.copy()
    for c in cat_cols:
        col = frame[c].astype(object)
        col = col.where(frame[c].notna(), np.nan if fill is None else fill)
        frame[c] = col
    return frame


def hgb_supported() -> str | None:
    """None when HistGradientBoostingClassifier takes categorical_features="from_dtype"."""
    import inspect

    import sklearn
    from sklearn.ensemble import HistGradientBoostingClassifier

    major, minor = (int(x) for x in sklearn.__version__.split(".")[:2])
    if (major, minor) < (1, 4):
        return f"scikit-learn {sklearn.__version__} has no categorical_features='from_dtype' (1.4+)"
    assert "categorical_features" in inspect.signature(HistGradientBoostingClassifier).parameters
    return None


def fit_peer(learner, train, test, y_train, cat_cols, threads, work):
    """Fits one peer; returns (test scores, fit seconds)."""
    num_cols = [c for c in train.columns if c not in cat_cols]
    if learner == "lightgbm":
        from lightgbm import LGBMClassifier

        tr, te = as_categories(train, test, cat_cols)
        model = LGBMClassifier(n_jobs=threads, verbose=-1)
    elif learner == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier

        tr, te = as_categories(train, test, cat_cols)
        model = HistGradientBoostingClassifier(categorical_features="from_dtype")
    elif learner == "catboost":
        from catboost import CatBoostClassifier

        tr, te = as_objects(train, cat_cols, "nan"), as_objects(test, cat_cols, "nan")
        model = CatBoostClassifier(thread_count=threads, verbose=0,
                                   train_dir=str(work / "catboost_info"))
        start = time.perf_counter()
        model.fit(tr, y_train, cat_features=list(cat_cols))
        seconds = time.perf_counter() - start
        return model.predict_proba(te)[:, 1], seconds
    elif learner == "logreg":
        from sklearn.compose import ColumnTransformer
        from sklearn.impute import SimpleImputer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import OneHotEncoder, StandardScaler

        tr, te = as_objects(train, cat_cols), as_objects(test, cat_cols)
        prep = ColumnTransformer([
            ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), num_cols),
            ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                  OneHotEncoder(handle_unknown="ignore")), list(cat_cols)),
        ])
        model = make_pipeline(prep, LogisticRegression(max_iter=1000))
    else:
        raise ValueError(learner)
    start = time.perf_counter()
    model.fit(tr, y_train)
    seconds = time.perf_counter() - start
    return model.predict_proba(te)[:, 1], seconds


def warm_up(learners, threads, work):
    """One untimed fit of each peer on a tiny frame (lazy imports, thread pools)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 200
    frame = pd.DataFrame({"a": rng.normal(size=n), "b": rng.choice(["x", "y", "z"], size=n)})
    frame.loc[::17, "a"] = np.nan
    y = (rng.random(n) < 0.4).astype(int)
    for learner in learners:
        if learner.startswith("ours"):
            continue
        try:
            fit_peer(learner, frame.iloc[:150], frame.iloc[150:], y[:150], ["b"], threads, work)
        except Exception as e:  # the real fits report it
            log(f"warm-up of {learner} failed: {exc_line(e)}")


# ---------------------------------------------------------------------------------------------
# Ours

def csv_lines(path: Path) -> tuple[str, list[str]]:
    """The header and data lines of NAME.csv (its fields hold no line breaks: checked)."""
    text = path.read_text()
    if '"' in text:
        raise RuntimeError(f"{path} has quoted fields; slicing it by lines is not safe")
    lines = text.splitlines(keepends=True)
    return lines[0], lines[1:]


def write_rows(path: Path, header: str, lines: list[str], rows) -> None:
    with open(path, "w") as f:
        f.write(header)
        for i in rows:
            f.write(lines[i])


def fit_ours_cli(auc, header, lines, train_rows, test_rows, label, positive, fold_dir,
                 keep=True):
    """`auc train` on the training rows, `auc predict` on the test rows; (scores, train wall).
    Without `keep`, the fold's files (CSV parts, model, scores) are removed afterwards."""
    if keep:
        return _fit_ours_cli(auc, header, lines, train_rows, test_rows, label, positive, fold_dir)
    try:
        return _fit_ours_cli(auc, header, lines, train_rows, test_rows, label, positive, fold_dir)
    finally:
        for f in ("train.csv", "test.csv", "m.auc", "scores.txt"):
            (fold_dir / f).unlink(missing_ok=True)


def _fit_ours_cli(auc, header, lines, train_rows, test_rows, label, positive, fold_dir):
    import numpy as np

    fold_dir.mkdir(parents=True, exist_ok=True)
    train_csv, test_csv = fold_dir / "train.csv", fold_dir / "test.csv"
    model, scores = fold_dir / "m.auc", fold_dir / "scores.txt"
    for f in (model, scores):
        f.unlink(missing_ok=True)
    write_rows(train_csv, header, lines, train_rows)
    write_rows(test_csv, header, lines, test_rows)
    # `--positive=VALUE`: a value such as -1 must not read as an option.
    cmd = [auc, "train", str(train_csv), "--label-column", label, f"--positive={positive}",
           "-o", str(model)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    where = str(fold_dir) + "/"  # messages name train.csv / test.csv, not the scratch path
    if done.returncode != 0:
        raise RuntimeError(error_line(done.stderr or done.stdout or f"exit {done.returncode}")
                           .replace(where, ""))
    done = subprocess.run([auc, "predict", "-m", str(model), str(test_csv), "-o", str(scores)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("predict: " + error_line(done.stderr or f"exit {done.returncode}")
                           .replace(where, ""))
    s = np.loadtxt(scores, dtype=np.float64, ndmin=1)
    if s.shape[0] != len(test_rows):
        raise RuntimeError(f"predict wrote {s.shape[0]} scores for {len(test_rows)} test rows")
    return s, seconds


def fit_ours_py(train, test, y_train_raw, positive):
    import auclearn  # noqa: F401  (an ImportError is the column's failure)

    est = auclearn.Default()
    start = time.perf_counter()
    est.fit(train, y_train_raw)
    seconds = time.perf_counter() - start
    s = est.decision_function(test)
    if str(est.classes_[1]) != str(positive):
        s = -s
    return s, seconds


# ---------------------------------------------------------------------------------------------
# The run

def run(a):
    import numpy as np
    import pandas as pd
    from sklearn.metrics import average_precision_score, roc_auc_score

    data = Path(a.data)
    data.mkdir(parents=True, exist_ok=True)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    sets = [s.strip() for s in a.sets.split(",")] if a.sets else tabular_data.NAMES
    # The sets are written afresh from the pinned packages on every run (seconds), so that the
    # files and their metadata always match tabular_data.py; the folds files are kept.
    metas = {}
    sets_json = data / "sets.json"
    if sets_json.exists():
        metas = {m["name"]: m for m in json.loads(sets_json.read_text())["sets"]}
    for name in sets:
        df, meta = tabular_data.build(name)
        tabular_data.write(df, meta, data)
        metas[name] = meta
    all_metas = sorted(metas.values(), key=lambda m: tabular_data.NAMES.index(m["name"]))
    sets_json.write_text(json.dumps({"format": "tabular-sets-1", "sets": all_metas},
                                    indent=1) + "\n")
    log(f"wrote {len(sets)} sets to {data}")
    learners = a.learners
    skip_reason = {}
    if "hgb" in learners:
        why = hgb_supported()
        if why:
            skip_reason["hgb"] = why
    warm_up([x for x in learners if x not in skip_reason], a.threads, work)
    rows = []
    for name in sets:
        meta = metas[name]
        label, positive = meta["label"], meta["positive"]
        frame = pd.read_parquet(data / f"{name}.parquet")
        X = frame.drop(columns=[label])
        y_raw = frame[label]
        y = (y_raw.astype(str) == positive).to_numpy().astype(int)
        cat_cols = [c for c in X.columns if tabular_data.is_categorical(X[c])]
        folds = load_or_make_folds(data / f"{name}.folds.json", name, y, a.folds, a.seed,
                                   {"label": label, "positive": positive})
        header, lines = csv_lines(data / f"{name}.csv")
        if len(lines) != len(frame):
            raise RuntimeError(f"{name}: csv has {len(lines)} rows, parquet {len(frame)}")
        for learner in learners:
            for k, test_rows in enumerate(folds):
                test_set = set(test_rows)
                train_rows = [i for i in range(len(frame)) if i not in test_set]
                row = {"set": name, "learner": learner, "fold": k, "auc": float("nan"),
                       "ap": float("nan"), "fit_seconds": float("nan"), "error": ""}
                try:
                    if learner in skip_reason:
                        raise RuntimeError(skip_reason[learner])
                    if learner == "ours-cli":
                        s, sec = fit_ours_cli(a.auc, header, lines, train_rows, test_rows, label,
                                              positive, work / name / f"fold{k}")
                    elif learner == "ours-py":
                        s, sec = fit_ours_py(X.iloc[train_rows], X.iloc[test_rows],
                                             y_raw.iloc[train_rows], positive)
                    else:
                        s, sec = fit_peer(learner, X.iloc[train_rows], X.iloc[test_rows],
                                          y[train_rows], cat_cols, a.threads, work)
                    s = np.asarray(s, dtype=np.float64)
                    if not np.all(np.isfinite(s)):
                        raise RuntimeError("non-finite test scores")
                    yt = y[test_rows]
                    row.update(auc=float(roc_auc_score(yt, s)),
                               ap=float(average_precision_score(yt, s)), fit_seconds=sec)
                except Exception as e:
                    row["error"] = exc_line(e) if not isinstance(e, RuntimeError) else str(e)
                rows.append(row)
            done = [r for r in rows if r["set"] == name and r["learner"] == learner]
            ok = [r for r in done if not r["error"]]
            if ok:
                log(f"{name} {learner}: AUC {100 * np.mean([r['auc'] for r in ok]):.2f} "
                    f"({len(ok)}/{len(done)} folds), fit {np.mean([r['fit_seconds'] for r in ok]):.3f} s")
            else:
                log(f"{name} {learner}: failed: {done[0]['error']}")
    return sets, metas, rows


def write_tsv(path: Path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        f.write("set\tlearner\tfold\tauc\tap\tfit_seconds\terror\n")
        for r in rows:
            err = r["error"].replace("\t", " ").replace("\n", " ")
            f.write(f"{r['set']}\t{r['learner']}\t{r['fold']}\t{r['auc']:.6f}\t{r['ap']:.6f}\t"
                    f"{r['fit_seconds']:.4f}\t{err}\n")


# ---------------------------------------------------------------------------------------------
# The page

def summarize(rows, sets, learners):
    """{(set, learner): {auc, auc_std, ap, ap_std, fit, ok, n, error}} over the folds."""
    import numpy as np

    out = {}
    for name in sets:
        for learner in learners:
            rs = [r for r in rows if r["set"] == name and r["learner"] == learner]
            ok = [r for r in rs if not r["error"]]
            errors = [r["error"] for r in rs if r["error"]]
            d = {"n": len(rs), "ok": len(ok), "error": errors[0] if errors else None,
                 "failed": len(errors)}
            if ok:
                aucs = np.array([r["auc"] for r in ok])
                aps = np.array([r["ap"] for r in ok])
                d.update(auc=aucs.mean(), auc_std=aucs.std(ddof=1) if len(ok) > 1 else 0.0,
                         ap=aps.mean(), ap_std=aps.std(ddof=1) if len(ok) > 1 else 0.0,
                         fit=float(np.mean([r["fit_seconds"] for r in ok])))
            out[(name, learner)] = d
    return out


def complete(d):
    return d["n"] > 0 and d["ok"] == d["n"]


def ranks(values):
    """1 = largest; ties share their mean rank."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for m in range(i, j + 1):
            out[order[m]] = (i + j) / 2 + 1
        i = j + 1
    return out


def rank_table(summary, sets, cols):
    """Mean rank, wins and mean AUC of `cols` over `sets` (each complete for every col)."""
    rank = {c: 0.0 for c in cols}
    wins = {c: 0 for c in cols}
    mean = {c: 0.0 for c in cols}
    for name in sets:
        vals = [round(summary[(name, c)]["auc"], 10) for c in cols]
        best = max(vals)
        for c, r, v in zip(cols, ranks(vals), vals):
            rank[c] += r
            mean[c] += v
            wins[c] += v == best
    n = max(len(sets), 1)
    return {c: (rank[c] / n, wins[c], mean[c] / n) for c in cols}


def pct(d, key="auc"):
    if "auc" not in d:
        return "-"
    if d["ok"] > 1:
        return f"{100 * d[key]:.2f} ± {100 * d[key + '_std']:.2f}"
    return f"{100 * d[key]:.2f}"


def page(a, sets, metas, rows, argv):
    summary = summarize(rows, sets, a.learners)
    learners = a.learners
    full = [c for c in learners if all(complete(summary[(s, c)]) for s in sets)]
    partial = [c for c in learners if c not in full]
    common = [s for s in sets if all(complete(summary[(s, c)]) for c in learners)]
    cmd = "python3 benches/peers/tabular.py" + ("" if not argv else " " + shlex.join(argv))
    L = [
        "# Tabular data as users hold it",
        "",
        "String labels, string (categorical) columns and empty cells, as the packages ship them "
        "(SPEC section 11): our default learner through the `auc` CLI and through auclearn's "
        "Python API beside LightGBM, CatBoost, scikit-learn's HistGradientBoosting and a "
        "scikit-learn logistic-regression pipeline, all at their library defaults with "
        f"{a.threads} threads, on the same {a.folds} stratified folds of each set (seed "
        f"{a.seed}). AUC and AP in percent, mean ± standard deviation over the folds; fit "
        "seconds are the mean wall time of one fit (for ours (CLI), the `auc train` process, "
        "reading the CSV included). How each column is called: benches/peers/tabular.py's "
        "docstring; the sets: benches/peers/tabular_data.py.",
        "",
        f"Produced by `{cmd}`; {a.provenance}.",
        "",
        "Fit times are only comparable on an otherwise idle machine (1-minute load average "
        f"{a.load[0]:.2f} at the start of this run, {a.load[1]:.2f} at its end, on "
        f"{os.cpu_count()} cores; the run took {a.minutes:.0f} minutes).",
        "",
        "## The sets",
        "",
        "| set | source | rows | features | string columns | missing cells "
        "| label = positive (share) | target |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    for name in sets:
        m = metas[name]
        L.append(f"| {name} | {m['package']} {m['package_version']}: {m['source']} | {m['rows']} "
                 f"| {m['features']} | {len(m['categorical_columns'])} | {m['missing_cells']} "
                 f"| {m['label']} = {m['positive']} ({100 * m['positive_share']:.1f} %) "
                 f"| {m['target']} |")
    L += ["", "Dropped columns and rows (identifiers, and columns that restate the target):", ""]
    for name in sets:
        m = metas[name]
        parts = [f"`{c}`: {why}" for c, why in m["dropped"].items()]
        if m.get("rows_dropped"):
            parts.append(f"rows: {m['rows_dropped']}")
        if parts:
            L.append(f"- {name}: " + "; ".join(parts))
    L += ["", "## Summary", ""]
    if full:
        res = rank_table(summary, sets, full)
        L += [f"Over all {len(sets)} sets, among the columns that completed every fold of every "
              "set (rank 1 = best mean AUC on a set, ties share their mean rank; a win is a best "
              "mean AUC, ties counted for each):", "",
              "| column | mean AUC | mean rank | wins |", "|---|---:|---:|---:|"]
        for c in sorted(full, key=lambda c: res[c][0]):
            r, w, m = res[c]
            L.append(f"| {TITLES[c]} | {100 * m:.2f} | {r:.2f} | {w} |")
    if partial:
        L += ["", "Columns that did not complete every set (each set's first failure is listed "
              "under Failures):", "", "| column | sets completed | mean AUC on them |",
              "|---|---:|---:|"]
        for c in partial:
            done = [s for s in sets if complete(summary[(s, c)])]
            m = (f"{100 * sum(summary[(s, c)]['auc'] for s in done) / len(done):.2f}"
                 if done else "-")
            L.append(f"| {TITLES[c]} | {len(done)} of {len(sets)} | {m} |")
        if common and partial:
            res = rank_table(summary, common, learners)
            L += ["", f"Every column on the {len(common)} sets that all completed:", "",
                  "| column | mean AUC | mean rank | wins |", "|---|---:|---:|---:|"]
            for c in sorted(learners, key=lambda c: res[c][0]):
                r, w, m = res[c]
                L.append(f"| {TITLES[c]} | {100 * m:.2f} | {r:.2f} | {w} |")
        elif partial:
            L += ["", "No set was completed by every column, so there is no ranking of all "
                  "of them yet."]
    L += ["", "## AUC", "", "| set | " + " | ".join(TITLES[c] for c in learners) + " |",
          "|---|" + "---:|" * len(learners)]
    for name in sets:
        L.append(f"| {name} | " + " | ".join(pct(summary[(name, c)]) for c in learners) + " |")
    L += ["", "## Per set", "",
          "AUC and AP in percent; fit: mean seconds of one fit; folds: completed of run.", ""]
    for name in sets:
        m = metas[name]
        L += [f"### {name}", "",
              f"{m['rows']} rows, {m['features']} features ({len(m['categorical_columns'])} "
              f"string), {m['missing_cells']} missing cells; {m['label']} = {m['positive']} "
              f"({100 * m['positive_share']:.1f} %).", "",
              "| column | AUC | AP | fit (s) | folds |", "|---|---:|---:|---:|---:|"]
        for c in learners:
            d = summary[(name, c)]
            fit = f"{d['fit']:.3f}" if "fit" in d else "-"
            L.append(f"| {TITLES[c]} | {pct(d)} | {pct(d, 'ap')} | {fit} | {d['ok']}/{d['n']} |")
        L.append("")
    L += ["## Failures", ""]
    failures = [(s, c, summary[(s, c)]) for s in sets for c in learners
                if summary[(s, c)]["failed"]]
    if not failures:
        L.append("None: every column completed every fold.")
    else:
        by_msg, example = {}, {}
        for s, c, d in failures:
            key = (c, error_kind(d["error"]))
            example.setdefault(key, d["error"])
            by_msg.setdefault(key, []).append(f"{s} ({d['failed']}/{d['n']})")
        L += ["The first error line of each column, with the sets (failed folds / folds) where "
              "it was the first failure (messages that differ only in a line:column position "
              "or a quoted value are listed once, with the first set's):", "",
              "| column | first error line | sets |", "|---|---|---|"]
        for key, where in by_msg.items():
            c, msg = key[0], example[key]
            msg = msg.replace("|", "\\|")
            L.append(f"| {TITLES[c]} | `{msg}` | {', '.join(where)} |")
    L += ["", "## Rerun", "", "```sh",
          "cargo build --release -p auc-cli",
          "bash benches/peers/setup_venv.sh target/peers-venv benches/peers/tabular-requirements.txt"
          "   # optional: the scripts run it",
          "python3 benches/peers/tabular_data.py --out target/tabular/data"
          "        # optional: tabular.py writes the sets itself",
          cmd,
          "```", "",
          "The folds are in target/tabular/data/NAME.folds.json (written on the first run, read "
          "back after); every fold's figures in the TSV "
          f"`{a.tsv}`. For the ours (auclearn) column, install the package into the same venv "
          "first: `target/peers-venv/bin/python -m pip install ./crates/auc-py` (compiles the "
          "workspace in release); without it that column records the ImportError."]
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text("\n".join(L) + "\n")
    log(f"wrote {a.out} and {a.tsv}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default="target/release/auc", help="the auc binary")
    p.add_argument("--data", default="target/tabular/data",
                   help="the sets (tabular_data.py's --out) and their folds files")
    p.add_argument("--sets", default=None,
                   help="comma-separated subset of: " + ",".join(tabular_data.NAMES))
    p.add_argument("--learners", default=",".join(LEARNERS),
                   help="comma-separated columns out of " + ",".join(LEARNERS))
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--work", default="target/tabular/work", help="scratch files (fold CSVs, models)")
    p.add_argument("--tsv", default="docs/results/tabular-folds.tsv")
    p.add_argument("--out", default="docs/results/tabular.md")
    p.add_argument("--venv", default=str(tabular_data.DEFAULT_VENV))
    a = p.parse_args(argv)
    a.learners = [x.strip() for x in a.learners.split(",") if x.strip()]
    bad = [x for x in a.learners if x not in LEARNERS]
    if bad or not a.learners:
        p.error(f"unknown --learners {bad}; choose from {','.join(LEARNERS)}")
    if a.sets:
        bad = [s for s in a.sets.split(",") if s.strip() not in tabular_data.NAMES]
        if bad:
            p.error(f"unknown --sets {bad}")
    if a.folds < 2:
        p.error("--folds must be at least 2")
    tabular_data.bootstrap(Path(a.venv), __file__, argv)
    limit_threads(a.threads)
    if not Path(a.auc).exists():
        log(f"note: {a.auc} does not exist; the ours (CLI) column will record that")
    start_load, started = os.getloadavg()[0], time.perf_counter()
    a.provenance = provenance(a.auc)
    sets, metas, rows = run(a)
    a.load = (start_load, os.getloadavg()[0])
    a.minutes = (time.perf_counter() - started) / 60
    write_tsv(Path(a.tsv), rows)
    page(a, sets, metas, rows, argv)


if __name__ == "__main__":
    main()
