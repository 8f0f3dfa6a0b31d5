//! Accounts, optional: guests play as before. An account is a name and a password (hashed with
//! argon2id, never stored or logged in clear); signing in gives a session, a random token kept
//! by the browser in an `HttpOnly`, `SameSite=Lax` cookie (`Secure` when the server's public
//! address is HTTPS) and by the database only as its SHA-256. `docs/accounts.md` describes the
//! model and its limits.
//!
//! - Sign up, sign in, sign out (this browser) and sign out everywhere (every session of the
//!   account), and deleting the account (with its password): `POST /api/account/...`.
//! - Failed attempts are limited per account name and per address ([`Attempts`]).
//! - A request that changes something and comes from another site is refused (`cross_origin`):
//!   its `Origin` must be this server's, and `Sec-Fetch-Site` must not say `cross-site`.
//! - A deleted account's sessions end with it, at once (they are rows of the account).
//!
//! Both stores keep accounts in the same two tables (`accounts`, `sessions`), through
//! [`AccountStore`], one implementation for either database.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::http::{App, Peer};
use crate::protocol::{ErrorCode, Refusal};
use crate::secrets::{TokenHash, hex, new_code, new_secret};
use crate::store::StoreError;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "oh7_session";
/// How long a session lasts from sign-in.
pub(crate) const SESSION_LIFE: Duration = Duration::from_secs(30 * 24 * 3600);
/// Longest account name, in characters.
pub(crate) const NAME_MAX: usize = 24;
/// Shortest and longest password, in characters.
pub(crate) const PASSWORD_MIN: usize = 8;
pub(crate) const PASSWORD_MAX: usize = 128;
/// Failed sign-ins (and sign-ups) counted over this window.
pub(crate) const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Failed sign-ins allowed per account name within [`WINDOW`].
pub(crate) const PER_NAME: usize = 5;
/// Failed sign-ins and sign-ups allowed per address within [`WINDOW`].
pub(crate) const PER_ADDRESS: usize = 20;

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
    fn deadlines<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<crate::store::Deadline>, StoreError>>;
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
    fn notices_due(&self) -> BoxFuture<'_, Result<Vec<crate::mail::Notice>, StoreError>>;
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
        pub(crate) async fn $name(
            c: &mut $conn,
            table: &str,
            due: &[crate::store::Deadline],
        ) -> Result<(), sqlx::Error> {
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
        let c: crate::table::TableConfig = serde_json::from_str(&config).ok()?;
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
                         WHERE s.token_hash = $1 AND s.created_at > $2",
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
            fn deadlines<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<crate::store::Deadline>, StoreError>> {
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
                            let c: crate::table::TableConfig = serde_json::from_str(&config).ok()?;
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
            fn notices_due(&self) -> BoxFuture<'_, Result<Vec<crate::mail::Notice>, StoreError>> {
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
                        .map(|(table_id, seat, since, due_at, name, email, invite, config)| crate::mail::Notice {
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

/// Names are unique whatever their case and surrounding spaces.
fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// What the database keeps of a session token.
fn token_hash(token: &str) -> String {
    hex(&TokenHash::of(token).0)
}

/// Seconds since 1970 (sessions' ages).
fn now_s() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// An account name: trimmed, 1 to [`NAME_MAX`] characters, letters, digits, spaces and `-_.'`.
pub(crate) fn check_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    let n = name.chars().count();
    let fits = (1..=NAME_MAX).contains(&n)
        && name.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_' || c == '.' || c == '\'');
    if fits {
        Ok(name.to_string())
    } else {
        Err(Refusal::new(
            ErrorCode::BadName,
            format!("A name has 1 to {NAME_MAX} letters, digits, spaces and - _ . ' only."),
        )
        .param("max", NAME_MAX)
        .param("marks", "- _ . '"))
    }
}

/// A password of [`PASSWORD_MIN`] to [`PASSWORD_MAX`] characters.
pub(crate) fn check_password(password: &str) -> Result<(), Refusal> {
    let n = password.chars().count();
    if (PASSWORD_MIN..=PASSWORD_MAX).contains(&n) {
        Ok(())
    } else {
        Err(Refusal::new(
            ErrorCode::BadPassword,
            format!("A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."),
        )
        .param("min", PASSWORD_MIN)
        .param("max", PASSWORD_MAX))
    }
}

/// argon2id with OWASP's first recommended setting (19 MiB, two passes, one lane).
fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(19 * 1024, 2, 1, None).expect("valid parameters"))
}

