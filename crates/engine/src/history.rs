//! Search memory: butterfly, continuation and capture histories, countermoves, and the static
//! evaluation's correction history.

use homeostat_chess::{Board, Color, Move, Piece, PieceKind};

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

/// All history tables of one engine. Arrays of a fixed length, so a bounds check compares with a
/// constant rather than loading the length (which wasm code reloads after every store).
pub struct History {
    butterfly: Box<[i16; 2 * 64 * 64]>,
    continuation: Box<[i16; 12 * 64 * 12 * 64]>,
    capture: Box<[i16; 12 * 64 * 6]>,
    counter: Box<[Option<Move>; 12 * 64]>,
    correction: Box<[i32; 2 * CORRECTION_ENTRIES]>,
}

/// A table of `N` copies of `value` on the heap (a `Box::new([..])` would be built on the stack first).
fn table<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    vec![value; N].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("the length is N"))
}

/// Entries of the correction history per side to move (keyed by pawn placement).
const CORRECTION_ENTRIES: usize = 1 << 14;
/// Correction entries are kept in 1/`CORRECTION_GRAIN` of a centipawn, so small steps accumulate.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 96;
/// A search result further than this from the static evaluation teaches no more than this.
const CORRECTION_DIFF_MAX: i32 = 400;

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
            butterfly: table(0),
            continuation: table(0),
            capture: table(0),
            counter: table(None),
            correction: table(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.counter.fill(None);
        self.correction.fill(0);
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

    /// The history of quiet move `m`, which is `now`, for `side`: its butterfly entry plus its continuation
    /// entries after the moves one and two plies back. Written out for the two rather than looped over
    /// them, as wasm code checks the stack at the head of every loop.
    #[inline]
    pub fn quiet_total(&self, side: usize, m: Move, now: PieceTo, before: [Option<PieceTo>; 2]) -> i32 {
        let mut h = self.quiet(side, m);
        if let Some(p) = before[0] {
            h += self.continuation(p, now);
        }
        if let Some(p) = before[1] {
            h += self.continuation(p, now);
        }
        h
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

/// The correction-history slot of `board`: side to move and pawn placement.
#[inline]
fn correction_index(board: &Board) -> usize {
    let white = board.colored_pieces(Color::White, PieceKind::Pawn).0;
    let black = board.colored_pieces(Color::Black, PieceKind::Pawn).0;
    let key = (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 50;
    board.side_to_move().index() * CORRECTION_ENTRIES + key as usize % CORRECTION_ENTRIES
}

impl History {
    /// `raw` (the static evaluation of `board`, side to move's view) corrected by how far searches
    /// of positions with the same pawns have found the evaluation off.
    #[inline]
    pub fn corrected_eval(&self, board: &Board, raw: i32) -> i32 {
        raw + self.correction[correction_index(board)] / CORRECTION_GRAIN
    }

    /// Learns from a search of `board` to `depth` that found `score` where the static evaluation said `raw`:
    /// a moving average of the difference, deeper searches weighing more.
    #[inline]
    pub fn update_correction(&mut self, board: &Board, raw: i32, score: i32, depth: i32) {
        let diff = (score - raw).clamp(-CORRECTION_DIFF_MAX, CORRECTION_DIFF_MAX) * CORRECTION_GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        let entry = &mut self.correction[correction_index(board)];
        *entry = ((*entry * (256 - weight) + diff * weight) / 256)
            .clamp(-CORRECTION_MAX * CORRECTION_GRAIN, CORRECTION_MAX * CORRECTION_GRAIN);
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
    fn correction_learns_the_evaluations_error_and_is_bounded() {
        let board = Board::default();
        let mut h = History::new();
        assert_eq!(h.corrected_eval(&board, 10), 10);
        for _ in 0..200 {
            h.update_correction(&board, 10, 40, 12);
        }
        // The moving average approaches the error (+30) from below.
        assert!((25..=30).contains(&(h.corrected_eval(&board, 10) - 10)));
        for _ in 0..200 {
            h.update_correction(&board, 0, 10_000, 20);
        }
        assert_eq!(h.corrected_eval(&board, 0), CORRECTION_MAX);
        // The other side to move has its own entries.
        let black = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(h.corrected_eval(&black, 5), 5);
        h.clear();
        assert_eq!(h.corrected_eval(&board, 0), 0);
    }

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
