//! Memory checked before it is allocated: every command estimates the bytes its data and its
//! learner's state will take and refuses, with the figure and what to do instead, when they
//! exceed `--max-memory`.
//!
//! The default is three quarters of the least of what bounds the process: the machine's physical
//! memory (`MemTotal`), the memory limit of the process's own cgroup (v2 `memory.max`, v1
//! `memory.limit_in_bytes`, the least over its ancestors) and its `RLIMIT_AS` / `RLIMIT_DATA`
//! soft limits (`ulimit -v`, `ulimit -d`, `prlimit --as`). A container's or a job's limit is
//! what kills a process that outgrows it, not the host's memory; a refusal under the default
//! names the bound ([`Bound`]).
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;

/// A number of bytes given on the command line: `8G`, `512M`, `1.5GB`, `2000000`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl FromStr for Bytes {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let value: f64 = num
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a size (examples: 8G, 512M, 2000000)"))?;
        let scale = match unit.trim().to_ascii_uppercase().as_str() {
            "" | "B" => 1.0,
            "K" | "KB" | "KIB" => 1024.0,
            "M" | "MB" | "MIB" => 1024.0 * 1024.0,
            "G" | "GB" | "GIB" => 1024.0 * 1024.0 * 1024.0,
            "T" | "TB" | "TIB" => 1024.0f64.powi(4),
            other => return Err(format!("`{s}`: unknown unit `{other}` (use K, M, G or T)")),
        };
        let bytes = value * scale;
        if !(bytes.is_finite() && bytes >= 1.0) {
            return Err(format!("`{s}` is not a positive size"));
        }
        Ok(Bytes(bytes.min(u64::MAX as f64) as u64))
    }
}

impl fmt::Display for Bytes {
    /// `1.50 GB`, `312 MB`, `4.0 kB` (powers of 1000, as `ls -h --si` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        if b >= 1e9 {
            write!(f, "{:.2} GB", b / 1e9)
        } else if b >= 1e6 {
            write!(f, "{:.0} MB", b / 1e6)
        } else if b >= 1e3 {
            write!(f, "{:.1} kB", b / 1e3)
        } else {
            write!(f, "{} bytes", self.0)
        }
    }
}

/// The machine's physical memory, from `/proc/meminfo` (Linux); `None` elsewhere.
pub fn physical() -> Option<u64> {
    physical_from(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn physical_from(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// What bounds the memory of the process, and so the default `--max-memory`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The machine's physical memory (`MemTotal`).
    Physical,
    /// The cgroup v2 `memory.max` of the process's cgroup or of an ancestor.
    CgroupV2,
    /// The cgroup v1 `memory.limit_in_bytes` of the process's memory cgroup or of an ancestor.
    CgroupV1,
    /// The address-space limit (`RLIMIT_AS`: `ulimit -v`, `prlimit --as`).
    AddressSpace,
    /// The data-segment limit (`RLIMIT_DATA`: `ulimit -d`), which also bounds `mmap` since
    /// Linux 4.7.
    DataSize,
    /// Nothing could be read (not Linux): a fixed 16 GiB stands in for physical memory.
    Unknown,
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::Physical => "physical memory",
            Bound::CgroupV2 => "the cgroup memory.max",
            Bound::CgroupV1 => "the cgroup memory.limit_in_bytes",
            Bound::AddressSpace => "the address-space limit RLIMIT_AS",
            Bound::DataSize => "the data-size limit RLIMIT_DATA",
            Bound::Unknown => "a stand-in for unreadable memory",
        })
    }
}

/// The default `--max-memory`: three quarters of the least bound, which it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefaultLimit {
    /// The limit: three quarters of `figure`.
    pub limit: Bytes,
    /// The least bound.
    pub bound: Bound,
    /// Its size.
    pub figure: Bytes,
}

