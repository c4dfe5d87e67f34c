//! The transposition table: search results keyed by position, in 64-byte buckets of four
//! 16-byte entries, replaced by depth and age.

use crate::score::{is_mate, MATE_BOUND};
use homeostat_chess::Move;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper,
    /// The true value is at least the score (a move failed high).
    Lower,
    /// The score is exact.
    Exact,
}

/// One stored position.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bits 0-1: bound (0 = empty slot); bits 2-7: generation.
    flags: u8,
}

const ENTRIES: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
}

/// A probe's result; the score is already adjusted to the probing node's ply.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// The stored score, mate distances relative to the probing node.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth of the search that produced the score.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

impl TtHit {
    /// Whether the stored score alone settles a search in the window (`alpha`, `beta`).
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// The better of `estimate` (a static evaluation) and the stored score: the stored one when its
    /// bound points past the estimate, never a mate score.
    #[inline]
    pub fn refine(&self, estimate: i32) -> i32 {
        if is_mate(self.score) {
            return estimate;
        }
        match self.bound {
            Bound::Exact => self.score,
            Bound::Lower if self.score > estimate => self.score,
            Bound::Upper if self.score < estimate => self.score,
            _ => estimate,
        }
    }
}

/// A fixed-size hash table of search results.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

const GENERATION_STEP: u8 = 4;

impl TranspositionTable {
    /// A table using about `mb` megabytes (at least one bucket, at most 2^32 - 1: 256 GB).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).clamp(1, u32::MAX as usize);
        TranspositionTable { buckets: vec![Bucket::default(); count], generation: 0 }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GENERATION_STEP);
    }

    /// The bucket of `key`, spread evenly over any table length.
    #[inline]
    fn index(&self, key: u64) -> usize {
        scale(key, self.buckets.len() as u64) as usize
    }

    /// Asks the processor to bring `key`'s bucket into cache, so that the probe a moment later waits
    /// less for memory: the probes' cache misses were about a third of the native search's time.
    /// A hint only; nothing in wasm, which has no prefetch (an early plain load measured no gain).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.buckets[self.index(key)];
            // SAFETY: a prefetch reads nothing into the program and cannot fault.
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any; `ply` converts mate scores to this node.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = &self.buckets[self.index(key)];
        let e = bucket.entries.iter().find(|e| e.key == key && e.flags & 3 != 0)?;
        let bound = match e.flags & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(TtHit {
            mv: if e.mv == 0 { None } else { Move::from_u16(e.mv) },
            score: score_from_tt(e.score as i32, ply),
            eval: e.eval as i32,
            depth: e.depth as i32,
            bound,
        })
    }

    /// Stores a result, keeping deeper results for the same position from this search.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, ply: usize) {
        let generation = self.generation;
        let index = self.index(key);
        let bucket = &mut self.buckets[index];
        let age = |e: &Entry| (generation.wrapping_sub(e.flags & !3) / GENERATION_STEP) as i32;
        // Same key, else an empty slot, else the shallowest, oldest entry.
        let slot = match bucket.entries.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => match bucket.entries.iter().position(|e| e.flags & 3 == 0) {
                Some(i) => i,
                None => (0..ENTRIES)
                    .min_by_key(|&i| {
                        let e = &bucket.entries[i];
                        e.depth as i32 - 8 * age(e)
                    })
                    .unwrap_or(0),
            },
        };
        let old = bucket.entries[slot];
        let depth = depth.clamp(0, 255);
        if old.key == key && old.flags & 3 != 0 {
            // Keep a clearly deeper result of this search unless the new one is exact.
            if bound != Bound::Exact && age(&old) == 0 && depth + 3 < old.depth as i32 {
                return;
            }
        }
        let mv = match mv {
            Some(m) => m.to_u16(),
            None if old.key == key => old.mv,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        bucket.entries[slot] = Entry {
            key,
            mv,
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth as u8,
            flags: generation & !3 | bound_bits,
        };
    }

    /// Per-mille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            used += bucket.entries.iter().filter(|e| e.flags & 3 != 0 && e.flags & !3 == self.generation & !3).count();
        }
        (used * 1000 / (sample * ENTRIES)) as u32
    }
}

