//! English draughts (checkers) for Homeostat: rules, PDN notation, perft, and an engine with
//! levels and live progress events, usable natively and from WebAssembly.
//!
//! Rules (`board`, `movegen`, `game`): 8×8 board, the 32 dark squares numbered 1-32 as in PDN,
//! Black moves first from 1-12. Men move and capture diagonally forward, kings one square in
//! every diagonal direction. Captures are compulsory and a capturing piece must go on while it
//! can (any sequence may be chosen); a man reaching the far row is crowned and its move ends.
//! A side with no legal move loses. Draws: threefold repetition, and 40 moves of each side
//! without a capture or a man move.
//!
//! Notation (`notation`): moves `11-15`, captures with every landing square `15x24x31`,
//! positions in PDN FEN `B:W21,22,K5:B1,2,3`, all read with errors that say what is wrong.
//!
//! The engine (`engine`) never reads a clock or spawns a thread: the caller passes a time source
//! and a stop flag, and receives [`Event`]s through a [`Reporter`].
//!
//! ```
//! use homeostat_checkers::Position;
//!
//! let pos = Position::from_fen("B:W18,26:B14").unwrap();
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["14x23x30"]);
//! ```
#![deny(missing_docs)]

mod board;
mod engine;
mod eval;
mod game;
mod level;
mod movegen;
mod notation;
mod perft;
mod report;
mod score;
mod search;

pub use board::{column_of, row_of, Bitboard, Color, Kind, Piece, Position, QUIET_PLIES_DRAW};
pub use engine::{Clock, Engine, Limits, SearchResult, DEFAULT_HASH_MB};
pub use eval::{evaluate, EvalKind};
pub use game::{Game, Outcome};
pub use level::{Level, LevelSettings};
pub use movegen::{generate, squares, Move, MAX_LANDINGS};
pub use notation::{NotationError, START_FEN};
pub use perft::{divide, perft};
pub use report::{considering_line, thousands, Event, FinishedInfo, IterationInfo, Reporter, RootMoveInfo, Silent};
pub use score::Score;
