//! Texel tuner: fits the evaluation's tapered weights to game results.
//!
//! `cargo run --release -p homeostat-engine --example texel -- positions.txt [EPOCHS] > tuned.rs`
//!
//! Input: `FEN | result` lines (result from White's side: 1, 0.5 or 0), as written by the
//! `selfplay` example. The tuner minimises the mean squared error between each result and
//! `sigmoid(K * eval / 400)`, where eval is the static evaluation from White's side.
//!
//! The weighted sum behind the evaluation is linear in every tapered weight, so each position
//! becomes a sparse list of coefficients, found by raising one weight at a time by 1 and reading
//! the change in [`Parts::total`]. K is fitted first with the starting weights, then all weights
//! move together by full-batch Adam, with a small pull back towards the start so that weights
//! with little evidence do not run off; weights seen in fewer than 2,000 positions stay put.
//! The king-danger unit weights are not linear and stay as they are. Output: a Rust file defining `TUNED`, the tuned weights (written to stdout, with
//! progress on stderr).

use homeostat_chess::Board;
use homeostat_engine::eval::{Parts, Weights, S};
use std::fmt::Write as _;

/// Weights used in fewer positions than this keep their starting value (too little evidence).
const MIN_SEEN: usize = 2_000;
/// Default penalty on the squared distance of a weight from its start, per (100 cp)², in error
/// units: moving a weight 100 cp must lower the mean squared error by more than this.
const PULL_TO_START: f64 = 2e-6;

/// One position reduced to what the error needs.
struct Sample {
    /// Weight indices and their coefficients (White minus Black counts).
    coefs: Vec<(u16, i16)>,
    /// The part of the sum no tapered weight explains (king danger), middlegame and endgame.
    fixed: (f64, f64),
    parts: Parts,
    result: f64,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: texel positions.txt [EPOCHS [all|terms [PULL]]] > tuned.rs");
        std::process::exit(2);
    };
    let epochs: usize = args.next().and_then(|e| e.parse().ok()).unwrap_or(3000);
    // `terms` keeps material and the piece-square tables and tunes the other terms only.
    let terms_only = args.next().is_some_and(|scope| scope == "terms");
    let pull: f64 = args.next().and_then(|p| p.parse().ok()).unwrap_or(PULL_TO_START);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let start = Weights::START;
    let mut params = Vec::new();
    start.clone().for_each_mut(|w| params.push(*w));
    eprintln!("{} tapered weights", params.len());

    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let samples = build_samples(&lines, &start, params.len());
    eprintln!("{} positions", samples.len());

    let mut values: Vec<(f64, f64)> = params.iter().map(|p| (p.mg as f64, p.eg as f64)).collect();
    let k = fit_k(&samples, &values);
    eprintln!("K = {k:.4}, error at start {:.6}", error(&samples, &values, k));
    let mut seen = vec![0usize; values.len()];
    samples.iter().flat_map(|s| &s.coefs).for_each(|&(i, _)| seen[i as usize] += 1);
    let tables = Weights::START.material.len() + 64 * Weights::START.psqt.len();
    let free: Vec<bool> = seen.iter().enumerate().map(|(i, &n)| n >= MIN_SEEN && !(terms_only && i < tables)).collect();
    eprintln!(
        "{} weights stay as they are (seen in fewer than {MIN_SEEN} positions{})",
        free.iter().filter(|f| !**f).count(),
        if terms_only { ", or material and tables" } else { "" }
    );
    adam(&samples, &mut values, &free, k, epochs, pull);
    eprintln!("error after {epochs} epochs {:.6}", error(&samples, &values, k));

    let mut tuned = start.clone();
    let mut i = 0;
    tuned.for_each_mut(|w| {
        *w = S { mg: values[i].0.round() as i32, eg: values[i].1.round() as i32 };
        i += 1;
    });
    let rounded: Vec<(f64, f64)> = {
        let mut v = Vec::new();
        tuned.clone().for_each_mut(|w| v.push((w.mg as f64, w.eg as f64)));
        v
    };
    eprintln!("error with rounded weights {:.6}", error(&samples, &rounded, k));
    let command: Vec<String> = std::env::args().skip(1).collect();
    print!("{}", rust_source(&tuned, &command.join(" "), samples.len(), k));
}

/// Parses the positions and finds every weight's coefficient in each (on all cores).
fn build_samples(lines: &[&str], start: &Weights, count: usize) -> Vec<Sample> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = lines.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().filter_map(|l| sample(l, start, count)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker thread")).collect()
    })
}

