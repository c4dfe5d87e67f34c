//! The `Searcher` class for the engine's Web Worker: runs one search at a time and passes its
//! progress to a JavaScript callback as plain objects.

use crate::events::{book_result_js, event_js, result_js};
use crate::js::{clock, to_js};
use crate::request::{position, unknown_field, SearchRequest, Value};
use crate::text::parse_color;
use homeostat_chess::Color;
use homeostat_engine::nnue::Network;
use homeostat_engine::{book, Engine, Event, Purpose, DEFAULT_HASH_MB};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// The engine, kept across searches so its tables and time average carry over within a game.
#[wasm_bindgen]
pub struct Searcher {
    engine: Engine,
    /// Varies the book choice between searches when the request gives no seed.
    searches: u64,
    /// Whether a net was given (`setNet`): searches at levels 3-8 then evaluate with it.
    has_net: bool,
}

#[wasm_bindgen]
impl Searcher {
    /// An engine with a hash table of `hash_mb` megabytes (16 when absent; 1 to 256).
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: Option<u32>) -> Searcher {
        let hash_mb = hash_mb.map_or(DEFAULT_HASH_MB, |mb| mb.clamp(1, 256) as usize);
        Searcher { engine: Engine::new(hash_mb), searches: 0, has_net: false }
    }

    /// Gives the engine its neural net (the bytes of a net file): from now on searches at the
    /// levels that use one (3 to 8, [`Level::uses_net`](homeostat_engine::Level::uses_net)) evaluate
    /// with it, as the native engine does. Throws an Error saying what is wrong with bytes that are
    /// no net, and keeps the evaluation it had.
    #[wasm_bindgen(js_name = setNet)]
    pub fn set_net(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let net = Network::from_bytes(bytes).map_err(|e| JsError::new(&e))?;
        self.engine.set_network(Some(Arc::new(net)));
        self.has_net = true;
        Ok(())
    }

    /// Whether a net was given (`setNet` succeeded), which searches at levels 3-8 evaluate with.
    #[wasm_bindgen(getter, js_name = hasNet)]
    pub fn has_net(&self) -> bool {
        self.has_net
    }

    /// Searches `request` (`{fen?, moves?, level?, movetimeMs?, depth?, nodes?, thinkMinMs?,
    /// thinkMaxMs?, useBook?, seed?, purpose?, multipv?}`), calling `on_event` with each `root` and
    /// `iteration` event; returns `{best, bestSan, ponder, score, scoreWhite, resign, offerDraw,
    /// depth, nodes, elapsedMs, pvUci, book}`. `purpose` is `"play"` (the default: the engine's
    /// move, which may resign or offer a draw), `"hint"` or `"analyse"` (the best move within the
    /// level's caps; the engine's game state is left alone). With no limit, level 8 thinks for
    /// `levelThinkMs(8)`. A malformed request throws an Error saying what is wrong.
    pub fn search(&mut self, request: JsValue, on_event: &js_sys::Function) -> Result<JsValue, JsError> {
        let object = request
            .dyn_ref::<js_sys::Object>()
            .filter(|_| !js_sys::Array::is_array(&request))
            .ok_or_else(|| JsError::new("bad search request: it must be an object"))?;
        let keys: Vec<String> = js_sys::Object::keys(object).iter().filter_map(|k| k.as_string()).collect();
        if let Some(message) = unknown_field(keys.iter().map(String::as_str)) {
            return Err(JsError::new(&format!("bad search request: {message}")));
        }
        let request =
            SearchRequest::from_fields(|name| value(&js_sys::Reflect::get(object, &name.into()).unwrap_or_default()))
                .map_err(|e| JsError::new(&format!("bad search request: {e}")))?;
        let prepared = request.prepare().map_err(|e| JsError::new(&format!("bad search request: {e}")))?;
        self.searches += 1;
        let seed = prepared.seed.unwrap_or_else(|| self.searches ^ js_sys::Date::now() as u64);
        if prepared.use_book {
            if let Some(m) = book::book_move(&prepared.board, seed) {
                return Ok(to_js(&book_result_js(&prepared.board, m)));
            }
        }
        self.engine.set_level(prepared.level);
        self.engine.set_use_nnue(self.has_net && prepared.level.uses_net());
        self.engine.set_purpose(prepared.purpose);
        if let (Some(seed), Purpose::Play) = (prepared.seed, prepared.purpose) {
            // Only the engine's own moves draw from the level's random sequence.
            self.engine.set_seed(seed);
        }
        let stop = AtomicBool::new(false);
        let now = clock();
        let mut report = |event: &Event| {
            if let Some(js) = event_js(event) {
                // A throwing callback must not end the search: its error is dropped.
                let _ = on_event.call1(&JsValue::NULL, &to_js(&js));
            }
        };
        let result = self.engine.search(&prepared.board, &prepared.history, &prepared.limits, &now, &stop, &mut report);
        Ok(to_js(&result_js(&prepared.board, &result)))
    }

    /// Forgets the previous game (hash table, histories, time average, resign streak).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Whether the engine, playing `engine_color` (`"w"` or `"b"`), accepts a draw offer in the
    /// position after `moves` from `fen` (the start when absent), judged by a short search from its
    /// own side whoever is to move. It leaves the resignation streak alone; throws for a bad
    /// position or a missing or bad colour.
    #[wasm_bindgen(js_name = acceptsDraw)]
    pub fn accepts_draw(
        &mut self,
        fen: Option<String>,
        moves: Vec<String>,
        engine_color: Option<String>,
    ) -> Result<bool, JsError> {
        let side = draw_offer_side(engine_color.as_deref()).map_err(|e| JsError::new(&e))?;
        let (board, history) = position(fen.as_deref(), &moves).map_err(|e| JsError::new(&e))?;
        let stop = AtomicBool::new(false);
        let now = clock();
        Ok(self.engine.accepts_draw_offer(&board, &history, side, &now, &stop))
    }
}

/// The engine's colour for `acceptsDraw`, which must be given.
fn draw_offer_side(color: Option<&str>) -> Result<Color, String> {
    let color = color.ok_or("acceptsDraw(fen, moves, engineColor): give the engine's colour, 'w' or 'b'")?;
    parse_color(color).map_err(|e| format!("acceptsDraw: {e}"))
}

/// A request field's JavaScript value in the form [`SearchRequest::from_fields`] reads.
fn value(v: &JsValue) -> Value {
    if v.is_undefined() || v.is_null() {
        Value::Absent
    } else if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = v.as_f64() {
        Value::Number(n)
    } else if let Some(s) = v.as_string() {
        Value::Text(s)
    } else if js_sys::Array::is_array(v) {
        Value::List(js_sys::Array::from(v).iter().map(|item| value(&item)).collect())
    } else {
        Value::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_colour_is_required() {
        assert_eq!(draw_offer_side(Some("b")), Ok(Color::Black));
        assert_eq!(draw_offer_side(Some("white")), Ok(Color::White));
        assert!(draw_offer_side(None).unwrap_err().contains("engine's colour"));
        assert!(draw_offer_side(Some("x")).unwrap_err().contains("not a colour"));
    }
}
