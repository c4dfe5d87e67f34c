//! A neural evaluation (NNUE): a (768 → N)×2 → 1 perspective network with SCReLU, int16
//! weights, and accumulators the search updates move by move.
//!
//! Inputs are one-hot piece-square features seen from each side: for perspective `p`, a piece of
//! colour `c` and kind `k` on square `sq` is feature `(c == p ? 0 : 1) * 384 + k * 64 + sq'`, with
//! `sq'` the square mirrored top to bottom when `p` is Black. The hidden layer (N neurons, the
//! same weights for both perspectives) is kept as an accumulator per side; the output layer reads
//! the side to move's half first. Quantisation: hidden weights and biases ×[`QA`], output weights
//! ×[`QB`], output bias ×`QA·QB`; the output ×[`SCALE`] is centipawns. Files of the first format
//! (`HSTNNUE1`) have output weights ×64 ([`QB_V1`]); they load and evaluate as they always did.
//! A net may have several output layers (`HSTNNUE3`), one per band of material on the board
//! ([`output_bucket`]): the hidden layer is shared, and each position is scored by its band's.
//! A net mirrored by the king (`HSTNNUE4`, laid out as `HSTNNUE3`) sees, from each perspective, the
//! board reflected between the a- and h-files while that perspective's own king stands on files a–d
//! ([`king_flip`]): one set of weights serves both wings, so what is learnt about a king on g1 also
//! holds for one on b1.
//!
//! The same plain loops run natively and in WebAssembly; LLVM vectorises them (SSE/AVX natively,
//! `simd128` in the wasm build), except the output layer's dot product, written with `simd128`'s
//! pairwise multiply-add for wasm, which LLVM does not find there.

mod accumulator;
mod packed;

pub use accumulator::Stack;
pub use packed::{pack, unpack, MAGIC_PACKED};

use homeostat_chess::{Board, Color, Piece};
use std::sync::Arc;

/// Hidden activations are clipped to `[0, QA]` (and squared).
pub const QA: i32 = 255;
/// Output weights are quantised by this: a step of 1/256 keeps a quantised net within about 2 cp of
/// the trained one, where 1/64 cost 8 to 10 cp once nets were trained further.
pub const QB: i32 = 256;
/// The output weights' quantisation in the first format (`HSTNNUE1`).
pub const QB_V1: i32 = 64;
/// The network's output times this is centipawns.
pub const SCALE: i32 = 400;
/// Input features per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The net file's magic bytes (output weights ×[`QB`]).
pub const MAGIC: [u8; 8] = *b"HSTNNUE2";
/// The first format's magic bytes: the same layout, output weights ×[`QB_V1`].
pub const MAGIC_V1: [u8; 8] = *b"HSTNNUE1";
/// Magic bytes of a net with output buckets: output weights ×[`QB`], and after the hidden size the
/// number of output buckets (u32); then, per bucket, its output weights, then every bucket's bias.
pub const MAGIC_BUCKETS: [u8; 8] = *b"HSTNNUE3";
/// Magic bytes of a net mirrored by the king ([`king_flip`]), laid out as [`MAGIC_BUCKETS`].
pub const MAGIC_KING_MIRROR: [u8; 8] = *b"HSTNNUE4";
/// The built-in net's hidden width. The accumulator updates and the output layer see it as a constant
/// length, so the compiler unrolls their loops for it: without their counters and, in wasm, the stack check
/// V8 puts at every loop head, the evaluation takes 13 % fewer instructions in wasm, 12 % natively
/// (`tools/wasm-instructions.py`).
pub const UNROLLED_WIDTH: usize = 128;

/// Header length of a net file: magic, hidden size (u32), then the FNV-1a 64 checksum of the
/// weights that follow (u64).
pub const HEADER_LEN: usize = 20;
/// Header length of a net with output buckets (`HSTNNUE3`): the bucket count (u32) follows the hidden size.
pub const HEADER_LEN_BUCKETS: usize = 24;
/// The most output buckets a net may have (one per piece count from 2 to 32).
pub const MAX_BUCKETS: usize = 31;

