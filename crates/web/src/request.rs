//! A search request from the worker, checked and turned into a position and limits.

use homeostat_chess::{Board, Color};
use homeostat_engine::{Level, Limits, Purpose};
use serde::Deserialize;

/// What the page asks the engine to search; every field is optional except a limit.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchRequest {
    /// The start position (the standard one when absent).
    pub fen: Option<String>,
    /// Moves played from `fen`, in UCI (SAN is accepted too).
    #[serde(default)]
    pub moves: Vec<String>,
    /// Playing level 1 to 8 (8: full strength).
    pub level: Option<u8>,
    /// Exact think time in milliseconds.
    pub movetime_ms: Option<f64>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<f64>,
    /// Adaptive think time: the least per move, in milliseconds.
    pub think_min_ms: Option<f64>,
    /// Adaptive think time: the most per move, in milliseconds.
    pub think_max_ms: Option<f64>,
    /// White's clock in milliseconds (with `btimeMs`, as UCI's `wtime`): the engine budgets its time.
    pub wtime_ms: Option<f64>,
    /// Black's clock in milliseconds.
    pub btime_ms: Option<f64>,
    /// White's increment per move in milliseconds.
    pub winc_ms: Option<f64>,
    /// Black's increment per move in milliseconds.
    pub binc_ms: Option<f64>,
    /// Play a move from the opening book when the position is in it.
    #[serde(default)]
    pub use_book: bool,
    /// Seed for the book's and the weaker levels' random choices.
    pub seed: Option<f64>,
    /// Why the page asks: `play` (the default: the engine's move, which may resign or offer a
    /// draw), `hint` or `analyse` (the best move within the level's caps; no game state changes).
    pub purpose: Option<String>,
    /// How many best lines to report, 1 (the default) to 5 (MultiPV).
    pub multipv: Option<u32>,
}

/// The engine's purpose for a request's `purpose`.
fn purpose(text: Option<&str>) -> Result<Purpose, String> {
    match text {
        None | Some("play") => Ok(Purpose::Play),
        Some("hint" | "analyse" | "analyze") => Ok(Purpose::Analyse),
        Some(other) => Err(format!("purpose must be \"play\", \"hint\" or \"analyse\", not {other:?}")),
    }
}

/// The fields a request may have, in JavaScript spelling.
pub const FIELDS: &[&str] = &[
    "fen",
    "moves",
    "level",
    "movetimeMs",
    "depth",
    "nodes",
    "thinkMinMs",
    "thinkMaxMs",
    "wtimeMs",
    "btimeMs",
    "wincMs",
    "bincMs",
    "useBook",
    "seed",
    "purpose",
    "multipv",
];

/// The first of `keys` that is not a request field, as an error message.
pub fn unknown_field<'a>(keys: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let key = keys.into_iter().find(|key| !FIELDS.contains(key))?;
    Some(format!("unknown field `{key}`, expected one of {}", FIELDS.join(", ")))
}

/// A request made ready for the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The position to search.
    pub board: Board,
    /// Keys of the earlier positions, oldest first.
    pub history: Vec<u64>,
    /// The limits.
    pub limits: Limits,
    /// The level.
    pub level: Level,
    /// Whether to consult the book first.
    pub use_book: bool,
    /// The random seed, if given.
    pub seed: Option<u64>,
    /// Why the search is made.
    pub purpose: Purpose,
}

/// A whole number of milliseconds or nodes from a JavaScript number.
fn count(name: &str, value: Option<f64>) -> Result<Option<u64>, String> {
    match value {
        None => Ok(None),
        Some(v) if (0.0..=9.0e15).contains(&v) => Ok(Some(v.round() as u64)),
        Some(v) => Err(format!("{name} must be a non-negative number, not {v}")),
    }
}

/// The position after `moves` from `fen`, and the keys of the positions before it.
pub fn position(fen: Option<&str>, moves: &[String]) -> Result<(Board, Vec<u64>), String> {
    let mut board = match fen.map(str::trim) {
        None | Some("") | Some("startpos") => Board::startpos(),
        Some(fen) => Board::from_fen(fen).map_err(|e| format!("bad fen: {e}"))?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = board.parse_move(text).map_err(|e| format!("moves[{i}]: {e}"))?;
        history.push(board.hash());
        board.play(m);
    }
    Ok((board, history))
}

impl SearchRequest {
    /// Checks the request and builds the position and limits.
    pub fn prepare(&self) -> Result<Prepared, String> {
        let level = match self.level {
            None => Level::MAX,
            Some(n @ 1..=8) => Level::new(n),
            Some(n) => return Err(format!("level must be 1 to 8, not {n}")),
        };
        let mut limits = Limits {
            depth: self.depth,
            nodes: count("nodes", self.nodes)?,
            movetime_ms: count("movetimeMs", self.movetime_ms)?,
            wtime: count("wtimeMs", self.wtime_ms)?,
            btime: count("btimeMs", self.btime_ms)?,
            winc: count("wincMs", self.winc_ms)?,
            binc: count("bincMs", self.binc_ms)?,
            ..Limits::default()
        };
        match self.multipv {
            None => {}
            Some(n @ 1..=5) => limits.multipv = n as usize,
            Some(n) => return Err(format!("multipv must be 1 to 5, not {n}")),
        }
        if self.depth == Some(0) {
            return Err("depth must be at least 1".into());
        }
        match (count("thinkMinMs", self.think_min_ms)?, count("thinkMaxMs", self.think_max_ms)?) {
            (None, None) => {}
            (Some(min), Some(max)) if min <= max => {
                limits = Limits { adaptive: Limits::adaptive(min, max).adaptive, ..limits }
            }
            (Some(min), Some(max)) => return Err(format!("thinkMinMs ({min}) is above thinkMaxMs ({max})")),
            _ => return Err("thinkMinMs and thinkMaxMs go together".into()),
        }
        if limits.wtime.is_some() != limits.btime.is_some() {
            return Err("wtimeMs and btimeMs go together".into());
        }
        let bounded = limits.wtime.is_some()
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime_ms.is_some()
            || limits.adaptive.is_some()
            || !level.is_full();
        if !bounded {
            // Full strength has no depth cap: without a limit it thinks for the level's time.
            limits.movetime_ms = Some(level.think_ms());
        }
        let purpose = purpose(self.purpose.as_deref())?;
        let (board, history) = position(self.fen.as_deref(), &self.moves)?;
        // Any number seeds, fractions from Math.random() included: its bits are the seed.
        let seed = self.seed.map(f64::to_bits);
        Ok(Prepared { board, history, limits, level, use_book: self.use_book, seed, purpose })
    }
}

