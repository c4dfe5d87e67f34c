//! PDN notation: moves (`11-15`, `15x24x31`) and positions (PDN FEN, `B:W21,22,K5:B1,2,3`).
//!
//! Moves are written with every landing square, which in English draughts names a move
//! uniquely: a jump always takes the piece between its start and landing squares, so the same
//! landing squares can never mean different captured pieces. Reading also accepts the short
//! form of a capture, start and end only (`15x31`), when exactly one capture fits; when
//! several do (different routes, or the same pieces taken in a different order) the error lists
//! them in full. `-` and `x` are read alike; moves are always written with `x` for captures.
//!
//! PDN FEN is written White first, men ascending then kings ascending (`W:W21,22,K5:B1,2`);
//! reading also takes the colours in either order, ranges (`B1-12`), lower-case letters,
//! surrounding quotes and a final full stop.

use crate::board::{crown_row, Color, Kind, Piece, Position};
use crate::movegen::Move;
use std::fmt;

/// What is wrong with a move or position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

fn err<T>(message: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(message.into()))
}

/// The start position in PDN FEN.
pub const START_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// The most pieces a side can have.
const MAX_PIECES: u32 = 12;

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn parse_color(text: &str) -> Option<Color> {
    match text {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

fn parse_square(text: &str, context: &str) -> Result<u8, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return err(format!("an empty square number in {context}"));
    }
    match t.parse::<u32>() {
        Ok(n) if (1..=32).contains(&n) => Ok(n as u8),
        Ok(n) => err(format!("square {n} in {context} is not on the board (squares are 1-32)")),
        Err(_) => err(format!("'{t}' in {context} is not a square number (1-32)")),
    }
}

