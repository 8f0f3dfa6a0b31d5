//! The PostgreSQL store, for several `oh7 serve` instances on one database.
//!
//! The same tables as SQLite's, plus `leases`: a running table is owned by one instance at a
//! time, the one whose lease row (owner, expiry) has not expired. [`Store::lease`] takes a free
//! or expired lease (or renews this instance's); the lobby's heartbeat ([`Cluster::heartbeat`])
//! renews this instance's leases and learns of the tables whose owner died; and every append
//! checks, **in the same transaction**, that this instance still holds the table (the fence,
//! which renews the lease and keeps its row locked to the commit): an instance paused past its
//! lease cannot write after another took the table over. Versions are the log's primary key,
//! so two writers can never both append a version ([`StoreError::Conflict`]).
//!
//! Appends go through a few writer tasks that commit whatever is waiting together (group
//! commit, as the SQLite store does): one transaction fences and inserts the moves of many
//! tables, so a burst of moves costs a few commits, not one each.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Postgres, Row as _, Transaction};
use tokio::sync::{mpsc, oneshot};

use crate::store::{Beat, Cluster, LobbyCounts, Row, Store, StoreError, TableReads};

/// PostgreSQL's error code for a lock not granted within `lock_timeout`.
const LOCK_NOT_AVAILABLE: &str = "55P03";

/// PostgreSQL's error code for a session ended by `idle_in_transaction_session_timeout`.
const IDLE_IN_TRANSACTION_TIMEOUT: &str = "25P03";

/// Appends slower than this are logged (with where the time went).
const SLOW_APPEND: Duration = Duration::from_millis(100);

/// Log a commit of `appends` appends slower than [`SLOW_APPEND`], with where the time went:
/// waiting for a connection (`began`), the statements (to `written`), the commit (to `total`).
fn log_if_slow(appends: usize, began: Duration, written: Duration, total: Duration) {
    metrics::histogram!(crate::metrics::POOL_WAIT).record(began);
    if total > SLOW_APPEND {
        tracing::warn!(
            ms = total.as_millis() as u64,
            appends,
            begin_ms = began.as_millis() as u64,
            rows_ms = (written - began).as_millis() as u64,
            commit_ms = (total - written).as_millis() as u64,
            "slow append"
        );
    }
}

/// Writer tasks: each takes the appends waiting when it is free and commits them together.
const WRITERS: usize = 4;
/// Most appends one writer commits together.
const MAX_GROUP: usize = 256;

/// Appends waiting for a writer, each with where its answer goes.
struct Batch {
    rows: Vec<Row>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The PostgreSQL store of one instance (`holder`: the instance's id in the leases).
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    holder: String,
    lease: Duration,
    /// To the writers (`None`: this is a writer's own handle, which writes itself).
    queue: Option<mpsc::Sender<Batch>>,
}

impl PgStore {
    /// Connect to `url` and migrate; `holder` is this instance's id, `lease` how long its
    /// leases last without a heartbeat ([`Cluster::heartbeat`] renews them).
    ///
    /// No session of this instance can hold up another instance for long: a transaction left
    /// open (the process stopped between two statements) is ended by the server after a third
    /// of the lease, giving its row locks back, and no statement waits longer than that for a
    /// lock (see [`session_limits`]).
    pub async fn open(url: &str, holder: &str, lease: Duration) -> Result<PgStore, StoreError> {
        {
            // Migrations on their own connection, without the limits: a second instance
            // starting waits for the first one's migrations as long as they take.
            let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(url).await?;
            crate::migrations::POSTGRES.migrator().await?.run(&mut c).await?;
            let _ = sqlx::Connection::close(c).await;
        }
        let limits = session_limits(lease);
        let mut options: PgConnectOptions = url.parse()?;
        if options.get_application_name().is_none() {
            // What `pg_stat_activity` shows: which process a session belongs to.
            options = options.application_name(&format!("oh7 serve {}", std::process::id()));
        }
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .after_connect(move |c, _| {
                let limits = limits.clone();
                Box::pin(async move { sqlx::Executor::execute(c, limits.as_str()).await.map(|_| ()) })
            })
            .connect_with(options)
            .await?;
        let own = PgStore { pool, holder: holder.to_string(), lease, queue: None };
        let (tx, rx) = mpsc::channel::<Batch>(MAX_GROUP * WRITERS);
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        for _ in 0..WRITERS {
            let span = tracing::info_span!("task", kind = "db-writer");
            tokio::spawn(tracing::Instrument::instrument(writer(own.clone(), rx.clone()), span));
        }
        Ok(PgStore { queue: Some(tx), ..own })
    }

