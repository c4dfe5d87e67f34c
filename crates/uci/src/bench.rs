//! `homeostat bench [depth]`: the fixed-depth search whose node count is the engine's checksum.

use homeostat_engine::bench::{bench, bench_with, DEFAULT_DEPTH, POSITIONS};
use std::io::Write;
use std::time::Instant;

/// Runs the bench at `args[0]` (default depth) and prints nodes and speed; `nnue` or `hce`
/// after the depth picks the evaluation (default: the engine's default).
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.get(2) {
        return Err(format!("bench: unexpected '{extra}' (usage: homeostat bench [DEPTH [nnue|hce]])"));
    }
    let eval = match args.get(1).map(String::as_str) {
        None => None,
        Some("nnue") => Some(true),
        Some("hce") => Some(false),
        Some(other) => return Err(format!("bench: the evaluation is 'nnue' or 'hce', got '{other}'")),
    };
    let depth = match args.first() {
        None => DEFAULT_DEPTH,
        Some(text) => match text.parse::<u32>() {
            Ok(d) if (1..=64).contains(&d) => d,
            _ => return Err(format!("bench: depth must be a whole number from 1 to 64, got '{text}'")),
        },
    };
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1000.0;
    let report = match eval {
        None => bench(depth, &clock),
        Some(nnue) => bench_with(depth, &clock, nnue),
    };
    // A closed stdout is not worth a panic.
    let _ = writeln!(
        std::io::stdout(),
        "{} positions, depth {depth}\nNodes searched: {}\nNodes/second: {}\nTime (ms): {:.0}",
        POSITIONS.len(),
        report.nodes,
        report.nps,
        report.elapsed_ms
    );
    Ok(())
}
