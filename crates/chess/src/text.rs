//! Cutting text without panics, for parsers whose code goes into the page's wasm module.
//!
//! String slicing (`&text[a..b]`) panics when a cut falls inside a character, and its panic message formats the text
//! with core's `Debug`, which brings kilobytes of escaping and Unicode tables into the module; char-set patterns
//! (`trim_end_matches(['!', '?'])`) bring a searcher. The parsers cut beside ASCII they found, where these never fail.

/// `text[range]`, or "" where the range does not fall between characters.
pub(crate) fn part<R: std::slice::SliceIndex<str, Output = str>>(text: &str, range: R) -> &str {
    text.get(range).unwrap_or_default()
}

/// `text` without its trailing bytes from `set`, which holds ASCII only.
pub(crate) fn trim_end_of<'a>(text: &'a str, set: &[u8]) -> &'a str {
    let trailing = text.bytes().rev().take_while(|b| set.contains(b)).count();
    part(text, ..text.len() - trailing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_cuts_only_between_characters() {
        assert_eq!(part("Nf3!?", 3..), "!?");
        assert_eq!(part("é4", ..1), "");
        assert_eq!(part("e4", 5..), "");
        assert_eq!(trim_end_of("Nf3+!?", b"+!?"), "Nf3");
        assert_eq!(trim_end_of("é!", b"!"), "é");
        assert_eq!(trim_end_of("!?", b"!?"), "");
    }
}
