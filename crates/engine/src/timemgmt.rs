//! Time management: turning [`Limits`] into soft and hard time budgets, and the adaptive
//! think-time feedback loop kept across moves.

use crate::limits::Limits;
use homeostat_chess::Color;

/// Moves assumed left in the game when the clock gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 20;
/// Clock kept back against stalls, in move overheads (capped at half the clock).
const RESERVE_OVERHEADS: f64 = 10.0;

/// The time plan for one search, in milliseconds since the search started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start another iteration after this (scaled by search stability).
    pub soft_ms: Option<f64>,
    /// Abort the search at this point.
    pub hard_ms: Option<f64>,
    /// Keep iterating at least this long (adaptive mode).
    pub min_ms: f64,
}

impl Budget {
    /// No time limits.
    pub const UNLIMITED: Budget = Budget { soft_ms: None, hard_ms: None, min_ms: 0.0 };
}

/// The time plan of a search and the adaptive think-time average carried between moves.
#[derive(Clone, Debug, Default)]
pub struct TimeManager {
    average_ms: Option<f64>,
}

fn min_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

impl TimeManager {
    /// A manager with no history.
    pub fn new() -> TimeManager {
        TimeManager::default()
    }

    /// Forgets the adaptive average (new game).
    pub fn reset(&mut self) {
        self.average_ms = None;
    }

    /// The running average think time of adaptive searches, if any were made.
    pub fn average_ms(&self) -> Option<f64> {
        self.average_ms
    }

    /// The budget for a search by `side` under `limits`.
    pub fn budget(&self, limits: &Limits, side: Color) -> Budget {
        if limits.infinite {
            return Budget::UNLIMITED;
        }
        let overhead = limits.move_overhead_ms as f64;
        let mut budget = Budget::UNLIMITED;

        if let Some(movetime) = limits.movetime_ms {
            // A fixed move time is used in full: no early stop between iterations.
            budget.hard_ms = Some((movetime as f64 - overhead).max(1.0));
        }

        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        if let Some(time) = time {
            let inc = inc.unwrap_or(0) as f64;
            // What this move may spend without flagging, and a reserve against stalls.
            let usable = (time as f64 - overhead).max(1.0);
            let reserve = (overhead * RESERVE_OVERHEADS).min(usable / 2.0);
            let moves_to_go = limits.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 50) as u64) as f64;
            // Only the increment beyond the overhead comes back to spend.
            let base = (usable - reserve) / moves_to_go + (inc - overhead).max(0.0);
            let hard_fraction = if moves_to_go <= 1.0 { 0.85 } else { 0.3 };
            let soft = base.min(usable * 0.3);
            let hard = (base * 3.0).min(usable * hard_fraction).max(soft);
            budget.soft_ms = min_opt(budget.soft_ms, Some(soft));
            budget.hard_ms = min_opt(budget.hard_ms, Some(hard));
        }

        if let Some(band) = limits.adaptive {
            let (lo, hi) = (band.min_ms as f64, band.max_ms.max(band.min_ms) as f64);
            let target = (lo + hi) / 2.0;
            // Proportional feedback: aim above the target after fast moves, below after slow ones.
            let soft = match self.average_ms {
                // max/min rather than f64::clamp, whose lo ≤ hi check would link float
                // formatting (≈ 6 KB gzip) into the wasm for its panic message.
                Some(avg) => (2.0 * target - avg).max(lo).min(hi),
                None => target,
            };
            budget.soft_ms = min_opt(budget.soft_ms, Some(soft));
            budget.hard_ms = min_opt(budget.hard_ms, Some(hi));
            budget.min_ms = lo.min(budget.hard_ms.unwrap_or(lo));
        }
        budget
    }

    /// Records the time a search under `limits` took (feeds the adaptive average).
    pub fn record(&mut self, limits: &Limits, used_ms: f64) {
        if limits.adaptive.is_some() {
            self.average_ms = Some(match self.average_ms {
                Some(avg) => 0.7 * avg + 0.3 * used_ms,
                None => used_ms,
            });
        }
    }
}

