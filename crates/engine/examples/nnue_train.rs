//! Trains the (768 → N)×2 → 1 SCReLU network on `homeostat datagen` files, on every core.
//!
//! `cargo run --release -p homeostat-engine --example nnue_train -- [options] DATA.bin...`
//!
//! Options: `--hidden N` (64), `--epochs E` (10), `--lr` (0.001), `--wdl λ` (0.3: the target is
//! λ·result + (1−λ)·sigmoid(score/400)), `--td λ` (0: with λ > 0 the score part of the target is the λ-return
//! over the game, (1−λ)·(p₀ + λ·p₁ + λ²·p₂ + …) + λ^(plies left)·result, where pₖ is the squashed search score
//! k plies later and everything is seen by this position's side to move: later searches saw further down the
//! line the game took), `--batch B` (16384), `--threads T` (all cores), `--seed S` (1), `--val-every K` (20:
//! games whose index hashes to 0 mod K are held out), `--mirror true|false`
//! (true: each position is also learnt reflected between the a- and h-files), `--out FILE`
//! (`crates/engine/nets/default.nnue`), `--init NETFILE` (start from a trained net rather than
//! random weights: its weights de-quantised, so training goes on from what it knows; with a larger
//! `--hidden` the extra units start with output weights of zero, so the wider net first computes
//! the same evaluation, and learn from there), `--buckets B` (1: output layers, one per band of
//! material as `nnue::output_bucket` cuts them; a net with one output layer given to `--init` starts
//! every bucket from it), `--king-mirror true|false` (false: true writes a net mirrored by the king,
//! `HSTNNUE4`, whose perspectives each see the board reflected a-file to h-file while their own king
//! stands on files a–d; with it, `--mirror` adds each position's reflection, which such a net sees
//! exactly as the position, so `--mirror false` halves the steps for the same knowledge), `--keep best|last`
//! (best: the epoch with the lowest validation loss is written; last: the last epoch's, for a target blended
//! with results, whose validation loss is lowest after an epoch or two while the score part is still learnt).
//!
//! Kept positions: the side to move is not in check, the engine's move is no capture or
//! promotion, and the score is no mate and within ±3000 cp. The loss is the mean squared error
//! between sigmoid(output) and the target, optimised by AdamW (weight decay 0.01 on weights) with
//! the learning rate decaying linearly to a tenth, keeping the epoch with the lowest validation
//! loss; weights are clipped to ±1.98 so the quantised net (`homeostat_engine::nnue`: QA 255,
//! QB 256, scale 400) cannot overflow. Prints the training
//! and validation loss per epoch, rewrites the net after each epoch that lowers the validation
//! loss (so a run cut short leaves its best net), and at the end `FILE.txt` with the recipe line.

use homeostat_chess::{Board, Color};
use homeostat_engine::datagen::{self, format::MAX_CP};
use homeostat_engine::nnue::{self, Network, INPUTS, QA, QB, SCALE};
use homeostat_engine::Rng;
use std::time::Instant;

/// Scores are squashed with this many centipawns (and so is the network's output, times SCALE).
const EVAL_SCALE: f32 = 400.0;
const CLIP: f32 = 1.98;
const MAX_SCORE: i16 = 3000;

#[derive(Clone, Copy)]
struct Sample {
    /// White-perspective features (Black's: [`black_feature`]).
    feats: [u16; 32],
    n: u8,
    /// What White's and Black's perspectives XOR their features with (`nnue::king_flip`; 0 in a net
    /// not mirrored by the king).
    flips: [u8; 2],
    black_to_move: bool,
    target_score: f32,
    result: f32,
}

