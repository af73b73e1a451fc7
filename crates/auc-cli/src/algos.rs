//! `auc algos`: the registry's algorithms with their parameters, defaults and grids.
//!
//! The default learner (what `auc train` and `auc cv` fit without `--algo`) is listed first and
//! marked `(default)`; the JSON keeps the registry's order, which the reproductions read, and
//! says `"default": true` on that learner's object.

use auc_learners::{ALL, Algorithm, default_algorithm};

use crate::output::{Error, line};

#[derive(clap::Args, Debug)]
pub(crate) struct AlgosArgs {
    /// Every algorithm with each parameter's name, type, default, allowed values and doc.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn list_algos(as_json: bool) -> Result<(), Error> {
    if as_json {
        let default = default_algorithm().name;
        let all: Vec<_> = ALL
            .iter()
            .map(|a| {
                let mut j = a.to_json();
                j["default"] = (a.name == default).into();
                j
            })
            .collect();
        return line(serde_json::to_string_pretty(&all)?);
    }
    for a in listed() {
        let mark = if a.name == default_algorithm().name {
            " (default)"
        } else {
            ""
        };
        let alias = if a.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias: {})", a.aliases.join(", "))
        };
        line(format!(
            "{}{mark}{alias} [{}]\n    {}",
            a.name,
            a.family.name(),
            a.about
        ))?;
        if a.specs.is_empty() {
            line("    parameters: none")?;
        }
        let defaults = a.defaults();
        for s in a.specs {
            let d = defaults
                .get(s.name)
                .map_or_else(|| "-".to_owned(), ToString::to_string);
            line(format!(
                "    {:<13} {:<10} {}: {}",
                s.name,
                d,
                s.kind.describe(),
                s.doc
            ))?;
        }
        if !a.grid.is_empty() {
            line(format!("    grid: {}", a.grid.join(" ")))?;
        }
    }
    Ok(())
}

/// The registry's algorithms with the default learner first, the others in registry order.
fn listed() -> impl Iterator<Item = &'static Algorithm> {
    let default = default_algorithm();
    std::iter::once(default).chain(ALL.iter().filter(move |a| a.name != default.name))
}
