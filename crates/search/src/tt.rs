//! The transposition table: one lock-free table shared by every search thread.
//!
//! A fixed power-of-two array of 64-byte buckets, each on its own cache line, each of four
//! entries of two `AtomicU64`s: the packed data, and the key XOR the data. A reader accepts
//! an entry only when the two words XOR back to its key, so an entry torn by two threads
//! writing at once reads as a miss (and a stored move is still checked for legality before
//! it is played). Buckets are chosen by the high bits of a multiplication of the key (the
//! "multiply-high" index), so the low key bits stay free to verify. Mate scores are stored
//! relative to the node.

use crate::value::INFINITE;
use gogo_rules::Move;
use gogo_table::ZeroedWords;
pub use gogo_table::{available_memory, TableShape, TableSizeError};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, if any (possibly illegal after a key collision).
    pub mv: Option<Move>,
    /// Score, relative to the node (see [`crate::value::from_tt`]).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Depth searched.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Two words an entry.
const WORDS_PER_BUCKET: usize = ENTRIES_PER_BUCKET * 2;
/// Tables up to this size are touched when made (see [`TranspositionTable::new`]); larger
/// ones take memory as the search uses them.
pub const PREFAULT_MAX_MB: usize = 64;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 16;
const GENERATION_BITS: u64 = 6;
const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;
/// Stored depth is offset so that quiescence depths (down to -DEPTH_OFFSET) fit in a byte.
const DEPTH_OFFSET: i32 = 16;

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(0, |m| m.bits()) as u64;
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv | score << 16 | eval << 32 | depth << 48 | (bound as u64) << 56 | (generation as u64) << 58
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let score = (data >> 16) as u16 as i16 as i32;
    let eval = (data >> 32) as u16 as i16 as i32;
    // The search stores nothing beyond ±INFINITE: such a value is a torn write or another
    // key's data, and would send the aspiration loop past every window.
    if score.abs() > INFINITE || eval.abs() > INFINITE {
        return None;
    }
    Some(TtEntry {
        mv: Move::from_bits(data as u16),
        score,
        eval,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound,
    })
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

/// The shared transposition table.
pub struct TranspositionTable {
    /// Two words per entry: `[key ^ data, data]`; each bucket on its own cache line.
    words: ZeroedWords,
    bucket_count: usize,
    generation: AtomicU8,
    /// Whether a search has run since the table was made or last emptied: emptying an
    /// unused table would write (and so take) all of its memory for nothing.
    used: AtomicBool,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets, at least
    /// one). Fails, without aborting, when the memory cannot be had.
    ///
    /// The memory comes zeroed from the system and a large table is not written here, so
    /// the process grows only as the search fills it; a size beyond the available memory is
    /// refused (see [`TableShape::buckets`]). A table of at most [`PREFAULT_MAX_MB`] has its
    /// pages touched now (at `isready`), so that its first searches, on the clock, pay no
    /// page faults: with huge pages asked for, a first touch may wait for the kernel to
    /// compact memory (a move at byoyomi 20 ms was lost so, 40 ms in the kernel).
    pub fn new(megabytes: usize) -> Result<TranspositionTable, TableSizeError> {
        let shape = TranspositionTable::shape(megabytes);
        let bucket_count = shape.buckets(0)?;
        let words =
            ZeroedWords::new(bucket_count * WORDS_PER_BUCKET).ok_or(shape.error(false, None))?;
        if megabytes <= PREFAULT_MAX_MB {
            // One word a page: a write makes the page the process's own.
            const WORDS_PER_PAGE: usize = 4096 / std::mem::size_of::<AtomicU64>();
            for word in words.iter().step_by(WORDS_PER_PAGE) {
                word.store(0, Ordering::Relaxed);
            }
        }
        Ok(TranspositionTable {
            words,
            bucket_count,
            generation: AtomicU8::new(0),
            used: AtomicBool::new(false),
        })
    }

    /// What a table of `megabytes` MiB is asked to be.
    pub fn shape(megabytes: usize) -> TableShape {
        TableShape {
            table: "hash",
            megabytes,
            entry_bytes: 8,
            bucket_entries: WORDS_PER_BUCKET,
            power_of_two: true,
        }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.bucket_count * BUCKET_BYTES
    }

