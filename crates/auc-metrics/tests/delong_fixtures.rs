//! Agreement of `auc_metrics::delong` (Sun and Xu's midrank algorithm) with an independent numpy
//! implementation of DeLong's O(m n) definition [DeLong88] on fixed cases with ties, and of
//! `auc_metrics::normal` with Python's `math.erfc` and scipy's `norm.ppf`.
//!
//! The fixtures are written by `test_data/gen_delong_fixtures.py` (numpy + scipy, fixed seed);
//! Python is needed only to regenerate them.

mod common;

use auc_metrics::delong::{auc_ci, delong, delong_test};
use auc_metrics::normal;
use common::parse_labels;
use serde::Deserialize;

/// The target: the fast algorithm equals the definition to 1e-10 (both sum the same
/// placements in a different order; the differences seen are below 1e-15).
const TOL: f64 = 1e-10;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
    normal: Normal,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    a: Vec<f64>,
    b: Vec<f64>,
    labels: String,
    auc_a: f64,
    auc_b: f64,
    var_a: f64,
    var_b: f64,
    ci_a: Vec<Ci>,
    test: Vec<Test>,
}

#[derive(Deserialize)]
struct Ci {
    level: f64,
    lower: f64,
    upper: f64,
}

#[derive(Deserialize)]
struct Test {
    level: f64,
    delta: f64,
    se: f64,
    delta_ci: (f64, f64),
    z: f64,
    p_value: f64,
}

#[derive(Deserialize)]
struct Normal {
    erfc: Vec<(f64, f64)>,
    ppf: Vec<(f64, f64)>,
}

fn load() -> Fixtures {
    common::load_fixture("delong_fixtures.json")
}

fn check(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= TOL,
        "{what}: got {got}, numpy {want} (diff {:e})",
        got - want
    );
}

#[test]
fn variance_and_interval_equal_the_definition() {
    let f = load();
    assert!(f.cases.len() >= 7);
    for c in &f.cases {
        let y = parse_labels(&c.labels);
        for (scores, auc, var, name) in
            [(&c.a, c.auc_a, c.var_a, "a"), (&c.b, c.auc_b, c.var_b, "b")]
        {
            let d = delong(scores, &y).unwrap();
            check(&format!("{} {name} auc", c.name), d.auc, auc);
            check(&format!("{} {name} variance", c.name), d.variance, var);
        }
        for ci in &c.ci_a {
            let got = auc_ci(&c.a, &y, ci.level).unwrap();
            check(
                &format!("{} ci lower {}", c.name, ci.level),
                got.lower,
                ci.lower,
            );
            check(
                &format!("{} ci upper {}", c.name, ci.level),
                got.upper,
                ci.upper,
            );
            check(&format!("{} se", c.name), got.se * got.se, c.var_a);
        }
    }
}

#[test]
fn paired_test_equals_the_definition() {
    let f = load();
    for c in &f.cases {
        let y = parse_labels(&c.labels);
        for t in &c.test {
            let got = delong_test(&c.a, &c.b, &y, t.level).unwrap();
            let at = |w: &str| format!("{} {w} at level {}", c.name, t.level);
            check(&at("auc_a"), got.auc_a, c.auc_a);
            check(&at("auc_b"), got.auc_b, c.auc_b);
            check(&at("delta"), got.delta, t.delta);
            check(&at("se"), got.se, t.se);
            check(&at("delta_ci.0"), got.delta_ci.0, t.delta_ci.0);
            check(&at("delta_ci.1"), got.delta_ci.1, t.delta_ci.1);
            check(&at("z"), got.z, t.z);
            check(&at("p"), got.p_value, t.p_value);
            // Far in the tail, the p-value also agrees in relative terms.
            assert!(
                (got.p_value - t.p_value).abs() <= 1e-9 * t.p_value,
                "{}: p {} vs {}",
                at("relative p"),
                got.p_value,
                t.p_value
            );
            // Swapping the vectors mirrors the test.
            let back = delong_test(&c.b, &c.a, &y, t.level).unwrap();
            check(&at("mirrored z"), back.z, -t.z);
        }
    }
}

#[test]
fn normal_functions_equal_python() {
    let f = load();
    for &(x, want) in &f.normal.erfc {
        let got = normal::erfc(x);
        assert!(
            (got - want).abs() <= 1e-13 * want.abs() + 1e-300,
            "erfc({x}) = {got}, math.erfc {want}"
        );
    }
    for &(p, want) in &f.normal.ppf {
        let got = normal::quantile(p);
        assert!(
            (got - want).abs() <= 1e-13 * want.abs().max(1e-3),
            "quantile({p}) = {got}, scipy {want}"
        );
    }
}