/// The PHC string of `password` with a fresh random salt.
pub(crate) fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS random source");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    argon2().hash_password(password.as_bytes(), &salt).expect("argon2id hashes any password").to_string()
}

/// Whether `password` is the one hashed in `phc`.
pub(crate) fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash to check against when no account has the name, so that an unknown name takes as long
/// as a wrong password (the answer does not tell which names exist by its time).
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not anybody's password"))
}

/// Failed attempts per account name and per address, over a sliding [`WINDOW`].
#[derive(Default)]
pub(crate) struct Attempts {
    failed: Mutex<Failures>,
}

#[derive(Default)]
struct Failures {
    by_name: HashMap<String, Vec<Instant>>,
    by_address: HashMap<IpAddr, Vec<Instant>>,
}

impl Attempts {
    /// How long until `name` (if any) and `ip` may try again (`None`: now).
    fn wait(&self, name: Option<&str>, ip: IpAddr, now: Instant) -> Option<Duration> {
        let mut f = self.failed.lock().expect("attempts lock");
        let wait = |times: &mut Vec<Instant>, limit: usize| {
            times.retain(|t| now.duration_since(*t) < WINDOW);
            (times.len() >= limit).then(|| WINDOW - now.duration_since(times[times.len() - limit]))
        };
        let by_address = f.by_address.get_mut(&ip).and_then(|t| wait(t, PER_ADDRESS));
        let by_name = name.and_then(|n| f.by_name.get_mut(&name_key(n))).and_then(|t| wait(t, PER_NAME));
        by_address.max(by_name)
    }

    /// One more failure (or sign-up) of `name` (if any) from `ip`.
    fn count(&self, name: Option<&str>, ip: IpAddr, now: Instant) {
        let mut f = self.failed.lock().expect("attempts lock");
        f.by_address.entry(ip).or_default().push(now);
        if let Some(n) = name {
            f.by_name.entry(name_key(n)).or_default().push(now);
        }
        if f.by_address.len() > 100_000 {
            // Forget the addresses whose failures have all aged out.
            f.by_address.retain(|_, t| t.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
            f.by_name.retain(|_, t| t.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
    }
}

/// The account routes.
pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account", get(me).delete(delete))
        .route("/api/account/signup", post(signup))
        .route("/api/account/signin", post(signin))
        .route("/api/account/signout", post(signout))
        .route("/api/account/signout-everywhere", post(signout_everywhere))
        .route("/api/account/tables", get(tables))
        .route("/api/account/turns", get(turns))
        .route("/api/account/email", post(set_email))
        .route("/api/players/{name}", get(crate::profile::page))
        .route("/api/leaderboard/{family}", get(crate::profile::leaderboard))
}

/// Name and password, as the forms send them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The password again (deleting an account).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Confirm {
    password: String,
}

/// Who is signed in.
#[derive(Serialize)]
struct Me<'a> {
    name: &'a str,
    /// The address turn notices go to (`null`: none).
    email: Option<&'a str>,
}

/// A refusal with its HTTP status: what every account handler answers when it changes nothing.
pub(crate) struct Refused(pub(crate) StatusCode, pub(crate) Refusal);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.0, Json(self.1.to_body())).into_response()
    }
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        tracing::error!(error = %e, "account storage failed");
        Refused(
            StatusCode::SERVICE_UNAVAILABLE,
            Refusal::new(ErrorCode::Storage, "The server could not do this now; nothing changed. Try again."),
        )
    }
}

