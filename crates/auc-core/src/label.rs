//! Binary class labels.

use serde::{Deserialize, Serialize};

/// The class of an example: positive (usually the rare class) or negative.
///
/// Files carry labels as numbers; the data layer maps them to this enum (conventions section 1), so no
/// learner ever compares floats to find the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Label {
    /// The positive class, $y = +1$.
    Pos,
    /// The negative class, $y = -1$.
    Neg,
}

impl Label {
    /// $y$ as a number: `+1.0` for [`Label::Pos`], `-1.0` for [`Label::Neg`].
    #[inline]
    pub fn sign(self) -> f64 {
        match self {
            Label::Pos => 1.0,
            Label::Neg => -1.0,
        }
    }

    /// Whether this is the positive class.
    #[inline]
    pub fn is_pos(self) -> bool {
        self == Label::Pos
    }

    /// The other class.
    #[inline]
    pub fn opposite(self) -> Label {
        match self {
            Label::Pos => Label::Neg,
            Label::Neg => Label::Pos,
        }
    }

    /// Index `0` for positives and `1` for negatives, for per-class arrays.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Label::Pos => 0,
            Label::Neg => 1,
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Label::Pos => "+1",
            Label::Neg => "-1",
        })
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are exact by construction (see each comment).
mod tests {
    use super::*;

    #[test]
    fn sign_opposite_and_index_agree() {
        assert_eq!(Label::Pos.sign(), 1.0);
        assert_eq!(Label::Neg.sign(), -1.0);
        assert_eq!(Label::Pos.opposite(), Label::Neg);
        assert_eq!(Label::Neg.opposite().index(), 0);
        assert_eq!(Label::Neg.to_string(), "-1");
    }
}
