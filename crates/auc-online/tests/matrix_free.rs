//! `opauc-batch` without a $p \times p$ matrix: conjugate gradients over the training rows
//! ([`RowsProblem`]) and over sketched moments ([`SketchedProblem`]) against the dense Cholesky
//! solve of the same objective, and the sketch's stated bound on the objective.

use auc_core::{BatchParams, Dataset, Label, Scorer};
use auc_online::{
    Linear, MAX_CG_STEPS, MAX_NEWTON_STEPS, MomentSolver, OaucMBatchParams, OpaucBatchParams,
    PairOperator, PairProblem, RowsProblem, SketchedProblem, moments_of, solve_psi_m,
    solve_psi_m_cg, solve_square, solve_square_cg,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` sparse rows over `p` features, about `nnz` non-zeros each in [-1, 1], some features
/// more common (so the covariance has structure), positives one in five with shifted means.
fn sparse(n: usize, p: usize, nnz: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut indptr, mut indices, mut values, mut labels) = (vec![0], vec![], vec![], vec![]);
    for i in 0..n {
        let pos = i % 5 == 0;
        let mut row: Vec<u32> = (0..nnz)
            .map(|_| {
                let u: f64 = rng.random();
                ((u * u * p as f64) as u32).min(p as u32 - 1)
            })
            .collect();
        row.sort_unstable();
        row.dedup();
        for &j in &row {
            indices.push(j);
            let shift = if pos && j % 3 == 0 { 0.4 } else { 0.0 };
            values.push((rng.random_range(-0.6f64..0.6) + shift).clamp(-1.0, 1.0));
        }
        indptr.push(indices.len());
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::sparse(p, indptr, indices, values, labels).unwrap()
}

/// Dense rows with offsets (the centring matters) and correlated features.
fn dense(n: usize, p: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut values, mut labels) = (vec![], vec![]);
    for i in 0..n {
        let pos = i % 4 == 0;
        let z: f64 = rng.random_range(-1.0..1.0);
        for j in 0..p {
            let shift = if pos { 0.2 * (j % 4) as f64 } else { 0.0 };
            values.push(5.0 + shift + z + rng.random_range(-1.0..1.0));
        }
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(p, values, labels).unwrap()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The exact objective of the square surrogate at `w` from the dense problem.
fn exact_objective(pb: &mut PairProblem, lambda: f64, w: &[f64]) -> f64 {
    let mut sw = vec![0.0; w.len()];
    pb.s_apply(w, &mut sw);
    let b = 1.0 - dot(w, &pb.delta);
    0.5 * lambda * dot(w, w) + 0.5 * (b * b + dot(w, &sw))
}

#[test]
fn the_rows_operator_is_the_dense_covariance() {
    for d in [sparse(300, 40, 6, 1), dense(120, 9, 2)] {
        let mut pb = PairProblem::new(&moments_of(&d)).unwrap();
        let mut rows = RowsProblem::new(&d).unwrap();
        assert_eq!(rows.counts(), pb.counts());
        assert!(dist(rows.delta(), &pb.delta) <= 1e-12);
        let scale = pb.s_diag().iter().fold(0.0f64, |m, v| m.max(*v));
        assert!(dist(&rows.s_diag(), &pb.s_diag()) <= 1e-12 * scale);
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..5 {
            let v: Vec<f64> = (0..d.dim()).map(|_| rng.random_range(-1.0..1.0)).collect();
            let (mut a, mut b) = (vec![0.0; d.dim()], vec![0.0; d.dim()]);
            pb.s_apply(&v, &mut a);
            rows.s_apply(&v, &mut b);
            assert!(
                dist(&a, &b) <= 1e-11 * scale * dot(&v, &v).sqrt(),
                "{a:?} vs {b:?}"
            );
        }
    }
}

#[test]
fn conjugate_gradients_find_the_cholesky_minimizer_with_a_certificate() {
    for (d, lambda) in [
        (sparse(400, 60, 8, 4), 2f64.powi(-9)),
        (sparse(400, 60, 8, 4), 1.0),
        (dense(200, 12, 5), 2f64.powi(-9)),
    ] {
        let mut pb = PairProblem::new(&moments_of(&d)).unwrap();
        let exact = solve_square(lambda, &pb).unwrap();
        for cg in [
            solve_square_cg(lambda, &mut pb, MAX_CG_STEPS).unwrap(),
            solve_square_cg(lambda, &mut RowsProblem::new(&d).unwrap(), MAX_CG_STEPS).unwrap(),
        ] {
            let bound = cg.grad_norm / lambda;
            assert!(bound <= 1e-6 * dot(&cg.w, &cg.w).sqrt().max(1.0), "{bound}");
            // The certificate holds against the Cholesky minimizer.
            assert!(dist(&cg.w, &exact.w) <= bound + 1e-9, "{bound}");
            assert!((cg.objective - exact.objective).abs() <= 1e-9 * exact.objective);
        }
    }
}

#[test]
fn the_cg_solver_fits_on_rows_what_cholesky_fits() {
    let d = sparse(500, 50, 7, 6);
    let fit = |solver| {
        OpaucBatchParams {
            solver,
            ..OpaucBatchParams::default()
        }
        .fit_model(&d, 0)
        .unwrap()
        .0
    };
    let (a, b) = (fit(MomentSolver::Cholesky), fit(MomentSolver::Cg));
    assert!(
        a.converged() && b.converged(),
        "{} / {}",
        a.summary(),
        b.summary()
    );
    assert!(dist(a.weights(), b.weights()) <= a.distance_bound() + b.distance_bound() + 1e-9);
    assert_eq!(a.counts(), b.counts());
    // Auto picks Cholesky on narrow data: bit for bit the dense fit.
    assert_eq!(fit(MomentSolver::Auto), a);
    let x = d.row(3);
    assert!((a.score(x) - b.score(x)).abs() <= 1e-6);
}

#[test]
fn a_sketch_of_full_rank_is_exact() {
    // Rank of each class's rows <= p = 10 <= ell: the sketch keeps everything.
    let d = sparse(300, 10, 4, 7);
    let lambda = 2f64.powi(-9);
    let exact = solve_square(lambda, &PairProblem::new(&moments_of(&d)).unwrap()).unwrap();
    let mut sk = SketchedProblem::from_dataset(&d, 16).unwrap();
    assert!(sk.error_bound() <= 1e-12, "{}", sk.error_bound());
    let s = solve_square_cg(lambda, &mut sk, MAX_CG_STEPS).unwrap();
    assert!(dist(&s.w, &exact.w) <= 1e-6 * dot(&exact.w, &exact.w).sqrt().max(1.0));
}

#[test]
fn a_small_sketch_is_within_its_stated_bound_of_the_exact_objective() {
    let d = sparse(3000, 400, 12, 8);
    let mut pb = PairProblem::new(&moments_of(&d)).unwrap();
    for (ell, lambda) in [(8, 0.05), (32, 0.05), (32, 2f64.powi(-6))] {
        let exact = solve_square(lambda, &pb).unwrap();
        let mut sk = SketchedProblem::from_dataset(&d, ell).unwrap();
        let eps = sk.error_bound();
        assert!(
            eps > 0.0,
            "a rank-{ell} sketch of 400 features loses something"
        );
        let s = solve_square_cg(lambda, &mut sk, MAX_CG_STEPS).unwrap();
        // F(w_sketch) - F(w*) <= eps/2 (|w*|^2 + |w_sketch|^2) plus the solver's gap.
        let gap = exact_objective(&mut pb, lambda, &s.w) - exact.objective;
        let allowed = 0.5 * eps * (dot(&exact.w, &exact.w) + dot(&s.w, &s.w))
            + s.grad_norm * s.grad_norm / (2.0 * lambda)
            + 1e-12;
        assert!(
            gap >= -1e-12 && gap <= allowed,
            "ell {ell}: gap {gap}, bound {allowed}"
        );
    }
}

#[test]
fn the_sketch_parameter_fits_a_scorer_close_to_the_exact_one() {
    let d = sparse(2000, 300, 10, 9);
    let exact = OpaucBatchParams::default().fit_model(&d, 0).unwrap().0;
    let (sk, line) = OpaucBatchParams {
        sketch: 64,
        ..OpaucBatchParams::default()
    }
    .fit_model(&d, 0)
    .unwrap();
    assert!(line.contains("sketch rank 64"), "{line}");
    let agree = d
        .iter()
        .map(|(x, _)| (exact.score(x) - sk.score(x)).abs())
        .fold(0.0f64, f64::max);
    let scale = d
        .iter()
        .map(|(x, _)| exact.score(x).abs())
        .fold(0.0f64, f64::max);
    assert!(agree <= 0.5 * scale, "scores differ by {agree} of {scale}");
}

#[test]
fn newton_cg_finds_the_dense_psi_m_minimizer_with_a_certificate() {
    for (d, lambda) in [
        (sparse(400, 60, 8, 10), 2f64.powi(-10)),
        (sparse(400, 60, 8, 10), 0.5),
        (dense(200, 12, 11), 2f64.powi(-10)),
    ] {
        let mut pb = PairProblem::new(&moments_of(&d)).unwrap();
        let exact = solve_psi_m(lambda, &pb).unwrap();
        for cg in [
            solve_psi_m_cg(lambda, &mut pb, MAX_NEWTON_STEPS).unwrap(),
            solve_psi_m_cg(lambda, &mut RowsProblem::new(&d).unwrap(), MAX_NEWTON_STEPS).unwrap(),
        ] {
            let bound = cg.grad_norm / lambda;
            assert!(bound <= 1e-6 * dot(&cg.w, &cg.w).sqrt().max(1.0), "{bound}");
            assert!(dist(&cg.w, &exact.w) <= bound + exact.grad_norm / lambda + 1e-9);
            assert!((cg.objective - exact.objective).abs() <= 1e-9 * exact.objective);
            assert!(cg.steps >= 2, "Newton from w = 0 takes steps");
        }
    }
}

#[test]
fn oauc_m_batch_fits_on_rows_what_it_fits_densely() {
    let d = sparse(500, 50, 7, 12);
    let fit = |solver, sketch| {
        OaucMBatchParams {
            solver,
            sketch,
            ..OaucMBatchParams::default()
        }
        .fit_model(&d, 0)
        .unwrap()
    };
    let (a, b) = (fit(MomentSolver::Cholesky, 0).0, fit(MomentSolver::Cg, 0).0);
    assert!(
        a.converged() && b.converged(),
        "{} / {}",
        a.summary(),
        b.summary()
    );
    assert!(dist(a.weights(), b.weights()) <= a.distance_bound() + b.distance_bound() + 1e-9);
    assert_eq!(fit(MomentSolver::Auto, 0).0, a);
    // A sketch of full rank (50 features, rank 64) is the exact problem.
    let (c, line) = fit(MomentSolver::Auto, 64);
    assert!(line.contains("sketch rank 64"), "{line}");
    assert!(dist(c.weights(), a.weights()) <= 1e-5 * dot(a.weights(), a.weights()).sqrt());
}

/// One-hot rows of 0/1 values (fields of a few hundred values, a rare positive class): the
/// sketch's estimate minus the exact mean terms has negative curvature, which the problem puts
/// back as at most one rank-one term per class (docs/math/sketched-moments.md section 6). The
/// operator, formed column by column, is then positive semi-definite, and `opauc-batch` solves
/// it with no ridge.
#[test]
fn the_sketched_operator_has_its_negative_parts_put_back() {
    let (n, fields, values) = (2000usize, 4usize, 30usize);
    let p = fields * values;
    let mut rng = StdRng::seed_from_u64(21);
    let (mut indptr, mut indices, mut vals, mut labels) = (vec![0], vec![], vec![], vec![]);
    for _ in 0..n {
        let mut logit: f64 = -2.5;
        for f in 0..fields {
            let u: f64 = rng.random();
            let v = ((u * u * u * values as f64) as usize).min(values - 1);
            indices.push((f * values + v) as u32);
            vals.push(1.0);
            logit += if v % 4 == 0 { 0.8 } else { -0.2 };
        }
        indptr.push(indices.len());
        let pos = rng.random::<f64>() < 1.0 / (1.0 + (-logit).exp());
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    let d = Dataset::sparse(p, indptr, indices, vals, labels).unwrap();
    let mut sk = SketchedProblem::from_dataset(&d, 4).unwrap();
    assert!(
        sk.clipped() > 0.0,
        "this data has a negative part to put back"
    );
    let mut s = faer::Mat::<f64>::zeros(p, p);
    let (mut e, mut col) = (vec![0.0; p], vec![0.0; p]);
    for j in 0..p {
        e[j] = 1.0;
        sk.s_apply(&e, &mut col);
        for i in 0..p {
            s[(i, j)] = col[i];
        }
        e[j] = 0.0;
    }
    let sym = faer::Mat::from_fn(p, p, |i, j| 0.5 * (s[(i, j)] + s[(j, i)]));
    let evd = sym.self_adjoint_eigen(faer::Side::Lower).unwrap();
    let eig = evd.S().column_vector();
    let (lo, hi) = (0..p).fold((f64::INFINITY, 0.0f64), |(lo, hi), i| {
        (lo.min(eig[i]), hi.max(eig[i].abs()))
    });
    assert!(lo >= -1e-10 * hi, "smallest eigenvalue {lo} of {hi}");
    let (_, line) = OpaucBatchParams {
        sketch: 4,
        ..OpaucBatchParams::default()
    }
    .fit_model(&d, 0)
    .unwrap();
    assert!(line.contains("negative parts put back"), "{line}");
    assert!(!line.contains("solved with"), "{line}");
}

/// A [`PairOperator`] that counts its products with $S$.
struct Counted<O> {
    inner: O,
    products: usize,
}

impl<O: PairOperator> PairOperator for Counted<O> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn delta(&self) -> &[f64] {
        self.inner.delta()
    }
    fn counts(&self) -> (u64, u64) {
        self.inner.counts()
    }
    fn s_apply(&mut self, v: &[f64], out: &mut [f64]) {
        self.products += 1;
        self.inner.s_apply(v, out);
    }
    fn s_diag(&self) -> Vec<f64> {
        self.inner.s_diag()
    }
}

/// Features whose scales span six decades (hashed crosses beside plain features have such
/// spreads): Newton-CG preconditioned by the Hessian's diagonal still finds the dense minimizer
/// in a few hundred products with $S$, and stops once certified instead of running Newton steps
/// to the step cap (on crossed a9a the unpreconditioned solve took 100 steps of up to 2,000
/// products each).
#[test]
fn newton_cg_on_badly_scaled_features_stops_when_certified() {
    let (n, p) = (300, 30);
    let d = dense(n, p, 23);
    let (x, labels): (Vec<f64>, Vec<Label>) = (
        d.iter()
            .flat_map(|(row, _)| {
                let mut v = vec![0.0; p];
                row.for_each(|j, a| v[j] = a * 10f64.powi(j as i32 % 7 - 3));
                v
            })
            .collect(),
        d.iter().map(|(_, y)| y).collect(),
    );
    let d = Dataset::dense(p, x, labels).unwrap();
    let lambda = 2f64.powi(-10);
    let exact = solve_psi_m(lambda, &PairProblem::new(&moments_of(&d)).unwrap()).unwrap();
    let mut op = Counted {
        inner: RowsProblem::new(&d).unwrap(),
        products: 0,
    };
    let cg = solve_psi_m_cg(lambda, &mut op, MAX_NEWTON_STEPS).unwrap();
    let bound = cg.grad_norm / lambda;
    assert!(bound <= 1e-6 * dot(&cg.w, &cg.w).sqrt().max(1.0), "{bound}");
    assert!((cg.objective - exact.objective).abs() <= 1e-9 * exact.objective);
    assert!(cg.steps < 30, "{} Newton steps", cg.steps);
    assert!(op.products <= 600, "{} products with S", op.products);
}
