//! What a PGN says about one move besides the move: annotation glyphs (NAGs), a comment with its
//! embedded commands (`[%eval 0.35]`, `[%cal Ge2e4]`, `[%csl Gd4]`) and one variation.
//!
//! ```
//! use homeostat_chess::annotation::{Annotation, Eval};
//! let a = Annotation::from_comment("[%eval #-3] [%cal Ge2e4,Rd7d5] [%csl Gd4] Strong.").unwrap();
//! assert_eq!(a.eval, Some(Eval::Mate(-3)));
//! assert_eq!(a.shapes.len(), 3);
//! assert_eq!(a.comment, "Strong.");
//! assert_eq!(a.comment_text(), "[%eval #-3] [%cal Ge2e4,Rd7d5] [%csl Gd4] Strong.");
//! ```

use crate::moves::Move;
use crate::types::Square;
use std::fmt;

/// An engine evaluation from White's point of view, as `[%eval …]` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (`[%eval 0.35]` is 35).
    Cp(i32),
    /// Mate in this many moves; negative when Black mates (`[%eval #-3]`).
    Mate(i32),
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                write!(f, "{sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)
            }
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

impl Eval {
    /// Reads `0.35`, `-1.2`, `+3`, `#3` or `#-3`, with an optional `,depth` after it.
    pub fn parse(text: &str) -> Result<Eval, String> {
        let value = text.trim().split(',').next().unwrap_or("").trim();
        let bad = || format!("[%eval {}]: expected pawns such as 0.35 or a mate such as #-3", text.trim());
        if let Some(mate) = value.strip_prefix('#') {
            return mate.parse::<i32>().map(Eval::Mate).map_err(|_| bad());
        }
        centipawns(value).ok_or_else(bad).map(Eval::Cp)
    }
}

/// Pawns written as a decimal (`-1.25`, `+3`, `.5`) in centipawns, rounded half away from zero;
/// `None` unless it is a plain decimal of at most 9,999 pawns. (No float parsing: it would add
/// kilobytes to the WebAssembly build.)
fn centipawns(text: &str) -> Option<i32> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) || whole.len() > 4 {
        return None;
    }
    let mut cp = whole.bytes().fold(0i32, |n, b| n * 10 + i32::from(b - b'0')) * 100;
    let f = fraction.as_bytes();
    let digit = |i: usize| f.get(i).map_or(0, |b| i32::from(b - b'0'));
    cp += digit(0) * 10 + digit(1) + i32::from(digit(2) >= 5);
    Some(if negative { -cp } else { cp })
}

/// The colour of a drawn arrow or circle: `G`reen, `R`ed, `Y`ellow or `B`lue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeColor {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl ShapeColor {
    /// The colour for its letter.
    pub fn from_char(c: char) -> Option<ShapeColor> {
        match c {
            'G' => Some(ShapeColor::Green),
            'R' => Some(ShapeColor::Red),
            'Y' => Some(ShapeColor::Yellow),
            'B' => Some(ShapeColor::Blue),
            _ => None,
        }
    }

    /// The colour's letter.
    pub fn to_char(self) -> char {
        match self {
            ShapeColor::Green => 'G',
            ShapeColor::Red => 'R',
            ShapeColor::Yellow => 'Y',
            ShapeColor::Blue => 'B',
        }
    }
}

/// An arrow from one square to another, or a circle when both are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Its colour.
    pub color: ShapeColor,
    /// Where the arrow starts (the circled square).
    pub from: Square,
    /// Where it points (`from` for a circle).
    pub to: Square,
}

impl Shape {
    /// Whether this is a circle.
    pub fn is_circle(&self) -> bool {
        self.from == self.to
    }

    /// Reads `Ge2e4` (an arrow) or `Gd4` (a circle).
    pub fn parse(text: &str) -> Result<Shape, String> {
        let bad = || format!("'{text}' is not a coloured arrow such as Ge2e4 or circle such as Gd4");
        let mut chars = text.chars();
        let color = chars.next().and_then(ShapeColor::from_char).ok_or_else(bad)?;
        let squares = chars.as_str();
        let (from, to) = match squares.len() {
            2 => (squares, squares),
            4 => squares.split_at_checked(2).ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        let from = Square::parse(from).ok_or_else(bad)?;
        let to = Square::parse(to).ok_or_else(bad)?;
        Ok(Shape { color, from, to })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_circle() {
            write!(f, "{}{}", self.color.to_char(), self.from)
        } else {
            write!(f, "{}{}{}", self.color.to_char(), self.from, self.to)
        }
    }
}

/// Everything said about one move of the main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Numeric annotation glyphs: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, and others.
    pub nags: Vec<u8>,
    /// The comment's text without the commands read into the fields below (other commands such
    /// as `[%clk …]` stay in it).
    pub comment: String,
    /// The evaluation after the move (`[%eval …]`).
    pub eval: Option<Eval>,
    /// Arrows and circles (`[%cal …]`, `[%csl …]`).
    pub shapes: Vec<Shape>,
    /// One alternative to the move, from the position before it (the better move and its line).
    pub variation: Vec<Move>,
}

