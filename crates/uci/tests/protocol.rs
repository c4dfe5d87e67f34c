//! The `homeostat` binary spoken to over stdin/stdout, as a GUI would.

use homeostat_chess::{Board, Move};
use std::io::Write;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Runs the binary with `input` on stdin (then EOF) and returns what it did.
fn run(input: &[u8], args: &[&str]) -> Output {
    start(input, args).wait_with_output().unwrap()
}

/// Starts the binary with `args`, writing `input` (then EOF) to it from a thread, so that a full
/// stdout pipe cannot deadlock the test.
fn start(input: &[u8], args: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_homeostat"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    child
}

/// The lines the engine answers to `lines`; it must exit cleanly.
fn talk(lines: &[&str]) -> Vec<String> {
    let output = run((lines.join("\n") + "\n").as_bytes(), &[]);
    assert!(output.status.success(), "exit status {:?}", output.status);
    String::from_utf8(output.stdout).unwrap().lines().map(String::from).collect()
}

/// The last non-blank line.
fn last_text(lines: &[String]) -> &str {
    lines.iter().rev().find(|l| !l.is_empty()).expect("an answer")
}

fn bestmove(lines: &[String]) -> &str {
    let last = lines.last().expect("an answer");
    last.strip_prefix("bestmove ").expect("bestmove last")
}

#[test]
fn handshake_and_readiness() {
    let lines = talk(&["uci", "isready", "quit"]);
    assert!(lines[0].starts_with("id name Homeostat"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in ["Hash", "Threads", "Move Overhead"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {option} type spin"))));
    }
    assert_eq!(&lines[lines.len() - 2..], ["uciok", "readyok"]);
}

#[test]
fn go_perft_from_startpos() {
    let lines = talk(&["position startpos", "go perft 3"]);
    assert_eq!(lines.len(), 23, "{lines:?}");
    assert!(lines.contains(&"e2e4: 600".to_string()));
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
}

/// Our divide matches cozy-chess, an independent move generator, move by move.
#[test]
fn kiwipete_divide_matches_a_reference() {
    let lines = talk(&[&format!("position fen {KIWIPETE}"), "go perft 3"]);
    let ours: Vec<(String, u64)> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| *m != "Nodes searched")
        .map(|(m, n)| (m.to_string(), n.parse().unwrap()))
        .collect();
    let board: cozy_chess::Board = KIWIPETE.parse().unwrap();
    let mut reference = Vec::new();
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            reference.push((mv.to_string(), cozy_perft(&child, 2)));
        }
        false
    });
    // cozy-chess writes castling as king-takes-rook; UCI wants the king's two-square step.
    for (text, _) in &mut reference {
        *text = match text.as_str() {
            "e1h1" => "e1g1".into(),
            "e1a1" => "e1c1".into(),
            other => other.into(),
        };
    }
    reference.sort();
    let mut sorted = ours.clone();
    sorted.sort();
    assert_eq!(sorted, reference);
    assert!(lines.contains(&"Nodes searched: 97862".to_string()));
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut n = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            n += if depth <= 1 { 1 } else { cozy_perft(&child, depth - 1) };
        }
        false
    });
    n
}

#[test]
fn illegal_move_keeps_the_position() {
    let lines = talk(&["position startpos moves e2e4", "position startpos moves e2e4 e7e5 e1e3", "d", "go perft 1"]);
    assert_eq!(lines[0], "info string error: move 3 'e1e3': the king on e1 cannot move to e3; position unchanged");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(lines.contains(&format!("Fen: {fen}")), "{lines:?}");
    assert_eq!(last_text(&lines), "Nodes searched: 20");
}

#[test]
fn bad_fen_is_explained() {
    let lines = talk(&[
        "position fen 8/8/8/8/8/8/8/K6k x - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "go perft 1",
    ]);
    assert_eq!(
        lines[0],
        "info string error: FEN field 2: side to move must be 'w' or 'b', got 'x'; position unchanged"
    );
    assert!(lines[1].starts_with("info string error: FEN field 1: rank 1 describes 7 squares"), "{lines:?}");
    assert!(lines[2].starts_with("info string error: FEN field 1: no white king"), "{lines:?}");
    assert_eq!(last_text(&lines), "Nodes searched: 20");
}

