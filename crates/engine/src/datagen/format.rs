//! The compact binary format of self-play data: games chained from a packed start position.
//!
//! A file starts with a header that says who made the data, so a resumed run can check it
//! continues the same data: the magic `HSTDATA1`, the generator's seed and its soft node budget
//! (u64 little-endian each; 24 bytes) when the hand-crafted evaluation played; `HSTDATA2`, the
//! same two, then the FNV-1a checksum of the whole net file (u64 LE; 32 bytes) when a net played. Then come
//! game records, back to back, each:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | game index (u32 LE), from which the game's seed is derived |
//! | 2 | number of plies `n` (u16 LE); 0 marks an opening that was dropped |
//! | 1 | result from White's view: 0 Black won, 1 draw, 2 White won |
//! | 29 | the start position, [`pack`]ed |
//! | 4·n | per ply: the move played (u16 LE, [`Move::to_u16`]) and the search score (i16 LE) |
//!
//! The score is the search's score of the position before the move, in centipawns **from the
//! side to move's view**; a mate for the side to move is stored as [`MATE_SCORE`], a mate
//! against it as `-MATE_SCORE`, and centipawns are clamped inside `±MAX_CP`. A position thus
//! costs 4 bytes and a game about 36 bytes more. A record cut short (an interrupted run) is
//! detected by its length and dropped.

use homeostat_chess::{Board, CastleSide, CastlingRights, Color, GameResult, Move, Piece, PieceKind, Square};
use std::fmt;

/// The magic bytes of a file the hand-crafted evaluation made.
pub const MAGIC: [u8; 8] = *b"HSTDATA1";
/// The magic bytes of a file a net made.
pub const MAGIC_NET: [u8; 8] = *b"HSTDATA2";
/// Header length in bytes (hand-crafted evaluation).
pub const HEADER_LEN: usize = 24;
/// Header length in bytes (a net; its checksum follows the node budget).
pub const HEADER_NET_LEN: usize = 32;
/// Length of a packed board in bytes.
pub const PACKED_LEN: usize = 29;
/// Length of a game record before its plies.
pub const RECORD_HEAD_LEN: usize = 4 + 2 + 1 + PACKED_LEN;
/// Length of one ply.
pub const PLY_LEN: usize = 4;
/// The stored score of a forced mate for the side to move.
pub const MATE_SCORE: i16 = 32_000;
/// The largest stored centipawn magnitude (larger values are clamped).
pub const MAX_CP: i16 = 30_000;

/// What went wrong reading data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

/// The file header: who made the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The generator's seed.
    pub seed: u64,
    /// The generator's soft node budget per move.
    pub nodes: u64,
    /// The net that evaluated, by its checksum (`Network::checksum`: FNV-1a of the whole net
    /// file, as its recipe quotes it); `None` for the hand-crafted evaluation.
    pub net: Option<u64>,
}

impl Header {
    /// The header's bytes: 24 of them without a net, as files were before nets made data.
    pub fn to_bytes(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_NET_LEN);
        out.extend_from_slice(if self.net.is_some() { &MAGIC_NET } else { &MAGIC });
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        if let Some(net) = self.net {
            out.extend_from_slice(&net.to_le_bytes());
        }
        out
    }

    /// The header's length in bytes.
    pub fn byte_len(self) -> usize {
        if self.net.is_some() {
            HEADER_NET_LEN
        } else {
            HEADER_LEN
        }
    }

    /// Reads a header; an error if `bytes` does not start with one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Header, FormatError> {
        let magic = bytes.get(..8);
        let net = if magic == Some(&MAGIC_NET[..]) && bytes.len() >= HEADER_NET_LEN {
            Some(u64_at(bytes, 24))
        } else if magic == Some(&MAGIC[..]) && bytes.len() >= HEADER_LEN {
            None
        } else {
            return Err(FormatError("not a Homeostat data file (no HSTDATA1 or HSTDATA2 header)".into()));
        };
        Ok(Header { seed: u64_at(bytes, 8), nodes: u64_at(bytes, 16), net })
    }

    /// Which evaluation played, in words.
    pub fn evaluation(self) -> String {
        match self.net {
            Some(sum) => format!("net {sum:#018x}"),
            None => "hand-crafted evaluation".into(),
        }
    }
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

/// One self-played game: where it started, how it ended, and every move with its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's index in its run (its seed derives from it).
    pub index: u32,
    /// The position after the random opening.
    pub start: Board,
    /// The result.
    pub result: GameResult,
    /// The moves played, each with the search score of the position before it (side to move's view).
    pub plies: Vec<(Move, i16)>,
}

