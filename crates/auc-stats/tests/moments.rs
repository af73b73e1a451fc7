//! Public-API tests of the moments: each compares the incremental result with an independent
//! computation (two-pass moments, a dense matrix product, a Jacobi eigenvalue routine).

use std::panic::{AssertUnwindSafe, catch_unwind};

use auc_core::testing::tol;
use auc_core::{Label, Row, SparseVec};
use auc_stats::{ClassMoments, Moments};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` seeded rows of `p` features: each value is 0 with probability `zero_frac`, otherwise
/// `offset + s_j u` with `u` uniform in (-1, 1) and a per-feature spread `s_j` in [0.1, 2).
fn rows(seed: u64, n: usize, p: usize, offset: f64, zero_frac: f64) -> Vec<Vec<f64>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let spread: Vec<f64> = (0..p).map(|_| rng.random_range(0.1..2.0)).collect();
    (0..n)
        .map(|_| {
            spread
                .iter()
                .map(|s| {
                    if rng.random::<f64>() < zero_frac {
                        0.0
                    } else {
                        offset + s * rng.random_range(-1.0..1.0)
                    }
                })
                .collect()
        })
        .collect()
}

/// The non-zero entries of a dense row.
fn sparse(row: &[f64]) -> SparseVec {
    SparseVec::from_pairs(
        row.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(j, &v)| (j as u32, v)),
    )
    .expect("indices increase and values are finite")
}

/// Moments of `rows` fed one at a time, as dense or as sparse rows.
fn stream(p: usize, rows: &[Vec<f64>], as_sparse: bool) -> ClassMoments {
    let mut m = ClassMoments::new(p);
    for r in rows {
        if as_sparse {
            m.update(Row::Sparse(sparse(r).view()));
        } else {
            m.update(Row::Dense(r));
        }
    }
    m
}

/// Two-pass reference: the mean, then the sum of outer products of deviations divided by n
/// (population covariance), full p x p row-major. Zero for n = 0.
fn two_pass(p: usize, rows: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let n = rows.len();
    let mut mean = vec![0.0; p];
    let mut cov = vec![0.0; p * p];
    if n == 0 {
        return (mean, cov);
    }
    for r in rows {
        for j in 0..p {
            mean[j] += r[j];
        }
    }
    mean.iter_mut().for_each(|m| *m /= n as f64);
    for r in rows {
        for i in 0..p {
            for j in 0..p {
                cov[i * p + j] += (r[i] - mean[i]) * (r[j] - mean[j]);
            }
        }
    }
    cov.iter_mut().for_each(|c| *c /= n as f64);
    (mean, cov)
}

/// `|a - b| <= ABS + REL * scale` with the workspace's tolerances; for a covariance entry the
/// scale is $\sqrt{\Sigma_{ii}\Sigma_{jj}}$ of the reference (the size Cauchy-Schwarz allows), so
/// near-zero off-diagonal entries are judged against the spread of their features.
fn close_scaled(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= tol::ABS + tol::REL * scale.max(a.abs()).max(b.abs())
}

/// How strictly covariances are compared.
#[derive(Clone, Copy)]
enum Tol {
    /// 1e-9 relative to $\sqrt{\Sigma_{ii}\Sigma_{jj}}$ only: for streams long enough that the
    /// sample spread is not tiny (the deterministic tests).
    Strict,
    /// Also allows the error any algorithm makes from rounding deviations of values as large as
    /// `mag`: each deviation is off by up to a few ulps of `mag`, so an entry may move by about
    /// $4 u \cdot mag \cdot (sd_i + sd_j)$. This matters only for a few rows at an offset of 1e6
    /// whose sample spread happens to be tiny (a badly conditioned variance), which random
    /// property inputs hit.
    Conditioned { mag: f64 },
}

impl Tol {
    fn cov_ok(self, a: f64, b: f64, var_i: f64, var_j: f64) -> bool {
        let floor = match self {
            Tol::Strict => 0.0,
            Tol::Conditioned { mag } => 4.0 * f64::EPSILON * mag * (var_i.sqrt() + var_j.sqrt()),
        };
        (a - b).abs()
            <= floor + tol::ABS + tol::REL * (var_i * var_j).sqrt().max(a.abs()).max(b.abs())
    }

    /// The tolerance for moments of `rows`.
    fn for_rows(rows: &[Vec<f64>]) -> Tol {
        let mag = rows.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
        Tol::Conditioned { mag }
    }
}

/// Asserts that `m` holds the count, mean and covariance of `rows` to 1e-9 relative.
fn assert_matches_two_pass(m: &ClassMoments, rows: &[Vec<f64>], tol_cov: Tol) {
    let p = m.dim();
    let (mean, cov) = two_pass(p, rows);
    assert_eq!(m.count(), rows.len() as u64);
    for (j, (&ours, &reference)) in m.mean().iter().zip(&mean).enumerate() {
        assert!(
            tol::close(ours, reference),
            "mean[{j}]: incremental {ours} two-pass {reference}"
        );
    }
    for i in 0..p {
        for j in 0..p {
            assert!(
                tol_cov.cov_ok(m.cov(i, j), cov[i * p + j], cov[i * p + i], cov[j * p + j]),
                "cov[{i}][{j}]: incremental {} two-pass {}",
                m.cov(i, j),
                cov[i * p + j]
            );
        }
    }
}

/// Asserts that two moment sets agree to rounding (counts exactly).
fn assert_moments_close(a: &ClassMoments, b: &ClassMoments, tol_cov: Tol) {
    let p = a.dim();
    assert_eq!(a.count(), b.count());
    for j in 0..p {
        assert!(
            tol::close(a.mean()[j], b.mean()[j]),
            "mean[{j}]: {a:?} vs {b:?}"
        );
    }
    for i in 0..p {
        for j in i..p {
            assert!(
                tol_cov.cov_ok(a.cov(i, j), b.cov(i, j), b.cov(i, i), b.cov(j, j)),
                "cov[{i}][{j}]: {} vs {}",
                a.cov(i, j),
                b.cov(i, j)
            );
        }
    }
}

#[test]
fn incremental_matches_two_pass() {
    let data = rows(1, 2000, 7, 0.0, 0.6);
    let dense = stream(7, &data, false);
    assert_matches_two_pass(&dense, &data, Tol::Strict);
    assert_eq!(
        dense,
        stream(7, &data, true),
        "sparse rows give other moments"
    );
}

/// The failure the Deviation paragraph of the crate docs prevents: at an offset of 1e6 the
/// Welford form still matches the two-pass moments to 1e-9 relative.
#[test]
fn large_offset_matches_two_pass() {
    let data = rows(2, 5000, 5, 1e6, 0.0);
    let dense = stream(5, &data, false);
    assert_matches_two_pass(&dense, &data, Tol::Strict);
    assert_eq!(
        dense,
        stream(5, &data, true),
        "sparse rows give other moments"
    );
    // A negative offset and a mix of offsets per feature behave the same.
    let mixed: Vec<Vec<f64>> = rows(3, 3000, 4, 0.0, 0.0)
        .into_iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(j, v)| v + [-1e6, 0.0, 3e5, 1e6][j])
                .collect()
        })
        .collect();
    assert_matches_two_pass(&stream(4, &mixed, false), &mixed, Tol::Strict);
}

/// [OAUC eq. 16] evaluated as printed, on a full p x p matrix.
fn eq16_as_printed(p: usize, rows: &[Vec<f64>]) -> Vec<f64> {
    let mut mean = vec![0.0; p];
    let mut sigma = vec![0.0; p * p];
    for (t, x) in rows.iter().enumerate() {
        let n = (t + 1) as f64;
        let old = mean.clone();
        for j in 0..p {
            mean[j] = old[j] + (x[j] - old[j]) / n; // [OAUC eq. 15]
        }
        for i in 0..p {
            for j in 0..p {
                let k = i * p + j;
                sigma[k] = sigma[k] + old[i] * old[j] - mean[i] * mean[j]
                    + (x[i] * x[j] - sigma[k] - old[i] * old[j]) / n;
            }
        }
    }
    sigma
}

/// The printed eq. 16 drifts far from the two-pass covariance at an offset of 1e6, on the data
/// where `large_offset_matches_two_pass` shows the Welford form within 1e-9.
#[test]
fn eq16_as_printed_loses_precision_at_large_offset() {
    let p = 5;
    let data = rows(2, 5000, p, 1e6, 0.0);
    let (_, cov) = two_pass(p, &data);
    let printed = eq16_as_printed(p, &data);
    let ours = stream(p, &data, false);
    let rel = |i: usize, j: usize, v: f64| {
        (v - cov[i * p + j]).abs() / (cov[i * p + i] * cov[j * p + j]).sqrt()
    };
    let worst_printed = (0..p)
        .flat_map(|i| (0..p).map(move |j| (i, j)))
        .map(|(i, j)| rel(i, j, printed[i * p + j]))
        .fold(0.0, f64::max);
    let worst_ours = (0..p)
        .flat_map(|i| (0..p).map(move |j| (i, j)))
        .map(|(i, j)| rel(i, j, ours.cov(i, j)))
        .fold(0.0, f64::max);
    assert!(
        worst_ours < 1e-9,
        "Welford form: relative error {worst_ours}"
    );
    assert!(
        worst_printed > 1e-4,
        "printed eq. 16: relative error only {worst_printed}"
    );
}

#[test]
fn eigenvalues_of_known_matrices() {
    // [[2, 1], [1, 2]] has eigenvalues 1 and 3; diag(5, -1, 0) its diagonal (nondecreasing).
    let ev = auc_core::testing::symmetric_eigenvalues(2, vec![2.0, 1.0, 1.0, 2.0]);
    assert!(tol::close(ev[0], 1.0) && tol::close(ev[1], 3.0), "{ev:?}");
    let ev = auc_core::testing::symmetric_eigenvalues(
        3,
        vec![5.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0],
    );
    assert!(
        tol::close(ev[0], -1.0) && ev[1].abs() < tol::ABS && tol::close(ev[2], 5.0),
        "{ev:?}"
    );
}

/// Rounding never drives the covariance indefinite: over 10^6 updates of rank-deficient data
/// (six features spanned by two factors, so four eigenvalues are exactly 0) with an offset, the
/// smallest eigenvalue stays above -1e-12 trace. Checked every 10^5 updates.
#[test]
fn covariance_stays_psd_over_a_million_updates() {
    let p = 6;
    let mut rng = StdRng::seed_from_u64(4);
    let loadings: Vec<[f64; 2]> = (0..p)
        .map(|_| [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)])
        .collect();
    let offset: Vec<f64> = (0..p).map(|j| 10.0 * j as f64 - 20.0).collect();
    let mut m = ClassMoments::new(p);
    let mut x = vec![0.0; p];
    for t in 1..=1_000_000u32 {
        let z = [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)];
        for j in 0..p {
            x[j] = offset[j] + loadings[j][0] * z[0] + loadings[j][1] * z[1];
        }
        m.update(Row::Dense(&x));
        if t % 100_000 == 0 {
            let trace: f64 = (0..p).map(|i| m.cov(i, i)).sum();
            let smallest = auc_core::testing::symmetric_eigenvalues(p, m.cov_dense())
                .into_iter()
                .fold(f64::INFINITY, f64::min);
            assert!(
                smallest >= -1e-12 * trace,
                "after {t} updates: smallest eigenvalue {smallest}, trace {trace}"
            );
        }
    }
}

#[test]
fn moments_route_examples_by_label() {
    let mut m = Moments::new(2);
    m.update(Row::Dense(&[1.0, 0.0]), Label::Pos);
    m.update(Row::Dense(&[3.0, 0.0]), Label::Pos);
    m.update(Row::Dense(&[0.0, 5.0]), Label::Neg);
    assert_eq!(m.dim(), 2);
    assert_eq!(m.class(Label::Pos).count(), 2);
    assert_eq!(m.opposite(Label::Neg).count(), 2);
    assert_eq!(m.opposite(Label::Pos).count(), 1);
    assert_eq!(m.class(Label::Pos).mean(), &[2.0, 0.0]);
    assert_eq!(m.class(Label::Neg).mean(), &[0.0, 5.0]);
    m.class_mut(Label::Neg).update(Row::Dense(&[0.0, 7.0]));
    assert_eq!(m.neg.count(), 2);
}

/// Growing the dimension when a stream meets a new feature gives the moments, bit for bit, of a
/// run that knew the dimension from the start: the earlier rows were zero at the new features,
/// so their mean and co-moments are zero, and the Welford update works entry by entry (no sum
/// whose grouping depends on $p$). Checked for dense and sparse rows, growing at several points
/// and by several steps, against the two-pass reference too.
#[test]
fn growing_the_dimension_equals_knowing_it_from_the_start() {
    let p = 11;
    let mut data = rows(7, 300, p, 0.5, 0.3);
    // Feature j first appears at row 20 j (and is 0 before), so the stream's dimension grows.
    for (i, r) in data.iter_mut().enumerate() {
        for (j, v) in r.iter_mut().enumerate() {
            if i < 20 * j {
                *v = 0.0;
            }
        }
    }
    for as_sparse in [false, true] {
        let known = stream(p, &data, as_sparse);
        let mut grown = ClassMoments::new(1);
        for (i, r) in data.iter().enumerate() {
            // The dimension seen so far: the last feature that has appeared.
            let dim = (i / 20 + 1).min(p);
            if dim > grown.dim() {
                grown.grow(dim);
            }
            if as_sparse {
                grown.update(Row::Sparse(sparse(r).view()));
            } else {
                grown.update(Row::Dense(&r[..dim]));
            }
        }
        assert_eq!(grown.dim(), p);
        assert_eq!(
            grown.to_bytes(),
            known.to_bytes(),
            "sparse rows: {as_sparse}"
        );
        assert_matches_two_pass(&grown, &data, Tol::Strict);
    }
    // Growing to a smaller or equal dimension changes nothing; a pair grows both classes.
    let mut m = Moments::new(2);
    m.update(Row::Dense(&[1.0, 2.0]), Label::Pos);
    m.update(Row::Dense(&[3.0, -1.0]), Label::Pos);
    let before = m.clone();
    m.grow(1);
    m.grow(2);
    assert_eq!(m, before);
    m.grow(4);
    assert_eq!((m.pos.dim(), m.neg.dim()), (4, 4));
    assert_eq!(m.pos.mean(), &[2.0, 0.5, 0.0, 0.0]);
    assert_eq!(m.pos.cov(0, 1).to_bits(), before.pos.cov(0, 1).to_bits());
    assert_eq!(
        (m.pos.cov(1, 3).to_bits(), m.pos.cov(3, 3).to_bits()),
        (0, 0)
    );
    m.update(Row::Dense(&[0.0, 0.0, 0.0, 2.0]), Label::Neg);
    assert_eq!(m.neg.mean()[3].to_bits(), 2.0f64.to_bits());
}

/// The message of the panic `f` raises (programmer errors panic; STYLE section 4).
fn panic_message(f: impl FnOnce()) -> String {
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("the call should panic");
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn dimension_mismatches_panic_naming_both_sizes() {
    let mut m = ClassMoments::new(3);
    let msg = panic_message(|| m.update(Row::Dense(&[1.0, 2.0])));
    assert!(msg.contains('2') && msg.contains('3'), "{msg}");
    let sv = SparseVec::from_pairs([(5, 1.0)]).expect("valid");
    let msg = panic_message(|| m.update(Row::Sparse(sv.view())));
    assert!(msg.contains('5') && msg.contains('3'), "{msg}");
    let msg = panic_message(|| m.merge(&ClassMoments::new(4)));
    assert!(msg.contains('3') && msg.contains('4'), "{msg}");
    let msg = panic_message(|| {
        m.cov_mul(&[1.0; 4], &mut [0.0; 3]);
    });
    assert!(msg.contains('3') && msg.contains('4'), "{msg}");
    let msg = panic_message(|| {
        m.quad_form(&[1.0; 2]);
    });
    assert!(msg.contains('3') && msg.contains('2'), "{msg}");
    let msg = panic_message(|| {
        m.cov(0, 3);
    });
    assert!(msg.contains('3'), "{msg}");
}

/// Proptest settings: cases from `PROPTEST_CASES` (default 256); failures are saved in
/// `crates/auc-stats/proptest-regressions/moments.txt` and replayed by later runs. Every case is
/// small (p < 6, fewer than 24 rows), so 10^4 cases of all properties take seconds.
fn config() -> Config {
    Config {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/moments.txt",
        ))),
        ..Config::default()
    }
}

/// Inputs of the moment properties: dimension, rows (from a seed), offset and sparsity.
fn stream_case() -> impl Strategy<Value = (usize, Vec<Vec<f64>>)> {
    (
        1usize..6,
        0usize..24,
        any::<u64>(),
        prop_oneof![3 => Just(0.0), 1 => Just(1e6), 1 => Just(-3e5)],
        prop_oneof![Just(0.0), Just(0.5), Just(0.9)],
    )
        .prop_map(|(p, n, seed, offset, zero_frac)| (p, rows(seed, n, p, offset, zero_frac)))
}

proptest! {
    #![proptest_config(config())]

    /// Incremental moments equal the two-pass ones to 1e-9 relative, and the same data as
    /// dense or sparse rows gives identical moments.
    #[test]
    fn prop_incremental_equals_two_pass((p, data) in stream_case()) {
        let dense = stream(p, &data, false);
        assert_matches_two_pass(&dense, &data, Tol::for_rows(&data));
        prop_assert_eq!(&dense, &stream(p, &data, true));
    }

    /// stats(A ++ B ++ C) == merge of the parts' stats, in either order, for random cut points
    /// (parts may be empty).
    #[test]
    fn prop_merge_equals_one_stream(
        (p, data) in stream_case(),
        cuts in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
    ) {
        let (a, b) = (cuts.0.index(data.len() + 1), cuts.1.index(data.len() + 1));
        let (lo, hi) = (a.min(b), a.max(b));
        let whole = stream(p, &data, false);
        let parts = [&data[..lo], &data[lo..hi], &data[hi..]].map(|r| stream(p, r, false));
        let mut forward = parts[0].clone();
        forward.merge(&parts[1]);
        forward.merge(&parts[2]);
        let tol_cov = Tol::for_rows(&data);
        assert_moments_close(&forward, &whole, tol_cov);
        let mut backward = parts[2].clone();
        backward.merge(&parts[1]);
        backward.merge(&parts[0]);
        assert_moments_close(&backward, &whole, tol_cov);
        assert_matches_two_pass(&forward, &data, tol_cov);
    }

    /// (a + b) + c == a + (b + c) to rounding.
    #[test]
    fn prop_merge_is_associative(
        p in 1usize..6,
        sizes in (0usize..12, 0usize..12, 0usize..12),
        seeds in any::<(u64, u64, u64)>(),
        offset in prop_oneof![Just(0.0), Just(1e6)],
    ) {
        let parts = [
            rows(seeds.0, sizes.0, p, offset, 0.0),
            rows(seeds.1, sizes.1, p, offset, 0.0),
            rows(seeds.2, sizes.2, p, offset, 0.0),
        ];
        let tol_cov = Tol::for_rows(&parts.concat());
        let [a, b, c] = parts.map(|r| stream(p, &r, false));
        let mut left = a.clone();
        left.merge(&b);
        left.merge(&c);
        let mut bc = b.clone();
        bc.merge(&c);
        let mut right = a.clone();
        right.merge(&bc);
        assert_moments_close(&left, &right, tol_cov);
    }

    /// `cov_mul` and `quad_form` equal the product with the dense matrix, and
    /// `quad_form(w) == w . cov_mul(w)` to rounding.
    #[test]
    fn prop_cov_mul_and_quad_form_match_dense_reference(
        (p, data) in stream_case(),
        w_seed in any::<u64>(),
    ) {
        let m = stream(p, &data, false);
        let mut rng = StdRng::seed_from_u64(w_seed);
        let w: Vec<f64> = (0..p).map(|_| rng.random_range(-2.0..2.0)).collect();
        let dense = m.cov_dense();
        let mut out = vec![f64::NAN; p];
        m.cov_mul(&w, &mut out);
        // Reference sums have p terms; compare against the size of |S| |w|.
        let mut abs_quad = 0.0;
        for i in 0..p {
            let reference: f64 = (0..p).map(|j| dense[i * p + j] * w[j]).sum();
            let size: f64 = (0..p).map(|j| (dense[i * p + j] * w[j]).abs()).sum();
            abs_quad += size * w[i].abs();
            prop_assert!(close_scaled(out[i], reference, size), "row {}: {} vs {}", i, out[i], reference);
        }
        let reference: f64 = (0..p)
            .flat_map(|i| (0..p).map(move |j| (i, j)))
            .map(|(i, j)| w[i] * dense[i * p + j] * w[j])
            .sum();
        let quad = m.quad_form(&w);
        prop_assert!(close_scaled(quad, reference, abs_quad), "{} vs {}", quad, reference);
        let w_dot: f64 = w.iter().zip(&out).map(|(a, b)| a * b).sum();
        prop_assert!(close_scaled(quad, w_dot, abs_quad), "{} vs {}", quad, w_dot);
        let mut out2 = vec![f64::NAN; p];
        let fused = m.cov_mul_and_quad(&w, &mut out2);
        prop_assert_eq!(&out, &out2);
        prop_assert!(close_scaled(fused, quad, abs_quad), "{} vs {}", fused, quad);
        let mean_dot: f64 = w.iter().zip(m.mean()).map(|(a, b)| a * b).sum();
        let size: f64 = w.iter().zip(m.mean()).map(|(a, b)| (a * b).abs()).sum();
        prop_assert!(close_scaled(m.mean_dot(&w), mean_dot, size));
    }

    /// The fused learner step gives exactly what `update` plus `cov_mul_and_quad` give.
    #[test]
    fn prop_update_and_mul_opposite_equals_separate_calls(
        (p, data) in stream_case(),
        labels_seed in any::<u64>(),
    ) {
        let mut rng = StdRng::seed_from_u64(labels_seed);
        let w: Vec<f64> = (0..p).map(|_| rng.random_range(-2.0..2.0)).collect();
        let mut fused = Moments::new(p);
        let mut plain = Moments::new(p);
        let (mut out_f, mut out_p) = (vec![0.0; p], vec![0.0; p]);
        for (k, x) in data.iter().enumerate() {
            let y = if rng.random::<bool>() { Label::Pos } else { Label::Neg };
            let sv = sparse(x);
            let row = if k % 2 == 0 { Row::Dense(x) } else { Row::Sparse(sv.view()) };
            let qf = fused.update_and_mul_opposite(row, y, &w, &mut out_f);
            let qp = plain.opposite(y).cov_mul_and_quad(&w, &mut out_p);
            plain.update(row, y);
            prop_assert_eq!(qf.to_bits(), qp.to_bits());
            prop_assert_eq!(&out_f, &out_p);
        }
        prop_assert_eq!(&fused, &plain);
    }
}