/// One labelled position as a [`Sample`]; `None` for a dead draw or a line that does not parse.
fn sample(line: &str, start: &Weights, count: usize) -> Option<Sample> {
    let (fen, result) = line.split_once('|')?;
    let result: f64 = result.trim().parse().ok()?;
    let board = Board::from_fen(fen.trim()).ok()?;
    let parts = Parts::of(&board, start)?;
    let mut coefs = Vec::new();
    let mut explained = (0.0, 0.0);
    let mut raised = start.clone();
    for index in 0..count {
        let original = nudge(&mut raised, index, 1);
        let changed = Parts::of(&board, &raised)?.total - parts.total;
        nudge(&mut raised, index, -1);
        // Every tapered weight enters the sum as a whole pair, times a count.
        assert_eq!(changed.mg, changed.eg, "weight {index} is not used as a pair");
        if changed.mg != 0 {
            coefs.push((index as u16, changed.mg as i16));
            explained.0 += (changed.mg * original.mg) as f64;
            explained.1 += (changed.eg * original.eg) as f64;
        }
    }
    let fixed = (parts.total.mg as f64 - explained.0, parts.total.eg as f64 - explained.1);
    Some(Sample { coefs, fixed, parts, result })
}

/// Adds `by` to both halves of tapered weight number `index`; returns its value before.
fn nudge(w: &mut Weights, index: usize, by: i32) -> S {
    let mut i = 0;
    let mut before = S::ZERO;
    w.for_each_mut(|v| {
        if i == index {
            before = *v;
            v.mg += by;
            v.eg += by;
        }
        i += 1;
    });
    before
}

/// The weighted sums (middlegame, endgame) of a sample with weights `values`, White minus Black.
fn sums(s: &Sample, values: &[(f64, f64)]) -> (f64, f64) {
    let (mut mg, mut eg) = s.fixed;
    for &(i, c) in &s.coefs {
        mg += values[i as usize].0 * c as f64;
        eg += values[i as usize].1 * c as f64;
    }
    (mg, eg)
}

