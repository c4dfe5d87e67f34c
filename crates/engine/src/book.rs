//! The opening book and opening names, from the CC0 tables in `data/openings/` compiled by
//! `build.rs`: the same book for the page (`bookMove`, `useBook`) and the UCI engine (`OwnBook`).
//!
//! The tree is decoded once, on first use, into a map from position key to the opening's name
//! and the book continuations, so transpositions find their names too. With the `embedded-book`
//! feature the tables are built into the binary; without it (the browser's wasm modules, which fetch
//! the book once as a file) the book is empty until [`install`] is given a [`file()`]'s bytes.
// The page's wasm module holds this file: string slicing would bring in core's `Debug` formatting of text.
#![cfg_attr(not(test), warn(clippy::string_slice))]

use homeostat_chess::{Board, Move};
use std::sync::OnceLock;

#[cfg(feature = "embedded-book")]
const NAMES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/openings-names.bin"));
#[cfg(feature = "embedded-book")]
const TREE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/openings-tree.bin"));

/// The first bytes of a book file: its format and version.
const MAGIC: &[u8; 8] = b"HSBOOK01";

/// A named opening: its ECO code and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, such as `B90`.
    pub eco: &'static str,
    /// The name, such as `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
}

/// What the book knows about one position.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    /// Index into [`Book::names`].
    name: Option<usize>,
    /// Continuations with their weight: how many named lines go through them.
    moves: Vec<(Move, u32)>,
}

/// The decoded book.
struct Book {
    /// Every (ECO, name), in the order of the names table.
    names: Vec<(String, String)>,
    /// What the book knows per position, one entry per position key.
    positions: Vec<(u64, Entry)>,
    /// An open-addressing table over `positions` (a power of two, at most half full): `i + 1` for
    /// `positions[i]`, 0 for an empty slot. Position keys are random already, so their low bits index it.
    /// (A map of its own rather than std's keeps hashing and its tables out of the page's wasm.)
    slots: Vec<u32>,
}

impl Book {
    /// Decodes the names table and the move tree; `None` when the tree is damaged.
    fn decode(names: &[u8], tree: &[u8]) -> Option<Book> {
        let names = read_names(names);
        let mut nodes = Vec::new();
        let mut reader = Reader { bytes: tree, at: 0 };
        decode(&mut reader, &Board::startpos(), names.len(), &mut nodes)?;
        (reader.at == tree.len()).then(|| Book::index(names, nodes))
    }

    /// The book of `nodes` (in the order decoded), transpositions merged: the first name found
    /// stays, and the weights of a move reached along several lines add up.
    fn index(names: Vec<(String, String)>, nodes: Vec<(u64, Entry)>) -> Book {
        let mut book = Book { names, positions: Vec::new(), slots: vec![0; (2 * nodes.len()).next_power_of_two()] };
        for (key, entry) in nodes {
            let slot = book.slot(key);
            let Some(known) = book.slots[slot].checked_sub(1) else {
                book.positions.push((key, entry));
                book.slots[slot] = book.positions.len() as u32;
                continue;
            };
            let known = &mut book.positions[known as usize].1;
            known.name = known.name.or(entry.name);
            for (m, weight) in entry.moves {
                match known.moves.iter_mut().find(|(seen, _)| *seen == m) {
                    Some((_, total)) => *total += weight,
                    None => known.moves.push((m, weight)),
                }
            }
        }
        book
    }

    /// The slot that holds `key`, or the empty one where it would go.
    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = key as usize & mask;
        while let Some(i) = self.slots[slot].checked_sub(1) {
            if self.positions[i as usize].0 == key {
                break;
            }
            slot = (slot + 1) & mask;
        }
        slot
    }

    /// What the book knows about the position with `key`.
    fn get(&self, key: u64) -> Option<&Entry> {
        let i = self.slots[self.slot(key)].checked_sub(1)?;
        Some(&self.positions[i as usize].1)
    }
}

static BOOK: OnceLock<Book> = OnceLock::new();

/// The book, decoded on first use from the embedded tables (which build.rs checked, so they decode whole).
#[cfg(feature = "embedded-book")]
fn book() -> Option<&'static Book> {
    Some(BOOK.get_or_init(|| Book::decode(NAMES, TREE).unwrap_or_else(|| Book::index(Vec::new(), Vec::new()))))
}

/// The installed book, `None` until [`install`] succeeds (this build has no embedded tables).
#[cfg(not(feature = "embedded-book"))]
fn book() -> Option<&'static Book> {
    BOOK.get()
}

