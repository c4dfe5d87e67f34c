//! Move-ordering memory: butterfly, continuation and capture histories, and countermoves.

use homeostat_chess::{Move, Piece, PieceKind};

/// History values stay within ±`MAX_HISTORY` (gravity formula).
pub const MAX_HISTORY: i32 = 16_384;

/// A piece and the square it moved to: the key of continuation histories and countermoves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    /// Piece index: colour * 6 + kind.
    pub piece: u8,
    /// Target square index.
    pub to: u8,
}

impl PieceTo {
    /// The key for `piece` arriving on `m`'s target square.
    #[inline]
    pub fn new(piece: Piece, m: Move) -> PieceTo {
        PieceTo { piece: (piece.color.index() * 6 + piece.kind.index()) as u8, to: m.to().index() as u8 }
    }

    #[inline]
    fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

/// All history tables of one engine.
pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Option<Move>>,
}

/// Nudges `entry` towards `bonus`'s sign, saturating at `MAX_HISTORY`.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    let v = *entry as i32;
    *entry = (v + bonus - v * bonus.abs() / MAX_HISTORY) as i16;
}

/// The bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth + 16).min(1600)
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 64 * 64],
            continuation: vec![0; 12 * 64 * 12 * 64],
            capture: vec![0; 12 * 64 * 6],
            counter: vec![None; 12 * 64],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.counter.fill(None);
    }

    #[inline]
    fn butterfly_index(side: usize, m: Move) -> usize {
        side * 4096 + m.from().index() * 64 + m.to().index()
    }

    /// The side-to-move's history of quiet move `m`.
    #[inline]
    pub fn quiet(&self, side: usize, m: Move) -> i32 {
        self.butterfly[Self::butterfly_index(side, m)] as i32
    }

    /// The continuation history of `now` following `before`.
    #[inline]
    pub fn continuation(&self, before: PieceTo, now: PieceTo) -> i32 {
        self.continuation[before.index() * 768 + now.index()] as i32
    }

    /// The capture history of `piece_to` taking a `victim`.
    #[inline]
    pub fn capture(&self, piece_to: PieceTo, victim: PieceKind) -> i32 {
        self.capture[piece_to.index() * 6 + victim.index()] as i32
    }

    /// The countermove stored against the opponent's `previous` move.
    #[inline]
    pub fn counter(&self, previous: PieceTo) -> Option<Move> {
        self.counter[previous.index()]
    }

    /// Rewards (positive `bonus`) or punishes a quiet move and its continuations.
    #[inline]
    pub fn update_quiet(&mut self, side: usize, m: Move, now: PieceTo, before: &[Option<PieceTo>], bonus: i32) {
        gravity(&mut self.butterfly[Self::butterfly_index(side, m)], bonus);
        for prev in before.iter().flatten() {
            gravity(&mut self.continuation[prev.index() * 768 + now.index()], bonus);
        }
    }

    /// Rewards or punishes a capture.
    #[inline]
    pub fn update_capture(&mut self, piece_to: PieceTo, victim: PieceKind, bonus: i32) {
        gravity(&mut self.capture[piece_to.index() * 6 + victim.index()], bonus);
    }

    /// Remembers `m` as the answer to the opponent's `previous` move.
    #[inline]
    pub fn set_counter(&mut self, previous: PieceTo, m: Move) {
        self.counter[previous.index()] = Some(m);
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1600);
        }
        assert!(e as i32 <= MAX_HISTORY && e > 15_000);
        for _ in 0..1000 {
            gravity(&mut e, -1600);
        }
        assert!(e as i32 >= -MAX_HISTORY && e < -15_000);
    }
}
