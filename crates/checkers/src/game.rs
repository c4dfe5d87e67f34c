//! A game record: start position, moves played, undo and redo, and the result with the draw
//! rules (threefold repetition; 40 moves of each side without a capture or a man move).

use crate::board::{Color, Position, QUIET_PLIES_DRAW};
use crate::movegen::Move;
use crate::notation::NotationError;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` won: the side to move has no legal move (no pieces, or all blocked).
    Win {
        /// The side that won.
        winner: Color,
    },
    /// The same position, same side to move, occurred for the third time.
    Repetition,
    /// Forty moves of each side without a capture or a man move.
    FortyMoves,
}

impl Outcome {
    /// The winner, if the game was not drawn.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Outcome::Win { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// `black wins (white has no move)`, `draw by threefold repetition`, `draw by the 40-move rule`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner } => {
                write!(f, "{} wins ({} has no move)", winner.name(), winner.opponent().name())
            }
            Outcome::Repetition => f.write_str("draw by threefold repetition"),
            Outcome::FortyMoves => f.write_str("draw by the 40-move rule"),
        }
    }
}

/// A game from a start position, with the moves played and the moves undone (for redo).
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    redo: Vec<Move>,
}

impl Game {
    /// A game from the start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from `start`.
    pub fn from_position(start: Position) -> Game {
        Game { positions: vec![start], moves: Vec::new(), redo: Vec::new() }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has its start position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The keys of every position so far, oldest first, the current one last (for the search's
    /// repetition detection).
    pub fn hashes(&self) -> Vec<u64> {
        self.positions.iter().map(Position::hash).collect()
    }

    /// Plays a legal move `m`; clears the redo list unless `m` is the next move in it.
    ///
    /// # Panics
    /// If the game is over or `m` is not legal (use [`Game::play_text`] for user input).
    pub fn play(&mut self, m: Move) {
        assert!(self.outcome().is_none(), "the game is over");
        assert!(self.position().legal_moves().contains(&m), "{m} is not legal");
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        let next = self.position().after(&m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Reads and plays a move; on error the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Move, NotationError> {
        if let Some(outcome) = self.outcome() {
            return Err(NotationError(format!("the game is over: {outcome}")));
        }
        let m = self.position().parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(m);
        Some(m)
    }

    /// Plays again the last move taken back; returns it, or `None` when there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let m = *self.redo.last()?;
        self.play(m);
        Some(m)
    }

    /// How many times the current position has occurred (same pieces, same side to move).
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        self.positions.iter().filter(|p| p.hash() == now.hash() && p.side_to_move() == now.side_to_move()).count()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if pos.legal_moves().is_empty() {
            return Some(Outcome::Win { winner: pos.side_to_move().opponent() });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Repetition);
        }
        if pos.quiet_plies() >= QUIET_PLIES_DRAW {
            return Some(Outcome::FortyMoves);
        }
        None
    }

    /// The moves as PDN movetext, `1. 11-15 22-18 2. 15x22 ...`, numbered from Black's moves;
    /// a game set up with White to move starts `1... 22-18`.
    pub fn movetext(&self) -> String {
        let mut out = Vec::new();
        let mut number = 1;
        let mut side = self.start().side_to_move();
        for (i, m) in self.moves.iter().enumerate() {
            if side == Color::Black {
                out.push(format!("{number}. {m}"));
            } else {
                if i == 0 {
                    out.push(format!("{number}... {m}"));
                } else {
                    out.push(m.to_string());
                }
                number += 1;
            }
            side = side.opponent();
        }
        out.join(" ")
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_redo_and_bad_input() {
        let mut g = Game::new();
        g.play_text("11-15").unwrap();
        g.play_text("22-18").unwrap();
        let before = g.position().to_fen();
        assert!(g.play_text("15-19").is_err(), "a capture is compulsory");
        assert_eq!(g.position().to_fen(), before, "bad input leaves the game alone");
        assert_eq!(g.play_text("15x22").unwrap().to_string(), "15x22");
        assert_eq!(g.movetext(), "1. 11-15 22-18 2. 15x22");
        assert_eq!(g.undo().unwrap().to_string(), "15x22");
        assert_eq!(g.undo().unwrap().to_string(), "22-18");
        assert_eq!(g.redo().unwrap().to_string(), "22-18");
        assert_eq!(g.redo().unwrap().to_string(), "15x22");
        assert_eq!(g.redo(), None);
        g.undo();
        g.play_text("9-14").unwrap_err();
        g.play_text("15x22").unwrap();
        g.undo();
        g.undo();
        g.play_text("23-19").unwrap();
        assert_eq!(g.redo(), None, "a different move clears the redo list");
    }

    #[test]
    fn win_when_no_move() {
        // White's last man is taken.
        let mut g = Game::from_position(Position::from_fen("B:W18:B14").unwrap());
        assert_eq!(g.outcome(), None);
        assert!(g.play_text("14-17").unwrap_err().0.contains("compulsory"));
        g.play_text("14x23").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black }));
        let mut g = Game::from_position(Position::from_fen("W:W18:B14").unwrap());
        g.play_text("18x9").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::White }));
        assert_eq!(g.outcome().unwrap().to_string(), "white wins (black has no move)");
        assert!(g.play_text("1-5").unwrap_err().0.contains("game is over"));
        // A White man on 5 is blocked by the Black man on 1: no move is a loss.
        let blocked = Game::from_position(Position::from_fen("W:W5:B1,K9").unwrap());
        assert_eq!(blocked.outcome(), Some(Outcome::Win { winner: Color::Black }));
    }

    #[test]
    fn threefold_repetition() {
        let mut g = Game::from_position(Position::from_fen("B:WK32:BK1").unwrap());
        for _ in 0..2 {
            for m in ["1-5", "32-28", "5-1", "28-32"] {
                assert_eq!(g.outcome(), None);
                g.play_text(m).unwrap();
            }
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
        assert_eq!(g.outcome().unwrap().to_string(), "draw by threefold repetition");
    }

    #[test]
    fn forty_move_rule() {
        // Kings wander without repeating: 79 quiet plies are not yet a draw, 80 are.
        let mut pos = Position::from_fen("B:WK29,K32:BK1,K4").unwrap();
        pos.set_quiet_plies(78);
        let mut g = Game::from_position(pos);
        g.play_text("1-5").unwrap();
        assert_eq!(g.position().quiet_plies(), 79);
        assert_eq!(g.outcome(), None);
        g.play_text("32-28").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::FortyMoves));
        // A man move resets the count.
        let mut pos = Position::from_fen("B:WK29:B1,K4").unwrap();
        pos.set_quiet_plies(79);
        let mut g = Game::from_position(pos);
        g.play_text("1-6").unwrap();
        assert_eq!(g.position().quiet_plies(), 0);
        assert_eq!(g.outcome(), None);
    }
}
