//! Reading and checking a submission: everything that can be decided without searching.

use crate::identity::Identity;
use homeostat_chess::{Board, Move};
use serde::{Deserialize, Serialize};

/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 4096;
/// The longest FEN accepted, in characters (the longest legal FEN is about 90).
pub const MAX_FEN_CHARS: usize = 100;
/// The longest principal variation accepted, in moves.
pub const MAX_PV_MOVES: usize = 128;
/// Depths accepted, inclusive.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 1..=99;
/// The largest centipawn score accepted; the engine's own scores stay well inside it.
pub const MAX_CP: i32 = 10_000;
/// The longest mate accepted, in moves (a PV of at most `MAX_PV_MOVES` plies can show no longer).
pub const MAX_MATE: i32 = 64;
/// The most nodes a submission may claim: about a day of a fast engine on many cores.
pub const MAX_NODES: u64 = 10_000_000_000_000;
/// Client tokens: this many characters at least and at most, from `[A-Za-z0-9_-]`.
pub const CLIENT_CHARS: std::ops::RangeInclusive<usize> = 8..=64;

/// A score as the API writes it: `{"cp": n}` or `{"mate": n}` from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is being mated.
    Mate(i32),
}

impl Score {
    /// One number for comparisons: mates become large centipawn values, shorter mates larger.
    pub fn as_cp(self) -> i32 {
        homeostat_engine::Score::from(self).as_cp()
    }
}

impl From<Score> for homeostat_engine::Score {
    fn from(score: Score) -> homeostat_engine::Score {
        match score {
            Score::Cp(cp) => homeostat_engine::Score::Cp(cp),
            Score::Mate(n) => homeostat_engine::Score::Mate(n),
        }
    }
}

impl From<homeostat_engine::Score> for Score {
    fn from(score: homeostat_engine::Score) -> Score {
        match score {
            homeostat_engine::Score::Cp(cp) => Score::Cp(cp),
            homeostat_engine::Score::Mate(n) => Score::Mate(n),
        }
    }
}

/// The body of `POST /v1/memory` exactly as sent.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// The position (four to six FEN fields).
    pub fen: String,
    /// The depth the client's search completed.
    pub depth: u32,
    /// The move found, in UCI form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The search's score for the side to move.
    pub score: Score,
    /// The principal variation in UCI moves, starting with `move`.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The engine identity, as `GET /v1/stats` shows it.
    pub engine: String,
    /// A random token the client keeps, for confirmations and rate limits.
    pub client: String,
}

/// Why a request was refused; each has a stable name counted in the statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// Not JSON, or not the shape of a submission.
    Unreadable,
    /// A field the API does not know.
    UnknownField,
    /// Body larger than [`MAX_BODY_BYTES`].
    TooLarge,
    /// FEN unreadable, illegal, too long or with the game over.
    BadFen,
    /// The move is not legal in the position.
    IllegalMove,
    /// The PV does not start with the move, is too long or contains an illegal move.
    IllegalPv,
    /// Depth outside 1–99.
    BadDepth,
    /// Node count impossible for the depth.
    ImplausibleNodes,
    /// Score out of bounds, or inconsistent with the PV.
    BadScore,
    /// A mate claim that the PV does not play out to mate.
    FalseMate,
    /// Another engine version or build.
    WrongEngine,
    /// Client token missing or malformed.
    BadClient,
    /// The server's own search shows the move losing clearly.
    Refuted,
    /// Too many requests from this client or address.
    RateLimited,
}

impl Reason {
    /// Every reason, in the order statistics list them.
    pub const ALL: [Reason; 14] = [
        Reason::Unreadable,
        Reason::UnknownField,
        Reason::TooLarge,
        Reason::BadFen,
        Reason::IllegalMove,
        Reason::IllegalPv,
        Reason::BadDepth,
        Reason::ImplausibleNodes,
        Reason::BadScore,
        Reason::FalseMate,
        Reason::WrongEngine,
        Reason::BadClient,
        Reason::Refuted,
        Reason::RateLimited,
    ];

    /// The name used in statistics and metrics.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Unreadable => "unreadable",
            Reason::UnknownField => "unknown_field",
            Reason::TooLarge => "too_large",
            Reason::BadFen => "bad_fen",
            Reason::IllegalMove => "illegal_move",
            Reason::IllegalPv => "illegal_pv",
            Reason::BadDepth => "bad_depth",
            Reason::ImplausibleNodes => "implausible_nodes",
            Reason::BadScore => "bad_score",
            Reason::FalseMate => "false_mate",
            Reason::WrongEngine => "wrong_engine",
            Reason::BadClient => "bad_client",
            Reason::Refuted => "refuted",
            Reason::RateLimited => "rate_limited",
        }
    }

    /// The HTTP status of a refusal for this reason.
    pub fn status(self) -> u16 {
        match self {
            Reason::Unreadable | Reason::UnknownField => 400,
            Reason::TooLarge => 413,
            Reason::RateLimited => 429,
            _ => 422,
        }
    }
}

