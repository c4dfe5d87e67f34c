//! The bench: a fixed-depth search over fixed positions whose node count is a checksum of the
//! search. Any change to it must come with a reason.

use crate::engine::{Clock, Engine};
use crate::limits::Limits;
use crate::nnue::Network;
use crate::report::Silent;
use homeostat_chess::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Openings, middlegames and endgames, tactical and quiet.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqkb1r/ppp1pppp/5n2/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 1 3",
    "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "r2q1rk1/pp1bbppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 4 9",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 9 13",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPP1Q1PP/2KR3R w - - 0 13",
    "2r3k1/pp2rppp/2n2n2/q1bp4/3N4/2P1BQ2/PP3PPP/R3R1K1 w - - 0 19",
    "r1bqr1k1/ppp2pbp/2np1np1/4p3/2PPP3/2N2NP1/PP3PBP/R1BQR1K1 b - - 2 9",
    "3r1rk1/p4ppp/1qp1b3/2p1P3/3nN3/3B4/PPQ2PPP/R4RK1 w - - 0 18",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
    "2kr3r/pp1q1ppp/2n1pn2/2bp4/8/2PBPN2/PP1N1PPP/R2Q1RK1 w - - 4 12",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
    "1r2r1k1/p4ppp/2p1bn2/q2p4/3P4/1QN1P3/PP3PPP/2R2RK1 w - - 2 18",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/1p1k4/1P1p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/8/4k3/8/8/3RK3/8 w - - 0 1",
    "8/2k5/8/8/8/8/4QK2/8 w - - 0 1",
    "6k1/6p1/8/6KQ/1r6/q2b4/8/8 w - - 0 70",
    "3r2k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1",
    "8/1p3k2/p1p2p2/2P2P2/1P2K3/8/8/8 w - - 0 40",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 1 18",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
];

/// What [`bench()`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Total nodes over all positions (the checksum).
    pub nodes: u64,
    /// Milliseconds the searches took (clearing the table between positions not counted).
    pub elapsed_ms: f64,
    /// Nodes per second.
    pub nps: u64,
}

/// Searches every bench position to `depth` with a fresh table each time (default evaluation).
pub fn bench(depth: u32, clock: Clock<'_>) -> BenchReport {
    let mut engine = Engine::new(16);
    run(&mut engine, depth, clock)
}

/// The bench with the neural network (`true`) or the hand-crafted evaluation.
pub fn bench_with(depth: u32, clock: Clock<'_>, nnue: bool) -> BenchReport {
    let mut engine = Engine::new(16);
    engine.set_use_nnue(nnue);
    run(&mut engine, depth, clock)
}

/// The bench with network `net` (the browser's, which has no embedded net).
pub fn bench_net(depth: u32, clock: Clock<'_>, net: Arc<Network>) -> BenchReport {
    let mut engine = Engine::new(16);
    engine.set_network(Some(net));
    engine.set_use_nnue(true);
    run(&mut engine, depth, clock)
}

fn run(engine: &mut Engine, depth: u32, clock: Clock<'_>) -> BenchReport {
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let mut elapsed_ms = 0.0;
    for fen in POSITIONS {
        let Ok(board) = Board::from_fen(fen) else { continue };
        // A fresh table and histories for each position keep the count independent of the order; clearing them
        // (16 MB) is setup, not search, so only the searches are timed.
        engine.new_game();
        let start = clock();
        nodes += engine.search(&board, &[], &Limits::depth(depth), clock, &stop, &mut Silent).nodes;
        elapsed_ms += (clock() - start).max(0.0);
    }
    BenchReport { nodes, elapsed_ms, nps: (nodes as f64 * 1000.0 / elapsed_ms.max(1.0)) as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_varied() {
        assert!(POSITIONS.len() >= 30);
        for fen in POSITIONS {
            let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            assert!(board.has_legal_moves(), "{fen}");
        }
    }

    /// The native half of a pair: `tests/node/net.test.js` asserts the same count for the wasm build with
    /// the net file, so the two evaluate alike (the wasm output layer has its own `simd128` code). A search
    /// or evaluation change moves both numbers.
    #[cfg(feature = "embedded-net")]
    #[test]
    fn the_bench_with_the_net_searches_the_tree_the_browser_build_does() {
        assert_eq!(bench_with(6, &|| 0.0, true).nodes, 92_309);
    }

    #[test]
    fn node_count_is_reproducible() {
        let a = bench(3, &|| 0.0);
        let b = bench(3, &|| 0.0);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }
}
