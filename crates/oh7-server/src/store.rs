//! The append-only event log in SQLite (sqlx): WAL, `synchronous=FULL`, one writer that commits
//! the appends of many tables in one transaction when busy (group commit), and answers each
//! table only after its rows are durable.
//!
//! Checkpoints (copying the WAL back into the database file and fsyncing it) are not left to
//! SQLite's automatic checkpoint, which runs on the committing connection every 1,000 pages and
//! held the commit that triggered it, and every table waiting on the writer, for the length of
//! the database file's fsync. A checkpointer task on its own connection runs a `PASSIVE`
//! checkpoint every [`CHECKPOINT_EVERY`] (second), beside the writer; the frames committed while it ran
//! are copied by the writer between two commits (a few pages, one short fsync), after which the
//! next commit starts the WAL again from its beginning, so the WAL stays bounded.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Row as _, SqliteConnection, SqlitePool};
use tokio::sync::{mpsc, oneshot};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema migration failed.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The writer has stopped (shutting down).
    #[error("the database writer has stopped")]
    Closed,
    /// A stored row does not parse.
    #[error("stored row of table {table}: {why}")]
    Corrupt {
        /// The table.
        table: String,
        /// What is wrong.
        why: String,
    },
}

/// One row to write.
#[derive(Clone, Debug)]
pub enum Row {
    /// A new table.
    Table {
        /// Internal id.
        id: String,
        /// Invite code.
        join_code: String,
        /// Spectator code.
        watch_code: String,
        /// Settings (JSON).
        config: String,
        /// Creation time, Unix seconds.
        created_at: i64,
    },
    /// One event of a table's log.
    Event {
        /// The table.
        table_id: String,
        /// Its version.
        version: u64,
        /// The event (JSON).
        body: String,
    },
    /// Whether the table's game is over (finished tables are not restored at start).
    Finished {
        /// The table.
        table_id: String,
        /// Over or running again (rematch).
        finished: bool,
    },
}

struct Batch {
    rows: Vec<Row>,
    done: oneshot::Sender<Result<(), String>>,
}

/// A stored table: its settings and its log, in version order.
#[derive(Clone, Debug)]
pub struct StoredTable {
    /// Internal id.
    pub id: String,
    /// Invite code.
    pub join_code: String,
    /// Spectator code.
    pub watch_code: String,
    /// Settings (JSON).
    pub config: Value,
    /// `(version, event)` in order.
    pub events: Vec<(u64, Value)>,
}

/// The database: a read pool and the one writer.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
    tx: mpsc::Sender<Batch>,
}

/// Most batches one transaction takes.
const MAX_GROUP: usize = 4096;

impl Store {
    /// Open (creating if absent) the database at `path`, migrate it, and start the writer.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, CHECKPOINT_EVERY).await
    }

    /// [`Store::open`] with the checkpointer's period (tests use a short one).
    pub async fn open_with(path: &Path, checkpoint_every: Duration) -> Result<Store, StoreError> {
        let opts = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new().max_connections(2).connect_with(opts.clone()).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        // No automatic checkpoint on the writer: the checkpointer does it beside it.
        let opts = opts.pragma("wal_autocheckpoint", "0");
        let conn = SqliteConnection::connect_with(&opts).await?;
        let ckpt = SqliteConnection::connect_with(&opts).await?;
        let (tx, rx) = mpsc::channel(MAX_GROUP);
        let finish = Arc::new(AtomicBool::new(false));
        let (stopped, stop) = oneshot::channel();
        tokio::spawn(writer(conn, rx, wal_path(path), finish.clone(), stopped));
        tokio::spawn(checkpointer(ckpt, finish, stop, checkpoint_every));
        Ok(Store { pool, tx })
    }

    /// Append rows; returns once they are committed (durable), or the error.
    pub async fn append(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.tx.send(Batch { rows, done }).await.map_err(|_| StoreError::Closed)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(StoreError::Corrupt { table: String::new(), why: e }),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// The ids of the tables to restore at start (those whose game is not over).
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM tables WHERE finished = 0 ORDER BY created_at, id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }

    /// The table id behind an invite or spectator code.
    pub async fn find_code(&self, code: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM tables WHERE join_code = ?1 OR watch_code = ?1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get::<String, _>(0)))
    }

    /// Load one table and its whole log.
    pub async fn load(&self, id: &str) -> Result<StoredTable, StoreError> {
        let corrupt = |why: String| StoreError::Corrupt { table: id.to_string(), why };
        let t = sqlx::query("SELECT join_code, watch_code, config FROM tables WHERE id = ?1")
            .bind(id)
            .fetch_one(&self.pool)
            .await?;
        let config: Value = serde_json::from_str(&t.get::<String, _>(2)).map_err(|e| corrupt(e.to_string()))?;
        let rows = sqlx::query("SELECT version, body FROM events WHERE table_id = ?1 ORDER BY version")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut events = Vec::with_capacity(rows.len());
        for r in rows {
            let v: i64 = r.get(0);
            let body: Value = serde_json::from_str(&r.get::<String, _>(1)).map_err(|e| corrupt(e.to_string()))?;
            events.push((v as u64, body));
        }
        Ok(StoredTable { id: id.to_string(), join_code: t.get(0), watch_code: t.get(1), config, events })
    }

    /// Stop accepting writes and close the database once every queued write is committed.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// The write-ahead log next to the database.
