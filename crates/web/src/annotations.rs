//! Move annotations (review marks, evaluations, arrows, better lines) as plain records for
//! JavaScript, to and from the rules core's [`Annotation`].

use homeostat_chess::annotation::{Annotation, Eval, Shape};
use homeostat_chess::{pgn, Board, Game, Move};
use serde::Serialize;

/// An evaluation from White's view: `{cp}` or `{mate}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EvalJs {
    /// Centipawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves, negative when Black mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

/// What is said about the move that leads to position `ply` (the first move is ply 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnnotationJs {
    /// The move's ply, from 1.
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
    /// The alternative in SAN.
    pub variation_san: Vec<String>,
}

/// The page's form of the annotation of move `index` of `game` (played from `before`).
pub fn annotation_js(index: usize, before: &Board, a: &Annotation) -> AnnotationJs {
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
        ply: index + 1,
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

/// The annotations of `game`'s moves (`annotations[i]` is move `i`'s), the empty ones left out.
pub fn annotations_js(game: &Game, annotations: &[Annotation]) -> Vec<AnnotationJs> {
    let positions = game.positions();
    annotations
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.is_empty() && *i < game.len())
        .map(|(i, a)| annotation_js(i, &positions[i], a))
        .collect()
}

/// An annotation the page writes as `"<ply> <PGN annotation>"`, such as
/// `"6 $4 {[%eval #1] Blunder.} (g6 Qf3)"` (see [`pgn::read_annotation`]), checked against
/// `game`: the move's index and the annotation, or an error naming the ply and what is wrong.
pub fn annotation_from_text(game: &Game, text: &str) -> Result<(usize, Annotation), String> {
    let text = text.trim_start();
    let (ply, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let Ok(ply) = ply.parse::<usize>() else {
        return Err(format!("annotation '{text}' must start with the ply of its move, as in \"12 $2\""));
    };
    if ply == 0 || ply > game.len() {
        return Err(format!("annotation of ply {ply}: there is no such move (the game has {} moves)", game.len()));
    }
    let annotation =
        pgn::read_annotation(&game.positions()[ply - 1], rest).map_err(|e| format!("annotation of ply {ply}: {e}"))?;
    Ok((ply - 1, annotation))
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
        let (index, a) = annotation_from_text(&g, text).unwrap();
        assert_eq!(index, 5);
        let js = annotation_js(index, &g.positions()[index], &a);
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
    }
}
