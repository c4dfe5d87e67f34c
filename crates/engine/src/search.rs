//! The alpha-beta search: iterative deepening with aspiration windows, principal variation
//! search with pruning and late-move reductions, quiescence search and draw detection.

use crate::checks;
use crate::eval::{self, Evaluator};
use crate::history::{self, History, PieceTo};
use crate::movepicker::{self, MoveBuffer, MovePicker};
use crate::notation;
use crate::report::{Event, IterationInfo, Reporter, RootMoveInfo, ScoreBound};
use crate::score::{is_mate, mate_in, mated_in, Score, DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::see;
use crate::timemgmt::{self, Budget};
use crate::transpositiontable::{Bound, TranspositionTable, TtHit};
use homeostat_chess::{Board, Move, Piece};
use std::sync::atomic::{AtomicBool, Ordering};

/// Depths that always finish, whatever the clock says (a few milliseconds at most).
const MIN_DEPTH: u32 = 2;

/// Node cap when there is only one legal move.
const ONLY_MOVE_NODES: u64 = 5_000;

/// Milliseconds between two root-move events at full strength (about 20 a second).
pub const ROOT_REPORT_INTERVAL_MS: f64 = 50.0;

/// The search's margins, depth limits and reduction constants, in one place for tuning.
///
/// Margins are centipawns; "depth" is remaining depth in plies. The defaults are the values
/// the engine was tuned with; `bench` depends on every one of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// First half-width of the aspiration window (grows by half each failure).
    pub aspiration_delta: i32,
    /// The window opens fully once its half-width passes this.
    pub aspiration_max: i32,
    /// Late-move reduction table: `lmr_base + ln(depth) * ln(moves) / lmr_divisor`.
    pub lmr_base: f64,
    /// Divisor of the late-move reduction table (larger: smaller reductions).
    pub lmr_divisor: f64,
    /// Late moves are reduced from this depth on.
    pub lmr_depth: i32,
    /// History score worth one ply less (or more) reduction of a quiet move.
    pub lmr_history_divisor: i32,
    /// Reverse futility pruning applies up to this depth...
    pub rfp_depth: i32,
    /// ...when the eval beats beta by this much a ply (one ply less when improving).
    pub rfp_margin: i32,
    /// Razoring applies up to this depth...
    pub razor_depth: i32,
    /// ...when the eval plus this...
    pub razor_base: i32,
    /// ...plus this a ply is still below alpha.
    pub razor_margin: i32,
    /// Null-move pruning from this depth on.
    pub nmp_depth: i32,
    /// Null-move reduction: this base...
    pub nmp_base: i32,
    /// ...plus depth divided by this...
    pub nmp_depth_divisor: i32,
    /// ...plus one ply per this much the eval beats beta...
    pub nmp_eval_divisor: i32,
    /// ...at most this many.
    pub nmp_eval_max: i32,
    /// Internal iterative reduction (no hash move) from this depth on.
    pub iir_depth: i32,
    /// Singular extensions from this depth on...
    pub se_depth: i32,
    /// ...when the hash entry is at most this much shallower...
    pub se_tt_depth_margin: i32,
    /// ...testing the other moves against the hash score minus this a ply.
    pub se_margin_per_depth: i32,
    /// Late-move pruning up to this depth, after `(lmp_base + depth²)` quiets (half when not improving).
    pub lmp_depth: i32,
    /// Base of the late-move pruning count.
    pub lmp_base: i32,
    /// Futility pruning of quiets up to this reduced depth...
    pub fp_depth: i32,
    /// ...when the eval plus this...
    pub fp_base: i32,
    /// ...plus this a ply cannot reach alpha.
    pub fp_margin: i32,
    /// Quiets with bad history are pruned up to this reduced depth...
    pub hp_depth: i32,
    /// ...when their history is below minus this a ply.
    pub hp_margin: i32,
    /// Quiets losing more than this times the reduced depth squared (SEE) are pruned, up to `fp_depth`.
    pub see_quiet_margin: i32,
    /// Captures are SEE-pruned up to this depth...
    pub see_capture_depth: i32,
    /// ...when they lose more than this a ply.
    pub see_capture_margin: i32,
    /// Quiescence delta pruning: a capture whose gain plus this cannot reach alpha is skipped.
    pub qs_delta: i32,
    /// ProbCut from this depth on...
    pub probcut_depth: i32,
    /// ...for captures clearing beta by this much...
    pub probcut_margin: i32,
    /// ...in a search this many plies shallower.
    pub probcut_reduction: i32,
}

