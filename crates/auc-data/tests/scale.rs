//! Scaling through the public API: the choice (`Scaling`), range statistics (`FeatureRanges`,
//! exact merge), min-max against an independent computation, max-abs keeping sparse data sparse,
//! extreme and subnormal ranges, validation of decoded scalers, row-by-row scaling, and the
//! encoding shared with model files of format version 2.
#![allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).

use auc_core::Label::{Neg, Pos};
use auc_core::{Dataset, Label, Row, RowBuf};
use auc_data::{
    DataError, FeatureRanges, SCALED_LIMIT, Scaler, ScalerProblem, Scaling, dense_bytes,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

fn dense(dim: usize, values: &[f64]) -> Dataset {
    let n = values.len() / dim.max(1);
    Dataset::dense(dim, values.to_vec(), vec![Label::Neg; n]).unwrap()
}

fn sparse(dim: usize, rows: &[&[(u32, f64)]]) -> Dataset {
    let mut indptr = vec![0];
    let (mut indices, mut values) = (vec![], vec![]);
    for r in rows {
        for &(j, v) in *r {
            indices.push(j);
            values.push(v);
        }
        indptr.push(indices.len());
    }
    let labels = vec![Label::Pos; rows.len()];
    Dataset::sparse(dim, indptr, indices, values, labels).unwrap()
}

/// Every value of `data` as `(row, feature, bits)`, zeros included, for exact comparison.
fn cells(data: &Dataset) -> Vec<Vec<u64>> {
    data.iter()
        .map(|(x, _)| {
            let mut d = vec![0.0; data.dim()];
            x.write_dense(&mut d);
            d.iter().map(|v| (v + 0.0).to_bits()).collect()
        })
        .collect()
}

#[test]
fn names_round_trip_and_unknown_names_are_refused() {
    for s in Scaling::ALL {
        assert_eq!(s.to_string().parse::<Scaling>().unwrap(), s);
    }
    assert_eq!(
        Scaling::ALL.map(|s| s.to_string()),
        ["auto", "minmax", "maxabs", "none"]
    );
    let e = "MinMax".parse::<Scaling>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown scaling \"MinMax\": expected auto, minmax, maxabs or none"
    );
    assert_eq!(
        serde_json::to_string(&Scaling::MaxAbs).unwrap(),
        "\"maxabs\""
    );
    assert_eq!(Scaling::default(), Scaling::Auto);
}