impl Position {
    /// Reads a PDN FEN such as `B:W21,22,K5:B1,2,3`; the error says what is wrong.
    pub fn from_fen(text: &str) -> Result<Position, NotationError> {
        let mut t = text.trim();
        if let Some(inner) = t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            t = inner.trim();
        }
        let t = t.strip_suffix('.').unwrap_or(t);
        if t.is_empty() {
            return err("empty position: expected a PDN FEN like B:W21,22:B1,2");
        }
        let fields: Vec<&str> = t.split(':').collect();
        if fields.len() != 3 {
            return err(format!(
                "a PDN FEN has three fields separated by ':' (side to move, White's pieces, Black's pieces, like B:W21,22:B1,2); '{t}' has {}",
                fields.len()
            ));
        }
        let side = parse_color(fields[0].trim())
            .ok_or_else(|| NotationError(format!("the side to move must be B or W, not '{}'", fields[0].trim())))?;
        let mut pos = Position::empty(side);
        let mut seen = [false; 2];
        for field in &fields[1..] {
            let field = field.trim();
            let mut chars = field.chars();
            let color = chars
                .next()
                .and_then(|c| parse_color(&c.to_string()))
                .ok_or_else(|| NotationError(format!("a piece list must start with W or B, not '{field}'")))?;
            let idx = color as usize;
            if seen[idx] {
                return err(format!("{}'s pieces are listed twice", color_word(color)));
            }
            seen[idx] = true;
            let list = chars.as_str().trim();
            let context = format!("{}'s list", color_word(color));
            if list.is_empty() {
                continue;
            }
            for item in list.split(',') {
                let item = item.trim();
                let (kind, rest) = match item.strip_prefix(['K', 'k']) {
                    Some(r) => (Kind::King, r),
                    None => (Kind::Man, item),
                };
                let range = match rest.split_once('-') {
                    Some((a, b)) => {
                        let (a, b) = (parse_square(a, &context)?, parse_square(b, &context)?);
                        if a > b {
                            return err(format!("the range {a}-{b} in {context} runs backwards"));
                        }
                        a..=b
                    }
                    None => {
                        let s = parse_square(rest, &context)?;
                        s..=s
                    }
                };
                for square in range {
                    if let Some(p) = pos.piece_at(square) {
                        return if p.color == color {
                            err(format!("square {square} is listed twice in {context}"))
                        } else {
                            err(format!("square {square} holds both a White and a Black piece"))
                        };
                    }
                    if kind == Kind::Man && crown_row(color) & (1 << (square - 1)) != 0 {
                        return err(format!(
                            "a {} man on square {square} would already be crowned (write K{square} for a king)",
                            color_word(color)
                        ));
                    }
                    pos.put(square, Piece { color, kind });
                }
            }
        }
        for color in [Color::White, Color::Black] {
            let n = pos.pieces(color).count_ones();
            if n > MAX_PIECES {
                return err(format!("{} has {n} pieces; a side has at most {MAX_PIECES}", color_word(color)));
            }
        }
        if !seen[Color::White as usize] || !seen[Color::Black as usize] {
            return err("a PDN FEN needs a W list and a B list (either may be empty, like W:W:B1)");
        }
        Ok(pos)
    }

    /// The position as PDN FEN: side to move, then White's and Black's men and kings ascending.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        out.push(self.side_to_move().letter());
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(color.letter());
            let own = self.pieces(color);
            let items: Vec<String> = crate::movegen::squares(own & !self.kings())
                .into_iter()
                .map(|s| s.to_string())
                .chain(crate::movegen::squares(own & self.kings()).into_iter().map(|s| format!("K{s}")))
                .collect();
            out.push_str(&items.join(","));
        }
        out
    }

    /// Reads a move for the side to move (`11-15`, `15x24x31`, or the short `15x31` when only
    /// one capture fits); the error says why a text is not a legal move here.
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return err("empty move: expected a move like 11-15 or 15x24");
        }
        let parts: Vec<&str> = t.split(['-', 'x', 'X']).collect();
        if parts.len() < 2 {
            return err(format!("'{t}' is not a move: expected squares joined by - or x, like 11-15 or 15x24"));
        }
        let mut squares = Vec::with_capacity(parts.len());
        for p in &parts {
            squares.push(parse_square(p, &format!("the move '{t}'"))?);
        }
        let from = squares[0];
        let us = self.side_to_move();
        match self.piece_at(from) {
            None => return err(format!("{t}: there is no piece on {from}")),
            Some(p) if p.color != us => {
                return err(format!("{t}: the piece on {from} is {}'s, and {} is to move", p.color.name(), us.name()))
            }
            _ => {}
        }
        let legal = self.legal_moves();
        let ours: Vec<&Move> = legal.iter().filter(|m| m.from() == from).collect();
        if let Some(m) = ours.iter().find(|m| m.landings() == &squares[1..]) {
            return Ok(**m);
        }
        if squares.len() == 2 {
            let ends: Vec<&&Move> = ours.iter().filter(|m| m.is_capture() && m.to() == squares[1]).collect();
            match ends.len() {
                0 => {}
                1 => return Ok(**ends[0]),
                _ => {
                    let list: Vec<String> = ends.iter().map(|m| m.to_string()).collect();
                    return err(format!("{t} is ambiguous: write the whole capture, one of {}", list.join(", ")));
                }
            }
        }
        let listed = |ms: &[&Move]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ");
        if legal.first().is_some_and(Move::is_capture) {
            let longer: Vec<&Move> = ours.iter().copied().filter(|m| m.landings().starts_with(&squares[1..])).collect();
            if !longer.is_empty() {
                return err(format!("{t} is not finished: the capture must go on ({})", listed(&longer)));
            }
            let all: Vec<&Move> = legal.iter().collect();
            return err(format!("{t} is not allowed: a capture is compulsory ({})", listed(&all)));
        }
        if ours.is_empty() {
            return err(format!("{t}: the piece on {from} has no legal move"));
        }
        err(format!("{t} is not a legal move; the piece on {from} can play {}", listed(&ours)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trip() {
        assert_eq!(Position::start().to_fen(), START_FEN);
        assert_eq!(Position::from_fen(START_FEN).unwrap(), Position::start());
    }

    #[test]
    fn issue_example_round_trips_exactly() {
        for fen in ["B:W21,22,K5:B1,2,3", "W:W:B1", "W:WK1,K2:BK31,K32", "B:W18,K30:B6,K27"] {
            assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn lenient_forms() {
        let p = Position::from_fen("\"B:B1-12:W21-32.\"").unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(Position::from_fen("b:wk5:b1").unwrap().to_fen(), "B:WK5:B1");
    }

    #[test]
    fn fen_errors_say_what_is_wrong() {
        let cases = [
            ("", "empty position"),
            ("B:W21", "three fields"),
            ("X:W21:B1", "side to move must be B or W"),
            ("B:W21:W22", "listed twice"),
            ("B:W33:B1", "square 33"),
            ("B:W0:B1", "square 0"),
            ("B:Wa:B1", "'a'"),
            ("B:W5,5:B1", "square 5 is listed twice"),
            ("B:W5:B5", "both a White and a Black"),
            ("B:W2:B1", "White man on square 2 would already be crowned"),
            ("B:W21:B30", "Black man on square 30"),
            ("B:W21:B9-3", "backwards"),
            ("B:W5-17:B1", "13 pieces"),
            ("B:Q5:B1", "must start with W or B"),
            ("B:W21,:B1", "empty square number"),
        ];
        for (fen, expected) in cases {
            let e = Position::from_fen(fen).expect_err(fen).0;
            assert!(e.contains(expected), "{fen}: {e}");
        }
    }

    #[test]
    fn move_errors_say_what_is_wrong() {
        let start = Position::start();
        let cases = [
            ("", "empty move"),
            ("11", "not a move"),
            ("11-35", "not on the board"),
            ("11-x", "empty square number"),
            ("11-1a", "not a square number"),
            ("14-18", "no piece on 14"),
            ("22-18", "white's, and black is to move"),
            ("1-5", "has no legal move"),
            ("11-14", "can play 11-15, 11-16"),
        ];
        for (m, expected) in cases {
            let e = start.parse_move(m).expect_err(m).0;
            assert!(e.contains(expected), "{m}: {e}");
        }
        let p = Position::from_fen("B:W15,23:B11,12").unwrap();
        let e = p.parse_move("12-16").unwrap_err().0;
        assert!(e.contains("capture is compulsory (11x18x27)"), "{e}");
        let e = p.parse_move("11x18").unwrap_err().0;
        assert!(e.contains("not finished: the capture must go on (11x18x27)"), "{e}");
        assert_eq!(p.parse_move("11x27").map(|m| m.to_string()), Ok("11x18x27".to_string()));
        assert_eq!(p.parse_move("11-18-27").map(|m| m.to_string()), Ok("11x18x27".to_string()));
    }

    #[test]
    fn unfinished_and_ambiguous_captures() {
        // A king on 1 takes 6 and then either 14 or 15.
        let p = Position::from_fen("B:W6,14,15:BK1").unwrap();
        let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["1x10x17", "1x10x19"]);
        let e = p.parse_move("1x10").unwrap_err().0;
        assert!(e.contains("not finished") && e.contains("1x10x17, 1x10x19"), "{e}");
        assert_eq!(p.parse_move("1x17").map(|m| m.to_string()), Ok("1x10x17".to_string()));
        // A king on 6 goes round four pieces either way and comes back to 6: same start, end and
        // captured pieces, two moves; the short form cannot choose.
        let ring = Position::from_fen("B:W9,10,17,18:BK6").unwrap();
        let mut routes: Vec<String> = ring.legal_moves().iter().map(|m| m.to_string()).collect();
        routes.sort();
        assert_eq!(routes, ["6x13x22x15x6", "6x15x22x13x6"]);
        let e = ring.parse_move("6x6").unwrap_err().0;
        assert!(e.contains("ambiguous") && e.contains("6x15x22x13x6"), "{e}");
        for m in ring.legal_moves() {
            assert_eq!(ring.parse_move(&m.to_string()), Ok(m));
            assert_eq!(ring.after(&m).to_fen(), "W:W:BK6");
        }
    }
}
