//! The transposition table, shared by all search threads without locks.
//!
//! Soundness without locks: every word is an `AtomicU64` read and written with `Relaxed` ordering, so there
//! is no data race (and no `unsafe`); two threads writing one entry at once can still leave a torn entry,
//! one word from each writer. Each entry is two words, `key ^ data` and `data`; a probe accepts an entry
//! only when the two words XOR to the full 64-bit key, so a torn entry simply reads as a miss. A move read
//! from the table may still belong to another position (a key collision), so the search checks every one
//! with `Position::is_legal` before using it.
//!
//! Layout: buckets of four entries, 64 bytes, one cache line. `data` packs (low bit first): move 16, score
//! 16, static eval 16, depth 8, bound 2, pv flag 1, generation 5.

use super::Bound;
use crate::types::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

const ENTRIES: usize = 4;
/// Largest table accepted, MiB (1 TiB): bigger requests are clamped before allocating.
pub const MAX_MB: usize = 1 << 20;
const GENERATION_BITS: u32 = 5;
const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

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
    buckets: Vec<Bucket>,
    generation: u8,
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
    /// A table of about `mb` MiB (at least one bucket). If that much memory cannot be had, the largest
    /// power-of-two fraction of it that can.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut count = (mb.clamp(1, MAX_MB) << 20) / std::mem::size_of::<Bucket>();
        let mut buckets = Vec::new();
        while count > 1 && buckets.try_reserve_exact(count).is_err() {
            count /= 2;
        }
        buckets.resize_with(count.max(1), Bucket::default);
        TranspositionTable { buckets, generation: 0 }
    }

    /// Size in MiB (rounded down).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Replaces the table by an empty one of `mb` MiB.
    pub fn resize(&mut self, mb: usize) {
        *self = TranspositionTable::new(mb);
    }

    /// Empties every entry, splitting the work over the rayon pool (a big table takes a while to clear).
    pub fn clear(&mut self) {
        self.buckets.par_iter_mut().for_each(|b| {
            for w in b.words.iter_mut() {
                *w.get_mut() = 0;
            }
        });
        self.generation = 0;
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
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
            let worth = e.depth - 8 * age;
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
            if bound != Bound::Exact && same_search && depth + 4 <= o.depth {
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

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn hashfull_counts_and_clear_empties() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, None, 0, 0, 1, Bound::Exact, false);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "old entries do not count");
        tt.clear();
        assert_eq!(tt.probe(0x9E37_79B9_7F4A_7C15), None);
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn a_full_bucket_evicts_the_shallowest() {
        let tt = TranspositionTable::new(1);
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
