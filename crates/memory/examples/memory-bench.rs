//! The memory benchmark's load generator (run by `tools/memory-bench`): N concurrent clients on
//! kept-alive loopback connections for a bounded time, lookups or submissions, spread over one or
//! more servers; prints requests a second and p50/p99 latency as one tab-separated line.
//!
//! memory-bench --servers 127.0.0.1:8001[,127.0.0.1:8002] --mode lookup|submit [--clients 32] [--seconds 10]

use homeostat_chess::Board;
use homeostat_memory::client::{encode, Client};
use serde_json::json;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Positions the lookup phase asks for (seeded first, so most lookups hit).
const SEEDED: usize = 200;

struct Options {
    servers: Vec<SocketAddr>,
    lookup: bool,
    clients: usize,
    seconds: f64,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options { servers: Vec::new(), lookup: true, clients: 32, seconds: 10.0 };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or_else(|| format!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--servers" => {
                for text in value.split(',') {
                    options.servers.push(text.parse().map_err(|_| format!("bad server address '{text}'"))?);
                }
            }
            "--mode" => options.lookup = value == "lookup",
            "--clients" => options.clients = value.parse().map_err(|_| "--clients takes a number")?,
            "--seconds" => options.seconds = value.parse().map_err(|_| "--seconds takes a number")?,
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    if options.servers.is_empty() {
        return Err("--servers ADDR[,ADDR] is required".into());
    }
    Ok(options)
}

/// A cheap random number generator (xorshift), seeded per client.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A position `plies` random legal moves from the start, or fewer if the game ends.
fn random_position(rng: &mut Rng, plies: usize) -> Board {
    let mut board = Board::startpos();
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.get(rng.next() as usize % moves.len()).copied();
        let Some(m) = m else { break };
        let mut next = board;
        next.play(m);
        if next.outcome().is_some() {
            break;
        }
        board = next;
    }
    board
}

/// A well-formed submission for `board`: a legal move at depth 1. The server stores it and its
/// spot-check later judges it; the benchmark measures the storing.
fn submission(board: &Board, rng: &mut Rng, engine: &str, client: &str) -> Vec<u8> {
    let moves = board.legal_moves();
    let m = moves.get(rng.next() as usize % moves.len().max(1)).copied();
    let m = m.map(|m| m.to_string()).unwrap_or_default();
    serde_json::to_vec(&json!({
        "fen": board.to_fen(), "depth": 1, "move": m, "score": {"cp": 0}, "pv": [m],
        "nodes": 1, "engine": engine, "client": client,
    }))
    .unwrap_or_default()
}

/// The engine's own move for `board` at depth 5, so the spot-check passes it.
fn engine_submission(searcher: &mut homeostat_engine::Engine, board: &Board, engine: &str) -> Vec<u8> {
    let stop = AtomicBool::new(false);
    let limits = homeostat_engine::Limits::depth(5);
    let result = searcher.search(board, &[], &limits, &|| 0.0, &stop, &mut homeostat_engine::Silent);
    let score = match result.score {
        homeostat_engine::Score::Cp(cp) => json!({ "cp": cp }),
        homeostat_engine::Score::Mate(n) => json!({ "mate": n }),
    };
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    serde_json::to_vec(&json!({
        "fen": board.to_fen(), "depth": result.depth, "move": pv.first(), "score": score, "pv": pv,
        "nodes": result.nodes, "engine": engine, "client": "bench-seed-client",
    }))
    .unwrap_or_default()
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

async fn run(options: Options) -> Result<(), String> {
    let first = options.servers[0];
    let stats = Client::new(first).get("/v1/stats").await.map_err(|e| format!("no server at {first}: {e}"))?;
    let engine = stats.json()["engine"].as_str().ok_or("no engine in /v1/stats")?.to_string();

    // Seed: the positions lookups ask for, stored and verified before timing starts.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let positions: Vec<Board> = (0..SEEDED).map(|i| random_position(&mut rng, 4 + i % 20)).collect();
    if options.lookup {
        let mut client = Client::new(first);
        let mut searcher = homeostat_engine::Engine::new(16);
        for board in &positions {
            let body = engine_submission(&mut searcher, board, &engine);
            client.post("/v1/memory", &body).await.map_err(|e| format!("seeding: {e}"))?;
        }
        // Wait for the spot-checks, so that lookups find what was seeded (refused moves stay misses).
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            let stats = client.get("/v1/stats").await.map_err(|e| e.to_string())?.json();
            if stats["entries"]["pending"].as_u64() == Some(0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let queries: Arc<Vec<String>> =
        Arc::new(positions.iter().map(|b| format!("/v1/memory?fen={}&depth=1", encode(&b.to_fen()))).collect());

    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..options.clients {
        let server = options.servers[c % options.servers.len()];
        let (stop, queries, engine) = (stop.clone(), queries.clone(), engine.clone());
        let lookup = options.lookup;
        tasks.push(tokio::spawn(async move {
            let mut client = Client::new(server);
            let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ ((c as u64 + 1) * 0x1000_0001));
            let token = format!("bench-client-{c:04}");
            let mut latencies = Vec::new();
            let (mut errors, mut hits) = (0u64, 0u64);
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let reply = if lookup {
                    let query = &queries[rng.next() as usize % queries.len()];
                    client.get(query).await
                } else {
                    let plies = 6 + rng.next() as usize % 30;
                    let board = random_position(&mut rng, plies);
                    let body = submission(&board, &mut rng, &engine, &token);
                    client.post("/v1/memory", &body).await
                };
                let micros = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                match reply {
                    // 404: no entry; 422: agreed with an entry the spot-check refused. Both are answers.
                    Ok(reply) if matches!(reply.status, 200 | 201 | 404 | 422) => {
                        hits += u64::from(reply.status < 300);
                        latencies.push(micros);
                    }
                    _ => errors += 1,
                }
            }
            (latencies, errors, hits)
        }));
    }
    tokio::time::sleep(Duration::from_secs_f64(options.seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    let (mut errors, mut hits) = (0, 0);
    for task in tasks {
        let (l, e, h) = task.await.map_err(|e| e.to_string())?;
        latencies.extend(l);
        errors += e;
        hits += h;
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    println!(
        "{}\t{}\t{:.0}\t{:.2}\t{:.2}\t{}\t{}",
        if options.lookup { "lookups" } else { "submissions" },
        options.clients,
        latencies.len() as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        errors,
        hits,
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("memory-bench: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("memory-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("memory-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
