//! A tapered score: a middlegame and an endgame value blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of middlegame and endgame values in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// Shorthand constructor for [`S`], used in the weight tables.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// The phase of a full board: knights and bishops 1, rooks 2, queens 4.
pub const MAX_PHASE: i32 = 24;

impl S {
    /// The zero pair.
    pub const ZERO: S = S { mg: 0, eg: 0 };

    /// Blends the pair: `phase` runs from 0 (bare endgame) to `MAX_PHASE` (24) (full middlegame);
    /// `eg_scale` (out of 128) shrinks the endgame half in drawish endings.
    #[inline]
    pub fn blend(self, phase: i32, eg_scale: i32) -> i32 {
        let phase = phase.clamp(0, MAX_PHASE);
        let eg = self.eg * eg_scale / 128;
        (self.mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S { mg: self.mg + o.mg, eg: self.eg + o.eg }
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S { mg: self.mg - o.mg, eg: self.eg - o.eg }
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S { mg: self.mg * k, eg: self.eg * k }
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S { mg: -self.mg, eg: -self.eg }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_interpolates() {
        let v = s(100, 200);
        assert_eq!(v.blend(MAX_PHASE, 128), 100);
        assert_eq!(v.blend(0, 128), 200);
        assert_eq!(v.blend(12, 128), 150);
        assert_eq!(v.blend(0, 64), 100);
    }
}
