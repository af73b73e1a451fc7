//! Parameter flags, generated from the registry: one `--NAME VALUE` flag per parameter name any
//! algorithm declares (the papers' symbols in lower case, `_` written `-`: `--n-loc`), and a
//! generic `--param NAME=VALUE`. Which names an algorithm accepts is the registry's to say
//! ([`auc_learners::Algorithm::configure`]), with "did you mean" for typos.

use auc_core::{ParamMap, ParamValue};
use auc_learners::{ALL, Algorithm};
use clap::{Arg, ArgAction, ArgMatches, Command};

/// The parameters given on the command line, as untyped values.
#[derive(Clone, Debug, Default)]
pub(crate) struct HyperArgs {
    given: ParamMap,
    /// `--param` items that were not `NAME=VALUE`.
    malformed: Vec<String>,
}

/// Every parameter name of the registry with the algorithms that take it, in first-seen order.
fn parameter_names() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    let mut out: Vec<(&'static str, &'static str, Vec<&'static str>)> = Vec::new();
    for a in ALL {
        for s in a.specs {
            match out.iter_mut().find(|(n, _, _)| *n == s.name) {
                Some((_, _, algos)) => algos.push(a.name),
                None => out.push((s.name, s.doc, vec![a.name])),
            }
        }
    }
    out
}

/// The flag spelling of a parameter name.
fn flag(name: &str) -> String {
    name.replace('_', "-")
}

/// The argument id of a parameter flag (ids must not clash with the commands' own).
fn id(name: &str) -> String {
    format!("param:{name}")
}

impl HyperArgs {
    /// The given parameters by name; a name given as a flag and with `--param` keeps the
    /// `--param` value.
    pub(crate) fn to_map(&self) -> Result<ParamMap, crate::output::Error> {
        if let Some(item) = self.malformed.first() {
            return Err(format!("--param `{item}`: expected NAME=VALUE").into());
        }
        Ok(self.given.clone())
    }

    /// Whether any parameter was given.
    pub(crate) fn is_empty(&self) -> bool {
        self.given.is_empty() && self.malformed.is_empty()
    }
}

impl clap::FromArgMatches for HyperArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut out = HyperArgs::default();
        out.update_from_arg_matches(m)?;
        Ok(out)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for (name, _, _) in parameter_names() {
            if let Ok(Some(v)) = m.try_get_one::<String>(&id(name)) {
                self.given.set(name, ParamValue::from_text(v));
            }
        }
        if let Ok(Some(items)) = m.try_get_many::<String>("param") {
            for item in items {
                match item.split_once('=') {
                    Some((name, value)) if !name.trim().is_empty() => {
                        self.given
                            .set(name.trim().replace('-', "_"), ParamValue::from_text(value));
                    }
                    _ => self.malformed.push(item.clone()),
                }
            }
        }
        Ok(())
    }
}

impl clap::Args for HyperArgs {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = cmd.arg(
            Arg::new("param")
                .long("param")
                .value_name("NAME=VALUE")
                .action(ArgAction::Append)
                .allow_negative_numbers(true)
                .help("A parameter NAME=VALUE (repeatable; any name `auc algos` lists for the algorithm; `--help` lists each as its own flag)")
                .help_heading("Parameters"),
        );
        for (name, doc, algos) in parameter_names() {
            let help = if algos.len() == 1 {
                format!("{doc} ({})", algos[0])
            } else {
                format!("Parameter {name} of {} (see `auc algos`)", algos.join(", "))
            };
            cmd = cmd.arg(
                Arg::new(id(name))
                    .long(flag(name))
                    .value_name("VALUE")
                    .allow_negative_numbers(true)
                    .help(help)
                    .hide_short_help(true)
                    .help_heading("Parameters"),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// The grid points of `--grid` axes (`default`: the algorithm's own grid), as `--tune` reads
/// them.
pub(crate) fn grid_points(
    algo: &Algorithm,
    args: &[String],
) -> Result<Vec<ParamMap>, crate::output::Error> {
    Ok(auc_train::tune::grid_points(algo, args)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, FromArgMatches};

    #[test]
    fn flags_and_param_items_become_one_map() {
        let cmd = HyperArgs::augment_args(Command::new("t"));
        let m = cmd
            .try_get_matches_from([
                "t",
                "--eta",
                "0.5",
                "--removal",
                "reservoir",
                "--param",
                "lambda=-2",
                "--n-loc",
                "8",
                "--param",
                "eta=0.25",
            ])
            .unwrap();
        let h = HyperArgs::from_arg_matches(&m).unwrap();
        let map = h.to_map().unwrap();
        assert_eq!(
            map.to_string(),
            "eta=0.25 lambda=-2 n_loc=8 removal=reservoir"
        );
        let cmd = HyperArgs::augment_args(Command::new("t"));
        let m = cmd.try_get_matches_from(["t", "--param", "eta"]).unwrap();
        let e = HyperArgs::from_arg_matches(&m)
            .unwrap()
            .to_map()
            .unwrap_err();
        assert_eq!(e.to_string(), "--param `eta`: expected NAME=VALUE");
    }
}
