//! The blend against its members fitted on their own: the kernel member is OPAUC-batch on the
//! blend's own map applied to the rows, the tree member is `gbt-auc`'s fit, the blend's score
//! is their weighted sum; the extreme weights rank as one member; saved blends round trip and
//! damaged ones are refused.

#![allow(clippy::float_cmp, reason = "identical computations compare exactly")]

use auc_blend::{BlendModel, BlendParams};
use auc_core::{BatchParams, Dataset, Label, SavedState, Scorer};
use auc_online::{Linear, OpaucBatchParams};
use auc_prep::FittedStage;
use auc_trees::BoostedTreesParams;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Two rings (inner positive) with two noise features: nonlinear for both members.
fn rings(n: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut values, mut labels) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let pos = rng.random_bool(0.3);
        let r = if pos { 0.4 } else { 0.9 } + rng.random_range(-0.1..0.1);
        let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        values.extend([
            r * a.cos(),
            r * a.sin(),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        ]);
        labels.push(if pos { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(4, values, labels).unwrap()
}

/// `work` on a pool of `threads` threads.
fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

fn auc(s: &[f64], d: &Dataset) -> f64 {
    let (mut a, mut k) = (0.0, 0.0);
    for i in 0..d.n() {
        for j in 0..d.n() {
            if d.label(i).is_pos() && !d.label(j).is_pos() {
                a += if s[i] > s[j] {
                    1.0
                } else if s[i] == s[j] {
                    0.5
                } else {
                    0.0
                };
                k += 1.0;
            }
        }
    }
    a / k
}

#[test]
fn the_blend_is_the_weighted_sum_of_its_members_fitted_alone() {
    let train = rings(1500, 1);
    let test = rings(500, 2);
    let params = BlendParams {
        landmarks: 60,
        weight_folds: 0,
        ..BlendParams::default()
    };
    let m = params.fit(&train, 7).unwrap();
    // The kernel member: OPAUC-batch on the rows through the blend's map. (The blend takes the
    // moments a block of rows at a time, merged: equal to the whole to rounding.)
    let mapped = m.map().apply_dataset(&train);
    let (k, _) = OpaucBatchParams {
        lambda: params.lambda,
        ..OpaucBatchParams::default()
    }
    .fit_model(&mapped, 0)
    .unwrap();
    for (u, v) in Linear::weights(m.kernel()).iter().zip(Linear::weights(&k)) {
        assert!((u - v).abs() <= 1e-9 * (1.0 + v.abs()), "{u} against {v}");
    }
    // The tree member: gbt-auc's fit at the blend's tree parameters.
    let t = BoostedTreesParams::default().fit(&train).unwrap();
    assert_eq!(m.trees(), &t);
    let (a, b) = m.weights();
    assert!(a > 0.0 && b > 0.0);
    // Each member's weight is its share over the standard deviation of its scores on the
    // training rows. The fit takes the kernel member's from the moments of the kernel values
    // and the trees' from the boosting's own sums; here both come from scoring every row again.
    let sd = |s: &[f64]| {
        let n = s.len() as f64;
        let mu = s.iter().sum::<f64>() / n;
        (s.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n).sqrt()
    };
    let sk = sd(&m.kernel_scores(&train));
    assert!(
        (a * sk - params.weight).abs() <= 1e-10 * params.weight,
        "kernel weight {a} against {} / {sk}",
        params.weight
    );
    assert_eq!(b, (1.0 - params.weight) / sd(&t.score_all(&train)));
    for (x, _) in test.iter().take(50) {
        let want = a * m.kernel_score(x) + b * t.score(x);
        assert_eq!(m.score(x), want);
    }
    // Both members rank the rings; so does the blend.
    let blend = auc(&m.score_all(&test), &test);
    assert!(blend > 0.95, "blend AUC {blend}");
}

#[test]
fn extreme_weights_rank_as_one_member() {
    let train = rings(800, 3);
    let test = rings(300, 4);
    let only = |w: f64| {
        BlendParams {
            landmarks: 40,
            weight: w,
            weight_folds: 0,
            ..BlendParams::default()
        }
        .fit(&train, 1)
        .unwrap()
    };
    let trees_only = only(0.0);
    let kernel_only = only(1.0);
    let t: Vec<f64> = test
        .iter()
        .map(|(x, _)| trees_only.trees().score(x))
        .collect();
    let k: Vec<f64> = test
        .iter()
        .map(|(x, _)| kernel_only.kernel_score(x))
        .collect();
    assert_eq!(auc(&trees_only.score_all(&test), &test), auc(&t, &test));
    assert_eq!(auc(&kernel_only.score_all(&test), &test), auc(&k, &test));
}

#[test]
fn blends_round_trip_and_damaged_ones_are_refused() {
    let train = rings(400, 5);
    let fit = |landmarks, d: &Dataset| {
        BlendParams {
            landmarks,
            trees: 10,
            ..BlendParams::default()
        }
        .fit(d, 2)
        .unwrap()
    };
    let m = fit(30, &train);
    m.validate().unwrap();
    let bytes = postcard::to_allocvec(&m).unwrap();
    let back: BlendModel = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, m);
    assert!(postcard::from_bytes::<BlendModel>(&bytes[..bytes.len() / 2]).is_err());
    // A blend is written as its fields in order: assemble damaged ones from the parts of
    // others (postcard writes a struct as the tuple of its fields).
    let other = fit(20, &train);
    let wide = fit(30, &train.clone().with_dim(6));
    let (a, b) = m.weights();
    let decode = |bytes: Vec<u8>| {
        postcard::from_bytes::<BlendModel>(&bytes)
            .unwrap()
            .validate()
    };
    // A kernel member of another map's size.
    let e = decode(
        postcard::to_allocvec(&(m.dim(), m.map(), other.kernel(), m.trees(), a, b)).unwrap(),
    );
    assert!(e.is_err());
    // Trees of another dimension.
    let e =
        decode(postcard::to_allocvec(&(m.dim(), m.map(), m.kernel(), wide.trees(), a, b)).unwrap());
    assert!(e.is_err());
    // A negative or non-finite weight.
    let e =
        decode(postcard::to_allocvec(&(m.dim(), m.map(), m.kernel(), m.trees(), -a, b)).unwrap());
    assert!(e.is_err());
    let e = decode(
        postcard::to_allocvec(&(m.dim(), m.map(), m.kernel(), m.trees(), a, f64::NAN)).unwrap(),
    );
    assert!(e.is_err());
    // The parts as they are decode to the blend itself.
    let same =
        decode(postcard::to_allocvec(&(m.dim(), m.map(), m.kernel(), m.trees(), a, b)).unwrap());
    assert!(same.is_ok());
}