/// The embedded book as one file for [`install`]: a magic, the names table's length (u32, little-endian),
/// the names table and the move tree.
#[cfg(feature = "embedded-book")]
pub fn file() -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(NAMES.len() as u32).to_le_bytes());
    bytes.extend_from_slice(NAMES);
    bytes.extend_from_slice(TREE);
    bytes
}

/// Installs the book from a [`file()`]'s bytes, checking them whole first. A build with the embedded book
/// already has it: the bytes are still checked, and the book stays the embedded one.
pub fn install(bytes: &[u8]) -> Result<(), String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a Homeostat book file (wrong header)")?;
    let (length, rest) = rest.split_first_chunk::<4>().ok_or("the book file is cut short")?;
    let (names, tree) = rest
        .split_at_checked(u32::from_le_bytes(*length) as usize)
        .ok_or("the book file is cut short (its names table is incomplete)")?;
    let decoded = Book::decode(names, tree).ok_or("the book file's move tree is damaged")?;
    if decoded.names.is_empty() {
        return Err("the book file names no openings".into());
    }
    let _ = BOOK.set(decoded);
    Ok(())
}

/// Undoes the names table's front coding into (ECO, name) pairs; stops at a damaged entry.
fn read_names(names: &[u8]) -> Vec<(String, String)> {
    let mut labels: Vec<String> = Vec::new();
    let mut at = 0;
    while let (Some(&shared), Some(len)) = (names.get(at), names.iter().skip(at + 1).position(|&b| b == 0)) {
        let previous = labels.last().map_or("", String::as_str);
        let (Some(start), Ok(rest)) =
            (previous.get(..shared as usize), std::str::from_utf8(&names[at + 1..at + 1 + len]))
        else {
            break;
        };
        labels.push(format!("{start}{rest}"));
        at += len + 2;
    }
    labels
        .into_iter()
        .filter_map(|label| label.split_at_checked(3).map(|(eco, name)| (eco.to_string(), name.to_string())))
        .collect()
}

/// Reads bytes of the tree.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<usize> {
        let mut n = 0usize;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            n |= ((b & 0x7F) as usize) << shift;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }
}

/// Decodes the node for `board` and its subtree into `nodes` (the subtree first); returns how many
/// named lines it holds.
fn decode(reader: &mut Reader, board: &Board, names: usize, nodes: &mut Vec<(u64, Entry)>) -> Option<u32> {
    let name = reader.varint()?.checked_sub(1).filter(|&i| i < names);
    let children = reader.varint()?;
    let mut lines = u32::from(name.is_some());
    let mut moves = Vec::with_capacity(children);
    for _ in 0..children {
        let code = u16::from_le_bytes([reader.byte()?, reader.byte()?]);
        // build.rs wrote only legal moves; checking keeps a damaged table from reaching `play`.
        let m = Move::from_u16(code).filter(|&m| board.is_legal(m))?;
        let mut next = *board;
        next.play(m);
        let weight = decode(reader, &next, names, nodes)?;
        moves.push((m, weight));
        lines += weight;
    }
    nodes.push((board.hash(), Entry { name, moves }));
    Some(lines)
}

/// The opening of the latest position in `positions` (oldest first) that has a name.
pub fn name_of<'a>(positions: impl DoubleEndedIterator<Item = &'a Board>) -> Option<Opening> {
    let book = book()?;
    let index = positions.rev().find_map(|board| book.get(board.hash()).and_then(|entry| entry.name))?;
    let (eco, name) = book.names.get(index)?;
    Some(Opening { eco, name })
}

/// A book move for `board`, chosen at random with `seed` in proportion to how many named
/// lines continue with it; `None` when the position is not in the book.
pub fn book_move(board: &Board, seed: u64) -> Option<Move> {
    let entry = book()?.get(board.hash())?;
    let total: u64 = entry.moves.iter().map(|&(_, w)| u64::from(w.max(1))).sum();
    if total == 0 {
        return None;
    }
    let mut pick = mix(seed) % total;
    for &(m, weight) in &entry.moves {
        let weight = u64::from(weight.max(1));
        if pick < weight {
            return board.is_legal(m).then_some(m);
        }
        pick -= weight;
    }
    None
}

/// The book's continuations for `board` with their weights (for tests and display).
pub fn book_moves(board: &Board) -> Vec<(Move, u32)> {
    book().and_then(|book| book.get(board.hash())).map(|entry| entry.moves.clone()).unwrap_or_default()
}

