//! Moves and fixed-capacity move lists.

use crate::bitboard::Bitboard;
use crate::types::{PieceKind, Square};

const BACK_RANKS: u64 = 0xFF00_0000_0000_00FF;
use std::fmt;

/// A move: from, to and an optional promotion, packed in 16 bits.
///
/// Castling is the king's two-square move (`e1g1`), en passant the pawn's diagonal step.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`, promoting to `promotion` (knight to queen) if given.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promotion: Option<PieceKind>) -> Move {
        let promo = match promotion {
            Some(kind) => kind as u16,
            None => 0,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | promo << 12)
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The square the piece reaches.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 6 & 63) as u8)
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.0 >> 12 {
            0 => None,
            k => Some(PieceKind::from_index(k as usize)),
        }
    }

    /// The packed 16-bit form (for hash tables).
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The move packed by [`Move::to_u16`]; `None` if the bits are not a move.
    pub const fn from_u16(bits: u16) -> Option<Move> {
        if bits >> 12 > PieceKind::Queen as u16 {
            return None;
        }
        Some(Move(bits))
    }

    /// Parses the square-and-promotion part of a UCI move (`e2e4`, `e7e8q`) without a board.
    pub fn parse_uci_squares(s: &str) -> Option<Move> {
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return None;
        }
        let from = Square::parse(crate::text::part(s, 0..2))?;
        let to = Square::parse(crate::text::part(s, 2..4))?;
        let promotion = match crate::text::part(s, 4..).chars().next() {
            None => None,
            Some(c) => match PieceKind::from_char(c)? {
                PieceKind::Pawn | PieceKind::King => return None,
                kind => Some(kind),
            },
        };
        Some(Move::new(from, to, promotion))
    }
}

impl fmt::Display for Move {
    /// The UCI form: `e2e4`, `e7e8q`, `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion() {
            write!(f, "{}", kind.to_lower())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The legal moves of one piece: its kind, its square and the set of target squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece's kind.
    pub kind: PieceKind,
    /// Where it stands.
    pub from: Square,
    /// Where it may go.
    pub to: Bitboard,
}

impl PieceMoves {
    /// Whether these are pawn moves onto the last rank (each target is four moves).
    #[inline(always)]
    pub fn is_promotion(&self) -> bool {
        // A pawn's targets lie on the first or last rank only when it promotes.
        self.kind == PieceKind::Pawn && self.to.0 & BACK_RANKS != 0
    }

    /// How many moves these are.
    #[inline(always)]
    pub fn len(&self) -> usize {
        let n = self.to.count() as usize;
        if self.is_promotion() {
            n * 4
        } else {
            n
        }
    }

    /// Whether there are none.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// Each move, promotions expanded to queen, rook, bishop and knight.
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        if self.is_promotion() {
            for to in self.to {
                for kind in PieceKind::PROMOTIONS {
                    f(Move::new(self.from, to, Some(kind)));
                }
            }
        } else {
            for to in self.to {
                f(Move::new(self.from, to, None));
            }
        }
    }
}

/// The most moves a legal chess position can have is 218.
pub const MAX_MOVES: usize = 256;

/// A list of up to [`MAX_MOVES`] moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [Move(0); MAX_MOVES], len: 0 }
    }

    /// Appends a move; a full list ignores it (cannot happen for legal positions).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
