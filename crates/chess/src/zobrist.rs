//! Zobrist keys in the Polyglot layout, so position keys match Polyglot opening books.

use crate::types::{Color, File, PieceKind, Square};
use crate::zobrist_keys::POLYGLOT_RANDOM;

/// The key of a `color` `kind` on `sq`.
#[inline(always)]
pub(crate) fn piece(color: Color, kind: PieceKind, sq: Square) -> u64 {
    // Polyglot orders pieces black pawn, white pawn, black knight, ...
    let polyglot_kind = 2 * kind.index() + (color == Color::White) as usize;
    POLYGLOT_RANDOM[64 * polyglot_kind + sq.index()]
}

const fn castling_table() -> [u64; 16] {
    let mut table = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                table[rights] ^= POLYGLOT_RANDOM[768 + bit];
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
    POLYGLOT_RANDOM[772 + file.index()]
}

/// The key added when White is to move.
#[inline(always)]
pub(crate) fn white_to_move() -> u64 {
    POLYGLOT_RANDOM[780]
}
