//! WebAssembly bindings for Homeostat's checkers (English draughts).
//!
//! Built for `wasm32-unknown-unknown` and post-processed with `wasm-bindgen --target web` into
//! `www/pkg-checkers/`, a module of its own so that chess pages never load it. The page's main
//! thread uses [`CheckersGame`] (`Game` in JavaScript); the engine's worker uses
//! [`CheckersSearcher`] (`Searcher`). The rules and search live in `homeostat-checkers`: no
//! checkers logic is written here.

pub mod request;
pub mod session;

use homeostat_checkers::{Engine, Event, Position, DEFAULT_HASH_MB};
use request::{event_js, result_js, SearchRequest};
use serde::Serialize;
use session::Session;
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::*;

/// Installs the panic hook so that Rust panics show up in the browser console.
#[wasm_bindgen(start)]
pub fn init() {
    console_error_panic_hook::set_once();
}

/// Serialises `value` to a plain JavaScript object (`None` becomes `null`).
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true).serialize_maps_as_objects(true);
    // The records hold only strings, numbers, booleans, arrays and options: this cannot fail.
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

/// Milliseconds from `performance.now()` where the global scope has it, else `Date.now()`.
fn now() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| {
            let f = js_sys::Reflect::get(&p, &JsValue::from_str("now")).ok()?;
            f.dyn_into::<js_sys::Function>().ok()?.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// Checks that `request` is a plain object whose every field is a request field of the right
/// JavaScript type (`null` and `undefined` stand for absent), naming the first that is not.
fn check_fields(request: &JsValue) -> Result<(), String> {
    if !request.is_object() || js_sys::Array::is_array(request) {
        return Err(format!("it must be an object, not {}", js_kind(request)));
    }
    let object: &js_sys::Object = request.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let name = key.as_string().unwrap_or_default();
        let want = request::field_kind(&name).ok_or_else(|| request::unknown_field(&name))?;
        let value = js_sys::Reflect::get(request, &key).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            continue;
        }
        // The kind in words, from `field_kind`, picks the check: one table of fields, in request.rs.
        let fits = match want {
            "a string" => value.is_string(),
            "an array of strings" if js_sys::Array::is_array(&value) => {
                let items = js_sys::Array::from(&value);
                if let Some(i) = items.iter().position(|m| !m.is_string()) {
                    return Err(format!("{name}[{i}] must be a string, not {}", js_kind(&items.get(i as u32))));
                }
                true
            }
            "an array of strings" => false,
            _ => value.as_f64().is_some(),
        };
        if !fits {
            return Err(format!("{name} must be {want}, not {}", js_kind(&value)));
        }
    }
    Ok(())
}

/// What a JavaScript value is, in words, for error messages.
fn js_kind(value: &JsValue) -> &'static str {
    if value.is_string() {
        "a string"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if js_sys::Array::is_array(value) {
        "an array"
    } else if value.is_null() {
        "null"
    } else if value.is_undefined() {
        "undefined"
    } else {
        "an object"
    }
}

/// A checkers game for the page: legal moves, play by PDN, undo/redo, FEN and PDN, outcome.
#[wasm_bindgen(js_name = Game)]
pub struct CheckersGame {
    session: Session,
}

