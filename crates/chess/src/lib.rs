//! Chess rules for Homeostat: board, move generation, FEN, SAN, PGN and game outcome.
//!
//! ```
//! use homeostat_chess::{perft, Board};
//! let board = Board::startpos();
//! assert_eq!(board.legal_moves().len(), 20);
//! assert_eq!(perft(&board, 3), 8902);
//! assert_eq!(board.hash(), 0x463b96181691fc9c);
//! ```
#![deny(missing_docs)]
// String slicing panics through core's `Debug` formatting of text, kilobytes in the page's wasm module: use `part`.
#![cfg_attr(not(test), warn(clippy::string_slice))]

pub mod annotation;
pub mod attacks;
mod bitboard;
mod board;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
pub mod pgn;
mod san;
mod types;
mod zobrist;
#[cfg(not(feature = "compact-keys"))]
mod zobrist_keys;

pub use bitboard::Bitboard;
pub use board::{Board, CastleSide, CastlingRights};
pub use fen::{FenError, STARTPOS};
pub use game::Game;
pub use moves::{Move, MoveList, PieceMoves, MAX_MOVES};
pub use notation::MoveError;
pub use outcome::{EndReason, GameResult, Outcome};
pub use perft::{perft, perft_divide, perft_full};
pub use pgn::{PgnError, PgnGame};
pub use san::SanError;
pub use types::{squares, Color, File, Piece, PieceKind, Rank, Square};

/// `text[range]`, or "" where the range does not fall between characters (callers cut only beside ASCII they found,
/// so it never does). Indexing would panic there, and its panic message formats the text with core's `Debug`, which
/// brings kilobytes of escaping and Unicode tables into the page's wasm module.
pub(crate) fn part<R: std::slice::SliceIndex<str, Output = str>>(text: &str, range: R) -> &str {
    text.get(range).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn part_cuts_only_between_characters() {
        assert_eq!(super::part("Nf3!?", 3..), "!?");
        assert_eq!(super::part("é4", ..1), "");
        assert_eq!(super::part("e4", 5..), "");
    }
}
