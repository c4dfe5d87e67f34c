//! Portable Game Notation: reading files of many games and writing games in export format.
//! Each main-line move keeps its annotation (see [`crate::annotation`]): NAGs and suffix glyphs,
//! its comments with `[%eval]`, `[%cal]` and `[%csl]`, and its first variation; deeper
//! variations and further variations are skipped, and counted ([`PgnGame::unkept`]). A comment
//! before the first move is kept as the game's preface: what is said about the start position (its
//! drawings, its evaluation).
//!
//! ```
//! use homeostat_chess::pgn;
//! let text = "[Event \"A\"]\n1. e4 {good} e5 (1... c5) 2. Nf3 1-0\n\n[Event \"B\"]\n1. e4 Ke6?? *\n";
//! let games = pgn::read_games(text);
//! assert_eq!(games[0].as_ref().unwrap().moves.len(), 3);
//! assert_eq!(
//!     games[1].as_ref().unwrap_err().to_string(),
//!     "game 2, move 1 (Black): illegal move: Ke6?? — no king can reach e6 (line 5)"
//! );
//! ```

use crate::annotation::{nag_of_suffix, Annotation};
use crate::board::Board;
use crate::moves::Move;
use crate::outcome::GameResult;
use crate::types::Color;
use std::fmt;

/// One game read from or written to PGN: its tags, start position, main line and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order (on reading, `FEN` and `SetUp` are kept as written).
    pub tags: Vec<(String, String)>,
    /// The position before the first move: the `FEN` tag's, or the standard start.
    pub start: Board,
    /// The main line, each move legal in its position.
    pub moves: Vec<Move>,
    /// The result, `None` for `*` (unknown or unfinished).
    pub result: Option<GameResult>,
    /// What is said about each main-line move, by index into `moves` (may be shorter).
    pub annotations: Vec<Annotation>,
    /// The comment before the first move: what is said about the start position.
    pub preface: Annotation,
    /// How many side lines of the text were read past and not kept: variations after a move's first,
    /// variations inside variations, comments and NAGs inside variations, a first variation's moves
    /// after one that cannot be read (once per variation), and NAGs before the first move. 0 for a
    /// game not read from text.
    pub unkept: usize,
}

/// Why a game in a PGN text was refused: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based number of the game in the text.
    pub game: usize,
    /// The 1-based line of the offending token; 0 when not known.
    pub line: usize,
    /// The move number and the side to move, when a move is at fault.
    pub at_move: Option<(u32, Color)>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some((number, side)) = self.at_move {
            let side = if side == Color::White { "White" } else { "Black" };
            write!(f, ", move {number} ({side})")?;
        }
        write!(f, ": {}", self.message)?;
        if self.line > 0 {
            write!(f, " (line {})", self.line)?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {}

/// Every game in a PGN text, in order; a game with an error does not affect the others.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    games(text).collect()
}

/// The first game in a PGN text.
pub fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    games(text).next().unwrap_or_else(|| {
        Err(PgnError {
            game: 1,
            line: 1,
            at_move: None,
            message: "no game found: expected tags such as [Event \"...\"] or moves".to_string(),
        })
    })
}

/// The games in a PGN text, read one at a time (for large files).
pub fn games(text: &str) -> Games<'_> {
    Games { lexer: Lexer::new(text), count: 0 }
}

/// An annotation written as PGN move text after its move, such as
/// `$4 {[%eval -3.10] [%cal Gd8e7] Loses a piece.} (Qe7 Nxf7)`: NAGs and suffix glyphs, comments
/// and one variation from `before`, the position before the move (its moves in SAN or UCI).
pub fn read_annotation(before: &Board, text: &str) -> Result<Annotation, String> {
    let mut lexer = Lexer::new(text);
    let mut annotation = Annotation::default();
    let mut board = *before;
    let mut depth = 0;
    while let Some((token, _)) = lexer.take() {
        match token {
            Token::Nag(nag) if depth == 0 => annotation.add_nag(nag),
            Token::Comment(text) if depth == 0 => annotation.add_comment(text)?,
            Token::Open if depth == 0 && annotation.variation.is_empty() => depth = 1,
            Token::Close if depth == 1 => depth = 0,
            Token::Symbol(text) if depth == 0 => {
                annotation.add_nag(nag_of_suffix(text).ok_or_else(|| format!("'{text}' is not an annotation glyph"))?)
            }
            Token::Symbol(text) if depth == 1 => {
                let text = strip_glyphs(strip_move_number(text)).0;
                if !text.is_empty() {
                    let m = board.parse_move(text).map_err(|e| format!("variation: {e}"))?;
                    board.play(m);
                    annotation.variation.push(m);
                }
            }
            Token::Bad(message) => return Err(message),
            _ => return Err("an annotation holds NAGs, comments and one variation, and nothing else".to_string()),
        }
    }
    if depth > 0 {
        return Err("a variation opened with '(' is never closed".to_string());
    }
    Ok(annotation)
}

