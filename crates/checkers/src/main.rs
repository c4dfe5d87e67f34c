//! `homeostat-checkers`: perft, a line protocol to play the engine, and matches between
//! evaluations, so the rules and the engine can be checked from outside.

use homeostat_checkers::{
    considering_line, divide, thousands, Color, Engine, EvalKind, Event, Game, Level, Limits, Outcome, Position,
};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const USAGE: &str = "\
usage:
  homeostat-checkers perft DEPTH [FEN]   count move sequences, by first move (divide), with total and rate
  homeostat-checkers play                play on stdin/stdout; send 'help' for the commands
  homeostat-checkers bench [DEPTH]       search fixed positions to DEPTH (default 10): total nodes (a fixed
                                         figure for a given search) and speed
  homeostat-checkers match [--games N] [--depth D] [--nodes N] [--base EVAL] [--test EVAL] [--seed S]
                                         play EVAL (applet or homeostat) against each other from random
                                         three-move openings, each with both colours";

const PLAY_HELP: &str = "\
commands, one a line; every answer is one line:
  11-15 | 15x24x31     play a move for the side to move; the engine answers 'move ...' (auto on)
  B:W21,22:B1,2        (or 'fen B:...') set up a position and start a new game from it
  new                  a new game from the start position
  go                   the engine plays a move for the side to move
  undo | redo          take back one move, or play it again
  level N              playing level 1-8 (default 8)
  depth N | nodes N | movetime MS   the engine's limits ('off' removes one; default movetime 1000)
  seed N               seed of the random weighting
  auto on|off          answer every move with the engine's move (default on)
  thinking on|off      print 'info ...' lines while the engine thinks
  fen | moves | pdn    the position, the legal moves, the game so far
  help | quit
