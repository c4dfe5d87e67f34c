//! Legal move generation with check and pin masks.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::{Board, CastleSide};
use crate::moves::{Move, MoveList, PieceMoves};
use crate::types::{Color, PieceKind, Rank, Square};

/// Squares that must be empty, and squares the king crosses, for each castling move.
struct CastlePath {
    side: CastleSide,
    king_to: Square,
    empty: Bitboard,
    safe: [Square; 2],
}

const fn castle_paths(color: Color) -> [CastlePath; 2] {
    let base = match color {
        Color::White => 0u8,
        Color::Black => 56,
    };
    let sq = Square::from_index_unchecked;
    [
        CastlePath {
            side: CastleSide::Short,
            king_to: sq(base + 6),
            empty: Bitboard(0b0110_0000 << base),
            safe: [sq(base + 5), sq(base + 6)],
        },
        CastlePath {
            side: CastleSide::Long,
            king_to: sq(base + 2),
            empty: Bitboard(0b0000_1110 << base),
            safe: [sq(base + 3), sq(base + 2)],
        },
    ]
}

static CASTLE_PATHS: [[CastlePath; 2]; 2] = [castle_paths(Color::White), castle_paths(Color::Black)];

#[inline(always)]
fn forward(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    }
}

impl Board {
    /// Calls `f` with each piece's legal moves (non-empty sets only) until it returns `true`;
    /// returns whether it did.
    #[inline(always)]
    pub fn generate_moves(&self, f: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate_moves_to(Bitboard::FULL, f)
    }

    /// Like [`Board::generate_moves`], only for moves whose target square is in `mask`
    /// (en passant counts as a move to the e.p. square). Captures: the enemy's squares plus the
    /// e.p. square; quiet moves: the rest.
    #[cfg_attr(not(feature = "no-forced-inline"), inline(always))]
    pub fn generate_moves_to(&self, mask: Bitboard, mut f: impl FnMut(PieceMoves) -> bool) -> bool {
        let us = self.side;
        let them = us.flip();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king(us);
        let checkers = self.checkers();

        // King steps, each target checked with the king lifted off the board.
        let mut king_to = attacks::king(ksq) & !ours & mask;
        let without_king = occ.without(ksq);
        for sq in king_to {
            if self.is_attacked(sq, them, without_king) {
                king_to = king_to.without(sq);
            }
        }
        if checkers.is_empty() && self.castling.any(us) {
            for path in &CASTLE_PATHS[us.index()] {
                if self.castling.has(us, path.side)
                    && (path.empty & occ).is_empty()
                    && mask.has(path.king_to)
                    && !self.is_attacked(path.safe[0], them, occ)
                    && !self.is_attacked(path.safe[1], them, occ)
                {
                    king_to |= Bitboard::from_square(path.king_to);
                }
            }
        }
        if king_to.any() && f(PieceMoves { kind: PieceKind::King, from: ksq, to: king_to }) {
            return true;
        }
        if checkers.more_than_one() {
            return false;
        }

        let check_mask = match checkers.first() {
            Some(checker) => attacks::between(ksq, checker) | checkers,
            None => Bitboard::FULL,
        };
        let target = check_mask & !ours & mask;
        let pinned = self.pinned();

        macro_rules! emit {
            ($kind:expr, $from:expr, $to:expr) => {
                let to = $to;
                if to.any() && f(PieceMoves { kind: $kind, from: $from, to }) {
                    return true;
                }
            };
        }

        // Pawns: pushes found for all pawns at once, then split per pawn.
        let pawns = self.colored_pieces(us, PieceKind::Pawn);
        let third_rank = Bitboard::rank(Rank::new(2).unwrap().relative(us));
        let single = forward(us, pawns) & !occ;
        let double = forward(us, single & third_rank) & !occ;
        let ep_target = match self.ep {
            Some(ep) if mask.has(ep) => Some(ep),
            _ => None,
        };
        for from in pawns {
            let bb = Bitboard::from_square(from);
            let one = forward(us, bb);
            let mut to = ((one & single) | (forward(us, one) & double) | (attacks::pawn(us, from) & theirs)) & target;
            if pinned.has(from) {
                to &= attacks::line(ksq, from);
            }
            if let Some(ep) = ep_target {
                if attacks::pawn(us, from).has(ep) && self.en_passant_is_legal(from, ep, ksq, checkers) {
                    to |= Bitboard::from_square(ep);
                }
            }
            emit!(PieceKind::Pawn, from, to);
        }

        for from in self.colored_pieces(us, PieceKind::Knight) & !pinned {
            emit!(PieceKind::Knight, from, attacks::knight(from) & target);
        }
        for from in self.colored_pieces(us, PieceKind::Bishop) {
            let mut to = attacks::bishop(from, occ) & target;
            if pinned.has(from) {
                to &= attacks::line(ksq, from);
            }
            emit!(PieceKind::Bishop, from, to);
        }
        for from in self.colored_pieces(us, PieceKind::Rook) {
            let mut to = attacks::rook(from, occ) & target;
            if pinned.has(from) {
                to &= attacks::line(ksq, from);
            }
            emit!(PieceKind::Rook, from, to);
        }
        for from in self.colored_pieces(us, PieceKind::Queen) {
            let mut to = attacks::queen(from, occ) & target;
            if pinned.has(from) {
                to &= attacks::line(ksq, from);
            }
            emit!(PieceKind::Queen, from, to);
        }
        false
    }

