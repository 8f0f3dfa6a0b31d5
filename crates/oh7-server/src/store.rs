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

use futures_util::future::BoxFuture;
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Row as _, SqliteConnection, SqlitePool};

use tokio::sync::{mpsc, oneshot};

pub use crate::db::{Deadline, StoreError};

/// A store as the tables, the lobby and the reviewer share it.
pub(crate) type SharedStore = Arc<dyn Store>;

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
    /// A finished review (computed once, read by its share code).
    Review(StoredReview),
    /// An account holds a seat of the table (the first link of a seat stays).
    Link {
        /// The table.
        table_id: String,
        /// The seat.
        seat: usize,
        /// The account.
        account: String,
    },
    /// A rated game's outcome: the ratings move once (see [`crate::ratings`]).
    Rated(crate::ratings::Rated),
    /// A turn-based table's deadlines now: `(seat, owed since version, due at Unix seconds)`;
    /// they replace the table's previous ones.
    Deadlines {
        /// The table.
        table_id: String,
        /// The seats that owe a decision.
        due: Vec<Deadline>,
    },
    /// An open table's listing now (`facts: None`: not listed, e.g. it started or is full).
    Listing {
        /// The table.
        table_id: String,
        /// Its spectator code.
        watch_code: String,
        /// The host's account, if signed in.
        host_account: Option<String>,
        /// The family of rules (the host's rating is read in it).
        family: String,
        /// [`oh7_table::bodies::Listing`] as JSON.
        facts: Option<String>,
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
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// A review as stored.
#[derive(Clone, Debug)]
pub struct StoredReview {
    /// The table.
    pub table_id: String,
    /// The game at the table, from 1.
    pub game: u32,
    /// The reviewed seat.
    pub seat: usize,
    /// The reviewing level.
    pub level: String,
    /// The code of its link.
    pub share: String,
    /// The review (JSON).
    pub body: String,
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
    /// `(seat, account id)` of the seats accounts hold.
    pub links: Vec<(usize, String)>,
    /// A turn-based table's deadlines: `(seat, since version, due at)`.
    pub deadlines: Vec<Deadline>,
}

/// Where tables and their logs are kept. One table has one writer: appends carry the version
/// they expect to write, and a version already in the log is a [`StoreError::Conflict`], never
/// a second copy. A store shared by several server instances also grants each table to one
/// instance at a time ([`Store::lease`], [`Cluster`]).
pub trait Store: Send + Sync {
    /// Append rows (a new table, events at their versions, the finished flag) in one
    /// transaction; returns once they are durable. On error nothing of them was written.
    fn append(&self, rows: Vec<Row>) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The ids of the tables to restore at start (those whose game is not over).
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// The reads both databases answer with the same statements, on this store's pool.
    fn reads(&self) -> &dyn TableReads;
    /// The table id behind an invite or spectator code.
    fn find_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        self.reads().find_code(code)
    }
    /// One table and its whole log.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<StoredTable, StoreError>> {
        self.reads().load(id)
    }
    /// The share code of the review of `seat` in game `game` of table `table_id` by `level`, if
    /// it was computed.
    fn review_code<'a>(
        &'a self,
        table_id: &'a str,
        game: u32,
        seat: usize,
        level: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        self.reads().review_code(table_id, game, seat, level)
    }
    /// The review behind a share code.
    fn review<'a>(&'a self, share: &'a str) -> BoxFuture<'a, Result<Option<StoredReview>, StoreError>> {
        self.reads().review(share)
    }
    /// Take (or renew) this instance's right to write table `id` for a while. A store used by
    /// one process grants it always; a shared one refuses it ([`StoreError::Leased`]) while
    /// another instance holds it.
    fn lease<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Stop accepting writes and close once every queued write is committed.
    fn close(&self) -> BoxFuture<'_, ()>;
    /// The accounts and their sessions.
    fn accounts(&self) -> &dyn crate::accounts::AccountStore;
    /// The public room: open tables, the quick-match queue, blocks, reports, suspensions.
    fn room(&self) -> &dyn crate::room::RoomStore;
    /// The side of a store that several instances share (`None`: this instance is alone on it).
    fn cluster(&self) -> Option<&dyn Cluster> {
        None
    }
    /// The connection pool: its size and its idle connections (the metrics page).
    fn pool_state(&self) -> Option<(u32, usize)> {
        None
    }
    /// Whether a change can be committed now (`/readyz`): a transaction through the same
    /// writer as every change.
    fn ready(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.append(Vec::new())
    }
}

