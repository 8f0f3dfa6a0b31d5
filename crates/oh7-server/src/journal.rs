//! SQLite's move journal: where the writer appends events in the order they arrive, and how it
//! folds them into `events` (clustered by table and version) a few seconds later.
//!
//! Why: `events` is ordered by table, so a group commit of ~30 moves of ~30 tables wrote ~30
//! leaf pages of 4 KB (12-14 MB of WAL a second at 2,000 moves a second), and on a slow disk the
//! fsync of that volume stalled every table behind the one writer. A journal ordered by arrival
//! takes the same group in the one or two pages at its end. Every few seconds the writer swaps
//! the two journals, reads the full one sorted by table, and folds it into `events` a slice of
//! rows at a time between commits (a table's moves of the last seconds share one leaf write),
//! then empties it (`DELETE` without `WHERE`: its pages go to the free list at once).
//!
//! Nothing is durable later than before: a move is acknowledged once its journal row is
//! committed (`synchronous=FULL`). A crash during a fold leaves rows both in `events` and in the
//! journal; the fold at the next start takes them with `INSERT OR IGNORE` (they are the same
//! rows), and readers merge the three tables and drop repeats.
//!
//! The journal has no unique key by table and version, so the writer itself refuses a version
//! already logged ([`Journal::admit`]): it knows the last version of every table it wrote since
//! the journals were last folded, and asks `events` for any other. One process writes a SQLite
//! database (several instances need PostgreSQL), so that knowledge is whole.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use sqlx::{SqliteConnection, SqlitePool};
use tokio::sync::oneshot;

