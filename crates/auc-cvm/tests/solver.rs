//! The core vector machine against exact solvers, and the pair shortcut against brute force.

use std::collections::HashSet;

use auc_core::testing::tol;
use auc_cvm::fusion::Gram;
use auc_cvm::kernels::{Gaussian, Points, SubKernel};
use auc_cvm::model::{AUCSVM_MAX_NEWTON, AUCSVM_TOL};
use auc_cvm::solver::{self, CvmParams, Problem, SolveError};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A Gaussian kernel on `n` random points in 3-d, the first `n_pos` positive, positives shifted
/// by `shift` so the classes overlap partly.
fn random_problem(
    n_pos: usize,
    n_neg: usize,
    shift: f64,
    seed: u64,
) -> (Gram, Vec<usize>, Vec<usize>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = n_pos + n_neg;
    let x: Vec<f64> = (0..n * 3)
        .map(|e| rng.random_range(-1.0..1.0) + if e / 3 < n_pos { shift } else { 0.0 })
        .collect();
    let pts = Points::from_dense(3, x);
    let k = Gaussian { sigma1: 0.7 };
    let g = Gram::from_fn(n, |i, j| k.value(&pts, i, &pts, j));
    (g, (0..n_pos).collect(), (n_pos..n).collect())
}

/// Projected-gradient (FISTA) minimum of beta' G beta over the simplex, an independent check of
/// the SMO used by `exact_dual`.
fn fista_simplex(g: &[Vec<f64>], iters: usize) -> f64 {
    let s = g.len();
    let lip = 2.0
        * g.iter()
            .map(|r| r.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max);
    let mut x = vec![1.0 / s as f64; s];
    let mut y = x.clone();
    let mut t = 1.0f64;
    for _ in 0..iters {
        let grad: Vec<f64> = (0..s)
            .map(|i| 2.0 * g[i].iter().zip(&y).map(|(a, b)| a * b).sum::<f64>())
            .collect();
        let z: Vec<f64> = y.iter().zip(&grad).map(|(a, d)| a - d / lip).collect();
        let nx = project_simplex(&z);
        let nt = (1.0 + (1.0 + 4.0 * t * t).sqrt()) / 2.0;
        y = nx
            .iter()
            .zip(&x)
            .map(|(a, b)| a + (t - 1.0) / nt * (a - b))
            .collect();
        x = nx;
        t = nt;
    }
    (0..s)
        .map(|i| x[i] * g[i].iter().zip(&x).map(|(a, b)| a * b).sum::<f64>())
        .sum()
}

fn project_simplex(z: &[f64]) -> Vec<f64> {
    let mut u = z.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let (mut css, mut theta) = (0.0, 0.0);
    for (k, &v) in u.iter().enumerate() {
        css += v;
        let t = (css - 1.0) / (k + 1) as f64;
        if v - t > 0.0 {
            theta = t;
        }
    }
    z.iter().map(|v| (v - theta).max(0.0)).collect()
}

fn h_matrix(pb: &Problem<'_>, c1: f64) -> Vec<Vec<f64>> {
    let pairs: Vec<(u32, u32)> = (0..pb.pos.len() as u32)
        .flat_map(|i| (0..pb.neg.len() as u32).map(move |j| (i, j)))
        .collect();
    pairs
        .iter()
        .map(|&a| pairs.iter().map(|&b| pb.h_tilde(a, b, c1)).collect())
        .collect()
}

#[test]
fn exact_dual_matches_projected_gradient() {
    for (seed, c1) in [(1u64, 0.1), (2, 1.0), (3, 10.0)] {
        let (g, pos, neg) = random_problem(9, 14, 0.4, seed);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let exact = solver::exact_dual(&pb, c1, 1e-13, 10_000).unwrap();
        assert!(exact.converged);
        let reference = fista_simplex(&h_matrix(&pb, c1), 20_000);
        assert!(
            (exact.q - reference).abs() <= 1e-8 * reference.abs().max(1e-12),
            "c1={c1}: smo {} fista {reference}",
            exact.q
        );
    }
}