fn wal_path(db: &Path) -> std::path::PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push("-wal");
    p.into()
}

/// How often the checkpointer copies the WAL back into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(1000);

/// Copies the WAL into the database beside the writer (`PASSIVE`: it never blocks a commit), then
/// asks the writer to copy what was committed meanwhile. Stops when the writer stops.
async fn checkpointer(
    mut conn: SqliteConnection,
    finish: Arc<AtomicBool>,
    mut stop: oneshot::Receiver<()>,
    every: Duration,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            _ = tick.tick() => {}
        }
        let began = std::time::Instant::now();
        match checkpoint(&mut conn).await {
            Ok((log, copied)) => {
                tracing::debug!(ms = began.elapsed().as_millis() as u64, log, copied, "checkpoint");
                if log > 0 {
                    finish.store(true, Ordering::Relaxed);
                }
            }
            Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
        }
    }
    let _ = conn.close().await;
}

/// `PRAGMA wal_checkpoint(PASSIVE)`: the frames in the WAL and those now in the database.
async fn checkpoint(conn: &mut SqliteConnection) -> Result<(i64, i64), sqlx::Error> {
    let (_busy, log, copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&mut *conn).await?;
    Ok((log, copied))
}

/// A commit slower than this is logged (with the WAL's size), to see where a slow ack came from.
const SLOW_COMMIT: Duration = Duration::from_millis(50);

/// The one writer: takes every batch waiting, commits them in one transaction, answers each.
async fn writer(
    mut conn: SqliteConnection,
    mut rx: mpsc::Receiver<Batch>,
    wal: std::path::PathBuf,
    finish: Arc<AtomicBool>,
    _stopped: oneshot::Sender<()>,
) {
    let mut group: Vec<Batch> = Vec::with_capacity(64);
    loop {
        if finish.swap(false, Ordering::Relaxed) {
            // After the checkpointer's pass: copy the few frames committed while it ran, so that
            // the whole WAL is in the database and the next commit starts it from the beginning.
            let began = std::time::Instant::now();
            match checkpoint(&mut conn).await {
                Ok((log, copied)) => {
                    let took = began.elapsed();
                    if took >= SLOW_COMMIT {
                        tracing::warn!(ms = took.as_millis() as u64, log, copied, "slow checkpoint on the writer");
                    } else {
                        tracing::debug!(us = took.as_micros() as u64, log, copied, "checkpoint on the writer");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
            }
        }
        let Some(first) = rx.recv().await else { break };
        group.push(first);
        while group.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(b) => group.push(b),
                Err(_) => break,
            }
        }
        let began = std::time::Instant::now();
        let result = commit(&mut conn, &group).await;
        let took = began.elapsed();
        if took >= SLOW_COMMIT {
            let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
            tracing::warn!(ms = took.as_millis() as u64, batches = group.len(), wal_bytes, "slow commit");
        }
        if result.is_ok() || group.len() == 1 {
            if let Err(e) = &result {
                tracing::error!(error = %e, "commit failed; nothing of it was applied");
            }
            for b in group.drain(..) {
                let _ = b.done.send(result.clone().map_err(|e| e.to_string()));
            }
            continue;
        }
        // One bad batch must not sink the others: commit each alone.
        for b in group.drain(..) {
            let one = commit(&mut conn, std::slice::from_ref(&b)).await;
            if let Err(e) = &one {
                tracing::error!(error = %e, "commit failed; nothing of it was applied");
            }
            let _ = b.done.send(one.map_err(|e| e.to_string()));
        }
    }
    let _ = conn.close().await;
}

async fn commit(conn: &mut SqliteConnection, group: &[Batch]) -> Result<(), std::sync::Arc<sqlx::Error>> {
    let wrap = std::sync::Arc::new;
    let mut tx = conn.begin().await.map_err(wrap)?;
    for b in group {
        for row in &b.rows {
            match row {
                Row::Table { id, join_code, watch_code, config, created_at } => {
                    sqlx::query(
                        "INSERT INTO tables (id, join_code, watch_code, config, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    )
                    .bind(id)
                    .bind(join_code)
                    .bind(watch_code)
                    .bind(config)
                    .bind(created_at)
                    .execute(&mut *tx)
                    .await
                    .map_err(wrap)?;
                }
                Row::Event { table_id, version, body } => {
                    sqlx::query("INSERT INTO events (table_id, version, body) VALUES (?1, ?2, ?3)")
                        .bind(table_id)
                        .bind(*version as i64)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .map_err(wrap)?;
                }
                Row::Finished { table_id, finished } => {
                    sqlx::query("UPDATE tables SET finished = ?2 WHERE id = ?1")
                        .bind(table_id)
                        .bind(*finished as i64)
                        .execute(&mut *tx)
                        .await
                        .map_err(wrap)?;
                }
            }
        }
    }
    tx.commit().await.map_err(wrap)
}