/// A request that changes something must come from this server's own pages: a browser names
/// the page's origin (`Origin`) and whether it is another site's (`Sec-Fetch-Site`); a request
/// from another site is refused, whatever cookie it carries. (Clients that are not browsers send
/// neither, and hold no one else's cookie.)
fn same_origin(headers: &HeaderMap, app: &App) -> Result<(), Refused> {
    let cross = Refused(
        StatusCode::FORBIDDEN,
        Refusal::new(ErrorCode::CrossOrigin, "This request came from another site; nothing changed."),
    );
    if headers.get("sec-fetch-site").is_some_and(|v| v.as_bytes() == b"cross-site") {
        return Err(cross);
    }
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("");
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let public = app.settings.public_url.as_deref().map(|u| u.trim_end_matches('/'));
    let ours =
        !host.is_empty() && origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host);
    if ours || public == Some(origin) { Ok(()) } else { Err(cross) }
}

/// The session token the request's cookie carries.
fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .filter(|t| !t.is_empty())
}

/// The account signed in on this request (`None`: a guest, or an ended session).
pub(crate) async fn signed_in(app: &App, headers: &HeaderMap) -> Result<Option<Account>, StoreError> {
    let Some(token) = cookie_token(headers) else { return Ok(None) };
    app.lobby.accounts().session(token, now_s() - SESSION_LIFE.as_secs() as i64).await
}

/// The account a WebSocket (or a table's creation) acts for: the session's, when the request
/// comes from this server's own page (a page of another site opening a WebSocket to this
/// server carries the cookie in some browsers: it gets a guest's connection). A failed lookup
/// is a guest too.
pub(crate) async fn connection_account(app: &App, headers: &HeaderMap) -> Option<String> {
    cookie_token(headers)?;
    same_origin(headers, app).ok()?;
    match signed_in(app, headers).await {
        Ok(a) => a.map(|a| a.id),
        Err(e) => {
            tracing::warn!(error = %e, "could not read a session; served as a guest");
            None
        }
    }
}

/// The stored account of `name`, or `unknown_player`.
pub(crate) async fn named(app: &App, name: &str) -> Result<Account, Refused> {
    match app.lobby.accounts().account_named(name).await? {
        Some(s) => Ok(s.account),
        None => Err(Refused(StatusCode::NOT_FOUND, Refusal::new(ErrorCode::UnknownPlayer, "No player has this name."))),
    }
}

/// The account signed in, or `signed_out`.
async fn account_of(app: &App, headers: &HeaderMap) -> Result<Account, Refused> {
    signed_in(app, headers)
        .await?
        .ok_or_else(|| Refused(StatusCode::UNAUTHORIZED, Refusal::new(ErrorCode::SignedOut, "You are not signed in.")))
}

