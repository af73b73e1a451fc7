//! Shared inputs of the criterion benchmarks: seeded data generators.

/// Seeded LIBSVM text shaped like a given dataset, for the parser benchmarks (`data_parse.rs`) and
/// `src/bin/parse_throughput.rs`.
///
/// Each line is a label (`+1` with probability 0.24, as in a9a, else `-1`) followed by `nnz`
/// distinct, increasing 1-based indices drawn uniformly from `1..=dim`. Values are `1` (one-hot
/// features, as in a9a) or, with `real_values`, numbers in (-1, 1) with six decimals (as in the
/// scaled UCI files such as heart). Randomness is a SplitMix64 stream from `seed`, so the same
/// parameters give the same text on every machine.
#[derive(Clone, Debug, PartialEq)]
pub struct LibsvmText {
    /// Number of lines (examples).
    pub n: usize,
    /// Number of features; indices run over `1..=dim`.
    pub dim: usize,
    /// Stored features per line, at most `dim`.
    pub nnz: usize,
    /// Six-decimal values in (-1, 1) instead of `1`.
    pub real_values: bool,
    /// Seed of the SplitMix64 stream.
    pub seed: u64,
}

impl LibsvmText {
    /// The shape of a9a: 32561 lines, 123 features, 14 stored values per line (a9a averages 13.9),
    /// all equal to 1; about 2.3 MB of text.
    pub const A9A: LibsvmText = LibsvmText {
        n: 32561,
        dim: 123,
        nnz: 14,
        real_values: false,
        seed: 0x0a9a,
    };

