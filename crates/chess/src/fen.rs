//! Forsyth–Edwards Notation: reading with validation, and writing.

use crate::board::{Board, CastleSide, CastlingRights};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use std::fmt;

/// The FEN of the standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was refused: the field (1–6, or 0 for the position as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The 1-based FEN field at fault; 0 when the position as a whole is illegal.
    pub field: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field == 0 {
            write!(f, "FEN: {}", self.message)
        } else {
            write!(f, "FEN field {}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for FenError {}

fn err<T>(field: usize, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError { field, message: message.into() })
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl std::str::FromStr for Board {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl Board {
    /// Reads a FEN. The clocks may be left out (they default to `0 1`); everything else is
    /// checked, and the error says which field is wrong and why.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return err(0, "empty string, expected six fields such as \"".to_string() + STARTPOS + "\"");
        }
        if fields.len() < 4 {
            return err(
                0,
                format!("{} field(s) given, expected 6 (placement, side, castling, en passant, clocks)", fields.len()),
            );
        }
        if fields.len() > 6 {
            return err(0, format!("{} fields given, expected at most 6", fields.len()));
        }
        let mut board = Board::empty();
        read_placement(&mut board, fields[0])?;

        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(2, format!("side to move must be 'w' or 'b', got '{other}'")),
        };
        board.castling = read_castling(&board, fields[2])?;
        board.ep = read_en_passant(&board, fields[3])?;
        if let Some(text) = fields.get(4) {
            board.halfmove_clock = read_count(text, 5, "half-move clock")?;
        }
        if let Some(text) = fields.get(5) {
            board.fullmove_number = read_count(text, 6, "move number")?;
        }

        let them = board.side.flip();
        if board.is_attacked(board.king(them), board.side, board.occupied()) {
            return err(
                0,
                format!("the side not to move ({}) is in check", if them == Color::White { "White" } else { "Black" }),
            );
        }
        if board.checkers().count() > 2 {
            return err(0, "the side to move is in check from more than two pieces");
        }
        board.hash = board.compute_hash();
        Ok(board)
    }

    /// The position as FEN (all six fields).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file).unwrap();
                match self.piece_on(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.to_char());
                    }
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side.to_char());
        out.push(' ');
        let rights = [
            (Color::White, CastleSide::Short, 'K'),
            (Color::White, CastleSide::Long, 'Q'),
            (Color::Black, CastleSide::Short, 'k'),
            (Color::Black, CastleSide::Long, 'q'),
        ];
        let before = out.len();
        for (color, side, c) in rights {
            if self.castling.has(color, side) {
                out.push(c);
            }
        }
        if out.len() == before {
            out.push('-');
        }
        out.push(' ');
        match self.ep {
            Some(sq) => out.push_str(&sq.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove_clock, self.fullmove_number));
        out
    }
}

impl fmt::Display for Board {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

fn read_placement(board: &mut Board, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return err(1, format!("piece placement has {} ranks, expected 8 separated by '/'", ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).unwrap();
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return err(1, format!("rank {}: '{c}' is not a count of empty squares (1-8)", rank.to_char()));
                }
                file += d as u8;
            } else {
                let piece = Piece::from_char(c).ok_or_else(|| FenError {
                    field: 1,
                    message: format!("rank {}: '{c}' is not a piece letter (PNBRQK or pnbrqk)", rank.to_char()),
                })?;
                if file < 8 {
                    let sq = Square::from_coords(File::new(file).unwrap(), rank);
                    if piece.kind == PieceKind::Pawn && (rank.index() == 0 || rank.index() == 7) {
                        return err(1, format!("pawn on {sq}: pawns cannot stand on the first or last rank"));
                    }
                    board.put(sq, piece);
                }
                file += 1;
            }
            if file > 8 {
                return err(1, format!("rank {} describes more than 8 squares", rank.to_char()));
            }
        }
        if file < 8 {
            return err(1, format!("rank {} describes {file} squares, expected 8", rank.to_char()));
        }
    }
    for color in Color::ALL {
        let kings = board.colored_pieces(color, PieceKind::King).count();
        if kings != 1 {
            let name = color_name(color);
            let found = if kings == 0 { format!("no {name} king") } else { format!("{kings} {name} kings") };
            return err(1, format!("{found}, a position needs exactly one"));
        }
        let pawns = board.colored_pieces(color, PieceKind::Pawn).count();
        if pawns > 8 {
            return err(1, format!("{pawns} {} pawns, at most 8 are possible", color_name(color)));
        }
        let pieces = board.colored(color).count();
        if pieces > 16 {
            return err(1, format!("{pieces} {} pieces, at most 16 are possible", color_name(color)));
        }
        // Pieces beyond the starting set must come from promoted pawns.
        let extra = |kind: PieceKind, start: u32| board.colored_pieces(color, kind).count().saturating_sub(start);
        let promoted = extra(PieceKind::Knight, 2)
            + extra(PieceKind::Bishop, 2)
            + extra(PieceKind::Rook, 2)
            + extra(PieceKind::Queen, 1);
        if pawns + promoted > 8 {
            return err(
                1,
                format!(
                    "{} has {pawns} pawns and {promoted} promoted pieces, more than 8 pawns could give",
                    color_name(color)
                ),
            );
        }
    }
    Ok(())
}

