//! The game the page plays: the rules core's [`Game`] (with its redo stack, and draws claimed
//! automatically) and the plain records the bindings hand out, with their JavaScript form.

use crate::js::{Object, ToJs};
use crate::text::parse_color;
use homeostat_chess::annotation::Annotation;
use homeostat_chess::pgn::{self, PgnGame};
use homeostat_chess::{Board, Color, EndReason, Game, GameResult, Move, Outcome, PieceKind, Square};
use homeostat_engine::book::{self, Opening};
use wasm_bindgen::JsValue;

/// A legal move as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// UCI form, such as `e7e8q`.
    pub uci: String,
    /// SAN form, such as `e8=Q+`.
    pub san: String,
    /// Square the piece leaves.
    pub from: String,
    /// Square the piece reaches.
    pub to: String,
    /// `quiet`, `capture`, `castle`, `promotion` or `en-passant`.
    pub kind: &'static str,
    /// The piece promoted to (`q`, `r`, `b`, `n`), for promotions (the field is absent otherwise).
    pub promotion: Option<char>,
    /// Whether the move captures (en passant and capturing promotions included).
    pub capture: bool,
}

/// A move just played and what it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move (its fields are the record's own).
    pub info: MoveInfo,
    /// The position after it.
    pub fen: String,
    /// Whether it gives check.
    pub check: bool,
    /// Whether it mates.
    pub mate: bool,
    /// How the game ended, if it did.
    pub outcome: Option<OutcomeInfo>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeInfo {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why, such as `checkmate` or `threefold repetition`.
    pub reason: &'static str,
    /// `w`, `b`, or null for a draw.
    pub winner: Option<char>,
    /// A sentence such as `White wins by checkmate`.
    pub text: String,
}

/// The from and to squares of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares {
    /// Square the piece left.
    pub from: String,
    /// Square the piece reached.
    pub to: String,
}

impl MoveInfo {
    /// The record's fields, onto `object`.
    fn fields(&self, object: Object) -> Object {
        object
            .field("uci", &self.uci)
            .field("san", &self.san)
            .field("from", &self.from)
            .field("to", &self.to)
            .field("kind", self.kind)
            .optional("promotion", self.promotion.as_ref())
            .field("capture", &self.capture)
    }
}

impl ToJs for MoveInfo {
    fn to_js(&self) -> JsValue {
        self.fields(Object::new()).build()
    }
}

impl ToJs for Played {
    fn to_js(&self) -> JsValue {
        self.info
            .fields(Object::new())
            .field("fen", &self.fen)
            .field("check", &self.check)
            .field("mate", &self.mate)
            .field("outcome", &self.outcome)
            .build()
    }
}

impl ToJs for OutcomeInfo {
    fn to_js(&self) -> JsValue {
        Object::new()
            .field("result", self.result)
            .field("reason", self.reason)
            .field("winner", &self.winner)
            .field("text", &self.text)
            .build()
    }
}

impl ToJs for Squares {
    fn to_js(&self) -> JsValue {
        Object::new().field("from", &self.from).field("to", &self.to).build()
    }
}

impl ToJs for OpeningInfo {
    fn to_js(&self) -> JsValue {
        Object::new().field("eco", self.eco).field("name", self.name).build()
    }
}

/// One game of a PGN text, as a list to choose from shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// The White player, when the PGN names one.
    pub white: Option<String>,
    /// The Black player.
    pub black: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The date as the PGN writes it (`2024.03.??`).
    pub date: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// How many moves (plies) its main line has.
    pub plies: usize,
    /// Why the game cannot be read, for one that cannot.
    pub error: Option<String>,
}

impl ToJs for GameSummary {
    fn to_js(&self) -> JsValue {
        Object::new()
            .optional("white", self.white.as_ref())
            .optional("black", self.black.as_ref())
            .optional("event", self.event.as_ref())
            .optional("date", self.date.as_ref())
            .field("result", self.result)
            .field("plies", &self.plies)
            .optional("error", self.error.as_ref())
            .build()
    }
}