    /// The text, `\n` line ends.
    ///
    /// # Panics
    /// If `nnz > dim`.
    pub fn generate(&self) -> String {
        use std::fmt::Write;
        assert!(
            self.nnz <= self.dim,
            "nnz {} exceeds dim {}",
            self.nnz,
            self.dim
        );
        let mut state = self.seed;
        // SplitMix64 (Steele, Lea and Flood 2014).
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut out = String::with_capacity(self.n * (3 + self.nnz * 6));
        let mut pool: Vec<usize> = (1..=self.dim).collect();
        for _ in 0..self.n {
            let positive = next() % 100 < 24;
            out.push_str(if positive { "+1" } else { "-1" });
            // Partial Fisher-Yates: the first `nnz` entries of `pool` become a random subset.
            for i in 0..self.nnz {
                let j = i + (next() % (self.dim - i) as u64) as usize;
                pool.swap(i, j);
            }
            let chosen = &mut pool[..self.nnz];
            chosen.sort_unstable();
            for &j in chosen.iter() {
                if self.real_values {
                    let v = (next() % 2_000_001) as f64 / 1e6 - 1.0;
                    write!(out, " {j}:{v:.6}").expect("writing to a String cannot fail");
                } else {
                    write!(out, " {j}:1").expect("writing to a String cannot fail");
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Seeded streams and the floor baseline shared by the learner benchmarks.
pub mod streams {
    use auc_core::{Dataset, OnlineLearner, OnlineParams};
    use auc_data::{Positive, ReadOptions, Synthetic, read_libsvm};

    use crate::LibsvmText;

    /// `n` dense examples in `p` features: two Gaussian classes, imbalance 3, 5 % label noise.
    pub fn dense(n: usize, p: usize) -> Dataset {
        Synthetic {
            n,
            p,
            ir: 3.0,
            label_noise: 0.05,
            separation: 2.0,
            sparsity: 0.0,
            seed: 7,
        }
        .generate()
        .expect("valid synthetic parameters")
    }

    /// `n` sparse a9a-like examples (123 features, 14 non-zeros each), parsed as a user would.
    pub fn sparse_a9a_like(n: usize) -> Dataset {
        let text = LibsvmText {
            n,
            ..LibsvmText::A9A
        }
        .generate();
        read_libsvm(text.as_bytes(), "a9a-like", &ReadOptions::default())
            .and_then(|raw| raw.binarize(&Positive::Minority))
            .expect("generated LIBSVM text parses")
    }

    /// `n` wide sparse examples: `nnz` uniformly drawn features of `p` per row, values in
    /// (-1, 1), about 1 positive in 4 ([`LibsvmText`] with `real_values`). The dataset's own
    /// dimension is the largest index drawn; build learners for `p`.
    pub fn wide_sparse(n: usize, p: usize, nnz: usize) -> Dataset {
        let text = LibsvmText {
            n,
            dim: p,
            nnz,
            real_values: true,
            seed: 0x5ba5,
        }
        .generate();
        read_libsvm(text.as_bytes(), "wide", &ReadOptions::default())
            .and_then(|raw| raw.binarize(&Positive::Minority))
            .expect("generated LIBSVM text parses")
    }

    /// [`wide_sparse`]'s rows over `touched` features, each feature $j$ moved to
    /// $j \cdot p / $ `touched` (`touched` divides `p`): the same rows and the same number of
    /// touched features at every `p`, for steps whose cost should not depend on $p$.
    pub fn spread_sparse(n: usize, touched: usize, p: usize, nnz: usize) -> Dataset {
        let scale = p / touched;
        let text = LibsvmText {
            n,
            dim: touched,
            nnz,
            real_values: true,
            seed: 0x5ba5,
        }
        .generate();
        let moved: String = text
            .lines()
            .map(|line| {
                let mut fields = line.split(' ');
                let mut out = fields.next().unwrap_or("").to_owned();
                for f in fields {
                    let (j, v) = f.split_once(':').expect("index:value");
                    let j: usize = j.parse().expect("an index");
                    out.push_str(&format!(" {}:{v}", (j - 1) * scale + 1));
                }
                out + "\n"
            })
            .collect();
        read_libsvm(moved.as_bytes(), "spread", &ReadOptions::default())
            .and_then(|raw| raw.binarize(&Positive::Minority))
            .expect("generated LIBSVM text parses")
    }

    /// A fresh learner (seed 1) after one pass over `data`.
    pub fn stream<P: OnlineParams>(params: &P, data: &Dataset) -> P::Learner {
        let mut l = params.build(data.dim(), 1).expect("valid parameters");
        for (x, y) in data.iter() {
            l.update(x, y);
        }
        l
    }

    /// $\sum_i w^\top x_i$: one read of every example, the floor any linear learner's step pays.
    pub fn dot_only(data: &Dataset, w: &[f64]) -> f64 {
        data.iter().map(|(x, _)| x.dot(w)).sum()
    }
}

/// Seeded inputs of the GAM-CVM optimization-stage benchmark (`cvm_solve.rs`) and of
/// `src/bin/cvm.rs`: Letter-z-shaped problems (16 features, about 1 positive in 26).
pub mod cvm {
    use auc_cvm::fusion::Gram;
    use auc_cvm::kernels::{Gaussian, Points, SubKernel};

    /// Pair counts of the scaling study, $10^4$ to $10^7$, and Letter-z's own.
    pub const PAIRS: &[usize] = &[10_000, 100_000, 1_000_000, 10_000_000];

    /// Letter-z's class sizes in our file (734 positives, 19,266 negatives).
    pub const LETTER_Z: (usize, usize) = (734, 19_266);

    /// Class sizes with about `pairs` pairs at Letter-z's imbalance (1 : 26.2).
    pub fn sizes(pairs: usize) -> (usize, usize) {
        let pos = ((pairs as f64 / 26.25).sqrt().round() as usize).max(1);
        (pos, pairs.div_ceil(pos))
    }

    /// A Gaussian kernel (median-std bandwidth) on `n_pos + n_neg` points in 16-d, positives
    /// shifted by 0.6 on every feature; SplitMix64 stream from `seed`. Positives come first.
    pub fn problem(n_pos: usize, n_neg: usize, seed: u64) -> (Gram, Vec<usize>, Vec<usize>) {
        let n = n_pos + n_neg;
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        };
        let x: Vec<f64> = (0..n * 16)
            .map(|e| 2.0 * next() - 1.0 + if e / 16 < n_pos { 0.6 } else { 0.0 })
            .collect();
        let pts = Points::from_dense(16, x);
        let k = Gaussian::median_std(&pts);
        let g = Gram::from_fn(n, |i, j| k.value(&pts, i, &pts, j));
        (g, (0..n_pos).collect(), (n_pos..n).collect())
    }
}
