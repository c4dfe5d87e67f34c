//! A neural evaluation (NNUE): a (768 → N)×2 → 1 perspective network with SCReLU, int16
//! weights, and accumulators the search updates move by move.
//!
//! Inputs are one-hot piece-square features seen from each side: for perspective `p`, a piece of
//! colour `c` and kind `k` on square `sq` is feature `(c == p ? 0 : 1) * 384 + k * 64 + sq'`, with
//! `sq'` the square mirrored top to bottom when `p` is Black. The hidden layer (N neurons, the
//! same weights for both perspectives) is kept as an accumulator per side; the output layer reads
//! the side to move's half first. Quantisation: hidden weights and biases ×[`QA`], output weights
//! ×[`QB`], output bias ×`QA·QB`; the output ×[`SCALE`] is centipawns.
//!
//! The same plain loops run natively and in WebAssembly; LLVM vectorises them (SSE/AVX natively,
//! `simd128` in the wasm build), except the output layer's dot product, written with `simd128`'s
//! pairwise multiply-add for wasm, which LLVM does not find there.

mod accumulator;

pub use accumulator::Stack;

use homeostat_chess::{Board, Color, Piece};
use std::sync::Arc;

/// Hidden activations are clipped to `[0, QA]` (and squared).
pub const QA: i32 = 255;
/// Output weights are quantised by this.
pub const QB: i32 = 64;
/// The network's output times this is centipawns.
pub const SCALE: i32 = 400;
/// Input features per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The net file's magic bytes.
pub const MAGIC: [u8; 8] = *b"HSTNNUE1";
/// Header length of a net file: magic, hidden size (u32), then the FNV-1a 64 checksum of the
/// weights that follow (u64).
pub const HEADER_LEN: usize = 20;

/// The net built into the engine (its recipe is in `nets/README.md`).
#[cfg(feature = "embedded-net")]
static EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `INPUTS` rows of `hidden` weights: the column a feature adds to the accumulator.
    l1_weights: Vec<i16>,
    l1_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    out_weights: Vec<i16>,
    out_bias: i32,
}

/// FNV-1a, 64 bits: the net file's checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

impl Network {
    /// The embedded network, shared; `None` when the build leaves it out (feature `embedded-net`
    /// off, as in the browser, which loads the net file) or if the committed file is broken (a test
    /// guards it).
    pub fn embedded() -> Option<Arc<Network>> {
        #[cfg(feature = "embedded-net")]
        {
            static NET: std::sync::OnceLock<Option<Arc<Network>>> = std::sync::OnceLock::new();
            NET.get_or_init(|| Network::from_bytes(EMBEDDED).ok().map(Arc::new)).clone()
        }
        #[cfg(not(feature = "embedded-net"))]
        None
    }

    /// The hidden layer's width N.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Reads a net file; an error that says what is wrong when it is not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
            return Err("not a Homeostat net (no HSTNNUE1 header)".into());
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let checksum = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        if hidden == 0 || hidden > 4096 {
            return Err(format!("net: hidden size {hidden} out of range"));
        }
        let body = &bytes[HEADER_LEN..];
        let expected = 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4;
        if body.len() != expected {
            return Err(format!("net: {} bytes of weights for hidden size {hidden}, expected {expected}", body.len()));
        }
        if fnv1a(body) != checksum {
            return Err("net: checksum mismatch (file damaged)".into());
        }
        let mut words = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let l1_weights = take(INPUTS * hidden);
        let l1_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let tail = &body[body.len() - 4..];
        let out_bias = i32::from_le_bytes(tail.try_into().expect("4 bytes"));
        Ok(Network { hidden, l1_weights, l1_bias, out_weights, out_bias })
    }

    /// The net file's bytes (header with checksum, then the weights).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for w in self.l1_weights.iter().chain(&self.l1_bias).chain(&self.out_weights) {
            body.extend_from_slice(&w.to_le_bytes());
        }
        body.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The net's identity: FNV-1a of its whole file, the figure its recipe quotes (the header's
    /// own checksum covers the weights only).
    pub fn checksum(&self) -> u64 {
        fnv1a(&self.to_bytes())
    }

    /// A network from quantised parts (the trainer's output); an error if the shapes disagree.
    pub fn from_parts(
        hidden: usize,
        l1_weights: Vec<i16>,
        l1_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, String> {
        if l1_weights.len() != INPUTS * hidden || l1_bias.len() != hidden || out_weights.len() != 2 * hidden {
            return Err("net: parts do not match the hidden size".into());
        }
        Ok(Network { hidden, l1_weights, l1_bias, out_weights, out_bias })
    }

    /// The quantised parts, as [`Network::from_parts`] takes them: hidden weights (feature-major),
    /// hidden biases, output weights (side to move's half first) and the output bias.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], i32) {
        (&self.l1_weights, &self.l1_bias, &self.out_weights, self.out_bias)
    }

    /// The column of feature `f`.
    #[inline]
    fn column(&self, f: usize) -> &[i16] {
        &self.l1_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Fills `acc` (both perspectives, White's first) from scratch for `board`.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let (white, black) = acc.split_at_mut(self.hidden);
        white.copy_from_slice(&self.l1_bias);
        black.copy_from_slice(&self.l1_bias);
        let mut occ = board.occupied().0;
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let sq_ = homeostat_chess::Square::new(sq as u8).expect("square below 64");
            let piece = board.piece_on(sq_).expect("occupied square");
            add(white, self.column(feature(Color::White, piece, sq)));
            add(black, self.column(feature(Color::Black, piece, sq)));
        }
    }

    /// The evaluation in centipawns, side to move's view, from an accumulator (White's half first).
    pub fn output(&self, acc: &[i16], side: Color) -> i32 {
        let (white, black) = acc.split_at(self.hidden);
        let (us, them) = if side == Color::White { (white, black) } else { (black, white) };
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        (sum / QA + self.out_bias) * SCALE / (QA * QB)
    }

    /// The evaluation of `board` from scratch (tests and one-off calls).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(board, &mut acc);
        self.output(&acc, board.side_to_move())
    }
}

