//! GAM-CVM through its public API: parameter errors, transductive and inductive scoring, the
//! role of C2, the baselines, saved inductive models.

use auc_core::Label::{Neg, Pos};
use auc_core::{Dataset, DynFit, FitError, Row, Scorer};
use auc_cvm::kernels::SubKernelKind::{Density, Gaussian, Pearson};
use auc_cvm::{GamCvmModel, GamCvmParams, GamCvmSettings, InductiveModel, SolverKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Two overlapping Gaussian-ish classes in 4-d: positives shifted by 0.8 on every feature.
fn data(n_pos: usize, n_neg: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut values = Vec::new();
    let mut labels = Vec::new();
    for i in 0..n_pos + n_neg {
        let pos = i < n_pos;
        for j in 0..4 {
            let noise: f64 = (0..4).map(|_| rng.random_range(-0.5..0.5)).sum();
            values.push(noise + if pos { 0.8 } else { 0.0 } + 0.1 * j as f64);
        }
        labels.push(if pos { Pos } else { Neg });
    }
    Dataset::dense(4, values, labels).unwrap()
}

/// AUC by counting pairs, ties 1/2.
fn auc(scores: &[f64], data: &Dataset) -> f64 {
    let (mut s, mut c) = (0.0, 0.0);
    for i in 0..data.n() {
        for j in 0..data.n() {
            if data.label(i).is_pos() && !data.label(j).is_pos() {
                c += 1.0;
                s += if scores[i] > scores[j] {
                    1.0
                } else if scores[i] < scores[j] {
                    0.0
                } else {
                    0.5
                };
            }
        }
    }
    s / c
}

/// Settings from `(name, value)` pairs as JSON would give them (integral values as integers),
/// range-checked.
fn settings(m: &[(&str, f64)]) -> Result<GamCvmSettings, String> {
    let obj: serde_json::Map<String, serde_json::Value> = m
        .iter()
        .map(|&(k, v)| {
            let json = if v.fract() == 0.0 && v >= 0.0 {
                serde_json::json!(v as u64)
            } else {
                serde_json::json!(v)
            };
            (k.to_owned(), json)
        })
        .collect();
    let s: GamCvmSettings =
        serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| e.to_string())?;
    s.check().map_err(|e| e.to_string())?;
    Ok(s)
}

/// The three-kernel CVM parameters of `m`.
fn params(m: &[(&str, f64)]) -> GamCvmParams {
    with_kernels(m, &[Gaussian, Pearson, Density], SolverKind::Cvm)
}

fn with_kernels(
    m: &[(&str, f64)],
    kernels: &[auc_cvm::kernels::SubKernelKind],
    solver: SolverKind,
) -> GamCvmParams {
    settings(m).unwrap().resolve(kernels, solver)
}

#[test]
fn bad_parameters_are_named_errors() {
    let err = |m: &[(&str, f64)]| settings(m).unwrap_err();
    assert_eq!(
        err(&[("c1", 0.0)]),
        "parameter c1 = 0 is out of range: it must be finite and > 0"
    );
    assert_eq!(
        err(&[("epsilon", 1.0)]),
        "parameter epsilon = 1 is out of range: it must be in (0, 1)"
    );
    assert!(err(&[("epsilon", 0.0)]).contains("epsilon"));
    assert!(err(&[("c2", -1.0)]).contains("c2"));
    assert!(err(&[("n_loc", 2.5)]).contains("expected usize"));
    assert!(err(&[("bogus", 1.0)]).contains("unknown field `bogus`"));
    // n_loc >= n is known only at fit time.
    let d = data(3, 5, 1);
    let e = params(&[("n_loc", 8.0)]).fit_dyn(&d, 0).err().unwrap();
    assert_eq!(
        e.to_string(),
        "parameter n_loc = 8 is out of range: it must be below the number of points the kernel is built on"
    );
    let one = Dataset::dense(1, vec![0.0, 1.0, 2.0], vec![Pos, Pos, Pos]).unwrap();
    assert_eq!(
        params(&[("n_loc", 1.0)]).fit_dyn(&one, 0).err(),
        Some(FitError::SingleClass)
    );
}