/// The glyphs written as suffixes and their NAG numbers.
pub const SUFFIX_NAGS: [(&str, u8); 6] = [("!!", 3), ("??", 4), ("!?", 5), ("?!", 6), ("!", 1), ("?", 2)];

/// The NAG for a suffix glyph such as `?!`.
pub fn nag_of_suffix(glyph: &str) -> Option<u8> {
    SUFFIX_NAGS.iter().find(|(g, _)| *g == glyph).map(|&(_, n)| n)
}

impl Annotation {
    /// Whether nothing is said.
    pub fn is_empty(&self) -> bool {
        self == &Annotation::default()
    }

    /// Adds a NAG unless it is already there.
    pub fn add_nag(&mut self, nag: u8) {
        if !self.nags.contains(&nag) {
            self.nags.push(nag);
        }
    }

    /// This annotation with `newer` said over it, as when a review of a game annotated elsewhere is
    /// written: `newer`'s move assessment (NAGs 1–6), evaluation and variation where it gives them,
    /// else these; `newer`'s drawings only (whoever wrote it holds them all, so a drawing it leaves out
    /// was taken away); the other NAGs and both comments' words.
    pub fn overlaid(&self, newer: &Annotation) -> Annotation {
        let assessment = |n: &u8| (1..=6).contains(n);
        let assessed = newer.nags.iter().any(assessment);
        let mut merged = Annotation {
            nags: self.nags.iter().copied().filter(|n| !(assessed && assessment(n))).collect(),
            comment: self.comment.clone(),
            eval: newer.eval.or(self.eval),
            shapes: newer.shapes.clone(),
            variation: if newer.variation.is_empty() { self.variation.clone() } else { newer.variation.clone() },
        };
        for &nag in &newer.nags {
            merged.add_nag(nag);
        }
        if !newer.comment.is_empty() && newer.comment != self.comment {
            if !merged.comment.is_empty() {
                merged.comment.push(' ');
            }
            merged.comment.push_str(&newer.comment);
        }
        merged
    }

    /// Reads a comment's text, taking out `[%eval]`, `[%cal]` and `[%csl]`.
    pub fn from_comment(text: &str) -> Result<Annotation, String> {
        let mut annotation = Annotation::default();
        annotation.add_comment(text)?;
        Ok(annotation)
    }

