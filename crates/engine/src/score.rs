//! Scores: the search's internal centipawn/mate integers and the public [`Score`] shown to users.

use homeostat_chess::Color;
use std::fmt;

/// The deepest ply the search ever reaches (stack sizes and mate-score range).
pub const MAX_PLY: usize = 128;
/// Larger than any score; the initial window is `(-INFINITY, INFINITY)`.
pub const INFINITY: i32 = 32_000;
/// The score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a drawn position.
pub const DRAW: i32 = 0;

/// The score of mating the opponent `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether an internal score announces a forced mate (for either side).
#[inline]
pub const fn is_mate(value: i32) -> bool {
    value >= MATE_BOUND || value <= -MATE_BOUND
}

/// A score as users see it, from the side to move's point of view unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns; positive is good for the side the score belongs to.
    Cp(i32),
    /// Mate in this many moves; negative when the side is being mated (`Mate(0)`: mated now).
    Mate(i32),
}

impl Score {
    /// The public form of an internal search score.
    pub fn from_internal(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-((MATE + value) / 2))
        } else {
            Score::Cp(value)
        }
    }

    /// The same score seen by the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// The score from White's point of view, given whose point of view it has now.
    pub fn for_white(self, side: Color) -> Score {
        match side {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// A single number for comparisons: mates become large centipawn values.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - 2 * n + 1,
            Score::Mate(n) => -MATE - 2 * n,
        }
    }

    /// Whether this score says the side is being mated.
    pub fn is_mated(self) -> bool {
        matches!(self, Score::Mate(n) if n <= 0)
    }

    /// The score in pawns with a sign and two decimals (`+0.48`, `-1.20`, `0.00`), or `#3` / `#-3`.
    pub fn to_pawns_string(self) -> String {
        match self {
            Score::Mate(n) => format!("#{n}"),
            Score::Cp(0) => "0.00".to_string(),
            Score::Cp(cp) => {
                let sign = if cp > 0 { '+' } else { '-' };
                let abs = cp.unsigned_abs();
                format!("{sign}{}.{:02}", abs / 100, abs % 100)
            }
        }
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 48` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(6)), Score::Mate(-3));
        assert_eq!(Score::from_internal(37), Score::Cp(37));
    }

    #[test]
    fn pawns_text() {
        assert_eq!(Score::Cp(48).to_pawns_string(), "+0.48");
        assert_eq!(Score::Cp(-120).to_pawns_string(), "-1.20");
        assert_eq!(Score::Cp(-5).to_pawns_string(), "-0.05");
        assert_eq!(Score::Cp(0).to_pawns_string(), "0.00");
        assert_eq!(Score::Mate(3).to_pawns_string(), "#3");
        assert_eq!(Score::Mate(-3).to_pawns_string(), "#-3");
    }

    #[test]
    fn as_cp_orders_mates() {
        assert!(Score::Mate(1).as_cp() > Score::Mate(2).as_cp());
        assert!(Score::Mate(2).as_cp() > Score::Cp(2000).as_cp());
        assert!(Score::Mate(-1).as_cp() < Score::Mate(-3).as_cp());
        assert!(Score::Mate(-3).as_cp() < Score::Cp(-2000).as_cp());
    }
}
