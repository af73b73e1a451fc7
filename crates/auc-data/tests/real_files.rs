//! The shared datasets, when present next to the checkout (`../shared/datasets`); each test returns
//! early with a note when its file is absent, so the crate's tests do not depend on it.

use std::path::PathBuf;

use auc_data::{Positive, RawData, ReadOptions, read_path};

fn shared(name: &str) -> Option<RawData> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/datasets")
        .join(name);
    if !path.exists() {
        eprintln!("skipping: {} not found", path.display());
        return None;
    }
    Some(read_path(&path, &ReadOptions::default()).unwrap())
}

#[test]
fn a9a_has_the_published_shape_and_stays_sparse() {
    let Some(d) = shared("a9a.libsvm") else {
        return;
    };
    assert_eq!((d.n(), d.dim()), (32561, 123));
    assert_eq!(d.label_counts(), vec![(-1.0, 24720), (1.0, 7841)]);
    assert!(d.is_sparse());
    let data = d.binarize(&Positive::Minority).unwrap();
    assert!(data.is_sparse());
    assert_eq!(data.class_counts(), (7841, 24720));
}

#[test]
fn heart_becomes_dense() {
    let Some(d) = shared("heart.libsvm") else {
        return;
    };
    assert_eq!((d.n(), d.dim()), (270, 13));
    let data = d.binarize(&Positive::Minority).unwrap();
    assert!(!data.is_sparse());
}
