//! The position: three 32-bit bitboards over the dark squares, the side to move, and the
//! counter of the 40-move rule.
//!
//! Bit `i` is PDN square `i + 1`. Square 1 is on Black's back row (squares 1-4), square 32 on
//! White's (29-32). Rows hold four squares each; on even rows (0, 2, 4, 6 counted from Black's
//! side) the dark squares are in columns 1, 3, 5, 7, on odd rows in columns 0, 2, 4, 6.

use crate::movegen::Move;
use std::fmt;

/// A set of squares, bit `i` for PDN square `i + 1`.
pub type Bitboard = u32;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first, starts on squares 1-12 and moves towards 32.
    Black,
    /// Starts on squares 21-32 and moves towards 1.
    White,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The PDN letter, `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The lower-case name, `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// A man or a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Moves and captures forward only.
    Man,
    /// Moves and captures one square in every diagonal direction.
    King,
}

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

/// Rows of the board as bitboards: even rows (1-4, 9-12, ...) and odd rows (5-8, 13-16, ...).
pub(crate) const EVEN_ROWS: Bitboard = 0x0F0F_0F0F;
/// Odd rows.
pub(crate) const ODD_ROWS: Bitboard = 0xF0F0_F0F0;
/// The first square of every row (5, 13, 21, 29 are on the left edge; 1, 9, 17, 25 are not).
const FIRST_IN_ROW: Bitboard = 0x1111_1111;
/// The last square of every row (4, 12, 20, 28 are on the right edge).
const LAST_IN_ROW: Bitboard = 0x8888_8888;
/// Black's back row, squares 1-4, where White men are crowned.
pub const BLACK_BACK_ROW: Bitboard = 0x0000_000F;
/// White's back row, squares 29-32, where Black men are crowned.
pub const WHITE_BACK_ROW: Bitboard = 0xF000_0000;
/// The squares on the edge of the board.
pub const EDGE: Bitboard = BLACK_BACK_ROW | WHITE_BACK_ROW | (ODD_ROWS & FIRST_IN_ROW) | (EVEN_ROWS & LAST_IN_ROW);
/// The two dark corner squares, 4 and 29.
pub const CORNERS: Bitboard = (1 << 3) | (1 << 28);

/// The four diagonal directions; "down" is towards square 32 (Black's forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    DownLeft,
    DownRight,
    UpLeft,
    UpRight,
}

impl Dir {
    /// All four directions.
    pub(crate) const ALL: [Dir; 4] = [Dir::DownLeft, Dir::DownRight, Dir::UpLeft, Dir::UpRight];
    /// A Black man's directions.
    pub(crate) const BLACK_MAN: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    /// A White man's directions.
    pub(crate) const WHITE_MAN: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];

    /// Every square of `b` moved one step this way; squares that would leave the board vanish.
    #[inline]
    pub(crate) fn step(self, b: Bitboard) -> Bitboard {
        match self {
            Dir::DownLeft => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !FIRST_IN_ROW) << 3),
            Dir::DownRight => ((b & EVEN_ROWS & !LAST_IN_ROW) << 5) | ((b & ODD_ROWS) << 4),
            Dir::UpLeft => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !FIRST_IN_ROW) >> 5),
            Dir::UpRight => ((b & EVEN_ROWS & !LAST_IN_ROW) >> 3) | ((b & ODD_ROWS) >> 4),
        }
    }

    /// The opposite direction.
    #[inline]
    pub(crate) fn back(self) -> Dir {
        match self {
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
        }
    }
}

/// SplitMix64 step, usable in constants.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys: `[piece][square]` with piece 0 black man, 1 black king, 2 white man, 3 white king.
const ZOBRIST: [[u64; 32]; 4] = {
    let mut keys = [[0u64; 32]; 4];
    let mut p = 0;
    while p < 4 {
        let mut s = 0;
        while s < 32 {
            keys[p][s] = mix(0x9E37_79B9_7F4A_7C15u64.wrapping_mul((p * 32 + s + 1) as u64));
            s += 1;
        }
        p += 1;
    }
    keys
};
/// Key toggled when White is to move.
const ZOBRIST_WHITE: u64 = mix(0xC0FF_EE00_D1CE_5EED);