#[test]
fn one_class_data_and_bad_parameters_are_refused() {
    let one = Dataset::dense(1, vec![1.0, 2.0, 3.0], vec![Label::Pos; 3]).unwrap();
    assert!(BlendParams::default().fit(&one, 0).is_err());
    let bad = BlendParams {
        weight: 1.5,
        ..BlendParams::default()
    };
    assert!(bad.fit(&rings(50, 1), 0).is_err());
    let bad = BlendParams {
        landmarks: 20_000,
        ..BlendParams::default()
    };
    assert!(bad.fit(&rings(50, 1), 0).is_err());
}

#[test]
fn the_fit_is_the_same_whatever_the_number_of_threads() {
    // Over two windows of blocks (8 blocks of 1024 rows a window), so that blocks are summed
    // in parallel and the windows' sums added.
    let train = rings(9000, 5);
    let params = BlendParams {
        landmarks: 40,
        trees: 5,
        ..BlendParams::default()
    };
    // The weight's choice too: its folds are fitted side by side, and each weight's held-out
    // AUCs are the same numbers added in the same order.
    let fit = |threads: usize| on_threads(threads, || params.fit_told(&train, 11).unwrap());
    let one = fit(1);
    assert!(matches!(one.1, Some(Ok(_))), "{:?}", one.1);
    assert_eq!(one, fit(2));
    assert_eq!(one, fit(3));
}

/// A smooth signal in many features (the kernel member's kind) or a step in one (the trees').
fn signal(n: usize, seed: u64, smooth: bool) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut values, mut labels) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let x: Vec<f64> = (0..8).map(|_| rng.random_range(0.0..1.0)).collect();
        let f = if smooth {
            x.iter().sum::<f64>() - 4.0 + rng.random_range(-0.05..0.05)
        } else {
            let step = (x[0] > 0.5) != (x[1] > 0.5);
            if step { 1.0 } else { -1.0 }
        };
        values.extend(x);
        labels.push(if f > 0.0 { Label::Pos } else { Label::Neg });
    }
    Dataset::dense(8, values, labels).unwrap()
}