struct Options {
    files: Vec<String>,
    hidden: usize,
    epochs: usize,
    lr: f32,
    wdl: f32,
    td: f32,
    batch: usize,
    threads: usize,
    seed: u64,
    val_every: u64,
    mirror: bool,
    out: String,
    init: Option<String>,
    buckets: usize,
    king_mirror: bool,
    keep_last: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        files: Vec::new(),
        hidden: 64,
        epochs: 10,
        lr: 0.001,
        wdl: 0.3,
        td: 0.0,
        batch: 16384,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        val_every: 20,
        mirror: true,
        out: "crates/engine/nets/default.nnue".into(),
        init: None,
        buckets: 1,
        king_mirror: false,
        keep_last: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with("--") {
            o.files.push(args[i].clone());
            i += 1;
            continue;
        }
        let v = args.get(i + 1).ok_or(format!("{a} needs a value"))?;
        let bad = || format!("{a}: bad value '{v}'");
        match a {
            "--hidden" => o.hidden = v.parse().map_err(|_| bad())?,
            "--epochs" => o.epochs = v.parse().map_err(|_| bad())?,
            "--lr" => o.lr = v.parse().map_err(|_| bad())?,
            "--wdl" => o.wdl = v.parse().map_err(|_| bad())?,
            "--td" => o.td = v.parse().map_err(|_| bad())?,
            "--batch" => o.batch = v.parse().map_err(|_| bad())?,
            "--threads" => o.threads = v.parse().map_err(|_| bad())?,
            "--seed" => o.seed = v.parse().map_err(|_| bad())?,
            "--val-every" => o.val_every = v.parse().map_err(|_| bad())?,
            "--out" => o.out = v.clone(),
            "--mirror" => o.mirror = v.parse().map_err(|_| bad())?,
            "--init" => o.init = Some(v.clone()),
            "--buckets" => o.buckets = v.parse().map_err(|_| bad())?,
            "--king-mirror" => o.king_mirror = v.parse().map_err(|_| bad())?,
            "--keep" => {
                o.keep_last = match v.as_str() {
                    "best" => false,
                    "last" => true,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(format!("unknown option {a}")),
        }
        i += 2;
    }
    if o.files.is_empty() || o.hidden == 0 || o.batch == 0 || o.threads == 0 || o.val_every < 2 {
        return Err(
            "usage: nnue_train [--hidden N] [--epochs E] [--lr LR] [--wdl L] [--td L] [--batch B] [--threads T] \
                    [--seed S] [--val-every K] [--out FILE] [--mirror true|false] [--init NETFILE] [--buckets B] \
                    [--king-mirror true|false] [--keep best|last] DATA.bin..."
                .into(),
        );
    }
    if !(1..=nnue::MAX_BUCKETS).contains(&o.buckets) {
        return Err(format!("--buckets must lie in 1 to {}", nnue::MAX_BUCKETS));
    }
    if !(0.0..=1.0).contains(&o.wdl) {
        return Err("--wdl must lie in [0, 1]".into());
    }
    if !(0.0..1.0).contains(&o.td) {
        return Err("--td must lie in [0, 1)".into());
    }
    Ok(o)
}

/// The score target of each ply of `g` (side to move's view), given the result for White: the squashed search
/// score, or with `td` > 0 the λ-return, G(t) = (1−λ)·p(t) + λ·(1 − G(t+1)), which ends in the result.
fn ply_targets(g: &datagen::GameRecord, result_white: f32, td: f32) -> Vec<f32> {
    let n = g.plies.len();
    let white_first = g.start.side_to_move() == Color::White;
    // The side to move after the last ply is White when the plies' count keeps White's turn.
    let white_last = white_first == n.is_multiple_of(2);
    let mut next = if white_last { result_white } else { 1.0 - result_white };
    let mut out = vec![0.0; n];
    for t in (0..n).rev() {
        let p = sigmoid(g.plies[t].1.clamp(-MAX_SCORE, MAX_SCORE) as f32 / EVAL_SCALE);
        // With λ 0 this is p to the bit: 1·p + 0·(1 − next).
        out[t] = (1.0 - td) * p + td * (1.0 - next);
        next = out[t];
    }
    out
}

fn sample(board: &Board, target: f32, result_white: f32, king_mirror: bool) -> Sample {
    let mut feats = [0u16; 32];
    let mut n = 0;
    let mut occ = board.occupied().0;
    while occ != 0 && n < 32 {
        let sq = occ.trailing_zeros() as usize;
        occ &= occ - 1;
        let piece = board.piece_on(homeostat_chess::Square::new(sq as u8).expect("square")).expect("occupied");
        feats[n] = nnue::feature(Color::White, piece, sq) as u16;
        n += 1;
    }
    let black = board.side_to_move() == Color::Black;
    let s = Sample {
        feats,
        n: n as u8,
        flips: [0; 2],
        black_to_move: black,
        target_score: target,
        result: if black { 1.0 - result_white } else { result_white },
    };
    with_flips(s, king_mirror)
}

/// `s` with its perspectives' flips set from its kings' files (`nnue::king_flip`), or cleared.
fn with_flips(mut s: Sample, king_mirror: bool) -> Sample {
    s.flips = [0; 2];
    if king_mirror {
        for &f in &s.feats[..s.n as usize] {
            let f = f as usize;
            if (f % 384) / 64 == 5 {
                s.flips[f / 384] = nnue::king_flip(f % 64) as u8;
            }
        }
    }
    s
}

/// The features of `s`'s side to move and of the other side, for White's feature `fw`.
#[inline]
fn perspectives(s: &Sample, fw: usize) -> (usize, usize) {
    let white = fw ^ s.flips[0] as usize;
    let black = black_feature(fw) ^ s.flips[1] as usize;
    if s.black_to_move {
        (black, white)
    } else {
        (white, black)
    }
}

/// The feature Black sees for White's feature `fw`: colours swapped, board mirrored.
fn black_feature(fw: usize) -> usize {
    (if fw >= 384 { fw - 384 } else { fw + 384 }) ^ 56
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Float parameters, laid out like the quantised net: per output bucket `2h` output weights and a bias.
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

impl Params {
    fn zeros(h: usize, buckets: usize) -> Params {
        Params { w1: vec![0.0; INPUTS * h], b1: vec![0.0; h], w2: vec![0.0; buckets * 2 * h], b2: vec![0.0; buckets] }
    }

    /// The output bucket that scores `s`.
    fn bucket(&self, s: &Sample) -> usize {
        nnue::output_bucket(s.n as u32, self.b2.len())
    }

    fn add(&mut self, o: &Params) {
        for (a, b) in self.w1.iter_mut().zip(&o.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&o.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&o.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&o.b2) {
            *a += b;
        }
    }
}

/// Forward pass: accumulators (side to move first) and the raw output.
fn forward(p: &Params, h: usize, s: &Sample, acc: &mut [f32]) -> f32 {
    let (us, them) = acc.split_at_mut(h);
    us.copy_from_slice(&p.b1);
    them.copy_from_slice(&p.b1);
    for &f in &s.feats[..s.n as usize] {
        let (fu, ft) = perspectives(s, f as usize);
        for (a, w) in us.iter_mut().zip(&p.w1[fu * h..(fu + 1) * h]) {
            *a += w;
        }
        for (a, w) in them.iter_mut().zip(&p.w1[ft * h..(ft + 1) * h]) {
            *a += w;
        }
    }
    let bucket = p.bucket(s);
    let mut out = p.b2[bucket];
    for (a, w) in acc.iter().zip(&p.w2[bucket * 2 * h..]) {
        let c = a.clamp(0.0, 1.0);
        out += c * c * w;
    }
    out
}

fn target(s: &Sample, wdl: f32) -> f32 {
    wdl * s.result + (1.0 - wdl) * s.target_score
}

/// Adds the batch's gradient to `g`; returns the summed loss.
fn backward(p: &Params, h: usize, batch: &[Sample], wdl: f32, g: &mut Params) -> f64 {
    let mut acc = vec![0.0f32; 2 * h];
    let mut gh = vec![0.0f32; 2 * h];
    let mut loss = 0.0f64;
    for s in batch {
        let out = forward(p, h, s, &mut acc);
        let pred = sigmoid(out);
        let err = pred - target(s, wdl);
        loss += (err * err) as f64;
        let d = 2.0 * err * pred * (1.0 - pred);
        let bucket = p.bucket(s);
        g.b2[bucket] += d;
        let (gw2, w2) = (&mut g.w2[bucket * 2 * h..], &p.w2[bucket * 2 * h..]);
        for i in 0..2 * h {
            let a = acc[i];
            let c = a.clamp(0.0, 1.0);
            gw2[i] += d * c * c;
            gh[i] = if a > 0.0 && a < 1.0 { d * w2[i] * 2.0 * a } else { 0.0 };
        }
        let (gu, gt) = gh.split_at(h);
        for (b, (x, y)) in g.b1.iter_mut().zip(gu.iter().zip(gt)) {
            *b += x + y;
        }
        for &f in &s.feats[..s.n as usize] {
            let (fu, ft) = perspectives(s, f as usize);
            for (w, x) in g.w1[fu * h..(fu + 1) * h].iter_mut().zip(gu) {
                *w += x;
            }
            for (w, x) in g.w1[ft * h..(ft + 1) * h].iter_mut().zip(gt) {
                *w += x;
            }
        }
    }
    loss
}

fn loss_of(p: &Params, h: usize, samples: &[Sample], wdl: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunk = samples.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut acc = vec![0.0f32; 2 * h];
                    part.iter()
                        .map(|s| {
                            let e = sigmoid(forward(p, h, s, &mut acc)) - target(s, wdl);
                            (e * e) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|t| t.join().expect("worker")).sum()
    });
    total / samples.len() as f64
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    /// One AdamW step on `params` (weight decay on weights only).
    fn step(&mut self, params: &mut [&mut [f32]], grads: &[&[f32]], decays: &[bool], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        const DECAY: f32 = 0.01;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let mut at = 0;
        for ((p, g), &decay) in params.iter_mut().zip(grads).zip(decays) {
            let m = &mut self.m[at..at + p.len()];
            let v = &mut self.v[at..at + p.len()];
            for (((w, &g), m), v) in p.iter_mut().zip(g.iter()).zip(m).zip(v) {
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                if decay {
                    *w -= lr * DECAY * *w;
                }
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
                *w = w.clamp(-CLIP, CLIP);
            }
            at += p.len();
        }
    }
}

/// Sets the first units of `p` to `net`'s de-quantised weights; the units beyond its width keep
/// their random hidden weights and get output weights of zero, so they change nothing at first.
/// A net with one output layer starts every bucket; otherwise the bucket counts must agree.
fn start_from(p: &mut Params, h: usize, net: &Network) -> Result<(), String> {
    let buckets = p.b2.len();
    if net.buckets() != 1 && net.buckets() != buckets {
        return Err(format!("it has {} output buckets, --buckets is {buckets}", net.buckets()));
    }
    let (w1, b1, w2, b2) = net.parts();
    let n = net.hidden();
    let (qa, qb) = (QA as f32, net.qb() as f32);
    for f in 0..INPUTS {
        for (dst, &q) in p.w1[f * h..f * h + n].iter_mut().zip(&w1[f * n..(f + 1) * n]) {
            *dst = q as f32 / qa;
        }
    }
    for (dst, &q) in p.b1.iter_mut().zip(b1) {
        *dst = q as f32 / qa;
    }
    for bucket in 0..buckets {
        let from = if net.buckets() == 1 { 0 } else { bucket };
        for side in 0..2 {
            let out = &mut p.w2[(2 * bucket + side) * h..(2 * bucket + side + 1) * h];
            out.fill(0.0);
            for (dst, &q) in out.iter_mut().zip(&w2[(2 * from + side) * n..(2 * from + side + 1) * n]) {
                *dst = q as f32 / qb;
            }
        }
        p.b2[bucket] = b2[from] as f32 / (qa * qb);
    }
    Ok(())
}

fn quantise(p: &Params, h: usize, king_mirror: bool) -> Network {
    let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
    Network::from_parts(
        h,
        p.w1.iter().map(|&w| q(w, QA)).collect(),
        p.b1.iter().map(|&w| q(w, QA)).collect(),
        p.w2.iter().map(|&w| q(w, QB)).collect(),
        p.b2.iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect(),
        QB,
    )
    .expect("shapes agree")
    .with_king_mirror(king_mirror)
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("nnue_train: {e}");
            std::process::exit(2);
        }
    };
    let h = o.hidden;
    let started = Instant::now();
    let (mut train, mut val) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    let mut all_positions = 0usize;
    for file in &o.files {
        let bytes = std::fs::read(file).unwrap_or_else(|e| {
            eprintln!("nnue_train: {file}: {e}");
            std::process::exit(2)
        });
        let data = datagen::read_games(&bytes).unwrap_or_else(|e| {
            eprintln!("nnue_train: {file}: {e}");
            std::process::exit(2)
        });
        for g in &data.games {
            if g.is_dropped() {
                continue;
            }
            games += 1;
            let held_out = datagen::game_seed(data.header.seed, g.index).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let into = if held_out.is_multiple_of(o.val_every) { &mut val } else { &mut train };
            let res = match g.result.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            let targets = ply_targets(g, res, o.td);
            let mut ply = 0;
            let outcome = datagen::for_each_position(g, |p| {
                let target = targets[ply];
                ply += 1;
                all_positions += 1;
                let b = &p.board;
                if b.in_check() || b.is_capture(p.mv) || p.mv.promotion().is_some() {
                    return;
                }
                if p.score.abs() > MAX_SCORE || p.score.abs() > MAX_CP {
                    return;
                }
                let s = sample(b, target, res, o.king_mirror);
                if o.mirror {
                    // The same position reflected a-file to h-file: as good for either side.
                    let mut m = s;
                    for f in &mut m.feats[..m.n as usize] {
                        *f ^= 7;
                    }
                    into.push(with_flips(m, o.king_mirror));
                }
                into.push(s);
            });
            if let Err(e) = outcome {
                eprintln!("nnue_train: {file}: {e} (game skipped)");
            }
        }
    }
    eprintln!(
        "{games} games, {all_positions} positions, {} kept for training, {} for validation ({:.1} s)",
        train.len(),
        val.len(),
        started.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        eprintln!("nnue_train: no training positions");
        std::process::exit(2);
    }

    let mut rng = Rng::new(o.seed);
    let mut p = Params::zeros(h, o.buckets);
    let uniform = |rng: &mut Rng, r: f32| (rng.unit() as f32 * 2.0 - 1.0) * r;
    for w in &mut p.w1 {
        *w = uniform(&mut rng, 0.15);
    }
    for w in &mut p.b1 {
        *w = 0.1 + uniform(&mut rng, 0.05);
    }
    let r2 = 1.0 / (2.0 * h as f32).sqrt();
    // Every bucket starts from the same random output layer.
    for w in &mut p.w2[..2 * h] {
        *w = uniform(&mut rng, r2);
    }
    let first = p.w2[..2 * h].to_vec();
    for bucket in p.w2.chunks_mut(2 * h).skip(1) {
        bucket.copy_from_slice(&first);
    }
    if let Some(file) = &o.init {
        let net = std::fs::read(file).map_err(|e| e.to_string()).and_then(|b| Network::from_bytes(&b));
        match net {
            Ok(net) if net.hidden() <= h => {
                if let Err(e) = start_from(&mut p, h, &net) {
                    eprintln!("nnue_train: --init {file}: {e}");
                    std::process::exit(2);
                }
                // Its weights start the new net whichever way each is mirrored: say so when they differ.
                let mirrored = |on: bool| if on { "mirrored by the king" } else { "not mirrored by the king" };
                let change = if net.king_mirror() == o.king_mirror {
                    String::new()
                } else {
                    format!(", {}, read as {}", mirrored(net.king_mirror()), mirrored(o.king_mirror))
                };
                eprintln!(
                    "from {file} (hidden {}{change}): validation loss {:.6} before training",
                    net.hidden(),
                    loss_of(&p, h, &val, o.wdl, o.threads)
                );
            }
            Ok(net) => {
                eprintln!("nnue_train: --init {file} has hidden size {}, more than --hidden {h}", net.hidden());
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("nnue_train: --init {file}: {e}");
                std::process::exit(2);
            }
        }
    }
    let n_params = p.w1.len() + p.b1.len() + p.w2.len() + p.b2.len();
    let mut adam = Adam { m: vec![0.0; n_params], v: vec![0.0; n_params], t: 0 };
    let steps_total = (o.epochs * train.len().div_ceil(o.batch)).max(1);
    let mut step = 0usize;
    let mut last = (f64::NAN, f64::NAN);
    // Early stopping: the net written is the one with the lowest validation loss (or the last, `--keep last`).
    let mut best: Option<(usize, f64, Params)> = None;
    for epoch in 1..=o.epochs {
        let t0 = Instant::now();
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        let mut train_loss = 0.0;
        for batch in train.chunks(o.batch) {
            let lr = o.lr * (1.0 - 0.9 * step as f32 / steps_total as f32);
            step += 1;
            let chunk = batch.len().div_ceil(o.threads);
            let (grad, loss) = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .map(|part| {
                        let p = &p;
                        scope.spawn(move || {
                            let mut g = Params::zeros(h, o.buckets);
                            let loss = backward(p, h, part, o.wdl, &mut g);
                            (g, loss)
                        })
                    })
                    .collect();
                let mut total = Params::zeros(h, o.buckets);
                let mut loss = 0.0;
                for t in handles {
                    let (g, l) = t.join().expect("worker");
                    total.add(&g);
                    loss += l;
                }
                (total, loss)
            });
            train_loss += loss;
            let scale = 1.0 / batch.len() as f32;
            let scaled = |v: &[f32]| v.iter().map(|x| x * scale).collect::<Vec<f32>>();
            let (g1, gb1, g2, gb2) = (scaled(&grad.w1), scaled(&grad.b1), scaled(&grad.w2), scaled(&grad.b2));
            adam.step(
                &mut [&mut p.w1, &mut p.b1, &mut p.w2, &mut p.b2],
                &[&g1, &gb1, &g2, &gb2],
                &[true, false, true, false],
                lr,
            );
        }
        let train_loss = train_loss / train.len() as f64;
        let val_loss = loss_of(&p, h, &val, o.wdl, o.threads);
        last = (train_loss, val_loss);
        if o.keep_last || best.as_ref().is_none_or(|b| val_loss < b.1) || val.is_empty() {
            best = Some((epoch, val_loss, p.clone()));
            // A run cut short still leaves its best net so far.
            if let Err(e) = std::fs::write(&o.out, quantise(&p, h, o.king_mirror).to_bytes()) {
                eprintln!("nnue_train: {}: {e}", o.out);
                std::process::exit(2);
            }
        }
        eprintln!(
            "epoch {epoch:3}: train loss {train_loss:.6}  validation loss {val_loss:.6}  ({:.1} s)",
            t0.elapsed().as_secs_f64()
        );
    }

    let (best_epoch, best_val) = match best {
        Some((epoch, loss, params)) => {
            p = params;
            (epoch, loss)
        }
        None => (0, f64::NAN),
    };
    let net = quantise(&p, h, o.king_mirror);
    // How far quantisation moves the evaluation, on validation positions.
    let mut diff = 0.0f64;
    let probe: Vec<&Sample> = val.iter().chain(&train).take(2000).collect();
    let mut acc = vec![0.0f32; 2 * h];
    for s in &probe {
        let float_cp = forward(&p, h, s, &mut acc) * SCALE as f32;
        let board = board_of(s);
        diff += (net.evaluate(&board) as f64 - float_cp as f64).abs();
    }
    let bytes = net.to_bytes();
    if let Err(e) = std::fs::write(&o.out, &bytes) {
        eprintln!("nnue_train: {}: {e}", o.out);
        std::process::exit(2);
    }
    let recipe = format!(
        "net {} (fnv1a {:#018x}, {} bytes): (768->{h})x2->1 SCReLU{}, QA {QA} QB {QB} scale {SCALE}; data {} ({games} games, \
         {} training + {} validation positions); {} epochs, batch {}, lr {} linear to a tenth, AdamW, wdl {}{}, mirror {}, seed {}{}; \
         last epoch train loss {:.6}, validation loss {:.6}; kept epoch {best_epoch} (validation loss {best_val:.6}); quantised vs float: {:.1} cp mean abs; {:.0} s on {} threads",
        o.out,
        nnue::fnv1a(&bytes),
        bytes.len(),
        net.layout_note(),
        o.files.join(" "),
        train.len(),
        val.len(),
        o.epochs,
        o.batch,
        o.lr,
        o.wdl,
        if o.td > 0.0 { format!(", td {}", o.td) } else { String::new() },
        o.mirror,
        o.seed,
        o.init.as_ref().map_or(String::new(), |f| format!(", from {f}")),
        last.0,
        last.1,
        diff / probe.len().max(1) as f64,
        started.elapsed().as_secs_f64(),
        o.threads
    );
    println!("{recipe}");
    let _ = std::fs::write(format!("{}.txt", o.out), format!("{recipe}\n"));
}

