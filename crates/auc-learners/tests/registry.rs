//! The registry's rows agree with their parameter types: every spec is a field and every field a
//! spec, every default passes its own check, every range a spec states is enforced by the
//! type's `check`, every grid parses and configures, names are unique, and "did you mean" finds
//! typos.

use auc_core::{Family, ParamKind, ParamMap, ParamValue, Range};
use auc_eval::grid;
use auc_learners::{ALL, lookup};

#[test]
fn names_are_unique_lower_case_and_hyphenated() {
    let mut seen: Vec<&str> = Vec::new();
    for a in ALL {
        for n in std::iter::once(a.name).chain(a.aliases.iter().copied()) {
            assert!(
                n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{n}"
            );
            assert!(!seen.contains(&n), "{n} is used twice");
            seen.push(n);
        }
        assert!(std::ptr::eq(lookup(a.name).unwrap(), a));
    }
}

#[test]
fn specs_and_fields_agree_and_defaults_pass_their_checks() {
    for a in ALL {
        let config = a
            .configure(&ParamMap::new())
            .unwrap_or_else(|e| panic!("{}: the defaults fail: {e}", a.name));
        let params = config.params();
        let fields: serde_json::Value = serde_json::from_str(&config.params_json()).unwrap();
        let fields = fields.as_object().cloned().unwrap_or_default();
        let spec_names: Vec<&str> = a.specs.iter().map(|s| s.name).collect();
        let mut field_names: Vec<&str> = fields.keys().map(String::as_str).collect();
        field_names.sort_unstable();
        let mut sorted = spec_names.clone();
        sorted.sort_unstable();
        assert_eq!(field_names, sorted, "{}: fields and specs differ", a.name);
        assert_eq!(params.len(), a.specs.len(), "{}", a.name);
        assert_eq!(a.defaults(), params, "{}", a.name);
        for s in a.specs {
            assert!(!s.doc.is_empty(), "{}.{} has no doc", a.name, s.name);
        }
    }
}

/// A value outside each real spec's range, or of the wrong kind, is refused by `configure`.
#[test]
fn every_stated_range_is_enforced() {
    for a in ALL {
        for s in a.specs {
            let bad: Vec<ParamValue> = match s.kind {
                ParamKind::Real(Range::Positive) => {
                    vec![0.0.into(), (-1.0).into(), f64::INFINITY.into()]
                }
                ParamKind::Real(Range::NonNegative) => vec![(-1e-9).into(), f64::NAN.into()],
                ParamKind::Real(Range::OpenUnit) => vec![0.0.into(), 1.0.into()],
                ParamKind::Real(Range::UnitHalfOpen) => vec![1.0.into(), (-0.5).into()],
                ParamKind::Real(Range::UnitOpenClosed) => vec![0.0.into(), 1.5.into()],
                ParamKind::Real(Range::UnitClosed) => vec![(-0.1).into(), 1.5.into()],
                ParamKind::Integer { min } => {
                    let mut v: Vec<ParamValue> = vec![2.5.into(), "many".into()];
                    if min > 0 {
                        v.push((min as f64 - 1.0).into());
                    }
                    v
                }
                ParamKind::Bool => vec![2.0.into(), "maybe".into()],
                ParamKind::Choice(_) => vec!["no-such-choice".into(), 1.0.into()],
            };
            for v in bad {
                let mut m = ParamMap::new();
                m.set(s.name, v.clone());
                assert!(
                    a.configure(&m).is_err(),
                    "{}: {} = {v} was accepted",
                    a.name,
                    s.name
                );
            }
        }
    }
}

#[test]
fn grids_parse_name_real_parameters_and_configure() {
    for a in ALL {
        for (which, axes) in [("grid", a.grid), ("paper grid", a.paper_grid)] {
            let parsed: Vec<_> = axes
                .iter()
                .map(|g| grid::parse_grid_arg(g).unwrap_or_else(|e| panic!("{}: {e}", a.name)))
                .collect();
            for axis in &parsed {
                assert!(
                    a.specs.iter().any(|s| s.name == axis.name),
                    "{}'s {which} names {}, which is not a parameter",
                    a.name,
                    axis.name
                );
            }
            if which == "grid" {
                for point in grid::expand(&parsed).unwrap() {
                    a.configure(&point)
                        .unwrap_or_else(|e| panic!("{} {point}: {e}", a.name));
                }
            }
        }
        assert_eq!(
            a.grid.is_empty(),
            a.specs.is_empty() && a.family != Family::Batch,
            "{}",
            a.name
        );
    }
}

#[test]
fn typos_get_suggestions() {
    let e = lookup("opuac").unwrap_err();
    assert!(e.to_string().contains("did you mean `opauc`?"), "{e}");
    assert!(
        !lookup("zzzzzz")
            .unwrap_err()
            .to_string()
            .contains("did you mean")
    );
    let opauc = lookup("oauc-s").unwrap();
    assert_eq!(opauc.title, "OPAUC (OAUC-S)");
    let mut m = ParamMap::new();
    m.set("lamda", 0.5);
    let e = opauc.configure(&m).err().unwrap().to_string();
    assert!(e.contains("did you mean lambda?"), "{e}");
    let koil = lookup("koil").unwrap();
    let mut m = ParamMap::new();
    m.set("removal", "resevoir");
    let e = koil.configure(&m).err().unwrap().to_string();
    assert!(
        e.contains("one of fifo, reservoir (did you mean reservoir?)"),
        "{e}"
    );
}

