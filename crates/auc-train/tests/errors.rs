//! Every route refuses the same input with the same variant of `auc_train::Error`, so a front
//! end maps a refusal once: a memory refusal is `Error::Memory` with its figures, one-class input
//! `Error::OneClass`, a malformed line `Error::Data` naming its file, line and column, whether the
//! learner streams the file, takes a moment pass or loads the rows.

use std::path::{Path, PathBuf};

use auc_data::DataError;
use auc_train::{Bytes, Error, Input, Learner, Options, PrepSpec, Route, Silent, TrainRequest};

/// The bundled data set (270 rows, 13 features, labels -1/+1).
fn heart() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/heart.libsvm")
}

/// One learner per file route: streamed, moment pass, in memory.
const ROUTES: [(&str, Route); 3] = [
    ("pa-i", Route::Streamed),
    ("opauc-batch", Route::Moments),
    ("gbt-auc", Route::InMemory),
];

fn train(name: &str, path: &Path, max_memory: Option<u64>) -> Result<Route, Error> {
    let spec = PrepSpec::new(
        Default::default(),
        auc_data::Positive::Auto,
        Default::default(),
        None,
    )
    .unwrap();
    let mut options = Options::default();
    if let Some(m) = max_memory {
        options.max_memory = Bytes(m);
    }
    let request = TrainRequest {
        options,
        ..TrainRequest::new(
            Learner::Named(auc_learners::lookup(name).unwrap()),
            spec,
            Input::Files(vec![path.to_path_buf()]),
        )
    };
    auc_train::train(request, &Silent).map(|t| t.route)
}

#[test]
fn each_route_takes_the_bundled_data() {
    for (name, route) in ROUTES {
        assert_eq!(train(name, &heart(), None).unwrap(), route, "{name}");
    }
}

#[test]
fn a_memory_refusal_is_the_memory_variant_on_every_route() {
    for (name, _) in ROUTES {
        match train(name, &heart(), Some(1000)) {
            Err(Error::Memory(r)) => {
                assert_eq!(r.limit, Bytes(1000), "{name}");
                assert!(r.needed.0 > 1000, "{name}: {r}");
                assert!(!r.advice.is_empty(), "{name}");
            }
            other => panic!("{name}: {:?}", other.map_err(|e| e.to_string())),
        }
    }
}

#[test]
fn one_class_input_is_the_one_class_variant_on_every_route() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.libsvm");
    let text = std::fs::read_to_string(heart()).unwrap();
    let positive: String = text
        .lines()
        .filter(|l| l.starts_with("1 "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, positive).unwrap();
    for (name, _) in ROUTES {
        match train(name, &path, None) {
            Err(Error::OneClass {
                positives,
                negatives: 0,
                ..
            }) => assert_eq!(positives, 120, "{name}"),
            other => panic!("{name}: {:?}", other.map_err(|e| e.to_string())),
        }
    }
}

#[test]
fn a_malformed_line_is_the_data_variant_with_its_place_on_every_route() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.libsvm");
    std::fs::write(&path, "+1 1:0.5 2:0.25\n-1 1:0.1 2:x\n+1 1:0.3\n-1 2:0.7\n").unwrap();
    for (name, _) in ROUTES {
        match train(name, &path, None) {
            Err(Error::Data {
                source: DataError::Parse { line, col, .. },
                ..
            }) => assert_eq!((line, col), (2, 12), "{name}"),
            other => panic!("{name}: {:?}", other.map_err(|e| e.to_string())),
        }
    }
}
