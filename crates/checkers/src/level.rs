//! Playing levels 1-8: a depth limit and the size of the random weighting that makes games
//! differ (as the applet did, a small random term added to every evaluation).

/// A playing level from 1 (weakest) to 8 (full strength within the caller's limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// What a level allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// The deepest iteration (forced moves and capture extensions add to it).
    pub depth: Option<u32>,
    /// The most positions searched.
    pub nodes: Option<u64>,
    /// The random weighting: each evaluation gets a term in `-jitter..=jitter` hundredths of a
    /// man, fixed per position and seed.
    pub jitter: i32,
}

impl Level {
    /// The strongest level.
    pub const MAX: Level = Level(8);

    /// Level `n`, if `n` is 1-8.
    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    /// The level number, 1-8.
    pub fn number(self) -> u8 {
        self.0
    }

    /// This level's limits and random weighting.
    pub fn settings(self) -> LevelSettings {
        let (depth, nodes, jitter) = match self.0 {
            1 => (Some(1), None, 60),
            2 => (Some(2), None, 45),
            3 => (Some(3), None, 35),
            4 => (Some(4), None, 25),
            5 => (Some(6), None, 18),
            6 => (Some(8), None, 12),
            7 => (Some(11), Some(2_000_000), 8),
            _ => (None, None, 3),
        };
        LevelSettings { depth, nodes, jitter }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}
