//! pAUC-SVM against brute-force computations of its objective over every pair, and its
//! certificate against independent minimizations (`docs/math/pauc-learner.md`).

#![allow(
    clippy::needless_range_loop,
    reason = "brute-force reference computations index by position"
)]

use auc_core::{BatchParams, Dataset, Label, SavedState, Scorer};
use auc_online::{Linear, PaucModel, PaucSettings, PaucSvmParams, solve_pauc, top_count};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` rows of `p` features, a third positive, overlapping classes with a heavy tail of
/// negatives near the positives (so the top of the negatives differs from their bulk).
fn data(n: usize, p: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut values = Vec::with_capacity(n * p);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let pos = i % 3 == 0;
        let hard = i % 7 == 1;
        for j in 0..p {
            let centre = if pos {
                1.0 - 0.3 * j as f64
            } else if hard {
                0.8 + 0.5 * j as f64
            } else {
                -1.0
            };
            values.push(centre + rng.random_range(-1.0..1.0));
        }
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(p, values, labels).unwrap()
}

/// $J(w)$ by brute force: every pair's squared hinge, the negatives' sums sorted.
fn brute_objective(d: &Dataset, w: &[f64], lambda: f64, beta: f64) -> f64 {
    let f: Vec<f64> = d.iter().map(|(x, _)| x.dot(w)).collect();
    let pos: Vec<usize> = (0..d.n()).filter(|&i| d.label(i) == Label::Pos).collect();
    let neg: Vec<usize> = (0..d.n()).filter(|&i| d.label(i) == Label::Neg).collect();
    let mut h: Vec<f64> = neg
        .iter()
        .map(|&j| {
            pos.iter()
                .map(|&i| 0.5 * (1.0 - f[i] + f[j]).max(0.0).powi(2))
                .sum()
        })
        .collect();
    h.sort_by(|a, b| b.total_cmp(a));
    let k = top_count(beta, neg.len());
    let loss: f64 = h[..k].iter().sum::<f64>() / (pos.len() * k) as f64;
    0.5 * lambda * w.iter().map(|x| x * x).sum::<f64>() + loss
}

fn settings(lambda: f64, beta: f64, tol: f64) -> PaucSettings {
    PaucSettings {
        lambda,
        beta,
        tol,
        max_steps: 100_000,
    }
}

#[test]
fn reported_objective_is_the_brute_force_objective_of_the_returned_weights() {
    let d = data(60, 3, 1);
    for beta in [0.05, 0.1, 0.3, 1.0] {
        let s = solve_pauc(&d, settings(0.01, beta, 1e-5)).unwrap();
        let want = brute_objective(&d, &s.w, 0.01, beta);
        assert!(
            (s.objective - want).abs() <= 1e-10 * want,
            "beta {beta}: {} vs {want}",
            s.objective
        );
        assert!(
            s.gap() <= 1e-5 * s.objective,
            "beta {beta}: gap {}",
            s.gap()
        );
        assert!(
            s.lower <= s.objective * (1.0 + 1e-12),
            "{} > {}",
            s.lower,
            s.objective
        );
    }
}

/// One feature: $J$ is a convex function of one number, minimized independently by golden-section
/// search to far below the solver's tolerance.
#[test]
fn one_feature_optimum_matches_golden_section_search() {
    let d = data(45, 1, 2);
    let (lambda, beta) = (0.05, 0.2);
    let j = |w: f64| brute_objective(&d, &[w], lambda, beta);
    let (mut a, mut b) = (-20.0f64, 20.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let (x1, x2) = (b - r * (b - a), a + r * (b - a));
        if j(x1) < j(x2) {
            b = x2;
        } else {
            a = x1;
        }
    }
    let best = j(0.5 * (a + b));
    let s = solve_pauc(&d, settings(lambda, beta, 1e-9)).unwrap();
    // The certificate holds against the independent minimum, and is tight.
    assert!(
        s.objective - best <= s.gap() + 1e-12,
        "{} vs {best}",
        s.objective
    );
    assert!(
        s.objective - best <= 1e-8 * best,
        "{} vs {best}",
        s.objective
    );
    assert!(
        s.lower <= best + 1e-12,
        "lower bound {} above the minimum {best}",
        s.lower
    );
    let w_star = 0.5 * (a + b);
    assert!((s.w[0] - w_star).abs() <= (2.0 * s.gap() / lambda).sqrt() + 1e-6);
}

/// Two features: no point of a fine grid around the solution has a lower objective than the
/// certificate allows.
#[test]
fn no_grid_point_beats_the_certificate() {
    let d = data(50, 2, 3);
    let (lambda, beta) = (0.02, 0.1);
    let s = solve_pauc(&d, settings(lambda, beta, 1e-4)).unwrap();
    let radius = (2.0 * s.objective / lambda).sqrt().min(5.0);
    let mut grid_min = f64::INFINITY;
    for a in -60..=60 {
        for b in -60..=60 {
            let w = [
                s.w[0] + radius * f64::from(a) / 60.0,
                s.w[1] + radius * f64::from(b) / 60.0,
            ];
            grid_min = grid_min.min(brute_objective(&d, &w, lambda, beta));
        }
    }
    assert!(
        grid_min >= s.lower - 1e-12,
        "grid {grid_min} below the bound {}",
        s.lower
    );
    assert!(s.objective - grid_min <= s.gap() + 1e-12);
}

/// With $\beta = 1$ every negative counts: the objective is smooth, and its brute-force gradient
/// vanishes at the solution.
#[test]
fn whole_range_is_the_squared_hinge_auc_optimum() {
    let d = data(40, 3, 4);
    let lambda = 0.01;
    let s = solve_pauc(&d, settings(lambda, 1.0, 1e-12)).unwrap();
    let f: Vec<f64> = d.iter().map(|(x, _)| x.dot(&s.w)).collect();
    let mut g: Vec<f64> = s.w.iter().map(|w| lambda * w).collect();
    let (np, nn) = d.class_counts();
    for i in 0..d.n() {
        for j in 0..d.n() {
            if d.label(i) == Label::Pos && d.label(j) == Label::Neg {
                let m = (1.0 - f[i] + f[j]).max(0.0) / (np * nn) as f64;
                for t in 0..3 {
                    g[t] -= m * (d.row(i).get(t) - d.row(j).get(t));
                }
            }
        }
    }
    let gn = g.iter().map(|x| x * x).sum::<f64>().sqrt();
    assert!(gn <= 1e-6, "gradient {gn}");
    assert_eq!(s.weight_steps, 0, "the weights of beta = 1 are fixed");
}

#[test]
fn sparse_and_dense_storage_give_the_same_model() {
    let dense = data(70, 4, 5);
    let (mut indptr, mut indices, mut values) = (vec![0], vec![], vec![]);
    for (x, _) in dense.iter() {
        for t in 0..4 {
            let v = x.get(t);
            // Drop some coordinates to zero so the sparse rows are really sparse.
            if t % 2 == 0 || v > 0.0 {
                indices.push(t as u32);
                values.push(v);
            }
        }
        indptr.push(indices.len());
    }
    let sparse = Dataset::sparse(4, indptr, indices, values, dense.labels().to_vec()).unwrap();
    let a = solve_pauc(&sparse, settings(0.01, 0.1, 1e-8)).unwrap();
    let b = solve_pauc(&sparse.to_dense(), settings(0.01, 0.1, 1e-8)).unwrap();
    for (x, y) in a.w.iter().zip(&b.w) {
        assert!((x - y).abs() <= 1e-6 * (1.0 + x.abs()), "{x} vs {y}");
    }
    assert!((a.objective - b.objective).abs() <= 1e-9 * a.objective);
}

#[test]
fn model_scores_saves_and_refuses_a_damaged_state() {
    let d = data(60, 3, 6);
    let (m, summary) = PaucSvmParams::default().fit_model(&d, 0).unwrap();
    assert!(summary.contains("top 4 of 40 negatives"), "{summary}");
    assert!(m.converged(), "{summary}");
    let (x, _) = d.iter().next().unwrap();
    let want: f64 = m
        .weights()
        .iter()
        .enumerate()
        .map(|(t, w)| w * x.get(t))
        .sum();
    assert!((m.score(x) - want).abs() <= 1e-12);
    let bytes = postcard::to_allocvec(&m).unwrap();
    let back: PaucModel = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, m);
    back.validate().unwrap();
    let mut json = serde_json::to_value(&m).unwrap();
    json["k"] = serde_json::json!(41);
    let bad: PaucModel = serde_json::from_value(json).unwrap();
    let err = bad.validate().unwrap_err().to_string();
    assert!(err.contains("top 41 of 40 negatives"), "{err}");
}

#[test]
fn bad_parameters_and_one_class_are_refused() {
    let d = data(30, 2, 7);
    for p in [
        PaucSvmParams {
            beta: 0.0,
            ..Default::default()
        },
        PaucSvmParams {
            beta: 1.5,
            ..Default::default()
        },
        PaucSvmParams {
            lambda: -1.0,
            ..Default::default()
        },
        PaucSvmParams {
            max_steps: 0,
            ..Default::default()
        },
    ] {
        assert!(p.fit_model(&d, 0).is_err(), "{p:?}");
    }
    let neg = d.select(
        &(0..d.n())
            .filter(|&i| d.label(i) == Label::Neg)
            .collect::<Vec<_>>(),
    );
    assert!(PaucSvmParams::default().fit_model(&neg, 0).is_err());
}
