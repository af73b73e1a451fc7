//! The stage kinds, one file each: what a fitted stage holds and how it maps rows.

mod scale;
mod unit_norm;

pub use unit_norm::UnitNorm;
