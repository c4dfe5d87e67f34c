//! The `Game` class for the page's main thread: a game of chess with legal moves, undo and
//! redo, outcomes, PGN, opening names and book moves. Every refusal is a JavaScript `Error`.

use crate::annotations::{annotation_from_text, annotations_js};
use crate::js::ToJs;
use crate::session::Session;
use wasm_bindgen::prelude::*;

/// A game of chess, driven from JavaScript.
#[wasm_bindgen(js_name = Game)]
pub struct WebGame {
    session: Session,
}

#[wasm_bindgen(js_class = Game)]
impl WebGame {
    /// A game from `fen`, or the standard start; a bad FEN throws an Error with the reason.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<WebGame, JsError> {
        Session::new(fen.as_deref()).map(|session| WebGame { session }).map_err(|e| JsError::new(&e))
    }

    /// The game of `moves` (UCI or SAN) from `startFen` (the standard start when absent), replayed as a
    /// saved or recorded game is: it goes on past a draw nobody claimed (where `play` would have claimed
    /// it), and `result` ("1-0", "0-1", "1/2-1/2"), when given, ends it unless its final position already
    /// does. `source`, the PGN a saved game was loaded from (`sourcePgn()`), brings back its tags and
    /// annotations. Throws an Error naming the move, result or PGN that cannot be used.
    pub fn replay(
        start_fen: Option<String>,
        moves: Vec<String>,
        result: Option<String>,
        source: Option<String>,
    ) -> Result<WebGame, JsError> {
        Session::replay(start_fen.as_deref(), &moves, result.as_deref(), source.as_deref())
            .map(|session| WebGame { session })
            .map_err(|e| JsError::new(&e))
    }

    /// The value of tag `name` (such as `White`) in the PGN this game was loaded from; undefined when
    /// it has none or the game was not loaded from a PGN.
    pub fn tag(&self, name: &str) -> Option<String> {
        self.session.loaded_tag(name).map(String::from)
    }

    /// The PGN this game was loaded from (its tags, moves and annotations, as read), for a saved copy
    /// of the game to keep them (see `replay`); undefined for a game not loaded from a PGN.
    #[wasm_bindgen(js_name = sourcePgn)]
    pub fn source_pgn(&self) -> Option<String> {
        self.session.source_pgn()
    }

    /// How many side lines of the PGN text this game was loaded from were not kept: variations after a
    /// move's first, variations inside variations, and comments inside variations (the game keeps one
    /// line of moves per move); 0 for a game not loaded from a PGN.
    #[wasm_bindgen(js_name = unkeptLines)]
    pub fn unkept_lines(&self) -> usize {
        self.session.unkept()
    }

    /// Reads a FEN or a PGN text into a new Game: its game `index` (from 0; the first when absent); throws an
    /// Error with the reason.
    pub fn load(text: &str, index: Option<usize>) -> Result<WebGame, JsError> {
        Session::load_game(text, index.unwrap_or(0)).map(|session| WebGame { session }).map_err(|e| JsError::new(&e))
    }

    /// The games of a PGN text, for a person to choose one: `[{white, black, event, date, result, plies,
    /// error}]` (names, event and date absent when the PGN has none; `error` says why a game cannot be read);
    /// empty for a FEN.
    #[wasm_bindgen(js_name = pgnGames)]
    pub fn pgn_games(text: &str) -> JsValue {
        Session::game_list(text).to_js()
    }

    /// The current position in FEN.
    pub fn fen(&self) -> String {
        self.session.board().to_fen()
    }

    /// The start position in FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.session.game().start().to_fen()
    }

    /// The position after `ply` moves in FEN, or undefined.
    #[wasm_bindgen(js_name = fenAt)]
    pub fn fen_at(&self, ply: usize) -> Option<String> {
        self.session.board_at(ply).map(|b| b.to_fen())
    }

    /// The side to move: "w" or "b".
    pub fn turn(&self) -> String {
        self.session.board().side_to_move().to_char().to_string()
    }

    /// The 64 squares from a1, b1, … to h8: a FEN piece letter ("P", "k", …) or "" when empty.
    pub fn board(&self) -> Vec<String> {
        squares(self.session.board())
    }

    /// The squares after `ply` moves, as for `board()`, or undefined.
    #[wasm_bindgen(js_name = boardAt)]
    pub fn board_at(&self, ply: usize) -> Option<Vec<String>> {
        self.session.board_at(ply).map(squares)
    }

    /// The legal moves of the piece on `square` ("e2"): `[{uci, san, from, to, kind, promotion?, capture}]`.
    #[wasm_bindgen(js_name = legalMovesFrom)]
    pub fn legal_moves_from(&self, square: &str) -> JsValue {
        self.session.legal_moves_from(square).to_js()
    }

    /// Every legal move, as for `legalMovesFrom`.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> JsValue {
        self.session.legal_moves().to_js()
    }

    /// Plays a move in UCI or SAN: `{uci, san, from, to, kind, capture, fen, check, mate, outcome}`.
    pub fn play(&mut self, text: &str) -> Result<JsValue, JsError> {
        self.session.play(text).map(|played| played.to_js()).map_err(|e| JsError::new(&e))
    }

    /// Takes back the last move; returns it in UCI, or undefined when there is none.
    pub fn undo(&mut self) -> Option<String> {
        self.session.undo()
    }

    /// Plays again the last move taken back (as `play` returns it), or null.
    pub fn redo(&mut self) -> JsValue {
        self.session.redo().map_or(JsValue::NULL, |played| played.to_js())
    }

    /// How many moves `redo` can replay.
    #[wasm_bindgen(js_name = redoCount)]
    pub fn redo_count(&self) -> usize {
        self.session.redo_count()
    }

    /// How many moves (plies) have been played.
    pub fn ply(&self) -> usize {
        self.session.game().len()
    }

    /// The moves in SAN.
    #[wasm_bindgen(js_name = historySan)]
    pub fn history_san(&self) -> Vec<String> {
        self.session.history_san()
    }

    /// The moves in UCI.
    #[wasm_bindgen(js_name = historyUci)]
    pub fn history_uci(&self) -> Vec<String> {
        self.session.history_uci()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.session.board().in_check()
    }

    /// The square of the king in check ("e1"), or undefined.
    #[wasm_bindgen(js_name = checkSquare)]
    pub fn check_square(&self) -> Option<String> {
        self.session.check_square()
    }

    /// The last move's squares `{from, to}`, or null before the first move.
    #[wasm_bindgen(js_name = lastMove)]
    pub fn last_move(&self) -> JsValue {
        self.session.last_move_at(self.session.game().len()).to_js()
    }

    /// The squares `{from, to}` of the move that led to the position after `ply` moves, or null.
    #[wasm_bindgen(js_name = lastMoveAt)]
    pub fn last_move_at(&self, ply: usize) -> JsValue {
        self.session.last_move_at(ply).to_js()
    }

    /// How the game ended, `{result, reason, winner, text}`, or null while it goes on.
    pub fn outcome(&self) -> JsValue {
        self.session.outcome().to_js()
    }

    /// `color` ("w" or "b") resigns; returns the outcome, or throws if the game is already over.
    pub fn resign(&mut self, color: &str) -> Result<JsValue, JsError> {
        self.session.resign(color).map(|o| o.to_js()).map_err(|e| JsError::new(&e))
    }

    /// `color` ("w" or "b") ran out of time: returns the outcome (a loss, or a draw when the
    /// opponent cannot mate; reason "time"), or throws if the game is already over.
    pub fn flag(&mut self, color: &str) -> Result<JsValue, JsError> {
        self.session.flag(color).map(|o| o.to_js()).map_err(|e| JsError::new(&e))
    }

    /// Ends the game as an agreed draw; returns the outcome, or throws if it is already over.
    #[wasm_bindgen(js_name = agreeDraw)]
    pub fn agree_draw(&mut self) -> Result<JsValue, JsError> {
        self.session.agree_draw().map(|o| o.to_js()).map_err(|e| JsError::new(&e))
    }

    /// The game in PGN; `tags` is an object such as `{White: "You", Black: "Homeostat"}`. A game loaded
    /// from a PGN keeps that PGN's tags (`tags` fills in those it lacks) and its annotations of the
    /// moves still played as recorded.
    pub fn pgn(&self, tags: JsValue) -> Result<String, JsError> {
        Ok(self.session.pgn(&tag_list(tags)?))
    }

    /// The annotations of the PGN this game was loaded from: `[{ply, nags, comment, eval, arrows,
    /// circles, variation, variationSan}]`, one per annotated move still played as recorded (`eval` is
    /// White's view).
    pub fn annotations(&self) -> JsValue {
        annotations_js(self.session.game(), &self.session.loaded_annotations()).to_js()
    }

    /// The game in PGN with `annotations`, each `"<ply> <PGN annotation>"` such as
    /// `"12 $4 {[%eval -3.10] [%cal Gd8e7]} (Qe7 Nxf7)"`: NAGs, comments with `[%eval]`,
    /// `[%cal]`/`[%csl]`, and the variation from the position before that move (SAN or UCI).
    /// Over a game loaded from an annotated PGN, these are said over its annotations: their marks,
    /// evaluations and variations replace the loaded ones where given, and they hold every drawing
    /// (a loaded drawing they leave out is left out); the loaded words and other NAGs stay.
    /// Throws an Error naming the ply and what is wrong.
    #[wasm_bindgen(js_name = annotatedPgn)]
    pub fn annotated_pgn(&self, tags: JsValue, annotations: Vec<String>) -> Result<String, JsError> {
        let mut checked = Vec::with_capacity(annotations.len());
        for text in &annotations {
            checked.push(annotation_from_text(self.session.game(), text).map_err(|e| JsError::new(&e))?);
        }
        Ok(self.session.annotated_pgn(&tag_list(tags)?, &checked))
    }
}