    /// Adds a further comment to this one (a move may have several).
    pub fn add_comment(&mut self, text: &str) -> Result<(), String> {
        let mut rest = String::new();
        let mut left = text;
        // A byte search: `str::find` with a string pattern brings a 2 KB searcher into the page's wasm.
        while let Some(open) = left.as_bytes().windows(2).position(|pair| pair == b"[%") {
            rest.push_str(crate::text::part(left, ..open));
            let after = crate::text::part(left, open + 2..);
            let Some((command, next)) = after.split_once(']') else {
                return Err(format!(
                    "the command '{}' in a comment has no closing ']'",
                    crate::text::part(left, open..).trim()
                ));
            };
            let (name, args) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
            match name {
                "eval" => self.eval = Some(Eval::parse(args)?),
                "cal" | "csl" => {
                    for item in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                        let shape = Shape::parse(item).map_err(|e| format!("[%{name}]: {e}"))?;
                        if (name == "csl") != shape.is_circle() {
                            let want = if name == "csl" { "a circle such as Gd4" } else { "an arrow such as Ge2e4" };
                            return Err(format!("[%{name}]: '{item}' is not {want}"));
                        }
                        if !self.shapes.contains(&shape) {
                            self.shapes.push(shape);
                        }
                    }
                }
                _ => {
                    rest.push_str("[%");
                    rest.push_str(command);
                    rest.push(']');
                }
            }
            left = next;
        }
        rest.push_str(left);
        for word in rest.split_whitespace() {
            if !self.comment.is_empty() {
                self.comment.push(' ');
            }
            self.comment.push_str(word);
        }
        Ok(())
    }

    /// The comment as written in PGN (without braces): commands first, then the text; empty
    /// when there is nothing to say. A `}` in the text, which would end the comment, becomes `)`.
    pub fn comment_text(&self) -> String {
        use std::fmt::Write;
        // Written straight into one string: `join` brings a kilobyte of code into the page's wasm module. (Writing to
        // a String cannot fail.)
        let mut text = String::new();
        if let Some(eval) = self.eval {
            let _ = write!(text, "[%eval {eval}] ");
        }
        for (command, circles) in [("cal", false), ("csl", true)] {
            let mut shapes = self.shapes.iter().filter(|s| s.is_circle() == circles);
            if let Some(first) = shapes.next() {
                let _ = write!(text, "[%{command} {first}");
                for shape in shapes {
                    let _ = write!(text, ",{shape}");
                }
                text.push_str("] ");
            }
        }
        if self.comment.is_empty() {
            text.pop();
        } else {
            text.push_str(&self.comment.replace('}', ")"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_read_and_write() {
        assert_eq!(Eval::parse("0.35"), Ok(Eval::Cp(35)));
        assert_eq!(Eval::parse(" -1.2 "), Ok(Eval::Cp(-120)));
        assert_eq!(Eval::parse("+3"), Ok(Eval::Cp(300)));
        assert_eq!(Eval::parse("#-3"), Ok(Eval::Mate(-3)));
        assert_eq!(Eval::parse("0.17,22"), Ok(Eval::Cp(17)));
        assert!(Eval::parse("abc").unwrap_err().contains("expected pawns"));
        assert!(Eval::parse("#x").is_err());
        assert!(Eval::parse("NaN").is_err());
        assert_eq!(Eval::parse(".5"), Ok(Eval::Cp(50)));
        assert_eq!(Eval::parse("-0.125"), Ok(Eval::Cp(-13)));
        assert_eq!(Eval::parse("12.344"), Ok(Eval::Cp(1234)));
        for bad in ["", "-", ".", "1e3", "1.2.3", "99999", "+-1"] {
            assert!(Eval::parse(bad).is_err(), "{bad}");
        }
        for (cp, text) in [(35, "0.35"), (-120, "-1.20"), (0, "0.00"), (-5, "-0.05"), (1234, "12.34")] {
            assert_eq!(Eval::Cp(cp).to_string(), text);
        }
        assert_eq!(Eval::Mate(-3).to_string(), "#-3");
    }

    #[test]
    fn shapes_read_and_write() {
        let arrow = Shape::parse("Ge2e4").unwrap();
        assert!(!arrow.is_circle());
        assert_eq!(arrow.to_string(), "Ge2e4");
        assert_eq!(Shape::parse("Rd4").unwrap().to_string(), "Rd4");
        for bad in ["Xe2e4", "Ge", "Ge9e4", "", "G", "Ge2e4e6"] {
            assert!(Shape::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn comments_keep_other_commands_and_text() {
        let a = Annotation::from_comment("Good [%clk 0:03:00] move [%cal Ge2e4] ").unwrap();
        assert_eq!(a.comment, "Good [%clk 0:03:00] move");
        assert_eq!(a.comment_text(), "[%cal Ge2e4] Good [%clk 0:03:00] move");
        assert!(Annotation::from_comment("[%eval 0.3").unwrap_err().contains("no closing"));
        assert!(Annotation::from_comment("[%csl Ge2e4]").unwrap_err().contains("not a circle"));
        assert!(Annotation::from_comment("[%cal Gd4]").unwrap_err().contains("not an arrow"));
        assert!(Annotation::from_comment("").unwrap().is_empty());
        assert_eq!(Annotation::from_comment("").unwrap().comment_text(), "");
    }

    #[test]
    fn comment_text_writes_commands_then_words() {
        let drawn = Annotation::from_comment("[%csl Rd4,Gf5] [%eval -1.5] [%cal Ge2e4,Bd7d5]").unwrap();
        assert_eq!(drawn.comment_text(), "[%eval -1.50] [%cal Ge2e4,Bd7d5] [%csl Rd4,Gf5]");
        let said = Annotation::from_comment("[%eval #3]  Mate {soon} [%csl Gh7]").unwrap();
        assert_eq!(said.comment_text(), "[%eval #3] [%csl Gh7] Mate {soon)");
        assert_eq!(Annotation::from_comment("  only   words ").unwrap().comment_text(), "only words");
    }

    #[test]
    fn a_newer_annotation_over_an_older_keeps_the_older_words() {
        let older = Annotation {
            nags: vec![2, 14],
            variation: vec![Move::new(Square::parse("e2").unwrap(), Square::parse("e4").unwrap(), None)],
            ..Annotation::from_comment("[%eval 0.30] [%csl Rd4] A weak move [%clk 0:01:00]").unwrap()
        };
        // A review that marks the move a blunder, evaluates it and draws nothing.
        let review = Annotation { nags: vec![4], ..Annotation::from_comment("[%eval -2.50]").unwrap() };
        let merged = older.overlaid(&review);
        assert_eq!(merged.nags, [14, 4], "the mark replaced, the position's NAG kept");
        assert_eq!(merged.eval, Some(Eval::Cp(-250)));
        assert!(merged.shapes.is_empty(), "a drawing the newer one leaves out was taken away");
        assert_eq!(merged.comment, "A weak move [%clk 0:01:00]");
        assert_eq!(merged.variation, older.variation, "no better line given: the older one stays");
        // Saying nothing new keeps all but the drawings; saying the same words does not repeat them.
        let same = Annotation { shapes: older.shapes.clone(), comment: older.comment.clone(), ..Annotation::default() };
        assert_eq!(older.overlaid(&same), older);
        let words = Annotation::from_comment("Better was e4.").unwrap();
        assert_eq!(older.overlaid(&words).comment, "A weak move [%clk 0:01:00] Better was e4.");
        assert_eq!(Annotation::default().overlaid(&review), review);
    }
}