#[test]
fn gam_cvm_ranks_held_out_points_in_both_modes() {
    let train = data(40, 120, 2);
    let test = data(20, 60, 3);
    let p = params(&[("n_loc", 8.0), ("c1", 1.0), ("epsilon", 1e-3)]);
    let trans = p.fit_transductive(&train, &test, 5).unwrap();
    let induct = p.fit_dyn(&train, 5).unwrap();
    let (st, si) = (trans.scores.clone(), induct.score_all(&test));
    // The transductive scores are the fitted ones of the scored rows.
    assert_eq!(trans.model.score_all(&test), st);
    assert!(st.iter().chain(&si).all(|v| v.is_finite()));
    let (at, ai) = (auc(&st, &test), auc(&si, &test));
    assert!(at > 0.85 && ai > 0.85, "transductive {at}, inductive {ai}");
    // Training rows are found by their features: their scores are the fitted ones.
    let m = p.fit_with(&train, Some(&test), 5).unwrap();
    let fitted = m.fitted_scores();
    for i in [0, 7, 100] {
        assert_eq!(m.score(train.row(i)).to_bits(), fitted[i].to_bits());
    }
    for i in [0, 11] {
        assert_eq!(m.score(test.row(i)).to_bits(), fitted[160 + i].to_bits());
    }
    let info = m.info();
    assert!(info.converged && info.core_size >= 2 && info.tau > 0.0);
    assert!(info.fusion_iterations >= 1);
}

/// The landmark approximation: a fit through 60 landmarks of 240 points ranks the held-out rows
/// about as well as the dense fusion, its training rows get their fitted scores, and the saved
/// model (the landmarks and their scores) scores new rows bit for bit as the fitted model.
#[test]
fn landmark_fusion_ranks_like_the_dense_one_and_saves_its_landmarks() {
    let train = data(40, 120, 2);
    let test = data(20, 60, 3);
    let base = [("n_loc", 8.0), ("c1", 1.0), ("epsilon", 1e-3)];
    let dense = params(&base);
    let approx = params(&[base[0], base[1], base[2], ("landmarks", 60.0)]);
    let (sd, sa) = (
        dense.fit_transductive(&train, &test, 5).unwrap().scores,
        approx.fit_transductive(&train, &test, 5).unwrap().scores,
    );
    let (ad, aa) = (auc(&sd, &test), auc(&sa, &test));
    assert!(
        aa > 0.85 && (ad - aa).abs() < 0.05,
        "dense {ad}, landmarks {aa}"
    );
    let m = approx.fit_with(&train, None, 5).unwrap();
    for i in [0, 9, 150] {
        assert_eq!(
            m.score(train.row(i)).to_bits(),
            m.fitted_scores()[i].to_bits()
        );
    }
    let saved = m.to_inductive();
    assert_eq!(saved.n(), 60, "the saved model keeps the landmarks");
    let back = InductiveModel::from_bytes(&saved.to_bytes()).unwrap();
    for i in 0..test.n() {
        let (a, b) = (m.score(test.row(i)), back.score(test.row(i)));
        assert_eq!(a.to_bits(), b.to_bits(), "test row {i}: {a} against {b}");
    }
    // Range checks: landmarks above n_loc, and only for a fusion.
    assert!(settings(&[("landmarks", 8.0), ("n_loc", 8.0)]).is_err());
    let single = settings(&[("landmarks", 50.0)])
        .unwrap()
        .resolve(&[Gaussian], SolverKind::Cvm);
    assert!(single.check().is_err());
}

