//! The chess memory: an HTTP JSON service where players' engines store the moves they found and
//! look up the moves others found, served only once the server's own engine has spot-checked them.
//!
//! `api` (routes and replies), `validate` (every check that needs no search), `verify` (the
//! engine's spot-check and its queue), `store` (SQLite and PostgreSQL behind one interface),
//! `ratelimit`, `metrics`, `identity` (the engine build accepted), `client` (a small HTTP client
//! for the tests and the benchmark).
#![deny(missing_docs)]

pub mod api;
pub mod client;
pub mod identity;
pub mod metrics;
pub mod ratelimit;
pub mod store;
pub mod validate;
pub mod verify;

pub use api::{App, Settings};
pub use identity::Identity;
pub use store::{PostgresStore, SqliteStore, Store};

use std::net::SocketAddr;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// A running service: its address and a way to stop it.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Stops accepting, finishes requests in flight, saves the counters and returns.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// Serves `store` on `listener` until stopped.
pub async fn start<S: Store>(
    listener: TcpListener,
    store: S,
    identity: Identity,
    settings: Settings,
) -> Result<Running, String> {
    let addr = listener.local_addr().map_err(|e| format!("cannot read the listening address: {e}"))?;
    let app = App::new(store, identity, settings).await.map_err(|e| format!("cannot start on the store: {e}"))?;
    let (stop, mut stopped) = watch::channel(false);
    let router = api::router(app.clone());
    let task = tokio::spawn(async move {
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        let shutdown = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        if let Err(e) = axum::serve(listener, service).with_graceful_shutdown(shutdown).await {
            eprintln!("homeostat-memory: server error: {e}");
        }
        app.flush_counters().await;
    });
    Ok(Running { addr, stop, task })
}

/// What `--store` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreSpec {
    /// `sqlite:PATH`.
    Sqlite(String),
    /// `postgres://…` or `postgresql://…`.
    Postgres(String),
}

impl StoreSpec {
    /// Reads `sqlite:PATH`, `postgres://…` or `postgresql://…`.
    pub fn parse(text: &str) -> Result<StoreSpec, String> {
        if let Some(path) = text.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err("--store sqlite:PATH needs a file path".to_string());
            }
            Ok(StoreSpec::Sqlite(path.to_string()))
        } else if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(StoreSpec::Postgres(text.to_string()))
        } else {
            Err(format!("--store must be sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, not '{text}'"))
        }
    }
}

/// Opens the store `spec` names and serves it on `listener` until stopped.
pub async fn start_spec(
    listener: TcpListener,
    spec: &StoreSpec,
    identity: Identity,
    settings: Settings,
) -> Result<Running, String> {
    match spec {
        StoreSpec::Sqlite(path) => {
            let store = SqliteStore::open(path).await.map_err(|e| format!("cannot open SQLite store {path}: {e}"))?;
            start(listener, store, identity, settings).await
        }
        StoreSpec::Postgres(url) => {
            let store = PostgresStore::open(url).await.map_err(|e| format!("cannot open PostgreSQL store: {e}"))?;
            start(listener, store, identity, settings).await
        }
    }
}
