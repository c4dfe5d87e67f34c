//! The `homeostat` program: the UCI protocol, `perft`, `bench` and `datagen` from the command line.
//!
//! ```
//! use homeostat_uci::command::{parse_command, Command};
//! assert_eq!(parse_command("go perft 3"), Ok(Command::Perft(3)));
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod command;
pub mod datagen_cmd;
pub mod display;
pub mod options;
pub mod perft_cmd;
pub mod position;
pub mod search_thread;
pub mod uci;
