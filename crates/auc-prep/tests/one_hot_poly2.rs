//! The one-hot stage and the degree-2 polynomial map against independent computations: the
//! indicators and products written out by hand (a brute force over the densified row), dense and
//! sparse forms of the same rows, rows prepared alone against the same rows as a dataset (bit for
//! bit), the levels the fit reads off a sample, model-file round trips and the checks of decoded
//! stages.

#![allow(
    clippy::float_cmp,
    reason = "the expansions are exact: indicators compare codes for equality, as the stage does"
)]

use auc_core::{Dataset, Label, Row};
use auc_data::Scaling;
use auc_prep::{
    FeatureMapSpec, MapKind, MapShape, OneHotSpec, RowBuffers, ScaleEvidence, SigmaRule, Stage,
    Transform, TransformSpec, poly2_dim,
};
use proptest::prelude::*;

/// `n` rows of `p` features from `values`, dense or as CSR.
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

fn dense_row(x: Row<'_>, p: usize) -> Vec<f64> {
    let mut v = vec![0.0; p];
    x.for_each(|j, a| {
        if j < p {
            v[j] = a;
        }
    });
    v
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|a| a.to_bits()).collect()
}

fn spec(one_hot: Option<u16>, map: Option<MapKind>) -> TransformSpec {
    TransformSpec {
        scaling: Scaling::None,
        one_hot: one_hot.map(|k| OneHotSpec::new(k, 3).unwrap()),
        features: map.map(|kind| FeatureMapSpec {
            shape: MapShape {
                kind,
                size: kind.default_size().min(8),
            },
            sigma: SigmaRule::Scale,
            seed: 3,
        }),
        unit_norm: false,
    }
}

/// The one-hot expansion of a dense row written out: the features, then for each categorical
/// feature in index order a 1 at the level the value equals.
fn one_hot_by_hand(x: &[f64], levels: &[(usize, Vec<f64>)]) -> Vec<f64> {
    let mut out = x.to_vec();
    for (j, values) in levels {
        for &l in values {
            out.push(if x[*j] == l { 1.0 } else { 0.0 });
        }
    }
    out
}

/// The polynomial map written out: the features, then x_i x_j for i <= j.
fn poly2_by_hand(x: &[f64]) -> Vec<f64> {
    let mut out = x.to_vec();
    for i in 0..x.len() {
        for j in i..x.len() {
            out.push(x[i] * x[j]);
        }
    }
    out
}

#[test]
fn levels_are_read_off_the_sample_and_binary_or_continuous_features_are_left_alone() {
    // Feature 0: four codes; 1: binary; 2: continuous; 3: three codes, 0 among them only through
    // the rows a sparse copy leaves it out of.
    let rows: Vec<[f64; 4]> = (0..40)
        .map(|i| {
            let i = i as f64;
            [
                (i % 4.0) - 1.5,
                i % 2.0,
                i * 0.37 + 0.01,
                [0.0, 2.0, 5.0][i as usize % 3],
            ]
        })
        .collect();
    let values: Vec<f64> = rows.iter().flatten().copied().collect();
    for sparse in [false, true] {
        let data = dataset(4, &values, sparse);
        let t = spec(Some(16), None)
            .fit(ScaleEvidence::Data(&data))
            .unwrap();
        let oh = t.one_hot().expect("a one-hot stage");
        let cols: Vec<(u32, Vec<f64>)> = oh
            .columns()
            .iter()
            .map(|c| (c.feature, c.values.clone()))
            .collect();
        assert_eq!(
            cols,
            vec![(0, vec![-1.5, -0.5, 0.5, 1.5]), (3, vec![0.0, 2.0, 5.0])],
            "sparse {sparse}"
        );
        assert_eq!(oh.output_dim(), 4 + 7);
        assert_eq!(t.output_dim(4), 11);
        assert_eq!(t.input_dim(), Some(4));
        // Against the expansion by hand, row by row and as a dataset.
        let whole = t.apply_dataset(&data);
        let mut bufs = RowBuffers::new();
        let levels = [
            (0usize, vec![-1.5, -0.5, 0.5, 1.5]),
            (3usize, vec![0.0, 2.0, 5.0]),
        ];
        for (i, (x, _)) in data.iter().enumerate() {
            let want = one_hot_by_hand(&dense_row(x, 4), &levels);
            assert_eq!(bits(&dense_row(t.apply_row(x, &mut bufs), 11)), bits(&want));
            assert_eq!(bits(&dense_row(whole.row(i), 11)), bits(&want));
        }
        assert_eq!(whole.is_sparse(), sparse);
    }
    // At K = 3 the four-valued feature is no longer categorical.
    let data = dataset(4, &values, false);
    let t = spec(Some(3), None).fit(ScaleEvidence::Data(&data)).unwrap();
    let features: Vec<u32> = t
        .one_hot()
        .unwrap()
        .columns()
        .iter()
        .map(|c| c.feature)
        .collect();
    assert_eq!(features, vec![3]);
}