/// PGN tags from an object such as `{White: "You"}` (none for undefined or null).
fn tag_list(tags: JsValue) -> Result<Vec<(String, String)>, JsError> {
    let mut list = Vec::new();
    if !tags.is_undefined() && !tags.is_null() {
        let object = tags.dyn_into::<js_sys::Object>().map_err(|_| JsError::new("PGN tags must be an object"))?;
        for entry in js_sys::Object::entries(&object).iter() {
            let pair = js_sys::Array::from(&entry);
            let name = pair.get(0).as_string().unwrap_or_default();
            let value = pair.get(1);
            // A number is written as JavaScript writes it (`String(n)`), which also keeps Rust's float formatting
            // out of the page's module.
            let text = match value.as_f64() {
                Some(_) => js_sys::Number::unchecked_from_js(value).to_string_with_radix(10).ok().map(String::from),
                None => value.as_string(),
            };
            let Some(value) = text else {
                return Err(JsError::new(&format!("PGN tag {name} must be a string")));
            };
            list.push((name, value));
        }
    }
    Ok(list)
}

#[wasm_bindgen(js_class = Game)]
impl WebGame {
    /// The named opening of the game so far, `{eco, name}`, or null.
    #[wasm_bindgen(js_name = openingName)]
    pub fn opening_name(&self) -> JsValue {
        match self.session.opening() {
            Some(o) => crate::session::OpeningInfo { eco: o.eco, name: o.name }.to_js(),
            None => JsValue::NULL,
        }
    }

    /// A book move in UCI for the current position, chosen at random by `seed` (any number,
    /// such as `Math.random()`), or undefined.
    #[wasm_bindgen(js_name = bookMove)]
    pub fn book_move(&self, seed: f64) -> Option<String> {
        self.session.book_move(seed.to_bits())
    }
}

/// The board as 64 piece letters from a1.
fn squares(board: &homeostat_chess::Board) -> Vec<String> {
    homeostat_chess::Square::all()
        .map(|sq| board.piece_on(sq).map(|p| p.to_char().to_string()).unwrap_or_default())
        .collect()
}