impl DefaultLimit {
    /// The least of `bounds` (none: 16 GiB), three quarters of it as the limit.
    pub fn least(bounds: &[(Bound, u64)]) -> DefaultLimit {
        let (bound, figure) = bounds
            .iter()
            .copied()
            .min_by_key(|&(_, b)| b)
            .unwrap_or((Bound::Unknown, 16 << 30));
        DefaultLimit {
            limit: Bytes((figure / 4 * 3).max(1)),
            bound,
            figure: Bytes(figure),
        }
    }
}

impl fmt::Display for DefaultLimit {
    /// `the default limit is 3/4 of the cgroup memory.max (2.15 GB)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the default limit is 3/4 of {} ({})",
            self.bound, self.figure
        )
    }
}

/// Limits at or above this are "none": cgroup v1 writes `PAGE_COUNTER_MAX` pages
/// (9223372036854771712 bytes) for an unlimited group.
const UNLIMITED: u64 = 1 << 60;

/// The memory limit of the process's cgroup: the least `memory.max` (v2) or
/// `memory.limit_in_bytes` (v1) over the cgroup named in `proc_cgroup` (the text of
/// `/proc/self/cgroup`) and its ancestors, read under `root` (`/sys/fs/cgroup`). `max` and
/// the v1 "unlimited" value mean none. A cgroup namespace (a container) shows its own group
/// as `/`, whose files are then those at `root` itself.
pub fn cgroup_limit(proc_cgroup: &str, root: &Path) -> Option<(Bound, u64)> {
    let mut best: Option<(Bound, u64)> = None;
    for line in proc_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(group)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let found = if id == "0" && controllers.is_empty() {
            least_over_ancestors(&root.join("unified"), group, "memory.max", Bound::CgroupV2)
                .or_else(|| least_over_ancestors(root, group, "memory.max", Bound::CgroupV2))
        } else if controllers.split(',').any(|c| c == "memory") {
            least_over_ancestors(
                &root.join("memory"),
                group,
                "memory.limit_in_bytes",
                Bound::CgroupV1,
            )
        } else {
            None
        };
        if let Some(f) = found
            && best.is_none_or(|b| f.1 < b.1)
        {
            best = Some(f);
        }
    }
    best
}

/// The least limit in `file` of the group `group` under the hierarchy `mount` and of its
/// ancestors; a group whose folder is missing (a container that mounts only its own group) is
/// read at the mount itself.
fn least_over_ancestors(
    mount: &Path,
    group: &str,
    file: &str,
    bound: Bound,
) -> Option<(Bound, u64)> {
    let mut best: Option<u64> = None;
    let mut dir = mount.join(group.trim_start_matches('/'));
    if !dir.is_dir() {
        dir = mount.to_path_buf();
    }
    loop {
        if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
            let t = text.trim();
            if t != "max"
                && let Ok(v) = t.parse::<u64>()
                && v < UNLIMITED
            {
                best = Some(best.map_or(v, |b| b.min(v)));
            }
        }
        if dir == mount || !dir.pop() || !dir.starts_with(mount) {
            break;
        }
    }
    best.map(|b| (bound, b))
}

/// The soft `RLIMIT_AS` and `RLIMIT_DATA` of `/proc/self/limits` (given as its text), those
/// that are set.
pub fn rlimits(limits: &str) -> Vec<(Bound, u64)> {
    let mut out = Vec::new();
    for line in limits.lines() {
        let (bound, rest) = if let Some(r) = line.strip_prefix("Max address space") {
            (Bound::AddressSpace, r)
        } else if let Some(r) = line.strip_prefix("Max data size") {
            (Bound::DataSize, r)
        } else {
            continue;
        };
        if let Some(soft) = rest.split_whitespace().next()
            && let Ok(v) = soft.parse::<u64>()
            && v < UNLIMITED
        {
            out.push((bound, v));
        }
    }
    out
}