fn zobrist_index(color: Color, kind: Kind) -> usize {
    match (color, kind) {
        (Color::Black, Kind::Man) => 0,
        (Color::Black, Kind::King) => 1,
        (Color::White, Kind::Man) => 2,
        (Color::White, Kind::King) => 3,
    }
}

/// The plies without a capture or a man move after which the game is drawn (40 moves each).
pub const QUIET_PLIES_DRAW: u16 = 80;

/// A checkers position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    black: Bitboard,
    white: Bitboard,
    kings: Bitboard,
    side: Color,
    quiet: u16,
    hash: u64,
}

impl Position {
    /// The start position: Black on 1-12, White on 21-32, Black to move.
    pub fn start() -> Position {
        Position::from_parts(0x0000_0FFF, 0xFFF0_0000, 0, Color::Black)
    }

    /// A position from bitboards; the caller guarantees the sets are disjoint and kings occupied.
    pub(crate) fn from_parts(black: Bitboard, white: Bitboard, kings: Bitboard, side: Color) -> Position {
        let mut p = Position { black, white, kings, side, quiet: 0, hash: 0 };
        p.hash = p.compute_hash();
        p
    }

    /// An empty board with `side` to move, to be filled with [`Position::put`].
    pub fn empty(side: Color) -> Position {
        Position::from_parts(0, 0, 0, side)
    }

    /// Puts `piece` on `square` (1-32), replacing whatever was there.
    ///
    /// # Panics
    /// If `square` is not in 1-32.
    pub fn put(&mut self, square: u8, piece: Piece) {
        assert!((1..=32).contains(&square), "square {square} is not on the board");
        let bit = 1u32 << (square - 1);
        self.black &= !bit;
        self.white &= !bit;
        self.kings &= !bit;
        match piece.color {
            Color::Black => self.black |= bit,
            Color::White => self.white |= bit,
        }
        if piece.kind == Kind::King {
            self.kings |= bit;
        }
        self.hash = self.compute_hash();
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Black's pieces.
    pub fn black(&self) -> Bitboard {
        self.black
    }

    /// White's pieces.
    pub fn white(&self) -> Bitboard {
        self.white
    }

    /// All kings of both sides.
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The pieces of `color`.
    pub fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The empty squares.
    pub fn empty_squares(&self) -> Bitboard {
        !(self.black | self.white)
    }

    /// The piece on `square` (1-32), if any.
    pub fn piece_at(&self, square: u8) -> Option<Piece> {
        if !(1..=32).contains(&square) {
            return None;
        }
        let bit = 1u32 << (square - 1);
        let kind = if self.kings & bit != 0 { Kind::King } else { Kind::Man };
        if self.black & bit != 0 {
            Some(Piece { color: Color::Black, kind })
        } else if self.white & bit != 0 {
            Some(Piece { color: Color::White, kind })
        } else {
            None
        }
    }

    /// Plies since the last capture or man move (the 40-move rule draws at 80).
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// Sets the quiet-ply counter (for positions set up mid-game).
    pub fn set_quiet_plies(&mut self, plies: u16) {
        self.quiet = plies;
    }

    /// The Zobrist key of the placement and side to move (not of the quiet counter).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::White { ZOBRIST_WHITE } else { 0 };
        for (color, set) in [(Color::Black, self.black), (Color::White, self.white)] {
            let mut b = set;
            while b != 0 {
                let s = b.trailing_zeros() as usize;
                b &= b - 1;
                let kind = if self.kings & (1 << s) != 0 { Kind::King } else { Kind::Man };
                h ^= ZOBRIST[zobrist_index(color, kind)][s];
            }
        }
        h
    }

