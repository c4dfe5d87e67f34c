//! PGN reading and writing: round trips, multi-game files, and error recovery.

mod common;

use common::{suite_fens, Rng};
use homeostat_chess::pgn::{self, read_game, read_games, write_games};
use homeostat_chess::{Board, Color, Game, GameResult, Move, PgnGame};

fn fen_board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A random game from `start`, ended by the rules or by a random decision of the players.
fn random_game(start: Board, rng: &mut Rng) -> Game {
    let mut game = Game::new(start);
    let plies = rng.below(200);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.board().legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    // Refused (harmlessly) when the rules already ended the game; a fourth of the games stay
    // unfinished.
    let _ = match rng.below(4) {
        0 => game.resign(Color::White),
        1 => game.resign(Color::Black),
        2 => game.agree_draw(),
        _ => Ok(homeostat_chess::Outcome::draw(homeostat_chess::EndReason::Agreement)),
    };
    game
}

fn uci_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn random_games_survive_a_write_and_read_round_trip() {
    let mut rng = Rng::new(2024);
    let fens = suite_fens();
    let mut games = Vec::new();
    let mut results = [0usize; 4];
    for i in 0..120 {
        let start = match i % 3 {
            0 => Board::startpos(),
            1 => fen_board(fens[rng.below(fens.len())]),
            // Black to move from the start of the record.
            _ => {
                let mut b = Board::startpos();
                let moves = b.legal_moves();
                b.play(moves[rng.below(moves.len())]);
                b
            }
        };
        let game = random_game(start, &mut rng);
        let round = format!("{i}");
        let tags = [
            ("White", "O'Neil \"The Wall\""),
            ("Black", "back\\slash"),
            ("Round", round.as_str()),
            ("Annotator", "rng"),
            ("Site", "Zürich \"€\" \\ café"),
        ];
        let text = game.to_pgn(&tags);
        let back = Game::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.start(), game.start(), "{text}");
        assert_eq!(uci_moves(back.moves()), uci_moves(game.moves()), "{text}");
        let result = game.outcome().map(|o| o.result);
        assert_eq!(back.outcome().map(|o| o.result), result, "{text}");
        results[match result {
            Some(GameResult::WhiteWins) => 0,
            Some(GameResult::BlackWins) => 1,
            Some(GameResult::Draw) => 2,
            None => 3,
        }] += 1;

        let record = read_game(&text).unwrap();
        assert_eq!(record.tag("White"), Some("O'Neil \"The Wall\""));
        assert_eq!(record.tag("Black"), Some("back\\slash"));
        assert_eq!(record.tag("Annotator"), Some("rng"));
        assert_eq!(record.tag("Site"), Some("Zürich \"€\" \\ café"));
        assert_eq!(record.tag("Result"), Some(result.map_or("*", GameResult::to_pgn)));
        assert_eq!(record.to_pgn(), text, "writing what was read gives the same text");
        games.push(record);
    }
    assert!(results.iter().all(|&n| n > 0), "every result occurs: {results:?}");

    // All of them in one file.
    let file = write_games(&games);
    let read: Vec<PgnGame> = read_games(&file).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(read, games);
}

