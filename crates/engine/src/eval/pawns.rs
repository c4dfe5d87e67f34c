//! Pawn structure: isolated, doubled, backward, connected and passed pawns.

use super::masks;
use super::tapered::S;
use super::weights::Weights;
use homeostat_chess::{Board, Color, PieceKind, Square};

/// What depends on the pawns alone: the structure score and the passed pawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnInfo {
    /// Structure score (isolated, doubled, backward, connected, passed by rank), White minus Black.
    pub score: S,
    /// Passed pawns of each colour.
    pub passed: [u64; 2],
}

/// Pawn-structure score, White minus Black (structure plus passed-pawn extras).
#[cfg(test)]
pub fn evaluate(board: &Board, w: &Weights) -> S {
    let info = structure(board, w);
    info.score + passers(board, w, &info)
}

/// The pawn-only part of the evaluation.
pub fn structure(board: &Board, w: &Weights) -> PawnInfo {
    let (white, white_passed) = side(board, w, Color::White);
    let (black, black_passed) = side(board, w, Color::Black);
    PawnInfo { score: white - black, passed: [white_passed, black_passed] }
}

/// Passed-pawn terms that depend on other pieces: a free path and the kings' distances.
pub fn passers(board: &Board, w: &Weights, info: &PawnInfo) -> S {
    let occ = board.occupied().0;
    let mut total = S::ZERO;
    for us in Color::ALL {
        let mut mine = S::ZERO;
        for sq in homeostat_chess::Bitboard(info.passed[us.index()]) {
            mine += passed_extras(board, w, us, sq, occ);
        }
        total += if us == Color::White { mine } else { -mine };
    }
    total
}

/// A small table of [`PawnInfo`] keyed by the pawn placement.
pub struct PawnCache {
    entries: Vec<(u64, u64, PawnInfo)>,
}

const CACHE_ENTRIES: usize = 1 << 13;

impl PawnCache {
    /// An empty cache (about 300 KB).
    pub fn new() -> PawnCache {
        PawnCache { entries: vec![(!0, !0, PawnInfo::default()); CACHE_ENTRIES] }
    }

    /// The pawn information of `board`, computed once per pawn placement.
    pub fn get(&mut self, board: &Board, w: &Weights) -> PawnInfo {
        let white = board.colored_pieces(Color::White, PieceKind::Pawn).0;
        let black = board.colored_pieces(Color::Black, PieceKind::Pawn).0;
        let key = (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 51;
        let entry = &mut self.entries[key as usize % CACHE_ENTRIES];
        if entry.0 != white || entry.1 != black {
            *entry = (white, black, structure(board, w));
        }
        entry.2
    }
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache::new()
    }
}

fn side(board: &Board, w: &Weights, us: Color) -> (S, u64) {
    let them = us.flip();
    let ours = board.colored_pieces(us, PieceKind::Pawn).0;
    let theirs = board.colored_pieces(them, PieceKind::Pawn).0;
    let their_attacks = masks::pawn_attacks(them, theirs);
    let mut total = S::ZERO;
    let mut passed = 0;

    for sq in board.colored_pieces(us, PieceKind::Pawn) {
        let bit = 1u64 << sq.index();
        let rank = sq.rank().relative(us).index();
        let adjacent = masks::adjacent_files(sq);
        let isolated = adjacent & ours == 0;
        let doubled = masks::front_span(us, sq) & ours != 0;
        let supported = masks::pawn_attacks(them, bit) & ours != 0;
        let phalanx = (((bit & !masks::FILE_A) >> 1) | ((bit & !masks::FILE_H) << 1)) & ours != 0;

        if isolated {
            total += w.pawn_isolated;
        }
        if doubled {
            total += w.pawn_doubled;
        }
        if supported || phalanx {
            total += w.pawn_connected[rank];
        }
        if !isolated && !supported && !phalanx {
            let stop = masks::push(us, bit);
            // No own pawn beside or behind on a neighbouring file, and the step ahead is covered.
            let helpers = stop_square(us, sq).map_or(0, |s| masks::attack_span(them, s)) & ours;
            if helpers == 0 && stop & their_attacks != 0 {
                total += w.pawn_backward;
            }
        }
        if !doubled && masks::passed_span(us, sq) & theirs == 0 {
            total += w.passed_pawn[rank];
            passed |= bit;
        }
    }
    (total, passed)
}

fn stop_square(us: Color, sq: Square) -> Option<Square> {
    sq.offset(0, if us == Color::White { 1 } else { -1 })
}

fn passed_extras(board: &Board, w: &Weights, us: Color, sq: Square, occ: u64) -> S {
    let rank = sq.rank().relative(us).index();
    let mut bonus = S::ZERO;
    if masks::front_span(us, sq) & occ == 0 {
        bonus += w.passed_free_path[rank];
    }
    if rank >= 3 {
        if let Some(stop) = stop_square(us, sq) {
            let weight = rank as i32 - 2;
            let enemy = masks::distance(board.king(us.flip()), stop).min(5);
            let own = masks::distance(board.king(us), stop).min(5);
            bonus += w.passed_enemy_king_distance * (enemy * weight);
            bonus += w.passed_own_king_distance * (own * weight);
        }
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> S {
        evaluate(&Board::from_fen(fen).unwrap(), &Weights::DEFAULT)
    }

    #[test]
    fn symmetric_structure_is_zero() {
        assert_eq!(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), S::ZERO);
    }

    #[test]
    fn passed_pawn_is_good() {
        let passed = eval("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        assert!(passed.eg > 0);
        let isolated_doubled = eval("4k3/pp6/8/8/8/4P3/4P3/4K3 w - - 0 1");
        let healthy = eval("4k3/pp6/8/8/8/8/3PP3/4K3 w - - 0 1");
        assert!(isolated_doubled.eg < healthy.eg);
    }

    #[test]
    fn cache_agrees_with_direct_computation() {
        let mut cache = PawnCache::new();
        for fen in [
            "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            for _ in 0..2 {
                let info = cache.get(&board, &Weights::DEFAULT);
                assert_eq!(info, structure(&board, &Weights::DEFAULT));
                assert_eq!(info.score + passers(&board, &Weights::DEFAULT, &info), evaluate(&board, &Weights::DEFAULT));
            }
        }
    }
}
