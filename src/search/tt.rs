//! `TranspositionTable`: a lock-free hash table shared by all search threads.
//!
//! Each entry is two `AtomicU64` words: `data` and `key ^ data`. A reader accepts an entry only
//! if the two words XOR back to its key, so an entry torn by a concurrent writer is simply a
//! miss, never a wrong hit. Entries sit in 64-byte buckets of four; the replacement policy keeps
//! deep and recent entries. Mate scores are stored relative to the node, not the root.

use crate::board::types::{Move, Value, MATE_BOUND};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best or refutation move (may be `Move::NONE`); check legality before use.
    pub mv: Move,
    /// Score, already adjusted to the probing ply.
    pub score: Value,
    /// Static evaluation of the position.
    pub eval: Value,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; 4],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

/// Depth is stored with this offset so quiescence depths (negative) fit in a byte.
const DEPTH_OFFSET: i32 = 16;

fn pack(mv: Move, score: Value, eval: Value, depth: i32, bound: Bound, generation: u8) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | ((generation as u64 & 0x3f) << 58)
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn unpack_generation(data: u64) -> u8 {
    ((data >> 58) & 0x3f) as u8
}

/// Score to store: mate scores become relative to this node.
#[inline]
pub fn score_to_tt(score: Value, ply: usize) -> Value {
    if score >= MATE_BOUND {
        score + ply as Value
    } else if score <= -MATE_BOUND {
        score - ply as Value
    } else {
        score
    }
}

/// Score read back: mate scores become relative to the root again.
#[inline]
pub fn score_from_tt(score: Value, ply: usize) -> Value {
    if score >= MATE_BOUND {
        score - ply as Value
    } else if score <= -MATE_BOUND {
        score + ply as Value
    } else {
        score
    }
}

/// Why a table could not be resized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeError {
    /// The size asked for exceeds 3/4 of the machine's physical memory.
    MoreThanMemory { memory_mb: usize },
    /// The allocator refused the memory.
    OutOfMemory,
}

