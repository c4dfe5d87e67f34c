//! The game position a `position` command sets up: start board, moves played, current board.

use homeostat_chess::{Board, Move, MoveError};

/// A start position and the legal moves played from it.
#[derive(Clone, Debug)]
pub struct Position {
    start: Board,
    moves: Vec<Move>,
    board: Board,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard start position with no moves played.
    pub fn startpos() -> Position {
        let start = Board::startpos();
        Position { start, moves: Vec::new(), board: start }
    }

    /// The position of `position fen <fen> moves …` (`fen` `None` for startpos). All or nothing:
    /// the error names the bad FEN field or the first illegal move and why it is illegal.
    pub fn from_command(fen: Option<&str>, moves: &[String]) -> Result<Position, String> {
        let start = match fen {
            None => Board::startpos(),
            Some(text) => Board::from_fen(text).map_err(|e| e.to_string())?,
        };
        let mut board = start;
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = parse_move(&board, text).map_err(|why| format!("move {} '{text}': {why}", i + 1))?;
            board.play(m);
            played.push(m);
        }
        Ok(Position { start, moves: played, board })
    }

    /// The position after the moves.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position before the moves.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The moves played from the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

/// Reads a move in UCI notation and checks it is legal on `board`; the error says why not.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    board.parse_uci(text).map_err(|e| match e {
        MoveError::NotAMove { reason, .. }
        | MoveError::Illegal { reason, .. }
        | MoveError::Ambiguous { reason, .. } => reason,
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(list: &str) -> Vec<String> {
        list.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn plays_moves_in_order() {
        let p = Position::from_command(None, &moves("e2e4 e7e5 g1f3")).unwrap();
        assert_eq!(p.moves().len(), 3);
        assert_eq!(p.board().to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        assert_eq!(p.start(), &Board::startpos());
    }

    #[test]
    fn explains_illegal_moves() {
        let err = Position::from_command(None, &moves("e2e4 e2e4")).unwrap_err();
        assert_eq!(err, "move 2 'e2e4': there is no piece on e2");
        let err = Position::from_command(None, &moves("e7e5")).unwrap_err();
        assert!(err.starts_with("move 1 'e7e5': ") && err.contains("Black's, and White is to move"), "{err}");
        let err = Position::from_command(None, &moves("g1g3")).unwrap_err();
        assert!(err.contains("g1") && err.contains("g3"), "{err}");
        let err = Position::from_command(None, &moves("e2e4 zz")).unwrap_err();
        assert!(err.starts_with("move 2 'zz': expected a UCI move"), "{err}");
        let promo = Some("8/P7/8/8/8/8/8/K6k w - - 0 1");
        assert!(Position::from_command(promo, &moves("a7a8")).unwrap_err().contains("must promote"));
        assert!(Position::from_command(promo, &moves("a7a8n")).is_ok());
    }

    #[test]
    fn castling_as_king_takes_rook_is_understood() {
        let fen = Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let p = Position::from_command(fen, &moves("e1h1")).unwrap();
        assert_eq!(p.moves()[0].to_string(), "e1g1");
    }

    #[test]
    fn bad_fen_reports_the_field() {
        let err = Position::from_command(Some("8/8/8/8/8/8/8/K6k x - - 0 1"), &[]).unwrap_err();
        assert!(err.starts_with("FEN field 2"), "{err}");
    }
}