/// A refusal: its reason and a sentence for the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of refusal, for counting.
    pub reason: Reason,
    /// What is wrong, in words.
    pub message: String,
}

impl Refusal {
    /// A refusal for `reason` saying `message`.
    pub fn new(reason: Reason, message: impl Into<String>) -> Refusal {
        Refusal { reason, message: message.into() }
    }
}

/// A position as the memory keys it: the Polyglot key and the first four FEN fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    /// The Polyglot Zobrist key, stored as the signed integer with the same bits.
    pub zobrist: i64,
    /// Placement, side to move, castling rights and en passant square, as the board writes them.
    pub fen: String,
}

/// Reads a FEN for keying: legal, at most [`MAX_FEN_CHARS`], with the game not over.
pub fn read_position(fen: &str) -> Result<(Board, PositionKey), Refusal> {
    if fen.chars().count() > MAX_FEN_CHARS {
        return Err(Refusal::new(Reason::BadFen, format!("FEN longer than {MAX_FEN_CHARS} characters")));
    }
    let board = Board::from_fen(fen).map_err(|e| Refusal::new(Reason::BadFen, e.to_string()))?;
    let key = position_key(&board);
    Ok((board, key))
}

/// The key of a board.
pub fn position_key(board: &Board) -> PositionKey {
    let full = board.to_fen();
    let fen = full.split(' ').take(4).collect::<Vec<_>>().join(" ");
    PositionKey { zobrist: board.hash() as i64, fen }
}

/// A submission that passed every check short of the server's own search.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The position.
    pub board: Board,
    /// Its key.
    pub key: PositionKey,
    /// The move, in canonical UCI form.
    pub mv: Move,
    /// The PV in canonical UCI form, starting with `mv`.
    pub pv: Vec<Move>,
    /// Depth 1–99.
    pub depth: u32,
    /// The claimed score.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// The client token.
    pub client: String,
}

/// Parses a request body into a [`Submission`], telling unreadable bodies from unknown fields.
pub fn parse_body(body: &[u8]) -> Result<Submission, Refusal> {
    if body.len() > MAX_BODY_BYTES {
        return Err(Refusal::new(Reason::TooLarge, format!("body larger than {MAX_BODY_BYTES} bytes")));
    }
    serde_json::from_slice(body).map_err(|e| {
        let text = e.to_string();
        let reason = if text.starts_with("unknown field") || text.starts_with("unknown variant") {
            Reason::UnknownField
        } else {
            Reason::Unreadable
        };
        Refusal::new(reason, format!("body is not a submission: {text}"))
    })
}

/// The fewest nodes a search to `depth` can report: one per ply of its principal variation in each
/// completed iteration of iterative deepening.
pub fn min_nodes(depth: u32) -> u64 {
    let d = u64::from(depth);
    d * (d + 1) / 2
}

/// Checks a client token: [`CLIENT_CHARS`] characters from `[A-Za-z0-9_-]`.
pub fn check_client(client: &str) -> Result<(), Refusal> {
    if CLIENT_CHARS.contains(&client.len())
        && client.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Ok(());
    }
    Err(Refusal::new(
        Reason::BadClient,
        format!(
            "client must be a token of {} to {} letters, digits, '-' or '_'",
            CLIENT_CHARS.start(),
            CLIENT_CHARS.end()
        ),
    ))
}

