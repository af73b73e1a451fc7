//! The moment pass's memory estimate against the heap (hostile input item 1): at 10^5 generated
//! chunks (1 to 24 features, 1 to 6 labels, dense and sparse rows, up to 300 rows so that full
//! blocks of `BLOCK_ROWS` occur), the peak of the bytes a counting allocator sees while
//! [`MomentSummary::observe`] builds a summary never exceeds
//! [`MomentSummary::observe_bytes_for`], the figure `auc moments` and the batch learners check
//! against `--max-memory` before the pass. Its own test binary: the allocator counts every
//! thread. The matrix product keeps a packing buffer per thread (about 4 MB, allocated the first
//! time a thread multiplies, then reused), which the estimate leaves to the slack of the limit:
//! the test makes it before it measures.

use std::alloc::System;

use auc_data::{RawData, ReadOptions, Reading, read_libsvm};
use auc_learners::MomentSummary;
use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};
use proptest::prelude::*;

#[global_allocator]
static GLOBAL: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// A LIBSVM chunk: row `i` has label `labels[i]` and its features where `mask` is set.
fn chunk(dim: usize, labels: &[u8], dense: bool, seed: u64) -> RawData {
    let mut text = String::new();
    let mut state = seed | 1;
    for &l in labels {
        text.push_str(&format!("{l}"));
        for j in 1..=dim {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if dense || state % 3 == 0 {
                text.push_str(&format!(" {j}:{}", (state % 1000) as f64 / 100.0 - 5.0));
            }
        }
        text.push('\n');
    }
    read_libsvm(text.as_bytes(), "chunk", &ReadOptions::default()).expect("a valid chunk")
}

/// The matrix product's per-thread packing buffer, made before anything is measured.
fn warm_up() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let raw = chunk(8, &[1; 300], true, 7);
        MomentSummary::new(0, Reading::Libsvm, None).observe(&raw, "warm-up");
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn observing_a_chunk_stays_within_the_estimate(
        dim in 1usize..24,
        labels in proptest::collection::vec(0u8..6, 1..300),
        dense in any::<bool>(),
        seed in any::<u64>(),
    ) {
        warm_up();
        let raw = chunk(dim, &labels, dense, seed);
        let distinct = raw.label_counts().len();
        GLOBAL.reset_peak_memory();
        let mut s = MomentSummary::new(0, Reading::Libsvm, None);
        s.observe(&raw, "chunk");
        let peak = GLOBAL.get_peak_memory();
        let p = raw.dim();
        prop_assert!(
            peak as u64 <= MomentSummary::observe_bytes_for(p, distinct),
            "peak {peak} > estimate {} ({distinct} labels, {p} features)",
            MomentSummary::observe_bytes_for(p, distinct)
        );
        drop(s);
    }
}