/// The input feature of `piece` on square index `sq`, seen by `perspective`.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: usize) -> usize {
    let (relative_color, relative_sq) =
        if perspective == Color::White { (piece.color.index(), sq) } else { (1 - piece.color.index(), sq ^ 56) };
    relative_color * 384 + piece.kind.index() * 64 + relative_sq
}

#[inline]
fn add(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

/// Σ clamp(x, 0, QA)² · w: `clamp · w` fits in i16 (weights stay within ±127), the rest in i32.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline]
fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    screlu_dot_scalar(acc, weights)
}

/// [`screlu_dot`] one element at a time: natively LLVM vectorises it with a multiply-add of pairs.
#[inline]
fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> i32 {
    acc.iter().zip(weights).fold(0i32, |sum, (&x, &w)| {
        let c = x.clamp(0, QA as i16);
        sum.wrapping_add((c.wrapping_mul(w)) as i32 * c as i32)
    })
}

/// [`screlu_dot`] eight neurons at a time with `simd128`'s `i32x4.dot_i16x8_s`, the pairwise multiply-add
/// LLVM does not pick for the plain loop in wasm (it widens four lanes at a time instead). The sum is the same
/// number: each product fits in i32 and the sums wrap alike.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    use core::arch::wasm32::{
        i16x8_max, i16x8_min, i16x8_mul, i16x8_splat, i32x4_add, i32x4_dot_i16x8, i32x4_extract_lane, i32x4_splat,
        v128_load,
    };
    let (zero, qa) = (i16x8_splat(0), i16x8_splat(QA as i16));
    let mut sum = i32x4_splat(0);
    let (xs, ws) = (acc.chunks_exact(8), weights.chunks_exact(8));
    let tail = screlu_dot_scalar(xs.remainder(), ws.remainder());
    for (x, w) in xs.zip(ws) {
        // SAFETY: each chunk holds 8 i16, the 16 bytes a v128 load reads; wasm loads need no alignment.
        let (x, w) = unsafe { (v128_load(x.as_ptr().cast()), v128_load(w.as_ptr().cast())) };
        let c = i16x8_min(i16x8_max(x, zero), qa);
        sum = i32x4_add(sum, i32x4_dot_i16x8(i16x8_mul(c, w), c));
    }
    [
        i32x4_extract_lane::<0>(sum),
        i32x4_extract_lane::<1>(sum),
        i32x4_extract_lane::<2>(sum),
        i32x4_extract_lane::<3>(sum),
    ]
    .into_iter()
    .fold(tail, i32::wrapping_add)
}

#[cfg(all(test, feature = "embedded-net"))]
mod tests {
    use super::*;

    /// The committed net's checksum: update it (with the recipe in `nets/README.md`) when the net changes.
    const EMBEDDED_FNV: u64 = 0xbcb4_a989_9efa_a868;

    #[test]
    fn parts_rebuild_the_same_net() {
        let net = Network::embedded().expect("the built-in net");
        let (w1, b1, w2, b2) = net.parts();
        let again = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), w2.to_vec(), b2).unwrap();
        assert_eq!(again, *net);
        assert_eq!(again.checksum(), EMBEDDED_FNV);
    }

    #[test]
    fn the_embedded_net_loads_with_its_shape_and_checksum() {
        let net = Network::embedded().expect("the committed net parses");
        assert_eq!(EMBEDDED.len(), HEADER_LEN + 2 * (INPUTS * net.hidden() + 3 * net.hidden()) + 4);
        assert_eq!(fnv1a(EMBEDDED), EMBEDDED_FNV, "nets/default.nnue changed: update the checksum and recipe");
        assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&*net));
        // Symmetric positions are level, give or take the tempo the net may have learnt.
        let start = net.evaluate(&Board::startpos());
        assert!(start.abs() < 100, "start position scores {start}");
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = Network::embedded().unwrap().to_bytes();
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("expected"));
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 5] ^= 1;
        assert!(Network::from_bytes(&flipped).unwrap_err().contains("checksum"));
        assert!(Network::from_bytes(b"HSTNNUE0").is_err());
    }

    #[test]
    fn features_mirror_between_perspectives() {
        let wp = Piece::new(Color::White, homeostat_chess::PieceKind::Pawn);
        let bp = Piece::new(Color::Black, homeostat_chess::PieceKind::Pawn);
        // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
        assert_eq!(feature(Color::White, wp, 12), feature(Color::Black, bp, 52));
        assert_eq!(feature(Color::White, wp, 12), 12);
        assert_eq!(feature(Color::Black, wp, 12), 384 + 52);
    }
}
