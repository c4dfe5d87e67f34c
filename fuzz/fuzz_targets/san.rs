//! SAN and move readers: never panic; a move they accept is legal and its SAN reads back to it.
//! Input: byte 0 picks a perft-suite position, byte 1 seeds a few random plies from there, the
//! rest is the move text.
#![no_main]

use homeostat_chess::Board;
use libfuzzer_sys::fuzz_target;

const SUITE: &str = include_str!("../../tests/data/perftsuite.epd");

/// The position chosen by the first two bytes.
fn position(pick: u8, walk: u8) -> Board {
    let count = SUITE.lines().filter(|l| !l.trim().is_empty()).count();
    let line = SUITE.lines().filter(|l| !l.trim().is_empty()).nth(pick as usize % count).unwrap();
    let mut board = Board::from_fen(line.split(';').next().unwrap().trim()).unwrap();
    let mut seed = u64::from(walk) | 0x100;
    for _ in 0..walk % 24 {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        board.play(moves[(seed % moves.len() as u64) as usize]);
    }
    board
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let board = position(data[0], data[1]);
    let text = String::from_utf8_lossy(&data[2..]);
    if let Ok(m) = board.parse_san(&text) {
        assert!(board.is_legal(m), "{board}: parse_san({text:?}) gave illegal {m}");
        let san = board.san(m);
        assert_eq!(board.parse_san(&san), Ok(m), "{board}: {text:?} -> {m} -> {san}");
    }
    if let Ok(m) = board.parse_move(&text) {
        assert!(board.is_legal(m), "{board}: parse_move({text:?}) gave illegal {m}");
    }
    if let Ok(m) = board.parse_uci(&text) {
        assert!(board.is_legal(m), "{board}: parse_uci({text:?}) gave illegal {m}");
    }
});