/// The estimate covers what a fit reports for its fusion, grows as n^2 for the dense fusion and
/// as n for the landmark one, and adds AUCSVM's dual.
#[test]
fn memory_estimate_covers_the_fusion_and_the_solvers() {
    let train = data(40, 120, 2);
    let p = params(&[("n_loc", 8.0)]);
    let m = p.fit_with(&train, None, 1).unwrap();
    let est = p.estimate_bytes(160, 4, 40, 120);
    assert!(est >= m.info().fusion_peak_bytes as u64, "{est}");
    let big = |n: usize| p.estimate_bytes(n, 16, n / 25, n - n / 25);
    // Letter-z: 4 packed triangles of 20,000 points (3.2 GB) dominate.
    let lz = big(20_000);
    assert!((3_200_000_000..4_000_000_000).contains(&lz), "{lz}");
    assert!(big(40_000) > 3 * lz);
    let approx = params(&[("n_loc", 8.0), ("landmarks", 4000.0)]);
    let a = approx.estimate_bytes(100_000, 10, 50_000, 50_000);
    assert!(a < 1_000_000_000, "{a}");
    let svm = with_kernels(
        &[("n_loc", 4.0)],
        &[Gaussian],
        SolverKind::AucSvm { max_pairs: 1 << 30 },
    );
    let e = svm.estimate_bytes(5_000, 10, 500, 4_500);
    assert!(
        e >= auc_cvm::solver::aucsvm_bytes(500, 4_500) + 4 * 5_000 * 5_000,
        "{e}"
    );
}

#[test]
fn c2_only_scales_scores() {
    let train = data(15, 45, 4);
    let test = data(10, 30, 5);
    let a = params(&[("n_loc", 6.0), ("c2", 0.01)])
        .fit_with(&train, Some(&test), 1)
        .unwrap();
    let b = params(&[("n_loc", 6.0), ("c2", 100.0)])
        .fit_with(&train, Some(&test), 1)
        .unwrap();
    for (x, y) in a.fitted_scores().iter().zip(b.fitted_scores()) {
        assert!(
            (x * 1e4 - y).abs() <= 1e-9 * y.abs().max(1e-12),
            "{x} vs {y}"
        );
    }
    assert!((a.info().tau * 1e4 - b.info().tau).abs() <= 1e-9 * b.info().tau);
}

#[test]
fn single_kernel_inductive_score_is_the_kernel_expansion() {
    let train = data(10, 30, 6);
    let p = with_kernels(&[("n_loc", 4.0)], &[Gaussian], SolverKind::Cvm);
    let m = p.fit_with(&train, None, 2).unwrap();
    // A training point scored as if new: k(x, x_j) exactly versus the f32 kernel matrix.
    for i in [0, 5, 39] {
        let Row::Dense(x) = train.row(i) else {
            unreachable!()
        };
        let (new, fitted) = (m.score_new(x), m.fitted_scores()[i]);
        assert!(
            (new - fitted).abs() <= 1e-5 * fitted.abs().max(1.0),
            "{new} vs {fitted}"
        );
    }
}

#[test]
fn aucsvm_refuses_large_problems_and_solves_small_ones() {
    let train = data(10, 30, 7);
    let n_loc = [("n_loc", 4.0)];
    let small = with_kernels(&n_loc, &[Gaussian], SolverKind::AucSvm { max_pairs: 300 });
    let m = small.fit_with(&train, None, 0).unwrap();
    assert!(m.info().converged);
    assert!(auc(m.fitted_scores(), &train) > 0.9);
    let tiny = with_kernels(&n_loc, &[Gaussian], SolverKind::AucSvm { max_pairs: 299 });
    let e = tiny.fit_dyn(&train, 0).err().unwrap();
    assert_eq!(
        e,
        FitError::TooLarge {
            what: "positive-negative pairs (AUCSVM's limit: its kernel products grow as the square of the training points)",
            size: 300,
            limit: 299
        }
    );
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<GamCvmParams>();
    check::<auc_cvm::GamCvmModel>();
    check::<auc_cvm::FusedSet>();
    check::<InductiveModel>();
    check::<auc_cvm::RestoreError>();
}

