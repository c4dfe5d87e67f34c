//! Generates positions labelled by game results for the Texel tuner, from engine self-play.
//!
//! `cargo run --release -p homeostat-engine --example selfplay -- GAMES NODES SEED THREADS > positions.txt`
//!
//! Games are played by `homeostat_engine::datagen::play_game` (random 8-ply openings, dropped
//! beyond ±150 cp; adjudication; see that module) at NODES nodes a move (fixed nodes, so a run
//! is reproducible from its seed). From the 16th ply on, positions that are quiet (not in check,
//! the engine's move is no capture or promotion, no mate score) are kept with probability 1/2.
//! Output: one `FEN | result` line per position, the result from White's side (1, 0.5, 0), each
//! game's lines as it ends (the set of lines depends only on the arguments; their order on
//! thread timing).

use homeostat_chess::GameResult;
use homeostat_engine::datagen::{self, format::MAX_CP};
use homeostat_engine::{Limits, Rng};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const FIRST_KEPT_PLY: usize = 16;

fn main() {
    let args: Result<Vec<u64>, _> = std::env::args().skip(1).map(|a| a.parse::<u64>()).collect();
    let Ok(&[games, nodes, seed, threads]) = args.as_deref() else {
        eprintln!("usage: selfplay GAMES NODES SEED THREADS > positions.txt");
        std::process::exit(2);
    };
    let next = AtomicUsize::new(0);
    let finished = Mutex::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games as usize {
                    break;
                }
                let lines = play(seed, i as u32, nodes);
                let mut finished = finished.lock().unwrap();
                let mut out = std::io::stdout().lock();
                for line in &lines {
                    writeln!(out, "{line}").expect("stdout");
                }
                *finished += 1;
                if *finished % 100 == 0 {
                    eprintln!("{finished} games");
                }
            });
        }
    });
}

/// Plays game `index`; returns its labelled positions (none when the opening was dropped).
fn play(seed: u64, index: u32, nodes: u64) -> Vec<String> {
    let record = datagen::play_game(seed, index, &Limits::nodes(nodes), None);
    let mut rng = Rng::new(datagen::game_seed(seed, index) ^ 0x5E1F);
    let label = match record.result {
        GameResult::WhiteWins => "1",
        GameResult::BlackWins => "0",
        GameResult::Draw => "0.5",
    };
    let mut kept = Vec::new();
    let mut ply = datagen::RANDOM_PLIES;
    datagen::for_each_position(&record, |p| {
        let b = &p.board;
        let quiet = !b.in_check() && !b.is_capture(p.mv) && p.mv.promotion().is_none();
        if ply >= FIRST_KEPT_PLY && quiet && p.score.abs() <= MAX_CP && rng.chance(0.5) {
            kept.push(format!("{} | {label}", b.to_fen()));
        }
        ply += 1;
    })
    .expect("a game just played replays");
    kept
}