    /// Commit a group of appends: those of events only (a move, a chat line: nearly all) in one
    /// transaction, fenced all at once; any other alone. If the group's transaction fails (a
    /// version taken: another instance wrote), each append is tried alone, to get its own answer.
    async fn write_group(&self, group: Vec<Batch>) {
        let (events, other): (Vec<Batch>, Vec<Batch>) =
            group.into_iter().partition(|b| b.rows.iter().all(|r| matches!(r, Row::Event { .. })));
        for b in other {
            let r = self.write(b.rows).await;
            let _ = b.done.send(r);
        }
        if events.len() > 1
            && let Ok(answers) = self.write_events(&events).await
        {
            for (b, r) in events.into_iter().zip(answers) {
                let _ = b.done.send(r);
            }
            return;
        }
        for b in events {
            let r = self.write(b.rows).await;
            let _ = b.done.send(r);
        }
    }

    /// The events of several tables (one append each) in one transaction: one statement renews
    /// and checks every table's lease (the fence; the rows stay locked to the commit), one
    /// inserts the events of the tables still held. Returns each append's answer.
    async fn write_events(&self, batches: &[Batch]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let t0 = std::time::Instant::now();
        let mut tables: Vec<&str> = batches
            .iter()
            .flat_map(|b| b.rows.iter())
            .filter_map(|r| match r {
                Row::Event { table_id, .. } => Some(table_id.as_str()),
                _ => None,
            })
            .collect();
        tables.sort_unstable();
        tables.dedup();
        let mut tx = self.pool.begin().await?;
        let began = t0.elapsed();
        let held: Vec<(String,)> = sqlx::query_as(
            "UPDATE leases SET expires_at = now() + make_interval(secs => $3) \
             WHERE table_id = ANY($1) AND owner = $2 AND expires_at > now() RETURNING table_id",
        )
        .bind(&tables)
        .bind(&self.holder)
        .bind(self.lease.as_secs_f64())
        .fetch_all(&mut *tx)
        .await?;
        let held: std::collections::HashSet<String> = held.into_iter().map(|(t,)| t).collect();
        let (mut ids, mut versions, mut bodies) = (Vec::new(), Vec::new(), Vec::new());
        let mut answers = Vec::with_capacity(batches.len());
        for b in batches {
            let lost = b.rows.iter().find_map(|r| match r {
                Row::Event { table_id, .. } if !held.contains(table_id) => Some(table_id.clone()),
                _ => None,
            });
            if let Some(table) = lost {
                answers.push(Err(StoreError::Leased { table }));
                continue;
            }
            for r in &b.rows {
                if let Row::Event { table_id, version, body } = r {
                    ids.push(table_id.as_str());
                    versions.push(*version as i64);
                    bodies.push(body.as_str());
                }
            }
            answers.push(Ok(()));
        }
        if !ids.is_empty() {
            sqlx::query("INSERT INTO events (table_id, version, body) SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[])")
                .bind(&ids)
                .bind(&versions)
                .bind(&bodies)
                .execute(&mut *tx)
                .await?;
        }
        let written = t0.elapsed();
        tx.commit().await?;
        log_if_slow(batches.len(), began, written, t0.elapsed());
        Ok(answers)
    }