/// A game in progress with undo and redo.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    /// The PGN record the game was loaded from (its tags, moves and annotations), kept so that what
    /// it says goes with the game into its PGN and its saved copy.
    source: Option<PgnGame>,
}

impl Session {
    /// A game from `fen`, or from the start position.
    pub fn new(fen: Option<&str>) -> Result<Session, String> {
        Ok(Session::from_game(Game::new(start_board(fen)?)))
    }

    /// The game of `moves` (UCI or SAN) from `fen` (or the start position), replayed as a record is
    /// read: it goes on past a draw nobody claimed. `result` (`1-0`, `0-1`, `1/2-1/2`), when given,
    /// ends it for an unspecified reason unless the final position ends it already. `source`, a PGN
    /// game (as [`Session::source_pgn`] writes it), is the record the game was loaded from: its tags
    /// and annotations come back with it.
    pub fn replay(
        fen: Option<&str>,
        moves: &[String],
        result: Option<&str>,
        source: Option<&str>,
    ) -> Result<Session, String> {
        let mut game = Game::from_moves(start_board(fen)?, moves).map_err(|e| e.to_string())?;
        if let Some(text) = result {
            match GameResult::from_pgn(text.trim()) {
                Some(Some(result)) => game.record_result(result)?,
                _ => return Err(format!("'{text}' is not a result: expected 1-0, 0-1 or 1/2-1/2")),
            }
        }
        let source = match source {
            Some(text) => Some(pgn::read_game(text).map_err(|e| format!("the PGN the game was loaded from: {e}"))?),
            None => None,
        };
        Ok(Session { source, ..Session::from_game(game) })
    }

    /// A game from a FEN or a PGN text (its first game).
    pub fn load(text: &str) -> Result<Session, String> {
        Session::load_game(text, 0)
    }

