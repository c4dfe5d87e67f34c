//! Every evaluation weight in one struct: the hook for a Texel tuner.
//!
//! [`Weights::START`] holds Ronald Friederich's published PeSTO piece values and piece-square
//! tables (written rank 8 first, as published) and conventional hand-set values for the other
//! terms. The engine plays with [`Weights::DEFAULT`], the output of the `texel` example: the
//! other terms tuned on self-play results, material and tables kept (tuning those as well on
//! the same data lost Elo).

use super::tapered::{s, S};

/// All evaluation weights. [`Weights::DEFAULT`] is what the engine plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Piece values: pawn, knight, bishop, rook, queen, king.
    pub material: [S; 6],
    /// Piece-square bonuses per kind, indexed by square from White's side (a1 = 0).
    pub psqt: [[S; 64]; 6],
    /// Knight bonus by number of reachable safe squares.
    pub knight_mobility: [S; 9],
    /// Bishop bonus by number of reachable safe squares.
    pub bishop_mobility: [S; 14],
    /// Rook bonus by number of reachable safe squares.
    pub rook_mobility: [S; 15],
    /// Queen bonus by number of reachable safe squares.
    pub queen_mobility: [S; 28],
    /// Rook on a file without pawns.
    pub rook_open_file: S,
    /// Rook on a file without own pawns.
    pub rook_half_open_file: S,
    /// Rook on the seventh rank with the enemy king or pawns on the seventh or eighth.
    pub rook_on_seventh: S,
    /// Both bishops.
    pub bishop_pair: S,
    /// Knight on a square an enemy pawn can never attack, defended by an own pawn.
    pub knight_outpost: S,
    /// Pawn with no own pawns on neighbouring files.
    pub pawn_isolated: S,
    /// Pawn with an own pawn in front of it on the same file.
    pub pawn_doubled: S,
    /// Pawn that cannot safely advance and has no pawn beside or behind to support it.
    pub pawn_backward: S,
    /// Pawn defended by a pawn or standing beside one, by relative rank.
    pub pawn_connected: [S; 8],
    /// Passed pawn, by relative rank.
    pub passed_pawn: [S; 8],
    /// Passed pawn whose path to promotion is free of pieces, by relative rank.
    pub passed_free_path: [S; 8],
    /// Per rank-weighted step of the enemy king's distance from a passed pawn's stop square.
    pub passed_enemy_king_distance: S,
    /// Per rank-weighted step of the own king's distance from a passed pawn's stop square.
    pub passed_own_king_distance: S,
    /// Own pawn shielding the king, by its distance (1 or 2 ranks) in front.
    pub king_shield: [S; 2],
    /// File next to or at the king without an own pawn in front of it.
    pub king_open_file: S,
    /// Castling still possible.
    pub castling_rights: S,
    /// King-danger units for each square of the king zone a piece attacks (N, B, R, Q).
    pub king_attack_units: [i32; 4],
    /// King-danger units for a safe checking square available to each kind (N, B, R, Q).
    pub safe_check_units: [i32; 4],
    /// Enemy pawn attacking a knight, bishop, rook or queen.
    pub threat_by_pawn: S,
    /// Enemy knight or bishop attacking a rook or queen.
    pub threat_by_minor: S,
    /// Enemy rook attacking a queen.
    pub threat_by_rook: S,
    /// Piece attacked and not defended.
    pub hanging: S,
    /// Each attack (pawn or piece) on the four centre squares.
    pub center_control: S,
    /// Bonus for the side to move.
    pub tempo: S,
}

const fn board(mg: [i32; 64], eg: [i32; 64]) -> [S; 64] {
    let mut t = [S::ZERO; 64];
    let mut sq = 0;
    while sq < 64 {
        // Published tables list rank 8 first; flip to a1 = 0.
        t[sq] = s(mg[sq ^ 56], eg[sq ^ 56]);
        sq += 1;
    }
    t
}

const fn mobility<const N: usize>(center: i32, mg_step: i32, eg_step: i32) -> [S; N] {
    let mut t = [S::ZERO; N];
    let mut i = 0;
    while i < N {
        let d = i as i32 - center;
        // Being trapped hurts more than being free helps.
        let k = if d < 0 { 2 * d } else { d };
        t[i] = s(k * mg_step, k * eg_step);
        i += 1;
    }
    t
}

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,  0,   0,
     98, 134,  61,  95,  68, 126, 34, -11,
     -6,   7,  26,  31,  65,  56, 25, -20,
    -14,  13,   6,  21,  23,  12, 17, -23,
    -27,  -2,  -5,  12,  17,   6, 10, -25,
    -26,  -4,  -4, -10,   3,   3, 33, -12,
    -35,  -1, -20, -23, -15,  24, 38, -22,
      0,   0,   0,   0,   0,   0,  0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -167, -89, -34, -49,  61, -97, -15, -107,
     -73, -41,  72,  36,  23,  62,   7,  -17,
     -47,  60,  37,  65,  84, 129,  73,   44,
      -9,  17,  19,  53,  37,  69,  18,   22,
     -13,   4,  16,  13,  28,  19,  21,   -8,
     -23,  -9,  12,  10,  19,  17,  25,  -16,
     -29, -53, -12,  -3,  -1,  18, -14,  -19,
    -105, -21, -58, -33, -17, -28, -19,  -23,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -14, -21, -11,  -8, -7,  -9, -17, -24,
     -8,  -4,   7, -12, -3, -13,  -4, -14,
      2,  -8,   0,  -1, -2,   6,   0,   4,
     -3,   9,  12,   9, 14,  10,   3,   2,
     -6,   3,  13,  19,  7,  10,  -3,  -9,
    -12,  -3,   8,  10, 13,   3,  -7, -15,
    -14, -18,  -7,  -1,  4,  -9, -15, -27,
    -23,  -9, -23,  -5, -9, -16,  -5, -17,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     32,  42,  32,  51, 63,  9,  31,  43,
     27,  32,  58,  62, 80, 67,  26,  44,
     -5,  19,  26,  36, 17, 45,  61,  16,
    -24, -11,   7,  26, 24, 35,  -8, -20,
    -36, -26, -12,  -1,  9, -7,   6, -23,
    -45, -25, -16, -17,  3,  0,  -5, -33,
    -44, -16, -20,  -9, -1, 11,  -6, -71,
    -19, -13,   1,  17, 16,  7, -37, -26,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
    13, 10, 18, 15, 12,  12,   8,   5,
    11, 13, 13, 11, -3,   3,   8,   3,
     7,  7,  7,  5,  4,  -3,  -5,  -3,
     4,  3, 13,  1,  2,   1,  -1,   2,
     3,  5,  8,  4, -5,  -6,  -8, -11,
    -4,  0, -5, -1, -7, -12,  -8, -16,
    -6, -6,  0,  2, -9,  -9, -11,  -3,
    -9,  2,  3, -1, -5, -13,   4, -20,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
];