    /// Plays `m`, which must be legal here (see [`Position::legal_moves`]).
    pub fn play(&mut self, m: &Move) {
        let from = 1u32 << (m.from() - 1);
        let to = 1u32 << (m.to() - 1);
        let us = self.side;
        let was_king = self.kings & from != 0;
        let zi = zobrist_index(us, if was_king { Kind::King } else { Kind::Man });
        self.hash ^= ZOBRIST[zi][(m.from() - 1) as usize];

        // Captured pieces leave the board and the hash.
        let captured = m.captured();
        let them = us.opponent();
        let mut c = captured;
        while c != 0 {
            let s = c.trailing_zeros() as usize;
            c &= c - 1;
            let kind = if self.kings & (1 << s) != 0 { Kind::King } else { Kind::Man };
            self.hash ^= ZOBRIST[zobrist_index(them, kind)][s];
        }
        let crowned = !was_king && to & crown_row(us) != 0;
        let king_after = was_king || crowned;
        match us {
            Color::Black => {
                self.black = (self.black & !from) | to;
                self.white &= !captured;
            }
            Color::White => {
                self.white = (self.white & !from) | to;
                self.black &= !captured;
            }
        }
        self.kings &= !(captured | from);
        if king_after {
            self.kings |= to;
        }
        let zi = zobrist_index(us, if king_after { Kind::King } else { Kind::Man });
        self.hash ^= ZOBRIST[zi][(m.to() - 1) as usize];
        self.hash ^= ZOBRIST_WHITE;
        self.side = them;
        self.quiet = if captured != 0 || !was_king { 0 } else { self.quiet.saturating_add(1) };
    }

    /// The position after `m`.
    pub fn after(&self, m: &Move) -> Position {
        let mut p = *self;
        p.play(m);
        p
    }
}

/// The row where `color`'s men are crowned.
pub(crate) fn crown_row(color: Color) -> Bitboard {
    match color {
        Color::Black => WHITE_BACK_ROW,
        Color::White => BLACK_BACK_ROW,
    }
}

/// The row (0-7, from Black's back row) of a square 1-32.
pub fn row_of(square: u8) -> u8 {
    (square - 1) / 4
}

/// The column (0-7, left to right as White sees the board) of a square 1-32.
pub fn column_of(square: u8) -> u8 {
    let row = row_of(square);
    let k = (square - 1) % 4;
    if row.is_multiple_of(2) {
        2 * k + 1
    } else {
        2 * k
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Display for Position {
    /// A text diagram, Black's back row at the top: `b`/`w` men, `B`/`W` kings, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8u8 {
            let mut line = String::new();
            for col in 0..8u8 {
                let dark = (row + col) % 2 == 1;
                let c = if !dark {
                    ' '
                } else {
                    let square = row * 4 + col / 2 + 1;
                    match self.piece_at(square) {
                        None => '.',
                        Some(Piece { color: Color::Black, kind: Kind::Man }) => 'b',
                        Some(Piece { color: Color::Black, kind: Kind::King }) => 'B',
                        Some(Piece { color: Color::White, kind: Kind::Man }) => 'w',
                        Some(Piece { color: Color::White, kind: Kind::King }) => 'W',
                    }
                };
                line.push(c);
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        write!(f, "{} to move", self.side.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour of a square by coordinates, computed without bit tricks.
    fn neighbour(square: u8, drow: i8, dcol: i8) -> Option<u8> {
        let row = row_of(square) as i8 + drow;
        let col = column_of(square) as i8 + dcol;
        if !(0..8).contains(&row) || !(0..8).contains(&col) {
            return None;
        }
        Some((row * 4 + col / 2 + 1) as u8)
    }

    #[test]
    fn steps_match_coordinates() {
        for square in 1..=32u8 {
            let bit = 1u32 << (square - 1);
            for (dir, dr, dc) in
                [(Dir::DownLeft, 1, -1), (Dir::DownRight, 1, 1), (Dir::UpLeft, -1, -1), (Dir::UpRight, -1, 1)]
            {
                let expected = neighbour(square, dr, dc).map_or(0, |s| 1u32 << (s - 1));
                assert_eq!(dir.step(bit), expected, "square {square} {dir:?}");
                if expected != 0 {
                    assert_eq!(dir.back().step(expected), bit);
                }
            }
        }
    }

    #[test]
    fn edges_and_corners() {
        let edge: Vec<u8> = (1..=32).filter(|s| EDGE & (1 << (s - 1)) != 0).collect();
        assert_eq!(edge, [1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32]);
        assert_eq!(column_of(4), 7);
        assert_eq!(column_of(29), 0);
        assert_eq!((column_of(1), column_of(5), column_of(32)), (1, 0, 6));
    }

    #[test]
    fn hash_is_incremental() {
        let mut p = Position::start();
        for m in ["11-15", "22-18", "15x22", "25x18"] {
            let mv = p.parse_move(m).unwrap();
            p.play(&mv);
            assert_eq!(p.hash(), p.compute_hash(), "after {m}");
        }
    }
}
