//! The HTTP API: routes, request checks, rate limits and JSON replies.

use crate::identity::Identity;
use crate::metrics::Metrics;
use crate::ratelimit::{Rate, RateLimiter};
use crate::store::{Entry, NewEntry, Status, Store, Submitted};
use crate::validate::{self, Reason, Refusal, MAX_BODY_BYTES};
use crate::verify::{Verdict, Verifier, VerifyConfig};
use axum::body::Body;
use axum::extract::{ConnectInfo, Query, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tower_http::cors::{Any, CorsLayer};

/// How the service behaves, apart from where it listens and stores.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The spot-check.
    pub verify: VerifyConfig,
    /// How long a submission waits for its verdict before answering "pending".
    pub verify_wait: Duration,
    /// Lookups per address.
    pub lookup_rate: Rate,
    /// Submissions per client token.
    pub submit_rate_client: Rate,
    /// Submissions per address.
    pub submit_rate_addr: Rate,
    /// Take the client's address from the last `X-Forwarded-For` entry (behind a reverse proxy).
    pub trust_forwarded_for: bool,
    /// How long a connection may take to send a request's headers before it is closed (slow senders
    /// would otherwise hold connections open for ever).
    pub header_timeout: Duration,
    /// Connections served at once; further ones wait in the listen queue.
    pub max_connections: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            verify: VerifyConfig::default(),
            verify_wait: Duration::from_millis(500),
            lookup_rate: Rate { per_minute: 1200.0, burst: 200.0 },
            submit_rate_client: Rate { per_minute: 30.0, burst: 30.0 },
            submit_rate_addr: Rate { per_minute: 120.0, burst: 60.0 },
            trust_forwarded_for: false,
            header_timeout: Duration::from_secs(10),
            max_connections: 1024,
        }
    }
}

/// Everything a request handler needs.
pub struct App<S> {
    store: S,
    identity: Identity,
    metrics: Arc<Metrics>,
    verifier: Arc<Verifier>,
    salt: i64,
    settings: Settings,
    lookups_by_addr: RateLimiter<IpAddr>,
    submits_by_addr: RateLimiter<IpAddr>,
    submits_by_client: RateLimiter<String>,
    stats_cache: Mutex<Option<(Instant, Value)>>,
}

impl<S: Store> App<S> {
    /// The service over `store`: starts the verifier and the task that saves counters.
    pub async fn new(
        store: S,
        identity: Identity,
        settings: Settings,
    ) -> Result<Arc<App<S>>, crate::store::StoreError> {
        let metrics = Arc::new(Metrics::default());
        let salt = store.salt().await?;
        let verifier = Verifier::start(store.clone(), settings.verify.clone(), metrics.clone());
        let app = Arc::new(App {
            lookups_by_addr: RateLimiter::new(settings.lookup_rate),
            submits_by_addr: RateLimiter::new(settings.submit_rate_addr),
            submits_by_client: RateLimiter::new(settings.submit_rate_client),
            store,
            identity,
            metrics,
            verifier,
            salt,
            settings,
            stats_cache: Mutex::new(None),
        });
        let weak = Arc::downgrade(&app);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(2)).await;
                let Some(app) = weak.upgrade() else { return };
                app.flush_counters().await;
            }
        });
        Ok(app)
    }

    /// Saves the counters that grew since the last save.
    pub async fn flush_counters(&self) {
        let deltas = self.metrics.unflushed();
        if deltas.is_empty() {
            return;
        }
        match self.store.add_counters(&deltas).await {
            Ok(()) => self.metrics.mark_flushed(&deltas),
            Err(e) => eprintln!("homeostat-memory: cannot save counters: {e}"),
        }
    }

    /// The engine this service accepts and serves.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The client's network: its IPv4 address, or the /64 of its IPv6 address (one household or
    /// machine can hold a whole /64), for rate limits and confirmations.
    fn address(&self, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
        network(self.forwarded_or_peer(peer, headers))
    }

    fn forwarded_or_peer(&self, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
        if self.settings.trust_forwarded_for {
            let forwarded = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|part| part.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return ip;
            }
        }
        peer.ip()
    }

    /// A salted 64-bit hash of the network, kept instead of the address.
    fn address_hash(&self, network: IpAddr) -> i64 {
        let bytes: Vec<u8> = match network {
            IpAddr::V4(v4) => v4.octets().to_vec(),
            IpAddr::V6(v6) => v6.octets().to_vec(),
        };
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self.salt.to_le_bytes().iter().chain(&bytes) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash as i64
    }

    fn refuse(&self, refusal: Refusal) -> Response {
        self.metrics.reject(refusal.reason);
        let status = StatusCode::from_u16(refusal.reason.status()).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY);
        reply(status, json!({ "error": refusal.message, "reason": refusal.reason.name() }))
    }

    fn unavailable(&self, e: crate::store::StoreError) -> Response {
        self.metrics.store_errors.fetch_add(1, Ordering::Relaxed);
        eprintln!("homeostat-memory: storage error: {e}");
        reply(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "storage unavailable; try again later" }))
    }
}

