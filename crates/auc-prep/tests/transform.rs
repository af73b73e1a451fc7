//! The preparation pipeline against independent computations: rows prepared one at a time equal
//! the same rows prepared as a dataset (bit for bit, whether the dataset is borrowed or taken by
//! value), the stages equal the scaler and unit norm of
//! `auc-data` applied by hand in the order version 3 model files applied them, fitting from rows
//! equals fitting from their ranges, and stages keep their fixed order.

use auc_core::{Dataset, Label, Row};
use auc_data::{FeatureRanges, Positive, ReadOptions, Scaler, Scaling};
use auc_prep::{
    PrepError, PrepSpec, Preparation, PreparationV3, PreparationV5, RowBuffers, ScaleEvidence,
    ScaleFrom, ScaleSource, Stage, Transform, TransformSpec, UnitNorm,
};
use proptest::prelude::*;

/// A dataset of `n` rows of `p` features from `values` (dense), or its CSR copy (`sparse`).
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

/// Every value of every row, densified, as bits.
fn bits(data: &Dataset) -> Vec<Vec<u64>> {
    data.iter()
        .map(|(x, _)| {
            let mut v = vec![0f64; data.dim()];
            x.for_each(|j, a| v[j] = a);
            v.into_iter().map(f64::to_bits).collect()
        })
        .collect()
}

fn row_bits(x: Row<'_>, p: usize) -> Vec<u64> {
    let mut v = vec![0f64; p];
    x.for_each(|j, a| v[j] = a);
    v.into_iter().map(f64::to_bits).collect()
}

fn all_specs() -> Vec<TransformSpec> {
    let mut out = Vec::new();
    for scaling in Scaling::ALL {
        for unit_norm in [false, true] {
            out.push(TransformSpec {
                scaling,
                one_hot: None,
                features: None,
                unit_norm,
            });
        }
    }
    out
}

proptest! {
    #[test]
    fn prop_rows_equal_dataset(
        p in 1usize..6,
        values in prop::collection::vec(prop_oneof![Just(0.0), Just(-0.0), -1e3f64..1e3], 6..60),
        sparse in any::<bool>(),
    ) {
        let data = dataset(p, &values, sparse);
        for spec in all_specs() {
            let t = spec.fit(ScaleEvidence::Data(&data)).unwrap();
            let whole = t.apply_dataset(&data);
            // The dataset taken by value and scaled where it is: the borrowed one's storage.
            let owned = t.apply_owned(data.clone()).unwrap();
            prop_assert_eq!(owned.is_sparse(), whole.is_sparse(), "{:?}", spec);
            prop_assert_eq!(owned.labels(), whole.labels());
            // Both equal the rows prepared one at a time (the row route is written apart).
            let mut bufs = RowBuffers::new();
            for (i, (x, _)) in data.iter().enumerate() {
                let got = row_bits(t.apply_row(x, &mut bufs), p);
                prop_assert_eq!(&got, &bits(&whole)[i], "{:?} row {}", spec, i);
                prop_assert_eq!(&got, &bits(&owned)[i], "{:?} row {}, by value", spec, i);
            }
        }
    }

    #[test]
    fn prop_stages_equal_scaler_then_unit_norm(
        p in 1usize..6,
        values in prop::collection::vec(prop_oneof![Just(0.0), -1e3f64..1e3], 6..60),
        sparse in any::<bool>(),
    ) {
        // What a version 3 model applied: `Scaler::transform`, then `unit_norm` if asked.
        let data = dataset(p, &values, sparse);
        for spec in all_specs() {
            let scaler = Scaler::fit(spec.scaling, &data);
            let mut want = scaler.transform(&data);
            if spec.unit_norm {
                want = auc_data::unit_norm(&want);
            }
            let t = spec.fit(ScaleEvidence::Data(&data)).unwrap();
            prop_assert_eq!(bits(&t.apply_dataset(&data)), bits(&want), "{:?}", spec);
            prop_assert_eq!(t.scaler(), &scaler);
            prop_assert_eq!(t.unit_norm(), spec.unit_norm);
        }
    }

    #[test]
    fn prop_fit_from_rows_equals_fit_from_ranges(
        p in 1usize..6,
        values in prop::collection::vec(prop_oneof![Just(0.0), -1e3f64..1e3], 6..60),
        sparse in any::<bool>(),
    ) {
        let data = dataset(p, &values, sparse);
        let ranges = FeatureRanges::of(&data);
        for spec in all_specs() {
            prop_assert_eq!(
                spec.fit(ScaleEvidence::Data(&data)).unwrap(),
                spec.fit(ScaleEvidence::Ranges(&ranges)).unwrap()
            );
        }
    }
}