impl GameRecord {
    /// Whether the opening was dropped (a record kept only so a resumed run skips its index).
    pub fn is_dropped(&self) -> bool {
        self.plies.is_empty()
    }

    /// Appends the record's bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        let n = self.plies.len().min(u16::MAX as usize);
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&(n as u16).to_le_bytes());
        out.push(result_code(self.result));
        out.extend_from_slice(&pack(&self.start));
        for &(m, score) in &self.plies[..n] {
            out.extend_from_slice(&m.to_u16().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
    }

    /// Reads the record at the start of `bytes`: the record and its length, `Ok(None)` when
    /// `bytes` ends before the record does (a truncated tail), an error when it is corrupt.
    pub fn read_from(bytes: &[u8]) -> Result<Option<(GameRecord, usize)>, FormatError> {
        if bytes.len() < RECORD_HEAD_LEN {
            return Ok(None);
        }
        let index = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes"));
        let n = u16::from_le_bytes([bytes[4], bytes[5]]) as usize;
        let len = RECORD_HEAD_LEN + n * PLY_LEN;
        if bytes.len() < len {
            return Ok(None);
        }
        let result = match bytes[6] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWins,
            other => return Err(FormatError(format!("game {index}: bad result code {other}"))),
        };
        let start = unpack(&bytes[7..7 + PACKED_LEN]).map_err(|e| FormatError(format!("game {index}: {e}")))?;
        let mut plies = Vec::with_capacity(n);
        for i in 0..n {
            let at = RECORD_HEAD_LEN + i * PLY_LEN;
            let bits = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
            let m = Move::from_u16(bits).ok_or_else(|| FormatError(format!("game {index}: bad move at ply {i}")))?;
            plies.push((m, i16::from_le_bytes([bytes[at + 2], bytes[at + 3]])));
        }
        Ok(Some((GameRecord { index, start, result, plies }, len)))
    }
}

/// The result's byte: 0 Black won, 1 draw, 2 White won.
pub fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

/// A search score (side to move's view) as stored: mates at `±MATE_SCORE`, centipawns clamped.
pub fn store_score(score: crate::Score) -> i16 {
    match score {
        crate::Score::Cp(cp) => cp.clamp(-(MAX_CP as i32), MAX_CP as i32) as i16,
        crate::Score::Mate(n) if n > 0 => MATE_SCORE,
        crate::Score::Mate(_) => -MATE_SCORE,
    }
}

/// Packs `board` into 29 bytes: the occupancy bitboard (8), a 4-bit code per occupied square in
/// ascending square order (16; colour in bit 3, kind 0-5 pawn to king), a flags byte (bit 0 side
/// to move is Black, bits 1-4 castling rights), the en-passant square (64 when none), the
/// halfmove clock (saturating at 255) and the fullmove number (u16 LE, saturating).
pub fn pack(board: &Board) -> [u8; PACKED_LEN] {
    let mut out = [0u8; PACKED_LEN];
    let occ = board.occupied().0;
    out[..8].copy_from_slice(&occ.to_le_bytes());
    let mut bits = occ;
    let mut i = 0;
    while bits != 0 && i < 32 {
        let sq = Square::new(bits.trailing_zeros() as u8).expect("square index below 64");
        bits &= bits - 1;
        let piece = board.piece_on(sq).expect("occupied square");
        let code = piece.kind.index() as u8 | ((piece.color == Color::Black) as u8) << 3;
        out[8 + i / 2] |= code << (4 * (i % 2));
        i += 1;
    }
    out[24] = (board.side_to_move() == Color::Black) as u8 | board.castling().bits() << 1;
    out[25] = board.en_passant().map_or(64, |sq| sq.index() as u8);
    out[26] = board.halfmove_clock().min(255) as u8;
    out[27..29].copy_from_slice(&(board.fullmove_number().min(u16::MAX as u32) as u16).to_le_bytes());
    out
}

