//! Differential test against shakmaty: positions reached by seeded random play must agree on
//! legal moves, SAN, FEN, check/mate/stalemate status and the Polyglot Zobrist key.
//!
//! En passant normalisation for FEN: the fourth field is compared after keeping it only when a
//! *legal* en passant capture exists, on both sides (shakmaty's `EnPassantMode::Legal`; ours:
//! the target of a legal e.p. move among `legal_moves()`). Once a move has been played we also
//! compare strictly: our FEN must equal shakmaty's `EnPassantMode::PseudoLegal` FEN (square
//! written after a double push whose pawn an enemy pawn stands beside), which is our rule.
//! Keys: Polyglot hashes the e.p. file when a pawn of the side to move could capture
//! pseudo-legally, which is shakmaty's `zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)`;
//! the Polyglot reference keys below include a pinned-pawn case that tells the modes apart.

mod common;

use common::Rng;
use homeostat_chess::{Board, Move, PieceKind, Square};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::{BTreeMap, BTreeSet};

/// Positions to compare, at least: more in release builds, where they cost little.
const TARGET_POSITIONS: usize = if cfg!(debug_assertions) { 100_000 } else { 250_000 };
/// Longest random game, in plies.
const MAX_PLIES: usize = 200;

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Any legal move.
    Uniform,
    /// Captures, checks and promotions when there are some, often.
    Tactical,
    /// Pawn moves often, e.p. captures and promotions always: e.p.- and promotion-rich games.
    Pawns,
}

