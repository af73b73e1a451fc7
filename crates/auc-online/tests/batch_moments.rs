//! The batch moment learners against brute-force pairwise computations of the same objectives
//! (`docs/math/batch-moments.md`), and their independence of how the moments were chunked.

#![allow(
    clippy::float_cmp,
    clippy::needless_range_loop,
    reason = "brute-force reference computations index by position and compare exact zeros"
)]

use auc_core::{BatchParams, Dataset, Label, Row, Scorer};
use auc_online::{
    BlockScratch, CERTIFICATE_TOLERANCE, Linear, MomentParams, OaucMBatchParams, OpaucBatchParams,
    PairProblem, block_moments, kink_solution, moments_of, solve_psi_m, solve_square,
};
use auc_stats::{ClassMoments, Moments};
use auc_surrogate::psi_m;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` rows of `p` features, classes with different means and correlated features, an offset
/// so that the centring matters.
fn data(n: usize, p: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut values = Vec::with_capacity(n * p);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let pos = i % 3 == 0;
        let z: f64 = rng.random_range(-1.0..1.0);
        for j in 0..p {
            let shift = if pos {
                0.3 * (j as f64 + 1.0) / p as f64
            } else {
                0.0
            };
            values
                .push(3.0 + shift + 0.5 * z + rng.random_range(-1.0..1.0) * (1.0 + j as f64 * 0.2));
        }
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(p, values, labels).unwrap()
}

/// Every pair difference x+ - x- of `d`.
fn pair_diffs(d: &Dataset) -> Vec<Vec<f64>> {
    let p = d.dim();
    let rows: Vec<(Vec<f64>, Label)> = d
        .iter()
        .map(|(x, y)| {
            let mut v = vec![0.0; p];
            x.write_dense(&mut v);
            (v, y)
        })
        .collect();
    let mut out = Vec::new();
    for (a, ya) in &rows {
        for (b, yb) in &rows {
            if *ya == Label::Pos && *yb == Label::Neg {
                out.push(a.iter().zip(b).map(|(u, v)| u - v).collect());
            }
        }
    }
    out
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// lambda/2 ||w||^2 + mean over pairs of (1 - w'd)^2 / 2, summed pair by pair.
fn brute_square(pairs: &[Vec<f64>], lambda: f64, w: &[f64]) -> f64 {
    let m = pairs.iter().map(|d| (1.0 - dot(w, d)).powi(2)).sum::<f64>() / pairs.len() as f64;
    0.5 * lambda * dot(w, w) + 0.5 * m
}

/// Its gradient, pair by pair.
fn brute_square_grad(pairs: &[Vec<f64>], lambda: f64, w: &[f64]) -> Vec<f64> {
    let mut g: Vec<f64> = w.iter().map(|v| lambda * v).collect();
    for d in pairs {
        let r = 1.0 - dot(w, d);
        for (gj, dj) in g.iter_mut().zip(d) {
            *gj -= r * dj / pairs.len() as f64;
        }
    }
    g
}

/// lambda/2 ||w||^2 + psi_M(mean, variance) of the pairwise score differences, both moments
/// computed over the pairs by two passes.
fn brute_psi(pairs: &[Vec<f64>], lambda: f64, w: &[f64]) -> f64 {
    let z: Vec<f64> = pairs.iter().map(|d| dot(w, d)).collect();
    let mean = z.iter().sum::<f64>() / z.len() as f64;
    let var = z.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / z.len() as f64;
    0.5 * lambda * dot(w, w) + psi_m(mean, var).value
}

/// Dense Gaussian elimination with partial pivoting.
fn gauss(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for k in 0..n {
        let piv = (k..n)
            .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
            .unwrap();
        a.swap(k, piv);
        b.swap(k, piv);
        for i in k + 1..n {
            let f = a[i][k] / a[k][k];
            for j in k..n {
                a[i][j] -= f * a[k][j];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}

fn rel_diff(a: &[f64], b: &[f64]) -> f64 {
    let d = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt();
    d / dot(b, b).sqrt().max(1e-300)
}

#[test]
fn square_surrogate_equals_the_pairwise_objective_and_its_minimizer() {
    let d = data(40, 5, 1);
    let pairs = pair_diffs(&d);
    for lambda in [1e-3, 0.1, 4.0] {
        let pb = PairProblem::new(&moments_of(&d)).unwrap();
        let s = solve_square(lambda, &pb).unwrap();
        let f = brute_square(&pairs, lambda, &s.w);
        assert!(
            (s.objective - f).abs() <= 1e-9 * f,
            "{} vs {f}",
            s.objective
        );
        // The pairwise gradient vanishes at the solution.
        let g = brute_square_grad(&pairs, lambda, &s.w);
        assert!(dot(&g, &g).sqrt() <= 1e-9, "gradient {g:?}");
        // A dense solve of the pairwise normal equations gives the same w.
        let p = d.dim();
        let mut a = vec![vec![0.0; p]; p];
        let mut rhs = vec![0.0; p];
        for dd in &pairs {
            for i in 0..p {
                rhs[i] += dd[i] / pairs.len() as f64;
                for j in 0..p {
                    a[i][j] += dd[i] * dd[j] / pairs.len() as f64;
                }
            }
        }
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += lambda;
        }
        let w = gauss(a, rhs);
        assert!(rel_diff(&s.w, &w) <= 1e-9, "{:?} vs {w:?}", s.w);
        // The objective is also the pairwise one away from the minimizer.
        let other: Vec<f64> = s.w.iter().map(|v| v * 0.5 + 0.1).collect();
        assert!(brute_square(&pairs, lambda, &other) > f);
    }
}

#[test]
fn psi_m_surrogate_equals_the_pairwise_objective_and_newton_finds_its_minimum() {
    let d = data(45, 4, 2);
    let pairs = pair_diffs(&d);
    for lambda in [1e-3, 0.05, 2.0] {
        let pb = PairProblem::new(&moments_of(&d)).unwrap();
        let s = solve_psi_m(lambda, &pb).unwrap();
        let f = brute_psi(&pairs, lambda, &s.w);
        assert!(
            (s.objective - f).abs() <= 1e-9 * f,
            "{} vs {f}",
            s.objective
        );
        // Central differences of the brute-force objective vanish at the minimizer.
        let h = 1e-5;
        let mut g = vec![0.0; s.w.len()];
        for j in 0..s.w.len() {
            let (mut a, mut b) = (s.w.clone(), s.w.clone());
            a[j] += h;
            b[j] -= h;
            g[j] = (brute_psi(&pairs, lambda, &a) - brute_psi(&pairs, lambda, &b)) / (2.0 * h);
        }
        assert!(
            dot(&g, &g).sqrt() <= 1e-7,
            "lambda {lambda}: gradient {g:?}"
        );
        // The certificate: ||grad|| / lambda bounds ||w - w*|| and is at rounding level.
        assert!(s.grad_norm / lambda <= 1e-9, "{}", s.grad_norm);
        // No nearby point is lower.
        for j in 0..s.w.len() {
            let mut a = s.w.clone();
            a[j] += 1e-3;
            assert!(brute_psi(&pairs, lambda, &a) >= f);
        }
        // Lemma 2 on the pooled pairs: the mean pairwise hinge loss is below psi_M.
        let hinge = pairs
            .iter()
            .map(|dd| (1.0 - dot(&s.w, dd)).max(0.0))
            .sum::<f64>()
            / pairs.len() as f64;
        assert!(0.5 * lambda * dot(&s.w, &s.w) + hinge <= f + 1e-12);
    }
}

#[test]
fn the_fit_does_not_depend_on_how_the_moments_were_chunked() {
    let d = data(700, 6, 3);
    let whole = moments_of(&d);
    let p = d.dim();
    // Welford row by row, and blocks of 1, 7 and 300 rows merged in order and out of order.
    let mut rank1 = Moments::new(p);
    for (x, y) in d.iter() {
        rank1.update(x, y);
    }
    let mut variants = vec![rank1];
    for block in [1usize, 7, 300] {
        let mut parts = Vec::new();
        for start in (0..d.n()).step_by(block) {
            let idx: Vec<usize> = (start..(start + block).min(d.n())).collect();
            parts.push(moments_of(&d.select(&idx)));
        }
        let mut fwd = Moments::new(p);
        for m in &parts {
            fwd.merge(m);
        }
        let mut rev = Moments::new(p);
        for m in parts.iter().rev() {
            rev.merge(m);
        }
        variants.push(fwd);
        variants.push(rev);
    }
    let lambda = 2f64.powi(-6);
    let base_s = OpaucBatchParams {
        lambda,
        ..OpaucBatchParams::default()
    }
    .fit_moments(&whole)
    .unwrap()
    .0;
    let base_m = OaucMBatchParams {
        lambda,
        ..Default::default()
    }
    .fit_moments(&whole)
    .unwrap()
    .0;
    for m in &variants {
        let s = OpaucBatchParams {
            lambda,
            ..OpaucBatchParams::default()
        }
        .fit_moments(m)
        .unwrap()
        .0;
        let mm = OaucMBatchParams {
            lambda,
            ..Default::default()
        }
        .fit_moments(m)
        .unwrap()
        .0;
        assert!(rel_diff(s.weights(), base_s.weights()) <= 1e-12);
        assert!(rel_diff(mm.weights(), base_m.weights()) <= 1e-12);
    }
}

#[test]
fn blocked_moments_equal_welford_moments() {
    let d = data(300, 7, 4);
    let p = d.dim();
    let mut rows = Vec::new();
    let mut welford = ClassMoments::new(p);
    let mut row = vec![0.0; p];
    for (x, _) in d.iter() {
        x.write_dense(&mut row);
        rows.extend_from_slice(&row);
        welford.update(Row::Dense(&row));
    }
    let blocked = block_moments(&rows, d.n(), p, &mut BlockScratch::default());
    assert_eq!(blocked.count(), welford.count());
    assert!(rel_diff(blocked.mean(), welford.mean()) <= 1e-14);
    assert!(rel_diff(&blocked.cov_dense(), &welford.cov_dense()) <= 1e-12);
    // A block of one row has zero covariance.
    let one = block_moments(&rows[..p], 1, p, &mut BlockScratch::default());
    assert!(one.cov_dense().iter().all(|&v| v == 0.0));
}

#[test]
fn fit_model_scores_by_w_and_needs_both_classes() {
    let d = data(30, 3, 5);
    let (m, summary) = OaucMBatchParams::default().fit_model(&d, 0).unwrap();
    assert!(summary.contains("certificate"), "{summary}");
    let (x, _) = d.iter().next().unwrap();
    assert_eq!(m.score(x), x.dot(m.weights()));
    let neg_only = d.select(&[1, 2, 4]);
    assert!(OpaucBatchParams::default().fit_model(&neg_only, 0).is_err());
    assert!(
        OpaucBatchParams {
            lambda: 0.0,
            ..OpaucBatchParams::default()
        }
        .fit_model(&d, 0)
        .is_err()
    );
    assert!(
        OaucMBatchParams {
            lambda: -1.0,
            ..Default::default()
        }
        .fit_model(&d, 0)
        .is_err()
    );
}

#[test]
fn degenerate_moments_stay_finite() {
    // Identical positives and identical negatives: S = 0, psi_M's minimizer sits at the kink
    // for small lambda. Both fits stay finite and the psi_M objective is below its value at 0.
    let values = vec![1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0];
    let d = Dataset::dense(
        2,
        values,
        vec![Label::Pos, Label::Pos, Label::Neg, Label::Neg],
    )
    .unwrap();
    for lambda in [1e-6, 1e-2, 1.0] {
        let s = OpaucBatchParams {
            lambda,
            ..OpaucBatchParams::default()
        }
        .fit_model(&d, 0)
        .unwrap()
        .0;
        let m = OaucMBatchParams {
            lambda,
            ..Default::default()
        }
        .fit_model(&d, 0)
        .unwrap()
        .0;
        assert!(s.weights().iter().chain(m.weights()).all(|v| v.is_finite()));
        assert!(m.objective() <= 1.0);
        assert!(m.converged(), "lambda {lambda}: {}", m.summary());
    }
}

/// Hostile input, item 2: data without features (`printf '1\n-1\n1\n-1\n'`) made the psi_M
/// solver panic ("chunk size must be non-zero") in `auc train` and `auc cv`. Both batch moment
/// learners now fit the empty weight vector: every score is 0, the psi_M objective is
/// psi_M(0, 0) = 1 (b = 1, no spread), and the certificate is exact.
#[test]
fn hostile_2_zero_feature_batch_fit() {
    let labels = vec![Label::Pos, Label::Neg, Label::Pos, Label::Neg];
    let d = Dataset::dense(0, Vec::new(), labels).unwrap();
    let (m, summary) = OaucMBatchParams::default().fit_model(&d, 0).unwrap();
    assert!(m.weights().is_empty());
    assert!(m.converged(), "{summary}");
    assert_eq!(m.objective(), psi_m(0.0, 0.0).value);
    assert_eq!(m.steps(), 0);
    let (x, _) = d.iter().next().unwrap();
    assert_eq!(m.score(x), 0.0);
    let (s, _) = OpaucBatchParams::default().fit_model(&d, 0).unwrap();
    assert!(s.weights().is_empty());
    // The solver entry points directly, as `auc train` calls them from merged moment files.
    let pb = PairProblem::new(&moments_of(&d)).unwrap();
    assert_eq!(pb.dim, 0);
    assert!(solve_psi_m(1e-3, &pb).unwrap().w.is_empty());
    assert!(solve_square(1e-3, &pb).unwrap().w.is_empty());
    assert!(kink_solution(1e-3, &pb).is_none());
}

/// `F(w)` is no larger than at any of many points nearby (a brute-force minimality check that
/// knows nothing of the solver's kink branch): random directions at several radii.
fn is_pairwise_minimum(pairs: &[Vec<f64>], lambda: f64, w: &[f64], seed: u64) -> bool {
    let f = brute_psi(pairs, lambda, w);
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..200 {
        let dir: Vec<f64> = w.iter().map(|_| rng.random_range(-1.0..1.0)).collect();
        for h in [1e-2, 1e-4, 1e-6] {
            let x: Vec<f64> = w.iter().zip(&dir).map(|(a, d)| a + h * d).collect();
            if brute_psi(pairs, lambda, &x) < f - 1e-13 * f.abs().max(1.0) {
                return false;
            }
        }
    }
    true
}

#[test]
fn tiny_separable_data_converge_on_the_kink_with_a_certificate() {
    // Issue 19 (step 1): six rows, two features, classes separable with no spread along a
    // direction in which the means differ. The minimizer sits on the kink of psi_M, where the
    // Newton method used to run into its 100-step cap with ||w - w*|| <= 1.7 certified.
    let sets: [(Vec<f64>, &str); 3] = [
        // Feature 1 constant within each class (an exact zero eigenvalue of S).
        (
            vec![1.0, 0.5, 1.0, 0.7, 1.0, 0.1, 0.0, 0.3, 0.0, 0.9, 0.0, 0.2],
            "constant feature",
        ),
        // Both classes spread along (1, 1) only (a rounding-level eigenvalue of S).
        (
            vec![5.0, 1.0, 6.0, 2.0, 7.0, 3.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0],
            "collinear spread",
        ),
        // Scaled as auc train's min-max scaling leaves the second set.
        (
            vec![
                1.0 / 3.0,
                -1.0,
                2.0 / 3.0,
                0.0,
                1.0,
                1.0,
                -1.0,
                -1.0,
                -2.0 / 3.0,
                0.0,
                -1.0 / 3.0,
                1.0,
            ],
            "collinear spread, scaled",
        ),
    ];
    let labels = || {
        [Label::Pos; 3]
            .into_iter()
            .chain([Label::Neg; 3])
            .collect::<Vec<_>>()
    };
    for (values, what) in sets {
        let d = Dataset::dense(2, values, labels()).unwrap();
        let pairs = pair_diffs(&d);
        for lambda in [2f64.powi(-10), 2f64.powi(-4), 0.1] {
            let (m, summary) = OaucMBatchParams {
                lambda,
                ..Default::default()
            }
            .fit_model(&d, 0)
            .unwrap();
            assert!(m.converged(), "{what}, lambda {lambda}: {summary}");
            assert!(
                m.distance_bound() <= CERTIFICATE_TOLERANCE,
                "{what}: {summary}"
            );
            assert!(!summary.contains("NOT CONVERGED"), "{summary}");
            assert!(
                is_pairwise_minimum(&pairs, lambda, m.weights(), 3),
                "{what}, lambda {lambda}: {:?} is not a minimum",
                m.weights()
            );
        }
        // Small lambda: the minimizer is the kink point, found without Newton steps.
        let pb = PairProblem::new(&moments_of(&d)).unwrap();
        let k = kink_solution(2f64.powi(-10), &pb).expect("the kink is optimal at small lambda");
        assert_eq!(k.steps, 0);
        assert!((dot(&k.w, &pb.delta) - 1.0).abs() <= 1e-12, "{what}");
    }
}

#[test]
fn the_kink_test_agrees_with_a_brute_force_search_of_the_pairwise_objective() {
    // lambda (1 + Delta' S^+ Delta) <= ||Delta_N||^2 decides whether the kink point is the
    // minimizer (docs/math/batch-moments.md, eq. 10). Large lambda moves the minimizer off the
    // kink (smooth Newton); the solver's answer is a minimum either way.
    let values = vec![1.0, 0.5, 1.0, 0.7, 1.0, 0.1, 0.0, 0.3, 0.0, 0.9, 0.0, 0.2];
    let d = Dataset::dense(
        2,
        values,
        [
            Label::Pos,
            Label::Pos,
            Label::Pos,
            Label::Neg,
            Label::Neg,
            Label::Neg,
        ]
        .to_vec(),
    )
    .unwrap();
    let pairs = pair_diffs(&d);
    let pb = PairProblem::new(&moments_of(&d)).unwrap();
    let (mut on, mut off) = (0, 0);
    for k in -10..=6 {
        let lambda = 2f64.powi(k);
        let s = solve_psi_m(lambda, &pb).unwrap();
        assert!(
            s.grad_norm / lambda <= CERTIFICATE_TOLERANCE,
            "lambda {lambda}: {s:?}"
        );
        assert!(
            is_pairwise_minimum(&pairs, lambda, &s.w, 11),
            "lambda {lambda}: {s:?}"
        );
        match kink_solution(lambda, &pb) {
            Some(kink) => {
                on += 1;
                // On the kink: w' Delta = 1 and no spread of the scores within a class.
                assert!((dot(&kink.w, &pb.delta) - 1.0).abs() <= 1e-12);
                assert!(rel_diff(&s.w, &kink.w) <= 1e-12);
            }
            None => {
                off += 1;
                // Off the kink: the scores of the pairs are not all w' Delta = 1 apart.
                let sw: Vec<f64> = (0..2).map(|i| dot(&pb.s[i * 2..i * 2 + 2], &s.w)).collect();
                let r = (1.0 - dot(&s.w, &pb.delta)).hypot(dot(&s.w, &sw).max(0.0).sqrt());
                assert!(r > 1e-6, "lambda {lambda}: r = {r}");
            }
        }
    }
    assert!(on > 0 && off > 0, "{on} lambdas on the kink, {off} off it");
}

#[test]
fn a_newton_run_stopped_by_its_cap_says_it_did_not_converge() {
    let d = data(45, 4, 2);
    let (m, summary) = OaucMBatchParams {
        lambda: 1e-3,
        max_steps: 1,
        ..Default::default()
    }
    .fit_model(&d, 0)
    .unwrap();
    assert_eq!(m.steps(), 1);
    assert!(!m.converged(), "{summary}");
    assert!(m.distance_bound() > m.tolerance());
    assert!(summary.contains("NOT CONVERGED"), "{summary}");
    // The same problem with the default cap converges.
    let (m, summary) = OaucMBatchParams {
        lambda: 1e-3,
        ..Default::default()
    }
    .fit_model(&d, 0)
    .unwrap();
    assert!(m.converged() && m.steps() > 1, "{summary}");
    assert!(
        OaucMBatchParams {
            lambda: 1e-3,
            max_steps: 0,
            ..Default::default()
        }
        .fit_model(&d, 0)
        .is_err()
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Small random data sets, often degenerate (values from a few integers, so features are
    /// constant within a class, collinear or separable): the psi_M solver's certificate always
    /// meets its tolerance, and the answer is a minimum of the pairwise objective.
    #[test]
    fn psi_m_certificates_meet_the_tolerance_on_small_data(
        p in 1usize..4,
        rows in proptest::collection::vec((proptest::prelude::any::<bool>(), proptest::collection::vec(-2i8..=2, 3)), 2..10),
        scale in proptest::prop_oneof![proptest::strategy::Just(1.0), 0.01f64..100.0],
        k in -12i32..=4,
    ) {
        let mut labels: Vec<Label> = rows.iter().map(|(pos, _)| if *pos { Label::Pos } else { Label::Neg }).collect();
        labels[0] = Label::Pos;
        labels[1] = Label::Neg;
        let values: Vec<f64> = rows.iter().flat_map(|(_, v)| v[..p].iter().map(|&x| f64::from(x) * scale)).collect();
        let d = Dataset::dense(p, values, labels).unwrap();
        let lambda = 2f64.powi(k);
        let (m, summary) = OaucMBatchParams { lambda, ..Default::default() }.fit_model(&d, 0).unwrap();
        proptest::prop_assert!(m.converged(), "lambda {}: {}", lambda, summary);
        let pairs = pair_diffs(&d);
        proptest::prop_assert!(is_pairwise_minimum(&pairs, lambda, m.weights(), 5), "{:?}: {}", m.weights(), summary);
    }
}

/// `n` sparse rows of `p` features: a few one-hot-like indicators and their products (values 1,
/// a few other bounded values), the positives leaning on the first features.
fn sparse_data(n: usize, p: usize, per_row: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut indptr, mut indices, mut values, mut labels) = (vec![0], vec![], vec![], vec![]);
    for i in 0..n {
        let pos = i % 4 == 0;
        let mut cols: Vec<u32> = (0..per_row)
            .map(|_| {
                let j = if pos && rng.random_bool(0.5) {
                    rng.random_range(0..p / 8)
                } else {
                    rng.random_range(0..p)
                };
                j as u32
            })
            .collect();
        cols.sort_unstable();
        cols.dedup();
        for &j in &cols {
            indices.push(j);
            values.push(if j % 5 == 0 {
                rng.random_range(-2.0..2.0)
            } else {
                1.0
            });
        }
        indptr.push(indices.len());
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::sparse(p, indptr, indices, values, labels).unwrap()
}

#[test]
fn sparse_moments_equal_welford_updates_and_fit_the_same_model() {
    // Wide and sparse enough that moments_of takes the sparse path; 9,000 rows so that each
    // class spans several blocks of SPARSE_BLOCK_ROWS.
    let d = sparse_data(9000, 600, 12, 5);
    let p = d.dim();
    let fast = moments_of(&d);
    let mut welford = Moments::new(p);
    for (x, y) in d.iter() {
        welford.update(x, y);
    }
    for y in [Label::Pos, Label::Neg] {
        let (a, b) = (fast.class(y), welford.class(y));
        assert_eq!(a.count(), b.count());
        let scale = b.comoment().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (u, v) in a.mean().iter().zip(b.mean()) {
            assert!((u - v).abs() <= 1e-12, "mean {u} against {v}");
        }
        for (u, v) in a.comoment().iter().zip(b.comoment()) {
            assert!((u - v).abs() <= 1e-12 * scale, "co-moment {u} against {v}");
        }
    }
    // The same dataset stored dense takes the dense blocks: the fits agree.
    let dense = d.to_dense();
    let params = OpaucBatchParams::default();
    let (a, _) = params.fit_model(&d, 0).unwrap();
    let (b, _) = params.fit_model(&dense, 0).unwrap();
    for (u, v) in a.weights().iter().zip(b.weights()) {
        assert!((u - v).abs() <= 1e-9 * (1.0 + v.abs()), "{u} against {v}");
    }
}