/// The cookie that holds `token` (or, `None`, ends it).
fn set_cookie(app: &App, token: Option<&str>) -> [(header::HeaderName, String); 1] {
    let secure = app.settings.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    let secure = if secure { "; Secure" } else { "" };
    let value = match token {
        Some(t) => format!("{COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", SESSION_LIFE.as_secs()),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    [(header::SET_COOKIE, value)]
}

/// Read a JSON object of type `T`.
fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Refused> {
    serde_json::from_slice(bytes)
        .map_err(|e| Refused(StatusCode::BAD_REQUEST, Refusal::new(ErrorCode::BadRequest, e.to_string())))
}

/// `too_many` while `name` (if any) or `ip` has failed too often.
fn not_held(app: &App, name: Option<&str>, ip: IpAddr) -> Result<(), Refused> {
    let Some(wait) = app.attempts.wait(name, ip, Instant::now()) else { return Ok(()) };
    let s = wait.as_secs().max(1);
    Err(Refused(
        StatusCode::TOO_MANY_REQUESTS,
        Refusal::new(ErrorCode::TooMany, format!("Too many attempts; try again in {} min.", s.div_ceil(60)))
            .param("retry_after_s", s),
    ))
}

/// Whether `password` is `phc`'s (off the async workers: argon2id takes tens of milliseconds).
async fn verify(password: String, phc: String) -> bool {
    tokio::task::spawn_blocking(move || verify_password(&password, &phc)).await.unwrap_or(false)
}

fn wrong(message: &str) -> Refused {
    Refused(StatusCode::UNAUTHORIZED, Refusal::new(ErrorCode::BadCredentials, message))
}

/// Open a session for `account` and answer with its cookie.
async fn open(app: &App, account: &Account, status: StatusCode) -> Result<Response, Refused> {
    let token = new_secret();
    app.lobby.accounts().open_session(&token, &account.id, now_s()).await?;
    let email = app.lobby.accounts().email_of(&account.id).await?;
    Ok((status, set_cookie(app, Some(&token)), Json(Me { name: &account.name, email: email.as_deref() }))
        .into_response())
}

async fn signup(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Credentials = body(&bytes)?;
    let name = check_name(&c.name).map_err(|r| Refused(StatusCode::BAD_REQUEST, r))?;
    check_password(&c.password).map_err(|r| Refused(StatusCode::BAD_REQUEST, r))?;
    let ip = addr.ip();
    not_held(&app, None, ip)?;
    // Sign-ups count against the address as failures do: an address cannot make accounts
    // without end.
    app.attempts.count(None, ip, Instant::now());
    let password = c.password;
    let hash = tokio::task::spawn_blocking(move || hash_password(&password)).await.map_err(|_| StoreError::Closed)?;
    let account = Account { id: new_code(), name };
    let stored = StoredAccount { account: account.clone(), password: hash };
    match app.lobby.accounts().create_account(&stored, now_s()).await {
        Err(StoreError::Taken) => Err(Refused(
            StatusCode::CONFLICT,
            Refusal::new(ErrorCode::NameTaken, "An account has this name already; choose another."),
        )),
        r => {
            r?;
            tracing::info!(account = %account.id, "account created");
            open(&app, &account, StatusCode::CREATED).await
        }
    }
}

async fn signin(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Credentials = body(&bytes)?;
    let ip = addr.ip();
    not_held(&app, Some(&c.name), ip)?;
    let stored = app.lobby.accounts().account_named(&c.name).await?;
    // An unknown name is checked against a stand-in hash: it takes as long as a wrong password.
    // (Verified before the match: a guard on `Some` would skip it for an unknown name.)
    let phc = stored.as_ref().map_or_else(|| dummy_hash().to_string(), |s| s.password.clone());
    let verified = verify(c.password, phc).await;
    match stored {
        Some(s) if verified => open(&app, &s.account, StatusCode::OK).await,
        _ => {
            app.attempts.count(Some(&c.name), ip, Instant::now());
            Err(wrong("Wrong name or password."))
        }
    }
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let email = app.lobby.accounts().email_of(&a.id).await?;
    Ok(Json(Me { name: &a.name, email: email.as_deref() }).into_response())
}

/// `POST /api/account/email`: `{"email": "ann@example.org"}` sets the address turn notices go
/// to, `{"email": null}` (or `""`) removes it.
async fn set_email(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let b: EmailBody = body(&bytes)?;
    let email = b.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
    if let Some(e) = email
        && !crate::mail::valid_address(e)
    {
        return Err(Refused(
            StatusCode::BAD_REQUEST,
            Refusal::new(ErrorCode::BadEmail, "This is not an email address (name@example.org)."),
        ));
    }
    app.lobby.accounts().set_email(&a.id, email).await?;
    Ok(Json(Me { name: &a.name, email }).into_response())
}

/// `POST /api/account/email`'s body.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EmailBody {
    email: Option<String>,
}

