//! Writes a net file in its packed form (`nnue::pack`), which gzip shrinks by a quarter more: `make wasm` puts the
//! built-in net at `www/pkg/homeostat.nnue` so, where the engine's worker fetches it.
//!
//!     cargo run -p homeostat-engine --example nnue_pack -- IN.nnue OUT.nnue

use homeostat_engine::nnue::{self, Network};
use std::process::ExitCode;

fn run(input: &str, output: &str) -> Result<String, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let packed = nnue::pack(&net.to_bytes())?;
    // The packed file must read back as the same net: one that would not is a build error.
    if Network::from_bytes(&packed).as_ref() != Ok(&net) {
        return Err(format!("{input}: the packed net does not read back as the net"));
    }
    std::fs::write(output, &packed).map_err(|e| format!("{output}: {e}"))?;
    Ok(format!("{output}: {input} packed, {} bytes, fnv1a of the net {:#018x}", packed.len(), net.checksum()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: nnue_pack IN.nnue OUT.nnue");
        return ExitCode::FAILURE;
    };
    match run(input, output) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nnue_pack: {e}");
            ExitCode::FAILURE
        }
    }
}