#[test]
fn algos_json_describes_every_parameter() {
    for a in ALL {
        let j = a.to_json();
        assert_eq!(j["name"], a.name);
        let params = j["params"].as_array().unwrap();
        assert_eq!(params.len(), a.specs.len());
        for p in params {
            for key in ["name", "type", "default", "allowed", "doc"] {
                assert!(!p[key].is_null(), "{}: {key} missing in {p}", a.name);
            }
        }
    }
}

/// The learners memory errors suggest are the ones whose state is a few vectors of p numbers:
/// the perceptron's and PA-I's w, SOLAM's three vectors, Balanced AdaGrad's weights,
/// accumulators and step counters, Balanced FTRL's sums, accumulators and weights; never a moment learner (p^2), OAM or a kernel learner (a
/// buffer of 2B + 1 examples) or a batch learner.
#[test]
fn linear_state_names_come_from_the_memory_estimates() {
    assert_eq!(
        auc_learners::linear_state_names(),
        ["perceptron", "pa-i", "solam", "bal-adagrad", "bal-ftrl"]
    );
}

/// Only a transductive mode the parameters themselves set counts: GAM-CVM's transductive
/// default does not, `transductive=true` (or 1) does, and learners without the mode never ask.
#[test]
fn asking_for_the_transductive_mode_is_typed() {
    let map = |v: ParamValue| -> ParamMap { [("transductive", v)].into_iter().collect() };
    for a in ALL {
        assert!(!a.asks_transductive(&ParamMap::new()), "{}", a.name);
        let has_mode = a.specs.iter().any(|s| s.name == "transductive");
        assert_eq!(
            a.asks_transductive(&map(true.into())),
            has_mode,
            "{}",
            a.name
        );
        assert_eq!(
            a.asks_transductive(&map(1.0.into())),
            has_mode,
            "{}",
            a.name
        );
        assert!(!a.asks_transductive(&map(false.into())), "{}", a.name);
        assert!(!a.asks_transductive(&map(2.0.into())), "{}", a.name);
    }
    assert!(
        lookup("gam-cvm")
            .unwrap()
            .asks_transductive(&map(true.into()))
    );
}

/// The typed certificate is what the description says, for the learners fitted by a certifying
/// solver (the batch moment learners), and absent for one-pass learners.
#[test]
fn certificates_are_typed_and_agree_with_the_description() {
    use auc_core::Dataset;
    use auc_core::Label::{Neg, Pos};
    use auc_learners::Trainer;
    // Two features, three rows per class, separable along the first feature.
    let x = vec![
        1.0, 0.5, 2.0, -0.5, 1.5, 0.0, -1.0, 0.5, -2.0, 0.0, -1.5, -0.5,
    ];
    let data = Dataset::dense(2, x, vec![Pos, Pos, Pos, Neg, Neg, Neg]).unwrap();
    let mut certified = 0;
    for a in ALL {
        let config = a.configure(&ParamMap::new()).unwrap();
        match config.trainer() {
            Trainer::Online(t) => {
                let state = t.start(2, 0, false).unwrap();
                assert!(state.certificate().is_none(), "{}", a.name);
            }
            Trainer::Batch(b) if a.fits_from_moments() => {
                let (state, _) = b.fit(&data, 0).unwrap();
                let c = state.certificate().expect("a certifying solver");
                let d = state.describe();
                assert_eq!(d["converged"], c.converged, "{}", a.name);
                assert_eq!(d["solver_steps"], c.solver_steps, "{}", a.name);
                assert_eq!(
                    d["distance_bound"],
                    c.to_json()["distance_bound"],
                    "{}",
                    a.name
                );
                assert_eq!(d["tolerance"], c.to_json()["tolerance"], "{}", a.name);
                certified += 1;
            }
            Trainer::Batch(_) => {}
        }
    }
    assert_eq!(certified, 2);
}

/// GAM-CVM's one dependent default: on landmarks an epsilon not given is
/// `auc_cvm::LANDMARK_EPSILON` (docs/results/cvm-epsilon.md); a given epsilon, and the dense
/// fusion, keep theirs. `auc algos` says so in the landmarks line.
#[test]
#[allow(clippy::float_cmp)] // The defaults are exact constants.
fn gam_cvm_on_landmarks_defaults_to_the_measured_epsilon() {
    let algo = lookup("gam-cvm").unwrap();
    let epsilon = |pairs: &[(&str, f64)]| -> f64 {
        let mut m = ParamMap::new();
        for &(k, v) in pairs {
            m.set(k, v);
        }
        let config = algo.configure(&m).unwrap();
        let fields: serde_json::Value = serde_json::from_str(&config.params_json()).unwrap();
        fields["epsilon"].as_f64().unwrap()
    };
    assert_eq!(epsilon(&[]), 1e-3);
    assert_eq!(epsilon(&[("landmarks", 2000.0)]), auc_cvm::LANDMARK_EPSILON);
    assert_eq!(epsilon(&[("landmarks", 2000.0), ("epsilon", 1e-3)]), 1e-3);
    assert_eq!(epsilon(&[("landmarks", 0.0)]), 1e-3);
    let line = algo.specs.iter().find(|s| s.name == "landmarks").unwrap();
    assert!(
        line.doc.contains(&format!(
            "epsilon defaults to {:e}",
            auc_cvm::LANDMARK_EPSILON
        )),
        "{}",
        line.doc
    );
}
