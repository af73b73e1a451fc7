//! [`Tallies`]: a running checksum and count of the bytes a pass takes from each file, so that a
//! second pass over the same files can tell that it read the bytes the first read.
//!
//! Size, modification time and inode tell most replacements apart, but not a file rewritten in
//! place with as many bytes and its time set back (`touch -r`), nor a file system that keeps
//! coarse times; the checksum of the bytes themselves does.
//!
//! The checksum is [`Checksum`], four lanes of a multiply-rotate hash over 8-byte words, not
//! CRC-32: a CRC is linear, so a message followed by its own CRC has a CRC that depends only on
//! its length, and every stored (level 0) gzip file ends with the CRC-32 of its data. Two such
//! files of the same size had the same CRC-32, and a replacement went unnoticed. Each step of
//! [`Checksum`] is a bijection of the word and of the lane, so a change confined to one word
//! always changes the checksum; it costs one multiplication per 8 bytes, far below parsing them.

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a pass read of one file: the bytes taken and their [`Checksum`], in the order read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Bytes taken from the file (compressed bytes for gzip).
    pub bytes: u64,
    /// Their checksum.
    pub checksum: u64,
}

/// The odd multiplier of [`Checksum`] (the 64-bit golden ratio, as in Fibonacci hashing).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of a lane: a bijection of the lane for a given word, and of the word for a given
/// lane (xor, an odd multiplication and a rotation are each invertible).
fn mix(lane: u64, word: u64) -> u64 {
    (lane ^ word).wrapping_mul(K).rotate_left(31)
}

/// A streaming checksum of bytes: the same for the same bytes whatever pieces they come in.
/// Four independent lanes take the 8-byte words of each 32 bytes (so the multiplications do not
/// wait for each other); the lanes, the length and the last bytes fold into one value.
#[derive(Clone, Debug)]
pub struct Checksum {
    lanes: [u64; 4],
    pending: [u8; 32],
    pending_len: usize,
    total: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum {
            lanes: [K, K.rotate_left(16), K.rotate_left(32), K.rotate_left(48)],
            pending: [0; 32],
            pending_len: 0,
            total: 0,
        }
    }
}

impl Checksum {
    fn block(&mut self, b: &[u8]) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            *lane = mix(*lane, w);
        }
    }

    /// Adds `bytes` after those added before.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.pending_len > 0 {
            let take = (32 - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < 32 {
                return;
            }
            let p = self.pending;
            self.block(&p);
            self.pending_len = 0;
        }
        let mut chunks = bytes.chunks_exact(32);
        for c in &mut chunks {
            self.block(c);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The checksum of the bytes added so far.
    pub fn finish(&self) -> u64 {
        let mut h = mix(K, self.total);
        for &lane in &self.lanes {
            h = mix(h, lane);
        }
        let mut last = [0u8; 32];
        last[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
        for w in last.chunks_exact(8) {
            h = mix(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        // A final avalanche (splitmix64's), so that nearby inputs spread over all bits.
        h ^= h >> 30;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }
}

/// The tallies of one pass, by file, shared by the readers of the pass (threads included).
/// Clones share the same tallies. A field of [`crate::ReadOptions`] that is no part of how a
/// file is read: two options that differ only in it compare equal, and it is never saved.
#[derive(Clone, Default)]
pub struct Tallies(Arc<Mutex<HashMap<PathBuf, Checksum>>>);

impl Tallies {
    /// Empty tallies.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `bytes`, read from `path` after everything added for it before.
    pub fn add(&self, path: &Path, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if let Ok(mut map) = self.0.lock() {
            map.entry(path.to_path_buf()).or_default().update(bytes);
        }
    }

    /// Forgets every tally (a pass that starts over).
    pub fn clear(&self) {
        if let Ok(mut map) = self.0.lock() {
            map.clear();
        }
    }

    /// What was read of `path` so far (nothing: 0 bytes).
    pub fn get(&self, path: &Path) -> Tally {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let empty = Checksum::default();
        let c = map.get(path).unwrap_or(&empty);
        Tally {
            bytes: c.total,
            checksum: c.finish(),
        }
    }

    /// A reader of `file` (the file at `path`) that adds what it reads to these tallies.
    pub fn reader<R: Read>(&self, path: &Path, file: R) -> Tallied<R> {
        Tallied {
            inner: file,
            path: path.to_path_buf(),
            tallies: self.clone(),
        }
    }
}

impl std::fmt::Debug for Tallies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tallies")
    }
}

impl PartialEq for Tallies {
    /// Always equal: tallies record a pass, they do not say how a file is read.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A reader that adds the bytes it reads to [`Tallies`].
pub struct Tallied<R> {
    inner: R,
    path: PathBuf,
    tallies: Tallies,
}

impl<R: Read> Read for Tallied<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.tallies.add(&self.path, &buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checksum of bytes read in pieces is that of all of them at once, whatever the pieces.
    #[test]
    fn tallies_checksum_the_bytes_read_in_any_pieces() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = Checksum::default();
        whole.update(&data);
        for piece in [1, 3, 8, 31, 32, 33, 100, 999] {
            let t = Tallies::new();
            let p = Path::new("a");
            let mut r = t.reader(p, &data[..]);
            let mut buf = vec![0u8; piece];
            while r.read(&mut buf).unwrap() > 0 {}
            assert_eq!(
                t.get(p),
                Tally {
                    bytes: 1000,
                    checksum: whole.finish()
                },
                "pieces of {piece}"
            );
        }
        assert_eq!(Tallies::new().get(Path::new("b")).bytes, 0);
    }

    /// Every change of one byte, a swap of two lines and a byte more change the checksum; so
    /// does replacing a stored gzip file by another of as many bytes, whose CRC-32 is the same
    /// (a CRC of data followed by its own CRC depends only on the length).
    #[test]
    fn the_checksum_sees_changes_a_crc_does_not() {
        let sum = |b: &[u8]| {
            let mut c = Checksum::default();
            c.update(b);
            c.finish()
        };
        let data: Vec<u8> = b"1 1:0.5 2:3\n-1 1:2 3:1\n".repeat(5);
        let base = sum(&data);
        for i in 0..data.len() {
            let mut d = data.clone();
            d[i] ^= 0x10;
            assert_ne!(sum(&d), base, "byte {i}");
        }
        let mut swapped = b"-1 1:2 3:1\n1 1:0.5 2:3\n".to_vec();
        swapped.extend_from_slice(&data[23..]);
        assert_eq!(swapped.len(), data.len());
        assert_ne!(sum(&swapped), base);
        let mut longer = data.clone();
        longer.push(b'\n');
        assert_ne!(sum(&longer), base);
        // The CRC-32 trap: the trailer of a stored gzip member is the CRC-32 of its data.
        let stored = |d: &[u8]| {
            let mut out = d.to_vec();
            let mut h = crc32fast::Hasher::new();
            h.update(d);
            out.extend_from_slice(&h.finalize().to_le_bytes());
            out
        };
        let (a, b) = (stored(&data), stored(&swapped));
        let crc = |x: &[u8]| {
            let mut h = crc32fast::Hasher::new();
            h.update(x);
            h.finalize()
        };
        assert_eq!(crc(&a), crc(&b), "the CRC-32 cannot tell them apart");
        assert_ne!(sum(&a), sum(&b));
    }
}
