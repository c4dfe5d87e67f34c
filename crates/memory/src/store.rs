//! Storage: one interface, [`Store`], with two implementations that run the same SQL and the same
//! migrations: [`SqliteStore`] (embedded, the default) and [`PostgresStore`] (for more than one
//! server process or machine).
//!
//! An entry is one move for one position at one depth from one engine build. It is written once, in
//! a transaction with its first confirmation, and starts pending: only the verifier moves it to
//! verified (served) or refused (never served).

use crate::validate::{PositionKey, Score};
use std::future::Future;
use std::time::{SystemTime, UNIX_EPOCH};

mod postgres;
mod sqlite;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// A storage error (connection, I/O, corruption), reported to clients as 503.
pub type StoreError = sqlx::Error;

/// Where an entry stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Stored, not yet checked by the server's own engine: not served.
    Pending,
    /// Checked and served.
    Verified,
    /// Checked and refused: never served.
    Refused,
}

impl Status {
    fn code(self) -> i64 {
        match self {
            Status::Pending => 0,
            Status::Verified => 1,
            Status::Refused => 2,
        }
    }

    fn from_code(code: i64) -> Status {
        match code {
            1 => Status::Verified,
            2 => Status::Refused,
            _ => Status::Pending,
        }
    }
}

/// A checked submission to write.
#[derive(Clone, Debug)]
pub struct NewEntry {
    /// The position.
    pub key: PositionKey,
    /// Engine version.
    pub version: String,
    /// Engine `bench` count.
    pub bench: u64,
    /// Depth 1–99.
    pub depth: u32,
    /// UCI move.
    pub mv: String,
    /// Claimed score.
    pub score: Score,
    /// UCI moves separated by spaces.
    pub pv: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Client token.
    pub client: String,
    /// Salted hash of the client's network address.
    pub addr: i64,
}

/// What a submission did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Submitted {
    /// A new entry, pending verification.
    Stored {
        /// Its id.
        id: i64,
    },
    /// The same move for the same position, depth and engine was there already.
    Agreed {
        /// The existing entry's id.
        id: i64,
        /// Its status.
        status: Status,
        /// Why it was refused, if it was.
        reason: Option<String>,
        /// Whether this client (and address) counted as a new confirmation.
        counted: bool,
    },
}

/// An entry as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its id.
    pub id: i64,
    /// The first four FEN fields.
    pub fen: String,
    /// Depth.
    pub depth: u32,
    /// UCI move.
    pub mv: String,
    /// Claimed score.
    pub score: Score,
    /// UCI moves separated by spaces.
    pub pv: String,
    /// Nodes.
    pub nodes: u64,
    /// Independent clients that submitted it.
    pub confirmations: u64,
    /// Where it stands.
    pub status: Status,
    /// Why it was refused, if it was.
    pub reason: Option<String>,
}

/// Counts for `GET /v1/stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Positions with at least one served entry for the engine.
    pub positions: u64,
    /// Served entries for the engine.
    pub verified: u64,
    /// Entries waiting for verification (any engine).
    pub pending: u64,
    /// Entries refused by verification (any engine).
    pub refused: u64,
    /// Persistent counters (submissions, rejections by reason), summed over all server processes.
    pub counters: Vec<(String, i64)>,
}

/// The storage interface the service runs on.
pub trait Store: Clone + Send + Sync + 'static {
    /// Writes `entry` with its first confirmation, or adds a confirmation to the same entry.
    fn submit(&self, entry: &NewEntry) -> impl Future<Output = Result<Submitted, StoreError>> + Send;
    /// The deepest verified entry of depth ≥ `min_depth` for the position and engine.
    fn lookup(
        &self,
        key: &PositionKey,
        version: &str,
        bench: u64,
        min_depth: u32,
    ) -> impl Future<Output = Result<Option<Entry>, StoreError>> + Send;
    /// The entry for exactly this position, engine, depth and move, whatever its status.
    fn find(
        &self,
        key: &PositionKey,
        version: &str,
        bench: u64,
        depth: u32,
        mv: &str,
    ) -> impl Future<Output = Result<Option<Entry>, StoreError>> + Send;
    /// Up to `limit` pending entries with ids above `after`, oldest first.
    fn pending(&self, after: i64, limit: u32) -> impl Future<Output = Result<Vec<Entry>, StoreError>> + Send;
    /// Records the verifier's verdict on an entry still pending; false if it no longer was (another
    /// worker or server judged it first).
    fn set_status(
        &self,
        id: i64,
        status: Status,
        reason: Option<&str>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Adds to the persistent counters.
    fn add_counters(&self, deltas: &[(String, i64)]) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Counts for the statistics.
    fn stats(&self, version: &str, bench: u64) -> impl Future<Output = Result<StoreStats, StoreError>> + Send;
    /// The store's random salt for hashing addresses (made once, kept in the store).
    fn salt(&self) -> impl Future<Output = Result<i64, StoreError>> + Send;
}

