//! Public-API tests of grid parsing and expansion: every accepted form, every error message, and
//! the order of the cartesian product.

use auc_core::ParamMap;
use auc_eval::grid::{GridAxis, GridError, MAX_GRID_POINTS, expand, parse_grid_arg};

/// Parses `arg` and checks the name and the exact values (powers of two and short decimals are
/// compared bit for bit: both sides come from the same parse or `powi`).
fn check(arg: &str, name: &str, expected: &[f64]) {
    let axis = parse_grid_arg(arg).unwrap_or_else(|e| panic!("{arg}: {e}"));
    assert_eq!(axis.name, name, "{arg}");
    let got: Vec<u64> = axis
        .values
        .iter()
        .map(|v| v.as_f64().expect("a number").to_bits())
        .collect();
    let want: Vec<u64> = expected.iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, want, "{arg}: got {:?}", axis.values);
}

/// Parses `arg`, expecting an error whose message contains every piece of `needles`.
fn check_err(arg: &str, needles: &[&str]) -> GridError {
    let e = parse_grid_arg(arg).expect_err(arg);
    let msg = e.to_string();
    for n in needles {
        assert!(msg.contains(n), "{arg}: message `{msg}` lacks `{n}`");
    }
    e
}

fn pow2(range: std::ops::RangeInclusive<i32>) -> Vec<f64> {
    range.map(|e| 2f64.powi(e)).collect()
}

#[test]
fn power_ranges_include_both_ends() {
    check("eta=2^-10..2^10", "eta", &pow2(-10..=10));
    check("lambda=2^-3..2^-3", "lambda", &[0.125]);
    check("c=2^0..2^2", "c", &[1.0, 2.0, 4.0]);
    assert_eq!(parse_grid_arg("eta=2^-10..2^10").unwrap().values.len(), 21);
}

#[test]
fn stepped_ranges_take_every_s_th_power_from_the_first() {
    check(
        "sigma=2^-10..2^10:5",
        "sigma",
        &[2f64.powi(-10), 2f64.powi(-5), 1.0, 32.0, 1024.0],
    );
    // 2^-3, 2^-1, 2^1: the next, 2^3, is past the end.
    check("eta=2^-3..2^2:2", "eta", &[0.125, 0.5, 2.0]);
    check("eta=2^1..2^2:10", "eta", &[2.0]);
}

#[test]
fn lists_keep_their_order() {
    check(
        "c1=0.001,0.01,0.1,0.5,1,5,10,100",
        "c1",
        &[0.001, 0.01, 0.1, 0.5, 1.0, 5.0, 10.0, 100.0],
    );
    check("beta1=0.5", "beta1", &[0.5]);
    check("epsilon=1e-8,1e-3,0.1", "epsilon", &[1e-8, 1e-3, 0.1]);
    check("n_loc=4,8,16", "n_loc", &[4.0, 8.0, 16.0]);
    check("lambda=0,-1.5,2^-2", "lambda", &[0.0, -1.5, 0.25]);
}

#[test]
fn spaces_around_parts_are_ignored() {
    check(" eta = 0.5, 1 ", "eta", &[0.5, 1.0]);
    check("eta=2^-1 .. 2^1", "eta", &[0.5, 1.0, 2.0]);
}