/// What one heartbeat of an instance on a shared store learnt.
#[derive(Debug, Default)]
pub struct Beat {
    /// The tables whose lease this instance holds (renewed by the beat).
    pub held: std::collections::HashSet<String>,
    /// Unfinished tables whose owner let its lease expire (it died or was paused): to claim.
    pub orphans: Vec<String>,
    /// Connections per address open on the other live instances.
    pub conns_elsewhere: std::collections::HashMap<std::net::IpAddr, usize>,
}

/// The lobby as every instance sees it.
#[derive(Clone, Debug, Default, serde::Serialize, PartialEq, Eq)]
pub struct LobbyCounts {
    /// Live server instances.
    pub instances: usize,
    /// Their addresses (`--public-url`) on a shared database, oldest first; empty: this server
    /// alone. A page falls back on them when its own server is gone.
    pub servers: Vec<String>,
    /// Tables whose game is not over.
    pub tables_open: usize,
    /// Tables loaded and played now.
    pub tables_running: usize,
    /// Open connections.
    pub connections: usize,
}

/// Several instances on one store (PostgreSQL): who is alive and where, who owns which table,
/// and the counts the limits per address need across instances.
pub trait Cluster: Send + Sync {
    /// This instance's id.
    fn instance(&self) -> &str;
    /// Say this instance is alive at `url` with these connections per address, renew its
    /// leases, and learn what the others hold.
    fn heartbeat<'a>(
        &'a self,
        url: &'a str,
        conns: Vec<(std::net::IpAddr, usize)>,
    ) -> BoxFuture<'a, Result<Beat, StoreError>>;
    /// The address of the live instance that holds table `id`, if another one does.
    fn owner_url<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// Give back this instance's lease on table `id` (it was unloaded while idle).
    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()>;
    /// Count one table created from `ip` if fewer than `limit` were in the last hour, on any
    /// instance; `false`: over the limit, not counted.
    fn count_created<'a>(&'a self, ip: std::net::IpAddr, limit: usize) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// The lobby's counts over every live instance.
    fn counts(&self) -> BoxFuture<'_, Result<LobbyCounts, StoreError>>;
}

/// Why a backup was not made (nothing is left under the backup's name).
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database to back up is not there.
    #[error("no database at {0}")]
    NoDatabase(String),
    /// The backup's name is taken.
    #[error("{0} exists: give a new file for the backup")]
    Exists(String),
    /// SQLite refused.
    #[error("backing up {db}: {source}")]
    Db {
        /// The database.
        db: String,
        /// Why.
        source: sqlx::Error,
    },
    /// The file system refused.
    #[error("writing the backup {out}: {source}")]
    Io {
        /// The backup.
        out: String,
        /// Why.
        source: std::io::Error,
    },
}

/// An online backup of the SQLite database at `db` into the new file `out`, while a server
/// runs on it: one read transaction (`VACUUM INTO`), so the copy is the database as it was at
/// one instant, every committed change up to then and none after; written under `OUT.part`,
/// flushed, then renamed, so `out` is whole or absent. Restore: stop the server, and start it
/// on the backup (`oh7 serve --db OUT`) or copy it over the database (removing its `-wal` and
/// `-shm` files).
pub async fn backup_sqlite(db: &Path, out: &Path) -> Result<(), BackupError> {
    let shown = |p: &Path| p.display().to_string();
    if !db.is_file() {
        return Err(BackupError::NoDatabase(shown(db)));
    }
    if out.exists() {
        return Err(BackupError::Exists(shown(out)));
    }
    let mut part = out.as_os_str().to_owned();
    part.push(".part");
    let part = std::path::PathBuf::from(part);
    let io = |source| BackupError::Io { out: shown(out), source };
    // A `.part` left by a backup that was stopped half-way is this one's to replace.
    if part.exists() {
        std::fs::remove_file(&part).map_err(io)?;
    }
    let sql = |source| BackupError::Db { db: shown(db), source };
    let opts = SqliteConnectOptions::from_str(&format!("sqlite://{}", db.display()))
        .map_err(sql)?
        .read_only(true)
        .busy_timeout(Duration::from_secs(30));
    let mut conn = SqliteConnection::connect_with(&opts).await.map_err(sql)?;
    let made = sqlx::query("VACUUM INTO ?1").bind(part.to_string_lossy().into_owned()).execute(&mut conn).await;
    let _ = conn.close().await;
    if let Err(e) = made {
        let _ = std::fs::remove_file(&part);
        return Err(sql(e));
    }
    std::fs::File::open(&part).and_then(|f| f.sync_all()).map_err(io)?;
    std::fs::rename(&part, out).map_err(io)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        // The rename itself made durable.
        std::fs::File::open(dir).and_then(|f| f.sync_all()).map_err(io)?;
    }
    Ok(())
}

