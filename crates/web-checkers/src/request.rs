//! A search request from the page, read and checked without JavaScript types, and the plain
//! records a search hands back (progress events and the result).

use homeostat_checkers::{considering_line, Event, Game, Level, Limits, Position, SearchResult};
use serde::{Deserialize, Serialize};

/// Milliseconds level 8 thinks when the request sets no limit of its own.
pub const LEVEL8_THINK_MS: f64 = 3000.0;

/// A search request: `{fen?, moves?, level?, movetimeMs?, depth?, nodes?, seed?}`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchRequest {
    /// The start position in PDN FEN (the standard start when absent).
    pub fen: Option<String>,
    /// Moves played from it, in PDN.
    pub moves: Option<Vec<String>>,
    /// Playing level 1-8 (8 when absent).
    pub level: Option<f64>,
    /// Milliseconds to think at most.
    pub movetime_ms: Option<f64>,
    /// The deepest iteration.
    pub depth: Option<f64>,
    /// The most positions.
    pub nodes: Option<f64>,
    /// Seed of the level's random weighting.
    pub seed: Option<f64>,
}

/// A request checked and turned into what the engine takes.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The position to search.
    pub position: Position,
    /// Keys of the game's positions, oldest first, for repetition detection.
    pub history: Vec<u64>,
    /// The playing level.
    pub level: Level,
    /// The caller's limits.
    pub limits: Limits,
    /// The seed, if given.
    pub seed: Option<u64>,
}

/// The fields a request may have, in JavaScript spelling.
pub const FIELDS: [&str; 7] = ["fen", "moves", "level", "movetimeMs", "depth", "nodes", "seed"];

/// What a request field must hold, in words: `None` for a name that is no field.
pub fn field_kind(name: &str) -> Option<&'static str> {
    match name {
        "fen" => Some("a string"),
        "moves" => Some("an array of strings"),
        n if FIELDS.contains(&n) => Some("a number"),
        _ => None,
    }
}

/// The error for a field named `name` that is not one of [`FIELDS`].
pub fn unknown_field(name: &str) -> String {
    format!("unknown field `{name}`, expected one of {}", FIELDS.join(", "))
}

/// A number as JavaScript writes it (`NaN`, `Infinity`, `1e+308`), for error messages.
pub fn js_number(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v.abs() >= 1e21 {
        return format!("{v:e}").replace('e', "e+").replace("e+-", "e-");
    }
    format!("{v}")
}

/// A whole non-negative number, or an error naming `field`.
fn whole(value: f64, field: &str) -> Result<u64, String> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15 {
        Ok(value as u64)
    } else {
        Err(format!("{field} must be a whole number from 0 to 9e15, not {}", js_number(value)))
    }
}

impl SearchRequest {
    /// Checks the request: the position and moves must be legal and the game not over.
    pub fn prepare(&self) -> Result<Prepared, String> {
        let start = match self.fen.as_deref().map(str::trim) {
            None | Some("") => Position::start(),
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        };
        let mut game = Game::from_position(start);
        for (i, text) in self.moves.iter().flatten().enumerate() {
            game.play_text(text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is over: {outcome}"));
        }
        let level = match self.level {
            None => Level::MAX,
            Some(n) => (n.fract() == 0.0 && (1.0..=8.0).contains(&n))
                .then(|| Level::new(n as u8))
                .flatten()
                .ok_or_else(|| format!("level must be a whole number from 1 to 8, not {}", js_number(n)))?,
        };
        let mut limits = Limits {
            depth: self.depth.map(|d| whole(d, "depth").map(|d| d.clamp(1, 100) as u32)).transpose()?,
            nodes: self.nodes.map(|n| whole(n, "nodes").map(|n| n.max(1))).transpose()?,
            movetime_ms: self.movetime_ms.map(|t| whole(t, "movetimeMs").map(|t| t.max(1) as f64)).transpose()?,
        };
        if level == Level::MAX && limits == Limits::default() {
            limits.movetime_ms = Some(LEVEL8_THINK_MS);
        }
        let seed = self.seed.map(|s| whole(s, "seed")).transpose()?;
        Ok(Prepared { position: *game.position(), history: game.hashes(), level, limits, seed })
    }
}

/// A progress event as the page receives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum EventJs {
    /// A root move is being searched.
    #[serde(rename_all = "camelCase")]
    Root {
        /// The applet's line: `Considering 11-15 (3) of 7 moves, 6 replies, 48,213 positions: 9-14 (+0.20)`.
        line: String,
        /// The move being searched.
        #[serde(rename = "move")]
        mv: String,
        /// Its place in the order, from 1.
        index: usize,
        /// Number of root moves.
        count: usize,
        /// Iteration depth.
        depth: u32,
        /// Positions searched so far.
        nodes: u64,
        /// The best move so far.
        best: String,
        /// Its score in men, White's view (`+0.20`, `#3`).
        score: String,
    },
    /// An iteration finished or the best line changed.
    #[serde(rename_all = "camelCase")]
    Iteration {
        /// Iteration depth.
        depth: u32,
        /// Deepest ply.
        seldepth: u32,
        /// Score in men, White's view.
        score: String,
        /// Positions searched.
        nodes: u64,
        /// Positions a second.
        nps: u64,
        /// Milliseconds since the start.
        elapsed_ms: u64,
        /// The expected line.
        pv: Vec<String>,
    },
}

