#!/usr/bin/env python3
"""Writes a large dense LIBSVM file for the streaming measurements of docs/results/performance.md.

Two Gaussian classes (about 1 positive in 10) in P features, means 0.3 apart per feature, values
with 4 decimals, every feature written (dense rows, `j:v` for j = 1..P). Standard library only,
seeded, so the same command gives the same bytes.

    python3 benches/gen_stream_data.py OUT.libsvm [--mb 1024] [--p 100] [--seed 1]

The file is not committed (the size is the point); delete it after measuring.
"""

import argparse
import random
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=1024.0, help="target size in MiB")
    ap.add_argument("--p", type=int, default=100, help="features")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    target = int(a.mb * (1 << 20))
    # A pool of formatted values per class keeps the generator fast; rows draw from it.
    pool = 1 << 16
    pos = ["%.4f" % rng.gauss(0.3, 1.0) for _ in range(pool)]
    neg = ["%.4f" % rng.gauss(0.0, 1.0) for _ in range(pool)]
    prefixes = [" %d:" % (j + 1) for j in range(a.p)]
    written = 0
    rows = 0
    with open(a.out, "w", buffering=1 << 20) as f:
        while written < target:
            lines = []
            for _ in range(1000):
                y = rng.random() < 0.1
                vals = pos if y else neg
                picks = rng.choices(vals, k=a.p)
                lines.append(("+1" if y else "-1") + "".join(p + v for p, v in zip(prefixes, picks)))
            block = "\n".join(lines) + "\n"
            f.write(block)
            written += len(block)
            rows += 1000
    print(f"{a.out}: {rows} rows, {a.p} features, {written} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