answers: 'ok ...', 'move M' (played), 'result TEXT' when the game ends, 'error TEXT' (nothing changed)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("play") => play_command(),
        Some("match") => match_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn perft_command(args: &[String]) -> Result<(), String> {
    let depth_text = args.first().ok_or("perft needs a DEPTH, like 'perft 8'")?;
    let depth: u32 = depth_text
        .parse()
        .ok()
        .filter(|d| *d <= 30)
        .ok_or_else(|| format!("DEPTH must be a number 0-30, not '{depth_text}'"))?;
    let pos = match args.get(1..).filter(|rest| !rest.is_empty()) {
        Some(rest) => Position::from_fen(&rest.join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::start(),
    };
    let started = Instant::now();
    let mut total = 0u64;
    let out = io::stdout();
    let mut out = out.lock();
    if depth == 0 {
        total = 1;
    }
    for (m, n) in divide(&pos, depth) {
        writeln!(out, "{m}: {n}").map_err(|e| e.to_string())?;
        total += n;
    }
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { (total as f64 / secs) as u64 } else { 0 };
    writeln!(out, "\ntotal: {total}\ntime: {secs:.3} s, {} positions/s", thousands(rate)).map_err(|e| e.to_string())
}

/// The state of a `play` session.
struct Session {
    game: Game,
    engine: Engine,
    limits: Limits,
    auto: bool,
    thinking: bool,
}

impl Session {
    fn new() -> Session {
        Session {
            game: Game::new(),
            engine: Engine::default(),
            limits: Limits::movetime(1000.0),
            auto: true,
            thinking: false,
        }
    }

    /// Handles one line; returns the answer lines, or `None` to quit.
    fn handle(&mut self, line: &str) -> Option<Vec<String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Some(Vec::new());
        }
        let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
        let answer = match word {
            "quit" | "exit" => return None,
            "help" => Ok(PLAY_HELP.lines().map(|l| format!("# {l}")).collect()),
            "new" => {
                self.game = Game::new();
                self.engine.new_game();
                Ok(vec![format!("ok {}", self.game.position().to_fen())])
            }
            "fen" if rest.is_empty() => Ok(vec![format!("fen {}", self.game.position().to_fen())]),
            "fen" | "position" => self.set_position(rest),
            _ if line.contains(':') => self.set_position(line),
            "go" => self.engine_move(),
            "undo" => match self.game.undo() {
                Some(_) => Ok(vec![format!("ok {}", self.game.position().to_fen())]),
                None => Err("nothing to undo".to_string()),
            },
            "redo" => match self.game.redo() {
                Some(m) => Ok(vec![format!("ok {m} {}", self.game.position().to_fen())]),
                None => Err("nothing to redo".to_string()),
            },
            "moves" => {
                let moves: Vec<String> = self.game.position().legal_moves().iter().map(|m| m.to_string()).collect();
                Ok(vec![format!("moves {}", moves.join(" ")).trim_end().to_string()])
            }
            "pdn" => Ok(vec![format!("pdn {}", self.game.movetext()).trim_end().to_string()]),
            "level" => match rest.parse().ok().and_then(Level::new) {
                Some(level) => {
                    self.engine.set_level(level);
                    Ok(vec![format!("ok level {}", level.number())])
                }
                None => Err(format!("level must be 1-8, not '{rest}'")),
            },
            "depth" | "nodes" | "movetime" => self.set_limit(word, rest),
            "seed" => match rest.parse() {
                Ok(seed) => {
                    self.engine.set_seed(seed);
                    Ok(vec![format!("ok seed {seed}")])
                }
                Err(_) => Err(format!("seed must be a whole number, not '{rest}'")),
            },
            "auto" | "thinking" => match rest {
                "on" | "off" => {
                    let on = rest == "on";
                    if word == "auto" {
                        self.auto = on;
                    } else {
                        self.thinking = on;
                    }
                    Ok(vec![format!("ok {word} {rest}")])
                }
                _ => Err(format!("{word} takes on or off, not '{rest}'")),
            },
            _ if line.starts_with(|c: char| c.is_ascii_digit()) => self.human_move(line),
            _ => Err(format!("unknown command '{word}' (send 'help' for the commands)")),
        };
        Some(answer.unwrap_or_else(|e| vec![format!("error {e}")]))
    }

    fn set_position(&mut self, fen: &str) -> Result<Vec<String>, String> {
        let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
        self.game = Game::from_position(pos);
        self.engine.new_game();
        let mut out = vec![format!("ok {}", pos.to_fen())];
        out.extend(self.result_line());
        Ok(out)
    }

    fn set_limit(&mut self, word: &str, rest: &str) -> Result<Vec<String>, String> {
        let off = rest == "off";
        let bad = || format!("{word} takes a positive number or off, not '{rest}'");
        match word {
            "depth" => {
                self.limits.depth = if off { None } else { Some(rest.parse().ok().filter(|&d| d > 0).ok_or_else(bad)?) }
            }
            "nodes" => {
                self.limits.nodes = if off { None } else { Some(rest.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?) }
            }
            _ => {
                self.limits.movetime_ms = if off {
                    None
                } else {
                    Some(rest.parse::<f64>().ok().filter(|t| t.is_finite() && *t > 0.0).ok_or_else(bad)?)
                }
            }
        }
        if self.limits == Limits::default() && self.engine.level() == Level::MAX {
            self.limits.movetime_ms = Some(1000.0);
            return Ok(vec![format!("ok {word} {rest} (no limit left: movetime 1000)")]);
        }
        Ok(vec![format!("ok {word} {rest}")])
    }

    fn result_line(&self) -> Option<String> {
        self.game.outcome().map(|o| format!("result {o}"))
    }

    fn human_move(&mut self, text: &str) -> Result<Vec<String>, String> {
        self.game.play_text(text).map_err(|e| e.to_string())?;
        if let Some(r) = self.result_line() {
            return Ok(vec![r]);
        }
        if self.auto {
            self.engine_move()
        } else {
            Ok(vec![format!("ok {}", self.game.position().to_fen())])
        }
    }

    fn engine_move(&mut self) -> Result<Vec<String>, String> {
        if let Some(o) = self.game.outcome() {
            return Err(format!("the game is over: {o}"));
        }
        let started = Instant::now();
        let clock = move || started.elapsed().as_secs_f64() * 1000.0;
        let stop = AtomicBool::new(false);
        let thinking = self.thinking;
        let mut info = Vec::new();
        let mut reporter = |e: &Event| {
            if !thinking {
                return;
            }
            match e {
                Event::RootMove(r) => info.push(format!("info {}", considering_line(r))),
                Event::Iteration(i) => info.push(format!(
                    "info depth {} score {} nodes {} time {} pv {}",
                    i.depth,
                    i.score_white.to_men_string(),
                    i.nodes,
                    i.elapsed_ms,
                    i.pv_text.join(" ")
                )),
                Event::Finished(_) => {}
            }
        };
        let result =
            self.engine.search(self.game.position(), &self.game.hashes(), &self.limits, &clock, &stop, &mut reporter);
        let best = result.best.ok_or("no legal move")?;
        self.game.play(best);
        info.push(format!("move {best}"));
        info.extend(self.result_line());
        Ok(info)
    }
}

fn play_command() -> Result<(), String> {
    let mut session = Session::new();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes).map_err(|e| format!("reading stdin: {e}"))? == 0 {
            break;
        }
        // A line that is not UTF-8 gets an error answer like any other bad line.
        let line = String::from_utf8_lossy(&bytes);
        let Some(answer) = session.handle(&line) else { break };
        let mut out = stdout.lock();
        for a in answer {
            writeln!(out, "{a}").map_err(|e| e.to_string())?;
        }
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn parse_eval(text: &str) -> Result<EvalKind, String> {
    match text {
        "applet" => Ok(EvalKind::Applet),
        "homeostat" => Ok(EvalKind::Homeostat),
        _ => Err(format!("an evaluation is 'applet' or 'homeostat', not '{text}'")),
    }
}

/// Plays one game; returns the winner (`None` for a draw, also after 200 plies).
fn play_game(opening: &Game, black: &mut Engine, white: &mut Engine, limits: &Limits) -> Option<Color> {
    let mut game = opening.clone();
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.moves().len() < 200 {
        let engine = if game.position().side_to_move() == Color::Black { &mut *black } else { &mut *white };
        let r = engine.search(game.position(), &game.hashes(), limits, &|| 0.0, &stop, &mut homeostat_checkers::Silent);
        game.play(r.best.expect("a game not over has a move"));
    }
    game.outcome().as_ref().and_then(Outcome::winner)
}

