//! The plan of a streamed pass ([`Plan`]), decided in one place before it starts: what the first
//! pass over a file must find, the positive class, the fitted stages, the learner's starting
//! dimension; and the checks after the pass that the input did not change in between.

use std::path::{Path, PathBuf};

use auc_data::{
    FirstSight, Positive, PositiveChoice, ReadOptions, Scaler, Scaling, Tallies, Tally,
};
use auc_prep::{PrepSpec, ScaleEvidence, Transform, TransformSpec};

use crate::memory::{self, Bytes};
use crate::{Classes, Error, Reader, Report, Shaper};

/// Whether [`plan`] may read a file once, on hopes that the pass checks as the rows come (a
/// file whose hope fails is planned again with [`ReadOnce::Never`] and read twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadOnce {
    /// A first pass runs whenever something must be known before learning.
    Never,
    /// A file whose scaling needs no ranges is read once on the hope that its labels are binary.
    IfBinary,
    /// Also a file scaled by max-abs (`--scale maxabs`, or `auto` on sparse rows) and nothing
    /// else, on the further hope that each feature's first non-zero has its largest magnitude
    /// ([`FirstSight`]). For learners whose model does not depend on the dimension they start
    /// from, since the pass starts without knowing it.
    IfBinaryOrFirstSight,
}

/// How a streamed pass reads and prepares its input, decided before it starts (after the first
/// pass over a file).
pub struct Plan {
    /// A file read once on the hope that its labels are binary (see [`plan`]).
    pub hopeful: bool,
    /// The scaling fitted at first sight by the learning pass ([`Plan::first_sight`]), when
    /// the file is read once with its stages left to the pass ([`ReadOnce::IfBinaryOrFirstSight`]).
    pub first_sight: Option<Scaling>,
    /// How the learning pass reads.
    pub opts: ReadOptions,
    /// The positive class of the learning pass.
    pub classes: Classes,
    /// The positive class chosen by a first pass, with its reason (`None`: decided by the pass).
    pub choice: Option<PositiveChoice>,
    /// What was asked.
    pub spec: PrepSpec,
    /// The stages, fitted before the pass.
    pub transform: Transform,
    /// Where `--scale-from` took the scaling from, and the dimension it covers.
    pub scaled_from: Option<(String, usize)>,
    /// The learner's dimension at the start.
    pub dim: usize,
    /// The input dimension a feature map fixes (rows are cut to it before the stages).
    pub input_dim: Option<usize>,
    /// What the first pass found (rows, dimension), which the second must find again.
    pub surveyed: Option<(u64, usize)>,
    /// The inputs' size, modification time and inode before the first pass, which must not
    /// have moved when the second ends (a file replaced by another of as many rows and
    /// features), with the bytes the first pass read of each and their checksum, which the
    /// second must have read again.
    stamps: Vec<Stamp>,
}

/// A file's size, modification time and identity (device and inode, on Unix), as the file
/// system reports them, and what the first pass read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    path: PathBuf,
    size: Option<u64>,
    modified: Option<std::time::SystemTime>,
    inode: Option<(u64, u64)>,
    /// The bytes the first pass read and their checksum (set when the first pass ends).
    read: Option<Tally>,
}

impl Stamp {
    /// The stamp of `path` now (unreadable metadata is recorded as unknown).
    fn now(path: &Path) -> Stamp {
        let meta = std::fs::metadata(path).ok();
        #[cfg(unix)]
        let inode = {
            use std::os::unix::fs::MetadataExt;
            meta.as_ref().map(|m| (m.dev(), m.ino()))
        };
        #[cfg(not(unix))]
        let inode = None;
        Stamp {
            path: path.to_path_buf(),
            size: meta.as_ref().map(std::fs::Metadata::len),
            modified: meta.and_then(|m| m.modified().ok()),
            inode,
            read: None,
        }
    }

    /// The stamps of `paths` now.
    fn of(paths: &[PathBuf]) -> Vec<Stamp> {
        paths.iter().map(|p| Stamp::now(p)).collect()
    }

    /// Whether the file's size, modification time or inode differs now from this stamp's.
    fn moved(&self) -> bool {
        Stamp {
            read: self.read,
            ..Stamp::now(&self.path)
        } != *self
    }
}

/// The positive class of given labels (`--positive`): each must occur, checked at the end of
/// the pass.
pub fn given_classes(labels: &[f64]) -> Classes {
    let mut labels: Vec<f64> = labels.iter().map(|l| l + 0.0).collect();
    labels.sort_by(f64::total_cmp);
    labels.dedup_by(|a, b| a.to_bits() == b.to_bits());
    Classes::Known {
        labels,
        given: true,
    }
}

