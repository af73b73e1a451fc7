//! The stage kinds, one file each: what a fitted stage holds and how it maps rows.

mod feature_map;
mod scale;
mod unit_norm;

pub use feature_map::FeatureMap;
pub use unit_norm::UnitNorm;
