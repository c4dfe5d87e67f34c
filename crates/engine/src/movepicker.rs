//! Staged move ordering: hash move, good captures and promotions, quiet moves by killers,
//! countermove and history, then losing captures.

use crate::checks;
use crate::history::{History, PieceTo};
use crate::see;
use homeostat_chess::{Bitboard, Board, Move, Piece, PieceKind, MAX_MOVES};

const BACK_RANKS: u64 = 0xFF00_0000_0000_00FF;
const UNDERPROMOTION: i32 = -1_000_000;
const KILLER_1: i32 = 1_000_000;
const KILLER_2: i32 = 900_000;
const COUNTER: i32 = 800_000;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// A move and its ordering key: the score times 256 plus 255 less the entry's place in the list, so
/// that the largest key is the highest score, the first in the list among equals. The best move is
/// then one maximum over the keys (vectorised in wasm), where a score and an index kept apart took two
/// `select`s an entry, each compiled by V8 to a compare, a set, a test and a move: the picker now takes
/// 11 % fewer instructions in wasm (`tools/wasm-instructions.py`), the same search.
#[derive(Clone, Copy, Default)]
pub struct Scored {
    mv: Option<Move>,
    key: i32,
}

impl Scored {
    /// The ordering score.
    fn score(self) -> i32 {
        self.key >> 8
    }
}

/// The key of `score` at place `at` of the list (scores stay well within ±2²³).
#[inline(always)]
fn key(score: i32, at: usize) -> i32 {
    debug_assert!(score.abs() < 1 << 23 && at < MAX_MOVES);
    (score << 8) | (255 - at as i32)
}

/// The place in the list that `key` was made for.
#[inline(always)]
fn place(key: i32) -> usize {
    (255 - (key & 255)) as usize
}

/// Room for one node's moves; the search keeps one per ply so no node pays to clear it.
pub type MoveBuffer = [Scored; MAX_MOVES];

/// A fresh move buffer.
pub fn new_buffer() -> MoveBuffer {
    [Scored::default(); MAX_MOVES]
}

/// Hands out a node's legal moves one at a time, most promising first.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    conts: [Option<PieceTo>; 2],
    quiescence: bool,
    /// Set by the search to stop handing out quiet moves other than checks (late-move pruning).
    pub skip_quiets: bool,
    /// `list[..bad]`: losing captures put aside; `list[cur..end]`: moves still to pick.
    bad: usize,
    cur: usize,
    end: usize,
}

