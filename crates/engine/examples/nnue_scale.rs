//! Writes a net whose evaluation is another's times a factor: every output weight and bias times it,
//! rounded to the nearest integer (ties to even), the hidden layer as it was.
//!
//! `cargo run --release -p homeostat-engine --example nnue_scale -- IN.nnue OUT.nnue FACTOR [--relative-to
//! PARENT.nnue DATA.bin]`
//!
//! With `--relative-to`, FACTOR is relative to PARENT's scale: IN's scale against PARENT's is measured
//! first, as the least-squares slope (through zero) of IN's evaluation on PARENT's over every seventh
//! position of the `datagen` file DATA.bin where PARENT's lies within ±1000 cp, and the written net
//! evaluates FACTOR times PARENT's scale (IN times FACTOR / slope).
//!
//! Why: a net trained on its own search's scores evaluates on a larger scale than its parent (12-17 %
//! a generation, nets/README.md), while the search's margins are in centipawns, so the same knowledge
//! at another scale prunes differently. Prints the evaluation of a few positions by both nets.

use homeostat_chess::Board;
use homeostat_engine::datagen;
use homeostat_engine::nnue::Network;

const POSITIONS: [&str; 4] = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/ppp2ppp/2n5/3q4/8/8/PPP2PPP/R1BQK2R w KQkq - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PKP/1r6 b - - 0 40",
    "2r3k1/5pp1/p3p2p/1p1qP3/3P4/P4Q1P/1P3PP1/2R3K1 w - - 0 30",
];

fn load(path: &str) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
}

/// The least-squares slope through zero of `net`'s evaluation on `parent`'s over every seventh
/// position of a `datagen` file where the parent's lies within ±1000 cp, and how many counted.
fn slope(net: &Network, parent: &Network, data: &str) -> Result<(f64, usize), String> {
    let bytes = std::fs::read(data).map_err(|e| format!("{data}: {e}"))?;
    let games = datagen::read_games(&bytes).map_err(|e| format!("{data}: {}", e.0))?;
    let (mut pc, mut pp, mut n, mut k) = (0.0, 0.0, 0usize, 0usize);
    for game in &games.games {
        datagen::for_each_position(game, |p| {
            k += 1;
            if k % 7 == 0 {
                let base = f64::from(parent.evaluate(&p.board));
                if base.abs() <= 1000.0 {
                    pc += base * f64::from(net.evaluate(&p.board));
                    pp += base * base;
                    n += 1;
                }
            }
        })
        .map_err(|e| format!("{data}: {}", e.0))?;
    }
    if pp == 0.0 {
        return Err(format!("{data}: no position to measure the scale on"));
    }
    Ok((pc / pp, n))
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output, factor, relative) = match args.as_slice() {
        [i, o, f] => (i, o, f, None),
        [i, o, f, flag, parent, data] if flag == "--relative-to" => (i, o, f, Some((parent, data))),
        _ => return Err("usage: nnue_scale IN.nnue OUT.nnue FACTOR [--relative-to PARENT.nnue DATA.bin]".into()),
    };
    let mut factor: f64 = factor.parse().map_err(|_| format!("FACTOR must be a number, got '{factor}'"))?;
    if !(factor > 0.0 && factor <= 4.0) {
        return Err(format!("FACTOR must lie in (0, 4], got {factor}"));
    }
    let net = load(input)?;
    if let Some((parent, data)) = relative {
        let (s, n) = slope(&net, &load(parent)?, data)?;
        println!("{input} against {parent}: slope {s:.4} over {n} positions of {data}");
        factor /= s;
    }
    let (w1, b1, w2, b2) = net.parts();
    let out_weights = w2
        .iter()
        .map(|&w| {
            let v = (f64::from(w) * factor).round_ties_even();
            if v < f64::from(i16::MIN) || v > f64::from(i16::MAX) {
                Err(format!("an output weight {w} times {factor} does not fit 16 bits"))
            } else {
                Ok(v as i16)
            }
        })
        .collect::<Result<Vec<i16>, String>>()?;
    let out_bias = b2.iter().map(|&b| (f64::from(b) * factor).round_ties_even() as i32).collect();
    let scaled = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), out_weights, out_bias, net.qb())?
        .with_king_mirror(net.king_mirror());
    std::fs::write(output, scaled.to_bytes()).map_err(|e| format!("{output}: {e}"))?;
    println!("{output}: {input} times {factor}, fnv1a {:#018x}", scaled.checksum());
    for fen in POSITIONS {
        let board = Board::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        println!("{:>6} {:>6}  {fen}", net.evaluate(&board), scaled.evaluate(&board));
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("nnue_scale: {e}");
        std::process::exit(1);
    }
}
