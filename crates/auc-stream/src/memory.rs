//! Memory checked before it is allocated: every command estimates the bytes its data and its
//! learner's state will take and refuses, with the figure and what to do instead, when they
//! exceed `--max-memory` (default: three quarters of the machine's physical memory).

use std::fmt;
use std::str::FromStr;

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
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The limit: the given one, else three quarters of physical memory, else 16 GiB.
pub fn limit(given: Option<Bytes>) -> Bytes {
    given.unwrap_or_else(|| Bytes(physical().map_or(16 << 30, |p| p / 4 * 3)))
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
            "{} needs about {} but --max-memory is {}: {}",
            self.what, self.needed, self.limit, self.advice
        )
    }
}

impl std::error::Error for Refusal {}

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
}
