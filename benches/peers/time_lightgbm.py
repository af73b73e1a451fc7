#!/usr/bin/env python3
"""Time LightGBM at library defaults on one LIBSVM train/test pair.

    python time_lightgbm.py --train train.libsvm --test test.libsvm --threads 2

Loads both files (1-based indices, one shared feature count), treats label > 0 as positive
(or the labels given by --positive-labels), fits lightgbm.LGBMClassifier(n_jobs=threads,
verbose=-1), scores the test file with predict_proba[:, 1] and prints one JSON object:

    rows          training rows
    fit_seconds   wall time of fit alone (time.perf_counter)
    peak_rss_mb   the process's peak resident set size so far (getrusage ru_maxrss), which
                  includes the Python interpreter, the loaded data and the fit
    auc           ROC AUC on the test file
and, for context, test_rows, features, load_seconds, threads and lightgbm_version.
"""

import argparse
import json
import os
import resource
import sys
import time


def main(argv=None):
    p = argparse.ArgumentParser(description="Time LightGBM at defaults on a train/test pair.")
    p.add_argument("--train", required=True, help="training LIBSVM file")
    p.add_argument("--test", required=True, help="test LIBSVM file")
    p.add_argument("--threads", type=int, default=2, help="LightGBM and OpenMP threads (default 2)")
    p.add_argument("--positive-labels", default=None,
                   help="comma-separated labels counted as positive (default: label > 0)")
    args = p.parse_args(argv)

    # Thread pools read these once, when their libraries load: set them before the imports.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    import lightgbm
    import numpy as np
    from sklearn.datasets import load_svmlight_files
    from sklearn.metrics import roc_auc_score

    start = time.perf_counter()
    X_train, y_train, X_test, y_test = load_svmlight_files(
        [args.train, args.test], zero_based=False, dtype=np.float64)
    load_seconds = time.perf_counter() - start
    if args.positive_labels is None:
        y_train, y_test = (y_train > 0).astype(np.int64), (y_test > 0).astype(np.int64)
    else:
        positive = np.array([float(v) for v in args.positive_labels.split(",")])
        y_train = np.isin(y_train, positive).astype(np.int64)
        y_test = np.isin(y_test, positive).astype(np.int64)

    model = lightgbm.LGBMClassifier(n_jobs=args.threads, verbose=-1)
    start = time.perf_counter()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    auc = roc_auc_score(y_test, model.predict_proba(X_test)[:, 1])

    # On Linux ru_maxrss is in kibibytes.
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({
        "rows": int(X_train.shape[0]),
        "fit_seconds": round(fit_seconds, 4),
        "peak_rss_mb": round(peak_rss_mb, 1),
        "auc": round(float(auc), 6),
        "test_rows": int(X_test.shape[0]),
        "features": int(X_train.shape[1]),
        "load_seconds": round(load_seconds, 4),
        "threads": args.threads,
        "lightgbm_version": lightgbm.__version__,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