impl std::fmt::Display for ResizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResizeError::MoreThanMemory { memory_mb } => {
                write!(f, "more than this machine can give: {memory_mb} MB in all")
            }
            ResizeError::OutOfMemory => f.write_str("out of memory"),
        }
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: AtomicU64::new(0),
        };
        if tt.resize(mb, 1).is_err() {
            // Fall back to the smallest table rather than fail: 1 MB can always be had.
            let _ = tt.resize(1, 1);
        }
        tt
    }

    /// Reallocate to about `mb` megabytes, cleared by `threads` threads at once (a table of many
    /// gigabytes takes seconds to touch for one thread); the contents are lost. If the memory
    /// cannot be had, the table keeps its old size and the error says why (the process is not
    /// aborted).
    pub fn resize(&mut self, mb: usize, threads: usize) -> Result<(), ResizeError> {
        // Linux overcommits: a reservation beyond the machine's memory succeeds, and clearing
        // the table then gets the process killed. Refuse more than 3/4 of it up front, leaving
        // the rest to the system and the other programs.
        if let Some(memory_mb) = physical_memory_mb() {
            if mb > memory_mb / 4 * 3 {
                return Err(ResizeError::MoreThanMemory { memory_mb });
            }
        }
        let count = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| ResizeError::OutOfMemory)?;
        self.buckets = Vec::new();
        // Before the first touch, so the kernel backs the table with huge pages as it faults in.
        advise_huge_pages(
            buckets.as_ptr().cast(),
            count * std::mem::size_of::<Bucket>(),
        );
        let fresh = &mut buckets.spare_capacity_mut()[..count];
        in_parallel(fresh, threads, |b| {
            b.write(Bucket::default());
        });
        // SAFETY: the capacity is at least `count` (reserved above) and `in_parallel` has
        // written every one of the first `count` elements (it visits each element of the slice
        // exactly once), so they are initialised.
        unsafe { buckets.set_len(count) };
        self.buckets = buckets;
        Ok(())
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forget everything, with `threads` threads at once.
    pub fn clear(&mut self, threads: usize) {
        in_parallel(&mut self.buckets, threads, |b| *b = Bucket::default());
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: entries from older searches become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0x3f) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Ask the processor to bring `key`'s bucket into the cache, so that the probe a little
    /// later finds it there (a probe that misses the cache waits for memory).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has (it is part of
            // the architecture's baseline, enabled in every x86_64 build); a prefetch is only
            // a hint, it reads nothing into the program and cannot fault, whatever the address
            // (here a live bucket of the table).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Look up `key`; scores are adjusted to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(TtEntry {
                    mv: Move::from_raw(data as u16),
                    score: score_from_tt((data >> 16) as u16 as i16 as Value, ply),
                    eval: (data >> 32) as u16 as i16 as Value,
                    depth: unpack_depth(data),
                    bound: match (data >> 56) & 3 {
                        1 => Bound::Upper,
                        2 => Bound::Lower,
                        3 => Bound::Exact,
                        _ => Bound::None,
                    },
                });
            }
        }
        None
    }

    /// Store a result. Keeps the old move when the new one is `NONE` for the same key.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_value = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                // Same position: overwrite unless a much deeper exact result would be lost.
                if data != 0 && check ^ data == key {
                    let old_depth = unpack_depth(data);
                    if bound != Bound::Exact
                        && depth + 4 < old_depth
                        && unpack_generation(data) == generation
                    {
                        return;
                    }
                    let mv = if mv == Move::NONE {
                        Move::from_raw(data as u16)
                    } else {
                        mv
                    };
                    Self::write(
                        slot,
                        key,
                        pack(mv, score_to_tt(score, ply), eval, depth, bound, generation),
                    );
                    return;
                }
                victim = slot;
                break;
            }
            let age = (generation.wrapping_sub(unpack_generation(data)) & 0x3f) as i32;
            let value = unpack_depth(data) - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = slot;
            }
        }
        Self::write(
            victim,
            key,
            pack(mv, score_to_tt(score, ply), eval, depth, bound, generation),
        );
    }

    #[inline]
    fn write(slot: &Slot, key: u64, data: u64) {
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let data = s.data.load(Ordering::Relaxed);
                if data != 0 && unpack_generation(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// Apply `f` to every element of `items` once, with up to `threads` threads on contiguous parts.
fn in_parallel<T: Send>(items: &mut [T], threads: usize, f: impl Fn(&mut T) + Sync) {
    // Below a few megabytes a thread costs more than it saves.
    const MIN_PART: usize = 1 << 16;
    let parts = threads.clamp(1, (items.len() / MIN_PART).max(1));
    if parts == 1 {
        items.iter_mut().for_each(f);
        return;
    }
    let part_len = items.len().div_ceil(parts);
    std::thread::scope(|s| {
        for part in items.chunks_mut(part_len) {
            let f = &f;
            s.spawn(move || part.iter_mut().for_each(f));
        }
    });
}

/// The machine's physical memory in megabytes (`MemTotal` of /proc/meminfo), where it can be read.
fn physical_memory_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Ask Linux to back `len` bytes from `start` with transparent huge pages (2 MB), where it
/// allows them only on request (`madvise` mode, the common default). Every probe of a large table
/// misses the cache; with 4 KB pages it misses the TLB too, and the page walk costs as much
/// again: `chuhan bench 13 1 256` ran at about half the nodes/s of a 1 MB table before this.
/// Only the 2 MB-aligned middle of the range is advised; a refusal is harmless (small pages).
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    const HUGE: usize = 2 * 1024 * 1024;
    let begin = (start as usize).next_multiple_of(HUGE);
    let end = (start as usize + len) / HUGE * HUGE;
    if end > begin {
        // SAFETY: `madvise` with MADV_HUGEPAGE changes neither the contents nor the validity of
        // any memory; it only tells the kernel which page size to prefer. The range is
        // page-aligned and lies inside the allocation the caller owns, so no other mapping is
        // affected. The result is ignored on purpose: without huge pages the table still works.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rng::{splitmix64, Rng};
    use crate::board::types::{Square, MATE};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(10), Square::new(20));
        tt.store(0xdead_beef, 3, m, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (m, -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xdead_bee0, 3).is_none());
        // Quiescence depths are negative.
        tt.store(77, 0, Move::NONE, 5, 5, -3, Bound::Upper);
        assert_eq!(tt.probe(77, 0).unwrap().depth, -3);
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: 3 plies from the node.
        tt.store(99, 2, Move::NONE, MATE - 5, 0, 4, Bound::Exact);
        // Probed at ply 6 the same node is mate in 6 + 3 plies from the root.
        assert_eq!(tt.probe(99, 6).unwrap().score, MATE - 9);
    }

    #[test]
    fn concurrent_writers_never_produce_torn_entries() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        // Each key stores a score derived from the key: a torn read shows up as
                        // a mismatch.
                        let key = splitmix64(i % 64).1 ^ t;
                        let score = (key % 1000) as Value;
                        tt.store(
                            key,
                            0,
                            Move::NONE,
                            score,
                            score,
                            (i % 20) as i32,
                            Bound::Exact,
                        );
                        if let Some(e) = tt.probe(key, 0) {
                            assert_eq!(e.score, score);
                            assert_eq!(e.eval, score);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut keys = Rng::new(1);
        for _ in 1..200_000u64 {
            tt.store(keys.next_u64(), 0, Move::NONE, 0, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear(1);
        assert!(tt.probe(Rng::new(1).next_u64(), 0).is_none());
    }

    #[test]
    fn parallel_fill_visits_every_element_once() {
        for (len, threads) in [
            (0, 4),
            (7, 3),
            (1 << 16, 2),
            ((1 << 18) + 5, 3),
            (1 << 18, 64),
        ] {
            let mut v = vec![0u8; len];
            in_parallel(&mut v, threads, |x| *x += 1);
            assert!(v.iter().all(|&x| x == 1), "len {len}, threads {threads}");
        }
    }

    #[test]
    fn a_table_larger_than_the_machine_is_refused_and_the_old_one_kept() {
        let mut tt = TranspositionTable::new(2);
        let Some(memory_mb) = physical_memory_mb() else {
            return; // not Linux: nothing to compare with
        };
        assert!(memory_mb > 0);
        assert_eq!(
            tt.resize(memory_mb / 4 * 3 + 1, 1),
            Err(ResizeError::MoreThanMemory { memory_mb })
        );
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(tt.resize(1, 1), Ok(()));
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn resizing_and_clearing_with_threads_leave_an_empty_table_of_the_size() {
        let mut tt = TranspositionTable::new(1);
        let mut keys = Rng::new(7);
        let stored: Vec<u64> = (0..10_000).map(|_| keys.next_u64()).collect();
        for &k in &stored {
            tt.store(k, 0, Move::NONE, 1, 1, 3, Bound::Exact);
        }
        tt.resize(20, 3).unwrap();
        assert_eq!(tt.size_mb(), 20);
        assert!(stored.iter().all(|&k| tt.probe(k, 0).is_none()));
        for &k in &stored {
            tt.store(k, 0, Move::NONE, 1, 1, 3, Bound::Exact);
        }
        assert!(stored.iter().filter(|&&k| tt.probe(k, 0).is_some()).count() > 9_000);
        tt.clear(4);
        assert!(stored.iter().all(|&k| tt.probe(k, 0).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }
}
