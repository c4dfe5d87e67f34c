//! FEN round trips (suite and random-play positions), the FEN error corpus and valid unusual
//! FENs.

mod common;

use common::Rng;
use homeostat_chess::{Board, Move, STARTPOS};

fn perft_suite_fens() -> Vec<&'static str> {
    include_str!("../../../tests/data/perftsuite.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim())
        .collect()
}

/// Reads `fen`, writes it back and reads that again: text, board and key must all agree.
fn assert_round_trip(fen: &str) -> Board {
    let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let written = board.to_fen();
    assert_eq!(written, fen, "FEN -> Board -> FEN");
    assert_eq!(board.to_string(), fen, "Display writes the FEN");
    let again: Board = written.parse().unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(again, board, "{fen}: board after a second read");
    assert_eq!(again.hash(), board.hash(), "{fen}: key after a second read");
    board
}

#[test]
fn perft_suite_fens_round_trip() {
    let fens = perft_suite_fens();
    assert_eq!(fens.len(), 127);
    for fen in fens {
        assert_round_trip(fen);
    }
    assert_round_trip(STARTPOS);
}

#[test]
fn random_play_fens_round_trip() {
    let mut rng = Rng::new(0x5eed_f00d_dead_beef);
    let mut positions = 0;
    for start in std::iter::once(STARTPOS).chain(perft_suite_fens()) {
        for _ in 0..4 {
            let mut board = Board::from_fen(start).unwrap();
            for _ in 0..120 {
                let fen = board.to_fen();
                let reread = assert_round_trip(&fen);
                // Played and re-read boards agree field for field, key included.
                assert_eq!(reread, board, "{fen}");
                assert_eq!(reread.hash(), board.hash(), "{fen}: incremental key vs from scratch");
                positions += 1;
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(positions > 20_000, "{positions} positions");
}

#[test]
fn uci_move_strings_round_trip() {
    let mut rng = Rng::new(42);
    for start in perft_suite_fens() {
        let mut board = Board::from_fen(start).unwrap();
        for _ in 0..40 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                let text = m.to_string();
                assert_eq!(Move::parse_uci_squares(&text), Some(m), "{board}: {text}");
                assert_eq!(Move::from_u16(m.to_u16()), Some(m));
            }
            board.play(moves[rng.below(moves.len())]);
        }
    }
}

/// Invalid FENs: the field the error must name (0: the position as a whole) and a fragment
/// of its message.
const INVALID: &[(&str, usize, &str)] = &[
    // Whole-string shape.
    ("", 0, "empty string"),
    ("   ", 0, "empty string"),
    ("4k3/8/8/8/8/8/8/4K3", 0, "1 field(s) given"),
    ("4k3/8/8/8/8/8/8/4K3 w -", 0, "3 field(s) given"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", 0, "7 fields given"),
    // Field 1: placement.
    ("4k3/8/8/8/8/8/4K3 w - - 0 1", 1, "has 7 ranks"),
    ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", 1, "has 9 ranks"),
    ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", 1, "rank 1 describes more than 8 squares"),
    ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", 1, "rank 1 describes 7 squares"),
    ("4k3/pppppppppp/8/8/8/8/8/4K3 w - - 0 1", 1, "rank 7 describes more than 8 squares"),
    ("4k3//8/8/8/8/8/4K3 w - - 0 1", 1, "rank 7 describes 0 squares"),
    ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", 1, "'9' is not a count"),
    ("4k3/08/8/8/8/8/8/4K3 w - - 0 1", 1, "'0' is not a count"),
    ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", 1, "'X' is not a piece letter"),
    ("4k3/8/8/8/8/8/8/4K2é w - - 0 1", 1, "'é' is not a piece letter"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", 1, "no white king"),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", 1, "no black king"),
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", 1, "2 white kings"),
    ("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", 1, "2 black kings"),
    ("4k3/8/8/8/8/8/8/3PK3 w - - 0 1", 1, "pawn on d1"),
    ("3pk3/8/8/8/8/8/8/4K3 w - - 0 1", 1, "pawn on d8"),
    ("4k3/8/8/8/8/8/8/3pK3 b - - 0 1", 1, "pawn on d1"),
    ("4k3/8/8/8/PPPPPPPP/P7/8/4K3 w - - 0 1", 1, "9 white pawns"),
    ("4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/4K3 w - - 0 1", 1, "17 white pieces"),
    // Field 2: side to move.
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", 2, "got 'x'"),
    ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", 2, "got 'W'"),
    ("4k3/8/8/8/8/8/8/4K3 white - - 0 1", 2, "must be 'w' or 'b'"),
    // Field 3: castling.
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", 3, "white rook on h1"),
    ("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", 3, "white rook on a1"),
    ("4k3/8/8/8/8/8/8/4K3 w k - 0 1", 3, "black rook on h8"),
    ("4k3/8/8/8/8/8/8/4K3 w q - 0 1", 3, "black rook on a8"),
    ("r3k2r/8/8/8/8/8/8/R2K3R w K - 0 1", 3, "white king on e1"),
    ("r2k3r/8/8/8/8/8/8/R3K2R w q - 0 1", 3, "black king on e8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", 3, "got 'X'"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", 3, "'K' is given twice"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", 3, "got '-'"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1", 3, "got 'A'"),
    // Field 4: en passant.
    ("4k3/8/8/3pP3/8/8/8/4K3 w - e3 0 1", 4, "must be on rank 6"),
    ("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", 4, "must be on rank 3"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", 4, "no black pawn on e5"),
    ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", 4, "no white pawn on e4"),
    ("4k3/8/8/4Pp2/8/8/8/4K3 w - e6 0 1", 4, "no black pawn on e5"),
    ("4k3/8/4n3/4pP2/8/8/8/4K3 w - e6 0 1", 4, "e6 and e7 must be empty"),
    ("4k3/4n3/8/4pP2/8/8/8/4K3 w - e6 0 1", 4, "e6 and e7 must be empty"),
    ("4k3/8/8/8/3pP3/4N3/8/4K3 b - e3 0 1", 4, "e3 and e2 must be empty"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - e9 0 1", 4, "got 'e9'"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d 0 1", 4, "got 'd'"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6d6 0 1", 4, "got 'd6d6'"),
    // Fields 5 and 6: clocks.
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", 5, "got 'x'"),
    ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", 5, "got '-1'"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 1.5 1", 5, "got '1.5'"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1", 5, "too large"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 abc", 6, "got 'abc'"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", 6, "got '-3'"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999", 6, "too large"),
    ("4k3/8/8/8/8/8/8/4K3 w - - +5 1", 5, "whole number"),
    ("QQQQQQQQ/QQk5/8/8/8/8/8/4K3 w - - 0 1", 1, "promoted pieces"),
    // Field 0: the position as a whole.
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", 0, "(Black) is in check"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", 0, "(White) is in check"),
    ("8/8/8/8/8/8/3k4/4K3 w - - 0 1", 0, "is in check"),
    ("4r1k1/8/8/8/8/8/3p4/4K2r w - - 0 1", 0, "more than two pieces"),
];

#[test]
fn invalid_fens_name_the_field() {
    for &(fen, field, fragment) in INVALID {
        match Board::from_fen(fen) {
            Ok(board) => panic!("{fen:?} accepted as {board}"),
            Err(e) => {
                assert_eq!(e.field, field, "{fen:?}: wrong field in {e}");
                assert!(e.message.contains(fragment), "{fen:?}: {:?} lacks {fragment:?}", e.message);
                let shown = e.to_string();
                assert!(shown.contains(fragment), "{fen:?}: Display {shown:?}");
                if field > 0 {
                    assert!(shown.contains(&format!("field {field}")), "{fen:?}: Display {shown:?}");
                }
            }
        }
        assert!(fen.parse::<Board>().is_err(), "{fen:?} via FromStr");
    }
}

/// Valid FENs off the beaten track, with what `to_fen` writes for them.
const VALID_UNUSUAL: &[(&str, &str)] = &[
    // Clocks: above the 50- and 75-move marks, large, and left out.
    ("4k3/8/8/8/8/8/8/4K3 w - - 101 80", "4k3/8/8/8/8/8/8/4K3 w - - 101 80"),
    ("4k3/8/8/8/8/8/8/4K3 b - - 150 9999", "4k3/8/8/8/8/8/8/4K3 b - - 150 9999"),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    ("4k3/8/8/8/8/8/8/4K3 w - - 7", "4k3/8/8/8/8/8/8/4K3 w - - 7 1"),
    // Spacing and castling order are normalised.
    (
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w\tqkQK  -  0   1 ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    // Split empty counts are joined.
    ("4k3/8/8/8/8/8/8/1111K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("4k3/8/8/8/8/8/8/K43 w - - 0 1", "4k3/8/8/8/8/8/8/K7 w - - 0 1"),
    // An e.p. square no pawn can use is kept as written.
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ),
    // Double check, and the 218-move position (nine queens).
    ("4k3/8/8/8/8/8/3p4/4K2r w - - 0 1", "4k3/8/8/8/8/8/3p4/4K2r w - - 0 1"),
    ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"),
    // Kings on each other's home squares, no castling.
    ("RNBQKBNR/8/8/8/8/8/8/rnbqkbnr w - - 0 1", "RNBQKBNR/8/8/8/8/8/8/rnbqkbnr w - - 0 1"),
];

#[test]
fn unusual_valid_fens() {
    for &(fen, expected) in VALID_UNUSUAL {
        match Board::from_fen(fen) {
            Ok(board) => {
                assert_eq!(board.to_fen(), expected, "{fen:?}");
                assert_round_trip(expected);
            }
            Err(e) => panic!("{fen:?} refused: {e}"),
        }
    }
    // The clocks survive play: past 100 half-moves nothing resets them.
    let mut board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 120 70").unwrap();
    let m = board.legal_moves()[0];
    board.play(m);
    assert_eq!((board.halfmove_clock(), board.fullmove_number()), (121, 70));
    // The unusable e.p. square is not hashed: the key is that of 1. e4 without it.
    let ep = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    let e4 = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(ep.hash(), e4.hash());
    let nine_queens = Board::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(nine_queens.legal_moves().len(), 218);
    assert_eq!(homeostat_chess::perft(&nine_queens, 1), 218);
}