fn match_command(args: &[String]) -> Result<(), String> {
    let mut games = 100u32;
    let mut limits = Limits::depth(6);
    let (mut base, mut test) = (EvalKind::Applet, EvalKind::Homeostat);
    let mut seed = 1u64;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{flag} needs a positive number, not '{value}'"))
        };
        match flag.as_str() {
            "--games" => games = number()?.max(2) as u32,
            "--depth" => limits.depth = Some(number()? as u32),
            "--nodes" => {
                limits.nodes = Some(number()?);
                limits.depth = None;
            }
            "--base" => base = parse_eval(value)?,
            "--test" => test = parse_eval(value)?,
            "--seed" => seed = value.parse().map_err(|_| format!("--seed needs a number, not '{value}'"))?,
            _ => return Err(format!("unknown option '{flag}'\n{USAGE}")),
        }
    }
    let mut rng = homeostat_checkers_rng(seed);
    let mut out = io::stdout().lock();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut pairs = [0u32; 5];
    for pair in 0..games.div_ceil(2) {
        // A random three-move opening (like the three-move ballot), the same for both games.
        let mut opening = Game::new();
        while opening.moves().len() < 3 {
            let moves = opening.position().legal_moves();
            opening.play(moves[(rng() % moves.len() as u64) as usize]);
        }
        let mut pair_points = 0;
        for test_black in [true, false] {
            let mut t = Engine::new(4);
            let mut b = Engine::new(4);
            t.set_eval(test);
            b.set_eval(base);
            t.set_seed(rng());
            b.set_seed(rng());
            let winner = if test_black {
                play_game(&opening, &mut t, &mut b, &limits)
            } else {
                play_game(&opening, &mut b, &mut t, &limits)
            };
            let test_color = if test_black { Color::Black } else { Color::White };
            match winner {
                Some(w) if w == test_color => {
                    wins += 1;
                    pair_points += 2;
                }
                Some(_) => losses += 1,
                None => {
                    draws += 1;
                    pair_points += 1;
                }
            }
        }
        pairs[pair_points] += 1;
        writeln!(out, "pair {}: {} ({})", pair + 1, pair_points, opening.movetext()).map_err(|e| e.to_string())?;
    }
    let n = (wins + draws + losses) as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / n;
    // The error bar comes from the spread of pair scores, which accounts for the openings.
    let pair_count = pairs.iter().sum::<u32>() as f64;
    let mean = pairs.iter().enumerate().map(|(i, &k)| i as f64 / 4.0 * k as f64).sum::<f64>() / pair_count;
    let var =
        pairs.iter().enumerate().map(|(i, &k)| k as f64 * (i as f64 / 4.0 - mean).powi(2)).sum::<f64>() / pair_count;
    let margin = 1.96 * (var / pair_count).sqrt();
    // Plus zero, so an even score prints as +0 rather than -0.
    let elo = |p: f64| if p > 0.0 && p < 1.0 { -400.0 * (1.0 / p - 1.0).log10() + 0.0 } else { f64::NAN };
    writeln!(
        out,
        "{test:?} vs {base:?}: +{wins} ={draws} -{losses} of {n}, score {:.1}%, Elo {:+.0} (95%: {:+.0} to {:+.0}), pentanomial pairs (0-4 half points) {pairs:?}",
        score * 100.0,
        elo(score),
        elo(mean - margin),
        elo(mean + margin)
    )
    .map_err(|e| e.to_string())
}

/// Positions for `bench`: the start, early middle games, a shot, and king endings.
const BENCH_FENS: [&str; 6] = [
    START_FEN_BENCH,
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    "B:W18,20,21,23,24,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13",
    "W:W22,23,27,32:B1,14,15",
    "B:W20,K27,31:B6,K18,K13",
    "W:WK10,K14,25,29:BK3,K23,12",
];
const START_FEN_BENCH: &str = homeostat_checkers::START_FEN;

fn bench_command(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.get(1) {
        return Err(format!("bench takes at most a DEPTH, not '{extra}'"));
    }
    let depth = match args.first() {
        Some(d) => {
            d.parse().ok().filter(|d| (1..=30).contains(d)).ok_or_else(|| format!("DEPTH must be 1-30, not '{d}'"))?
        }
        None => 10,
    };
    let started = Instant::now();
    let mut nodes = 0;
    let mut out = io::stdout().lock();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
        let mut engine = Engine::new(16);
        let r = engine.search(
            &pos,
            &[],
            &Limits::depth(depth),
            &|| 0.0,
            &AtomicBool::new(false),
            &mut homeostat_checkers::Silent,
        );
        let best = r.best.map_or("none".to_string(), |m| m.to_string());
        writeln!(out, "{fen}: {best} {} nodes {}", r.score.to_men_string(), r.nodes).map_err(|e| e.to_string())?;
        nodes += r.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    writeln!(out, "{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64).map_err(|e| e.to_string())
}

/// A SplitMix64 stream for the match's openings and seeds.
fn homeostat_checkers_rng(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