/// The tables where the signed-in account holds a seat, newest first.
async fn tables(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let seats = app.lobby.accounts().tables_of(&a.id).await?;
    Ok(Json(TablesBody { tables: seats }).into_response())
}

/// The turn-based tables where it is the signed-in account's turn, soonest due first.
async fn turns(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let turns = app.lobby.accounts().turns_of(&a.id).await?;
    Ok(Json(TurnsBody { turns }).into_response())
}

/// `GET /api/account/turns`.
#[derive(Serialize)]
struct TurnsBody {
    turns: Vec<Turn>,
}

/// `GET /api/account/tables`.
#[derive(Serialize)]
struct TablesBody {
    tables: Vec<HeldSeat>,
}

async fn signout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    if let Some(token) = cookie_token(&headers) {
        app.lobby.accounts().end_session(token).await?;
    }
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

async fn signout_everywhere(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let account = account_of(&app, &headers).await?;
    app.lobby.accounts().end_sessions(&account.id).await?;
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

async fn delete(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Confirm = body(&bytes)?;
    let account = account_of(&app, &headers).await?;
    let ip = addr.ip();
    not_held(&app, Some(&account.name), ip)?;
    let Some(stored) = app.lobby.accounts().account_named(&account.name).await? else {
        return Err(wrong("Wrong password; nothing changed."));
    };
    if !verify(c.password, stored.password).await {
        app.attempts.count(Some(&account.name), ip, Instant::now());
        return Err(wrong("Wrong password; nothing changed."));
    }
    app.lobby.accounts().delete_account(&account.id).await?;
    tracing::info!(account = %account.id, "account deleted");
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        // A fresh salt each time.
        assert_ne!(h, hash_password("correct horse"));
    }

    #[test]
    fn names_and_passwords_are_checked() {
        assert_eq!(check_name("  Ann-Marie O'Neil ").unwrap(), "Ann-Marie O'Neil");
        assert_eq!(check_name("Zoé").unwrap(), "Zoé");
        for bad in ["", "   ", "a<b", "x\ny", &"n".repeat(NAME_MAX + 1)] {
            assert_eq!(check_name(bad).unwrap_err().code, ErrorCode::BadName, "{bad:?}");
        }
        assert!(check_password("12345678").is_ok());
        assert_eq!(check_password("1234567").unwrap_err().code, ErrorCode::BadPassword);
        assert_eq!(check_password(&"p".repeat(PASSWORD_MAX + 1)).unwrap_err().code, ErrorCode::BadPassword);
    }

    #[test]
    fn failures_are_limited_per_name_and_per_address_and_age_out() {
        let a = Attempts::default();
        let t0 = Instant::now();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..PER_NAME {
            assert_eq!(a.wait(Some("Ann"), ip, t0), None);
            a.count(Some("ann "), ip, t0);
        }
        // The name is held, whatever the case; another name from the address is not (yet).
        assert!(a.wait(Some("ANN"), ip, t0).is_some());
        assert_eq!(a.wait(Some("Bob"), ip, t0), None);
        for _ in PER_NAME..PER_ADDRESS {
            a.count(None, ip, t0);
        }
        assert!(a.wait(Some("Bob"), ip, t0).is_some(), "the address is held");
        assert_eq!(a.wait(Some("Bob"), "10.0.0.2".parse().unwrap(), t0), None, "another address is not");
        assert!(a.wait(Some("Ann"), ip, t0 + WINDOW - Duration::from_secs(1)).is_some());
        assert_eq!(a.wait(Some("Ann"), ip, t0 + WINDOW), None, "failures age out");
    }

    #[test]
    fn the_session_cookie_is_read_among_others() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "a=1; oh7_session=abc; b=2".parse().unwrap());
        assert_eq!(cookie_token(&h), Some("abc"));
        h.insert(header::COOKIE, "oh7_sessionx=abc; oh7_session=".parse().unwrap());
        assert_eq!(cookie_token(&h), None);
    }
}