/// The old `MinMaxScaler` arithmetic, written out independently: range with the implicit zeros,
/// `a = 2 / range`, `b = -1 - a min`, `a x + b`, constant features to 0.
fn reference_min_max(data: &Dataset) -> Vec<Vec<f64>> {
    let p = data.dim();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for (x, _) in data.iter() {
        let mut d = vec![0.0; p];
        x.write_dense(&mut d);
        rows.push(d);
    }
    let mut affine = Vec::new();
    for j in 0..p {
        let lo = rows.iter().map(|r| r[j]).fold(f64::INFINITY, f64::min);
        let hi = rows.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max);
        let range = hi - lo;
        affine.push(if range > 0.0 {
            let a = 2.0 / range;
            (a, -1.0 - a * lo)
        } else {
            (0.0, 0.0)
        });
    }
    rows.iter()
        .map(|r| {
            r.iter()
                .zip(&affine)
                .map(|(&x, &(a, b))| a * x + b)
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Min-max on ordinary data equals the arithmetic of model format 2 bit for bit, on dense and
    /// sparse storage alike; max-abs equals x / max |x|.
    #[test]
    fn min_max_and_max_abs_match_independent_computations(
        dim in 1usize..5,
        values in prop::collection::vec(
            prop_oneof![Just(0.0), -1e6..1e6f64, -1.0..1.0f64],
            1..40,
        ),
    ) {
        let n = values.len() / dim;
        prop_assume!(n > 0);
        let d = dense(dim, &values[..n * dim]);
        let want = reference_min_max(&d);
        let s = Scaler::fit(Scaling::MinMax, &d);
        let dense_cells = cells(&s.transform(&d));
        let csr = to_csr(&d);
        prop_assert_eq!(&Scaler::fit(Scaling::MinMax, &csr), &s);
        prop_assert_eq!(&cells(&s.transform(&csr)), &dense_cells);
        for (got, want) in dense_cells.iter().zip(&want) {
            let want: Vec<u64> = want.iter().map(|v| (v + 0.0).to_bits()).collect();
            prop_assert_eq!(got, &want);
        }
        let m = Scaler::fit(Scaling::MaxAbs, &csr);
        let out = m.transform(&csr);
        prop_assert!(out.is_sparse());
        for (i, (x, _)) in csr.iter().enumerate() {
            for j in 0..dim {
                let col_max = (0..n).map(|r| csr.row(r).get(j).abs()).fold(0.0, f64::max);
                let want = if col_max > 0.0 { x.get(j) / col_max } else { 0.0 };
                prop_assert_eq!(out.row(i).get(j).to_bits(), (want + 0.0).to_bits());
            }
        }
    }

    /// Ranges of A then B equal the merge of their separate ranges, in either grouping, and
    /// every scaler built from them agrees.
    #[test]
    fn ranges_merge_exactly_and_associatively(
        rows in prop::collection::vec(
            prop::collection::btree_map(0u32..6, prop_oneof![-1e300..1e300f64, -2.0..2.0f64], 0..5),
            0..24,
        ),
        cut1 in 0usize..25,
        cut2 in 0usize..25,
    ) {
        let rows: Vec<Vec<(u32, f64)>> = rows
            .into_iter()
            .map(|m| m.into_iter().filter(|(_, v)| *v != 0.0).collect())
            .collect();
        let (a, b) = (cut1.min(cut2).min(rows.len()), cut1.max(cut2).min(rows.len()));
        let ranges = |part: &[Vec<(u32, f64)>]| {
            let mut r = FeatureRanges::new(0);
            for row in part {
                let (idx, val): (Vec<u32>, Vec<f64>) = row.iter().copied().unzip();
                r.observe(Row::Sparse(auc_core::SparseRow::new(&idx, &val)));
            }
            r
        };
        let all = ranges(&rows);
        let (x, y, z) = (ranges(&rows[..a]), ranges(&rows[a..b]), ranges(&rows[b..]));
        let mut left = x.clone();
        left.merge(&y);
        left.merge(&z);
        let mut yz = y.clone();
        yz.merge(&z);
        let mut right = x.clone();
        right.merge(&yz);
        // Equal up to trailing features that only a part saw; grow to compare.
        for r in [&mut left, &mut right] {
            r.grow(all.dim());
        }
        let mut all = all;
        all.grow(left.dim());
        prop_assert_eq!(&left, &all);
        prop_assert_eq!(&right, &all);
        for s in Scaling::ALL {
            prop_assert_eq!(left.finish(s), all.finish(s));
        }
    }

    /// Whatever the finite range and test value, scaling gives a finite value within the limit.
    #[test]
    fn scaling_never_leaves_the_finite_range(
        lo in prop_oneof![any::<f64>(), Just(-f64::MAX), Just(1e-310)],
        hi in prop_oneof![any::<f64>(), Just(f64::MAX), Just(2e-310)],
        x in prop_oneof![any::<f64>(), Just(f64::MAX), Just(-f64::MAX), Just(1e-320)],
    ) {
        prop_assume!(lo.is_finite() && hi.is_finite() && x.is_finite());
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        let s = Scaler::MinMax { min: vec![lo], max: vec![hi] };
        prop_assert!(s.validate().is_ok());
        let y = s.scale_value(0, x);
        prop_assert!(y.is_finite() && y.abs() <= SCALED_LIMIT, "{lo} {hi} {x} -> {y}");
        // Inside the range the result is in [-1, 1] up to the rounding of a x + b, whose terms
        // reach 2 |lo| / (hi - lo) (a range of a few units in the last place far from 0).
        if lo < hi && lo <= x && x <= hi {
            let terms = 1.0 + 2.0 * lo.abs().max(hi.abs()) / (hi / 2.0 - lo / 2.0);
            let bound = 1.0 + 4.0 * f64::EPSILON * terms;
            prop_assert!(y.abs() <= bound, "{lo} {hi} {x} -> {y}");
        }
        let m = Scaler::MaxAbs { max_abs: vec![hi.abs()] };
        let y = m.scale_value(0, x);
        prop_assert!(y.is_finite() && y.abs() <= SCALED_LIMIT);
    }
}

fn to_csr(d: &Dataset) -> Dataset {
    let mut indptr = vec![0];
    let (mut indices, mut values) = (vec![], vec![]);
    for (x, _) in d.iter() {
        x.for_each(|j, v| {
            if v != 0.0 {
                indices.push(j as u32);
                values.push(v);
            }
        });
        indptr.push(indices.len());
    }
    Dataset::sparse(d.dim(), indptr, indices, values, d.labels().to_vec()).unwrap()
}

#[test]
fn issue_11_item_8_subnormal_and_huge_ranges_do_not_panic() {
    // `1 1:1e-310` / `-1 1:2e-310`: the range is subnormal and 2 / range overflows.
    let d = dense(1, &[1e-310, 2e-310]);
    let s = Scaler::fit(Scaling::MinMax, &d);
    assert_eq!(s.transform(&d).row(0), Row::Dense(&[-1.0]));
    assert_eq!(s.transform(&d).row(1), Row::Dense(&[1.0]));
    // A test value far outside the training range (1e308) stays finite: saturated.
    let test = dense(1, &[1e308]);
    assert_eq!(s.transform(&test).row(0), Row::Dense(&[SCALED_LIMIT]));
    // [-1e308, 1e308]: max - min overflows.
    let wide = dense(1, &[-1e308, 1e308, 0.0]);
    let s = Scaler::fit(Scaling::MinMax, &wide);
    assert_eq!(s.transform(&wide).row(2), Row::Dense(&[0.0]));
    assert_eq!(s.transform(&wide).row(1), Row::Dense(&[1.0]));
}

#[test]
fn max_abs_keeps_sparse_data_sparse_and_auto_picks_by_density() {
    // 2 non-zeros over 4 x 10 cells: density 0.05 < 0.10, so auto is max-abs.
    let d = sparse(10, &[&[(0, -4.0)], &[(9, 2.0)], &[], &[]]);
    let s = Scaler::fit(Scaling::Auto, &d);
    assert_eq!(s.kind(), Scaling::MaxAbs);
    let t = s.transform(&d);
    assert!(t.is_sparse());
    assert_eq!(t.nnz(), 2);
    assert_eq!((t.row(0).get(0), t.row(1).get(9)), (-1.0, 1.0));
    // A test value outside the training range is not clipped: 8 / 4 = 2.
    let test = sparse(10, &[&[(0, 8.0)]]);
    assert_eq!(s.transform(&test).row(0).get(0), 2.0);
    // Dense enough: min-max, and its output is dense.
    let full = dense(2, &[1.0, 2.0, 3.0, 0.0]);
    let s = Scaler::fit(Scaling::Auto, &full);
    assert_eq!(s.kind(), Scaling::MinMax);
    assert!(!s.transform(&to_csr(&full)).is_sparse());
    assert_eq!(Scaler::fit(Scaling::None, &full), Scaler::None);
    assert_eq!(Scaler::None.transform(&d), d);
}

#[test]
fn features_past_the_fitted_dimension_pass_unchanged() {
    let s = Scaler::fit(Scaling::MinMax, &dense(1, &[0.0, 4.0]));
    let wider = dense(3, &[2.0, 5.0, -7.0]);
    assert_eq!(s.transform(&wider).row(0), Row::Dense(&[0.0, 5.0, -7.0]));
    let m = Scaler::fit(Scaling::MaxAbs, &dense(1, &[0.0, 4.0]));
    let t = m.transform(&sparse(5, &[&[(0, 2.0), (4, 9.0)]]));
    assert_eq!((t.row(0).get(0), t.row(0).get(4)), (0.5, 9.0));
}

#[test]
fn rows_scale_like_datasets_without_reallocating() {
    let train = sparse(4, &[&[(0, 1.0), (2, -2.0)], &[(1, 3.0)], &[(3, 0.5)]]);
    for kind in [Scaling::MinMax, Scaling::MaxAbs, Scaling::None] {
        let s = Scaler::fit(kind, &train);
        let whole = s.transform(&train);
        let mut buf = RowBuf::default();
        for (i, (x, _)) in train.iter().enumerate() {
            s.transform_row(x, &mut buf);
            let mut a = vec![0.0; 4];
            let mut b = vec![0.0; 4];
            buf.as_row().write_dense(&mut a);
            whole.row(i).write_dense(&mut b);
            assert_eq!(a, b, "{kind} row {i}");
            assert_eq!(
                matches!(buf, RowBuf::Sparse { .. }),
                whole.is_sparse(),
                "{kind}: the row keeps the dataset's form"
            );
        }
        // Once the buffer has its form and capacity, scaling another row reuses it.
        let before = match &buf {
            RowBuf::Dense(v) => v.as_ptr(),
            RowBuf::Sparse { values, .. } => values.as_ptr(),
        };
        s.transform_row(train.row(2), &mut buf);
        let after = match &buf {
            RowBuf::Dense(v) => v.as_ptr(),
            RowBuf::Sparse { values, .. } => values.as_ptr(),
        };
        if kind != Scaling::None {
            assert_eq!(before, after, "{kind}");
        }
    }
}

#[test]
fn validate_refuses_damaged_scalers() {
    let check = |s: Scaler, p: ScalerProblem| match s.validate() {
        Err(DataError::Scaler(q)) => assert_eq!(q, p),
        other => panic!("expected {p:?}, got {other:?}"),
    };
    check(
        Scaler::MinMax {
            min: vec![0.0],
            max: vec![],
        },
        ScalerProblem::Lengths {
            first: 1,
            second: 0,
        },
    );
    check(
        Scaler::MinMax {
            min: vec![0.0, f64::NAN],
            max: vec![1.0, 1.0],
        },
        ScalerProblem::NonFinite { feature: 1 },
    );
    check(
        Scaler::MinMax {
            min: vec![2.0],
            max: vec![1.0],
        },
        ScalerProblem::Inverted { feature: 0 },
    );
    check(
        Scaler::MaxAbs {
            max_abs: vec![1.0, -1.0],
        },
        ScalerProblem::NegativeMaxAbs { feature: 1 },
    );
    check(
        Scaler::MaxAbs {
            max_abs: vec![f64::INFINITY],
        },
        ScalerProblem::NonFinite { feature: 0 },
    );
    let e = Scaler::MaxAbs {
        max_abs: vec![-1.0],
    }
    .validate()
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid scaler: the largest absolute value of feature 0 (0-based) is negative"
    );
    assert!(Scaler::None.validate().is_ok());
}

