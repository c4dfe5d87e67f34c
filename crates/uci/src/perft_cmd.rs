//! Perft from the command line (`homeostat perft`) and over UCI (`go perft`).

use crate::command::MAX_PERFT_DEPTH;
use homeostat_chess::{perft_divide, Board, Move};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Each root move with its leaf count (sorted by UCI text), and the total; depth 0 counts 1.
pub fn divide(board: &Board, depth: u32) -> (Vec<(Move, u64)>, u64) {
    if depth == 0 {
        return (Vec::new(), 1);
    }
    let mut counts = perft_divide(board, depth);
    counts.sort_by_key(|(m, _)| m.to_string());
    let total = counts.iter().map(|&(_, n)| n).sum();
    (counts, total)
}

/// Answers `go perft` the way Stockfish does: `move: count` lines, a blank line, the total.
pub fn go_perft(board: &Board, depth: u32, out: &mut impl Write) -> io::Result<()> {
    let (counts, total) = divide(board, depth);
    for (m, n) in counts {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out, "\nNodes searched: {total}\n")
}

/// Runs `homeostat perft DEPTH [FEN]`: prints the divide, total, time and speed.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let usage = "usage: homeostat perft DEPTH [FEN]";
    let Some((depth_text, fen_parts)) = args.split_first() else {
        return Err(usage.to_string());
    };
    let depth = match depth_text.parse::<u32>() {
        Ok(d) if d <= MAX_PERFT_DEPTH => d,
        _ => {
            return Err(format!(
                "perft: DEPTH must be a whole number from 0 to {MAX_PERFT_DEPTH}, got '{depth_text}'\n{usage}"
            ))
        }
    };
    let board = if fen_parts.is_empty() {
        Board::startpos()
    } else {
        Board::from_fen(&fen_parts.join(" ")).map_err(|e| e.to_string())?
    };
    let started = Instant::now();
    let (counts, total) = divide(&board, depth);
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    let mut print = || -> io::Result<()> {
        for (m, n) in &counts {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
        writeln!(out, "Nodes: {total}")?;
        writeln!(out, "Time:  {:.3} s", elapsed.as_secs_f64())?;
        writeln!(out, "Speed: {:.1} Mnps", mnps(total, elapsed))?;
        out.flush()
    };
    // A closed pipe (e.g. `| head`) is not an error worth reporting.
    let _ = print();
    Ok(())
}

/// Millions of nodes per second.
pub fn mnps(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_sums_to_perft() {
        let (counts, total) = divide(&Board::startpos(), 3);
        assert_eq!((counts.len(), total), (20, 8902));
        assert_eq!(counts[0].0.to_string(), "a2a3");
        assert_eq!(divide(&Board::startpos(), 0), (Vec::new(), 1));
    }

    #[test]
    fn go_perft_format() {
        let mut out = Vec::new();
        go_perft(&Board::startpos(), 1, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("a2a3: 1\n"));
        assert!(text.ends_with("h2h4: 1\n\nNodes searched: 20\n\n"));
    }
}