/// Decides how to stream `paths` as `spec` asks: runs the first pass over files that can be read
/// twice when something must be known before learning (the scaling's ranges, the label counts of
/// the default positive class, the dimension), reports the positive class it chose, refuses
/// one-class files before the second pass, and refuses input read once that would need a first
/// pass for its scaling. `what` names the run in messages; `limit` bounds the memory of the
/// first pass and of the stages.
///
/// With [`ReadOnce::IfBinary`], a file whose scaling needs no ranges and whose positive class is
/// not given is read once, as standard input is (binary labels checked row by row, the dimension
/// grown on the way); `Plan::hopeful` says so, and a [`crate::NotBinary`] error of that pass
/// means: plan again with [`ReadOnce::Never`] (a first pass counts the labels) and start over.
/// With [`ReadOnce::IfBinaryOrFirstSight`], a file whose only stage is a max-abs (or auto)
/// scaling is read once too, the pass scaling its rows at first sight (`Plan::first_sight`);
/// an [`auc_data::Unsighted`] error of that pass, or [`Plan::sighted`] finding min-max, means
/// the same.
pub fn plan(
    spec: &PrepSpec,
    paths: &[PathBuf],
    what: &str,
    limit: Bytes,
    read_once: ReadOnce,
    report: &dyn Report,
) -> Result<Plan, Error> {
    plan_beside(
        spec,
        paths,
        what,
        limit,
        read_once,
        &crate::no_check,
        report,
    )
}

