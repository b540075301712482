//! The transposition table, shared by all search threads without locks.
//!
//! Soundness without locks: every word is an `AtomicU64` read and written with `Relaxed` ordering, so there
//! is no data race (the only `unsafe` is in allocating the memory, `tt_memory`); two threads writing one entry at once can still leave a torn entry,
//! one word from each writer. Each entry is two words, `key ^ data` and `data`; a probe accepts an entry
//! only when the two words XOR to the full 64-bit key, so a torn entry simply reads as a miss. A move read
//! from the table may still belong to another position (a key collision), so the search checks every one
//! with `Position::is_legal` before using it.
//!
//! Layout: buckets of four entries, 64 bytes, one cache line. `data` packs (low bit first): move 16, score
//! 16, static eval 16, depth 8, bound 2, pv flag 1, generation 5.
//!
//! Memory: the buckets live in zeroed memory the OS maps lazily (`tt_memory`), so making even a huge table
//! is instant, and a table no search has used needs no clearing. The size is capped to the machine's
//! memory by [`tt_size`].
//!
//! [`tt_size`]: super::tt_size

use super::tt_memory::{Bucket, Buckets, ENTRIES};
use super::tt_size::{self, SizeLimit, TableSize};
use super::Bound;
use crate::types::Move;
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// Tables up to this size are cleared by writing zeros (their pages are mapped already, and it takes
/// milliseconds); larger ones are replaced by fresh zeroed memory, so pages the search never touched are
/// not written just to be emptied.
const CLEAR_IN_PLACE_BYTES: usize = 64 << 20;
const GENERATION_BITS: u32 = 5;
const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;

/// Replacement: each search an entry has outlived counts as this many plies less depth, so an old deep
/// entry gives way after a few searches instead of holding its slot for the rest of the game.
const AGE_PENALTY_PLIES: i32 = 8;

/// A bound from the same search does not overwrite an entry at least this much deeper: the deeper result
/// is worth more than the fresher, shallower one, and within one search it is not stale.
const KEEP_DEEPER_PLIES: i32 = 4;

/// A copy of one table entry, as the search reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtData {
    /// Best or refuting move, not yet checked for legality.
    pub mv: Option<Move>,
    /// Score as stored (mate scores relative to the entry's node: see [`score_to_tt`]).
    pub score: i32,
    /// Static evaluation of the position, or `EVAL_NONE`.
    pub eval: i32,
    /// Depth the score was searched to (0 = quiescence).
    pub depth: i32,
    /// Which side of the window the score is.
    pub bound: Bound,
    /// Whether the node was on a principal variation.
    pub pv: bool,
}

/// The shared hash table.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: u8,
    /// A search has begun since the memory was zeroed, so entries may have been written.
    used: bool,
    size: TableSize,
}

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Upper => 1,
        Bound::Lower => 2,
        Bound::Exact => 3,
    }
}

fn unpack(data: u64) -> Option<TtData> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtData {
        mv: Move::from_u16(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32,
        bound,
        pv: (data >> 58) & 1 != 0,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> 59) as u8 & GENERATION_MASK
}

