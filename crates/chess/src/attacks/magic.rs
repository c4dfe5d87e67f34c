//! Magic bitboards: a rook's or bishop's attacks looked up in one table by a hash of the occupied
//! squares on its rays, which [`fill`] computes at start-up by walking the rays.

use super::{ray, slide, BISHOP_DIRS, ROOK_DIRS};
use crate::bitboard::Bitboard;
use crate::types::Square;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A magic entry: attacks = table[offset + ((occ & mask) * magic) >> shift].
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u8,
    offset: u32,
}

/// The relevant-occupancy mask: the empty-board rays without their last square, the one on the edge
/// each ray leaves the board by (whether it is occupied never changes the attacks).
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let ray = ray(sq, dirs[d], 0);
        // The last square is the farthest: the highest bit on a ray up the board or east, else the lowest.
        let last = if dirs[d].1 * 8 + dirs[d].0 > 0 {
            1u64.rotate_right(ray.leading_zeros() + 1)
        } else {
            ray & ray.wrapping_neg()
        };
        mask |= ray & !last;
        d += 1;
    }
    mask
}

const fn magic_table(magics: &[u64; 64], dirs: &[(i8, i8); 4], start: u32) -> [Magic; 64] {
    let mut table = [Magic { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        table[sq] = Magic { mask, magic: magics[sq], shift: (64 - bits) as u8, offset };
        offset += 1 << bits;
        sq += 1;
    }
    table
}

// Magic multipliers found by `find_magic` (see the tests) with a fixed seed.
const ROOK_MAGIC_NUMBERS: [u64; 64] = include!("magics_rook.in");
const BISHOP_MAGIC_NUMBERS: [u64; 64] = include!("magics_bishop.in");

const ROOK_TABLE_SIZE: u32 = 102_400;
const BISHOP_TABLE_SIZE: u32 = 5_248;
static ROOK_MAGICS: [Magic; 64] = magic_table(&ROOK_MAGIC_NUMBERS, &ROOK_DIRS, 0);
static BISHOP_MAGICS: [Magic; 64] = magic_table(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRS, ROOK_TABLE_SIZE);

const SLIDER_TABLE_SIZE: usize = (ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE) as usize;

/// Zeroed until [`fill`]; relaxed atomics compile to plain loads and keep reads race-free.
static SLIDERS: [AtomicU64; SLIDER_TABLE_SIZE] = [const { AtomicU64::new(0) }; SLIDER_TABLE_SIZE];

/// Fills the table (once, from [`super::init`]).
pub(super) fn fill() {
    for (magics, dirs) in [(&ROOK_MAGICS, &ROOK_DIRS), (&BISHOP_MAGICS, &BISHOP_DIRS)] {
        for (sq, m) in magics.iter().enumerate() {
            // Enumerate every subset of the mask (Carry-Rippler).
            let mut occ = 0u64;
            loop {
                let index = m.offset as usize + (occ.wrapping_mul(m.magic) >> m.shift) as usize;
                SLIDERS[index].store(slide(sq, occ, dirs), Relaxed);
                occ = occ.wrapping_sub(m.mask) & m.mask;
                if occ == 0 {
                    break;
                }
            }
        }
    }
}

#[inline(always)]
fn lookup(m: &Magic, occ: Bitboard) -> Bitboard {
    let index = m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: the magics are verified (tests) to map every subset of the mask into the square's
    // slice, and offsets partition the table, so the index is always in bounds.
    Bitboard(unsafe { SLIDERS.get_unchecked(index) }.load(Relaxed))
}

/// Squares a rook on `sq` attacks with `occ` occupied.
#[inline(always)]
pub(super) fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    lookup(&ROOK_MAGICS[sq.index()], occ)
}

/// Squares a bishop on `sq` attacks with `occ` occupied.
#[inline(always)]
pub(super) fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    lookup(&BISHOP_MAGICS[sq.index()], occ)
}

#[cfg(test)]
mod tests {
    use super::super::tests::Rng;
    use super::*;

    /// Whether `magic` maps every occupancy subset of `mask` without a harmful collision.
    fn magic_works(sq: usize, dirs: &[(i8, i8); 4], magic: u64) -> bool {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let mut seen = vec![u64::MAX; 1 << bits];
        let mut occ = 0u64;
        loop {
            let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
            let att = slide(sq, occ, dirs);
            if seen[idx] != u64::MAX && seen[idx] != att {
                return false;
            }
            seen[idx] = att;
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                return true;
            }
        }
    }

    fn find_magic(sq: usize, dirs: &[(i8, i8); 4], rng: &mut Rng) -> u64 {
        let mask = relevant_mask(sq, dirs);
        loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            if magic_works(sq, dirs, magic) {
                return magic;
            }
        }
    }

    #[test]
    fn magics_are_valid() {
        for sq in 0..64 {
            assert!(magic_works(sq, &ROOK_DIRS, ROOK_MAGIC_NUMBERS[sq]), "rook {sq}");
            assert!(magic_works(sq, &BISHOP_DIRS, BISHOP_MAGIC_NUMBERS[sq]), "bishop {sq}");
        }
        let rook_total: u32 = (0..64).map(|s| 1 << relevant_mask(s, &ROOK_DIRS).count_ones()).sum();
        let bishop_total: u32 = (0..64).map(|s| 1 << relevant_mask(s, &BISHOP_DIRS).count_ones()).sum();
        assert_eq!((rook_total, bishop_total), (ROOK_TABLE_SIZE, BISHOP_TABLE_SIZE));
    }

    /// Regenerates the magic files: `cargo test -p homeostat-chess -- --ignored print_magics --nocapture`.
    #[test]
    #[ignore]
    fn print_magics() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            println!("[");
            for sq in 0..64 {
                println!("    {:#018x},", find_magic(sq, dirs, &mut rng));
            }
            println!("]");
        }
    }
}