/// What the writer is asked to write, as far as the journal's check goes.
pub(crate) enum Write<'a> {
    /// A new table (its log starts empty).
    Table(&'a str),
    /// An event of a table's log at a version.
    Event(&'a str, u64),
}

/// The two journals' names.
const NAMES: [&str; 2] = ["journal_a", "journal_b"];

/// A journal is folded once it holds this many rows...
const FOLD_ROWS: u64 = 40_000;
/// ...or has been filled this long (and holds a row).
pub(crate) const FOLD_AFTER: Duration = Duration::from_secs(10);
/// Rows folded by one statement (one step between two commits): small, so that a commit waits
/// little behind a step.
const ROWS_PER_STEP: usize = 128;

/// The writer's journal state.
pub(crate) struct Journal {
    /// The journal appended to now (index into [`NAMES`]).
    active: usize,
    /// Rows appended to each journal since it was last emptied.
    rows: [u64; 2],
    /// When the active journal took its first row since it was emptied.
    since: Option<Instant>,
    /// The fold under way, of the other journal.
    fold: Option<Fold>,
    /// The number of the active journal's window (it grows by one at each swap).
    window: u64,
    /// Each table's highest version written, with the window it was last written in.
    last: HashMap<String, (u64, u64)>,
    fold_after: Duration,
    /// Where the full journal is read, beside the writer (a reader never holds a commit up).
    reads: SqlitePool,
}

/// A journal's rows, sorted by table and version (a table's rows land on its leaf together).
type Rows = Vec<(String, i64, String)>;

/// A fold of one journal into `events`.
struct Fold {
    journal: usize,
    state: FoldState,
}

enum FoldState {
    /// Its rows are being read on the read pool.
    Reading(oneshot::Receiver<Result<Rows, sqlx::Error>>),
    /// Its rows, and how many are in `events`.
    Writing { rows: Rows, next: usize },
}

/// How often the writer, idle, looks whether the full journal's rows have been read.
const READ_POLL: Duration = Duration::from_millis(10);

/// Read a journal's rows on the pool, in a task of its own.
fn read_rows(pool: &SqlitePool, journal: usize) -> FoldState {
    let (tx, rx) = oneshot::channel();
    let pool = pool.clone();
    tokio::spawn(async move {
        let rows = sqlx::query_as(&format!(
            "SELECT table_id, version, body FROM {} ORDER BY table_id, version",
            NAMES[journal]
        ))
        .fetch_all(&pool)
        .await;
        let _ = tx.send(rows);
    });
    FoldState::Reading(rx)
}

/// What [`Journal::admit`] found of a batch: the versions it writes, or the version it repeats.
pub(crate) enum Admission {
    /// Its events follow each table's log: `(table, last version)` once written.
    Fresh(Vec<(String, u64)>),
    /// It repeats a version already logged.
    Repeat { table: String, version: u64 },
}

impl Journal {
    /// The journal of a database whose journals were just folded ([`fold_all`]).
    pub(crate) fn new(fold_after: Duration, reads: SqlitePool) -> Journal {
        Journal { active: 0, rows: [0, 0], since: None, fold: None, window: 0, last: HashMap::new(), fold_after, reads }
    }

    /// The table events are appended to now.
    pub(crate) fn active(&self) -> &'static str {
        NAMES[self.active]
    }

    /// Whether a fold has rows to write (the writer gives it a step between commits). A fold
    /// whose rows are still being read has not; a failed read is started again.
    pub(crate) fn folding(&mut self) -> bool {
        let Some(fold) = &mut self.fold else { return false };
        if let FoldState::Reading(rx) = &mut fold.state {
            match rx.try_recv() {
                Ok(Ok(rows)) => fold.state = FoldState::Writing { rows, next: 0 },
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "reading the journal to fold failed; read again");
                    fold.state = read_rows(&self.reads, fold.journal);
                }
                Err(oneshot::error::TryRecvError::Empty) => {}
                Err(oneshot::error::TryRecvError::Closed) => fold.state = read_rows(&self.reads, fold.journal),
            }
        }
        matches!(fold.state, FoldState::Writing { .. })
    }

    /// How long the writer, idle, may wait before it looks at the journal again: until the
    /// active journal is due to be folded, or shortly while a fold's rows are being read
    /// (`None`: nothing to do until the next append).
    pub(crate) fn due_in(&self) -> Option<Duration> {
        if matches!(self.fold, Some(Fold { state: FoldState::Reading(_), .. })) {
            return Some(READ_POLL);
        }
        self.since.map(|s| self.fold_after.saturating_sub(s.elapsed()))
    }

    /// Check a batch's events against each table's log (and `pending`, what batches before it
    /// in the same group write): a version at or below the table's last is a repeat.
    pub(crate) async fn admit(
        &mut self,
        conn: &mut SqliteConnection,
        writes: impl Iterator<Item = Write<'_>>,
        pending: &mut Pending,
    ) -> Result<Admission, sqlx::Error> {
        let mut here: Vec<(String, u64)> = Vec::new();
        for write in writes {
            let (table, version) = match write {
                Write::Table(id) => {
                    // A new table's log starts empty (a repeated id fails on `tables`' key).
                    if !self.last.contains_key(id) && !pending.max.contains_key(id) {
                        here.push((id.to_string(), 0));
                    }
                    continue;
                }
                Write::Event(table, version) => (table, version),
            };
            let highest = match here.iter().filter(|(t, _)| t == table).map(|(_, v)| *v).max() {
                Some(v) => v,
                None => match pending.max.get(table) {
                    Some(v) => *v,
                    None => match self.last.get(table) {
                        Some((v, _)) => *v,
                        None => logged(conn, table).await?,
                    },
                },
            };
            // Above the highest: new. At or below it (appends out of order, which a table never
            // makes, or a repeat): looked for exactly, in this group and in the database.
            let repeat = version <= highest
                && (version == highest
                    || here.iter().any(|(t, v)| t == table && *v == version)
                    || pending.all.contains(&(table.to_string(), version))
                    || has_version(conn, table, version).await?);
            if repeat {
                return Ok(Admission::Repeat { table: table.to_string(), version });
            }
            here.push((table.to_string(), version));
        }
        for (t, v) in &here {
            let max = pending.max.entry(t.clone()).or_insert(0);
            *max = (*max).max(*v);
            pending.all.insert((t.clone(), *v));
        }
        Ok(Admission::Fresh(here))
    }

    /// A batch's rows are committed: remember its tables' versions, count its rows, and swap the
    /// journals when the active one is full or old enough and no fold is under way.
    pub(crate) fn committed(&mut self, written: &[(String, u64)], events: u64) {
        for (t, v) in written {
            let e = self.last.entry(t.clone()).or_insert((0, self.window));
            *e = (e.0.max(*v), self.window);
        }
        if events > 0 {
            self.rows[self.active] += events;
            self.since.get_or_insert_with(Instant::now);
        }
        let due = self.rows[self.active] >= FOLD_ROWS || self.since.is_some_and(|s| s.elapsed() >= self.fold_after);
        if due && self.fold.is_none() {
            let journal = self.active;
            self.fold = Some(Fold { journal, state: read_rows(&self.reads, journal) });
            self.active = 1 - journal;
            self.window += 1;
            self.since = None;
        }
    }

    /// One step of the fold under way: the next slice of tables into `events`, or, once all are,
    /// the journal emptied. A failed step is tried again at the next one.
    pub(crate) async fn step(&mut self, conn: &mut SqliteConnection) {
        let Some(Fold { journal, state: FoldState::Writing { rows, next } }) = &mut self.fold else { return };
        let name = NAMES[*journal];
        if *next < rows.len() {
            let end = (*next + ROWS_PER_STEP).min(rows.len());
            let mut q =
                sqlx::QueryBuilder::<sqlx::Sqlite>::new("INSERT OR IGNORE INTO events (table_id, version, body) ");
            q.push_values(&rows[*next..end], |mut b, (t, v, body)| {
                b.push_bind(t).push_bind(v).push_bind(body);
            });
            let began = Instant::now();
            match q.build().execute(&mut *conn).await {
                Ok(_) => {
                    tracing::debug!(us = began.elapsed().as_micros() as u64, rows = end - *next, "journal fold step");
                    *next = end;
                }
                Err(e) => tracing::warn!(error = %e, "journal fold step failed; tried again"),
            }
            return;
        }
        let began = Instant::now();
        match sqlx::query(&format!("DELETE FROM {name}")).execute(&mut *conn).await {
            Ok(done) => {
                tracing::debug!(
                    us = began.elapsed().as_micros() as u64,
                    rows = done.rows_affected(),
                    "journal emptied"
                );
                self.rows[*journal] = 0;
                self.fold = None;
                // Every table not written since the swap has all its log in `events` now.
                let window = self.window;
                self.last.retain(|_, (_, w)| *w >= window);
            }
            Err(e) => tracing::warn!(error = %e, "emptying the folded journal failed; tried again"),
        }
    }
}