/// Games written one after another, separated by blank lines.
pub fn write_games(games: &[PgnGame]) -> String {
    let mut text = String::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&game.to_pgn());
    }
    text
}

/// The seven tags every exported game starts with, in order, and their "unknown" values.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Lines of move text are at most this long.
const LINE_WIDTH: usize = 80;

impl PgnGame {
    /// A game with no tags, no moves and no result, starting from `start`.
    pub fn new(start: Board) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: None,
            annotations: Vec::new(),
            preface: Annotation::default(),
            unkept: 0,
        }
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an earlier value or adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The game in PGN export format: the seven-tag roster first (`?` for unknown values, the
    /// `Result` tag always matching [`PgnGame::result`]), then the other tags, then `SetUp` and
    /// `FEN` when the start is not the standard position; then the moves in SAN wrapped at 80
    /// columns, ending with the result. A move that is not legal stops the move text there,
    /// with a comment saying so.
    pub fn to_pgn(&self) -> String {
        let result = self.result.map_or("*", GameResult::to_pgn);
        let mut out = String::new();
        for (name, unknown) in ROSTER {
            let value = if name == "Result" { result } else { self.tag(name).unwrap_or(unknown) };
            write_tag(&mut out, name, value);
        }
        for (name, value) in &self.tags {
            let managed = ROSTER.iter().any(|(n, _)| n == name) || name == "SetUp" || name == "FEN";
            if !managed {
                write_tag(&mut out, name, value);
            }
        }
        if self.start != Board::startpos() {
            write_tag(&mut out, "SetUp", "1");
            write_tag(&mut out, "FEN", &self.start.to_fen());
        }
        out.push('\n');

        let mut tokens = self.move_tokens();
        tokens.push(result.to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// The annotation of move `index`, if any.
    pub fn annotation(&self, index: usize) -> Option<&Annotation> {
        self.annotations.get(index).filter(|a| !a.is_empty())
    }

    /// The annotation of move `index`, made when missing.
    pub fn annotation_mut(&mut self, index: usize) -> &mut Annotation {
        if self.annotations.len() <= index {
            self.annotations.resize(index + 1, Annotation::default());
        }
        &mut self.annotations[index]
    }

    /// What is said about the position after `ply` moves, made when missing: ply 0 is the preface
    /// (the comment before the first move), ply `i` move `i`'s annotation.
    pub fn annotation_at(&mut self, ply: usize) -> &mut Annotation {
        match ply.checked_sub(1) {
            Some(index) => self.annotation_mut(index),
            None => &mut self.preface,
        }
    }

    /// The moves in SAN, each with its move number where needed (`12. e4`, `12... e5`), then
    /// its NAGs (`$4`), comment and variation.
    fn move_tokens(&self) -> Vec<String> {
        let mut board = self.start;
        let mut tokens = Vec::with_capacity(self.moves.len() + 1);
        tokens.extend(brace_words(&self.preface.comment_text()));
        let mut numbered = true;
        for (i, &m) in self.moves.iter().enumerate() {
            if !board.is_legal(m) {
                tokens.push(format!("{{move {m} is not legal here; the moves after it are left out}}"));
                break;
            }
            let before = board;
            tokens.push(numbered_san(&board, m, numbered));
            board.play(m);
            numbered = false;
            let Some(annotation) = self.annotation(i) else { continue };
            tokens.extend(annotation.nags.iter().map(|n| format!("${n}")));
            let comment = annotation.comment_text();
            if !comment.is_empty() {
                tokens.extend(brace_words(&comment));
                numbered = true;
            }
            let variation = variation_tokens(&before, &annotation.variation);
            if !variation.is_empty() {
                tokens.extend(variation);
                numbered = true;
            }
        }
        tokens
    }
}

/// `12. e4` for White; `12... e5` for Black when `numbered` (after a comment, a variation or at
/// the start), else `e5`.
fn numbered_san(board: &Board, m: Move, numbered: bool) -> String {
    let (san, number) = (board.san(m), board.fullmove_number());
    match board.side_to_move() {
        Color::White => format!("{number}. {san}"),
        Color::Black if numbered => format!("{number}... {san}"),
        Color::Black => san,
    }
}

/// A comment as words, the first opening `{` and the last closing `}`, so lines wrap inside it.
fn brace_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text.split_whitespace().map(String::from).collect();
    if let Some(first) = words.first_mut() {
        first.insert(0, '{');
    }
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

/// A variation from `board` as tokens, `(12... Nf6` to `Bb5)`; its legal prefix only.
fn variation_tokens(board: &Board, moves: &[Move]) -> Vec<String> {
    let mut board = *board;
    let mut tokens = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if !board.is_legal(m) {
            break;
        }
        tokens.push(numbered_san(&board, m, i == 0));
        board.play(m);
    }
    if let Some(first) = tokens.first_mut() {
        first.insert(0, '(');
    }
    if let Some(last) = tokens.last_mut() {
        last.push(')');
    }
    tokens
}

/// Writes `[Name "value"]` with quotes and backslashes escaped; line breaks become spaces and
/// characters a tag name may not hold are dropped.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if name.is_empty() {
        return;
    }
    out.push('[');
    out.push_str(&name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// A lexical token of PGN.
#[derive(Debug)]
enum Token<'a> {
    /// `[Name "value"]`; the value, or what is wrong with the tag.
    Tag { name: &'a str, value: Result<String, String> },
    /// `{...}` or `; ...`, its text.
    Comment(&'a str),
    /// `(`, opening a variation.
    Open,
    /// `)`, closing one.
    Close,
    /// `$n`, a numeric annotation glyph.
    Nag(u8),
    /// `*`, the unknown result.
    Star,
    /// Anything else: a move, a move number, a result.
    Symbol(&'a str),
    /// Text that cannot be a token, and why.
    Bad(String),
}

/// Splits PGN text into tokens, counting lines.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    peeked: Option<Option<(Token<'a>, usize)>>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer { text: text.strip_prefix('\u{feff}').unwrap_or(text), pos: 0, line: 1, peeked: None }
    }

    /// The next token and its line, without taking it.
    fn peek(&mut self) -> Option<&(Token<'a>, usize)> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex());
        }
        self.peeked.as_ref().and_then(Option::as_ref)
    }

    /// Takes the next token and its line.
    fn take(&mut self) -> Option<(Token<'a>, usize)> {
        match self.peeked.take() {
            Some(token) => token,
            None => self.lex(),
        }
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    /// Moves `pos` to `end`, counting the line breaks passed.
    fn advance_to(&mut self, end: usize) {
        let end = end.min(self.text.len());
        self.line += self.text.as_bytes()[self.pos..end].iter().filter(|&&b| b == b'\n').count();
        self.pos = end;
    }

    /// The index of the next line break at or after `from`, or the end of the text.
    fn line_end(&self, from: usize) -> usize {
        self.text.as_bytes()[from..].iter().position(|&b| b == b'\n').map_or(self.text.len(), |i| from + i)
    }

    /// Skips white space and `%` escape lines.
    fn skip_space(&mut self) {
        while let Some(b) = self.byte(self.pos) {
            if b.is_ascii_whitespace() {
                self.advance_to(self.pos + 1);
            } else if b == b'%' && (self.pos == 0 || self.byte(self.pos - 1) == Some(b'\n')) {
                let end = self.line_end(self.pos);
                self.advance_to(end);
            } else {
                break;
            }
        }
    }

    fn lex(&mut self) -> Option<(Token<'a>, usize)> {
        self.skip_space();
        let b = self.byte(self.pos)?;
        let line = self.line;
        let start = self.pos;
        let token = match b {
            b'{' => match crate::text::part(self.text, start + 1..).split_once('}') {
                Some((comment, _)) => {
                    self.advance_to(start + 1 + comment.len() + 1);
                    Token::Comment(comment)
                }
                None => {
                    self.advance_to(self.text.len());
                    Token::Bad("a comment opened with '{' is never closed".to_string())
                }
            },
            b';' => {
                let end = self.line_end(start);
                self.advance_to(end);
                Token::Comment(crate::text::part(self.text, start + 1..end))
            }
            b'(' | b')' | b'*' => {
                self.advance_to(start + 1);
                match b {
                    b'(' => Token::Open,
                    b')' => Token::Close,
                    _ => Token::Star,
                }
            }
            b'[' => self.lex_tag(),
            b'$' => {
                let digits = self.text.as_bytes()[start + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
                self.advance_to(start + 1 + digits);
                let number = crate::text::part(self.text, start + 1..start + 1 + digits);
                match number.parse::<u8>() {
                    Ok(n) => Token::Nag(n),
                    Err(_) if digits == 0 => {
                        Token::Bad("'$' must be followed by a number, as in the annotation $1".to_string())
                    }
                    Err(_) => Token::Bad(format!("annotation ${number} is out of range: NAGs go from $0 to $255")),
                }
            }
            b']' | b'}' | b'"' => {
                self.advance_to(start + 1);
                Token::Bad(format!("unexpected '{}'", b as char))
            }
            _ => {
                let len = self.text.as_bytes()[start..]
                    .iter()
                    .take_while(|&&c| !c.is_ascii_whitespace() && !b"{}()[];$\"".contains(&c))
                    .count();
                self.advance_to(start + len);
                Token::Symbol(crate::text::part(self.text, start..start + len))
            }
        };
        Some((token, line))
    }

    /// Reads `[Name "value"]` starting at `[`; a broken tag is skipped to the end of its line.
    fn lex_tag(&mut self) -> Token<'a> {
        let bytes = self.text.as_bytes();
        let mut i = self.pos + 1;
        let skip_blanks = |mut i: usize| {
            while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            i
        };
        i = skip_blanks(i);
        let name_start = i;
        while bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            i += 1;
        }
        let name = crate::text::part(self.text, name_start..i);
        let result = self.tag_value(name, skip_blanks(i));
        let value = match result {
            Ok((value, end)) => {
                self.advance_to(end);
                Ok(value)
            }
            Err(message) => {
                let end = self.line_end(self.pos);
                self.advance_to(end);
                Err(message)
            }
        };
        Token::Tag { name, value }
    }

    /// Reads the quoted value of tag `name` at `i` and the closing `]`; the value and the
    /// index after `]`.
    fn tag_value(&self, name: &str, mut i: usize) -> Result<(String, usize), String> {
        let bytes = self.text.as_bytes();
        if name.is_empty() {
            return Err("a tag needs a name after '[', as in [Event \"...\"]".to_string());
        }
        if bytes.get(i) != Some(&b'"') {
            return Err(format!("tag '{name}': the value must be in double quotes"));
        }
        i += 1;
        let mut value = Vec::new();
        loop {
            match bytes.get(i) {
                Some(b'\\') if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                    value.push(bytes[i + 1]);
                    i += 2;
                }
                Some(b'"') => break,
                None | Some(b'\n') | Some(b'\r') => {
                    return Err(format!("tag '{name}': the value has no closing quote"));
                }
                Some(&b) => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        i += 1;
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if bytes.get(i) != Some(&b']') {
            return Err(format!("tag '{name}': expected ']' after the value"));
        }
        // UTF-8 text less some ASCII backslashes is UTF-8, so this never falls back.
        Ok((String::from_utf8(value).unwrap_or_default(), i + 1))
    }
}

/// An iterator over the games of a PGN text; see [`games`].
pub struct Games<'a> {
    lexer: Lexer<'a>,
    count: usize,
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let game = self.count + 1;
        let read = GameReader::new(game).read(&mut self.lexer)?;
        self.count = game;
        Some(read)
    }
}