/// The schema, in order; each step runs once, in a transaction. `{id}` is the dialect's
/// auto-numbered 64-bit primary key; everything else is the same SQL on both.
pub const MIGRATIONS: &[&str] = &["CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE entries (
         id {id},
         zobrist BIGINT NOT NULL,
         fen TEXT NOT NULL,
         version TEXT NOT NULL,
         bench BIGINT NOT NULL,
         depth BIGINT NOT NULL,
         move TEXT NOT NULL,
         score_kind TEXT NOT NULL CHECK (score_kind IN ('cp', 'mate')),
         score BIGINT NOT NULL,
         pv TEXT NOT NULL,
         nodes BIGINT NOT NULL,
         status BIGINT NOT NULL DEFAULT 0,
         reason TEXT,
         confirmations BIGINT NOT NULL DEFAULT 1,
         created_ms BIGINT NOT NULL,
         UNIQUE (zobrist, fen, version, bench, depth, move)
     );
     CREATE INDEX entries_lookup ON entries (zobrist, version, bench, status, depth);
     CREATE INDEX entries_pending ON entries (status, id);
     CREATE TABLE confirmations (
         entry BIGINT NOT NULL REFERENCES entries (id),
         client TEXT NOT NULL,
         addr BIGINT NOT NULL,
         PRIMARY KEY (entry, client)
     );
     CREATE UNIQUE INDEX confirmations_addr ON confirmations (entry, addr);
     CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);"];

/// Milliseconds since 1970.
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A fresh random number for the salt, from the standard library's randomly keyed hasher.
fn random_i64() -> i64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_i64(now_ms());
    hasher.write_u32(std::process::id());
    hasher.finish() as i64
}

fn score_columns(score: Score) -> (&'static str, i64) {
    match score {
        Score::Cp(cp) => ("cp", i64::from(cp)),
        Score::Mate(n) => ("mate", i64::from(n)),
    }
}

fn score_from_columns(kind: &str, value: i64) -> Score {
    let value = value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    if kind == "mate" {
        Score::Mate(value)
    } else {
        Score::Cp(value)
    }
}

/// The columns every query that returns entries selects, in [`Entry`] order.
const ENTRY_COLUMNS: &str = "id, fen, depth, move, score_kind, score, pv, nodes, confirmations, status, reason";