impl SearchParams {
    /// The tuned values.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_delta: 18,
        aspiration_max: 800,
        lmr_base: 0.8,
        lmr_divisor: 2.3,
        lmr_depth: 3,
        lmr_history_divisor: 6000,
        rfp_depth: 8,
        rfp_margin: 80,
        razor_depth: 3,
        razor_base: 200,
        razor_margin: 150,
        nmp_depth: 3,
        nmp_base: 3,
        nmp_depth_divisor: 4,
        nmp_eval_divisor: 200,
        nmp_eval_max: 3,
        iir_depth: 4,
        se_depth: 7,
        se_tt_depth_margin: 3,
        se_margin_per_depth: 2,
        lmp_depth: 8,
        lmp_base: 3,
        fp_depth: 8,
        fp_base: 100,
        fp_margin: 90,
        hp_depth: 3,
        hp_margin: 2000,
        see_quiet_margin: 25,
        see_capture_depth: 8,
        see_capture_margin: 90,
        qs_delta: 200,
        probcut_depth: 5,
        probcut_margin: 200,
        probcut_reduction: 5,
    };
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

/// The search's parameters (a constant today; a struct so a tuner can vary them).
const PARAMS: SearchParams = SearchParams::DEFAULT;

/// Late-move reductions by depth and move number, computed once.
pub struct Reductions {
    table: Vec<[i32; 64]>,
}

impl Reductions {
    /// The table `lmr_base + ln(depth) * ln(moves) / lmr_divisor`, rounded down.
    pub fn new() -> Reductions {
        let mut table = vec![[0i32; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (PARAMS.lmr_base + (d as f64).ln() * (m as f64).ln() / PARAMS.lmr_divisor) as i32;
            }
        }
        Reductions { table }
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][moves.min(63)]
    }
}

impl Default for Reductions {
    fn default() -> Reductions {
        Reductions::new()
    }
}

/// A root move and what the search learnt about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The move in SAN.
    pub san: String,
    /// Legal replies after it.
    pub replies: usize,
    /// Score in the current iteration (`-INFINITY` when only known to be worse than the best).
    pub score: i32,
    /// Score in the last completed iteration.
    pub completed: i32,
    /// Score in the depth-1 iteration, if known exactly.
    pub shallow: Option<i32>,
    /// Nodes spent below this move.
    pub nodes: u64,
    /// The line starting with this move, when it was best.
    pub pv: Vec<Move>,
}

/// Everything a search needs from its owner.
pub struct SearchSetup<'a> {
    /// The transposition table.
    pub tt: &'a mut TranspositionTable,
    /// Move-ordering history.
    pub history: &'a mut History,
    /// The reduction table.
    pub reductions: &'a Reductions,
    /// Monotonic milliseconds.
    pub clock: &'a dyn Fn() -> f64,
    /// Set from outside to stop the search.
    pub stop: &'a AtomicBool,
    /// Receives progress events.
    pub reporter: &'a mut dyn Reporter,
    /// Time budget.
    pub budget: Budget,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node cap.
    pub node_limit: Option<u64>,
    /// No new iteration after this many nodes.
    pub soft_node_limit: Option<u64>,
    /// Stop at a mate in at most this many moves.
    pub mate_limit: Option<u32>,
    /// Also find exact scores for root moves within this margin of the best (levels).
    pub multi_margin: Option<i32>,
    /// Only these root moves (empty: all).
    pub searchmoves: &'a [Move],
    /// The static evaluator (with its pawn cache).
    pub evaluator: &'a mut Evaluator,
    /// Least milliseconds between two root-move events (0: report every root move).
    pub root_report_interval_ms: f64,
    /// Lines to find (MultiPV): each iteration searches line `k` without the `k - 1` better moves.
    pub multipv: usize,
}

/// The result of [`Searcher::run`].
pub struct Outcome {
    /// Root moves, best first.
    pub root_moves: Vec<RootMove>,
    /// The best move's score (internal units).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: f64,
}

#[derive(Clone, Copy)]
struct Frame {
    eval: i32,
    killers: [Option<Move>; 2],
    moved: Option<PieceTo>,
    plies_from_null: u32,
    /// A move to leave out (singular-extension verification searches).
    excluded: Option<Move>,
}

const EMPTY_FRAME: Frame =
    Frame { eval: -INFINITY, killers: [None; 2], moved: None, plies_from_null: 0, excluded: None };

/// The moves a node searched without a cutoff, which lose history when a later move cuts. One per
/// ply, kept by the searcher: filling fresh arrays at every node cost about 1 % of the wasm build's
/// instructions. A node writes only its own ply's; its singular search runs before its move loop.
#[derive(Clone, Copy)]
struct Tried {
    quiets: [Option<(Move, PieceTo)>; 64],
    captures: [Option<(PieceTo, homeostat_chess::PieceKind)>; 32],
}

const EMPTY_TRIED: Tried = Tried { quiets: [None; 64], captures: [None; 32] };

