//! What the database keeps of the public room: open tables, the quick-match queue, blocks,
//! reports and suspensions, through [`RoomStore`], one implementation for either database.

use futures_util::future::BoxFuture;
use serde::Serialize;

use super::matching::{Group, Waiting};
use crate::db::StoreError;

/// An open table as listed: its spectator code, its public facts (JSON) and its host's rating.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The spectator code (the table's public code).
    pub watch: String,
    /// [`oh7_table::bodies::Listing`] as JSON.
    pub facts: String,
    /// The host's `(mu, sigma)` in the table's family, if rated.
    pub host_rating: Option<(f64, f64)>,
}

/// A person's place in the quick-match queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// What they wait for.
    pub waiting: Waiting,
    /// The invite of their table, once matched.
    pub matched: Option<String>,
    /// The rating range (mu) their wait had reached when matched.
    pub promised: Option<f64>,
    /// When they were matched (ms).
    pub matched_ms: Option<i64>,
    /// When their page last asked (ms).
    pub seen_ms: i64,
}

/// A report for the operator.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Its id.
    pub id: String,
    /// The reporting account's name.
    pub reporter: String,
    /// The reported person's name.
    pub reported: String,
    /// The table's spectator code, if the report is about a table.
    pub table: Option<String>,
    /// The chat lines pointed at (JSON array of `{seat, name, text}`).
    pub lines: serde_json::Value,
    /// The reporter's words.
    pub reason: String,
    /// When (Unix seconds).
    pub at: i64,
}

/// What a quick-match round decides, given who waits and who blocks whom.
pub type Plan<'a> = &'a (dyn Fn(&[Waiting], &[(String, String)]) -> Vec<Group> + Sync);

