//! The engine's progress events and results as plain records for JavaScript (camelCase fields).

use homeostat_chess::{Board, Move};
use homeostat_engine::{considering_line, Event, IterationInfo, RootMoveInfo, Score, ScoreBound, SearchResult};
use serde::Serialize;

/// A score: `{cp}` in centipawns or `{mate}` in moves (negative when being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreJs {
    /// Centipawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl From<Score> for ScoreJs {
    fn from(score: Score) -> ScoreJs {
        match score {
            Score::Cp(cp) => ScoreJs { cp: Some(cp), mate: None },
            Score::Mate(n) => ScoreJs { cp: None, mate: Some(n) },
        }
    }
}

/// A progress event for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum EventJs {
    /// A root move is being searched.
    Root(RootJs),
    /// An iteration finished or the best line changed.
    Iteration(IterationJs),
}

/// `{type: "root"}`: the applet's "Considering …" line and its parts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootJs {
    /// The status line, e.g. `Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (+0.48)`.
    pub text: String,
    /// The move being searched, in SAN.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move being searched, in UCI.
    pub uci: String,
    /// Its place in the order, from 1.
    pub index: usize,
    /// Number of legal moves.
    pub count: usize,
    /// Legal replies to it.
    pub replies: usize,
    /// Iteration depth.
    pub depth: u32,
    /// Nodes so far.
    pub nodes: f64,
    /// The best move so far, in SAN.
    pub best: String,
    /// The best move so far, in UCI.
    pub best_uci: String,
    /// Its score, side to move's view.
    pub score: ScoreJs,
    /// Its score, White's view.
    pub score_white: ScoreJs,
}

/// `{type: "iteration"}`: a depth finished or the principal variation changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IterationJs {
    /// Depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score, side to move's view.
    pub score: ScoreJs,
    /// Score, White's view.
    pub score_white: ScoreJs,
    /// `exact`, `lower` or `upper`.
    pub bound: &'static str,
    /// Nodes searched.
    pub nodes: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Milliseconds since the search began.
    pub elapsed_ms: f64,
    /// Hash table fill in per mille.
    pub hashfull: u32,
    /// The expected line in SAN.
    pub pv: Vec<String>,
    /// The expected line in UCI.
    pub pv_uci: Vec<String>,
    /// Which line this is when several are asked for (MultiPV), from 1 (the best).
    pub multipv: usize,
}

/// What a search returns to the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultJs {
    /// The move to play in UCI; null when there is no legal move.
    pub best: Option<String>,
    /// The move to play in SAN.
    pub best_san: Option<String>,
    /// The expected reply in UCI.
    pub ponder: Option<String>,
    /// Score, side to move's view.
    pub score: ScoreJs,
    /// Score, White's view.
    pub score_white: ScoreJs,
    /// Whether the engine resigns instead of moving.
    pub resign: bool,
    /// Whether the engine offers a draw along with its move (only when playing).
    pub offer_draw: bool,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: f64,
    /// Milliseconds spent.
    pub elapsed_ms: f64,
    /// The expected line in UCI.
    pub pv_uci: Vec<String>,
    /// Whether the move came from the opening book.
    pub book: bool,
}

/// The page's form of an engine event; `None` for events it does not forward (`Finished`).
pub fn event_js(event: &Event) -> Option<EventJs> {
    match event {
        Event::RootMove(info) => Some(EventJs::Root(root_js(info))),
        Event::Iteration(info) => Some(EventJs::Iteration(iteration_js(info))),
        Event::Finished(_) => None,
    }
}

fn root_js(info: &RootMoveInfo) -> RootJs {
    RootJs {
        text: considering_line(info),
        mv: info.mv_san.clone(),
        uci: info.mv_uci.clone(),
        index: info.index,
        count: info.count,
        replies: info.replies,
        depth: info.depth,
        nodes: info.nodes as f64,
        best: info.best_san.clone(),
        best_uci: info.best.to_string(),
        score: info.best_score.into(),
        score_white: info.best_score_white.into(),
    }
}

fn iteration_js(info: &IterationInfo) -> IterationJs {
    IterationJs {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score.into(),
        score_white: info.score_white.into(),
        bound: match info.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        },
        nodes: info.nodes as f64,
        nps: info.nps as f64,
        elapsed_ms: info.elapsed_ms as f64,
        hashfull: info.hashfull,
        pv: info.pv_san.clone(),
        pv_uci: info.pv_uci.clone(),
        multipv: info.multipv,
    }
}

/// The page's form of a finished search of `board`.
pub fn result_js(board: &Board, result: &SearchResult) -> ResultJs {
    let side = board.side_to_move();
    ResultJs {
        best: result.best.map(|m| m.to_string()),
        best_san: result.best.map(|m| board.san(m)),
        ponder: result.ponder.map(|m| m.to_string()),
        score: result.score.into(),
        score_white: result.score.for_white(side).into(),
        resign: result.resign,
        offer_draw: result.offer_draw,
        depth: result.depth,
        nodes: result.nodes as f64,
        elapsed_ms: result.elapsed_ms as f64,
        pv_uci: result.pv.iter().map(Move::to_string).collect(),
        book: false,
    }
}

/// The result for a move taken from the opening book.
pub fn book_result_js(board: &Board, m: Move) -> ResultJs {
    ResultJs {
        best: Some(m.to_string()),
        best_san: Some(board.san(m)),
        ponder: None,
        score: Score::Cp(0).into(),
        score_white: Score::Cp(0).into(),
        resign: false,
        offer_draw: false,
        depth: 0,
        nodes: 0.0,
        elapsed_ms: 0.0,
        pv_uci: vec![m.to_string()],
        book: true,
    }
}
