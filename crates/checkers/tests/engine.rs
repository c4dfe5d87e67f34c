//! The engine from the outside: forced moves, tactics, wins, events, levels, limits and the
//! random weighting.

use homeostat_checkers::{
    considering_line, Engine, Event, Game, Level, Limits, Position, RootMoveInfo, Score, SearchResult, Silent,
};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;

fn search(engine: &mut Engine, pos: &Position, limits: &Limits) -> SearchResult {
    let stop = AtomicBool::new(false);
    engine.search(pos, &[], limits, &|| 0.0, &stop, &mut Silent)
}

#[test]
fn a_forced_move_is_played_at_once() {
    let pos = Position::from_fen("B:W15,23:B11,12").unwrap();
    let mut events = Vec::new();
    let stop = AtomicBool::new(false);
    let r =
        Engine::new(1).search(&pos, &[], &Limits::depth(10), &|| 0.0, &stop, &mut |e: &Event| events.push(e.clone()));
    assert_eq!(r.best.unwrap().to_string(), "11x18x27");
    assert!(r.forced);
    assert_eq!(r.nodes, 0);
    assert!(matches!(events.as_slice(), [Event::Finished(f)] if f.forced));
}

#[test]
fn no_move_means_none() {
    let pos = Position::from_fen("W:W5:B1").unwrap();
    let r = search(&mut Engine::new(1), &pos, &Limits::depth(3));
    assert_eq!(r.best, None);
}

#[test]
fn finds_a_forced_win() {
    // Two kings against a lone man: a forced win, announced as one, and played out by the engine.
    let pos = Position::from_fen("B:W27:BK15,K1").unwrap();
    let mut engine = Engine::new(4);
    let r = search(&mut engine, &pos, &Limits::depth(14));
    assert!(matches!(r.score, Score::Win(n) if n > 0), "{:?}", r.score);
    let mut game = Game::from_position(pos);
    while game.outcome().is_none() && game.moves().len() < 40 {
        let r = engine.search(
            game.position(),
            &game.hashes(),
            &Limits::depth(14),
            &|| 0.0,
            &AtomicBool::new(false),
            &mut Silent,
        );
        game.play(r.best.unwrap());
    }
    assert_eq!(game.outcome().and_then(|o| o.winner()), Some(homeostat_checkers::Color::Black), "{}", game.movetext());
}

#[test]
fn sees_a_two_for_one_shot_past_the_horizon() {
    // White gives 23-18; Black must take 14x23 and White answers 27x18x11, two for one. Even at
    // depth 1 the capture extension and forced-move deepening play the exchange out.
    let pos = Position::from_fen("W:W22,23,27,32:B1,14,15").unwrap();
    for depth in 1..=4 {
        let r = search(&mut Engine::new(1), &pos, &Limits::depth(depth));
        assert_eq!(r.best.unwrap().to_string(), "23-18", "depth {depth}");
        assert!(matches!(r.score, Score::Cp(cp) if cp > 100), "depth {depth}: {:?}", r.score);
    }
}

#[test]
fn events_in_order_and_the_applet_line() {
    let mut events = Vec::new();
    let time = Cell::new(0.0);
    let clock = || {
        time.set(time.get() + 7.0);
        time.get()
    };
    let stop = AtomicBool::new(false);
    let r = Engine::new(4)
        .search(&Position::start(), &[], &Limits::depth(6), &clock, &stop, &mut |e: &Event| events.push(e.clone()));
    assert!(matches!(events.last(), Some(Event::Finished(f)) if f.best == r.best && !f.forced));
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| if let Event::RootMove(i) = e { Some(considering_line(i)) } else { None })
        .collect();
    assert!(!lines.is_empty());
    for l in &lines {
        assert!(l.starts_with("Considering ") && l.contains(" of 7 moves, 7 replies, "), "{l}");
        assert!(l.ends_with(')'), "{l}");
    }
    let depths: Vec<u32> =
        events.iter().filter_map(|e| if let Event::Iteration(i) = e { Some(i.depth) } else { None }).collect();
    assert_eq!(depths.iter().max(), Some(&6));
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert_eq!(r.depth, 6);
    assert_eq!(r.pv.first(), r.best.as_ref());
    // The search over, the last line names the move chosen with the final figures.
    let last = events.iter().rev().find_map(|e| if let Event::RootMove(i) = e { Some(i) } else { None }).unwrap();
    assert_eq!((Some(last.mv), Some(last.best), last.index), (r.best, r.best, 1));
    assert_eq!((last.depth, last.nodes, last.best_score), (r.depth, r.nodes, r.score));
}

