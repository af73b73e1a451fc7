//! The feature maps against independent computations (conventions section 9): the Gaussian
//! kernel $k(x, z) = \exp(-\lVert x - z \rVert^2 / \sigma^2)$ computed by hand, Nystroem's
//! exactness on its landmarks, the fall of $\lVert K - Z Z^T \rVert_F / \lVert K \rVert_F$ with
//! the map's size, rows mapped one at a time against whole datasets, the seeded row sample,
//! model-file round trips and refusals, the width rules and the parsers.

use auc_core::{Dataset, Label};
use auc_data::Scaling;
use auc_prep::{
    FeatureMap, FeatureMapSpec, MapKind, MapShape, PrepError, RowBuffers, RowSample, ScaleEvidence,
    SigmaRule, Stage, Transform, TransformSpec, kernel_width,
};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A dataset of the rows of `p` features in `values` (dense), or its CSR copy (`sparse`).
fn dataset(p: usize, values: &[f64], sparse: bool) -> Dataset {
    let n = values.len() / p;
    let labels: Vec<Label> = (0..n)
        .map(|i| if i % 3 == 0 { Label::Pos } else { Label::Neg })
        .collect();
    let dense = Dataset::dense(p, values[..n * p].to_vec(), labels.clone()).unwrap();
    if !sparse {
        return dense;
    }
    let (mut indptr, mut indices, mut vals) = (vec![0], Vec::new(), Vec::new());
    for (x, _) in dense.iter() {
        x.for_each(|j, v| {
            if v != 0.0 {
                indices.push(j as u32);
                vals.push(v);
            }
        });
        indptr.push(indices.len());
    }
    Dataset::sparse(p, indptr, indices, vals, labels).unwrap()
}

/// `n` rows of `p` features around three seeded centers, a third of the entries zero (so the
/// sparse form differs from the dense one).
fn clusters(n: usize, p: usize, seed: u64) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(seed);
    let centers: Vec<Vec<f64>> = (0..3)
        .map(|_| (0..p).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let mut v = Vec::with_capacity(n * p);
    for i in 0..n {
        let c = &centers[i % 3];
        for &ck in c {
            let a = if rng.random_range(0.0..1.0) < 0.33 {
                0.0
            } else {
                ck + 0.4 * rng.random_range(-1.0..1.0)
            };
            v.push(a);
        }
    }
    v
}

fn spec(kind: MapKind, size: usize, sigma: f64, seed: u64) -> FeatureMapSpec {
    FeatureMapSpec {
        shape: MapShape { kind, size },
        sigma: SigmaRule::Given(sigma),
        seed,
    }
}

/// The transform of `map` alone (no scaling, no unit norm) fitted on `data`.
fn fit_map(data: &Dataset, map: FeatureMapSpec) -> Transform {
    TransformSpec {
        scaling: Scaling::None,
        one_hot: None,
        features: Some(map),
        unit_norm: false,
    }
    .fit(ScaleEvidence::Data(data))
    .unwrap()
}

/// The rows of `data`, dense.
fn rows(data: &Dataset) -> Vec<Vec<f64>> {
    data.iter()
        .map(|(x, _)| {
            let mut v = vec![0.0; data.dim()];
            x.for_each(|j, a| v[j] = a);
            v
        })
        .collect()
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|a| a.to_bits()).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The Gaussian kernel of conventions section 9, by its definition.
fn kernel(x: &[f64], z: &[f64], sigma: f64) -> f64 {
    let d: f64 = x.iter().zip(z).map(|(a, b)| (a - b) * (a - b)).sum();
    (-d / (sigma * sigma)).exp()
}

/// $\lVert K - Z Z^T \rVert_F / \lVert K \rVert_F$ of the map `t` on the rows of `data`.
fn kernel_error(t: &Transform, data: &Dataset, sigma: f64) -> f64 {
    let x = rows(data);
    let z = rows(&t.apply_dataset(data));
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..x.len() {
        for j in 0..x.len() {
            let k = kernel(&x[i], &x[j], sigma);
            let e = k - dot(&z[i], &z[j]);
            num += e * e;
            den += k * k;
        }
    }
    (num / den).sqrt()
}

