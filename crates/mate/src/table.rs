//! The proof table: proof and disproof numbers by position, bounded in size.
//!
//! A fixed array of buckets of four entries, indexed by the high bits of a multiplication of
//! the key; the full key is kept to verify. When a bucket is full the entry with the least
//! work behind it (nodes spent on it) gives way, so proofs and disproofs that took long to
//! find are the last to go.
//!
//! The whole array is allocated at once (the size option is what it may take), but only its
//! first buckets are in use at the start: the in-use part doubles, its entries re-placed,
//! whenever it is half full. Most problems need a few thousand entries, and those then stay
//! in the processor's caches instead of being spread over the whole array (at 64 MiB, a
//! cache and TLB miss each: the median problem was solved a quarter slower). Clearing
//! clears only the part in use.

use gogo_table::reserve_table;
pub use gogo_table::TableSizeError;

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

/// The buckets in use at the start (128 KiB).
const FIRST_BUCKETS: usize = 1024;

/// The proof table.
pub struct ProofTable {
    /// Every bucket; those past `buckets` are empty.
    slots: Vec<Slot>,
    /// The buckets in use.
    buckets: usize,
    /// Filled slots among those in use.
    used: usize,
}

impl ProofTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Result<ProofTable, TableSizeError> {
        let (mut slots, buckets) =
            reserve_table("mate", megabytes, ENTRY_BYTES, ENTRIES_PER_BUCKET, false)?;
        slots.resize(buckets * ENTRIES_PER_BUCKET, Slot::default());
        Ok(ProofTable {
            slots,
            buckets: buckets.min(FIRST_BUCKETS),
            used: 0,
        })
    }

    /// All the buckets there are room for.
    fn capacity(&self) -> usize {
        self.slots.len() / ENTRIES_PER_BUCKET
    }

    /// Forgets everything, and goes back to the first buckets.
    pub fn clear(&mut self) {
        self.slots[..self.buckets * ENTRIES_PER_BUCKET].fill(Slot::default());
        self.buckets = self.capacity().min(FIRST_BUCKETS);
        self.used = 0;
    }

    /// Doubles the buckets in use (up to all of them) and puts every entry where its key now
    /// leads.
    fn grow(&mut self) {
        let old_len = self.buckets * ENTRIES_PER_BUCKET;
        let old: Vec<Slot> = self.slots[..old_len]
            .iter()
            .copied()
            .filter(|s| s.key != 0)
            .collect();
        self.slots[..old_len].fill(Slot::default());
        self.buckets = (self.buckets * 2).min(self.capacity());
        self.used = 0;
        for slot in old {
            self.place(slot);
        }
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
        if self.used * 2 >= self.buckets * ENTRIES_PER_BUCKET && self.buckets < self.capacity() {
            self.grow();
        }
        self.place(Slot {
            key: key.max(1),
            pn: entry.pn,
            dn: entry.dn,
            work: entry.work,
            path_dependent: entry.path_dependent,
            length: entry.length,
        });
    }

    /// Puts `slot` in its key's bucket, over the same key's slot, an empty one, or the least
    /// worked-on.
    fn place(&mut self, slot: Slot) {
        let key = slot.key;
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
        bucket[index] = slot;
    }

    /// Permille of all the slots (not only those in use) that hold an entry.
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

    #[test]
    fn the_part_in_use_grows_and_keeps_every_entry() {
        let mut t = ProofTable::new(1).unwrap(); // 8192 buckets, 1024 in use at first
        assert_eq!(t.buckets, FIRST_BUCKETS);
        let e = |k: u64| Entry {
            pn: k as u32,
            dn: 1,
            path_dependent: k.is_multiple_of(3),
            work: k,
            length: (k % 50) as u16,
        };
        // Spread keys (as Zobrist keys are), more than the first buckets hold.
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let n = 10_000;
        for i in 1..=n {
            t.put(key(i), e(i));
        }
        assert_eq!(t.buckets, 8192);
        for i in 1..=n {
            assert_eq!(t.get(key(i)), Some(e(i)), "{i}");
        }
        assert_eq!(t.used, n as usize);
        assert_eq!(t.fill_permille(), (n * 1000 / (8192 * 4)) as u32);
        t.clear();
        assert_eq!((t.buckets, t.used), (FIRST_BUCKETS, 0));
        assert!(t.slots.iter().all(|s| s.key == 0));
        assert_eq!(t.get(key(5)), None);
    }
}