/// The public room's store.
pub trait RoomStore: Send + Sync {
    /// The open tables, newest first (at most `n`), less those whose host `viewer` blocked or
    /// who blocked `viewer`.
    fn open_tables<'a>(&'a self, viewer: Option<&'a str>, n: i64) -> BoxFuture<'a, Result<Vec<Listed>, StoreError>>;
    /// The invite of the open table whose spectator code is `watch` (`None`: not open now).
    fn open_invite<'a>(&'a self, watch: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// The host account of the open table whose spectator code is `watch`.
    fn open_host<'a>(&'a self, watch: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// Put `w` in the queue (replacing the account's earlier wait or match).
    fn enqueue<'a>(&'a self, w: &'a Waiting, now_ms: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `account`'s page asked for news at `now_ms` (it is still there).
    fn seen<'a>(&'a self, account: &'a str, now_ms: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Take `account` out of the queue if not matched yet: `true` if it was waiting.
    fn leave_queue<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Forget a matched place (its person has seen their table).
    fn forget_match<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `account`'s place in the queue.
    fn place<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Option<Place>, StoreError>>;
    /// One round of matching, alone (on a shared database, whichever instance runs it): the
    /// people waiting and the blocks between them go through `plan`, and each group's members
    /// are marked matched to its invite in the same transaction; the groups are returned.
    /// Those whose page has been silent since `silent_before` (ms) leave the queue first.
    fn claim<'a>(
        &'a self,
        plan: Plan<'a>,
        now_ms: i64,
        silent_before: i64,
    ) -> BoxFuture<'a, Result<Vec<Group>, StoreError>>;
    /// Put a group's members back in the queue (its table could not be made).
    fn unclaim<'a>(&'a self, invite: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `account` blocks `blocked`.
    fn block<'a>(&'a self, account: &'a str, blocked: &'a str, now: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `account` unblocks `blocked`.
    fn unblock<'a>(&'a self, account: &'a str, blocked: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Whether `a` blocks `b` or `b` blocks `a`.
    fn blocks_between<'a>(&'a self, a: &'a str, b: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// The names `account` blocks.
    fn blocked_by<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;
    /// Keep a report.
    fn report<'a>(&'a self, reporter: &'a str, r: &'a Report) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Every report, newest first.
    fn reports(&self) -> BoxFuture<'_, Result<Vec<Report>, StoreError>>;
    /// Suspend an account: its sessions end, no new one opens. `false`: it was suspended.
    fn suspend<'a>(&'a self, account: &'a str, reason: &'a str, now: i64) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Lift a suspension. `false`: there was none.
    fn unsuspend<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Whether `account` is suspended.
    fn is_suspended<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Close the table of invite or spectator code `code` (finished, unlisted, never loaded
    /// again): its id, `None` if no table has the code.
    fn close_table<'a>(
        &'a self,
        code: &'a str,
        reason: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// Tables closed at or after `since` (Unix seconds).
    fn closed_since(&self, since: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Accounts suspended at or after `since` (Unix seconds), with the time.
    fn suspended_since(&self, since: i64) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>>;
}

/// One row of the queue as read.
type QueueRow =
    (String, String, String, i64, i64, Option<i64>, f64, i64, Option<String>, Option<i64>, Option<f64>, i64);

fn place_of(r: QueueRow) -> Place {
    let (account, name, family, turn_based, rated, bots_after_s, mu, joined_ms, matched, matched_ms, promised, seen_ms) =
        r;
    Place {
        waiting: Waiting {
            account,
            name,
            family,
            turn_based: turn_based != 0,
            rated: rated != 0,
            bots_after_s: bots_after_s.map(|s| s.max(0) as u64),
            mu,
            joined_ms,
        },
        matched,
        promised,
        matched_ms,
        seen_ms,
    }
}

const QUEUE_COLUMNS: &str = "q.account_id, a.name, q.family, q.turn_based, q.rated, q.bots_after_s, q.mu, \
     q.joined_ms, q.matched, q.matched_ms, q.promised, q.seen_ms FROM match_queue q JOIN accounts a ON a.id = q.account_id";

macro_rules! room_store {
    ($pool:ty, $lock:literal) => {
        impl RoomStore for $pool {
            fn open_tables<'a>(
                &'a self,
                viewer: Option<&'a str>,
                n: i64,
            ) -> BoxFuture<'a, Result<Vec<Listed>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, String, Option<f64>, Option<f64>)> = sqlx::query_as(
                        "SELECT o.watch_code, o.facts, r.mu, r.sigma FROM open_tables o \
                         LEFT JOIN ratings r ON r.account_id = o.host_account AND r.family = o.family \
                         WHERE o.host_account IS NULL OR $1 = '' OR NOT EXISTS (SELECT 1 FROM blocks b WHERE \
                         (b.account_id = $1 AND b.blocked_id = o.host_account) OR \
                         (b.account_id = o.host_account AND b.blocked_id = $1)) \
                         ORDER BY o.listed_at DESC, o.table_id LIMIT $2",
                    )
                    .bind(viewer.unwrap_or(""))
                    .bind(n)
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(watch, facts, mu, sigma)| Listed { watch, facts, host_rating: mu.zip(sigma) })
                        .collect())
                })
            }
            fn open_invite<'a>(&'a self, watch: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> = sqlx::query_as(
                        "SELECT t.join_code FROM open_tables o JOIN tables t ON t.id = o.table_id WHERE o.watch_code = $1",
                    )
                    .bind(watch)
                    .fetch_optional(self)
                    .await?;
                    Ok(row.map(|(c,)| c))
                })
            }
            fn open_host<'a>(&'a self, watch: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(Option<String>,)> =
                        sqlx::query_as("SELECT host_account FROM open_tables WHERE watch_code = $1")
                            .bind(watch)
                            .fetch_optional(self)
                            .await?;
                    Ok(row.and_then(|(h,)| h))
                })
            }
            fn seen<'a>(&'a self, account: &'a str, now_ms: i64) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("UPDATE match_queue SET seen_ms = $2 WHERE account_id = $1")
                        .bind(account)
                        .bind(now_ms)
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn enqueue<'a>(&'a self, w: &'a Waiting, now_ms: i64) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    sqlx::query("DELETE FROM match_queue WHERE account_id = $1")
                        .bind(&w.account)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO match_queue (account_id, family, turn_based, rated, bots_after_s, mu, joined_ms, \
                         seen_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .bind(&w.account)
                    .bind(&w.family)
                    .bind(w.turn_based as i64)
                    .bind(w.rated as i64)
                    .bind(w.bots_after_s.map(|s| s as i64))
                    .bind(w.mu)
                    .bind(w.joined_ms)
                    .bind(now_ms)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                })
            }
            fn leave_queue<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query("DELETE FROM match_queue WHERE account_id = $1 AND matched IS NULL")
                        .bind(account)
                        .execute(self)
                        .await?;
                    Ok(r.rows_affected() > 0)
                })
            }
            fn forget_match<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("DELETE FROM match_queue WHERE account_id = $1 AND matched IS NOT NULL")
                        .bind(account)
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn place<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Option<Place>, StoreError>> {
                Box::pin(async move {
                    let row: Option<QueueRow> =
                        sqlx::query_as(&format!("SELECT {QUEUE_COLUMNS} WHERE q.account_id = $1"))
                            .bind(account)
                            .fetch_optional(self)
                            .await?;
                    Ok(row.map(place_of))
                })
            }
            fn claim<'a>(
                &'a self,
                plan: Plan<'a>,
                now_ms: i64,
                silent_before: i64,
            ) -> BoxFuture<'a, Result<Vec<Group>, StoreError>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    // One round at a time, whichever instance runs it.
                    sqlx::query($lock).execute(&mut *tx).await?;
                    sqlx::query("DELETE FROM match_queue WHERE matched IS NULL AND seen_ms < $1")
                        .bind(silent_before)
                        .execute(&mut *tx)
                        .await?;
                    let rows: Vec<QueueRow> = sqlx::query_as(&format!(
                        "SELECT {QUEUE_COLUMNS} WHERE q.matched IS NULL ORDER BY q.joined_ms, q.account_id"
                    ))
                    .fetch_all(&mut *tx)
                    .await?;
                    if rows.is_empty() {
                        return Ok(Vec::new());
                    }
                    let blocks: Vec<(String, String)> = sqlx::query_as(
                        "SELECT b.account_id, b.blocked_id FROM blocks b JOIN match_queue q ON q.account_id = b.account_id \
                         WHERE q.matched IS NULL",
                    )
                    .fetch_all(&mut *tx)
                    .await?;
                    let waiting: Vec<Waiting> = rows.into_iter().map(|r| place_of(r).waiting).collect();
                    let groups = plan(&waiting, &blocks);
                    for g in &groups {
                        for m in &g.members {
                            let r = sqlx::query(
                                "UPDATE match_queue SET matched = $2, matched_ms = $3, promised = $4 \
                                 WHERE account_id = $1 AND matched IS NULL",
                            )
                            .bind(&m.account)
                            .bind(&g.invite)
                            .bind(now_ms)
                            .bind(m.promised)
                            .execute(&mut *tx)
                            .await?;
                            if r.rows_affected() != 1 {
                                return Err(StoreError::Write(format!("{} left the queue meanwhile", m.name)));
                            }
                        }
                    }
                    tx.commit().await?;
                    Ok(groups)
                })
            }
            fn unclaim<'a>(&'a self, invite: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query(
                        "UPDATE match_queue SET matched = NULL, matched_ms = NULL, promised = NULL WHERE matched = $1",
                    )
                    .bind(invite)
                    .execute(self)
                    .await?;
                    Ok(())
                })
            }
            fn block<'a>(
                &'a self,
                account: &'a str,
                blocked: &'a str,
                now: i64,
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO blocks (account_id, blocked_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(account)
                    .bind(blocked)
                    .bind(now)
                    .execute(self)
                    .await?;
                    Ok(())
                })
            }
            fn unblock<'a>(&'a self, account: &'a str, blocked: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("DELETE FROM blocks WHERE account_id = $1 AND blocked_id = $2")
                        .bind(account)
                        .bind(blocked)
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn blocks_between<'a>(&'a self, a: &'a str, b: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> = sqlx::query_as(
                        "SELECT account_id FROM blocks WHERE (account_id = $1 AND blocked_id = $2) \
                         OR (account_id = $2 AND blocked_id = $1) LIMIT 1",
                    )
                    .bind(a)
                    .bind(b)
                    .fetch_optional(self)
                    .await?;
                    Ok(row.is_some())
                })
            }
            fn blocked_by<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String,)> = sqlx::query_as(
                        "SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked_id WHERE b.account_id = $1 \
                         ORDER BY a.name",
                    )
                    .bind(account)
                    .fetch_all(self)
                    .await?;
                    Ok(rows.into_iter().map(|(n,)| n).collect())
                })
            }
            fn report<'a>(&'a self, reporter: &'a str, r: &'a Report) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO reports (id, reporter_id, reported_name, table_id, lines, reason, at) \
                         VALUES ($1, $2, $3, (SELECT id FROM tables WHERE join_code = $4 OR watch_code = $4), $5, $6, $7)",
                    )
                    .bind(&r.id)
                    .bind(reporter)
                    .bind(&r.reported)
                    .bind(&r.table)
                    .bind(r.lines.to_string())
                    .bind(&r.reason)
                    .bind(r.at)
                    .execute(self)
                    .await?;
                    Ok(())
                })
            }
            fn reports(&self) -> BoxFuture<'_, Result<Vec<Report>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, Option<String>, String, Option<String>, String, String, i64)> = sqlx::query_as(
                        "SELECT r.id, a.name, r.reported_name, t.watch_code, r.lines, r.reason, r.at FROM reports r \
                         LEFT JOIN accounts a ON a.id = r.reporter_id LEFT JOIN tables t ON t.id = r.table_id \
                         ORDER BY r.at DESC, r.id",
                    )
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(id, reporter, reported, table, lines, reason, at)| Report {
                            id,
                            reporter: reporter.unwrap_or_else(|| "(deleted)".into()),
                            reported,
                            table,
                            lines: serde_json::from_str(&lines).unwrap_or_default(),
                            reason,
                            at,
                        })
                        .collect())
                })
            }
            fn suspend<'a>(
                &'a self,
                account: &'a str,
                reason: &'a str,
                now: i64,
            ) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    let r = sqlx::query(
                        "INSERT INTO suspensions (account_id, reason, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(account)
                    .bind(reason)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1").bind(account).execute(&mut *tx).await?;
                    sqlx::query("DELETE FROM match_queue WHERE account_id = $1")
                        .bind(account)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(r.rows_affected() > 0)
                })
            }
            fn unsuspend<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query("DELETE FROM suspensions WHERE account_id = $1").bind(account).execute(self).await?;
                    Ok(r.rows_affected() > 0)
                })
            }
            fn is_suspended<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> = sqlx::query_as("SELECT account_id FROM suspensions WHERE account_id = $1")
                        .bind(account)
                        .fetch_optional(self)
                        .await?;
                    Ok(row.is_some())
                })
            }
            fn close_table<'a>(
                &'a self,
                code: &'a str,
                reason: &'a str,
                now: i64,
            ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    let row: Option<(String,)> =
                        sqlx::query_as("SELECT id FROM tables WHERE join_code = $1 OR watch_code = $1")
                            .bind(code)
                            .fetch_optional(&mut *tx)
                            .await?;
                    let Some((id,)) = row else { return Ok(None) };
                    sqlx::query("INSERT INTO closed_tables (table_id, reason, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                        .bind(&id)
                        .bind(reason)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("UPDATE tables SET finished = 1 WHERE id = $1").bind(&id).execute(&mut *tx).await?;
                    sqlx::query("DELETE FROM open_tables WHERE table_id = $1").bind(&id).execute(&mut *tx).await?;
                    tx.commit().await?;
                    Ok(Some(id))
                })
            }
            fn closed_since(&self, since: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String,)> =
                        sqlx::query_as("SELECT table_id FROM closed_tables WHERE at >= $1 ORDER BY at")
                            .bind(since)
                            .fetch_all(self)
                            .await?;
                    Ok(rows.into_iter().map(|(id,)| id).collect())
                })
            }
            fn suspended_since(&self, since: i64) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, i64)> =
                        sqlx::query_as("SELECT account_id, at FROM suspensions WHERE at >= $1 ORDER BY at")
                            .bind(since)
                            .fetch_all(self)
                            .await?;
                    Ok(rows)
                })
            }
        }
    };
}

room_store!(sqlx::SqlitePool, "SELECT 1");
room_store!(sqlx::PgPool, "SELECT pg_advisory_xact_lock(7059)");