/// The output bucket of a position with `pieces` pieces (kings included) in a net of `buckets`:
/// the 2 to 32 pieces a board can hold, cut into `buckets` bands as even as they can be (for 8:
/// 2–5 pieces, 6–9, …, 30–32). The trainer picks buckets with this same function.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 31).min(buckets - 1)
}

/// The net built into the engine (its recipe is in `nets/README.md`).
#[cfg(feature = "embedded-net")]
static EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// The output weights' quantisation: [`QB`], or [`QB_V1`] for a net of the first format.
    qb: i32,
    /// `INPUTS` rows of `hidden` weights: the column a feature adds to the accumulator.
    l1_weights: Vec<i16>,
    l1_bias: Vec<i16>,
    /// Per bucket, the side to move's `hidden` weights, then the other side's.
    out_weights: Vec<i16>,
    /// Per output bucket (one per band of material, [`output_bucket`]; one in the first two formats),
    /// the output bias.
    out_bias: Vec<i32>,
    /// Whether each perspective's features are mirrored by its king's file ([`king_flip`]).
    king_mirror: bool,
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

    /// The number of output buckets (1: a single output layer).
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// Whether the net is mirrored by the king ([`king_flip`], format `HSTNNUE4`).
    pub fn king_mirror(&self) -> bool {
        self.king_mirror
    }

    /// What the net has beyond one output layer, for its description: ", 8 output buckets, mirrored by
    /// the king", or nothing.
    pub fn layout_note(&self) -> String {
        let buckets = match self.buckets() {
            1 => String::new(),
            n => format!(", {n} output buckets"),
        };
        let mirror = if self.king_mirror { ", mirrored by the king" } else { "" };
        format!("{buckets}{mirror}")
    }

    /// The same weights read as a net mirrored by the king (`true`) or not.
    pub fn with_king_mirror(mut self, on: bool) -> Network {
        self.king_mirror = on;
        self
    }

    /// What perspective `perspective`'s features of `board` are XORed with: [`king_flip`] of its king
    /// in a net mirrored by the king, else 0.
    #[inline]
    pub fn flip(&self, board: &Board, perspective: Color) -> usize {
        if self.king_mirror {
            king_flip(board.king(perspective).index())
        } else {
            0
        }
    }

    /// Reads a net file, as it is or packed ([`pack`]); an error that says what is wrong when it is not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.starts_with(&MAGIC_PACKED) {
            let file = unpack(bytes)?;
            if file.starts_with(&MAGIC_PACKED) {
                return Err("net: a packed net packed again".into());
            }
            return Network::from_bytes(&file);
        }
        let (qb, header_len, king_mirror) = match bytes.get(..8) {
            Some(m) if m == MAGIC => (QB, HEADER_LEN, false),
            Some(m) if m == MAGIC_V1 => (QB_V1, HEADER_LEN, false),
            Some(m) if m == MAGIC_BUCKETS => (QB, HEADER_LEN_BUCKETS, false),
            Some(m) if m == MAGIC_KING_MIRROR => (QB, HEADER_LEN_BUCKETS, true),
            _ => return Err("not a Homeostat net (no HSTNNUE header)".into()),
        };
        if bytes.len() < header_len {
            return Err("net: the header is cut short".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let hidden = word(8);
        let buckets = if header_len == HEADER_LEN_BUCKETS { word(12) } else { 1 };
        let checksum = u64::from_le_bytes(bytes[header_len - 8..header_len].try_into().expect("8 bytes"));
        if hidden == 0 || hidden > 4096 {
            return Err(format!("net: hidden size {hidden} out of range"));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!("net: {buckets} output buckets, expected 1 to {MAX_BUCKETS}"));
        }
        let body = &bytes[header_len..];
        let expected = 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
        if body.len() != expected {
            return Err(format!(
                "net: {} bytes of weights for hidden size {hidden} and {buckets} output bucket(s), expected {expected}",
                body.len()
            ));
        }
        if fnv1a(body) != checksum {
            return Err("net: checksum mismatch (file damaged)".into());
        }
        let mut words = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let l1_weights = take(INPUTS * hidden);
        let l1_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let biases = &body[body.len() - 4 * buckets..];
        let out_bias = biases.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        Ok(Network::from_parts(hidden, l1_weights, l1_bias, out_weights, out_bias, qb)?.with_king_mirror(king_mirror))
    }

    /// The net file's bytes (header with checksum, then the weights): a net with one output layer
    /// in the format it was read in (`HSTNNUE2`, or `HSTNNUE1` for its output scale), one with
    /// several as `HSTNNUE3`, one mirrored by the king as `HSTNNUE4`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for w in self.l1_weights.iter().chain(&self.l1_bias).chain(&self.out_weights) {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let magic = match (self.king_mirror, self.buckets(), self.qb) {
            (true, _, _) => MAGIC_KING_MIRROR,
            (_, 1, QB_V1) => MAGIC_V1,
            (_, 1, _) => MAGIC,
            _ => MAGIC_BUCKETS,
        };
        let mut out = magic.to_vec();
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if magic == MAGIC_BUCKETS || magic == MAGIC_KING_MIRROR {
            out.extend_from_slice(&(self.buckets() as u32).to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The net's identity: FNV-1a of its whole file, the figure its recipe quotes (the header's
    /// own checksum covers the weights only).
    pub fn checksum(&self) -> u64 {
        fnv1a(&self.to_bytes())
    }

    /// A network from quantised parts (the trainer's output, `qb` [`QB`]): as many output biases as
    /// output buckets, and for each bucket `2 * hidden` output weights; not mirrored by the king
    /// ([`Network::with_king_mirror`]). An error if the shapes disagree or the output could overflow.
    pub fn from_parts(
        hidden: usize,
        l1_weights: Vec<i16>,
        l1_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
        qb: i32,
    ) -> Result<Network, String> {
        let buckets = out_bias.len();
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!("net: {buckets} output buckets, expected 1 to {MAX_BUCKETS}"));
        }
        if l1_weights.len() != INPUTS * hidden || l1_bias.len() != hidden || out_weights.len() != buckets * 2 * hidden {
            return Err("net: parts do not match the hidden size".into());
        }
        if qb != QB && qb != QB_V1 {
            return Err(format!("net: output quantisation {qb}, expected {QB} or {QB_V1}"));
        }
        if qb == QB_V1 && buckets > 1 {
            return Err(format!("net: output buckets need the output quantisation {QB}"));
        }
        // Each half of the output sums bytes (0–255) times weights in i32 lanes (see `square_sum`).
        for half in out_weights.chunks(hidden) {
            if half.iter().map(|&w| (w as i64).abs()).sum::<i64>() * 255 > i32::MAX as i64 {
                return Err("net: output weights too large to sum in 32 bits".into());
            }
        }
        Ok(Network { hidden, qb, l1_weights, l1_bias, out_weights, out_bias, king_mirror: false })
    }

    /// The output weights' quantisation, [`QB`] or [`QB_V1`] (as [`Network::from_parts`] takes it).
    pub fn qb(&self) -> i32 {
        self.qb
    }

    /// The quantised parts, as [`Network::from_parts`] takes them: hidden weights (feature-major),
    /// hidden biases, output weights (per bucket, side to move's half first) and the output biases.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.l1_weights, &self.l1_bias, &self.out_weights, &self.out_bias)
    }

    /// The column of feature `f`.
    #[inline]
    fn column(&self, f: usize) -> &[i16] {
        &self.l1_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Fills `acc` (both perspectives, White's first) from scratch for `board`.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let (white, black) = acc.split_at_mut(self.hidden);
        self.refresh_side(board, Color::White, white);
        self.refresh_side(board, Color::Black, black);
    }

    /// Fills `half` with perspective `perspective`'s accumulator of `board`, from scratch.
    pub fn refresh_side(&self, board: &Board, perspective: Color, half: &mut [i16]) {
        half.copy_from_slice(&self.l1_bias);
        let flip = self.flip(board, perspective);
        let mut occ = board.occupied().0;
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let sq_ = homeostat_chess::Square::new(sq as u8).expect("square below 64");
            let piece = board.piece_on(sq_).expect("occupied square");
            add(half, self.column(feature(perspective, piece, sq) ^ flip));
        }
    }

    /// The output bucket that scores `board`.
    #[inline]
    pub fn bucket_of(&self, board: &Board) -> usize {
        output_bucket(board.occupied().count(), self.buckets())
    }

    /// Output bucket `bucket`'s layer: its 2N weights (side to move's half first) and its bias.
    #[inline]
    pub fn output_layer(&self, bucket: usize) -> (&[i16], i32) {
        (&self.out_weights[bucket * 2 * self.hidden..][..2 * self.hidden], self.out_bias[bucket])
    }

    /// The evaluation in centipawns, side to move's view, from an accumulator (White's half first),
    /// by output bucket `bucket`.
    pub fn output(&self, acc: &[i16], side: Color, bucket: usize) -> i32 {
        let (white, black) = acc.split_at(self.hidden);
        let (us, them) = if side == Color::White { (white, black) } else { (black, white) };
        let (weights, bias) = self.output_layer(bucket);
        let (w_us, w_them) = weights.split_at(self.hidden);
        let sum = if self.hidden == UNROLLED_WIDTH {
            const N: usize = UNROLLED_WIDTH;
            square_sum(screlu_dot(&us[..N], &w_us[..N])) + square_sum(screlu_dot(&them[..N], &w_them[..N]))
        } else {
            square_sum(screlu_dot(us, w_us)) + square_sum(screlu_dot(them, w_them))
        };
        ((sum / QA as i64 + bias as i64) * SCALE as i64 / (QA * self.qb) as i64) as i32
    }

    /// The evaluation of `board` from scratch (tests and one-off calls).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(board, &mut acc);
        self.output(&acc, board.side_to_move(), self.bucket_of(board))
    }
}

