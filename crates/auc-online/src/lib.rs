//! Linear online learners (in progress).
