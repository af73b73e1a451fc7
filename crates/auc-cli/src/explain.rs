//! The explanation `auc model` prints after the model's description: a linear model's weights
//! in the units of the input, the split counts of trees, or why neither exists.

use auc_learners::{Explanation, by_magnitude};

/// How many features the text lists without `--all`.
pub(crate) const TOP: usize = 20;

/// The lines `auc model` prints about `e`: every feature with `all`, else the [`TOP`] largest.
pub(crate) fn lines(e: &Explanation, all: bool) -> Vec<String> {
    let mut out = Vec::new();
    let table = |rows: Vec<(String, String)>, out: &mut Vec<String>| {
        let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        for (name, value) in rows {
            out.push(format!("  {name:<width$}  {value}"));
        }
    };
    let more = |shown: usize, total: usize, out: &mut Vec<String>| {
        if shown < total {
            out.push(format!(
                "  ({shown} of {total} features, by magnitude; --all lists every one)"
            ));
        }
    };
    match e {
        Explanation::Linear(iw) => {
            out.push(
                "weights     in the units of the input (the scaling undone): score = intercept + sum of weight x value"
                    .to_owned(),
            );
            let order = by_magnitude(&iw.weights);
            let shown = if all { order.len() } else { order.len().min(TOP) };
            let mut rows = vec![("(intercept)".to_owned(), fmt(iw.intercept))];
            rows.extend(
                order[..shown]
                    .iter()
                    .map(|&j| (iw.names[j].clone(), fmt(iw.weights[j]))),
            );
            table(rows, &mut out);
            more(shown, order.len(), &mut out);
        }
        Explanation::NotPerInput(reason) => out.push(format!("weights     {reason}")),
        Explanation::Splits {
            names,
            splits,
            member,
        } => {
            let total: u64 = splits.iter().sum();
            let whose = if *member {
                "the blend's tree member (its kernel member has no per-feature part)"
            } else {
                "the trees"
            };
            out.push(format!(
                "splits      per feature over {total} splits of {whose}; the model file keeps no split gains"
            ));
            let counts: Vec<f64> = splits.iter().map(|&c| c as f64).collect();
            let order = by_magnitude(&counts);
            let shown = if all { order.len() } else { order.len().min(TOP) };
            let rows = order[..shown]
                .iter()
                .map(|&j| {
                    let share = if total > 0 {
                        100.0 * splits[j] as f64 / total as f64
                    } else {
                        0.0
                    };
                    (names[j].clone(), format!("{:>6}  {share:5.1} %", splits[j]))
                })
                .collect();
            table(rows, &mut out);
            more(shown, order.len(), &mut out);
        }
        Explanation::Opaque => out.push(
            "weights     none per input feature (a kernel expansion): auc importance -m MODEL DATA measures each input column"
                .to_owned(),
        ),
    }
    out
}

/// A weight with its sign aligned: `+0.123457`, `-12.5`.
fn fmt(v: f64) -> String {
    format!("{v:+.6}")
}
