//! Move text for reports: SAN lines from a position.

use homeostat_chess::{Board, Move};

/// The move in standard algebraic notation.
pub fn san(board: &Board, m: Move) -> String {
    board.san(m)
}

/// A line of moves from `board` as SAN, stopping at the first illegal move.
pub fn line_san(board: &Board, line: &[Move]) -> Vec<String> {
    let mut pos = *board;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.san(m));
        pos.play(m);
    }
    out
}
