//! Static evaluation, from the side to move's point of view, in hundredths of a man.

use crate::board::{Bitboard, Color, Position, BLACK_BACK_ROW, CORNERS, EDGE, WHITE_BACK_ROW};
use crate::movegen::squares;

/// Which evaluation the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The applet's: men 100 + rank², kings 200, a king on an edge -20, in a corner -40.
    Applet,
    /// The applet's terms plus guarding the back row, trading down when ahead, and kings that
    /// hunt when ahead (kept after a match against `Applet`; see the README).
    #[default]
    Homeostat,
}

/// The applet's material and placement terms for one side; `forward_row` maps a row to how far
/// that side's man has come (0 on its own back row, 6 just before crowning).
fn applet_side(men: Bitboard, kings: Bitboard, advance: impl Fn(u8) -> i32) -> i32 {
    let mut score = 0;
    for s in squares(men) {
        let rank = advance(crate::board::row_of(s));
        score += 100 + rank * rank;
    }
    for s in squares(kings) {
        let bit = 1u32 << (s - 1);
        score += 200;
        if bit & CORNERS != 0 {
            score -= 40;
        } else if bit & EDGE != 0 {
            score -= 20;
        }
    }
    score
}

/// The applet's evaluation, Black's point of view.
fn applet_black(pos: &Position) -> i32 {
    let k = pos.kings();
    let black = applet_side(pos.black() & !k, pos.black() & k, |row| row as i32);
    let white = applet_side(pos.white() & !k, pos.white() & k, |row| 7 - row as i32);
    black - white
}

/// Diagonal-step distance between two squares (kings move one step a turn).
fn distance(a: u8, b: u8) -> i32 {
    let (ra, ca) = (crate::board::row_of(a) as i32, crate::board::column_of(a) as i32);
    let (rb, cb) = (crate::board::row_of(b) as i32, crate::board::column_of(b) as i32);
    (ra - rb).abs().max((ca - cb).abs())
}

/// Homeostat's additions, Black's point of view.
fn extra_black(pos: &Position, material_black: i32) -> i32 {
    let k = pos.kings();
    let (bm, wm) = (pos.black() & !k, pos.white() & !k);
    let mut score = 0;
    // Men left on the back row keep the other side's men from crowning, while it has men.
    if wm != 0 {
        score += 20 * (bm & BLACK_BACK_ROW).count_ones() as i32;
    }
    if bm != 0 {
        score -= 20 * (wm & WHITE_BACK_ROW).count_ones() as i32;
    }
    // Ahead in material, trade down: the lead counts for more as pieces leave the board.
    let pieces = (pos.black() | pos.white()).count_ones() as i32;
    score += material_black * (24 - pieces) / 48;
    // The stronger side's kings close in on the weaker side's pieces.
    let (strong, weak) = match material_black.signum() {
        1 => (Color::Black, Color::White),
        -1 => (Color::White, Color::Black),
        _ => return score,
    };
    let weak_pieces = squares(pos.pieces(weak));
    let mut hunt = 0;
    for king in squares(pos.pieces(strong) & k) {
        if let Some(d) = weak_pieces.iter().map(|&s| distance(king, s)).min() {
            hunt += 8 - d;
        }
    }
    let hunt = 3 * hunt;
    score + if strong == Color::Black { hunt } else { -hunt }
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position, kind: EvalKind) -> i32 {
    let applet = applet_black(pos);
    let black = match kind {
        EvalKind::Applet => applet,
        EvalKind::Homeostat => applet + extra_black(pos, material_black(pos)),
    };
    match pos.side_to_move() {
        Color::Black => black,
        Color::White => -black,
    }
}

/// Plain material, men 100 and kings 130, Black's point of view.
fn material_black(pos: &Position) -> i32 {
    let k = pos.kings();
    let side = |b: Bitboard| 100 * (b & !k).count_ones() as i32 + 130 * (b & k).count_ones() as i32;
    side(pos.black()) - side(pos.white())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applet_terms() {
        assert_eq!(evaluate(&Position::start(), EvalKind::Applet), 0);
        // A Black man on 9 (row 2): 104; a White man on 21 (row 5, two rows from its back): 104.
        let p = Position::from_fen("B:W21:B9").unwrap();
        assert_eq!(evaluate(&p, EvalKind::Applet), 0);
        // A Black man on 25 (row 6): 136 against a White king in the corner 29: 160.
        let p = Position::from_fen("B:WK29:B25").unwrap();
        assert_eq!(evaluate(&p, EvalKind::Applet), 136 - 160);
        assert_eq!(evaluate(&Position::from_fen("W:WK29:B25").unwrap(), EvalKind::Applet), 160 - 136);
        // A king in the middle is worth 200, on an edge 180.
        assert_eq!(evaluate(&Position::from_fen("B:WK12:BK15").unwrap(), EvalKind::Applet), 20);
    }

    #[test]
    fn symmetric() {
        // Mirroring the board through its centre and swapping colours negates the evaluation.
        for fen in ["B:W21,22,K5:B1,2,3", "W:W18,K30,25:B6,K27,11", "B:WK1,K2:BK31,K32,12"] {
            let p = Position::from_fen(fen).unwrap();
            let mut m = Position::empty(p.side_to_move().opponent());
            for s in 1..=32u8 {
                if let Some(piece) = p.piece_at(s) {
                    m.put(33 - s, crate::board::Piece { color: piece.color.opponent(), kind: piece.kind });
                }
            }
            for kind in [EvalKind::Applet, EvalKind::Homeostat] {
                assert_eq!(evaluate(&p, kind), evaluate(&m, kind), "{fen} {kind:?}");
            }
        }
    }
}