#[test]
fn a_value_that_is_no_level_sets_no_indicator_and_wider_rows_are_cut() {
    let values = [0.0, 1.0, 2.0, 0.0, 1.0, 2.0];
    let data = dataset(1, &values, false);
    let t = spec(Some(16), None)
        .fit(ScaleEvidence::Data(&data))
        .unwrap();
    let mut bufs = RowBuffers::new();
    let unseen = [7.0, 9.0];
    let got = dense_row(t.apply_row(Row::Dense(&unseen), &mut bufs), 4);
    assert_eq!(got, vec![7.0, 0.0, 0.0, 0.0]);
    let got = dense_row(t.apply_row(Row::Dense(&[2.0]), &mut bufs), 4);
    assert_eq!(got, vec![2.0, 0.0, 0.0, 1.0]);
    // -0.0 is the level 0.
    let got = dense_row(t.apply_row(Row::Dense(&[-0.0]), &mut bufs), 4);
    assert_eq!(bits(&got), bits(&[-0.0, 1.0, 0.0, 0.0]));
}

#[test]
fn poly2_gives_the_features_and_their_products_in_triangle_order() {
    let x = [0.5, -2.0, 0.0, 3.0];
    let data = Dataset::dense(4, x.to_vec(), vec![Label::Pos]).unwrap();
    let t = spec(None, Some(MapKind::Poly2))
        .fit(ScaleEvidence::Data(&data))
        .unwrap();
    let d = poly2_dim(4).unwrap();
    assert_eq!(d, 14);
    assert_eq!(t.output_dim(4), d);
    let mut bufs = RowBuffers::new();
    let got = t.apply_row(Row::Dense(&x), &mut bufs);
    assert!(matches!(got, Row::Sparse(_)), "products of non-zeros only");
    // The zero feature's products are not stored.
    assert_eq!(got.nnz(), 3 + 6);
    let want: Vec<f64> = poly2_by_hand(&x)
        .into_iter()
        .map(|v| if v == 0.0 { 0.0 } else { v })
        .collect();
    assert_eq!(bits(&dense_row(got, d)), bits(&want));
}

#[test]
fn poly2_refuses_an_input_too_wide_for_its_products() {
    let p = 6000;
    let data = Dataset::dense(p, vec![1.0; p], vec![Label::Pos]).unwrap();
    let e = spec(None, Some(MapKind::Poly2))
        .fit(ScaleEvidence::Data(&data))
        .unwrap_err();
    assert!(e.to_string().contains("poly2 on 6000 features"), "{e}");
}

#[test]
fn the_size_of_poly2_is_refused_and_its_words_round_trip() {
    let s: MapShape = "poly2".parse().unwrap();
    assert_eq!(s.kind, MapKind::Poly2);
    assert_eq!(s.to_string(), "poly2");
    assert!("poly2:10".parse::<MapShape>().is_err());
    assert!(OneHotSpec::new(2, 0).is_err());
    assert!(OneHotSpec::new(16, 0).is_ok());
}

