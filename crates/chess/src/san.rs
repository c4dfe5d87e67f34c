//! Standard Algebraic Notation: writing moves (`Nbd2`, `exd6`, `e8=Q+`, `O-O#`) and reading
//! them, strictly where it matters and leniently where sloppy forms are common.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::types::{File, PieceKind, Rank, Square};

/// Why SAN text was refused: a [`MoveError`] other than `GameOver`.
pub type SanError = MoveError;

/// The English name of a piece kind, singular or plural.
pub(crate) fn kind_name(kind: PieceKind, plural: bool) -> &'static str {
    match (kind, plural) {
        (PieceKind::Pawn, false) => "pawn",
        (PieceKind::Pawn, true) => "pawns",
        (PieceKind::Knight, false) => "knight",
        (PieceKind::Knight, true) => "knights",
        (PieceKind::Bishop, false) => "bishop",
        (PieceKind::Bishop, true) => "bishops",
        (PieceKind::Rook, false) => "rook",
        (PieceKind::Rook, true) => "rooks",
        (PieceKind::Queen, false) => "queen",
        (PieceKind::Queen, true) => "queens",
        (PieceKind::King, false) => "king",
        (PieceKind::King, true) => "kings",
    }
}

/// Squares joined as English: `b1`, `b1 and f3`, `b1, d4 and f3`.
fn join_squares(squares: &[Square]) -> String {
    let mut text = String::new();
    for (i, sq) in squares.iter().enumerate() {
        if i > 0 {
            text.push_str(if i + 1 == squares.len() { " and " } else { ", " });
        }
        text.push_str(&sq.to_string());
    }
    text
}

impl Board {
    /// The SAN of a legal move, with `+` for check and `#` for mate. Another piece of the same
    /// kind that could legally reach the same square makes the move name its file, else its
    /// rank, else its square. A move that is not legal here is written in UCI form instead.
    pub fn san(&self, m: Move) -> String {
        let Some(mut out) = self.san_without_check(m) else {
            return m.to_string();
        };
        if let Some(suffix) = self.check_suffix(m) {
            out.push(suffix);
        }
        out
    }

    /// `+`, `#` or nothing, for a move known to be legal.
    fn check_suffix(&self, m: Move) -> Option<char> {
        let mut next = *self;
        next.play(m);
        if !next.in_check() {
            None
        } else if next.has_legal_moves() {
            Some('+')
        } else {
            Some('#')
        }
    }

    /// The SAN without the check mark; `None` for a move that is not legal.
    fn san_without_check(&self, m: Move) -> Option<String> {
        let (from, to) = (m.from(), m.to());
        let kind = self.kind_on(from)?;
        // One pass over the legal moves to `to`: is `m` among them, and which other pieces
        // of the same kind could go there too?
        let mut legal = false;
        let mut rivals = Bitboard::EMPTY;
        self.generate_moves_to(Bitboard::from_square(to), |pm| {
            if pm.from == from {
                legal = pm.is_promotion() == m.promotion().is_some();
            } else if pm.kind == kind {
                rivals |= Bitboard::from_square(pm.from);
            }
            false
        });
        if !legal || matches!(m.promotion(), Some(PieceKind::Pawn | PieceKind::King)) {
            return None;
        }
        if self.is_castling(m) {
            return Some(if to.file() > from.file() { "O-O" } else { "O-O-O" }.to_string());
        }

        let mut out = String::with_capacity(8);
        if kind == PieceKind::Pawn {
            if self.is_capture(m) {
                out.push(from.file().to_char());
                out.push('x');
            }
            out.push_str(&to.to_string());
            if let Some(promo) = m.promotion() {
                out.push('=');
                out.push(promo.to_upper());
            }
            return Some(out);
        }

        out.push(kind.to_upper());
        if rivals.any() {
            let same_file = rivals & Bitboard::file(from.file());
            let same_rank = rivals & Bitboard::rank(from.rank());
            if same_file.is_empty() {
                out.push(from.file().to_char());
            } else if same_rank.is_empty() {
                out.push(from.rank().to_char());
            } else {
                out.push_str(&from.to_string());
            }
        }
        if self.is_capture(m) {
            out.push('x');
        }
        out.push_str(&to.to_string());
        Some(out)
    }

