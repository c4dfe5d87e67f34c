//! The game the page plays, without JavaScript types: the rules crate's [`Game`] and the plain
//! records the bindings hand out. Every method that reads user input returns an error text and
//! leaves the game unchanged.

use homeostat_checkers::{squares, Color, Game, Kind, Move, Outcome, Position};
use serde::Serialize;

/// A legal move as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveInfo {
    /// PDN text with every landing square: `11-15`, `15x24x31`.
    pub text: String,
    /// Square the piece leaves (1-32).
    pub from: u8,
    /// Square the piece ends on.
    pub to: u8,
    /// The start square then every landing square, in order.
    pub path: Vec<u8>,
    /// Squares of the pieces it takes, ascending.
    pub captured: Vec<u8>,
    /// Whether it captures.
    pub capture: bool,
}

/// A move just played and what it led to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// The move.
    #[serde(flatten)]
    pub info: MoveInfo,
    /// Whether a man was crowned by it.
    pub crowned: bool,
    /// The position after it, as PDN FEN.
    pub fen: String,
    /// How the game ended, if it did.
    pub outcome: Option<OutcomeInfo>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeInfo {
    /// The PDN result: `1-0` (Black won), `0-1` (White won) or `1/2-1/2`.
    pub result: &'static str,
    /// `no-moves`, `repetition` or `forty-moves`.
    pub reason: &'static str,
    /// `b`, `w`, or null for a draw.
    pub winner: Option<char>,
    /// A sentence such as `Black wins: White cannot move`.
    pub text: String,
}

/// The page's record of a move.
pub fn move_info(m: &Move) -> MoveInfo {
    let mut path = vec![m.from()];
    path.extend_from_slice(m.landings());
    MoveInfo {
        text: m.to_string(),
        from: m.from(),
        to: m.to(),
        path,
        captured: squares(m.captured()),
        capture: m.is_capture(),
    }
}

/// The page's record of an outcome.
pub fn outcome_info(outcome: Outcome) -> OutcomeInfo {
    match outcome {
        Outcome::Win { winner } => OutcomeInfo {
            result: if winner == Color::Black { "1-0" } else { "0-1" },
            reason: "no-moves",
            winner: Some(winner.letter().to_ascii_lowercase()),
            text: format!("{} wins: {} cannot move", title(winner), title(winner.opponent())),
        },
        Outcome::Repetition => OutcomeInfo {
            result: "1/2-1/2",
            reason: "repetition",
            winner: None,
            text: "Draw by threefold repetition".into(),
        },
        Outcome::FortyMoves => OutcomeInfo {
            result: "1/2-1/2",
            reason: "forty-moves",
            winner: None,
            text: "Draw: 40 moves each without a capture or a man move".into(),
        },
    }
}

