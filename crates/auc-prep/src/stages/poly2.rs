//! The degree-2 polynomial map's arithmetic (`--features poly2`, conventions section 12): for
//! $p$ input features,
//! $$ z(x) = (x_1, \dots, x_p,\ x_1 x_1, x_1 x_2, \dots, x_1 x_p,\ x_2 x_2, \dots, x_p x_p), $$
//! the features followed by the products $x_i x_j$, $i \le j$, in row-major order of the upper
//! triangle: $D = p + p(p+1)/2$ features, and $z(x) \cdot z(y) = x \cdot y + \sum_{i \le j} x_i
//! x_j y_i y_j$, an explicit polynomial kernel. On one-hot indicators (the one-hot stage) the
//! products are the indicators of pairs of categories, so a linear scorer of $z$ counts, say,
//! the pairs of cards of equal rank.
//!
//! Only the stored non-zeros of $x$ take part, so a row with $t$ non-zeros costs
//! $t + t(t+1)/2$ values, written as a sparse row with strictly increasing indices; a product
//! that underflows to 0 or overflows is left out (mapped rows are finite and store no zero).

use auc_core::Row;

/// $D = p + p(p+1)/2$, or `None` when it does not fit a `usize`.
pub fn poly2_dim(p: usize) -> Option<usize> {
    p.checked_add(1)?
        .checked_mul(p)
        .map(|t| t / 2)
        .and_then(|t| t.checked_add(p))
}

/// The index of the product $x_i x_j$ ($i \le j < p$) among the $D$ outputs: row $r < i$ of
/// the triangle holds the $p - r$ products $x_r x_r, \dots, x_r x_p$, so row $i$ starts
/// $ip - i(i-1)/2$ products after the $p$ features.
fn product_index(p: usize, i: usize, j: usize) -> usize {
    p + i * p - i * i.saturating_sub(1) / 2 + (j - i)
}

/// The non-zero entries of `x` below `p`, into `nz` (cleared first).
fn nonzeros(x: Row<'_>, p: usize, nz: &mut Vec<(usize, f64)>) {
    nz.clear();
    match x {
        Row::Dense(v) => nz.extend(
            v.iter()
                .take(p)
                .enumerate()
                .filter(|(_, a)| **a != 0.0)
                .map(|(j, &a)| (j, a)),
        ),
        Row::Sparse(s) => nz.extend(
            s.indices()
                .iter()
                .zip(s.values())
                .take_while(|(j, _)| (**j as usize) < p)
                .filter(|(_, a)| **a != 0.0)
                .map(|(&j, &a)| (j as usize, a)),
        ),
    }
}

/// $z(x)$ for `p` input features as a sparse row into `indices` and `values` (cleared first);
/// `nz` is scratch.
pub(super) fn map_sparse(
    x: Row<'_>,
    p: usize,
    nz: &mut Vec<(usize, f64)>,
    indices: &mut Vec<u32>,
    values: &mut Vec<f64>,
) {
    nonzeros(x, p, nz);
    indices.clear();
    values.clear();
    for &(j, a) in nz.iter() {
        indices.push(j as u32);
        values.push(a);
    }
    for (k, &(i, a)) in nz.iter().enumerate() {
        for &(j, b) in &nz[k..] {
            let v = a * b;
            if v != 0.0 && v.is_finite() {
                indices.push(product_index(p, i, j) as u32);
                values.push(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_numbered_row_by_row_after_the_features() {
        for p in [1usize, 2, 3, 7, 20] {
            let mut next = p;
            for i in 0..p {
                for j in i..p {
                    assert_eq!(product_index(p, i, j), next, "p {p}, ({i}, {j})");
                    next += 1;
                }
            }
            assert_eq!(Some(next), poly2_dim(p));
        }
    }
}