/// Implements [`Store`] for a store type with `read` and `write` pools of one sqlx database: the
/// same statements for SQLite and PostgreSQL (both take `$n` parameters and `ON CONFLICT`). The store
/// provides `submit_entry`, which runs `submit_in` in transactions its own way.
macro_rules! impl_store {
    ($store:ty, $row:ty, $conn:ty) => {
        impl $crate::store::Store for $store {
            async fn submit(&self, e: &$crate::store::NewEntry) -> Result<$crate::store::Submitted, $crate::store::StoreError> {
                self.submit_entry(e).await
            }

            async fn lookup(
                &self,
                key: &$crate::validate::PositionKey,
                version: &str,
                bench: u64,
                min_depth: u32,
            ) -> Result<Option<$crate::store::Entry>, $crate::store::StoreError> {
                let sql = const_format_lookup();
                let row = sqlx::query(sql)
                    .bind(key.zobrist)
                    .bind(&key.fen)
                    .bind(version)
                    .bind(bench as i64)
                    .bind(i64::from(min_depth))
                    .fetch_optional(&self.read)
                    .await?;
                row.map(|r| entry_from_row(&r)).transpose()
            }

            async fn find(
                &self,
                key: &$crate::validate::PositionKey,
                version: &str,
                bench: u64,
                depth: u32,
                mv: &str,
            ) -> Result<Option<$crate::store::Entry>, $crate::store::StoreError> {
                let sql = format!(
                    "SELECT {} FROM entries WHERE zobrist = $1 AND fen = $2 AND version = $3 AND bench = $4 \
                     AND depth = $5 AND move = $6",
                    $crate::store::ENTRY_COLUMNS
                );
                let row = sqlx::query(&sql)
                    .bind(key.zobrist)
                    .bind(&key.fen)
                    .bind(version)
                    .bind(bench as i64)
                    .bind(i64::from(depth))
                    .bind(mv)
                    .fetch_optional(&self.read)
                    .await?;
                row.map(|r| entry_from_row(&r)).transpose()
            }

            async fn pending(&self, after: i64, limit: u32) -> Result<Vec<$crate::store::Entry>, $crate::store::StoreError> {
                let sql = format!(
                    "SELECT {} FROM entries WHERE status = 0 AND id > $1 ORDER BY id LIMIT $2",
                    $crate::store::ENTRY_COLUMNS
                );
                let rows = sqlx::query(&sql).bind(after).bind(i64::from(limit)).fetch_all(&self.read).await?;
                rows.iter().map(entry_from_row).collect()
            }

            async fn set_status(
                &self,
                id: i64,
                status: $crate::store::Status,
                reason: Option<&str>,
            ) -> Result<bool, $crate::store::StoreError> {
                let done = sqlx::query("UPDATE entries SET status = $2, reason = $3 WHERE id = $1 AND status = 0")
                    .bind(id)
                    .bind(status.code())
                    .bind(reason)
                    .execute(&self.write)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn add_counters(&self, deltas: &[(String, i64)]) -> Result<(), $crate::store::StoreError> {
                if deltas.is_empty() {
                    return Ok(());
                }
                let mut tx = self.write.begin().await?;
                for (name, delta) in deltas {
                    sqlx::query(
                        "INSERT INTO counters (name, value) VALUES ($1, $2) \
                         ON CONFLICT (name) DO UPDATE SET value = counters.value + excluded.value",
                    )
                    .bind(name)
                    .bind(*delta)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await
            }

            async fn stats(&self, version: &str, bench: u64) -> Result<$crate::store::StoreStats, $crate::store::StoreError> {
                use sqlx::Row;
                let served = sqlx::query(
                    "SELECT COUNT(*), COUNT(DISTINCT zobrist) FROM entries WHERE version = $1 AND bench = $2 AND status = 1",
                )
                .bind(version)
                .bind(bench as i64)
                .fetch_one(&self.read)
                .await?;
                let mut stats = $crate::store::StoreStats {
                    verified: served.try_get::<i64, _>(0)?.max(0) as u64,
                    positions: served.try_get::<i64, _>(1)?.max(0) as u64,
                    ..Default::default()
                };
                let by_status = sqlx::query("SELECT status, COUNT(*) FROM entries WHERE status <> 1 GROUP BY status")
                    .fetch_all(&self.read)
                    .await?;
                for row in by_status {
                    let count = row.try_get::<i64, _>(1)?.max(0) as u64;
                    match $crate::store::Status::from_code(row.try_get(0)?) {
                        $crate::store::Status::Pending => stats.pending = count,
                        $crate::store::Status::Refused => stats.refused = count,
                        $crate::store::Status::Verified => {}
                    }
                }
                let counters = sqlx::query("SELECT name, value FROM counters ORDER BY name").fetch_all(&self.read).await?;
                for row in counters {
                    stats.counters.push((row.try_get(0)?, row.try_get(1)?));
                }
                Ok(stats)
            }

            async fn salt(&self) -> Result<i64, $crate::store::StoreError> {
                use sqlx::Row;
                sqlx::query("INSERT INTO meta (name, value) VALUES ('salt', $1) ON CONFLICT DO NOTHING")
                    .bind($crate::store::random_i64().to_string())
                    .execute(&self.write)
                    .await?;
                let row = sqlx::query("SELECT value FROM meta WHERE name = 'salt'").fetch_one(&self.read).await?;
                let text: String = row.try_get(0)?;
                Ok(text.parse().unwrap_or(0))
            }
        }

        /// Writes one submission inside the caller's transaction `tx` (the caller commits).
        async fn submit_in(tx: &mut $conn, e: &$crate::store::NewEntry) -> Result<$crate::store::Submitted, $crate::store::StoreError> {
            use sqlx::Row;
            let (kind, score) = $crate::store::score_columns(e.score);
            let inserted = sqlx::query(
                "INSERT INTO entries (zobrist, fen, version, bench, depth, move, score_kind, score, pv, nodes, \
                 created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING id",
            )
            .bind(e.key.zobrist)
            .bind(&e.key.fen)
            .bind(&e.version)
            .bind(e.bench as i64)
            .bind(i64::from(e.depth))
            .bind(&e.mv)
            .bind(kind)
            .bind(score)
            .bind(&e.pv)
            .bind(e.nodes as i64)
            .bind($crate::store::now_ms())
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = inserted {
                let id: i64 = row.try_get(0)?;
                sqlx::query("INSERT INTO confirmations (entry, client, addr) VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind(&e.client)
                    .bind(e.addr)
                    .execute(&mut *tx)
                    .await?;
                return Ok($crate::store::Submitted::Stored { id });
            }
            let row = sqlx::query(
                "SELECT id, status, reason FROM entries WHERE zobrist = $1 AND fen = $2 AND version = $3 \
                 AND bench = $4 AND depth = $5 AND move = $6",
            )
            .bind(e.key.zobrist)
            .bind(&e.key.fen)
            .bind(&e.version)
            .bind(e.bench as i64)
            .bind(i64::from(e.depth))
            .bind(&e.mv)
            .fetch_one(&mut *tx)
            .await?;
            let id: i64 = row.try_get(0)?;
            let status = $crate::store::Status::from_code(row.try_get(1)?);
            let reason: Option<String> = row.try_get(2)?;
            let counted = sqlx::query(
                "INSERT INTO confirmations (entry, client, addr) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(&e.client)
            .bind(e.addr)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if counted {
                sqlx::query("UPDATE entries SET confirmations = confirmations + 1 WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            Ok($crate::store::Submitted::Agreed { id, status, reason, counted })
        }

        fn const_format_lookup() -> &'static str {
            static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
            SQL.get_or_init(|| {
                format!(
                    "SELECT {} FROM entries WHERE zobrist = $1 AND fen = $2 AND version = $3 AND bench = $4 \
                     AND status = 1 AND depth >= $5 ORDER BY depth DESC, confirmations DESC, id LIMIT 1",
                    $crate::store::ENTRY_COLUMNS
                )
            })
        }

        fn entry_from_row(row: &$row) -> Result<$crate::store::Entry, $crate::store::StoreError> {
            use sqlx::Row;
            let kind: String = row.try_get(4)?;
            Ok($crate::store::Entry {
                id: row.try_get(0)?,
                fen: row.try_get(1)?,
                depth: row.try_get::<i64, _>(2)?.clamp(0, i64::from(u32::MAX)) as u32,
                mv: row.try_get(3)?,
                score: $crate::store::score_from_columns(&kind, row.try_get(5)?),
                pv: row.try_get(6)?,
                nodes: row.try_get::<i64, _>(7)?.max(0) as u64,
                confirmations: row.try_get::<i64, _>(8)?.max(0) as u64,
                status: $crate::store::Status::from_code(row.try_get(9)?),
                reason: row.try_get(10)?,
            })
        }
    };
}

pub(crate) use impl_store;

/// Runs the migrations not yet applied, each in its own transaction, recording them in
/// `schema_migrations`. `id_type` is the dialect's auto-numbered primary key.
macro_rules! migrate {
    ($pool:expr, $id_type:expr) => {{
        use sqlx::Row;
        sqlx::raw_sql(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)",
        )
        .execute($pool)
        .await?;
        for (i, step) in $crate::store::MIGRATIONS.iter().enumerate() {
            let version = i as i64 + 1;
            let mut tx = $pool.begin().await?;
            let done = sqlx::query("SELECT COUNT(*) FROM schema_migrations WHERE version = $1")
                .bind(version)
                .fetch_one(&mut *tx)
                .await?
                .try_get::<i64, _>(0)?;
            if done == 0 {
                sqlx::raw_sql(&step.replace("{id}", $id_type)).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO schema_migrations (version, applied_ms) VALUES ($1, $2)")
                    .bind(version)
                    .bind($crate::store::now_ms())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        }
        Ok::<(), $crate::store::StoreError>(())
    }};
}

pub(crate) use migrate;
