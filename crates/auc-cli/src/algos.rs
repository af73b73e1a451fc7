//! `auc algos`: the registry's algorithms with their parameters, defaults and grids.

use auc_learners::{ALL, Algorithm};

use crate::output::{Error, line};

#[derive(clap::Args, Debug)]
pub(crate) struct AlgosArgs {
    /// Every algorithm with each parameter's name, type, default, allowed values and doc.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn list_algos(as_json: bool) -> Result<(), Error> {
    if as_json {
        let all: Vec<_> = ALL.iter().map(Algorithm::to_json).collect();
        return line(serde_json::to_string_pretty(&all)?);
    }
    for a in ALL {
        let alias = if a.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias: {})", a.aliases.join(", "))
        };
        line(format!(
            "{}{alias} [{}]\n    {}",
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