#[test]
fn a_kernel_cache_shares_fusions_without_changing_results() {
    use auc_cvm::{CachedFit, KernelCache};
    use std::sync::Arc;
    let train = data(12, 30, 8);
    let test = data(6, 15, 9);
    let cache = Arc::new(KernelCache::new(1 << 30));
    let plain = params(&[("n_loc", 5.0), ("c1", 0.1)]);
    let want = plain.fit_transductive(&train, &test, 4).unwrap().scores;
    let cached = CachedFit {
        params: plain.clone(),
        cache: Arc::clone(&cache),
    };
    let got = cached.fit_transductive(&train, &test, 4).unwrap().scores;
    assert_eq!(cache.len(), 1);
    // Another C1 on the same rows reuses the kernel; another n_loc builds a new one.
    let other_c1 = CachedFit {
        params: params(&[("n_loc", 5.0), ("c1", 10.0)]),
        cache: Arc::clone(&cache),
    };
    let m = other_c1
        .params
        .fit_cached(&train, Some(&test), 4, Some(&cache))
        .unwrap();
    assert_eq!(cache.len(), 1);
    assert_eq!(m.info().fusion_seconds.to_bits(), 0f64.to_bits());
    let _ = other_c1.fit_dyn(&train, 4).unwrap();
    assert_eq!(cache.len(), 2, "training rows alone are other points");
    for (a, b) in want.iter().zip(&got) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    // A cache too small for two kernels keeps only the newest.
    let tiny = KernelCache::new(1);
    let p6 = params(&[("n_loc", 6.0)]);
    let _ = plain.fit_cached(&train, None, 0, Some(&tiny)).unwrap();
    let _ = p6.fit_cached(&train, None, 0, Some(&tiny)).unwrap();
    assert_eq!(tiny.len(), 1);
}

#[test]
fn fits_are_bit_identical_for_any_thread_count() {
    let train = data(20, 60, 10);
    let test = data(8, 20, 11);
    let p = params(&[("n_loc", 7.0)]);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                p.fit_with(&train, Some(&test), 3)
                    .unwrap()
                    .fitted_scores()
                    .to_vec()
            })
    };
    let one = run(1);
    for threads in [2, 3, 7] {
        let other = run(threads);
        assert!(
            one.iter()
                .zip(&other)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{threads} threads"
        );
    }
}

/// The inductive model of each sub-kernel set, fitted on `train` (n_loc 6, seed 3).
fn inductive(kernels: &[auc_cvm::kernels::SubKernelKind], train: &Dataset) -> GamCvmModel {
    with_kernels(&[("n_loc", 6.0)], kernels, SolverKind::Cvm)
        .fit_with(train, None, 3)
        .unwrap()
}

/// `(a, b)` bit for bit, where `a` and `b` are scores of one row.
fn same_bits(a: f64, b: f64, what: &str) {
    assert_eq!(a.to_bits(), b.to_bits(), "{what}: {a} vs {b}");
}

#[test]
fn a_saved_model_scores_every_row_bit_for_bit_as_the_fitted_one() {
    let train = data(20, 60, 12);
    let test = data(10, 30, 13);
    for kernels in [
        &[Gaussian, Pearson, Density][..],
        &[Gaussian],
        &[Pearson],
        &[Density],
        &[Pearson, Density],
    ] {
        let m = inductive(kernels, &train);
        let saved = m.to_inductive();
        let (direct, info) = with_kernels(&[("n_loc", 6.0)], kernels, SolverKind::Cvm)
            .fit_inductive(&train, 3)
            .unwrap();
        assert_eq!(direct, saved, "fit_inductive fits as fit_with(train, None)");
        assert_eq!(info.core_size, m.info().core_size);
        let bytes = saved.to_bytes();
        // O(n p): 8-byte points, sparsities and scores, at most 17 bytes per weight, a header.
        let (n, p) = (80, 4);
        assert!(
            bytes.len() <= 8 * n * (p + 2) + 17 * saved.weights().len() + 64,
            "{} bytes",
            bytes.len()
        );
        let restored = InductiveModel::from_bytes(&bytes).unwrap();
        assert_eq!(restored, saved, "{kernels:?}");
        // The serde form, as the CLI's model file embeds it, reads back the same.
        let via_serde: InductiveModel =
            postcard::from_bytes(&postcard::to_allocvec(&saved).unwrap()).unwrap();
        assert_eq!(via_serde, saved);
        assert_eq!((restored.n(), restored.dim(), restored.n_loc()), (80, 4, 6));
        for i in 0..test.n() {
            let Row::Dense(x) = test.row(i) else {
                unreachable!()
            };
            same_bits(restored.score_new(x), m.score_new(x), "score_new");
            same_bits(restored.score(test.row(i)), m.score(test.row(i)), "score");
        }
        // Training rows are found by their features and get their fitted scores.
        for i in [0, 19, 20, 79] {
            same_bits(restored.score(train.row(i)), m.fitted_scores()[i], "fitted");
        }
        let all = restored.score_all(&test);
        for (i, s) in all.iter().enumerate() {
            same_bits(*s, m.score(test.row(i)), "score_all");
        }
    }
}

