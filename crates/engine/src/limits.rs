//! What the caller allows a search: depth, nodes, time, clocks, or an adaptive think-time band.

use homeostat_chess::Move;

/// Move overhead used when the caller does not set one: time lost per move outside the engine.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// An adaptive ("homeostatic") think-time band: the engine keeps its average think time per
/// move near the middle of `[min_ms, max_ms]`, going deeper after quick moves and shallower
/// after slow ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adaptive {
    /// The least time to think per move, in milliseconds (an only move is still played at once).
    pub min_ms: u64,
    /// The most time to think per move, in milliseconds.
    pub max_ms: u64,
}

/// Search limits; any combination may be set and the first one reached ends the search.
/// With nothing set the search runs until stopped (or the maximum depth).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are spent (self-play data generation).
    pub soft_nodes: Option<u64>,
    /// Exact time for this move in milliseconds.
    pub movetime_ms: Option<u64>,
    /// White's remaining clock time in milliseconds.
    pub wtime: Option<u64>,
    /// Black's remaining clock time in milliseconds.
    pub btime: Option<u64>,
    /// White's increment per move in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment per move in milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped; other limits except depth, nodes and mate are ignored.
    pub infinite: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Time lost per move outside the engine (GUI, transport), in milliseconds.
    pub move_overhead_ms: u64,
    /// Adaptive think-time band (see [`Adaptive`]).
    pub adaptive: Option<Adaptive>,
    /// Only consider these root moves (illegal ones are ignored; empty means all).
    pub searchmoves: Vec<Move>,
    /// How many best lines to find and report (MultiPV; 1 for play).
    pub multipv: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            soft_nodes: None,
            movetime_ms: None,
            wtime: None,
            btime: None,
            winc: None,
            binc: None,
            movestogo: None,
            infinite: false,
            mate: None,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            adaptive: None,
            searchmoves: Vec::new(),
            multipv: 1,
        }
    }
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Search for a fixed time in milliseconds.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime_ms: Some(ms), ..Limits::default() }
    }

    /// Think between `min_ms` and `max_ms` per move, averaging the middle (see [`Adaptive`]).
    pub fn adaptive(min_ms: u64, max_ms: u64) -> Limits {
        Limits { adaptive: Some(Adaptive { min_ms: min_ms.min(max_ms), max_ms }), ..Limits::default() }
    }

    /// Search until stopped.
    pub fn infinite() -> Limits {
        Limits { infinite: true, ..Limits::default() }
    }

    /// Whether a search under these limits has an end of its own besides a stop: a depth, node or
    /// time limit, a clock, or a mate to find (which ends it once found). A plain `go` has none.
    pub fn has_own_end(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.soft_nodes.is_some()
                || self.movetime_ms.is_some()
                || self.wtime.is_some()
                || self.btime.is_some()
                || self.adaptive.is_some()
                || self.mate.is_some())
    }
}
