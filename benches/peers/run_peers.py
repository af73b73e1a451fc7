#!/usr/bin/env python3
"""Run peer learners on the exact train/test splits that `auc cv --save-splits` wrote.

Each splits file (format "auc-splits-1") names the LIBSVM files of one dataset, the
positive labels, and for every (repeat, fold) the 0-based row numbers of the test part;
the training part is every other row. For every split this script fits each requested
peer at its library defaults (only the thread count is set, and logging is silenced):

  lightgbm  lightgbm.LGBMClassifier(n_jobs=T, verbose=-1), scored by predict_proba[:, 1]
  xgboost   xgboost.XGBClassifier(n_jobs=T, verbosity=0),  scored by predict_proba[:, 1]
  svc       sklearn.svm.SVC(kernel="rbf") (C=1, gamma="scale"), scored by decision_function

and records ROC AUC, average precision and the wall time of `fit` alone.

Scaling (--scale) is fitted on the training part of each split and applied to its test part:
  minmax  (default) dense data (<= 1000 features) is mapped to [-1, 1] per feature by
          MinMaxScaler, with features constant on the training part mapped to 0 (the rule of
          our tool's min-max scaler); data with more than 1000 features stays sparse and is
          scaled by MaxAbsScaler instead.
  auto    our tool's `--scale auto` rule: min-max when the training part's density (stored
          non-zeros over rows x features) is at least 0.10, max-abs below it.
  maxabs  MaxAbsScaler on the (sparse) data.
  none    the features as read.
Trees are essentially indifferent to these monotone maps; the SVC is not.

Outputs: a per-split TSV (--out) with columns
  dataset, peer, repeat, fold, auc, ap, fit_seconds [, pauc with --max-fpr]
and a summary TSV (--summary, default <out stem>_summary.tsv) with columns
  dataset, peer, mean_auc, std_auc, mean_ap, std_ap, mean_fit_seconds, splits
  [, mean_pauc, std_pauc with --max-fpr]
where the means and sample standard deviations are over the splits on which the peer
succeeded, and `splits` counts those splits. A peer that fails on a split gets a row of
`nan` in the per-split file, and the error goes to stderr; the run continues.
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

SPLITS_FORMAT = "auc-splits-1"
PEERS = ("lightgbm", "xgboost", "svc")
# Above this many features the data is kept sparse (CSR) and scaled by max-abs.
DENSE_MAX_FEATURES = 1000
# Density from which our tool's `--scale auto` picks min-max (AUTO_MIN_MAX_DENSITY in auc-data).
AUTO_MIN_MAX_DENSITY = 0.10


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Fit LightGBM, XGBoost and RBF SVC at library defaults on the splits "
        "written by `auc cv --save-splits` and report per-split AUC, AP and fit time."
    )
    p.add_argument("--splits", nargs="+", required=True, metavar="SPLITS_JSON",
                   help="one or more splits files (format auc-splits-1)")
    p.add_argument("--peers", default=",".join(PEERS),
                   help="comma-separated peers out of lightgbm,xgboost,svc (default: all)")
    p.add_argument("--threads", type=int, default=2,
                   help="threads for every peer and for the BLAS/OpenMP pools (default 2)")
    p.add_argument("--out", required=True, help="per-split results TSV")
    p.add_argument("--summary", default=None,
                   help="per dataset x peer summary TSV (default: <out stem>_summary.tsv)")
    p.add_argument("--scale", choices=("minmax", "auto", "maxabs", "none"), default="minmax",
                   help="per-split scaling fitted on the training part (default minmax)")
    p.add_argument("--svc-max-rows", type=int, default=20000,
                   help="skip the SVC on a dataset whose training parts exceed this many rows "
                   "(default 20000; its fit time grows quadratically)")
    p.add_argument("--max-fpr", type=float, default=None, metavar="B",
                   help="also report the partial AUC up to FPR B (scikit-learn's "
                   "roc_auc_score(max_fpr=B), McClish-standardized, as `auc cv --max-fpr`): "
                   "a pauc column per split and mean_pauc / std_pauc in the summary")
    p.add_argument("--name", action="append", default=[], metavar="KEY=NAME",
                   help="dataset name to report for a splits file; KEY is the splits file's "
                   "path or stem. Without it the name is the first data file's basename "
                   "without its extension. Repeatable.")
    args = p.parse_args(argv)
    args.peers = [s.strip() for s in args.peers.split(",") if s.strip()]
    unknown = [s for s in args.peers if s not in PEERS]
    if unknown or not args.peers:
        p.error(f"unknown or empty --peers {unknown}; choose from {','.join(PEERS)}")
    if args.threads < 1:
        p.error("--threads must be at least 1")
    names = {}
    for item in args.name:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            p.error(f"--name wants KEY=NAME, got {item!r}")
        names[key] = value
    args.name = names
    if args.summary is None:
        out = Path(args.out)
        args.summary = str(out.with_name(out.stem + "_summary" + (out.suffix or ".tsv")))
    return args


def limit_threads(threads):
    """Caps the OpenMP and BLAS thread pools. Must run before numpy and the peers are imported,
    since most of these pools read their size once, at load time."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
        os.environ[var] = str(threads)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def dataset_name(splits_path, spec, names):
    """The name a splits file's results are reported under (see --name)."""
    path = Path(splits_path)
    # The path as given, the file name, its stem ("heart.splits" for heart.splits.json) and
    # the name up to its first dot ("heart").
    for key in (splits_path, str(path), path.name, path.stem, path.name.split(".", 1)[0]):
        if key in names:
            return names[key]
    first = Path(spec["data"][0]).name
    return first.rsplit(".", 1)[0] if "." in first else first


