//! The search: iterative deepening over the root moves, alpha-beta with principal-variation
//! windows and a transposition table. In place of a quiescence search a capture at the horizon
//! is always played out (capture extension), and a move that is the only legal one does not
//! count towards the depth (the applet's forced-move deepening).

use crate::board::Position;
use crate::eval::{evaluate, EvalKind};
use crate::movegen::{generate, Move};
use crate::report::{Event, IterationInfo, Reporter, RootMoveInfo};
use crate::score::{Score, INFINITY, MAX_PLY, WIN, WIN_BOUND};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a stored score bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One transposition-table slot.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    score: i32,
    depth: i16,
    bound: Bound,
    /// Index of the best move in generation order, plus one (0: none).
    mv: u8,
}

/// A transposition table of `2^k` slots, always replaced.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
}

impl Table {
    /// A table of about `mb` megabytes.
    pub(crate) fn new(mb: usize) -> Table {
        let want = mb.max(1) * 1024 * 1024 / std::mem::size_of::<Option<Entry>>();
        let size = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Table { slots: vec![None; size] }
    }

    pub(crate) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.index(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry) {
        let i = self.index(entry.key);
        self.slots[i] = Some(entry);
    }

    /// The stored best move for `pos`, if any.
    pub(crate) fn best_move(&self, pos: &Position) -> Option<Move> {
        let e = self.probe(pos.hash())?;
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        e.mv.checked_sub(1).and_then(|i| moves.get(i as usize).copied())
    }
}

/// Win scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A root move and what the search knows of it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move>,
    /// Legal replies after the move (for the progress line).
    replies: usize,
}

/// Everything one search needs.
pub(crate) struct SearchSetup<'a> {
    pub(crate) table: &'a mut Table,
    pub(crate) history: &'a mut [[i32; 32]; 32],
    pub(crate) clock: &'a dyn Fn() -> f64,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) reporter: &'a mut dyn Reporter,
    pub(crate) max_depth: u32,
    pub(crate) node_limit: Option<u64>,
    pub(crate) movetime_ms: Option<f64>,
    pub(crate) eval: EvalKind,
    pub(crate) jitter: i32,
    pub(crate) seed: u64,
}

/// What a search found.
pub(crate) struct Outcome {
    pub(crate) root_moves: Vec<RootMove>,
    pub(crate) score: i32,
    pub(crate) depth: u32,
    pub(crate) seldepth: u32,
    pub(crate) nodes: u64,
    pub(crate) elapsed_ms: f64,
}

