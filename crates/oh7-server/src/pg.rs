//! The PostgreSQL store, for several `oh7 serve` instances on one database.
//!
//! The same tables as SQLite's, plus `leases`: a running table is owned by one instance at a
//! time, the one whose lease row (owner, expiry) has not expired. [`Store::lease`] takes a free
//! or expired lease (or renews this instance's); a task renews this instance's leases every
//! [`RENEW_EVERY`]; and every append checks, **in the same transaction**, that this instance
//! still holds the table (the fence): an instance paused past its lease cannot write after
//! another took the table over. Versions are the log's primary key, so two writers can never
//! both append a version ([`StoreError::Conflict`]).

use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::{Postgres, Row as _, Transaction};

use crate::store::{Row, Store, StoreError, StoredReview, StoredTable, stored_table};

/// How long a lease lasts without renewal.
pub const LEASE: Duration = Duration::from_secs(15);
/// How often an instance renews its leases.
pub const RENEW_EVERY: Duration = Duration::from_secs(5);

/// The PostgreSQL store of one instance (`holder`: the instance's id in the leases).
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    holder: String,
}

impl PgStore {
    /// Connect to `url`, migrate, and start renewing this instance's leases.
    pub async fn open(url: &str, holder: &str) -> Result<PgStore, StoreError> {
        let pool = PgPoolOptions::new().max_connections(8).connect(url).await?;
        sqlx::migrate!("./migrations_pg").run(&pool).await?;
        let store = PgStore { pool, holder: holder.to_string() };
        let renew = store.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(RENEW_EVERY);
            loop {
                tick.tick().await;
                if renew.pool.is_closed() {
                    break;
                }
                let r =
                    sqlx::query("UPDATE leases SET expires_at = now() + make_interval(secs => $2) WHERE owner = $1")
                        .bind(&renew.holder)
                        .bind(LEASE.as_secs_f64())
                        .execute(&renew.pool)
                        .await;
                if let Err(e) = r {
                    tracing::warn!(error = %e, "could not renew the leases");
                }
            }
        });
        Ok(store)
    }

    async fn write(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let created: Vec<&str> = rows
            .iter()
            .filter_map(|r| match r {
                Row::Table { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        for row in &rows {
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
        tx.commit().await?;
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
                // this very transaction is this instance's).
                if !created.contains(&table_id.as_str()) {
                    let held = sqlx::query(
                        "SELECT 1 FROM leases WHERE table_id = $1 AND owner = $2 AND expires_at > now() FOR UPDATE",
                    )
                    .bind(table_id)
                    .bind(&self.holder)
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

    async fn load_table(&self, id: &str) -> Result<StoredTable, StoreError> {
        let (join_code, watch_code, config): (String, String, String) =
            sqlx::query_as("SELECT join_code, watch_code, config FROM tables WHERE id = $1")
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        let events: Vec<(i64, String)> =
            sqlx::query_as("SELECT version, body FROM events WHERE table_id = $1 ORDER BY version")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        stored_table(id, join_code, watch_code, &config, events)
    }
}

impl Store for PgStore {
    fn append(&self, rows: Vec<Row>) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(self.write(rows))
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
    fn find_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id FROM tables WHERE join_code = $1 OR watch_code = $1")
                .bind(code)
                .fetch_optional(&self.pool)
                .await?;
            Ok(row.map(|r| r.get::<String, _>(0)))
        })
    }
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<StoredTable, StoreError>> {
        Box::pin(self.load_table(id))
    }
    fn review_code<'a>(
        &'a self,
        table_id: &'a str,
        game: u32,
        seat: usize,
        level: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let row =
                sqlx::query("SELECT share FROM reviews WHERE table_id = $1 AND game = $2 AND seat = $3 AND level = $4")
                    .bind(table_id)
                    .bind(game as i32)
                    .bind(seat as i32)
                    .bind(level)
                    .fetch_optional(&self.pool)
                    .await?;
            Ok(row.map(|r| r.get::<String, _>(0)))
        })
    }
    fn review<'a>(&'a self, share: &'a str) -> BoxFuture<'a, Result<Option<StoredReview>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT table_id, game, seat, level, body FROM reviews WHERE share = $1")
                .bind(share)
                .fetch_optional(&self.pool)
                .await?;
            Ok(row.map(|r| StoredReview {
                table_id: r.get(0),
                game: r.get::<i32, _>(1) as u32,
                seat: r.get::<i32, _>(2) as usize,
                level: r.get(3),
                share: share.to_string(),
                body: r.get(4),
            }))
        })
    }
    /// Take the table's lease if it is free or expired, or renew this instance's; refused
    /// ([`StoreError::Leased`]) while another instance holds it.
    fn lease<'a>(&'a self, id: &'a str, _holder: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(
                "INSERT INTO leases (table_id, owner, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3)) \
                 ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at \
                 WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now() RETURNING owner",
            )
            .bind(id)
            .bind(&self.holder)
            .bind(LEASE.as_secs_f64())
            .fetch_optional(&self.pool)
            .await?;
            match row {
                Some(_) => Ok(()),
                None => Err(StoreError::Leased { table: id.to_string() }),
            }
        })
    }
    /// Give back this instance's leases (a clean stop: another instance, or this one started
    /// again, takes its tables at once instead of after the leases expire), then close.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let r = sqlx::query("DELETE FROM leases WHERE owner = $1").bind(&self.holder).execute(&self.pool).await;
            if let Err(e) = r {
                tracing::warn!(error = %e, "could not give back the leases");
            }
            self.pool.close().await;
        })
    }
}
