//! SAN writing and reading, UCI reading with legality, and their error messages.

mod common;

use common::{random_line, suite_fens, Rng};
use homeostat_chess::{Board, Move, MoveError, SanError};
use std::collections::HashSet;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(board: &Board, text: &str) -> Move {
    board.parse_uci(text).unwrap_or_else(|e| panic!("{text} in {board}: {e}"))
}

/// The SAN of the move given in UCI.
fn san_of(fen: &str, text: &str) -> String {
    let b = board(fen);
    b.san(uci(&b, text))
}

/// The UCI of the move read from SAN.
fn read(fen: &str, san: &str) -> String {
    let b = board(fen);
    b.parse_san(san).unwrap_or_else(|e| panic!("{san} in {fen}: {e}")).to_string()
}

fn san_error(fen: &str, san: &str) -> SanError {
    match board(fen).parse_san(san) {
        Ok(m) => panic!("{san} in {fen} was read as {m}"),
        Err(e) => e,
    }
}

/// Every legal move's SAN is distinct, reads back as that move, and marks check and mate right.
fn check_round_trip(b: &Board) -> usize {
    let moves = b.legal_moves();
    let mut seen = HashSet::new();
    for &m in moves.iter() {
        let san = b.san(m);
        assert!(seen.insert(san.clone()), "{san} written twice in {b}");
        assert_eq!(b.parse_san(&san), Ok(m), "{san} in {b}");
        assert_eq!(b.parse_move(&san), Ok(m), "{san} via parse_move in {b}");
        assert_eq!(b.parse_move(&m.to_string()), Ok(m), "{m} via parse_move in {b}");
        let mut next = *b;
        next.play(m);
        let mate = next.in_check() && !next.has_legal_moves();
        assert_eq!(san.ends_with('#'), mate, "{san} in {b}");
        assert_eq!(san.ends_with('+'), next.in_check() && !mate, "{san} in {b}");
    }
    moves.len()
}

#[test]
fn san_round_trips_every_move_of_the_perft_suite_and_its_children() {
    let mut total = 0;
    for fen in suite_fens() {
        let b = board(fen);
        total += check_round_trip(&b);
        for &m in b.legal_moves().iter() {
            let mut child = b;
            child.play(m);
            total += check_round_trip(&child);
        }
    }
    assert!(total > 20_000, "only {total} moves checked");
}

#[test]
fn san_round_trips_every_move_along_random_games() {
    let mut rng = Rng::new(0x5eed_0001);
    let starts: Vec<Board> =
        std::iter::once(Board::startpos()).chain(suite_fens().into_iter().step_by(8).map(board)).collect();
    let mut positions = 0;
    for game in 0..60 {
        let start = starts[game % starts.len()];
        let line = random_line(&start, 160, &mut rng);
        let mut b = start;
        for m in line {
            check_round_trip(&b);
            b.play(m);
            positions += 1;
        }
    }
    assert!(positions > 3000, "only {positions} positions checked");
}

