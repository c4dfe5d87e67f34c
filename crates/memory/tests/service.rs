//! The service from a client's side, against SQLite and against PostgreSQL: the same tests on both.

mod common;

use common::*;
use homeostat_memory::client::{Client, Reply};
use homeostat_memory::ratelimit::Rate;
use homeostat_memory::store::{NewEntry, Status, Store};
use homeostat_memory::validate::{read_position, Score};
use homeostat_memory::{PostgresStore, SqliteStore, StoreSpec};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White to move can hang the queen with Qd1-g4 (Black's queen on g5 takes it).
const QUEEN_HANG: &str = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3";

fn body(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

fn with(value: &Value, field: &str, new: Value) -> Value {
    let mut value = value.clone();
    value[field] = new;
    value
}

async fn refused(client: &mut Client, payload: &[u8], status: u16, reason: &str) -> Reply {
    let reply = submit_from(client, payload, "10.0.0.9").await;
    let json = reply.json();
    assert_eq!(reply.status, status, "{reason}: {json}");
    assert_eq!(json["reason"], reason, "{json}");
    assert!(json["error"].as_str().is_some_and(|e| e.len() > 10), "a refusal says why: {json}");
    reply
}

/// Each poisoned submission the issue lists is refused with its reason, and no lookup serves any.
async fn poisoning_is_refused_and_never_served(backend: Backend) {
    let server = serve(&backend, test_settings()).await;
    let mut client = Client::new(server.addr);
    let id = test_identity();
    let good = engine_submission(START, 4, "honest-client-1", &id);

    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("illegal move", body(&with(&with(&good, "move", json!("e2e5")), "pv", json!(["e2e5"]))), 422, "illegal_move"),
        (
            "illegal pv",
            body(&with(&with(&good, "move", json!("e2e4")), "pv", json!(["e2e4", "e7e5", "e4e5"]))),
            422,
            "illegal_pv",
        ),
        (
            "fake mate",
            body(&with(
                &with(&with(&good, "move", json!("e2e4")), "pv", json!(["e2e4", "e7e5", "d1h5"])),
                "score",
                json!({"mate": 2}),
            )),
            422,
            "false_mate",
        ),
        ("depth 999", body(&with(&good, "depth", json!(999))), 422, "bad_depth"),
        (
            "nodes impossible for the depth",
            body(&with(&with(&good, "depth", json!(40)), "nodes", json!(50))),
            422,
            "implausible_nodes",
        ),
        ("unbounded score", body(&with(&good, "score", json!({"cp": 40000}))), 422, "bad_score"),
        (
            "FEN without a king",
            body(&with(
                &with(&with(&good, "fen", json!("8/8/8/8/8/8/PPPP4/8 w - - 0 1")), "move", json!("a2a3")),
                "pv",
                json!(["a2a3"]),
            )),
            422,
            "bad_fen",
        ),
        ("another engine", body(&with(&good, "engine", json!("Homeostat 0.0.1 bench 1"))), 422, "wrong_engine"),
        ("garbage", b"\x00\xffnot json at all{{{".to_vec(), 400, "unreadable"),
        ("wrong types", body(&with(&good, "depth", json!("deep"))), 400, "unreadable"),
        ("unknown field", body(&with(&good, "trust_me", json!(true))), 400, "unknown_field"),
        ("oversized body", body(&with(&good, "client", json!("x".repeat(20_000)))), 413, "too_large"),
        ("pv over 128 moves", body(&with(&good, "pv", json!(vec!["e2e4"; 130]))), 422, "illegal_pv"),
        ("pv past the size cap", body(&with(&good, "pv", json!(vec!["e2e4"; 600]))), 413, "too_large"),
    ];
    for (what, payload, status, reason) in &cases {
        eprintln!("poison: {what}");
        refused(&mut client, payload, *status, reason).await;
    }

    let hang = json!({
        "fen": QUEEN_HANG, "depth": 30, "move": "d1g4", "score": {"cp": 150}, "pv": ["d1g4"],
        "nodes": 80_000_000u64, "engine": id.name(), "client": "poisoner-token-1",
    });
    let reply = refused(&mut client, &body(&hang), 422, "refuted").await;
    assert!(reply.json()["error"].as_str().unwrap().contains("Qg4"), "{}", reply.json());
    // The same lie from another client and address is refused again, from the stored verdict.
    let again = with(&hang, "client", json!("poisoner-token-2"));
    let reply = submit_from(&mut client, &body(&again), "10.0.0.10").await;
    assert_eq!((reply.status, reply.json()["reason"].clone()), (422, json!("refuted")));

    for fen in [START, QUEEN_HANG] {
        let reply = lookup(&mut client, fen, 1).await;
        assert_eq!(reply.status, 404, "nothing served for {fen}: {}", reply.json());
    }
    let reply = lookup(&mut client, "8/8/8/8/8/8/PPPP4/8 w - - 0 1", 1).await;
    assert_eq!((reply.status, reply.json()["reason"].clone()), (422, json!("bad_fen")));

    let stats = client.get("/v1/stats").await.unwrap().json();
    for (what, _, _, reason) in &cases {
        assert!(stats["rejections"][reason].as_i64().unwrap() >= 1, "{what} counted: {stats}");
    }
    assert_eq!(stats["rejections"]["refuted"], 2, "{stats}");
    assert_eq!(stats["rejections"]["bad_fen"], 2, "{stats}");
    assert_eq!(stats["rejections"]["illegal_pv"], 2, "{stats}");
    assert_eq!(stats["positions"], 0, "{stats}");
    assert_eq!(stats["entries"]["refused"], 1, "{stats}");
    let metrics = String::from_utf8(client.get("/metrics").await.unwrap().body).unwrap();
    assert!(metrics.contains("homeostat_memory_rejections_total{reason=\"false_mate\"} 1"), "{metrics}");
    server.stop().await;
}

/// A good move is served once verified, deepest first, with independent confirmations counted.
async fn a_verified_move_is_served_with_its_confirmations(backend: Backend) {
    let server = serve(&backend, test_settings()).await;
    let mut client = Client::new(server.addr);
    let id = test_identity();
    let shallow = engine_submission(START, 3, "player-one-token", &id);
    let deep = engine_submission(START, 5, "player-one-token", &id);

    let reply = submit_from(&mut client, &body(&shallow), "10.0.0.1").await;
    assert_eq!(reply.status, 201, "{}", reply.json());
    assert_eq!(reply.json()["verified"], true);
    let reply = submit_from(&mut client, &body(&deep), "10.0.0.1").await;
    assert_eq!(reply.status, 201, "{}", reply.json());

    let served = lookup(&mut client, START, 4).await;
    assert_eq!(served.status, 200);
    let entry = served.json();
    assert_eq!(entry["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(entry["move"], deep["move"]);
    assert_eq!(entry["depth"], deep["depth"]);
    assert_eq!(entry["score"], deep["score"]);
    assert_eq!(entry["pv"], deep["pv"]);
    assert_eq!(entry["nodes"], deep["nodes"]);
    assert_eq!(entry["engine"], id.name());
    assert_eq!(entry["verified"], true);
    assert_eq!(entry["confirmations"], 1);
    assert!(entry["san"].as_str().is_some_and(|s| !s.is_empty()));

    // The move counters do not make another position; a deeper request finds nothing.
    let later = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 40";
    assert_eq!(lookup(&mut client, later, 5).await.json()["move"], deep["move"]);
    assert_eq!(lookup(&mut client, START, 6).await.status, 404);
    assert_eq!(lookup(&mut client, START, 1).await.json()["depth"], deep["depth"], "deepest first");

    // Agreement: another client on another network counts; the same client or network again does not.
    let second = with(&deep, "client", json!("player-two-token"));
    let reply = submit_from(&mut client, &body(&second), "10.0.1.1").await;
    assert_eq!((reply.status, reply.json()["counted"].clone()), (200, json!(true)), "{}", reply.json());
    let reply = submit_from(&mut client, &body(&second), "10.0.2.1").await;
    assert_eq!((reply.status, reply.json()["counted"].clone()), (200, json!(false)));
    let third = with(&deep, "client", json!("player-three-token"));
    let reply = submit_from(&mut client, &body(&third), "10.0.1.1").await;
    assert_eq!((reply.status, reply.json()["counted"].clone()), (200, json!(false)), "same address as player two");
    assert_eq!(lookup(&mut client, START, 5).await.json()["confirmations"], 2);

    let stats = client.get("/v1/stats").await.unwrap().json();
    assert_eq!(stats["engine"], id.name());
    assert_eq!(stats["positions"], 1);
    assert_eq!(stats["entries"]["verified"], 2);
    assert_eq!(stats["submissions"]["stored"], 2);
    assert_eq!(stats["submissions"]["agreed"], 3);
    assert_eq!(stats["lookups"]["hit"], 4);
    assert_eq!(stats["lookups"]["miss"], 1);
    server.stop().await;
}

/// Entries of another engine build are never served, even verified ones.
async fn only_the_same_engine_is_served(backend: Backend) {
    let (_, key) = read_position(START).unwrap();
    let entry = |version: &str, bench: u64| NewEntry {
        key: key.clone(),
        version: version.to_string(),
        bench,
        depth: 20,
        mv: "e2e4".into(),
        score: Score::Cp(30),
        pv: "e2e4".into(),
        nodes: 1_000_000,
        client: "old-engine-client".into(),
        addr: 1,
    };
    let id = test_identity();
    let stored = |store_result: homeostat_memory::store::Submitted| match store_result {
        homeostat_memory::store::Submitted::Stored { id } => id,
        other => panic!("{other:?}"),
    };
    match &backend.spec {
        StoreSpec::Sqlite(path) => {
            let store = SqliteStore::open(path).await.unwrap();
            for (version, bench) in [("0.0.9", id.bench()), (id.version(), 1)] {
                let row = stored(store.submit(&entry(version, bench)).await.unwrap());
                store.set_status(row, Status::Verified, None).await.unwrap();
            }
        }
        StoreSpec::Postgres(url) => {
            let store = PostgresStore::open(url).await.unwrap();
            for (version, bench) in [("0.0.9", id.bench()), (id.version(), 1)] {
                let row = stored(store.submit(&entry(version, bench)).await.unwrap());
                store.set_status(row, Status::Verified, None).await.unwrap();
            }
        }
    }
    let server = serve(&backend, test_settings()).await;
    let mut client = Client::new(server.addr);
    assert_eq!(lookup(&mut client, START, 1).await.status, 404);
    server.stop().await;
}

/// Bad requests get a clear JSON error; CORS answers any origin, preflight included.
async fn bad_requests_get_clear_errors_and_cors_is_open(backend: Backend) {
    let server = serve(&backend, test_settings()).await;
    let mut client = Client::new(server.addr);
    for (path, status) in [
        ("/v1/memory", 400),
        ("/v1/memory?depth=3", 400),
        ("/v1/memory?fen=garbage", 422),
        ("/v1/memory?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-&depth=100", 422),
        ("/v1/memory?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-&depth=-1", 422),
        ("/v1/nothing", 404),
    ] {
        let reply = client.get(path).await.unwrap();
        assert_eq!(reply.status, status, "{path}");
        assert!(reply.json()["error"].is_string(), "{path}: {:?}", String::from_utf8_lossy(&reply.body));
    }
    let reply = client.request("DELETE", "/v1/memory", &[], b"").await.unwrap();
    assert_eq!(reply.status, 405);
    assert!(reply.json()["error"].is_string());

    let preflight = client
        .request(
            "OPTIONS",
            "/v1/memory",
            &[
                ("Origin", "https://players.example"),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
            b"",
        )
        .await
        .unwrap();
    assert!(preflight.status < 300, "{}", preflight.status);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(preflight.header("access-control-allow-methods").unwrap().contains("POST"));
    assert!(preflight.header("access-control-allow-headers").unwrap().contains("content-type"));
    assert_eq!(preflight.header("access-control-allow-credentials"), None);
    let reply = client.request("GET", "/healthz", &[("Origin", "https://players.example")], b"").await.unwrap();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let metrics = client.get("/metrics").await.unwrap();
    assert!(metrics.header("content-type").unwrap().starts_with("text/plain"));
    assert!(String::from_utf8(metrics.body).unwrap().contains("# TYPE homeostat_memory_lookups_total counter"));
    server.stop().await;
}

/// Submissions are limited per client token and per address; lookups per address.
async fn rate_limits_apply_per_client_and_per_address(backend: Backend) {
    let settings = homeostat_memory::Settings {
        lookup_rate: Rate { per_minute: 1.0, burst: 5.0 },
        submit_rate_client: Rate { per_minute: 1.0, burst: 2.0 },
        submit_rate_addr: Rate { per_minute: 1.0, burst: 3.0 },
        ..test_settings()
    };
    let server = serve(&backend, settings).await;
    let mut client = Client::new(server.addr);
    let bad = json!({"fen": START, "depth": 1, "move": "e2e5", "score": {"cp": 0}, "pv": ["e2e5"], "nodes": 20,
        "engine": test_identity().name(), "client": "token-aaaaaaaa"});
    let statuses = |replies: &[Reply]| replies.iter().map(|r| r.status).collect::<Vec<_>>();
    let mut replies = Vec::new();
    for _ in 0..3 {
        replies.push(submit_from(&mut client, &body(&bad), "10.1.0.1").await);
    }
    assert_eq!(statuses(&replies), [422, 422, 429], "the client's burst is 2");
    let other = with(&bad, "client", json!("token-bbbbbbbb"));
    let reply = submit_from(&mut client, &body(&other), "10.1.0.1").await;
    assert_eq!(reply.status, 429, "the address's burst of 3 is used up");
    assert_eq!(reply.json()["reason"], "rate_limited");
    assert_eq!(submit_from(&mut client, &body(&other), "10.2.0.1").await.status, 422, "another address may");

    let mut lookups = Vec::new();
    for _ in 0..6 {
        lookups.push(
            client
                .request(
                    "GET",
                    &format!("/v1/memory?fen={}", homeostat_memory::client::encode(START)),
                    &[("X-Forwarded-For", "10.3.0.1")],
                    b"",
                )
                .await
                .unwrap(),
        );
    }
    assert_eq!(statuses(&lookups), [404, 404, 404, 404, 404, 429]);
    let stats = client.get("/v1/stats").await.unwrap().json();
    assert_eq!(stats["rejections"]["rate_limited"], 3, "{stats}");
    server.stop().await;
}

/// What the queue cannot check in time waits, unserved, and is served once checked.
async fn unverified_entries_wait_unserved(backend: Backend) {
    let mut settings = test_settings();
    settings.verify_wait = Duration::ZERO;
    settings.verify.queue = 1;
    settings.verify.nodes = 300_000;
    let server = serve(&backend, settings).await;
    let mut client = Client::new(server.addr);
    let id = test_identity();
    let fens = [
        START,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    ];
    let mut served_at_once = 0;
    for (i, fen) in fens.iter().enumerate() {
        let sub = engine_submission(fen, 3, &format!("queue-client-{i}"), &id);
        let reply = submit_from(&mut client, &body(&sub), "10.4.0.1").await;
        assert_eq!((reply.status, reply.json()["verified"].clone()), (201, json!(false)), "{}", reply.json());
        if lookup(&mut client, fen, 1).await.status == 200 {
            served_at_once += 1;
        }
    }
    assert!(served_at_once < fens.len(), "a slow check leaves entries unserved");
    let deadline = Instant::now() + Duration::from_secs(120);
    for fen in fens {
        loop {
            let reply = lookup(&mut client, fen, 1).await;
            if reply.status == 200 {
                assert_eq!(reply.json()["verified"], true);
                break;
            }
            assert!(Instant::now() < deadline, "{fen} never verified");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    server.stop().await;
}

macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Backend::sqlite()).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(backend) = super::Backend::postgres().await {
                        super::$name(backend).await
                    }
                }
            )*
        }
    };
}

suite!(
    poisoning_is_refused_and_never_served,
    a_verified_move_is_served_with_its_confirmations,
    only_the_same_engine_is_served,
    bad_requests_get_clear_errors_and_cors_is_open,
    rate_limits_apply_per_client_and_per_address,
    unverified_entries_wait_unserved,
);

/// A connection that never finishes its headers is closed after the header deadline, and while the
/// only connection slot is held by such a sender, the next client is served once it is cut off.
/// (The connection handling does not depend on the store, so this runs on SQLite only.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_senders_are_cut_off() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let backend = Backend::sqlite();
    let settings = homeostat_memory::Settings {
        header_timeout: Duration::from_millis(300),
        max_connections: 1,
        ..test_settings()
    };
    let server = serve(&backend, settings).await;
    let mut slow = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: memory\r\n").await.unwrap();
    let started = Instant::now();
    let mut client = Client::new(server.addr);
    let reply = client.get("/healthz").await.unwrap();
    assert_eq!(reply.status, 200, "served once the slot was freed");
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the slow sender's connection was closed");
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(5), "cut off after {waited:?}");
    assert!(!String::from_utf8_lossy(&rest).contains("200 OK"), "the unfinished request was not answered: {rest:?}");
    server.stop().await;
}