/// The input feature of `piece` on square index `sq`, seen by `perspective`.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: usize) -> usize {
    let (relative_color, relative_sq) =
        if perspective == Color::White { (piece.color.index(), sq) } else { (1 - piece.color.index(), sq ^ 56) };
    relative_color * 384 + piece.kind.index() * 64 + relative_sq
}

/// What a perspective whose king stands on square index `king` XORs its features with in a net mirrored
/// by the king: 7 (the board reflected between the a- and h-files) for a king on files a–d, else 0.
/// The reflection keeps a feature's colour, kind and rank, so it is the same for either perspective.
#[inline]
pub fn king_flip(king: usize) -> usize {
    if king % 8 < 4 {
        7
    } else {
        0
    }
}

#[inline]
fn add(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

/// Σ clamp(x, 0, QA)² · w, exactly, from the two sums `screlu_dot` returns. The square (up to 65,025)
/// does not fit in i16, so it is split into its high and low bytes, each multiplied by the weights in i16
/// pairs summed in i32 ([`Network::from_parts`] refuses weights whose sums could wrap): two multiply-adds
/// where one sufficed while `clamp · w` fitted in i16, which held for weights within ±127 only.
#[inline]
fn square_sum((high, low): (i32, i32)) -> i64 {
    256 * high as i64 + low as i64
}

#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
use screlu_dot_scalar as screlu_dot;

/// `screlu_dot_scalar` eight neurons at a time with SSE2's `pmaddwd` (x86-64's baseline), as the wasm
/// version below does with simd128: LLVM vectorises the plain loop four lanes at a time only.
#[cfg(target_arch = "x86_64")]
#[inline]
fn screlu_dot(acc: &[i16], weights: &[i16]) -> (i32, i32) {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_madd_epi16, _mm_max_epi16,
        _mm_min_epi16, _mm_mullo_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi32, _mm_srli_epi16,
    };
    // SAFETY: SSE2 is part of x86-64; each chunk holds the 8 i16 an unaligned 16-byte load reads.
    unsafe {
        let (zero, qa, byte) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16), _mm_set1_epi16(0xFF));
        let (mut high, mut low) = (_mm_setzero_si128(), _mm_setzero_si128());
        let (xs, ws) = (acc.chunks_exact(8), weights.chunks_exact(8));
        let (tail_high, tail_low) = screlu_dot_scalar(xs.remainder(), ws.remainder());
        for (x, w) in xs.zip(ws) {
            let x = _mm_loadu_si128(x.as_ptr().cast());
            let w = _mm_loadu_si128(w.as_ptr().cast());
            let c = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
            let square = _mm_mullo_epi16(c, c);
            high = _mm_add_epi32(high, _mm_madd_epi16(_mm_srli_epi16(square, 8), w));
            low = _mm_add_epi32(low, _mm_madd_epi16(_mm_and_si128(square, byte), w));
        }
        let lanes = |v: __m128i| {
            let v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0b01_00_11_10));
            _mm_cvtsi128_si32(_mm_add_epi32(v, _mm_shuffle_epi32(v, 0b10_11_00_01)))
        };
        (lanes(high) + tail_high, lanes(low) + tail_low)
    }
}

