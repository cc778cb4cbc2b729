//! # gogo-table
//!
//! The memory of the engine's big tables, the search's transposition table and the mate
//! solver's proof table, asked for in MiB alike: what a size comes to in buckets, whether
//! the system has the memory ([`TableShape::buckets`], refused with the figure otherwise),
//! and getting it without aborting on failure, zeroed by the allocator rather than written,
//! with huge pages asked for on Linux. Below both the search and the mate solver, so that
//! neither depends on the other for it.

#![deny(unsafe_code)]
#![warn(missing_docs)]

use std::sync::atomic::AtomicU64;

/// A table size that cannot be had: the search's hash table or the mate solver's proof
/// table, whose sizes are asked for in MiB alike ([`reserve_table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSizeError {
    /// Which table: `hash` or `mate`.
    pub table: &'static str,
    /// The size asked for.
    pub megabytes: usize,
    /// Whether the size does not even fit in the address space (rather than the memory
    /// not being there).
    pub too_large: bool,
    /// The memory the system said was available (MiB), when the size was more than that.
    pub available_mb: Option<usize>,
}

impl std::fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (table, megabytes) = (self.table, self.megabytes);
        if self.too_large {
            write!(f, "{megabytes} MiB is too large for the {table} table")
        } else if let Some(available) = self.available_mb {
            write!(
                f,
                "{megabytes} MiB for the {table} table is more than the {available} MiB of \
                 memory the system has available"
            )
        } else {
            write!(f, "cannot allocate {megabytes} MiB for the {table} table")
        }
    }
}

impl std::error::Error for TableSizeError {}

/// The memory the system says can be had without swapping, in bytes (Linux's
/// `MemAvailable`); `None` where it cannot tell.
pub fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: usize = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// The threads a tool may run for its searches: at most the machine's cores (more only
/// take turns on them, each with tables of its own), and no more memory than the system has
/// available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadCountError {
    /// Threads asked for.
    pub asked: usize,
    /// The machine's cores (`available_parallelism`).
    pub cores: usize,
    /// What one thread takes, MiB (its tables).
    pub per_thread_mb: usize,
    /// The memory available, MiB, when that is what the count exceeds.
    pub available_mb: Option<usize>,
}

impl std::fmt::Display for ThreadCountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (asked, cores, per) = (self.asked, self.cores, self.per_thread_mb);
        match self.available_mb {
            _ if asked == 0 => write!(f, "0 threads: at least 1"),
            Some(available) => write!(
                f,
                "{asked} threads of {per} MiB each are more than the {available} MiB of memory \
                 the system has available"
            ),
            None => write!(
                f,
                "{asked} threads: at most {cores}, this machine's cores (each thread takes \
                 {per} MiB)"
            ),
        }
    }
}

impl std::error::Error for ThreadCountError {}

/// The machine's cores as the system gives them to this process (1 where it cannot tell).
pub fn machine_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `asked` threads, each taking `per_thread_mb` MiB, if the machine has the cores and the
/// memory for them; else why not, with the figures.
pub fn check_threads(asked: usize, per_thread_mb: usize) -> Result<usize, ThreadCountError> {
    let cores = machine_cores();
    let error = |available_mb| ThreadCountError {
        asked,
        cores,
        per_thread_mb,
        available_mb,
    };
    if asked == 0 || asked > cores {
        return Err(error(None));
    }
    if let Some(available) = available_memory() {
        let needed = asked.saturating_mul(per_thread_mb).saturating_mul(1 << 20);
        if needed > available {
            return Err(error(Some(available >> 20)));
        }
    }
    Ok(asked)
}

/// What a table of `megabytes` MiB, `entry_bytes` an entry, is asked to be.
#[derive(Clone, Copy, Debug)]
pub struct TableShape {
    /// `hash` or `mate`, for the error.
    pub table: &'static str,
    /// The size asked for.
    pub megabytes: usize,
    /// Bytes of one entry.
    pub entry_bytes: usize,
    /// Entries of one bucket.
    pub bucket_entries: usize,
    /// Whether the buckets are rounded down to a power of two.
    pub power_of_two: bool,
}

impl TableShape {
    /// The error for this shape.
    pub fn error(&self, too_large: bool, available_mb: Option<usize>) -> TableSizeError {
        TableSizeError {
            table: self.table,
            megabytes: self.megabytes,
            too_large,
            available_mb,
        }
    }

    /// The buckets of the table (at least one), or why it cannot be had: a size beyond the
    /// address space, or more than the system's available memory plus `freed` bytes (a
    /// table about to be let go of), so that a size that would run the machine out of
    /// memory is refused with the figure instead of taken.
    pub fn buckets(&self, freed: usize) -> Result<usize, TableSizeError> {
        let bytes = self
            .megabytes
            .checked_mul(1 << 20)
            .ok_or(self.error(true, None))?;
        if let Some(available) = available_memory() {
            if bytes > available.saturating_add(freed) {
                return Err(self.error(false, Some(available >> 20)));
            }
        }
        let mut buckets = (bytes / (self.entry_bytes * self.bucket_entries)).max(1);
        if self.power_of_two && !buckets.is_power_of_two() {
            buckets = buckets.next_power_of_two() / 2;
        }
        Ok(buckets)
    }
}