    /// Empties the table.
    pub fn clear(&self) {
        if !self.used.swap(false, Ordering::Relaxed) {
            return;
        }
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.bucket_count as u128)) >> 64) as usize * ENTRIES_PER_BUCKET * 2
    }

    /// Hints the processor to fetch the bucket of `key`, without waiting for it. (A plain
    /// load here waited for the line: a fifth of the search's time went to it.)
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let word = &self.words[self.bucket(key)];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: SSE is part of x86-64, and a prefetch reads nothing that the program
            // sees; the address is that of a live element of `words`.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>((word as *const AtomicU64).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = word;
    }

    /// The entry for `key`, if one is stored and intact.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * i].load(Ordering::Relaxed);
            let data = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result. Replaces the entry of the same key (keeping its move when the new
    /// result has none), else the entry least worth keeping by depth and age.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let base = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * i].load(Ordering::Relaxed);
            let data = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                if data != 0 && check ^ data == key {
                    let old = unpack(data);
                    // Keep a deeper exact result of the same position from this search.
                    if bound != Bound::Exact
                        && depth + 2 < depth_of(data)
                        && generation_of(data) == generation
                    {
                        return;
                    }
                    let mv = mv.or(old.and_then(|e| e.mv));
                    return self.write(
                        base + 2 * i,
                        key,
                        pack(mv, score, eval, depth, bound, generation),
                    );
                }
                victim = i;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & GENERATION_MASK) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(
            base + 2 * victim,
            key,
            pack(mv, score, eval, depth, bound, generation),
        );
    }

    #[inline]
    fn write(&self, index: usize, key: u64, data: u64) {
        self.words[index].store(key ^ data, Ordering::Relaxed);
        self.words[index + 1].store(data, Ordering::Relaxed);
        // A load first: the flag's cache line stays shared between the threads.
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
    }

    /// Permille of sampled entries written during the current search, as USI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let buckets = self.bucket_count.min(250);
        let mut used = 0;
        for b in 0..buckets {
            for i in 0..ENTRIES_PER_BUCKET {
                let data =
                    self.words[b * ENTRIES_PER_BUCKET * 2 + 2 * i + 1].load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (buckets * ENTRIES_PER_BUCKET)) as u32
    }

    /// Writes raw words at the slot of `key`, for tests of torn entries.
    #[doc(hidden)]
    pub fn corrupt_for_test(&self, key: u64, check: u64, data: u64) {
        let base = self.bucket(key);
        self.words[base].store(check, Ordering::Relaxed);
        self.words[base + 1].store(data, Ordering::Relaxed);
        self.used.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.size_bytes(), 1 << 20);
        let mv: Move = "2e3d".parse().unwrap();
        tt.store(0xdead_beef, Some(mv), -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            e,
            TtEntry {
                mv: Some(mv),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xdead_bef0), None);
        // A shallower result without a move keeps the move.
        tt.store(0xdead_beef, None, 10, 45, 8, Bound::Exact);
        assert_eq!(tt.probe(0xdead_beef).unwrap().mv, Some(mv));
        assert!(tt.hashfull() <= 1);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, "P*3c".parse().ok(), 1, 2, 3, Bound::Exact);
        // Half of another write: the data word of a different entry.
        let other = pack("1e1a".parse().ok(), 5, 5, 5, Bound::Exact, 0);
        let check = key ^ pack("P*3c".parse().ok(), 1, 2, 3, Bound::Exact, 0);
        tt.corrupt_for_test(key, check, other);
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn scores_beyond_infinite_read_as_misses() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0x0bad_5eed_0000_0001;
        for (score, eval, kept) in [
            (i16::MAX as i32, 0, false),
            (0, -32_767, false),
            (-INFINITE, -INFINITE, true),
        ] {
            let data = pack(None, score, eval, 3, Bound::Exact, 0);
            tt.corrupt_for_test(key, key ^ data, data);
            assert_eq!(tt.probe(key).is_some(), kept, "score {score}, eval {eval}");
        }
    }

    #[test]
    fn refuses_impossible_sizes_without_aborting() {
        let error = |megabytes, too_large| TableSizeError {
            table: "hash",
            megabytes,
            too_large,
            available_mb: None,
        };
        assert_eq!(
            TranspositionTable::new(usize::MAX).err(),
            Some(error(usize::MAX, true))
        );
        // More than the system has: refused with what it has (Linux says), before any
        // allocation. black_box: an optimised build may otherwise drop the unused table.
        let refused = std::hint::black_box(TranspositionTable::new(1 << 40)).err();
        assert_eq!(
            refused,
            Some(TableSizeError {
                available_mb: available_memory().map(|b| b >> 20),
                ..error(1 << 40, false)
            })
        );
    }

    #[test]
    fn a_new_table_is_zero_and_an_unused_one_is_not_rewritten() {
        let tt = TranspositionTable::new(1).unwrap();
        assert!(tt.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        assert!(!tt.used.load(Ordering::Relaxed));
        tt.store(0xdead_beef, None, 10, 45, 8, Bound::Exact);
        assert!(tt.used.load(Ordering::Relaxed));
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
        assert!(!tt.used.load(Ordering::Relaxed));
    }
}
