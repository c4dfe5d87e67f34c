//! Progress events a search reports while it thinks, and their text forms for the applet.

use crate::score::Score;
use homeostat_chess::Move;

/// How a reported score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// The search started on a root move (at most about 20 times a second at full strength, every
/// root move at the weaker levels).
#[derive(Clone, Debug, PartialEq)]
pub struct RootMoveInfo {
    /// The root move being searched.
    pub mv: Move,
    /// The move in SAN.
    pub mv_san: String,
    /// The move in UCI notation.
    pub mv_uci: String,
    /// Its position in this iteration's order, from 1.
    pub index: usize,
    /// Number of legal root moves.
    pub count: usize,
    /// Number of legal replies after the move.
    pub replies: usize,
    /// Iteration depth.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The best move so far in SAN.
    pub best_san: String,
    /// The best move so far.
    pub best: Move,
    /// The best move's score, side to move's view.
    pub best_score: Score,
    /// The best move's score, White's view.
    pub best_score_white: Score,
}

/// An iteration finished, or the principal variation changed during one.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score, side to move's view.
    pub score: Score,
    /// Score, White's view.
    pub score_white: Score,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// Transposition-table fill in per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The principal variation in SAN.
    pub pv_san: Vec<String>,
    /// The principal variation in UCI notation.
    pub pv_uci: Vec<String>,
    /// Which MultiPV line this is, from 1 (the best).
    pub multipv: usize,
}

/// The search ended.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedInfo {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score, side to move's view.
    pub score: Score,
    /// Whether the engine resigns.
    pub resign: bool,
}

/// A progress event.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A root move is being searched.
    RootMove(RootMoveInfo),
    /// An iteration completed or the best line changed.
    Iteration(IterationInfo),
    /// The search is over.
    Finished(FinishedInfo),
}

/// Receives progress events.
pub trait Reporter {
    /// Handles one event; called on the searching thread, so keep it quick.
    fn report(&mut self, event: &Event);
}

/// A reporter that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Reporter for Silent {
    fn report(&mut self, _: &Event) {}
}

impl<F: FnMut(&Event)> Reporter for F {
    fn report(&mut self, event: &Event) {
        self(event)
    }
}

/// `n` with commas between thousands: `1,852,544`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    let mut left = digits.len();
    for c in digits.chars() {
        if left < digits.len() && left.is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
        left -= 1;
    }
    out
}

/// The applet's status line, e.g.
/// `Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (+0.48)`.
/// The score is the best move's, in pawns from White's point of view.
pub fn considering_line(info: &RootMoveInfo) -> String {
    format!(
        "Considering {} ({}) of {} moves, {} replies, {} positions: {} ({})",
        info.mv_san,
        info.index,
        info.count,
        info.replies,
        thousands(info.nodes),
        info.best_san,
        info.best_score_white.to_pawns_string()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_852_544), "1,852,544");
        assert_eq!(thousands(12_345_678_901), "12,345,678,901");
    }

    fn info(best_score_white: Score) -> RootMoveInfo {
        let mv = Move::parse_uci_squares("c7c5").unwrap();
        let best = Move::parse_uci_squares("f8c5").unwrap();
        RootMoveInfo {
            mv,
            mv_san: "c5".into(),
            mv_uci: "c7c5".into(),
            index: 21,
            count: 30,
            replies: 39,
            depth: 7,
            nodes: 1_852_544,
            best_san: "Bc5".into(),
            best,
            best_score: best_score_white.flip(),
            best_score_white,
        }
    }

    #[test]
    fn applet_line() {
        assert_eq!(
            considering_line(&info(Score::Cp(48))),
            "Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (+0.48)"
        );
        assert_eq!(
            considering_line(&info(Score::Cp(-125))),
            "Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (-1.25)"
        );
        assert_eq!(
            considering_line(&info(Score::Mate(3))),
            "Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (#3)"
        );
        assert_eq!(
            considering_line(&info(Score::Mate(-3))),
            "Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (#-3)"
        );
    }
}
