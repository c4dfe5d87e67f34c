//! The server killed with SIGKILL in the middle of a burst of submissions and restarted loses no
//! acknowledged entry and serves no half-written one: against SQLite and against PostgreSQL.

mod common;

use common::*;
use homeostat_chess::Board;
use homeostat_engine::bench::POSITIONS;
use homeostat_memory::client::Client;
use homeostat_memory::store::{Entry, Status, Store};
use homeostat_memory::validate::read_position;
use homeostat_memory::{Identity, PostgresStore, SqliteStore, StoreSpec};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn store_arg(spec: &StoreSpec) -> String {
    match spec {
        StoreSpec::Sqlite(path) => format!("sqlite:{path}"),
        StoreSpec::Postgres(url) => url.clone(),
    }
}

/// The server process, killed with SIGKILL when dropped (also when a test fails).
struct Server(Child);

impl Server {
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts the real binary and waits until it answers (its `bench` takes a while in debug builds).
async fn launch(spec: &StoreSpec, port: u16) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_homeostat-memory"))
        .args(["--listen", &format!("127.0.0.1:{port}"), "--store", &store_arg(spec)])
        .args(["--verify-wait-ms", "0", "--verify-nodes", "5000", "--trust-forwarded-for"])
        .args(["--lookup-rate", "0", "--submit-rate", "0", "--submit-rate-addr", "0"])
        .stdout(Stdio::null())
        .spawn()
        .expect("start homeostat-memory");
    let child = Server(child);
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if let Ok(reply) = Client::new(addr).get("/healthz").await {
            if reply.status == 200 {
                return child;
            }
        }
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Distinct positions: the bench's and those one move after them.
fn positions() -> Vec<String> {
    let mut fens = Vec::new();
    for fen in POSITIONS {
        let board = Board::from_fen(fen).unwrap();
        fens.push(fen.to_string());
        for m in board.legal_moves().iter().take(3) {
            let mut next = board;
            next.play(*m);
            if next.outcome().is_none() {
                fens.push(next.to_fen());
            }
        }
    }
    fens
}

fn parse_identity(name: &str) -> Identity {
    let parts: Vec<&str> = name.split(' ').collect();
    Identity::new(parts[1], parts[3].parse().unwrap())
}

async fn find(spec: &StoreSpec, sub: &Value, id: &Identity) -> Option<Entry> {
    let (_, key) = read_position(sub["fen"].as_str().unwrap()).unwrap();
    let depth = sub["depth"].as_u64().unwrap() as u32;
    let mv = sub["move"].as_str().unwrap();
    match spec {
        StoreSpec::Sqlite(path) => {
            SqliteStore::open(path).await.unwrap().find(&key, id.version(), id.bench(), depth, mv).await.unwrap()
        }
        StoreSpec::Postgres(url) => {
            PostgresStore::open(url).await.unwrap().find(&key, id.version(), id.bench(), depth, mv).await.unwrap()
        }
    }
}

fn same_as_submitted(entry: &Value, sub: &Value) -> bool {
    ["move", "depth", "score", "pv", "nodes"].iter().all(|field| entry[field] == sub[field])
}

async fn killed_mid_burst_loses_nothing_acknowledged(backend: Backend) {
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = launch(&backend.spec, port).await;
    let stats = Client::new(addr).get("/v1/stats").await.unwrap().json();
    let identity = parse_identity(stats["engine"].as_str().unwrap());

    let submissions: Vec<Value> = positions()
        .iter()
        .enumerate()
        .map(|(i, fen)| engine_submission(fen, 2, &format!("durable-client-{i:04}"), &identity))
        .collect();
    let submissions = Arc::new(submissions);
    let acknowledged = Arc::new(Mutex::new(Vec::<usize>::new()));
    let next = Arc::new(Mutex::new(0usize));
    let mut tasks = Vec::new();
    for worker in 0..4 {
        let (submissions, acknowledged, next) = (submissions.clone(), acknowledged.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut client = Client::new(addr);
            loop {
                let i = {
                    let mut next = next.lock().unwrap();
                    *next += 1;
                    *next - 1
                };
                let Some(sub) = submissions.get(i) else { return };
                let address = format!("10.9.{worker}.{}", i % 250);
                let sent = client
                    .request("POST", "/v1/memory", &[("X-Forwarded-For", &address)], &serde_json::to_vec(sub).unwrap())
                    .await;
                match sent {
                    Ok(reply) if reply.status == 201 || reply.status == 200 => acknowledged.lock().unwrap().push(i),
                    Ok(reply) => panic!("submission {i} refused: {} {}", reply.status, reply.json()),
                    // The server is gone: what was not acknowledged may or may not be stored.
                    Err(_) => return,
                }
            }
        }));
    }
    let burst_start = Instant::now();
    while acknowledged.lock().unwrap().len() < submissions.len() / 3 {
        assert!(burst_start.elapsed() < Duration::from_secs(120), "the burst stalled");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    server.kill(); // SIGKILL
    for task in tasks {
        task.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= submissions.len() / 3);
    assert!(acknowledged.len() < submissions.len(), "killed in the middle of the burst");
    eprintln!("{} of {} submissions acknowledged before SIGKILL", acknowledged.len(), submissions.len());

    let mut server = launch(&backend.spec, port).await;
    let mut client = Client::new(addr);
    // Every acknowledged entry is there, whole, and gets verified after the restart.
    let deadline = Instant::now() + Duration::from_secs(300);
    for &i in &acknowledged {
        let sub = &submissions[i];
        loop {
            let entry = find(&backend.spec, sub, &identity).await.unwrap_or_else(|| panic!("acknowledged {i} lost"));
            assert_eq!(
                entry.pv,
                sub["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect::<Vec<_>>().join(" ")
            );
            assert_eq!(entry.nodes, sub["nodes"].as_u64().unwrap());
            if entry.status != Status::Pending {
                break;
            }
            assert!(Instant::now() < deadline, "acknowledged {i} never verified after the restart");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    // Nothing served differs from what a client sent, acknowledged or not.
    let mut served = 0;
    for sub in submissions.iter() {
        let reply = lookup(&mut client, sub["fen"].as_str().unwrap(), 1).await;
        if reply.status == 200 {
            served += 1;
            let entry = reply.json();
            assert!(same_as_submitted(&entry, sub), "served {entry} but the client sent {sub}");
            assert_eq!(entry["verified"], json!(true));
        } else {
            assert_eq!(reply.status, 404);
        }
    }
    assert!(served >= acknowledged.len() * 9 / 10, "{served} served of {} acknowledged", acknowledged.len());
    if let StoreSpec::Sqlite(path) = &backend.spec {
        let output = Command::new("python3")
            .args(["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])", path])
            .output();
        if let Ok(output) = output {
            if output.status.success() {
                assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "ok");
            }
        }
    }
    server.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_killed_mid_burst_loses_nothing_acknowledged() {
    killed_mid_burst_loses_nothing_acknowledged(Backend::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_killed_mid_burst_loses_nothing_acknowledged() {
    if let Some(backend) = Backend::postgres().await {
        killed_mid_burst_loses_nothing_acknowledged(backend).await;
    }
}
