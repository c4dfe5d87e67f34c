//! Static exchange evaluation: does a capture sequence on one square gain at least a threshold?

use homeostat_chess::{attacks, Bitboard, Board, Move, PieceKind};

/// Piece values used by exchange evaluation and move ordering (king: effectively priceless).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The value of the piece kind for exchanges.
#[inline]
pub fn value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// Whether playing `m` wins at least `threshold` centipawns once all captures on its target
/// square are resolved (each side may stop capturing when it likes). Pins are ignored.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if board.is_castling(m) {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let Some(mover) = board.kind_on(from) else {
        return false;
    };
    let mut gain = board.captured_kind(m).map_or(0, value) - threshold;
    if let Some(promo) = m.promotion() {
        gain += value(promo) - value(PieceKind::Pawn);
    }
    if gain < 0 {
        return false;
    }
    // What we risk: the piece now standing on `to`.
    let standing = m.promotion().map_or(value(mover), value);
    gain = standing - gain;
    if gain <= 0 {
        return true;
    }

    let mut occ = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if board.is_en_passant(m) {
        let victim = homeostat_chess::Square::from_coords(to.file(), from.rank());
        occ ^= Bitboard::from_square(victim);
    }
    let diagonal = board.pieces(PieceKind::Bishop) | board.pieces(PieceKind::Queen);
    let straight = board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut side = board.side_to_move();
    // `wins` is true when the side that made the last capture comes out ahead.
    let mut wins = true;

    loop {
        side = side.flip();
        attackers &= occ;
        let ours = attackers & board.colored(side);
        if ours.is_empty() {
            break;
        }
        wins = !wins;
        // Least valuable attacker.
        let mut kind = PieceKind::King;
        for k in [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
            if (ours & board.pieces(k)).any() {
                kind = k;
                break;
            }
        }
        if kind == PieceKind::King {
            // The king may only capture if the other side has nothing left to recapture.
            if (attackers & board.colored(side.flip())).any() {
                wins = !wins;
            }
            break;
        }
        gain = value(kind) - gain;
        if gain < wins as i32 {
            break;
        }
        let sq = (ours & board.pieces(kind)).lsb();
        occ ^= Bitboard::from_square(sq);
        // Sliders behind the capturer join in.
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= attacks::bishop(to, occ) & diagonal;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= attacks::rook(to, occ) & straight;
        }
    }
    wins
}
