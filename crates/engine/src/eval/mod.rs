//! Static evaluation: a tapered hand-written evaluation in centipawns.
//!
//! Terms: material and piece-square tables, mobility, rooks on open files and the seventh,
//! outposts, bishop pair, pawn structure, passed pawns, king safety, threats, centre
//! control and tempo. All weights live in [`Weights`].

mod king;
mod masks;
mod material;
mod pawns;
mod pieces;
mod tapered;
mod tuned;
mod weights;

pub use material::is_insufficient;
pub use tapered::{s, S};
pub use weights::Weights;

use crate::nnue::Network;
use homeostat_chess::{Board, Color};
use std::sync::Arc;

/// The evaluation of `board` from the side to move's point of view, with the default weights.
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &Weights::DEFAULT)
}

/// The evaluation of `board` from the side to move's point of view, with weights `w`.
pub fn evaluate_with(board: &Board, w: &Weights) -> i32 {
    let white = evaluate_white(board, w);
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation from White's point of view (tempo included for the side to move).
pub fn evaluate_white(board: &Board, w: &Weights) -> i32 {
    evaluate_white_from(board, w, pawns::structure(board, w))
}

/// The search's evaluator: the hand-crafted evaluation with its pawn cache, or the neural
/// network with its accumulator stack (see [`Evaluator::set_nnue`]).
#[derive(Default)]
pub struct Evaluator {
    pawns: pawns::PawnCache,
    nnue: Option<crate::nnue::Stack>,
    /// The network to use instead of the embedded one (see [`Evaluator::set_network`]).
    network: Option<Arc<Network>>,
}

impl Evaluator {
    /// An evaluator with an empty pawn cache.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// Chooses the neural network (true) or the hand-crafted evaluation; returns whether the
    /// network is in use (false if the built-in net could not be loaded).
    pub fn set_nnue(&mut self, on: bool) -> bool {
        self.nnue = if on {
            self.network.clone().or_else(Network::embedded).map(|net| crate::nnue::Stack::new(net, STACK_PLIES))
        } else {
            None
        };
        self.nnue.is_some()
    }

    /// Evaluates with `network` instead of the embedded net (`None`: the embedded one again),
    /// from now on if the network is in use, else once it is chosen.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.network = network;
            if self.uses_nnue() {
                self.set_nnue(true);
            }
        }
    }

    /// Whether the neural network is in use.
    pub fn uses_nnue(&self) -> bool {
        self.nnue.is_some()
    }

    /// A search starts at `root` (ply 0).
    pub fn set_root(&mut self, root: &Board) {
        if let Some(stack) = &mut self.nnue {
            stack.set_root(root);
        }
    }

    /// The search reached ply `ply` by playing `m` on `parent`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, parent: &Board, m: homeostat_chess::Move) {
        if let Some(stack) = &mut self.nnue {
            stack.push_move(ply, parent, m);
        }
    }

    /// The search reached ply `ply` by passing the move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if let Some(stack) = &mut self.nnue {
            stack.push_null(ply);
        }
    }

    /// The evaluation of `board`, the position at `ply` of the current line, side to move's view.
    pub fn evaluate_at(&mut self, board: &Board, ply: usize) -> i32 {
        match &mut self.nnue {
            // Against a bare king the hand-crafted mop-up term knows how to mate; the net,
            // trained on few such endings, does not.
            Some(_) if board.colored(Color::White).count() == 1 || board.colored(Color::Black).count() == 1 => {
                self.evaluate(board)
            }
            // Far from mate scores, whatever the net says.
            Some(stack) => stack.evaluate(board, ply).clamp(-NNUE_LIMIT, NNUE_LIMIT),
            None => self.evaluate(board),
        }
    }

    /// The hand-crafted evaluation, the same value as [`evaluate`], faster when pawn structures repeat.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let w = &Weights::DEFAULT;
        let white = evaluate_white_from(board, w, self.pawns.get(board, w));
        match board.side_to_move() {
            Color::White => white,
            Color::Black => -white,
        }
    }
}

/// Plies of accumulators the network keeps (deeper than any search line).
const STACK_PLIES: usize = crate::score::MAX_PLY + 8;
/// The network's evaluations are clamped to this magnitude, far from mate scores.
const NNUE_LIMIT: i32 = 20_000;