/// The SQLite store: a read pool and the one writer.
#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    tx: mpsc::Sender<Batch>,
}

/// Most batches one transaction takes.
const MAX_GROUP: usize = 4096;

impl SqliteStore {
    /// Open (creating if absent) the database at `path`, migrate it, and start the writer.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, CHECKPOINT_EVERY).await
    }

    /// [`SqliteStore::open`] with the checkpointer's period (tests use a short one).
    pub async fn open_with(path: &Path, checkpoint_every: Duration) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_tuned(path, checkpoint_every, crate::journal::FOLD_AFTER).await
    }

    /// [`SqliteStore::open_with`] with how long the journal fills before it is folded into
    /// `events` (tests use a short time, to fold often).
    pub async fn open_tuned(
        path: &Path,
        checkpoint_every: Duration,
        fold_after: Duration,
    ) -> Result<SqliteStore, StoreError> {
        let opts = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new().max_connections(2).connect_with(opts.clone()).await?;
        crate::migrations::SQLITE.migrator().await?.run(&pool).await?;
        // No automatic checkpoint on the writer: the checkpointer does it beside it.
        let opts = opts.pragma("wal_autocheckpoint", "0");
        let mut conn = SqliteConnection::connect_with(&opts).await?;
        // Moves a previous run journaled and had not folded yet (a stop or a crash) go into
        // `events` now, before the writer takes any append.
        let found = crate::journal::fold_all(&mut conn).await?;
        if found > 0 {
            tracing::info!(rows = found, "folded the journal left by the last run");
        }
        let ckpt = SqliteConnection::connect_with(&opts).await?;
        let (tx, rx) = mpsc::channel(MAX_GROUP);
        let finish = Arc::new(AtomicBool::new(false));
        let (stopped, stop) = oneshot::channel();
        use tracing::Instrument;
        let journal = crate::journal::Journal::new(fold_after, pool.clone());
        let writer = writer(conn, rx, journal, wal_path(path), finish.clone(), stopped);
        tokio::spawn(writer.instrument(tracing::info_span!("task", kind = "db-writer")));
        let checkpointer = checkpointer(ckpt, finish, stop, checkpoint_every);
        tokio::spawn(checkpointer.instrument(tracing::info_span!("task", kind = "db-checkpointer")));
        Ok(SqliteStore { pool, tx })
    }

    async fn append_rows(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.tx.send(Batch { rows, done }).await.map_err(|_| StoreError::Closed)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(StoreError::Closed),
        }
    }

    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM tables WHERE finished = 0 ORDER BY created_at, id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }
}

/// The reads both databases answer with the same statements (sqlx reads `$1` on both): a
/// table by either code, a table and its log, a review.
pub trait TableReads: Send + Sync {
    /// The id of the table whose invite or spectator code is `code`.
    fn find_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// A table, its log, the seats accounts hold and its deadlines.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<StoredTable, StoreError>>;
    /// The share code of a review already made.
    fn review_code<'a>(
        &'a self,
        table_id: &'a str,
        game: u32,
        seat: usize,
        level: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// A review by its share code.
    fn review<'a>(&'a self, share: &'a str) -> BoxFuture<'a, Result<Option<StoredReview>, StoreError>>;
}

