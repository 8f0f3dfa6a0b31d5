//! `oh7 serve`: the game server (`oh7-server`) on its embedded SQLite database, or on PostgreSQL
//! (several instances on one database: `--public-url`, `--lease-s`).

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

/// `oh7 serve` arguments.
#[derive(Args, Debug, Clone)]
pub(crate) struct ServeArgs {
    /// The address to listen on (put a reverse proxy in front to serve others than this machine).
    #[arg(long, default_value = "127.0.0.1:7777")]
    pub addr: SocketAddr,
    /// The SQLite database file (created if absent; every table and game is kept there), or a
    /// PostgreSQL URL (`postgres://user:password@host/db`; migrated at start). Also read from
    /// the environment variable OH7_DB, so a password need not be on the command line.
    #[arg(long, env = "OH7_DB", hide_env_values = true, default_value = "oh7.db")]
    pub db: oh7_server::Database,
    /// PostgreSQL: a file whose first line is the database password (a mounted secret), for a
    /// URL without one. The standard PGPASSWORD, PGPASSFILE (~/.pgpass), PGUSER, PGHOST,
    /// PGSSLMODE and PGSSLROOTCERT are read too, for what the URL leaves out.
    #[arg(long, env = "OH7_DB_PASSWORD_FILE", value_name = "FILE")]
    pub db_password_file: Option<std::path::PathBuf>,
    /// Pause before each bot decision when a person sits at the table, in milliseconds.
    #[arg(long, default_value_t = 700)]
    pub bot_pause_ms: u64,
    /// Seconds a person who dropped out keeps the seat before a bot plays for them.
    #[arg(long, default_value_t = 30)]
    pub grace_s: u64,
    /// Seconds the people at a table have to answer the host's "Play again"; then the game
    /// starts and a bot plays for each person who has not answered.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub rematch_wait_s: u64,
    /// Connections from one address.
    #[arg(long, default_value_t = 64)]
    pub max_conns_per_ip: usize,
    /// Tables created by one address per hour.
    #[arg(long, default_value_t = 60)]
    pub max_tables_per_ip: usize,
    /// The reverse proxies in front of this server (addresses or networks: 127.0.0.1,
    /// 10.0.0.0/8, fd00::/8). A request that comes from one of them is counted, for every
    /// per-address limit, under the client's address its `Forwarded` or `X-Forwarded-For`
    /// header gives; from anywhere else those headers are ignored. Without it everyone behind
    /// a proxy shares the proxy's limits (docs/server.md).
    #[arg(long, value_name = "CIDR", num_args = 1.., value_parser = clap::value_parser!(oh7_server::proxy::Cidr))]
    pub trust_proxy: Vec<oh7_server::proxy::Cidr>,
    /// Commands per second per connection (sustained; bursts of three times that pass).
    #[arg(long, default_value_t = 10.0)]
    pub commands_per_s: f64,
    /// The level that reviews players' decisions after a game: easy, medium, hard, pimc or
    /// expert.
    #[arg(long, default_value_t = oh7_review::ReviewLevel::Expert, value_parser = crate::review::review_level())]
    pub review_level: oh7_review::ReviewLevel,
    /// Reviews computed at once (the others wait in line; each uses every core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub review_jobs: u16,
    /// With several instances on one PostgreSQL database: the address clients reach this
    /// instance at (`http://host:port`), where the others send the clients of its tables.
    /// Default: `http://` and --addr.
    #[arg(long, value_parser = public_url)]
    pub public_url: Option<String>,
    /// With PostgreSQL: seconds this instance's hold on a table lasts without renewal (it
    /// renews every third of it). When an instance dies, the others take its tables over after
    /// this long.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(3..=600))]
    pub lease_s: u64,
    /// An SMTP relay (HOST:PORT, plain SMTP: the relay does TLS and authentication) through
    /// which signed-in people with an email address are told when a turn-based table waits
    /// for them (docs/accounts.md). Without it no mail is sent.
    #[arg(long, value_name = "HOST:PORT")]
    pub smtp: Option<String>,
    /// The sender of turn notices, e.g. "oh7 <oh7@club.example>".
    #[arg(long, default_value = "oh7 <oh7@localhost>", requires = "smtp")]
    pub mail_from: String,
    /// Minutes a turn waits before its notice is mailed (a decision made at once needs none).
    #[arg(long, default_value_t = 15, requires = "smtp")]
    pub notice_after_min: u64,
    /// Tests only: the server's wall clock (turn-based deadlines) runs ahead of the system's by
    /// the seconds written in FILE, read each time, so a test can let days pass.
    #[arg(long, value_name = "FILE", hide = true)]
    pub test_clock_file: Option<std::path::PathBuf>,
    /// Tests only: how often deadlines are looked for, in milliseconds (30,000 otherwise).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub deadline_sweep_ms: Option<u64>,
    /// Serve Prometheus metrics at http://ADDR/metrics, apart from the public port (keep it
    /// private: e.g. 127.0.0.1:9777). Without it nothing is recorded. The metrics are listed in
    /// docs/server.md.
    #[arg(long, value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// How log lines are written on stderr: `text` (for a person) or `json` (one object per
    /// line, with the connection, request or table it is about, for a log collector).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// `--log-format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogFormat {
    /// Lines for a person.
    Text,
    /// One JSON object per line.
    Json,
}