/// Every bound this process runs under, read from `/proc` and `/sys/fs/cgroup` (Linux; none
/// elsewhere).
pub fn bounds() -> Vec<(Bound, u64)> {
    let mut out = Vec::new();
    if let Some(p) = physical() {
        out.push((Bound::Physical, p));
    }
    if let Ok(text) = std::fs::read_to_string("/proc/self/cgroup")
        && let Some(c) = cgroup_limit(&text, Path::new("/sys/fs/cgroup"))
    {
        out.push(c);
    }
    if let Ok(text) = std::fs::read_to_string("/proc/self/limits") {
        out.extend(rlimits(&text));
    }
    out
}

/// The default limit of this process, read once.
pub fn default_limit() -> DefaultLimit {
    static DEFAULT: OnceLock<DefaultLimit> = OnceLock::new();
    *DEFAULT.get_or_init(|| DefaultLimit::least(&bounds()))
}

/// The limit: the given one, else [`default_limit`].
pub fn limit(given: Option<Bytes>) -> Bytes {
    given.unwrap_or_else(|| default_limit().limit)
}

/// Refuses when `needed` bytes for `what` exceed `limit`, saying what to do instead.
pub fn check(needed: u64, limit: Bytes, what: &str, instead: &str) -> Result<(), Refusal> {
    if needed <= limit.0 {
        return Ok(());
    }
    Err(Refusal {
        needed: Bytes(needed),
        limit,
        what: what.to_owned(),
        advice: instead.to_owned(),
    })
}

/// A refusal of [`check`]: `what` would need `needed` bytes over the `limit`; `advice` says
/// what to do instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The bytes estimated.
    pub needed: Bytes,
    /// The limit (`--max-memory`).
    pub limit: Bytes,
    /// What would need them (`opauc on 1000 features`).
    pub what: String,
    /// What to do instead.
    pub advice: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} needs about {} but --max-memory is {}{}: {}",
            self.what,
            self.needed,
            self.limit,
            default_note(self.limit),
            self.advice
        )
    }
}

impl std::error::Error for Refusal {}