/// The board a sample came from (pieces and side to move only), for checking the quantised net.
fn board_of(s: &Sample) -> Board {
    let mut squares = [' '; 64];
    for &f in &s.feats[..s.n as usize] {
        let f = f as usize;
        let piece = homeostat_chess::Piece::new(
            if f >= 384 { Color::Black } else { Color::White },
            homeostat_chess::PieceKind::from_index((f % 384) / 64),
        );
        squares[f % 64] = piece.to_char();
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = squares[rank * 8 + file];
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(c);
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if s.black_to_move { " b - - 0 1" } else { " w - - 0 1" });
    Board::from_fen(&fen).expect("a position from the data")
}

#[cfg(test)]
mod tests {
    use super::*;
    use homeostat_chess::GameResult;

    /// Three plies from the start position with the given scores, Black winning.
    fn game(scores: [i16; 3]) -> datagen::GameRecord {
        let start = Board::default();
        let mut board = start;
        let mut plies = Vec::new();
        for (uci, score) in ["e2e4", "e7e5", "g1f3"].into_iter().zip(scores) {
            let m = board.parse_uci(uci).expect("legal");
            plies.push((m, score));
            board.play(m);
        }
        datagen::GameRecord { index: 0, start, result: GameResult::win_for(Color::Black), plies }
    }

