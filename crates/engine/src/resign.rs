//! Game decisions: when to resign and whether to accept a draw offer.

use crate::score::Score;

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
