//! Whether a move gives check, decided without playing it.

use homeostat_chess::{attacks, Bitboard, Board, Move, PieceKind};

/// Whether `m` (legal here) checks the opponent: directly, or by uncovering a slider.
pub fn gives_check(board: &Board, m: Move) -> bool {
    if board.is_castling(m) || board.is_en_passant(m) {
        // Rare: let the board decide.
        let mut child = *board;
        child.play(m);
        return child.in_check();
    }
    let us = board.side_to_move();
    let king = board.king(us.flip());
    let (from, to) = (m.from(), m.to());
    let Some(kind) = board.kind_on(from) else { return false };
    let occ = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let direct = match m.promotion().unwrap_or(kind) {
        PieceKind::Pawn => attacks::pawn(us, to).has(king),
        PieceKind::Knight => attacks::knight(to).has(king),
        PieceKind::Bishop => attacks::bishop(to, occ).has(king),
        PieceKind::Rook => attacks::rook(to, occ).has(king),
        PieceKind::Queen => attacks::queen(to, occ).has(king),
        PieceKind::King => false,
    };
    if direct {
        return true;
    }
    // Discovered: a slider of ours now sees the king through the vacated square.
    if !attacks::queen(king, Bitboard::EMPTY).has(from) {
        return false;
    }
    let ours = board.colored(us) & !Bitboard::from_square(from);
    let queens = board.pieces(PieceKind::Queen);
    let diagonal = (board.pieces(PieceKind::Bishop) | queens) & ours;
    let straight = (board.pieces(PieceKind::Rook) | queens) & ours;
    (attacks::bishop(king, occ) & diagonal).any() || (attacks::rook(king, occ) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `gives_check` says of every legal move in `board` what playing it shows; returns
    /// how many of them check.
    fn assert_agrees(board: &Board) -> usize {
        let mut checks = 0;
        for &m in board.legal_moves().iter() {
            let mut child = *board;
            child.play(m);
            assert_eq!(gives_check(board, m), child.in_check(), "{} {m}", board.to_fen());
            checks += child.in_check() as usize;
        }
        checks
    }

    #[test]
    fn agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/8/8/4B3/R3K2R w KQ - 0 1",
            "3k4/8/8/2Pp4/8/8/8/Q3K3 w - d6 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "4k3/4n3/8/8/8/8/4R3/4K3 b - - 0 1",
            "2r1k3/8/8/8/8/8/6pp/1K5R b - - 0 1",
        ] {
            assert_agrees(&Board::from_fen(fen).unwrap());
        }
    }

    /// Every move of every position along seeded random games, promotions and discoveries included.
    #[test]
    fn agrees_with_playing_the_move_along_random_games() {
        let mut rng = crate::Rng::new(7);
        let mut checks = 0;
        for _ in 0..100 {
            let mut board = Board::startpos();
            for _ in 0..200 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                checks += assert_agrees(&board);
                board.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
        assert!(checks > 1000, "the games must hold checking moves ({checks})");
    }
}