#[test]
fn malformed_arguments_say_what_is_wrong_and_quote_the_input() {
    let e = check_err("eta", &["`eta`", "NAME=VALUES"]);
    assert_eq!(
        e,
        GridError::MissingEquals {
            input: "eta".into()
        }
    );
    check_err("Eta=1", &["`Eta=1`", "name `Eta`", "lower-case"]);
    check_err("1eta=1", &["name `1eta`"]);
    check_err("=1", &["name ``"]);
    check_err("et-a=1", &["name `et-a`"]);
    check_err(
        "eta=1x",
        &[
            "`eta=1x`",
            "`1x` is neither a finite number nor a lower-case word",
        ],
    );
    check_err(
        "eta=",
        &["`` is neither a finite number nor a lower-case word"],
    );
    check_err("eta=1,,2", &["`` is neither a finite number"]);
    check_err("eta=nan", &["`nan` is neither a finite number"]);
    check_err("eta=inf", &["`inf`"]);
    check_err("eta=1e400", &["`1e400`"]);
    check_err("eta=0.5,1,0.5", &["value 0.5 is listed twice"]);
    check_err("eta=0,-0", &["listed twice"]);
    check_err("eta=2^1.5..2^3", &["exponent `1.5`", "integer"]);
    check_err("eta=2^-1..3", &["exponent `3`"]);
    check_err("eta=1..2^3", &["exponent `1`"]);
    check_err(
        "eta=2^0..2^2000",
        &["exponent `2000`", "between -1000 and 1000"],
    );
    check_err("eta=2^0..", &["exponent ``"]);
    check_err("eta=2^0..2^3:0", &["step `0`", ">= 1"]);
    check_err("eta=2^0..2^3:-1", &["step `-1`"]);
    check_err("eta=2^0..2^3:x", &["step `x`"]);
    let e = check_err("eta=2^3..2^-3", &["`eta=2^3..2^-3`", "empty", "3 > -3"]);
    assert_eq!(
        e,
        GridError::EmptyRange {
            input: "eta=2^3..2^-3".into(),
            from: 3,
            to: -3
        }
    );
}

#[test]
fn expand_varies_the_first_axis_slowest() {
    let axes = [
        GridAxis {
            name: "eta".into(),
            values: vec![1.0.into(), 2.0.into()],
        },
        GridAxis {
            name: "lambda".into(),
            values: vec![0.1.into(), 0.2.into(), 0.3.into()],
        },
    ];
    let got: Vec<String> = expand(&axes)
        .unwrap()
        .iter()
        .map(ParamMap::to_string)
        .collect();
    assert_eq!(
        got,
        [
            "eta=1 lambda=0.1",
            "eta=1 lambda=0.2",
            "eta=1 lambda=0.3",
            "eta=2 lambda=0.1",
            "eta=2 lambda=0.2",
            "eta=2 lambda=0.3",
        ]
    );
    // The order is the axes' order, not the names' order.
    let swapped = [axes[1].clone(), axes[0].clone()];
    let got: Vec<String> = expand(&swapped)
        .unwrap()
        .iter()
        .map(ParamMap::to_string)
        .collect();
    assert_eq!(
        &got[..3],
        ["eta=1 lambda=0.1", "eta=2 lambda=0.1", "eta=1 lambda=0.2"]
    );
}

#[test]
fn expand_edge_cases() {
    assert_eq!(expand(&[]).unwrap(), vec![ParamMap::new()]);
    let one = parse_grid_arg("c=5").unwrap();
    assert_eq!(expand(std::slice::from_ref(&one)).unwrap().len(), 1);
    let full = [
        parse_grid_arg("eta=2^-10..2^10").unwrap(),
        parse_grid_arg("lambda=2^-10..2^10").unwrap(),
    ];
    assert_eq!(expand(&full).unwrap().len(), 441);
    let e = expand(&[one.clone(), parse_grid_arg("c=1,2").unwrap()]).unwrap_err();
    assert_eq!(e, GridError::RepeatedName { name: "c".into() });
    assert_eq!(e.to_string(), "grid parameter `c` is given twice");
    let wide = GridAxis {
        name: "a".into(),
        values: vec![0.0.into(); 10_000],
    };
    let mut deep = wide.clone();
    deep.name = "b".into();
    match expand(&[wide, deep]) {
        Err(GridError::TooLarge { points }) => assert!(points > MAX_GRID_POINTS),
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<GridAxis>();
    check::<GridError>();
}

#[test]
fn lists_take_words_for_choices_and_booleans() {
    let axis = parse_grid_arg("removal=fifo,reservoir").unwrap();
    assert_eq!(axis.values, vec!["fifo".into(), "reservoir".into()]);
    let b = parse_grid_arg("transductive=true,false").unwrap();
    assert_eq!(b.values, vec![true.into(), false.into()]);
    assert!(parse_grid_arg("removal=fifo,fifo").is_err());
    let e = parse_grid_arg("c=1,x y").unwrap_err().to_string();
    assert!(
        e.contains("neither a finite number nor a lower-case word"),
        "{e}"
    );
}