#[test]
fn each_weights_held_out_auc_is_that_of_the_members_fitted_on_the_folds() {
    let train = rings(700, 8);
    let params = BlendParams {
        landmarks: 30,
        trees: 20,
        weight_folds: 3,
        ..BlendParams::default()
    };
    let (m, told) = params.fit_told(&train, 5).unwrap();
    let c = told.unwrap().unwrap();
    // Fewer rows than the sample's cap: every row, in the folds the choice documents.
    assert_eq!((c.rows, c.folds), (700, 3));
    let folds = auc_metrics::folds::stratified_kfold(
        train.labels(),
        3,
        auc_metrics::folds::derive_seed(5, &[7, 2]),
    )
    .unwrap();
    let (mut trees, mut kernel) = (0.0, 0.0);
    for test in &folds {
        let rest: Vec<usize> = (0..train.n()).filter(|i| !test.contains(i)).collect();
        let (fit, held) = (train.select(&rest), train.select(test));
        // Weight 0 ranks as gbt-auc fitted on the other folds.
        let t = BoostedTreesParams {
            trees: 20,
            ..BoostedTreesParams::default()
        }
        .fit(&fit)
        .unwrap();
        trees += auc(&t.score_all(&held), &held);
        // Weight 1 as OPAUC-batch on the other folds' rows through the blend's own map.
        let (k, _) = OpaucBatchParams {
            lambda: params.lambda,
            ..OpaucBatchParams::default()
        }
        .fit_model(&m.map().apply_dataset(&fit), 0)
        .unwrap();
        kernel += auc(&k.score_all(&m.map().apply_dataset(&held)), &held);
    }
    assert_eq!(c.aucs[0], trees / 3.0);
    assert!(
        (c.aucs[4] - kernel / 3.0).abs() < 1e-12,
        "{} against {}",
        c.aucs[4],
        kernel / 3.0
    );
    // The weight kept is within the margin of the best, and the nearest to 1/2 that is.
    let best = c.aucs.iter().copied().fold(f64::MIN, f64::max);
    let within: Vec<f64> = auc_blend::WEIGHTS
        .iter()
        .zip(&c.aucs)
        .filter(|&(_, &a)| a >= best - c.margin)
        .map(|(&w, _)| w)
        .collect();
    assert!(within.contains(&c.weight));
    assert!(
        within
            .iter()
            .all(|w| (w - 0.5).abs() >= (c.weight - 0.5).abs())
    );
    // The model carries the weight kept.
    let (a, b) = m.weights();
    assert_eq!(a == 0.0, c.weight == 0.0);
    assert_eq!(b == 0.0, c.weight == 1.0);
}

#[test]
fn the_weight_goes_to_the_member_that_ranks_held_out_rows_better() {
    let params = BlendParams {
        landmarks: 60,
        weight_folds: 3,
        ..BlendParams::default()
    };
    // A sum of eight features: the kernel member's; a step of two: the trees'.
    let smooth = params.fit_told(&signal(3000, 1, true), 2).unwrap().1;
    let smooth = smooth.unwrap().unwrap();
    assert!(smooth.aucs[4] > smooth.aucs[0], "{}", smooth.describe());
    assert!(smooth.weight >= 0.75, "{}", smooth.describe());
    let step = params.fit_told(&signal(3000, 1, false), 2).unwrap().1;
    let step = step.unwrap().unwrap();
    // Here the blend at 1/2 ranks as well as the trees alone (the trees' scaled scores are
    // far apart across the step): 1/2 is within the margin and stays.
    assert!(step.aucs[0] > step.aucs[4], "{}", step.describe());
    assert!(step.weight <= 0.5, "{}", step.describe());
}

#[test]
fn a_class_with_few_rows_a_fold_keeps_the_prior_and_says_why() {
    // `positives` positive rows of the rings and every negative one.
    let with_positives = |positives: usize| {
        let train = rings(200, 9);
        let mut seen = 0;
        let keep: Vec<usize> = (0..train.n())
            .filter(|&i| {
                let pos = train.label(i).is_pos();
                seen += usize::from(pos);
                !pos || seen <= positives
            })
            .collect();
        train.select(&keep)
    };
    let params = BlendParams {
        landmarks: 20,
        weight: 0.75,
        weight_folds: 3,
        ..BlendParams::default()
    };
    let fixed = BlendParams {
        weight_folds: 0,
        ..params.clone()
    };
    let fewest = 3 * auc_blend::MIN_FOLD_CLASS_ROWS;
    // Fewer than the folds, and fewer than the guard's rows a fold.
    for positives in [2, fewest - 1] {
        let train = with_positives(positives);
        let (m, told) = params.fit_told(&train, 0).unwrap();
        let why = told.unwrap().unwrap_err();
        assert!(why.starts_with("weight 0.75 kept"), "{why}");
        assert!(
            why.contains(&format!("positive class has {positives}")),
            "{why}"
        );
        assert_eq!(m, fixed.fit(&train, 0).unwrap());
    }
    // Enough of each class in every fold: a choice.
    let (_, told) = params.fit_told(&with_positives(fewest), 0).unwrap();
    assert!(told.unwrap().is_ok());
    // One fold is not a choice; any larger number of folds is refused with a reason, not an
    // overflow.
    let one = BlendParams {
        weight_folds: 1,
        ..BlendParams::default()
    };
    assert!(one.fit(&rings(50, 1), 0).is_err());
    let huge = BlendParams {
        weight_folds: usize::MAX,
        ..params
    };
    let why = huge
        .fit_told(&with_positives(40), 0)
        .unwrap()
        .1
        .unwrap()
        .unwrap_err();
    assert!(
        why.contains(&format!("needs at least {} rows", usize::MAX)),
        "{why}"
    );
}

