//! The plan of a streamed pass ([`Plan`]), decided in one place before it starts: what the first
//! pass over a file must find, the positive class, the fitted stages, the learner's starting
//! dimension; and the fresh learner it starts.

use std::path::{Path, PathBuf};

use auc_data::{PositiveChoice, ReadOptions, Scaler};
use auc_learners::{Algorithm, Configured, Trained, Trainer};
use auc_prep::{PrepSpec, ScaleEvidence, Transform};

use crate::input::{self};
use crate::output::Error;
use crate::progress::PassBar;
use crate::training::*;
use auc_stream::memory::{self, Bytes};
use auc_stream::{Classes, Shaper};

/// How a streamed pass reads and prepares its input, decided before it starts (after the first
/// pass over a file).
pub(crate) struct Plan {
    /// A file read once on the hope that its labels are binary (see [`plan`]).
    pub(crate) hopeful: bool,
    pub(crate) opts: ReadOptions,
    pub(crate) classes: Classes,
    /// The positive class chosen by a first pass, with its reason (`None`: decided by the pass).
    pub(crate) choice: Option<PositiveChoice>,
    /// What was asked.
    pub(crate) spec: PrepSpec,
    /// The stages, fitted before the pass.
    pub(crate) transform: Transform,
    /// Where `--scale-from` took the scaling from, and the dimension it covers.
    pub(crate) scaled_from: Option<(String, usize)>,
    /// The learner's dimension at the start.
    pub(crate) dim: usize,
    /// The input dimension a feature map fixes (rows are cut to it before the stages).
    pub(crate) input_dim: Option<usize>,
    /// What the first pass found (rows, dimension), which the second must find again.
    pub(crate) surveyed: Option<(u64, usize)>,
    /// The inputs' size and modification time before the first pass, which must not have moved
    /// when the second ends (a file replaced by another of as many rows and features).
    pub(crate) stamps: Vec<Stamp>,
}

/// A file's size and modification time, as the file system reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    path: PathBuf,
    size: Option<u64>,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    /// The stamp of `path` now (unreadable metadata is recorded as unknown).
    fn now(path: &Path) -> Stamp {
        let meta = std::fs::metadata(path).ok();
        Stamp {
            path: path.to_path_buf(),
            size: meta.as_ref().map(std::fs::Metadata::len),
            modified: meta.and_then(|m| m.modified().ok()),
        }
    }

    /// The stamps of `paths` now.
    fn of(paths: &[PathBuf]) -> Vec<Stamp> {
        paths.iter().map(|p| Stamp::now(p)).collect()
    }

    /// Whether the file's stamp differs now from this one.
    fn moved(&self) -> bool {
        Stamp::now(&self.path) != *self
    }
}