    /// Reads a move in SAN and finds the legal move it names.
    ///
    /// Strict: the piece, the target square and any disambiguation must match exactly one legal
    /// move; a capture mark on a move that captures nothing is refused, and so is a promotion
    /// without its piece. Lenient, because these forms are common in the wild:
    /// - `0-0`, `0-0-0` and `o-o` for castling, and `Kg1` (the king's two-square move);
    /// - missing or wrong `+`/`#`, and trailing annotations such as `!`, `?`, `!?`, `?!`;
    /// - promotion as `e8=Q`, `e8Q`, `e8=q`, `e8q`, `e8/Q` or `e8(Q)` (a lower-case letter
    ///   counts as a promotion piece only after `=` or right after the rank digit);
    /// - a missing capture mark (`Nf3` for `Nxf3`, `ed5` for `exd5`), and `:` for `x`;
    /// - extra disambiguation (`Ng1f3`) and long algebraic (`Ng1-f3`, `e2-e4`, `e2e4`);
    /// - a `P` for pawns (`Pe4`), and lower-case `n`, `r`, `q`, `k` for pieces (never `b`,
    ///   which is the b-file);
    /// - an `e.p.` suffix, with or without a space before it.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let trimmed = text.trim();
        let not_a_move = |reason: &str| SanError::NotAMove { text: trimmed.to_string(), reason: reason.to_string() };
        if trimmed.is_empty() {
            return Err(not_a_move("the text is empty"));
        }
        let core = strip_suffixes(trimmed);
        if core.is_empty() {
            return Err(not_a_move("there is no move before the annotation"));
        }
        if !core.is_ascii() {
            return Err(not_a_move("SAN uses only ASCII letters, digits and 'x', '=', '+', '#'"));
        }
        if core == "--" || core == "Z0" {
            return Err(not_a_move("null moves are not supported"));
        }
        if let Some(long) = castling_side(core) {
            return self.find_castling(trimmed, long);
        }
        let spec = parse_spec(core).map_err(|reason| not_a_move(&reason))?;
        self.find_move(trimmed, &spec)
    }

    /// The legal castling move to the given side, or why there is none.
    fn find_castling(&self, text: &str, long: bool) -> Result<Move, SanError> {
        let king = self.king(self.side_to_move());
        let found = self
            .moves_from(king)
            .iter()
            .copied()
            .find(|&m| self.is_castling(m) && (m.to().file() < m.from().file()) == long);
        found.ok_or_else(|| SanError::Illegal {
            text: text.to_string(),
            reason: format!(
                "castling {} is not legal here{}",
                if long { "long" } else { "short" },
                if self.in_check() { " (the king is in check)" } else { "" }
            ),
        })
    }

    /// The one legal move matching a parsed SAN, or why there is not exactly one.
    fn find_move(&self, text: &str, spec: &Spec) -> Result<Move, SanError> {
        let mut found: Vec<Move> = Vec::new();
        let mut capture_refused = false;
        let mut promotion_missing = false;
        let mut promotion_refused = false;
        self.generate_moves_to(Bitboard::from_square(spec.to), |pm| {
            if pm.kind != spec.kind
                || spec.from_file.is_some_and(|f| f != pm.from.file())
                || spec.from_rank.is_some_and(|r| r != pm.from.rank())
            {
                return false;
            }
            // A pawn named without its file only pushes straight ahead.
            if pm.kind == PieceKind::Pawn && spec.from_file.is_none() && pm.from.file() != spec.to.file() {
                return false;
            }
            let m = Move::new(pm.from, spec.to, if pm.is_promotion() { spec.promotion } else { None });
            if spec.capture && !self.is_capture(m) {
                capture_refused = true;
            } else if pm.is_promotion() && spec.promotion.is_none() {
                promotion_missing = true;
            } else if !pm.is_promotion() && spec.promotion.is_some() {
                promotion_refused = true;
            } else {
                found.push(m);
            }
            false
        });
        let illegal = |reason: String| SanError::Illegal { text: text.to_string(), reason };
        match found.len() {
            1 => Ok(found[0]),
            0 if capture_refused => Err(illegal(format!("there is nothing to capture on {}", spec.to))),
            0 if promotion_missing => {
                Err(illegal(format!("a pawn reaching {} must promote: add =Q, =R, =B or =N", spec.to)))
            }
            0 if promotion_refused => Err(illegal(format!(
                "only a pawn reaching the last rank can promote, and {} is not such a move",
                spec.to
            ))),
            0 => Err(illegal(self.why_unreachable(spec))),
            _ => {
                let froms: Vec<Square> = found.iter().map(|m| m.from()).collect();
                Err(SanError::Ambiguous {
                    text: text.to_string(),
                    reason: format!("{} on {} can go there", kind_name(spec.kind, true), join_squares(&froms)),
                })
            }
        }
    }

    /// Explains why no piece matching `spec` can reach its square.
    fn why_unreachable(&self, spec: &Spec) -> String {
        let name = kind_name(spec.kind, false);
        let own = self.colored_pieces(self.side_to_move(), spec.kind);
        if own.is_empty() {
            return format!("there is no {name} to move");
        }
        let mut which = format!("no {name}");
        match (spec.from_file, spec.from_rank) {
            (Some(f), Some(r)) => which = format!("no {name} on {}", Square::from_coords(f, r)),
            (Some(f), None) => which.push_str(&format!(" on the {}-file", f.to_char())),
            (None, Some(r)) => which.push_str(&format!(" on rank {}", r.to_char())),
            (None, None) => {}
        }
        if self.colored(self.side_to_move()).has(spec.to) {
            return format!("{which} can go to {}, which holds a piece of the side to move", spec.to);
        }
        format!("{which} can reach {}", spec.to)
    }
}