/// Checks everything about a submission that needs no search.
pub fn check(sub: &Submission, identity: &Identity) -> Result<Checked, Refusal> {
    check_client(&sub.client)?;
    if sub.engine != identity.name() {
        return Err(Refusal::new(
            Reason::WrongEngine,
            format!("this memory accepts engine '{}', not '{}'", identity.name(), truncate(&sub.engine, 80)),
        ));
    }
    let (board, key) = read_position(&sub.fen)?;
    if let Some(outcome) = board.outcome() {
        return Err(Refusal::new(
            Reason::BadFen,
            format!("the game is over in this position ({outcome}): no move to store"),
        ));
    }
    if !DEPTHS.contains(&sub.depth) {
        return Err(Refusal::new(
            Reason::BadDepth,
            format!("depth {} is outside {}-{}", sub.depth, DEPTHS.start(), DEPTHS.end()),
        ));
    }
    if sub.nodes < min_nodes(sub.depth) || sub.nodes > MAX_NODES {
        return Err(Refusal::new(
            Reason::ImplausibleNodes,
            format!(
                "{} nodes is impossible for depth {} (at least {}, at most {MAX_NODES})",
                sub.nodes,
                sub.depth,
                min_nodes(sub.depth)
            ),
        ));
    }
    let mv = board.parse_uci(&sub.mv).map_err(|e| Refusal::new(Reason::IllegalMove, truncate(&e.to_string(), 200)))?;
    if sub.pv.is_empty() || sub.pv.len() > MAX_PV_MOVES {
        return Err(Refusal::new(
            Reason::IllegalPv,
            format!("pv must hold 1 to {MAX_PV_MOVES} moves, starting with the move"),
        ));
    }
    let mut pv = Vec::with_capacity(sub.pv.len());
    let mut line = board;
    for (i, text) in sub.pv.iter().enumerate() {
        if !line.has_legal_moves() {
            return Err(Refusal::new(Reason::IllegalPv, format!("pv goes on after the game ended, at move {}", i + 1)));
        }
        let m = line.parse_uci(text).map_err(|e| {
            Refusal::new(Reason::IllegalPv, format!("pv move {}: {}", i + 1, truncate(&e.to_string(), 200)))
        })?;
        pv.push(m);
        line.play(m);
    }
    if pv[0] != mv {
        return Err(Refusal::new(Reason::IllegalPv, "pv must start with the move"));
    }
    check_score(&board, &pv, sub.score)?;
    Ok(Checked { board, key, mv, pv, depth: sub.depth, score: sub.score, nodes: sub.nodes, client: sub.client.clone() })
}

/// Bounds a score and plays out a mate claim: mate in n must end in checkmate after exactly 2n − 1
/// plies of the PV (the side to move mates), mate in −n after 2n (the side to move is mated).
fn check_score(board: &Board, pv: &[Move], score: Score) -> Result<(), Refusal> {
    let n = match score {
        Score::Cp(cp) if cp.unsigned_abs() <= MAX_CP.unsigned_abs() => return Ok(()),
        Score::Cp(cp) => {
            return Err(Refusal::new(Reason::BadScore, format!("score {cp} cp is outside ±{MAX_CP}")));
        }
        Score::Mate(n) if n == 0 || n.unsigned_abs() > MAX_MATE.unsigned_abs() => {
            return Err(Refusal::new(Reason::BadScore, format!("mate {n} is outside ±1 to ±{MAX_MATE}")));
        }
        Score::Mate(n) => n,
    };
    let plies = if n > 0 { 2 * n as usize - 1 } else { 2 * n.unsigned_abs() as usize };
    if pv.len() < plies {
        return Err(Refusal::new(
            Reason::FalseMate,
            format!("mate {n} needs a pv of {plies} plies ending in checkmate; it has {}", pv.len()),
        ));
    }
    let mut line = *board;
    for &m in &pv[..plies] {
        line.play(m);
    }
    if !line.is_checkmate() {
        return Err(Refusal::new(
            Reason::FalseMate,
            format!("mate {n} claimed, but the pv's {plies} plies end in no mate"),
        ));
    }
    Ok(())
}