#[test]
fn unit_norm_of_huge_values_does_not_overflow_row_by_row() {
    // sqrt(2) * 1e300 overflows a naive sum of squares; the stage's norm does not.
    let data = Dataset::dense(2, vec![1e300, 1e300], vec![Label::Pos]).unwrap();
    let t = TransformSpec {
        scaling: Scaling::None,
        one_hot: None,
        features: None,
        unit_norm: true,
    }
    .fit(ScaleEvidence::Nothing)
    .unwrap();
    let mut bufs = RowBuffers::new();
    let (x, _) = data.iter().next().unwrap();
    let got = row_bits(t.apply_row(x, &mut bufs), 2);
    let want = std::f64::consts::FRAC_1_SQRT_2;
    for b in got {
        assert!((f64::from_bits(b) - want).abs() < 1e-15);
    }
}

#[test]
fn stages_keep_their_order() {
    let minmax = Scaler::MinMax {
        min: vec![0.0],
        max: vec![1.0],
    };
    assert!(
        Transform::from_stages(vec![
            Stage::Scale(minmax.clone()),
            Stage::UnitNorm(UnitNorm)
        ])
        .is_ok()
    );
    let e = Transform::from_stages(vec![
        Stage::UnitNorm(UnitNorm),
        Stage::Scale(minmax.clone()),
    ])
    .unwrap_err();
    assert!(e.contains("cannot follow"), "{e}");
    assert!(
        Transform::from_stages(vec![Stage::UnitNorm(UnitNorm), Stage::UnitNorm(UnitNorm)]).is_err()
    );
    let t = Transform::scale_then_norm(minmax, true);
    assert_eq!(t.describe(), "scale(minmax) -> unit-norm");
    assert_eq!(Transform::default().describe(), "none");
    assert!(
        Transform::scale_then_norm(Scaler::None, false)
            .stages()
            .is_empty()
    );
}

/// A version 3 preparation with this scaler and flag, as its postcard bytes decode.
fn v3(scaler: Scaler, unit_norm: bool) -> PreparationV3 {
    #[derive(serde::Serialize)]
    struct Old {
        reading: auc_data::Reading,
        positive_labels: Vec<f64>,
        positive_rule: String,
        dim: usize,
        hash_bits: Option<u8>,
        scaler: Scaler,
        unit_norm: bool,
    }
    let bytes = postcard::to_allocvec(&Old {
        reading: auc_data::Reading::Libsvm,
        positive_labels: vec![1.0],
        positive_rule: "given".to_owned(),
        dim: 2,
        hash_bits: None,
        scaler,
        unit_norm,
    })
    .unwrap();
    postcard::from_bytes(&bytes).unwrap()
}

#[test]
fn version_3_preparations_convert_to_the_stages_they_applied() {
    let maxabs = Scaler::MaxAbs {
        max_abs: vec![2.0, 4.0],
    };
    for (scaler, unit_norm, describe) in [
        (Scaler::None, false, "none"),
        (Scaler::None, true, "unit-norm"),
        (maxabs.clone(), false, "scale(maxabs)"),
        (maxabs.clone(), true, "scale(maxabs) -> unit-norm"),
    ] {
        let p: Preparation = v3(scaler.clone(), unit_norm).into();
        assert_eq!(p.transform.describe(), describe);
        assert_eq!(p.scaler(), &scaler);
        assert_eq!(p.unit_norm(), unit_norm);
        p.validate().unwrap();
        // The version 4 encoding round-trips.
        let back: Preparation = postcard::from_bytes(&postcard::to_allocvec(&p).unwrap()).unwrap();
        assert_eq!(back, p);
    }
}

#[test]
fn a_decoded_preparation_is_validated() {
    let wide = Scaler::MaxAbs {
        max_abs: vec![1.0; 3],
    };
    let p = Preparation::for_arrays(
        2,
        None,
        vec![1.0],
        "given".to_owned(),
        Transform::scale_then_norm(wide, false),
    );
    let e = p.validate().unwrap_err();
    assert!(e.contains("scaler has 3 features"), "{e}");
    let none = Preparation::for_arrays(2, None, vec![], "given".to_owned(), Transform::default());
    assert!(none.validate().is_err());
}

