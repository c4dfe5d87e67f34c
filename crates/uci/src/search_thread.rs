//! The engine searching on its own thread, printing `info` lines and the final `bestmove`.

use homeostat_chess::Board;
use homeostat_engine::{Engine, Event, IterationInfo, Limits, Reporter, RootMoveInfo, ScoreBound};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The output stream, shared by the command loop and the search thread.
pub type SharedOut = Arc<Mutex<Box<dyn Write + Send>>>;

/// `currmove` lines start after the search has run this long.
const CURRMOVE_AFTER_MS: u128 = 1000;

/// Writes one line and flushes it, holding the lock so lines never interleave.
pub fn write_line(out: &SharedOut, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}

/// Locks the engine, even if an earlier search panicked while holding it.
pub fn lock(engine: &Mutex<Engine>) -> MutexGuard<'_, Engine> {
    engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What to search.
#[derive(Clone, Debug)]
pub struct Job {
    /// The position.
    pub board: Board,
    /// Keys of the game's earlier positions.
    pub history: Vec<u64>,
    /// The limits.
    pub limits: Limits,
    /// Hold `bestmove` until `stop` (infinite and pondering searches).
    pub hold: bool,
}

/// A search running on its own thread.
pub struct Searching {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    silent: Arc<AtomicBool>,
    job: Job,
}

impl Searching {
    /// Starts searching `job`; `started` is when the `go` command arrived.
    pub fn start(engine: Arc<Mutex<Engine>>, out: SharedOut, job: Job, started: Instant) -> Searching {
        let stop = Arc::new(AtomicBool::new(false));
        let silent = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_silent, thread_job) = (stop.clone(), silent.clone(), job.clone());
        let handle = std::thread::spawn(move || {
            let clock = move || started.elapsed().as_secs_f64() * 1000.0;
            let mut reporter = UciReporter { out: out.clone(), started };
            let result = lock(&engine).search(
                &thread_job.board,
                &thread_job.history,
                &thread_job.limits,
                &clock,
                &thread_stop,
                &mut reporter,
            );
            while thread_job.hold && !thread_stop.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(1));
            }
            if thread_silent.load(Ordering::Acquire) {
                return;
            }
            let line = match (result.best, result.ponder) {
                (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
                (Some(best), None) => format!("bestmove {best}"),
                (None, _) => "bestmove 0000".to_string(),
            };
            let _ = write_line(&out, &line);
        });
        Searching { handle, stop, silent, job }
    }

    /// What this thread is searching.
    pub fn job(&self) -> &Job {
        &self.job
    }

    /// Stops the search and waits for its `bestmove`.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Release);
        let _ = self.handle.join();
    }

    /// Stops the search without a `bestmove` (a pondering search that becomes a real one).
    pub fn stop_silently(self) {
        self.silent.store(true, Ordering::Release);
        self.stop()
    }

    /// Waits for a search that ends by itself (a timed one), then for its `bestmove`.
    pub fn wait(self) {
        let _ = self.handle.join();
    }
}

/// Turns engine events into UCI `info` lines.
struct UciReporter {
    out: SharedOut,
    started: Instant,
}

impl Reporter for UciReporter {
    fn report(&mut self, event: &Event) {
        let line = match event {
            Event::Iteration(info) => iteration_line(info),
            Event::RootMove(info) if self.started.elapsed().as_millis() >= CURRMOVE_AFTER_MS => currmove_line(info),
            _ => return,
        };
        let _ = write_line(&self.out, &line);
    }
}

/// `info depth … seldepth … score … nodes … nps … hashfull … time … pv …`.
pub fn iteration_line(info: &IterationInfo) -> String {
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.hashfull,
        info.elapsed_ms,
        info.pv_uci.join(" ")
    )
}

/// `info depth … currmove … currmovenumber …`.
pub fn currmove_line(info: &RootMoveInfo) -> String {
    format!("info depth {} currmove {} currmovenumber {}", info.depth, info.mv_uci, info.index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use homeostat_engine::Score;

    #[test]
    fn info_line_format() {
        let board = Board::startpos();
        let m = board.parse_uci("e2e4").unwrap();
        let info = IterationInfo {
            depth: 7,
            seldepth: 11,
            score: Score::Mate(-3),
            score_white: Score::Mate(-3),
            bound: ScoreBound::Lower,
            nodes: 1234,
            nps: 56789,
            elapsed_ms: 21,
            hashfull: 3,
            pv: vec![m],
            pv_san: vec!["e4".into()],
            pv_uci: vec!["e2e4".into()],
            multipv: 1,
        };
        assert_eq!(
            iteration_line(&info),
            "info depth 7 seldepth 11 multipv 1 score mate -3 lowerbound nodes 1234 nps 56789 hashfull 3 time 21 pv e2e4"
        );
    }
}
