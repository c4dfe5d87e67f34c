//! Perft: counting the leaves of the legal move tree, the standard move generator check.

use crate::board::Board;
use crate::moves::Move;

/// Leaf count at `depth`, counting the last ply without playing its moves (bulk counting).
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0;
            board.generate_moves(|pm| {
                n += pm.len() as u64;
                false
            });
            n
        }
        _ => {
            let mut n = 0;
            board.generate_moves(|pm| {
                pm.for_each(|m| {
                    let mut child = *board;
                    child.play(m);
                    n += perft(&child, depth - 1);
                });
                false
            });
            n
        }
    }
}

/// Leaf count at `depth`, playing every move including the last ply (key updated each time).
pub fn perft_full(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    board.generate_moves(|pm| {
        pm.for_each(|m| {
            let mut child = *board;
            child.play(m);
            n += if depth == 1 {
                // Reading the key keeps the compiler from skipping the move.
                std::hint::black_box(child.hash());
                1
            } else {
                perft_full(&child, depth - 1)
            };
        });
        false
    });
    n
}

/// Each legal move with the leaf count below it (the "divide" of `go perft`).
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *board;
            child.play(m);
            (m, if depth <= 1 { 1 } else { perft(&child, depth - 1) })
        })
        .collect()
}
