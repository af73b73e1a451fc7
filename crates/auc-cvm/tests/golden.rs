//! Saved models score the same forever: the inductive models in `tests/golden/` were fitted on the
//! 270 rows of `heart.libsvm` (the shared data set, already scaled to [-1, 1]) by the code of
//! commit `da326ea` and saved with [`InductiveModel::to_bytes`]. Each `.scores` file lists query
//! rows (every training row, then perturbed rows that are new to the model) with the score that
//! code gave, all as `f64` bit patterns. Every later build must read the bytes and give the same
//! scores; a change of default (the fusion normalization, say) must not change them, because the
//! model records how it was fitted.
//!
//! To write the files again (only when a new format version is introduced on purpose), run
//! `AUC_CVM_WRITE_GOLDEN=1 cargo test -p auc-cvm --test golden` with `../shared/datasets` beside
//! the repository.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use auc_core::Label::{Neg, Pos};
use auc_core::{Dataset, Row, Scorer};
use auc_cvm::fusion::Normalization;
use auc_cvm::kernels::SubKernelKind::{self, Density, Gaussian, Pearson};
use auc_cvm::{GamCvmSettings, InductiveModel, SolverKind};

/// A golden model: file stem, sub-kernels, solver, parameters other than the defaults.
type Golden = (
    &'static str,
    &'static [SubKernelKind],
    SolverKind,
    &'static [(&'static str, f64)],
);

/// The golden models.
const MODELS: &[Golden] = &[
    (
        "gam-cvm-rows",
        &[Gaussian, Pearson, Density],
        SolverKind::Cvm,
        &[("printed_norm", 0.0)],
    ),
    (
        "gam-cvm-printed",
        &[Gaussian, Pearson, Density],
        SolverKind::Cvm,
        &[("printed_norm", 1.0)],
    ),
    ("gaussian", &[Gaussian], SolverKind::Cvm, &[]),
    (
        "aucsvm",
        &[Gaussian],
        SolverKind::AucSvm { max_pairs: 200_000 },
        &[],
    ),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The rows of a LIBSVM file as dense rows of `dim` features with +1 / other labels; enough for
/// the one clean file the generator reads.
fn read_libsvm(path: &Path, dim: usize) -> Dataset {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut it = line.split_whitespace();
        let label: f64 = it.next().unwrap().parse().unwrap();
        let mut row = vec![0.0; dim];
        for tok in it {
            let (j, v) = tok.split_once(':').unwrap();
            row[j.parse::<usize>().unwrap() - 1] = v.parse().unwrap();
        }
        x.extend(row);
        y.push(if label > 0.0 { Pos } else { Neg });
    }
    Dataset::dense(dim, x, y).unwrap()
}

/// Query rows: every training row, then one perturbed copy of every third row (new points, so
/// scored by the out-of-sample extension). The perturbation is a rational pattern, identical
/// on every platform.
fn queries(train: &Dataset) -> Vec<Vec<f64>> {
    let p = train.dim();
    let mut out = Vec::new();
    for i in 0..train.n() {
        let mut r = vec![0.0; p];
        train.row(i).write_dense(&mut r);
        out.push(r);
    }
    for i in (0..train.n()).step_by(3) {
        let mut r = vec![0.0; p];
        train.row(i).write_dense(&mut r);
        for (j, v) in r.iter_mut().enumerate() {
            *v += ((i * 7 + j * 3) % 11) as f64 * 0.02 - 0.1;
        }
        out.push(r);
    }
    out
}

fn hex(v: f64) -> String {
    format!("{:016x}", v.to_bits())
}

fn unhex(s: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(s, 16).unwrap())
}

fn write_golden() {
    let heart = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/heart.libsvm");
    let train = read_libsvm(&heart, 13);
    std::fs::create_dir_all(dir()).unwrap();
    for (stem, kernels, solver, extra) in MODELS {
        let mut settings = GamCvmSettings::default();
        for &(name, value) in *extra {
            assert_eq!(
                name, "printed_norm",
                "the only setting the golden models vary"
            );
            settings.normalization = if value > 0.5 {
                Normalization::AcrossKernels
            } else {
                Normalization::Rows
            };
        }
        let params = settings.resolve(kernels, *solver);
        let (model, _) = params.fit_inductive(&train, 0).unwrap();
        std::fs::write(dir().join(format!("{stem}.model")), model.to_bytes()).unwrap();
        let mut text = String::new();
        for q in queries(&train) {
            let s = model.score(Row::Dense(&q));
            let cols: Vec<String> = q.iter().map(|&v| hex(v)).collect();
            let _ = writeln!(text, "{}\t{}", hex(s), cols.join(" "));
        }
        std::fs::write(dir().join(format!("{stem}.scores")), text).unwrap();
    }
}

/// New points are scored by a neighbour search, kernel values (`exp`) and sums of a few dozen
/// terms; a later evaluation order of those sums (SIMD distance sums, say) may move the last
/// bits, so new points are compared to 1e-12 relative. Fitted points return their stored score
/// and must match bit for bit.
#[test]
fn saved_models_score_as_when_they_were_saved() {
    if std::env::var_os("AUC_CVM_WRITE_GOLDEN").is_some() {
        write_golden();
    }
    for (stem, kernels, _, _) in MODELS {
        let bytes = std::fs::read(dir().join(format!("{stem}.model"))).unwrap();
        let model = InductiveModel::from_bytes(&bytes).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(model.n(), 270, "{stem}");
        assert_eq!(model.kernels().len(), kernels.len(), "{stem}");
        let text = std::fs::read_to_string(dir().join(format!("{stem}.scores"))).unwrap();
        let mut checked = 0;
        for (line_no, line) in text.lines().enumerate() {
            let (want, row) = line.split_once('\t').unwrap();
            let want = unhex(want);
            let q: Vec<f64> = row.split(' ').map(unhex).collect();
            let got = model.score(Row::Dense(&q));
            if line_no < 270 {
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{stem} training row {line_no}: {got} against {want}"
                );
            } else {
                assert!(
                    (got - want).abs() <= 1e-12 * want.abs(),
                    "{stem} new row {line_no}: {got} against {want}"
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 270 + 90, "{stem}");
        // The bytes read back and written again are the same bytes.
        assert_eq!(model.to_bytes(), bytes, "{stem}");
    }
}
