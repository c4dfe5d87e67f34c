//! The position: piece placement, side to move, castling, en passant, clocks and key.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

/// Castling rights as four bits: white short, white long, black short, black long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub(crate) u8);

/// The side of the board a king castles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    /// Towards the h-file (`O-O`).
    Short,
    /// Towards the a-file (`O-O-O`).
    Long,
}

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The bit for `color` castling to `side`.
    #[inline(always)]
    pub const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (2 * color as u8 + matches!(side, CastleSide::Long) as u8)
    }

    /// Whether `color` may still castle to `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & CastlingRights::bit(color, side) != 0
    }

    /// Whether `color` has any castling right left.
    #[inline(always)]
    pub const fn any(self, color: Color) -> bool {
        self.0 >> (2 * color as u8) & 3 != 0
    }

    /// The four bits.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

/// The rights that survive a move touching each square (king and rook home squares clear bits).
static CASTLING_KEEP: [u8; 64] = {
    let mut keep = [15u8; 64];
    keep[0] = 15 & !2; // a1
    keep[4] = 15 & !3; // e1
    keep[7] = 15 & !1; // h1
    keep[56] = 15 & !8; // a8
    keep[60] = 15 & !12; // e8
    keep[63] = 15 & !4; // h8
    keep
};

const NO_PIECE: u8 = 6;

/// A chess position.
///
/// Moves are played in place with [`Board::play`]; copy the board first to keep the old one
/// (the search copies: a board is 192 bytes, three cache lines).
#[derive(Clone, Copy, Debug)]
// Aligned to cache lines: the wide stores that copy a board then never straddle two lines, so
// `play` on a fresh copy reads its fields without store-forwarding stalls (+7% on full perft).
#[repr(align(64))]
pub struct Board {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
}

impl PartialEq for Board {
    /// Equal when every FEN field is equal.
    fn eq(&self, other: &Board) -> bool {
        self.by_kind == other.by_kind
            && self.by_color == other.by_color
            && self.side == other.side
            && self.castling == other.castling
            && self.ep == other.ep
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl Eq for Board {}

impl Default for Board {
    fn default() -> Board {
        Board::startpos()
    }
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        // Not `expect`: it would format the error with `Debug`, which costs the page's wasm module kilobytes.
        match Board::from_fen(crate::fen::STARTPOS) {
            Ok(board) => board,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    /// A board with no pieces (used while reading a FEN).
    pub(crate) fn empty() -> Board {
        attacks::init();
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [NO_PIECE; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            ep: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
        }
    }

    /// Puts `piece` on an empty `sq` (no key update; see [`Board::compute_hash`]).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_kind[piece.kind.index()] |= Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= Bitboard::from_square(sq);
        self.mailbox[sq.index()] = piece.kind as u8;
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let kind = self.kind_on(sq)?;
        let color = if self.by_color[0].has(sq) { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }

    /// The kind of piece on `sq`, if any.
    #[inline(always)]
    pub fn kind_on(&self, sq: Square) -> Option<PieceKind> {
        match self.mailbox[sq.index()] {
            NO_PIECE => None,
            k => Some(PieceKind::from_index(k as usize)),
        }
    }

    /// Every piece of `kind`, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Every piece of `color`.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn colored_pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored_pieces(color, PieceKind::King).lsb()
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant target square as FEN gives it (set after every double push whose pawn
    /// an enemy pawn stands beside).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and increased after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The 64-bit Zobrist key in the Polyglot layout.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pieces of either colour that attack `sq` when `occ` is the occupancy.
    #[cfg_attr(not(feature = "no-forced-inline"), inline(always))]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rooks = self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()];
        let bishops = self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()];
        (attacks::knight(sq) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::king(sq) & self.by_kind[PieceKind::King.index()])
            | (attacks::pawn(Color::White, sq) & self.colored_pieces(Color::Black, PieceKind::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.colored_pieces(Color::White, PieceKind::Pawn))
            | (attacks::rook(sq, occ) & rooks)
            | (attacks::bishop(sq, occ) & bishops)
    }

    /// Whether `by` attacks `sq` when `occ` is the occupancy.
    #[cfg_attr(not(feature = "no-forced-inline"), inline(always))]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let rooks = (self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()]) & them;
        let bishops = (self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()]) & them;
        (attacks::knight(sq) & self.by_kind[PieceKind::Knight.index()] & them).any()
            || (attacks::pawn(by.flip(), sq) & self.by_kind[PieceKind::Pawn.index()] & them).any()
            || (attacks::king(sq) & self.by_kind[PieceKind::King.index()] & them).any()
            || (attacks::rook(sq, occ) & rooks).any()
            || (attacks::bishop(sq, occ) & bishops).any()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to(self.king(us), self.occupied()) & self.by_color[us.flip().index()]
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king(self.side), self.side.flip(), self.occupied())
    }

