//! The stage kinds, one file each: what a fitted stage holds and how it maps rows.

mod feature_map;
mod one_hot;
mod poly2;
mod scale;
mod unit_norm;

pub use feature_map::FeatureMap;
pub use one_hot::{Levels, OneHot};
pub use poly2::poly2_dim;
pub use unit_norm::UnitNorm;
