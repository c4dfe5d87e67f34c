//! The accumulator stack: one accumulator per ply, each derived from its parent's by the
//! features its move adds and removes, computed only when a node asks for an evaluation. In a net
//! mirrored by the king, a king move between the d- and e-files turns its side's whole view of the
//! board, so that side's half is computed afresh as the move is made.

use super::{feature, Network, UNROLLED_WIDTH};
use homeostat_chess::{Board, Color, Move, Piece, PieceKind, Square};
use std::sync::Arc;

/// The features a move changes: at most two pieces placed and two removed (castling, captures).
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    added: [(u8, u8); 2],
    removed: [(u8, u8); 2],
    n_added: u8,
    n_removed: u8,
}

impl Delta {
    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.n_added as usize] = (piece_code(piece), sq.index() as u8);
        self.n_added += 1;
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.n_removed as usize] = (piece_code(piece), sq.index() as u8);
        self.n_removed += 1;
    }

    /// The features of move `m` played on `parent`.
    fn of_move(parent: &Board, m: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (m.from(), m.to());
        let Some(mover) = parent.piece_on(from) else { return d };
        let us = mover.color;
        d.remove(mover, from);
        d.add(Piece::new(us, m.promotion().unwrap_or(mover.kind)), to);
        if let Some(victim) = parent.piece_on(to) {
            d.remove(victim, to);
        } else if mover.kind == PieceKind::Pawn && from.file() != to.file() {
            let victim_sq = Square::from_coords(to.file(), from.rank());
            d.remove(Piece::new(us.flip(), PieceKind::Pawn), victim_sq);
        } else if mover.kind == PieceKind::King && from.index().abs_diff(to.index()) == 2 {
            let (rook_from, rook_to) = if to.index() > from.index() {
                (to.index() + 1, to.index() - 1)
            } else {
                (to.index() - 2, to.index() + 1)
            };
            let rook = Piece::new(us, PieceKind::Rook);
            d.remove(rook, Square::new(rook_from as u8).expect("castling rook square"));
            d.add(rook, Square::new(rook_to as u8).expect("castling rook square"));
        }
        d
    }
}

fn piece_code(p: Piece) -> u8 {
    (p.color.index() * 6 + p.kind.index()) as u8
}

fn piece_of(code: u8) -> Piece {
    let color = if code >= 6 { Color::Black } else { Color::White };
    Piece::new(color, PieceKind::from_index(code as usize % 6))
}

/// Accumulators for every ply of a search: `set_root`, then `push_move` (or `push_null`) as the
/// search makes moves, and `evaluate` at any ply on the current line.
pub struct Stack {
    net: Arc<Network>,
    /// `plies` accumulators of `2 * hidden` values (White's perspective first).
    values: Vec<i16>,
    /// Per ply: `None` when the accumulator is up to date, else the move's changes from the parent.
    pending: Vec<Option<Delta>>,
    /// Per ply, what each perspective XORs its features with ([`Network::flip`]; White's first).
    flips: Vec<[u8; 2]>,
    /// Per ply and perspective, in a net mirrored by the king: the half was computed afresh when the
    /// ply's move was made, so its pending changes skip it.
    refreshed: Vec<[bool; 2]>,
    /// The net's [`Network::king_mirror`], read at every move made.
    king_mirror: bool,
}

