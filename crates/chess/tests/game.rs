//! The game record: playing and taking back, repetition, the move-count rules, mate, stalemate,
//! dead positions, and endings decided by the players.

use homeostat_chess::{Board, Color, EndReason, Game, GameResult, Move, MoveError, Outcome, PieceKind, Square};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str) -> Game {
    Game::new(board(fen))
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        game.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

const KNIGHT_DANCE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_repetition_is_claimable_but_does_not_end_the_game() {
    let mut g = Game::default();
    play(&mut g, KNIGHT_DANCE);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.claimable_draw(), None);
    play(&mut g, KNIGHT_DANCE);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(Outcome::draw(EndReason::ThreefoldRepetition)));
    assert_eq!(g.outcome(), None);
    // Play may go on; the claim ends the game.
    play(&mut g, "e4");
    assert_eq!(g.claimable_draw(), None);
    g.undo();
    assert_eq!(g.claim_draw(), Some(Outcome::draw(EndReason::ThreefoldRepetition)));
    assert!(matches!(g.play_text("e4"), Err(MoveError::GameOver { .. })));
}

#[test]
fn fivefold_repetition_ends_the_game_automatically() {
    let mut g = Game::default();
    for _ in 0..3 {
        play(&mut g, KNIGHT_DANCE);
    }
    assert_eq!(g.repetitions(), 4);
    assert_eq!(g.outcome(), None);
    play(&mut g, KNIGHT_DANCE);
    assert_eq!(g.repetitions(), 5);
    let fivefold = Outcome::draw(EndReason::FivefoldRepetition);
    assert_eq!(g.outcome(), Some(fivefold));
    assert_eq!(g.claimable_draw(), None, "nothing to claim in a finished game");
    let err = g.play_text("Nf3").unwrap_err();
    assert_eq!(err, MoveError::GameOver { text: "Nf3".to_string(), outcome: fivefold });
    assert_eq!(err.to_string(), "move Nf3 refused: the game is over (draw by fivefold repetition)");
    assert_eq!(g.resign(Color::White), Err(fivefold));
}

#[test]
fn repetition_ignores_an_en_passant_square_whose_capture_is_illegal() {
    // After ...c5 the d5 pawn could take en passant but is pinned to its king by the rook.
    let mut g = game("3r3k/2p5/8/3P4/8/8/8/3K4 b - - 0 1");
    play(&mut g, "c5 Kc1 Kg8 Kd1 Kh8");
    assert_eq!(g.repetitions(), 2, "the same position as after ...c5");

    // Without the pin the capture is possible, so the first position differs.
    let mut g = game("7k/2p5/8/3P4/8/8/8/3K4 b - - 0 1");
    play(&mut g, "c5 Kc1 Kg8 Kd1 Kh8");
    assert_eq!(g.repetitions(), 1);
}

#[test]
fn repetition_counts_castling_rights() {
    // The rook goes out and back: the pieces repeat but the castling right is gone.
    let mut g = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    play(&mut g, "Rh2 Kd8 Rh1 Ke8");
    assert_eq!(g.repetitions(), 1);
    play(&mut g, "Rh2 Kd8 Rh1 Ke8");
    assert_eq!(g.repetitions(), 2);
}

#[test]
fn fifty_moves_are_claimable_and_seventy_five_end_the_game() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 60");
    play(&mut g, "Ra2");
    assert_eq!(g.claimable_draw(), None);
    play(&mut g, "Kd8");
    assert_eq!(g.board().halfmove_clock(), 100);
    assert_eq!(g.claimable_draw(), Some(Outcome::draw(EndReason::FiftyMoveRule)));
    assert_eq!(g.outcome(), None);

    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 148 90");
    play(&mut g, "Ra2");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Kd8");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::SeventyFiveMoveRule)));
    assert!(g.play_text("Ra3").is_err());
}

#[test]
fn a_capture_or_pawn_move_resets_the_move_count() {
    let mut g = game("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 60");
    play(&mut g, "e3");
    assert_eq!(g.board().halfmove_clock(), 0);
    assert_eq!(g.claimable_draw(), None);
}

