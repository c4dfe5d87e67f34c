//! A game record: the start position, the moves and the positions they lead to, the moves taken
//! back (to redo), and the rules that need the history (repetition) or a player's say (claims,
//! resignation, agreement).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::outcome::{EndReason, GameResult, Outcome};
use crate::pgn::{self, PgnError, PgnGame};
use crate::types::{Color, PieceKind, Square};
use crate::zobrist;

/// A game: a start position and the legal moves played from it, with every position kept.
///
/// ```
/// use homeostat_chess::{EndReason, Game, GameResult};
/// let mut game = Game::default();
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     game.play_text(san).unwrap();
/// }
/// let outcome = game.outcome().unwrap();
/// assert_eq!((outcome.result, outcome.reason), (GameResult::BlackWins, EndReason::Checkmate));
/// assert!(game.to_pgn(&[("White", "Fool")]).ends_with("1. f3 e5 2. g4 Qh4# 0-1\n"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `boards[0]` is the start, `boards[i]` the position after `i` moves.
    boards: Vec<Board>,
    /// Each position's repetition key (see [`repetition_key`]).
    keys: Vec<u64>,
    moves: Vec<Move>,
    /// An ending decided by the players: resignation, agreement, a claim, a recorded result.
    declared: Option<Outcome>,
    /// Moves taken back with [`Game::undo`], the next one to redo last.
    redo: Vec<Move>,
    /// Whether a draw that can be claimed ends the game at once (see [`Game::set_automatic_claims`]).
    automatic_claims: bool,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Board::startpos())
    }
}

impl Game {
    /// A game starting from `start`, with no moves yet.
    pub fn new(start: Board) -> Game {
        Game {
            boards: vec![start],
            keys: vec![repetition_key(&start)],
            moves: Vec::new(),
            declared: None,
            redo: Vec::new(),
            automatic_claims: false,
        }
    }

    /// The position before the first move.
    pub fn start(&self) -> &Board {
        &self.boards[0]
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.boards[self.boards.len() - 1]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position: the start, then the one after each move (one more than the moves).
    pub fn positions(&self) -> &[Board] {
        &self.boards
    }

    /// The Polyglot key of every position, in the order of [`Game::positions`].
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.boards.iter().map(Board::hash)
    }

