//! The bitboard move generator against a deliberately simple one written here from the rules
//! (an 8×8 array, coordinates, recursion), over random games and random positions full of kings
//! and multi-captures; and perft from the start against the published counts.

mod common;

use common::Rng;
use homeostat_checkers::{perft, Color, Kind, Piece, Position};
use std::collections::BTreeMap;

/// A board as an 8×8 array indexed `[row][col]`, row 0 being Black's back row.
type Grid = [[Option<Piece>; 8]; 8];

fn square_of(row: i32, col: i32) -> u8 {
    (row * 4 + col / 2 + 1) as u8
}

fn coords_of(square: u8) -> (i32, i32) {
    let i = (square - 1) as i32;
    let row = i / 4;
    let col = 2 * (i % 4) + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

fn grid_of(pos: &Position) -> Grid {
    let mut g: Grid = [[None; 8]; 8];
    for s in 1..=32u8 {
        let (r, c) = coords_of(s);
        g[r as usize][c as usize] = pos.piece_at(s);
    }
    g
}

fn on_board(r: i32, c: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&c)
}

/// A finished move: squares visited, the board without the moving piece, where it ends, what it was.
type Ending = (Vec<u8>, Grid, (i32, i32), Piece);

/// The slow generator's result: move text mapped to the FEN of the position after it.
fn slow_moves(pos: &Position) -> BTreeMap<String, String> {
    let us = pos.side_to_move();
    let grid = grid_of(pos);
    let forward = if us == Color::Black { 1 } else { -1 };
    let far_row = if us == Color::Black { 7 } else { 0 };
    let mut captures: Vec<Ending> = Vec::new();
    let mut simple = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            let Some(piece) = grid[r as usize][c as usize] else { continue };
            if piece.color != us {
                continue;
            }
            let dirs: Vec<(i32, i32)> = if piece.kind == Kind::King {
                vec![(1, -1), (1, 1), (-1, -1), (-1, 1)]
            } else {
                vec![(forward, -1), (forward, 1)]
            };
            // Captures: walk recursively, removing each jumped piece at once.
            let mut start = grid;
            start[r as usize][c as usize] = None;
            let mut stack = vec![(vec![square_of(r, c)], start, (r, c))];
            while let Some((path, g, (pr, pc))) = stack.pop() {
                let mut went_on = false;
                let crowned_here = piece.kind == Kind::Man && pr == far_row && path.len() > 1;
                if !crowned_here {
                    for &(dr, dc) in &dirs {
                        let (mr, mc, lr, lc) = (pr + dr, pc + dc, pr + 2 * dr, pc + 2 * dc);
                        if !on_board(lr, lc) {
                            continue;
                        }
                        let over = g[mr as usize][mc as usize];
                        if over.is_some_and(|p| p.color != us) && g[lr as usize][lc as usize].is_none() {
                            let mut next = g;
                            next[mr as usize][mc as usize] = None;
                            let mut p = path.clone();
                            p.push(square_of(lr, lc));
                            stack.push((p, next, (lr, lc)));
                            went_on = true;
                        }
                    }
                }
                if !went_on && path.len() > 1 {
                    captures.push((path, g, (pr, pc), piece));
                }
            }
            for &(dr, dc) in &dirs {
                let (tr, tc) = (r + dr, c + dc);
                if on_board(tr, tc) && grid[tr as usize][tc as usize].is_none() {
                    let mut g = grid;
                    g[r as usize][c as usize] = None;
                    simple.push((vec![square_of(r, c), square_of(tr, tc)], g, (tr, tc), piece));
                }
            }
        }
    }
    let (list, sep) = if captures.is_empty() { (simple, "-") } else { (captures, "x") };
    let mut out = BTreeMap::new();
    for (path, mut g, (r, c), piece) in list {
        let kind = if r == far_row { Kind::King } else { piece.kind };
        g[r as usize][c as usize] = Some(Piece { color: us, kind });
        let mut after = Position::empty(us.opponent());
        for (row, line) in g.iter().enumerate() {
            for (col, p) in line.iter().enumerate() {
                if let Some(p) = p {
                    after.put(square_of(row as i32, col as i32), *p);
                }
            }
        }
        let text = path.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(sep);
        assert!(out.insert(text.clone(), after.to_fen()).is_none(), "slow generator repeated {text}");
    }
    out
}

