//! Tests of the landmark approximation: the kernel against its explicit product, the sparse
//! core product, positive definiteness.

use super::*;
use crate::fusion::Normalization;
use crate::kernels::SubKernelKind;
use crate::model::{FusedSet, KernelSpec};

fn points(n: usize, seed: u64) -> Points {
    let mut s = seed;
    let x = (0..n * 3)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect();
    Points::from_dense(3, x)
}

fn spec(count: usize) -> KernelSpec {
    KernelSpec {
        kernels: SubKernelKind::ALL.to_vec(),
        sigma_scale: 1.0,
        n_loc: 5,
        fusion: FusionParams {
            rho: 0.1,
            max_iter: 10,
            tol: 1e-3,
            normalization: Normalization::AcrossKernels,
        },
        approx: FusionApprox::Landmarks { count },
    }
}

/// Every access path of the landmark kernel against the explicit product
/// Lambda K_m Lambda^T + rho I, formed densely in f64.
#[test]
fn landmark_kernel_is_lambda_core_lambda_plus_rho() {
    let set = FusedSet::build(points(90, 3), &spec(30)).unwrap();
    let g = &set.gram;
    let lk = g.landmarks().expect("a landmark kernel");
    let (n, m, k) = (90, lk.m, lk.k);
    assert_eq!(m, 30);
    let mut lam = vec![0.0; n * m];
    for i in 0..n {
        let s: f64 = lk.lam[i * k..(i + 1) * k].iter().sum();
        assert!((s - 1.0).abs() < 1e-12, "row {i} of Lambda sums to {s}");
        for t in 0..k {
            lam[i * m + lk.nbr[i * k + t] as usize] += lk.lam[i * k + t];
        }
    }
    let want = |i: usize, j: usize| -> f64 {
        let mut s = if i == j { 0.1 } else { 0.0 };
        for a in 0..m {
            for b in 0..m {
                s += lam[i * m + a] * f64::from(lk.core[a * m + b]) * lam[j * m + b];
            }
        }
        s
    };
    let mut worst_diag = 0.0f64;
    for i in 0..n {
        for j in 0..n {
            assert!((g.get(i, j) - want(i, j)).abs() < 1e-9, "({i}, {j})");
        }
        worst_diag = worst_diag.max(want(i, i));
    }
    // Scores of point weights, and gathered rows.
    let w = vec![(3, 0.5), (17, -0.25), (60, 1.0)];
    let mut f = vec![0.0; n];
    g.add_scores(&w, &mut f);
    for (x, fx) in f.iter().enumerate() {
        let e: f64 = w.iter().map(|&(p, wp)| wp * want(p, x)).sum();
        assert!((fx - e).abs() < 1e-9, "f[{x}]");
    }
    let idx: Vec<usize> = (0..n).rev().collect();
    let mut row = vec![0f32; n];
    g.gather_row(11, &idx, &mut row);
    for (t, &j) in idx.iter().enumerate() {
        assert!((f64::from(row[t]) - want(11, j)).abs() < 1e-6);
    }
    // varsigma's bound is at least the exact maximum.
    let (pos, neg): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % 4 == 0);
    let exact = pos
        .iter()
        .flat_map(|&i| neg.iter().map(move |&j| (i, j)))
        .map(|(i, j)| want(i, i) + want(j, j) - 2.0 * want(i, j))
        .fold(f64::NEG_INFINITY, f64::max);
    let bound = g.max_pair_diag(&pos, &neg);
    assert!(
        bound >= exact - 1e-9 && bound <= 2.0 * worst_diag + 1e-9,
        "{bound} {exact}"
    );
    // Landmarks are the lowest hashes, a set independent of the row order.
    let pts = points(90, 3);
    let chosen = choose_landmarks(&pts, 30);
    let mut hashes: Vec<u64> = (0..90).map(|i| row_hash(&pts, i)).collect();
    hashes.sort_unstable();
    assert!(chosen.iter().all(|&i| row_hash(&pts, i) <= hashes[29]));
}

/// The core's product by the rows of the nonzero entries equals the product by rows: the
/// core is symmetric, with either normalization.
#[test]
fn sparse_core_product_is_the_dense_one() {
    for norm in [Normalization::AcrossKernels, Normalization::Rows] {
        let mut sp = spec(120);
        sp.fusion.normalization = norm;
        sparse_core_product_case(&FusedSet::build(points(200, 5), &sp).unwrap());
    }
}

fn sparse_core_product_case(set: &FusedSet) {
    let lk = set.gram.landmarks().expect("a landmark kernel");
    let m = lk.m;
    for a in 0..m {
        for b in 0..a {
            assert_eq!(
                lk.core[a * m + b].to_bits(),
                lk.core[b * m + a].to_bits(),
                "({a}, {b})"
            );
        }
    }
    let mut v = vec![0.0f64; m];
    let nonzero = vec![(3, 0.7), (40, -1.25), (41, 0.125), (m - 1, 2.0)];
    for &(a, x) in &nonzero {
        v[a] = x;
    }
    let dense = lk.core_times(&v, &nonzero, false);
    let sparse = lk.core_times(&v, &nonzero, true);
    let scale = dense.iter().fold(0.0f64, |t, x| t.max(x.abs()));
    assert!(scale > 0.0);
    for (b, (d, s)) in dense.iter().zip(&sparse).enumerate() {
        assert!((d - s).abs() <= 1e-12 * scale, "entry {b}: {d} against {s}");
    }
    // Through the public path: few weights take the sparse product, and give the scores
    // of the entries.
    let w = vec![(7, 0.5), (150, -0.5)];
    let mut f = vec![0.0; 200];
    set.gram.add_scores(&w, &mut f);
    for (x, fx) in f.iter().enumerate() {
        let e: f64 = w.iter().map(|&(p, wp)| wp * set.gram.get(p, x)).sum();
        assert!((fx - e).abs() < 1e-9, "f[{x}]");
    }
}

/// With every point but a few as a landmark the approximation is close to the dense fusion
/// in the ranking it induces; the symmetric positive definiteness of Lambda K Lambda^T + rho
/// I holds by construction (smallest eigenvalue at least rho).
#[test]
fn landmark_kernel_is_positive_definite() {
    let set = FusedSet::build(points(60, 9), &spec(25)).unwrap();
    let a: Vec<f64> = (0..3600).map(|e| set.gram.get(e / 60, e % 60)).collect();
    let min = auc_core::testing::symmetric_eigenvalues(60, a)
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    assert!(min > 0.09, "smallest eigenvalue {min}");
}
