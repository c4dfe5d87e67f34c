//! The `homeostat-checkers` binary driven as a process: perft output and the play protocol.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_homeostat-checkers"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn play(script: &str) -> Vec<String> {
    let out = run(&["play"], script);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn perft_divides_and_totals() {
    let out = run(&["perft", "4"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let divide: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(divide.len(), 7, "{text}");
    let sum: u64 = divide.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 1469);
    assert!(text.contains("\ntotal: 1469\n"), "{text}");
    assert!(text.contains("positions/s"), "{text}");
    let out = run(&["perft", "2", "W:WK1,K2:BK31,K32"], "");
    assert!(String::from_utf8(out.stdout).unwrap().contains("total: "));
}

#[test]
fn bad_arguments_are_refused_with_the_reason() {
    for (args, expected) in [
        (vec!["perft"], "needs a DEPTH"),
        (vec!["perft", "x"], "DEPTH must be a number"),
        (vec!["perft", "3", "B:W21:B33"], "square 33"),
        (vec!["dance"], "unknown command 'dance'"),
        (vec!["bench", "0"], "DEPTH must be 1-30"),
        (vec!["bench", "3", "fast"], "at most a DEPTH, not 'fast'"),
        (vec!["match", "--depth", "0"], "--depth needs a positive number"),
        (vec!["match", "--games"], "--games needs a value"),
        (vec!["match", "--base", "random"], "'applet' or 'homeostat'"),
    ] {
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn play_answers_moves_and_keeps_the_game_on_bad_input() {
    let lines = play("depth 3\n11-15\nfen\n11-14\n9-1x\nhello\nfen\n1\u{fffd}-5\n");
    assert_eq!(lines[0], "ok depth 3");
    assert!(lines[1].starts_with("move "), "{lines:?}");
    let reply = lines[1].trim_start_matches("move ");
    let fen = lines[2].trim_start_matches("fen ").to_string();
    assert!(fen.starts_with("B:"), "Black to move again after the engine's reply: {fen}");
    assert!(!reply.is_empty());
    assert_eq!(lines[3], "error 11-14: there is no piece on 11");
    assert!(lines[4].starts_with("error "), "{lines:?}");
    assert!(lines[5].starts_with("error unknown command 'hello'"), "{lines:?}");
    assert_eq!(lines[6], format!("fen {fen}"), "bad input changed nothing");
    assert!(lines[7].starts_with("error "), "{lines:?}");
}

#[test]
fn play_enforces_captures_and_reports_results() {
    let lines = play("auto off\nB:W18:B14\n14-17\n14x23\nundo\n14x23\ngo\n");
    assert_eq!(
        lines,
        [
            "ok auto off",
            "ok B:W18:B14",
            "error 14-17 is not allowed: a capture is compulsory (14x23)",
            "result black wins (white has no move)",
            "ok B:W18:B14",
            "result black wins (white has no move)",
            "error the game is over: black wins (white has no move)",
        ]
    );
}

#[test]
fn play_a_whole_game_engine_against_itself() {
    // 'go' repeatedly until the game ends: every answer is a legal move and the game ends
    // with a result line (a win, or a draw by repetition or the 40-move rule).
    let mut script = String::from("level 2\nseed 5\n");
    for _ in 0..400 {
        script.push_str("go\n");
    }
    let lines = play(&script);
    let result = lines.iter().position(|l| l.starts_with("result ")).expect("the game ends");
    assert!(lines[2..result].iter().all(|l| l.starts_with("move ")), "{lines:?}");
    assert!(lines[result + 1..].iter().all(|l| l.starts_with("error the game is over")));
}

#[test]
fn play_levels_limits_and_listing() {
    let lines = play("level 9\nlevel 1\ndepth -1\nnodes 500\nmoves\nW:W21:B1\nmoves\npdn\nredo\n");
    assert_eq!(lines[0], "error level must be 1-8, not '9'");
    assert_eq!(lines[1], "ok level 1");
    assert!(lines[2].starts_with("error depth takes a positive number"));
    assert_eq!(lines[3], "ok nodes 500");
    assert_eq!(lines[4], "moves 9-13 9-14 10-14 10-15 11-15 11-16 12-16");
    assert_eq!(lines[5], "ok W:W21:B1");
    assert_eq!(lines[6], "moves 21-17");
    assert_eq!(lines[7], "pdn");
    assert_eq!(lines[8], "error nothing to redo");
}

#[test]
fn play_thinking_lines() {
    let lines = play("thinking on\ndepth 5\ngo\n");
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 score ")), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("move "));
}

#[test]
fn bench_is_deterministic() {
    let nodes = || {
        let out = run(&["bench", "5"], "");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 7, "{text}");
        text.lines().last().unwrap().split(' ').next().unwrap().parse::<u64>().unwrap()
    };
    assert_eq!(nodes(), nodes());
}