// ---------------------------------------------------------------------------------------------
// Nystroem

#[test]
fn nystroem_is_exact_at_its_landmarks() {
    // 12 distinct rows on a grid of spacing sigma (K_LL is well conditioned), each twice: fewer
    // distinct rows than landmarks, so the landmarks are these rows.
    let sigma = 0.7;
    let mut values = Vec::new();
    for i in 0..12 {
        let row = [
            sigma * (i % 3) as f64,
            sigma * (i / 3) as f64,
            0.1 * i as f64,
        ];
        values.extend_from_slice(&row);
    }
    let twice: Vec<f64> = values.iter().chain(&values).copied().collect();
    let data = dataset(3, &twice, false);
    let t = fit_map(&data, spec(MapKind::Nystroem, 50, sigma, 7));
    let map = t.feature_map().unwrap();
    assert_eq!(map.kind(), MapKind::Nystroem);
    assert_eq!(
        map.output_dim(),
        12,
        "every eigenpair kept: {}",
        map.describe()
    );
    let x = rows(&data);
    let z = rows(&t.apply_dataset(&data));
    for i in 0..x.len() {
        for j in 0..x.len() {
            let k = kernel(&x[i], &x[j], sigma);
            let got = dot(&z[i], &z[j]);
            assert!(
                (got - k).abs() <= 1e-8 * k.max(1e-3),
                "rows {i} and {j}: z.z = {got}, k = {k}"
            );
        }
    }
}

#[test]
fn nystroem_fit_is_deterministic_and_keeps_at_most_m_landmarks() {
    let data = dataset(6, &clusters(2000, 6, 3), true);
    let map = spec(MapKind::Nystroem, 40, 1.0, 11);
    let a = fit_map(&data, map);
    let b = fit_map(&data, map);
    assert_eq!(a, b);
    // The seeding's distances and Lloyd's assignments run on chunks of rows in parallel: the
    // same map on one thread.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| fit_map(&data, map));
    assert_eq!(a, one);
    let (za, zb) = (a.apply_dataset(&data), b.apply_dataset(&data));
    for (ra, rb) in rows(&za).iter().zip(&rows(&zb)) {
        assert_eq!(bits(ra), bits(rb));
    }
    let m = a.feature_map().unwrap();
    assert!(m.describe().starts_with("nystroem:40 "), "{}", m.describe());
    assert!((1..=40).contains(&m.output_dim()), "{}", m.output_dim());
    assert_eq!(m.input_dim(), 6);
    assert_eq!(m.seed(), 11);
}

