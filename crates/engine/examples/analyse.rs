//! Analyses one FEN and prints the events: `cargo run --release -p homeostat-engine --example analyse -- "<fen>" [depth]`.

use homeostat_chess::Board;
use homeostat_engine::{considering_line, Engine, Event, Limits};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let fen = std::env::args().nth(1).unwrap_or_else(|| homeostat_chess::STARTPOS.to_string());
    let depth = std::env::args().nth(2).and_then(|d| d.parse().ok()).unwrap_or(12);
    let Ok(board) = Board::from_fen(&fen) else {
        eprintln!("bad FEN");
        return;
    };
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1000.0;
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(64);
    let mut print = |e: &Event| match e {
        Event::RootMove(info) => println!("  {}", considering_line(info)),
        Event::Iteration(i) => println!(
            "depth {} sel {} {:?} {} nodes {} ms {} nps {}: {}",
            i.depth,
            i.seldepth,
            i.bound,
            i.score,
            i.nodes,
            i.elapsed_ms,
            i.nps,
            i.pv_san.join(" ")
        ),
        Event::Finished(f) => println!("finished {:?}", f),
    };
    let r = engine.search(&board, &[], &Limits::depth(depth), &clock, &stop, &mut print);
    println!("best {:?} score {} depth {} nodes {}", r.best, r.score, r.depth, r.nodes);
}
