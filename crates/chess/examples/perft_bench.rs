//! Perft speed of homeostat-chess against cozy-chess 0.3.4, measured side by side.
//!
//! `cargo run --release -p homeostat-chess --example perft_bench -- [ROUNDS] [--quick]`
//!
//! Each round runs every position and figure once per library, alternating which goes first,
//! and checks the node counts. The table shows median Mnps over the rounds and the median of
//! the rounds' ours/cozy ratios. Two figures: "bulk" counts the last ply without playing it,
//! "full" plays every move, leaves included, keys kept up to date. Runs are timed by the
//! thread's CPU time where the platform reports it, as other jobs on a shared machine would
//! otherwise count against whichever library they interrupt. `--quick` searches one ply
//! shallower (a smoke test). The same source runs as wasm32-wasip1: see `tools/perft-bench.sh`.

use std::hint::black_box;
use std::time::Instant;

/// A benchmark position with its perft counts at `depth - 1` and `depth`.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: [u64; 2],
}

const CASES: [Case; 3] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        nodes: [4_865_609, 119_060_324],
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        nodes: [4_085_603, 193_690_690],
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 6,
        nodes: [674_624, 11_030_083],
    },
];

const FIGURES: [&str; 2] = ["bulk", "full"];
/// The targets for ours/cozy, per figure.
const TARGETS: [f64; 2] = [1.1, 1.2];

/// Ours: the library's own perft functions.
fn ours(board: &homeostat_chess::Board, depth: u32, figure: usize) -> u64 {
    match figure {
        0 => homeostat_chess::perft(board, depth),
        _ => homeostat_chess::perft_full(board, depth),
    }
}

/// cozy-chess bulk perft: the last ply is counted from the move sets.
fn cozy_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut n = 0;
    if depth == 0 {
        return 1;
    }
    board.generate_moves(|moves| {
        if depth == 1 {
            n += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                n += cozy_bulk(&child, depth - 1);
            }
        }
        false
    });
    n
}

/// cozy-chess full perft: every move is played, leaves included.
fn cozy_full(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut n = 0;
    if depth == 0 {
        return 1;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            n += if depth == 1 {
                // Reading the key keeps the leaf move from being optimised away.
                black_box(child.hash());
                1
            } else {
                cozy_full(&child, depth - 1)
            };
        }
        false
    });
    n
}

fn cozy(board: &cozy_chess::Board, depth: u32, figure: usize) -> u64 {
    match figure {
        0 => cozy_bulk(board, depth),
        _ => cozy_full(board, depth),
    }
}

