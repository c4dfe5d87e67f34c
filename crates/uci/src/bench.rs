//! `homeostat bench`: a fixed search whose node count is the engine's checksum (to come).

use std::io::Write;

/// Runs the bench; until crates/engine has a search it only says so.
pub fn run() -> Result<(), String> {
    // A closed stdout is not worth a panic.
    let _ = writeln!(std::io::stdout(), "bench: search not available yet");
    Ok(())
}