    /// How many moves (plies) have been played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Plays `m`: it must be legal, and the game must not be over. The move taken back last is
    /// then no longer to redo: playing it again keeps the moves after it, another move drops them.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let text = m.to_string();
        self.refuse_if_over(&text)?;
        if !self.board().is_legal(m) {
            return Err(self.board().illegal_error(m, &text));
        }
        self.push_played(m);
        Ok(())
    }

    /// Plays a move given in UCI or SAN (see [`Board::parse_move`]) and returns it; as [`Game::play`].
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        self.refuse_if_over(text.trim())?;
        let m = self.board().parse_move(text)?;
        self.push_played(m);
        Ok(m)
    }

    /// Appends a legal move played by a player: updates the redo stack and makes automatic claims.
    fn push_played(&mut self, m: Move) {
        self.push(m);
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        if self.automatic_claims {
            self.claim_draw();
        }
    }

    fn refuse_if_over(&self, text: &str) -> Result<(), MoveError> {
        match self.outcome() {
            Some(outcome) => Err(MoveError::GameOver { text: text.to_string(), outcome }),
            None => Ok(()),
        }
    }

    /// Appends a move known to be legal.
    fn push(&mut self, m: Move) {
        let mut next = *self.board();
        next.play(m);
        self.boards.push(next);
        self.keys.push(repetition_key(&next));
        self.moves.push(m);
    }

    /// Takes back the last move (and any declared ending) and keeps it to redo; `None` if there
    /// is none.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.boards.pop();
        self.keys.pop();
        self.declared = None;
        self.redo.push(m);
        Some(m)
    }

    /// Plays again the move taken back last, if any. When it cannot be played (the game was
    /// ended meanwhile, by resignation say) nothing is left to redo and `None` comes back.
    pub fn redo(&mut self) -> Option<Move> {
        let m = *self.redo.last()?;
        if self.play(m).is_err() {
            self.redo.clear();
            return None;
        }
        Some(m)
    }

    /// The moves [`Game::redo`] can play again, the next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }

    /// Whether a draw that can be claimed (see [`Game::claimable_draw`]) ends the game at once,
    /// after every move played (or redone) and now, as a player who always claims would. Off by
    /// default: the rules leave the claim to the player.
    pub fn set_automatic_claims(&mut self, on: bool) {
        self.automatic_claims = on;
        if on {
            self.claim_draw();
        }
    }

    /// Whether draws are claimed automatically.
    pub fn automatic_claims(&self) -> bool {
        self.automatic_claims
    }

    /// The moves in SAN.
    pub fn san_moves(&self) -> Vec<String> {
        self.moves.iter().zip(&self.boards).map(|(&m, board)| board.san(m)).collect()
    }

    /// How many times the current position has occurred in this game, counting itself.
    ///
    /// Positions are the same when the same pieces stand on the same squares with the same side
    /// to move, the same castling rights, and the same en passant capture actually possible.
    /// Only positions from the start board on are counted.
    pub fn repetitions(&self) -> usize {
        let last = self.boards.len() - 1;
        let (key, board) = (self.keys[last], &self.boards[last]);
        (0..=last).rev().step_by(2).filter(|&i| self.keys[i] == key && same_position(&self.boards[i], board)).count()
    }

    /// How the game ended, if it has: first the automatic endings (checkmate, stalemate, dead
    /// position by material, fivefold repetition, the 75-move rule; checkmate takes precedence),
    /// then an ending declared by the players or a record.
    pub fn outcome(&self) -> Option<Outcome> {
        self.automatic_outcome().or(self.declared)
    }

    /// The ending the rules impose by themselves, if any.
    pub fn automatic_outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.board().outcome() {
            return Some(outcome);
        }
        if self.repetitions() >= 5 {
            return Some(Outcome::draw(EndReason::FivefoldRepetition));
        }
        None
    }

    /// The draw the player to move could claim now, if the game is not over: threefold
    /// repetition of the current position, or 50 moves each without a capture or pawn move.
    /// (Claims announcing a move that would repeat are not covered.)
    pub fn claimable_draw(&self) -> Option<Outcome> {
        if self.outcome().is_some() {
            return None;
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::draw(EndReason::ThreefoldRepetition));
        }
        if self.board().halfmove_clock() >= 100 {
            return Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
        None
    }

    /// Claims the draw [`Game::claimable_draw`] offers and ends the game with it.
    pub fn claim_draw(&mut self) -> Option<Outcome> {
        let outcome = self.claimable_draw()?;
        self.declared = Some(outcome);
        Some(outcome)
    }

    /// Ends the game with `outcome` (resignation, agreement, timeout, ...). Refused with the
    /// existing outcome when the game is already over.
    pub fn declare(&mut self, outcome: Outcome) -> Result<Outcome, Outcome> {
        match self.outcome() {
            Some(existing) => Err(existing),
            None => {
                self.declared = Some(outcome);
                Ok(outcome)
            }
        }
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Color) -> Result<Outcome, Outcome> {
        self.declare(Outcome::new(GameResult::win_for(side.flip()), EndReason::Resignation))
    }

    /// `side` ran out of time: the other side wins, or draws when it has no mating material
    /// (see [`Board::has_mating_material`]). The reason is [`EndReason::Timeout`] either way.
    pub fn flag(&mut self, side: Color) -> Result<Outcome, Outcome> {
        let opponent = side.flip();
        let result =
            if self.board().has_mating_material(opponent) { GameResult::win_for(opponent) } else { GameResult::Draw };
        self.declare(Outcome::new(result, EndReason::Timeout))
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<Outcome, Outcome> {
        self.declare(Outcome::draw(EndReason::Agreement))
    }

    /// The game as a [`PgnGame`] with these tags (the result comes from [`Game::outcome`]).
    pub fn to_pgn_game(&self, tags: &[(&str, &str)]) -> PgnGame {
        PgnGame {
            tags: tags.iter().map(|&(n, v)| (n.to_string(), v.to_string())).collect(),
            start: *self.start(),
            moves: self.moves.clone(),
            result: self.outcome().map(|o| o.result),
            ..PgnGame::new(*self.start())
        }
    }

    /// The game in PGN export format with these tags (see [`PgnGame::to_pgn`]).
    pub fn to_pgn(&self, tags: &[(&str, &str)]) -> String {
        self.to_pgn_game(tags).to_pgn()
    }

    /// The first game of a PGN text (see [`Game::from_pgn_game`]).
    pub fn from_pgn(text: &str) -> Result<Game, PgnError> {
        Game::from_pgn_game(&pgn::read_game(text)?)
    }

    /// The game a [`PgnGame`] records. A recorded result becomes a declared ending with reason
    /// [`EndReason::Unspecified`]; one that contradicts an automatic ending of the final
    /// position (a checkmate recorded as a draw, say) is an error.
    pub fn from_pgn_game(record: &PgnGame) -> Result<Game, PgnError> {
        let error = |at_move, message| PgnError { game: 1, line: 0, at_move, message };
        let mut game = Game::new(record.start);
        for &m in &record.moves {
            let board = game.board();
            if !board.is_legal(m) {
                let at = Some((board.fullmove_number(), board.side_to_move()));
                return Err(error(at, board.illegal_error(m, &m.to_string()).to_string()));
            }
            game.push(m);
        }
        match record.result {
            Some(result) => game.record_result(result).map(|()| game).map_err(|message| error(None, message)),
            None => Ok(game),
        }
    }

    /// The game of `moves` (UCI or SAN, as [`Board::parse_move`] reads them) from `start`, replayed as
    /// a record is read ([`Game::from_pgn_game`]): each move must be legal, but the game goes on past
    /// a draw nobody claimed. The first move that cannot be played is the error.
    pub fn from_moves<T: AsRef<str>>(start: Board, moves: &[T]) -> Result<Game, MoveError> {
        let mut game = Game::new(start);
        for text in moves {
            let m = game.board().parse_move(text.as_ref())?;
            game.push(m);
        }
        Ok(game)
    }

    /// Ends the game with a recorded `result`, as a game record says how it ended: an ending for
    /// [`EndReason::Unspecified`], unless the final position already ends the game that way. A result
    /// that contradicts the final position (a checkmate recorded as a draw, say) is refused with the reason.
    pub fn record_result(&mut self, result: GameResult) -> Result<(), String> {
        match self.automatic_outcome() {
            Some(outcome) if result != outcome.result => {
                Err(format!("the result {result} contradicts the final position: {outcome}"))
            }
            Some(_) => Ok(()),
            None => {
                self.declared = Some(Outcome::new(result, EndReason::Unspecified));
                Ok(())
            }
        }
    }
}

/// The Polyglot key, without the en passant part when no en passant capture is legal (a
/// pinned pawn): such positions repeat positions without the e.p. square.
fn repetition_key(board: &Board) -> u64 {
    match board.en_passant() {
        Some(ep) if board.ep_capturable(ep) && legal_en_passant(board).is_none() => {
            board.hash() ^ zobrist::en_passant(ep.file())
        }
        _ => board.hash(),
    }
}

/// The en passant square, if a legal en passant capture exists.
fn legal_en_passant(board: &Board) -> Option<Square> {
    let ep = board.en_passant()?;
    // Only an en passant capture can put a pawn on the e.p. square.
    let found = board.generate_moves_to(Bitboard::from_square(ep), |pm| pm.kind == PieceKind::Pawn);
    found.then_some(ep)
}

/// Whether two positions are the same for the repetition rules.
fn same_position(a: &Board, b: &Board) -> bool {
    a.by_kind == b.by_kind
        && a.by_color == b.by_color
        && a.side_to_move() == b.side_to_move()
        && a.castling() == b.castling()
        && legal_en_passant(a) == legal_en_passant(b)
}