def load_dataset(spec, splits_path):
    """Reads the splits file's LIBSVM files in order, concatenated, with one feature count
    (the largest over the files; indices are 1-based). Returns (X as CSR, y in {0, 1})."""
    import numpy as np
    import scipy.sparse as sp
    from sklearn.datasets import load_svmlight_files

    base = Path(splits_path).parent
    files = []
    for f in spec["data"]:
        # Relative data paths are taken relative to the splits file.
        fp = Path(f)
        files.append(str(fp if fp.is_absolute() or fp.exists() else base / fp))
    # load_svmlight_files gives every file the same n_features, the largest over them.
    loaded = load_svmlight_files(files, zero_based=False, dtype=np.float64)
    xs, ys = loaded[0::2], loaded[1::2]
    X = sp.vstack(xs, format="csr") if len(xs) > 1 else xs[0].tocsr()
    labels = np.concatenate(ys).astype(np.float64)
    # `auc cv --limit N` keeps the first N rows of the files (the splits file says so).
    limit = spec.get("limit")
    if limit is not None:
        X, labels = X[: int(limit)], labels[: int(limit)]
    positive = np.asarray(spec["positive_labels"], dtype=np.float64)
    y = np.isin(labels, positive).astype(np.int64)
    return X, y


def check_splits(spec, n_rows, splits_path):
    """Rejects a splits file that does not match the data it names."""
    import numpy as np

    if spec.get("format") != SPLITS_FORMAT:
        raise ValueError(f"{splits_path}: format {spec.get('format')!r}, expected {SPLITS_FORMAT!r}")
    if int(spec["rows"]) != n_rows:
        raise ValueError(f"{splits_path}: says {spec['rows']} rows, its data files hold {n_rows}")
    if not spec["splits"]:
        raise ValueError(f"{splits_path}: no splits")
    for s in spec["splits"]:
        test = np.asarray(s["test"], dtype=np.int64)
        where = f"{splits_path}: repeat {s['repeat']} fold {s['fold']}"
        if test.size == 0 or test.size >= n_rows:
            raise ValueError(f"{where}: test part of {test.size} rows out of {n_rows}")
        if test.min() < 0 or test.max() >= n_rows:
            raise ValueError(f"{where}: test row out of range 0..{n_rows - 1}")
        if np.unique(test).size != test.size:
            raise ValueError(f"{where}: repeated test rows")


def densify(X):
    """The form the peers see: a dense array up to DENSE_MAX_FEATURES features, else CSR."""
    return X.toarray() if X.shape[1] <= DENSE_MAX_FEATURES else X


