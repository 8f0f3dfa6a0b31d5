//! The accounts' store: what the two tables (`accounts`, `sessions`) and the seats, reviews,
//! ratings and deadlines linked to accounts hold, through [`AccountStore`], one implementation
//! for either database.

use futures_util::future::BoxFuture;
use serde::Serialize;

use super::rules::{name_key, token_hash};
use crate::db::StoreError;

/// A notice to send: the turn it tells of and where it goes.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The table's internal id (never in the mail).
    pub table_id: String,
    /// The seat that owes a decision.
    pub seat: usize,
    /// The version since which it owes it (the notice's key with the table and seat).
    pub since: u64,
    /// When the decision is due (Unix seconds).
    pub due_at: i64,
    /// The account's name.
    pub name: String,
    /// The account's address.
    pub email: String,
    /// The table's invite code (the link `/t/CODE`; the account holds the seat).
    pub invite: String,
    /// The table's stored settings (JSON), for its rules' name and language.
    pub config: String,
}

/// A signed-in person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's id (never shown; its games are linked by it).
    pub id: String,
    /// The name, as typed at sign-up.
    pub name: String,
}

/// An account as stored: with its password's hash (a PHC string).
#[derive(Clone, Debug)]
pub struct StoredAccount {
    /// Who.
    pub account: Account,
    /// The argon2id hash of the password, PHC format (algorithm, parameters and salt included).
    pub password: String,
}

/// The accounts and sessions of a store.
pub trait AccountStore: Send + Sync {
    /// Add an account; [`StoreError::Taken`] when its name (compared case-insensitively) is.
    fn create_account<'a>(&'a self, a: &'a StoredAccount, now: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The account of this name (case-insensitively).
    fn account_named<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Option<StoredAccount>, StoreError>>;
    /// Open a session (its token's hash) for `account`.
    fn open_session<'a>(&'a self, token: &'a str, account: &'a str, now: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The account of a session opened after `since`.
    fn session<'a>(&'a self, token: &'a str, since: i64) -> BoxFuture<'a, Result<Option<Account>, StoreError>>;
    /// End one session (by its token's hash).
    fn end_session<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// End every session of an account.
    fn end_sessions<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Delete an account, its sessions and its links to seats.
    fn delete_account<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `(seat, account id)` of the seats of `table` that accounts hold.
    fn links<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<(usize, String)>, StoreError>>;
    /// The tables where `account` holds a seat, newest first (at most [`GAMES_LISTED`]).
    fn tables_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<HeldSeat>, StoreError>>;
    /// `account`'s ratings and their history (oldest first), per family.
    fn ratings_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<RatingBody>, StoreError>>;
    /// The best rated accounts of a family (at most `n`), best first.
    fn leaderboard<'a>(&'a self, family: &'a str, n: i64) -> BoxFuture<'a, Result<Vec<Standing>, StoreError>>;
    /// A turn-based table's deadlines: `(seat, since version, due at)`.
    fn deadlines<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<crate::db::Deadline>, StoreError>>;
    /// The tables with a deadline due at `now` or before.
    fn due_tables(&self, now: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// The turn-based tables where `account`'s seat owes a decision, soonest due first.
    fn turns_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<Turn>, StoreError>>;
    /// The reviews made of the seats `account` holds.
    fn reviews_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<OwnReview>, StoreError>>;
    /// Set (or, `None`, remove) the address turn notices go to.
    fn set_email<'a>(&'a self, account: &'a str, email: Option<&'a str>) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The address turn notices go to.
    fn email_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// The turns owed by seats whose account has an address and has not been told yet.
    fn notices_due(&self) -> BoxFuture<'_, Result<Vec<Notice>, StoreError>>;
    /// Claim the notice of a turn: `true` for the one caller that claims it first.
    fn claim_notice<'a>(
        &'a self,
        table: &'a str,
        seat: usize,
        since: u64,
        now: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Give a claim back (its mail did not go).
    fn unclaim_notice<'a>(&'a self, table: &'a str, seat: usize, since: u64) -> BoxFuture<'a, Result<(), StoreError>>;
}

/// A review of one of an account's seats (shown to that account only).
#[derive(Clone, Debug, Serialize)]
pub struct OwnReview {
    /// The table's internal id (never sent).
    #[serde(skip)]
    pub table_id: String,
    /// The game's number at the table.
    pub game: u32,
    /// The reviewed seat.
    pub seat: usize,
    /// The reviewing level.
    pub level: String,
    /// Its share code (`/review/CODE`).
    pub share: String,
}

