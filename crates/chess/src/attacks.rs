//! Attack sets of every piece, and the lines between squares.
//!
//! Leaper attacks are small constant tables. Slider attacks use magic bitboards whose
//! 107,648-entry table (and the between/line tables) is filled at start-up by [`init`]: the
//! statics start zeroed, so they cost no bytes in the binary or the wasm module.
//!
//! With the feature `ray-sliders` slider attacks are walked along their rays instead: slower, but
//! without the magics (3 KB of module) or the 860 KB table and its filling. The browser's rules
//! module uses it, since it generates moves for one position at a time, never for a search.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Once;

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] = leaper_table(&[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]);
static PAWN: [[u64; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// A magic entry: attacks = table[offset + ((occ & mask) * magic) >> shift].
#[cfg(not(feature = "ray-sliders"))]
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u8,
    offset: u32,
}

const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Slider attacks found by walking rays; used to fill the tables and in tests.
const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            if f < 0 || f >= 8 || r < 0 || r >= 8 {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask: the empty-board rays without their last square.
#[cfg_attr(feature = "ray-sliders", allow(dead_code))] // the magics' tests still check them
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            if nf < 0 || nf >= 8 || nr < 0 || nr >= 8 {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
        d += 1;
    }
    mask
}

#[cfg(not(feature = "ray-sliders"))]
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
#[cfg_attr(feature = "ray-sliders", allow(dead_code))] // the magics' tests still check them
const ROOK_MAGIC_NUMBERS: [u64; 64] = include!("magics_rook.in");
#[cfg_attr(feature = "ray-sliders", allow(dead_code))] // the magics' tests still check them
const BISHOP_MAGIC_NUMBERS: [u64; 64] = include!("magics_bishop.in");

#[cfg_attr(feature = "ray-sliders", allow(dead_code))] // the magics' tests still check them
const ROOK_TABLE_SIZE: u32 = 102_400;
#[cfg_attr(feature = "ray-sliders", allow(dead_code))] // the magics' tests still check them
const BISHOP_TABLE_SIZE: u32 = 5_248;
#[cfg(not(feature = "ray-sliders"))]
static ROOK_MAGICS: [Magic; 64] = magic_table(&ROOK_MAGIC_NUMBERS, &ROOK_DIRS, 0);
#[cfg(not(feature = "ray-sliders"))]
static BISHOP_MAGICS: [Magic; 64] = magic_table(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRS, ROOK_TABLE_SIZE);

#[cfg(not(feature = "ray-sliders"))]
const SLIDER_TABLE_SIZE: usize = (ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE) as usize;

/// Zeroed until [`init`]; relaxed atomics compile to plain loads and keep reads race-free.
#[cfg(not(feature = "ray-sliders"))]
static SLIDERS: [AtomicU64; SLIDER_TABLE_SIZE] = [const { AtomicU64::new(0) }; SLIDER_TABLE_SIZE];
static BETWEEN: [AtomicU64; 4096] = [const { AtomicU64::new(0) }; 4096];
static LINE: [AtomicU64; 4096] = [const { AtomicU64::new(0) }; 4096];
static INIT: Once = Once::new();

/// Builds the slider, between and line tables once; every `Board` constructor calls it.
pub fn init() {
    INIT.call_once(|| {
        #[cfg(not(feature = "ray-sliders"))]
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
        for a in 0..64 {
            for b in 0..64 {
                if a == b {
                    continue;
                }
                let (bb_a, bb_b) = (1u64 << a, 1u64 << b);
                for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                    if slide(a, 0, dirs) & bb_b != 0 {
                        let line = (slide(a, 0, dirs) & slide(b, 0, dirs)) | bb_a | bb_b;
                        LINE[a * 64 + b].store(line, Relaxed);
                        BETWEEN[a * 64 + b].store(slide(a, bb_b, dirs) & slide(b, bb_a, dirs), Relaxed);
                    }
                }
            }
        }
    });
}

#[cfg(not(feature = "ray-sliders"))]
#[inline(always)]
fn magic_lookup(m: &Magic, occ: Bitboard) -> Bitboard {
    let index = m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: the magics are verified (tests) to map every subset of the mask into the square's
    // slice, and offsets partition the table, so the index is always in bounds.
    Bitboard(unsafe { SLIDERS.get_unchecked(index) }.load(Relaxed))
}

/// Squares a rook on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    #[cfg(not(feature = "ray-sliders"))]
    return magic_lookup(&ROOK_MAGICS[sq.index()], occ);
    #[cfg(feature = "ray-sliders")]
    return Bitboard(slide(sq.index(), occ.0, &ROOK_DIRS));
}

/// Squares a bishop on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    #[cfg(not(feature = "ray-sliders"))]
    return magic_lookup(&BISHOP_MAGICS[sq.index()], occ);
    #[cfg(feature = "ray-sliders")]
    return Bitboard(slide(sq.index(), occ.0, &BISHOP_DIRS));
}

/// Squares a queen on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Squares a rook attacks from `sq` on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(slide(sq.index(), 0, &ROOK_DIRS))
}

/// Squares a bishop attacks from `sq` on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(slide(sq.index(), 0, &BISHOP_DIRS))
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()].load(Relaxed))
}

/// The whole line (edge to edge) through `a` and `b` when they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()].load(Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: a small fixed-seed generator for the magic search.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn sparse(&mut self) -> u64 {
            self.next() & self.next() & self.next()
        }
    }

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

    #[test]
    fn lookups_match_ray_walks() {
        init();
        let mut rng = Rng(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = Bitboard(rng.sparse());
                assert_eq!(rook(sq, occ).0, slide(sq.index(), occ.0, &ROOK_DIRS));
                assert_eq!(bishop(sq, occ).0, slide(sq.index(), occ.0, &BISHOP_DIRS));
            }
        }
        let (a1, h8, c3) = (Square::parse("a1").unwrap(), Square::parse("h8").unwrap(), Square::parse("c3").unwrap());
        assert_eq!(between(a1, h8).count(), 6);
        assert!(between(a1, h8).has(c3));
        assert_eq!(line(a1, c3).count(), 8);
        assert!(line(a1, Square::parse("b3").unwrap()).is_empty());
    }
}
