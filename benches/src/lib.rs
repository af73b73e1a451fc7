//! Shared inputs of the criterion benchmarks (in progress).