/// A turn-based table where it is an account's turn.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// The table's invite code.
    pub invite: String,
    /// The table's game (`oh7`, `seven`) and rules' label (`en`, `kod7`, …).
    pub game: &'static str,
    /// The rules' label.
    pub rules: String,
    /// Players at the table.
    pub players: usize,
    /// The account's seat.
    pub seat: usize,
    /// When the decision is due (Unix seconds); then a bot makes it.
    pub due_at: i64,
}

/// Replace a table's deadlines in an open transaction (either database).
macro_rules! write_deadlines {
    ($name:ident, $conn:ty) => {
        pub(crate) async fn $name(c: &mut $conn, table: &str, due: &[crate::db::Deadline]) -> Result<(), sqlx::Error> {
            sqlx::query("DELETE FROM deadlines WHERE table_id = $1").bind(table).execute(&mut *c).await?;
            for (seat, since, at) in due {
                sqlx::query("INSERT INTO deadlines (table_id, seat, since, due_at) VALUES ($1, $2, $3, $4)")
                    .bind(table)
                    .bind(*seat as i64)
                    .bind(*since as i64)
                    .bind(*at)
                    .execute(&mut *c)
                    .await?;
            }
            Ok(())
        }
    };
}

write_deadlines!(write_deadlines_sqlite, sqlx::SqliteConnection);
write_deadlines!(write_deadlines_pg, sqlx::PgConnection);

/// An account's rating in one family, in a player's page.
#[derive(Clone, Debug, Serialize)]
pub struct RatingBody {
    /// The family (`oh7:en`, `seven`).
    pub family: String,
    /// The rating shown (`mu − 3·sigma`).
    pub rating: f64,
    /// Weng-Lin's mean.
    pub mu: f64,
    /// Weng-Lin's uncertainty.
    pub sigma: f64,
    /// Rated games.
    pub games: i64,
    /// `(Unix seconds, rating shown)` after each rated game, oldest first.
    pub history: Vec<(i64, f64)>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The account's name.
    pub name: String,
    /// The rating shown.
    pub rating: f64,
    /// Rated games.
    pub games: i64,
}

/// Link a seat to an account; a seat's first link stays.
pub(crate) const INSERT_LINK: &str =
    "INSERT INTO seat_accounts (table_id, seat, account_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

/// Most tables an account's list shows.
pub(crate) const GAMES_LISTED: i64 = 200;

/// A seat an account holds: its table's invite code (the account's own to see: it sits there),
/// the table's game and rules, when it was made, whether its game is over.
#[derive(Clone, Debug, Serialize)]
pub struct HeldSeat {
    /// The table's internal id (never sent).
    #[serde(skip)]
    pub table_id: String,
    /// The table's invite code (its link is `/t/CODE`).
    pub invite: String,
    /// The table's watch code (`/w/CODE` to watch, `/replay/CODE` for its last finished game).
    pub watch: String,
    /// The seat.
    pub seat: usize,
    /// The game (`oh7`, `seven`).
    pub game: &'static str,
    /// The rules' label (`en`, `fr-advanced`, a custom ruleset's).
    pub rules: String,
    /// Players at the table.
    pub players: usize,
    /// The table's language.
    pub lang: String,
    /// Creation time, Unix seconds.
    pub created_at: i64,
    /// The table's last game is over.
    pub finished: bool,
}

impl HeldSeat {
    /// From a stored row (`None`: settings this server cannot read).
    fn of(row: (String, String, String, i64, String, i64, i64)) -> Option<HeldSeat> {
        let (table_id, invite, watch, seat, config, created_at, finished) = row;
        let c: oh7_table::core::TableConfig = serde_json::from_str(&config).ok()?;
        Some(HeldSeat {
            table_id,
            invite,
            watch,
            seat: seat as usize,
            game: c.spec.game_name(),
            rules: c.spec.label(),
            players: c.players,
            lang: c.lang,
            created_at,
            finished: finished != 0,
        })
    }
}

