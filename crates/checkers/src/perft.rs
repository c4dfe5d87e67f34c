//! Perft: counts the leaf positions of the move tree, to check move generation against
//! published figures.

use crate::board::Position;
use crate::movegen::{generate, Move};

/// The number of move sequences of `depth` plies from `pos` (captures counted per route).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(32);
    generate(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&pos.after(m), depth - 1)).sum()
}

/// Perft split by root move, in generation order: `(move, count)`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().into_iter().map(|m| (m, perft(&pos.after(&m), depth - 1))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let start = Position::start();
        let expected = [1u64, 7, 49, 302, 1469, 7361, 36768];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&start, depth as u32), n, "depth {depth}");
        }
        let d: u64 = divide(&start, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(d, 302);
    }
}
