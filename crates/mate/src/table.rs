//! The proof table: proof and disproof numbers by position, bounded in size.
//!
//! A fixed array of buckets of four entries, indexed by the high bits of a multiplication of
//! the key; the full key is kept to verify. When a bucket is full the entry with the least
//! work behind it (nodes spent on it) gives way, so proofs and disproofs that took long to
//! find are the last to go.

use std::fmt;

/// A proof or disproof number that means "cannot be": this node is disproven (pn) or proven
/// (dn).
pub const INFINITE: u32 = u32::MAX / 4;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proof number: 0 when mate is proven.
    pub pn: u32,
    /// Disproof number: 0 when there is no mate.
    pub dn: u32,
    /// The disproof came from a repetition on the path it was found on, so it holds for that
    /// path only.
    pub path_dependent: bool,
    /// Nodes searched below this position.
    pub work: u64,
    /// For a proven position: the length in plies of the mate the proof found (0 for a
    /// position already mated).
    pub length: u16,
}

const ENTRIES_PER_BUCKET: usize = 4;
const ENTRY_BYTES: usize = 32;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    pn: u32,
    dn: u32,
    work: u64,
    path_dependent: bool,
    length: u16,
}

/// A table size that cannot be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSizeError {
    /// The size asked for.
    pub megabytes: usize,
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate {} MiB for the mate table",
            self.megabytes
        )
    }
}

impl std::error::Error for TableSizeError {}

/// The proof table.
pub struct ProofTable {
    slots: Vec<Slot>,
    buckets: usize,
    used: usize,
}

impl ProofTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Result<ProofTable, TableSizeError> {
        let bytes = megabytes
            .checked_mul(1 << 20)
            .ok_or(TableSizeError { megabytes })?;
        let buckets = (bytes / (ENTRY_BYTES * ENTRIES_PER_BUCKET)).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(buckets * ENTRIES_PER_BUCKET)
            .map_err(|_| TableSizeError { megabytes })?;
        slots.resize(buckets * ENTRIES_PER_BUCKET, Slot::default());
        Ok(ProofTable {
            slots,
            buckets,
            used: 0,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * ENTRIES_PER_BUCKET
    }

    /// What is stored for `key`. (Key 0 is never stored: it marks empty slots.)
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let key = key.max(1);
        let base = self.bucket(key);
        self.slots[base..base + ENTRIES_PER_BUCKET]
            .iter()
            .find(|s| s.key == key)
            .map(|s| Entry {
                pn: s.pn,
                dn: s.dn,
                path_dependent: s.path_dependent,
                work: s.work,
                length: s.length,
            })
    }

    /// Stores `entry` for `key`, replacing the old one or the least worked-on of the bucket.
    pub fn put(&mut self, key: u64, entry: Entry) {
        let key = key.max(1);
        let base = self.bucket(key);
        let bucket = &mut self.slots[base..base + ENTRIES_PER_BUCKET];
        let index = match bucket.iter().position(|s| s.key == key) {
            Some(i) => i,
            None => match bucket.iter().position(|s| s.key == 0) {
                Some(i) => {
                    self.used += 1;
                    i
                }
                None => {
                    let (i, _) = bucket
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, s)| s.work)
                        .expect("four slots");
                    i
                }
            },
        };
        bucket[index] = Slot {
            key,
            pn: entry.pn,
            dn: entry.dn,
            work: entry.work,
            path_dependent: entry.path_dependent,
            length: entry.length,
        };
    }

    /// Permille of slots in use.
    pub fn fill_permille(&self) -> u32 {
        (self.used as u64 * 1000 / self.slots.len() as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_replace_and_keep_the_hard_won() {
        let mut t = ProofTable::new(0).unwrap(); // one bucket
        let e = |work| Entry {
            pn: 3,
            dn: 4,
            path_dependent: false,
            work,
            length: 0,
        };
        for k in 1..=4u64 {
            t.put(k, e(k * 10));
        }
        assert_eq!(t.get(3), Some(e(30)));
        t.put(5, e(1000)); // evicts key 1, the least work
        assert_eq!(t.get(1), None);
        assert_eq!(t.get(5), Some(e(1000)));
        t.put(5, e(7));
        assert_eq!(t.get(5).unwrap().work, 7);
        assert!(ProofTable::new(usize::MAX).is_err());
    }
}
