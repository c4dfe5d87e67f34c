//! Helpers shared by the rules tests: the perft suite positions and a seeded random player.
#![allow(dead_code)]

use homeostat_chess::{Board, Move};

/// The FEN of every position in the perft suite file.
pub fn suite_fens() -> Vec<&'static str> {
    include_str!("../../../../tests/data/perftsuite.epd")
        .lines()
        .filter_map(|line| line.split(';').next())
        .map(str::trim)
        .filter(|fen| !fen.is_empty())
        .collect()
}

/// Xorshift64*: a tiny seeded generator, so random tests repeat exactly.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with the given chance in percent.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Up to `plies` random legal moves from `start`, stopping when no move is left.
pub fn random_line(start: &Board, plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut board = *start;
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        board.play(m);
        line.push(m);
    }
    line
}