/// One search in progress.
pub(crate) struct Searcher<'a> {
    s: SearchSetup<'a>,
    /// Keys of the game's earlier positions and of the current search path.
    keys: Vec<u64>,
    pv: Vec<Vec<Move>>,
    /// Two quiet moves per ply that last caused a cut-off there.
    killers: Vec<[Option<Move>; 2]>,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    start_ms: f64,
    last_report_ms: f64,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(setup: SearchSetup<'a>, history: &[u64]) -> Searcher<'a> {
        let start_ms = (setup.clock)();
        Searcher {
            s: setup,
            keys: history.to_vec(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            killers: vec![[None; 2]; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            aborted: false,
            start_ms,
            last_report_ms: f64::NEG_INFINITY,
        }
    }

    fn elapsed(&self) -> f64 {
        (self.s.clock)() - self.start_ms
    }

    /// Checks the stop flag, node limit and time, now and then.
    fn check_abort(&mut self) {
        let out_of_time = || self.nodes.is_multiple_of(1024) && self.s.movetime_ms.is_some_and(|t| self.elapsed() >= t);
        if self.s.node_limit.is_some_and(|n| self.nodes >= n) || self.s.stop.load(Ordering::Relaxed) || out_of_time() {
            self.aborted = true;
        }
    }

    /// The evaluation plus the random weighting, a fixed function of position and seed.
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut score = evaluate(pos, self.s.eval);
        if self.s.jitter > 0 {
            let mut z = (pos.hash() & !1) ^ self.s.seed;
            z = (z ^ (z >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z ^= z >> 29;
            let span = 2 * self.s.jitter as u64 + 1;
            let black_view = (z % span) as i32 - self.s.jitter;
            score += if pos.side_to_move() == crate::board::Color::Black { black_view } else { -black_view };
        }
        score
    }

    /// Whether `pos` repeats a position since the last capture or man move (a draw in the tree).
    fn repeats(&self, pos: &Position) -> bool {
        let n = self.keys.len();
        let back = (pos.quiet_plies() as usize).min(n);
        (2..=back).step_by(2).any(|i| self.keys[n - i] == pos.hash())
    }

    /// Orders `moves` best first: the table's move, then bigger captures, then this ply's
    /// killers, then history.
    fn order(&self, moves: &mut [Move], table_move: Option<usize>, ply: usize) {
        let first = table_move.map(|i| moves[i]);
        let history = &self.s.history;
        let killers = self.killers[ply];
        moves.sort_by_cached_key(|m| {
            if Some(*m) == first {
                i32::MIN
            } else if killers.contains(&Some(*m)) {
                -500_000
            } else {
                -(m.capture_count() as i32 * 1_000_000 + history[m.from() as usize - 1][m.to() as usize - 1])
            }
        });
    }

    fn alphabeta(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        self.check_abort();
        if self.aborted {
            return 0;
        }
        if pos.quiet_plies() >= crate::board::QUIET_PLIES_DRAW || self.repeats(pos) {
            return 0;
        }
        let mut moves = Vec::with_capacity(32);
        generate(pos, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        let capture = moves[0].is_capture();
        if (depth <= 0 && !capture) || ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }

        let key = pos.hash();
        let entry = self.s.table.probe(key);
        // Cut-offs only in null-window nodes, so the principal variation stays whole.
        if let Some(e) = entry.filter(|_| beta - alpha == 1) {
            if e.depth as i32 >= depth {
                let score = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let table_move = entry.and_then(|e| e.mv.checked_sub(1)).map(usize::from).filter(|&i| i < moves.len());
        let generated = moves.clone();
        self.order(&mut moves, table_move, ply);

        // Forced moves and captures at the horizon do not use up depth.
        let child_depth = if moves.len() == 1 || depth <= 0 { depth } else { depth - 1 };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        for (i, m) in moves.iter().enumerate() {
            let child = pos.after(m);
            self.keys.push(key);
            let mut score;
            if i == 0 {
                score = -self.alphabeta(&child, child_depth, -beta, -alpha, ply + 1);
            } else {
                score = -self.alphabeta(&child, child_depth, -alpha - 1, -alpha, ply + 1);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.alphabeta(&child, child_depth, -beta, -alpha, ply + 1);
                }
            }
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = *m;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(*m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !m.is_capture() {
                            let h = &mut self.s.history[m.from() as usize - 1][m.to() as usize - 1];
                            *h = (*h + depth.max(1) * depth.max(1)).min(100_000);
                            let k = &mut self.killers[ply];
                            if k[0] != Some(*m) {
                                k[1] = k[0];
                                k[0] = Some(*m);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = generated.iter().position(|m| *m == best_move).map_or(0, |i| i as u8 + 1);
        self.s.table.store(Entry { key, score: to_table(best, ply), depth: depth.max(0) as i16, bound, mv });
        best
    }

    /// Iterative deepening from `pos`, which has at least two legal moves.
    pub(crate) fn run(mut self, pos: &Position) -> Outcome {
        let side = pos.side_to_move();
        let mut root: Vec<RootMove> = pos
            .legal_moves()
            .into_iter()
            .map(|mv| RootMove { mv, score: -INFINITY, pv: vec![mv], replies: pos.after(&mv).legal_moves().len() })
            .collect();
        if let Some(m) = self.s.table.best_move(pos) {
            if let Some(i) = root.iter().position(|r| r.mv == m) {
                root[..=i].rotate_right(1);
            }
        }
        let key = pos.hash();
        let mut completed_depth = 0;
        let mut score = -INFINITY;
        for depth in 1..=self.s.max_depth.max(1) {
            let mut alpha = -INFINITY;
            let beta = INFINITY;
            let mut best_index = None;
            for i in 0..root.len() {
                let mv = root[i].mv;
                let now = (self.s.clock)();
                let lead = best_index.unwrap_or(0);
                let lead_score = if best_index.is_some() { alpha } else { root[0].score };
                // The line names the best move so far, so it waits until one has a score.
                if now - self.last_report_ms >= 50.0 && lead_score > -INFINITY {
                    self.last_report_ms = now;
                    self.report_root_move(&root, i, lead, lead_score, depth, side);
                }
                let child = pos.after(&mv);
                self.keys.push(key);
                let d = depth as i32 - 1;
                let mut value;
                if best_index.is_none() {
                    value = -self.alphabeta(&child, d, -beta, -alpha, 1);
                } else {
                    value = -self.alphabeta(&child, d, -alpha - 1, -alpha, 1);
                    if value > alpha && !self.aborted {
                        value = -self.alphabeta(&child, d, -beta, -alpha, 1);
                    }
                }
                self.keys.pop();
                if self.aborted {
                    break;
                }
                if best_index.is_none() || value > alpha {
                    alpha = value;
                    best_index = Some(i);
                    let mut line = vec![mv];
                    line.extend_from_slice(&self.pv[1]);
                    root[i].pv = line;
                    root[i].score = value;
                    if depth > 1 && i > 0 {
                        self.report_iteration(depth, value, &root[i].pv.clone(), side);
                    }
                } else {
                    root[i].score = -INFINITY;
                }
            }
            // A move that beat the previous best in an unfinished iteration is still better.
            if let Some(b) = best_index {
                root[..=b].rotate_right(1);
                score = root[0].score;
            }
            if self.aborted {
                break;
            }
            completed_depth = depth;
            let pv = root[0].pv.clone();
            self.report_iteration(depth, score, &pv, side);
            // Keep the rest in the order they last scored.
            root[1..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if score.abs() >= WIN_BOUND && (WIN - score.abs()) as u32 <= depth {
                break;
            }
            if self.s.movetime_ms.is_some_and(|t| self.elapsed() >= t * 0.5) {
                break;
            }
        }
        if !self.aborted && completed_depth > 0 {
            // The search ended on its own: the live line ends with the move chosen and the final figures,
            // not the last line the 50 ms interval let through (in a short search, its first root move).
            self.report_root_move(&root, 0, 0, score, completed_depth, side);
        }
        Outcome {
            root_moves: root,
            score,
            depth: completed_depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            elapsed_ms: self.elapsed(),
        }
    }

    /// Reports root move `i` of `root` as the one being considered, `lead` as the best so far.
    fn report_root_move(
        &mut self,
        root: &[RootMove],
        i: usize,
        lead: usize,
        lead_score: i32,
        depth: u32,
        side: crate::board::Color,
    ) {
        let best_score = Score::from_internal(lead_score.max(-WIN));
        let info = RootMoveInfo {
            mv: root[i].mv,
            mv_text: root[i].mv.to_string(),
            index: i + 1,
            count: root.len(),
            replies: root[i].replies,
            depth,
            nodes: self.nodes,
            best: root[lead].mv,
            best_text: root[lead].mv.to_string(),
            best_score,
            best_score_white: best_score.for_white(side),
        };
        self.s.reporter.report(&Event::RootMove(info));
    }

    fn report_iteration(&mut self, depth: u32, score: i32, pv: &[Move], side: crate::board::Color) {
        let elapsed = self.elapsed().max(0.0);
        let public = Score::from_internal(score);
        let info = IterationInfo {
            depth,
            seldepth: self.seldepth,
            score: public,
            score_white: public.for_white(side),
            nodes: self.nodes,
            nps: if elapsed > 0.0 { (self.nodes as f64 * 1000.0 / elapsed) as u64 } else { 0 },
            elapsed_ms: elapsed as u64,
            pv: pv.to_vec(),
            pv_text: pv.iter().map(Move::to_string).collect(),
        };
        self.s.reporter.report(&Event::Iteration(info));
    }
}
