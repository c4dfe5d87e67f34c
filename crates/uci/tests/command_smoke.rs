//! Property-style smoke test: the UCI command parser never panics on random lines or on random
//! mutations of valid commands, and `position` commands it accepts set up boards consistently.

use homeostat_uci::command::{parse_command, Command};
use homeostat_uci::position::Position;

/// xorshift64*, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Words of the protocol and values that sit at the edges of what is accepted.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "debug",
    "on",
    "off",
    "setoption",
    "name",
    "value",
    "register",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "e2e4",
    "e7e5",
    "e1g1",
    "e7e8q",
    "a7a8n",
    "0000",
    "Nf3",
    "0",
    "1",
    "-1",
    "32",
    "33",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "-9223372036854775808",
    "9223372036854775807",
    "99999999999999999999",
    "x",
    "",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "e3",
    "8/8/8/8/8/8/8/K6k",
    "é",
    "\u{0}",
    "\t",
    "\r",
];

const VALID: &[&str] = &[
    "uci",
    "isready",
    "debug on",
    "setoption name Hash value 64",
    "setoption name Clear Hash",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5",
    "position fen r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1 moves e5d6 e8c8 b7c8q",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "go wtime 300000 btime 300000 winc 2000 binc 2000 movestogo 40",
    "go depth 12 nodes 100000 searchmoves e2e4 d2d4",
    "go movetime 1000",
    "go infinite",
    "go ponder mate 3",
    "go perft 4",
    "stop",
    "ponderhit",
    "ucinewgame",
    "quit",
];

/// `line` with one to four random edits: whole words added, dropped or swapped, or single
/// characters changed.
fn mutate(line: &str, rng: &mut Rng) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(words.len() + 1);
        match rng.below(5) {
            0 => words.insert(at, WORDS[rng.below(WORDS.len())].to_string()),
            1 if at < words.len() => {
                words.remove(at);
            }
            2 if at < words.len() => words[at] = WORDS[rng.below(WORDS.len())].to_string(),
            3 if words.len() > 1 => {
                let (last, other) = (words.len() - 1, rng.below(words.len()));
                words.swap(at.min(last), other);
            }
            _ if at < words.len() => {
                let mut chars: Vec<char> = words[at].chars().collect();
                let i = rng.below(chars.len() + 1);
                let c = char::from(b' ' + rng.below(95) as u8);
                if i < chars.len() && rng.below(2) == 0 {
                    chars[i] = c;
                } else {
                    chars.insert(i, c);
                }
                words[at] = chars.into_iter().collect();
            }
            _ => {}
        }
    }
    words.join(" ")
}

/// Parses `line`; a `position` command it accepts must set up a board without panicking, and
/// one that succeeds must replay its moves legally.
fn exercise(line: &str) -> bool {
    let parsed = parse_command(line);
    if let Ok(Command::Position { fen, moves }) = &parsed {
        if let Ok(position) = Position::from_command(fen.as_deref(), moves) {
            assert_eq!(position.moves().len(), moves.len(), "{line:?}");
            let mut board = *position.start();
            for &m in position.moves() {
                assert!(board.is_legal(m), "{line:?}: {m}");
                board.play(m);
            }
            assert_eq!(board, *position.board(), "{line:?}");
        }
    }
    parsed.is_ok()
}

#[test]
fn valid_commands_parse() {
    for line in VALID {
        assert!(parse_command(line).is_ok(), "{line:?}");
    }
}

#[test]
fn random_word_lines_never_panic() {
    let mut rng = Rng(0x0c1_0001);
    for _ in 0..5000 {
        let line: Vec<&str> = (0..rng.below(12)).map(|_| WORDS[rng.below(WORDS.len())]).collect();
        exercise(&line.join(if rng.below(4) == 0 { "  " } else { " " }));
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x0c1_0002);
    for _ in 0..5000 {
        let bytes: Vec<u8> = (0..rng.below(60)).map(|_| rng.next() as u8).collect();
        exercise(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn mutated_valid_commands_never_panic() {
    let mut rng = Rng(0x0c1_0003);
    let mut accepted = 0;
    for _ in 0..8000 {
        let line = mutate(VALID[rng.below(VALID.len())], &mut rng);
        accepted += exercise(&line) as usize;
    }
    assert!(accepted > 500, "{accepted} mutated commands accepted");
}