/// SplitMix64's finaliser: spreads nearby seeds over the whole range.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(all(test, feature = "embedded-book"))]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Vec<Board> {
        let mut boards = vec![Board::startpos()];
        for text in moves {
            let mut next = *boards.last().unwrap();
            next.play(next.parse_move(text).unwrap());
            boards.push(next);
        }
        boards
    }

    #[test]
    fn names_the_longest_known_line() {
        let boards = after(&["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]);
        let opening = name_of(boards.iter()).unwrap();
        assert_eq!(opening.eco, "B90");
        assert!(opening.name.contains("Najdorf"), "{opening:?}");
        // Leaving the book keeps the last name.
        let mut longer = boards.clone();
        let mut next = *longer.last().unwrap();
        next.play(next.parse_move("h4").unwrap());
        longer.push(next);
        assert_eq!(name_of(longer.iter()), Some(opening));
    }

    #[test]
    fn every_name_decodes() {
        let names = &book().unwrap().names;
        assert!(names.len() > 3000, "{}", names.len());
        for (eco, name) in names {
            let b = eco.as_bytes();
            assert!((b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit(), "{eco}");
            assert!(!name.is_empty());
        }
        assert!(names.iter().any(|(_, n)| !n.is_ascii()), "non-ASCII names survive front coding");
    }

    #[test]
    fn start_position_has_no_name_but_book_moves() {
        let boards = after(&[]);
        assert_eq!(name_of(boards.iter()), None);
        let moves = book_moves(&boards[0]);
        assert!(moves.len() >= 10, "{}", moves.len());
        let e4 = Move::parse_uci_squares("e2e4").unwrap();
        let h3 = Move::parse_uci_squares("h2h3").unwrap();
        let weight = |m| moves.iter().find(|(x, _)| *x == m).map(|&(_, w)| w).unwrap_or(0);
        assert!(weight(e4) > weight(h3));
    }

    #[test]
    fn book_moves_are_legal_and_vary() {
        let board = Board::startpos();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            let m = book_move(&board, seed).unwrap();
            assert!(board.is_legal(m));
            seen.insert(m);
        }
        assert!(seen.len() >= 3, "{seen:?}");
    }

    /// The book's own table against std's map, built the way the book was before it had one.
    #[test]
    fn the_index_merges_transpositions_as_a_hash_map_does() {
        let mut nodes = Vec::new();
        decode(&mut Reader { bytes: TREE, at: 0 }, &Board::startpos(), usize::MAX, &mut nodes).unwrap();
        let mut expected: std::collections::HashMap<u64, Entry> = std::collections::HashMap::new();
        for (key, entry) in nodes.iter().cloned() {
            let known = expected.entry(key).or_insert(Entry { name: None, moves: Vec::new() });
            known.name = known.name.or(entry.name);
            for (m, weight) in entry.moves {
                match known.moves.iter_mut().find(|(seen, _)| *seen == m) {
                    Some((_, total)) => *total += weight,
                    None => known.moves.push((m, weight)),
                }
            }
        }
        assert!(expected.len() < nodes.len(), "the book has transpositions");
        let book = Book::index(Vec::new(), nodes);
        assert_eq!(book.positions.len(), expected.len());
        for (key, entry) in &expected {
            assert_eq!(book.get(*key), Some(entry));
        }
        assert_eq!(book.get(0x1234_5678_9abc_def0), None);
        assert_eq!(Book::index(Vec::new(), Vec::new()).get(7), None, "an empty book answers nothing");
    }

    #[test]
    fn out_of_book_is_none() {
        let board = Board::from_fen("8/8/4k3/8/8/4K3/8/8 w - - 0 1").unwrap();
        assert_eq!(book_move(&board, 1), None);
    }

    #[test]
    fn the_book_file_installs_and_bad_ones_are_refused_with_a_reason() {
        let file = file();
        assert_eq!(install(&file), Ok(()));
        assert!(book().is_some());
        assert!(install(b"GIF89a..").unwrap_err().contains("header"));
        assert!(install(&file[..10]).unwrap_err().contains("cut short"));
        let mut long_names = file.clone();
        long_names[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(install(&long_names).unwrap_err().contains("names table"));
        assert!(install(&file[..file.len() - 7]).unwrap_err().contains("damaged"));
        let mut extra = file.clone();
        extra.push(0);
        assert!(install(&extra).unwrap_err().contains("damaged"));
        let decoded = Book::decode(&file[12..12 + NAMES.len()], TREE).unwrap();
        assert_eq!(decoded.names, book().unwrap().names);
        assert_eq!(decoded.positions.len(), book().unwrap().positions.len());
    }
}