    /// Commit `rows` in one transaction. One that the server ended before its commit (this
    /// process was stopped inside it past `idle_in_transaction_session_timeout`) surely wrote
    /// nothing: it is tried once more on a fresh session, where the fence decides.
    async fn write(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        match self.write_once(&rows).await {
            Err(StoreError::Db(sqlx::Error::Database(e)))
                if e.code().as_deref() == Some(IDLE_IN_TRANSACTION_TIMEOUT) =>
            {
                tracing::warn!("a transaction was ended by the database after this process stalled; writing again");
                self.write_once(&rows).await
            }
            r => r,
        }
    }

    async fn write_once(&self, rows: &[Row]) -> Result<(), StoreError> {
        let t0 = std::time::Instant::now();
        let mut tx = self.pool.begin().await?;
        let began = t0.elapsed();
        let created: Vec<&str> = rows
            .iter()
            .filter_map(|r| match r {
                Row::Table { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        for row in rows {
            if let Err(e) = self.write_row(&mut tx, row, &created).await {
                return Err(match e {
                    StoreError::Db(e) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => match row {
                        Row::Event { table_id, version, .. } => {
                            StoreError::Conflict { table: table_id.clone(), version: *version }
                        }
                        _ => StoreError::Write(e.to_string()),
                    },
                    other => other,
                });
            }
        }
        let written = t0.elapsed();
        tx.commit().await?;
        log_if_slow(1, began, written, t0.elapsed());
        Ok(())
    }

    async fn write_row(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        row: &Row,
        created: &[&str],
    ) -> Result<(), StoreError> {
        match row {
            Row::Table { id, join_code, watch_code, config, created_at } => {
                sqlx::query(
                    "INSERT INTO tables (id, join_code, watch_code, config, created_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(id)
                .bind(join_code)
                .bind(watch_code)
                .bind(config)
                .bind(created_at)
                .execute(&mut **tx)
                .await?;
            }
            Row::Event { table_id, version, body } => {
                // The fence: only the holder of the table's lease appends (a table created in
                // this very transaction is this instance's). Checking it renews it, and the
                // row stays locked until the commit, so another instance's takeover waits for
                // this append and then reads it.
                if !created.contains(&table_id.as_str()) {
                    let held = sqlx::query(
                        "UPDATE leases SET expires_at = now() + make_interval(secs => $3) \
                         WHERE table_id = $1 AND owner = $2 AND expires_at > now() RETURNING 1",
                    )
                    .bind(table_id)
                    .bind(&self.holder)
                    .bind(self.lease.as_secs_f64())
                    .fetch_optional(&mut **tx)
                    .await?;
                    if held.is_none() {
                        return Err(StoreError::Leased { table: table_id.clone() });
                    }
                }
                sqlx::query("INSERT INTO events (table_id, version, body) VALUES ($1, $2, $3)")
                    .bind(table_id)
                    .bind(*version as i64)
                    .bind(body)
                    .execute(&mut **tx)
                    .await?;
            }
            Row::Review(r) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64);
                sqlx::query(
                    "INSERT INTO reviews (table_id, game, seat, level, share, body, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                )
                .bind(&r.table_id)
                .bind(r.game as i32)
                .bind(r.seat as i32)
                .bind(&r.level)
                .bind(&r.share)
                .bind(&r.body)
                .bind(now)
                .execute(&mut **tx)
                .await?;
            }
            Row::Link { table_id, seat, account } => {
                sqlx::query(crate::accounts::INSERT_LINK)
                    .bind(table_id)
                    .bind(*seat as i64)
                    .bind(account)
                    .execute(&mut **tx)
                    .await?;
            }
            Row::Deadlines { table_id, due } => {
                crate::accounts::write_deadlines_pg(tx, table_id, due).await?;
            }
            Row::Rated(r) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64);
                crate::ratings::apply_pg(tx, r, now).await?;
            }
            Row::Listing { table_id, watch_code, host_account, family, facts } => {
                crate::store::write_listing!(&mut **tx, table_id, watch_code, host_account, family, facts)?;
            }
            Row::Finished { table_id, finished } => {
                sqlx::query("UPDATE tables SET finished = $2 WHERE id = $1")
                    .bind(table_id)
                    .bind(*finished as i32)
                    .execute(&mut **tx)
                    .await?;
            }
        }
        Ok(())
    }
}

/// The settings of every session of the pool: `idle_in_transaction_session_timeout` (the
/// server ends a transaction left open longer, so an instance stopped inside one, by `SIGSTOP`
/// or a stalled machine, does not keep the lease rows it locked) and `lock_timeout` (no
/// statement waits longer for a lock: a takeover that meets a locked lease tries again at the
/// next heartbeat). Both are a third of the lease, the heartbeat's period; an instance's own
/// transactions last milliseconds.
fn session_limits(lease: Duration) -> String {
    let ms = (lease.as_millis() / 3).max(100);
    format!("SET idle_in_transaction_session_timeout = {ms}; SET lock_timeout = {ms}")
}

/// One writer: waits for an append, takes whatever else is waiting (up to [`MAX_GROUP`]), and
/// commits them together. Ends when every handle of the store is gone.
async fn writer(db: PgStore, rx: Arc<tokio::sync::Mutex<mpsc::Receiver<Batch>>>) {
    loop {
        let mut group = Vec::new();
        {
            let mut rx = rx.lock().await;
            match rx.recv().await {
                Some(b) => group.push(b),
                None => return,
            }
            while group.len() < MAX_GROUP {
                match rx.try_recv() {
                    Ok(b) => group.push(b),
                    Err(_) => break,
                }
            }
        }
        db.write_group(group).await;
    }
}

impl Store for PgStore {
    /// The writer answers, and the database is a primary (a standby in recovery cannot commit).
    fn ready(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.append(Vec::new()).await?;
            let standby: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()").fetch_one(&self.pool).await?;
            if standby {
                return Err(StoreError::Closed);
            }
            Ok(())
        })
    }
    fn append(&self, rows: Vec<Row>) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let Some(queue) = &self.queue else { return self.write(rows).await };
            let (done, answer) = oneshot::channel();
            queue.send(Batch { rows, done }).await.map_err(|_| StoreError::Closed)?;
            answer.await.map_err(|_| StoreError::Closed)?
        })
    }
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            // The unfinished tables nobody else holds now (theirs come back when their leases
            // expire and a link asks for them).
            let rows = sqlx::query(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id \
                 WHERE t.finished = 0 AND (l.owner IS NULL OR l.owner = $1 OR l.expires_at < now()) \
                 ORDER BY t.created_at, t.id",
            )
            .bind(&self.holder)
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
        })
    }
    fn reads(&self) -> &dyn TableReads {
        &self.pool
    }
    /// Take the table's lease if it is free or expired, or renew this instance's; refused
    /// ([`StoreError::Leased`]) while another instance holds it.
    fn lease<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(
                "INSERT INTO leases (table_id, owner, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3)) \
                 ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at \
                 WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now() RETURNING owner",
            )
            .bind(id)
            .bind(&self.holder)
            .bind(self.lease.as_secs_f64())
            .fetch_optional(&self.pool)
            .await;
            match row {
                Ok(Some(_)) => Ok(()),
                Ok(None) => Err(StoreError::Leased { table: id.to_string() }),
                // The row is locked past `lock_timeout`: its holder is inside a commit (or
                // stopped there, until the server ends its transaction); held for now.
                Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some(LOCK_NOT_AVAILABLE) => {
                    Err(StoreError::Leased { table: id.to_string() })
                }
                Err(e) => Err(e.into()),
            }
        })
    }
    /// Hand this instance's tables over (a clean stop: its leases end now, so another instance
    /// claims them at its next heartbeat instead of after they expire), then close.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let r = sqlx::query("UPDATE leases SET expires_at = now() - interval '1 second' WHERE owner = $1")
                .bind(&self.holder)
                .execute(&self.pool)
                .await;
            if let Err(e) = r {
                tracing::warn!(error = %e, "could not hand the tables over");
            }
            let _ = sqlx::query("DELETE FROM address_conns WHERE instance = $1")
                .bind(&self.holder)
                .execute(&self.pool)
                .await;
            let _ = sqlx::query("DELETE FROM instances WHERE id = $1").bind(&self.holder).execute(&self.pool).await;
            self.pool.close().await;
        })
    }
    fn accounts(&self) -> &dyn crate::accounts::AccountStore {
        &self.pool
    }
    fn room(&self) -> &dyn crate::room::RoomStore {
        &self.pool
    }
    fn cluster(&self) -> Option<&dyn Cluster> {
        Some(self)
    }
    fn pool_state(&self) -> Option<(u32, usize)> {
        Some((self.pool.size(), self.pool.num_idle()))
    }
}

