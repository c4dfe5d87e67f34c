//! PGN reader: never panics; each game it accepts replays legally, and writing it and reading
//! it back gives the same start, moves, result and tags.
#![no_main]

use homeostat_chess::pgn;
use libfuzzer_sys::fuzz_target;

/// Tags the writer manages itself (roster defaults, set-up).
const MANAGED: [&str; 9] = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "SetUp", "FEN"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in pgn::games(&text).take(64) {
        let Ok(game) = game else { continue };
        let mut board = game.start;
        for &m in &game.moves {
            assert!(board.is_legal(m), "{board}: {m}");
            board.play(m);
        }
        let written = game.to_pgn();
        let again = pgn::read_game(&written).unwrap_or_else(|e| panic!("own PGN refused: {e}\n{written}"));
        assert_eq!(again.start, game.start, "{written}");
        assert_eq!(again.moves, game.moves, "{written}");
        assert_eq!(again.result, game.result, "{written}");
        for (name, value) in &game.tags {
            if !MANAGED.contains(&name.as_str()) {
                assert_eq!(again.tag(name), game.tag(name), "tag {name:?} = {value:?}\n{written}");
            }
        }
    }
});