/// Runs `f`, returning its count and its time: CPU time where the platform reports it (other
/// jobs on a shared machine then cost us less), else wall time.
fn timed(f: impl FnOnce() -> u64) -> (u64, f64, f64) {
    let (cpu_start, wall_start) = (cpu_clock::now(), Instant::now());
    let n = black_box(f());
    let wall = wall_start.elapsed();
    let time = match (cpu_start, cpu_clock::now()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    (n, time.as_secs_f64(), wall.as_secs_f64())
}

/// The CPU time used so far, where the platform tells it.
mod cpu_clock {
    use std::time::Duration;

    /// Linux (64-bit): `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` from the C library std links.
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    pub fn now() -> Option<Duration> {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: the C library writes one timespec through the pointer, which points at one.
        let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
        (status == 0).then(|| Duration::new(t.sec as u64, t.nsec as u32))
    }

    /// WASI: the host's CPU-time clock of the calling thread (clock id 3).
    #[cfg(target_os = "wasi")]
    pub fn now() -> Option<Duration> {
        #[link(wasm_import_module = "wasi_snapshot_preview1")]
        extern "C" {
            #[link_name = "clock_time_get"]
            fn wasi_clock_time_get(id: u32, precision: u64, time: *mut u64) -> u16;
        }
        let mut ns = 0u64;
        // SAFETY: the host writes one u64 through the pointer, which points at a live u64.
        let errno = unsafe { wasi_clock_time_get(3, 1, &mut ns) };
        (errno == 0).then(|| Duration::from_nanos(ns))
    }

    /// Elsewhere: unknown, so wall time is used.
    #[cfg(not(any(all(target_os = "linux", target_pointer_width = "64"), target_os = "wasi")))]
    pub fn now() -> Option<Duration> {
        None
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let mid = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[mid]
    } else {
        (xs[mid - 1] + xs[mid]) / 2.0
    }
}

/// One table row: median Mnps of each library and the median of the rounds' ratios
/// (each round's two runs ran back to back, so their ratio is the least disturbed figure).
fn row(name: &str, depth: &str, nodes: u64, figure: usize, ours_s: &[f64], cozy_s: &[f64]) {
    let mnps = |s: &[f64]| median(s.iter().map(|t| nodes as f64 / t / 1e6).collect());
    // Rounded as printed, so the verdict agrees with the figure shown.
    let ratio = (median(ours_s.iter().zip(cozy_s).map(|(o, c)| c / o).collect()) * 1000.0).round() / 1000.0;
    let verdict = if ratio >= TARGETS[figure] { "met" } else { "MISSED" };
    println!(
        "{name:<11} {depth:>5} {nodes:>11}  {:<6} {:>10.1} {:>10.1} {ratio:>9.3}  >={:.2} {verdict}",
        FIGURES[figure],
        mnps(ours_s),
        mnps(cozy_s),
        TARGETS[figure]
    );
}

fn main() {
    let mut rounds = 5usize;
    let mut quick = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--quick" => quick = true,
            n => match n.parse() {
                Ok(r) if r > 0 => rounds = r,
                _ => {
                    eprintln!("usage: perft_bench [ROUNDS] [--quick]");
                    std::process::exit(2);
                }
            },
        }
    }
    let level = !quick as usize;
    let depth = |case: &Case| case.depth - quick as u32;
    let boards: Vec<(homeostat_chess::Board, cozy_chess::Board)> =
        CASES.iter().map(|c| (c.fen.parse().unwrap(), c.fen.parse().unwrap())).collect();

    // Warm-up, unmeasured: wasm engines compile hot functions again with their optimiser.
    for (ours_board, cozy_board) in &boards {
        for figure in 0..FIGURES.len() {
            black_box(ours(ours_board, 3, figure) + cozy(cozy_board, 3, figure));
        }
    }

    // secs[case][figure][0 = ours, 1 = cozy][round]
    let (mut total_time, mut total_wall) = (0.0, 0.0);
    let mut secs = vec![[[vec![], vec![]], [vec![], vec![]]]; CASES.len()];
    for round in 0..rounds {
        for (i, case) in CASES.iter().enumerate() {
            for (figure, name) in FIGURES.iter().enumerate() {
                let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
                for engine in order {
                    let (ours_board, cozy_board) = &boards[i];
                    let (nodes, time, wall) = match engine {
                        0 => timed(|| ours(ours_board, depth(case), figure)),
                        _ => timed(|| cozy(cozy_board, depth(case), figure)),
                    };
                    let expected = case.nodes[level];
                    if nodes != expected {
                        let who = ["ours", "cozy"][engine];
                        eprintln!("{who} {} {name}: {nodes} nodes, expected {expected}", case.name);
                        std::process::exit(1);
                    }
                    secs[i][figure][engine].push(time);
                    total_time += time;
                    total_wall += wall;
                }
            }
        }
        eprintln!("round {}/{rounds} done", round + 1);
    }

    let target = match std::env::consts::OS {
        "" => std::env::consts::ARCH.to_string(),
        os => format!("{}-{os}", std::env::consts::ARCH),
    };
    let clock = match cpu_clock::now() {
        Some(_) => format!("thread CPU time (wall time was {:.2}x that)", total_wall / total_time),
        None => "wall time".to_string(),
    };
    println!(
        "perft: homeostat-chess vs cozy-chess 0.3.4 on {target}, {rounds} rounds{}; timed by {clock}",
        if quick { ", quick (one ply shallower)" } else { "" }
    );
    println!(
        "{:<11} {:>5} {:>11}  {:<6} {:>10} {:>10} {:>9}  target",
        "position", "depth", "nodes", "figure", "ours Mnps", "cozy Mnps", "ours/cozy"
    );
    for (case, by_figure) in CASES.iter().zip(&secs) {
        for (figure, [o, c]) in by_figure.iter().enumerate() {
            row(case.name, &depth(case).to_string(), case.nodes[level], figure, o, c);
        }
    }
    // Totals: all positions' nodes over each round's summed time.
    let total_nodes = CASES.iter().map(|c| c.nodes[level]).sum();
    for figure in 0..FIGURES.len() {
        let sums = |engine: usize| -> Vec<f64> {
            (0..rounds).map(|r| secs.iter().map(|s| s[figure][engine][r]).sum()).collect()
        };
        row("total", "-", total_nodes, figure, &sums(0), &sums(1));
    }
}