fn evaluate_white_from(board: &Board, w: &Weights, pawn_info: pawns::PawnInfo) -> i32 {
    if material::is_insufficient(board) {
        return 0;
    }
    let total = sum(board, w, pawn_info);
    let strong = if total.eg >= 0 { Color::White } else { Color::Black };
    let scale = material::eg_scale(board, strong);
    if scale == 0 {
        return 0;
    }
    total.blend(material::phase(board), scale) + material::mop_up(board) * scale / 128
}

/// Every weighted term, White minus Black, before blending by phase.
fn sum(board: &Board, w: &Weights, pawn_info: pawns::PawnInfo) -> S {
    let mut att = pieces::Attacks::default();
    let mut total = material::material_psqt(board, w);
    total += pawn_info.score + pawns::passers(board, w, &pawn_info);
    total += pieces::evaluate(board, w, &mut att);
    total += king::evaluate(board, w, &att);
    total += pieces::threats_and_center(board, w, &att);
    total += match board.side_to_move() {
        Color::White => w.tempo,
        Color::Black => -w.tempo,
    };
    total
}

/// An evaluation taken apart for a tuner: the weighted sum and what turns it into a score.
///
/// The sum is linear in every [`S`] weight (king danger depends only on the unit weights), so
/// a tuner can find each weight's coefficient by changing it and taking the difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parts {
    /// Every weighted term, White minus Black.
    pub total: S,
    /// Game phase, 0 (bare endgame) to 24.
    pub phase: i32,
    /// Endgame scale (out of 128) when White, or Black, is the side ahead.
    pub eg_scale: [i32; 2],
    /// Mop-up bonus against a bare king, White minus Black.
    pub mop_up: i32,
}

impl Parts {
    /// The parts of `board`'s evaluation with weights `w`; `None` when it is a dead draw (always 0).
    pub fn of(board: &Board, w: &Weights) -> Option<Parts> {
        if material::is_insufficient(board) {
            return None;
        }
        Some(Parts {
            total: sum(board, w, pawns::structure(board, w)),
            phase: material::phase(board),
            eg_scale: [material::eg_scale(board, Color::White), material::eg_scale(board, Color::Black)],
            mop_up: material::mop_up(board),
        })
    }

    /// The score from White's point of view for a weighted sum `total` (equals [`evaluate_white`]
    /// for [`Parts::total`]), in floating point for a tuner.
    pub fn score(&self, mg: f64, eg: f64) -> f64 {
        let scale = self.eg_scale[usize::from(eg < 0.0)] as f64 / 128.0;
        if scale == 0.0 {
            return 0.0;
        }
        let phase = self.phase.clamp(0, tapered::MAX_PHASE) as f64 / tapered::MAX_PHASE as f64;
        mg * phase + eg * scale * (1.0 - phase) + self.mop_up as f64 * scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Board::from_fen(fen).unwrap())
    }

    /// The same position with colours swapped (board mirrored, side flipped).
    fn mirror(fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let placement: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|row| {
                row.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let castling: String = if fields[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = fields[2]
                .chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
            c.into_iter().collect()
        };
        format!("{} {} {} - 0 1", placement.join("/"), side, castling)
    }

    #[test]
    fn start_position_is_tempo() {
        let v = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(v > 0 && v < 30, "{v}");
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 b - - 0 1",
            "8/8/8/3k4/8/8/3K4/3R4 w - - 0 1",
        ] {
            let m = mirror(fen);
            assert_eq!(eval(fen), eval(&m), "{fen} vs {m}");
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        assert!(eval("6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1") > 700);
        assert!(eval("6k1/5ppp/8/8/8/8/1Q3PPP/6K1 b - - 0 1") < -700);
    }

    #[test]
    fn parts_give_the_evaluation() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "8/8/2b5/3k4/8/3KB3/3P4/8 w - - 0 1",
            "8/8/8/3k4/8/8/3K4/3R4 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let parts = Parts::of(&board, &Weights::DEFAULT).unwrap();
            let float = parts.score(parts.total.mg as f64, parts.total.eg as f64);
            let white = evaluate_white(&board, &Weights::DEFAULT);
            assert!((float - white as f64).abs() <= 2.0, "{fen}: {float} vs {white}");
        }
        assert_eq!(Parts::of(&Board::from_fen("8/8/4k3/8/8/2KN4/8/8 w - - 0 1").unwrap(), &Weights::DEFAULT), None);
    }

    #[test]
    fn bare_minor_is_a_draw() {
        assert_eq!(eval("8/8/4k3/8/8/2KN4/8/8 w - - 0 1"), 0);
        assert_eq!(eval("8/8/4k3/8/8/2KB4/8/8 b - - 0 1"), 0);
    }
}