fn perft_suite_fens() -> Vec<String> {
    include_str!("../../../tests/data/perftsuite.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// Extra starts: promotions close, pawn walls for e.p., castling, pinned e.p. pawns.
const EXTRA_FENS: &[&str] = &[
    "7k/PPPPP3/8/8/8/8/ppppp3/7K w - - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    "8/8/8/8/k2Pp2Q/8/8/7K b - d3 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    "n1n3k1/PPPP4/8/8/8/8/pppp4/N1N3K1 w - - 0 1",
    "4k3/pppp4/8/4PPPP/4pppp/8/PPPP4/4K3 w - - 0 1",
    "4k3/1p1p1p1p/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/8/p1p1p1p1/8/1P1P1P1P/4K3 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

fn to_shakmaty(fen: &str) -> Chess {
    let setup = fen.parse::<Fen>().unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"));
    match setup.into_position(CastlingMode::Standard) {
        Ok(pos) => pos,
        // Some suite positions have checks no legal game reaches; both sides accept those.
        Err(e) => match e.ignore_impossible_check() {
            Ok(pos) => pos,
            Err(e) => e.ignore_too_much_material().unwrap_or_else(|e| panic!("shakmaty refuses {fen}: {e}")),
        },
    }
}

fn uci(m: &shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Our FEN with the e.p. field kept only when a legal e.p. capture exists.
fn normalised_fen(board: &Board, moves: &[Move]) -> String {
    let legal_ep = moves.iter().find(|&&m| board.is_en_passant(m)).map(|m| m.to().to_string());
    let mut fields: Vec<String> = board.to_fen().split(' ').map(str::to_string).collect();
    fields[3] = legal_ep.unwrap_or_else(|| "-".to_string());
    fields.join(" ")
}

fn reference_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// Counts of what was compared, for the final report.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    games: usize,
    checkmates: usize,
    stalemates: usize,
    checks: usize,
    ep_positions: usize,
    dead_material: usize,
    promotions: usize,
    castles: usize,
}

/// Compares one position with shakmaty in every way; `played` says whether a move led here.
fn compare(board: &Board, pos: &Chess, played: bool, rng: &mut Rng, stats: &mut Stats) {
    let fen = board.to_fen();
    let ours = board.legal_moves();
    let theirs = pos.legal_moves();

    // Legal move sets, as UCI strings.
    let our_set: BTreeSet<String> = ours.iter().map(|m| m.to_string()).collect();
    let their_map: BTreeMap<String, shakmaty::Move> = theirs.iter().map(|m| (uci(m), *m)).collect();
    let their_set: BTreeSet<String> = their_map.keys().cloned().collect();
    assert_eq!(our_set.len(), ours.len(), "{fen}: duplicate moves in {ours:?}");
    assert_eq!(
        our_set,
        their_set,
        "{fen}: legal moves differ; only ours {:?}, only shakmaty {:?}",
        our_set.difference(&their_set).collect::<Vec<_>>(),
        their_set.difference(&our_set).collect::<Vec<_>>()
    );

    // FEN, normalised, and strictly after a move.
    let their_legal_fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    assert_eq!(normalised_fen(board, &ours), their_legal_fen, "{fen}: FEN (legal e.p. normalisation)");
    if played {
        let their_pseudo_fen = Fen::from_position(pos, EnPassantMode::PseudoLegal).to_string();
        assert_eq!(fen, their_pseudo_fen, "FEN after a move (pseudo-legal e.p. rule)");
        assert_eq!(board.en_passant(), pos.ep_square(EnPassantMode::PseudoLegal).map(sq));
    }

    // Status.
    assert_eq!(board.in_check(), pos.is_check(), "{fen}: in check");
    assert_eq!(board.checkers().count() as usize, pos.checkers().count(), "{fen}: checkers");
    assert_eq!(board.has_legal_moves(), !theirs.is_empty(), "{fen}: has legal moves");
    let mate = board.is_checkmate();
    let stalemate = board.is_stalemate();
    assert_eq!(mate, pos.is_checkmate(), "{fen}: checkmate");
    assert_eq!(stalemate, pos.is_stalemate(), "{fen}: stalemate");
    assert_eq!(mate, board.in_check() && ours.is_empty(), "{fen}: is_checkmate");
    assert_eq!(stalemate, !board.in_check() && ours.is_empty(), "{fen}: is_stalemate");
    assert_eq!(board.is_insufficient_material(), pos.is_insufficient_material(), "{fen}: insufficient material");

    // Key: incremental, from scratch (via FEN) and the reference.
    if cfg!(not(feature = "compact-keys")) {
        assert_eq!(board.hash(), reference_key(pos), "{fen}: Polyglot key");
    }
    let reread = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: our own FEN refused: {e}"));
    assert_eq!(reread, *board, "{fen}: FEN round trip");
    assert_eq!(reread.hash(), board.hash(), "{fen}: key from scratch");

    // Captures and quiet moves split the legal moves as shakmaty's capture flag does.
    let caps: BTreeSet<String> = board.captures().iter().map(|m| m.to_string()).collect();
    let quiets: BTreeSet<String> = board.quiets().iter().map(|m| m.to_string()).collect();
    let their_caps: BTreeSet<String> =
        their_map.iter().filter(|(_, m)| m.is_capture()).map(|(u, _)| u.clone()).collect();
    assert_eq!(caps, their_caps, "{fen}: captures");
    let their_quiets: BTreeSet<String> = their_set.difference(&their_caps).cloned().collect();
    assert_eq!(quiets, their_quiets, "{fen}: quiet moves");

    // Every legal move: flags, SAN, and the child's key and check status.
    for &m in ours.iter() {
        let u = m.to_string();
        let sm = &their_map[&u];
        assert!(board.is_legal(m), "{fen}: {u} generated but not is_legal");
        assert_eq!(board.is_capture(m), sm.is_capture(), "{fen}: {u} is_capture");
        assert_eq!(board.is_en_passant(m), sm.is_en_passant(), "{fen}: {u} is_en_passant");
        assert_eq!(board.is_castling(m), sm.is_castle(), "{fen}: {u} is_castling");
        assert_eq!(board.captured_kind(m).map(role), sm.capture(), "{fen}: {u} captured kind");
        let mut child_ref = pos.clone();
        let their = SanPlus::from_move_and_play_unchecked(&mut child_ref, *sm);
        let our_san = board.san(m);
        assert_eq!(our_san, their.to_string(), "{fen}: SAN of {u}");
        assert_eq!(board.parse_san(&our_san).ok(), Some(m), "{fen}: parse_san({our_san})");
        let plain = their.san.to_string();
        assert_eq!(board.parse_san(&plain).ok(), Some(m), "{fen}: parse_san({plain})");
        assert_eq!(board.parse_move(&our_san).ok(), Some(m), "{fen}: parse_move({our_san})");
        assert_eq!(board.parse_move(&u).ok(), Some(m), "{fen}: parse_move({u})");
        assert_eq!(board.parse_uci(&u).ok(), Some(m), "{fen}: parse_uci({u})");
        let mut child = *board;
        child.play(m);
        if cfg!(not(feature = "compact-keys")) {
            assert_eq!(child.hash(), reference_key(&child_ref), "{fen}: key after {u}");
        }
        let fresh = Board::from_fen(&child.to_fen()).unwrap();
        assert_eq!(child.hash(), fresh.hash(), "{fen}: key after {u}, incremental and from scratch");
        assert_eq!(board.hash_after(m), child.hash(), "{fen}: hash_after({u})");
        assert_eq!(child.in_check(), child_ref.is_check(), "{fen}: check after {u}");
        stats.moves += 1;
        if sm.is_promotion() {
            stats.promotions += 1;
        }
        if sm.is_castle() {
            stats.castles += 1;
        }
    }

    // is_legal on random from/to/promotion triples, mostly from our own pieces.
    let own: Vec<Square> = Square::all().filter(|&s| board.colored(board.side_to_move()).has(s)).collect();
    for _ in 0..6 {
        let from = if rng.chance(80) { own[rng.below(own.len())] } else { Square::new(rng.below(64) as u8).unwrap() };
        let to = Square::new(rng.below(64) as u8).unwrap();
        let promotion = if rng.chance(20) {
            Some([PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight][rng.below(4)])
        } else {
            None
        };
        let m = Move::new(from, to, promotion);
        assert_eq!(board.is_legal(m), their_set.contains(&m.to_string()), "{fen}: is_legal({m})");
    }

    // The moves of one piece.
    if let Some(&from) = own.get(rng.below(own.len().max(1))) {
        let mine: BTreeSet<String> = board.moves_from(from).iter().map(|m| m.to_string()).collect();
        let expected: BTreeSet<String> = our_set.iter().filter(|u| u.starts_with(&from.to_string())).cloned().collect();
        assert_eq!(mine, expected, "{fen}: moves_from({from})");
    }

    // Passing the move.
    match board.null_move() {
        None => assert!(board.in_check(), "{fen}: null move refused out of check"),
        Some(passed) => {
            if let Ok(swapped) = pos.clone().swap_turn() {
                if cfg!(not(feature = "compact-keys")) {
                    assert_eq!(passed.hash(), reference_key(&swapped), "{fen}: key after a null move");
                }
            }
            let fresh = Board::from_fen(&passed.to_fen()).unwrap();
            assert_eq!(passed.hash(), fresh.hash(), "{fen}: key after a null move, incremental and from scratch");
        }
    }

    stats.positions += 1;
    stats.checks += board.in_check() as usize;
    stats.checkmates += mate as usize;
    stats.stalemates += stalemate as usize;
    stats.dead_material += board.is_insufficient_material() as usize;
    stats.ep_positions += ours.iter().any(|&m| board.is_en_passant(m)) as usize;
}

fn sq(s: shakmaty::Square) -> Square {
    Square::new(u32::from(s) as u8).unwrap()
}

fn role(kind: PieceKind) -> shakmaty::Role {
    match kind {
        PieceKind::Pawn => shakmaty::Role::Pawn,
        PieceKind::Knight => shakmaty::Role::Knight,
        PieceKind::Bishop => shakmaty::Role::Bishop,
        PieceKind::Rook => shakmaty::Role::Rook,
        PieceKind::Queen => shakmaty::Role::Queen,
        PieceKind::King => shakmaty::Role::King,
    }
}

/// Picks the next move under `policy`.
fn pick(board: &Board, moves: &[Move], policy: Policy, rng: &mut Rng) -> Move {
    let preferred: Vec<Move> = match policy {
        Policy::Uniform => Vec::new(),
        Policy::Tactical => moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut child = *board;
                child.play(m);
                board.is_capture(m) || m.promotion().is_some() || child.in_check()
            })
            .collect(),
        Policy::Pawns => {
            let special: Vec<Move> =
                moves.iter().copied().filter(|&m| board.is_en_passant(m) || m.promotion().is_some()).collect();
            // Double pushes beside an enemy pawn set the e.p. square.
            let ep_pushes: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut child = *board;
                    child.play(m);
                    child.en_passant().is_some()
                })
                .collect();
            if !special.is_empty() {
                special
            } else if !ep_pushes.is_empty() && rng.chance(80) {
                ep_pushes
            } else {
                moves.iter().copied().filter(|&m| board.kind_on(m.from()) == Some(PieceKind::Pawn)).collect()
            }
        }
    };
    if !preferred.is_empty() && rng.chance(70) {
        preferred[rng.below(preferred.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// Our move `m` as shakmaty's move in `pos`.
fn reference_move(pos: &Chess, board: &Board, m: Move) -> shakmaty::Move {
    shakmaty::uci::UciMove::from_ascii(m.to_string().as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|e| panic!("{board}: shakmaty refuses {m}: {e}"))
}

/// Plays one random game from `fen`, comparing every position on the way.
fn play_game(fen: &str, policy: Policy, rng: &mut Rng, stats: &mut Stats) {
    let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut pos = to_shakmaty(fen);
    stats.games += 1;
    for ply in 0..=MAX_PLIES {
        compare(&board, &pos, ply > 0, rng, stats);
        let moves = board.legal_moves();
        if moves.is_empty() || ply == MAX_PLIES || board.is_insufficient_material() {
            return;
        }
        // Side branches: every double push that sets an e.p. square, compared one ply deep.
        for &m in moves.iter() {
            let mut child = board;
            child.play(m);
            if child.en_passant().is_some() {
                let mut child_ref = pos.clone();
                child_ref.play_unchecked(reference_move(&pos, &board, m));
                compare(&child, &child_ref, true, rng, stats);
            }
        }
        let m = pick(&board, &moves, policy, rng);
        let sm = reference_move(&pos, &board, m);
        board.play(m);
        pos.play_unchecked(sm);
    }
}

#[test]
fn random_play_agrees_with_shakmaty() {
    let start = std::time::Instant::now();
    let mut starts: Vec<String> = vec![homeostat_chess::STARTPOS.to_string()];
    starts.extend(perft_suite_fens());
    starts.extend(EXTRA_FENS.iter().map(|s| s.to_string()));
    let policies = [Policy::Uniform, Policy::Tactical, Policy::Pawns];
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut stats = Stats::default();
    let mut round = 0;
    while stats.positions < TARGET_POSITIONS {
        for (i, fen) in starts.iter().enumerate() {
            // The start position gets extra games each round.
            let games = if i == 0 { 6 } else { 1 };
            for g in 0..games {
                let policy = policies[(round + i + g) % policies.len()];
                play_game(fen, policy, &mut rng, &mut stats);
            }
        }
        round += 1;
    }
    eprintln!("differential: {stats:?} in {:.1?}", start.elapsed());
    assert!(stats.positions >= 100_000, "{} positions", stats.positions);
    assert!(stats.checkmates > 0 && stats.stalemates > 0 && stats.ep_positions > 0 && stats.dead_material > 0);
}

/// The Polyglot reference keys, plus a pinned e.p. pawn where the pseudo-legal rule (Polyglot)
/// and the legal rule differ.
#[test]
#[cfg_attr(feature = "compact-keys", ignore = "the compact keys are not Polyglot's")]
fn polyglot_reference_keys() {
    let cases: &[(&str, u64)] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b_9618_1691_fc9c),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0x823c_9b50_fd11_4196),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", 0x0756_b944_61c5_0fb0),
        ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662f_afb9_65db_29d4),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a4_8b5a_8e47_ff78),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3", 0x652a_607c_a3f2_42c1),
        ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4", 0x00fd_d303_c946_bdd9),
        ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c81_23ea_7b06_7637),
        ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4", 0x5c3f_9b82_9b27_9560),
    ];
    for &(fen, key) in cases {
        assert_eq!(Board::from_fen(fen).unwrap().hash(), key, "{fen}");
        assert_eq!(reference_key(&to_shakmaty(fen)), key, "{fen}");
    }
    // White's e5 pawn is pinned along the fifth rank: e.p. is pseudo-legal only.
    let pinned = "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1";
    let board = Board::from_fen(pinned).unwrap();
    let pos = to_shakmaty(pinned);
    assert!(!board.legal_moves().iter().any(|&m| board.is_en_passant(m)));
    assert_eq!(board.hash(), reference_key(&pos));
    assert_ne!(board.hash(), pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
}