/// The state of one game being read.
struct GameReader {
    game: usize,
    seen: bool,
    error: Option<PgnError>,
    tags: Vec<(String, String)>,
}

impl GameReader {
    fn new(game: usize) -> GameReader {
        GameReader { game, seen: false, error: None, tags: Vec::new() }
    }

    /// Keeps the first error of the game.
    fn fail(&mut self, line: usize, at_move: Option<(u32, Color)>, message: String) {
        if self.error.is_none() {
            self.error = Some(PgnError { game: self.game, line, at_move, message });
        }
    }

    /// Reads one game: `None` when only white space and comments are left.
    fn read(mut self, lexer: &mut Lexer<'_>) -> Option<Result<PgnGame, PgnError>> {
        // Tags, with comments allowed between them; comments after the last tag are the preface.
        let mut first_line = 1;
        let mut after_tags: Vec<(&str, usize)> = Vec::new();
        while let Some((token, line)) = lexer.peek() {
            let repeated = match token {
                Token::Tag { name, .. } => self.tag(name).is_some(),
                Token::Comment(_) => false,
                _ => break,
            };
            if repeated {
                break; // a game without move text ended; this tag starts the next one
            }
            let line = *line;
            match lexer.take() {
                Some((Token::Comment(text), _)) => after_tags.push((text, line)),
                Some((Token::Tag { name, value }, _)) => {
                    after_tags.clear();
                    if !self.seen {
                        first_line = line;
                    }
                    self.seen = true;
                    match value {
                        Ok(value) => self.tags.push((name.to_string(), value)),
                        Err(message) => self.fail(line, None, message),
                    }
                }
                _ => {}
            }
        }
        let start = self.start_position(first_line);
        let mut preface = Annotation::default();
        for (text, line) in after_tags {
            self.read_preface(&mut preface, text, line);
        }
        let mut board = start;
        let mut moves = Vec::new();
        let mut result = None;
        let mut result_seen = false;
        let mut open_lines: Vec<usize> = Vec::new();
        let mut annotations: Vec<Annotation> = Vec::new();
        // The position before the last main-line move, where its variation starts.
        let mut before_last = start;
        // The first variation of the last move while it is read: its position and moves.
        let mut variation: Option<(Board, Vec<Move>, bool)> = None;
        let mut unkept = 0;

        while let Some((token, _)) = lexer.peek() {
            if matches!(token, Token::Tag { .. }) {
                break; // the next game's tags
            }
            let Some((token, line)) = lexer.take() else {
                break;
            };
            match token {
                Token::Comment(text) if open_lines.is_empty() && !moves.is_empty() => {
                    let at = moves.len() - 1;
                    if let Err(message) = annotations[at].add_comment(text) {
                        self.fail(line, Some(move_at(&start, at)), format!("comment after the move: {message}"));
                    }
                }
                Token::Comment(text) if open_lines.is_empty() => self.read_preface(&mut preface, text, line),
                Token::Nag(nag) if open_lines.is_empty() && !moves.is_empty() => {
                    let at = moves.len() - 1;
                    annotations[at].add_nag(nag);
                }
                Token::Comment(_) | Token::Nag(_) => unkept += 1,
                Token::Bad(message) => {
                    self.seen = true;
                    self.fail(line, None, message);
                }
                Token::Open => {
                    self.seen = true;
                    open_lines.push(line);
                    let first =
                        moves.last().is_some_and(|_| annotations.last().is_some_and(|a| a.variation.is_empty()));
                    if open_lines.len() == 1 && first {
                        variation = Some((before_last, Vec::new(), true));
                    } else {
                        unkept += 1;
                    }
                }
                Token::Close => {
                    self.seen = true;
                    if open_lines.pop().is_none() {
                        self.fail(line, None, "')' closes no variation".to_string());
                    }
                    if open_lines.is_empty() {
                        if let (Some((_, line_moves, _)), Some(last)) = (variation.take(), annotations.last_mut()) {
                            last.variation = line_moves;
                        }
                    }
                }
                Token::Symbol(text) if open_lines.len() == 1 => {
                    // The first variation's moves are kept up to the first that cannot be read.
                    if let Some((board, line_moves, reading)) = variation.as_mut() {
                        let text = strip_glyphs(strip_move_number(text)).0;
                        if *reading && !text.is_empty() && text != "e.p." && GameResult::from_pgn(text).is_none() {
                            match board.parse_san(text) {
                                Ok(m) => {
                                    board.play(m);
                                    line_moves.push(m);
                                }
                                Err(_) => {
                                    *reading = false;
                                    unkept += 1;
                                }
                            }
                        }
                    }
                }
                _ if !open_lines.is_empty() => {} // deeper variations: skipped
                Token::Star => {
                    self.seen = true;
                    result_seen = true;
                    break;
                }
                Token::Symbol(text) => {
                    self.seen = true;
                    if let Some(r) = GameResult::from_pgn(text) {
                        result = r;
                        result_seen = true;
                        break;
                    }
                    if self.error.is_none() {
                        let played = moves.len();
                        let before = board;
                        let nag = self.read_move(&mut board, &mut moves, text, line);
                        if moves.len() > played {
                            before_last = before;
                            annotations.push(Annotation::default());
                        }
                        if let (Some(nag), Some(last)) = (nag, annotations.last_mut()) {
                            last.add_nag(nag);
                        }
                    }
                }
                Token::Tag { .. } => {}
            }
        }
        if !self.seen {
            return None;
        }
        if let Some(&line) = open_lines.first() {
            self.fail(line, None, "a variation opened with '(' is never closed".to_string());
        }
        if !result_seen {
            result = self.tag("Result").and_then(GameResult::from_pgn).flatten();
        }
        Some(match self.error {
            Some(e) => Err(e),
            None => {
                while annotations.last().is_some_and(Annotation::is_empty) {
                    annotations.pop();
                }
                Ok(PgnGame { tags: self.tags, start, moves, result, annotations, preface, unkept })
            }
        })
    }