/// An IPv4 address as it is (also when IPv4-mapped), an IPv6 address cut to its /64.
fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets[8..].fill(0);
                IpAddr::V6(octets.into())
            }
        },
    }
}

/// A JSON reply that no cache keeps.
fn reply(status: StatusCode, body: Value) -> Response {
    let mut response = (status, body.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The routes, with CORS open to any origin (no credentials: players are embedded on other sites).
pub fn router<S: Store>(app: Arc<App<S>>) -> Router {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(Duration::from_secs(86_400));
    Router::new()
        .route("/v1/memory", get(lookup::<S>).post(submit::<S>))
        .route("/v1/stats", get(stats::<S>))
        .route("/healthz", get(healthz::<S>))
        .route("/metrics", get(metrics::<S>))
        .fallback(|| async { reply(StatusCode::NOT_FOUND, json!({ "error": "no such endpoint; see /v1/memory" })) })
        .method_not_allowed_fallback(|| async {
            reply(StatusCode::METHOD_NOT_ALLOWED, json!({ "error": "method not allowed here" }))
        })
        .layer(cors)
        .with_state(app)
}

/// Query of `GET /v1/memory`.
#[derive(serde::Deserialize)]
struct LookupQuery {
    fen: Option<String>,
    depth: Option<String>,
}

fn entry_json(entry: &Entry, identity: &Identity) -> Value {
    let board = homeostat_chess::Board::from_fen(&entry.fen).ok();
    let san = board.and_then(|b| b.parse_uci(&entry.mv).ok().map(|m| b.san(m))).unwrap_or_default();
    let pv: Vec<&str> = entry.pv.split(' ').filter(|s| !s.is_empty()).collect();
    json!({
        "fen": entry.fen,
        "move": entry.mv,
        "san": san,
        "depth": entry.depth,
        "score": entry.score,
        "pv": pv,
        "nodes": entry.nodes,
        "engine": identity.name(),
        "confirmations": entry.confirmations,
        "verified": entry.status == Status::Verified,
    })
}

async fn lookup<S: Store>(
    State(app): State<Arc<App<S>>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    query: Result<Query<LookupQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let start = Instant::now();
    let response = lookup_inner(&app, peer, &headers, query).await;
    app.metrics.lookup_latency.observe(start.elapsed());
    response
}

async fn lookup_inner<S: Store>(
    app: &App<S>,
    peer: SocketAddr,
    headers: &HeaderMap,
    query: Result<Query<LookupQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    if !app.lookups_by_addr.allow(&app.address(peer, headers)) {
        return app.refuse(Refusal::new(Reason::RateLimited, "too many lookups from this address; slow down"));
    }
    let Ok(Query(query)) = query else {
        return app.refuse(Refusal::new(Reason::Unreadable, "query must be ?fen=FEN&depth=D"));
    };
    let Some(fen) = query.fen else {
        return app.refuse(Refusal::new(Reason::Unreadable, "missing fen: use ?fen=FEN&depth=D"));
    };
    let depth = match query.depth.as_deref().map(str::parse::<u32>) {
        None => 1,
        Some(Ok(d)) if validate::DEPTHS.contains(&d) => d,
        Some(_) => {
            return app.refuse(Refusal::new(
                Reason::BadDepth,
                format!("depth must be a whole number from {} to {}", validate::DEPTHS.start(), validate::DEPTHS.end()),
            ))
        }
    };
    let key = match validate::read_position(&fen) {
        Ok((_, key)) => key,
        Err(refusal) => return app.refuse(refusal),
    };
    match app.store.lookup(&key, app.identity.version(), app.identity.bench(), depth).await {
        Ok(Some(entry)) => {
            app.metrics.hits.fetch_add(1, Ordering::Relaxed);
            reply(StatusCode::OK, entry_json(&entry, &app.identity))
        }
        Ok(None) => {
            app.metrics.misses.fetch_add(1, Ordering::Relaxed);
            reply(StatusCode::NOT_FOUND, json!({ "error": format!("no verified entry at depth {depth} or more") }))
        }
        Err(e) => app.unavailable(e),
    }
}

async fn submit<S: Store>(
    State(app): State<Arc<App<S>>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let start = Instant::now();
    let response = submit_inner(&app, peer, &headers, body).await;
    app.metrics.submit_latency.observe(start.elapsed());
    response
}

async fn submit_inner<S: Store>(app: &App<S>, peer: SocketAddr, headers: &HeaderMap, body: Body) -> Response {
    let ip = app.address(peer, headers);
    if !app.submits_by_addr.allow(&ip) {
        return app.refuse(Refusal::new(Reason::RateLimited, "too many submissions from this address; slow down"));
    }
    if let Some(length) = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok()) {
        if length > MAX_BODY_BYTES as u64 {
            return app.refuse(Refusal::new(Reason::TooLarge, format!("body larger than {MAX_BODY_BYTES} bytes")));
        }
    }
    let bytes = match tokio::time::timeout(Duration::from_secs(10), axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return app.refuse(Refusal::new(Reason::TooLarge, format!("body larger than {MAX_BODY_BYTES} bytes")))
        }
        Err(_) => return app.refuse(Refusal::new(Reason::Unreadable, "body not received within 10 s")),
    };
    let submission = match validate::parse_body(&bytes) {
        Ok(submission) => submission,
        Err(refusal) => return app.refuse(refusal),
    };
    if let Err(refusal) = validate::check_client(&submission.client) {
        return app.refuse(refusal);
    }
    if !app.submits_by_client.allow(&submission.client) {
        return app.refuse(Refusal::new(Reason::RateLimited, "too many submissions from this client; slow down"));
    }
    let checked = match validate::check(&submission, &app.identity) {
        Ok(checked) => checked,
        Err(refusal) => return app.refuse(refusal),
    };
    let new = NewEntry {
        key: checked.key.clone(),
        version: app.identity.version().to_string(),
        bench: app.identity.bench(),
        depth: checked.depth,
        mv: checked.mv.to_string(),
        score: checked.score,
        pv: checked.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "),
        nodes: checked.nodes,
        client: checked.client.clone(),
        addr: app.address_hash(ip),
    };
    match app.store.submit(&new).await {
        Ok(Submitted::Stored { id }) => {
            app.metrics.stored.fetch_add(1, Ordering::Relaxed);
            let entry = Entry {
                id,
                fen: new.key.fen.clone(),
                depth: new.depth,
                mv: new.mv.clone(),
                score: new.score,
                pv: new.pv.clone(),
                nodes: new.nodes,
                confirmations: 1,
                status: Status::Pending,
                reason: None,
            };
            let verdict = match app.verifier.enqueue(entry) {
                Some(hear) => tokio::time::timeout(app.settings.verify_wait, hear).await.ok().and_then(Result::ok),
                None => None,
            };
            match verdict {
                Some(Verdict::Refused(why)) => {
                    // The worker counted the refusal when it recorded it.
                    reply(StatusCode::UNPROCESSABLE_ENTITY, json!({ "error": why, "reason": Reason::Refuted.name() }))
                }
                Some(Verdict::Verified) => {
                    reply(StatusCode::CREATED, json!({ "result": "stored", "verified": true, "confirmations": 1 }))
                }
                None => {
                    reply(StatusCode::CREATED, json!({ "result": "stored", "verified": false, "confirmations": 1 }))
                }
            }
        }
        Ok(Submitted::Agreed { status: Status::Refused, reason, .. }) => app.refuse(Refusal::new(
            Reason::Refuted,
            reason.unwrap_or_else(|| "this move was refused by the server's own search".to_string()),
        )),
        Ok(Submitted::Agreed { status, counted, .. }) => {
            app.metrics.agreed.fetch_add(1, Ordering::Relaxed);
            reply(
                StatusCode::OK,
                json!({ "result": "agreed", "verified": status == Status::Verified, "counted": counted }),
            )
        }
        Err(e) => app.unavailable(e),
    }
}

