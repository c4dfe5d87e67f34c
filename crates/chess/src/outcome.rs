//! How a game ends: results, reasons, and the endings one position decides on its own
//! (checkmate, stalemate, dead position, the 75-move rule).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, PieceKind};
use std::fmt;

/// Who won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Nobody won (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winning side, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PGN form: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn to_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result: `Some(None)` for the unfinished `*`, `None` if `s` is no result.
    pub fn from_pgn(s: &str) -> Option<Option<GameResult>> {
        match s {
            "1-0" => Some(Some(GameResult::WhiteWins)),
            "0-1" => Some(Some(GameResult::BlackWins)),
            "1/2-1/2" | "½-½" => Some(Some(GameResult::Draw)),
            "*" => Some(None),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    /// Writes the PGN form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_pgn())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move (automatic).
    Checkmate,
    /// The side to move is not in check and has no legal move (automatic).
    Stalemate,
    /// Neither side can ever mate: a dead position by material (automatic).
    InsufficientMaterial,
    /// The same position occurred five times (automatic).
    FivefoldRepetition,
    /// 75 moves by each side without a capture or pawn move (automatic).
    SeventyFiveMoveRule,
    /// The same position occurred three times and a player claimed the draw.
    ThreefoldRepetition,
    /// 50 moves by each side without a capture or pawn move and a player claimed the draw.
    FiftyMoveRule,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A player ran out of time.
    Timeout,
    /// The record gives the result but not the reason (for example a PGN file).
    Unspecified,
}

impl EndReason {
    /// Whether the rules end the game by themselves, without a claim or a player's decision.
    pub const fn is_automatic(self) -> bool {
        matches!(
            self,
            EndReason::Checkmate
                | EndReason::Stalemate
                | EndReason::InsufficientMaterial
                | EndReason::FivefoldRepetition
                | EndReason::SeventyFiveMoveRule
        )
    }

    /// A short English description, such as `checkmate` or `fivefold repetition`.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::FivefoldRepetition => "fivefold repetition",
            EndReason::SeventyFiveMoveRule => "the 75-move rule",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::FiftyMoveRule => "the 50-move rule",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "timeout",
            EndReason::Unspecified => "an unspecified reason",
        }
    }
}

/// The end of a game: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// An outcome with this result and reason.
    pub const fn new(result: GameResult, reason: EndReason) -> Outcome {
        Outcome { result, reason }
    }

    /// A draw for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome::new(GameResult::Draw, reason)
    }
}

impl fmt::Display for Outcome {
    /// Writes for example `White wins by checkmate` or `draw by stalemate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result {
            GameResult::WhiteWins => write!(f, "White wins by {}", self.reason.describe()),
            GameResult::BlackWins => write!(f, "Black wins by {}", self.reason.describe()),
            GameResult::Draw => write!(f, "draw by {}", self.reason.describe()),
        }
    }
}

/// The dark squares (a1 is dark).
const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

impl Board {
    /// Whether neither side can ever mate whatever is played: king against king, king and one
    /// minor piece against king, or kings with bishops that all stand on squares of one colour.
    ///
    /// Other dead positions (such as locked pawn chains) are not detected.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy_or_pawns =
            self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        if heavy_or_pawns.any() {
            return false;
        }
        let knights = self.pieces(PieceKind::Knight);
        let bishops = self.pieces(PieceKind::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        // Several minors: dead only if they are all bishops on one colour of square.
        knights.is_empty() && ((bishops & DARK_SQUARES).is_empty() || (bishops & !DARK_SQUARES).is_empty())
    }

    /// Whether `color` has the material to checkmate in some sequence of legal moves, the test
    /// when the other side runs out of time (a flag against a side that cannot mate is a draw).
    ///
    /// A pawn, rook or queen, two knights, or a knight and a bishop can mate. A lone knight mates
    /// only with an opposing pawn, knight, bishop or rook to block its victim's flight (queens
    /// always capture the knight or step in its way); bishops all on one colour of square mate
    /// only with an opposing pawn, knight or bishop of the other colour to block. A bare king
    /// never mates.
    pub fn has_mating_material(&self, color: Color) -> bool {
        let own = |kind| self.colored_pieces(color, kind);
        let theirs = |kind| self.colored_pieces(color.flip(), kind);
        if (own(PieceKind::Pawn) | own(PieceKind::Rook) | own(PieceKind::Queen)).any() {
            return true;
        }
        let (knights, bishops) = (own(PieceKind::Knight), own(PieceKind::Bishop));
        match (knights.count(), bishops.count()) {
            (0, 0) => false,
            (1, 0) => (theirs(PieceKind::Pawn)
                | theirs(PieceKind::Knight)
                | theirs(PieceKind::Bishop)
                | theirs(PieceKind::Rook))
            .any(),
            (0, _) => {
                let dark = (bishops & DARK_SQUARES).any();
                let light = (bishops & !DARK_SQUARES).any();
                // Bishops on both colours can mate; on one colour only with a blocker on the other.
                let other_colour = if dark { !DARK_SQUARES } else { DARK_SQUARES };
                (dark && light)
                    || (theirs(PieceKind::Pawn) | theirs(PieceKind::Knight)).any()
                    || (theirs(PieceKind::Bishop) & other_colour).any()
            }
            _ => true,
        }
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// The automatic ending this position decides by itself: checkmate, stalemate, a dead
    /// position by material, or the 75-move rule (checkmate on the 75th move takes precedence).
    /// Repetition needs the game's history: see `Game::outcome`.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.in_check() {
                Outcome::new(GameResult::win_for(self.side_to_move().flip()), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if self.halfmove_clock() >= 150 {
            return Some(Outcome::draw(EndReason::SeventyFiveMoveRule));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mating(fen: &str, color: Color) -> bool {
        Board::from_fen(fen).unwrap().has_mating_material(color)
    }

    #[test]
    fn mating_material_by_piece() {
        let (w, b) = (Color::White, Color::Black);
        // Bare king; pawns, rooks and queens.
        assert!(!mating("4k3/8/8/8/8/8/8/4K3 w - - 0 1", w));
        assert!(mating("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", w));
        assert!(!mating("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", b));
        assert!(mating("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", w));
        assert!(mating("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", w));
        // A lone knight: against a bare king or queens no, against a pawn, minor or rook yes.
        assert!(!mating("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", w));
        assert!(!mating("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", w));
        assert!(mating("4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1", w));
        assert!(mating("r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1", w));
        // Two knights, knight and bishop.
        assert!(mating("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", w));
        assert!(mating("4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1", w));
        // Bishops: f1 and c1 are on opposite colours; f1 and d3 the same (light).
        assert!(mating("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", w));
        assert!(!mating("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", w));
        assert!(!mating("4k3/8/8/8/8/3B4/8/4KB2 w - - 0 1", w));
        assert!(!mating("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", w), "a same-coloured bishop cannot block");
        assert!(mating("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", w), "an opposite-coloured bishop can block");
        assert!(mating("4k3/7p/8/8/8/8/8/4KB2 w - - 0 1", w));
        assert!(mating("1n2k3/8/8/8/8/8/8/4KB2 w - - 0 1", w));
        assert!(!mating("r2qk3/8/8/8/8/8/8/4KB2 w - - 0 1", w));
    }
}