    /// Adds a comment before the first move to the game's preface.
    fn read_preface(&mut self, preface: &mut Annotation, text: &str, line: usize) {
        if let Err(message) = preface.add_comment(text) {
            self.fail(line, None, format!("comment before the first move: {message}"));
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The position from the `FEN` tag, or the standard start; checks the `Variant` tag.
    fn start_position(&mut self, line: usize) -> Board {
        if let Some(variant) = self.tag("Variant") {
            let known = ["standard", "chess", "normal", "from position"];
            if !known.contains(&variant.to_ascii_lowercase().as_str()) {
                let message = format!("variant '{variant}' is not supported, only standard chess");
                self.fail(line, None, message);
            }
        }
        match self.tag("FEN").map(|fen| (fen.to_string(), Board::from_fen(fen))) {
            None => Board::startpos(),
            Some((_, Ok(board))) => board,
            Some((fen, Err(e))) => {
                self.fail(line, None, format!("bad FEN tag \"{fen}\": {e}"));
                Board::startpos()
            }
        }
    }

    /// Handles a move-text symbol: a move number, an annotation, or a move to play; returns
    /// the NAG of a suffix glyph (`e4!?`, or `!?` written apart).
    fn read_move(&mut self, board: &mut Board, moves: &mut Vec<Move>, text: &str, line: usize) -> Option<u8> {
        let text = strip_move_number(text);
        // Move numbers, `e.p.` written apart, and evaluation glyphs such as `!?`, `+-` or `=`.
        let glyph = text != "--" && text.bytes().all(|b| b"!?+-=/".contains(&b));
        if glyph {
            return nag_of_suffix(text);
        }
        if text.is_empty() || text == "e.p." {
            return None;
        }
        let (core, suffix) = strip_glyphs(text);
        match board.parse_san(core) {
            Ok(m) => {
                board.play(m);
                moves.push(m);
                nag_of_suffix(suffix)
            }
            Err(e) => {
                let at = (board.fullmove_number(), board.side_to_move());
                self.fail(line, Some(at), board.parse_san(text).err().unwrap_or(e).to_string());
                None
            }
        }
    }
}

/// A move's text without its trailing `!` and `?` glyphs, and the glyphs.
fn strip_glyphs(text: &str) -> (&str, &str) {
    let core = crate::text::trim_end_of(text, b"!?");
    (core, crate::text::part(text, core.len()..))
}

/// The move number and side of move `index` of a game from `start`, for messages.
fn move_at(start: &Board, index: usize) -> (u32, Color) {
    let plies = index + (start.side_to_move() == Color::Black) as usize;
    let side = if plies.is_multiple_of(2) { Color::White } else { Color::Black };
    (start.fullmove_number() + (plies / 2) as u32, side)
}

/// The text after a leading move number (`12.`, `12...`, or a bare `12`); castling written
/// `0-0` is left alone.
fn strip_move_number(text: &str) -> &str {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return text;
    }
    let rest = crate::text::part(text, digits..);
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 && !rest.is_empty() {
        return text;
    }
    crate::text::part(rest, dots..)
}
