//! The embedded store: one SQLite file in write-ahead-log mode, synced on every commit. SQLite
//! has one writer at a time and each commit waits for the disk, so submissions that arrive
//! together are written in one transaction (group commit) and each is answered after it.

use super::{NewEntry, StoreError, Submitted};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// A SQLite database file. Writes go through one connection (SQLite has one writer at a time);
/// reads through several, which WAL mode lets run beside the writer.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    read: SqlitePool,
    write: SqlitePool,
    batch: mpsc::Sender<Job>,
}

/// A submission waiting for the group commit, and where its result goes.
type Job = (NewEntry, oneshot::Sender<Result<Submitted, StoreError>>);

/// The most submissions one transaction writes.
const MAX_BATCH: usize = 64;

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
        let (batch, jobs) = mpsc::channel(1024);
        tokio::spawn(group_commit(write.clone(), jobs));
        Ok(SqliteStore { read, write, batch })
    }

    async fn submit_entry(&self, entry: &NewEntry) -> Result<Submitted, StoreError> {
        let (tell, hear) = oneshot::channel();
        self.batch.send((entry.clone(), tell)).await.map_err(|_| StoreError::PoolClosed)?;
        hear.await.map_err(|_| StoreError::PoolClosed)?
    }
}

/// Writes the submissions waiting, up to [`MAX_BATCH`], in one transaction, and answers each
/// only after the commit; ends when every handle on the store is gone.
async fn group_commit(write: SqlitePool, mut jobs: mpsc::Receiver<Job>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut results = Vec::with_capacity(batch.len());
        let committed = async {
            let mut tx = write.begin().await?;
            for (entry, _) in &batch {
                // Each in its own savepoint: one that fails is undone whole and fails alone.
                let mut one = sqlx::Connection::begin(&mut *tx).await?;
                let result = submit_in(&mut one, entry).await;
                if result.is_ok() {
                    one.commit().await?;
                } else {
                    one.rollback().await?;
                }
                results.push(result);
            }
            tx.commit().await
        }
        .await;
        match committed {
            Ok(()) => {
                for ((_, tell), result) in batch.into_iter().zip(results) {
                    let _ = tell.send(result);
                }
            }
            Err(e) => {
                let message = e.to_string();
                for (_, tell) in batch {
                    let _ = tell.send(Err(StoreError::Io(std::io::Error::other(format!("commit failed: {message}")))));
                }
            }
        }
    }
}

super::impl_store!(SqliteStore, SqliteRow, sqlx::SqliteConnection);