#[test]
fn farthest_pair_shortcut_matches_brute_force() {
    let mut rng = StdRng::seed_from_u64(9);
    for trial in 0..200 {
        let (np, nn) = (rng.random_range(1..12), rng.random_range(1..12));
        let (g, pos, neg) = random_problem(np, nn, 0.0, trial);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        // Scores with many ties (rounded), and a random core set.
        let f: Vec<f64> = (0..np + nn)
            .map(|_| (rng.random_range(-3.0f64..3.0)).round())
            .collect();
        let mut core = HashSet::new();
        for _ in 0..rng.random_range(0..np * nn + 1) {
            core.insert((
                rng.random_range(0..np) as u32,
                rng.random_range(0..nn) as u32,
            ));
        }
        let got = solver::farthest_non_core_for_tests(&pb, &f, &core);
        let brute = (0..np as u32)
            .flat_map(|i| (0..nn as u32).map(move |j| (i, j)))
            .filter(|m| !core.contains(m))
            .map(|(i, j)| f[pos[i as usize]] - f[neg[j as usize]])
            .fold(None, |b: Option<f64>, v| Some(b.map_or(v, |b| b.min(v))));
        match (got, brute) {
            (None, None) => {}
            (Some((m, v)), Some(b)) => {
                assert!(!core.contains(&m));
                assert_eq!(v.to_bits(), b.to_bits(), "trial {trial}");
                let again = f[pos[m.0 as usize]] - f[neg[m.1 as usize]];
                assert_eq!(v.to_bits(), again.to_bits());
            }
            other => panic!("trial {trial}: {other:?}"),
        }
    }
}