fn fast_moves(pos: &Position) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for m in pos.legal_moves() {
        let text = m.to_string();
        assert!(out.insert(text.clone(), pos.after(&m).to_fen()).is_none(), "fast generator repeated {text}");
        assert_eq!(pos.parse_move(&text), Ok(m), "reading back {text}");
    }
    out
}

fn check(pos: &Position) {
    assert_eq!(fast_moves(pos), slow_moves(pos), "moves differ in {}", pos.to_fen());
    // FEN does not carry the quiet-ply counter.
    let mut cleared = *pos;
    cleared.set_quiet_plies(0);
    assert_eq!(Position::from_fen(&pos.to_fen()), Ok(cleared), "FEN round trip");
}

#[test]
fn random_games_agree_with_the_slow_generator() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut positions = 0;
    let mut captures = 0;
    for _ in 0..300 {
        let mut pos = Position::start();
        for _ in 0..200 {
            check(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            captures += usize::from(m.capture_count() > 1);
            pos.play(&m);
        }
    }
    assert!(positions > 10_000 && captures > 100, "{positions} positions, {captures} multi-captures");
}

/// A random position: up to 12 pieces a side, mostly kings, men never on their crowning row.
fn random_position(rng: &mut Rng, king_share: usize) -> Position {
    let side = if rng.below(2) == 0 { Color::Black } else { Color::White };
    let mut pos = Position::empty(side);
    for color in [Color::Black, Color::White] {
        let n = 1 + rng.below(12);
        let mut placed = 0;
        while placed < n {
            let s = 1 + rng.below(32) as u8;
            if pos.piece_at(s).is_some() {
                continue;
            }
            let crown_row = match color {
                Color::Black => 29..=32,
                Color::White => 1..=4,
            };
            let kind = if crown_row.contains(&s) || rng.below(100) < king_share { Kind::King } else { Kind::Man };
            pos.put(s, Piece { color, kind });
            placed += 1;
        }
    }
    pos
}

#[test]
fn positions_full_of_kings_agree_with_the_slow_generator() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut longest = 0;
    let mut routes_sharing_ends = 0;
    for i in 0..40_000 {
        let pos = random_position(&mut rng, if i % 2 == 0 { 90 } else { 40 });
        check(&pos);
        let moves = pos.legal_moves();
        longest = longest.max(moves.iter().map(|m| m.capture_count()).max().unwrap_or(0));
        let mut ends = std::collections::HashSet::new();
        routes_sharing_ends += moves.iter().filter(|m| m.is_capture() && !ends.insert((m.from(), m.to()))).count();
    }
    assert!(longest >= 5, "the random positions should include long captures (longest {longest})");
    assert!(routes_sharing_ends > 0, "some captures should share start and end squares");
}

#[test]
fn king_positions_perft_agrees_with_the_slow_generator() {
    fn slow_perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        slow_moves(pos).values().map(|fen| slow_perft(&Position::from_fen(fen).unwrap(), depth - 1)).sum()
    }
    let mut rng = Rng(77);
    for _ in 0..40 {
        let pos = random_position(&mut rng, 70);
        // FEN drops nothing the generator needs (the quiet counter plays no part in moves).
        assert_eq!(perft(&pos, 3), slow_perft(&pos, 3), "{}", pos.to_fen());
    }
}

#[test]
fn perft_start_to_depth_10() {
    let expected = [7u64, 49, 302, 1469, 7361, 36768, 179_740, 845_931, 3_963_680, 18_391_564];
    let start = Position::start();
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&start, i as u32 + 1), n, "depth {}", i + 1);
    }
}

/// Depths 11 and 12 (published by Aart Bik, 2009); with `-- --ignored`, about 15 s optimised.
#[test]
#[ignore]
fn perft_start_depth_11_and_12() {
    let start = Position::start();
    assert_eq!(perft(&start, 11), 85_242_128);
    assert_eq!(perft(&start, 12), 388_623_673);
}
