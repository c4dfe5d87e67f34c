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

/// PDN result tokens (English and international forms), skipped when reading movetext.
const RESULT_TOKENS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"];

impl Game {
    /// Reads a PDN game: optional tags (a `[FEN "..."]` tag sets the start), then movetext
    /// with move numbers, `{comments}` and a result token, all optional. On error nothing is
    /// returned and the message names the move that failed.
    pub fn from_pdn(text: &str) -> Result<Game, NotationError> {
        let mut start = Position::start();
        let mut body = String::new();
        let mut rest = text;
        while let Some(open) = rest.find(['[', '{']) {
            body.push_str(&rest[..open]);
            let close_char = if rest[open..].starts_with('[') { ']' } else { '}' };
            let Some(close) = rest[open..].find(close_char).map(|c| open + c) else {
                return Err(NotationError(format!("a '{}' is never closed", &rest[open..=open])));
            };
            let inner = &rest[open + 1..close];
            if close_char == ']' {
                let (key, value) = inner.trim().split_once(char::is_whitespace).unwrap_or((inner.trim(), ""));
                if key.eq_ignore_ascii_case("FEN") {
                    let value = value.trim().trim_matches('"');
                    start = Position::from_fen(value).map_err(|e| NotationError(format!("FEN tag: {e}")))?;
                }
            }
            body.push(' ');
            rest = &rest[close + 1..];
        }
        body.push_str(rest);
        if body.contains('(') {
            return Err(NotationError("variations in parentheses are not supported".into()));
        }
        let mut game = Game::from_position(start);
        for token in body.split_whitespace() {
            if RESULT_TOKENS.contains(&token) {
                continue;
            }
            // Move numbers: "12." or "12..." possibly glued to the move ("12.11-15").
            let token = match token.find('.') {
                Some(dot) if token[..dot].chars().all(|c| c.is_ascii_digit()) => token[dot..].trim_start_matches('.'),
                _ => token,
            };
            if token.is_empty() {
                continue;
            }
            let ply = game.moves().len() + 1;
            game.play_text(token).map_err(|e| NotationError(format!("move {ply} ({token}): {e}")))?;
        }
        Ok(game)
    }

    /// The game as PDN: a `[FEN]` tag when it did not start from the start position, the
    /// movetext, and the result (`1-0` Black won, `0-1` White won, `1/2-1/2`, `*` unfinished).
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        if *self.start() != Position::start() {
            out.push_str(&format!("[FEN \"{}\"]\n", self.start().to_fen()));
        }
        let result = match self.outcome() {
            Some(Outcome::Win { winner: Color::Black }) => "1-0",
            Some(Outcome::Win { winner: Color::White }) => "0-1",
            Some(_) => "1/2-1/2",
            None => "*",
        };
        let moves = self.movetext();
        if moves.is_empty() {
            out.push_str(result);
        } else {
            out.push_str(&format!("{moves} {result}"));
        }
        out
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

    #[test]
    fn pdn_round_trip_and_errors() {
        let g = Game::from_pdn("[Event \"x\"]\n1. 11-15 {main line} 23-19 2. 8-11 22-17 *").unwrap();
        assert_eq!(g.movetext(), "1. 11-15 23-19 2. 8-11 22-17");
        assert_eq!(g.to_pdn(), "1. 11-15 23-19 2. 8-11 22-17 *");
        assert_eq!(Game::from_pdn(&g.to_pdn()).unwrap().moves(), g.moves());
        let set = Game::from_pdn("[FEN \"W:W18:B14\"]\n1... 18x9 0-1").unwrap();
        assert_eq!(set.to_pdn(), "[FEN \"W:W18:B14\"]\n1... 18x9 0-1");
        assert_eq!(Game::from_pdn(&set.to_pdn()).unwrap().moves(), set.moves());
        let e = Game::from_pdn("1. 11-15 23-19 2. 15-19").unwrap_err().0;
        assert!(e.starts_with("move 3 (15-19):"), "{e}");
        assert!(Game::from_pdn("1. 11-15 {open").unwrap_err().0.contains("never closed"));
        assert!(Game::from_pdn("[FEN \"B:W99:B1\"] 1. 1-6").unwrap_err().0.contains("FEN tag: square 99"));
        assert!(Game::from_pdn("1. 11-15 (1. 9-13)").is_err());
        assert_eq!(Game::from_pdn("").unwrap().moves().len(), 0);
    }
}