#[test]
fn checkmate_on_the_seventy_fifth_move_takes_precedence() {
    let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 149 100");
    play(&mut g, "Rh8");
    assert_eq!(g.board().halfmove_clock(), 150);
    assert_eq!(g.outcome(), Some(Outcome::new(GameResult::WhiteWins, EndReason::Checkmate)));
    assert_eq!(g.san_moves(), ["Rh8#"]);

    // The same at 99: mate, and no fifty-move claim.
    let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 99 100");
    play(&mut g, "Rh8");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::Checkmate));
    assert_eq!(g.claimable_draw(), None);
}

#[test]
fn checkmate_ends_the_game_and_undo_reopens_it() {
    let mut g = Game::default();
    play(&mut g, "f3 e5 g4 Qh4#");
    let mate = Outcome::new(GameResult::BlackWins, EndReason::Checkmate);
    assert_eq!(g.outcome(), Some(mate));
    assert!(g.board().is_checkmate());
    assert_eq!(mate.to_string(), "Black wins by checkmate");
    assert_eq!(g.resign(Color::White), Err(mate));
    assert_eq!(g.san_moves(), ["f3", "e5", "g4", "Qh4#"]);

    let queen_move = g.undo().unwrap();
    assert_eq!(queen_move.to_string(), "d8h4");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Nc6");
    assert_eq!(g.len(), 4);
}

#[test]
fn stalemate_is_an_automatic_draw() {
    let mut g = game("k7/8/8/8/8/8/1Q6/K7 w - - 0 1");
    play(&mut g, "Qb6");
    assert!(g.board().is_stalemate());
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    assert_eq!(g.to_pgn(&[]).lines().last(), Some("1. Qb6 1/2-1/2"));
}

#[test]
fn insufficient_material_is_detected_for_dead_material_only() {
    let dead = [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "king against king"),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", "a knight"),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "a bishop"),
        ("4kb2/8/8/8/8/8/8/4K3 w - - 0 1", "a black bishop"),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", "one bishop each, both on dark squares"),
        ("4k2b/8/8/8/8/8/8/B1B1K3 w - - 0 1", "three bishops, all on dark squares"),
    ];
    for (fen, what) in dead {
        assert!(board(fen).is_insufficient_material(), "{what}: {fen}");
    }
    let alive = [
        ("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", "bishops on squares of opposite colours"),
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "two bishops on both colours"),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", "two knights"),
        ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", "knight against knight"),
        ("4k3/8/8/8/8/8/8/3BKN2 w - - 0 1", "bishop and knight"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "a pawn"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "a rook"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "a queen"),
    ];
    for (fen, what) in alive {
        assert!(!board(fen).is_insufficient_material(), "{what}: {fen}");
    }
    // A dead position is over at once, even with moves left.
    assert_eq!(game("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").outcome(), Some(Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn capturing_the_last_piece_ends_the_game_by_insufficient_material() {
    let mut g = game("4k3/8/8/8/8/8/3r4/4KN2 w - - 0 1");
    play(&mut g, "Kxd2");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::InsufficientMaterial)));
    assert!(matches!(g.play_text("Kd8"), Err(MoveError::GameOver { .. })));
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let mut g = Game::default();
    let e2e5 = Move::parse_uci_squares("e2e5").unwrap();
    assert_eq!(g.play(e2e5).unwrap_err().to_string(), "illegal move: e2e5 — the pawn on e2 cannot move to e5");
    assert!(g.is_empty());
    assert!(g.play_text("Ke2").is_err());
    assert_eq!(g.play_text("e2e4").map(|m| m.to_string()), Ok("e2e4".to_string()));
    assert_eq!(g.play_text("e5").map(|m| m.to_string()), Ok("e7e5".to_string()));

    // A pawn may not promote to a king.
    let mut g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let b7 = Square::parse("b7").unwrap();
    let b8 = Square::parse("b8").unwrap();
    assert!(matches!(g.play(Move::new(b7, b8, Some(PieceKind::King))), Err(MoveError::Illegal { .. })));
    assert!(g.play(Move::new(b7, b8, Some(PieceKind::Queen))).is_ok());
}

