//! Homeostat's engine: alpha-beta search, evaluation, time management and live progress
//! events, for the native UCI binary and the WebAssembly worker alike.
//!
//! The engine never reads a clock or spawns a thread: the caller passes a time source and a
//! stop flag, and receives [`Event`]s through a [`Reporter`]. Natively the clock wraps
//! `Instant` and the search runs on a thread that another thread can stop; in the browser the
//! clock is `performance.now()` and a search is ended by its limits (or by ending the worker).
//!
//! A search reports, in order: [`Event::RootMove`] as each root move is taken up (at most about
//! 20 a second at full strength, every one at the weaker levels), [`Event::Iteration`] after
//! every completed depth and whenever the best move changes within one (with a [`ScoreBound`]
//! when an aspiration window failed), and finally one [`Event::Finished`]. [`considering_line`] turns a root-move event into the applet's text.
//!
//! With fixed depth or node limits a search is deterministic: the same position, history and
//! engine state give the same move and node count (`bench` relies on it).
//!
//! Where things live: `search` (iterative deepening, aspiration windows, PVS, pruning,
//! extensions, quiescence, draws), `movepicker` and `history` (move ordering), `see`
//! (exchange evaluation), `checks` (does a move give check), `transpositiontable`, `eval`
//! (tapered evaluation; all weights in [`eval::Weights`]), `nnue` (the neural evaluation, chosen
//! with [`Engine::set_use_nnue`]), `datagen` (self-play training data), `timemgmt` and `limits` (budgets and
//! the adaptive think-time band), `level` (playing levels 1-8), `resign` (resigning, draw
//! offers), `report` (events and their text), `book` (opening book and names), `bench`.
//!
//! ```
//! use homeostat_chess::Board;
//! use homeostat_engine::{Engine, Limits, Silent};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut engine = Engine::new(4);
//! let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let stop = AtomicBool::new(false);
//! let result = engine.search(&board, &[], &Limits::depth(4), &|| 0.0, &stop, &mut Silent);
//! assert_eq!(result.best.unwrap().to_string(), "d1d8");
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod book;
mod checks;
pub mod datagen;
mod engine;
pub mod eval;
mod history;
mod level;
mod limits;
mod movepicker;
pub mod nnue;
mod notation;
mod report;
mod resign;
pub mod rng;
mod score;
mod search;
mod see;
mod timemgmt;
mod transpositiontable;

pub use engine::{Clock, Engine, Purpose, SearchResult, DEFAULT_HASH_MB};
pub use level::{Level, LevelSettings};
pub use limits::{Adaptive, Limits, DEFAULT_MOVE_OVERHEAD_MS};
pub use report::{
    considering_line, thousands, Event, FinishedInfo, IterationInfo, Reporter, RootMoveInfo, ScoreBound, Silent,
};
pub use resign::{accepts_draw, dead_drawn_material};
pub use rng::Rng;
pub use score::Score;
