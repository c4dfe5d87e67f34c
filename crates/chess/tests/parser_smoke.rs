//! Property-style smoke tests: the FEN, SAN/move and PGN readers never panic on random text or
//! on random mutations of valid input, and what they accept is consistent (round trips, legal
//! moves). Random text alone is covered in san.rs and pgn.rs; here the inputs are near misses.

mod common;

use common::Rng;
use homeostat_chess::{perft, pgn, Board, Game, STARTPOS};

/// Characters that matter to the readers, plus a few that do not belong anywhere.
const ALPHABET: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'w', 'x', '1', '2',
    '3', '4', '5', '6', '7', '8', '9', '0', '/', ' ', '-', '=', '+', '#', '!', '?', 'O', 'o', '.', '[', ']', '"', '{',
    '}', '(', ')', ';', '$', '*', '\n', '\t', '\\', 'é', '€', '\u{0}', '\u{feff}',
];

/// `text` with one to four random edits: delete, insert, replace, duplicate or swap chars,
/// or cut it short.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let len = chars.len();
        let at = rng.below(len + 1);
        match rng.below(7) {
            0 if at < len => {
                chars.remove(at);
            }
            1 => chars.insert(at, *rng.pick(ALPHABET)),
            2 if at < len => chars[at] = *rng.pick(ALPHABET),
            3 if at < len => {
                let end = (at + 1 + rng.below(8)).min(len);
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, copy);
            }
            4 if len > 1 => {
                let other = rng.below(len);
                chars.swap(at.min(len - 1), other);
            }
            5 => chars.truncate(at),
            _ => {
                let end = (at + rng.below(6)).min(len);
                chars.drain(at..end);
            }
        }
    }
    chars.into_iter().collect()
}

fn random_text(rng: &mut Rng, max_len: usize) -> String {
    (0..rng.below(max_len + 1)).map(|_| *rng.pick(ALPHABET)).collect()
}

fn suite_fens() -> Vec<&'static str> {
    include_str!("../../../tests/data/perftsuite.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim())
        .collect()
}

/// Positions along short random games from every suite position.
fn sample_positions(rng: &mut Rng) -> Vec<Board> {
    let mut out = Vec::new();
    for fen in std::iter::once(STARTPOS).chain(suite_fens()) {
        let mut board = Board::from_fen(fen).unwrap();
        for _ in 0..12 {
            out.push(board);
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// What an accepted FEN must give: a board that writes and re-reads to itself, whose moves
/// are all playable and lead to boards that write and re-read too.
fn check_accepted_fen(text: &str, board: &Board) {
    let fen = board.to_fen();
    let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} -> {fen}: own FEN refused: {e}"));
    assert_eq!(again, *board, "{text:?}");
    assert_eq!(again.hash(), board.hash(), "{text:?}");
    let moves = board.legal_moves();
    assert_eq!(moves.len() as u64, perft(board, 1), "{fen}");
    for &m in moves.iter() {
        let mut child = *board;
        child.play(m);
        let child_fen = child.to_fen();
        let reread = Board::from_fen(&child_fen).unwrap_or_else(|e| panic!("{fen} {m} -> {child_fen}: {e}"));
        assert_eq!(reread.hash(), child.hash(), "{fen} {m}");
    }
}

#[test]
fn fen_reader_survives_random_text_and_mutations() {
    let mut rng = Rng::new(0xfe4_0001);
    let mut accepted = 0;
    for _ in 0..3000 {
        let text = random_text(&mut rng, 90);
        if let Ok(board) = Board::from_fen(&text) {
            check_accepted_fen(&text, &board);
        }
    }
    let sources: Vec<String> = sample_positions(&mut rng).iter().map(Board::to_fen).collect();
    for _ in 0..6000 {
        let source = rng.pick(&sources).clone();
        let text = mutate(&source, &mut rng);
        if let Ok(board) = Board::from_fen(&text) {
            check_accepted_fen(&text, &board);
            accepted += 1;
        }
    }
    // Some mutations are harmless (a clock digit, a swapped empty square): they must be read.
    assert!(accepted > 100, "{accepted} mutated FENs accepted");
}

#[test]
fn move_readers_survive_mutated_san_and_uci() {
    let mut rng = Rng::new(0x5a4_0002);
    let positions = sample_positions(&mut rng);
    let mut accepted = 0;
    for _ in 0..6000 {
        let board = rng.pick(&positions);
        let moves = board.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let m = moves[rng.below(moves.len())];
        let source = if rng.below(3) == 0 { m.to_string() } else { board.san(m) };
        let text = mutate(&source, &mut rng);
        if let Ok(read) = board.parse_san(&text) {
            assert!(board.is_legal(read), "{board}: parse_san({text:?}) = {read}");
            assert_eq!(board.parse_san(&board.san(read)), Ok(read), "{board}: {text:?}");
            accepted += 1;
        }
        if let Ok(read) = board.parse_move(&text) {
            assert!(board.is_legal(read), "{board}: parse_move({text:?}) = {read}");
        }
        if let Ok(read) = board.parse_uci(&text) {
            assert!(board.is_legal(read), "{board}: parse_uci({text:?}) = {read}");
        }
    }
    assert!(accepted > 100, "{accepted} mutated moves accepted");
}

/// A PGN text of a few random games, some from set-up positions.
fn random_pgn(rng: &mut Rng, fens: &[&str]) -> String {
    let mut text = String::new();
    for g in 0..1 + rng.below(3) {
        let start = if rng.below(2) == 0 { STARTPOS } else { *rng.pick(fens) };
        let mut game = Game::new(Board::from_fen(start).unwrap());
        for _ in 0..rng.below(40) {
            let moves = game.board().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        let round = (g + 1).to_string();
        text.push_str(&game.to_pgn(&[("Event", "Smoke"), ("Round", &round), ("Annotator", "x{y}\\\"z")]));
        text.push('\n');
    }
    text
}

#[test]
fn pgn_reader_survives_mutated_games() {
    let mut rng = Rng::new(0x9a4_0003);
    let fens = suite_fens();
    let mut games_read = 0;
    for _ in 0..1500 {
        let source = random_pgn(&mut rng, &fens);
        // Several edits, so that tags, comments and move numbers break too.
        let mut text = source;
        for _ in 0..1 + rng.below(3) {
            text = mutate(&text, &mut rng);
        }
        for game in pgn::games(&text) {
            let Ok(game) = game else { continue };
            let mut board = game.start;
            for &m in &game.moves {
                assert!(board.is_legal(m), "{board}: {m} in\n{text}");
                board.play(m);
            }
            let again = pgn::read_game(&game.to_pgn()).unwrap_or_else(|e| panic!("own PGN refused: {e}\n{text}"));
            assert_eq!((again.start, &again.moves, again.result), (game.start, &game.moves, game.result));
            games_read += 1;
        }
    }
    assert!(games_read > 500, "{games_read} mutated games read");
}