#[test]
fn the_choice_is_the_same_whatever_the_number_of_threads() {
    let train = rings(1200, 6);
    let params = BlendParams {
        landmarks: 30,
        trees: 10,
        weight_folds: 3,
        ..BlendParams::default()
    };
    let fit = |threads: usize| on_threads(threads, || params.fit_told(&train, 4).unwrap());
    let (one, c1) = fit(1);
    let (two, c2) = fit(2);
    assert_eq!(one, two);
    assert_eq!(c1, c2);
}

#[test]
fn a_member_of_weight_zero_is_fitted_on_the_weights_sample_and_not_scored() {
    // More rows than the weight's sample holds.
    let train = rings(auc_blend::WEIGHT_ROWS + 3000, 12);
    let test = rings(300, 13);
    let params = BlendParams {
        landmarks: 20,
        trees: 5,
        weight: 0.0,
        weight_folds: 0,
        ..BlendParams::default()
    };
    let m = params.fit(&train, 3).unwrap();
    let (np, nn) = m.kernel().counts();
    assert_eq!((np + nn) as usize, auc_blend::WEIGHT_ROWS);
    // The trees saw every row, and the blend scores as they do, times their weight.
    let t = BoostedTreesParams {
        trees: 5,
        ..BoostedTreesParams::default()
    }
    .fit(&train)
    .unwrap();
    assert_eq!(m.trees(), &t);
    let (a, b) = m.weights();
    assert_eq!(a, 0.0);
    let want: Vec<f64> = t.score_all(&test).iter().map(|s| b * s).collect();
    assert_eq!(m.score_all(&test), want);
    let one: Vec<f64> = test.iter().map(|(x, _)| m.score(x)).collect();
    assert_eq!(one, want);
    // Weight 1: every row for both members (the trees are fitted beside the choice).
    let m = BlendParams {
        weight: 1.0,
        ..params
    }
    .fit(&train, 3)
    .unwrap();
    let (np, nn) = m.kernel().counts();
    assert_eq!((np + nn) as usize, train.n());
    assert_eq!(m.weights().1, 0.0);
    let k: Vec<f64> = m
        .kernel_scores(&test)
        .iter()
        .map(|s| m.weights().0 * s)
        .collect();
    assert_eq!(m.score_all(&test), k);
}

#[test]
fn a_chosen_kernel_member_is_fitted_on_every_row_from_the_choices_sums() {
    // The choice's sums of the sample's kernel values are reused: alone when the sample is
    // every row, with those of the other rows when it is not. Either way the member is
    // OPAUC-batch on every row through the blend's map, to rounding.
    for n in [1500, auc_blend::WEIGHT_ROWS + 2500] {
        let train = rings(n, 21);
        let params = BlendParams {
            landmarks: 20,
            trees: 5,
            weight: 1.0,
            weight_folds: 3,
            ..BlendParams::default()
        };
        let (m, told) = params.fit_told(&train, 5).unwrap();
        let chosen = told.unwrap().unwrap().weight;
        assert!(chosen > 0.0, "{n} rows: weight {chosen}");
        let (np, nn) = m.kernel().counts();
        assert_eq!((np + nn) as usize, n);
        let (k, _) = OpaucBatchParams {
            lambda: params.lambda,
            ..OpaucBatchParams::default()
        }
        .fit_model(&m.map().apply_dataset(&train), 0)
        .unwrap();
        for (u, v) in Linear::weights(m.kernel()).iter().zip(Linear::weights(&k)) {
            assert!(
                (u - v).abs() <= 1e-9 * (1.0 + v.abs()),
                "{n} rows: {u} against {v}"
            );
        }
    }
}
