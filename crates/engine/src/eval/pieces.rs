//! Piece activity: mobility, rook files and ranks, outposts, and the attack maps that king
//! safety, threats and centre control read.

use super::masks;
use super::tapered::S;
use super::weights::Weights;
use homeostat_chess::{attacks, Board, Color, PieceKind};

/// Attack maps and king-attack tallies gathered while scoring the pieces.
#[derive(Default)]
pub struct Attacks {
    /// Squares attacked by each colour's pieces of each kind.
    pub by_kind: [[u64; 6]; 2],
    /// Squares attacked by each colour.
    pub all: [u64; 2],
    /// King-danger units each colour has against the enemy king zone.
    pub king_units: [i32; 2],
    /// Number of each colour's pieces attacking the enemy king zone.
    pub king_attackers: [i32; 2],
}

/// Mobility and placement of knights, bishops, rooks and queens, White minus Black; fills `att`.
pub fn evaluate(board: &Board, w: &Weights, att: &mut Attacks) -> S {
    for color in Color::ALL {
        let c = color.index();
        let pawn_att = masks::pawn_attacks(color, board.colored_pieces(color, PieceKind::Pawn).0);
        let king_att = attacks::king(board.king(color)).0;
        att.by_kind[c][PieceKind::Pawn.index()] = pawn_att;
        att.by_kind[c][PieceKind::King.index()] = king_att;
        att.all[c] = pawn_att | king_att;
    }
    side(board, w, att, Color::White) - side(board, w, att, Color::Black)
}

#[inline(always)]
fn side(board: &Board, w: &Weights, att: &mut Attacks, us: Color) -> S {
    let them = us.flip();
    let (u, t) = (us.index(), them.index());
    let occ = board.occupied();
    let our_pawns = board.colored_pieces(us, PieceKind::Pawn).0;
    let their_pawns = board.colored_pieces(them, PieceKind::Pawn).0;
    let blocked = (board.colored_pieces(us, PieceKind::Pawn) | board.colored_pieces(us, PieceKind::King)).0;
    let area = !blocked & !att.by_kind[t][PieceKind::Pawn.index()];
    let zone = masks::king_zone(board.king(them));
    let mut total = S::ZERO;

    let note = |att: &mut Attacks, kind: PieceKind, targets: u64| {
        att.by_kind[u][kind.index()] |= targets;
        att.all[u] |= targets;
        let hits = (targets & zone).count_ones() as i32;
        if hits > 0 {
            att.king_units[u] += w.king_attack_units[kind.index() - 1] * hits;
            att.king_attackers[u] += 1;
        }
    };

    for sq in board.colored_pieces(us, PieceKind::Knight) {
        let targets = attacks::knight(sq).0;
        note(att, PieceKind::Knight, targets);
        total += w.knight_mobility[(targets & area).count_ones() as usize];
        let rank = sq.rank().relative(us).index();
        let defended = masks::pawn_attacks(them, 1u64 << sq.index()) & our_pawns != 0;
        if (3..=5).contains(&rank) && defended && masks::attack_span(us, sq) & their_pawns == 0 {
            total += w.knight_outpost;
        }
    }
    for sq in board.colored_pieces(us, PieceKind::Bishop) {
        let targets = attacks::bishop(sq, occ).0;
        note(att, PieceKind::Bishop, targets);
        total += w.bishop_mobility[(targets & area).count_ones() as usize];
    }
    for sq in board.colored_pieces(us, PieceKind::Rook) {
        let targets = attacks::rook(sq, occ).0;
        note(att, PieceKind::Rook, targets);
        total += w.rook_mobility[(targets & area).count_ones() as usize];
        let file = masks::file(sq);
        if file & our_pawns == 0 {
            total += if file & their_pawns == 0 { w.rook_open_file } else { w.rook_half_open_file };
        }
        if sq.rank().relative(us).index() == 6 {
            let their_seventh = 0xFFu64 << (8 * if us == Color::White { 6 } else { 1 });
            let king_rank = board.king(them).rank().relative(us).index();
            if king_rank == 7 || their_seventh & their_pawns != 0 {
                total += w.rook_on_seventh;
            }
        }
    }
    for sq in board.colored_pieces(us, PieceKind::Queen) {
        let targets = attacks::queen(sq, occ).0;
        note(att, PieceKind::Queen, targets);
        total += w.queen_mobility[(targets & area).count_ones() as usize];
    }
    if board.colored_pieces(us, PieceKind::Bishop).more_than_one() {
        total += w.bishop_pair;
    }
    total
}

/// Threats against pieces and control of the centre, White minus Black; needs full `att`.
pub fn threats_and_center(board: &Board, w: &Weights, att: &Attacks) -> S {
    let mut total = S::ZERO;
    for us in Color::ALL {
        let them = us.flip();
        let (u, t) = (us.index(), them.index());
        let sign = if us == Color::White { 1 } else { -1 };
        let piece = |k: PieceKind| board.colored_pieces(us, k).0;
        let minors = piece(PieceKind::Knight) | piece(PieceKind::Bishop);
        let majors = piece(PieceKind::Rook) | piece(PieceKind::Queen);
        let queens = piece(PieceKind::Queen);
        let by = |k: PieceKind| att.by_kind[t][k.index()];

        // Penalties to `us` for being threatened.
        let mut threatened = S::ZERO;
        threatened += w.threat_by_pawn * ((minors | majors) & by(PieceKind::Pawn)).count_ones() as i32;
        let by_minor = by(PieceKind::Knight) | by(PieceKind::Bishop);
        threatened += w.threat_by_minor * (majors & by_minor).count_ones() as i32;
        threatened += w.threat_by_rook * (queens & by(PieceKind::Rook)).count_ones() as i32;
        let hanging = board.colored(us).0 & !piece(PieceKind::King) & att.all[t] & !att.all[u];
        threatened += w.hanging * hanging.count_ones() as i32;

        let center = (att.by_kind[u][PieceKind::Pawn.index()] & masks::CENTER).count_ones()
            + (att.all[u] & masks::CENTER).count_ones();
        let mine = w.center_control * center as i32 - threatened;
        total += mine * sign;
    }
    total
}