/// ` (the default limit is 3/4 of ...)` when `limit` is this process's default, so a refusal
/// names what bounds it; empty otherwise.
pub fn default_note(limit: Bytes) -> String {
    let d = default_limit();
    match d.limit == limit {
        true => format!(" ({d})"),
        false => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units_and_print_in_si() {
        assert_eq!("8G".parse::<Bytes>(), Ok(Bytes(8 << 30)));
        assert_eq!("512m".parse::<Bytes>(), Ok(Bytes(512 << 20)));
        assert_eq!("1.5GB".parse::<Bytes>(), Ok(Bytes(1_610_612_736)));
        assert_eq!("2000".parse::<Bytes>(), Ok(Bytes(2000)));
        assert!("lots".parse::<Bytes>().is_err());
        assert!("0".parse::<Bytes>().is_err());
        assert!("3X".parse::<Bytes>().unwrap_err().contains("unknown unit"));
        assert_eq!(Bytes(1_500_000_000).to_string(), "1.50 GB");
        assert_eq!(Bytes(312_000_000).to_string(), "312 MB");
        let e = check(
            40_000_000_000,
            Bytes(8 << 30),
            "the learner",
            "use --hash-bits 18",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "the learner needs about 40.00 GB but --max-memory is 8.59 GB: use --hash-bits 18"
        );
        assert!(check(10, Bytes(10), "x", "y").is_ok());
    }

    /// A cgroup hierarchy made of files under a fresh folder: `(relative path, content)`.
    fn fixture(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("auc-cgroup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        root
    }

    /// cgroup v2: the least `memory.max` over the group and its ancestors; `max` is none.
    #[test]
    fn cgroup_v2_limits_are_read_from_the_process_group_and_its_ancestors() {
        let root = fixture(
            "v2",
            &[
                ("memory.max", "max\n"),
                ("job/memory.max", "4294967296\n"),
                ("job/step/memory.max", "2147483648\n"),
                ("job/step/task/memory.max", "max\n"),
                ("free/memory.max", "max\n"),
            ],
        );
        let got = cgroup_limit("0::/job/step/task\n", &root);
        assert_eq!(got, Some((Bound::CgroupV2, 2 << 30)));
        // The parent's limit binds a child without one.
        assert_eq!(
            cgroup_limit("0::/job\n", &root),
            Some((Bound::CgroupV2, 4 << 30))
        );
        assert_eq!(cgroup_limit("0::/free\n", &root), None);
        // A container's namespace shows its own group as `/`: the files at the root.
        let ns = fixture("v2ns", &[("memory.max", "1073741824\n")]);
        assert_eq!(
            cgroup_limit("0::/\n", &ns),
            Some((Bound::CgroupV2, 1 << 30))
        );
        // A group whose folder is not mounted here is read at the mount.
        assert_eq!(
            cgroup_limit("0::/elsewhere/x\n", &ns),
            Some((Bound::CgroupV2, 1 << 30))
        );
        std::fs::remove_dir_all(root).unwrap();
        std::fs::remove_dir_all(ns).unwrap();
    }

    /// cgroup v1: the memory controller's line, `memory.limit_in_bytes`, and its "unlimited"
    /// value (a page count near 2^63) meaning none.
    #[test]
    fn cgroup_v1_limits_are_read_from_the_memory_controller() {
        let root = fixture(
            "v1",
            &[
                ("memory/memory.limit_in_bytes", "9223372036854771712\n"),
                ("memory/docker/abc/memory.limit_in_bytes", "536870912\n"),
                ("memory/big/memory.limit_in_bytes", "9223372036854771712\n"),
                ("cpu/docker/abc/memory.limit_in_bytes", "1\n"),
            ],
        );
        let text = "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n";
        assert_eq!(
            cgroup_limit(text, &root),
            Some((Bound::CgroupV1, 512 << 20))
        );
        assert_eq!(cgroup_limit("4:memory:/big\n", &root), None);
        assert_eq!(cgroup_limit("3:pids:/docker/abc\n", &root), None);
        std::fs::remove_dir_all(root).unwrap();
    }

    /// `/proc/self/limits`: the soft limits of the address space and the data segment.
    #[test]
    fn rlimits_are_read_from_proc_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units\n\
                    Max data size             unlimited            unlimited            bytes\n\
                    Max stack size            8388608              unlimited            bytes\n\
                    Max address space         6442450944           unlimited            bytes\n";
        assert_eq!(rlimits(text), vec![(Bound::AddressSpace, 6_442_450_944)]);
        let data = "Max data size             1000000              2000000              bytes\n";
        assert_eq!(rlimits(data), vec![(Bound::DataSize, 1_000_000)]);
        assert_eq!(
            physical_from("MemTotal:       24683772 kB\nMemFree: 1 kB\n"),
            Some(24_683_772 * 1024)
        );
    }

    /// The default is 3/4 of the least bound, and a refusal under it names that bound.
    #[test]
    fn the_default_is_three_quarters_of_the_least_bound() {
        let d = DefaultLimit::least(&[
            (Bound::Physical, 64 << 30),
            (Bound::CgroupV2, 2_000_000_000),
            (Bound::AddressSpace, 6_442_450_944),
        ]);
        assert_eq!(d.limit, Bytes(1_500_000_000));
        assert_eq!(d.bound, Bound::CgroupV2);
        assert_eq!(
            d.to_string(),
            "the default limit is 3/4 of the cgroup memory.max (2.00 GB)"
        );
        let none = DefaultLimit::least(&[]);
        assert_eq!(none.limit, Bytes(12 << 30));
        // This process's default is at most 3/4 of its physical memory, and a refusal at it
        // says what bounds it.
        let here = default_limit();
        if let Some(p) = physical() {
            assert!(here.limit.0 <= p / 4 * 3);
        }
        let e = check(u64::MAX, here.limit, "x", "y")
            .unwrap_err()
            .to_string();
        assert!(e.contains("the default limit is 3/4 of"), "{e}");
    }
}
