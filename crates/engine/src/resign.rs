//! Game decisions: when to resign, when to offer a draw and whether to accept one.

use crate::score::Score;
use homeostat_chess::{Board, Color, PieceKind};

/// Resign after this many consecutive searches at or below [`RESIGN_CP`].
pub const RESIGN_STREAK: u32 = 3;
/// The score (centipawns, engine's view) counted as hopeless.
pub const RESIGN_CP: i32 = -900;

/// Tracks hopeless scores across moves.
#[derive(Clone, Debug, Default)]
pub struct ResignTracker {
    streak: u32,
}

impl ResignTracker {
    /// A tracker with no history.
    pub fn new() -> ResignTracker {
        ResignTracker::default()
    }

    /// Forgets the streak (new game).
    pub fn reset(&mut self) {
        self.streak = 0;
    }

    /// Records the score of a finished search; returns whether to resign now: a forced mate
    /// against the engine, or [`RESIGN_STREAK`] hopeless scores in a row.
    pub fn update(&mut self, score: Score) -> bool {
        if score.as_cp() <= RESIGN_CP {
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        score.is_mated() || self.streak >= RESIGN_STREAK
    }
}

/// Offer a draw in a pawnless ending that cannot be won ([`dead_drawn_material`]) when the score
/// is at most this far from level (centipawns): a tactic that wins a piece scores far more.
pub const DEAD_MATERIAL_CP: i32 = 50;
/// A score at most this far from level (centipawns) counts as level for [`LEVEL_STREAK`].
pub const LEVEL_CP: i32 = 10;
/// Offer a draw after this many level scores in a row ...
pub const LEVEL_STREAK: u32 = 6;
/// ... from this move number on.
pub const LEVEL_FROM_MOVE: u32 = 40;
/// After an offer, this many moves pass before the engine offers again.
pub const OFFER_INTERVAL: u32 = 10;

/// Decides when the engine offers a draw with its move: in a dead-drawn pawnless ending, or
/// late in the game when its score has stayed level for several moves. Conservative on purpose:
/// a bot that offers draws in live positions is a nuisance.
#[derive(Clone, Debug, Default)]
pub struct DrawOffers {
    /// Level scores in a row.
    level_streak: u32,
    /// Moves to wait before the next offer.
    wait: u32,
}

impl DrawOffers {
    /// A record with no history.
    pub fn new() -> DrawOffers {
        DrawOffers::default()
    }

    /// Forgets the history (new game).
    pub fn reset(&mut self) {
        *self = DrawOffers::default();
    }

