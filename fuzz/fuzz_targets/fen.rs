//! FEN reader: never panics; an accepted FEN re-serialises and re-reads to the same board, and
//! the board it gives has a working move generator.
#![no_main]

use homeostat_chess::{perft, Board};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(board) = Board::from_fen(&text) else {
        return;
    };
    let fen = board.to_fen();
    let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
    assert_eq!(again, board, "{fen}");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.hash(), board.hash(), "{fen}");

    // Every legal move keeps the mover's king safe and leads to a position we can write and read.
    let moves = board.legal_moves();
    assert_eq!(moves.len() as u64, perft(&board, 1), "{fen}: move list vs bulk count");
    assert_eq!(moves.is_empty(), !board.has_legal_moves(), "{fen}");
    let mover = board.side_to_move();
    for &m in moves.iter() {
        assert!(board.is_legal(m), "{fen}: {m}");
        let mut child = board;
        child.play(m);
        assert!(
            !child.is_attacked(child.king(mover), mover.flip(), child.occupied()),
            "{fen}: {m} leaves the king in check"
        );
        let child_fen = child.to_fen();
        let reread =
            Board::from_fen(&child_fen).unwrap_or_else(|e| panic!("{fen}: after {m}, {child_fen} refused: {e}"));
        assert_eq!(reread.hash(), child.hash(), "{fen}: key after {m}");
    }
});