#[test]
fn pinned_knight_does_not_cause_disambiguation() {
    // The knight on c3 is pinned by the bishop on b4, so only the g1 knight can go to e2.
    assert_eq!(san_of("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2"), "Ne2");
    // Without the pin both can, and each names its file.
    assert_eq!(san_of("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2"), "Nge2");
    assert_eq!(san_of("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "c3e2"), "Nce2");
}

#[test]
fn three_queens_disambiguate_by_file_rank_and_square() {
    let fen = "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1";
    assert_eq!(san_of(fen, "e4e1"), "Qee1");
    assert_eq!(san_of(fen, "h1e1"), "Q1e1");
    assert_eq!(san_of(fen, "h4e1"), "Qh4e1");
    assert_eq!(read(fen, "Qee1"), "e4e1");
    assert_eq!(read(fen, "Q1e1"), "h1e1");
    assert_eq!(read(fen, "Qh4e1"), "h4e1");
    assert_eq!(san_error(fen, "Qe1").to_string(), "ambiguous move: Qe1 — queens on h1, e4 and h4 can go there");
    // Naming the h-file still leaves two queens.
    assert!(matches!(san_error(fen, "Qhe1"), SanError::Ambiguous { .. }));
}

#[test]
fn rooks_disambiguate_by_file_then_rank() {
    assert_eq!(san_of("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1");
    assert_eq!(san_of("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "h1d1"), "Rhd1");
    assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
    assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3"), "R5a3");
}

#[test]
fn pawn_captures_en_passant_and_promotions_are_written_in_san() {
    let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(san_of(ep, "e5d6"), "exd6");
    assert_eq!(san_of(ep, "e5e6"), "e6");
    assert_eq!(read(ep, "exd6"), "e5d6");
    assert_eq!(read(ep, "exd6e.p."), "e5d6");
    assert_eq!(read(ep, "exd6 e.p."), "e5d6");
    assert_eq!(read(ep, "exd6 e.p.+"), "e5d6");

    let promo = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(promo, "b7b8q"), "b8=Q+");
    assert_eq!(san_of(promo, "b7b8n"), "b8=N");
    assert_eq!(san_of(promo, "b7a8q"), "bxa8=Q+");
    assert_eq!(san_of(promo, "b7a8r"), "bxa8=R+");
    assert_eq!(san_of(promo, "b7a8b"), "bxa8=B");
}

#[test]
fn castling_is_written_with_check_marks() {
    assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
    assert_eq!(san_of("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8g8"), "O-O");
    assert_eq!(san_of("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8c8"), "O-O-O");
}

#[test]
fn mate_is_marked_with_a_hash() {
    // Fool's mate.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    assert_eq!(san_of(fen, "d8h4"), "Qh4#");
    // Mate by promotion.
    assert_eq!(san_of("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8q"), "c8=Q#");
    assert_eq!(san_of("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8r"), "c8=R#");
}

#[test]
fn illegal_moves_are_written_in_uci_form_without_panicking() {
    let b = Board::startpos();
    let bad = Move::parse_uci_squares("e2e5").unwrap();
    assert_eq!(b.san(bad), "e2e5");
    let empty = Move::parse_uci_squares("e4e5").unwrap();
    assert_eq!(b.san(empty), "e4e5");
}

#[test]
fn lenient_castling_check_marks_and_annotations_are_accepted() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for text in ["O-O", "0-0", "o-o", "O-O+", "O-O#", "O-O!", "0-0!?", "O-O ?!", "Kg1"] {
        assert_eq!(read(fen, text), "e1g1", "{text}");
    }
    for text in ["O-O-O", "0-0-0", "O-O-O+", "o-o-o", "O-O-O??"] {
        assert_eq!(read(fen, text), "e1c1", "{text}");
    }
    let start = Board::startpos().to_fen();
    for text in ["Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3!!", "Nf3?", "Nf3!?", "Nf3?!", " Nf3 ", "nf3"] {
        assert_eq!(read(&start, text), "g1f3", "{text}");
    }
    for text in ["Ng1f3", "Ng1-f3", "Ngf3", "N1f3"] {
        assert_eq!(read(&start, text), "g1f3", "{text}");
    }
    for text in ["e4", "Pe4", "e2e4", "e2-e4", "e4!"] {
        assert_eq!(read(&start, text), "e2e4", "{text}");
    }
}

#[test]
fn lenient_promotion_forms_are_accepted() {
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    for text in ["b8=Q", "b8Q", "b8=q", "b8q", "b8/Q", "b8(Q)", "b8=Q+", "b8Q+!"] {
        assert_eq!(read(fen, text), "b7b8q", "{text}");
    }
    for (text, expected) in [("b8=N", "b7b8n"), ("b8n", "b7b8n"), ("b8b", "b7b8b"), ("b8=b", "b7b8b"), ("b8R", "b7b8r")]
    {
        assert_eq!(read(fen, text), expected, "{text}");
    }
}

#[test]
fn lower_case_b_is_the_b_file_and_capital_b_the_bishop() {
    let fen = "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1";
    assert_eq!(read(fen, "bxc3"), "b2c3");
    assert_eq!(read(fen, "bc3"), "b2c3");
    assert_eq!(read(fen, "Bxc3"), "d2c3");
    assert_eq!(read(fen, "Bc3"), "d2c3", "a missing capture mark is accepted");
    assert_eq!(read(fen, "b3"), "b2b3");
}

#[test]
fn strict_errors_explain_what_is_wrong() {
    let start = Board::startpos().to_fen();
    assert_eq!(san_error(&start, "Nf6").to_string(), "illegal move: Nf6 — no knight can reach f6");
    assert_eq!(
        san_error("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2").to_string(),
        "ambiguous move: Nd2 — knights on b1 and f3 can go there"
    );
    assert!(san_error(&start, "xyz").to_string().starts_with("not a move: 'xyz'"));
    assert!(matches!(san_error(&start, ""), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "Nf9"), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "Zf3"), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "--"), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "e4=Q"), SanError::Illegal { .. }));
    assert!(matches!(san_error(&start, "O-O"), SanError::Illegal { .. }));
    assert!(matches!(san_error(&start, "Bb5"), SanError::Illegal { .. }));
    assert!(matches!(san_error(&start, "Qe4=Q"), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "xe4"), SanError::NotAMove { .. }));
    assert!(matches!(san_error(&start, "Pxe4"), SanError::NotAMove { .. }));
    assert_eq!(san_error(&start, "Nxf3").to_string(), "illegal move: Nxf3 — there is nothing to capture on f3");
    assert_eq!(
        san_error("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8").to_string(),
        "illegal move: b8 — a pawn reaching b8 must promote: add =Q, =R, =B or =N"
    );
    assert!(matches!(san_error("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=K"), SanError::NotAMove { .. }));
    assert_eq!(
        san_error(&start, "Nd2").to_string(),
        "illegal move: Nd2 — no knight can go to d2, which holds a piece of the side to move"
    );
}