/// The page's form of an event (`None` for the end, which the result carries).
pub fn event_js(event: &Event) -> Option<EventJs> {
    match event {
        Event::RootMove(info) => Some(EventJs::Root {
            line: considering_line(info),
            mv: info.mv_text.clone(),
            index: info.index,
            count: info.count,
            depth: info.depth,
            nodes: info.nodes,
            best: info.best_text.clone(),
            score: info.best_score_white.to_men_string(),
        }),
        Event::Iteration(info) => Some(EventJs::Iteration {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score_white.to_men_string(),
            nodes: info.nodes,
            nps: info.nps,
            elapsed_ms: info.elapsed_ms,
            pv: info.pv_text.clone(),
        }),
        Event::Finished(_) => None,
    }
}

/// What a search returns to the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultJs {
    /// The move to play, in PDN; null when there is none.
    pub best: Option<String>,
    /// Its score in men, White's view.
    pub score: String,
    /// The last completed depth (0 for a forced move).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// The expected line.
    pub pv: Vec<String>,
    /// Whether the move was the only legal one, played at once.
    pub forced: bool,
}

/// The page's form of a search result in `position`.
pub fn result_js(position: &Position, result: &SearchResult) -> ResultJs {
    ResultJs {
        best: result.best.map(|m| m.to_string()),
        score: result.score.for_white(position.side_to_move()).to_men_string(),
        depth: result.depth,
        nodes: result.nodes,
        elapsed_ms: result.elapsed_ms,
        pv: result.pv.iter().map(|m| m.to_string()).collect(),
        forced: result.forced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use homeostat_checkers::Engine;
    use std::sync::atomic::AtomicBool;

    fn request(fen: Option<&str>, moves: &[&str]) -> SearchRequest {
        SearchRequest {
            fen: fen.map(String::from),
            moves: Some(moves.iter().map(|m| m.to_string()).collect()),
            ..SearchRequest::default()
        }
    }

    #[test]
    fn moves_and_limits() {
        let prepared = request(None, &["11-15", "22-18"]).prepare().unwrap();
        assert_eq!(prepared.history.len(), 3);
        assert_eq!(prepared.limits.movetime_ms, Some(LEVEL8_THINK_MS));
        let low = SearchRequest { level: Some(2.0), ..SearchRequest::default() }.prepare().unwrap();
        assert_eq!(low.limits, Limits::default());
        assert_eq!(low.level, Level::new(2).unwrap());
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        assert!(request(Some("nonsense"), &[]).prepare().unwrap_err().starts_with("bad FEN"));
        assert!(request(None, &["11-15", "11-15"]).prepare().unwrap_err().starts_with("move 2 (11-15)"));
        assert!(request(Some("B:W6:B1"), &["1x10"]).prepare().unwrap_err().contains("game is over"));
        for (level, text) in [(0.0, "0"), (9.0, "9"), (2.5, "2.5"), (-1.0, "-1"), (f64::NAN, "NaN")] {
            let e = SearchRequest { level: Some(level), ..SearchRequest::default() }.prepare().unwrap_err();
            assert_eq!(e, format!("level must be a whole number from 1 to 8, not {text}"));
        }
        let depth = |d: f64| SearchRequest { depth: Some(d), ..SearchRequest::default() }.prepare().unwrap_err();
        assert_eq!(depth(-3.0), "depth must be a whole number from 0 to 9e15, not -3");
        assert_eq!(depth(f64::INFINITY), "depth must be a whole number from 0 to 9e15, not Infinity");
        assert_eq!(depth(1e308), "depth must be a whole number from 0 to 9e15, not 1e+308");
        assert_eq!(depth(f64::NAN), "depth must be a whole number from 0 to 9e15, not NaN");
    }

    #[test]
    fn every_field_has_a_kind_and_others_are_unknown() {
        for name in FIELDS {
            assert!(field_kind(name).is_some(), "{name}");
        }
        assert_eq!(field_kind("movetime"), None);
        assert_eq!(
            unknown_field("movetime"),
            "unknown field `movetime`, expected one of fen, moves, level, movetimeMs, depth, nodes, seed"
        );
    }

    #[test]
    fn events_and_result_in_page_form() {
        let prepared =
            SearchRequest { level: Some(3.0), seed: Some(7.0), ..SearchRequest::default() }.prepare().unwrap();
        let mut engine = Engine::new(1);
        engine.set_level(prepared.level);
        let mut events = Vec::new();
        let stop = AtomicBool::new(false);
        let mut report = |e: &Event| events.extend(event_js(e));
        let result =
            engine.search(&prepared.position, &prepared.history, &prepared.limits, &|| 0.0, &stop, &mut report);
        let page = result_js(&prepared.position, &result);
        assert!(page.best.is_some() && !page.forced && page.depth >= 1);
        assert!(events.iter().any(|e| matches!(e, EventJs::Iteration { .. })));
    }
}
