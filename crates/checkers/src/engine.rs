//! The engine: owns the tables that live across searches and runs one search per call.

use crate::board::Position;
use crate::eval::EvalKind;
use crate::level::Level;
use crate::movegen::Move;
use crate::report::{Event, FinishedInfo, Reporter};
use crate::score::{Score, MAX_PLY};
use crate::search::{SearchSetup, Searcher, Table};
use std::sync::atomic::AtomicBool;

/// A monotonic time source in milliseconds, supplied by the caller (`Instant` natively,
/// `performance.now()` in the browser); the engine never reads a clock itself.
pub type Clock<'a> = &'a dyn Fn() -> f64;

/// Default transposition-table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// What may end a search, besides the level's own limits and the stop flag.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most positions.
    pub nodes: Option<u64>,
    /// Milliseconds to think.
    pub movetime_ms: Option<f64>,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Think for `ms` milliseconds.
    pub fn movetime(ms: f64) -> Limits {
        Limits { movetime_ms: Some(ms), ..Limits::default() }
    }
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The score of `best`, side to move's view.
    pub score: Score,
    /// The last completed depth (0 for a forced move played at once).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// Whether `best` was the only legal move, played without thinking.
    pub forced: bool,
}

/// A checkers engine: transposition table, history, level, evaluation and seed.
pub struct Engine {
    table: Table,
    history: Box<[[i32; 32]; 32]>,
    level: Level,
    seed: u64,
    eval: EvalKind,
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            table: Table::new(hash_mb),
            history: Box::new([[0; 32]; 32]),
            level: Level::MAX,
            seed: 0x5EED,
            eval: EvalKind::default(),
        }
    }

    /// Forgets what was learnt (table and history).
    pub fn new_game(&mut self) {
        self.table.clear();
        *self.history = [[0; 32]; 32];
    }

    /// Sets the playing level.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The playing level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Seeds the random weighting; a new seed per game makes games differ, the same seed
    /// repeats them.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Chooses the evaluation (for matches between versions).
    pub fn set_eval(&mut self, eval: EvalKind) {
        self.eval = eval;
    }

    /// Searches `pos` and returns the move to play. `history` holds the keys
    /// ([`Position::hash`]) of the game's earlier positions, oldest first (the current one may
    /// end it), for repetition detection. The only legal move is returned at once without a
    /// search. Otherwise the search ends at the first limit reached (the caller's or the
    /// level's) or when `stop` becomes true; progress goes to `reporter`, ending with
    /// [`Event::Finished`].
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        clock: Clock<'_>,
        stop: &AtomicBool,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let moves = pos.legal_moves();
        if moves.len() <= 1 {
            let best = moves.first().copied();
            let score = Score::Cp(0);
            reporter.report(&Event::Finished(FinishedInfo { best, ponder: None, score, forced: best.is_some() }));
            return SearchResult {
                best,
                ponder: None,
                score,
                depth: 0,
                seldepth: 0,
                nodes: 0,
                elapsed_ms: 0,
                pv: best.into_iter().collect(),
                forced: best.is_some(),
            };
        }
        let settings = self.level.settings();
        let history = match history.last() {
            Some(&h) if h == pos.hash() => &history[..history.len() - 1],
            _ => history,
        };
        let max_depth = [limits.depth, settings.depth].into_iter().flatten().min().unwrap_or(MAX_PLY as u32 - 8);
        let node_limit = [limits.nodes, settings.nodes].into_iter().flatten().min();
        let setup = SearchSetup {
            table: &mut self.table,
            history: &mut self.history,
            clock,
            stop,
            reporter: &mut *reporter,
            max_depth: max_depth.min(MAX_PLY as u32 - 8),
            node_limit,
            movetime_ms: limits.movetime_ms,
            eval: self.eval,
            jitter: settings.jitter,
            seed: self.seed,
        };
        let outcome = Searcher::new(setup, history).run(pos);
        let chosen = &outcome.root_moves[0];
        let best = Some(chosen.mv);
        let pv = chosen.pv.clone();
        let ponder = pv.get(1).copied().or_else(|| self.table.best_move(&pos.after(&chosen.mv)));
        // Stopped before any move had a score: nothing is known.
        let score =
            if outcome.score <= -crate::score::INFINITY { Score::Cp(0) } else { Score::from_internal(outcome.score) };
        reporter.report(&Event::Finished(FinishedInfo { best, ponder, score, forced: false }));
        SearchResult {
            best,
            ponder,
            score,
            depth: outcome.depth,
            seldepth: outcome.seldepth,
            nodes: outcome.nodes,
            elapsed_ms: outcome.elapsed_ms.max(0.0) as u64,
            pv,
            forced: false,
        }
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}