/// [`plan`], its first pass running `beside` before its ranges grow ([`crate::RangesCheck`]:
/// a learner whose state at that dimension would not fit beside them refuses there, before the
/// pass allocates ranges for a dimension the run cannot take).
pub fn plan_beside(
    spec: &PrepSpec,
    paths: &[PathBuf],
    what: &str,
    limit: Bytes,
    read_once: ReadOnce,
    beside: crate::RangesCheck<'_>,
    report: &dyn Report,
) -> Result<Plan, Error> {
    let spec = spec.clone();
    let mut opts = spec.read.clone();
    let scaling = spec.transform.scaling;
    let need_ranges = spec.needs_ranges();
    let need_sample = spec.needs_sample();
    let reread = crate::rereadable(paths);
    if need_sample && !reread {
        return Err(Error::usage(format!(
            "{what}: {}",
            auc_prep::PrepError::MapNeedsSample
        )));
    }
    if need_ranges && !reread {
        let once: Vec<String> = paths
            .iter()
            .filter(|p| !crate::rereadable(std::slice::from_ref(p)))
            .map(|p| p.display().to_string())
            .collect();
        return Err(Error::usage(format!(
            "{what}: {} can be read only once, so the scaling (--scale {scaling}) cannot be fitted on it before learning starts: pass --scale-from FILE (a model trained on such data, or the output of `auc info --json` on a sample of it) or --scale none",
            if once.iter().all(|o| o == "-") {
                "standard input".to_owned()
            } else {
                once.join(", ")
            }
        )));
    }
    let given = match &spec.positive {
        Positive::Labels(l) => Some(l.clone()),
        Positive::Named(words) => Some(auc_data::named_numbers(words)?),
        // A table's labels are +1 and -1 by its label map: nothing to count first.
        Positive::Table => Some(vec![1.0]),
        _ => None,
    };
    let fixed = spec.fixed_dim();
    let first_sight = (read_once == ReadOnce::IfBinaryOrFirstSight
        && reread
        && need_ranges
        && spec.transform.scales_at_first_sight())
    .then_some(scaling);
    let hopeful = read_once != ReadOnce::Never
        && reread
        && (!need_ranges || first_sight.is_some())
        && !need_sample;
    let mut stamps = Stamp::of(paths);
    // The first pass tallies what it reads of each file; the learning pass (`Plan::reader`)
    // tallies again into fresh tallies, compared by `Plan::check_unchanged`.
    let first_read = Tallies::new();
    let mut survey_opts = opts.clone();
    survey_opts.tallies = Some(first_read.clone());
    let mut survey =
        if reread && !hopeful && (need_ranges || need_sample || given.is_none() || fixed.is_none())
        {
            Some(crate::survey_beside(
                paths,
                &survey_opts,
                crate::Collect {
                    ranges: need_ranges,
                    sample: crate::SampleSpec::for_stages(&spec.transform),
                },
                given.as_deref(),
                limit,
                beside,
                report.pass().as_ref(),
            )?)
        } else {
            None
        };
    if survey.is_some() {
        for s in &mut stamps {
            s.read = Some(first_read.get(&s.path));
        }
        opts.tallies = Some(Tallies::new());
        report.between_passes();
    }
    let (classes, choice) = match &survey {
        Some(s) => {
            let (choice, pos, neg) = s.choose(&spec.positive)?;
            report.positive_class(&choice, pos, neg);
            if let Some(w) = choice.many_labels_warning(&s.label_counts()) {
                report.warning(&w);
            }
            need_both(pos, neg, what)?;
            let classes = Classes::Known {
                labels: choice.labels.clone(),
                given: false,
            };
            (classes, Some(choice))
        }
        None => match &given {
            Some(g) => (given_classes(g), None),
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
            Scaler::bytes_for(d).saturating_add(crate::dense_rows_bytes(d)),
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
        first_sight: first_sight.filter(|_| hopeful),
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

impl Plan {
    /// The warning for a stream scaled from `--scale-from` that met features its ranges do not
    /// cover (they pass unscaled), the stream's dimension being `dim`; `None` when there is
    /// nothing to say.
    pub fn unscaled_warning(&self, dim: usize) -> Option<String> {
        let (path, covered) = self.scaled_from.as_ref()?;
        if dim > *covered && !matches!(self.transform.scaler(), Scaler::None) {
            return Some(format!(
                "features {} to {dim} are not in the ranges of {path} ({covered} features): they were not scaled",
                covered + 1,
            ));
        }
        None
    }

    /// The reader of the plan's learning pass over `paths`: after a first pass, a row wider than
    /// the first pass found means the file changed in between, and its error says so.
    pub fn reader(&self, paths: &[PathBuf]) -> Result<Reader, Error> {
        if let Some(t) = &self.opts.tallies {
            // Only the last learning pass counts (a pass that starts over reads again).
            t.clear();
        }
        let mut reader = Reader::open(paths, &self.opts)?;
        if let Some((_, dim)) = self.surveyed
            && self.spec.read.dim.is_none()
            && self.spec.read.hash_bits.is_none()
        {
            reader.on_wider(format!(
                "the first pass over the input found {dim} features: it changed between the two passes; train again on input that does not change while it is read"
            ));
        }
        Ok(reader)
    }

    /// Refuses a learning pass that read other rows than the first pass counted, or over a file
    /// whose size or modification time moved since the first pass began (replaced by another of
    /// as many rows): the input changed in between, so the scaling, dimension and positive class
    /// fitted on it are of other data.
    pub fn check_unchanged(&self, rows: u64, what: &str) -> Result<(), Error> {
        if let Some((first, _)) = self.surveyed
            && first != rows
        {
            return Err(Error::input(format!(
                "{what}: the input changed between the two passes: the first read {first} rows, the second {rows}; the scaling, dimension and positive class of the first do not describe it: train again on input that does not change while it is read"
            )));
        }
        if let Some(s) = self.stamps.iter().find(|s| s.moved()) {
            return Err(Error::input(format!(
                "{what}: the input changed between the two passes: {} has another size, modification time or inode than when the first pass began; the scaling, dimension and positive class of the first do not describe it: train again on input that does not change while it is read",
                s.path.display()
            )));
        }
        if let Some(second) = &self.opts.tallies
            && let Some(s) = self
                .stamps
                .iter()
                .find(|s| s.read.is_some_and(|first| first != second.get(&s.path)))
        {
            return Err(Error::input(format!(
                "{what}: the input changed between the two passes: the bytes of {} read by the second pass differ from those the first read (checksum); the scaling, dimension and positive class of the first do not describe it: train again on input that does not change while it is read",
                s.path.display()
            )));
        }
        Ok(())
    }

    /// A fresh first-sight scaling for the plan's learning pass, when it scales at first sight
    /// (the parser's stages then leave the rows unscaled: [`Learning::with_first_sight`]).
    ///
    /// [`Learning::with_first_sight`]: crate::Learning::with_first_sight
    pub fn first_sight(&self) -> Option<FirstSight> {
        self.first_sight.map(FirstSight::new)
    }

    /// After a learning pass that scaled at first sight over `dim` features: the plan's stages
    /// become the scaling it found, which is the one a first pass would have fitted (see
    /// [`FirstSight`]). `false` when the rows turned out dense enough for auto scaling to be
    /// min-max: plan again with [`ReadOnce::Never`] and start over.
    pub fn sighted(&mut self, sight: FirstSight, dim: usize) -> Result<bool, Error> {
        let Some(scaler) = sight.finish(dim) else {
            return Ok(false);
        };
        self.transform = self.spec.transform.finish(scaler, None)?;
        self.first_sight = None;
        Ok(true)
    }

    /// The parser's shaping of the plan's chunks.
    pub fn shaper(&self) -> Shaper {
        match self.input_dim {
            Some(p) => Shaper::new(self.classes.clone(), p, self.transform.clone()).with_max_dim(p),
            None => Shaper::new(self.classes.clone(), self.dim, self.transform.clone()),
        }
    }

    /// The input dimension a model trained on the plan stores: the map's when there is one,
    /// else the learner's (`dim`).
    pub fn model_dim(&self, dim: usize) -> usize {
        self.input_dim.unwrap_or(dim)
    }
}

/// Refuses class counts without both classes (a learner would save an all-zero model); `what`
/// names the run.
pub fn need_both(pos: u64, neg: u64, what: &str) -> Result<(), Error> {
    if pos > 0 && neg > 0 {
        return Ok(());
    }
    Err(Error::OneClass {
        what: what.to_owned(),
        positives: pos,
        negatives: neg,
    })
}

/// Refuses fitting `stages` on `dim` input features (the scaling's ranges, the feature map, its
/// sample made dense) when it would need more than `limit`: every path checks this before it
/// fits, in memory, after a first pass and before a moment pass.
pub fn check_stages_fit(stages: &TransformSpec, dim: usize, limit: Bytes) -> Result<(), Error> {
    memory::check(
        stages.fit_bytes(dim),
        limit,
        &format!(
            "fitting the stages on {dim} features (the scaling's ranges, the feature map and its sample)"
        ),
        "use --hash-bits B to fold the features into 2^B, or a smaller --features size",
    )?;
    Ok(())
}
