//! A server's limits and timings ([`Settings`]), and how its background tasks are spawned: what
//! every layer reads, importing nothing above it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// On a shared database: how long a lease on a table lasts without renewal (the default of
/// `oh7 serve --lease-s`).
pub(crate) const LEASE: Duration = Duration::from_secs(15);

/// Spawn `fut` in the current span (its table, its connection), so that its log lines say whose
/// they are.
pub(crate) fn spawn_here<F>(fut: F) -> tokio::task::JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    use tracing::Instrument;
    tokio::spawn(fut.in_current_span())
}

/// Spawn the background task `name` in its own span.
pub(crate) fn spawn_in<F>(name: &'static str, fut: F) -> tokio::task::JoinHandle<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    use tracing::Instrument;
    tokio::spawn(fut.instrument(tracing::info_span!("task", kind = name)))
}

/// Limits and timings of a server.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Pause before each bot decision when a person sits at the table.
    pub bot_pause: Duration,
    /// How long an away person's seat waits before a bot plays for them.
    pub grace: Duration,
    /// Largest message a client may send, in bytes.
    pub max_message: usize,
    /// Commands per second per connection (sustained).
    pub commands_per_s: f64,
    /// Commands at once per connection.
    pub burst: f64,
    /// Connections per address.
    pub max_conns_per_ip: usize,
    /// Tables created per address per hour.
    pub max_tables_per_ip: usize,
    /// Longest chat line, in characters.
    pub chat_len: usize,
    /// Shortest time between two chat lines of a seat.
    pub chat_interval: Duration,
    /// Messages waiting for a slow client before it is dropped (it then reconnects).
    pub outbox: usize,
    /// How long a new connection may take to send its first request head (HTTP or upgrade).
    pub header_timeout: Duration,
    /// A table nobody is connected to and where nothing happened for this long is unloaded
    /// from memory; the next link to it loads it again from its log.
    pub idle_unload: Duration,
    /// The level that reviews a person's decisions.
    pub review_level: oh7_review::ReviewLevel,
    /// Reviews computed at once (the others wait in line).
    pub review_jobs: usize,
    /// On a shared database (PostgreSQL): how long this instance's hold on a table lasts
    /// without renewal; it renews every third of it, and another instance takes the tables of
    /// one that died once it has run out.
    pub lease: Duration,
    /// The address clients reach this instance at (`http://host:port`), told to clients that
    /// another instance sends here; `None`: `http://` and the address it listens on.
    pub public_url: Option<String>,
    /// A connection that has sent a `ping` and then sends nothing for this long is closed (its
    /// seat is away); a client that never pings is not held to it.
    pub heartbeat: Duration,
    /// How long the people at a table have to answer the host's rematch; then the game starts
    /// and a bot plays for each person who has not answered.
    pub rematch_wait: Duration,
    /// The wall clock (turn-based tables' deadlines).
    pub clock: Arc<dyn crate::clock::Clock>,
    /// How often the server looks for turn-based tables whose deadline has passed (and sends
    /// the turn notices due).
    pub deadline_sweep: Duration,
    /// The SMTP relay (`HOST:PORT`) turn notices go through; `None`: no mail is sent.
    pub smtp: Option<String>,
    /// The sender of turn notices.
    pub mail_from: String,
    /// How long a turn waits before its notice is mailed.
    pub notice_after: Duration,
    /// Where the Prometheus metrics page (`/metrics`) is served, apart from the public port
    /// (`None`: no page, and nothing is recorded).
    pub metrics_addr: Option<SocketAddr>,
    /// The reverse proxies whose `Forwarded`/`X-Forwarded-For` give the client's address
    /// (`--trust-proxy`; empty: every request counts under the address it comes from).
    pub trust_proxy: Vec<crate::proxy::Cidr>,
    /// How often a quick-match round seats the people waiting.
    pub match_every: Duration,
}

/// The heartbeat deadline: the browser pings every 15 s, so three pings may be lost.
pub const HEARTBEAT: Duration = Duration::from_secs(45);

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            bot_pause: Duration::from_millis(700),
            grace: Duration::from_secs(30),
            max_message: 16 * 1024,
            commands_per_s: 10.0,
            burst: 30.0,
            max_conns_per_ip: 64,
            max_tables_per_ip: 60,
            chat_len: 300,
            chat_interval: Duration::from_millis(1000),
            outbox: 512,
            header_timeout: Duration::from_secs(10),
            idle_unload: Duration::from_secs(600),
            review_level: oh7_review::ReviewLevel::Expert,
            rematch_wait: Duration::from_secs(30),
            review_jobs: 1,
            lease: LEASE,
            public_url: None,
            heartbeat: HEARTBEAT,
            clock: Arc::new(crate::clock::SystemClock),
            deadline_sweep: Duration::from_secs(30),
            smtp: None,
            mail_from: "oh7 <oh7@localhost>".to_string(),
            notice_after: Duration::from_secs(15 * 60),
            metrics_addr: None,
            trust_proxy: Vec::new(),
            match_every: Duration::from_secs(1),
        }
    }
}