/// An empty vector with room for the entries of a table of `megabytes` MiB, `entry_bytes`
/// each, grouped in buckets of `bucket_entries` (at least one bucket; `power_of_two` rounds
/// the buckets down to a power of two), or why not (see [`TableShape::buckets`]). The
/// memory is reserved, not filled: failing to get it is an error, never an abort.
pub fn reserve_table<T>(
    table: &'static str,
    megabytes: usize,
    entry_bytes: usize,
    bucket_entries: usize,
    power_of_two: bool,
) -> Result<(Vec<T>, usize), TableSizeError> {
    let shape = TableShape {
        table,
        megabytes,
        entry_bytes,
        bucket_entries,
        power_of_two,
    };
    let buckets = shape.buckets(0)?;
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(buckets * bucket_entries)
        .map_err(|_| shape.error(false, None))?;
    advise_huge_pages(&mut entries);
    Ok((entries, buckets))
}

/// The bytes of a processor's cache line: a table's buckets start on one, so that reading a
/// bucket touches one line (and one prefetch brings all of it).
pub const CACHE_LINE: usize = 64;

/// Words of zero for a table, the first on a cache line ([`CACHE_LINE`]), from memory the
/// allocator hands over already zeroed (fresh pages of the system's for a large table):
/// nothing is written, so the table takes memory only as the search uses it. (The
/// allocator's own alignment is 16 bytes: a 64-byte bucket of a plain vector straddles two
/// lines.)
pub struct ZeroedWords {
    /// The allocation, a cache line longer than the words it holds.
    storage: Vec<AtomicU64>,
    /// Where the words start in `storage`: the first word on a cache line.
    start: usize,
    /// How many words.
    len: usize,
}

impl ZeroedWords {
    /// `count` words of zero, with huge pages asked for ([`advise_huge_pages`]); `None`
    /// when the memory cannot be had.
    pub fn new(count: usize) -> Option<ZeroedWords> {
        const WORD: usize = std::mem::size_of::<AtomicU64>();
        let mut storage = zeroed_vec(count.checked_add(CACHE_LINE / WORD)?)?;
        advise_huge_pages(&mut storage);
        let address = storage.as_ptr() as usize;
        let start = (address.next_multiple_of(CACHE_LINE) - address) / WORD;
        Some(ZeroedWords {
            storage,
            start,
            len: count,
        })
    }
}

impl std::ops::Deref for ZeroedWords {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        &self.storage[self.start..self.start + self.len]
    }
}

/// `count` words of zero from the allocator's zeroed memory, or `None`.
fn zeroed_vec(count: usize) -> Option<Vec<AtomicU64>> {
    if count == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<AtomicU64>(count).ok()?;
    // SAFETY: the layout's size is not zero (count > 0).
    #[allow(unsafe_code)]
    let pointer = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if pointer.is_null() {
        return None;
    }
    // SAFETY: the pointer comes from the global allocator with the layout of `count`
    // AtomicU64s, the layout a Vec of that capacity frees with; all its bytes are zero, a
    // valid AtomicU64 (0), so all `count` elements are initialised.
    #[allow(unsafe_code)]
    let words = unsafe { Vec::from_raw_parts(pointer, count, count) };
    Some(words)
}

/// Asks Linux to back the (not yet touched) memory of a table with 2 MiB pages, where it
/// allows them on request: random probes into a table of many 4 KiB pages miss the TLB.
/// Only advice; a kernel that declines changes nothing but speed.
pub fn advise_huge_pages<T>(entries: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = entries.as_mut_ptr() as usize;
        let end = start + entries.capacity() * std::mem::size_of::<T>();
        let aligned = start.next_multiple_of(HUGE_PAGE);
        if end >= aligned + HUGE_PAGE {
            let len = (end - aligned) / HUGE_PAGE * HUGE_PAGE;
            // SAFETY: [aligned, aligned + len) lies inside the vector's allocation, which
            // lives on; MADV_HUGEPAGE changes how pages are backed, never their contents.
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_words_start_on_a_cache_line_and_are_zero() {
        for count in [1, 7, 8, 1000, (4 << 20) / 8] {
            let words = ZeroedWords::new(count).expect("memory");
            assert_eq!(words.len(), count);
            assert_eq!(words.as_ptr() as usize % CACHE_LINE, 0, "{count} words");
            assert!(words
                .iter()
                .all(|w| w.load(std::sync::atomic::Ordering::Relaxed) == 0));
        }
        assert_eq!(ZeroedWords::new(0).map(|w| w.len()), Some(0));
        assert!(ZeroedWords::new(usize::MAX / 4).is_none());
    }

    #[test]
    fn thread_counts_are_bounded_by_the_machine() {
        let cores = machine_cores();
        assert_eq!(check_threads(cores, 1), Ok(cores));
        let error = check_threads(cores + 1, 1).unwrap_err().to_string();
        assert!(error.contains(&format!("at most {cores}")), "{error}");
        assert!(check_threads(0, 1).is_err());
        assert!(check_threads(100_000, 24).is_err());
        // More memory than any machine has: refused with the figure.
        if available_memory().is_some() {
            let error = check_threads(1, usize::MAX >> 21).unwrap_err().to_string();
            assert!(error.contains("MiB of memory"), "{error}");
        }
    }
}