impl Stack {
    /// A stack for `plies` plies with network `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> Stack {
        let (values, king_mirror) = (vec![0; plies * 2 * net.hidden()], net.king_mirror());
        let (flips, refreshed) = (vec![[0; 2]; plies], vec![[false; 2]; plies]);
        Stack { values, pending: vec![None; plies], flips, refreshed, king_mirror, net }
    }

    /// The network.
    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts a line at `root` (ply 0), refreshing its accumulator.
    pub fn set_root(&mut self, root: &Board) {
        let n = 2 * self.net.hidden();
        self.net.refresh(root, &mut self.values[..n]);
        self.pending[0] = None;
        self.flips[0] = [Color::White, Color::Black].map(|c| self.net.flip(root, c) as u8);
    }

    /// The position at `ply` is `parent` (at `ply - 1`) after move `m`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, parent: &Board, m: Move) {
        self.pending[ply] = Some(Delta::of_move(parent, m));
        if self.king_mirror {
            self.mirrored_move(ply, parent, m);
        }
    }

    /// In a net mirrored by the king: the flips of ply `ply`, reached by move `m` from `parent`, and the
    /// mover's half computed afresh when its king crosses between the d- and e-files. (Unmirrored nets keep
    /// every ply's flips at zero.)
    #[inline(never)]
    fn mirrored_move(&mut self, ply: usize, parent: &Board, m: Move) {
        self.flips[ply] = self.flips[ply - 1];
        self.refreshed[ply] = [false; 2];
        let us = parent.side_to_move();
        let flip = super::king_flip(m.to().index()) as u8;
        if parent.kind_on(m.from()) != Some(PieceKind::King) || flip == self.flips[ply][us.index()] {
            return;
        }
        self.flips[ply][us.index()] = flip;
        let mut child = parent.duplicate();
        child.play(m);
        let (n, h) = (2 * self.net.hidden(), self.net.hidden());
        self.net.refresh_side(&child, us, &mut self.values[ply * n + us.index() * h..][..h]);
        self.refreshed[ply][us.index()] = true;
    }

    /// The position at `ply` is the one at `ply - 1` with the move passed.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.pending[ply] = Some(Delta::default());
        if self.king_mirror {
            self.flips[ply] = self.flips[ply - 1];
            self.refreshed[ply] = [false; 2];
        }
    }

    /// The evaluation of `board`, the position at `ply` on the current line, side to move's view.
    pub fn evaluate(&mut self, board: &Board, ply: usize) -> i32 {
        self.update(ply);
        let n = 2 * self.net.hidden();
        self.net.output(&self.values[ply * n..(ply + 1) * n], board.side_to_move(), self.net.bucket_of(board))
    }

    /// Brings the accumulator at `ply` up to date from its nearest computed ancestor.
    fn update(&mut self, ply: usize) {
        // Compiled apart for unmirrored nets, whose flips are zero and halves never refreshed, so that
        // they pay nothing for the king mirror.
        if self.king_mirror {
            self.update_mirrored(ply);
        } else {
            self.update_from::<false>(ply);
        }
    }

    #[inline(never)]
    fn update_mirrored(&mut self, ply: usize) {
        self.update_from::<true>(ply);
    }

    #[inline(always)]
    fn update_from<const KING_MIRROR: bool>(&mut self, ply: usize) {
        let mut base = ply;
        while base > 0 && self.pending[base].is_some() {
            base -= 1;
        }
        let n = 2 * self.net.hidden();
        let h = self.net.hidden();
        for p in base + 1..=ply {
            let delta = self.pending[p].take().unwrap_or_default();
            let (before, after) = self.values.split_at_mut(p * n);
            let parent = &before[(p - 1) * n..];
            let child = &mut after[..n];
            for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
                if KING_MIRROR && self.refreshed[p][side] {
                    continue;
                }
                let flip = if KING_MIRROR { self.flips[p][side] as usize } else { 0 };
                let columns = |list: &[(u8, u8)]| -> [Option<&[i16]>; 2] {
                    let mut out = [None, None];
                    for (slot, &(code, sq)) in out.iter_mut().zip(list) {
                        *slot = Some(self.net.column(feature(perspective, piece_of(code), sq as usize) ^ flip));
                    }
                    out
                };
                let added = columns(&delta.added[..delta.n_added as usize]);
                let removed = columns(&delta.removed[..delta.n_removed as usize]);
                let (parent, child) = (&parent[side * h..(side + 1) * h], &mut child[side * h..(side + 1) * h]);
                if KING_MIRROR {
                    apply(parent, child, added, removed);
                } else {
                    // Not unrolled: the built-in net is mirrored, and a second unrolled copy cost the path
                    // that runs 0.7 % natively, 1.15 % in wasm (session 56).
                    apply_to(parent, child, added, removed);
                }
            }
        }
    }
}