impl PgStore {
    async fn beat(&self, url: &str, conns: Vec<(IpAddr, usize)>) -> Result<Beat, StoreError> {
        let lease = self.lease.as_secs_f64();
        // Renew on its own, skipping the rows an append holds at this moment (that append
        // renews its table's lease itself): the heartbeat never waits for the tables' commits,
        // nor holds them up for long. Only leases still running are renewed: one that expired
        // may have been claimed, and this instance then learns it lost the table.
        sqlx::query(
            "UPDATE leases SET expires_at = now() + make_interval(secs => $2) WHERE table_id IN \
             (SELECT table_id FROM leases WHERE owner = $1 AND expires_at > now() FOR UPDATE SKIP LOCKED)",
        )
        .bind(&self.holder)
        .bind(lease)
        .execute(&self.pool)
        .await?;
        let held: Vec<(String,)> =
            sqlx::query_as("SELECT table_id FROM leases WHERE owner = $1 AND expires_at > now()")
                .bind(&self.holder)
                .fetch_all(&self.pool)
                .await?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO instances (id, url, seen_at) VALUES ($1, $2, now()) \
             ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, seen_at = EXCLUDED.seen_at",
        )
        .bind(&self.holder)
        .bind(url)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM address_conns WHERE instance = $1").bind(&self.holder).execute(&mut *tx).await?;
        if !conns.is_empty() {
            let ips: Vec<String> = conns.iter().map(|(ip, _)| ip.to_string()).collect();
            let ns: Vec<i32> = conns.iter().map(|(_, n)| *n as i32).collect();
            sqlx::query("INSERT INTO address_conns (instance, ip, n) SELECT $1, * FROM UNNEST($2::text[], $3::int[])")
                .bind(&self.holder)
                .bind(&ips)
                .bind(&ns)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        let elsewhere: Vec<(String, i64)> = sqlx::query_as(
            "SELECT a.ip, SUM(a.n)::bigint FROM address_conns a JOIN instances i ON i.id = a.instance \
             WHERE a.instance <> $1 AND i.seen_at > now() - make_interval(secs => $2) GROUP BY a.ip",
        )
        .bind(&self.holder)
        .bind(lease)
        .fetch_all(&self.pool)
        .await?;
        let orphans: Vec<(String,)> = sqlx::query_as(
            "SELECT l.table_id FROM leases l JOIN tables t ON t.id = l.table_id \
             WHERE l.expires_at < now() AND t.finished = 0 ORDER BY l.expires_at LIMIT 1000",
        )
        .fetch_all(&self.pool)
        .await?;
        // Instances gone for an hour are forgotten (their connection counts with them).
        sqlx::query(
            "WITH gone AS (DELETE FROM instances WHERE seen_at < now() - interval '1 hour' RETURNING id) \
             DELETE FROM address_conns WHERE instance IN (SELECT id FROM gone)",
        )
        .execute(&self.pool)
        .await?;
        Ok(Beat {
            held: held.into_iter().map(|(id,)| id).collect(),
            orphans: orphans.into_iter().map(|(id,)| id).collect(),
            conns_elsewhere: elsewhere
                .into_iter()
                .filter_map(|(ip, n)| Some((ip.parse().ok()?, n.max(0) as usize)))
                .collect(),
        })
    }

