//! Generates positions labelled by game results for the Texel tuner, from engine self-play.
//!
//! `cargo run --release -p homeostat-engine --example selfplay -- GAMES NODES SEED THREADS > positions.txt`
//!
//! Each game starts with 8 random legal plies, is dropped when a 2,000-node search then scores
//! it beyond ±150 cp, and is played out by the engine at NODES nodes a move (fixed nodes, so a
//! run is reproducible from its seed). A game ends by the rules, by adjudication (both sides
//! scoring beyond ±1,000 cp for 8 plies in a row) or as a draw after 400 plies. From the 16th ply
//! on, positions that are quiet (not in check, the engine's move is no capture or promotion, no
//! mate score) are kept with probability 1/2. Output: one `FEN | result` line per position, the
//! result from White's side (1, 0.5, 0), each game's lines as it ends (the set of lines depends
//! only on the arguments; their order on thread timing).

use homeostat_chess::{Board, Game, GameResult};
use homeostat_engine::{Engine, Limits, Rng, Score, Silent};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

const RANDOM_PLIES: usize = 8;
const FIRST_KEPT_PLY: usize = 16;
const MAX_PLIES: usize = 400;
const ADJUDICATE_CP: i32 = 1000;
const ADJUDICATE_PLIES: usize = 8;
const OPENING_CP: i32 = 150;

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
                let lines = play(seed.wrapping_mul(1_000_003).wrapping_add(i as u64), nodes);
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

/// Plays one game from seed `seed`; returns its labelled positions (none when the opening was dropped).
fn play(seed: u64, nodes: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut game = Game::default();
    for _ in 0..RANDOM_PLIES {
        let moves = game.board().legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(m).expect("legal move");
    }
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let clock = || 0.0;
    let history = |game: &Game| game.hashes().collect::<Vec<u64>>();
    let check = engine.search(game.board(), &history(&game), &Limits::nodes(2_000), &clock, &stop, &mut Silent);
    if check.score.as_cp().abs() > OPENING_CP {
        return Vec::new();
    }

    let mut kept: Vec<String> = Vec::new();
    let mut lopsided = 0;
    let result = loop {
        if let Some(outcome) = game.automatic_outcome().or_else(|| game.claimable_draw()) {
            break outcome.result;
        }
        if game.len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let board: Board = *game.board();
        let r = engine.search(&board, &history(&game), &Limits::nodes(nodes), &clock, &stop, &mut Silent);
        let best = r.best.expect("a legal move exists");
        let white_cp = r.score.for_white(board.side_to_move()).as_cp();
        lopsided = if white_cp.abs() >= ADJUDICATE_CP && lopsided_same_way(lopsided, white_cp) {
            lopsided + white_cp.signum()
        } else if white_cp.abs() >= ADJUDICATE_CP {
            white_cp.signum()
        } else {
            0
        };
        if lopsided.unsigned_abs() as usize >= ADJUDICATE_PLIES {
            break if lopsided > 0 { GameResult::WhiteWins } else { GameResult::BlackWins };
        }
        let quiet = !board.in_check() && !board.is_capture(best) && best.promotion().is_none();
        if game.len() >= FIRST_KEPT_PLY && quiet && matches!(r.score, Score::Cp(_)) && rng.chance(0.5) {
            kept.push(board.to_fen());
        }
        game.play(best).expect("engine moves are legal");
    };
    let label = match result {
        GameResult::WhiteWins => "1",
        GameResult::BlackWins => "0",
        GameResult::Draw => "0.5",
    };
    kept.iter().map(|fen| format!("{fen} | {label}")).collect()
}

/// Whether a run of lopsided scores (`run` > 0 for White) continues with `white_cp`.
fn lopsided_same_way(run: i32, white_cp: i32) -> bool {
    run != 0 && run.signum() == white_cp.signum()
}
