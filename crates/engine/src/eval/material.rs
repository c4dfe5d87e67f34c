//! Material, piece-square tables, game phase, drawish-ending scaling and dead positions.

use super::masks;
use super::tapered::S;
use super::weights::Weights;
use homeostat_chess::{Board, Color, PieceKind};

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// Middlegame weight of the position: 0 (pawns and kings) to 24 (all pieces), capped.
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for kind in PieceKind::ALL {
        phase += PHASE_WEIGHT[kind.index()] * board.pieces(kind).count() as i32;
    }
    phase.min(super::tapered::MAX_PHASE)
}

/// Material plus piece-square values, White minus Black.
pub fn material_psqt(board: &Board, w: &Weights) -> S {
    let mut total = S::ZERO;
    for kind in PieceKind::ALL {
        let k = kind.index();
        for sq in board.colored_pieces(Color::White, kind) {
            total += w.material[k] + w.psqt[k][sq.index()];
        }
        for sq in board.colored_pieces(Color::Black, kind) {
            total -= w.material[k] + w.psqt[k][sq.flip_rank().index()];
        }
    }
    total
}

/// Simple material count in pawns-as-100 used for endgame decisions.
fn non_pawn_value(board: &Board, color: Color) -> i32 {
    const VALUE: [i32; 6] = [0, 320, 330, 500, 950, 0];
    PieceKind::ALL.iter().map(|&k| VALUE[k.index()] * board.colored_pieces(color, k).count() as i32).sum()
}

/// How much of the endgame score to keep (out of 128) when the side ahead (`strong`) may be
/// unable to win: no pawns and at most a minor piece up, or opposite-coloured bishops.
pub fn eg_scale(board: &Board, strong: Color) -> i32 {
    let weak = strong.flip();
    let strong_pawns = board.colored_pieces(strong, PieceKind::Pawn).count();
    let strong_np = non_pawn_value(board, strong);
    let weak_np = non_pawn_value(board, weak);
    if strong_pawns == 0 && strong_np - weak_np <= 350 {
        // KN v K, KB v K, KR v KB, KR v KN and the like: mostly drawn.
        return if strong_np < 500 { 0 } else { 16 };
    }
    let bishops = board.pieces(PieceKind::Bishop);
    let only_bishops =
        (board.pieces(PieceKind::Knight) | board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen)).is_empty();
    if only_bishops
        && board.colored_pieces(Color::White, PieceKind::Bishop).count() == 1
        && board.colored_pieces(Color::Black, PieceKind::Bishop).count() == 1
    {
        let dark = (bishops.0 & DARK_SQUARES).count_ones();
        if dark == 1 {
            return 64;
        }
    }
    128
}

/// Whether neither side can possibly mate: K v K, K+minor v K, or bishops all on one colour.
pub fn is_insufficient(board: &Board) -> bool {
    let heavy = board.pieces(PieceKind::Pawn) | board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
    if heavy.any() {
        return false;
    }
    let knights = board.pieces(PieceKind::Knight).count();
    let bishops = board.pieces(PieceKind::Bishop);
    if knights + bishops.count() <= 1 {
        return true;
    }
    // Only bishops, all on squares of one colour.
    knights == 0 && (bishops.0 & DARK_SQUARES == 0 || bishops.0 & !DARK_SQUARES == 0)
}

/// Endgame help for a side with mating material against a bare king: drive the king to the
/// edge and bring the own king closer. White minus Black.
pub fn mop_up(board: &Board) -> i32 {
    for strong in Color::ALL {
        let weak = strong.flip();
        if board.colored(weak).count() == 1 && non_pawn_value(board, strong) >= 500 {
            let wk = board.king(weak);
            let sk = board.king(strong);
            let (f, r) = (wk.file().index() as i32, wk.rank().index() as i32);
            let edge = (3 - f).max(f - 4) + (3 - r).max(r - 4);
            let bonus = 20 * edge + 8 * (7 - masks::distance(wk, sk));
            return if strong == Color::White { bonus } else { -bonus };
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        let board = Board::startpos();
        assert_eq!(material_psqt(&board, &Weights::DEFAULT), S::ZERO);
        assert_eq!(phase(&board), 24);
    }

    #[test]
    fn insufficient_material() {
        assert!(is_insufficient(&b("8/8/4k3/8/8/2K5/8/8 w - - 0 1")));
        assert!(is_insufficient(&b("8/8/4k3/8/8/2KN4/8/8 w - - 0 1")));
        assert!(is_insufficient(&b("8/8/4k3/8/8/2KB4/8/8 b - - 0 1")));
        assert!(!is_insufficient(&b("8/8/4k3/8/8/2KNN3/8/8 w - - 0 1")));
        assert!(!is_insufficient(&b("8/8/4k3/8/8/2K5/4P3/8 w - - 0 1")));
        assert!(!is_insufficient(&b("8/8/4kb2/8/8/2KB4/8/8 w - - 0 1")));
        assert!(is_insufficient(&b("8/8/4k1b1/8/8/2KB4/8/8 w - - 0 1")));
    }
}
