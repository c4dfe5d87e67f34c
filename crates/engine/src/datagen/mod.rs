//! Self-play training data: the game loop that makes it and the compact format that holds it.
//!
//! Each game starts with [`RANDOM_PLIES`] random legal plies and is dropped when a short
//! search then scores it beyond ±[`OPENING_CP`]; it is played out by a fresh engine at a fixed
//! node budget a move, so a game depends only on its seed, the limits and the evaluation. A game ends by the
//! rules, by adjudication (both sides scoring beyond ±[`ADJUDICATE_CP`] for
//! [`ADJUDICATE_PLIES`] plies in a row), or as a draw after [`MAX_PLIES`] plies.

pub mod format;

pub use format::{FormatError, GameRecord, Header};

use crate::nnue::Network;
use crate::{Engine, Limits, Rng, Silent};
use homeostat_chess::{Board, Color, Game, GameResult, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Random plies before the engine takes over.
pub const RANDOM_PLIES: usize = 8;
/// Openings scored beyond this (centipawns) by a short search are dropped.
pub const OPENING_CP: i32 = 150;
/// Node budget of the search that vets an opening.
pub const OPENING_NODES: u64 = 2_000;
/// Games are called drawn after this many plies.
pub const MAX_PLIES: usize = 400;
/// Score (centipawns) beyond which a game is adjudicated...
pub const ADJUDICATE_CP: i32 = 1000;
/// ...once it has lasted this many plies in a row, for the same side.
pub const ADJUDICATE_PLIES: usize = 8;
/// Transposition table per game (MB): small, since a move searches only thousands of nodes.
const HASH_MB: usize = 8;

/// The seed of game `index` in a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u32) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(index as u64)
}

/// The limits of one datagen move: finish iterations until `soft_nodes` are spent, never more
/// than eight times that.
pub fn soft_limits(soft_nodes: u64) -> Limits {
    Limits { nodes: Some(soft_nodes.saturating_mul(8)), soft_nodes: Some(soft_nodes), ..Limits::default() }
}

/// Plays game `index` from its seed with `limits` a move, evaluating with `net` (`None`: the
/// hand-crafted evaluation). The record has no plies when the opening was dropped (or had no
/// legal move).
pub fn play_game(seed: u64, index: u32, limits: &Limits, net: Option<&Arc<Network>>) -> GameRecord {
    let mut rng = Rng::new(game_seed(seed, index));
    let mut game = Game::default();
    let dropped = |game: &Game| GameRecord { index, start: *game.board(), result: GameResult::Draw, plies: Vec::new() };
    for _ in 0..RANDOM_PLIES {
        let moves = game.board().legal_moves();
        if moves.is_empty() {
            return dropped(&game);
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(m).expect("legal move");
    }
    let mut engine = Engine::new(HASH_MB);
    if let Some(net) = net {
        engine.set_network(Some(Arc::clone(net)));
        engine.set_use_nnue(true);
    }
    let stop = AtomicBool::new(false);
    let clock = || 0.0;
    let history = |game: &Game| game.hashes().collect::<Vec<u64>>();
    let check = engine.search(game.board(), &history(&game), &Limits::nodes(OPENING_NODES), &clock, &stop, &mut Silent);
    if check.best.is_none() || check.score.as_cp().abs() > OPENING_CP {
        return dropped(&game);
    }
    engine.new_game();

    let start = *game.board();
    let mut plies = Vec::new();
    let mut lopsided: i32 = 0;
    let result = loop {
        if let Some(outcome) = game.automatic_outcome().or_else(|| game.claimable_draw()) {
            break outcome.result;
        }
        if game.len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let board: Board = *game.board();
        let r = engine.search(&board, &history(&game), limits, &clock, &stop, &mut Silent);
        let best = r.best.expect("a legal move exists");
        let white_cp = r.score.for_white(board.side_to_move()).as_cp();
        lopsided = if white_cp.abs() < ADJUDICATE_CP {
            0
        } else if lopsided != 0 && lopsided.signum() == white_cp.signum() {
            lopsided + white_cp.signum()
        } else {
            white_cp.signum()
        };
        if lopsided.unsigned_abs() as usize >= ADJUDICATE_PLIES {
            break GameResult::win_for(if lopsided > 0 { Color::White } else { Color::Black });
        }
        plies.push((best, format::store_score(r.score)));
        game.play(best).expect("engine moves are legal");
    };
    // A game with no ply stored would read as a dropped opening; keep its index all the same.
    GameRecord { index, start, result, plies }
}

/// One training position: the board, the move played from it, the search score and the result.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// The position.
    pub board: Board,
    /// The move the engine played.
    pub mv: Move,
    /// The search score, side to move's view (mates at `±format::MATE_SCORE`).
    pub score: i16,
    /// The game's result.
    pub result: GameResult,
}

impl Position {
    /// The result from the side to move's view: 1 win, 0.5 draw, 0 loss.
    pub fn result_for_mover(&self) -> f32 {
        match self.result.winner() {
            None => 0.5,
            Some(c) if c == self.board.side_to_move() => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The games in a data file's bytes, header first. A truncated last record is left out and
/// reported in `Games::truncated`; corrupt data is an error.
pub fn read_games(bytes: &[u8]) -> Result<Games, FormatError> {
    let header = Header::from_bytes(bytes)?;
    let mut games = Vec::new();
    let mut at = header.byte_len();
    while at < bytes.len() {
        match GameRecord::read_from(&bytes[at..])? {
            Some((record, len)) => {
                games.push(record);
                at += len;
            }
            None => break,
        }
    }
    Ok(Games { header, games, valid_len: at, truncated: bytes.len() - at })
}

/// A data file's contents.
#[derive(Clone, Debug)]
pub struct Games {
    /// The header.
    pub header: Header,
    /// The complete game records, in file order.
    pub games: Vec<GameRecord>,
    /// Bytes up to the end of the last complete record.
    pub valid_len: usize,
    /// Bytes of a cut-off record after it (0 for a clean file).
    pub truncated: usize,
}

/// Replays `record` and calls `f` for every stored position; an error if a move is illegal.
pub fn for_each_position(record: &GameRecord, mut f: impl FnMut(&Position)) -> Result<(), FormatError> {
    let mut board = record.start;
    for (i, &(mv, score)) in record.plies.iter().enumerate() {
        if !board.is_legal(mv) {
            return Err(FormatError(format!("game {}: illegal move {mv} at ply {i}", record.index)));
        }
        f(&Position { board, mv, score, result: record.result });
        board.play(mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_reproducible_and_replays() {
        let limits = soft_limits(300);
        let mut index = 0;
        let record = loop {
            let r = play_game(42, index, &limits, None);
            if !r.is_dropped() {
                break r;
            }
            index += 1;
        };
        assert_eq!(play_game(42, index, &limits, None), record);
        assert_eq!(record.start.fullmove_number(), 1 + RANDOM_PLIES as u32 / 2);
        let mut count = 0;
        let mut last = record.start;
        for_each_position(&record, |p| {
            count += 1;
            last = p.board;
        })
        .unwrap();
        assert_eq!(count, record.plies.len());
        let mut bytes = Header { seed: 42, nodes: 300, net: None }.to_bytes();
        record.write_to(&mut bytes);
        let games = read_games(&bytes).unwrap();
        assert_eq!((games.games, games.truncated), (vec![record], 0));
    }
}
