//! The rule that turns the defaults' measurements into a default, fixed before any
//! measurement and stated on the page (`page::RULE`): [`choose`] on the sets of a family, and
//! [`loso`], the rule's leave-one-set-out regrets. Ranks within a set are `auc_eval::stats`'s
//! Friedman ranks ([Demsar06 sec. 3.2.2]).

use auc_eval::stats;

use super::store::{Cell, Store};

/// A point beats another on a set when its mean AUC there is higher; a default must not be
/// beaten by one other point on this share of the sets or more (a "clear majority").
const CLEAR_MAJORITY: f64 = 2.0 / 3.0;

/// The measurements of one algorithm: points x sets.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) points: Vec<String>,
    pub(crate) sets: Vec<String>,
    /// `cells[point][set]`; `None` where there is no measurement.
    pub(crate) cells: Vec<Vec<Option<Cell>>>,
}

impl Table {
    pub(crate) fn of(store: &Store, algo: &str, points: &[String], sets: &[String]) -> Self {
        Table {
            points: points.to_vec(),
            sets: sets.to_vec(),
            cells: points
                .iter()
                .map(|p| sets.iter().map(|s| store.cell(algo, p, s)).collect())
                .collect(),
        }
    }

    /// The mean AUC of point `i` on set `s`, whether or not a run diverged.
    pub(crate) fn auc(&self, i: usize, s: usize) -> Option<f64> {
        match self.cells[i][s] {
            Some(Cell::Auc { mean, .. }) => Some(mean),
            _ => None,
        }
    }

    /// A measured AUC with no diverged run.
    pub(crate) fn clean(&self, i: usize, s: usize) -> Option<f64> {
        match self.cells[i][s] {
            Some(Cell::Auc {
                mean,
                diverged: false,
            }) => Some(mean),
            _ => None,
        }
    }

    /// The sets on which at least one point has a clean measurement (a set where every point
    /// failed, e.g. AUCSVM refusing too many pairs, cannot rank anything).
    pub(crate) fn usable_sets(&self) -> Vec<bool> {
        (0..self.sets.len())
            .map(|s| (0..self.points.len()).any(|i| self.clean(i, s).is_some()))
            .collect()
    }

    /// The best clean AUC on set `s` among the eligible points.
    pub(crate) fn best(&self, s: usize, eligible: &[usize]) -> Option<(usize, f64)> {
        eligible
            .iter()
            .filter_map(|&i| Some((i, self.clean(i, s)?)))
            .fold(None, |acc: Option<(usize, f64)>, (i, a)| match acc {
                Some((_, b)) if b >= a => acc,
                _ => Some((i, a)),
            })
    }
}

/// The outcome of the rule on a subset of the sets.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Choice {
    /// The chosen point.
    pub(crate) index: usize,
    pub(crate) mean_rank: f64,
    pub(crate) mean_auc: f64,
    /// Points that could be chosen (clean on every set of the subset).
    pub(crate) eligible: Vec<usize>,
    /// The most sets on which one other point beats the choice, and that point.
    pub(crate) most_beaten: (usize, Option<usize>),
    /// Sets of the subset.
    pub(crate) sets: usize,
    /// Whether every eligible point is beaten on a clear majority by another, so that the filter
    /// was dropped.
    pub(crate) cycle: bool,
}

/// Ranks of the eligible points on one set, higher values first: [`stats::ranks`] of the
/// one-row matrix `values` (rank 1 = the highest mean AUC, tied values share the mean of the
/// ranks they span). A lone point ranks 1, which `stats::ranks`, a comparison of two methods or
/// more, leaves to its caller. The values are clean mean AUCs, finite by construction; were one
/// not, every rank would be NaN, which no comparison of the rule prefers.
pub(crate) fn ranks(values: &[f64]) -> Vec<f64> {
    if values.len() < 2 {
        return vec![1.0; values.len()];
    }
    match stats::ranks(&[values.to_vec()]) {
        Ok(mut rows) => rows.pop().unwrap_or_default(),
        Err(_) => vec![f64::NAN; values.len()],
    }
}

