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
//! Games (`game`): a [`Game`] keeps the moves with undo and redo, knows its [`Outcome`], and
//! reads and writes PDN.
//!
//! The engine (`engine`, `search`, `eval`, `level`, `report`) never reads a clock or spawns a
//! thread: the caller passes a time source and a stop flag, and receives [`Event`]s through a
//! [`Reporter`], as with the chess engine: [`Event::RootMove`] as root moves are taken up (at most
//! about 20 a second; [`considering_line`] gives the applet's text), [`Event::Iteration`] after
//! each depth and when the best line changes, and one [`Event::Finished`]. The only legal move is
//! returned at once. With depth or node limits a search is deterministic for a given seed.
//!
//! ```
//! use homeostat_checkers::{Engine, Limits, Position, Silent};
//! use std::sync::atomic::AtomicBool;
//!
//! // White gives a man and takes two back: 23-18 14x23 27x18x11.
//! let pos = Position::from_fen("W:W22,23,27,32:B1,14,15").unwrap();
//! let stop = AtomicBool::new(false);
//! let result = Engine::new(1).search(&pos, &[], &Limits::depth(4), &|| 0.0, &stop, &mut Silent);
//! assert_eq!(result.best.unwrap().to_string(), "23-18");
//! ```
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