#[test]
fn garbage_does_not_crash() {
    let mut input = Vec::new();
    for line in [
        "",
        "   ",
        "xyzzy plugh",
        "position",
        "position fen",
        "position fen moves",
        "position startpos moves",
        "position startpos moves e2e4 e7e5 e1e3 zz",
        "position kiwipete",
        "go perft",
        "go perft -1",
        "go perft 99999999999999999999",
        "go depth many",
        "go wtime",
        "go searchmoves zz e9e4",
        "setoption",
        "setoption name",
        "setoption name Hash value -5",
        "setoption name Hash value 99999999999999999999999",
        "debug",
        "d extra",
        "ucinewgame now",
        "\t\t go \t perft \t 1 \r",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\x00\xfe\x80 binary\n");
    input.extend_from_slice(&vec![b'x'; 100_000]);
    input.extend_from_slice(b"\nisready\n");
    let output = run(&input, &[]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("\nNodes searched: 20\n"), "{text}");
    assert!(text.ends_with("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'\nreadyok\n"), "{text}");
    assert!(text.lines().all(|l| l.len() < 300), "an answer line is too long");
}

/// Random sequences of commands, well formed and not, in any order (a `ponderhit` with no ponder
/// search, a `go` during a search, options changed while it runs): every session must end, within
/// a deadline, with a clean exit, a `readyok` for each `isready` and at most one `bestmove` per `go`.
#[test]
fn random_command_sequences_never_hang_or_crash() {
    const COMMANDS: &[&str] = &[
        "uci",
        "isready",
        "ucinewgame",
        "stop",
        "stop",
        "ponderhit",
        "ponderhit",
        "quit now",
        "debug on",
        "d",
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen k7/8/8/8/8/8/8/K7 w - - 0 1",
        "position fen 6k1/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "position",
        "go",
        "go infinite",
        "go ponder",
        "go ponder wtime 300 btime 300",
        "go depth 5",
        "go nodes 20000",
        "go movetime 30",
        "go wtime 400 btime 400 winc 10 binc 10",
        "go mate 2",
        "go depth",
        "go perft 3",
        "go searchmoves e2e4 d2d4 depth 4",
        "setoption name Hash value 2",
        "setoption name MultiPV value 3",
        "setoption name UseNNUE value false",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name OwnBook value true",
        "setoption name Hash value x",
        "setoption name EvalFile value /nonexistent",
        "register later",
    ];
    const TOKENS: &[&str] = &["e2e4", "0000", "-1", "99999999999999999999", "é", "moves", "fen", "depth", "value"];
    for seed in 1..=24u64 {
        let mut rng = homeostat_engine::Rng::new(seed);
        let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
        let (mut input, mut asked, mut gos) = (String::new(), 0, 0);
        for _ in 0..60 {
            let mut line = COMMANDS[pick(COMMANDS.len())].to_string();
            if pick(4) == 0 {
                line = format!("{line} {}", TOKENS[pick(TOKENS.len())]);
            }
            asked += (line == "isready") as usize;
            gos += line.starts_with("go") as usize;
            input.push_str(&line);
            input.push('\n');
        }
        // A last `go mate 2` where there is no such mate would rightly run on after the input ends.
        input.push_str("stop\n");
        let output = run_within(input.as_bytes(), Duration::from_secs(60))
            .unwrap_or_else(|| panic!("seed {seed}: the session did not end\n{input}"));
        assert!(output.status.success(), "seed {seed}: exit status {:?}\n{input}", output.status);
        let text = String::from_utf8_lossy(&output.stdout);
        let count = |word: &str| text.lines().filter(|l| l.starts_with(word)).count();
        assert_eq!(count("readyok"), asked, "seed {seed}\n{input}\n{text}");
        assert!(count("bestmove ") <= gos, "seed {seed}\n{input}\n{text}");
    }
}

/// Runs the binary on `input` as [`run`] does, but gives up (killing it) after `limit`.
fn run_within(input: &[u8], limit: Duration) -> Option<Output> {
    let mut child = start(input, &[]);
    // Drained as it comes, so a full pipe cannot stall the engine and pass for a hang.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Some(Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() })
}

#[test]
fn unknown_option_is_reported() {
    let lines = talk(&[
        "setoption name Hash value 32",
        "setoption name Move Overhead value 100",
        "setoption name Threads value 1",
        "setoption name Frobnicate value 3",
        "isready",
    ]);
    assert_eq!(lines, ["info string error: unknown option 'Frobnicate'", "readyok"]);
}

#[test]
fn go_answers_a_legal_move() {
    let lines = talk(&[
        "ucinewgame",
        "position startpos moves e2e4 c7c5 g1f3",
        "go wtime 60000 btime 60000 winc 1000 binc 1000",
    ]);
    let board = Board::from_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
    let text = bestmove(&lines).split(' ').next().unwrap();
    let m = Move::parse_uci_squares(text).expect("a UCI move");
    assert!(board.is_legal(m), "{text} is illegal");
}

#[test]
fn no_legal_move_gives_null_move() {
    // Fool's mate, then a stalemate.
    let mated = talk(&["position startpos moves f2f3 e7e5 g2g4 d8h4", "go movetime 100"]);
    assert_eq!(bestmove(&mated), "0000");
    let stalemate = talk(&["position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 5"]);
    assert_eq!(bestmove(&stalemate), "0000");
}

#[test]
fn infinite_search_answers_on_stop() {
    let lines = talk(&["go infinite", "isready", "stop"]);
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info ")).collect();
    assert_eq!(answers[0], "readyok");
    assert!(answers[1].starts_with("bestmove "));
}

#[test]
fn search_reports_info_then_bestmove() {
    let lines = talk(&["position startpos moves e2e4 e7e5", "go depth 6"]);
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(infos.len() >= 6, "{lines:?}");
    let last = infos.last().unwrap();
    for field in [" seldepth ", " score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
        assert!(last.contains(field), "{last}");
    }
    assert!(bestmove(&lines).contains(" ponder "), "{lines:?}");
}

/// The `info` lines of depth `depth` that carry a `multipv` line: (index, score in cp, first move).
fn multipv_lines(lines: &[String], depth: u32) -> Vec<(usize, i32, String)> {
    let prefix = format!("info depth {depth} ");
    lines
        .iter()
        .filter(|l| l.starts_with(&prefix) && !l.contains("bound "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
            (after("multipv").parse().unwrap(), after("cp").parse().unwrap(), after("pv").to_string())
        })
        .collect()
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let lines = talk(&["uci", "setoption name MultiPV value 3", "position startpos moves e2e4", "go depth 6"]);
    assert!(lines.iter().any(|l| l == "option name MultiPV type spin default 1 min 1 max 5"), "{lines:?}");
    let last = multipv_lines(&lines, 6);
    let tail = &last[last.len() - 3..];
    assert_eq!(tail.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3], "{lines:?}");
    assert!(tail[0].1 >= tail[1].1 && tail[1].1 >= tail[2].1, "{tail:?}");
    let firsts: std::collections::HashSet<&str> = tail.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(firsts.len(), 3, "{tail:?}");
    assert_eq!(bestmove(&lines).split(' ').next(), Some(tail[0].2.as_str()));
}

