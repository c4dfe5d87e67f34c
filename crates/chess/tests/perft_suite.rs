//! The standard perft suite (`tests/data/perftsuite.epd`): every position, every listed depth.

use homeostat_chess::{perft, perft_full, Board};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Case> {
    let text = include_str!("../../../tests/data/perftsuite.epd");
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d.trim_start_matches('D').parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn check(max_nodes: u64) {
    let cases = suite();
    assert_eq!(cases.len(), 127, "the suite file has 127 positions");
    for case in &cases {
        let board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected <= max_nodes {
                assert_eq!(perft(&board, depth), expected, "{} depth {depth}", case.fen);
            }
        }
    }
}

/// Every depth with at most two million leaves (seconds in release).
#[test]
fn perft_suite_fast_depths() {
    check(2_000_000);
}

/// The full suite, every depth: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn perft_suite_full_depths() {
    check(u64::MAX);
}

/// Playing every leaf move gives the same counts as bulk counting.
#[test]
fn full_perft_agrees_with_bulk() {
    for case in suite().iter().step_by(5) {
        let board = Board::from_fen(&case.fen).unwrap();
        let (depth, expected) = case.counts[2];
        assert_eq!(perft_full(&board, depth), expected, "{}", case.fen);
    }
}