/// A clock field: decimal digits only (no sign), within u32.
fn read_count(text: &str, field: usize, what: &str) -> Result<u32, FenError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(field, format!("{what} must be a whole number, got '{text}'"));
    }
    text.parse().or_else(|_| err(field, format!("{what} is too large: '{text}'")))
}

fn read_castling(board: &Board, text: &str) -> Result<CastlingRights, FenError> {
    if text == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in text.chars() {
        let (color, side, rook_file) = match c {
            'K' => (Color::White, CastleSide::Short, 7),
            'Q' => (Color::White, CastleSide::Long, 0),
            'k' => (Color::Black, CastleSide::Short, 7),
            'q' => (Color::Black, CastleSide::Long, 0),
            _ => return err(3, format!("castling rights must be '-' or letters from KQkq, got '{c}' in '{text}'")),
        };
        let bit = CastlingRights::bit(color, side);
        if rights.0 & bit != 0 {
            return err(3, format!("castling right '{c}' is given twice"));
        }
        let home = Rank::new(0).unwrap().relative(color);
        let king_sq = Square::from_coords(File::new(4).unwrap(), home);
        let rook_sq = Square::from_coords(File::new(rook_file).unwrap(), home);
        if board.piece_on(king_sq) != Some(Piece::new(color, PieceKind::King))
            || board.piece_on(rook_sq) != Some(Piece::new(color, PieceKind::Rook))
        {
            return err(
                3,
                format!(
                    "castling right '{c}' needs the {0} king on {king_sq} and a {0} rook on {rook_sq}",
                    color_name(color)
                ),
            );
        }
        rights.0 |= bit;
    }
    Ok(rights)
}

fn read_en_passant(board: &Board, text: &str) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq = Square::parse(text).ok_or_else(|| FenError {
        field: 4,
        message: format!("en passant square must be '-' or a square such as e3, got '{text}'"),
    })?;
    let us = board.side;
    let them = us.flip();
    let expected_rank = Rank::new(5).unwrap().relative(us);
    if sq.rank() != expected_rank {
        return err(
            4,
            format!(
                "impossible en passant square {sq}: with {} to move it must be on rank {}",
                if us == Color::White { "White" } else { "Black" },
                expected_rank.to_char()
            ),
        );
    }
    let pawn_sq = Square::from_coords(sq.file(), Rank::new(4).unwrap().relative(us));
    let origin = Square::from_coords(sq.file(), Rank::new(6).unwrap().relative(us));
    if board.piece_on(pawn_sq) != Some(Piece::new(them, PieceKind::Pawn)) {
        return err(4, format!("impossible en passant square {sq}: no {} pawn on {pawn_sq}", color_name(them)));
    }
    if board.occupied().has(sq) || board.occupied().has(origin) {
        return err(
            4,
            format!("impossible en passant square {sq}: {sq} and {origin} must be empty after a double step"),
        );
    }
    Ok(Some(sq))
}