/// The evaluation of a sample with weights `values`, from White's side.
fn eval(s: &Sample, values: &[(f64, f64)]) -> f64 {
    let (mg, eg) = sums(s, values);
    s.parts.score(mg, eg)
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// Mean squared error of the predicted results.
fn error(samples: &[Sample], values: &[(f64, f64)], k: f64) -> f64 {
    samples.iter().map(|s| (s.result - sigmoid(k, eval(s, values))).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The K that makes the starting weights predict best (golden-section search).
fn fit_k(samples: &[Sample], values: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.1, 5.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, values, a) < error(samples, values, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Full-batch Adam on the mean squared error.
fn adam(samples: &[Sample], values: &mut [(f64, f64)], free: &[bool], k: f64, epochs: usize, pull: f64) {
    const RATE: f64 = 1.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let n = values.len();
    let mut m = vec![(0.0, 0.0); n];
    let mut v = vec![(0.0, 0.0); n];
    let mut grad = vec![(0.0f64, 0.0f64); n];
    let start: Vec<(f64, f64)> = values.to_vec();
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = (0.0, 0.0));
        for s in samples {
            let (mg, eg) = sums(s, values);
            let p = sigmoid(k, s.parts.score(mg, eg));
            // d(error)/d(eval) for this sample; the eval's slope in mg and eg comes from the blend.
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
            let phase = s.parts.phase.clamp(0, 24) as f64 / 24.0;
            let scale = s.parts.eg_scale[usize::from(eg < 0.0)] as f64 / 128.0;
            let (dmg, deg) = (d * phase, d * scale * (1.0 - phase));
            for &(i, c) in &s.coefs {
                grad[i as usize].0 += dmg * c as f64;
                grad[i as usize].1 += deg * c as f64;
            }
        }
        let count = samples.len() as f64;
        for i in (0..n).filter(|&i| free[i]) {
            let pull_mg = (2.0 * pull / 1e4) * (values[i].0 - start[i].0);
            let pull_eg = (2.0 * pull / 1e4) * (values[i].1 - start[i].1);
            let g = (grad[i].0 / count + pull_mg, grad[i].1 / count + pull_eg);
            m[i] = (BETA1 * m[i].0 + (1.0 - BETA1) * g.0, BETA1 * m[i].1 + (1.0 - BETA1) * g.1);
            v[i] = (BETA2 * v[i].0 + (1.0 - BETA2) * g.0 * g.0, BETA2 * v[i].1 + (1.0 - BETA2) * g.1 * g.1);
            let mc = 1.0 - BETA1.powi(epoch as i32);
            let vc = 1.0 - BETA2.powi(epoch as i32);
            values[i].0 -= RATE * (m[i].0 / mc) / ((v[i].0 / vc).sqrt() + 1e-12);
            values[i].1 -= RATE * (m[i].1 / mc) / ((v[i].1 / vc).sqrt() + 1e-12);
        }
        if epoch % 250 == 0 {
            eprintln!("epoch {epoch}: error {:.6}", error(samples, values, k));
        }
    }
}

/// `[s(mg, eg), ...]` on one line.
fn list(values: &[S]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("s({}, {})", v.mg, v.eg)).collect();
    format!("[{}]", items.join(", "))
}

/// The tuned weights as a Rust source file.
fn rust_source(w: &Weights, command: &str, positions: usize, k: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "//! The tuned evaluation weights, written by the `texel` example (do not edit by hand):");
    let _ =
        writeln!(out, "//! `texel {command}`: {positions} positions, K = {k:.4}, starting from [`Weights::START`].");
    let _ = writeln!(out, "//! How the positions were made: see the `selfplay` example and the README.\n");
    let _ = writeln!(out, "use super::tapered::s;\nuse super::weights::Weights;\n");
    let _ = writeln!(
        out,
        "/// Weights fitted to self-play results.\n#[rustfmt::skip]\npub const TUNED: Weights = Weights {{"
    );
    let _ = writeln!(out, "    material: {},", list(&w.material));
    let _ = writeln!(out, "    // Piece-square tables by kind, a1 first, one rank (a to h) per line.\n    psqt: [");
    for table in &w.psqt {
        let _ = writeln!(out, "        [");
        for rank in table.chunks(8) {
            let items: Vec<String> = rank.iter().map(|v| format!("s({}, {})", v.mg, v.eg)).collect();
            let _ = writeln!(out, "            {},", items.join(", "));
        }
        let _ = writeln!(out, "        ],");
    }
    let _ = writeln!(out, "    ],");
    for (field, values) in [
        ("knight_mobility", &w.knight_mobility[..]),
        ("bishop_mobility", &w.bishop_mobility[..]),
        ("rook_mobility", &w.rook_mobility[..]),
        ("queen_mobility", &w.queen_mobility[..]),
    ] {
        let _ = writeln!(out, "    {field}: {},", list(values));
    }
    let single = |out: &mut String, field: &str, v: S| {
        let _ = writeln!(out, "    {field}: s({}, {}),", v.mg, v.eg);
    };
    single(&mut out, "rook_open_file", w.rook_open_file);
    single(&mut out, "rook_half_open_file", w.rook_half_open_file);
    single(&mut out, "rook_on_seventh", w.rook_on_seventh);
    single(&mut out, "bishop_pair", w.bishop_pair);
    single(&mut out, "knight_outpost", w.knight_outpost);
    single(&mut out, "pawn_isolated", w.pawn_isolated);
    single(&mut out, "pawn_doubled", w.pawn_doubled);
    single(&mut out, "pawn_backward", w.pawn_backward);
    let _ = writeln!(out, "    pawn_connected: {},", list(&w.pawn_connected));
    let _ = writeln!(out, "    passed_pawn: {},", list(&w.passed_pawn));
    let _ = writeln!(out, "    passed_free_path: {},", list(&w.passed_free_path));
    single(&mut out, "passed_enemy_king_distance", w.passed_enemy_king_distance);
    single(&mut out, "passed_own_king_distance", w.passed_own_king_distance);
    let _ = writeln!(out, "    king_shield: {},", list(&w.king_shield));
    single(&mut out, "king_open_file", w.king_open_file);
    single(&mut out, "castling_rights", w.castling_rights);
    let _ = writeln!(out, "    king_attack_units: {:?},", w.king_attack_units);
    let _ = writeln!(out, "    safe_check_units: {:?},", w.safe_check_units);
    single(&mut out, "threat_by_pawn", w.threat_by_pawn);
    single(&mut out, "threat_by_minor", w.threat_by_minor);
    single(&mut out, "threat_by_rook", w.threat_by_rook);
    single(&mut out, "hanging", w.hanging);
    single(&mut out, "center_control", w.center_control);
    single(&mut out, "tempo", w.tempo);
    let _ = writeln!(out, "}};");
    out
}
