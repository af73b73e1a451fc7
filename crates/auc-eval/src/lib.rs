//! Metrics and protocols (in progress).