/// How much of the soft budget to use given the search's state after an iteration:
/// `stable_iterations` in a row with the same best move, the fraction of root nodes spent on
/// the best move, and how far the score fell since the previous iteration (centipawns).
pub fn soft_scale(stable_iterations: u32, best_node_fraction: f64, score_drop: i32) -> f64 {
    let stability = match stable_iterations {
        0 => 1.4,
        1 => 1.15,
        2 => 1.0,
        3 => 0.9,
        _ => 0.8,
    };
    let effort = (1.6 - best_node_fraction).clamp(0.6, 1.6);
    let falling = 1.0 + (score_drop.clamp(0, 100) as f64) / 100.0;
    stability * effort * falling
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_limits(time: u64, inc: u64) -> Limits {
        Limits { wtime: Some(time), winc: Some(inc), btime: Some(time), binc: Some(inc), ..Limits::default() }
    }

    #[test]
    fn movetime_uses_the_time_minus_overhead() {
        let b = TimeManager::new().budget(&Limits::movetime(1000), Color::White);
        assert_eq!(b.hard_ms, Some(970.0));
        assert_eq!(b.soft_ms, None);
    }

    #[test]
    fn clock_budgets_are_safe() {
        let tm = TimeManager::new();
        for (time, inc) in [(10_000, 100), (1_000, 10), (100, 10), (50, 0), (1, 0), (0, 0), (600_000, 0)] {
            let b = tm.budget(&clock_limits(time, inc), Color::Black);
            let (soft, hard) = (b.soft_ms.unwrap(), b.hard_ms.unwrap());
            assert!(soft <= hard, "{time}+{inc}");
            // Never plan to use more than half the clock (plus what the increment gives back).
            assert!(hard <= (time as f64 * 0.5).max(1.0), "{time}+{inc}: {hard}");
        }
    }

    /// Plays out a clock, spending `pick(budget)` plus 5 ms lost outside the engine per move
    /// (less than any increment tested: a loss above the increment drains any clock).
    fn survives(base: u64, inc: u64, moves: usize, pick: impl Fn(&Budget) -> f64) -> bool {
        let tm = TimeManager::new();
        let mut clock = base as f64;
        for _ in 0..moves {
            let b = tm.budget(&clock_limits(clock as u64, inc), Color::White);
            clock -= pick(&b) + 5.0;
            if clock <= 0.0 {
                return false;
            }
            clock += inc as f64;
        }
        true
    }

    /// With an increment, spending the whole hard limit on every move never empties the clock;
    /// without one, a normal game's worth of soft-limit moves fits.
    #[test]
    fn clocks_never_run_out() {
        assert!(survives(10_000, 100, 300, |b| b.hard_ms.unwrap()));
        assert!(survives(1_000, 10, 300, |b| b.hard_ms.unwrap()));
        assert!(survives(60_000, 0, 120, |b| b.soft_ms.unwrap()));
        assert!(survives(10_000, 0, 80, |b| b.soft_ms.unwrap()));
    }

    #[test]
    fn last_move_before_control_may_use_more() {
        let mut l = clock_limits(10_000, 0);
        l.movestogo = Some(1);
        let b = TimeManager::new().budget(&l, Color::White);
        assert!(b.hard_ms.unwrap() > 5_000.0 && b.hard_ms.unwrap() < 9_000.0);
    }

    #[test]
    fn adaptive_band_reacts_to_the_average() {
        let limits = Limits::adaptive(1_000, 3_000);
        let mut tm = TimeManager::new();
        assert_eq!(tm.budget(&limits, Color::White).soft_ms, Some(2_000.0));
        for _ in 0..10 {
            tm.record(&limits, 1_000.0);
        }
        let fast = tm.budget(&limits, Color::White);
        assert!(fast.soft_ms.unwrap() > 2_500.0);
        assert_eq!(fast.hard_ms, Some(3_000.0));
        assert_eq!(fast.min_ms, 1_000.0);
        for _ in 0..10 {
            tm.record(&limits, 3_000.0);
        }
        assert!(tm.budget(&limits, Color::White).soft_ms.unwrap() < 1_500.0);
    }

    #[test]
    fn unstable_searches_get_more_time() {
        assert!(soft_scale(0, 0.3, 50) > soft_scale(5, 0.9, 0));
    }
}
