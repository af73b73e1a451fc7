#!/usr/bin/env python3
"""Writes a wide sparse click-log-like LIBSVM file for the O(nnz) throughput figures of
docs/results/performance.md ("O(nnz) steps").

Each row has one active feature in each of F fields (value 1, as one-hot hashed categorical
fields); field k owns the indices k*P/F+1 .. (k+1)*P/F, and its popular values are drawn more
often (slot = floor(S * u^3)), so indices increase within a row. Every feature has a fixed hidden
effect in (-1, 1) from a multiplicative hash; a row is positive with probability
sigmoid(-4 + sum of its effects), about 10 % positives. Standard library only, seeded, so the same
command gives the same bytes.

    python3 benches/gen_wide_sparse.py OUT.libsvm [--rows 1000000] [--p 1048576] [--fields 20] [--seed 1]

The file is not committed (about 180 MB at the defaults); delete it after measuring.
"""

import argparse
import math
import random
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--p", type=int, default=1 << 20, help="features")
    ap.add_argument("--fields", type=int, default=20, help="non-zeros per row")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    slots = a.p // a.fields
    bases = [k * slots + 1 for k in range(a.fields)]

    def effect(j: int) -> float:
        return ((j * 2654435761) % 4096) / 2048.0 - 1.0

    positives = 0
    with open(a.out, "w", buffering=1 << 20) as f:
        for start in range(0, a.rows, 1000):
            lines = []
            for _ in range(min(1000, a.rows - start)):
                idx = [b + int(slots * rng.random() ** 3) for b in bases]
                z = -4.0 + sum(effect(j) for j in idx)
                y = rng.random() < 1.0 / (1.0 + math.exp(-z))
                positives += y
                lines.append(("+1" if y else "-1") + "".join(" %d:1" % j for j in idx))
            f.write("\n".join(lines) + "\n")
    print(f"{a.out}: {a.rows} rows, {a.p} features, {positives} positives", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
