//! Progress events a search reports while it thinks, and the applet's one-line text.
//! They mirror the chess engine's events, with checkers notation in place of SAN and UCI.

use crate::movegen::Move;
use crate::score::Score;

/// The search started on a root move (sent at most about 20 times a second).
#[derive(Clone, Debug, PartialEq)]
pub struct RootMoveInfo {
    /// The root move being searched.
    pub mv: Move,
    /// The move in PDN notation.
    pub mv_text: String,
    /// Its position in this iteration's order, from 1.
    pub index: usize,
    /// Number of legal root moves.
    pub count: usize,
    /// Number of legal replies after the move.
    pub replies: usize,
    /// Iteration depth.
    pub depth: u32,
    /// Positions searched so far.
    pub nodes: u64,
    /// The best move so far.
    pub best: Move,
    /// The best move so far in PDN notation.
    pub best_text: String,
    /// The best move's score, side to move's view.
    pub best_score: Score,
    /// The best move's score, White's view.
    pub best_score_white: Score,
}

/// An iteration finished, or the best line changed during one.
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
    /// Positions searched.
    pub nodes: u64,
    /// Positions per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The principal variation in PDN notation.
    pub pv_text: Vec<String>,
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
    /// Whether the move was the only legal one, played without searching.
    pub forced: bool,
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
    /// Handles one event; called during the search, so keep it quick.
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

/// `n` with commas between thousands: `48,213`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The applet's status line, e.g.
/// `Considering 11-15 (3) of 7 moves, 6 replies, 48,213 positions: 9-14 (+0.20)`.
/// The score is the best move's, in men from White's point of view (as in chess).
pub fn considering_line(info: &RootMoveInfo) -> String {
    format!(
        "Considering {} ({}) of {} moves, {} replies, {} positions: {} ({})",
        info.mv_text,
        info.index,
        info.count,
        info.replies,
        thousands(info.nodes),
        info.best_text,
        info.best_score_white.to_men_string()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(48_213), "48,213");
        assert_eq!(thousands(12_345_678_901), "12,345,678,901");
    }

    #[test]
    fn applet_line() {
        let start = Position::start();
        let mv = start.parse_move("11-15").unwrap();
        let best = start.parse_move("9-14").unwrap();
        let info = RootMoveInfo {
            mv,
            mv_text: mv.to_string(),
            index: 3,
            count: 7,
            replies: 6,
            depth: 5,
            nodes: 48_213,
            best,
            best_text: best.to_string(),
            best_score: Score::Cp(-20),
            best_score_white: Score::Cp(20),
        };
        assert_eq!(
            considering_line(&info),
            "Considering 11-15 (3) of 7 moves, 6 replies, 48,213 positions: 9-14 (+0.20)"
        );
    }
}