#[test]
fn written_pgn_has_the_roster_first_and_wraps_at_80_columns() {
    let mut game = Game::default();
    let mut rng = Rng::new(9);
    for _ in 0..80 {
        let moves = game.board().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    let text = game.to_pgn(&[("Opening", "random"), ("White", "W"), ("FEN", "ignored"), ("Result", "1-0")]);
    let lines: Vec<&str> = text.lines().collect();
    let names: Vec<&str> = lines[..8].iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(names, ["[Event", "[Site", "[Date", "[Round", "[White", "[Black", "[Result", "[Opening"]);
    assert_eq!(lines[0], "[Event \"?\"]");
    assert_eq!(lines[2], "[Date \"????.??.??\"]");
    assert_eq!(lines[4], "[White \"W\"]");
    assert_eq!(lines[6], "[Result \"*\"]", "the result follows the game, not the tag given");
    assert!(!text.contains("[FEN"), "no FEN tag for the standard start");
    assert_eq!(lines[8], "");
    let movetext = &lines[9..];
    assert!(movetext.len() > 3, "{text}");
    assert!(movetext.iter().all(|l| l.len() <= 80), "{text}");
    assert!(movetext[0].starts_with("1. "));
    assert!(movetext.last().unwrap().ends_with(" *"));
    assert!(text.ends_with("*\n"));
}

#[test]
fn a_game_from_a_black_to_move_position_writes_setup_fen_and_an_ellipsis() {
    let start = fen_board("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 12");
    let mut game = Game::new(start);
    game.play_text("Qh4").unwrap();
    let text = game.to_pgn(&[]);
    assert!(text.contains("[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 12\"]\n"), "{text}");
    assert!(text.ends_with("\n\n12... Qh4# 0-1\n"), "{text}");
}

const THREE_GAMES: &str = r#"[Event "Casual \"blitz\""]
[Site "Back\\slash"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{A comment before the moves.} 1. e4 {best by test} e5 $1 2. Nf3 (2. f4 exf4 (2... d5
3. exd5) 3. Nf3) 2... Nc6 ; a comment to the end of the line ) { ( [
3.Bb5 a6 4. Ba4!? Nf6?! 5. O-O $14 Be7 1-0

% an escaped line: [Event "not a tag"]
[Event "Second"]
[Result "0-1"]
[SetUp "1"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"]

2... Qh4# 0-1

[Event "Third"]
1.d4 d5 2.c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 *
"#;

#[test]
fn a_file_of_three_games_with_comments_nags_and_variations_is_read() {
    let games: Vec<PgnGame> = read_games(THREE_GAMES).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 3);

    assert_eq!(games[0].tag("Event"), Some("Casual \"blitz\""));
    assert_eq!(games[0].tag("Site"), Some("Back\\slash"));
    assert_eq!(uci_moves(&games[0].moves), "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7");
    assert_eq!(games[0].result, Some(GameResult::WhiteWins));
    assert_eq!(games[0].start, Board::startpos());

    assert_eq!(games[1].tag("Event"), Some("Second"));
    assert_eq!(uci_moves(&games[1].moves), "d8h4");
    assert_eq!(games[1].result, Some(GameResult::BlackWins));
    assert_eq!(games[1].start.fullmove_number(), 2);
    let second = Game::from_pgn_game(&games[1]).unwrap();
    assert_eq!(second.outcome().unwrap().to_string(), "Black wins by checkmate");

    assert_eq!(games[2].moves.len(), 11);
    assert_eq!(games[2].result, None);
}

#[test]
fn the_movetext_result_wins_and_a_missing_one_comes_from_the_result_tag() {
    let g = read_game("[Result \"0-1\"]\n1. e4 e5 1/2-1/2").unwrap();
    assert_eq!(g.result, Some(GameResult::Draw));
    let g = read_game("[Result \"0-1\"]\n1. e4 e5").unwrap();
    assert_eq!(g.result, Some(GameResult::BlackWins));
    let g = read_game("1. e4 e5").unwrap();
    assert_eq!(g.result, None);
    let g = read_game("1. e4 e5 ½-½").unwrap();
    assert_eq!(g.result, Some(GameResult::Draw));
}

#[test]
fn a_bad_move_in_game_two_does_not_lose_games_one_and_three() {
    let text = "[Event \"one\"]\n1. e4 e5 1-0\n\n[Event \"two\"]\n1. e4 e5 2. Qxh7 Nc6 0-1\n\n[Event \"three\"]\n1. d4 1/2-1/2\n";
    let games = read_games(text);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
    let err = games[1].as_ref().unwrap_err();
    assert_eq!((err.game, err.line, err.at_move), (2, 5, Some((2, Color::White))));
    assert_eq!(err.to_string(), "game 2, move 2 (White): illegal move: Qxh7 — no queen can reach h7 (line 5)");
    let third = games[2].as_ref().unwrap();
    assert_eq!(third.tag("Event"), Some("three"));
    assert_eq!(third.result, Some(GameResult::Draw));
}

#[test]
fn each_kind_of_broken_game_is_reported_and_skipped() {
    let text = r#"[Event "ok 1"]
1. e4 *

[Event "bad fen"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"]
1. e4 *

[Event "ok 3"]
1. d4 *

[Event "unclosed variation"]
1. e4 (1. d4 d5 *

[Event "ok 5"]
1. c4 *

[White "no closing quote]
[Event "six"]
1. e4 *

[Variant "Crazyhouse"]
1. e4 *

[Event "stray paren"]
1. e4 ) e5 *

[Event "null move"]
1. e4 -- *

[Event "ok 10"]
1. Nf3 *

[Event "unclosed comment"]
1. e4 {never closed *
"#;
    let games = read_games(text);
    let summary: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(g) => format!("ok {}", g.moves.len()),
            Err(e) => e.to_string(),
        })
        .collect();
    let expected = [
        "ok 1",
        "game 2: bad FEN tag \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\": FEN field 2: side to move must be 'w' or 'b', got 'x' (line 4)",
        "ok 1",
        "game 4: a variation opened with '(' is never closed (line 12)",
        "ok 1",
        "game 6: tag 'White': the value has no closing quote (line 17)",
        "game 7: variant 'Crazyhouse' is not supported, only standard chess (line 21)",
        "game 8: ')' closes no variation (line 25)",
        "game 9, move 1 (Black): not a move: '--' — null moves are not supported (line 28)",
        "ok 1",
        "game 11: a comment opened with '{' is never closed (line 34)",
    ];
    assert_eq!(summary, expected);
}

#[test]
fn text_without_games_gives_none_and_read_game_says_so() {
    assert!(read_games("").is_empty());
    assert!(read_games("  \n { just a comment }\n ; and another\n").is_empty());
    assert_eq!(
        read_game("\n").unwrap_err().to_string(),
        "game 1: no game found: expected tags such as [Event \"...\"] or moves (line 1)"
    );
}

#[test]
fn game_from_pgn_refuses_a_result_that_contradicts_the_final_position() {
    let err = Game::from_pgn("1. f3 e5 2. g4 Qh4# 1-0").unwrap_err();
    assert_eq!(err.to_string(), "game 1: the result 1-0 contradicts the final position: Black wins by checkmate");
    let game = Game::from_pgn("1. e4 e5 1-0").unwrap();
    assert_eq!(game.outcome().map(|o| o.result), Some(GameResult::WhiteWins));
    assert!(game.clone().play_text("Nf3").is_err(), "the recorded result ends the game");
}

#[test]
fn writing_stops_at_an_illegal_move_without_panicking() {
    let mut record = PgnGame::new(Board::startpos());
    record.moves = vec![
        Move::parse_uci_squares("e2e4").unwrap(),
        Move::parse_uci_squares("e2e4").unwrap(),
        Move::parse_uci_squares("e7e5").unwrap(),
    ];
    let text = record.to_pgn();
    assert!(text.ends_with("1. e4 {move e2e4 is not legal here; the moves after it are left out} *\n"), "{text}");
    assert!(Game::from_pgn_game(&record).is_err());
}

#[test]
fn random_text_never_panics_the_pgn_reader() {
    let pieces = [
        "[",
        "]",
        "\"",
        "\\",
        "{",
        "}",
        "(",
        ")",
        ";",
        "$",
        "$3",
        "%",
        "\n",
        " ",
        "1.",
        "1...",
        "e4",
        "e5",
        "Nf3",
        "O-O",
        "1-0",
        "*",
        "[Event \"x\"]",
        "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]",
        "é",
        "Qxh7",
        "0-0",
    ];
    let mut rng = Rng::new(4242);
    for _ in 0..3000 {
        let text: String = (0..rng.below(30)).map(|_| pieces[rng.below(pieces.len())]).collect();
        for game in pgn::games(&text) {
            let _ = game.map(|g| g.to_pgn());
        }
    }
}

#[test]
fn a_byte_order_mark_glyphs_and_games_without_move_text_are_handled() {
    let text = "\u{feff}[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n1. e4 += e5 +/- 2. Nf3 ! 0-1\n";
    let games: Vec<PgnGame> = read_games(text).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("a"));
    assert!(games[0].moves.is_empty());
    assert_eq!(games[0].result, Some(GameResult::WhiteWins));
    assert_eq!(uci_moves(&games[1].moves), "e2e4 e7e5 g1f3");
    assert_eq!(games[1].result, Some(GameResult::BlackWins));
}

#[test]
fn side_lines_that_are_not_kept_are_counted() {
    let text = "1. e4 {good} (1. d4 {queen's pawn} d5 (1... Nf6)) (1. c4) e5 (1... c5 2. Xx9 Nf3) 2. Nf3 *";
    let game = read_game(text).unwrap();
    assert_eq!(game.annotations[0].comment, "good");
    assert_eq!(game.annotations[0].variation.len(), 2, "e4's first variation is kept");
    assert_eq!(game.annotations[1].variation.len(), 1, "e5's variation is kept up to the move that cannot be read");
    // The comment inside d4's line, the variation inside it, the second variation (c4), and c5's line cut short.
    assert_eq!(game.unkept, 4);
    assert_eq!(read_game("$1 1. e4 e5 *").unwrap().unkept, 1, "a NAG before the first move");
    assert_eq!(read_game("1. e4 {fine} (1. d4) e5 $2 *").unwrap().unkept, 0);
    assert_eq!(read_game(&game.to_pgn()).unwrap().unkept, 0, "what was kept is written back whole");
}