#[test]
fn a_saved_single_kernel_model_is_the_kernel_expansion() {
    use auc_core::testing::tol;
    use auc_cvm::kernels::FittedKernel;
    let train = data(15, 45, 14);
    let test = data(5, 15, 15);
    let saved = inductive(&[Gaussian], &train).to_inductive();
    let [FittedKernel::Gaussian { sigma1 }] = saved.kernels() else {
        panic!("one Gaussian sub-kernel, got {:?}", saved.kernels())
    };
    let dense = |d: &Dataset, i: usize| -> Vec<f64> {
        let Row::Dense(x) = d.row(i) else {
            unreachable!()
        };
        x.to_vec()
    };
    for i in 0..test.n() {
        let x = dense(&test, i);
        // f(x) = sum_k w_k exp(-||x - x_k||^2 / (2 sigma1^2)) [CVM eqs. 14, 44].
        let want: f64 = saved
            .weights()
            .iter()
            .map(|&(k, wk)| {
                let d2: f64 = x
                    .iter()
                    .zip(dense(&train, k))
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                wk * (-d2 / (2.0 * sigma1 * sigma1)).exp()
            })
            .sum();
        let got = saved.score_new(&x);
        assert!(tol::close(got, want), "row {i}: {got} vs {want}");
    }
}

/// The wire layout of version 1, written by hand so the test can store what no fit produces.
#[derive(serde::Serialize, Clone)]
struct Wire {
    format_version: u32,
    dim: usize,
    x: Vec<f64>,
    sparsity: Vec<f64>,
    kernels: Vec<auc_cvm::kernels::FittedKernel>,
    normalization: auc_cvm::fusion::Normalization,
    n_loc: usize,
    f: Vec<f64>,
    w: Vec<(usize, f64)>,
}

/// Restoring `bytes` fails with a message containing `expected`.
fn check_restore_fails(bytes: &[u8], expected: &str) {
    let e = InductiveModel::from_bytes(bytes).unwrap_err().to_string();
    assert!(e.contains(expected), "`{e}` lacks `{expected}`");
}