/// The (1+eps) guarantee: 0 <= q - q* <= ((1+eps)^2 - 1)(varsigma - q), up to the exact solver's
/// own tolerance.
fn check_guarantee(n_pos: usize, n_neg: usize, shift: f64, c1: f64, eps: f64, seed: u64) {
    let (g, pos, neg) = random_problem(n_pos, n_neg, shift, seed);
    let pb = Problem {
        gram: &g,
        pos: &pos,
        neg: &neg,
    };
    let exact = solver::exact_dual(&pb, c1, 1e-12, 2_000).unwrap();
    let params = CvmParams {
        c1,
        eps,
        seed,
        max_core: 10_000,
    };
    let sol = solver::cvm(&pb, &params).unwrap();
    assert!(sol.converged);
    let slack = 1e-9 * exact.q.abs().max(1e-12);
    let bound = ((1.0 + eps) * (1.0 + eps) - 1.0) * (sol.varsigma - sol.q);
    assert!(
        sol.q >= exact.q - slack,
        "core {} below exact {}",
        sol.q,
        exact.q
    );
    assert!(
        sol.q - exact.q <= bound + slack,
        "n+={n_pos} n-={n_neg} c1={c1} eps={eps}: gap {} > bound {bound}",
        sol.q - exact.q
    );
    assert!((sol.beta.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(sol.beta.iter().all(|b| *b >= 0.0));
}

#[test]
fn core_set_is_within_the_guarantee_of_the_exact_dual() {
    for (k, eps) in [0.3, 0.1, 1e-2, 1e-3, 1e-6].iter().enumerate() {
        for c1 in [0.01, 1.0, 100.0] {
            check_guarantee(20 + 3 * k, 40 + 2 * k, 0.5, c1, *eps, k as u64);
        }
    }
    // Separable and heavily imbalanced.
    check_guarantee(4, 400, 2.0, 1.0, 1e-3, 11);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Core vector machine on random problems with at most 2,000 pairs: within the
    /// (1+eps)-guarantee of the exact dual ([CVM05] Thm; [CVM eqs. 40-43]).
    #[test]
    fn lemma_cvm05_core_set_within_one_plus_eps(
        n_pos in 1usize..40, n_neg in 1usize..50, shift in 0.0f64..1.5,
        c1 in prop_oneof![Just(0.001), Just(0.1), Just(1.0), Just(100.0)],
        eps in prop_oneof![Just(0.5), Just(0.05), Just(1e-3), Just(1e-8)],
        seed in any::<u64>(),
    ) {
        prop_assume!(n_pos * n_neg <= 2_000);
        check_guarantee(n_pos, n_neg, shift, c1, eps, seed);
    }
}

#[test]
fn aucsvm_dual_matches_projected_gradient_on_the_orthant() {
    let (g, pos, neg) = random_problem(8, 12, 0.3, 5);
    let pb = Problem {
        gram: &g,
        pos: &pos,
        neg: &neg,
    };
    let c1 = 2.0;
    let sol = solver::aucsvm_dual(&pb, c1, 1e-10, 10_000, 100_000).unwrap();
    assert!(sol.converged);
    // Independent check: projected gradient ascent of 1'a - a'Ha/2 on a >= 0.
    let h = h_matrix(&pb, c1);
    let s = h.len();
    let lip = h
        .iter()
        .map(|r| r.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let mut a = vec![0.0; s];
    for _ in 0..200_000 {
        let grad: Vec<f64> = (0..s)
            .map(|i| 1.0 - h[i].iter().zip(&a).map(|(x, y)| x * y).sum::<f64>())
            .collect();
        for i in 0..s {
            a[i] = (a[i] + grad[i] / lip).max(0.0);
        }
    }
    let obj = |al: &[f64]| {
        al.iter().sum::<f64>()
            - 0.5
                * (0..s)
                    .map(|i| al[i] * h[i].iter().zip(al).map(|(x, y)| x * y).sum::<f64>())
                    .sum::<f64>()
    };
    let (ours, theirs) = (obj(&full_alpha(&sol, pb.neg.len(), s)), obj(&a));
    assert!(
        (ours - theirs).abs() <= 1e-7 * theirs.abs(),
        "{ours} vs {theirs}"
    );
}

/// The dual of AUCSVM over every pair, positive-slot major, from the support pairs returned.
fn full_alpha(sol: &solver::Solution, n_neg: usize, pairs: usize) -> Vec<f64> {
    let mut a = vec![0.0; pairs];
    for (&(i, j), &v) in sol.pairs.iter().zip(&sol.beta) {
        a[i as usize * n_neg + j as usize] = v;
    }
    a
}

/// The AUCSVM solver of commit `da326ea` (before the pair-index solver), kept as the reference:
/// the pairs materialized, coordinate ascent with `f = K w` on every kernel point and both rows
/// added per step, shrinking as there. Returns alpha over every pair and the steps taken.
fn aucsvm_materialized(pb: &Problem<'_>, c1: f64, tol: f64, max_sweeps: usize) -> Vec<f64> {
    let pairs: Vec<(u32, u32)> = (0..pb.pos.len() as u32)
        .flat_map(|i| (0..pb.neg.len() as u32).map(move |j| (i, j)))
        .collect();
    let mut alpha = vec![0.0; pairs.len()];
    let mut f = vec![0.0; pb.gram.n()];
    let diag: Vec<f64> = pairs.iter().map(|&m| pb.h_tilde(m, m, c1)).collect();
    let mut active: Vec<usize> = (0..pairs.len()).collect();
    let mut sweeps = 0;
    while sweeps < max_sweeps {
        sweeps += 1;
        let full = active.len() == pairs.len();
        let mut worst = 0.0f64;
        for &m in &active {
            let (a, b) = pairs[m];
            let (i, j) = (pb.pos[a as usize], pb.neg[b as usize]);
            let grad = 1.0 - (f[i] - f[j] + alpha[m] / c1);
            let viol = if alpha[m] > 0.0 {
                grad.abs()
            } else {
                grad.max(0.0)
            };
            worst = worst.max(viol);
            if viol == 0.0 {
                continue;
            }
            let new = (alpha[m] + grad / diag[m]).max(0.0);
            let d = new - alpha[m];
            alpha[m] = new;
            for (t, o) in f.iter_mut().enumerate() {
                *o += d * (pb.gram.get(i, t) - pb.gram.get(j, t));
            }
        }
        if worst <= tol {
            if full {
                break;
            }
            active = (0..pairs.len()).collect();
            continue;
        }
        if full && sweeps % 10 == 1 {
            active = (0..pairs.len())
                .filter(|&m| {
                    let (a, b) = pairs[m];
                    let (i, j) = (pb.pos[a as usize], pb.neg[b as usize]);
                    alpha[m] > 0.0 || 1.0 - (f[i] - f[j]) > -1.0
                })
                .collect();
        } else if !full && sweeps % 10 == 0 {
            active = (0..pairs.len()).collect();
        }
    }
    alpha
}

/// The pair-index solver reaches the same optimum as the materialized one (the dual is strictly
/// convex, H~ = H + I/C1, so the optimum is unique): on overlapping and on separable classes,
/// with test points in the kernel that neither solver trains on.
#[test]
fn aucsvm_dual_gives_the_solution_of_the_materialized_solver() {
    for (np, nn, shift, c1, seed) in [
        (9, 14, 0.3, 2.0, 5),
        (20, 31, 0.0, 0.1, 6),
        (17, 25, 1.5, 10.0, 7),
        (1, 12, 0.5, 1.0, 8),
    ] {
        let (g, pos, neg) = random_problem(np, nn + 6, shift, seed);
        // The last 6 points are test points: in the kernel, in no pair.
        let neg = &neg[..nn];
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg,
        };
        let sol = solver::aucsvm_dual(&pb, c1, 1e-11, 100_000, 1_000_000).unwrap();
        assert!(sol.converged);
        let ours = full_alpha(&sol, nn, np * nn);
        let theirs = aucsvm_materialized(&pb, c1, 1e-11, 1_000_000);
        let scale = theirs.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (m, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!(
                (a - b).abs() <= 1e-8 * scale.max(1e-12),
                "seed {seed}, pair {m}: {a} against {b}"
            );
        }
        assert_eq!(sol.core_size, ours.iter().filter(|a| **a > 0.0).count());
    }
}

#[test]
fn solvers_reject_one_class_and_too_many_pairs() {
    let (g, pos, neg) = random_problem(3, 4, 0.0, 1);
    let empty: Vec<usize> = Vec::new();
    let pb = Problem {
        gram: &g,
        pos: &empty,
        neg: &neg,
    };
    let params = CvmParams {
        c1: 1.0,
        eps: 0.1,
        seed: 0,
        max_core: 10,
    };
    assert_eq!(
        solver::cvm(&pb, &params).unwrap_err(),
        SolveError::SingleClass {
            positives: 0,
            negatives: 4
        }
    );
    let pb = Problem {
        gram: &g,
        pos: &pos,
        neg: &neg,
    };
    let e = solver::exact_dual(&pb, 1.0, 1e-9, 11).unwrap_err();
    assert_eq!(
        e,
        SolveError::TooManyPairs {
            pairs: 12,
            limit: 11
        }
    );
    assert_eq!(
        e.to_string(),
        "12 positive-negative pairs exceed the exact solver's limit of 11"
    );
    assert_eq!(
        solver::aucsvm(&pb, 1.0, 1e-9, 11, 10).unwrap_err(),
        SolveError::TooManyPairs {
            pairs: 12,
            limit: 11
        }
    );
    assert!(solver::aucsvm_dual(&pb, 1.0, 1e-9, 11, 10).is_err());
}

/// conventions section 7's identity behind the shortcut: over the materialized pairs,
/// $(\tilde H \beta)_m = f_\beta(x_i) - f_\beta(x_j) + \beta_m / C_1$, with $f_\beta = K w$ from the
/// point weights; so the CCMEB distance $\varsigma + q - 2(\tilde H\beta)_m$ is largest at the
/// non-core pair with the smallest score gap.
#[test]
fn h_beta_of_every_pair_is_a_score_gap() {
    let mut rng = StdRng::seed_from_u64(21);
    for trial in 0..20 {
        let (np, nn) = (rng.random_range(1..8), rng.random_range(1..8));
        let (g, pos, neg) = random_problem(np, nn, 0.3, trial);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let c1 = [0.1, 1.0, 10.0][trial as usize % 3];
        // A random beta on a random subset of pairs.
        let pairs: Vec<(u32, u32)> = (0..np as u32)
            .flat_map(|i| (0..nn as u32).map(move |j| (i, j)))
            .filter(|_| rng.random_bool(0.5))
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let raw: Vec<f64> = pairs.iter().map(|_| rng.random_range(0.0..1.0)).collect();
        let total: f64 = raw.iter().sum();
        let sol = solver::Solution {
            pairs: pairs.clone(),
            beta: raw.iter().map(|b| b / total).collect(),
            q: 0.0,
            varsigma: 0.0,
            core_size: pairs.len(),
            iterations: 0,
            converged: true,
            seconds: 0.0,
            weights: Vec::new(),
        };
        let f = pb.scores(&sol.point_weights(&pb, 1.0));
        for i in 0..np as u32 {
            for j in 0..nn as u32 {
                let brute: f64 = pairs
                    .iter()
                    .zip(&sol.beta)
                    .map(|(&b, &bt)| bt * pb.h_tilde((i, j), b, c1))
                    .sum();
                let core = pairs
                    .iter()
                    .position(|&m| m == (i, j))
                    .map_or(0.0, |k| sol.beta[k] / c1);
                let gap = f[pos[i as usize]] - f[neg[j as usize]] + core;
                assert!((brute - gap).abs() < 1e-12, "{brute} vs {gap}");
            }
        }
    }
}

/// Every pair of `pb` with the scores `f`: the primal objective of AUCSVM at point weights `w`
/// (scores `f = K w`), and the dual objective at alpha = C1 (1 - f_i + f_j)_+, both by brute
/// force over the pairs. Weak duality makes the primal no lower than the dual; they meet only at
/// the optimum.
fn duality_gap(pb: &Problem<'_>, c1: f64, w: &[(usize, f64)]) -> (f64, f64) {
    let f = pb.scores(w);
    let mut loss = 0.0;
    let mut alpha = Vec::new();
    for &i in pb.pos {
        for &j in pb.neg {
            let xi = (1.0 - f[i] + f[j]).max(0.0);
            loss += xi * xi;
            alpha.push((i, j, c1 * xi));
        }
    }
    let wkw: f64 = w.iter().map(|&(t, wt)| wt * f[t]).sum();
    let primal = 0.5 * wkw + 0.5 * c1 * loss;
    // Dual: sum alpha - 1/2 |sum alpha z|^2 - |alpha|^2 / (2 C1).
    let mut wa = vec![0.0; pb.gram.n()];
    for &(i, j, a) in &alpha {
        wa[i] += a;
        wa[j] -= a;
    }
    let wa: Vec<(usize, f64)> = wa.into_iter().enumerate().filter(|e| e.1 != 0.0).collect();
    let fa = pb.scores(&wa);
    let quad: f64 = wa.iter().map(|&(t, x)| x * fa[t]).sum();
    let sum: f64 = alpha.iter().map(|e| e.2).sum();
    let sq: f64 = alpha.iter().map(|e| e.2 * e.2).sum();
    (primal, sum - 0.5 * quad - sq / (2.0 * c1))
}

/// Pairs clearly inside the margin, and pairs not clearly outside it (1 - f_i + f_j above
/// 1e-7 and above -1e-7): a count of support pairs from rounded scores lies between.
fn support_band(pb: &Problem<'_>, f: &[f64]) -> (usize, usize) {
    let slack = |i: usize, j: usize| 1.0 - f[i] + f[j];
    let all = || {
        pb.pos
            .iter()
            .flat_map(|&i| pb.neg.iter().map(move |&j| (i, j)))
    };
    (
        all().filter(|&(i, j)| slack(i, j) > 1e-7).count(),
        all().filter(|&(i, j)| slack(i, j) > -1e-7).count(),
    )
}

/// The primal truncated Newton solver (`solver::aucsvm`) and the dual coordinate descent
/// (`solver::aucsvm_dual`, today's solver before it) solve the same problem: the same scores on
/// every kernel point (training and test points) to 1e-6 of the largest, the same objective,
/// and a duality gap of the primal's weights below 1e-9 of the objective.
#[test]
fn aucsvm_primal_gives_the_scores_of_the_dual() {
    for (np, nn, shift, c1, seed) in [
        (9, 14, 0.3, 2.0, 5),
        (20, 31, 0.0, 0.1, 6),
        (17, 25, 1.5, 10.0, 7),
        (1, 12, 0.5, 1.0, 8),
        (30, 40, 0.8, 100.0, 9),
        (12, 3, 0.2, 0.001, 10),
    ] {
        let (g, pos, neg) = random_problem(np, nn + 6, shift, seed);
        let neg = &neg[..nn];
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg,
        };
        let primal = solver::aucsvm(&pb, c1, 1e-12, 100_000, 200).unwrap();
        assert!(primal.converged, "seed {seed}: {} steps", primal.iterations);
        assert!(primal.pairs.is_empty(), "no per-pair storage");
        let dual = solver::aucsvm_dual(&pb, c1, 1e-12, 100_000, 1_000_000).unwrap();
        assert!(dual.converged);
        let fp = pb.scores(&primal.point_weights(&pb, 1.0));
        let fd = pb.scores(&dual.point_weights(&pb, 1.0));
        let scale = fd.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (t, (a, b)) in fp.iter().zip(&fd).enumerate() {
            assert!(
                (a - b).abs() <= 1e-6 * scale,
                "seed {seed}, point {t}: primal {a} against dual {b}"
            );
        }
        assert!(
            (primal.q - dual.q).abs() <= 1e-6 * dual.q,
            "seed {seed}: q {} against {}",
            primal.q,
            dual.q
        );
        let (lo, hi) = support_band(&pb, &fp);
        assert!(
            lo <= primal.core_size && primal.core_size <= hi,
            "seed {seed}: {} support pairs, {lo} to {hi} by brute force",
            primal.core_size
        );
        let (p, d) = duality_gap(&pb, c1, &primal.point_weights(&pb, 1.0));
        assert!(p >= d - 1e-12 * p.abs(), "weak duality: {p} < {d}");
        assert!(p - d <= 1e-9 * p.abs(), "seed {seed}: gap {} of {p}", p - d);
    }
}

/// Pairs counted from sorted scores: the support pairs and the point weights against a brute
/// force count, with ties among the scores (duplicate points) and a single negative.
#[test]
fn aucsvm_primal_handles_duplicates_and_one_negative() {
    // Duplicate points: the kernel is singular, the weights are not unique, the scores are.
    let x: Vec<f64> = (0..24)
        .map(|e| [0.1, 0.5, -0.3, 0.5, 0.1, 0.9][e % 6] + (e / 6) as f64 * 0.01)
        .collect();
    let pts = Points::from_dense(1, x);
    let k = Gaussian { sigma1: 0.4 };
    let g = Gram::from_fn(24, |i, j| k.value(&pts, i, &pts, j));
    for (pos, neg) in [
        (
            (0..24).step_by(2).collect::<Vec<_>>(),
            (1..24).step_by(2).collect::<Vec<_>>(),
        ),
        ((0..23).collect(), vec![23]),
    ] {
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let sol = solver::aucsvm(&pb, 3.0, 1e-12, 1_000, 200).unwrap();
        assert!(sol.converged);
        let w = sol.point_weights(&pb, 1.0);
        let f = pb.scores(&w);
        let (lo, hi) = support_band(&pb, &f);
        assert!(
            lo <= sol.core_size && sol.core_size <= hi,
            "{lo} {} {hi}",
            sol.core_size
        );
        assert!(lo > 0);
        let (p, d) = duality_gap(&pb, 3.0, &w);
        assert!(p - d <= 1e-9 * p.abs(), "gap {} of {p}", p - d);
    }
}

/// Haberman-like data: three features on small integer grids (min-max scaled), one point in
/// about seven a copy of an earlier one (sometimes with the other label), the classes barely
/// apart, so that most pairs are support pairs. Points `0..np` are positive.
fn haberman_like(np: usize, nn: usize, seed: u64) -> (Gram, Vec<usize>, Vec<usize>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = np + nn;
    let mut x: Vec<f64> = Vec::with_capacity(3 * n);
    for t in 0..n {
        if t > 4 && rng.random_bool(0.15) {
            let s = rng.random_range(0..t);
            x.extend_from_within(3 * s..3 * s + 3);
        } else {
            x.push(f64::from(rng.random_range(0..12u32)) / 11.0);
            x.push(f64::from(rng.random_range(0..8u32)) / 7.0);
            let nodes = if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..10u32)
            };
            x.push(f64::from(nodes) / 9.0 + if t < np { 0.05 } else { 0.0 });
        }
    }
    let pts = Points::from_dense(3, x);
    let k = Gaussian::median_std(&pts);
    let g = Gram::from_fn(n, |i, j| k.value(&pts, i, &pts, j));
    (g, (0..np).collect(), (np..n).collect())
}

