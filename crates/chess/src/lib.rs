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
// String slicing panics through core's `Debug` formatting of text, kilobytes in the page's wasm module: see `text`.
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
mod text;
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