    /// Records the score (engine's view) of the search for the engine's move in `board`; returns
    /// whether to offer a draw along with the move.
    pub fn update(&mut self, board: &Board, score: Score) -> bool {
        let within = |limit: i32| matches!(score, Score::Cp(cp) if cp.abs() <= limit);
        self.level_streak = if within(LEVEL_CP) { self.level_streak + 1 } else { 0 };
        if self.wait > 0 {
            self.wait -= 1;
            return false;
        }
        let dead = dead_drawn_material(board) && within(DEAD_MATERIAL_CP);
        let held = self.level_streak >= LEVEL_STREAK && board.fullmove_number() >= LEVEL_FROM_MOVE;
        if dead || held {
            self.wait = OFFER_INTERVAL;
        }
        dead || held
    }
}

/// Whether the material left cannot win against correct defence: no pawns or queens, and each
/// side has at most one piece (but not a rook against a bare king), or two knights against a
/// bare king. (Rook against minor piece can be lost by bad play; the score guards that.)
pub fn dead_drawn_material(board: &Board) -> bool {
    if (board.pieces(PieceKind::Pawn) | board.pieces(PieceKind::Queen)).any() {
        return false;
    }
    let pieces = |side: Color| {
        let count = |kind| board.colored_pieces(side, kind).count();
        (count(PieceKind::Rook), count(PieceKind::Bishop), count(PieceKind::Knight))
    };
    let (white, black) = (pieces(Color::White), pieces(Color::Black));
    let total = |(r, b, n): (u32, u32, u32)| r + b + n;
    match (total(white), total(black)) {
        (0, 0) => true,
        (1, 1) => true,
        (1, 0) => white.0 == 0,
        (0, 1) => black.0 == 0,
        (2, 0) => white.2 == 2,
        (0, 2) => black.2 == 2,
        _ => false,
    }
}

/// Whether to accept a draw offer, given the engine's last score (its own view) and the move
/// number: yes when clearly worse, or when level after the opening.
pub fn accepts_draw(score: Score, fullmove_number: u32) -> bool {
    let cp = score.as_cp();
    cp <= -50 || (fullmove_number >= 30 && cp <= 15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigns_after_a_streak_or_a_mate() {
        let mut t = ResignTracker::new();
        assert!(!t.update(Score::Cp(-1000)));
        assert!(!t.update(Score::Cp(-1000)));
        assert!(t.update(Score::Cp(-1000)));
        t.reset();
        assert!(!t.update(Score::Cp(-1000)));
        assert!(!t.update(Score::Cp(100)));
        assert!(!t.update(Score::Cp(-1000)));
        assert!(t.update(Score::Mate(-3)));
        assert!(!t.update(Score::Mate(3)));
    }

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn dead_drawn_material_is_pawnless_and_thin() {
        for fen in [
            "8/8/4k3/8/8/2K5/8/8 w - - 0 1",   // K v K
            "8/8/4kr2/8/8/2KR4/8/8 w - - 0 1", // KR v KR
            "8/8/4kn2/8/8/2KB4/8/8 w - - 0 1", // KB v KN
            "8/8/4kb2/8/8/2KR4/8/8 w - - 0 1", // KR v KB
            "8/8/4k3/8/8/2KNN3/8/8 b - - 0 1", // KNN v K
            "8/8/4k3/8/8/2K5/8/6n1 w - - 0 1", // KN v K
        ] {
            assert!(dead_drawn_material(&board(fen)), "{fen}");
        }
        for fen in [
            "8/8/4k3/8/8/2KR4/8/8 w - - 0 1",   // KR v K wins
            "8/8/4k3/8/8/2KBN3/8/8 w - - 0 1",  // KBN v K wins
            "8/8/4k3/8/8/2KBB3/8/8 w - - 0 1",  // KBB v K wins
            "8/8/4kr2/8/8/2KRB3/8/8 w - - 0 1", // KRB v KR: not dead
            "8/8/4kq2/8/8/2KQ4/8/8 w - - 0 1",  // queens
            "8/4p3/4k3/8/8/2K5/8/8 w - - 0 1",  // a pawn
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            assert!(!dead_drawn_material(&board(fen)), "{fen}");
        }
    }

    #[test]
    fn offers_in_dead_endings_only_when_the_score_agrees() {
        let rooks = board("8/8/4kr2/8/8/2KR4/8/8 w - - 0 60");
        assert!(DrawOffers::new().update(&rooks, Score::Cp(0)));
        assert!(DrawOffers::new().update(&rooks, Score::Cp(-40)));
        // A skewer wins the rook: no offer.
        assert!(!DrawOffers::new().update(&rooks, Score::Cp(480)));
        assert!(!DrawOffers::new().update(&rooks, Score::Mate(7)));
        // Even a level score is no reason to offer in a live middlegame before move 40.
        let live = board("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9");
        let mut offers = DrawOffers::new();
        assert!((0..20).all(|_| !offers.update(&live, Score::Cp(0))));
    }

    #[test]
    fn offers_late_after_a_level_streak_and_then_waits() {
        let late = board("2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 45");
        let mut offers = DrawOffers::new();
        let first: Vec<bool> = (0..LEVEL_STREAK).map(|_| offers.update(&late, Score::Cp(5))).collect();
        assert_eq!(first.iter().filter(|&&o| o).count(), 1);
        assert!(first[LEVEL_STREAK as usize - 1]);
        // Declined: no new offer for a while, then again while the score stays level.
        let next: Vec<bool> = (0..OFFER_INTERVAL + 1).map(|_| offers.update(&late, Score::Cp(0))).collect();
        assert_eq!(next.iter().position(|&o| o), Some(OFFER_INTERVAL as usize));
        // One unbalanced score breaks the streak.
        offers.reset();
        for _ in 0..LEVEL_STREAK - 1 {
            assert!(!offers.update(&late, Score::Cp(0)));
        }
        assert!(!offers.update(&late, Score::Cp(60)));
        assert!(!offers.update(&late, Score::Cp(0)));
        // Early in the game a level streak offers nothing.
        let early = board("2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 25");
        let mut offers = DrawOffers::new();
        assert!((0..20).all(|_| !offers.update(&early, Score::Cp(0))));
    }

    #[test]
    fn draw_offers() {
        assert!(accepts_draw(Score::Cp(-200), 10));
        assert!(!accepts_draw(Score::Cp(0), 10));
        assert!(accepts_draw(Score::Cp(0), 40));
        assert!(!accepts_draw(Score::Cp(150), 40));
        assert!(!accepts_draw(Score::Mate(4), 60));
        assert!(accepts_draw(Score::Mate(-4), 5));
    }
}