/// Decides how to stream `paths` for `learn`: runs the first pass over files that can be read
/// twice when something must be known before learning (the scaling's ranges, the label counts of
/// the default positive class, the dimension), refuses one-class files before the second pass,
/// and refuses input read once that would need a first pass for its scaling.
///
/// With `hopeful`, a file whose scaling needs no ranges and whose positive class is not given is
/// read once, as standard input is (binary labels checked row by row, the dimension grown on the
/// way); `Plan::hopeful` says so, and a [`auc_stream::NotBinary`] error of that pass means: plan
/// again without `hopeful` (a first pass counts the labels) and start over.
pub(crate) fn plan(
    learn: &LearnArgs,
    paths: &[PathBuf],
    what: &str,
    limit: Bytes,
    hopeful: bool,
) -> Result<Plan, Error> {
    let spec = learn.prep_spec()?;
    let mut opts = spec.read.clone();
    let scaling = spec.transform.scaling;
    let need_ranges = spec.needs_ranges();
    let need_sample = spec.needs_sample();
    let reread = auc_stream::rereadable(paths);
    if need_sample && !reread {
        return Err(format!("{what}: {}", auc_prep::PrepError::MapNeedsSample).into());
    }
    if need_ranges && !reread {
        let once: Vec<String> = paths
            .iter()
            .filter(|p| !auc_stream::rereadable(std::slice::from_ref(p)))
            .map(|p| p.display().to_string())
            .collect();
        return Err(format!(
            "{what}: {} can be read only once, so the scaling (--scale {scaling}) cannot be fitted on it before learning starts: pass --scale-from FILE (a model trained on such data, or the output of `auc info --json` on a sample of it) or --scale none",
            if once.iter().all(|o| o == "-") {
                "standard input".to_owned()
            } else {
                once.join(", ")
            }
        )
        .into());
    }
    let given = learn.read.positive.clone();
    let fixed = spec.fixed_dim();
    let hopeful = hopeful && reread && !need_ranges && !need_sample;
    let stamps = Stamp::of(paths);
    let mut survey =
        if reread && !hopeful && (need_ranges || need_sample || given.is_none() || fixed.is_none())
        {
            Some(auc_stream::survey(
                paths,
                &opts,
                auc_stream::Collect {
                    ranges: need_ranges,
                    sample: auc_stream::SampleSpec::for_stages(&spec.transform),
                },
                given.as_deref(),
                limit,
                &PassBar::default(),
            )?)
        } else {
            None
        };
    // A test knob: a command run between the two passes (the tests change the file there).
    if survey.is_some()
        && let Some(cmd) = std::env::var_os("AUC_TEST_BETWEEN_PASSES")
    {
        let _ = std::process::Command::new("sh").arg("-c").arg(cmd).status();
    }
    let (classes, choice) = match &survey {
        Some(s) => {
            let (choice, pos, neg) = s.choose(&spec.positive)?;
            input::report_positive_counts(&choice, pos, neg);
            input::need_both(pos, neg, what)?;
            let classes = Classes::Known {
                labels: choice.labels.clone(),
                given: false,
            };
            (classes, Some(choice))
        }
        None => match &given {
            Some(g) => {
                let mut labels: Vec<f64> = g.iter().map(|l| l + 0.0).collect();
                labels.sort_by(f64::total_cmp);
                labels.dedup_by(|a, b| a.to_bits() == b.to_bits());
                (
                    Classes::Known {
                        labels,
                        given: true,
                    },
                    None,
                )
            }
            None => (Classes::Binary, None),
        },
    };
    if let Some(s) = &survey {
        check_stages_fit(&spec.transform, s.dim, limit)?;
    }
    let sample = survey
        .as_mut()
        .and_then(|s| s.sample.take())
        .map(auc_prep::RowSample::into_dataset);
    let evidence = match survey.as_ref().and_then(|s| s.ranges.as_ref()) {
        Some(r) => ScaleEvidence::Ranges(r),
        None => ScaleEvidence::Nothing,
    };
    let transform = spec.fit_transform(evidence, sample.as_ref())?;
    let scaler = transform.scaler();
    let mut dim = fixed.unwrap_or(0);
    if let Some(s) = &survey {
        dim = dim.max(s.dim);
        // The second pass reads the same rows: an index past the first pass's dimension means
        // the file changed in between.
        if opts.hash_bits.is_none() {
            opts.dim = Some(s.dim.max(opts.dim.unwrap_or(0)));
        }
    }
    if let Some(s) = &spec.scale_from {
        dim = dim.max(s.dim);
    }
    if matches!(scaler, Scaler::MinMax { .. }) {
        // Min-max scaling makes every row dense: the scaler and a few dense rows in flight.
        let d = dim.max(scaler.dim());
        memory::check(
            Scaler::bytes_for(d).saturating_add(auc_stream::dense_rows_bytes(d)),
            limit,
            &format!(
                "{what}: min-max scaling of {d} features (the scaler and the dense rows in flight)"
            ),
            "use --scale maxabs, which keeps sparse rows sparse, or fewer --hash-bits",
        )?;
    }
    // With a feature map the learner sees the map's features; the input's dimension is the
    // map's (rows are cut to it, as a model drops features it never saw).
    let input_dim = transform.input_dim();
    if let Some(p) = input_dim {
        dim = transform.output_dim(p);
    }
    let surveyed = survey.as_ref().map(|s| (s.rows, s.dim));
    Ok(Plan {
        hopeful: hopeful && matches!(classes, Classes::Binary),
        input_dim,
        surveyed,
        stamps: if surveyed.is_some() {
            stamps
        } else {
            Vec::new()
        },
        opts,
        classes,
        choice,
        scaled_from: spec.scale_from.as_ref().map(|s| (s.origin.clone(), s.dim)),
        transform,
        spec,
        dim,
    })
}

