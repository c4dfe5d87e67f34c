//! Annotated PGN: NAGs, `[%eval]`, `[%cal]`/`[%csl]` comments and the better move as a variation
//! are kept per move, written back, and read again unchanged.

mod common;

use common::Rng;
use homeostat_chess::annotation::{Annotation, Eval, Shape};
use homeostat_chess::pgn::{read_game, read_games};
use homeostat_chess::{Board, Game};

const REVIEWED: &str = r#"[Event "Review"]
[Result "0-1"]

1. e4 {[%eval 0.30]} e5 2. Nf3 $1 {[%eval 0.25] [%cal Gg1f3,Rd8h4] [%csl Ge5] Develops.} Nc6
3. Bc4 Nd4?! 4. Nxe5!? Qg5?? {[%eval #2] Loses at once.} (4... Qe7 5. Nxf7 Qxe4+) 5. Nxf7?
{[%eval 5.10]} (5. Bxf7+ Ke7 6. Nc4) Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1
"#;

fn shape(text: &str) -> Shape {
    Shape::parse(text).unwrap()
}

#[test]
fn marks_evals_shapes_and_variations_are_kept_per_move() {
    let game = read_game(REVIEWED).unwrap();
    assert_eq!(game.moves.len(), 14);
    let a = |i: usize| game.annotation(i).cloned().unwrap_or_default();
    assert_eq!(a(0).eval, Some(Eval::Cp(30)));
    assert!(a(1).is_empty());
    assert_eq!(a(2).nags, vec![1]);
    assert_eq!(a(2).eval, Some(Eval::Cp(25)));
    assert_eq!(a(2).shapes, vec![shape("Gg1f3"), shape("Rd8h4"), shape("Ge5")]);
    assert_eq!(a(2).comment, "Develops.");
    assert_eq!(a(5).nags, vec![6], "Nd4?! is an inaccuracy");
    assert_eq!(a(6).nags, vec![5], "Nxe5!? is interesting");
    assert_eq!(a(7).nags, vec![4]);
    assert_eq!(a(7).eval, Some(Eval::Mate(2)));
    let mut before = Board::startpos();
    for m in &game.moves[..7] {
        before.play(*m);
    }
    let qe7: Vec<String> = a(7).variation.iter().map(|m| m.to_string()).collect();
    assert_eq!(qe7, ["d8e7", "e5f7", "e7e4"]);
    assert_eq!(before.san(a(7).variation[0]), "Qe7");
    assert_eq!(a(8).nags, vec![2]);
    assert_eq!(a(8).variation.len(), 3);
}

#[test]
fn annotated_games_round_trip() {
    let game = read_game(REVIEWED).unwrap();
    let written = game.to_pgn();
    let flat = written.replace('\n', " ");
    assert!(flat.contains("2. Nf3 $1 {[%eval 0.25] [%cal Gg1f3,Rd8h4] [%csl Ge5] Develops.} 2... Nc6"), "{written}");
    assert!(flat.contains("Qg5 $4 {[%eval #2] Loses at once.} (4... Qe7 5. Nxf7 Qxe4+) 5. Nxf7 $2"), "{written}");
    assert!(written.lines().all(|l| l.len() <= 80), "{written}");
    let again = read_game(&written).unwrap();
    assert_eq!((&again.moves, &again.annotations, again.result), (&game.moves, &game.annotations, game.result));
    assert_eq!(again.to_pgn(), written);
}

#[test]
fn random_annotations_round_trip() {
    let mut rng = Rng::new(13);
    for _ in 0..40 {
        let mut game = Game::new(Board::startpos());
        let mut boards = vec![*game.board()];
        for _ in 0..rng.below(40) {
            let moves = game.board().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
            boards.push(*game.board());
        }
        let mut record = game.to_pgn_game(&[]);
        for (i, before) in boards.iter().enumerate().take(record.moves.len()) {
            if rng.below(3) != 0 {
                continue;
            }
            let mut a = Annotation::default();
            a.add_nag([1u8, 2, 3, 4, 5, 6, 14, 146][rng.below(8)]);
            a.eval = Some(if rng.below(5) == 0 {
                Eval::Mate(rng.below(20) as i32 - 10)
            } else {
                Eval::Cp(rng.below(2001) as i32 - 1000)
            });
            a.comment = ["", "Why not?", "A long comment that goes on and on so that it has to wrap across lines"]
                [rng.below(3)]
            .to_string();
            a.shapes.push(shape(["Ge2e4", "Rd4", "Ba1h8", "Yh1"][rng.below(4)]));
            // An alternative from the position before move i: any legal move and one reply.
            let alt = before.legal_moves();
            let first = alt[rng.below(alt.len())];
            a.variation.push(first);
            let mut after = *before;
            after.play(first);
            if let Some(&reply) = after.legal_moves().first() {
                a.variation.push(reply);
            }
            *record.annotation_mut(i) = a;
        }
        while record.annotations.last().is_some_and(Annotation::is_empty) {
            record.annotations.pop();
        }
        if rng.below(3) == 0 {
            record.preface.shapes.push(shape(["Gd2d4", "Ye4"][rng.below(2)]));
            record.preface.comment = ["", "From here."][rng.below(2)].to_string();
        }
        let text = record.to_pgn();
        let back = read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.preface, record.preface, "{text}");
        assert_eq!(back.annotations, record.annotations, "{text}");
        assert_eq!(back.moves, record.moves);
    }
}

#[test]
fn bad_annotations_are_explained() {
    let err = |text: &str| read_game(text).unwrap_err().to_string();
    assert_eq!(
        err("1. e4 {[%eval lots]} e5 *"),
        "game 1, move 1 (White): comment after the move: [%eval lots]: expected pawns such as 0.35 or a mate such as #-3 (line 1)"
    );
    assert!(err("1. e4 e5 {[%cal Ge2e9]} *").contains("move 1 (Black): comment after the move: [%cal]: 'Ge2e9'"));
    assert!(err("1. e4 {[%csl Gd4 *").contains("never closed"));
    assert!(err("1. e4 $300 *").contains("NAGs go from $0 to $255"));
    // A variation with a move that cannot be played keeps its legal start; the game reads.
    let game = read_game("1. e4 (1. d4 Ke3 d5) e5 *").unwrap();
    assert_eq!(game.annotation(0).unwrap().variation.len(), 1);
    // Random bytes never panic.
    let mut rng = Rng::new(7);
    let alphabet = b"{}()[]%$!?#,.-+ 0123456789evalcslGRe2e4Nf3 \n";
    for _ in 0..2000 {
        let text: String = (0..rng.below(60)).map(|_| alphabet[rng.below(alphabet.len())] as char).collect();
        let _ = read_games(&format!("1. e4 {text} *"));
    }
}

#[test]
fn annotations_read_alone_from_their_position() {
    use homeostat_chess::pgn::read_annotation;
    let mut before = Board::startpos();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4", "f3e5"] {
        before.play(before.parse_move(m).unwrap());
    }
    let a = read_annotation(&before, "$4 {[%eval #2] [%cal Gd8e7] Loses.} (Qe7 e5f7 Qxe4+)").unwrap();
    assert_eq!((a.nags.clone(), a.eval, a.comment.as_str()), (vec![4], Some(Eval::Mate(2)), "Loses."));
    assert_eq!(a.variation.len(), 3);
    assert_eq!(read_annotation(&before, "?! !").unwrap().nags, vec![6, 1]);
    let err = |text: &str| read_annotation(&before, text).unwrap_err();
    assert!(err("(Qe7 Ke2)").starts_with("variation: illegal move"), "{}", err("(Qe7 Ke2)"));
    assert!(err("(Qe7").contains("never closed"));
    assert!(err("e4").contains("not an annotation glyph"));
    assert!(err("{[%eval x]}").contains("expected pawns"));
    assert!(err("[Event \"x\"]").contains("nothing else"));
}