#[test]
fn nystroem_refuses_an_empty_sample() {
    let empty = Dataset::dense(3, Vec::new(), Vec::new()).unwrap();
    let e = TransformSpec {
        scaling: Scaling::None,
        one_hot: None,
        features: Some(spec(MapKind::Nystroem, 10, 1.0, 0)),
        unit_norm: false,
    }
    .fit(ScaleEvidence::Data(&empty))
    .unwrap_err();
    match e {
        PrepError::FeatureMap(why) => assert!(why.contains("sample is empty"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn maps_of_extreme_rows_and_widths_do_not_panic() {
    // Squared distances that overflow, a sample of one repeated row, widths whose square
    // underflows or overflows: an error or a map, never a panic.
    let huge = dataset(2, &[1e160, -1e160, -1e160, 1e160, 0.0, 1e160], false);
    let same = dataset(2, &[0.5, 0.5, 0.5, 0.5, 0.5, 0.5], true);
    for data in [&huge, &same] {
        for kind in MapKind::ALL {
            for sigma in [1e-200, 1.0, 1e200] {
                let r = TransformSpec {
                    scaling: Scaling::None,
                    one_hot: None,
                    features: Some(spec(kind, 4, sigma, 1)),
                    unit_norm: false,
                }
                .fit(ScaleEvidence::Data(data));
                if let Ok(t) = r {
                    assert_rows_match(&t, data);
                }
            }
        }
    }
}

#[test]
fn rows_whose_product_overflows_map_to_finite_values() {
    // Fitted on ordinary rows, applied to entries near f64::MAX: the overflowing features are
    // 0 (the map's rule), so the dataset can hold them, and rows alone agree.
    let fit_on = dataset(3, &clusters(40, 3, 43), false);
    let hostile = dataset(3, &[1e308, -1e308, 1e308, 1.7e308, 1.7e308, 0.0], false);
    for t in all_transforms(&fit_on, false) {
        let z = rows(&t.apply_dataset(&hostile));
        assert!(
            z.iter().flatten().all(|v| v.is_finite()),
            "{}",
            t.describe()
        );
        assert_rows_match(&t, &hostile);
    }
}

#[test]
fn a_width_whose_weights_overflow_is_refused() {
    let data = dataset(3, &clusters(10, 3, 47), false);
    for kind in [MapKind::Rff, MapKind::Elm, MapKind::Nystroem] {
        let r = TransformSpec {
            scaling: Scaling::None,
            one_hot: None,
            features: Some(spec(kind, 8, 1e-310, 0)),
            unit_norm: false,
        }
        .fit(ScaleEvidence::Data(&data));
        assert!(matches!(r, Err(PrepError::FeatureMap(_))), "{kind}: {r:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Approximation of the kernel

#[test]
fn kernel_error_falls_as_the_map_grows() {
    let data = dataset(5, &clusters(300, 5, 21), false);
    let sigma = 1.2;
    let rff: Vec<f64> = [256, 1024, 4096]
        .iter()
        .map(|&d| {
            kernel_error(
                &fit_map(&data, spec(MapKind::Rff, d, sigma, 5)),
                &data,
                sigma,
            )
        })
        .collect();
    // About D^-1/2: a quarter of the error for 16 times the features; 0.6 leaves room for the
    // draws' luck.
    assert!(rff[1] < rff[0] && rff[2] < rff[1], "{rff:?}");
    assert!(rff[2] < 0.6 * rff[0], "{rff:?}");
    assert!(rff[2] < 0.1, "{rff:?}");
    let nys: Vec<f64> = [16, 64, 256]
        .iter()
        .map(|&m| {
            kernel_error(
                &fit_map(&data, spec(MapKind::Nystroem, m, sigma, 5)),
                &data,
                sigma,
            )
        })
        .collect();
    assert!(nys[1] < nys[0] && nys[2] < nys[1], "{nys:?}");
    assert!(nys[2] < 0.5 * nys[0], "{nys:?}");
}

#[test]
fn fourier_features_approach_the_kernel() {
    let data = dataset(4, &clusters(8, 4, 9), false);
    let sigma = 1.0;
    let t = fit_map(&data, spec(MapKind::Rff, 16_384, sigma, 2));
    let x = rows(&data);
    let z = rows(&t.apply_dataset(&data));
    for (i, j) in [(0, 1), (0, 3), (2, 5), (4, 7), (6, 6)] {
        let k = kernel(&x[i], &x[j], sigma);
        let got = dot(&z[i], &z[j]);
        assert!(
            (got - k).abs() < 0.03,
            "rows {i} and {j}: z.z = {got}, k = {k}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Rows against datasets, sparse against dense

/// Every kind, fitted on `data` with scaling and unit norm or the map alone.
fn all_transforms(data: &Dataset, staged: bool) -> Vec<Transform> {
    MapKind::ALL
        .iter()
        .map(|&kind| {
            TransformSpec {
                scaling: if staged {
                    Scaling::MinMax
                } else {
                    Scaling::None
                },
                one_hot: None,
                features: Some(spec(kind, 24, 0.9, 4)),
                unit_norm: staged,
            }
            .fit(ScaleEvidence::Data(data))
            .unwrap()
        })
        .collect()
}

/// Asserts that `t` maps every row of `data` alone as it maps the dataset, bit for bit.
fn assert_rows_match(t: &Transform, data: &Dataset) {
    let whole = rows(&t.apply_dataset(data));
    let mut bufs = RowBuffers::new();
    for (i, (x, _)) in data.iter().enumerate() {
        let row = t.apply_row(x, &mut bufs);
        let mut got = vec![0.0; whole[i].len()];
        row.for_each(|j, a| got[j] = a);
        assert_eq!(bits(&got), bits(&whole[i]), "{} row {i}", t.describe());
    }
}

#[test]
fn rows_alone_map_as_the_dataset_does() {
    for sparse in [false, true] {
        let data = dataset(5, &clusters(60, 5, 13), sparse);
        for staged in [false, true] {
            for t in all_transforms(&data, staged) {
                assert_rows_match(&t, &data);
            }
        }
    }
}

#[test]
fn features_past_the_map_are_ignored() {
    // Fitted on 5 features, applied to rows of 7: the last two are ignored, by rows and by the
    // dataset alike, so the mapped rows equal those of the first five features.
    let narrow = clusters(30, 5, 17);
    let wide: Vec<f64> = narrow
        .chunks(5)
        .flat_map(|r| r.iter().copied().chain([3.0, -2.0]))
        .collect();
    for sparse in [false, true] {
        let (fit_on, wide) = (dataset(5, &narrow, sparse), dataset(7, &wide, sparse));
        for t in all_transforms(&fit_on, false) {
            assert_rows_match(&t, &wide);
            let (a, b) = (
                rows(&t.apply_dataset(&wide)),
                rows(&t.apply_dataset(&fit_on)),
            );
            for (ra, rb) in a.iter().zip(&b) {
                assert_eq!(bits(ra), bits(rb), "{}", t.describe());
            }
        }
    }
}

#[test]
fn sparse_and_dense_rows_map_alike() {
    let values = clusters(80, 6, 19);
    let (dense, sparse) = (dataset(6, &values, false), dataset(6, &values, true));
    for (td, ts) in all_transforms(&dense, true)
        .into_iter()
        .zip(all_transforms(&sparse, true))
    {
        // The sample, and so the fit, depends on the rows only.
        assert_eq!(td, ts);
        let (a, b) = (
            rows(&td.apply_dataset(&dense)),
            rows(&td.apply_dataset(&sparse)),
        );
        for (ra, rb) in a.iter().zip(&b) {
            for (x, y) in ra.iter().zip(rb) {
                assert!(
                    (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                    "{}",
                    td.describe()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The row sample

fn sample_rows(s: RowSample) -> (usize, Vec<Vec<u64>>) {
    let d = s.into_dataset();
    (d.dim(), rows(&d).iter().map(|r| bits(r)).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn merged_halves_sample_as_the_whole(
        n in 1usize..80,
        cut in 0.0f64..=1.0,
        capacity in 1usize..40,
        seed in any::<u64>(),
        sparse in any::<bool>(),
    ) {
        // Rows of small integers, so some repeat.
        let mut rng = StdRng::seed_from_u64(seed);
        let values: Vec<f64> = (0..n * 3).map(|_| rng.random_range(-1i32..=2) as f64).collect();
        let s = ((n as f64 * cut) as usize).min(n);
        let whole = RowSample::of_dataset(&dataset(3, &values, sparse), capacity, seed);
        let mut left = RowSample::of_dataset(&dataset(3, &values[..s * 3], sparse), capacity, seed);
        let right = RowSample::of_dataset(&dataset(3, &values[s * 3..], sparse), capacity, seed);
        left.merge(right);
        prop_assert_eq!(whole.len(), capacity.min(n));
        prop_assert_eq!(sample_rows(left), sample_rows(whole));
    }
}

#[test]
fn dense_and_sparse_rows_sample_alike() {
    let values = clusters(500, 4, 23);
    for capacity in [1, 10, 499, 500, 1000] {
        let a = RowSample::of_dataset(&dataset(4, &values, false), capacity, 8);
        let b = RowSample::of_dataset(&dataset(4, &values, true), capacity, 8);
        assert_eq!(a.len(), capacity.min(500));
        assert_eq!(sample_rows(a), sample_rows(b));
    }
    let none = RowSample::of_dataset(&dataset(4, &values, false), 0, 8);
    assert!(none.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Model files

fn fitted_all_kinds() -> (Dataset, Vec<Transform>) {
    let data = dataset(5, &clusters(50, 5, 29), true);
    let ts = all_transforms(&data, true);
    (data, ts)
}

#[test]
fn fitted_maps_round_trip_through_postcard() {
    let (data, ts) = fitted_all_kinds();
    for t in ts {
        let bytes = postcard::to_allocvec(&t).unwrap();
        let back: Transform = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, t);
        back.validate(data.dim()).unwrap();
        // Fewer features than the scaler and the map were fitted on: refused.
        assert!(back.validate(data.dim() - 1).is_err());
    }
}

/// `map` as JSON, changed by `edit`, decoded and validated inside a transform.
fn validate_edited(map: &FeatureMap, dim: usize, edit: impl Fn(&mut serde_json::Value)) -> String {
    let mut v = serde_json::to_value(map).unwrap();
    edit(&mut v);
    let m: FeatureMap = serde_json::from_value(v).unwrap();
    Transform::from_stages(vec![Stage::FeatureMap(m)])
        .unwrap()
        .validate(dim)
        .unwrap_err()
}

fn pop(v: &mut serde_json::Value, field: &str) {
    v[field].as_array_mut().unwrap().pop();
}

#[test]
fn corrupted_maps_are_refused() {
    let (data, ts) = fitted_all_kinds();
    let p = data.dim();
    for t in ts {
        let map = t.feature_map().unwrap();
        if map.kind() == MapKind::Poly2 {
            // It holds no weights: its refusals are in tests/one_hot_poly2.rs.
            continue;
        }
        // Unchanged, the JSON form validates: the refusals below are the edits'.
        let same: FeatureMap = serde_json::from_value(serde_json::to_value(map).unwrap()).unwrap();
        Transform::from_stages(vec![Stage::FeatureMap(same)])
            .unwrap()
            .validate(p)
            .unwrap();
        let e = validate_edited(map, p, |v| pop(v, "weights"));
        assert!(e.contains("weights"), "{e}");
        let e = validate_edited(map, p, |v| pop(v, "offsets"));
        assert!(e.contains("weights"), "{e}");
        let e = validate_edited(map, p, |v| v["sigma"] = (-1.0).into());
        assert!(e.contains("width"), "{e}");
        let e = validate_edited(map, p, |v| v["input_dim"] = (p + 1).into());
        assert!(e.contains("features"), "{e}");
        let e = validate_edited(map, p, |v| {
            let d = v["output_dim"].as_u64().unwrap();
            v["output_dim"] = (d + 1).into();
        });
        assert!(e.contains("projection") || e.contains("outputs"), "{e}");
        if map.kind() == MapKind::Nystroem {
            let e = validate_edited(map, p, |v| pop(v, "projection"));
            assert!(e.contains("projection"), "{e}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel width rules

#[test]
fn scale_rule_is_sqrt_p_times_the_variance_of_all_entries() {
    let values = clusters(40, 4, 31);
    for sparse in [false, true] {
        let data = dataset(4, &values, sparse);
        for input_dim in [4, 6] {
            // The variance of the n * input_dim entries, two-pass, with the absent features' zeros.
            let mut cells: Vec<f64> = Vec::new();
            for r in rows(&data) {
                cells.extend(&r);
                cells.extend(std::iter::repeat_n(0.0, input_dim - 4));
            }
            let mean = cells.iter().sum::<f64>() / cells.len() as f64;
            let var =
                cells.iter().map(|c| (c - mean) * (c - mean)).sum::<f64>() / cells.len() as f64;
            let want = (input_dim as f64 * var).sqrt();
            let got = kernel_width(SigmaRule::Scale, &data, input_dim);
            assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
        }
    }
}

#[test]
fn median_rule_is_the_median_pairwise_distance() {
    // Six rows: fifteen pairs, so the median is one of them.
    let values = clusters(6, 3, 37);
    let data = dataset(3, &values, true);
    let x = rows(&data);
    let mut d = Vec::new();
    for i in 0..6 {
        for j in i + 1..6 {
            let s: f64 = x[i].iter().zip(&x[j]).map(|(a, b)| (a - b) * (a - b)).sum();
            d.push(s.sqrt());
        }
    }
    d.sort_by(f64::total_cmp);
    let got = kernel_width(SigmaRule::Median, &data, 3);
    assert!((got - d[7]).abs() <= 1e-12 * d[7], "{got} vs {:?}", d);
    assert_eq!(
        kernel_width(SigmaRule::Given(0.25), &data, 3).to_bits(),
        0.25f64.to_bits()
    );
}

#[test]
fn width_rules_fall_back_to_one_when_the_sample_cannot_say() {
    let empty = Dataset::dense(3, Vec::new(), Vec::new()).unwrap();
    let same = dataset(2, &[0.5, 0.5, 0.5, 0.5], false);
    for rule in [SigmaRule::Scale, SigmaRule::Median] {
        assert_eq!(kernel_width(rule, &empty, 3).to_bits(), 1f64.to_bits());
        assert_eq!(
            kernel_width(rule, &same, 2).to_bits(),
            1f64.to_bits(),
            "{rule}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Parsers

#[test]
fn map_shapes_parse() {
    let ok = |s: &str| s.parse::<MapShape>().unwrap();
    assert_eq!(
        ok("nystroem"),
        MapShape {
            kind: MapKind::Nystroem,
            size: auc_prep::features::DEFAULT_LANDMARKS
        }
    );
    assert_eq!(
        ok("rff:2000"),
        MapShape {
            kind: MapKind::Rff,
            size: 2000
        }
    );
    assert_eq!(
        ok("elm:10"),
        MapShape {
            kind: MapKind::Elm,
            size: 10
        }
    );
    assert_eq!(ok("elm").size, auc_prep::features::DEFAULT_RANDOM_FEATURES);
    let max = auc_prep::features::MAX_MAP_SIZE;
    assert_eq!(ok(&format!("rff:{max}")).size, max);
    assert_eq!(ok("rff:2000").to_string(), "rff:2000");
    for bad in [
        "svm",
        "",
        "rff2000",
        "nystroem:",
        "rff:0",
        "rff:-3",
        "rff:1.5",
        "elm:ten",
        &format!("rff:{}", max + 1),
    ] {
        assert!(bad.parse::<MapShape>().is_err(), "{bad:?} parsed");
    }
}

#[test]
fn sigma_rules_parse() {
    assert_eq!("scale".parse::<SigmaRule>(), Ok(SigmaRule::Scale));
    assert_eq!("median".parse::<SigmaRule>(), Ok(SigmaRule::Median));
    assert_eq!("0.5".parse::<SigmaRule>(), Ok(SigmaRule::Given(0.5)));
    assert_eq!(" 2 ".parse::<SigmaRule>(), Ok(SigmaRule::Given(2.0)));
    for bad in ["-1", "0", "nan", "inf", "-inf", "wide", ""] {
        assert!(bad.parse::<SigmaRule>().is_err(), "{bad:?} parsed");
    }
}
