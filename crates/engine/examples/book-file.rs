//! Writes the opening book and names as one file (`book::file`): `make wasm` puts it at `www/pkg/openings.bin`,
//! where the page and the engine's worker fetch it, since neither wasm module builds the book in.
//!
//!     cargo run -p homeostat-engine --example book-file -- OUT

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: book-file OUT");
        return ExitCode::FAILURE;
    };
    let bytes = homeostat_engine::book::file();
    // The file must install where it is used: a book the decoder would refuse is a build error.
    if let Err(err) = homeostat_engine::book::install(&bytes) {
        eprintln!("the book file does not install: {err}");
        return ExitCode::FAILURE;
    }
    match std::fs::write(&path, &bytes) {
        Ok(()) => {
            println!("{path}: {} bytes", bytes.len());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("cannot write {path}: {err}");
            ExitCode::FAILURE
        }
    }
}