/// The rule, fixed before any measurement and stated on the page (`page::RULE`), applied to the
/// sets where `mask` is true. The default is the point that
/// 1. has a clean measurement (no failure, no diverged run) on every set;
/// 2. is not beaten (a lower mean AUC than one other point) on two thirds of the sets or more,
///    unless every point is;
/// 3. has the best mean rank among those, where on each set the eligible points are ranked by
///    mean AUC (1 = best, ties share their mean rank); ties go to the higher mean AUC, then to
///    the earlier point of the grid.
///
/// `None` when no point is eligible or no set is selected.
pub(crate) fn choose(t: &Table, mask: &[bool]) -> Option<Choice> {
    let sets: Vec<usize> = (0..t.sets.len()).filter(|&s| mask[s]).collect();
    if sets.is_empty() {
        return None;
    }
    let eligible: Vec<usize> = (0..t.points.len())
        .filter(|&i| sets.iter().all(|&s| t.clean(i, s).is_some()))
        .collect();
    if eligible.is_empty() {
        return None;
    }
    let auc = |i: usize, s: usize| t.clean(i, s).unwrap_or(f64::NAN);
    let mut rank_sum = vec![0.0; eligible.len()];
    for &s in &sets {
        let vals: Vec<f64> = eligible.iter().map(|&i| auc(i, s)).collect();
        for (k, r) in ranks(&vals).into_iter().enumerate() {
            rank_sum[k] += r;
        }
    }
    let n = sets.len() as f64;
    let mean_auc = |i: usize| sets.iter().map(|&s| auc(i, s)).sum::<f64>() / n;
    let beaten = |i: usize| -> (usize, Option<usize>) {
        eligible
            .iter()
            .filter(|&&j| j != i)
            .map(|&j| {
                (
                    sets.iter().filter(|&&s| auc(j, s) > auc(i, s)).count(),
                    Some(j),
                )
            })
            .fold((0, None), |acc, x| if x.0 > acc.0 { x } else { acc })
    };
    let needed = (CLEAR_MAJORITY * n).ceil() as usize;
    let free: Vec<usize> = (0..eligible.len())
        .filter(|&k| beaten(eligible[k]).0 < needed)
        .collect();
    let cycle = free.is_empty();
    let pool: Vec<usize> = if cycle {
        (0..eligible.len()).collect()
    } else {
        free
    };
    let best = pool
        .iter()
        .copied()
        .fold(None, |acc: Option<usize>, k| match acc {
            None => Some(k),
            Some(b) => {
                let (rk, rb) = (rank_sum[k], rank_sum[b]);
                if rk < rb
                    || (rk.total_cmp(&rb).is_eq() && mean_auc(eligible[k]) > mean_auc(eligible[b]))
                {
                    Some(k)
                } else {
                    Some(b)
                }
            }
        })?;
    let index = eligible[best];
    Some(Choice {
        index,
        mean_rank: rank_sum[best] / n,
        mean_auc: mean_auc(index),
        most_beaten: beaten(index),
        eligible,
        sets: sets.len(),
        cycle,
    })
}

/// Leave one set out: for each usable set, the rule on the other usable sets and the AUC gap of
/// its choice on the held-out set to the best point there (`regret`, AUC units), with the choice.
pub(crate) fn loso(t: &Table) -> Vec<(usize, usize, f64)> {
    let usable = t.usable_sets();
    let mut out = Vec::new();
    for s in (0..t.sets.len()).filter(|&s| usable[s]) {
        let mut mask = usable.clone();
        mask[s] = false;
        let Some(c) = choose(t, &mask) else { continue };
        let all: Vec<usize> = (0..t.points.len()).collect();
        let Some((_, best)) = t.best(s, &all) else {
            continue;
        };
        let got = t.auc(c.index, s).unwrap_or(f64::NAN);
        out.push((s, c.index, best - got));
    }
    out
}