impl MovePicker {
    /// A picker over every legal move. `tt_move` must be legal or `None`.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        conts: [Option<PieceTo>; 2],
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            conts,
            quiescence: false,
            skip_quiets: false,
            bad: 0,
            cur: 0,
            end: 0,
        }
    }

    /// A picker over captures and queen promotions that do not lose material (for quiescence
    /// search outside check). `tt_move` must be legal or `None`; quiet ones are ignored.
    pub fn new_quiescence(board: &Board, tt_move: Option<Move>) -> MovePicker {
        let tt_move = tt_move.filter(|&m| board.is_capture(m) || m.promotion() == Some(PieceKind::Queen));
        let mut picker = MovePicker::new(tt_move, [None; 2], None, [None; 2]);
        picker.quiescence = true;
        picker
    }

    /// The next move, or `None` when all are exhausted.
    pub fn next(&mut self, board: &Board, history: &History, list: &mut MoveBuffer) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GenNoisy => {
                    self.generate_noisy(board, history, list);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    let Some(best) = self.pick_best(list) else {
                        self.stage = if self.quiescence { Stage::Done } else { Stage::GenQuiet };
                        continue;
                    };
                    let Some(m) = best.mv else { continue };
                    if best.score() <= UNDERPROMOTION / 2 || !see::see_ge(board, m, 0) {
                        if !self.quiescence {
                            list[self.bad] = best;
                            self.bad += 1;
                        }
                        continue;
                    }
                    return Some(m);
                }
                Stage::GenQuiet => {
                    self.cur = self.bad;
                    self.end = self.bad;
                    if !self.skip_quiets {
                        self.generate_quiet(board, history, list);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if !self.skip_quiets {
                        if let Some(best) = self.pick_best(list) {
                            return best.mv;
                        }
                    } else {
                        // Skipped quiets still include checks: they may be mates.
                        while self.cur < self.end {
                            self.cur += 1;
                            if let Some(m) = list[self.cur - 1].mv {
                                if checks::gives_check(board, m) {
                                    return Some(m);
                                }
                            }
                        }
                    }
                    self.stage = Stage::BadNoisy;
                    self.cur = 0;
                    self.end = self.bad;
                }
                Stage::BadNoisy => {
                    if self.cur < self.end {
                        self.cur += 1;
                        return list[self.cur - 1].mv;
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Takes the highest-scored remaining move out of `list[cur..end]` (the first of equals).
    fn pick_best(&mut self, list: &mut MoveBuffer) -> Option<Scored> {
        let pending = list.get(self.cur..self.end).filter(|p| !p.is_empty())?;
        let at = place(pending.iter().fold(i32::MIN, |best, s| best.max(s.key)));
        list.swap(self.cur, at);
        // The entry that stood first now stands at `at`: its key says so, as ties are broken by place.
        list[at].key = key(list[at].score(), at);
        self.cur += 1;
        Some(list[self.cur - 1])
    }

    fn push(&mut self, list: &mut MoveBuffer, m: Move, score: i32) {
        if Some(m) != self.tt_move && self.end < MAX_MOVES {
            list[self.end] = Scored { mv: Some(m), key: key(score, self.end) };
            self.end += 1;
        }
    }

    #[inline(never)]
    fn generate_noisy(&mut self, board: &Board, history: &History, list: &mut MoveBuffer) {
        let us = board.side_to_move();
        let theirs = board.colored(us.flip()).0;
        let ep = board.en_passant().map_or(0, |sq| 1u64 << sq.index());
        let empty_back = !board.occupied().0 & BACK_RANKS;
        let mask = Bitboard(theirs | ep | empty_back);
        let quiescence = self.quiescence;
        board.generate_moves_to(mask, |pm| {
            let piece = Piece::new(us, pm.kind);
            let targets = if pm.kind == PieceKind::Pawn { pm.to } else { Bitboard(pm.to.0 & theirs) };
            for to in targets {
                let victim = board.kind_on(to).map_or(0, see::value);
                let victim = if pm.kind == PieceKind::Pawn && to.file() != pm.from.file() && victim == 0 {
                    see::value(PieceKind::Pawn)
                } else {
                    victim
                };
                let promotes = pm.kind == PieceKind::Pawn && BACK_RANKS >> to.index() & 1 != 0;
                let kinds: &[Option<PieceKind>] = if !promotes {
                    &[None]
                } else if quiescence {
                    &[Some(PieceKind::Queen)]
                } else {
                    &[Some(PieceKind::Queen), Some(PieceKind::Knight), Some(PieceKind::Rook), Some(PieceKind::Bishop)]
                };
                for &promo in kinds {
                    let m = Move::new(pm.from, to, promo);
                    let score = match promo {
                        Some(PieceKind::Queen) => 16 * (victim + see::value(PieceKind::Queen)),
                        Some(_) => UNDERPROMOTION + victim,
                        None => {
                            let kind = board.captured_kind(m).unwrap_or(PieceKind::Pawn);
                            16 * victim + history.capture(PieceTo::new(piece, m), kind) / 8
                        }
                    };
                    self.push(list, m, score);
                }
            }
            false
        });
    }

    #[inline(never)]
    fn generate_quiet(&mut self, board: &Board, history: &History, list: &mut MoveBuffer) {
        let us = board.side_to_move();
        let side = us.index();
        let empty = !board.occupied().0;
        let ep = board.en_passant().map_or(0, |sq| 1u64 << sq.index());
        let (killers, counter, conts) = (self.killers, self.counter, self.conts);
        board.generate_moves_to(Bitboard(empty), |pm| {
            let piece = Piece::new(us, pm.kind);
            let targets = if pm.kind == PieceKind::Pawn { pm.to.0 & !BACK_RANKS & !ep } else { pm.to.0 };
            for to in Bitboard(targets) {
                let m = Move::new(pm.from, to, None);
                let score = if Some(m) == killers[0] {
                    KILLER_1
                } else if Some(m) == killers[1] {
                    KILLER_2
                } else if Some(m) == counter {
                    COUNTER
                } else {
                    history.quiet_total(side, m, PieceTo::new(piece, m), conts)
                };
                self.push(list, m, score);
            }
            false
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_moves(board: &Board, tt: Option<Move>) -> Vec<Move> {
        let history = History::new();
        let mut picker = MovePicker::new(tt, [None; 2], None, [None; 2]);
        let mut list = new_buffer();
        let mut out = Vec::new();
        while let Some(m) = picker.next(board, &history, &mut list) {
            out.push(m);
        }
        out
    }

    #[test]
    fn picks_every_legal_move_once() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mut legal: Vec<u16> = board.legal_moves().iter().map(|m| m.to_u16()).collect();
            legal.sort();
            for tt in [None, board.legal_moves().last().copied()] {
                let mut picked: Vec<u16> = all_moves(&board, tt).iter().map(|m| m.to_u16()).collect();
                picked.sort();
                assert_eq!(picked, legal, "{fen}");
            }
        }
    }

    /// The keyed maximum hands moves out in the order the plain selection does (the highest score, the
    /// first in the list among equals, swapped to the front), ties and negative scores included.
    #[test]
    fn keyed_pick_matches_selection_by_score() {
        let mut rng = crate::Rng::new(5);
        let moves = Board::startpos().legal_moves();
        for round in 0..200 {
            let n = 1 + round % 60;
            let spread = [3, 50, 2_000_000][round % 3];
            let scores: Vec<i32> = (0..n).map(|_| (rng.next_u64() % (2 * spread) as u64) as i32 - spread).collect();
            let mut picker = MovePicker::new(None, [None; 2], None, [None; 2]);
            let mut list = new_buffer();
            let mut plain: Vec<(usize, i32)> = Vec::new();
            for (i, &score) in scores.iter().enumerate() {
                picker.push(&mut list, moves[i % moves.len()], score);
                plain.push((i, score));
            }
            let mut cur = 0;
            while let Some(picked) = picker.pick_best(&mut list) {
                let mut best = cur;
                for i in cur + 1..plain.len() {
                    if plain[i].1 > plain[best].1 {
                        best = i;
                    }
                }
                plain.swap(cur, best);
                assert_eq!(picked.score(), plain[cur].1, "round {round}, pick {cur}");
                assert_eq!(picked.mv, Some(moves[plain[cur].0 % moves.len()]), "round {round}, pick {cur}");
                cur += 1;
            }
            assert_eq!(cur, n);
        }
    }

    #[test]
    fn winning_capture_comes_first() {
        // The queen on d5 hangs to the pawn on e4.
        let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(all_moves(&board, None)[0].to_string(), "e4d5");
    }
}