    /// A game from a FEN, or game `index` (from 0) of a PGN text.
    pub fn load_game(text: &str, index: usize) -> Result<Session, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("nothing to load: paste a FEN or a PGN game".into());
        }
        let fen_error = match Board::from_fen(text) {
            Ok(board) => return Ok(Session::from_game(Game::new(board))),
            Err(e) => e.to_string(),
        };
        let record = match index {
            0 => pgn::read_game(text),
            _ => pgn::games(text).nth(index).ok_or_else(|| format!("there is no game {} in this PGN", index + 1))?,
        };
        let read = record.and_then(|record| Ok((Game::from_pgn_game(&record)?, record)));
        match read {
            Ok((game, record)) => Ok(Session { source: Some(record), ..Session::from_game(game) }),
            // Text that looks like a FEN (one line, slashes, no move numbers) gets the FEN error.
            Err(_) if !text.contains('\n') && text.matches('/').count() >= 7 && !text.contains('[') => Err(fen_error),
            Err(e) => Err(format!("not a valid FEN or PGN game: {e}")),
        }
    }

    /// A summary of each game in a PGN text, for a person to choose one (none for a FEN).
    pub fn game_list(text: &str) -> Vec<GameSummary> {
        if Board::from_fen(text.trim()).is_ok() {
            return Vec::new();
        }
        let summary = |read: Result<PgnGame, pgn::PgnError>| match read {
            Ok(record) => {
                let tag = |name| record.tag(name).filter(|v| !v.is_empty() && *v != "?").map(String::from);
                GameSummary {
                    white: tag("White"),
                    black: tag("Black"),
                    event: tag("Event"),
                    date: tag("Date"),
                    result: record.result.map_or("*", GameResult::to_pgn),
                    plies: record.moves.len(),
                    error: None,
                }
            }
            Err(e) => GameSummary { error: Some(e.to_string()), ..GameSummary::default() },
        };
        pgn::games(text).map(summary).collect()
    }

    /// The page ends a game as soon as a draw can be claimed, as a player who always claims would.
    fn from_game(mut game: Game) -> Session {
        game.set_automatic_claims(true);
        Session { game, source: None }
    }

    /// The rules core's game record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The position after `ply` moves, if there is one.
    pub fn board_at(&self, ply: usize) -> Option<&Board> {
        self.game.positions().get(ply)
    }

    /// The legal moves of the piece on `square` (`e2`); none for a bad square or a finished game.
    pub fn legal_moves_from(&self, square: &str) -> Vec<MoveInfo> {
        match Square::parse(square.trim()) {
            Some(sq) if self.outcome().is_none() => {
                let board = self.board();
                board.moves_from(sq).iter().map(|&m| move_info(board, m)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Every legal move; none once the game is over.
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let board = self.board();
        board.legal_moves().iter().map(|&m| move_info(board, m)).collect()
    }

    /// Plays a move in UCI or SAN; a draw that could be claimed ends the game at once.
    pub fn play(&mut self, text: &str) -> Result<Played, String> {
        let before = *self.board();
        let m = self.game.play_text(text).map_err(|e| e.to_string())?;
        Ok(self.after_move(&before, m))
    }

    fn after_move(&self, before: &Board, m: Move) -> Played {
        let board = self.board();
        Played {
            info: move_info(before, m),
            fen: board.to_fen(),
            check: board.in_check(),
            mate: board.is_checkmate(),
            outcome: self.outcome(),
        }
    }

    /// Takes back the last move (and any resignation or agreement); returns it in UCI.
    pub fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|m| m.to_string())
    }

    /// Plays again the last move taken back, if any.
    pub fn redo(&mut self) -> Option<Played> {
        let before = *self.board();
        let m = self.game.redo()?;
        Some(self.after_move(&before, m))
    }

    /// How many moves can be redone.
    pub fn redo_count(&self) -> usize {
        self.game.redo_moves().len()
    }

    /// The moves played in SAN.
    pub fn history_san(&self) -> Vec<String> {
        self.game.san_moves()
    }

    /// The moves played in UCI.
    pub fn history_uci(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The squares of the move that led to the position after `ply` moves.
    pub fn last_move_at(&self, ply: usize) -> Option<Squares> {
        let m = *self.game.moves().get(ply.checked_sub(1)?)?;
        Some(Squares { from: m.from().to_string(), to: m.to().to_string() })
    }

    /// The king's square when the side to move is in check.
    pub fn check_square(&self) -> Option<String> {
        let board = self.board();
        board.in_check().then(|| board.king(board.side_to_move()).to_string())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<OutcomeInfo> {
        self.game.outcome().map(outcome_info)
    }

    /// `color` (`w` or `b`) resigns.
    pub fn resign(&mut self, color: &str) -> Result<OutcomeInfo, String> {
        let side = parse_color(color)?;
        self.game.resign(side).map(outcome_info).map_err(over)
    }

    /// `color` (`w` or `b`) ran out of time: a loss, or a draw when the opponent cannot mate.
    pub fn flag(&mut self, color: &str) -> Result<OutcomeInfo, String> {
        let side = parse_color(color)?;
        self.game.flag(side).map(outcome_info).map_err(over)
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<OutcomeInfo, String> {
        self.game.agree_draw().map(outcome_info).map_err(over)
    }

    /// The game in PGN: the tags of the PGN it was loaded from, then those of `tags` that PGN lacks,
    /// and what that PGN says about the moves the game still shares with it.
    pub fn pgn(&self, tags: &[(String, String)]) -> String {
        self.record(tags).to_pgn()
    }

    /// The game as a PGN record with its loaded tags and annotations (see [`Session::pgn`]).
    fn record(&self, tags: &[(String, String)]) -> PgnGame {
        let mut record = self.game.to_pgn_game(&[]);
        if let Some(source) = &self.source {
            record.tags = source.tags.clone();
        }
        for (name, value) in tags {
            if record.tag(name).is_none() {
                record.set_tag(name, value);
            }
        }
        for (ply, a) in self.loaded_annotations() {
            *record.annotation_at(ply) = a.clone();
        }
        record
    }

    /// How many of the game's moves are still those of the PGN it was loaded from: its annotations
    /// hold up to there (none when the game was not loaded from a PGN, or starts elsewhere).
    fn shared_plies(&self) -> Option<usize> {
        let source = self.source.as_ref().filter(|s| s.start == *self.game.start())?;
        Some(source.moves.iter().zip(self.game.moves()).take_while(|(a, b)| a == b).count())
    }

    /// The annotations read with the game's PGN, by ply (0 is the start position's), for the moves
    /// the game still shares with that PGN: a move played instead of the recorded one leaves the
    /// record's words about the moves after it out.
    pub fn loaded_annotations(&self) -> Vec<(usize, &Annotation)> {
        let (Some(source), Some(shared)) = (&self.source, self.shared_plies()) else { return Vec::new() };
        let moves = source.annotations.iter().take(shared).enumerate().map(|(i, a)| (i + 1, a));
        std::iter::once((0, &source.preface)).chain(moves).filter(|(_, a)| !a.is_empty()).collect()
    }

    /// How many side lines of the PGN text the game was loaded from were read past and not kept
    /// (see [`PgnGame::unkept`]); 0 for a game not loaded from a PGN.
    pub fn unkept(&self) -> usize {
        self.source.as_ref().map_or(0, |s| s.unkept)
    }

    /// The value of tag `name` in the PGN the game was loaded from, if any.
    pub fn loaded_tag(&self, name: &str) -> Option<&str> {
        self.source.as_ref()?.tag(name)
    }

    /// The PGN record the game was loaded from (tags, moves, annotations), for a saved copy of the
    /// game to keep them ([`Session::replay`] reads it back); `None` for a game not loaded from a PGN.
    pub fn source_pgn(&self) -> Option<String> {
        self.source.as_ref().map(PgnGame::to_pgn)
    }

    /// The game in PGN (as [`Session::pgn`]) with the page's `annotations` (`(ply, annotation)`; ply 0
    /// is the comment before the first move) said over the loaded ones (see [`Annotation::overlaid`]):
    /// the page holds every drawing, so a loaded one it does not give is left out.
    pub fn annotated_pgn(&self, tags: &[(String, String)], annotations: &[(usize, Annotation)]) -> String {
        let mut record = self.record(tags);
        // The page's word by ply (the last where it gives two), nothing where it gives none.
        let plies = record.moves.len();
        let mut page = vec![Annotation::default(); plies + 1];
        for (ply, a) in annotations.iter().filter(|(ply, _)| *ply <= plies) {
            page[*ply] = a.clone();
        }
        for (ply, said) in page.iter().enumerate() {
            let a = record.annotation_at(ply);
            *a = a.overlaid(said);
        }
        record.to_pgn()
    }

    /// The named opening of the game so far.
    pub fn opening(&self) -> Option<Opening> {
        book::name_of(self.game.positions().iter())
    }

    /// A book move (UCI) for the current position, varied by `seed`.
    pub fn book_move(&self, seed: u64) -> Option<String> {
        if self.outcome().is_some() {
            return None;
        }
        book::book_move(self.board(), seed).map(|m| m.to_string())
    }
}

/// The position `fen` describes, or the start position when there is none.
fn start_board(fen: Option<&str>) -> Result<Board, String> {
    match fen.map(str::trim) {
        None | Some("") => Ok(Board::startpos()),
        Some(fen) => Board::from_fen(fen).map_err(|e| e.to_string()),
    }
}

/// Describes a legal move `m` of `board`.
pub fn move_info(board: &Board, m: Move) -> MoveInfo {
    let capture = board.is_capture(m);
    let kind = if m.promotion().is_some() {
        "promotion"
    } else if board.is_castling(m) {
        "castle"
    } else if board.is_en_passant(m) {
        "en-passant"
    } else if capture {
        "capture"
    } else {
        "quiet"
    };
    MoveInfo {
        uci: m.to_string(),
        san: board.san(m),
        from: m.from().to_string(),
        to: m.to().to_string(),
        kind,
        promotion: m.promotion().map(PieceKind::to_lower),
        capture,
    }
}

/// The record of an outcome.
pub fn outcome_info(outcome: Outcome) -> OutcomeInfo {
    let reason = match outcome.reason {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::InsufficientMaterial => "insufficient material",
        EndReason::FivefoldRepetition => "fivefold repetition",
        EndReason::SeventyFiveMoveRule => "seventy-five-move rule",
        EndReason::ThreefoldRepetition => "threefold repetition",
        EndReason::FiftyMoveRule => "fifty-move rule",
        EndReason::Resignation => "resignation",
        EndReason::Agreement => "agreement",
        EndReason::Timeout => "time",
        EndReason::Unspecified => "unspecified",
    };
    OutcomeInfo {
        result: outcome.result.to_pgn(),
        reason,
        winner: outcome.result.winner().map(Color::to_char),
        text: outcome.to_string(),
    }
}

fn over(existing: Outcome) -> String {
    format!("the game is already over ({existing})")
}

/// A named opening for JavaScript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningInfo {
    /// ECO code.
    pub eco: &'static str,
    /// Name.
    pub name: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(moves: &[&str]) -> Session {
        let mut s = Session::new(None).unwrap();
        for m in moves {
            s.play(m).unwrap();
        }
        s
    }

    #[test]
    fn move_kinds_and_promotions() {
        let s = Session::new(Some("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")).unwrap();
        let kind = |uci: &str| s.legal_moves().into_iter().find(|m| m.uci == uci).map(|m| (m.kind, m.capture));
        assert_eq!(kind("e1g1"), Some(("castle", false)));
        assert_eq!(kind("e5d6"), Some(("en-passant", true)));
        assert_eq!(kind("b7b8n"), Some(("promotion", false)));
        assert_eq!(kind("b7a8q"), Some(("promotion", true)));
        assert_eq!(kind("a1a8"), Some(("capture", true)));
        assert_eq!(kind("e1e2"), Some(("quiet", false)));
        let promotions: Vec<_> = s.legal_moves_from("b7").into_iter().filter_map(|m| m.promotion).collect();
        assert_eq!(promotions.len(), 8);
        assert!(s.legal_moves_from("z9").is_empty());
    }

    #[test]
    fn play_undo_redo() {
        let mut s = played(&["e4", "e7e5"]);
        assert_eq!(s.history_san(), ["e4", "e5"]);
        assert_eq!(s.undo().as_deref(), Some("e7e5"));
        assert_eq!(s.undo().as_deref(), Some("e2e4"));
        assert_eq!(s.undo(), None);
        assert_eq!(s.redo().unwrap().info.san, "e4");
        assert_eq!(s.redo_count(), 1);
        s.play("c5").unwrap();
        assert_eq!(s.redo_count(), 0);
        assert_eq!(s.last_move_at(2), Some(Squares { from: "c7".into(), to: "c5".into() }));
        assert_eq!(s.last_move_at(0), None);
    }

    #[test]
    fn illegal_moves_are_refused_with_a_message() {
        let mut s = played(&[]);
        let err = s.play("e2e5").unwrap_err();
        assert!(err.starts_with("illegal move: e2e5"), "{err}");
        assert!(s.play("hello").is_err());
        assert_eq!(s.game().len(), 0);
    }

    #[test]
    fn mate_ends_the_game() {
        let mut s = played(&["f3", "e5", "g4"]);
        let p = s.play("Qh4").unwrap();
        assert!(p.check && p.mate);
        let outcome = p.outcome.unwrap();
        assert_eq!((outcome.result, outcome.reason, outcome.winner), ("0-1", "checkmate", Some('b')));
        assert_eq!(s.check_square().as_deref(), Some("e1"));
        assert!(s.play("a3").is_err());
        assert!(s.legal_moves().is_empty());
    }

    #[test]
    fn threefold_repetition_ends_the_game_at_once() {
        let mut s = played(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
        assert_eq!(s.outcome(), None);
        let p = s.play("Ng8").unwrap();
        assert_eq!(p.outcome.map(|o| o.reason), Some("threefold repetition"));
        s.undo();
        assert_eq!(s.outcome(), None);
    }

    #[test]
    fn fifty_moves_end_the_game() {
        let mut s = Session::new(Some("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")).unwrap();
        let p = s.play("Ra2").unwrap();
        assert_eq!(p.outcome.map(|o| (o.result, o.reason)), Some(("1/2-1/2", "fifty-move rule")));
    }

    #[test]
    fn a_flag_ends_the_game_on_time() {
        let mut s = played(&["e4"]);
        let o = s.flag("b").unwrap();
        assert_eq!((o.result, o.reason, o.winner), ("1-0", "time", Some('w')));
        assert!(s.flag("w").unwrap_err().contains("already over"));
        let mut s = Session::new(Some("3qk3/8/8/8/8/8/8/1N2K3 b - - 0 1")).unwrap();
        assert_eq!(s.flag("b").unwrap().result, "1/2-1/2");
    }

    #[test]
    fn resignation_and_agreement() {
        let mut s = played(&["e4"]);
        assert_eq!(s.resign("w").unwrap().result, "0-1");
        assert!(s.agree_draw().unwrap_err().contains("already over"));
        assert!(s.resign("x").is_err());
        s.undo();
        assert_eq!(s.agree_draw().unwrap().reason, "agreement");
    }

    #[test]
    fn load_fen_or_pgn_and_round_trip() {
        let s = played(&["e4", "c5", "Nf3", "d6"]);
        let text = s.pgn(&[("White".into(), "You".into())]);
        let back = Session::load(&text).unwrap();
        assert_eq!(back.history_san(), s.history_san());
        assert!(text.contains("[White \"You\"]"));
        let fen = Session::load("8/8/4k3/8/8/4K3/8/R7 b - - 3 40").unwrap();
        assert_eq!(fen.board().to_fen(), "8/8/4k3/8/8/4K3/8/R7 b - - 3 40");
        let err = Session::load("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(!err.is_empty());
        assert!(Session::load("").unwrap_err().contains("nothing"));
        assert!(Session::load("1. e4 e5 2. Ke3").unwrap_err().contains("PGN"));
        assert!(Session::new(Some("rnbqkbnr/pppppppp/8 w")).is_err());
    }

    #[test]
    fn a_loaded_game_replays_from_its_start_moves_and_result() {
        // The repetition at ply 8 was not claimed in the record; the page's play() would have claimed it.
        let dance = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5";
        let loaded = Session::load(&format!("{dance} 1-0")).unwrap();
        let uci = loaded.history_uci();
        let start = loaded.game().start().to_fen();
        let back = Session::replay(Some(&start), &uci, Some("1-0"), None).unwrap();
        assert_eq!((back.history_san(), back.outcome()), (loaded.history_san(), loaded.outcome()));
        assert_eq!(back.outcome().map(|o| o.reason), Some("unspecified"));
        let open = Session::replay(None, &uci, None, None).unwrap();
        assert_eq!((open.game().len(), open.outcome()), (10, None));
        assert!(Session::replay(None, &uci, Some("2-0"), None).unwrap_err().contains("'2-0' is not a result"));
        assert!(Session::replay(None, &["e4".into(), "e4".into()], None, None).unwrap_err().contains("e4"));
        assert!(Session::replay(Some("8/8"), &[], None, None).is_err());
        let bad = Session::replay(None, &uci, None, Some("1. e4 e4")).unwrap_err();
        assert!(bad.starts_with("the PGN the game was loaded from: "), "{bad}");
    }

    #[test]
    fn drawings_on_the_start_position_are_exported_and_read_back() {
        let s = played(&["e4", "e5"]);
        let start = pgn::read_annotation(&Board::startpos(), "{[%cal Ge2e4]}").unwrap();
        let second = pgn::read_annotation(s.game().board(), "{[%csl Re5]}").unwrap();
        let text = s.annotated_pgn(&[], &[(0, start.clone()), (2, second.clone())]);
        assert!(text.contains("{[%cal Ge2e4]} 1. e4 e5 {[%csl Re5]}"), "{text}");
        let back = Session::load(&text).unwrap();
        assert_eq!(back.loaded_annotations(), [(0, &start), (2, &second)]);
    }

    const ANNOTATED: &str =
        "[Event \"Wijk aan Zee\"]\n[White \"Kasparov\"]\n[Black \"Topalov\"]\n[Annotator \"A. Reader\"]\n\n\
        {A famous game.} 1. e4 d6 {[%csl Gd6] The Pirc.} 2. d4 $1 Nf6 3. Nc3 g6 {[%cal Gf8g7]} 4. Be3 Bg7 $14 \
        (4... c6) 5. Qd2 *";

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|&(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_loaded_game_keeps_its_tags_and_annotations_in_its_pgn() {
        let s = Session::load(ANNOTATED).unwrap();
        let page = tags(&[("Event", "Homeostat game"), ("White", "Human"), ("TimeControl", "-")]);
        let text = s.pgn(&page);
        for kept in
            ["[Event \"Wijk aan Zee\"]", "[White \"Kasparov\"]", "[Annotator \"A. Reader\"]", "{A famous game.}"]
        {
            assert!(text.contains(kept), "{kept} in {text}");
        }
        assert!(text.contains("[TimeControl \"-\"]"), "the page's tags fill in: {text}");
        assert!(!text.contains("Human") && !text.contains("Homeostat game"), "{text}");
        assert!(text.contains("d6 {[%csl Gd6] The Pirc.} 2. d4 $1 Nf6"), "{text}");
        assert!(text.contains("Bg7 $14 (4... c6) 5. Qd2"), "{text}");
        // Read back, it is the same record.
        assert_eq!(Session::load(&text).unwrap().pgn(&page), text);
    }

    #[test]
    fn moves_played_instead_of_the_recorded_ones_leave_their_annotations_out() {
        let mut s = Session::load(ANNOTATED).unwrap();
        assert_eq!(s.loaded_annotations().iter().map(|(ply, _)| *ply).collect::<Vec<_>>(), [0, 2, 3, 6, 8]);
        for _ in 0..4 {
            s.undo();
        }
        let plies = |s: &Session| s.loaded_annotations().iter().map(|(ply, _)| *ply).collect::<Vec<_>>();
        assert_eq!(plies(&s), [0, 2, 3], "the moves taken back have theirs aside");
        while s.redo().is_some() {}
        assert_eq!(plies(&s), [0, 2, 3, 6, 8], "and get them back when replayed");
        for _ in 0..4 {
            s.undo();
        }
        s.play("c6").unwrap();
        assert_eq!(plies(&s), [0, 2, 3]);
        let text = s.pgn(&[]);
        assert!(text.contains("The Pirc.") && !text.contains("[%cal") && !text.contains("$14"), "{text}");
        assert!(text.contains("[White \"Kasparov\"]"), "the tags stay: {text}");
        assert_eq!((s.loaded_tag("Black"), s.loaded_tag("Round")), (Some("Topalov"), None));
        // A game from a FEN or a new one has none.
        assert!(played(&["e4"]).loaded_annotations().is_empty());
        assert_eq!(played(&["e4"]).source_pgn(), None);
    }

    #[test]
    fn a_saved_game_brings_back_its_loaded_pgn() {
        let mut s = Session::load(ANNOTATED).unwrap();
        s.play("O-O").unwrap();
        let (start, moves, source) = (s.game().start().to_fen(), s.history_uci(), s.source_pgn());
        let back = Session::replay(Some(&start), &moves, None, source.as_deref()).unwrap();
        assert_eq!(back.pgn(&[]), s.pgn(&[]));
        assert_eq!(back.loaded_annotations(), s.loaded_annotations());
        // A source from another start holds nothing for this game.
        let elsewhere = Session::replay(Some("8/8/4k3/8/8/4K3/8/R7 w - - 0 1"), &[], None, source.as_deref()).unwrap();
        assert!(elsewhere.loaded_annotations().is_empty());
    }

    #[test]
    fn a_review_is_said_over_the_loaded_annotations() {
        let s = Session::load(ANNOTATED).unwrap();
        let before = |ply: usize| s.game().positions()[ply - 1];
        // The review marks 2. d4 a mistake, evaluates 4... Bg7 and keeps the drawing on ply 2 only.
        let review = [
            (2, pgn::read_annotation(&before(2), "{[%csl Gd6]}").unwrap()),
            (3, pgn::read_annotation(&before(3), "$2 {[%eval -0.40]} (Nf3)").unwrap()),
            (8, pgn::read_annotation(&before(8), "{[%eval 0.25]}").unwrap()),
        ];
        // Compared as one line: the export wraps at 80 columns.
        let text = s.annotated_pgn(&[], &review).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains("{A famous game.} 1. e4 d6 {[%csl Gd6] The Pirc.}"), "{text}");
        assert!(text.contains("2. d4 $2 {[%eval -0.40]} (2. Nf3) 2... Nf6"), "{text}");
        assert!(text.contains("3. Nc3 g6 4. Be3"), "the drawing taken away: {text}");
        assert!(text.contains("Bg7 $14 {[%eval 0.25]} (4... c6) 5. Qd2"), "{text}");
        assert!(text.contains("[White \"Kasparov\"]"), "{text}");
    }

    #[test]
    fn a_pgn_with_several_games_lists_them_and_loads_the_one_chosen() {
        let text = format!("{ANNOTATED}\n\n[White \"Ada\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e4 *\n\n1. d4 d5 1/2-1/2");
        let list = Session::game_list(&text);
        assert_eq!(list.len(), 4);
        assert_eq!(
            (list[0].white.as_deref(), list[0].black.as_deref(), list[0].plies),
            (Some("Kasparov"), Some("Topalov"), 9)
        );
        assert_eq!((list[1].white.as_deref(), list[1].black.as_deref(), list[1].result), (Some("Ada"), None, "0-1"));
        assert!(list[2].error.as_deref().unwrap().contains("e4"), "{:?}", list[2]);
        assert_eq!((list[3].event.as_deref(), list[3].result, list[3].plies), (None, "1/2-1/2", 2));
        assert_eq!(Session::load_game(&text, 1).unwrap().outcome().map(|o| o.reason), Some("checkmate"));
        assert_eq!(Session::load_game(&text, 3).unwrap().history_san(), ["d4", "d5"]);
        assert!(Session::load_game(&text, 2).unwrap_err().contains("e4"));
        assert_eq!(Session::load_game(&text, 4).unwrap_err(), "there is no game 5 in this PGN");
        assert!(Session::game_list("8/8/4k3/8/8/4K3/8/R7 w - - 0 1").is_empty());
    }

    #[test]
    fn opening_and_book() {
        let s = played(&["e4", "c5"]);
        let o = s.opening().unwrap();
        assert!(o.name.starts_with("Sicilian"), "{o:?}");
        let m = s.book_move(7).unwrap();
        assert!(s.legal_moves().iter().any(|x| x.uci == m));
    }

    #[test]
    fn board_squares_start_at_a1() {
        let s = played(&[]);
        let a1 = homeostat_chess::Square::all().next().unwrap();
        assert_eq!(a1.to_string(), "a1");
        assert_eq!(s.board().piece_on(a1).map(|p| p.to_char()), Some('R'));
    }
}