#[test]
fn multipv_never_reports_more_lines_than_moves() {
    // In check from a1 with g2 and the first two ranks covered: Kxg2 is the only move.
    let lines = talk(&["setoption name MultiPV value 5", "position fen 7k/8/8/8/8/8/6r1/r5K1 w - - 0 1", "go depth 4"]);
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(infos.iter().all(|l| !l.contains(" multipv 2 ") && !l.contains(" multipv 3 ")), "{lines:?}");
    assert!(bestmove(&lines).starts_with("g1g2"), "{lines:?}");
}

#[test]
fn multipv_out_of_range_is_refused() {
    let lines = talk(&["setoption name MultiPV value 9", "isready"]);
    assert!(lines.iter().any(|l| l.contains("MultiPV") && l.contains("1 to 5")), "{lines:?}");
}

#[test]
fn mate_is_announced() {
    let lines = talk(&["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 4"]);
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");
    assert_eq!(bestmove(&lines), "a1a8");
}

#[test]
fn weak_levels_still_play_legal_moves() {
    let lines = talk(&[
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1000",
        "position startpos",
        "go movetime 200",
    ]);
    let m = Move::parse_uci_squares(bestmove(&lines).split(' ').next().unwrap()).unwrap();
    assert!(Board::startpos().is_legal(m));
}