proptest! {
    #[test]
    fn prop_one_hot_then_poly2_equals_the_brute_force_row_by_row_and_as_a_dataset(
        p in 1usize..5,
        codes in prop::collection::vec(0u8..5, 8..60),
        sparse in any::<bool>(),
        scale in any::<bool>(),
    ) {
        // Small integer codes, so that features are categorical.
        let values: Vec<f64> = codes.iter().map(|&c| f64::from(c) - 1.0).collect();
        let data = dataset(p, &values, sparse);
        let mut s = spec(Some(4), Some(MapKind::Poly2));
        if scale {
            s.scaling = Scaling::MinMax;
        }
        let t = s.fit(ScaleEvidence::Data(&data)).unwrap();
        let scaler = t.scaler().clone();
        let oh = t.one_hot().unwrap();
        let levels: Vec<(usize, Vec<f64>)> =
            oh.columns().iter().map(|c| (c.feature as usize, c.values.clone())).collect();
        let d = t.output_dim(p);
        prop_assert_eq!(Some(d), poly2_dim(oh.output_dim()));
        let whole = t.apply_dataset(&data);
        let mut bufs = RowBuffers::new();
        let mut scaled = RowBuffers::new();
        let only_scale = Transform::from_stages(match scaler {
            auc_data::Scaler::None => vec![],
            s => vec![Stage::Scale(s)],
        }).unwrap();
        for (i, (x, _)) in data.iter().enumerate() {
            let xs = dense_row(only_scale.apply_row(x, &mut scaled), p);
            let want: Vec<f64> = poly2_by_hand(&one_hot_by_hand(&xs, &levels))
                .into_iter()
                .map(|v| if v == 0.0 { 0.0 } else { v })
                .collect();
            let row = dense_row(t.apply_row(x, &mut bufs), d);
            prop_assert_eq!(bits(&row), bits(&want), "row {}", i);
            prop_assert_eq!(bits(&dense_row(whole.row(i), d)), bits(&want), "dataset row {}", i);
        }
    }

    #[test]
    fn prop_stages_round_trip_through_postcard_and_validate(
        p in 1usize..5,
        codes in prop::collection::vec(0u8..5, 8..40),
    ) {
        let values: Vec<f64> = codes.iter().map(|&c| f64::from(c)).collect();
        let data = dataset(p, &values, false);
        for (oh, map) in [(Some(8), None), (None, Some(MapKind::Poly2)), (Some(8), Some(MapKind::Poly2)), (Some(8), Some(MapKind::Rff))] {
            let t = spec(oh, map).fit(ScaleEvidence::Data(&data)).unwrap();
            let bytes = postcard::to_allocvec(&t).unwrap();
            let back: Transform = postcard::from_bytes(&bytes).unwrap();
            prop_assert_eq!(&back, &t);
            prop_assert!(back.validate(p).is_ok());
            prop_assert!(back.validate(p.saturating_sub(1)).is_err() || p == 1 && oh.is_none());
        }
    }
}

#[test]
fn decoded_stages_with_broken_levels_or_sizes_are_refused() {
    let values: Vec<f64> = (0..30).map(|i| f64::from(i % 5)).collect();
    let data = dataset(2, &values, false);
    let t = spec(Some(8), Some(MapKind::Poly2))
        .fit(ScaleEvidence::Data(&data))
        .unwrap();
    assert!(t.validate(2).is_ok());
    // Edit the encoded stages through serde_json (the same fields postcard writes).
    let json = serde_json::to_value(&t).unwrap();
    let mutate = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = json.clone();
        f(&mut v);
        let back: Transform = serde_json::from_value(v).unwrap();
        back.validate(2)
    };
    // Levels out of order.
    let e = mutate(&|v| {
        let levels = &mut v["stages"][0]["OneHot"]["columns"][0]["values"];
        levels.as_array_mut().unwrap().reverse();
    })
    .unwrap_err();
    assert!(e.contains("not strictly increasing"), "{e}");
    // A map that no longer reads what the one-hot stage gives.
    let e = mutate(&|v| {
        let m = &mut v["stages"][1]["FeatureMap"];
        m["input_dim"] = serde_json::json!(3);
        m["output_dim"] = serde_json::json!(poly2_dim(3).unwrap());
    })
    .unwrap_err();
    assert!(e.contains("feature map"), "{e}");
    // A polynomial map whose output does not match its input.
    let e = mutate(&|v| {
        v["stages"][1]["FeatureMap"]["output_dim"] = serde_json::json!(7);
    })
    .unwrap_err();
    assert!(e.contains("polynomial map"), "{e}");
}
