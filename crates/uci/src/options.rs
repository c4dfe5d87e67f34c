//! The UCI options the engine declares, their ranges and current values.

/// A numeric (`spin`) option as declared to the GUI.
struct Spin {
    name: &'static str,
    default: u64,
    min: u64,
    max: u64,
}

const HASH: usize = 0;
const THREADS: usize = 1;
const MOVE_OVERHEAD: usize = 2;

const SPINS: [Spin; 3] = [
    Spin { name: "Hash", default: 16, min: 1, max: 65536 },
    Spin { name: "Threads", default: 1, min: 1, max: 256 },
    Spin { name: "Move Overhead", default: 10, min: 0, max: 5000 },
];

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    values: [u64; SPINS.len()],
}

impl Default for Options {
    fn default() -> Options {
        Options { values: SPINS.map(|s| s.default) }
    }
}

impl Options {
    /// The `option name …` lines sent in answer to `uci`.
    pub fn declarations() -> Vec<String> {
        SPINS
            .iter()
            .map(|s| format!("option name {} type spin default {} min {} max {}", s.name, s.default, s.min, s.max))
            .collect()
    }

    /// Sets an option by name (case-insensitive, as UCI asks); on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let Some(i) = SPINS.iter().position(|s| s.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("unknown option '{name}'"));
        };
        let spin = &SPINS[i];
        let Some(text) = value else {
            return Err(format!("option '{}' needs a value", spin.name));
        };
        match text.parse::<u64>() {
            Ok(v) if (spin.min..=spin.max).contains(&v) => {
                self.values[i] = v;
                Ok(())
            }
            _ => Err(format!(
                "option '{}' takes a whole number from {} to {}, got '{text}'",
                spin.name, spin.min, spin.max
            )),
        }
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
        options.set("Threads", Some("2")).unwrap();
        assert_eq!((options.hash_mb(), options.move_overhead_ms(), options.threads()), (64, 50, 2));
        assert!(options.set("Hash", Some("0")).is_err());
        assert!(options.set("Hash", Some("lots")).is_err());
        assert!(options.set("Hash", None).is_err());
        assert_eq!(options.set("Ponder", Some("true")), Err("unknown option 'Ponder'".to_string()));
        assert_eq!(options.hash_mb(), 64);
    }
}