async fn stats<S: Store>(State(app): State<Arc<App<S>>>) -> Response {
    if let Some((at, value)) = app.stats_cache.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        if at.elapsed() < Duration::from_millis(500) {
            return reply(StatusCode::OK, value.clone());
        }
    }
    let stored = match app.store.stats(app.identity.version(), app.identity.bench()).await {
        Ok(stats) => stats,
        Err(e) => return app.unavailable(e),
    };
    let unflushed = app.metrics.unflushed();
    let total = |name: &str| -> i64 {
        stored.counters.iter().filter(|(n, _)| n == name).map(|(_, v)| *v).sum::<i64>()
            + unflushed.iter().filter(|(n, _)| n == name).map(|(_, v)| *v).sum::<i64>()
    };
    let mut rejections = serde_json::Map::new();
    for reason in Reason::ALL {
        rejections.insert(reason.name().to_string(), json!(total(&format!("rejected_{}", reason.name()))));
    }
    let value = json!({
        "engine": app.identity.name(),
        "positions": stored.positions,
        "entries": { "verified": stored.verified, "pending": stored.pending, "refused": stored.refused },
        "submissions": { "stored": total("submissions_stored"), "agreed": total("submissions_agreed") },
        "lookups": { "hit": total("lookups_hit"), "miss": total("lookups_miss") },
        "rejections": rejections,
    });
    *app.stats_cache.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), value.clone()));
    reply(StatusCode::OK, value)
}

async fn healthz<S: Store>(State(app): State<Arc<App<S>>>) -> Response {
    let probe = validate::position_key(&homeostat_chess::Board::startpos());
    match app.store.lookup(&probe, app.identity.version(), app.identity.bench(), 99).await {
        Ok(_) => reply(StatusCode::OK, json!({ "status": "ok", "engine": app.identity.name() })),
        Err(e) => app.unavailable(e),
    }
}

async fn metrics<S: Store>(State(app): State<Arc<App<S>>>, RawQuery(_): RawQuery) -> Response {
    let mut response = app.metrics.prometheus(None).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    response
}