/// A `--public-url`: `http://` or `https://`, a host, no path.
fn public_url(s: &str) -> Result<String, String> {
    let rest = s.strip_prefix("http://").or_else(|| s.strip_prefix("https://"));
    match rest {
        Some(host) if !host.trim_end_matches('/').is_empty() && !host.trim_end_matches('/').contains('/') => {
            Ok(s.trim_end_matches('/').to_string())
        }
        _ => Err("give the instance's address as http://host:port or https://host (no path)".into()),
    }
}

impl ServeArgs {
    /// The server's settings.
    pub(crate) fn settings(&self) -> oh7_server::Settings {
        let mut s = oh7_server::Settings {
            bot_pause: Duration::from_millis(self.bot_pause_ms),
            grace: Duration::from_secs(self.grace_s),
            rematch_wait: Duration::from_secs(self.rematch_wait_s),
            max_conns_per_ip: self.max_conns_per_ip,
            max_tables_per_ip: self.max_tables_per_ip,
            commands_per_s: self.commands_per_s,
            burst: (self.commands_per_s * 3.0).max(1.0),
            review_level: self.review_level,
            review_jobs: self.review_jobs as usize,
            lease: Duration::from_secs(self.lease_s),
            public_url: self.public_url.clone(),
            smtp: self.smtp.clone(),
            mail_from: self.mail_from.clone(),
            notice_after: Duration::from_secs(self.notice_after_min * 60),
            metrics_addr: self.metrics_addr,
            trust_proxy: self.trust_proxy.clone(),
            ..oh7_server::Settings::default()
        };
        if let Some(f) = &self.test_clock_file {
            s.clock = std::sync::Arc::new(oh7_server::clock::FileOffsetClock::new(f));
        }
        if let Some(ms) = self.deadline_sweep_ms {
            s.deadline_sweep = Duration::from_millis(ms);
        }
        s
    }
}

async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// `oh7 health URL`: succeed when the server answers its health check (a container's
/// HEALTHCHECK: the image has no curl). Plain HTTP/1.1 on loopback, three seconds at most.
pub(crate) fn health(url: &str) -> Result<()> {
    use std::io::{Read, Write};
    use std::net::{TcpStream, ToSocketAddrs};
    let rest = url.strip_prefix("http://").context("give the health check's address as http://host:port/path")?;
    let (host, path) = rest.split_once('/').map_or((rest, "/".to_string()), |(h, p)| (h, format!("/{p}")));
    let addr = host
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve {host}"))?
        .next()
        .with_context(|| format!("no address for {host}"))?;
    let wait = Duration::from_secs(3);
    let mut s = TcpStream::connect_timeout(&addr, wait).with_context(|| format!("nothing answers at {host}"))?;
    s.set_read_timeout(Some(wait))?;
    s.set_write_timeout(Some(wait))?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")?;
    let mut answer = Vec::new();
    s.take(4096).read_to_end(&mut answer).with_context(|| format!("{host} did not answer in time"))?;
    let answer = String::from_utf8_lossy(&answer);
    let status = answer.lines().next().unwrap_or("");
    anyhow::ensure!(status.split(' ').nth(1) == Some("200"), "{url} answered: {status}");
    println!("ok");
    Ok(())
}