/// The scaler field of a format-2 model file: `Option<MinMaxScaler>`, with this struct.
#[derive(Serialize, Deserialize)]
struct OldMinMaxScaler {
    min: Vec<f64>,
    max: Vec<f64>,
}

#[test]
fn encoding_matches_format_2_model_files() {
    let old = Some(OldMinMaxScaler {
        min: vec![-1.0, 0.0],
        max: vec![1.0, 5.0],
    });
    let new = Scaler::MinMax {
        min: vec![-1.0, 0.0],
        max: vec![1.0, 5.0],
    };
    let old_bytes = postcard::to_allocvec(&old).unwrap();
    assert_eq!(postcard::to_allocvec(&new).unwrap(), old_bytes);
    assert_eq!(postcard::from_bytes::<Scaler>(&old_bytes).unwrap(), new);
    let none: Option<OldMinMaxScaler> = None;
    assert_eq!(
        postcard::to_allocvec(&Scaler::None).unwrap(),
        postcard::to_allocvec(&none).unwrap()
    );
    // Ranges round-trip through JSON (finite numbers only) and postcard.
    let r = FeatureRanges::of(&dense(2, &[1.0, 0.0, -3.0, 2.0]));
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(serde_json::from_str::<FeatureRanges>(&json).unwrap(), r);
    let bytes = postcard::to_allocvec(&r).unwrap();
    assert_eq!(postcard::from_bytes::<FeatureRanges>(&bytes).unwrap(), r);
}