#[test]
fn the_comment_before_the_first_move_is_the_start_positions() {
    let text = "[Event \"Drawn on\"]\n\n{[%cal Ge2e4,Rd7d5] [%csl Yd4] The centre.} 1. e4 {[%eval 0.30]} d5 *\n";
    let game = read_game(text).unwrap();
    assert_eq!(game.preface.shapes, vec![shape("Ge2e4"), shape("Rd7d5"), shape("Yd4")]);
    assert_eq!(game.preface.comment, "The centre.");
    assert_eq!(game.annotation(0).unwrap().eval, Some(Eval::Cp(30)), "move 1 keeps its own");
    let written = game.to_pgn();
    assert!(
        written.contains("\n{[%cal Ge2e4,Rd7d5] [%csl Yd4] The centre.} 1. e4 {[%eval 0.30]} 1... d5 *"),
        "{written}"
    );
    let again = read_game(&written).unwrap();
    assert_eq!((&again.preface, &again.annotations, &again.moves), (&game.preface, &game.annotations, &game.moves));
    // Before the tags' end, between tags, a comment is not the preface; without tags it is.
    let between = read_game("[Event \"x\"]\n{not this}\n[Site \"y\"]\n\n1. e4 *").unwrap();
    assert!(between.preface.is_empty());
    assert_eq!(read_game("{Alone.} 1. d4 *").unwrap().preface.comment, "Alone.");
    // A position set up from FEN, Black to move: the first move keeps its number after the preface.
    let fen = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n{[%csl Re8]} 1... Kd7 *\n";
    let written = read_game(fen).unwrap().to_pgn();
    assert!(written.contains("{[%csl Re8]} 1... Kd7 *"), "{written}");
    // A bad drawing there is refused like one after a move.
    let err = read_game("{[%cal Ge2e9]} 1. e4 *").unwrap_err().to_string();
    assert!(err.contains("comment before the first move: [%cal]: 'Ge2e9'"), "{err}");
    // Only comments: a game with no moves keeps the preface too.
    let empty = read_game("[Event \"x\"]\n\n{[%csl Gd4]} *").unwrap();
    assert_eq!(empty.preface.shapes, vec![shape("Gd4")]);
}
