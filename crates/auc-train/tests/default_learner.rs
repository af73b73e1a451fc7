//! The learner trained when none is named: the blend on the features, the map learner at its
//! measured lambda on a map asked for, the map learner on the features past the blend's width.

use auc_prep::{FeatureMapSpec, MapKind, MapShape, TransformSpec, features::DEFAULT_SIGMA};
use auc_train::default_learner::{BLEND_MAX_DIM, DefaultLearner, MAP_LAMBDA_LOG2};

#[test]
fn the_blend_on_the_features_and_the_map_learner_on_wide_data() {
    let d = DefaultLearner::for_stages(&TransformSpec::default());
    assert_eq!(d.algo.name, auc_learners::default_algorithm().name);
    assert_eq!(d.lambda(), None);
    assert!(d.message("auc train", false).contains("uses blend"));
    assert!(d.on_wide_data(BLEND_MAX_DIM, "auc train").is_none());
    let (wide, message) = d.on_wide_data(BLEND_MAX_DIM + 1, "auc cv").unwrap();
    assert_eq!(wide.name, auc_learners::default_map_algorithm().name);
    assert!(message.starts_with("auc cv: 4097 features are more than the default blend takes"));
}

#[test]
fn the_map_learner_at_its_lambda_on_a_map_asked_for() {
    let shape = MapShape {
        kind: MapKind::Nystroem,
        size: 100,
    };
    let stages = TransformSpec {
        features: Some(FeatureMapSpec {
            shape,
            sigma: DEFAULT_SIGMA,
            seed: 0,
        }),
        ..TransformSpec::default()
    };
    let d = DefaultLearner::for_stages(&stages);
    assert_eq!(d.algo.name, auc_learners::default_map_algorithm().name);
    assert_eq!(d.map, Some(shape));
    assert_eq!(d.lambda(), Some(2f64.powi(MAP_LAMBDA_LOG2)));
    assert!(d.message("auc train", false).ends_with(&format!(
        "feature map asked for, lambda=2^{MAP_LAMBDA_LOG2}, the learner measured best on maps (docs/results/default-map.md); --algo NAME chooses another learner"
    )));
    assert!(!d.message("auc train", true).contains("lambda=2^"));
    // The map learner takes wide data itself.
    assert!(d.on_wide_data(1 << 20, "auc train").is_none());
}
