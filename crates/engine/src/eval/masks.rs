//! Square sets used by the evaluation: files, pawn spans, king zones and distances.

use homeostat_chess::{Color, Square};

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = FILE_A << 7;
/// The four centre squares d4, e4, d5, e5.
pub const CENTER: u64 = 0x0000_0018_1800_0000;

const fn file_of(sq: usize) -> u64 {
    FILE_A << (sq % 8)
}

const fn adjacent_files_of(sq: usize) -> u64 {
    let f = sq % 8;
    let mut m = 0;
    if f > 0 {
        m |= FILE_A << (f - 1);
    }
    if f < 7 {
        m |= FILE_A << (f + 1);
    }
    m
}

/// Squares strictly in front of `sq` (towards the enemy) on any rank, for each colour.
const fn ranks_ahead(color: usize, sq: usize) -> u64 {
    let r = sq / 8;
    if color == 0 {
        if r == 7 {
            0
        } else {
            !0u64 << (8 * (r + 1))
        }
    } else if r == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - r))
    }
}

const fn build_front_span() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = ranks_ahead(c, sq) & file_of(sq);
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn build_passed_span() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = ranks_ahead(c, sq) & (file_of(sq) | adjacent_files_of(sq));
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn build_attack_span() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = ranks_ahead(c, sq) & adjacent_files_of(sq);
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn build_king_zone() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        // The king's square and its neighbours, pushed one file inward at the edges.
        let cf = if f == 0 {
            1
        } else if f == 7 {
            6
        } else {
            f
        };
        let cr = if r == 0 {
            1
        } else if r == 7 {
            6
        } else {
            r
        };
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                t[sq] |= 1u64 << ((cr + dr) * 8 + cf + df);
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    t
}

const fn build_distance() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            t[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    t
}

static FRONT_SPAN: [[u64; 64]; 2] = build_front_span();
static PASSED_SPAN: [[u64; 64]; 2] = build_passed_span();
static ATTACK_SPAN: [[u64; 64]; 2] = build_attack_span();
static KING_ZONE: [u64; 64] = build_king_zone();
static DISTANCE: [[u8; 64]; 64] = build_distance();

/// The file of `sq` as a set.
#[inline]
pub fn file(sq: Square) -> u64 {
    file_of(sq.index())
}

/// The files beside `sq`'s file.
#[inline]
pub fn adjacent_files(sq: Square) -> u64 {
    adjacent_files_of(sq.index())
}

/// Squares in front of a `color` pawn on `sq`, on its file.
#[inline]
pub fn front_span(color: Color, sq: Square) -> u64 {
    FRONT_SPAN[color.index()][sq.index()]
}

/// Squares where enemy pawns would stop a `color` pawn on `sq` from being passed.
#[inline]
pub fn passed_span(color: Color, sq: Square) -> u64 {
    PASSED_SPAN[color.index()][sq.index()]
}

/// Squares a `color` pawn on `sq` may attack as it advances.
#[inline]
pub fn attack_span(color: Color, sq: Square) -> u64 {
    ATTACK_SPAN[color.index()][sq.index()]
}

/// The nine squares around a king on `sq` (shifted inward at the edges).
#[inline]
pub fn king_zone(sq: Square) -> u64 {
    KING_ZONE[sq.index()]
}

/// King-step distance between two squares.
#[inline]
pub fn distance(a: Square, b: Square) -> i32 {
    DISTANCE[a.index()][b.index()] as i32
}

/// Squares attacked by `color`'s pawns in `pawns`.
#[inline]
pub fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Squares one step ahead of each of `bb`, for `color`.
#[inline]
pub fn push(color: Color, bb: u64) -> u64 {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use homeostat_chess::squares::*;

    #[test]
    fn spans() {
        assert_eq!(front_span(Color::White, E2), 0x1010_1010_1010_0000);
        assert_eq!(front_span(Color::Black, E7), 0x0000_1010_1010_1010);
        assert_eq!(passed_span(Color::White, A2) & FILE_A, front_span(Color::White, A2));
        assert_eq!(king_zone(A1).count_ones(), 9);
        assert_eq!(distance(A1, H8), 7);
        assert_eq!(pawn_attacks(Color::White, 1 << E2.index()), (1 << 19) | (1 << 21));
    }
}
