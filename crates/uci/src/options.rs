//! The UCI options the engine declares, their ranges and current values.

use homeostat_engine::Level;

/// How an option is declared to the GUI.
#[derive(Clone, Copy)]
enum Kind {
    /// A whole number in `min..=max`.
    Spin { min: u64, max: u64 },
    /// `true` or `false` (stored as 1 or 0).
    Check,
}

/// One declared option.
struct Declared {
    name: &'static str,
    default: u64,
    kind: Kind,
}

const HASH: usize = 0;
const THREADS: usize = 1;
const MOVE_OVERHEAD: usize = 2;
const PONDER: usize = 3;
const LIMIT_STRENGTH: usize = 4;
const ELO: usize = 5;
const LEVEL: usize = 6;
const OWN_BOOK: usize = 7;
const USE_NNUE: usize = 8;
const MULTI_PV: usize = 9;

/// The most lines `MultiPV` may ask for.
pub const MAX_MULTI_PV: u64 = 5;

const OPTIONS: [Declared; 10] = [
    Declared { name: "Hash", default: 16, kind: Kind::Spin { min: 1, max: 65536 } },
    Declared { name: "Threads", default: 1, kind: Kind::Spin { min: 1, max: 1 } },
    Declared { name: "Move Overhead", default: 30, kind: Kind::Spin { min: 0, max: 5000 } },
    Declared { name: "Ponder", default: 0, kind: Kind::Check },
    Declared { name: "UCI_LimitStrength", default: 0, kind: Kind::Check },
    Declared { name: "UCI_Elo", default: 2600, kind: Kind::Spin { min: 600, max: 2600 } },
    Declared { name: "Level", default: 8, kind: Kind::Spin { min: 1, max: 8 } },
    // Off by default, so matches and tests search every move and stay reproducible.
    Declared { name: "OwnBook", default: 0, kind: Kind::Check },
    // On: the net beat the hand-crafted evaluation at 8+0.08 (README, Engine strength), and at the
    // limits of levels 3-7 (README, Levels); levels 1 and 2 keep the hand-crafted one (`Level::uses_net`).
    Declared { name: "UseNNUE", default: 1, kind: Kind::Check },
    Declared { name: "MultiPV", default: 1, kind: Kind::Spin { min: 1, max: MAX_MULTI_PV } },
];

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    values: [u64; OPTIONS.len()],
}

impl Default for Options {
    fn default() -> Options {
        Options { values: OPTIONS.map(|o| o.default) }
    }
}

impl Options {
    /// The `option name …` lines sent in answer to `uci`.
    pub fn declarations() -> Vec<String> {
        OPTIONS
            .iter()
            .map(|o| match o.kind {
                Kind::Spin { min, max } => {
                    format!("option name {} type spin default {} min {min} max {max}", o.name, o.default)
                }
                Kind::Check => format!("option name {} type check default {}", o.name, o.default == 1),
            })
            .collect()
    }

    /// Sets an option by name (case-insensitive, as UCI asks); on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let Some(i) = OPTIONS.iter().position(|o| o.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("unknown option '{name}'"));
        };
        let option = &OPTIONS[i];
        let Some(text) = value else {
            return Err(format!("option '{}' needs a value", option.name));
        };
        match option.kind {
            Kind::Spin { min, max } => match text.parse::<u64>() {
                Ok(v) if (min..=max).contains(&v) => self.values[i] = v,
                _ => {
                    return Err(format!(
                        "option '{}' takes a whole number from {min} to {max}, got '{text}'",
                        option.name
                    ))
                }
            },
            Kind::Check => match text.to_ascii_lowercase().as_str() {
                "true" => self.values[i] = 1,
                "false" => self.values[i] = 0,
                _ => return Err(format!("option '{}' takes true or false, got '{text}'", option.name)),
            },
        }
        Ok(())
    }

    /// The transposition table size in MiB.
    pub fn hash_mb(&self) -> u64 {
        self.values[HASH]
    }

    /// The number of search threads.
    pub fn threads(&self) -> u64 {
        self.values[THREADS]
    }

    /// Time kept in reserve per move for communication delays, in milliseconds.
    pub fn move_overhead_ms(&self) -> u64 {
        self.values[MOVE_OVERHEAD]
    }

    /// The playing level: from `UCI_Elo` when `UCI_LimitStrength` is on, else `Level`.
    pub fn level(&self) -> Level {
        if self.values[LIMIT_STRENGTH] == 1 {
            Level::from_elo(self.values[ELO] as u32)
        } else {
            Level::new(self.values[LEVEL] as u8)
        }
    }

    /// Whether to play from the engine's opening book while the position is in it.
    pub fn own_book(&self) -> bool {
        self.values[OWN_BOOK] == 1
    }

    /// Whether to evaluate with the neural network rather than the hand-crafted evaluation (at levels 3-8).
    pub fn use_nnue(&self) -> bool {
        self.values[USE_NNUE] == 1
    }

    /// How many best lines a search reports (`MultiPV`).
    pub fn multipv(&self) -> usize {
        self.values[MULTI_PV] as usize
    }

    /// Whether the GUI said it may send `go ponder`.
    pub fn ponder(&self) -> bool {
        self.values[PONDER] == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_name_and_range() {
        let mut options = Options::default();
        assert_eq!(options.hash_mb(), 16);
        options.set("hash", Some("64")).unwrap();
        options.set("Move Overhead", Some("50")).unwrap();
        options.set("Threads", Some("1")).unwrap();
        assert_eq!((options.hash_mb(), options.move_overhead_ms(), options.threads()), (64, 50, 1));
        assert!(options.set("Threads", Some("2")).is_err());
        assert!(options.set("Hash", Some("0")).is_err());
        assert!(options.set("Hash", Some("lots")).is_err());
        assert!(options.set("Hash", None).is_err());
        assert_eq!(options.set("Frobnicate", Some("true")), Err("unknown option 'Frobnicate'".to_string()));
        assert_eq!(options.hash_mb(), 64);
    }

    #[test]
    fn strength_options_choose_the_level() {
        let mut options = Options::default();
        assert_eq!(options.level(), Level::MAX);
        options.set("Level", Some("3")).unwrap();
        assert_eq!(options.level(), Level::new(3));
        options.set("UCI_Elo", Some("1400")).unwrap();
        assert_eq!(options.level(), Level::new(3));
        options.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(options.level(), Level::from_elo(1400));
        assert!(options.set("UCI_LimitStrength", Some("maybe")).is_err());
        options.set("ponder", Some("TRUE")).unwrap();
        assert!(options.ponder());
        assert!(!options.own_book());
        options.set("ownbook", Some("true")).unwrap();
        assert!(options.own_book());
        assert!(options.set("OwnBook", Some("1")).is_err());
        assert!(options.use_nnue());
        options.set("UseNNUE", Some("false")).unwrap();
        assert!(!options.use_nnue());
    }

    #[test]
    fn multipv_is_one_to_five() {
        let mut options = Options::default();
        assert_eq!(options.multipv(), 1);
        options.set("multipv", Some("5")).unwrap();
        assert_eq!(options.multipv(), 5);
        assert!(options.set("MultiPV", Some("0")).is_err());
        assert!(options.set("MultiPV", Some("6")).is_err());
        assert_eq!(options.multipv(), 5);
    }
}
