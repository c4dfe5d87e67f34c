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

use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

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
    let limits = ConnectionLimits { header_timeout: settings.header_timeout, max: settings.max_connections.max(1) };
    let app = App::new(store, identity, settings).await.map_err(|e| format!("cannot start on the store: {e}"))?;
    let (stop, stopped) = watch::channel(false);
    let router = api::router(app.clone());
    let task = tokio::spawn(async move {
        accept_loop(listener, router, limits, stopped).await;
        app.flush_counters().await;
    });
    Ok(Running { addr, stop, task })
}

/// Returns once the stop signal is set (or its sender is gone).
async fn until_stopped(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|s| *s).await;
}

/// What each connection is allowed.
#[derive(Clone, Copy)]
struct ConnectionLimits {
    header_timeout: Duration,
    max: usize,
}

/// Accepts connections until stopped, then lets requests in flight finish (for at most ten seconds).
/// Written out rather than `axum::serve` for what that lacks: a deadline on reading headers and a
/// cap on open connections.
async fn accept_loop(
    listener: TcpListener,
    router: axum::Router,
    limits: ConnectionLimits,
    mut stopped: watch::Receiver<bool>,
) {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max));
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            _ = until_stopped(&mut stopped) => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    eprintln!("homeostat-memory: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = until_stopped(&mut stopped) => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request)
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away or sends garbage ends only its own connection.
            let _ = connection.await;
            drop(slot);
        });
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
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