/// `Black` or `White`.
fn title(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A game in progress with undo and redo.
#[derive(Clone, Debug, Default)]
pub struct Session {
    game: Game,
}

impl Session {
    /// A game from `fen` (PDN FEN), or from the start position when absent or blank.
    pub fn new(fen: Option<&str>) -> Result<Session, String> {
        let start = match fen.map(str::trim) {
            None | Some("") => Position::start(),
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        };
        Ok(Session { game: Game::from_position(start) })
    }

    /// A game read from PDN text (tags, movetext, comments and result are all optional).
    pub fn from_pdn(text: &str) -> Result<Session, String> {
        Game::from_pdn(text).map(|game| Session { game }).map_err(|e| format!("bad PDN: {e}"))
    }

    /// The rules crate's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position as PDN FEN.
    pub fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The start position as PDN FEN.
    pub fn start_fen(&self) -> String {
        self.game.start().to_fen()
    }

    /// `b` or `w`: whose move it is.
    pub fn turn(&self) -> char {
        self.game.position().side_to_move().letter().to_ascii_lowercase()
    }

    /// The 32 dark squares, index 0 for square 1: `""` empty, `b`/`w` a man, `B`/`W` a king.
    pub fn board(&self) -> Vec<&'static str> {
        let pos = self.game.position();
        (1..=32)
            .map(|s| match pos.piece_at(s) {
                None => "",
                Some(p) => match (p.color, p.kind) {
                    (Color::Black, Kind::Man) => "b",
                    (Color::White, Kind::Man) => "w",
                    (Color::Black, Kind::King) => "B",
                    (Color::White, Kind::King) => "W",
                },
            })
            .collect()
    }

    /// The legal moves (none once the game is over).
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game.position().legal_moves().iter().map(move_info).collect()
    }

    /// The squares of the pieces that can capture (and so must), empty when no capture is on.
    pub fn capturing_squares(&self) -> Vec<u8> {
        self.game.position().capturing_squares()
    }

    /// Plays a move given in PDN (`11-15`, `15x24x31`, or a capture's start and end when only
    /// one route fits); on error the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<Played, String> {
        let before = *self.game.position();
        let m = self.game.play_text(text.trim()).map_err(|e| format!("{} is not playable: {e}", text.trim()))?;
        let was_man = before.piece_at(m.from()).is_some_and(|p| p.kind == Kind::Man);
        let crowned = was_man && self.game.position().piece_at(m.to()).is_some_and(|p| p.kind == Kind::King);
        Ok(Played { info: move_info(&m), crowned, fen: self.fen(), outcome: self.outcome() })
    }

    /// Takes back the last move; returns it, or None at the start.
    pub fn undo(&mut self) -> Option<MoveInfo> {
        self.game.undo().as_ref().map(move_info)
    }

    /// Plays again the last move taken back; returns it, or None.
    pub fn redo(&mut self) -> Option<MoveInfo> {
        self.game.redo().as_ref().map(move_info)
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        let mut probe = self.game.clone();
        probe.redo().is_some()
    }

    /// The moves played, in PDN text.
    pub fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<MoveInfo> {
        self.game.moves().last().map(move_info)
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<OutcomeInfo> {
        self.game.outcome().map(outcome_info)
    }

    /// The game as PDN (with a FEN tag when set up, and the result).
    pub fn pdn(&self) -> String {
        self.game.to_pdn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_moves() {
        let mut s = Session::new(None).unwrap();
        assert_eq!(s.turn(), 'b');
        assert_eq!(s.legal_moves().len(), 7);
        assert_eq!(s.board()[0], "b");
        assert_eq!(s.board()[31], "w");
        let played = s.play(" 11-15 ").unwrap();
        assert_eq!(played.info.path, vec![11, 15]);
        assert!(!played.crowned && played.outcome.is_none());
        assert_eq!(s.turn(), 'w');
        assert!(!s.can_redo());
        assert_eq!(s.undo().unwrap().text, "11-15");
        assert!(s.can_redo());
        assert_eq!(s.redo().unwrap().text, "11-15");
        assert!(!s.can_redo());
        assert_eq!(s.moves(), ["11-15"]);
    }

    #[test]
    fn bad_input_leaves_the_game_alone() {
        assert!(Session::new(Some("B:W99:B1")).unwrap_err().starts_with("bad FEN"));
        assert!(Session::from_pdn("1. 11-15 11-15").unwrap_err().starts_with("bad PDN"));
        let mut s = Session::new(None).unwrap();
        let before = s.fen();
        for text in ["", "11-18", "x", "99-100", "22-18"] {
            assert!(s.play(text).is_err(), "{text}");
            assert_eq!(s.fen(), before);
        }
        assert!(s.undo().is_none() && s.redo().is_none());
    }

    #[test]
    fn triple_capture_crowning_and_win() {
        // Black's man on 1 takes 6, 15 and 24, White's last pieces.
        let mut s = Session::new(Some("B:W6,15,24:B1")).unwrap();
        assert_eq!(s.capturing_squares(), vec![1]);
        let moves = s.legal_moves();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].text, "1x10x19x28");
        assert_eq!(moves[0].captured, vec![6, 15, 24]);
        let played = s.play("1x28").unwrap();
        assert!(!played.crowned);
        let outcome = played.outcome.unwrap();
        assert_eq!((outcome.result, outcome.reason, outcome.winner), ("1-0", "no-moves", Some('b')));
        assert_eq!(outcome.text, "Black wins: White cannot move");
        assert!(s.legal_moves().is_empty());
        assert!(s.pdn().ends_with("1x10x19x28 1-0"), "{}", s.pdn());
        let back = Session::from_pdn(&s.pdn()).unwrap();
        assert_eq!(back.fen(), s.fen());
    }

    #[test]
    fn crowning() {
        let mut s = Session::new(Some("B:W9:B26")).unwrap();
        let played = s.play("26-31").unwrap();
        assert!(played.crowned);
        assert_eq!(s.board()[30], "B");
        assert!(!s.play("9-5").unwrap().crowned);
    }
}