#[test]
fn damaged_or_inconsistent_saved_models_are_errors() {
    use auc_cvm::kernels::FittedKernel;
    use auc_cvm::model::FORMAT_VERSION;
    let train = data(6, 10, 16);
    let saved = inductive(&[Gaussian, Pearson, Density], &train).to_inductive();
    let bytes = saved.to_bytes();
    for cut in 0..bytes.len() {
        assert!(
            InductiveModel::from_bytes(&bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    check_restore_fails(&longer, "1 unexpected bytes");
    let mut future = bytes.clone();
    future[0] = 2;
    check_restore_fails(&future, "format version 2, this build reads only version 1");
    // Any single damaged byte gives an error or a model whose scores are finite; never a panic.
    let probe = data(3, 3, 17);
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] ^= 0x5a;
        if let Ok(m) = InductiveModel::from_bytes(&b) {
            assert!(
                m.score_all(&probe).iter().all(|s| s.is_finite()),
                "byte {at}"
            );
        }
    }
    // Complete encodings of values no fit produces.
    let good = Wire {
        format_version: FORMAT_VERSION,
        dim: 2,
        x: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
        sparsity: vec![1.0, 1.0, 1.0],
        kernels: vec![
            FittedKernel::Gaussian { sigma1: 1.0 },
            FittedKernel::Pearson,
        ],
        normalization: Default::default(),
        n_loc: 1,
        f: vec![1.0, -1.0, 0.5],
        w: vec![(0, 1.0), (1, -1.0)],
    };
    let enc = |w: &Wire| postcard::to_allocvec(w).unwrap();
    assert!(InductiveModel::from_bytes(&enc(&good)).is_ok());
    let bad = |edit: fn(&mut Wire), expected: &str| {
        let mut w = good.clone();
        edit(&mut w);
        check_restore_fails(&enc(&w), expected);
    };
    bad(|w| w.f[1] = f64::NAN, "f[1] = NaN is not finite");
    bad(|w| w.x[4] = f64::INFINITY, "x[4] = inf is not finite");
    bad(
        |w| w.x.push(0.0),
        "7 feature values are not 3 points of 2 features",
    );
    bad(|w| w.f.push(0.0), "6 feature values are not 4 points");
    bad(
        |w| w.sparsity.pop().map_or((), drop),
        "2 local sparsities for 3 points",
    );
    bad(|w| w.sparsity[0] = -1.0, "sparsity[0] = -1 is negative");
    bad(|w| w.w[1].0 = 3, "point index below 3");
    bad(|w| w.w[0].1 = f64::NAN, "finite value");
    bad(|w| w.n_loc = 3, "n_loc = 3 with 3 points");
    bad(|w| w.n_loc = 0, "n_loc = 0");
    bad(|w| w.kernels.clear(), "no sub-kernel");
    bad(
        |w| w.kernels[0] = FittedKernel::Gaussian { sigma1: 0.0 },
        "finite bandwidth > 0",
    );
    bad(
        |w| w.kernels[0] = FittedKernel::Density { sigma2: f64::NAN },
        "finite bandwidth > 0",
    );
    bad(|w| w.dim = 0, "dimension 0");
    // The serde form (as embedded in a larger value) runs the same checks; postcard keeps no
    // message for them, which is why `from_bytes` exists.
    let mut w = good.clone();
    w.f[0] = f64::NAN;
    assert!(postcard::from_bytes::<InductiveModel>(&enc(&w)).is_err());
    assert!(postcard::from_bytes::<InductiveModel>(&enc(&good)).is_ok());
}

/// Hostile input, item 8: `train --algo aucsvm a9a.libsvm` was refused by the pair limit only
/// after minutes of kernel fusion and 4 GB. The limit is now checked from the label counts
/// before anything is built: here the kernel would have refused `n_loc = 1000` on 40 points,
/// so getting the pair error proves no kernel was started.
#[test]
fn hostile_8_aucsvm_refuses_too_many_pairs_before_the_kernel() {
    let train = data(10, 30, 7);
    let big_n_loc = [("n_loc", 1000.0)];
    let tiny = with_kernels(
        &big_n_loc,
        &[Gaussian],
        SolverKind::AucSvm { max_pairs: 299 },
    );
    let e = tiny.fit_dyn(&train, 0).err().unwrap();
    assert!(
        matches!(
            e,
            FitError::TooLarge {
                size: 300,
                limit: 299,
                ..
            }
        ),
        "{e:?}"
    );
    // With the pairs allowed, the kernel's own check speaks.
    let allowed = with_kernels(
        &big_n_loc,
        &[Gaussian],
        SolverKind::AucSvm { max_pairs: 300 },
    );
    assert!(matches!(
        allowed.fit_dyn(&train, 0).err().unwrap(),
        FitError::Param(_)
    ));
}

/// Hostile input, item 8: `--epsilon 1e-300` and `--c1 1e-308` were inside the documented
/// ranges and ran past 60 s on 135 rows. Both now have a floor of 1e-12 in the settings check,
/// named in the error; the floor itself is accepted.
#[test]
fn hostile_8_gam_cvm_tiny_epsilon_and_c1_are_refused() {
    for (name, v) in [("epsilon", 1e-300), ("c1", 1e-308), ("epsilon", 1e-13)] {
        let e = settings(&[(name, v)]).unwrap_err();
        assert!(e.contains(name) && e.contains("at least 1e-12"), "{e}");
    }
    assert!(auc_cvm::variants::MIN_C1_EPSILON.to_bits() == 1e-12_f64.to_bits());
    assert!(settings(&[("epsilon", 1e-12), ("c1", 1e-12)]).is_ok());
    assert!(
        settings(&[("epsilon", 1e-8)]).is_ok(),
        "the paper grid's smallest"
    );
}
