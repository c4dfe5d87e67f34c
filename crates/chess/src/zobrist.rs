//! Zobrist keys in the Polyglot layout, so position keys match Polyglot opening books.
//!
//! With the feature `compact-keys` the 781 numbers are not Polyglot's table (6 KB that does not
//! compress) but SplitMix64's output for their index: the browser's rules module uses it, since its
//! keys only ever meet keys of the same build (repetitions, its opening book's index).

use crate::types::{Color, File, PieceKind, Square};
#[cfg(not(feature = "compact-keys"))]
use crate::zobrist_keys::POLYGLOT_RANDOM;

/// Random number `i` of the 781: Polyglot's.
#[cfg(not(feature = "compact-keys"))]
#[inline(always)]
const fn random(i: usize) -> u64 {
    POLYGLOT_RANDOM[i]
}

/// Random number `i` of the 781: SplitMix64's finaliser of `i`, a bijection, so all differ.
#[cfg(feature = "compact-keys")]
#[inline(always)]
const fn random(i: usize) -> u64 {
    let mut z = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a `color` `kind` on `sq`.
#[inline(always)]
pub(crate) fn piece(color: Color, kind: PieceKind, sq: Square) -> u64 {
    // Polyglot orders pieces black pawn, white pawn, black knight, ...
    let polyglot_kind = 2 * kind.index() + (color == Color::White) as usize;
    random(64 * polyglot_kind + sq.index())
}

const fn castling_table() -> [u64; 16] {
    let mut table = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                table[rights] ^= random(768 + bit);
            }
            bit += 1;
        }
        rights += 1;
    }
    table
}

static CASTLING: [u64; 16] = castling_table();

/// The key of a set of castling rights (bits: white short, white long, black short, black long).
#[inline(always)]
pub(crate) fn castling(rights: u8) -> u64 {
    CASTLING[rights as usize & 15]
}

/// The key of an en passant capture possible on `file`.
#[inline(always)]
pub(crate) fn en_passant(file: File) -> u64 {
    random(772 + file.index())
}

/// The key added when White is to move.
#[inline(always)]
pub(crate) fn white_to_move() -> u64 {
    random(780)
}

#[cfg(all(test, feature = "compact-keys"))]
mod tests {
    /// The compact keys are 781 different numbers, none zero, with about half their bits set.
    #[test]
    fn compact_keys_differ_and_look_random() {
        let mut keys: Vec<u64> = (0..781).map(super::random).collect();
        let ones: u32 = keys.iter().map(|k| k.count_ones()).sum();
        assert!((ones as f64 / (781.0 * 64.0) - 0.5).abs() < 0.01, "{ones}");
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 781);
        assert!(keys[0] != 0);
    }
}