/// Write or remove an open table's listing on either database (`$conn`: a transaction's
/// connection).
macro_rules! write_listing {
    ($conn:expr, $table_id:expr, $watch:expr, $host:expr, $family:expr, $facts:expr) => {
        async {
            match $facts {
                Some(facts) => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs() as i64);
                    sqlx::query(
                        "INSERT INTO open_tables (table_id, watch_code, host_account, family, facts, listed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id) DO UPDATE SET facts = $5",
                    )
                    .bind($table_id)
                    .bind($watch)
                    .bind($host)
                    .bind($family)
                    .bind(facts)
                    .bind(now)
                    .execute($conn)
                    .await?;
                }
                None => {
                    sqlx::query("DELETE FROM open_tables WHERE table_id = $1").bind($table_id).execute($conn).await?;
                }
            }
            Ok::<(), sqlx::Error>(())
        }
        .await
    };
}
pub(crate) use write_listing;

macro_rules! table_reads {
    ($pool:ty, $log:expr) => {
        impl TableReads for $pool {
            fn find_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> =
                        sqlx::query_as(
                            "SELECT id FROM tables WHERE (join_code = $1 OR watch_code = $1) \
                             AND NOT EXISTS (SELECT 1 FROM closed_tables c WHERE c.table_id = tables.id)",
                        )
                            .bind(code)
                            .fetch_optional(self)
                            .await?;
                    Ok(row.map(|(id,)| id))
                })
            }
            fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<StoredTable, StoreError>> {
                Box::pin(async move {
                    let (join_code, watch_code, config): (String, String, String) =
                        sqlx::query_as("SELECT join_code, watch_code, config FROM tables WHERE id = $1")
                            .bind(id)
                            .fetch_one(self)
                            .await?;
                    let events: Vec<(i64, String)> =
                        sqlx::query_as($log)
                            .bind(id)
                            .fetch_all(self)
                            .await?;
                    let mut table = stored_table(id, join_code, watch_code, &config, events)?;
                    table.links = crate::accounts::AccountStore::links(self, id).await?;
                    table.deadlines = crate::accounts::AccountStore::deadlines(self, id).await?;
                    Ok(table)
                })
            }
            fn review_code<'a>(
                &'a self,
                table_id: &'a str,
                game: u32,
                seat: usize,
                level: &'a str,
            ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> = sqlx::query_as(
                        "SELECT share FROM reviews WHERE table_id = $1 AND game = $2 AND seat = $3 AND level = $4",
                    )
                    .bind(table_id)
                    .bind(game as i32)
                    .bind(seat as i32)
                    .bind(level)
                    .fetch_optional(self)
                    .await?;
                    Ok(row.map(|(s,)| s))
                })
            }
            fn review<'a>(&'a self, share: &'a str) -> BoxFuture<'a, Result<Option<StoredReview>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String, i64, i64, String, String)> = sqlx::query_as(
                        "SELECT table_id, CAST(game AS BIGINT), CAST(seat AS BIGINT), level, body FROM reviews WHERE share = $1",
                    )
                    .bind(share)
                    .fetch_optional(self)
                    .await?;
                    Ok(row.map(|(table_id, game, seat, level, body)| StoredReview {
                        table_id,
                        game: game as u32,
                        seat: seat as usize,
                        level,
                        share: share.to_string(),
                        body,
                    }))
                })
            }
        }
    };
}

table_reads!(SqlitePool, crate::journal::LOG_SQL);
table_reads!(sqlx::PgPool, "SELECT version, body FROM events WHERE table_id = $1 ORDER BY version");

/// A table as both stores read it back: its row and its log rows, parsed.
pub(crate) fn stored_table(
    id: &str,
    join_code: String,
    watch_code: String,
    config: &str,
    rows: Vec<(i64, String)>,
) -> Result<StoredTable, StoreError> {
    let corrupt = |why: String| StoreError::Corrupt { table: id.to_string(), why };
    let config: Value = serde_json::from_str(config).map_err(|e| corrupt(e.to_string()))?;
    let mut events: Vec<(u64, Value)> = Vec::with_capacity(rows.len());
    for (v, body) in rows {
        // SQLite's log is read from `events` and its journals: a row being folded is in two.
        if events.last().is_some_and(|(last, _)| *last == v as u64) {
            continue;
        }
        let body: Value = serde_json::from_str(&body).map_err(|e| corrupt(e.to_string()))?;
        events.push((v as u64, body));
    }
    Ok(StoredTable {
        id: id.to_string(),
        join_code,
        watch_code,
        config,
        events,
        links: Vec::new(),
        deadlines: Vec::new(),
    })
}

