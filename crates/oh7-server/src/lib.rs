//! oh7 online: the game server behind `oh7 serve`.
//!
//! What it is for: tables that people join by link, play over one WebSocket each, with bots in
//! the empty seats and for those who dropped out; every change committed to an append-only log
//! in SQLite before anyone is told; every message built from one viewer's seat view
//! ([`project`]), so nobody peeks.
//!
//! What it is not: it knows no rules. The engine (`oh7-core`) decides what is legal and what each
//! seat may see; the bots (`oh7-bots`) decide for bot seats.
//!
//! Shape: [`http`] (axum routes and the WebSocket of each client) → [`lobby`] (tables by code,
//! secrets, limits per address) → one [`table`] task per table (owns the game, commits through
//! [`store`], broadcasts through [`project`]).

pub mod accounts;
pub mod admin;
pub(crate) mod app;
/// The table library's modules, as the server's clients and tests have always named them.
pub use oh7_table::{patch, project, protocol};
#[cfg(feature = "client")]
pub mod client;
pub mod clock;
pub mod db;
pub(crate) mod http;
pub(crate) mod journal;
pub(crate) mod listen;
pub(crate) mod lobby;
pub mod mail;
pub mod metrics;
pub(crate) mod migrations;
pub mod pg;
pub mod proxy;
pub mod ratings;
pub(crate) mod reviews;
pub mod room;
pub mod secrets;
pub mod settings;
pub mod store;
pub(crate) mod table;

/// The browser client's files, embedded (`oh7 web` writes them out).
pub use http::files as web;
pub(crate) use settings::spawn_in;
pub use settings::{HEARTBEAT, Settings};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database.
    #[error("{0}")]
    Store(#[from] store::StoreError),
    /// Restoring a table from its log.
    #[error("restoring the tables: {0}")]
    Restore(String),
    /// The address.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The mail settings.
    #[error("{0}")]
    Mail(#[from] mail::MailSettingError),
    /// Another metrics recorder is installed in this process.
    #[error("cannot record metrics: another recorder is installed in this process")]
    Metrics,
}

/// A running server.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Where its metrics page is served (`--metrics-addr`).
    pub metrics_addr: Option<SocketAddr>,
    /// Tables restored from the log at start.
    pub restored: usize,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
    app: Arc<app::App>,
}

impl Running {
    /// Stop cleanly: tell every client, let every table finish its commit, close the database.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.done.await;
    }

    /// How many tables are in memory now (unloaded idle tables not counted).
    pub async fn loaded_tables(&self) -> usize {
        self.app.lobby.handles().await.len()
    }

    /// Wait until the server has stopped (after [`Running::stop`] or a signal given to `serve`).
    pub async fn wait(self) {
        let _ = self.done.await;
    }
}

/// Where the server keeps its tables and their logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file of this instance (created if absent).
    Sqlite(PathBuf),
    /// A PostgreSQL database shared with other instances (`postgres://user:password@host/db`).
    Postgres(String),
}

impl std::str::FromStr for Database {
    type Err = std::convert::Infallible;
    /// `postgres://…` or `postgresql://…` is a PostgreSQL URL; anything else, an SQLite file.
    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Database::Postgres(s.to_string())
        } else {
            Database::Sqlite(PathBuf::from(s))
        })
    }
}

impl std::fmt::Display for Database {
    /// The database as it may be printed or logged: a PostgreSQL URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => match (url.find("://"), url.rfind('@')) {
                (Some(scheme), Some(at)) if at > scheme => {
                    let user = url[scheme + 3..at].split(':').next().unwrap_or("");
                    write!(f, "{}{user}:***{}", &url[..scheme + 3], &url[at..])
                }
                _ => f.write_str(url),
            },
        }
    }
}

