//! The views a moment learner's step reads its vectors through: [`Span`], the features it
//! visits (all of them for exact moments, the touched ones for sketched moments:
//! `crate::support`), and [`Diff`], $d = x - \bar x$ written out (exact) or read in place
//! (sketched).

use auc_core::Label;

use crate::batch_moments::dot;
use crate::moment_store::MomentStore;
use crate::support::Support;

/// The features a step visits: all $p$ of them for exact moments, the touched ones for
/// sketched moments (`crate::support`: every vector of the step is zero elsewhere).
#[derive(Clone, Copy)]
pub(crate) enum Span<'a> {
    /// $0, \dots, p - 1$.
    All,
    /// The members of a built [`Support`].
    Touched(&'a Support),
}

impl<'a> Span<'a> {
    /// The span of a step on `moments`, whose sketched support is `support`.
    pub(crate) fn of(moments: &MomentStore, support: &'a Support) -> Self {
        match moments {
            MomentStore::Dense(_) => Span::All,
            MomentStore::Sketched(_) => Span::Touched(support),
        }
    }

    /// $a^\top b$ over the span (the exact moments' vector kernel for all of it).
    #[inline]
    pub(crate) fn dot(self, a: &[f64], b: &[f64]) -> f64 {
        match self {
            Span::All => dot(a, b),
            Span::Touched(s) => s.dot(a, b),
        }
    }
}

/// [`crate::Linear::for_each_live`] of a moment learner on `moments` whose sketched support is
/// `support`: the touched features once the support is built (a fresh or loaded learner's is
/// built at its first step; before it, and for exact moments, `false`).
#[inline]
pub(crate) fn for_each_live(
    moments: &MomentStore,
    support: &Support,
    f: impl FnMut(usize),
) -> bool {
    match Span::of(moments, support) {
        Span::Touched(s) if s.is_built() => {
            s.for_each(f);
            true
        }
        Span::Touched(_) | Span::All => false,
    }
}

/// $d_j = x_j - \bar x_j$ of a step, $\bar x$ the mean of the class opposite to the step's:
/// the vector `MomentStore::write_opposite_diff` wrote (exact moments) or, sketched, the
/// scattered row less the opposite class's sums times $1/N$, read where a loop needs it, so that
/// no vector of length $p$ is written.
pub(crate) enum Diff<'a> {
    /// The written $d$.
    Dense(&'a [f64]),
    /// $x_j - s_j / N$ as `xs[j] - sums[j] * inv` (`auc_stats::SketchedMoments::mean_at`).
    Sketched {
        xs: &'a [f64],
        sums: &'a [f64],
        inv: f64,
    },
}

impl<'a> Diff<'a> {
    /// The step's $d$ on `moments`: `d` for exact moments, else from the scattered row `xs`
    /// and the class `opposite` (none before a step has read one: $d = x$, never read then).
    pub(crate) fn of(
        moments: &'a MomentStore,
        d: &'a [f64],
        xs: &'a [f64],
        opposite: Option<Label>,
    ) -> Self {
        match (moments, opposite) {
            (MomentStore::Sketched(s), Some(y)) => {
                let (sums, inv) = s.class(y).mean_parts();
                Diff::Sketched { xs, sums, inv }
            }
            (MomentStore::Sketched(_), None) => Diff::Dense(xs),
            (MomentStore::Dense(_), _) => Diff::Dense(d),
        }
    }

    /// $d_j$.
    #[inline(always)]
    pub(crate) fn at(&self, j: usize) -> f64 {
        match self {
            Diff::Dense(d) => d[j],
            Diff::Sketched { xs, sums, inv } => xs[j] - sums[j] * inv,
        }
    }
}