    #[test]
    fn without_td_each_ply_keeps_its_own_squashed_score() {
        let targets = ply_targets(&game([40, -30, 4000]), 0.0, 0.0);
        assert_eq!(targets, vec![sigmoid(0.1), sigmoid(-0.075), sigmoid(MAX_SCORE as f32 / EVAL_SCALE)]);
    }

    #[test]
    fn the_lambda_return_blends_later_scores_and_ends_in_the_result() {
        let td = 0.5;
        let g = game([40, -30, 20]);
        let t = ply_targets(&g, 0.0, td);
        let p = |cp: f32| sigmoid(cp / EVAL_SCALE);
        // After the third ply Black is to move, and Black won.
        let last = (1.0 - td) * p(20.0) + td * (1.0 - 1.0);
        let middle = (1.0 - td) * p(-30.0) + td * (1.0 - last);
        let first = (1.0 - td) * p(40.0) + td * (1.0 - middle);
        for (got, want) in t.iter().zip([first, middle, last]) {
            assert!((got - want).abs() < 1e-6, "{t:?}");
        }
        // Written out: (1−λ)(p₀ + λ(1−p₁) + λ²p₂) + λ³·(White's result, 0).
        let direct = (1.0 - td) * (p(40.0) + td * (1.0 - p(-30.0)) + td * td * p(20.0)) + td * td * td * 0.0;
        assert!((t[0] - direct).abs() < 1e-6);
    }
}
