//! `cargo xtask reproduce batch [--quick]`: the batch learners fitted exactly from merged class
//! moments (OPAUC-batch, OAUC-M-batch) beside their online counterparts OPAUC (OAUC-S) and
//! OAUC-M, on every shared data set of [OAUC Table 2], with the protocol of the linear table
//! (conventions section 8), written to `docs/results/batch.md` with the time per fit. The harness
//! (table, paper figures of the online learners, timing) is `linear.rs`'s.
//!
//! The algorithms are taken from the registry (`auc algos --json`): those with `from_moments`
//! and the online learners titled [`ONLINE_PEERS`]. `--quick` (1 x 3-fold, inner 2-fold, three
//! grid values, heart, australian and german) writes `target/batch-quick.md`.

use crate::linear::Experiment;

/// The titles of the online learners the batch learners are compared with.
pub(crate) const ONLINE_PEERS: &[&str] = &["OPAUC (OAUC-S)", "OAUC-M"];

/// [OAUC Table 2]'s data sets, batch against online.
pub(crate) const BATCH: Experiment = Experiment {
    key: "batch",
    title: "Exact batch AUC learners from merged class moments beside their online forms: the data sets of [OAUC Table 2]",
    sets: crate::linear::OAUC_SETS,
    family: "moments",
    paper: crate::linear::PAPER,
    extra_args: &[],
    protocol: "4 x stratified 5-fold (20 runs), inner 5-fold; grids: lambda in 2^-10, 2^-9, .., 2^10 for the two batch learners and OAUC-M, eta and lambda in every second power of 2 in 2^-10..2^10 for OPAUC (the linear table's grids)",
    quick_sets: &["heart", "australian", "german"],
    curves: false,
};
