//! The engine: owns the tables that live across searches and runs one search per call.

use crate::eval::Evaluator;
use crate::history::History;
use crate::level::{self, Candidate, Level};
use crate::limits::Limits;
use crate::nnue::Network;
use crate::report::{Event, FinishedInfo, Reporter, Silent};
use crate::resign::{self, DrawOffers, ResignTracker};
use crate::rng::Rng;
use crate::score::{Score, INFINITY, MAX_PLY};
use crate::search::{Reductions, SearchSetup, Searcher, ROOT_REPORT_INTERVAL_MS};
use crate::timemgmt::TimeManager;
use crate::transpositiontable::TranspositionTable;
use homeostat_chess::{Board, Color, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A monotonic time source in milliseconds, supplied by the caller (`Instant` natively,
/// `performance.now()` in the browser); the engine never reads a clock itself.
pub type Clock<'a> = &'a dyn Fn() -> f64;

/// Default transposition-table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// Why a search is made. Only the engine's own moves change what it keeps about the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// The engine's move in its game: updates the resignation streak, may offer a draw, feeds
    /// the adaptive think-time average, and weaker levels choose with their randomness.
    #[default]
    Play,
    /// Advice for someone else (a hint, analysis, judging a draw offer): the best move within the
    /// level's depth and node caps, and nothing about the game changes (resignation streak, draw
    /// offers, time average, random sequence).
    Analyse,
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
    /// The last completed depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// Whether the engine resigns (hopeless for several moves, or mated by force).
    pub resign: bool,
    /// Whether the engine offers a draw with its move (a dead-drawn position; see `DrawOffers`).
    pub offer_draw: bool,
}

/// A chess engine: transposition table, histories, level and state kept between moves.
pub struct Engine {
    tt: TranspositionTable,
    history: History,
    reductions: Reductions,
    time: TimeManager,
    resign: ResignTracker,
    draws: DrawOffers,
    purpose: Purpose,
    level: Level,
    rng: Rng,
    hash_mb: usize,
    evaluator: Evaluator,
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            history: History::new(),
            reductions: Reductions::new(),
            time: TimeManager::new(),
            resign: ResignTracker::new(),
            draws: DrawOffers::new(),
            purpose: Purpose::Play,
            level: Level::MAX,
            rng: Rng::new(0x5EED),
            hash_mb: hash_mb.max(1),
            evaluator: Evaluator::new(),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb.max(1);
        self.tt = TranspositionTable::new(self.hash_mb);
    }

    /// The transposition-table size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt (table, histories, time average, resign streak, draw offers).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.time.reset();
        self.resign.reset();
        self.draws.reset();
    }

    /// Sets why the next searches are made (see [`Purpose`]; [`Purpose::Play`] until changed).
    pub fn set_purpose(&mut self, purpose: Purpose) {
        self.purpose = purpose;
    }

    /// Why searches are made now.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// Sets the playing level (see [`Level`]).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The playing level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Evaluates with the built-in neural network (true) or the hand-crafted evaluation;
    /// returns whether the network is in use.
    pub fn set_use_nnue(&mut self, on: bool) -> bool {
        if on != self.evaluator.uses_nnue() {
            self.evaluator.set_nnue(on);
        }
        self.evaluator.uses_nnue()
    }

    /// Evaluates with `network` rather than the built-in net when the network is in use
    /// (`None`: the built-in net); a development aid for trying trained nets.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.evaluator.set_network(network);
    }

    /// Seeds the random choices of the weaker levels.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// The running average think time in adaptive mode, if any.
    pub fn average_think_ms(&self) -> Option<f64> {
        self.time.average_ms()
    }

    /// Searches `board` and returns the move to play. `history` holds the keys
    /// ([`Board::hash`]) of the game's earlier positions, oldest first, for repetition
    /// detection. The search ends at the first limit reached or when `stop` becomes true;
    /// progress goes to `reporter`, ending with [`Event::Finished`].
    pub fn search(
        &mut self,
        board: &Board,
        history: &[u64],
        limits: &Limits,
        clock: Clock<'_>,
        stop: &AtomicBool,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let settings = self.level.settings();
        let budget = self.time.budget(limits, board.side_to_move());
        let max_depth = [limits.depth, settings.depth].into_iter().flatten().min().unwrap_or(MAX_PLY as u32);
        let node_limit = [limits.nodes, settings.nodes].into_iter().flatten().min();
        let multi_margin = (!self.level.is_full()).then_some(settings.margin_cp);
        self.tt.new_search();

        let setup = SearchSetup {
            tt: &mut self.tt,
            history: &mut self.history,
            reductions: &self.reductions,
            clock,
            stop,
            reporter: &mut *reporter,
            budget,
            max_depth,
            node_limit,
            soft_node_limit: limits.soft_nodes,
            mate_limit: limits.mate,
            multi_margin,
            searchmoves: &limits.searchmoves,
            evaluator: &mut self.evaluator,
            // Weaker levels search for milliseconds: every root move is shown, so the page can
            // pace them over the level's think time.
            root_report_interval_ms: if self.level.is_full() { ROOT_REPORT_INTERVAL_MS } else { 0.0 },
            multipv: limits.multipv,
        };
        let outcome = Searcher::new(setup, board, history).run();

        let mut value = outcome.score;
        let mut chosen = outcome.root_moves.first();
        let play = self.purpose == Purpose::Play;
        if play && !self.level.is_full() && outcome.root_moves.len() > 1 {
            let mut ranked: Vec<_> = outcome.root_moves.iter().collect();
            ranked.sort_by_key(|rm| std::cmp::Reverse(rm.completed));
            let candidates: Vec<Candidate> = ranked
                .iter()
                .map(|rm| Candidate { score: (rm.completed > -INFINITY).then_some(rm.completed), shallow: rm.shallow })
                .collect();
            let i = level::choose(&candidates, &settings, &mut self.rng);
            if i > 0 {
                chosen = Some(ranked[i]);
                value = ranked[i].completed;
            }
        }

        let best = chosen.map(|rm| rm.mv);
        let mut pv = chosen.map(|rm| rm.pv.clone()).unwrap_or_default();
        if pv.first() != best.as_ref() {
            pv = best.into_iter().collect();
        }
        let ponder = pv.get(1).copied().or_else(|| best.and_then(|m| self.guess_reply(board, m)));
        let score = Score::from_internal(value);
        let decides = play && !limits.infinite;
        let resign = decides && self.resign.update(score);
        let offer_draw = decides && !resign && best.is_some() && self.draws.update(board, score);
        if play {
            self.time.record(limits, outcome.elapsed_ms);
        }

        reporter.report(&Event::Finished(FinishedInfo { best, ponder, score, resign }));
        SearchResult {
            best,
            ponder,
            score,
            depth: outcome.depth,
            seldepth: outcome.seldepth,
            nodes: outcome.nodes,
            elapsed_ms: outcome.elapsed_ms.max(0.0) as u64,
            pv,
            resign,
            offer_draw,
        }
    }

    /// Whether the engine, playing `side`, accepts a draw offered in `board` (after the game's
    /// earlier positions `history`): a short search whose score is read from the engine's side,
    /// whoever is to move, judged by [`resign::accepts_draw`]. It is analysis: nothing the engine
    /// keeps about the game changes. Refused when the side to move has no legal move.
    pub fn accepts_draw_offer(
        &mut self,
        board: &Board,
        history: &[u64],
        side: Color,
        clock: Clock<'_>,
        stop: &AtomicBool,
    ) -> bool {
        if !board.has_legal_moves() {
            return false;
        }
        let limits = Limits { depth: Some(8), movetime_ms: Some(300), ..Limits::default() };
        let purpose = std::mem::replace(&mut self.purpose, Purpose::Analyse);
        let result = self.search(board, history, &limits, clock, stop, &mut Silent);
        self.purpose = purpose;
        let score = if board.side_to_move() == side { result.score } else { result.score.flip() };
        resign::accepts_draw(score, board.fullmove_number())
    }

    /// The table's move for the position after `m`, if it is legal there.
    fn guess_reply(&self, board: &Board, m: Move) -> Option<Move> {
        let mut child = *board;
        child.play(m);
        self.tt.probe(child.hash(), 0)?.mv.filter(|&r| child.is_legal(r))
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}