/// Unpacks a board written by [`pack`]; an error (never a panic) when the bytes are not a position.
pub fn unpack(bytes: &[u8]) -> Result<Board, FormatError> {
    if bytes.len() < PACKED_LEN {
        return Err(FormatError("packed board too short".into()));
    }
    let occ = u64_at(bytes, 0);
    if occ.count_ones() > 32 {
        return Err(FormatError(format!("packed board has {} pieces", occ.count_ones())));
    }
    let mut squares = [None::<Piece>; 64];
    let mut bits = occ;
    let mut i = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
        if code & 7 > 5 {
            return Err(FormatError(format!("bad piece code {code}")));
        }
        let color = if code & 8 != 0 { Color::Black } else { Color::White };
        squares[sq] = Some(Piece::new(color, PieceKind::from_index((code & 7) as usize)));
        i += 1;
    }
    // Rebuilt through FEN, so the board's own validation applies.
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let flags = bytes[24];
    fen.push_str(if flags & 1 != 0 { " b " } else { " w " });
    let castling = CastlingRights::ALL.bits() & (flags >> 1);
    if castling == 0 {
        fen.push('-');
    }
    for (color, side, c) in [
        (Color::White, CastleSide::Short, 'K'),
        (Color::White, CastleSide::Long, 'Q'),
        (Color::Black, CastleSide::Short, 'k'),
        (Color::Black, CastleSide::Long, 'q'),
    ] {
        if castling & CastlingRights::bit(color, side) != 0 {
            fen.push(c);
        }
    }
    fen.push(' ');
    match bytes[25] {
        64 => fen.push('-'),
        sq => match Square::new(sq) {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => return Err(FormatError(format!("bad en-passant square {sq}"))),
        },
    }
    let fullmove = u16::from_le_bytes([bytes[27], bytes[28]]).max(1);
    fen.push_str(&format!(" {} {fullmove}", bytes[26]));
    Board::from_fen(&fen).map_err(|e| FormatError(format!("packed board is no position: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Positions from random games, with castling rights and en-passant squares along the way.
    fn random_positions(count: usize, seed: u64) -> Vec<Board> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut board = Board::startpos();
            for _ in 0..(rng.next_u64() % 200) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                out.push(board);
            }
        }
        out
    }

    #[test]
    fn packing_round_trips() {
        let positions = random_positions(20_000, 11);
        let mut with_ep = 0;
        for board in &positions {
            with_ep += board.en_passant().is_some() as usize;
            let back = unpack(&pack(board)).unwrap();
            assert_eq!(back, *board, "{}", board.to_fen());
            assert_eq!(back.hash(), board.hash());
        }
        assert!(with_ep > 0, "the sample must include en-passant squares");
        assert_eq!(unpack(&pack(&Board::startpos())).unwrap(), Board::startpos());
    }

    #[test]
    fn records_round_trip_and_truncation_is_detected() {
        let start = random_positions(1, 5)[0];
        let mut board = start;
        let mut plies = Vec::new();
        for i in 0..30 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[i % moves.len()];
            plies.push((m, (i as i16 - 15) * 37));
            board.play(m);
        }
        let record = GameRecord { index: 77, start, result: GameResult::Draw, plies };
        let mut bytes = Vec::new();
        record.write_to(&mut bytes);
        assert_eq!(bytes.len(), RECORD_HEAD_LEN + record.plies.len() * PLY_LEN);
        let (back, len) = GameRecord::read_from(&bytes).unwrap().unwrap();
        assert_eq!((back, len), (record, bytes.len()));
        for cut in 0..bytes.len() {
            assert_eq!(GameRecord::read_from(&bytes[..cut]), Ok(None), "cut at {cut}");
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..PACKED_LEN).map(|_| rng.next_u64() as u8).collect();
            let _ = unpack(&bytes);
        }
        assert!(Header::from_bytes(b"not a header at all, no.").is_err());
    }

    #[test]
    fn headers_round_trip_with_and_without_a_net() {
        let h = Header { seed: 9, nodes: 5000, net: None };
        assert_eq!((h.to_bytes().len(), h.byte_len()), (HEADER_LEN, HEADER_LEN));
        assert_eq!(&h.to_bytes()[..8], b"HSTDATA1", "files without a net keep the first format");
        assert_eq!(Header::from_bytes(&h.to_bytes()), Ok(h));
        let n = Header { seed: 9, nodes: 5000, net: Some(0xe262_4ea6_678c_aa50) };
        assert_eq!((n.to_bytes().len(), n.byte_len()), (HEADER_NET_LEN, HEADER_NET_LEN));
        assert_eq!(Header::from_bytes(&n.to_bytes()), Ok(n));
        assert_eq!(n.evaluation(), "net 0xe2624ea6678caa50");
        // A net header cut short is not read as the shorter kind.
        assert!(Header::from_bytes(&n.to_bytes()[..HEADER_LEN]).is_err());
    }

    #[test]
    fn scores_are_stored_from_the_mover_with_mates_apart() {
        assert_eq!(store_score(crate::Score::Cp(42)), 42);
        assert_eq!(store_score(crate::Score::Cp(-99_999)), -MAX_CP);
        assert_eq!(store_score(crate::Score::Mate(3)), MATE_SCORE);
        assert_eq!(store_score(crate::Score::Mate(-2)), -MATE_SCORE);
    }
}
