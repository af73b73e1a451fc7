#!/usr/bin/env python3
"""Write a generated nonlinear binary dataset in LIBSVM format, streaming.

Rows are generated and written in numpy chunks (default 100,000 rows), so memory stays
bounded whatever --rows is. Every row is dense: features 1..p, each uniform on [-1, 1].

The decision rule is a fixed random function of the first few features,

    f(x) = sum_k a_k sin(w_k x[i_k] + phi_k)       (4 sinusoids)
         + sum_k b_k x[j_k] x[l_k]                 (3 pairwise products)
         + c (x[m]^2 - 1/3)                         (one centred square)
         + noise,   noise ~ N(0, (noise_ratio * sd of the noise-free part)^2),

and a row is positive (+1) when f(x) exceeds the (1 - positive_rate) quantile of f, else -1.
The remaining features carry no signal. The rule, its noise level and its threshold depend
only on --rule-seed (the threshold is the quantile of f over a 200,000-row pilot sample
drawn from the rule's own random stream), while the rows depend only on --seed. So files
written with the same --rule-seed and different --seed values are independent samples of
one problem, e.g. a training and a test file:

    python gen_nonlinear_stream.py --rows 100000 --features 20 --seed 1 --out train.libsvm
    python gen_nonlinear_stream.py --rows 100000 --features 20 --seed 2 --out test.libsvm

The positive share is about --positive-rate (0.10 by default), up to sampling error.
"""

import argparse
import sys

import numpy as np

PILOT_ROWS = 200_000
N_SINES, N_PRODUCTS = 4, 3


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, required=True, help="number of rows to write")
    p.add_argument("--features", type=int, default=20, help="features per row (default 20, at least 8)")
    p.add_argument("--seed", type=int, default=0, help="seed of the rows (default 0)")
    p.add_argument("--rule-seed", type=int, default=0,
                   help="seed of the decision rule, shared by train and test files (default 0)")
    p.add_argument("--positive-rate", type=float, default=0.10,
                   help="share of positive rows (default 0.10)")
    p.add_argument("--noise-ratio", type=float, default=0.3,
                   help="label noise sd relative to the sd of the noise-free score (default 0.3)")
    p.add_argument("--chunk-rows", type=int, default=100_000, help="rows per chunk (default 100000)")
    p.add_argument("--out", required=True, help="output LIBSVM file")
    args = p.parse_args(argv)
    if args.rows < 1 or args.chunk_rows < 1:
        p.error("--rows and --chunk-rows must be positive")
    if args.features < 8:
        p.error("--features must be at least 8 (the rule uses 8 distinct features)")
    if not 0.0 < args.positive_rate < 1.0:
        p.error("--positive-rate must be in (0, 1)")
    return args


class Rule:
    """The random nonlinear score f and its threshold, drawn from the rule's own stream."""

    def __init__(self, features, rule_seed, positive_rate, noise_ratio):
        # Two independent child streams of the rule seed: the rule's parameters and its pilot.
        params_ss, pilot_ss = np.random.SeedSequence([rule_seed, 0xA0C]).spawn(2)
        rng = np.random.default_rng(params_ss)
        # Eight distinct informative features: 4 for sines, 3 pairs overlap them, 1 squared.
        idx = rng.choice(features, size=8, replace=False)
        self.sine_feat = idx[:N_SINES]
        self.sine_amp = rng.uniform(0.5, 1.5, N_SINES)
        self.sine_freq = rng.uniform(2.0, 6.0, N_SINES)
        self.sine_phase = rng.uniform(0.0, 2.0 * np.pi, N_SINES)
        # Products pair each of features 4..6 of idx with one of the sine features.
        self.prod_left = idx[N_SINES:N_SINES + N_PRODUCTS]
        self.prod_right = idx[rng.choice(N_SINES, size=N_PRODUCTS, replace=False)]
        self.prod_coef = rng.choice([-1.0, 1.0], N_PRODUCTS) * rng.uniform(1.0, 2.0, N_PRODUCTS)
        self.square_feat = idx[7]
        self.square_coef = rng.uniform(1.0, 2.0)
        self.features = features

        # Pilot sample: sets the noise level and the threshold once, for every file of this rule.
        pilot = np.random.default_rng(pilot_ss)
        x = pilot.uniform(-1.0, 1.0, size=(PILOT_ROWS, features))
        clean = self.clean_score(x)
        self.noise_sd = noise_ratio * float(clean.std())
        scores = clean + pilot.normal(0.0, self.noise_sd, PILOT_ROWS)
        self.threshold = float(np.quantile(scores, 1.0 - positive_rate))

    def clean_score(self, x):
        """The noise-free score of each row of x."""
        s = np.zeros(x.shape[0])
        for k in range(N_SINES):
            s += self.sine_amp[k] * np.sin(self.sine_freq[k] * x[:, self.sine_feat[k]] + self.sine_phase[k])
        for k in range(N_PRODUCTS):
            s += self.prod_coef[k] * x[:, self.prod_left[k]] * x[:, self.prod_right[k]]
        # E[x^2] = 1/3 for x uniform on [-1, 1]: centring keeps the score's mean near 0.
        s += self.square_coef * (x[:, self.square_feat] ** 2 - 1.0 / 3.0)
        return s


def main(argv=None):
    args = parse_args(argv)
    rule = Rule(args.features, args.rule_seed, args.positive_rate, args.noise_ratio)
    rows_rng = np.random.default_rng(np.random.SeedSequence([args.seed, 0xDA7A]))
    # One printf-style format for a whole row: label, then "j:value" for j = 1..p.
    row_fmt = "%d " + " ".join(f"{j}:%.6g" for j in range(1, args.features + 1))

    positives = 0
    written = 0
    with open(args.out, "w", encoding="ascii") as fh:
        while written < args.rows:
            n = min(args.chunk_rows, args.rows - written)
            x = rows_rng.uniform(-1.0, 1.0, size=(n, args.features))
            score = rule.clean_score(x) + rows_rng.normal(0.0, rule.noise_sd, n)
            label = np.where(score > rule.threshold, 1.0, -1.0)
            positives += int((label > 0).sum())
            # Label first, features after: savetxt applies row_fmt to each row of the chunk.
            np.savetxt(fh, np.column_stack([label, x]), fmt=row_fmt)
            written += n
    print(f"wrote {written} rows x {args.features} features to {args.out}: "
          f"{positives} positive ({positives / written:.2%})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
