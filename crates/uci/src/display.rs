//! A text diagram of a board, for the `d` command.

use homeostat_chess::{Board, Square};
use std::fmt::Write;

/// The board drawn from White's side, then its FEN, key and checking pieces.
pub fn diagram(board: &Board) -> String {
    let border = " +---+---+---+---+---+---+---+---+\n";
    let mut out = String::from(border);
    for r in (0..8).rev() {
        out.push_str(" |");
        for f in 0..8 {
            let piece = Square::new(r * 8 + f).and_then(|sq| board.piece_on(sq));
            let c = piece.map_or(' ', |p| p.to_char());
            let _ = write!(out, " {c} |");
        }
        let _ = writeln!(out, " {}", r + 1);
        out.push_str(border);
    }
    out.push_str("   a   b   c   d   e   f   g   h\n\n");
    let _ = writeln!(out, "Fen: {}", board.to_fen());
    let _ = writeln!(out, "Key: {:016X}", board.hash());
    let checkers: Vec<String> = board.checkers().map(|sq| sq.to_string()).collect();
    let _ = writeln!(out, "Checkers: {}", checkers.join(" "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_diagram() {
        let text = diagram(&Board::startpos());
        assert!(text.contains(" | r | n | b | q | k | b | n | r | 8\n"));
        assert!(text.contains(" |   |   |   |   |   |   |   |   | 3\n"));
        assert!(text.contains("Key: 463B96181691FC9C\n"));
        assert!(text.ends_with("Checkers: \n"));
    }
}