/// The primal solver at the reproduction's settings (`AUCSVM_TOL`, `AUCSVM_MAX_NEWTON`) reaches the
/// optimum of the dual solver run to convergence, at C1 = 10 and 1 on Haberman-like data (ties,
/// duplicate points, heavy overlap: the regime where the two AUCSVM columns of
/// `docs/results/cvm.md` differed). The primal objective at the primal's weights and the dual
/// objective at the dual solver's alpha bracket the common optimum (weak duality), so their
/// difference below 1e-9 of the objective shows both solved the same problem to that precision;
/// the scores agree to 1e-6 of the largest (they move with the square root of the objective's
/// error, and both solvers read the same `f32` kernel).
///
/// Round 1's dual budget (tolerance 1e-6, 2,000 sweeps) stops short on all three, as it did on
/// Haberman and Pima: asserted so that the test keeps exercising that regime.
#[test]
fn aucsvm_primal_objective_equals_the_converged_dual_on_haberman_like_data() {
    for (np, nn, c1, seed) in [(20, 55, 10.0, 2), (20, 55, 1.0, 4), (15, 40, 10.0, 1)] {
        let (g, pos, neg) = haberman_like(np, nn, seed);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let primal = solver::aucsvm(&pb, c1, AUCSVM_TOL, usize::MAX, AUCSVM_MAX_NEWTON).unwrap();
        assert!(primal.converged, "seed {seed}: {} steps", primal.iterations);
        let dual = solver::aucsvm_dual(&pb, c1, 1e-10, usize::MAX, 1_000_000).unwrap();
        assert!(dual.converged, "seed {seed}: {} sweeps", dual.iterations);
        let (p, _) = duality_gap(&pb, c1, &primal.point_weights(&pb, 1.0));
        // The dual objective of the dual solver's alpha (`beta` holds alpha itself).
        let d = dual.beta.iter().sum::<f64>() - 0.5 * dual.q;
        assert!(p >= d - 1e-12 * p, "seed {seed}: weak duality, {p} < {d}");
        assert!(
            p - d <= 1e-9 * p,
            "seed {seed}, c1 {c1}: primal objective {p}, dual solver's {d}: {:.3e} apart",
            (p - d) / p
        );
        let fp = pb.scores(&primal.point_weights(&pb, 1.0));
        let fd = pb.scores(&dual.point_weights(&pb, 1.0));
        let scale = fd.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (t, (a, b)) in fp.iter().zip(&fd).enumerate() {
            assert!(
                tol::close_with(*a, *b, 1e-6 * scale, 0.0),
                "seed {seed}, point {t}: primal {a} against dual {b}"
            );
        }
        let round1 = solver::aucsvm_dual(&pb, c1, 1e-6, usize::MAX, 2_000).unwrap();
        let d1 = round1.beta.iter().sum::<f64>() - 0.5 * round1.q;
        assert!(!round1.converged && d1 < d, "seed {seed}: {d1} against {d}");
    }
}