/// Open `db`, restore every unfinished table, and listen on `addr`. The server runs until
/// [`Running::stop`] or until `shutdown` completes.
pub async fn start(
    addr: SocketAddr,
    db: Database,
    settings: Settings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Running, ServeError> {
    let header_timeout = settings.header_timeout;
    let mailer = match &settings.smtp {
        Some(relay) => Some(mail::Mailer::new(relay, &settings.mail_from)?),
        None => None,
    };
    let settings = Arc::new(settings);
    let store: Arc<dyn store::Store> = match &db {
        Database::Postgres(url) => Arc::new(pg::PgStore::open(url, &secrets::new_code(), settings.lease).await?),
        Database::Sqlite(path) => Arc::new(store::SqliteStore::open(path).await?),
    };
    // The metrics recorder before any table is loaded: a table restored or claimed at the start
    // is counted like any other (a gauge raised before the recorder existed was lost, and its
    // fall when the table unloaded made it negative).
    let (stopping_tx, stopping_rx) = watch::channel(false);
    let mut metrics_addr = None;
    if let Some(maddr) = settings.metrics_addr {
        let bind = |source| ServeError::Bind { addr: maddr, source };
        let listener = TcpListener::bind(maddr).await.map_err(bind)?;
        metrics_addr = Some(listener.local_addr().map_err(bind)?);
        let handle = metrics::recorder().ok_or(ServeError::Metrics)?;
        let pools = store.clone();
        metrics::serve(listener, handle, Arc::new(move || pools.pool_state()), stopping_rx.clone());
    }
    let reviews = reviews::Reviews::new(store.clone(), settings.review_level, settings.review_jobs);
    let lobby = lobby::Lobby::new(store.clone(), settings.clone(), reviews);
    let listener = TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
    let url = settings.public_url.clone().unwrap_or_else(|| format!("http://{addr}"));
    // On a shared database, say where this instance is before it holds any table, so the
    // others can send the tables' clients here from the first lease on.
    let start = tracing::info_span!("task", kind = "start");
    tracing::Instrument::instrument(lobby.heartbeat(&url), start.clone()).await;
    let restored = tracing::Instrument::instrument(lobby.restore(), start).await.map_err(ServeError::Restore)?;
    let listener = listen::HeaderTimeoutListener::new(listener, header_timeout);
    let every = settings.lease / 3;
    let app = Arc::new(app::App::new(lobby, settings, stopping_rx));
    let handle_app = app.clone();
    if store.cluster().is_some() {
        // The heartbeat: alive at `url`, leases renewed, lost tables stopped, the tables of
        // instances that died claimed.
        let app = app.clone();
        let url = url.clone();
        spawn_in("heartbeat", async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while !app.lobby.is_closing() {
                tick.tick().await;
                app.lobby.heartbeat(&url).await;
            }
        });
    }
    {
        // Turn-based tables' deadlines, however long nobody looks at the table; then the turn
        // notices by mail.
        let app = app.clone();
        let every = app.settings.deadline_sweep;
        let url = url.clone();
        spawn_in("deadlines", async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut operator_since = app.settings.clock.now_s();
            while !app.lobby.is_closing() {
                tick.tick().await;
                app.lobby.sweep_deadlines().await;
                operator_since = app.lobby.sweep_operator(operator_since).await;
                if let Some(m) = &mailer
                    && let Err(e) = mail::send_notices(
                        app.lobby.accounts(),
                        app.settings.clock.now_s(),
                        app.settings.notice_after,
                        m,
                        &url,
                    )
                    .await
                {
                    tracing::warn!(error = %e, "could not read the turn notices due");
                }
            }
        });
    }
    {
        // Quick match: a round every `match_every` (alone on a shared database: the round
        // locks the queue).
        let app = app.clone();
        let every = app.settings.match_every;
        spawn_in("match", async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while !app.lobby.is_closing() {
                tick.tick().await;
                app.lobby.match_round().await;
            }
        });
    }
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let routes = http::router(app.clone()).into_make_service_with_connect_info::<app::Peer>();
    let done = spawn_in("serve", async move {
        let signal = async move {
            tokio::select! {
                _ = stop_rx => {},
                _ = shutdown => {},
            }
            tracing::info!("stopping: telling the tables");
            // Tables first: each answers after its last commit and tells its clients.
            app.lobby.close().await;
            for h in app.lobby.handles().await {
                let (tx, rx) = oneshot::channel();
                if h.tx.send(table::TableMsg::Shutdown { reply: tx }).await.is_ok() {
                    let _ = rx.await;
                }
            }
            let _ = stopping_tx.send(true);
        };
        // axum runs the signal in a task of its own: the span goes with it.
        let signal = tracing::Instrument::instrument(signal, tracing::info_span!("task", kind = "stop"));
        if let Err(e) = axum::serve(listener, routes).with_graceful_shutdown(signal).await {
            tracing::error!(error = %e, "server error");
        }
        store.close().await;
        tracing::info!("stopped; the database is closed");
    });
    Ok(Running { addr, metrics_addr, restored, stop: Some(stop_tx), done, app: handle_app })
}

#[cfg(test)]
mod database_tests {
    use super::Database;

    #[test]
    fn a_database_password_is_never_printed() {
        let pg: Database = "postgres://oh7:s3cret@db:5432/oh7".parse().unwrap();
        assert_eq!(pg, Database::Postgres("postgres://oh7:s3cret@db:5432/oh7".into()));
        assert_eq!(pg.to_string(), "postgres://oh7:***@db:5432/oh7");
        let file: Database = "oh7.db".parse().unwrap();
        assert_eq!(file, Database::Sqlite("oh7.db".into()));
        assert_eq!(file.to_string(), "oh7.db");
        assert!(matches!("postgresql://h/db".parse().unwrap(), Database::Postgres(_)));
    }
}