def fit_scaler(kind, X_train):
    """Fits the scaling `kind` on the training part; returns a function applied to any part."""
    import numpy as np
    import scipy.sparse as sp
    from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler

    if kind == "none":
        return lambda X: X
    if kind == "auto":
        nnz = X_train.nnz if sp.issparse(X_train) else np.count_nonzero(X_train)
        density = nnz / max(1, X_train.shape[0] * X_train.shape[1])
        kind = "minmax" if density >= AUTO_MIN_MAX_DENSITY else "maxabs"
        if kind == "minmax" and sp.issparse(X_train):
            # Min-max moves zeros, so the data becomes dense, as in our tool.
            dense = fit_scaler("minmax", X_train.toarray())
            return lambda X: dense(X.toarray() if sp.issparse(X) else X)
    if kind == "minmax" and sp.issparse(X_train):
        # Too many features to densify: keep the data sparse.
        kind = "maxabs"
    if kind == "maxabs":
        # x / max|x| per feature; an all-zero feature stays 0, zeros stay zeros.
        scaler = MaxAbsScaler().fit(X_train)
        return scaler.transform
    scaler = MinMaxScaler(feature_range=(-1.0, 1.0)).fit(X_train)
    # MinMaxScaler maps a feature constant on the training part to -1 (it treats a zero
    # range as 1); our tool maps it to 0, for training and test values alike.
    constant = scaler.data_range_ == 0
    scaler.scale_[constant] = 0.0
    scaler.min_[constant] = 0.0
    return scaler.transform


def make_peer(name, threads):
    """A fresh, unfitted peer at library defaults, and how to score its test part."""
    if name == "lightgbm":
        import lightgbm

        model = lightgbm.LGBMClassifier(n_jobs=threads, verbose=-1)
        return model, lambda m, X: m.predict_proba(X)[:, 1]
    if name == "xgboost":
        import xgboost

        model = xgboost.XGBClassifier(n_jobs=threads, verbosity=0)
        return model, lambda m, X: m.predict_proba(X)[:, 1]
    if name == "svc":
        from sklearn.svm import SVC

        # SVC has no thread option; libsvm runs on one thread.
        model = SVC(kernel="rbf")
        return model, lambda m, X: m.decision_function(X)
    raise ValueError(name)


def run_split(peer, threads, scale, X, y, test_idx, max_fpr=None):
    """Fits one peer on one split. Returns (auc, ap, fit_seconds, pauc), pauc None without
    max_fpr."""
    import numpy as np
    from sklearn.metrics import average_precision_score, roc_auc_score

    is_test = np.zeros(X.shape[0], dtype=bool)
    is_test[test_idx] = True
    train_idx = np.flatnonzero(~is_test)
    test_idx = np.flatnonzero(is_test)  # sorted order; the metrics do not depend on it
    X_train, X_test = X[train_idx], X[test_idx]
    y_train, y_test = y[train_idx], y[test_idx]
    # Both metrics are undefined without both classes (scikit-learn would warn and give nan
    # or a meaningless AP), so such a split counts as a failure of every peer.
    for part, labels in (("training", y_train), ("test", y_test)):
        if np.unique(labels).size < 2:
            raise ValueError(f"the {part} part has only one class")
    transform = fit_scaler(scale, X_train)
    X_train, X_test = transform(X_train), transform(X_test)

    model, score = make_peer(peer, threads)
    start = time.perf_counter()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    s = np.asarray(score(model, X_test), dtype=np.float64)
    if not np.all(np.isfinite(s)):
        raise ValueError("non-finite test scores")
    pauc = None if max_fpr is None else roc_auc_score(y_test, s, max_fpr=max_fpr)
    return roc_auc_score(y_test, s), average_precision_score(y_test, s), fit_seconds, pauc


def warm_up(peer, threads):
    """Fits the peer once on a tiny random problem, untimed, so that one-time costs (lazy
    imports, starting the OpenMP thread pool) do not land in the first split's fit time."""
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.uniform(-1.0, 1.0, size=(200, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=200) > 0).astype(np.int64)
    model, score = make_peer(peer, threads)
    model.fit(X, y)
    score(model, X)


