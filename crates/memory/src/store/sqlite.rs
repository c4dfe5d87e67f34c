//! The embedded store: one SQLite file in write-ahead-log mode, synced on every commit.

use super::StoreError;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;

/// A SQLite database file. Writes go through one connection (SQLite has one writer at a time);
/// reads through several, which WAL mode lets run beside the writer.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    read: SqlitePool,
    write: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite:{path}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before the client hears "stored", even if the machine loses power.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let write = SqlitePoolOptions::new().max_connections(1).connect_with(options.clone()).await?;
        super::migrate!(&write, "INTEGER PRIMARY KEY AUTOINCREMENT")?;
        let read = SqlitePoolOptions::new().max_connections(4).connect_with(options.read_only(true)).await?;
        Ok(SqliteStore { read, write })
    }
}

super::impl_store!(SqliteStore, SqliteRow);
