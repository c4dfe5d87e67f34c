//! King safety: pawn shield, open files, castling rights and the danger from attackers.

use super::masks;
use super::pieces::Attacks;
use super::tapered::{s, S};
use super::weights::Weights;
use homeostat_chess::{attacks, Board, Color, PieceKind};

/// King-safety score, White minus Black.
pub fn evaluate(board: &Board, w: &Weights, att: &Attacks) -> S {
    side(board, w, att, Color::White) - side(board, w, att, Color::Black)
}

/// Penalty in centipawns for `units` of king danger: quadratic, then linear, capped.
pub fn danger_penalty(units: i32) -> i32 {
    if units <= 0 {
        0
    } else if units <= 24 {
        units * units * 3 / 16
    } else {
        (108 + (units - 24) * 12).min(600)
    }
}

#[inline(always)]
fn side(board: &Board, w: &Weights, att: &Attacks, us: Color) -> S {
    let them = us.flip();
    let (u, t) = (us.index(), them.index());
    let ksq = board.king(us);
    let our_pawns = board.colored_pieces(us, PieceKind::Pawn).0;
    let mut total = S::ZERO;

    // Shield: the nearest own pawn ahead on the king's file and each neighbouring file.
    let ahead = masks::passed_span(us, ksq);
    let king_file = ksq.file().index() as i32;
    for f in (king_file - 1).max(0)..=(king_file + 1).min(7) {
        let shield = ahead & (masks::FILE_A << f) & our_pawns;
        if shield == 0 {
            total += w.king_open_file;
            continue;
        }
        let nearest =
            if us == Color::White { shield.trailing_zeros() as i32 } else { 63 - shield.leading_zeros() as i32 };
        let dist = (nearest / 8 - ksq.rank().index() as i32).abs();
        if dist <= 2 {
            total += w.king_shield[(dist - 1).max(0) as usize];
        }
    }
    if board.castling().any(us) {
        total += w.castling_rights;
    }

    // Danger: enemy pieces hitting the zone, plus checks they could give on safe squares.
    let occ = board.occupied();
    let safe = !att.all[u] & !board.colored(them).0;
    let mut units = att.king_units[t];
    let checks = [
        (PieceKind::Knight, attacks::knight(ksq).0),
        (PieceKind::Bishop, attacks::bishop(ksq, occ).0),
        (PieceKind::Rook, attacks::rook(ksq, occ).0),
        (PieceKind::Queen, attacks::queen(ksq, occ).0),
    ];
    for (kind, squares) in checks {
        if squares & att.by_kind[t][kind.index()] & safe != 0 {
            units += w.safe_check_units[kind.index() - 1];
        }
    }
    let has_queen = board.colored_pieces(them, PieceKind::Queen).any();
    if att.king_attackers[t] >= 2 || (has_queen && att.king_attackers[t] >= 1) {
        let mut penalty = danger_penalty(units);
        if !has_queen {
            penalty /= 2;
        }
        total -= s(penalty, penalty / 8);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn danger_curve_is_monotonic() {
        let mut last = 0;
        for u in 0..100 {
            let p = danger_penalty(u);
            assert!(p >= last);
            last = p;
        }
        assert_eq!(danger_penalty(24), 108);
        assert_eq!(danger_penalty(25), 120);
    }
}