impl Store for SqliteStore {
    fn pool_state(&self) -> Option<(u32, usize)> {
        Some((self.pool.size(), self.pool.num_idle()))
    }
    fn append(&self, rows: Vec<Row>) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(self.append_rows(rows))
    }
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(self.unfinished_ids())
    }
    fn reads(&self) -> &dyn TableReads {
        &self.pool
    }
    /// One process owns an SQLite file (its one writer is the only writer), so every table
    /// is granted: the lobby's single door gives each table one task.
    fn lease<'a>(&'a self, _id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.pool.close())
    }
    fn accounts(&self) -> &dyn crate::accounts::AccountStore {
        &self.pool
    }
    fn room(&self) -> &dyn crate::room::RoomStore {
        &self.pool
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

/// The one writer: takes every batch waiting, refuses those that repeat a version already logged,
/// commits the others in one transaction, answers each; between commits, folds the journal.
async fn writer(
    mut conn: SqliteConnection,
    mut rx: mpsc::Receiver<Batch>,
    mut journal: crate::journal::Journal,
    wal: std::path::PathBuf,
    finish: Arc<AtomicBool>,
    _stopped: oneshot::Sender<()>,
) {
    use crate::journal::Admission;
    let mut group: Vec<(Batch, Vec<(String, u64)>)> = Vec::with_capacity(64);
    let mut pending = crate::journal::Pending::default();
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
        // The next batch; while a fold is under way and nothing waits, the fold's next step.
        let first = loop {
            if journal.folding() {
                match rx.try_recv() {
                    Ok(b) => break Some(b),
                    Err(mpsc::error::TryRecvError::Empty) => {
                        journal.step(&mut conn).await;
                        continue;
                    }
                    Err(mpsc::error::TryRecvError::Disconnected) => break None,
                }
            }
            // A journal with rows is folded after its time even if nothing more comes.
            match journal.due_in() {
                None => break rx.recv().await,
                Some(wait) => match tokio::time::timeout(wait, rx.recv()).await {
                    Ok(b) => break b,
                    Err(_) => journal.committed(&[], 0),
                },
            }
        };
        let Some(first) = first else { break };
        let mut waiting = vec![first];
        while waiting.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(b) => waiting.push(b),
                Err(_) => break,
            }
        }
        pending.clear();
        for b in waiting {
            let writes = b.rows.iter().filter_map(|r| match r {
                Row::Table { id, .. } => Some(crate::journal::Write::Table(id)),
                Row::Event { table_id, version, .. } => Some(crate::journal::Write::Event(table_id, *version)),
                _ => None,
            });
            match journal.admit(&mut conn, writes, &mut pending).await {
                Ok(Admission::Fresh(written)) => group.push((b, written)),
                Ok(Admission::Repeat { table, version }) => {
                    let _ = b.done.send(Err(StoreError::Conflict { table, version }));
                }
                Err(e) => {
                    tracing::error!(error = %e, "could not read a table's last version; nothing of the batch was applied");
                    let _ = b.done.send(Err(StoreError::Write(e.to_string())));
                }
            }
        }
        if group.is_empty() {
            continue;
        }
        let began = std::time::Instant::now();
        let result = commit(&mut conn, group.iter().map(|(b, _)| b), journal.active()).await;
        let took = began.elapsed();
        if took >= SLOW_COMMIT {
            let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
            tracing::warn!(ms = took.as_millis() as u64, batches = group.len(), wal_bytes, "slow commit");
        }
        if result.is_ok() || group.len() == 1 {
            if let Err(e) = &result {
                tracing::error!(error = %e, "commit failed; nothing of it was applied");
            }
            for (b, written) in group.drain(..) {
                if result.is_ok() {
                    journal.committed(&written, events_in(&b.rows));
                }
                let _ = b.done.send(result.as_ref().map(|_| ()).map_err(|e| typed(e, &b.rows)));
            }
        } else {
            // One bad batch must not sink the others: commit each alone.
            for (b, written) in group.drain(..) {
                let one = commit(&mut conn, std::iter::once(&b), journal.active()).await;
                match &one {
                    Ok(()) => journal.committed(&written, events_in(&b.rows)),
                    Err(e) => tracing::error!(error = %e, "commit failed; nothing of it was applied"),
                }
                let _ = b.done.send(one.map_err(|e| typed(&e, &b.rows)));
            }
        }
        // A step of the fold between two commits, so that it ends under steady load too.
        journal.step(&mut conn).await;
    }
    let _ = conn.close().await;
}

