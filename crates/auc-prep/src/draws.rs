//! What the map fits share: the seeded draws ([`Normals`]: uniforms and Box-Muller normals from
//! one xoshiro256++ generator) and the walk over a row's stored entries below a dimension.

use auc_core::Row;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Calls `f(k, x_k)` for the stored entries of `x` below `dim`.
pub(crate) fn for_each_entry(x: Row<'_>, dim: usize, mut f: impl FnMut(usize, f64)) {
    match x {
        Row::Dense(v) => {
            for (k, &a) in v.iter().enumerate().take(dim) {
                f(k, a);
            }
        }
        Row::Sparse(s) => {
            for (&k, &a) in s.indices().iter().zip(s.values()) {
                if (k as usize) < dim {
                    f(k as usize, a);
                }
            }
        }
    }
}

/// A source of standard normal draws (Box-Muller, both values of each pair used).
pub(crate) struct Normals {
    rng: Xoshiro256PlusPlus,
    spare: Option<f64>,
}

impl Normals {
    pub(crate) fn new(seed: u64) -> Normals {
        Normals {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            spare: None,
        }
    }

    /// A uniform draw in [0, 1).
    pub(crate) fn uniform(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    /// A standard normal draw.
    pub(crate) fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        // 1 - u lies in (0, 1], so its logarithm is finite.
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        let r = (-2.0 * u1.ln()).sqrt();
        let t = std::f64::consts::TAU * u2;
        self.spare = Some(r * t.sin());
        r * t.cos()
    }
}
