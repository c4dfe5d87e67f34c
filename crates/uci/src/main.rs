//! `homeostat`: UCI on stdin/stdout with no arguments, or `perft`/`bench`/`datagen` subcommands.

use homeostat_uci::{bench, datagen_cmd, perft_cmd, uci};
use std::io::{self, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: homeostat               speak UCI on stdin/stdout
       homeostat perft DEPTH [FEN]   count leaves, per root move
       homeostat bench [DEPTH [nnue|hce]]  run the benchmark search (node count and speed)
       homeostat datagen --out FILE --games N | --minutes M [--threads T] [--nodes N] [--seed S]
                                     self-play training data (--help for more; --stats FILE...)";

fn main() -> ExitCode {
    // Arguments that are not UTF-8 are read lossily rather than aborting.
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let result = match args.first().map(String::as_str) {
        None => uci::run(io::stdin().lock(), io::stdout()).map_err(|e| e.to_string()),
        Some("perft") => perft_cmd::run_cli(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("datagen") if args[1..].iter().any(|a| a == "--help" || a == "-h") => {
            let _ = writeln!(io::stdout(), "{}", datagen_cmd::USAGE);
            Ok(())
        }
        Some("datagen") => datagen_cmd::run_cli(&args[1..]),
        Some("-h" | "--help" | "help") => {
            let _ = writeln!(io::stdout(), "{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown argument '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            let _ = writeln!(io::stderr(), "{why}");
            ExitCode::from(2)
        }
    }
}