/// At the reproduction's settings the primal's weights are optimal to a duality gap of 1e-9 of
/// the objective on Haberman-sized problems at C1 = 10 and 1 (81 / 225 points in the data set;
/// a training part holds about 65 / 180; Pima's 214 / 400). With `AUCSVM_TOL` = 1e-9 the solver
/// stopped one Newton step early on the third (gap 3e-9 of the objective), and on Pima's own
/// folds at C1 = 10 with gaps up to 3e-3 (`docs/results/cvm.md`).
#[test]
fn aucsvm_primal_closes_the_duality_gap_on_haberman_sized_problems() {
    for (np, nn, c1, seed) in [
        (65, 180, 10.0, 11),
        (65, 180, 1.0, 12),
        (80, 220, 10.0, 13),
        (160, 300, 10.0, 14),
    ] {
        let (g, pos, neg) = haberman_like(np, nn, seed);
        let pb = Problem {
            gram: &g,
            pos: &pos,
            neg: &neg,
        };
        let sol = solver::aucsvm(&pb, c1, AUCSVM_TOL, usize::MAX, AUCSVM_MAX_NEWTON).unwrap();
        assert!(sol.converged, "seed {seed}: {} steps", sol.iterations);
        let (p, d) = duality_gap(&pb, c1, &sol.point_weights(&pb, 1.0));
        assert!(p >= d - 1e-12 * p, "seed {seed}: weak duality, {p} < {d}");
        assert!(
            p - d <= 1e-9 * p,
            "seed {seed}, c1 {c1}: gap {:.3e} of {p}",
            (p - d) / p
        );
    }
}