/// `child = parent + added - removed`, fused for the common one-in-one-out case; at the built-in net's
/// width with every slice cut to that constant length, so that the compiler unrolls the loops.
#[inline]
fn apply<'a>(parent: &[i16], child: &mut [i16], added: [Option<&'a [i16]>; 2], removed: [Option<&'a [i16]>; 2]) {
    const N: usize = UNROLLED_WIDTH;
    if parent.len() == N {
        let cut = |cols: [Option<&'a [i16]>; 2]| cols.map(|col| col.map(|c| &c[..N]));
        apply_to(&parent[..N], &mut child[..N], cut(added), cut(removed));
    } else {
        apply_to(parent, child, added, removed);
    }
}

#[inline(always)]
fn apply_to(parent: &[i16], child: &mut [i16], added: [Option<&[i16]>; 2], removed: [Option<&[i16]>; 2]) {
    match (added, removed) {
        ([Some(a), None], [Some(r), None]) => {
            for (((c, &p), &a), &r) in child.iter_mut().zip(parent).zip(a).zip(r) {
                *c = p.wrapping_add(a).wrapping_sub(r);
            }
        }
        ([Some(a), None], [Some(r1), Some(r2)]) => {
            for ((((c, &p), &a), &r1), &r2) in child.iter_mut().zip(parent).zip(a).zip(r1).zip(r2) {
                *c = p.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
            }
        }
        _ => {
            child.copy_from_slice(parent);
            for col in added.into_iter().flatten() {
                for (c, &w) in child.iter_mut().zip(col) {
                    *c = c.wrapping_add(w);
                }
            }
            for col in removed.into_iter().flatten() {
                for (c, &w) in child.iter_mut().zip(col) {
                    *c = c.wrapping_sub(w);
                }
            }
        }
    }
}

#[cfg(all(test, feature = "embedded-net"))]
mod tests {
    use super::*;
    use crate::Rng;

    /// Random games: after every move (and some passes) the incremental accumulator must equal a
    /// full refresh, at every depth of the line. Returns how many castlings, en passant captures and
    /// promotions were played, and how many king moves crossed between the d- and e-files.
    fn random_games_agree(net: &Arc<Network>) -> (usize, usize) {
        let mut rng = Rng::new(99);
        let mut stack = Stack::new(net.clone(), 260);
        let (mut special, mut crossings) = (0, 0);
        for game in 0..60 {
            let mut board = Board::startpos();
            stack.set_root(&board);
            for ply in 1..250 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                special += (board.is_castling(m) || board.is_en_passant(m) || m.promotion().is_some()) as usize;
                let null = if rng.chance(0.05) { board.null_move() } else { None };
                match null {
                    Some(after) => {
                        stack.push_null(ply);
                        board = after;
                    }
                    None => {
                        let king = board.kind_on(m.from()) == Some(PieceKind::King);
                        crossings += (king && (m.from().index() % 8 < 4) != (m.to().index() % 8 < 4)) as usize;
                        stack.push_move(ply, &board, m);
                        board.play(m);
                    }
                }
                // Evaluate only now and then, so several plies are caught up at once.
                if rng.chance(0.3) || game == 0 {
                    assert_eq!(stack.evaluate(&board, ply), net.evaluate(&board), "{}", board.to_fen());
                    let n = 2 * net.hidden();
                    let mut fresh = vec![0; n];
                    net.refresh(&board, &mut fresh);
                    assert_eq!(&stack.values[ply * n..(ply + 1) * n], &fresh[..]);
                }
            }
        }
        (special, crossings)
    }

    #[test]
    fn incremental_updates_equal_a_full_refresh() {
        let (special, _) = random_games_agree(&Network::embedded().unwrap());
        assert!(special > 50, "castling, en passant and promotions must be covered ({special})");
    }

    #[test]
    fn a_net_mirrored_by_the_king_updates_as_it_refreshes() {
        let net = Arc::new(Network::embedded().unwrap().as_ref().clone().with_king_mirror(true));
        let (special, crossings) = random_games_agree(&net);
        assert!(special > 50 && crossings > 50, "special moves {special}, king crossings {crossings}");
    }
}