impl Weights {
    /// What the engine plays with: the tuned weights (see `tuned.rs`).
    pub const DEFAULT: Weights = super::tuned::TUNED;

    /// The starting point of tuning: PeSTO's material and tables, hand-set values for the rest.
    pub const START: Weights = Weights {
        material: [s(82, 94), s(337, 281), s(365, 297), s(477, 512), s(1025, 936), s(0, 0)],
        psqt: [
            board(PAWN_MG, PAWN_EG),
            board(KNIGHT_MG, KNIGHT_EG),
            board(BISHOP_MG, BISHOP_EG),
            board(ROOK_MG, ROOK_EG),
            board(QUEEN_MG, QUEEN_EG),
            board(KING_MG, KING_EG),
        ],
        knight_mobility: mobility(4, 4, 4),
        bishop_mobility: mobility(6, 4, 5),
        rook_mobility: mobility(6, 2, 4),
        queen_mobility: mobility(12, 1, 2),
        rook_open_file: s(25, 8),
        rook_half_open_file: s(10, 6),
        rook_on_seventh: s(5, 20),
        bishop_pair: s(25, 50),
        knight_outpost: s(20, 10),
        pawn_isolated: s(-8, -10),
        pawn_doubled: s(-6, -18),
        pawn_backward: s(-6, -6),
        pawn_connected: [s(0, 0), s(2, 1), s(4, 3), s(7, 6), s(12, 12), s(20, 22), s(30, 35), s(0, 0)],
        passed_pawn: [s(0, 0), s(0, 5), s(3, 8), s(8, 18), s(15, 30), s(20, 35), s(25, 40), s(0, 0)],
        passed_free_path: [s(0, 0), s(0, 0), s(0, 2), s(0, 5), s(3, 12), s(6, 25), s(10, 45), s(0, 0)],
        passed_enemy_king_distance: s(0, 5),
        passed_own_king_distance: s(0, -2),
        king_shield: [s(10, 0), s(5, 0)],
        king_open_file: s(-14, 0),
        castling_rights: s(12, 0),
        king_attack_units: [2, 2, 3, 5],
        safe_check_units: [4, 3, 4, 6],
        threat_by_pawn: s(45, 30),
        threat_by_minor: s(30, 20),
        threat_by_rook: s(35, 15),
        hanging: s(12, 10),
        center_control: s(3, 0),
        tempo: s(15, 8),
    };

    /// Calls `f` on every tapered weight in a fixed order (for a tuner to read or adjust).
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut S)) {
        self.material.iter_mut().for_each(&mut f);
        self.psqt.iter_mut().flatten().for_each(&mut f);
        self.knight_mobility.iter_mut().for_each(&mut f);
        self.bishop_mobility.iter_mut().for_each(&mut f);
        self.rook_mobility.iter_mut().for_each(&mut f);
        self.queen_mobility.iter_mut().for_each(&mut f);
        for w in [
            &mut self.rook_open_file,
            &mut self.rook_half_open_file,
            &mut self.rook_on_seventh,
            &mut self.bishop_pair,
            &mut self.knight_outpost,
            &mut self.pawn_isolated,
            &mut self.pawn_doubled,
            &mut self.pawn_backward,
        ] {
            f(w);
        }
        self.pawn_connected.iter_mut().for_each(&mut f);
        self.passed_pawn.iter_mut().for_each(&mut f);
        self.passed_free_path.iter_mut().for_each(&mut f);
        for w in [&mut self.passed_enemy_king_distance, &mut self.passed_own_king_distance] {
            f(w);
        }
        self.king_shield.iter_mut().for_each(&mut f);
        for w in [
            &mut self.king_open_file,
            &mut self.castling_rights,
            &mut self.threat_by_pawn,
            &mut self.threat_by_minor,
            &mut self.threat_by_rook,
            &mut self.hanging,
            &mut self.center_control,
            &mut self.tempo,
        ] {
            f(w);
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}