def mean_std(values):
    """Mean and sample standard deviation (std 0 for one value, both nan for none), as
    `auc cv` summarizes its runs."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def fmt(v):
    return "nan" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.6f}"


def main(argv=None):
    args = parse_args(argv)
    limit_threads(args.threads)
    import numpy as np  # noqa: F401  (imported after the thread limits are in place)

    out = open(args.out, "w", encoding="utf-8")
    with_pauc = args.max_fpr is not None
    out.write("dataset\tpeer\trepeat\tfold\tauc\tap\tfit_seconds"
              + ("\tpauc" if with_pauc else "") + "\n")
    out.flush()
    summary_rows = []
    failures = 0

    for splits_path in args.splits:
        with open(splits_path, encoding="utf-8") as fh:
            spec = json.load(fh)
        name = dataset_name(splits_path, spec, args.name)
        start = time.perf_counter()
        X, y = load_dataset(spec, splits_path)
        check_splits(spec, X.shape[0], splits_path)
        X = densify(X)
        log(f"{name}: {X.shape[0]} rows x {X.shape[1]} features, {int(y.sum())} positive, "
            f"{len(spec['splits'])} splits, loaded in {time.perf_counter() - start:.2f} s")

        for peer in args.peers:
            if peer == "svc":
                largest_train = max(X.shape[0] - len(s["test"]) for s in spec["splits"])
                if largest_train > args.svc_max_rows:
                    log(f"{name}\tsvc\tskipped: training parts of up to {largest_train} rows "
                        f"exceed --svc-max-rows {args.svc_max_rows}")
                    continue
            try:
                warm_up(peer, args.threads)
            except Exception as e:  # the splits below will report the failure per split
                log(f"{name}\t{peer}\twarm-up failed: {type(e).__name__}: {e}")
            aucs, aps, fits, paucs = [], [], [], []
            for s in spec["splits"]:
                try:
                    auc, ap, fit_seconds, pauc = run_split(
                        peer, args.threads, args.scale, X, y,
                        np.asarray(s["test"], dtype=np.int64), args.max_fpr)
                except Exception as e:  # a failing peer must not stop the comparison
                    failures += 1
                    log(f"{name}\t{peer}\trepeat {s['repeat']} fold {s['fold']}: failed: "
                        f"{type(e).__name__}: {e}")
                    auc = ap = fit_seconds = pauc = math.nan
                else:
                    aucs.append(auc)
                    aps.append(ap)
                    fits.append(fit_seconds)
                    if with_pauc:
                        paucs.append(pauc)
                out.write(f"{name}\t{peer}\t{s['repeat']}\t{s['fold']}\t{fmt(auc)}\t{fmt(ap)}\t"
                          f"{fmt(fit_seconds)}" + (f"\t{fmt(pauc)}" if with_pauc else "") + "\n")
                out.flush()
            m_auc, s_auc = mean_std(aucs)
            m_ap, s_ap = mean_std(aps)
            m_fit, _ = mean_std(fits)
            m_pauc, s_pauc = mean_std(paucs)
            summary_rows.append((name, peer, m_auc, s_auc, m_ap, s_ap, m_fit, len(aucs),
                                 m_pauc, s_pauc))
            failed = len(spec["splits"]) - len(aucs)
            log(f"{name}\t{peer}\tAUC {m_auc:.4f} +- {s_auc:.4f}\tAP {m_ap:.4f} +- {s_ap:.4f}\t"
                f"fit {m_fit:.4f} s\t{len(aucs)} splits" + (f" ({failed} failed)" if failed else ""))
    out.close()

    with open(args.summary, "w", encoding="utf-8") as fh:
        fh.write("dataset\tpeer\tmean_auc\tstd_auc\tmean_ap\tstd_ap\tmean_fit_seconds\tsplits"
                 + ("\tmean_pauc\tstd_pauc" if with_pauc else "") + "\n")
        for name, peer, m_auc, s_auc, m_ap, s_ap, m_fit, n, m_pauc, s_pauc in summary_rows:
            fh.write(f"{name}\t{peer}\t{fmt(m_auc)}\t{fmt(s_auc)}\t{fmt(m_ap)}\t{fmt(s_ap)}\t"
                     f"{fmt(m_fit)}\t{n}"
                     + (f"\t{fmt(m_pauc)}\t{fmt(s_pauc)}" if with_pauc else "") + "\n")
    log(f"wrote {args.out} and {args.summary}" + (f"; {failures} failed fits" if failures else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
