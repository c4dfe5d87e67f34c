//! Compiles the opening names in `data/openings/*.tsv` (columns `eco`, `name`, `pgn`) into two
//! files in `OUT_DIR` that `src/book.rs` includes:
//!
//! - `openings-names.bin`: each distinct ECO code + name (`B90Sicilian Defense: …`) once,
//!   front-coded, as neighbours share long beginnings: one byte saying how many bytes it shares
//!   with the previous entry, the rest in UTF-8, and a 0 byte;
//! - `openings-tree.bin`: the tree of opening moves in preorder. Each node is
//!   `varint(name index + 1, or 0)`, `varint(child count)`, then per child the move's 16-bit
//!   code (`Move::to_u16`, little-endian) and the child node. The root is the standard start
//!   position. (Indices into the legal move list would be smaller, but decoding them needs move
//!   generation at every node, which made the first lookup take up to 200 ms in a browser.)
//!
//! Every move is checked against the rules here, so a bad line fails the build with its file
//! and line number, and the browser never parses SAN for the book.

use homeostat_chess::{Board, Move};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::{env, fs};

/// One position of the opening tree.
#[derive(Default)]
struct Node {
    name: Option<usize>,
    children: BTreeMap<u16, Node>,
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../data/openings");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", dir.display())))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }

    let mut root = Node::default();
    let mut names: Vec<String> = Vec::new();
    let mut name_index: HashMap<String, usize> = HashMap::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", file.display())));
        for (number, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", file.display(), number + 1);
            let mut columns = line.split('\t');
            let (Some(eco), Some(name), Some(pgn)) = (columns.next(), columns.next(), columns.next()) else {
                fail(&format!("{at}: expected three tab-separated columns"))
            };
            if eco.len() != 3 || !eco.is_ascii() {
                fail(&format!("{at}: the ECO code must be three letters or digits, not '{eco}'"))
            }
            let label = format!("{eco}{name}");
            let next = names.len();
            let index = *name_index.entry(label.clone()).or_insert(next);
            if index == next {
                names.push(label);
            }
            let node = add_line(&mut root, pgn).unwrap_or_else(|e| fail(&format!("{at}: {e}")));
            node.name.get_or_insert(index);
        }
    }

    let mut tree = Vec::new();
    write_node(&root, &Board::startpos(), &mut tree);
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    write(&out.join("openings-names.bin"), &front_code(&names));
    write(&out.join("openings-tree.bin"), &tree);
}

/// Walks (and extends) the tree along the SAN moves of `pgn`; returns the final node.
fn add_line<'a>(root: &'a mut Node, pgn: &str) -> Result<&'a mut Node, String> {
    let mut board = Board::startpos();
    let mut node = root;
    for token in pgn.split_whitespace().filter(|t| !t.ends_with('.')) {
        let m = board.parse_san(token).map_err(|e| format!("{token}: {e}"))?;
        board.play(m);
        node = node.children.entry(m.to_u16()).or_default();
    }
    Ok(node)
}

/// Appends `node` (standing for `board`) and its subtree in the preorder format above.
fn write_node(node: &Node, board: &Board, out: &mut Vec<u8>) {
    write_varint(node.name.map_or(0, |i| i + 1), out);
    write_varint(node.children.len(), out);
    for (&code, child) in &node.children {
        let m = Move::from_u16(code).filter(|&m| board.is_legal(m)).expect("moves in the tree were legal");
        out.extend_from_slice(&code.to_le_bytes());
        let mut next = *board;
        next.play(m);
        write_node(child, &next, out);
    }
}

/// The labels (`ECO` + name) in the front-coded form described above.
fn front_code(labels: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut previous = "";
    for label in labels {
        if label.contains('\0') {
            fail(&format!("a name holds a NUL character: {label}"));
        }
        let mut shared = previous.bytes().zip(label.bytes()).take_while(|(a, b)| a == b).count().min(255);
        while !label.is_char_boundary(shared) {
            shared -= 1;
        }
        out.push(shared as u8);
        out.extend_from_slice(&label.as_bytes()[shared..]);
        out.push(0);
        previous = label;
    }
    out
}

/// LEB128: seven bits a byte, low bits first, high bit set on all but the last byte.
fn write_varint(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7F) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn write(path: &Path, bytes: &[u8]) {
    fs::write(path, bytes).unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
}

fn fail(message: &str) -> ! {
    eprintln!("openings: {message}");
    std::process::exit(1);
}
