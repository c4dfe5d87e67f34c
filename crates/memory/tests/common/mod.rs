//! What the service tests share: a fresh store of either kind, a server on a free port, and
//! submissions made by the real engine.
#![allow(dead_code)]

use homeostat_chess::Board;
use homeostat_engine::{Engine, Limits, Silent};
use homeostat_memory::client::{encode, Client, Reply};
use homeostat_memory::ratelimit::Rate;
use homeostat_memory::{start_spec, Identity, Running, Settings, StoreSpec};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// The PostgreSQL server the tests use, as `postgres://USER@HOST:PORT` (no database): set by
/// `tools/with-postgres.sh`. Without it the PostgreSQL tests are skipped, unless
/// `HOMEOSTAT_MEMORY_REQUIRE_POSTGRES` is set, when they fail.
pub const POSTGRES_VAR: &str = "HOMEOSTAT_MEMORY_POSTGRES";

/// A store for one test.
pub struct Backend {
    /// What `--store` would say.
    pub spec: StoreSpec,
    _dir: Option<TempDir>,
}

/// A folder removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn unique() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{}_{}_{nanos}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

impl Backend {
    /// A new SQLite file in a new temporary folder.
    pub fn sqlite() -> Backend {
        let dir = std::env::temp_dir().join(format!("homeostat-memory-test-{}", unique()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("memory.db").to_string_lossy().into_owned();
        Backend { spec: StoreSpec::Sqlite(path), _dir: Some(TempDir(dir)) }
    }

    /// A new database on the test PostgreSQL server, or `None` (skipped) when there is none.
    pub async fn postgres() -> Option<Backend> {
        let Ok(base) = std::env::var(POSTGRES_VAR) else {
            if std::env::var_os("HOMEOSTAT_MEMORY_REQUIRE_POSTGRES").is_some() {
                panic!("{POSTGRES_VAR} is not set: run the tests under tools/with-postgres.sh");
            }
            eprintln!("skipped: {POSTGRES_VAR} not set (tools/with-postgres.sh sets it)");
            return None;
        };
        let base = base.trim_end_matches('/').to_string();
        let name = format!("memtest_{}", unique());
        use sqlx::Connection;
        let mut admin = sqlx::PgConnection::connect(&format!("{base}/postgres")).await.expect("connect to PostgreSQL");
        sqlx::raw_sql(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.expect("create database");
        Some(Backend { spec: StoreSpec::Postgres(format!("{base}/{name}")), _dir: None })
    }
}

/// The identity in-process test servers use (the real one needs a `bench` run).
pub fn test_identity() -> Identity {
    Identity::new("0.1.0", 560_959)
}

/// Settings for tests: a quick spot-check whose verdict the submission waits for, no rate limits,
/// addresses from `X-Forwarded-For` so tests can play several clients.
pub fn test_settings() -> Settings {
    let off = Rate { per_minute: 0.0, burst: 0.0 };
    let mut settings = Settings {
        verify_wait: Duration::from_secs(30),
        lookup_rate: off,
        submit_rate_client: off,
        submit_rate_addr: off,
        trust_forwarded_for: true,
        ..Settings::default()
    };
    settings.verify.nodes = 20_000;
    settings
}

/// Starts a server on a free loopback port.
pub async fn serve(backend: &Backend, settings: Settings) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    start_spec(listener, &backend.spec, test_identity(), settings).await.unwrap()
}

/// The engine's own result for `fen` at `depth`, as a submission from `client`.
pub fn engine_submission(fen: &str, depth: u32, client: &str, identity: &Identity) -> Value {
    let board = Board::from_fen(fen).unwrap();
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let result = engine.search(&board, &[], &Limits::depth(depth), &|| 0.0, &stop, &mut Silent);
    let score = match result.score {
        homeostat_engine::Score::Cp(cp) => json!({ "cp": cp }),
        homeostat_engine::Score::Mate(n) => json!({ "mate": n }),
    };
    json!({
        "fen": fen,
        "depth": result.depth,
        "move": result.best.unwrap().to_string(),
        "score": score,
        "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "nodes": result.nodes,
        "engine": identity.name(),
        "client": client,
    })
}

/// `POST /v1/memory` as if from address `addr`.
pub async fn submit_from(client: &mut Client, body: &[u8], addr: &str) -> Reply {
    client
        .request("POST", "/v1/memory", &[("Content-Type", "application/json"), ("X-Forwarded-For", addr)], body)
        .await
        .unwrap()
}

/// `GET /v1/memory` for `fen` at `depth`.
pub async fn lookup(client: &mut Client, fen: &str, depth: u32) -> Reply {
    client.get(&format!("/v1/memory?fen={}&depth={depth}", encode(fen))).await.unwrap()
}