/// The same statements on either database (sqlx reads `$1` on both).
macro_rules! account_store {
    ($pool:ty) => {
        impl AccountStore for $pool {
            fn create_account<'a>(&'a self, a: &'a StoredAccount, now: i64) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query(
                        "INSERT INTO accounts (id, name, name_key, password, created_at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&a.account.id)
                    .bind(&a.account.name)
                    .bind(name_key(&a.account.name))
                    .bind(&a.password)
                    .bind(now)
                    .execute(self)
                    .await;
                    match r {
                        Ok(_) => Ok(()),
                        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(StoreError::Taken),
                        Err(e) => Err(e.into()),
                    }
                })
            }
            fn account_named<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Option<StoredAccount>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String, String, String)> =
                        sqlx::query_as("SELECT id, name, password FROM accounts WHERE name_key = $1")
                            .bind(name_key(name))
                            .fetch_optional(self)
                            .await?;
                    Ok(row.map(|(id, name, password)| StoredAccount { account: Account { id, name }, password }))
                })
            }
            fn open_session<'a>(
                &'a self,
                token: &'a str,
                account: &'a str,
                now: i64,
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, $3)")
                        .bind(token_hash(token))
                        .bind(account)
                        .bind(now)
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn session<'a>(&'a self, token: &'a str, since: i64) -> BoxFuture<'a, Result<Option<Account>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String, String)> = sqlx::query_as(
                        "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id \
                         WHERE s.token_hash = $1 AND s.created_at > $2 \
                         AND NOT EXISTS (SELECT 1 FROM suspensions x WHERE x.account_id = a.id)",
                    )
                    .bind(token_hash(token))
                    .bind(since)
                    .fetch_optional(self)
                    .await?;
                    Ok(row.map(|(id, name)| Account { id, name }))
                })
            }
            fn end_session<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                        .bind(token_hash(token))
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn end_sessions<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1").bind(account).execute(self).await?;
                    Ok(())
                })
            }
            fn delete_account<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1").bind(account).execute(&mut *tx).await?;
                    sqlx::query("DELETE FROM seat_accounts WHERE account_id = $1")
                        .bind(account)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM accounts WHERE id = $1").bind(account).execute(&mut *tx).await?;
                    tx.commit().await?;
                    Ok(())
                })
            }
            fn links<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<(usize, String)>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(i64, String)> =
                        sqlx::query_as("SELECT seat, account_id FROM seat_accounts WHERE table_id = $1 ORDER BY seat")
                            .bind(table)
                            .fetch_all(self)
                            .await?;
                    Ok(rows.into_iter().map(|(s, a)| (s as usize, a)).collect())
                })
            }
            fn tables_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<HeldSeat>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, String, String, i64, String, i64, i64)> = sqlx::query_as(
                        "SELECT t.id, t.join_code, t.watch_code, l.seat, t.config, t.created_at, CAST(t.finished AS BIGINT) \
                         FROM seat_accounts l JOIN tables t ON t.id = l.table_id \
                         WHERE l.account_id = $1 ORDER BY t.created_at DESC, t.id LIMIT $2",
                    )
                    .bind(account)
                    .bind(GAMES_LISTED)
                    .fetch_all(self)
                    .await?;
                    Ok(rows.into_iter().filter_map(HeldSeat::of).collect())
                })
            }
            fn ratings_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<RatingBody>, StoreError>> {
                Box::pin(async move {
                    let now: Vec<(String, f64, f64, i64)> = sqlx::query_as(
                        "SELECT family, mu, sigma, games FROM ratings WHERE account_id = $1 ORDER BY games DESC, family",
                    )
                    .bind(account)
                    .fetch_all(self)
                    .await?;
                    let past: Vec<(String, i64, f64, f64)> = sqlx::query_as(
                        "SELECT family, at, mu, sigma FROM rating_history WHERE account_id = $1 ORDER BY at, table_id, game",
                    )
                    .bind(account)
                    .fetch_all(self)
                    .await?;
                    Ok(now
                        .into_iter()
                        .map(|(family, mu, sigma, games)| RatingBody {
                            rating: crate::ratings::shown(mu, sigma),
                            history: past
                                .iter()
                                .filter(|p| p.0 == family)
                                .map(|p| (p.1, crate::ratings::shown(p.2, p.3)))
                                .collect(),
                            family,
                            mu,
                            sigma,
                            games,
                        })
                        .collect())
                })
            }
            fn deadlines<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<crate::db::Deadline>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(i64, i64, i64)> =
                        sqlx::query_as("SELECT seat, since, due_at FROM deadlines WHERE table_id = $1 ORDER BY seat")
                            .bind(table)
                            .fetch_all(self)
                            .await?;
                    Ok(rows.into_iter().map(|(s, v, d)| (s as usize, v as u64, d)).collect())
                })
            }
            fn due_tables(&self, now: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String,)> =
                        sqlx::query_as("SELECT DISTINCT table_id FROM deadlines WHERE due_at <= $1 LIMIT 1000")
                            .bind(now)
                            .fetch_all(self)
                            .await?;
                    Ok(rows.into_iter().map(|(t,)| t).collect())
                })
            }
            fn turns_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<Turn>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, String, i64, i64)> = sqlx::query_as(
                        "SELECT t.join_code, t.config, d.seat, d.due_at FROM deadlines d \
                         JOIN seat_accounts l ON l.table_id = d.table_id AND l.seat = d.seat \
                         JOIN tables t ON t.id = d.table_id WHERE l.account_id = $1 ORDER BY d.due_at",
                    )
                    .bind(account)
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .filter_map(|(invite, config, seat, due_at)| {
                            let c: oh7_table::core::TableConfig = serde_json::from_str(&config).ok()?;
                            Some(Turn {
                                invite,
                                game: c.spec.game_name(),
                                rules: c.spec.label(),
                                players: c.players,
                                seat: seat as usize,
                                due_at,
                            })
                        })
                        .collect())
                })
            }
            fn set_email<'a>(&'a self, account: &'a str, email: Option<&'a str>) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("UPDATE accounts SET email = $1 WHERE id = $2").bind(email).bind(account).execute(self).await?;
                    Ok(())
                })
            }
            fn email_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let r: Option<(Option<String>,)> =
                        sqlx::query_as("SELECT email FROM accounts WHERE id = $1").bind(account).fetch_optional(self).await?;
                    Ok(r.and_then(|r| r.0))
                })
            }
            fn notices_due(&self) -> BoxFuture<'_, Result<Vec<Notice>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, i64, i64, i64, String, String, String, String)> = sqlx::query_as(
                        "SELECT d.table_id, d.seat, d.since, d.due_at, a.name, a.email, t.join_code, t.config \
                         FROM deadlines d \
                         JOIN seat_accounts l ON l.table_id = d.table_id AND l.seat = d.seat \
                         JOIN accounts a ON a.id = l.account_id \
                         JOIN tables t ON t.id = d.table_id \
                         WHERE a.email IS NOT NULL AND NOT EXISTS (SELECT 1 FROM notices n \
                           WHERE n.table_id = d.table_id AND n.seat = d.seat AND n.since = d.since) \
                         ORDER BY d.due_at",
                    )
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(table_id, seat, since, due_at, name, email, invite, config)| Notice {
                            table_id,
                            seat: seat as usize,
                            since: since as u64,
                            due_at,
                            name,
                            email,
                            invite,
                            config,
                        })
                        .collect())
                })
            }
            fn claim_notice<'a>(&'a self, table: &'a str, seat: usize, since: u64, now: i64) -> BoxFuture<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query(
                        "INSERT INTO notices (table_id, seat, since, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    )
                    .bind(table)
                    .bind(seat as i64)
                    .bind(since as i64)
                    .bind(now)
                    .execute(self)
                    .await?;
                    Ok(r.rows_affected() == 1)
                })
            }
            fn unclaim_notice<'a>(&'a self, table: &'a str, seat: usize, since: u64) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    sqlx::query("DELETE FROM notices WHERE table_id = $1 AND seat = $2 AND since = $3")
                        .bind(table)
                        .bind(seat as i64)
                        .bind(since as i64)
                        .execute(self)
                        .await?;
                    Ok(())
                })
            }
            fn reviews_of<'a>(&'a self, account: &'a str) -> BoxFuture<'a, Result<Vec<OwnReview>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, i64, i64, String, String)> = sqlx::query_as(
                        "SELECT r.table_id, CAST(r.game AS BIGINT), CAST(r.seat AS BIGINT), r.level, r.share FROM reviews r \
                         JOIN seat_accounts l ON l.table_id = r.table_id AND l.seat = r.seat \
                         WHERE l.account_id = $1 ORDER BY r.created_at DESC",
                    )
                    .bind(account)
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(table_id, game, seat, level, share)| OwnReview {
                            table_id,
                            game: game as u32,
                            seat: seat as usize,
                            level,
                            share,
                        })
                        .collect())
                })
            }
            fn leaderboard<'a>(&'a self, family: &'a str, n: i64) -> BoxFuture<'a, Result<Vec<Standing>, StoreError>> {
                Box::pin(async move {
                    let rows: Vec<(String, f64, f64, i64)> = sqlx::query_as(
                        "SELECT a.name, r.mu, r.sigma, r.games FROM ratings r JOIN accounts a ON a.id = r.account_id \
                         WHERE r.family = $1 ORDER BY r.mu - 3 * r.sigma DESC, a.name_key LIMIT $2",
                    )
                    .bind(family)
                    .bind(n)
                    .fetch_all(self)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(name, mu, sigma, games)| Standing { name, rating: crate::ratings::shown(mu, sigma), games })
                        .collect())
                })
            }
        }
    };
}

account_store!(sqlx::SqlitePool);
account_store!(sqlx::PgPool);