/// c²'s high and low bytes times the weights, summed apart (the two sums [`square_sum`] joins), one
/// element at a time.
#[inline]
fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> (i32, i32) {
    acc.iter().zip(weights).fold((0i32, 0i32), |(high, low), (&x, &w)| {
        let c = x.clamp(0, QA as i16) as u16;
        let square = c * c;
        (high + (square >> 8) as i32 * w as i32, low + (square & 0xFF) as i32 * w as i32)
    })
}

/// `screlu_dot_scalar` eight neurons at a time with `simd128`'s `i32x4.dot_i16x8_s`, the pairwise multiply-add
/// LLVM does not pick for the plain loop in wasm (it widens four lanes at a time instead), once for each byte
/// of c². The sums are the same numbers as the plain loop's: no product or partial sum leaves i32.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn screlu_dot(acc: &[i16], weights: &[i16]) -> (i32, i32) {
    use core::arch::wasm32::{
        i16x8_max, i16x8_min, i16x8_mul, i16x8_splat, i32x4_add, i32x4_dot_i16x8, i32x4_extract_lane, i32x4_splat,
        u16x8_shr, v128, v128_and, v128_load,
    };
    let (zero, qa, byte) = (i16x8_splat(0), i16x8_splat(QA as i16), i16x8_splat(0xFF));
    let (mut high, mut low) = (i32x4_splat(0), i32x4_splat(0));
    let (xs, ws) = (acc.chunks_exact(8), weights.chunks_exact(8));
    let (tail_high, tail_low) = screlu_dot_scalar(xs.remainder(), ws.remainder());
    for (x, w) in xs.zip(ws) {
        // SAFETY: each chunk holds 8 i16, the 16 bytes a v128 load reads; wasm loads need no alignment.
        let (x, w) = unsafe { (v128_load(x.as_ptr().cast()), v128_load(w.as_ptr().cast())) };
        let c = i16x8_min(i16x8_max(x, zero), qa);
        // c² wraps in i16, but its 16 bits are right read as unsigned.
        let square = i16x8_mul(c, c);
        high = i32x4_add(high, i32x4_dot_i16x8(u16x8_shr(square, 8), w));
        low = i32x4_add(low, i32x4_dot_i16x8(v128_and(square, byte), w));
    }
    let lanes = |v: v128, tail: i32| {
        tail + i32x4_extract_lane::<0>(v)
            + i32x4_extract_lane::<1>(v)
            + i32x4_extract_lane::<2>(v)
            + i32x4_extract_lane::<3>(v)
    };
    (lanes(high, tail_high), lanes(low, tail_low))
}

