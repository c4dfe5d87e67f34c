//! Moves and their bitboard generation: simple moves by shifting whole sets, captures by a
//! depth-first walk from each piece that can jump.
//!
//! Captures are compulsory and a capturing piece goes on while it can; any capture sequence may
//! be chosen (the longest is not required). A man that lands on the far row is crowned and its
//! move ends there. A jumped piece leaves the board at once: it cannot be jumped again and its
//! square may be crossed later in the same move (with one-square kings this only matters in rare
//! king loops). The moving piece's own start square counts as empty during its move. Two
//! sequences that take the same pieces in a different order (a king going round a loop either
//! way) are different moves, as in the published perft counts.

use crate::board::{crown_row, Bitboard, Color, Dir, Position};
use std::fmt;

/// The most landing squares a move can have (each jump takes one of at most 12 pieces).
pub const MAX_LANDINGS: usize = 12;

/// A move: its start square, every landing square in order, and the set of captured pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    len: u8,
    path: [u8; MAX_LANDINGS],
    captured: Bitboard,
}

impl Move {
    /// A simple (non-capturing) move; squares are 1-32.
    pub(crate) fn simple(from: u8, to: u8) -> Move {
        let mut path = [0; MAX_LANDINGS];
        path[0] = to;
        Move { from, len: 1, path, captured: 0 }
    }

    /// The start square (1-32).
    pub fn from(&self) -> u8 {
        self.from
    }

    /// The final square (1-32).
    pub fn to(&self) -> u8 {
        self.path[self.len as usize - 1]
    }

    /// Every landing square in order: one for a simple move, one per jump for a capture.
    pub fn landings(&self) -> &[u8] {
        &self.path[..self.len as usize]
    }

    /// The captured pieces' squares.
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The number of pieces captured.
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }
}

impl fmt::Display for Move {
    /// `11-15` for a move, `15x24x31` for a capture (every landing square).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}", self.from)?;
        for s in self.landings() {
            write!(f, "{sep}{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The directions a piece of `color` moves in: men forward only, kings all four.
fn directions(color: Color, king: bool) -> &'static [Dir] {
    if king {
        &Dir::ALL
    } else if color == Color::Black {
        &Dir::BLACK_MAN
    } else {
        &Dir::WHITE_MAN
    }
}

/// The side to move's pieces that may move in direction `d` (men forward, kings always).
#[inline]
fn movers(pos: &Position, d: Dir) -> Bitboard {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    if directions(us, false).contains(&d) {
        own
    } else {
        own & pos.kings()
    }
}

/// The pieces of the side to move that have a capture.
pub fn capturers(pos: &Position) -> Bitboard {
    let enemy = pos.pieces(pos.side_to_move().opponent());
    let empty = pos.empty_squares();
    let mut sources = 0;
    for d in Dir::ALL {
        let landing = d.step(d.step(movers(pos, d)) & enemy) & empty;
        if landing != 0 {
            sources |= d.back().step(d.back().step(landing));
        }
    }
    sources
}

/// Appends every legal move of the side to move to `out` (captures only, when there are any).
pub fn generate(pos: &Position, out: &mut Vec<Move>) {
    let capturing = capturers(pos);
    if capturing != 0 {
        generate_captures(pos, capturing, out);
    } else {
        generate_simple(pos, out);
    }
}

fn generate_simple(pos: &Position, out: &mut Vec<Move>) {
    let empty = pos.empty_squares();
    for d in Dir::ALL {
        let mut targets = d.step(movers(pos, d)) & empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let from = d.back().step(to);
            out.push(Move::simple(from.trailing_zeros() as u8 + 1, to.trailing_zeros() as u8 + 1));
        }
    }
}

/// What stays the same during one piece's capture walk.
struct Walk<'a> {
    king: bool,
    dirs: &'static [Dir],
    crown: Bitboard,
    out: &'a mut Vec<Move>,
}

fn generate_captures(pos: &Position, mut pieces: Bitboard, out: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let enemy = pos.pieces(us.opponent());
    while pieces != 0 {
        let bit = pieces & pieces.wrapping_neg();
        pieces &= pieces - 1;
        let king = pos.kings() & bit != 0;
        let mut walk = Walk { king, dirs: directions(us, king), crown: crown_row(us), out };
        let mut mv = Move { from: bit.trailing_zeros() as u8 + 1, len: 0, path: [0; MAX_LANDINGS], captured: 0 };
        jump(&mut walk, bit, enemy, pos.empty_squares() | bit, &mut mv);
    }
}

/// Extends the capture `mv` (its piece now on `at`) by every possible next jump, recording the
/// sequences that cannot go on.
fn jump(walk: &mut Walk<'_>, at: Bitboard, enemy: Bitboard, empty: Bitboard, mv: &mut Move) {
    let mut extended = false;
    if (mv.len as usize) < MAX_LANDINGS {
        for &d in walk.dirs {
            let over = d.step(at) & enemy;
            if over == 0 {
                continue;
            }
            let land = d.step(over) & empty;
            if land == 0 {
                continue;
            }
            extended = true;
            let saved = mv.captured;
            mv.path[mv.len as usize] = land.trailing_zeros() as u8 + 1;
            mv.len += 1;
            mv.captured |= over;
            if !walk.king && land & walk.crown != 0 {
                // Crowning ends the move.
                walk.out.push(*mv);
            } else {
                jump(walk, land, enemy & !over, empty | over, mv);
            }
            mv.len -= 1;
            mv.captured = saved;
        }
    }
    if !extended && mv.len > 0 {
        walk.out.push(*mv);
    }
}

impl Position {
    /// Every legal move here, captures only when a capture is possible, in notation order
    /// (by start square, then landing squares).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        generate(self, &mut out);
        out.sort_unstable_by(|a, b| (a.from, a.landings()).cmp(&(b.from, b.landings())));
        out
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        capturers(self) != 0
    }

    /// The squares (1-32) of the side to move's pieces that can capture, ascending (the pieces
    /// a player must move when a capture is compulsory).
    pub fn capturing_squares(&self) -> Vec<u8> {
        squares(capturers(self))
    }
}

/// The squares (1-32) of a bitboard, ascending.
pub fn squares(mut b: Bitboard) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.count_ones() as usize);
    while b != 0 {
        out.push(b.trailing_zeros() as u8 + 1);
        b &= b - 1;
    }
    out
}