    async fn created(&self, ip: IpAddr, limit: usize) -> Result<bool, StoreError> {
        let ip = ip.to_string();
        let mut tx = self.pool.begin().await?;
        // One count per address at a time, whichever instance asks.
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))").bind(&ip).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM address_tables WHERE ip = $1 AND at < now() - interval '1 hour'")
            .bind(&ip)
            .execute(&mut *tx)
            .await?;
        let (n,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM address_tables WHERE ip = $1").bind(&ip).fetch_one(&mut *tx).await?;
        if n as usize >= limit {
            return Ok(false);
        }
        sqlx::query("INSERT INTO address_tables (ip) VALUES ($1)").bind(&ip).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn lobby_counts(&self) -> Result<LobbyCounts, StoreError> {
        let lease = self.lease.as_secs_f64();
        let (instances, open, running, connections): (i64, i64, i64, i64) = sqlx::query_as(
            "SELECT \
               (SELECT COUNT(*) FROM instances WHERE seen_at > now() - make_interval(secs => $1)), \
               (SELECT COUNT(*) FROM tables WHERE finished = 0), \
               (SELECT COUNT(*) FROM leases WHERE expires_at > now()), \
               (SELECT COALESCE(SUM(a.n), 0)::bigint FROM address_conns a JOIN instances i ON i.id = a.instance \
                  WHERE i.seen_at > now() - make_interval(secs => $1))",
        )
        .bind(lease)
        .fetch_one(&self.pool)
        .await?;
        let servers: Vec<(String,)> =
            sqlx::query_as("SELECT url FROM instances WHERE seen_at > now() - make_interval(secs => $1) ORDER BY url")
                .bind(lease)
                .fetch_all(&self.pool)
                .await?;
        Ok(LobbyCounts {
            instances: instances as usize,
            servers: servers.into_iter().map(|(u,)| u).collect(),
            tables_open: open as usize,
            tables_running: running as usize,
            connections: connections as usize,
        })
    }
}

