#!/usr/bin/env python3
"""Times scikit-learn's load_svmlight_file and auc-data's LIBSVM reader on the same file.

Usage (from the workspace root):

    cargo build --release -p auc-benches --bin parse_throughput
    python3 benches/compare_sklearn_loader.py [FILE] [--reps N] [--bin PATH]

FILE defaults to ../shared/datasets/a9a.libsvm. Both loaders read the file from disk on every
repetition (the page cache is warm after one warm-up run) and the best repetition counts. Prints a
markdown table of MB/s (1 MB = 10^6 bytes) and the ratio ours / scikit-learn. Python and
scikit-learn are needed only for this comparison, never at run time.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def time_sklearn(path, reps):
    import sklearn
    from sklearn.datasets import load_svmlight_file

    x, y = load_svmlight_file(path)  # warm-up, also gives the shape
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        load_svmlight_file(path)
        times.append(time.perf_counter() - start)
    times.sort()
    return sklearn.__version__, x.shape, times[0], times[len(times) // 2]


def time_ours(binary, path, reps):
    out = subprocess.run([binary, path, str(reps)], check=True, capture_output=True, text=True)
    rec = json.loads(out.stdout.strip().splitlines()[-1])
    return (rec["n"], rec["dim"]), rec["best_s"], rec["median_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=os.path.join(ROOT, "..", "shared", "datasets", "a9a.libsvm"))
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "parse_throughput"))
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: run `cargo build --release -p auc-benches --bin parse_throughput`")
    size_mb = os.path.getsize(args.file) / 1e6
    version, sk_shape, sk_best, sk_median = time_sklearn(args.file, args.reps)
    our_shape, our_best, our_median = time_ours(args.bin, args.file, args.reps)
    if tuple(sk_shape) != tuple(our_shape):
        print(f"note: shapes differ: scikit-learn {sk_shape}, ours {our_shape}")
    name = os.path.basename(args.file)
    print(f"{name}: {size_mb:.2f} MB, {our_shape[0]} x {our_shape[1]}, best of {args.reps} runs "
          f"({platform.processor() or platform.machine()}, Python {platform.python_version()})\n")
    print("| loader | best s | MB/s (best) | MB/s (median) |")
    print("|---|---:|---:|---:|")
    print(f"| scikit-learn {version} `load_svmlight_file` | {sk_best:.4f} | {size_mb / sk_best:.1f} | {size_mb / sk_median:.1f} |")
    print(f"| auc-data `read_path` (release) | {our_best:.4f} | {size_mb / our_best:.1f} | {size_mb / our_median:.1f} |")
    print(f"\nratio (ours / scikit-learn, best): {sk_best / our_best:.1f}x")


if __name__ == "__main__":
    main()
