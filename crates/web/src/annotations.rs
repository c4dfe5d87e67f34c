//! Move annotations (review marks, evaluations, arrows, better lines) as plain records for
//! JavaScript, to and from the rules core's [`Annotation`].

use crate::js::{Object, ToJs};
use homeostat_chess::annotation::{Annotation, Eval, Shape};
use homeostat_chess::{pgn, Board, Game, Move};
use wasm_bindgen::JsValue;

/// An evaluation from White's view: `{cp}` or `{mate}` (the other field is absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalJs {
    /// Centipawns.
    pub cp: Option<i32>,
    /// Mate in this many moves, negative when Black mates.
    pub mate: Option<i32>,
}

impl ToJs for EvalJs {
    fn to_js(&self) -> JsValue {
        Object::new().optional("cp", self.cp.as_ref()).optional("mate", self.mate.as_ref()).build()
    }
}

/// What is said about the move that leads to position `ply` (the first move is ply 1), or about
/// the start position (ply 0, the PGN's comment before the first move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnnotationJs {
    /// The move's ply, from 1; 0 for the start position.
    pub ply: usize,
    /// Numeric annotation glyphs (2 `?`, 4 `??`, 6 `?!`, …).
    pub nags: Vec<u8>,
    /// The comment's text without the commands below.
    pub comment: String,
    /// The evaluation after the move (`[%eval]`), White's view.
    pub eval: Option<EvalJs>,
    /// Arrows such as `Ge2e4` (`[%cal]`).
    pub arrows: Vec<String>,
    /// Circles such as `Rd4` (`[%csl]`).
    pub circles: Vec<String>,
    /// An alternative to the move (the better move and its line), in UCI.
    pub variation: Vec<String>,
    /// The alternative in SAN (`variationSan` in JavaScript).
    pub variation_san: Vec<String>,
}

impl ToJs for AnnotationJs {
    fn to_js(&self) -> JsValue {
        Object::new()
            .field("ply", &self.ply)
            .field("nags", &self.nags)
            .field("comment", &self.comment)
            .field("eval", &self.eval)
            .field("arrows", &self.arrows)
            .field("circles", &self.circles)
            .field("variation", &self.variation)
            .field("variationSan", &self.variation_san)
            .build()
    }
}

/// The page's form of the annotation at `ply` (of the move played from `before`, or of the start).
pub fn annotation_js(ply: usize, before: &Board, a: &Annotation) -> AnnotationJs {
    let shapes = |circles: bool| a.shapes.iter().filter(|s| s.is_circle() == circles).map(Shape::to_string).collect();
    let mut board = *before;
    let mut variation_san = Vec::new();
    for &m in &a.variation {
        if !board.is_legal(m) {
            break;
        }
        variation_san.push(board.san(m));
        board.play(m);
    }
    AnnotationJs {
        ply,
        nags: a.nags.clone(),
        comment: a.comment.clone(),
        eval: a.eval.map(|e| match e {
            Eval::Cp(cp) => EvalJs { cp: Some(cp), mate: None },
            Eval::Mate(n) => EvalJs { cp: None, mate: Some(n) },
        }),
        arrows: shapes(false),
        circles: shapes(true),
        variation: a.variation.iter().take(variation_san.len()).map(Move::to_string).collect(),
        variation_san,
    }
}

/// The annotations of `game` by ply (`(0, a)` is the start position's, `(i, a)` move `i`'s).
pub fn annotations_js(game: &Game, annotations: &[(usize, &Annotation)]) -> Vec<AnnotationJs> {
    let positions = game.positions();
    annotations
        .iter()
        .filter(|(ply, _)| *ply <= game.len())
        .map(|&(ply, a)| annotation_js(ply, &positions[ply.saturating_sub(1)], a))
        .collect()
}

/// An annotation the page writes as `"<ply> <PGN annotation>"`, such as
/// `"6 $4 {[%eval #1] Blunder.} (g6 Qf3)"` (see [`pgn::read_annotation`]), checked against
/// `game`: the ply and the annotation, or an error naming the ply and what is wrong. Ply 0 is the
/// start position, which takes only a comment (drawings, an evaluation, words).
pub fn annotation_from_text(game: &Game, text: &str) -> Result<(usize, Annotation), String> {
    let text = text.trim_start();
    let (ply, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let Ok(ply) = ply.parse::<usize>() else {
        return Err(format!("annotation '{text}' must start with the ply of its move, as in \"12 $2\""));
    };
    if ply > game.len() {
        return Err(format!("annotation of ply {ply}: there is no such move (the game has {} moves)", game.len()));
    }
    let before = &game.positions()[ply.saturating_sub(1)];
    let annotation = pgn::read_annotation(before, rest).map_err(|e| format!("annotation of ply {ply}: {e}"))?;
    if ply == 0 && !(annotation.nags.is_empty() && annotation.variation.is_empty()) {
        return Err("annotation of ply 0: the start position takes only a comment, no NAG or variation".to_string());
    }
    Ok((ply, annotation))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        let mut game = Game::new(Board::startpos());
        for m in moves {
            game.play_text(m).unwrap();
        }
        game
    }

    #[test]
    fn page_annotations_round_trip() {
        let g = game(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
        let text = "6 $4 {[%eval #1] [%cal Gg7g6] [%csl Rf7] Blunder.} (g6 h5f3)";
        let (ply, a) = annotation_from_text(&g, text).unwrap();
        assert_eq!(ply, 6);
        let js = annotation_js(ply, &g.positions()[ply - 1], &a);
        assert_eq!(js.ply, 6);
        assert_eq!(js.nags, [4]);
        assert_eq!(js.eval, Some(EvalJs { cp: None, mate: Some(1) }));
        assert_eq!(
            (js.arrows.as_slice(), js.circles.as_slice()),
            (&["Gg7g6".to_string()][..], &["Rf7".to_string()][..])
        );
        assert_eq!(js.variation, ["g7g6", "h5f3"]);
        assert_eq!(js.variation_san, ["g6", "Qf3"]);
        assert_eq!(js.comment, "Blunder.");
    }

    #[test]
    fn bad_page_annotations_are_explained() {
        let g = game(&["e4"]);
        let err = |text: &str| annotation_from_text(&g, text).unwrap_err();
        assert_eq!(err("2 $1"), "annotation of ply 2: there is no such move (the game has 1 moves)");
        assert!(err("$1").contains("must start with the ply"));
        assert!(err("1 {[%cal Gd4]}").contains("not an arrow"));
        assert!(err("1 (e2e5)").starts_with("annotation of ply 1: variation: illegal move"));
        assert!(err("0 $1").contains("the start position takes only a comment"));
        assert!(err("0 (e4)").contains("the start position takes only a comment"));
    }

    #[test]
    fn the_start_position_takes_drawings() {
        let g = game(&["e4"]);
        let (ply, a) = annotation_from_text(&g, "0 {[%cal Ge2e4] [%csl Rd5]}").unwrap();
        assert_eq!(ply, 0);
        let js = annotation_js(0, &g.positions()[0], &a);
        assert_eq!((js.ply, js.arrows, js.circles), (0, vec!["Ge2e4".to_string()], vec!["Rd5".to_string()]));
        // Ply 0 of a game with no moves too.
        assert_eq!(annotation_from_text(&game(&[]), "0 {[%csl Gd4]}").unwrap().0, 0);
    }
}