/// One search from one root position.
pub struct Searcher<'a> {
    tt: &'a mut TranspositionTable,
    history: &'a mut History,
    reductions: &'a Reductions,
    clock: &'a dyn Fn() -> f64,
    stop: &'a AtomicBool,
    reporter: &'a mut dyn Reporter,
    budget: Budget,
    max_depth: u32,
    node_limit: Option<u64>,
    soft_node_limit: Option<u64>,
    mate_limit: Option<u32>,
    multi_margin: Option<i32>,
    multipv: usize,
    start_ms: f64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root: Board,
    hashes: Vec<u64>,
    root_index: usize,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    root_moves: Vec<RootMove>,
    root_depth: i32,
    lists: Vec<MoveBuffer>,
    tried: Vec<Tried>,
    evaluator: &'a mut Evaluator,
    last_root_report_ms: f64,
    root_report_interval_ms: f64,
    best_so_far: Option<(Move, i32)>,
}

impl<'a> Searcher<'a> {
    /// Prepares a search of `root`; `history` holds the keys of earlier game positions.
    pub fn new(setup: SearchSetup<'a>, root: &Board, history: &[u64]) -> Searcher<'a> {
        let start_ms = (setup.clock)();
        let mut hashes: Vec<u64> = history.to_vec();
        if hashes.last() == Some(&root.hash()) {
            hashes.pop();
        }
        let root_index = hashes.len();
        hashes.push(root.hash());
        hashes.reserve(MAX_PLY + 8);
        let mut stack = vec![EMPTY_FRAME; MAX_PLY + 8];
        stack[0].plies_from_null = u32::MAX / 2;
        let mut root_moves = order_root_moves(root);
        if setup.searchmoves.iter().any(|m| root_moves.iter().any(|rm| rm.mv == *m)) {
            root_moves.retain(|rm| setup.searchmoves.contains(&rm.mv));
        }
        // A forced move is played at once: a tiny search only to give it a score.
        let node_limit = if root_moves.len() == 1 {
            Some(setup.node_limit.unwrap_or(ONLY_MOVE_NODES).min(ONLY_MOVE_NODES))
        } else {
            setup.node_limit
        };
        let budget = if root_moves.len() == 1 { Budget { min_ms: 0.0, ..setup.budget } } else { setup.budget };
        Searcher {
            tt: setup.tt,
            history: setup.history,
            reductions: setup.reductions,
            clock: setup.clock,
            stop: setup.stop,
            reporter: setup.reporter,
            budget,
            max_depth: setup.max_depth.clamp(1, MAX_PLY as u32 - 8),
            node_limit,
            soft_node_limit: setup.soft_node_limit,
            mate_limit: setup.mate_limit,
            multi_margin: setup.multi_margin,
            multipv: setup.multipv.max(1),
            start_ms,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root: *root,
            hashes,
            root_index,
            stack,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            root_moves,
            root_depth: 0,
            evaluator: setup.evaluator,
            lists: vec![movepicker::new_buffer(); MAX_PLY + 2],
            tried: vec![EMPTY_TRIED; MAX_PLY + 2],
            last_root_report_ms: f64::NEG_INFINITY,
            root_report_interval_ms: setup.root_report_interval_ms,
            best_so_far: None,
        }
    }

    fn elapsed_ms(&self) -> f64 {
        (self.clock)() - self.start_ms
    }

    /// Iterative deepening until a limit is reached; root moves come back best first.
    pub fn run(mut self) -> Outcome {
        let mut score = -INFINITY;
        let mut completed = 0;
        let mut seldepth = 0;
        let mut stable = 0;
        let mut last_best: Option<Move> = None;
        let mut last_score = 0;

        if self.root_moves.is_empty() {
            score = if self.root.in_check() { mated_in(0) } else { DRAW };
        }
        self.evaluator.set_root(&self.root);
        let root_eval = self.evaluator.evaluate_at(&self.root, 0);
        self.stack[0].eval = if self.root.in_check() { -INFINITY } else { root_eval };
        if let Some(rm) = self.root_moves.first() {
            self.best_so_far = Some((rm.mv, root_eval));
        }

        let mut depth = 1;
        while !self.root_moves.is_empty() && depth <= self.max_depth {
            self.seldepth = 0;
            let value = self.aspiration(depth, score, 0);
            // Further lines: each leaves out the moves of the lines before it.
            let lines = self.multipv.min(self.root_moves.len());
            for line in 1..lines {
                if self.stopped {
                    break;
                }
                let previous = self.root_moves[line].completed;
                self.aspiration(depth, previous, line);
            }
            if lines > 1 && !self.stopped {
                // A later line may have scored above an earlier one: show them best first.
                sort_best_first(&mut self.root_moves[..lines]);
            }
            if self.stopped {
                // A partial iteration still counts if it found a better move.
                if let Some(rm) = self.root_moves.first() {
                    if rm.score > -INFINITY && completed > 0 {
                        score = rm.score;
                    }
                }
                break;
            }
            score = if lines > 1 { self.root_moves[0].score } else { value };
            completed = depth;
            seldepth = self.seldepth.max(seldepth);
            for rm in &mut self.root_moves {
                rm.completed = rm.score;
                if depth == 1 && rm.score > -INFINITY {
                    rm.shallow = Some(rm.score);
                }
            }
            if lines > 1 {
                for line in 0..lines {
                    self.report_multipv(depth, line);
                }
            } else {
                self.report_iteration(depth, score, ScoreBound::Exact);
            }

            let best = self.root_moves[0].mv;
            stable = if last_best == Some(best) { stable + 1 } else { 0 };
            last_best = Some(best);
            let drop = last_score - score;
            last_score = score;

            if let Some(moves) = self.mate_limit {
                if score >= MATE_BOUND && (MATE - score + 1) / 2 <= moves as i32 {
                    break;
                }
            }
            if self.soft_node_limit.is_some_and(|soft| self.nodes >= soft) {
                break;
            }
            let elapsed = self.elapsed_ms();
            if elapsed >= self.budget.min_ms && depth >= MIN_DEPTH {
                if is_mate(score) && depth as i32 >= MATE - score.abs() + 4 {
                    break;
                }
                if let Some(soft) = self.budget.soft_ms {
                    let fraction = self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64;
                    if elapsed >= soft * timemgmt::soft_scale(stable, fraction, drop) {
                        break;
                    }
                }
            }
            depth += 1;
        }
        if !self.stopped && completed > 0 && self.root_report_interval_ms > 0.0 {
            // The search ended on its own: the live line shows where it ended, with the final figures, rather
            // than the last line the report interval let through (in a short search, its first root move).
            // Without an interval every root move was reported, in the order the page paces them.
            self.send_root_move(0, completed as i32, self.root_moves[0].mv, score);
        }
        if score == -INFINITY {
            // Stopped before the first iteration finished: fall back to what is known.
            score = self.root_moves.first().map_or(DRAW, |rm| if rm.score > -INFINITY { rm.score } else { root_eval });
        }
        let elapsed_ms = self.elapsed_ms();
        Outcome {
            root_moves: self.root_moves,
            score,
            depth: completed,
            seldepth: seldepth as u32,
            nodes: self.nodes,
            elapsed_ms,
        }
    }

    /// One iteration, starting with a narrow window around the last score and widening it.
    /// `first` is the MultiPV line: the root moves before it are left out.
    fn aspiration(&mut self, depth: u32, previous: i32, first: usize) -> i32 {
        let mut delta = PARAMS.aspiration_delta;
        let narrow = depth >= 4 && self.multi_margin.is_none() && !is_mate(previous) && previous > -INFINITY;
        let (mut alpha, mut beta) = if narrow {
            ((previous - delta).max(-INFINITY), (previous + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root_search(depth as i32, alpha, beta, first);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                if first == 0 {
                    self.report_iteration(depth, score, ScoreBound::Upper);
                }
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                if first == 0 {
                    self.report_iteration(depth, score, ScoreBound::Lower);
                }
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > PARAMS.aspiration_max {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Searches the root moves from `first` on (the earlier ones are better MultiPV lines).
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, first: usize) -> i32 {
        let root = self.root;
        let us = root.side_to_move();
        let mut best = -INFINITY;
        self.root_depth = depth;
        for rm in &mut self.root_moves[first..] {
            rm.score = -INFINITY;
        }
        self.stack[1].killers = [None; 2];
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            // Counted within this line, so line 1 reports and reduces as a single-line search.
            let n = i - first;
            if first == 0 {
                self.report_root_move(i, depth);
            }
            let quiet = !root.is_capture(m) && m.promotion().is_none();
            let piece = root.kind_on(m.from()).map(|k| PieceTo::new(Piece::new(us, k), m));
            let mut child = root.duplicate();
            self.enter(&mut child, &root, m, 0, piece);
            let nodes_before = self.nodes;
            let new_depth = depth - 1;
            let floor = match self.multi_margin {
                Some(margin) if best > -INFINITY => (best - margin).min(alpha),
                _ => alpha,
            };

            let score = if self.root_moves[i].replies == 0 {
                // Mate or stalemate at once: no need to search (and quiescence would miss it).
                // The line ends here, not with a previous move's replies.
                self.pv_len[1] = 0;
                if child.in_check() {
                    mate_in(1)
                } else {
                    DRAW
                }
            } else if n == 0 {
                -self.negamax(&child, -beta, -alpha, new_depth, 1, false)
            } else {
                let mut r = 0;
                if depth >= PARAMS.lmr_depth && quiet && n >= 3 && !child.in_check() {
                    r = (self.reductions.get(depth, n + 1) - 1).clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.negamax(&child, -floor - 1, -floor, new_depth - r, 1, true);
                if s > floor && r > 0 {
                    s = -self.negamax(&child, -floor - 1, -floor, new_depth, 1, false);
                }
                if s > floor && s < beta {
                    s = -self.negamax(&child, -beta, -floor, new_depth, 1, false);
                }
                s
            };
            self.hashes.pop();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if n == 0 || score > floor {
                self.root_moves[i].score = score;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                let mut line = vec![m];
                line.extend(self.pv[1][..self.pv_len[1]].iter().flatten());
                self.root_moves[i].pv = line;
                if first == 0 {
                    self.best_so_far = Some((m, score));
                }
                if score >= beta {
                    break;
                }
                if n > 0 && depth > 1 && first == 0 {
                    // The best move changed: show the new line at once.
                    let line = self.root_moves[i].pv.clone();
                    self.report_line(depth as u32, score, ScoreBound::Exact, &line, 1);
                }
            }
        }
        // Best first; moves only known to be worse keep their order.
        sort_best_first(&mut self.root_moves[first..]);
        best
    }

    /// Checks the node, time and stop limits; sets `stopped` when one is reached.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(limit) = self.node_limit {
            if self.nodes >= limit {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 255 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(hard) = self.budget.hard_ms {
                // Never play a move without having looked at the replies.
                if self.root_depth > MIN_DEPTH as i32 && self.elapsed_ms() >= hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Whether the position at `ply` is drawn by rule: fifty moves, dead material, repetition.
    fn is_draw(&self, board: &Board, ply: usize) -> bool {
        if board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_moves()) {
            return true;
        }
        if eval::is_insufficient(board) {
            return true;
        }
        let hash = board.hash();
        let n = self.hashes.len();
        let limit = (board.halfmove_clock().min(self.stack[ply].plies_from_null)) as usize;
        let mut earlier = 0;
        let mut distance = 4;
        while distance <= limit && distance < n {
            let index = n - 1 - distance;
            if self.hashes[index] == hash {
                // Twofold inside the search tree, threefold with the game's history.
                if index > self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            distance += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        self.pv[ply][0] = Some(m);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &Board,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        let in_check = board.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(board, alpha, beta, ply);
        }
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if self.is_draw(board, ply) {
            return DRAW;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check { DRAW } else { self.evaluator.evaluate_at(board, ply) };
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let hash = board.hash();
        let excluded = self.stack[ply].excluded;
        let tt = if excluded.is_some() { None } else { self.tt.probe(hash, ply) };
        let tt_move = tt.and_then(|h| h.mv).filter(|&m| board.is_legal(m));
        if let Some(hit) = tt {
            if !pv_node && hit.depth >= depth && board.halfmove_clock() < 90 && hit.cuts(alpha, beta) {
                return hit.score;
            }
        }

        let (raw_eval, static_eval) = if in_check { (-INFINITY, -INFINITY) } else { self.static_evals(board, tt, ply) };
        // The stored score is a better estimate when its bound points the right way.
        let eval = match tt {
            Some(hit) if !in_check => hit.refine(static_eval),
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [None; 2];
        let us = board.side_to_move();
        let has_pieces = !board.only_king_and_pawns(us);

        if !pv_node && !in_check && !is_mate(beta) && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            if depth <= PARAMS.rfp_depth
                && eval - PARAMS.rfp_margin * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
            {
                return (eval + beta) / 2;
            }
            // Razoring: hopelessly below alpha; see whether captures save it.
            if depth <= PARAMS.razor_depth && eval + PARAMS.razor_base + PARAMS.razor_margin * depth <= alpha {
                let v = self.qsearch(board, alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
            // Null move: if passing still beats beta, a real move will too (not in pawn endings).
            if depth >= PARAMS.nmp_depth && eval >= beta && has_pieces && self.stack[ply - 1].moved.is_some() {
                if let Some(child) = board.null_move() {
                    self.tt.prefetch(child.hash());
                    let r = PARAMS.nmp_base
                        + depth / PARAMS.nmp_depth_divisor
                        + ((eval - beta) / PARAMS.nmp_eval_divisor).min(PARAMS.nmp_eval_max);
                    self.stack[ply].moved = None;
                    self.stack[ply + 1].plies_from_null = 0;
                    self.evaluator.push_null(ply + 1);
                    self.hashes.push(child.hash());
                    let v = -self.negamax(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                    self.hashes.pop();
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
            // ProbCut: a capture that clears beta by a margin in quiescence and in a much shallower
            // search would almost surely clear beta at full depth too.
            let pc_beta = beta + PARAMS.probcut_margin;
            if depth >= PARAMS.probcut_depth
                && !is_mate(pc_beta)
                && !tt.is_some_and(|h| h.depth >= depth - 3 && h.score < pc_beta)
            {
                if let Some((m, v)) = self.probcut(board, tt_move, pc_beta, pc_beta - static_eval, depth, ply) {
                    if self.stopped {
                        return 0;
                    }
                    let stored_depth = depth - PARAMS.probcut_reduction + 1;
                    self.tt.store(hash, Some(m), v, raw_eval, stored_depth, Bound::Lower, ply);
                    return v;
                }
            }
        }
        // Internal iterative reduction: without a hash move this node is probably not critical.
        if depth >= PARAMS.iir_depth && tt_move.is_none() && (pv_node || cut_node) && excluded.is_none() {
            depth -= 1;
        }

        // Singular extension: if every other move falls well short of the hash move's score,
        // the hash move is forced and worth a deeper look; if several beat beta, cut at once.
        let mut tt_extension = 0;
        if let (Some(hit), Some(ttm)) = (tt, tt_move) {
            if depth >= PARAMS.se_depth
                && hit.depth >= depth - PARAMS.se_tt_depth_margin
                && hit.bound != Bound::Upper
                && !is_mate(hit.score)
                && (ply as i32) < 2 * self.root_depth
            {
                let singular_beta = hit.score - PARAMS.se_margin_per_depth * depth;
                self.stack[ply].excluded = Some(ttm);
                let v = self.negamax(board, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    tt_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if hit.score >= beta {
                    tt_extension = -1;
                }
            }
        }

        let prev = self.stack[ply - 1].moved;
        let prev2 = if ply >= 2 { self.stack[ply - 2].moved } else { None };
        let counter = prev.and_then(|p| self.history.counter(p));
        let mut picker = MovePicker::new(tt_move, self.stack[ply].killers, counter, [prev, prev2]);
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiet_count = 0;
        let mut capture_count = 0;
        let lmp_limit = (PARAMS.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some(m) = picker.next(board, self.history, &mut self.lists[ply]) {
            if Some(m) == excluded {
                continue;
            }
            let Some(kind) = board.kind_on(m.from()) else { continue };
            let captured = board.captured_kind(m);
            let quiet = captured.is_none() && m.promotion().is_none();
            let pt = PieceTo::new(Piece::new(us, kind), m);
            let hist = if quiet { self.history.quiet_total(us.index(), m, pt, [prev, prev2]) } else { 0 };

            if best_score > -MATE_BOUND && has_pieces {
                let lmr_depth = (depth - 1 - self.reductions.get(depth, searched + 1)).max(0);
                if quiet {
                    // Which pruning applies, if any (`Some(true)`: this and the later quiets); a checking
                    // move is never pruned, and whether it checks is asked only of moves that would be.
                    let prune = if (!pv_node && !in_check && depth <= PARAMS.lmp_depth && searched >= lmp_limit)
                        || (!in_check
                            && lmr_depth <= PARAMS.fp_depth
                            && !is_mate(alpha)
                            && eval + PARAMS.fp_base + PARAMS.fp_margin * lmr_depth <= alpha)
                    {
                        Some(true)
                    } else if (lmr_depth <= PARAMS.hp_depth && hist < -PARAMS.hp_margin * depth)
                        || (lmr_depth <= PARAMS.fp_depth
                            && !see::see_ge(board, m, -PARAMS.see_quiet_margin * lmr_depth * lmr_depth))
                    {
                        Some(false)
                    } else {
                        None
                    };
                    if let Some(rest) = prune {
                        if !checks::gives_check(board, m) {
                            picker.skip_quiets |= rest;
                            continue;
                        }
                    }
                } else if depth <= PARAMS.see_capture_depth
                    && !see::see_ge(board, m, -PARAMS.see_capture_margin * depth)
                {
                    continue;
                }
            }

            let mut child = board.duplicate();
            self.enter(&mut child, board, m, ply, Some(pt));
            let gives_check = child.in_check();
            searched += 1;
            let new_depth = depth - 1 + if Some(m) == tt_move { tt_extension } else { 0 };

            let score = if searched == 1 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node)
            } else {
                let mut r = 0;
                if depth >= PARAMS.lmr_depth && searched > 1 + pv_node as usize {
                    if quiet {
                        r = self.reductions.get(depth, searched);
                        r += !improving as i32;
                        r += cut_node as i32;
                        r -= pv_node as i32;
                        r -= gives_check as i32;
                        r -= (Some(m) == self.stack[ply].killers[0] || Some(m) == self.stack[ply].killers[1]) as i32;
                        r -= hist / PARAMS.lmr_history_divisor;
                    } else {
                        r = self.reductions.get(depth, searched) / 2 - pv_node as i32;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            self.hashes.pop();
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.reward(ply, depth, m, pt, captured, quiet_count, capture_count);
                        break;
                    }
                    alpha = score;
                }
            }
            let tried = &mut self.tried[ply];
            if quiet {
                if quiet_count < tried.quiets.len() {
                    tried.quiets[quiet_count] = Some((m, pt));
                    quiet_count += 1;
                }
            } else if let Some(victim) = captured {
                if capture_count < tried.captures.len() {
                    tried.captures[capture_count] = Some((pt, victim));
                    capture_count += 1;
                }
            }
        }

        if searched == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The evaluation's error, learnt where the search's score is trustworthy in that direction and no
        // capture or promotion explains the difference.
        let quiet_best = best_move.is_none_or(|m| !board.is_capture(m) && m.promotion().is_none());
        let contradicts = match bound {
            Bound::Lower => best_score <= static_eval,
            Bound::Upper => best_score >= static_eval,
            Bound::Exact => false,
        };
        if !in_check && quiet_best && !is_mate(best_score) && !contradicts {
            self.history.update_correction(board, raw_eval, best_score, depth);
        }
        self.tt.store(hash, best_move.or(tt_move), best_score, raw_eval, depth, bound, ply);
        best_score
    }

    /// Plays `m` (moving `moved`) from `board` at `ply` on `child`, a copy of `board`, with the evaluator,
    /// the search stack and the repetition history following it. The caller pops `hashes` when done.
    /// The caller makes the copy: a board returned by value left wasm a 192-byte `memory.copy`, a call
    /// out of the compiled code, for every move made.
    #[inline]
    fn enter(&mut self, child: &mut Board, board: &Board, m: Move, ply: usize, moved: Option<PieceTo>) {
        child.play(m);
        self.tt.prefetch(child.hash());
        self.evaluator.push_move(ply + 1, board, m);
        self.stack[ply].moved = moved;
        self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null.saturating_add(1);
        self.hashes.push(child.hash());
    }

    /// The static evaluation of `board`, side to move's view: as the evaluator gives it (the table's copy
    /// when it has one; the table keeps this one), and as the correction history corrects it.
    #[inline]
    fn static_evals(&mut self, board: &Board, tt: Option<TtHit>, ply: usize) -> (i32, i32) {
        let raw = match tt {
            Some(hit) if hit.eval.abs() < MATE_BOUND => hit.eval,
            _ => self.evaluator.evaluate_at(board, ply),
        };
        (raw, self.history.corrected_eval(board, raw))
    }

    /// ProbCut's captures that win at least `threshold` (SEE): the first whose quiescence and reduced
    /// searches both reach `pc_beta`, with its score, or the one searched when the search stopped;
    /// `None` when none does.
    fn probcut(
        &mut self,
        board: &Board,
        tt_move: Option<Move>,
        pc_beta: i32,
        threshold: i32,
        depth: i32,
        ply: usize,
    ) -> Option<(Move, i32)> {
        let us = board.side_to_move();
        let reduced = depth - PARAMS.probcut_reduction;
        let mut picker = MovePicker::new_quiescence(board, tt_move);
        while let Some(m) = picker.next(board, self.history, &mut self.lists[ply]) {
            if !see::see_ge(board, m, threshold) {
                continue;
            }
            let Some(kind) = board.kind_on(m.from()) else { continue };
            let mut child = board.duplicate();
            self.enter(&mut child, board, m, ply, Some(PieceTo::new(Piece::new(us, kind), m)));
            let mut v = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
            if v >= pc_beta && reduced > 0 {
                v = -self.negamax(&child, -pc_beta, -pc_beta + 1, reduced, ply + 1, true);
            }
            self.hashes.pop();
            if self.stopped || v >= pc_beta {
                return Some((m, v));
            }
        }
        None
    }

    /// History updates after move `m` caused a beta cutoff.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        ply: usize,
        depth: i32,
        m: Move,
        pt: PieceTo,
        captured: Option<homeostat_chess::PieceKind>,
        quiets: usize,
        captures: usize,
    ) {
        let tried = &self.tried[ply];
        let bonus = history::bonus(depth);
        let side = self.root.side_to_move().index() ^ (ply & 1);
        let conts = [self.stack[ply - 1].moved, if ply >= 2 { self.stack[ply - 2].moved } else { None }];
        if captured.is_none() && m.promotion().is_none() {
            self.history.update_quiet(side, m, pt, &conts, bonus);
            for &(q, qpt) in tried.quiets[..quiets].iter().flatten() {
                self.history.update_quiet(side, q, qpt, &conts, -bonus);
            }
            let killers = &mut self.stack[ply].killers;
            if killers[0] != Some(m) {
                killers[1] = killers[0];
                killers[0] = Some(m);
            }
            if let Some(p) = conts[0] {
                self.history.set_counter(p, m);
            }
        } else if let Some(victim) = captured {
            self.history.update_capture(pt, victim, bonus);
        }
        for &(cpt, victim) in tried.captures[..captures].iter().flatten() {
            self.history.update_capture(cpt, victim, -bonus);
        }
    }

    fn qsearch(&mut self, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = board.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { DRAW } else { self.evaluator.evaluate_at(board, ply) };
        }
        if eval::is_insufficient(board) {
            return DRAW;
        }
        let pv_node = beta - alpha > 1;
        let hash = board.hash();
        let tt = self.tt.probe(hash, ply);
        if let Some(hit) = tt {
            if !pv_node && hit.cuts(alpha, beta) {
                return hit.score;
            }
        }
        let tt_move = tt.and_then(|h| h.mv).filter(|&m| board.is_legal(m));

        let raw_eval;
        let mut best_score;
        if in_check {
            raw_eval = -INFINITY;
            best_score = -INFINITY;
        } else {
            (raw_eval, best_score) = self.static_evals(board, tt, ply);
            if let Some(hit) = tt {
                best_score = hit.refine(best_score);
            }
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let mut picker = if in_check {
            MovePicker::new(tt_move, [None; 2], None, [None; 2])
        } else {
            MovePicker::new_quiescence(board, tt_move)
        };
        let stand_pat = best_score;
        let mut best_move = None;
        let mut searched = 0;
        while let Some(m) = picker.next(board, self.history, &mut self.lists[ply]) {
            if !in_check {
                // Delta pruning: even winning the piece cannot reach alpha.
                let gain = board.captured_kind(m).map_or(0, see::value);
                if m.promotion().is_none() && stand_pat + gain + PARAMS.qs_delta <= alpha {
                    continue;
                }
                if Some(m) == tt_move && !see::see_ge(board, m, 0) {
                    continue;
                }
            }
            let mut child = board.duplicate();
            child.play(m);
            self.tt.prefetch(child.hash());
            self.evaluator.push_move(ply + 1, board, m);
            searched += 1;
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(hash, best_move, best_score, raw_eval, 0, bound, ply);
        best_score
    }

    fn report_root_move(&mut self, index: usize, depth: i32) {
        let now = self.elapsed_ms();
        if now - self.last_root_report_ms < self.root_report_interval_ms {
            return;
        }
        self.last_root_report_ms = now;
        if let Some((best, best_value)) = self.best_so_far {
            self.send_root_move(index, depth, best, best_value);
        }
    }

    /// Reports root move `index` as the one being searched, with `best` (scored `best_value`) the best so far.
    fn send_root_move(&mut self, index: usize, depth: i32, best: Move, best_value: i32) {
        let rm = &self.root_moves[index];
        let best_score = Score::from_internal(best_value);
        let info = RootMoveInfo {
            mv: rm.mv,
            mv_san: rm.san.clone(),
            mv_uci: rm.mv.to_string(),
            index: index + 1,
            count: self.root_moves.len(),
            replies: rm.replies,
            depth: depth as u32,
            nodes: self.nodes,
            best_san: notation::san(&self.root, best),
            best,
            best_score,
            best_score_white: best_score.for_white(self.root.side_to_move()),
        };
        self.reporter.report(&Event::RootMove(info));
    }

    fn report_iteration(&mut self, depth: u32, score: i32, bound: ScoreBound) {
        let pv = self.root_moves.first().map(|rm| rm.pv.clone()).unwrap_or_default();
        let pv = if pv.is_empty() { self.root_moves.first().map(|rm| vec![rm.mv]).unwrap_or_default() } else { pv };
        self.report_line(depth, score, bound, &pv, 1);
    }

    /// Reports MultiPV line `index` (from 0) of a completed iteration.
    fn report_multipv(&mut self, depth: u32, index: usize) {
        let rm = &self.root_moves[index];
        let pv = if rm.pv.first() == Some(&rm.mv) { rm.pv.clone() } else { vec![rm.mv] };
        let score = rm.completed;
        self.report_line(depth, score, ScoreBound::Exact, &pv, index + 1);
    }

    fn report_line(&mut self, depth: u32, value: i32, bound: ScoreBound, pv: &[Move], multipv: usize) {
        let elapsed = self.elapsed_ms().max(0.0);
        let score = Score::from_internal(value);
        let info = IterationInfo {
            depth,
            seldepth: self.seldepth.max(depth as usize) as u32,
            score,
            score_white: score.for_white(self.root.side_to_move()),
            bound,
            nodes: self.nodes,
            nps: (self.nodes as f64 * 1000.0 / elapsed.max(1.0)) as u64,
            elapsed_ms: elapsed as u64,
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
            pv_san: notation::line_san(&self.root, pv),
            pv_uci: pv.iter().map(|m| m.to_string()).collect(),
            multipv,
        };
        self.reporter.report(&Event::Iteration(info));
    }
}

/// Sorts root moves by this iteration's score, best first; ties keep their order.
fn sort_best_first(moves: &mut [RootMove]) {
    moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
}

/// The root moves with SAN and reply counts, ordered by a cheap guess (winning captures first).
fn order_root_moves(root: &Board) -> Vec<RootMove> {
    let mut moves: Vec<(i32, RootMove)> = root
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *root;
            child.play(m);
            let mut replies = 0;
            child.generate_moves(|pm| {
                replies += pm.len();
                false
            });
            let guess = if child.in_check() { 50 } else { 0 }
                + root.captured_kind(m).map_or(0, see::value)
                + m.promotion().map_or(0, see::value)
                - if see::see_ge(root, m, 0) { 0 } else { 1000 }
                - eval::evaluate(&child) / 4;
            let rm = RootMove {
                mv: m,
                san: notation::san(root, m),
                replies,
                score: -INFINITY,
                completed: -INFINITY,
                shallow: None,
                nodes: 0,
                pv: Vec::new(),
            };
            (guess, rm)
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    moves.into_iter().map(|(_, rm)| rm).collect()
}