/// `key * len / 2^64`, the high half of the product, for `len < 2^32`. Two 64-bit products give
/// it exactly and cannot overflow; a `u128` product would be a call to `__multi3` in WebAssembly,
/// which has no 64x64->128 multiply (measured: 0.6% of the wasm bench, plus its stack frame).
#[inline]
fn scale(key: u64, len: u64) -> u64 {
    debug_assert!(len <= u32::MAX as u64);
    let (high, low) = (key >> 32, key & 0xFFFF_FFFF);
    (high * len + ((low * len) >> 32)) >> 32
}

/// Mate scores are stored relative to the node (distance to mate from here).
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, MATE};
    use homeostat_chess::Board;

    fn hit(score: i32, bound: Bound) -> TtHit {
        TtHit { mv: None, score, eval: 0, depth: 5, bound }
    }

    #[test]
    fn a_stored_bound_cuts_only_on_its_own_side_of_the_window() {
        assert!(hit(0, Bound::Exact).cuts(-10, 10));
        assert!(hit(10, Bound::Lower).cuts(-10, 10));
        assert!(!hit(9, Bound::Lower).cuts(-10, 10));
        assert!(hit(-10, Bound::Upper).cuts(-10, 10));
        assert!(!hit(-9, Bound::Upper).cuts(-10, 10));
        assert!(!hit(50, Bound::Upper).cuts(-10, 10));
    }

    #[test]
    fn a_stored_score_refines_an_estimate_only_where_its_bound_points_past_it() {
        assert_eq!(hit(30, Bound::Exact).refine(0), 30);
        assert_eq!(hit(-30, Bound::Exact).refine(0), -30);
        assert_eq!(hit(30, Bound::Lower).refine(0), 30);
        assert_eq!(hit(-30, Bound::Lower).refine(0), 0);
        assert_eq!(hit(-30, Bound::Upper).refine(0), -30);
        assert_eq!(hit(30, Bound::Upper).refine(0), 0);
        assert_eq!(hit(mate_in(3), Bound::Exact).refine(7), 7);
        assert_eq!(hit(-MATE + 4, Bound::Upper).refine(7), 7);
    }

    #[test]
    fn bucket_is_a_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn index_is_the_high_half_of_the_product() {
        let mut rng = crate::rng::Rng::new(7);
        for len in [1u64, 2, 3, 1000, 262_144, 16_777_215, u32::MAX as u64] {
            let edges = [0, 1, u64::MAX, u64::MAX - 1, 1 << 63, 0xFFFF_FFFF, 1 << 32];
            for key in edges.into_iter().chain((0..10_000).map(|_| rng.next_u64())) {
                assert_eq!(scale(key, len), ((key as u128 * len as u128) >> 64) as u64, "{key} {len}");
            }
        }
        let tt = TranspositionTable::new(3);
        assert!((0..1000u64).all(|i| tt.index(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) < tt.buckets.len()));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let mut tt = TranspositionTable::new(1);
        let board = Board::startpos();
        let m = board.legal_moves()[3];
        tt.store(board.hash(), Some(m), 37, 12, 5, Bound::Lower, 3);
        let hit = tt.probe(board.hash(), 7).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!((hit.score, hit.eval, hit.depth, hit.bound), (37, 12, 5, Bound::Lower));
        assert!(tt.probe(board.hash() ^ 1, 0).is_none());
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 3: mate in 2 plies from the node.
        tt.store(42, None, mate_in(5), 0, 4, Bound::Exact, 3);
        let hit = tt.probe(42, 1).unwrap();
        assert_eq!(hit.score, MATE - 3);
    }
}