#[wasm_bindgen(js_class = Game)]
impl CheckersGame {
    /// A game from `fen` (PDN FEN), or the start position; a bad FEN throws an Error saying why.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<CheckersGame, JsError> {
        Session::new(fen.as_deref()).map(|session| CheckersGame { session }).map_err(|e| JsError::new(&e))
    }

    /// A game read from PDN; bad PDN throws an Error naming the move that failed.
    #[wasm_bindgen(js_name = fromPdn)]
    pub fn from_pdn(text: &str) -> Result<CheckersGame, JsError> {
        Session::from_pdn(text).map(|session| CheckersGame { session }).map_err(|e| JsError::new(&e))
    }

    /// The current position as PDN FEN.
    pub fn fen(&self) -> String {
        self.session.fen()
    }

    /// The start position as PDN FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.session.start_fen()
    }

    /// `"b"` or `"w"`: whose move it is.
    pub fn turn(&self) -> String {
        self.session.turn().to_string()
    }

    /// The 32 dark squares (index 0 is square 1): `""`, `"b"`, `"w"` men, `"B"`, `"W"` kings.
    pub fn board(&self) -> JsValue {
        to_js(&self.session.board())
    }

    /// The legal moves: `[{text, from, to, path, captured, capture}]` (none once the game is over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> JsValue {
        to_js(&self.session.legal_moves())
    }

    /// Squares of the pieces that must capture now (empty when no capture is on).
    #[wasm_bindgen(js_name = capturingSquares)]
    pub fn capturing_squares(&self) -> Vec<u8> {
        self.session.capturing_squares()
    }

    /// Plays a move in PDN; returns `{text, from, to, path, captured, capture, crowned, fen,
    /// outcome}`, or throws an Error saying why it is not playable (the game is unchanged).
    pub fn play(&mut self, text: &str) -> Result<JsValue, JsError> {
        self.session.play(text).map(|played| to_js(&played)).map_err(|e| JsError::new(&e))
    }

    /// Takes back the last move; returns it, or null at the start.
    pub fn undo(&mut self) -> JsValue {
        to_js(&self.session.undo())
    }

    /// Plays again the last move taken back; returns it, or null.
    pub fn redo(&mut self) -> JsValue {
        to_js(&self.session.redo())
    }

    /// Whether `redo` has a move to play again.
    #[wasm_bindgen(js_name = canRedo)]
    pub fn can_redo(&self) -> bool {
        self.session.can_redo()
    }

    /// The moves played, in PDN.
    pub fn moves(&self) -> Vec<String> {
        self.session.moves()
    }

    /// The number of moves played (plies).
    pub fn ply(&self) -> usize {
        self.session.game().moves().len()
    }

    /// The last move played as `{text, from, to, path, captured, capture}`, or null.
    #[wasm_bindgen(js_name = lastMove)]
    pub fn last_move(&self) -> JsValue {
        to_js(&self.session.last_move())
    }

    /// `{result, reason, winner, text}` once the game is over, else null.
    pub fn outcome(&self) -> JsValue {
        to_js(&self.session.outcome())
    }

    /// The game as PDN text.
    pub fn pdn(&self) -> String {
        self.session.pdn()
    }
}

/// The engine for the worker, kept across searches so its tables carry over within a game.
#[wasm_bindgen(js_name = Searcher)]
pub struct CheckersSearcher {
    engine: Engine,
    searches: u64,
}

#[wasm_bindgen(js_class = Searcher)]
impl CheckersSearcher {
    /// An engine with a hash table of `hash_mb` megabytes (16 when absent; 1 to 256).
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: Option<u32>) -> CheckersSearcher {
        let hash_mb = hash_mb.map_or(DEFAULT_HASH_MB, |mb| mb.clamp(1, 256) as usize);
        CheckersSearcher { engine: Engine::new(hash_mb), searches: 0 }
    }

    /// Searches `request` (`{fen?, moves?, level?, movetimeMs?, depth?, nodes?, seed?}`), calling
    /// `on_event` with each `root` and `iteration` event; returns `{best, score, depth, nodes,
    /// elapsedMs, pv, forced}`. Level 8 with no limit thinks for 3 s. A bad request throws.
    pub fn search(&mut self, request: JsValue, on_event: &js_sys::Function) -> Result<JsValue, JsError> {
        check_fields(&request).map_err(|e| JsError::new(&format!("bad search request: {e}")))?;
        let request: SearchRequest = serde_wasm_bindgen::from_value(request).map_err(|e| {
            let message = e.to_string();
            JsError::new(&format!("bad search request: {}", message.strip_prefix("Error: ").unwrap_or(&message)))
        })?;
        let prepared = request.prepare().map_err(|e| JsError::new(&format!("bad search request: {e}")))?;
        self.searches += 1;
        let seed = prepared.seed.unwrap_or_else(|| self.searches ^ js_sys::Date::now() as u64);
        self.engine.set_level(prepared.level);
        self.engine.set_seed(seed);
        let stop = AtomicBool::new(false);
        let mut report = |event: &Event| {
            if let Some(js) = event_js(event) {
                // A throwing callback must not end the search: its error is dropped.
                let _ = on_event.call1(&JsValue::NULL, &to_js(&js));
            }
        };
        let result =
            self.engine.search(&prepared.position, &prepared.history, &prepared.limits, &now, &stop, &mut report);
        Ok(to_js(&result_js(&prepared.position, &result)))
    }

    /// Forgets the previous game (hash table and history).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }
}

/// Counts the leaf nodes `depth` plies below `fen` (the start when absent); a bad FEN throws.
#[wasm_bindgen]
pub fn perft(fen: Option<String>, depth: u32) -> Result<f64, JsError> {
    let pos = match fen.as_deref().map(str::trim) {
        None | Some("") => Position::start(),
        Some(fen) => Position::from_fen(fen).map_err(|e| JsError::new(&format!("bad FEN: {e}")))?,
    };
    Ok(homeostat_checkers::perft(&pos, depth.min(20)) as f64)
}