#[test]
fn positions_and_hashes_follow_the_moves() {
    let mut g = Game::default();
    play(&mut g, "e4 d5 e5 f5");
    assert_eq!(g.len(), 4);
    assert_eq!(g.positions().len(), 5);
    assert_eq!(g.start(), &Board::startpos());
    // The keys the Polyglot book format documents for this line.
    let hashes: Vec<u64> = g.hashes().collect();
    if cfg!(not(feature = "compact-keys")) {
        assert_eq!(
            hashes,
            [0x463b96181691fc9c, 0x823c9b50fd114196, 0x0756b94461c50fb0, 0x662fafb965db29d4, 0x22a48b5a8e47ff78]
        );
    }
    let fresh: Vec<u64> = g.positions().iter().map(Board::hash).collect();
    assert_eq!(hashes, fresh, "no unusable e.p. square in this line: the game's keys are the boards'");
    assert_eq!(g.board().to_fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    assert_eq!(g.san_moves(), ["e4", "d5", "e5", "f5"]);
    assert_eq!(g.undo().map(|m| m.to_string()), Some("f7f5".to_string()));
    assert_eq!(g.positions().len(), 4);
    let mut empty = Game::default();
    assert_eq!(empty.undo(), None);
}

#[test]
fn resignation_and_agreement_are_declared_endings() {
    let mut g = Game::default();
    play(&mut g, "e4");
    let resigned = g.resign(Color::Black).unwrap();
    assert_eq!(resigned, Outcome::new(GameResult::WhiteWins, EndReason::Resignation));
    assert_eq!(resigned.to_string(), "White wins by resignation");
    assert!(!resigned.reason.is_automatic());
    assert_eq!(g.agree_draw(), Err(resigned));
    assert!(g.play_text("e5").is_err());
    assert!(g.to_pgn(&[]).ends_with("1. e4 1-0\n"));
    // Taking the move back also takes back the resignation.
    g.undo();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.agree_draw(), Ok(Outcome::draw(EndReason::Agreement)));
    assert!(g.to_pgn(&[]).ends_with("\n\n1/2-1/2\n"));
}

#[test]
fn a_flag_loses_unless_the_opponent_cannot_mate() {
    let mut g = Game::default();
    play(&mut g, "e4");
    let flagged = g.flag(Color::Black).unwrap();
    assert_eq!(flagged, Outcome::new(GameResult::WhiteWins, EndReason::Timeout));
    assert_eq!(g.flag(Color::White), Err(flagged));
    // White has a lone knight against a queen: Black's flag is a draw, White's a loss.
    let g = game("3qk3/8/8/8/8/8/8/1N2K3 b - - 0 1");
    assert_eq!(g.clone().flag(Color::Black), Ok(Outcome::draw(EndReason::Timeout)));
    assert_eq!(g.clone().flag(Color::White), Ok(Outcome::new(GameResult::BlackWins, EndReason::Timeout)));
    // Against a pawn the knight can mate.
    let mut g = game("4k3/4p3/8/8/8/8/8/1N2K3 b - - 0 1");
    assert_eq!(g.flag(Color::Black), Ok(Outcome::new(GameResult::WhiteWins, EndReason::Timeout)));
}

#[test]
fn undo_keeps_moves_to_redo_until_another_move_is_played() {
    let mut g = Game::default();
    play(&mut g, "e4 e5 Nf3");
    assert_eq!(g.redo(), None);
    let nf3 = g.undo().unwrap();
    let e5 = g.undo().unwrap();
    assert_eq!(g.redo_moves(), [nf3, e5]);
    assert_eq!(g.redo(), Some(e5));
    assert_eq!(g.redo_moves(), [nf3]);
    // Playing the move to redo by hand keeps the rest ...
    g.undo();
    play(&mut g, "e5");
    assert_eq!(g.redo_moves(), [nf3]);
    // ... another move drops it.
    play(&mut g, "Nc3");
    assert!(g.redo_moves().is_empty());
    assert_eq!(g.san_moves(), ["e4", "e5", "Nc3"]);
    // Taking everything back and redoing it gives the same game.
    let before = g.clone();
    while g.undo().is_some() {}
    assert_eq!(g.len(), 0);
    while g.redo().is_some() {}
    assert_eq!(g, before);
}