#[test]
fn ranges_report_what_they_saw() {
    // Feature 0: 1 and -3 stored; feature 1: 2 stored once, a zero in the other row.
    let r = FeatureRanges::of(&dense(2, &[1.0, 0.0, -3.0, 2.0]));
    assert_eq!((r.dim(), r.rows()), (2, 2));
    assert_eq!(
        (r.min(), r.max(), r.nnz()),
        (&[-3.0, 2.0][..], &[1.0, 2.0][..], &[2, 1][..])
    );
    assert_eq!(r.density(), 0.75);
    // Min-max counts the zero of feature 1: range [0, 2].
    assert_eq!(
        r.finish(Scaling::MinMax),
        Scaler::MinMax {
            min: vec![-3.0, 0.0],
            max: vec![1.0, 2.0]
        }
    );
    assert_eq!(
        r.finish(Scaling::MaxAbs),
        Scaler::MaxAbs {
            max_abs: vec![3.0, 2.0]
        }
    );
    assert_eq!(r.resolve(Scaling::Auto), Scaling::MinMax);
    // Streaming ranges grow with the indices they meet.
    let mut s = FeatureRanges::new(0);
    s.observe(Row::Dense(&[0.0, 5.0]));
    assert_eq!(s.dim(), 2);
    assert_eq!(FeatureRanges::bytes_for(1000), 24_000);
    assert_eq!(Scaler::bytes_for(1000), 40_000);
    assert_eq!(dense_bytes(usize::MAX, 2), u64::MAX);
    assert_eq!(Scaler::bytes_for(usize::MAX), u64::MAX);
    let _ = (Pos, Neg);
}
