//! Attack sets of every piece, and the lines between squares.
//!
//! Leaper attacks are small constant tables. Slider attacks use magic bitboards (`magic`), whose
//! 107,648-entry table (and the between/line tables) is filled at start-up by [`init`]: the
//! statics start zeroed, so they cost no bytes in the binary or the wasm module.
//!
//! With the feature `ray-sliders` slider attacks are walked along their rays instead: slower, but
//! without the magics (3 KB of module) or the 860 KB table and its filling. The browser's rules
//! module uses it, since it generates moves for one position at a time, never for a search.

#[cfg(not(feature = "ray-sliders"))]
mod magic;

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

const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The squares from `sq` along direction `dir` (file and rank steps) up to the board's edge or the
/// first occupied square, which is included.
const fn ray(sq: usize, dir: (i8, i8), occ: u64) -> u64 {
    let mut squares = 0;
    let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
    loop {
        f += dir.0;
        r += dir.1;
        if f < 0 || f >= 8 || r < 0 || r >= 8 {
            return squares;
        }
        let bit = 1u64 << (r * 8 + f);
        squares |= bit;
        if occ & bit != 0 {
            return squares;
        }
    }
}

/// Slider attacks found by walking rays: the attacks themselves with `ray-sliders`, else what fills
/// the magic table; and the tests' reference.
const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        attacks |= ray(sq, dirs[d], occ);
        d += 1;
    }
    attacks
}

static BETWEEN: [AtomicU64; 4096] = [const { AtomicU64::new(0) }; 4096];
static LINE: [AtomicU64; 4096] = [const { AtomicU64::new(0) }; 4096];
static INIT: Once = Once::new();

/// Builds the slider, between and line tables once; every `Board` constructor calls it.
pub fn init() {
    INIT.call_once(|| {
        #[cfg(not(feature = "ray-sliders"))]
        magic::fill();
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

/// Squares a rook on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    #[cfg(not(feature = "ray-sliders"))]
    return magic::rook(sq, occ);
    #[cfg(feature = "ray-sliders")]
    return Bitboard(slide(sq.index(), occ.0, &ROOK_DIRS));
}

/// Squares a bishop on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    #[cfg(not(feature = "ray-sliders"))]
    return magic::bishop(sq, occ);
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

    /// xorshift64*: a small fixed-seed generator (also the magic search's).
    pub(super) struct Rng(pub(super) u64);
    impl Rng {
        pub(super) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        pub(super) fn sparse(&mut self) -> u64 {
            self.next() & self.next() & self.next()
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