    /// The side-to-move's pieces pinned to their king.
    #[cfg_attr(not(feature = "no-forced-inline"), inline(always))]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let them = self.by_color[us.flip().index()];
        let ksq = self.king(us);
        let queens = self.by_kind[PieceKind::Queen.index()];
        let snipers = ((attacks::rook(ksq, Bitboard::EMPTY) & (self.by_kind[PieceKind::Rook.index()] | queens))
            | (attacks::bishop(ksq, Bitboard::EMPTY) & (self.by_kind[PieceKind::Bishop.index()] | queens)))
            & them;
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(ksq, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color[us.index()]
    }

    /// Whether the side to move has a pawn that could capture on the e.p. square (the
    /// Polyglot condition for hashing it; legality is not checked).
    #[inline(always)]
    pub(crate) fn ep_capturable(&self, ep: Square) -> bool {
        (attacks::pawn(self.side.flip(), ep) & self.colored_pieces(self.side, PieceKind::Pawn)).any()
    }

    /// The key computed from scratch.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for sq in self.occupied() {
            let piece = self.piece_on(sq).expect("occupied");
            hash ^= zobrist::piece(piece.color, piece.kind, sq);
        }
        hash ^= zobrist::castling(self.castling.0);
        if let Some(ep) = self.ep {
            if self.ep_capturable(ep) {
                hash ^= zobrist::en_passant(ep.file());
            }
        }
        if self.side == Color::White {
            hash ^= zobrist::white_to_move();
        }
        hash
    }

    #[inline(always)]
    fn toggle(&mut self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        let bb = Bitboard::from_square(sq);
        self.by_kind[kind.index()] ^= bb;
        self.by_color[color.index()] ^= bb;
        zobrist::piece(color, kind, sq)
    }

    /// The same as `*self`, copied field by field in 8-byte words: for copy-make in hot code
    /// (`let mut child = board.duplicate(); child.play(m);`). The compiler turns a plain copy of
    /// the 192-byte board into a `memcpy` call (it inlines copies only up to 64 bytes); in
    /// WebAssembly that is `memory.copy`, which the browser runs as a call out of the module into
    /// its own runtime, dearer than these two dozen loads and stores.
    #[inline(always)]
    pub fn duplicate(&self) -> Board {
        let (k, c) = (&self.by_kind, &self.by_color);
        let mut mailbox = [NO_PIECE; 64];
        for (to, from) in mailbox.chunks_exact_mut(8).zip(self.mailbox.chunks_exact(8)) {
            to.copy_from_slice(from);
        }
        Board {
            by_kind: [k[0], k[1], k[2], k[3], k[4], k[5]],
            by_color: [c[0], c[1]],
            mailbox,
            side: self.side,
            castling: self.castling,
            ep: self.ep,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            hash: self.hash,
        }
    }

    /// Plays a legal move in place. The move must be legal in this position (moves from the
    /// move generator are; check others with [`Board::is_legal`] first).
    #[cfg_attr(not(feature = "no-forced-inline"), inline)]
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let kind = PieceKind::from_index(self.mailbox[from.index()] as usize);
        let captured = self.mailbox[to.index()];
        // The key changes are gathered in a register and stored once, at the end.
        let mut hash = self.hash ^ zobrist::white_to_move();

        if let Some(ep) = self.ep.take() {
            if self.ep_capturable(ep) {
                hash ^= zobrist::en_passant(ep.file());
            }
        }
        self.halfmove_clock += 1;

        if captured != NO_PIECE {
            hash ^= self.toggle(them, PieceKind::from_index(captured as usize), to);
            self.halfmove_clock = 0;
        }
        // The mover leaves `from` and lands on `to`, as a new piece if it promotes.
        let placed = m.promotion().unwrap_or(kind);
        let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        self.by_kind[kind.index()] ^= from_bb;
        self.by_kind[placed.index()] ^= to_bb;
        self.by_color[us.index()] ^= from_bb | to_bb;
        hash ^= zobrist::piece(us, kind, from) ^ zobrist::piece(us, placed, to);
        self.mailbox[from.index()] = NO_PIECE;
        self.mailbox[to.index()] = placed as u8;

        match kind {
            PieceKind::Pawn => {
                self.halfmove_clock = 0;
                let diff = to.index() as i32 - from.index() as i32;
                if diff == 16 || diff == -16 {
                    let ep = Square::from_index_unchecked(((from.index() + to.index()) / 2) as u8);
                    let beside = attacks::pawn(us, ep) & self.colored_pieces(them, PieceKind::Pawn);
                    if beside.any() {
                        self.ep = Some(ep);
                        hash ^= zobrist::en_passant(ep.file());
                    }
                } else if captured == NO_PIECE && from.file() != to.file() {
                    // En passant: the captured pawn stands beside, on the mover's starting rank.
                    let victim = Square::from_coords(to.file(), from.rank());
                    hash ^= self.toggle(them, PieceKind::Pawn, victim);
                    self.mailbox[victim.index()] = NO_PIECE;
                }
            }
            PieceKind::King => {
                let diff = to.index() as i32 - from.index() as i32;
                if diff == 2 || diff == -2 {
                    let (rook_from, rook_to) =
                        if diff == 2 { (to.index() + 1, to.index() - 1) } else { (to.index() - 2, to.index() + 1) };
                    let (rook_from, rook_to) =
                        (Square::from_index_unchecked(rook_from as u8), Square::from_index_unchecked(rook_to as u8));
                    hash ^= self.toggle(us, PieceKind::Rook, rook_from);
                    hash ^= self.toggle(us, PieceKind::Rook, rook_to);
                    self.mailbox[rook_from.index()] = NO_PIECE;
                    self.mailbox[rook_to.index()] = PieceKind::Rook as u8;
                }
            }
            _ => {}
        }

        // Without rights left (most middlegames and endgames) the two lookups are skipped.
        if self.castling.0 != 0 {
            let rights = self.castling.0 & CASTLING_KEEP[from.index()] & CASTLING_KEEP[to.index()];
            hash ^= zobrist::castling(self.castling.0) ^ zobrist::castling(rights);
            self.castling.0 = rights;
        }

        self.fullmove_number += us as u32; // Black's move ends a full move
        self.side = them;
        self.hash = hash;
    }

    /// The position after passing the move (for null-move pruning); `None` when in check.
    pub fn null_move(&self) -> Option<Board> {
        if self.in_check() {
            return None;
        }
        let mut next = self.duplicate();
        if let Some(ep) = next.ep.take() {
            if self.ep_capturable(ep) {
                next.hash ^= zobrist::en_passant(ep.file());
            }
        }
        next.halfmove_clock += 1;
        if self.side == Color::Black {
            next.fullmove_number += 1;
        }
        next.side = self.side.flip();
        next.hash ^= zobrist::white_to_move();
        Some(next)
    }

    /// Whether `m` captures something (en passant included).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.by_color[self.side.flip().index()].has(m.to()) || self.is_en_passant(m)
    }

    /// Whether `m` is an en passant capture.
    #[inline(always)]
    pub fn is_en_passant(&self, m: Move) -> bool {
        self.mailbox[m.from().index()] == PieceKind::Pawn as u8
            && m.from().file() != m.to().file()
            && self.mailbox[m.to().index()] == NO_PIECE
    }

    /// Whether `m` is castling (the king moving two files).
    #[inline(always)]
    pub fn is_castling(&self, m: Move) -> bool {
        self.mailbox[m.from().index()] == PieceKind::King as u8
            && (m.from().file().index() as i32 - m.to().file().index() as i32).abs() == 2
    }

    /// The kind of piece `m` captures (a pawn for en passant), if any.
    #[inline(always)]
    pub fn captured_kind(&self, m: Move) -> Option<PieceKind> {
        if self.is_en_passant(m) {
            Some(PieceKind::Pawn)
        } else {
            self.kind_on(m.to())
        }
    }

    /// The key of the position after `m`, without playing it (for prefetching and repetition).
    pub fn hash_after(&self, m: Move) -> u64 {
        let mut next = *self;
        next.play(m);
        next.hash
    }

    /// Whether the side to move has only king and pawns (a guard for null-move pruning).
    pub fn only_king_and_pawns(&self, color: Color) -> bool {
        let mine = self.by_color[color.index()];
        (mine & !(self.by_kind[PieceKind::Pawn.index()] | self.by_kind[PieceKind::King.index()])).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_is_a_copy() {
        for fen in [
            crate::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 12 40",
        ] {
            let board = Board::from_fen(fen).unwrap();
            // Debug shows every field: placement, mailbox, rights, e.p. square, clocks and key.
            assert_eq!(format!("{:?}", board.duplicate()), format!("{board:?}"), "{fen}");
            for &m in board.legal_moves().iter() {
                let (mut copy, mut duplicate) = (board, board.duplicate());
                copy.play(m);
                duplicate.play(m);
                assert_eq!(format!("{duplicate:?}"), format!("{copy:?}"), "{fen} {m}");
            }
        }
    }
}
