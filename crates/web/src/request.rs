//! A search request from the worker, checked and turned into a position and limits.

use crate::text::number_text;
use homeostat_chess::{Board, Color};
use homeostat_engine::{Level, Limits, Purpose};

/// What the page asks the engine to search; every field is optional except a limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchRequest {
    /// The start position (the standard one when absent).
    pub fen: Option<String>,
    /// Moves played from `fen`, in UCI (SAN is accepted too).
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
    pub use_book: bool,
    /// Seed for the book's and the weaker levels' random choices.
    pub seed: Option<f64>,
    /// Why the page asks: `play` (the default: the engine's move, which may resign or offer a
    /// draw), `hint` or `analyse` (the best move within the level's caps; no game state changes).
    pub purpose: Option<String>,
    /// How many best lines to report, 1 (the default) to 5 (MultiPV).
    pub multipv: Option<u32>,
}

/// A request field's value as JavaScript gave it (read field by field rather than through serde,
/// whose deserialiser and its number formatting would weigh on every page's wasm).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `undefined` or `null`: the field is left out.
    Absent,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An array.
    List(Vec<Value>),
    /// Anything else (an object, a function, …).
    Other,
}

impl Value {
    /// What the value is, for error messages.
    fn kind(&self) -> &'static str {
        match self {
            Value::Absent => "absent",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::Text(_) => "a string",
            Value::List(_) => "an array",
            Value::Other => "an object",
        }
    }
}

impl SearchRequest {
    /// Reads a request field by field (`get("fen")`, `get("movetimeMs")`, …), saying which field
    /// is wrong and why. Unknown fields are [`unknown_field`]'s to refuse.
    pub fn from_fields(get: impl Fn(&str) -> Value) -> Result<SearchRequest, String> {
        let wrong = |name: &str, want: &str, got: &Value| format!("{name} must be {want}, not {}", got.kind());
        let text = |name: &str| match get(name) {
            Value::Absent => Ok(None),
            Value::Text(s) => Ok(Some(s)),
            other => Err(wrong(name, "a string", &other)),
        };
        let number = |name: &str| match get(name) {
            Value::Absent => Ok(None),
            Value::Number(v) => Ok(Some(v)),
            other => Err(wrong(name, "a number", &other)),
        };
        let whole = |name: &str, max: u32| match get(name) {
            Value::Absent => Ok(None),
            Value::Number(v) if v.fract() == 0.0 && (0.0..=max as f64).contains(&v) => Ok(Some(v as u32)),
            Value::Number(v) => Err(format!("{name} must be a whole number from 0 to {max}, not {}", number_text(v))),
            other => Err(wrong(name, "a number", &other)),
        };
        let moves = match get("moves") {
            Value::Absent => Vec::new(),
            Value::List(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Text(s) => Ok(s),
                    other => Err(format!("moves[{i}] must be a string, not {}", other.kind())),
                })
                .collect::<Result<_, _>>()?,
            other => return Err(wrong("moves", "an array of strings", &other)),
        };
        let use_book = match get("useBook") {
            Value::Absent => false,
            Value::Bool(b) => b,
            other => return Err(wrong("useBook", "a boolean", &other)),
        };
        Ok(SearchRequest {
            fen: text("fen")?,
            moves,
            level: whole("level", 255)?.map(|n| n as u8),
            movetime_ms: number("movetimeMs")?,
            depth: whole("depth", u32::MAX)?,
            nodes: number("nodes")?,
            think_min_ms: number("thinkMinMs")?,
            think_max_ms: number("thinkMaxMs")?,
            wtime_ms: number("wtimeMs")?,
            btime_ms: number("btimeMs")?,
            winc_ms: number("wincMs")?,
            binc_ms: number("bincMs")?,
            use_book,
            seed: number("seed")?,
            purpose: text("purpose")?,
            multipv: whole("multipv", u32::MAX)?,
        })
    }
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
        Some(v) => Err(format!("{name} must be a number from 0 to 9e15, not {}", number_text(v))),
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
        assert_eq!(err(|r| r.movetime_ms = Some(-1.0)), "movetimeMs must be a number from 0 to 9e15, not -1");
        assert_eq!(err(|r| r.nodes = Some(1e308)), "nodes must be a number from 0 to 9e15, not 1e+308");
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
    fn fields_are_read_with_their_types_checked() {
        let read = |fields: &[(&str, Value)]| {
            SearchRequest::from_fields(|name| {
                fields.iter().find(|(n, _)| *n == name).map_or(Value::Absent, |(_, v)| v.clone())
            })
        };
        let r = read(&[
            ("fen", Value::Text("startpos".into())),
            ("moves", Value::List(vec![Value::Text("e2e4".into())])),
            ("level", Value::Number(5.0)),
            ("movetimeMs", Value::Number(250.5)),
            ("useBook", Value::Bool(true)),
            ("multipv", Value::Number(2.0)),
        ])
        .unwrap();
        assert_eq!((r.fen.as_deref(), r.moves.as_slice()), (Some("startpos"), &["e2e4".to_string()][..]));
        assert_eq!(
            (r.level, r.movetime_ms, r.use_book, r.multipv, r.depth),
            (Some(5), Some(250.5), true, Some(2), None)
        );
        assert_eq!(read(&[]).unwrap(), SearchRequest::default());
        let err = |fields: &[(&str, Value)]| read(fields).unwrap_err();
        assert_eq!(err(&[("depth", Value::Text("3".into()))]), "depth must be a number, not a string");
        assert_eq!(err(&[("depth", Value::Number(2.5))]), "depth must be a whole number from 0 to 4294967295, not 2.5");
        assert_eq!(err(&[("level", Value::Number(-1.0))]), "level must be a whole number from 0 to 255, not -1");
        assert_eq!(err(&[("moves", Value::Text("e2e4".into()))]), "moves must be an array of strings, not a string");
        assert_eq!(err(&[("moves", Value::List(vec![Value::Number(1.0)]))]), "moves[0] must be a string, not a number");
        assert_eq!(err(&[("useBook", Value::Number(1.0))]), "useBook must be a boolean, not a number");
        assert_eq!(err(&[("fen", Value::Other)]), "fen must be a string, not an object");
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