/// Median of finite values (mean of the middle two for an even count); NaN when empty.
pub(crate) fn median(v: &[f64]) -> f64 {
    let mut v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(points: &[&str], rows: &[&[f64]]) -> Table {
        Table {
            points: points.iter().map(|p| (*p).to_owned()).collect(),
            sets: (0..rows[0].len()).map(|s| format!("s{s}")).collect(),
            cells: rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&v| {
                            Some(if v < 0.0 {
                                Cell::Auc {
                                    mean: -v,
                                    diverged: true,
                                }
                            } else {
                                Cell::Auc {
                                    mean: v,
                                    diverged: false,
                                }
                            })
                        })
                        .collect()
                })
                .collect(),
        }
    }

    #[test]
    fn ranks_share_ties_and_put_the_highest_first() {
        assert_eq!(ranks(&[0.5, 0.9, 0.5, 0.7]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(ranks(&[]), Vec::<f64>::new());
        assert_eq!(ranks(&[0.25]), vec![1.0]);
        assert!((median(&[3.0, 1.0, 2.0]) - 2.0).abs() < 1e-15);
        assert!((median(&[4.0, 1.0, 2.0, 3.0]) - 2.5).abs() < 1e-15);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn the_best_mean_rank_wins_and_diverged_points_are_never_chosen() {
        // c is best everywhere but diverged once; b beats a on 2 of 3 sets.
        let t = table(
            &["a", "b", "c"],
            &[
                &[0.80, 0.70, 0.90],
                &[0.81, 0.71, 0.60],
                &[0.99, -0.99, 0.99],
            ],
        );
        let c = choose(&t, &[true, true, true]).unwrap();
        assert_eq!(c.eligible, vec![0, 1]);
        // Ranks: a = (2, 2, 1) -> 5/3, b = (1, 1, 2) -> 4/3; b beats a on 2 of 3 = two thirds.
        assert_eq!(c.index, 1);
        assert!((c.mean_rank - 4.0 / 3.0).abs() < 1e-12);
        assert!((c.mean_auc - (0.81 + 0.71 + 0.60) / 3.0).abs() < 1e-12);
        assert_eq!(c.most_beaten, (1, Some(0)));
        assert!(!c.cycle);
    }

    #[test]
    fn a_point_beaten_on_a_clear_majority_is_not_chosen_despite_its_rank() {
        // a is first on set 0 and second on sets 1 and 2, where b is first: a has the best mean
        // rank (1.67) but b beats it on 2 of 3 sets, so a is out. The fillers f1..f8 sit between
        // a and b on set 0 and below a elsewhere, so a beats each of them everywhere and they are
        // out too; b (mean rank 4) is the default.
        let mut rows: Vec<Vec<f64>> = vec![vec![0.95, 0.80, 0.80], vec![0.50, 0.81, 0.81]];
        for i in 0..8 {
            let f = 0.9 - 0.01 * i as f64;
            rows.push(vec![f, 0.70 - 0.01 * i as f64, 0.70 - 0.01 * i as f64]);
        }
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let row_refs: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
        let t = table(&refs, &row_refs);
        let c = choose(&t, &[true; 3]).unwrap();
        assert_eq!(c.index, 1);
        assert!((c.mean_rank - 4.0).abs() < 1e-12);
        assert_eq!(c.most_beaten.0, 1);
        assert!(!c.cycle);
        // Without the filter the rank would pick a: check that a's mean rank is the lowest.
        let mut sums = [0.0; 10];
        for s in 0..3 {
            let vals: Vec<f64> = rows.iter().map(|r| r[s]).collect();
            for (k, r) in ranks(&vals).into_iter().enumerate() {
                sums[k] += r;
            }
        }
        let lowest = (0..10)
            .min_by(|&x, &y| sums[x].total_cmp(&sums[y]))
            .unwrap();
        assert_eq!(lowest, 0);
    }

    #[test]
    fn equal_mean_ranks_go_to_the_higher_mean_auc() {
        // a first on 3 sets by far, b first on the other 3 by a hair: equal rank sums, neither
        // beaten on two thirds; a has the higher mean AUC.
        let t = table(
            &["b", "a"],
            &[
                &[0.60, 0.60, 0.60, 0.51, 0.51, 0.51],
                &[0.99, 0.99, 0.99, 0.50, 0.50, 0.50],
            ],
        );
        let c = choose(&t, &[true; 6]).unwrap();
        assert_eq!(t.points[c.index], "a");
        assert_eq!(c.most_beaten.0, 3);
        // Only the masked sets count: on sets 3-5 alone b wins.
        let c = choose(&t, &[false, false, false, true, true, true]).unwrap();
        assert_eq!(t.points[c.index], "b");
        assert_eq!(c.sets, 3);
        assert!(choose(&t, &[false; 6]).is_none());
    }

    #[test]
    fn a_cycle_drops_the_filter() {
        // Rock-paper-scissors over 3 sets: each point beaten on 2 of 3 by another.
        let t = table(
            &["r", "p", "s"],
            &[&[0.9, 0.8, 0.7], &[0.7, 0.9, 0.8], &[0.8, 0.7, 0.9]],
        );
        let c = choose(&t, &[true; 3]).unwrap();
        assert!(c.cycle);
        assert_eq!(c.index, 0, "equal ranks and mean AUCs: the first point");
    }

    #[test]
    fn leave_one_set_out_regret_is_the_gap_to_the_held_out_best() {
        // Sets 0-2 favour a, set 3 favours b by 0.2.
        let t = table(&["a", "b"], &[&[0.9, 0.9, 0.9, 0.6], &[0.8, 0.8, 0.8, 0.8]]);
        let l = loso(&t);
        assert_eq!(l.len(), 4);
        for (s, i, r) in &l {
            if *s == 3 {
                assert_eq!(*i, 0);
                assert!((r - 0.2).abs() < 1e-12);
            } else {
                // Without a set 0-2, a still wins 2 of 3 and is best there: regret 0.
                assert_eq!(*i, 0);
                assert!(r.abs() < 1e-15);
            }
        }
        // A held-out set where the choice diverged counts with its AUC.
        let t = table(&["a", "b"], &[&[0.9, 0.9, -0.5], &[0.8, 0.8, 0.8]]);
        let l = loso(&t);
        let held = l.iter().find(|r| r.0 == 2).unwrap();
        assert_eq!(held.1, 0);
        assert!(
            (held.2 - 0.3).abs() < 1e-12,
            "best clean 0.8 minus the diverged 0.5"
        );
    }

    /// The ranks this rule used before they came from `auc_eval::stats` (sort by `total_cmp`,
    /// descending; a run of equal values at 0-based positions i..=j shares (i + j)/2 + 1).
    fn ranks_before(values: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        let mut r = vec![0.0; values.len()];
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            while j + 1 < order.len() && values[order[j + 1]].total_cmp(&values[order[i]]).is_eq() {
                j += 1;
            }
            let mean = (i + j) as f64 / 2.0 + 1.0;
            for &k in &order[i..=j] {
                r[k] = mean;
            }
            i = j + 1;
        }
        r
    }

    #[test]
    fn ranks_are_bit_for_bit_those_the_rule_used_before() {
        // Every vector of length 0..=6 over a few AUC-like values (many ties), plus 0.0 and
        // values one bit apart, which must not tie.
        let pool = [0.5, 0.75, 0.75 + f64::EPSILON, 0.9, 0.0, 1.0];
        for len in 0..=6 {
            let mut idx = vec![0usize; len];
            loop {
                let v: Vec<f64> = idx.iter().map(|&i| pool[i]).collect();
                let (new, old) = (ranks(&v), ranks_before(&v));
                assert_eq!(
                    new.iter().map(|r| r.to_bits()).collect::<Vec<_>>(),
                    old.iter().map(|r| r.to_bits()).collect::<Vec<_>>(),
                    "{v:?}"
                );
                // The next vector, as an odometer over the pool.
                let Some(k) = idx.iter().rposition(|&i| i + 1 < pool.len()) else {
                    break;
                };
                idx[k] += 1;
                idx[k + 1..].iter_mut().for_each(|i| *i = 0);
            }
        }
    }
}
