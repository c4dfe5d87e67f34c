//! UCI command parser: never panics on any line; `position` commands it accepts set up a
//! board (or fail with a message) without panicking either.
#![no_main]

use homeostat_uci::command::{parse_command, Command};
use homeostat_uci::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Ok(Command::Position { fen, moves }) = parse_command(line) {
            if let Ok(position) = Position::from_command(fen.as_deref(), &moves) {
                assert_eq!(position.moves().len(), moves.len());
                let mut board = *position.start();
                for &m in position.moves() {
                    assert!(board.is_legal(m), "{board}: {m}");
                    board.play(m);
                }
                assert_eq!(board, *position.board());
            }
        }
    }
});