    /// Whether the pawn on `from` may capture en passant on `ep`: it must answer any check and
    /// must not expose the king along a line, the rank through both pawns included.
    #[inline(never)]
    fn en_passant_is_legal(&self, from: Square, ep: Square, ksq: Square, checkers: Bitboard) -> bool {
        let victim = Square::from_coords(ep.file(), from.rank());
        if let Some(checker) = checkers.first() {
            if checker != victim && !attacks::between(ksq, checker).has(ep) {
                return false;
            }
        }
        let occ =
            (self.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(victim)) | Bitboard::from_square(ep);
        let them = self.by_color[self.side.flip().index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        let rooks = (self.by_kind[PieceKind::Rook.index()] | queens) & them;
        let bishops = (self.by_kind[PieceKind::Bishop.index()] | queens) & them;
        (attacks::rook(ksq, occ) & rooks).is_empty() && (attacks::bishop(ksq, occ) & bishops).is_empty()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(|pm| {
            pm.for_each(|m| list.push(m));
            false
        });
        list
    }

    /// Legal captures (en passant and capturing promotions included).
    pub fn captures(&self) -> MoveList {
        let mask = self.colored(self.side.flip()) | self.ep.map_or(Bitboard::EMPTY, Bitboard::from_square);
        self.moves_matching(mask, |m| self.is_capture(m))
    }

    /// Legal moves that capture nothing (quiet promotions and castling included).
    pub fn quiets(&self) -> MoveList {
        self.moves_matching(!self.occupied(), |m| !self.is_en_passant(m))
    }

    fn moves_matching(&self, mask: Bitboard, keep: impl Fn(Move) -> bool) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves_to(mask, |pm| {
            pm.for_each(|m| {
                if keep(m) {
                    list.push(m)
                }
            });
            false
        });
        list
    }

    /// Whether the side to move has at least one legal move.
    #[cfg_attr(not(feature = "no-forced-inline"), inline)]
    pub fn has_legal_moves(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if !self.colored(self.side).has(from) || m.promotion() == Some(PieceKind::King) {
            return false;
        }
        self.generate_moves_to(Bitboard::from_square(to), |pm| {
            pm.from == from && pm.is_promotion() == m.promotion().is_some()
        })
    }

    /// The legal moves of the piece on `from`.
    pub fn moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(|pm| {
            if pm.from == from {
                pm.for_each(|m| list.push(m));
                return true;
            }
            false
        });
        list
    }
}