/// How many of a batch's rows are events (journal rows).
fn events_in(rows: &[Row]) -> u64 {
    rows.iter().filter(|r| matches!(r, Row::Event { .. })).count() as u64
}

/// A failed commit as the caller should see it: a version already in a table's log is a
/// conflict (the primary key of `events` is the table and the version); the rest, a write error.
fn typed(e: &sqlx::Error, rows: &[Row]) -> StoreError {
    let unique = e.as_database_error().is_some_and(|d| d.is_unique_violation());
    let event = rows.iter().find_map(|r| match r {
        Row::Event { table_id, version, .. } => Some((table_id.clone(), *version)),
        _ => None,
    });
    match (unique, event) {
        (true, Some((table, version))) => StoreError::Conflict { table, version },
        _ => StoreError::Write(e.to_string()),
    }
}

/// Events the fast path writes in one statement at most (3 parameters each: far under
/// SQLite's limit of 32,766).
const EVENTS_PER_INSERT: usize = 512;

async fn commit<'a>(
    conn: &mut SqliteConnection,
    group: impl Iterator<Item = &'a Batch> + Clone,
    journal: &str,
) -> Result<(), std::sync::Arc<sqlx::Error>> {
    let wrap = std::sync::Arc::new;
    // The common group, moves only: one `INSERT` of every row, atomic by itself, so no
    // `BEGIN` and `COMMIT` (each statement is a round trip to sqlx's SQLite thread). It is
    // durable as a transaction is (`synchronous=FULL`).
    let rows = group.clone().flat_map(|b| &b.rows);
    let count = rows.clone().count();
    if (1..=EVENTS_PER_INSERT).contains(&count) && rows.clone().all(|r| matches!(r, Row::Event { .. })) {
        let mut q =
            sqlx::QueryBuilder::<sqlx::Sqlite>::new(format!("INSERT INTO {journal} (table_id, version, body) "));
        q.push_values(rows, |mut b, row| {
            if let Row::Event { table_id, version, body } = row {
                b.push_bind(table_id).push_bind(*version as i64).push_bind(body);
            }
        });
        q.build().execute(&mut *conn).await.map_err(wrap)?;
        return Ok(());
    }
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
                    sqlx::query(&format!("INSERT INTO {journal} (table_id, version, body) VALUES (?1, ?2, ?3)"))
                        .bind(table_id)
                        .bind(*version as i64)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .map_err(wrap)?;
                }
                Row::Review(r) => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs() as i64);
                    sqlx::query(
                        "INSERT OR IGNORE INTO reviews (table_id, game, seat, level, share, body, created_at) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    )
                    .bind(&r.table_id)
                    .bind(r.game as i64)
                    .bind(r.seat as i64)
                    .bind(&r.level)
                    .bind(&r.share)
                    .bind(&r.body)
                    .bind(now)
                    .execute(&mut *tx)
                    .await
                    .map_err(wrap)?;
                }
                Row::Link { table_id, seat, account } => {
                    sqlx::query(crate::accounts::INSERT_LINK)
                        .bind(table_id)
                        .bind(*seat as i64)
                        .bind(account)
                        .execute(&mut *tx)
                        .await
                        .map_err(wrap)?;
                }
                Row::Rated(r) => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs() as i64);
                    crate::ratings::apply_sqlite(&mut tx, r, now).await.map_err(wrap)?;
                }
                Row::Deadlines { table_id, due } => {
                    crate::accounts::write_deadlines_sqlite(&mut tx, table_id, due).await.map_err(wrap)?;
                }
                Row::Listing { table_id, watch_code, host_account, family, facts } => {
                    write_listing!(&mut *tx, table_id, watch_code, host_account, family, facts).map_err(wrap)?;
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