/// The side to move as `w` or `b`.
pub fn side(board: &Board) -> char {
    match board.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(f: impl FnOnce(&mut SearchRequest)) -> SearchRequest {
        let mut r = SearchRequest { depth: Some(3), ..SearchRequest::default() };
        f(&mut r);
        r
    }

    #[test]
    fn moves_are_played_and_history_kept() {
        let r = request(|r| r.moves = vec!["e2e4".into(), "e7e5".into(), "Nf3".into()]);
        let p = r.prepare().unwrap();
        assert_eq!(p.history.len(), 3);
        assert_eq!(p.history[0], Board::startpos().hash());
        assert_eq!(side(&p.board), 'b');
        assert_eq!(p.limits.depth, Some(3));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |f: fn(&mut SearchRequest)| request(f).prepare().unwrap_err();
        assert!(err(|r| r.fen = Some("8/8/8".into())).starts_with("bad fen"));
        assert!(err(|r| r.moves = vec!["e2e5".into()]).starts_with("moves[0]: illegal move"));
        assert!(err(|r| r.level = Some(9)).contains("level"));
        assert!(err(|r| r.movetime_ms = Some(-1.0)).contains("movetimeMs"));
        assert!(err(|r| r.think_min_ms = Some(10.0)).contains("together"));
        assert_eq!(err(|r| r.multipv = Some(6)), "multipv must be 1 to 5, not 6");
        assert_eq!(request(|r| r.multipv = Some(3)).prepare().unwrap().limits.multipv, 3);
    }

    #[test]
    fn only_play_is_the_engines_move() {
        assert_eq!(request(|_| {}).prepare().unwrap().purpose, Purpose::Play);
        let with = |text: &str| request(|r| r.purpose = Some(text.into())).prepare().map(|p| p.purpose);
        assert_eq!(with("play"), Ok(Purpose::Play));
        assert_eq!(with("hint"), Ok(Purpose::Analyse));
        assert_eq!(with("analyse"), Ok(Purpose::Analyse));
        assert_eq!(with("win"), Err("purpose must be \"play\", \"hint\" or \"analyse\", not \"win\"".into()));
    }

    #[test]
    fn unknown_fields_are_named() {
        assert_eq!(unknown_field(["fen", "depth", "purpose"]), None);
        assert!(unknown_field(["fen", "colour"]).unwrap().starts_with("unknown field `colour`"));
    }

    #[test]
    fn full_strength_without_a_limit_thinks_for_its_time() {
        for level in [None, Some(8)] {
            let p = request(|r| (r.depth, r.level) = (None, level)).prepare().unwrap();
            assert_eq!(p.limits.movetime_ms, Some(Level::MAX.think_ms()));
            assert_eq!((p.limits.depth, p.limits.nodes, p.limits.adaptive), (None, None, None));
        }
        // Explicit limits are kept as they are.
        let p = request(|r| r.level = Some(8)).prepare().unwrap();
        assert_eq!((p.limits.depth, p.limits.movetime_ms), (Some(3), None));
        let p = request(|r| (r.depth, r.level) = (None, Some(3))).prepare().unwrap();
        assert_eq!(p.limits.movetime_ms, None);
    }

    #[test]
    fn clocks_are_a_limit_and_reach_the_engine() {
        let p = request(|r| {
            (r.depth, r.wtime_ms, r.btime_ms, r.winc_ms) = (None, Some(60_000.0), Some(30_000.0), Some(2_000.0))
        })
        .prepare()
        .unwrap();
        assert_eq!(
            (p.limits.wtime, p.limits.btime, p.limits.winc, p.limits.binc),
            (Some(60_000), Some(30_000), Some(2_000), None)
        );
        assert_eq!(p.limits.movetime_ms, None, "full strength with a clock budgets from the clock");
        assert!(request(|r| r.wtime_ms = Some(1000.0)).prepare().unwrap_err().contains("together"));
        assert!(request(|r| (r.wtime_ms, r.btime_ms) = (Some(-5.0), Some(1.0)))
            .prepare()
            .unwrap_err()
            .contains("wtimeMs"));
    }

    #[test]
    fn weak_level_or_adaptive_band_is_a_limit() {
        assert!(request(|r| (r.depth, r.level) = (None, Some(3))).prepare().is_ok());
        let p = request(|r| (r.depth, r.think_min_ms, r.think_max_ms) = (None, Some(100.0), Some(300.0)))
            .prepare()
            .unwrap();
        assert_eq!(p.limits.adaptive.map(|a| (a.min_ms, a.max_ms)), Some((100, 300)));
    }
}