impl TranspositionTable {
    /// An empty table of `mb` MiB, or less when the machine cannot hold that much (see
    /// [`tt_size::plan`]; [`TranspositionTable::size`] says what was used and why). Never less than one
    /// bucket.
    pub fn new(mb: usize) -> TranspositionTable {
        let (planned_mb, mut limit) = tt_size::plan(mb, crate::memory::mem_info());
        let mut count = ((planned_mb << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = loop {
            match Buckets::zeroed(count) {
                Some(b) => break b,
                None if count > 1 => {
                    count /= 2;
                    limit = SizeLimit::Allocation;
                }
                // Not even one bucket: the process is out of memory, and the allocator's handler says so.
                None => break Buckets::zeroed_or_abort(1),
            }
        };
        let used_mb = (count * std::mem::size_of::<Bucket>()) >> 20;
        let size = TableSize { asked_mb: mb.max(1), used_mb, limit };
        TranspositionTable { buckets, generation: 0, used: false, size }
    }

    /// Size in MiB (rounded down).
    pub fn size_mb(&self) -> usize {
        self.size.used_mb
    }

    /// The size asked for, the size in use and why they differ.
    pub fn size(&self) -> TableSize {
        self.size
    }

    /// Replaces the table by an empty one of `mb` MiB (or less: see [`TranspositionTable::new`]).
    pub fn resize(&mut self, mb: usize) {
        // Free the old table first: its memory counts towards what the new one may use.
        self.buckets = Buckets::empty();
        *self = TranspositionTable::new(mb);
    }

    /// Empties every entry. A table no search has used since it was zeroed is left alone; a big one gets
    /// fresh zeroed memory (its old pages are given back, none is written); a small one, or a big one when
    /// no fresh memory can be had, is zeroed in place, split over the rayon pool.
    pub fn clear(&mut self) {
        self.generation = 0;
        if !self.used {
            return;
        }
        self.used = false;
        let bytes = self.buckets.len() * std::mem::size_of::<Bucket>();
        if bytes > CLEAR_IN_PLACE_BYTES {
            if let Some(fresh) = Buckets::zeroed(self.buckets.len()) {
                self.buckets = fresh;
                return;
            }
        }
        let clear = |chunk: &mut [Bucket]| {
            for b in chunk {
                for w in b.words.iter_mut() {
                    *w.get_mut() = 0;
                }
            }
        };
        if cfg!(any(target_arch = "wasm32", miri)) {
            // No threads in a browser worker, and rayon's fallback pool reads std's clock, which panics
            // there. Under Miri (scripts/miri.sh) rayon's idle workers spin, instruction by instruction:
            // one clear of a 1 MiB table took over half an hour.
            self.buckets.chunks_mut(1024).for_each(clear);
        } else {
            self.buckets.par_chunks_mut(1024).for_each(clear);
        }
    }

    /// Starts a new search: entries of older searches become preferred victims. Every search must start
    /// with this (it is also how the table knows it is no longer empty).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
        self.used = true;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the bucket count without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `key` into the cache, so the probe after the move finds it there.
    ///
    /// Measured reason for the `unsafe` block: on the depth-16 bench (4.94 M nodes, one thread) the search
    /// took 2.60 s with the prefetch instruction, 2.71 s without any prefetch, and 2.89 s with a safe
    /// stand-in (a relaxed load kept alive by `black_box`, which stalls until the line arrives).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; it never faults or reads into the program, and the pointer is to
        // a live bucket anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(self.bucket(key)
                as *const Bucket
                as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtData> {
        let bucket = self.bucket(key);
        for i in 0..ENTRIES {
            let data = bucket.words[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket.words[2 * i].load(Ordering::Relaxed);
            if check ^ data == key {
                if let Some(d) = unpack(data) {
                    return Some(d);
                }
            }
        }
        None
    }

    /// Stores a search result for `key`. An entry for the same key keeps its move when `mv` is `None`, and
    /// keeps its deeper result unless the new one is exact or not much shallower. Otherwise the victim is the
    /// entry with the least depth, counting each search of age as eight plies less.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old: Option<TtData> = None;
        for i in 0..ENTRIES {
            let data = bucket.words[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket.words[2 * i].load(Ordering::Relaxed);
            let entry = unpack(data);
            if check ^ data == key && entry.is_some() {
                victim = i;
                old = entry;
                break;
            }
            let Some(e) = entry else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            let age = (self.generation.wrapping_sub(generation_of(data)) & GENERATION_MASK) as i32;
            let worth = e.depth - AGE_PENALTY_PLIES * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let mut mv = mv;
        if let Some(o) = old {
            if mv.is_none() {
                mv = o.mv;
            }
            let same_search =
                generation_of(bucket.words[2 * victim + 1].load(Ordering::Relaxed)) == self.generation;
            if bound != Bound::Exact && same_search && depth + KEEP_DEEPER_PLIES <= o.depth {
                // Keep the deeper result, but remember a newly found move for ordering.
                if mv != o.mv {
                    let data = pack(mv, o.score, o.eval, o.depth, o.bound, o.pv, self.generation);
                    write(bucket, victim, key, data);
                }
                return;
            }
        }
        let data = pack(mv, score, eval, depth, bound, pv, self.generation);
        write(bucket, victim, key, data);
    }

    /// Fill per mille: the share of the first thousand entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let buckets = self.buckets.len().min(1000 / ENTRIES);
        let mut used = 0;
        for b in &self.buckets[..buckets] {
            for i in 0..ENTRIES {
                let data = b.words[2 * i + 1].load(Ordering::Relaxed);
                if unpack(data).is_some() && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (buckets * ENTRIES)) as u32
    }
}

#[inline(always)]
fn write(bucket: &Bucket, i: usize, key: u64, data: u64) {
    bucket.words[2 * i + 1].store(data, Ordering::Relaxed);
    bucket.words[2 * i].store(key ^ data, Ordering::Relaxed);
}

#[inline(always)]
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, generation: u8) -> u64 {
    let m = mv.map_or(0, Move::to_u16) as u64;
    let s = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let e = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | bound_bits(bound) << 56 | (pv as u64) << 58 | (generation as u64) << 59
}

/// Converts a score at `ply` for storing: mate scores become relative to this node, so the entry is right
/// wherever in the tree the position comes up again.
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= super::MATE_BOUND {
        score + ply as i32
    } else if score <= -super::MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= super::MATE_BOUND {
        score - ply as i32
    } else if score <= -super::MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use crate::types::Square;

    fn mv(a: u8, b: u8) -> Move {
        Move::new(Square::from_index(a), Square::from_index(b))
    }

    /// A 1 MiB table, or under Miri (scripts/miri.sh) one of 64 buckets: Miri tracks every byte of an
    /// allocation, and the tests that store, clear or race threads over a whole MiB ran past ten minutes
    /// there. The code under test is the same whatever the bucket count.
    fn small_table() -> TranspositionTable {
        if cfg!(miri) {
            let size = TableSize { asked_mb: 1, used_mb: 0, limit: SizeLimit::Fits };
            TranspositionTable { buckets: Buckets::zeroed_or_abort(64), generation: 0, used: false, size }
        } else {
            TranspositionTable::new(1)
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = small_table();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key), None);
        tt.store(key, Some(mv(1, 10)), -517, 33, 7, Bound::Lower, true);
        let d = tt.probe(key).expect("stored");
        assert_eq!(
            d,
            TtData { mv: Some(mv(1, 10)), score: -517, eval: 33, depth: 7, bound: Bound::Lower, pv: true }
        );
        assert_eq!(tt.probe(key ^ 1), None);
    }

    #[test]
    fn same_key_keeps_move_and_deeper_result() {
        let tt = small_table();
        let key = 42;
        tt.store(key, Some(mv(3, 12)), 100, 0, 10, Bound::Lower, false);
        tt.store(key, None, 50, 0, 2, Bound::Upper, false);
        let d = tt.probe(key).expect("stored");
        assert_eq!((d.mv, d.depth, d.score), (Some(mv(3, 12)), 10, 100));
        tt.store(key, None, 60, 0, 9, Bound::Upper, false);
        let d = tt.probe(key).expect("stored");
        assert_eq!((d.mv, d.depth, d.score, d.bound), (Some(mv(3, 12)), 9, 60, Bound::Upper));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mate_in_5_from_root = MATE - 5;
        let stored = score_to_tt(mate_in_5_from_root, 3);
        assert_eq!(stored, MATE - 2);
        assert_eq!(score_from_tt(stored, 1), MATE - 3);
        assert_eq!(score_from_tt(score_to_tt(-MATE + 8, 4), 4), -MATE + 8);
        assert_eq!(score_to_tt(123, 9), 123);
    }

    /// Several threads storing and probing the same few buckets at once, as the search's threads do: a
    /// probe returns either nothing or exactly one entry some thread stored, never a mix of two (a torn
    /// entry). Run under Miri (scripts/miri.sh), whose weak-memory emulation tries reorderings that the
    /// hardware rarely shows.
    #[test]
    fn threads_storing_one_bucket_at_once_never_read_a_torn_entry() {
        let tt = small_table();
        let rounds = if cfg!(miri) { 40 } else { 20_000 };
        // Keys of one bucket (same low bits) and one key written by every thread with its own data.
        let keys: Vec<u64> = (0..6u64).map(|i| (i << 40) | 7).collect();
        std::thread::scope(|s| {
            for t in 0..3u8 {
                let (tt, keys) = (&tt, &keys);
                s.spawn(move || {
                    for r in 0..rounds {
                        let key = keys[(r + t as usize) % keys.len()];
                        let depth = (key >> 40) as i32 * 10 + t as i32;
                        tt.store(key, Some(mv(t, t + 9)), depth, -depth, depth, Bound::Exact, false);
                        for &k in keys {
                            if let Some(d) = tt.probe(k) {
                                let writer = (d.depth % 10) as u8;
                                assert_eq!(d.depth / 10, (k >> 40) as i32, "{d:?} under key {k:x}");
                                assert!(writer < 3, "{d:?}");
                                assert_eq!(d.mv, Some(mv(writer, writer + 9)), "{d:?}");
                                assert_eq!((d.score, d.eval), (d.depth, -d.depth), "{d:?}");
                            }
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn hashfull_counts_and_clear_empties() {
        let mut tt = small_table();
        let size = tt.size();
        assert_eq!(tt.hashfull(), 0);
        // Four stores per entry of the table fill most of it.
        let stores = 4 * (tt.buckets.len() * ENTRIES) as u64;
        for k in 0..stores {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, None, 0, 0, 1, Bound::Exact, false);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "old entries do not count");
        tt.clear();
        assert_eq!(tt.probe(0x9E37_79B9_7F4A_7C15), None);
        assert_eq!(tt.size(), size);
    }

    #[test]
    #[cfg_attr(miri, ignore = "hundreds of MiB: hours under Miri; tt_memory's tests cover the same code")]
    fn a_big_table_is_cleared_with_fresh_memory_and_an_unused_one_not_at_all() {
        let mut tt = TranspositionTable::new(2 * (CLEAR_IN_PLACE_BYTES >> 20));
        let size = tt.size();
        tt.clear();
        assert!(!tt.used);
        tt.new_search();
        tt.store(77, None, 5, 0, 3, Bound::Exact, false);
        assert!(tt.probe(77).is_some());
        tt.clear();
        assert_eq!(tt.probe(77), None);
        assert_eq!(tt.size(), size);
    }

    #[test]
    fn the_size_says_what_was_asked_and_used() {
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.size(), TableSize { asked_mb: 3, used_mb: 3, limit: SizeLimit::Fits });
        let mut tt = TranspositionTable::new(0);
        assert_eq!((tt.size().asked_mb, tt.size_mb()), (1, 1));
        tt.resize(2);
        assert_eq!(tt.size_mb(), 2);
    }

    #[test]
    fn a_full_bucket_evicts_the_shallowest() {
        let tt = small_table();
        // Keys that share a bucket: same high bits of key * len.
        let n = tt.buckets.len() as u128;
        let keys: Vec<u64> = (0u64..)
            .map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D))
            .filter(|&k| (k as u128 * n) >> 64 == 0)
            .take(5)
            .collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, None, 0, 0, 10 + i as i32, Bound::Exact, false);
        }
        tt.store(keys[4], None, 0, 0, 1, Bound::Exact, false);
        assert_eq!(tt.probe(keys[0]), None, "depth 10 was the shallowest");
        assert!(tt.probe(keys[4]).is_some());
        assert!(tt.probe(keys[3]).is_some());
    }
}
