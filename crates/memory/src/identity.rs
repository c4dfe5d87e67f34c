//! The engine identity the memory accepts and serves: the version and its `bench` node count with
//! the neural net, the evaluation of the full-strength searches the memory is for.

use homeostat_engine::bench::{bench_with, DEFAULT_DEPTH};
use std::sync::OnceLock;
use std::time::Instant;

/// An engine version and the node count of its `bench` (`homeostat bench`, default depth), which
/// changes with any change to the search or evaluation even when the version does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    version: String,
    bench: u64,
    name: String,
}

impl Identity {
    /// The identity of `version` with `bench` nodes.
    pub fn new(version: &str, bench: u64) -> Identity {
        Identity { version: version.to_string(), bench, name: format!("Homeostat {version} bench {bench}") }
    }

    /// This build's engine: its version and a `bench` with the net (`homeostat bench 9 nnue`) run
    /// once per process (about a second).
    pub fn of_this_build() -> Identity {
        static BENCH: OnceLock<u64> = OnceLock::new();
        let nodes = *BENCH.get_or_init(|| {
            let start = Instant::now();
            let clock = move || start.elapsed().as_secs_f64() * 1000.0;
            bench_with(DEFAULT_DEPTH, &clock, true).nodes
        });
        Identity::new(env!("CARGO_PKG_VERSION"), nodes)
    }

    /// The version, as in `id name Homeostat 0.1.0`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The `bench` node count.
    pub fn bench(&self) -> u64 {
        self.bench
    }

    /// How clients write it in submissions and how lookups show it: `Homeostat VERSION bench NODES` (the README gives this build's).
    pub fn name(&self) -> &str {
        &self.name
    }
}