#[cfg(all(test, feature = "embedded-net"))]
mod tests {
    use super::*;

    /// The committed net's checksum: update it (with the recipe in `nets/README.md`) when the net changes.
    const EMBEDDED_FNV: u64 = 0x4427_2cc6_34ba_1d33;

    #[test]
    fn parts_rebuild_the_same_net() {
        let net = Network::embedded().expect("the built-in net");
        let (w1, b1, w2, b2) = net.parts();
        let again = Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), w2.to_vec(), b2.to_vec(), net.qb())
            .unwrap()
            .with_king_mirror(net.king_mirror());
        assert_eq!(again, *net);
        assert_eq!(again.checksum(), EMBEDDED_FNV);
    }

    #[test]
    fn the_embedded_net_loads_with_its_shape_and_checksum() {
        let net = Network::embedded().expect("the committed net parses");
        // Hidden weights and biases, then per output bucket 2N weights (i16) and one bias (i32).
        let (h, b) = (net.hidden(), net.buckets());
        assert_eq!(b, 8, "the built-in net has eight output buckets");
        assert_eq!(EMBEDDED.len(), HEADER_LEN_BUCKETS + 2 * (INPUTS * h + h + b * 2 * h) + 4 * b);
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

    /// The net with only output bucket `bucket`'s layer: a net of the one-layer formats, from real weights.
    fn one_layer(net: &Network, bucket: usize) -> Network {
        let (w1, b1, _, _) = net.parts();
        let (w2, b2) = net.output_layer(bucket);
        Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), w2.to_vec(), vec![b2], net.qb()).unwrap()
    }

    /// `net` written in the current format, its output layer scaled from [`QB_V1`] to [`QB`] (exact).
    fn rescaled(net: &Network) -> Network {
        let (w1, b1, w2, b2) = net.parts();
        let k = QB / net.qb();
        let w2 = w2.iter().map(|&w| w * k as i16).collect();
        Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), w2, b2.iter().map(|b| b * k).collect(), QB).unwrap()
    }

    const SAMPLE_FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "2r3k1/pp2rppp/2n2n2/q1bp4/3N4/2P1BQ2/PP3PPP/R3R1K1 b - - 0 19",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    #[test]
    fn both_formats_load_write_back_and_agree() {
        // The built-in net's middle-game layer, at the old output scale: HSTNNUE1 to HSTNNUE2.
        let layer = one_layer(&Network::embedded().unwrap(), 4);
        let (w1, b1, w2, b2) = layer.parts();
        let k = QB / QB_V1;
        let (w2, b2) = (w2.iter().map(|&w| w / k as i16).collect(), b2.iter().map(|&b| b / k).collect());
        let net = Network::from_parts(layer.hidden(), w1.to_vec(), b1.to_vec(), w2, b2, QB_V1).unwrap();
        assert_eq!(&net.to_bytes()[..8], &MAGIC_V1);
        let again = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(again.qb(), net.qb());
        assert_eq!(again.to_bytes(), net.to_bytes());
        let current = rescaled(&net);
        let bytes = current.to_bytes();
        assert_eq!(&bytes[..8], &MAGIC);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), current);
        for fen in SAMPLE_FENS {
            let board = Board::from_fen(fen).unwrap();
            // The same weights at four times the scale: equal but for the rounding of the last division.
            assert!((net.evaluate(&board) - current.evaluate(&board)).abs() <= 1, "{fen}");
        }
    }

    #[test]
    fn the_output_is_the_exact_sum_of_squares_times_weights() {
        let net = Network::embedded().unwrap();
        for net in [net.as_ref().clone(), one_layer(&net, 3)] {
            let (_, _, w2, b2) = net.parts();
            for fen in SAMPLE_FENS {
                let board = Board::from_fen(fen).unwrap();
                let bucket = net.bucket_of(&board);
                let (w2, b2) = (&w2[bucket * 2 * net.hidden()..][..2 * net.hidden()], b2[bucket]);
                let mut acc = vec![0i16; 2 * net.hidden()];
                net.refresh(&board, &mut acc);
                let (white, black) = acc.split_at(net.hidden());
                let (us, them) = if board.side_to_move() == Color::White { (white, black) } else { (black, white) };
                let activations = us.iter().chain(them).map(|&x| x.clamp(0, QA as i16) as i64);
                let sum: i64 = activations.zip(w2).map(|(c, &w)| c * c * w as i64).sum();
                let expected = (sum / QA as i64 + b2 as i64) * SCALE as i64 / (QA * net.qb()) as i64;
                assert_eq!(net.evaluate(&board) as i64, expected, "{fen}");
            }
        }
    }

    #[test]
    fn the_vector_dot_equals_the_plain_loop() {
        // Any i16 accumulator (below zero, above QA) and weight, lengths with and without a tail.
        let mut rng = crate::rng::Rng::new(11);
        for len in [0, 1, 7, 8, 9, 128, 131] {
            for _ in 0..50 {
                let acc: Vec<i16> = (0..len).map(|_| rng.next_u64() as i16).collect();
                let weights: Vec<i16> = (0..len).map(|_| rng.next_u64() as i16).collect();
                assert_eq!(screlu_dot(&acc, &weights), screlu_dot_scalar(&acc, &weights), "{len}");
            }
        }
    }

    #[test]
    fn nets_the_output_cannot_sum_are_refused() {
        let hidden = 300;
        let (w1, b1) = (vec![0; INPUTS * hidden], vec![0; hidden]);
        let big = vec![i16::MAX; 2 * hidden];
        let err = Network::from_parts(hidden, w1.clone(), b1.clone(), big, vec![0], QB).unwrap_err();
        assert!(err.contains("too large"), "{err}");
        let err = Network::from_parts(hidden, w1.clone(), b1.clone(), vec![0; 2 * hidden], vec![0], 100).unwrap_err();
        assert!(err.contains("quantisation 100"), "{err}");
        let err = Network::from_parts(hidden, w1.clone(), b1.clone(), vec![0; 2 * hidden], vec![], QB).unwrap_err();
        assert!(err.contains("0 output buckets"), "{err}");
        let err = Network::from_parts(hidden, w1, b1, vec![0; 2 * hidden], vec![0, 0], QB).unwrap_err();
        assert!(err.contains("do not match"), "{err}");
    }

    /// The embedded net with `buckets` output layers, each a copy of its one, bucket `changed`'s
    /// bias raised by `raise` (output units: `QA · QB` is a centipawn over [`SCALE`]).
    fn bucketed(net: &Network, buckets: usize, changed: usize, raise: i32) -> Network {
        let current = rescaled(net);
        let (w1, b1, w2, b2) = current.parts();
        let out_weights = w2.repeat(buckets);
        let mut out_bias = vec![b2[0]; buckets];
        out_bias[changed] += raise;
        Network::from_parts(net.hidden(), w1.to_vec(), b1.to_vec(), out_weights, out_bias, QB).unwrap()
    }

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces, 1), 0);
            // Eight buckets: four piece counts each, the last 30 to 32.
            assert_eq!(output_bucket(pieces, 8), ((pieces - 2) / 4) as usize, "{pieces}");
        }
        for buckets in 1..=MAX_BUCKETS {
            let all: Vec<usize> = (2..=32).map(|p| output_bucket(p, buckets)).collect();
            assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1), "{buckets}: {all:?}");
            assert_eq!((all[0], all[30]), (0, buckets - 1), "{buckets}");
        }
    }

    #[test]
    fn a_net_with_output_buckets_scores_each_position_by_its_own() {
        let net = one_layer(&Network::embedded().unwrap(), 4);
        let current = rescaled(&net);
        // Copies of the one output layer score as it does; written as HSTNNUE3 and read back.
        let same = bucketed(&net, 8, 0, 0);
        let bytes = same.to_bytes();
        assert_eq!(&bytes[..8], &MAGIC_BUCKETS);
        assert_eq!(bytes.len(), HEADER_LEN_BUCKETS + 2 * (INPUTS * 128 + 128 + 8 * 256) + 4 * 8);
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!((again.buckets(), &again), (8, &same));
        for fen in SAMPLE_FENS {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(again.evaluate(&board), current.evaluate(&board), "{fen}");
        }
        // Raising one bucket's bias by 50 cp moves only the positions of that bucket.
        let endgame = Board::from_fen(SAMPLE_FENS[3]).unwrap();
        let bucket = output_bucket(endgame.occupied().count(), 8);
        assert_eq!(bucket, 2);
        let raised = bucketed(&net, 8, bucket, 50 * QA * QB / SCALE);
        for fen in SAMPLE_FENS {
            let board = Board::from_fen(fen).unwrap();
            let gain = raised.evaluate(&board) - current.evaluate(&board);
            assert_eq!(gain, if raised.bucket_of(&board) == bucket { 50 } else { 0 }, "{fen}");
        }
        // A damaged bucket count is refused with a reason.
        let mut wrong = bytes.clone();
        wrong[12] = 0;
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("0 output buckets"));
        wrong[12] = 9;
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("expected"));
    }

    #[test]
    fn a_packed_net_reads_as_the_net_and_damage_is_caught() {
        let packed = pack(EMBEDDED).unwrap();
        let net = Network::from_bytes(&packed).unwrap();
        assert_eq!(net.checksum(), EMBEDDED_FNV);
        let mut damaged = packed.clone();
        damaged[1000] ^= 0xff;
        assert!(Network::from_bytes(&damaged).unwrap_err().contains("checksum"));
        assert!(Network::from_bytes(&packed[..packed.len() - 2]).unwrap_err().contains("expected"));
        assert!(Network::from_bytes(&pack(&packed).unwrap()).unwrap_err().contains("packed again"));
    }

    /// `fen` reflected between the a- and h-files, without castling rights or en passant square.
    fn reflected(fen: &str) -> (Board, Board) {
        let fields: Vec<&str> = fen.split(' ').collect();
        let flipped: Vec<String> = fields[0].split('/').map(|rank| rank.chars().rev().collect()).collect();
        let plain = format!("{} {} - - 0 1", fields[0], fields[1]);
        let mirror = format!("{} {} - - 0 1", flipped.join("/"), fields[1]);
        (Board::from_fen(&plain).unwrap(), Board::from_fen(&mirror).unwrap())
    }

    #[test]
    fn a_net_mirrored_by_the_king_scores_a_position_and_its_reflection_alike() {
        // The built-in weights, read both ways whichever way the built-in net is.
        let plain = Network::embedded().unwrap().as_ref().clone().with_king_mirror(false);
        let mirrored = plain.clone().with_king_mirror(true);
        let mut differ = 0;
        for fen in SAMPLE_FENS {
            let (board, reflection) = reflected(fen);
            assert_eq!(mirrored.evaluate(&board), mirrored.evaluate(&reflection), "{fen}");
            differ += (plain.evaluate(&board) != plain.evaluate(&reflection)) as usize;
        }
        // The same weights unmirrored tell the two apart.
        assert!(differ >= 3, "{differ}");
        // Kings on the e- to h-files see the board as the unmirrored net does.
        let kingside = Board::from_fen(SAMPLE_FENS[2]).unwrap();
        assert_eq!(mirrored.evaluate(&kingside), plain.evaluate(&kingside));
    }

    #[test]
    fn a_net_mirrored_by_the_king_is_written_and_read_as_hstnnue4() {
        let plain = Network::embedded().unwrap().as_ref().clone().with_king_mirror(false);
        let net = plain.clone().with_king_mirror(true);
        assert!(net.king_mirror());
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], &MAGIC_KING_MIRROR);
        let plain_bytes = plain.to_bytes();
        assert_eq!(&plain_bytes[..8], &MAGIC_BUCKETS);
        assert_eq!(bytes.len(), EMBEDDED.len(), "laid out as HSTNNUE3");
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again, net);
        assert_ne!(again.checksum(), plain.checksum());
        assert_eq!(again.with_king_mirror(false).to_bytes(), plain_bytes);
        assert_eq!((king_flip(0), king_flip(3), king_flip(4), king_flip(63)), (7, 7, 0, 0));
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
