//! The families the defaults are measured in: each a registry family, the table whose data sets
//! it is measured on, and the committed page whose nested-CV figures its defaults are compared
//! with.

use crate::experiments::{BATCH, CVM, Experiment, KERNEL, LINEAR};

/// A family of the registry, the table whose data sets it is measured on, and the committed page
/// whose nested-CV figures the defaults are compared with.
pub(crate) struct Family {
    pub(crate) name: &'static str,
    pub(crate) exp: &'static Experiment,
    pub(crate) tuned: Option<&'static str>,
}

/// Every family, in the page's order.
pub(crate) const FAMILIES: &[Family] = &[
    Family {
        name: "linear",
        exp: &LINEAR,
        tuned: Some("linear.md"),
    },
    Family {
        name: "kernel",
        exp: &KERNEL,
        tuned: Some("kernel.md"),
    },
    Family {
        name: "batch",
        exp: &CVM,
        tuned: None,
    },
    // The batch learners fitted from merged class moments are measured on [OAUC Table 2]'s
    // sets beside their online forms, not on the CVM table's: `auc algos --json` marks them
    // `from_moments`, and `Entry::measured_family` files them under this family.
    Family {
        name: "moments",
        exp: &BATCH,
        tuned: Some("batch.md"),
    },
];