/// What the batches of one group before the one being checked write: each table's highest version,
/// and every `(table, version)`.
#[derive(Default)]
pub(crate) struct Pending {
    max: HashMap<String, u64>,
    all: std::collections::HashSet<(String, u64)>,
}

impl Pending {
    /// Empty, for the next group.
    pub(crate) fn clear(&mut self) {
        self.max.clear();
        self.all.clear();
    }
}

/// Whether `table` has `version` in its log (`events` or a journal). Only asked for versions
/// below the table's highest, which a table's own appends never are.
async fn has_version(conn: &mut SqliteConnection, table: &str, version: u64) -> Result<bool, sqlx::Error> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM events WHERE table_id = ?1 AND version = ?2) \
         + (SELECT COUNT(*) FROM journal_a WHERE table_id = ?1 AND version = ?2) \
         + (SELECT COUNT(*) FROM journal_b WHERE table_id = ?1 AND version = ?2)",
    )
    .bind(table)
    .bind(version as i64)
    .fetch_one(&mut *conn)
    .await?;
    Ok(n > 0)
}

/// The last version of `table` in `events` (0 for none). Only asked for tables with no row in the
/// journals that the writer does not know of.
async fn logged(conn: &mut SqliteConnection, table: &str) -> Result<u64, sqlx::Error> {
    let (v,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM events WHERE table_id = ?1").bind(table).fetch_one(&mut *conn).await?;
    Ok(v.unwrap_or(0) as u64)
}

/// Fold both journals whole into `events` and empty them, in one transaction (at start, before
/// the writer takes any append). Returns the rows found in them. With nothing to fold it writes
/// nothing (so a second handle on a database a server is running, as tests open, takes no lock).
pub(crate) async fn fold_all(conn: &mut SqliteConnection) -> Result<u64, sqlx::Error> {
    use sqlx::Connection;
    let (any,): (i64,) = sqlx::query_as("SELECT EXISTS (SELECT 1 FROM journal_a) OR EXISTS (SELECT 1 FROM journal_b)")
        .fetch_one(&mut *conn)
        .await?;
    if any == 0 {
        return Ok(0);
    }
    // A write first in the transaction: it takes the write lock (waiting as `busy_timeout` says)
    // before any read could make its snapshot stale.
    let mut tx = conn.begin().await?;
    let mut found = 0;
    for name in NAMES {
        sqlx::query(&format!(
            "INSERT OR IGNORE INTO events (table_id, version, body) \
             SELECT table_id, version, body FROM {name} ORDER BY table_id, version"
        ))
        .execute(&mut *tx)
        .await?;
        found += sqlx::query(&format!("DELETE FROM {name}")).execute(&mut *tx).await?.rows_affected();
    }
    tx.commit().await?;
    Ok(found)
}

/// A table's log as SQLite keeps it: `events` and both journals, in version order (a row in two
/// of them, during a fold, read once).
pub(crate) const LOG_SQL: &str = "SELECT version, body FROM events WHERE table_id = $1 \
     UNION ALL SELECT version, body FROM journal_a WHERE table_id = $1 \
     UNION ALL SELECT version, body FROM journal_b WHERE table_id = $1 \
     ORDER BY 1";