#[test]
fn crossed_preparations_read_as_they_were_trained_and_older_layouts_convert() {
    let given = || (vec![1.0], "given".to_owned());
    // Arrays of 3 columns crossed into 2^2 more: 7 features, read with --dim 3 and the crosses.
    let (labels, rule) = given();
    let p = Preparation::for_arrays(3, Some(2), labels, rule, Transform::default());
    p.validate().unwrap();
    assert_eq!((p.dim, p.base_dim()), (7, 3));
    let o = p.read_options();
    assert_eq!((o.dim, o.hash_bits, o.cross_bits), (Some(3), None, Some(2)));
    assert_eq!(o.fixed_dim().unwrap(), Some(7));
    // Hashed and crossed: 2^4 + 2^2 features.
    let choice =
        auc_data::PositiveChoice::from_counts(&[(1.0, 2), (-1.0, 3)], &Positive::Auto).unwrap();
    let reading = auc_data::Reading::Libsvm;
    let hashed = Preparation::new(
        reading.clone(),
        &choice,
        20,
        (Some(4), Some(2)),
        Transform::default(),
    );
    hashed.validate().unwrap();
    let o = hashed.read_options();
    assert_eq!((o.dim, o.fixed_dim().unwrap()), (None, Some(20)));
    let wrong = Preparation::new(
        reading,
        &choice,
        16,
        (Some(4), Some(2)),
        Transform::default(),
    );
    let e = wrong.validate().unwrap_err();
    assert!(e.contains("4 hash bits and 2 cross bits"), "{e}");
    // The layout of format versions 4 and 5 (no crosses) reads as a preparation without them.
    #[derive(serde::Serialize)]
    struct Old {
        reading: auc_data::Reading,
        positive_labels: Vec<f64>,
        positive_rule: String,
        dim: usize,
        hash_bits: Option<u8>,
        transform: Transform,
    }
    let bytes = postcard::to_allocvec(&Old {
        reading: auc_data::Reading::Libsvm,
        positive_labels: vec![1.0],
        positive_rule: "given".to_owned(),
        dim: 16,
        hash_bits: Some(4),
        transform: Transform::default(),
    })
    .unwrap();
    let old: Preparation = postcard::from_bytes::<PreparationV5>(&bytes)
        .unwrap()
        .into();
    assert_eq!(
        (old.dim, old.hash_bits, old.cross_bits),
        (16, Some(4), None)
    );
    old.validate().unwrap();
}

fn spec_from(scaling: Scaling, from: Option<ScaleFrom>) -> Result<PrepSpec, PrepError> {
    PrepSpec::new(
        ReadOptions::default(),
        Positive::Auto,
        TransformSpec {
            scaling,
            one_hot: None,
            features: None,
            unit_norm: false,
        },
        from,
    )
}

#[test]
fn scale_from_is_checked_once_and_wins_over_evidence() {
    let fitted = Scaler::MinMax {
        min: vec![0.0],
        max: vec![10.0],
    };
    let from = ScaleFrom {
        origin: "m.auc".to_owned(),
        source: ScaleSource::Fitted(fitted.clone()),
        dim: 1,
        hash_bits: None,
        cross_bits: None,
    };
    assert_eq!(
        spec_from(Scaling::None, Some(from.clone())).unwrap_err(),
        PrepError::ScaleFromWithoutScaling
    );
    let hashed = ScaleFrom {
        hash_bits: Some(4),
        ..from.clone()
    };
    assert!(matches!(
        spec_from(Scaling::Auto, Some(hashed)).unwrap_err(),
        PrepError::ScaleFromHashing { .. }
    ));
    let crossed = ScaleFrom {
        cross_bits: Some(2),
        ..from.clone()
    };
    let e = spec_from(Scaling::Auto, Some(crossed)).unwrap_err();
    assert!(e.to_string().contains("--cross-hash-bits"), "{e}");
    let data = Dataset::dense(1, vec![1.0, 2.0], vec![Label::Pos, Label::Neg]).unwrap();
    let spec = spec_from(Scaling::Auto, Some(from.clone())).unwrap();
    assert!(!spec.needs_ranges());
    let t = spec
        .fit_transform(ScaleEvidence::Data(&data), None)
        .unwrap();
    assert_eq!(
        t.scaler(),
        &fitted,
        "the model's scaler, not one fitted on the data"
    );
    let e = spec_from(Scaling::MaxAbs, Some(from))
        .unwrap()
        .fit_transform(ScaleEvidence::Nothing, None)
        .unwrap_err();
    assert!(
        e.to_string().contains("contradicts the minmax scaling"),
        "{e}"
    );
    let plain = spec_from(Scaling::MinMax, None).unwrap();
    assert!(plain.needs_ranges());
    assert_eq!(
        plain
            .fit_transform(ScaleEvidence::Data(&data), None)
            .unwrap()
            .scaler(),
        &Scaler::fit(Scaling::MinMax, &data)
    );
}