/// Warns when a stream scaled from `--scale-from` met features the ranges do not cover (they
/// pass unscaled).
pub(crate) fn warn_unscaled(plan: &Plan, dim: usize) {
    if let Some((path, covered)) = &plan.scaled_from
        && dim > *covered
        && !matches!(plan.transform.scaler(), Scaler::None)
    {
        eprintln!(
            "auc: warning: features {} to {dim} are not in the ranges of {path} ({covered} features): they were not scaled",
            covered + 1,
        );
    }
}

/// A fresh one-pass learner for the plan's dimension, its memory checked first.
pub(crate) fn start(
    config: &dyn Configured,
    algo: &Algorithm,
    plan: &Plan,
    learn: &LearnArgs,
    limit: Bytes,
) -> Result<Box<dyn Trained>, Error> {
    let state = config.memory_bytes(&dim_shape(plan.dim), learn.average);
    let what = format!("{} on {} features", algo.name, plan.dim);
    memory::check(state, limit, &what, &linear_state_advice(algo.name))?;
    check_save_memory(state, limit, &what)?;
    match config.trainer() {
        Trainer::Online(t) => Ok(t.start(plan.dim, learn.seed, learn.average)?),
        Trainer::Batch(_) => Err("a batch learner cannot stream".into()),
    }
}

/// The reader of the plan's learning pass over `paths`: after a first pass, a row wider than
/// the first pass found means the file changed in between, and its error says so.
pub(crate) fn open_reader(plan: &Plan, paths: &[PathBuf]) -> Result<auc_stream::Reader, Error> {
    let mut reader = auc_stream::Reader::open(paths, &plan.opts)?;
    if let Some((_, dim)) = plan.surveyed
        && plan.spec.read.dim.is_none()
        && plan.spec.read.hash_bits.is_none()
    {
        reader.on_wider(format!(
            "the first pass over the input found {dim} features: it changed between the two passes; train again on input that does not change while it is read"
        ));
    }
    Ok(reader)
}

/// Refuses a learning pass that read other rows than the first pass counted, or over a file
/// whose size or modification time moved since the first pass began (replaced by another of as
/// many rows): the input changed in between, so the scaling, dimension and positive class fitted
/// on it are of other data.
pub(crate) fn check_unchanged(plan: &Plan, rows: u64, what: &str) -> Result<(), Error> {
    if let Some((first, _)) = plan.surveyed
        && first != rows
    {
        return Err(format!(
            "{what}: the input changed between the two passes: the first read {first} rows, the second {rows}; the scaling, dimension and positive class of the first do not describe it: train again on input that does not change while it is read"
        )
        .into());
    }
    if let Some(s) = plan.stamps.iter().find(|s| s.moved()) {
        return Err(format!(
            "{what}: the input changed between the two passes: {} has another size or modification time than when the first pass began; the scaling, dimension and positive class of the first do not describe it: train again on input that does not change while it is read",
            s.path.display()
        )
        .into());
    }
    Ok(())
}

/// The parser's shaping of a plan's chunks.
pub(crate) fn shaper_for(plan: &Plan) -> Shaper {
    match plan.input_dim {
        Some(p) => Shaper::new(plan.classes.clone(), p, plan.transform.clone()).with_max_dim(p),
        None => Shaper::new(plan.classes.clone(), plan.dim, plan.transform.clone()),
    }
}

/// The input dimension a model trained on the plan stores: the map's when there is one, else
/// the learner's (`dim`).
pub(crate) fn input_dim(plan: &Plan, dim: usize) -> usize {
    plan.input_dim.unwrap_or(dim)
}