#[test]
fn a_short_search_ends_its_live_line_with_the_result() {
    // With a clock standing still only the first scored root move passes the interval; the last event
    // is then the final one, not that first line.
    let mut events = Vec::new();
    let stop = AtomicBool::new(false);
    let r = Engine::new(4)
        .search(&Position::start(), &[], &Limits::depth(5), &|| 0.0, &stop, &mut |e: &Event| events.push(e.clone()));
    let roots: Vec<&RootMoveInfo> =
        events.iter().filter_map(|e| if let Event::RootMove(i) = e { Some(i) } else { None }).collect();
    assert_eq!(roots.len(), 2, "{roots:?}");
    assert_eq!((roots[1].depth, roots[1].nodes, Some(roots[1].best)), (5, r.nodes, r.best));
}

#[test]
fn stop_flag_and_limits_end_the_search() {
    let stop = AtomicBool::new(true);
    let r = Engine::new(1).search(&Position::start(), &[], &Limits::default(), &|| 0.0, &stop, &mut Silent);
    assert!(r.best.is_some(), "a stopped search still names a legal move");
    let r = search(&mut Engine::new(1), &Position::start(), &Limits { nodes: Some(5_000), ..Limits::default() });
    assert!(r.best.is_some() && r.nodes <= 5_001, "{} nodes", r.nodes);
    // A clock that moves 1 ms per reading: 200 ms of thinking ends long before depth 100.
    let time = Cell::new(0.0);
    let clock = || {
        time.set(time.get() + 1.0);
        time.get()
    };
    let stop = AtomicBool::new(false);
    let r = Engine::new(1).search(&Position::start(), &[], &Limits::movetime(200.0), &clock, &stop, &mut Silent);
    assert!(r.best.is_some() && r.depth < 60);
}

#[test]
fn deterministic_for_a_seed() {
    let run = |seed| {
        let mut e = Engine::new(1);
        e.set_level(Level::new(3).unwrap());
        e.set_seed(seed);
        let mut game = Game::new();
        while game.outcome().is_none() && game.moves().len() < 30 {
            let r = e.search(
                game.position(),
                &game.hashes(),
                &Limits::default(),
                &|| 0.0,
                &AtomicBool::new(false),
                &mut Silent,
            );
            game.play(r.best.unwrap());
        }
        game.movetext()
    };
    assert_eq!(run(1), run(1));
    let distinct: std::collections::HashSet<String> = (0..6).map(run).collect();
    assert!(distinct.len() >= 3, "the random weighting should vary games: {distinct:?}");
}

#[test]
fn every_level_plays_a_legal_move() {
    for n in 1..=8 {
        let mut e = Engine::new(1);
        e.set_level(Level::new(n).unwrap());
        let r =
            search(&mut e, &Position::start(), &Limits { depth: Some(8), nodes: Some(200_000), ..Limits::default() });
        assert!(Position::start().legal_moves().contains(&r.best.unwrap()), "level {n}");
    }
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(9), None);
}

#[test]
fn strong_level_beats_weak_level() {
    // Level 6 against level 1, both colours, a few seeds: level 6 must score clearly better.
    let mut strong_points = 0.0;
    let games = 6;
    for g in 0..games {
        let strong_black = g % 2 == 0;
        let mut engines = [Engine::new(1), Engine::new(1)];
        engines[0].set_level(Level::new(if strong_black { 6 } else { 1 }).unwrap());
        engines[1].set_level(Level::new(if strong_black { 1 } else { 6 }).unwrap());
        engines[0].set_seed(g);
        engines[1].set_seed(g + 100);
        let mut game = Game::new();
        while game.outcome().is_none() && game.moves().len() < 200 {
            let side = game.moves().len() % 2;
            let r = engines[side].search(
                game.position(),
                &game.hashes(),
                &Limits::default(),
                &|| 0.0,
                &AtomicBool::new(false),
                &mut Silent,
            );
            game.play(r.best.unwrap());
        }
        let strong = if strong_black { homeostat_checkers::Color::Black } else { homeostat_checkers::Color::White };
        strong_points += match game.outcome().and_then(|o| o.winner()) {
            Some(w) if w == strong => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    assert!(strong_points >= 4.5, "level 6 scored {strong_points} of {games}");
}