impl Cluster for PgStore {
    fn instance(&self) -> &str {
        &self.holder
    }
    fn heartbeat<'a>(&'a self, url: &'a str, conns: Vec<(IpAddr, usize)>) -> BoxFuture<'a, Result<Beat, StoreError>> {
        Box::pin(self.beat(url, conns))
    }
    fn owner_url<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let row: Option<(String,)> = sqlx::query_as(
                "SELECT i.url FROM leases l JOIN instances i ON i.id = l.owner \
                 WHERE l.table_id = $1 AND l.owner <> $2 AND l.expires_at > now()",
            )
            .bind(id)
            .bind(&self.holder)
            .fetch_optional(&self.pool)
            .await?;
            Ok(row.map(|(u,)| u))
        })
    }
    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let r = sqlx::query("DELETE FROM leases WHERE table_id = $1 AND owner = $2")
                .bind(id)
                .bind(&self.holder)
                .execute(&self.pool)
                .await;
            if let Err(e) = r {
                tracing::warn!(table = %id, error = %e, "could not give the lease back");
            }
        })
    }
    fn count_created<'a>(&'a self, ip: IpAddr, limit: usize) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.created(ip, limit))
    }
    fn counts(&self) -> BoxFuture<'_, Result<LobbyCounts, StoreError>> {
        Box::pin(self.lobby_counts())
    }
}