/// At most `max` characters of `text`, for echoing client input in messages.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        text.chars().take(max).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> Identity {
        Identity::new("0.1.0", 1234)
    }

    fn sub(fen: &str, mv: &str, pv: &[&str], score: Score) -> Submission {
        Submission {
            fen: fen.to_string(),
            depth: 10,
            mv: mv.to_string(),
            score,
            pv: pv.iter().map(|s| s.to_string()).collect(),
            nodes: 100_000,
            engine: identity().name().to_string(),
            client: "client-token-1".to_string(),
        }
    }

    const START: &str = homeostat_chess::STARTPOS;
    const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

    #[test]
    fn a_good_submission_passes_and_is_keyed_by_four_fields() {
        let checked = check(&sub(START, "e2e4", &["e2e4", "e7e5"], Score::Cp(30)), &identity()).unwrap();
        assert_eq!(checked.key.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
        assert_eq!(checked.key.zobrist as u64, 0x463b96181691fc9c);
        let same = read_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 30").unwrap().1;
        assert_eq!(same, checked.key);
    }

    #[test]
    fn each_defect_has_its_reason() {
        let id = identity();
        let reason = |s: Submission| check(&s, &id).unwrap_err().reason;
        assert_eq!(reason(sub(START, "e2e5", &["e2e5"], Score::Cp(0))), Reason::IllegalMove);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4", "e2e4"], Score::Cp(0))), Reason::IllegalPv);
        assert_eq!(reason(sub(START, "e2e4", &["d2d4"], Score::Cp(0))), Reason::IllegalPv);
        assert_eq!(reason(sub(START, "e2e4", &[], Score::Cp(0))), Reason::IllegalPv);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4"], Score::Mate(1))), Reason::FalseMate);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4"], Score::Cp(20_000))), Reason::BadScore);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4"], Score::Cp(i32::MIN))), Reason::BadScore);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4"], Score::Mate(i32::MIN))), Reason::BadScore);
        assert_eq!(reason(sub(START, "e2e4", &["e2e4"], Score::Mate(0))), Reason::BadScore);
        assert_eq!(reason(sub("8/8/8/8/8/8/8/K7 w - - 0 1", "a1a2", &["a1a2"], Score::Cp(0))), Reason::BadFen);
        assert_eq!(reason(sub("7k/8/8/8/8/8/8/K7 w - - 0 1", "a1a2", &["a1a2"], Score::Cp(0))), Reason::BadFen);
        let mut deep = sub(START, "e2e4", &["e2e4"], Score::Cp(0));
        deep.depth = 999;
        assert_eq!(reason(deep), Reason::BadDepth);
        let mut few = sub(START, "e2e4", &["e2e4"], Score::Cp(0));
        few.depth = 30;
        few.nodes = 100;
        assert_eq!(reason(few), Reason::ImplausibleNodes);
        let mut other = sub(START, "e2e4", &["e2e4"], Score::Cp(0));
        other.engine = "Homeostat 0.0.9 bench 1".into();
        assert_eq!(reason(other), Reason::WrongEngine);
        let mut anon = sub(START, "e2e4", &["e2e4"], Score::Cp(0));
        anon.client = "x".into();
        assert_eq!(reason(anon), Reason::BadClient);
    }

    #[test]
    fn a_real_mate_passes_and_a_short_one_does_not() {
        let id = identity();
        assert!(check(&sub(BACK_RANK, "d1d8", &["d1d8"], Score::Mate(1)), &id).is_ok());
        let from_black = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1";
        assert!(check(&sub(from_black, "g8h8", &["g8h8", "d1d8"], Score::Mate(-1)), &id).is_ok());
        assert_eq!(
            check(&sub(from_black, "h7h6", &["h7h6"], Score::Mate(-1)), &id).unwrap_err().reason,
            Reason::FalseMate
        );
        assert_eq!(
            check(&sub(BACK_RANK, "d1d7", &["d1d7"], Score::Mate(1)), &id).unwrap_err().reason,
            Reason::FalseMate
        );
    }

    #[test]
    fn the_engine_never_reports_fewer_nodes_than_the_plausible_minimum() {
        use homeostat_engine::{Engine, Limits, Silent};
        let positions = [
            (START, 5),
            ("8/8/8/4k3/8/8/3RK3/8 w - - 0 1", 16),
            ("8/8/8/8/8/5k2/8/5K1q w - - 0 1", 16),
            ("7k/8/8/8/8/8/8/KNN5 w - - 0 1", 20),
            ("7k/8/5K2/8/8/8/8/6R1 b - - 0 1", 20),
        ];
        let stop = std::sync::atomic::AtomicBool::new(false);
        for (fen, depth) in positions {
            let board = Board::from_fen(fen).unwrap();
            let mut engine = Engine::new(1);
            let result = engine.search(&board, &[], &Limits::depth(depth), &|| 0.0, &stop, &mut Silent);
            assert!(result.nodes >= min_nodes(result.depth), "{fen}: {} nodes at depth {}", result.nodes, result.depth);
        }
    }

    #[test]
    fn bodies_are_told_apart() {
        assert_eq!(parse_body(b"not json").unwrap_err().reason, Reason::Unreadable);
        assert_eq!(parse_body(b"{\"fen\": 3}").unwrap_err().reason, Reason::Unreadable);
        let extra = br#"{"fen":"x","depth":1,"move":"e2e4","score":{"cp":0},"pv":[],"nodes":1,"engine":"e","client":"c","evil":1}"#;
        assert_eq!(parse_body(extra).unwrap_err().reason, Reason::UnknownField);
        let bad_score =
            br#"{"fen":"x","depth":1,"move":"e2e4","score":{"pawns":0},"pv":[],"nodes":1,"engine":"e","client":"c"}"#;
        assert_eq!(parse_body(bad_score).unwrap_err().reason, Reason::UnknownField);
        assert_eq!(parse_body(&vec![b' '; MAX_BODY_BYTES + 1]).unwrap_err().reason, Reason::TooLarge);
    }
}
