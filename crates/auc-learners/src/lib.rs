//! The learner registry of the `auc` workspace: one row per algorithm ([`ALL`]), typed
//! parameters from names and text ([`Algorithm::configure`]), and name-tagged model files
//! ([`Model`]).
//!
//! Every front end (the `auc` command, the Python package, the reproductions, the tests)
//! enumerates [`ALL`] and keeps no list of its own. A row is built from a parameter type's
//! constants ([`auc_core::Params`]): its name, aliases, citation line, specs, default grid and
//! state version all live beside the learner, so adding a learner is its own file plus one line
//! in [`ALL`].
//!
//! This crate never reads files or parses text beyond parameter values; it never depends on a
//! front end. Model files are bytes here: the command line writes them atomically.
//!
//! ```
//! use auc_core::ParamMap;
//! let opauc = auc_learners::lookup("opauc").unwrap();
//! let mut given = ParamMap::new();
//! given.set("eta", 0.25);
//! let configured = opauc.configure(&given).unwrap();
//! assert_eq!(configured.params().to_string(), "eta=0.25 lambda=0.00390625 sketch=0");
//! let typo = auc_learners::lookup("opuac").unwrap_err();
//! assert!(typo.to_string().contains("did you mean `opauc`?"));
//! ```

mod calibrate;
mod explain;
mod model;
mod params;
mod registry;
mod summary;
mod trained;

pub use auc_metrics::calibration::{Calibration, CalibrationKind};
pub use auc_metrics::calibration_cv::{CalibrationSpec, DEFAULT_CALIBRATION_FOLDS, HeldOutError};
pub use calibrate::{calibration_bytes, fit_calibration};
pub use explain::{Explanation, by_magnitude};
pub use model::{Error, FORMAT_VERSION, Model, OLDEST_READ_VERSION, TrainingRecord};
pub use registry::{
    ALL, Algorithm, default_algorithm, default_map_algorithm, find, linear_memory_batch_names,
    linear_state_names, lookup, names,
};
pub use summary::{
    MOMENTS_FORMAT_VERSION, MOMENTS_MAGIC, MOMENTS_OLDEST_READ_VERSION, MomentError, MomentSummary,
    Update, fit_from_moments,
};
pub use trained::{
    Anatomy, BatchTrainer, Certificate, Configured, Describe, Fitted, OnlineTrainer, Trained,
    Trainer,
};
