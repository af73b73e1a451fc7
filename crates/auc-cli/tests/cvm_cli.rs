//! `auc cv` runs GAM-CVM and its baselines; bad parameters fail before training.

use std::process::{Command, Output};

fn auc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_auc"))
        .args(args)
        .output()
        .expect("the auc binary runs")
}

fn heart() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/heart.libsvm")
        .display()
        .to_string()
}

#[test]
fn cv_runs_gam_cvm_and_reports_a_good_auc() {
    let h = heart();
    for algo in ["gam-cvm", "gam-cvm-k13", "rho-auccvm"] {
        let o = auc(&[
            "cv",
            "--algo",
            algo,
            "--data",
            &h,
            "--positive",
            "1",
            "--repeats",
            "1",
            "--folds",
            "3",
            "--json",
            "--param",
            "n_loc=8",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        let summary = out.lines().last().unwrap();
        let at = summary.find("\"auc_mean\":").unwrap() + 11;
        let mean: f64 = summary[at..]
            .split([',', '}'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(mean > 0.8, "{algo}: {summary}");
    }
}

#[test]
fn bad_gam_cvm_parameters_fail_with_their_names() {
    let h = heart();
    for (param, name) in [
        ("c1=0", "c1"),
        ("epsilon=1", "epsilon"),
        ("n_loc=1000", "n_loc"),
    ] {
        let o = auc(&[
            "cv",
            "--algo",
            "gam-cvm",
            "--data",
            &h,
            "--positive",
            "1",
            "--repeats",
            "1",
            "--folds",
            "3",
            "--param",
            param,
        ]);
        assert_eq!(o.status.code(), Some(2), "{param}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("parameter {name} = ")),
            "{param}: {err}"
        );
    }
    let o = auc(&["curve", "--algo", "gam-cvm", "--data", &h]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("batch learner"));
}