#[test]
fn own_book_plays_the_books_moves_only_when_asked() {
    let declared = talk(&["uci"]);
    assert!(declared.contains(&"option name OwnBook type check default false".to_string()), "{declared:?}");

    // On: every `go` from the start position answers at once with one of the book's moves, varied.
    let mut lines = vec!["setoption name OwnBook value true", "position startpos"];
    lines.extend(std::iter::repeat_n("go movetime 60000", 20));
    let answers = talk(&lines);
    let book: Vec<String> =
        homeostat_engine::book::book_moves(&Board::startpos()).iter().map(|(m, _)| m.to_string()).collect();
    let played: Vec<&str> = answers.iter().filter_map(|l| l.strip_prefix("bestmove ")).collect();
    assert_eq!(played.len(), 20, "{answers:?}");
    assert!(played.iter().all(|m| book.iter().any(|b| b == m)), "{played:?} not all in {book:?}");
    assert!(played.iter().collect::<std::collections::HashSet<_>>().len() >= 2, "{played:?}");
    assert_eq!(answers.iter().filter(|l| l.starts_with("info string book move ")).count(), 20);
    assert!(!answers.iter().any(|l| l.starts_with("info depth ")), "{answers:?}");

    // Out of the book it searches; so does an analysis (infinite) search, and the default is off.
    for lines in [
        &["setoption name OwnBook value true", "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 4"][..],
        &["setoption name OwnBook value true", "position startpos", "go infinite", "stop"][..],
        &["position startpos", "go depth 3"][..],
    ] {
        let answers = talk(lines);
        assert!(answers.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}: {answers:?}");
        assert!(!answers.iter().any(|l| l.contains("book move")), "{lines:?}: {answers:?}");
        // (A stopped infinite search may end before its first depth.)
        let searched = answers.iter().any(|l| l.starts_with("info depth "));
        assert!(searched || lines.contains(&"go infinite"), "{lines:?}: {answers:?}");
    }
    let refused = talk(&["setoption name OwnBook value yes", "isready"]);
    assert!(refused[0].starts_with("info string error: option 'OwnBook' takes true or false"), "{refused:?}");
}

#[test]
fn eof_without_quit_exits_cleanly() {
    let output = run(b"isready", &[]);
    assert!(output.status.success());
    assert_eq!(output.stdout, b"readyok\n");
}

#[test]
fn perft_from_the_command_line() {
    let output = run(b"", &["perft", "2"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("e2e4: 20\n"));
    assert!(text.contains("Nodes: 400\n"));
    assert!(text.contains(" Mnps"));

    let mut args = vec!["perft", "1"];
    args.extend(KIWIPETE.split(' '));
    let text = String::from_utf8(run(b"", &args).stdout).unwrap();
    assert!(text.contains("Nodes: 48\n"), "{text}");

    let output = run(b"", &["perft", "1", KIWIPETE]);
    assert!(String::from_utf8(output.stdout).unwrap().contains("Nodes: 48\n"));

    for bad in [&["perft"][..], &["perft", "x"], &["perft", "1", "not a fen"], &["frobnicate"]] {
        let output = run(b"", bad);
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
        assert!(!output.stderr.is_empty());
    }
}

#[test]
fn bench_prints_a_node_count() {
    let output = run(b"", &["bench", "3"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .expect("a node count");
    assert!(nodes > 1000, "{text}");
    assert!(text.contains("Nodes/second: "), "{text}");
    for bad in [&["bench", "x"][..], &["bench", "3", "fast"], &["bench", "3", "nnue", "extra"]] {
        let output = run(b"", bad);
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&output.stderr).starts_with("bench: "), "{bad:?}");
    }
}

/// The score of the last complete `info depth 1` line.
fn depth_one_cp(lines: &[String]) -> i32 {
    let line = lines.iter().rev().find(|l| l.starts_with("info depth 1 ") && !l.contains("bound ")).expect("depth 1");
    let words: Vec<&str> = line.split_whitespace().collect();
    words[words.iter().position(|w| *w == "cp").expect("a cp score") + 1].parse().unwrap()
}

#[test]
fn eval_file_loads_a_net_and_refuses_a_broken_one() {
    use homeostat_engine::nnue::{Network, QA, SCALE};
    let declared = talk(&["uci"]);
    assert!(declared.contains(&"option name EvalFile type string default <empty>".to_string()), "{declared:?}");
    assert!(declared.contains(&"option name UseNNUE type check default true".to_string()), "{declared:?}");

    // The built-in net with its output bias (each bucket's) raised by 200 cp for the side to move.
    let net = Network::embedded().expect("the built-in net");
    let (w1, b1, w2, b2) = net.parts();
    let raise = 200 * QA * net.qb() / SCALE;
    let biased = b2.iter().map(|b| b + raise).collect();
    let mut bytes = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), w2.to_vec(), biased, net.qb())
        .expect("the biased net")
        .to_bytes();
    let dir = std::env::temp_dir().join(format!("homeostat-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("biased.nnue");
    std::fs::write(&good, &bytes).unwrap();
    let broken = dir.join("broken.nnue");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&broken, &bytes).unwrap();
    let (good, broken) = (good.to_str().unwrap().to_string(), broken.to_str().unwrap().to_string());

    let search = ["setoption name UseNNUE value true", "position startpos moves e2e4", "go depth 1"];
    let built_in = talk(&search);
    let set_good = format!("setoption name EvalFile value {good}");
    let set_broken = format!("setoption name evalfile value {broken}");
    let missing = format!("setoption name EvalFile value {}", dir.join("missing.nnue").display());
    let mut lines = vec![set_good.as_str(), missing.as_str(), set_broken.as_str()];
    lines.extend(search);
    let loaded = talk(&lines);
    std::fs::remove_dir_all(&dir).unwrap();

    let shape = match net.buckets() {
        1 => format!("768->{}x2->1", net.hidden()),
        b => format!("768->{}x2->1, {b} output buckets", net.hidden()),
    };
    assert_eq!(loaded[0], format!("info string EvalFile: loaded {good} ({shape})"), "{loaded:?}");
    assert!(loaded[1].starts_with("info string error: EvalFile '") && loaded[1].contains("missing.nnue"), "{loaded:?}");
    assert!(loaded[2].contains("checksum") && loaded[2].ends_with("the net in use is unchanged"), "{loaded:?}");
    // The biased net is the one searching: every leaf favours its side to move by 200 cp, so
    // the root (whose replies are the leaves) scores about 200 cp lower.
    let shift = depth_one_cp(&built_in) - depth_one_cp(&loaded);
    assert!((150..=250).contains(&shift), "{shift}: {built_in:?} {loaded:?}");
    assert!(bestmove(&loaded).len() >= 4);

    // Empty names the built-in net again.
    let back = talk(&[set_good.as_str(), "setoption name EvalFile value <empty>", search[0], search[1], search[2]]);
    assert_eq!(back[1], "info string EvalFile: the built-in net");
    assert_eq!(depth_one_cp(&back), depth_one_cp(&built_in));
}