/// `oh7 backup`: an online backup of an SQLite database.
pub(crate) fn backup(db: &oh7_server::Database, out: &std::path::Path) -> Result<()> {
    let oh7_server::Database::Sqlite(path) = db else {
        anyhow::bail!(
            "{db} is a PostgreSQL database: back it up with pg_dump -Fc (and restore with pg_restore), see docs/server.md"
        );
    };
    let rt =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    let began = std::time::Instant::now();
    rt.block_on(oh7_server::store::backup_sqlite(path, out))?;
    let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    println!(
        "backed up {} to {} ({:.1} MB, {:.2} s); restore: stop the server, then oh7 serve --db {}",
        path.display(),
        out.display(),
        size as f64 / 1e6,
        began.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

/// `oh7 admin …`.
#[derive(clap::Subcommand, Debug, Clone)]
pub(crate) enum AdminCommand {
    /// List the reports players made, newest first (who, whom, the table's spectator code, the
    /// chat lines they pointed at, their words).
    Reports {
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Suspend an account: its sessions end at once, it cannot sign in, and the running servers
    /// have bots play its seats from their next sweep (within 30 s).
    Suspend {
        /// The account's name.
        name: String,
        /// Why (kept with the suspension).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Lift an account's suspension (it signs in again; its seats stay the bots' until the table
    /// is next loaded).
    Unsuspend {
        /// The account's name.
        name: String,
    },
    /// Close a table (by its invite or spectator code): its server stops it at its next sweep,
    /// telling everyone there, and it is never loaded again.
    CloseTable {
        /// The table's invite or spectator code.
        code: String,
        /// Why (kept with the closure).
        #[arg(long, default_value = "")]
        reason: String,
    },
}

/// Run an operator's command.
pub(crate) fn admin(db: &oh7_server::Database, what: &AdminCommand) -> Result<()> {
    let rt =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    rt.block_on(async {
        let admin = oh7_server::admin::Admin::open(db).await.with_context(|| format!("opening {db}"))?;
        let done = match what {
            AdminCommand::Reports { json } => {
                let reports = admin.reports().await?;
                if *json {
                    for r in &reports {
                        println!("{}", serde_json::to_string(r)?);
                    }
                } else if reports.is_empty() {
                    println!("no reports");
                } else {
                    for r in &reports {
                        let when = format!("{} UTC", oh7_server::mail::utc(r.at));
                        println!("{when}  {} reported {}  (report {})", r.reporter, r.reported, &r.id[..8]);
                        if let Some(t) = &r.table {
                            println!("    table: /w/{t}");
                        }
                        if !r.reason.is_empty() {
                            println!("    why: {}", r.reason);
                        }
                        for l in r.lines.as_array().into_iter().flatten() {
                            println!(
                                "    > {}: {}",
                                l["name"].as_str().unwrap_or("?"),
                                l["text"].as_str().unwrap_or("")
                            );
                        }
                    }
                }
                Ok(())
            }
            AdminCommand::Suspend { name, reason } => admin.suspend(name, reason).await.map(|new| {
                if new {
                    println!("suspended {name}: its sessions ended; the servers have bots play its seats within 30 s");
                } else {
                    println!("{name} was suspended already");
                }
            }),
            AdminCommand::Unsuspend { name } => admin.unsuspend(name).await.map(|had| {
                println!(
                    "{}",
                    if had { format!("{name} may sign in again") } else { format!("{name} was not suspended") }
                )
            }),
            AdminCommand::CloseTable { code, reason } => admin
                .close_table(code, reason)
                .await
                .map(|()| println!("closed the table; its server stops it within 30 s and nobody can open it again")),
        };
        admin.close().await;
        done.map_err(anyhow::Error::from)
    })
}

/// Run `oh7 serve` until Ctrl-C or SIGTERM.
pub(crate) fn run(args: &ServeArgs) -> Result<()> {
    // A server must outlive its clients: with SIGPIPE at its default (`main` sets it so for the
    // command-line tools), a browser closed while a large answer was being written (the page's
    // 3 MB WebAssembly, written with `writev`, which cannot ask the kernel not to signal) killed
    // the process. Ignored, the write fails with EPIPE and only that connection ends.
    #[cfg(unix)]
    // SAFETY: set before the runtime and its threads start.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    if let Some(file) = &args.db_password_file {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("{}: cannot read the database password", file.display()))?;
        let password = text.lines().next().unwrap_or("").trim_end_matches('\r');
        if password.is_empty() {
            bail!("{}: the file is empty; its first line is the database password", file.display());
        }
        // SAFETY: set before the runtime and its threads start; the PostgreSQL driver reads
        // PGPASSWORD for a URL without a password (and nothing here prints it).
        unsafe {
            std::env::set_var("PGPASSWORD", password);
        }
    }
    let filter = || tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter()).with_writer(std::io::stderr);
    match args.log_format {
        LogFormat::Text => logs.init(),
        // The spans (conn, req, table, task) with their ids on every line, the event's fields flat.
        LogFormat::Json => logs.json().flatten_event(true).with_current_span(false).with_span_list(true).init(),
    }
    let rt = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    rt.block_on(async {
        let running = oh7_server::start(args.addr, args.db.clone(), args.settings(), stop_signal())
            .await
            .with_context(|| format!("cannot serve with the database {}", args.db))?;
        // One write, then nothing more on stdout (logs go to stderr), so a reader may stop
        // reading after the address.
        let restored = match running.restored {
            0 => String::new(),
            n => format!("\nrestored {n} unfinished table(s) from the database"),
        };
        let metrics = match running.metrics_addr {
            Some(m) => format!("\nmetrics at http://{m}/metrics"),
            None => String::new(),
        };
        println!("oh7 is serving at http://{}/  (database {}; Ctrl-C stops){restored}{metrics}", running.addr, args.db);
        use std::io::Write;
        let _ = std::io::stdout().flush();
        running.wait().await;
        Ok(())
    })
}

/// `oh7 web`: the browser client as static files (local play only), each written whole to a
/// temporary name then renamed, so a host serving the folder never sends half a file.
pub(crate) fn write_static(out: &Path) -> Result<()> {
    if !oh7_server::web::has_wasm() {
        bail!(
            "this build has no WebAssembly, so the static client could not play: build with the \
             wasm32-unknown-unknown target installed (rustup target add wasm32-unknown-unknown)"
        );
    }
    let files = oh7_server::web::static_files();
    let mut total = 0;
    for (name, body) in &files {
        let path = out.join(name);
        let dir = path.parent().unwrap_or(out);
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot make the folder", dir.display()))?;
        let tmp = dir.join(format!(".{}.tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("file")));
        std::fs::write(&tmp, body).with_context(|| format!("{}: cannot write", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("{}: cannot write", path.display()))?;
        total += body.len();
    }
    println!(
        "wrote {} files ({} KB) to {}/: serve the folder with any static host, e.g. `cd {} && python3 -m http.server 8000`, then open http://localhost:8000/",
        files.len(),
        total / 1024,
        out.display(),
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn public_urls_are_checked() {
        assert_eq!(super::public_url("http://10.0.0.2:7777/").unwrap(), "http://10.0.0.2:7777");
        assert_eq!(super::public_url("https://oh7.example").unwrap(), "https://oh7.example");
        for bad in ["10.0.0.2:7777", "ftp://x", "http://", "http://host/path"] {
            assert!(super::public_url(bad).is_err(), "{bad}");
        }
    }
}