#[test]
fn uci_moves_are_checked_for_legality() {
    let start = Board::startpos();
    assert_eq!(start.parse_uci("e2e4").map(|m| m.to_string()), Ok("e2e4".to_string()));
    let err = |text: &str| start.parse_uci(text).unwrap_err().to_string();
    assert_eq!(err("e2e5"), "illegal move: e2e5 — the pawn on e2 cannot move to e5");
    assert_eq!(err("e7e5"), "illegal move: e7e5 — the pawn on e7 is Black's, and White is to move");
    assert_eq!(err("e3e4"), "illegal move: e3e4 — there is no piece on e3");
    assert_eq!(err("d1d2"), "illegal move: d1d2 — d2 holds a piece of the side to move");
    assert_eq!(err("e2e4q"), "illegal move: e2e4q — a pawn promotes only on the last rank, and e4 is not on it");
    assert!(err("e2").starts_with("not a move: 'e2'"));
    assert!(err("e2e4k").starts_with("not a move"));

    let pinned = board("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    assert_eq!(
        pinned.parse_uci("e2d3").unwrap_err().to_string(),
        "illegal move: e2d3 — it would leave the white king in check"
    );
    let promo = board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(promo.parse_uci("b7b8").unwrap_err().to_string().contains("must promote"));
    assert_eq!(promo.parse_uci("b7b8q").map(|m| m.to_string()), Ok("b7b8q".to_string()));
}

#[test]
fn uci_castling_is_accepted_as_king_two_squares_or_king_takes_rook() {
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, expected) in [("e1g1", "e1g1"), ("e1h1", "e1g1"), ("e1c1", "e1c1"), ("e1a1", "e1c1")] {
        assert_eq!(b.parse_uci(text).map(|m| m.to_string()), Ok(expected.to_string()), "{text}");
    }
    let no_rights = board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(no_rights.parse_uci("e1h1").is_err());
    assert!(no_rights.parse_uci("e1g1").unwrap_err().to_string().contains("castling is not allowed"));
}

#[test]
fn parse_move_tries_uci_then_san() {
    let start = Board::startpos();
    assert_eq!(start.parse_move("g1f3"), start.parse_san("Nf3"));
    assert_eq!(start.parse_move("Nf3").map(|m| m.to_string()), Ok("g1f3".to_string()));
    assert!(matches!(start.parse_move("e2e5"), Err(MoveError::Illegal { .. })));
    assert!(matches!(start.parse_move("hello"), Err(MoveError::NotAMove { .. })));
    assert!(matches!(board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").parse_move("Nd2"), Err(MoveError::Ambiguous { .. })));
}

#[test]
fn random_text_never_panics_the_move_readers() {
    let alphabet: Vec<char> = "abcdefgh12345678NBRQKPnbrqkpxX=+#!?-O0o()/.: e€é\u{0}".chars().collect();
    let positions = [
        Board::startpos(),
        board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"),
        board("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    ];
    let mut rng = Rng::new(77);
    for _ in 0..20_000 {
        let len = rng.below(9);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        for b in &positions {
            let _ = b.parse_san(&text);
            let _ = b.parse_move(&text);
            let _ = b.parse_uci(&text);
        }
    }
}
