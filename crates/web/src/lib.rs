//! WebAssembly bindings for Homeostat.
//!
//! This crate is the only bridge between the Rust chess code and the page in `www/`. It is
//! built for `wasm32-unknown-unknown` and post-processed with `wasm-bindgen --target web`, which
//! writes an ES module to `www/pkg/`. It is built twice: with the `rules` feature for the page's main
//! thread (`homeostat_rules.js`: [`rules::WebGame`], `Game` in JavaScript) and with the `engine`
//! feature for the engine's worker (`homeostat_web.js`: [`search::Searcher`], `bench` and `perft`), so
//! the page never downloads the search and its net code before its first move. Both take the opening
//! book as a file ([`install_book`]). The rules live in
//! `homeostat-chess` and the search in `homeostat-engine`: no chess logic is written here.
// String slicing panics through core's `Debug` formatting of text, kilobytes in the page's wasm module.
#![cfg_attr(not(test), warn(clippy::string_slice))]

#[cfg(all(target_arch = "wasm32", not(feature = "engine")))]
mod allocator;
#[cfg(feature = "rules")]
pub mod annotations;
#[cfg(feature = "engine")]
pub mod bench;
#[cfg(feature = "engine")]
pub mod events;
mod js;
#[cfg(feature = "engine")]
pub mod request;
#[cfg(feature = "rules")]
pub mod rules;
#[cfg(feature = "engine")]
pub mod search;
#[cfg(feature = "rules")]
pub mod session;
mod text;

use wasm_bindgen::prelude::*;

/// The rules module's allocator: smaller than the standard one (see allocator.rs).
#[cfg(all(target_arch = "wasm32", not(feature = "engine")))]
#[global_allocator]
static ALLOCATOR: allocator::SizeClasses = allocator::SizeClasses::new();

/// Installs the panic hook so that Rust panics show up in the browser console. The rules module goes
/// without: its formatting code would weigh about a tenth of it, and a panic there still throws.
#[cfg(feature = "engine")]
#[wasm_bindgen(start)]
pub fn init() {
    console_error_panic_hook::set_once();
}

/// The measured Elo of playing level `level` (1-8, clamped), on Stockfish's `UCI_Elo` scale.
#[wasm_bindgen(js_name = levelElo)]
pub fn level_elo(level: u8) -> u32 {
    homeostat_engine::Level::new(level).elo()
}

/// Milliseconds a move takes at level `level` (1-8, clamped) when the player sets no time: the least
/// a move lasts at levels 1-7 (the page paces the search's events over it), the search time at level 8.
#[wasm_bindgen(js_name = levelThinkMs)]
pub fn level_think_ms(level: u8) -> f64 {
    homeostat_engine::Level::new(level).think_ms() as f64
}

/// Whether level `level` (1-8, clamped) evaluates with the neural net when the engine has it (levels 3-8).
#[wasm_bindgen(js_name = levelUsesNet)]
pub fn level_uses_net(level: u8) -> bool {
    homeostat_engine::Level::new(level).uses_net()
}

/// Installs the opening book (names and book moves) from the bytes of `pkg/openings.bin`; throws an
/// `Error` saying what is wrong with a damaged file. Until then `Game.openingName`, `Game.bookMove` and
/// the search's `useBook` answer nothing: the wasm modules leave the book out so that it is downloaded once.
#[wasm_bindgen(js_name = installBook)]
pub fn install_book(bytes: &[u8]) -> Result<(), JsError> {
    homeostat_engine::book::install(bytes).map_err(|message| JsError::new(&message))
}

/// Counts the leaf nodes of the legal move tree `depth` plies below `fen` (the start position when absent).
///
/// The count is returned as a JavaScript number, which is exact up to 2^53.
/// An unparsable FEN throws a JavaScript `Error` carrying the parser's message.
#[cfg(feature = "engine")]
#[wasm_bindgen]
pub fn perft(fen: Option<String>, depth: u32) -> Result<f64, JsError> {
    count_leaves(fen.as_deref(), depth).map(|nodes| nodes as f64).map_err(|message| JsError::new(&message))
}

/// Parses `fen` (or takes the start position) and runs perft; errors are the FEN parser's message.
#[cfg(feature = "engine")]
fn count_leaves(fen: Option<&str>, depth: u32) -> Result<u64, String> {
    use homeostat_chess::Board;
    let board = match fen {
        None => Board::startpos(),
        Some(fen) => Board::from_fen(fen).map_err(|err| err.to_string())?,
    };
    Ok(homeostat_chess::perft(&board, depth))
}

#[cfg(all(test, feature = "engine"))]
mod tests {
    use super::count_leaves;

    #[test]
    fn start_position_is_the_default() {
        assert_eq!(count_leaves(None, 3), Ok(8902));
    }

    #[test]
    fn fen_is_parsed() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(count_leaves(Some(kiwipete), 2), Ok(2039));
    }

    #[test]
    fn bad_fen_is_an_error() {
        assert!(count_leaves(Some("not a position"), 1).is_err());
    }
}