/// What a SAN for a non-castling move says.
#[derive(Debug)]
struct Spec {
    kind: PieceKind,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<PieceKind>,
}

/// Removes trailing check marks, annotation glyphs and `e.p.`, in any order.
fn strip_suffixes(text: &str) -> &str {
    let mut s = text.trim_end();
    loop {
        let before = s.len();
        s = crate::text::trim_end_of(s, b"+#!?").trim_end();
        if let Some(rest) = s.strip_suffix("e.p.") {
            s = rest.trim_end();
        }
        if s.len() == before {
            return s;
        }
    }
}

/// `Some(long?)` for the castling forms `O-O`, `0-0`, `o-o` (and the long ones).
fn castling_side(core: &str) -> Option<bool> {
    match core {
        "O-O" | "0-0" | "o-o" => Some(false),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(true),
        _ => None,
    }
}

/// Parses a non-castling SAN body (suffixes already removed) into its parts.
fn parse_spec(core: &str) -> Result<Spec, String> {
    let bytes = core.as_bytes();
    let (kind, mut body) = match bytes[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' | b'n' | b'r' | b'q' | b'k' => {
            let kind = PieceKind::from_char(bytes[0] as char).unwrap_or(PieceKind::Pawn);
            (kind, crate::text::part(core, 1..))
        }
        b'P' => (PieceKind::Pawn, crate::text::part(core, 1..)),
        b'a'..=b'h' => (PieceKind::Pawn, core),
        _ => {
            return Err(format!(
                "expected a piece letter (N, B, R, Q, K), a file (a-h) or castling (O-O), found '{}'",
                bytes[0] as char
            ))
        }
    };

    let (rest, promotion) = split_promotion(body)?;
    body = rest;
    if body.len() < 2 {
        return Err("the target square is missing".to_string());
    }
    let (head, target) = body.split_at_checked(body.len() - 2).unwrap_or_default();
    let to = Square::parse(target).ok_or_else(|| format!("'{target}' at the end is not a square"))?;

    let (head, capture) = match head.strip_suffix(['x', ':']) {
        Some(h) => (h, true),
        None => (head.strip_suffix('-').unwrap_or(head), false),
    };
    let mut from_file = None;
    let mut from_rank = None;
    let mut chars = head.chars();
    let mut c = chars.next();
    if let Some(f) = c.and_then(File::from_char) {
        from_file = Some(f);
        c = chars.next();
    }
    if let Some(r) = c.and_then(Rank::from_char) {
        from_rank = Some(r);
        c = chars.next();
    }
    if let Some(extra) = c {
        return Err(format!("unexpected '{extra}' before the target square {to}"));
    }
    if kind == PieceKind::Pawn && from_file.is_none() {
        if capture {
            return Err(format!("a pawn capture names the file the pawn comes from, as in 'ex{to}'"));
        }
        if from_rank.is_some() {
            return Err("a pawn move names its file, not only its rank".to_string());
        }
    }
    if promotion.is_some() && kind != PieceKind::Pawn {
        return Err("only pawns promote".to_string());
    }
    Ok(Spec { kind, from_file, from_rank, capture, to, promotion })
}

/// Splits off a promotion suffix: `=Q`, `=q`, `/Q`, `(Q)`, or a letter right after a rank digit.
fn split_promotion(body: &str) -> Result<(&str, Option<PieceKind>), String> {
    let promo_kind = |c: u8| -> Result<PieceKind, String> {
        match PieceKind::from_char(c as char) {
            Some(k @ (PieceKind::Queen | PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight)) => Ok(k),
            _ => Err(format!("'{}' is not a promotion piece: use Q, R, B or N", c as char)),
        }
    };
    let b = body.as_bytes();
    let n = b.len();
    if n >= 2 && (b[n - 2] == b'=' || b[n - 2] == b'/') {
        return Ok((crate::text::part(body, ..n - 2), Some(promo_kind(b[n - 1])?)));
    }
    if n >= 3 && b[n - 3] == b'(' && b[n - 1] == b')' {
        return Ok((crate::text::part(body, ..n - 3), Some(promo_kind(b[n - 2])?)));
    }
    if n >= 1 && b[n - 1] == b'=' {
        return Err("'=' must be followed by the promotion piece (Q, R, B or N)".to_string());
    }
    if n >= 2 && b[n - 2].is_ascii_digit() && b[n - 1].is_ascii_alphabetic() {
        return Ok((crate::text::part(body, ..n - 1), Some(promo_kind(b[n - 1])?)));
    }
    Ok((body, None))
}
