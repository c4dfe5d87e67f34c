//! Scores: the search's internal integers and the public [`Score`] shown to people.

use crate::board::Color;

/// The deepest ply the search ever reaches (stack sizes and the range of win scores).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// The score of winning now (the opponent has no move); a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 31_000;
/// Scores at or beyond this magnitude are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;

/// A score as people see it, from the side to move's point of view unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Hundredths of a man; positive is good for the side the score belongs to.
    Cp(i32),
    /// A forced win in this many moves of that side; negative when it loses by force.
    Win(i32),
}

impl Score {
    /// The public form of an internal search score.
    pub fn from_internal(value: i32) -> Score {
        if value >= WIN_BOUND {
            Score::Win((WIN - value + 1) / 2)
        } else if value <= -WIN_BOUND {
            Score::Win(-((WIN + value) / 2))
        } else {
            Score::Cp(value)
        }
    }

    /// The same score seen by the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Win(n) => Score::Win(-n),
        }
    }

    /// The score from White's point of view, given whose point of view it has now.
    pub fn for_white(self, side: Color) -> Score {
        match side {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// `+0.20` (in men), `#3` (wins in 3 moves), `#-3` (loses in 3).
    pub fn to_men_string(self) -> String {
        match self {
            Score::Cp(cp) => format!("{}{}.{:02}", if cp < 0 { '-' } else { '+' }, cp.abs() / 100, cp.abs() % 100),
            Score::Win(n) => format!("#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(Score::Cp(20).to_men_string(), "+0.20");
        assert_eq!(Score::Cp(0).to_men_string(), "+0.00");
        assert_eq!(Score::Cp(-125).to_men_string(), "-1.25");
        assert_eq!(Score::Cp(-5).to_men_string(), "-0.05");
        assert_eq!(Score::from_internal(WIN - 1), Score::Win(1));
        assert_eq!(Score::from_internal(WIN - 3), Score::Win(2));
        assert_eq!(Score::from_internal(-WIN + 2), Score::Win(-1));
        assert_eq!(Score::Win(-2).to_men_string(), "#-2");
    }
}