#[test]
fn redo_after_the_game_was_ended_leaves_nothing_to_redo() {
    let mut g = Game::default();
    play(&mut g, "e4 e5");
    g.undo();
    g.resign(Color::Black).unwrap();
    assert_eq!(g.redo(), None);
    assert!(g.redo_moves().is_empty());
    assert_eq!(g.len(), 1);
}

#[test]
fn automatic_claims_end_the_game_when_a_draw_can_be_claimed() {
    let threefold = Some(Outcome::draw(EndReason::ThreefoldRepetition));
    // Off by default: the rules leave the claim to the player.
    let mut g = Game::default();
    assert!(!g.automatic_claims());
    play(&mut g, &format!("{KNIGHT_DANCE} {KNIGHT_DANCE}"));
    assert_eq!(g.outcome(), None);
    // Turned on, the draw is claimed at once ...
    g.set_automatic_claims(true);
    assert_eq!(g.outcome(), threefold);
    // ... and after the move that makes it claimable; taking it back reopens the game, and
    // redoing it claims again.
    let mut g = Game::default();
    g.set_automatic_claims(true);
    play(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Ng8");
    assert_eq!(g.outcome(), threefold);
    g.undo();
    assert_eq!(g.outcome(), None);
    assert!(g.redo().is_some());
    assert_eq!(g.outcome(), threefold);
    // The fifty-move rule too.
    let mut g = game("8/8/4k3/8/8/4K3/8/R7 w - - 99 80");
    g.set_automatic_claims(true);
    play(&mut g, "Ra2");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::FiftyMoveRule)));
}

#[test]
fn a_replayed_game_goes_on_past_a_draw_nobody_claimed() {
    // As a record is read: the repetition after the eighth move was not claimed, so the game went on.
    // Moves may be UCI or SAN.
    let moves = ["g1f3", "Nf6", "Ng1", "f6g8", "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5"];
    let mut g = Game::from_moves(Board::startpos(), &moves).unwrap();
    assert_eq!((g.len(), g.outcome()), (10, None));
    g.set_automatic_claims(true);
    assert_eq!(g.outcome(), None);
    // Played move by move with the page's automatic claims, the same moves stop at the repetition.
    let mut played = Game::default();
    played.set_automatic_claims(true);
    play(&mut played, &format!("{KNIGHT_DANCE} {KNIGHT_DANCE}"));
    assert!(matches!(played.play_text("e4"), Err(MoveError::GameOver { .. })));
    // An illegal move is refused with the reason play_text gives.
    let err = Game::from_moves(Board::startpos(), &["e4", "e4"]).unwrap_err();
    let mut one = Game::from_moves(Board::startpos(), &["e4"]).unwrap();
    assert_eq!(err, one.play_text("e4").unwrap_err());
}

#[test]
fn a_recorded_result_ends_the_game_unless_the_position_contradicts_it() {
    let mut g = Game::from_moves(Board::startpos(), &["e4", "e5"]).unwrap();
    assert_eq!(g.record_result(GameResult::WhiteWins), Ok(()));
    assert_eq!(g.outcome(), Some(Outcome::new(GameResult::WhiteWins, EndReason::Unspecified)));
    let mut mate = Game::from_moves(Board::startpos(), &["f3", "e5", "g4", "Qh4#"]).unwrap();
    assert_eq!(mate.record_result(GameResult::BlackWins), Ok(()));
    assert_eq!(mate.outcome().map(|o| o.reason), Some(EndReason::Checkmate));
    assert_eq!(
        mate.record_result(GameResult::Draw),
        Err("the result 1/2-1/2 contradicts the final position: Black wins by checkmate".to_string())
    );
}