#[test]
fn eval_file_loads_a_net_with_output_buckets() {
    use homeostat_engine::nnue::{Network, QB};
    // One output layer of the built-in net (at the current output scale), alone and copied into eight buckets.
    let net = Network::embedded().expect("the built-in net");
    let (w1, b1, _, _) = net.parts();
    let (k, (w2, b2)) = (QB / net.qb(), net.output_layer(net.buckets() / 2));
    let layer: Vec<i16> = w2.iter().map(|&w| w * k as i16).collect();
    let bias = b2 * k;
    let one = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), layer.clone(), vec![bias], QB)
        .expect("a net with one output layer");
    let eight = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), layer.repeat(8), vec![bias; 8], QB)
        .expect("a net with eight output buckets");
    let search = ["setoption name UseNNUE value true", "position startpos moves e2e4", "go depth 1"];
    let hidden = net.hidden();
    let mut scores = Vec::new();
    for (name, net, shape) in [("one", one, String::new()), ("eight", eight, ", 8 output buckets".to_string())] {
        let path = std::env::temp_dir().join(format!("homeostat-buckets-{name}-{}.nnue", std::process::id()));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let set = format!("setoption name EvalFile value {}", path.display());
        let loaded = talk(&[set.as_str(), search[0], search[1], search[2]]);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(loaded[0], format!("info string EvalFile: loaded {} (768->{hidden}x2->1{shape})", path.display()));
        scores.push(depth_one_cp(&loaded));
    }
    // The same output layer in every bucket: the same scores but for the last division's rounding.
    assert!((scores[0] - scores[1]).abs() <= 1, "{scores:?}");
}

#[test]
fn eval_file_loads_a_net_mirrored_by_the_king() {
    use homeostat_engine::nnue::Network;
    let net = Network::embedded().expect("the built-in net").as_ref().clone().with_king_mirror(true);
    let path = std::env::temp_dir().join(format!("homeostat-mirrored-{}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    let set = format!("setoption name EvalFile value {}", path.display());
    // White castled queenside: its perspective sees the board reflected.
    let loaded = talk(&[
        set.as_str(),
        "setoption name UseNNUE value true",
        "position fen r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP4/PPPBQPPP/2KR2NR w - - 0 8",
        "go depth 6",
    ]);
    std::fs::remove_file(&path).unwrap();
    let shape = format!("768->{}x2->1, {} output buckets, mirrored by the king", net.hidden(), net.buckets());
    assert_eq!(loaded[0], format!("info string EvalFile: loaded {} ({shape})", path.display()), "{loaded:?}");
    assert!(bestmove(&loaded).len() >= 4, "{loaded:?}");
}
