//! Moves from text checked against a position: UCI (`e2e4`, `e7e8q`) and UCI-or-SAN input.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::san::kind_name;
use crate::types::{Color, PieceKind};
use std::fmt;

/// Why a move was refused. Each variant keeps the move's text and says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in UCI or SAN form.
    NotAMove {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A well-formed move that is not legal in the position.
    Illegal {
        /// The move as given.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
    /// SAN that several legal moves match.
    Ambiguous {
        /// The text as given.
        text: String,
        /// Which pieces could make it.
        reason: String,
    },
    /// The game has already ended, so no move may follow.
    GameOver {
        /// The move as given.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAMove { text, reason } => write!(f, "not a move: '{text}' — {reason}"),
            MoveError::Illegal { text, reason } => write!(f, "illegal move: {text} — {reason}"),
            MoveError::Ambiguous { text, reason } => write!(f, "ambiguous move: {text} — {reason}"),
            MoveError::GameOver { text, outcome } => {
                write!(f, "move {text} refused: the game is over ({outcome})")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// White or Black, capitalised.
fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Board {
    /// Reads a move in UCI form (`e2e4`, `e7e8q`, castling as `e1g1`) and checks that it is
    /// legal here. Castling written as the king taking its own rook (`e1h1`, `e1a1`, the
    /// Chess960 convention some programs use) is accepted too.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let m = Move::parse_uci_squares(text).ok_or_else(|| MoveError::NotAMove {
            text: text.to_string(),
            reason: "expected a UCI move: two squares and an optional promotion letter, as in e2e4 or e7e8q"
                .to_string(),
        })?;
        self.check_legal(m, text)
    }

    /// Reads a move in UCI form or, failing that, in SAN (see [`Board::parse_san`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        match Move::parse_uci_squares(text) {
            Some(m) => self.check_legal(m, text),
            None => Ok(self.parse_san(text)?),
        }
    }

    /// `m` itself if legal (castling as king-takes-rook mapped to the king's move), else why not.
    fn check_legal(&self, m: Move, text: &str) -> Result<Move, MoveError> {
        if self.is_legal(m) {
            return Ok(m);
        }
        if let Some(castle) = self.king_takes_rook(m) {
            return Ok(castle);
        }
        Err(self.illegal_error(m, text))
    }

    /// The error for a well-formed move `m` (written `text`) that is not legal here.
    pub(crate) fn illegal_error(&self, m: Move, text: &str) -> MoveError {
        MoveError::Illegal { text: text.to_string(), reason: self.why_illegal(m) }
    }

    /// The castling move meant by the king "capturing" its own rook, if legal.
    fn king_takes_rook(&self, m: Move) -> Option<Move> {
        let us = self.side_to_move();
        if m.promotion().is_some()
            || m.from() != self.king(us)
            || !self.colored_pieces(us, PieceKind::Rook).has(m.to())
            || m.from().rank() != m.to().rank()
        {
            return None;
        }
        let long = m.to().file() < m.from().file();
        self.moves_from(m.from())
            .iter()
            .copied()
            .find(|&c| self.is_castling(c) && (c.to().file() < c.from().file()) == long)
    }

    /// Explains why a well-formed move is not legal.
    fn why_illegal(&self, m: Move) -> String {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_on(from) else {
            return format!("there is no piece on {from}");
        };
        let name = kind_name(piece.kind, false);
        if piece.color != us {
            return format!("the {name} on {from} is {}'s, and {} is to move", side_name(piece.color), side_name(us));
        }
        if from == to {
            return "a move must change squares".to_string();
        }
        let last_rank = to.rank().relative(us).index() == 7;
        match (piece.kind, m.promotion()) {
            (PieceKind::Pawn, None) if last_rank => {
                return format!("a pawn reaching {to} must promote: add q, r, b or n");
            }
            (PieceKind::Pawn, Some(PieceKind::Pawn | PieceKind::King)) => {
                return "a pawn promotes to a queen, rook, bishop or knight".to_string();
            }
            (PieceKind::Pawn, Some(_)) if !last_rank => {
                return format!("a pawn promotes only on the last rank, and {to} is not on it");
            }
            (kind, Some(_)) if kind != PieceKind::Pawn => {
                return format!("only pawns promote, and the piece on {from} is a {name}");
            }
            _ => {}
        }
        if self.colored(us).has(to) {
            return format!("{to} holds a piece of the side to move");
        }
        if self.is_castling(m) {
            return "castling is not allowed here (rights lost, path blocked or attacked, or in check)".to_string();
        }
        if self.reaches(piece.kind, m) {
            let colour = if us == Color::White { "white" } else { "black" };
            format!("it would leave the {colour} king in check")
        } else {
            format!("the {name} on {from} cannot move to {to}")
        }
    }

    /// Whether the piece on `m.from()` could make the move if checks were ignored.
    fn reaches(&self, kind: PieceKind, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let occ = self.occupied();
        let us = self.side_to_move();
        let target = Bitboard::from_square(to);
        match kind {
            PieceKind::Pawn => {
                let enemy = self.colored(us.flip()) | self.en_passant().map_or(Bitboard::EMPTY, Bitboard::from_square);
                let step = if us == Color::White { 1 } else { -1 };
                let one = from.offset(0, step);
                let two = from.offset(0, 2 * step);
                let home = from.rank().relative(us).index() == 1;
                (attacks::pawn(us, from) & enemy & target).any()
                    || (one == Some(to) && !occ.has(to))
                    || (home && two == Some(to) && one.is_some_and(|s| !occ.has(s)) && !occ.has(to))
            }
            PieceKind::Knight => attacks::knight(from).has(to),
            PieceKind::Bishop => attacks::bishop(from, occ).has(to),
            PieceKind::Rook => attacks::rook(from, occ).has(to),
            PieceKind::Queen => attacks::queen(from, occ).has(to),
            PieceKind::King => attacks::king(from).has(to),
        }
    }
}
