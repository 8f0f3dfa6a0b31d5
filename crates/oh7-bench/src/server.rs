//! `oh7 bench server`: a load generator. It starts `oh7 serve` (this same binary) on loopback with
//! a temporary database, seats four clients at each of many tables, and has every client answer
//! each of its turns at once with a legal action (no bot pauses; every action committed at
//! `synchronous=FULL`; `--db postgres://…` for PostgreSQL). With `--target` it drives servers
//! already running instead (so they can be pinned to different cores; several instances on one
//! PostgreSQL get the tables in turn). It reports moves per second, the latency from a move's send
//! to the arrival of its event at every other seat and to its ack, bytes per move per viewer, and
//! the server's CPU time per 1,000 moves and memory.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use oh7_server::client::{Client, create_table};
use serde_json::{Value, json};

/// What the load generator measured.
#[derive(Debug, serde::Serialize)]
pub struct LoadReport {
    /// Reconnections made (`--reconnect-s`), over the whole run.
    pub reconnects: u64,
    /// Reviews asked for at the end of a game (`--reviews`), and review answers that said done.
    pub reviews_asked: u64,
    /// Reviews the server finished for this run's seats.
    pub reviews_done: u64,
    /// Errors the server answered, by code, over the whole run (a move made on a stale list of
    /// legal actions is refused and made again on the next turn; anything else is a fault).
    pub errors: std::collections::BTreeMap<String, u64>,
    /// Connections open during the measurement.
    pub connections: usize,
    /// The offered rate (moves/s), if paced.
    pub offered_rate: Option<f64>,
    /// Tables.
    pub tables: usize,
    /// Seconds measured.
    pub seconds: f64,
    /// Moves acknowledged during the measurement.
    pub moves: u64,
    /// Moves per second.
    pub moves_per_s: f64,
    /// Median latency from a move's send to the arrival of its event at each other seat, ms.
    pub p50_ms: f64,
    /// 99th percentile of that latency, ms.
    pub p99_ms: f64,
    /// Largest latency, ms.
    pub max_ms: f64,
    /// Bytes received per move per viewer.
    pub bytes_per_move: f64,
    /// The servers' resident memory at the end, MiB, summed (0 when unknown: `--target`
    /// without `--server-pid`).
    pub server_rss_mb: f64,
    /// The addresses driven with `--target`, comma-separated (none: a server started for the
    /// run).
    pub target: Option<String>,
    /// The database: `sqlite`, or `postgres` (none: servers given with `--target`).
    pub db: Option<String>,
    /// Latencies measured (one per move per other seat).
    pub latency_samples: usize,
    /// 90th percentile of the send → event latency, ms.
    pub p90_ms: f64,
    /// 99.9th percentile of it, ms.
    pub p999_ms: f64,
    /// Median latency from a move's send to its ack at the mover, ms.
    pub ack_p50_ms: f64,
    /// 99th percentile of that, ms.
    pub ack_p99_ms: f64,
    /// Largest, ms.
    pub ack_max_ms: f64,
    /// The servers' CPU time (user + system) during the measurement, s, summed.
    pub server_cpu_s: Option<f64>,
    /// That per 1,000 moves acknowledged.
    pub server_cpu_s_per_1000_moves: Option<f64>,
    /// Acks slower than 50 ms: [seconds into the measurement when sent, ms].
    pub slow_acks: Vec<[f64; 2]>,
    /// Every seat held by a signed-in account (`--signed-in`).
    pub signed_in: bool,
}

fn rss_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn raise_fd_limit() {
    #[cfg(unix)]
    // SAFETY: getrlimit/setrlimit on a local struct.
    unsafe {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 {
            r.rlim_cur = r.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &r);
        }
    }
}

struct ServerProcess {
    child: Child,
    addr: SocketAddr,
    dir: std::path::PathBuf,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_server(db: Option<&str>) -> Result<ServerProcess> {
    let dir = std::env::temp_dir().join(format!("oh7-bench-server-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let exe = std::env::current_exe().context("cannot find this binary")?;
    let db = db.map_or_else(|| dir.join("bench.db").into_os_string(), std::ffi::OsString::from);
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--bot-pause-ms", "0", "--grace-s", "3600"])
        .args(["--max-conns-per-ip", "1000000", "--max-tables-per-ip", "1000000", "--commands-per-s", "100000"])
        .arg("--db")
        .arg(db)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot start the server")?;
    let mut out = BufReader::new(child.stdout.take().context("no stdout")?);
    let mut line = String::new();
    out.read_line(&mut line)?;
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .with_context(|| format!("the server said: {line}"))?;
    Ok(ServerProcess { child, addr, dir })
}

/// Per table: when each seat sent its last move, and a count of its moves (so each receiving
/// seat measures each move once).
type Sent = Arc<std::sync::Mutex<[(Option<Instant>, u64); 4]>>;

struct Shared {
    reconnects: AtomicU64,
    reviews_asked: AtomicU64,
    reviews_done: AtomicU64,
    errors: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    bytes: AtomicU64,
    /// When the measurement started (for the times of the slowest acks).
    t0: std::sync::Mutex<Option<Instant>>,
}

/// What one seat measured.
#[derive(Default)]
struct SeatLatencies {
    /// Send → arrival of the event at this seat, for every other seat's move, µs.
    broadcast: Vec<u32>,
    /// Send → arrival of the ack, for this seat's own moves, µs.
    ack: Vec<u32>,
    /// The slowest acks: (seconds since the measurement started, µs).
    slow_acks: Vec<(f64, u32)>,
}

/// Acks slower than this are kept with their time, to see when the slow ones happen.
const SLOW_ACK_US: u32 = 50_000;

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

/// A small xorshift-style generator per seat: the moves and the think times.
fn next_rand(n: &mut u64) -> u64 {
    *n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *n >> 33
}

enum Step {
    Msg(Value),
    Quiet,
    Closed,
    Due,
    Again,
}

/// How a seat comes back after it drops its connection on purpose (`--reconnect-s`).
#[derive(Clone)]
struct Again {
    addr: SocketAddr,
    invite: String,
    token: String,
    cookie: Option<String>,
    /// The mean time between two reconnections.
    every: Duration,
    /// Ask for a review of each game that ends (seat 0).
    reviews: bool,
    /// The seat's own random numbers (its moves, think times, reconnections).
    seed: u64,
}

impl Again {
    /// The next reconnection: uniform in 0.5–1.5 × the mean.
    fn next(&self, n: &mut u64) -> Option<Instant> {
        (!self.every.is_zero())
            .then(|| Instant::now() + self.every.mul_f64(0.5 + (next_rand(n) % 1_000_000) as f64 / 1_000_000.0))
    }
}

/// One seat. The reader is never blocked by think time: a move waits on a timer inside the same
/// `select!` that reads the socket, and every message is timestamped when it is read.
async fn seat_loop(
    mut c: Client,
    seat: usize,
    sent: Sent,
    shared: Arc<Shared>,
    think: Duration,
    first: Option<Instant>,
    again: Again,
) -> SeatLatencies {
    let mut out = SeatLatencies::default();
    let mut acted_at = 0;
    let mut n: u64 = again.seed;
    let mut reconnect_at = again.next(&mut n);
    // This seat answered the rematch being asked; the last game seen to end (seat 0).
    let mut answered = false;
    let mut ended = 0;
    // The counts of each other seat's moves already measured here.
    let mut seen = [0u64; 4];
    // A move waiting for its think time to pass.
    let mut due: Option<Instant> = first;
    let mut starting = first.is_some();
    // This seat's moves not yet acknowledged: their ids and when they were sent (answering at
    // once, a seat may send its next move before the ack of the last one arrives).
    let mut pending: Vec<(String, Instant)> = Vec::new();
    let mut counted = 0;
    while !shared.stop.load(Ordering::Relaxed) {
        let step = {
            let wake = due.unwrap_or_else(Instant::now);
            tokio::select! {
                biased;
                m = c.recv_within(Duration::from_millis(500)) => match m {
                    Ok(m) => Step::Msg(m),
                    Err(oh7_server::client::ClientError::Timeout) => Step::Quiet,
                    Err(_) => Step::Closed,
                },
                _ = tokio::time::sleep_until(wake.into()), if due.is_some() => Step::Due,
                _ = tokio::time::sleep_until(reconnect_at.unwrap_or_else(Instant::now).into()),
                    if reconnect_at.is_some() && !starting => Step::Again,
            }
        };
        let msg = match step {
            Step::Closed => break,
            Step::Quiet => continue,
            Step::Again => {
                // Drop the connection and come back with the seat's token: a snapshot, and on.
                c.close().await;
                let back = async {
                    let mut c = connect(again.addr, again.cookie.as_deref()).await?;
                    let snap = c.hello(&again.invite, Some(&again.token)).await?;
                    anyhow::ensure!(snap["type"] == "snapshot", "hello again: {snap}");
                    Ok::<_, anyhow::Error>((c, snap))
                };
                let Ok((fresh, snap)) = back.await else {
                    *shared
                        .errors
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .entry("reconnect_failed".into())
                        .or_default() += 1;
                    return out;
                };
                c = fresh;
                counted = c.bytes;
                shared.reconnects.fetch_add(1, Ordering::Relaxed);
                // Acks of moves sent before the drop may be lost with it: not measured.
                pending.clear();
                acted_at = 0;
                due = None;
                reconnect_at = again.next(&mut n);
                snap
            }
            Step::Due => {
                due = None;
                let id = c.id();
                let cmd = if starting {
                    starting = false;
                    json!({"type": "start", "id": id})
                } else {
                    if c.legal.is_empty() {
                        continue;
                    }
                    acted_at = c.version;
                    let action = c.legal[next_rand(&mut n) as usize % c.legal.len()].clone();
                    let now = Instant::now();
                    {
                        let mut s = sent.lock().unwrap_or_else(|e| e.into_inner());
                        s[seat].0 = Some(now);
                        s[seat].1 += 1;
                    }
                    pending.push((id.clone(), now));
                    json!({"type": "act", "id": id, "action": action})
                };
                if c.send(&cmd).await.is_err() {
                    break;
                }
                continue;
            }
            Step::Msg(m) => m,
        };
        let arrived = Instant::now();
        shared.bytes.fetch_add(c.bytes - counted, Ordering::Relaxed);
        counted = c.bytes;
        let measuring = shared.measuring.load(Ordering::Relaxed);
        match msg["type"].as_str() {
            Some("ack") => {
                if let Some(i) = pending.iter().position(|(id, _)| msg["id"].as_str() == Some(id.as_str())) {
                    let (_, t) = pending.swap_remove(i);
                    if measuring && msg["repeated"].is_null() && msg["hint"].is_null() {
                        shared.moves.fetch_add(1, Ordering::Relaxed);
                        let us = micros(arrived - t);
                        out.ack.push(us);
                        if us >= SLOW_ACK_US
                            && let Some(t0) = *shared.t0.lock().unwrap_or_else(|e| e.into_inner())
                        {
                            out.slow_acks.push(((t - t0).as_secs_f64(), us));
                        }
                    }
                }
            }
            Some("error") => {
                // A refused move (a stale legal list): try again on the next turn message.
                let code = msg["code"].as_str().unwrap_or("?").to_string();
                *shared.errors.lock().unwrap_or_else(|e| e.into_inner()).entry(code).or_default() += 1;
                acted_at = 0;
                pending.retain(|(id, _)| msg["id"].as_str() != Some(id.as_str()));
            }
            Some("event") => {
                // Every other seat measures each move: send → arrival of its event here.
                if msg["event"]["kind"] == "act"
                    && let Some(a) = msg["event"]["seat"].as_u64().map(|s| s as usize)
                    && a < 4
                    && a != seat
                {
                    let s = sent.lock().unwrap_or_else(|e| e.into_inner())[a];
                    if let (Some(t), count) = s
                        && count > seen[a]
                    {
                        seen[a] = count;
                        if measuring {
                            out.broadcast.push(micros(arrived.saturating_duration_since(t)));
                        }
                    }
                }
            }
            _ => {}
        }
        // The host asked for another game: every other seat says yes at once (a seat that did
        // not answer would have a bot play for it).
        if seat != 0 && c.table["rematch"]["answers"][seat] == "waiting" && !answered {
            answered = true;
            let id = c.id();
            let _ = c.send(&json!({"type": "answer", "id": id, "yes": true})).await;
        }
        if c.table["rematch"].is_null() {
            answered = false;
        }
        if msg["type"] == "review" && msg["state"] == "done" {
            shared.reviews_done.fetch_add(1, Ordering::Relaxed);
        }
        // Once per game that ends, seat 0 asks for its review (`--reviews`) and another game.
        let game = c.table["game_number"].as_u64().unwrap_or(0);
        if c.table["state"] == "over" && seat == 0 && game > ended {
            ended = game;
            if again.reviews {
                let id = c.id();
                shared.reviews_asked.fetch_add(1, Ordering::Relaxed);
                let _ = c.send(&json!({"type": "review", "id": id})).await;
            }
            let id = c.id();
            let _ = c.send(&json!({"type": "rematch", "id": id})).await;
            continue;
        }
        // A turn: an event or snapshot left this seat legal actions (the client applies patches).
        let told = msg["type"] == "event" || msg["type"] == "snapshot";
        if due.is_none() && told && !c.legal.is_empty() && c.version > acted_at {
            acted_at = c.version;
            // Think time: uniform in [0.5, 1.5) × the mean, so tables do not move in step.
            let wait = if think.is_zero() {
                Duration::ZERO
            } else {
                think.mul_f64(0.5 + (next_rand(&mut n) % 1_000_000) as f64 / 1_000_000.0)
            };
            due = Some(arrived + wait);
        }
    }
    c.close().await;
    out
}

/// Sign up the four accounts of `--signed-in` (one per seat position, each holding that seat at
/// every table): their session cookies.
async fn sign_up_four(addr: SocketAddr) -> Result<Vec<String>> {
    let origin = format!("http://{addr}");
    let tag = oh7_server::secrets::new_code();
    let mut cookies = Vec::new();
    for s in 0..4 {
        let body = json!({"name": format!("bench-{}-{s}", &tag[..8]), "password": "bench password"}).to_string();
        let a = oh7_server::client::request(addr, "POST", "/api/account/signup", &[("Origin", &origin)], Some(&body))
            .await?;
        if a.status != 201 {
            bail!("sign-up for --signed-in: {} {}", a.status, a.body);
        }
        let c = a.header("set-cookie").and_then(|c| c.split(';').next()).context("no session cookie")?;
        cookies.push(c.to_string());
    }
    Ok(cookies)
}

/// A client, signed in with `cookie` if there is one.
async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Result<Client> {
    Ok(match cookie {
        Some(c) => {
            let origin = format!("http://{addr}");
            Client::connect_with(addr, &[("Cookie", c), ("Origin", &origin)]).await?
        }
        None => Client::connect(addr).await?,
    })
}

/// A table's seats: each client, its seat and token, and the table's invite.
type Seated = (Vec<(Client, usize, String)>, String);

async fn seat_table(addr: SocketAddr, cookies: Arc<Vec<String>>) -> Result<Seated> {
    let cookie = |s: usize| cookies.get(s).map(String::as_str);
    let req = json!({"preset": "en", "players": 4, "name": "P0"}).to_string();
    let created: Value = match cookie(0) {
        Some(c) => {
            let origin = format!("http://{addr}");
            let a = oh7_server::client::request(
                addr,
                "POST",
                "/api/tables",
                &[("Origin", &origin), ("Cookie", c)],
                Some(&req),
            )
            .await?;
            if a.status != 201 {
                bail!("create: {} {}", a.status, a.body);
            }
            serde_json::from_str(&a.body)?
        }
        None => create_table(addr, &serde_json::from_str(&req)?).await?,
    };
    let invite = created["invite"].as_str().context("no invite")?.to_string();
    let mut c0 = connect(addr, cookie(0)).await?;
    let token0 = created["token"].as_str().context("no token")?.to_string();
    c0.hello(&invite, Some(&token0)).await?;
    let mut out = vec![(c0, 0, token0)];
    for s in 1..4 {
        let mut c = connect(addr, cookie(s)).await?;
        c.hello(&invite, None).await?;
        let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await?;
        if ack["type"] != "ack" {
            bail!("sit: {ack}");
        }
        let token = ack["token"].as_str().context("no token")?.to_string();
        out.push((c, s, token));
    }
    Ok((out, invite))
}

/// What `oh7 bench server` is asked to do.
pub struct Options {
    /// Connections (four per table).
    pub connections: usize,
    /// Seconds measured.
    pub seconds: f64,
    /// Moves offered per second in all; none: every client answers at once.
    pub rate: Option<f64>,
    /// One JSON object on stdout.
    pub json: bool,
    /// Drive servers already running there instead of starting one (tables in turn).
    pub target: Vec<SocketAddr>,
    /// The servers' processes (for their CPU time and memory) when they run elsewhere.
    pub server_pid: Vec<u32>,
    /// The started server's database (a PostgreSQL URL; none: a temporary SQLite file).
    pub db: Option<String>,
    /// Every seat held by a signed-in account (four accounts, one per seat position): each
    /// connection's upgrade carries a session cookie the server looks up.
    pub signed_in: bool,
    /// Each seat drops its connection and comes back with its token about this often (seconds;
    /// none: never).
    pub reconnect_s: Option<f64>,
    /// Seat 0 asks for a review of each game that ends.
    pub reviews: bool,
}

/// The process's CPU time (user + system), in seconds, from `/proc/PID/stat`.
fn cpu_s(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at field 3 (state).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (hz > 0).then(|| ticks / hz as f64)
}

fn quantile(v: &[u32], p: f64) -> f64 {
    if v.is_empty() { 0.0 } else { v[((v.len() - 1) as f64 * p) as usize] as f64 / 1000.0 }
}

/// Run the load: `connections` clients (four per table) for `seconds` of measurement. With a
/// `rate`, each client waits about `tables / rate` seconds before each move (uniform in half to
/// one and a half times that, a steady offered load); without, it answers at once (the server's
/// saturation throughput, where latency is queueing). The reader of each connection keeps
/// reading while a move waits, so every latency is taken when the message arrives.
pub fn run(o: &Options) -> Result<()> {
    let Options {
        connections,
        seconds,
        rate,
        json: json_out,
        ref target,
        ref server_pid,
        ref db,
        signed_in,
        reconnect_s,
        reviews,
    } = *o;
    let every = match reconnect_s {
        Some(s) if s > 0.0 && s.is_finite() => Duration::from_secs_f64(s),
        Some(_) => bail!("--reconnect-s must be positive"),
        None => Duration::ZERO,
    };
    if connections < 4 || !connections.is_multiple_of(4) {
        bail!("--connections must be a positive multiple of 4 (four seats a table); got {connections}");
    }
    if seconds <= 0.0 {
        bail!("--seconds must be positive");
    }
    raise_fd_limit();
    let server = if target.is_empty() { Some(start_server(db.as_deref())?) } else { None };
    let addrs: Vec<SocketAddr> = match &server {
        Some(s) => vec![s.addr],
        None => target.clone(),
    };
    let pids: Vec<u32> = match &server {
        Some(s) => vec![s.child.id()],
        None => server_pid.clone(),
    };
    // CPU and memory summed over the servers; unknown if any is unknown.
    let cpu_all = move || pids.iter().map(|p| cpu_s(*p)).sum::<Option<f64>>().filter(|_| !pids.is_empty());
    let rss_all = {
        let pids: Vec<u32> = match &server {
            Some(s) => vec![s.child.id()],
            None => server_pid.clone(),
        };
        move || pids.iter().map(|p| rss_mb(*p)).sum::<f64>()
    };
    let target_shown =
        (!target.is_empty()).then(|| target.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "));
    let db_shown = server.as_ref().map(|_| {
        if db.as_deref().is_some_and(|d| d.starts_with("postgres")) { "postgres" } else { "sqlite" }.to_string()
    });
    let tables = connections / 4;
    let think = match rate {
        Some(r) if r > 0.0 => Duration::from_secs_f64(tables as f64 / r),
        Some(_) => bail!("--rate must be positive"),
        None => Duration::ZERO,
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(2);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(threads).enable_all().build()?;
    let report = rt.block_on(async move {
        let setup = Instant::now();
        let shared = Arc::new(Shared {
            reconnects: AtomicU64::new(0),
            reviews_asked: AtomicU64::new(0),
            reviews_done: AtomicU64::new(0),
            errors: Default::default(),
            measuring: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            moves: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            t0: std::sync::Mutex::new(None),
        });
        let cookies = Arc::new(if signed_in { sign_up_four(addrs[0]).await? } else { Vec::new() });
        let mut seated = Vec::with_capacity(tables);
        for chunk in (0..tables).collect::<Vec<_>>().chunks(100) {
            let mut tasks = Vec::new();
            for &i in chunk {
                let addr = addrs[i % addrs.len()];
                let seat = tokio::spawn(seat_table(addr, cookies.clone()));
                tasks.push(async move { Ok::<_, anyhow::Error>((addr, seat.await??)) });
            }
            for t in tasks {
                seated.push(t.await?);
            }
            if !json_out {
                eprint!("\rseating: {} of {tables} tables", seated.len());
            }
        }
        if !json_out {
            eprintln!(" ({:.1} s)", setup.elapsed().as_secs_f64());
        }
        let mut tasks = Vec::new();
        let start = Instant::now();
        for (i, (addr, (mut table, invite))) in seated.into_iter().enumerate() {
            let sent: Sent = Arc::new(std::sync::Mutex::new([(None, 0); 4]));
            let again = |s: usize, token: String| Again {
                addr,
                invite: invite.clone(),
                token,
                cookie: cookies.get(s).cloned(),
                every,
                reviews,
                seed: (i as u64) << 3 | s as u64,
            };
            let (host, _, token0) = table.remove(0);
            // The tables start spread over one think time, so they do not move in step.
            let mut r = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let first = start + think.mul_f64((next_rand(&mut r) % 1_000_000) as f64 / 1_000_000.0);
            let first_again = again(0, token0);
            tasks.push(tokio::spawn(seat_loop(host, 0, sent.clone(), shared.clone(), think, Some(first), first_again)));
            for (c, s, token) in table {
                let a = again(s, token);
                tasks.push(tokio::spawn(seat_loop(c, s, sent.clone(), shared.clone(), think, None, a)));
            }
        }
        // Warm up (a second, and two think times so the tables are spread out), then measure.
        tokio::time::sleep(Duration::from_secs(1) + think * 2).await;
        let bytes0 = byte_count(&shared);
        let cpu0 = cpu_all();
        *shared.t0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        shared.measuring.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
        shared.measuring.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let cpu1 = cpu_all();
        let bytes = byte_count(&shared) - bytes0;
        let rss = rss_all();
        shared.stop.store(true, Ordering::Relaxed);
        let mut lat: Vec<u32> = Vec::new();
        let mut ack: Vec<u32> = Vec::new();
        let mut slow: Vec<(f64, u32)> = Vec::new();
        for t in tasks {
            let s = t.await.unwrap_or_default();
            lat.extend(s.broadcast);
            ack.extend(s.ack);
            slow.extend(s.slow_acks);
        }
        lat.sort_unstable();
        ack.sort_unstable();
        slow.sort_by(|a, b| a.0.total_cmp(&b.0));
        let moves = shared.moves.load(Ordering::Relaxed);
        let server_cpu_s = match (cpu0, cpu1) {
            (Some(a), Some(b)) => Some(b - a),
            _ => None,
        };
        let errors = shared.errors.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok::<_, anyhow::Error>(LoadReport {
            reconnects: shared.reconnects.load(Ordering::Relaxed),
            reviews_asked: shared.reviews_asked.load(Ordering::Relaxed),
            reviews_done: shared.reviews_done.load(Ordering::Relaxed),
            errors,
            connections,
            offered_rate: rate,
            tables,
            seconds: elapsed,
            moves,
            moves_per_s: moves as f64 / elapsed,
            p50_ms: quantile(&lat, 0.5),
            p99_ms: quantile(&lat, 0.99),
            max_ms: quantile(&lat, 1.0),
            bytes_per_move: if moves == 0 { 0.0 } else { bytes as f64 / (moves as f64 * 4.0) },
            server_rss_mb: rss,
            target: target_shown,
            db: db_shown,
            latency_samples: lat.len(),
            p90_ms: quantile(&lat, 0.9),
            p999_ms: quantile(&lat, 0.999),
            ack_p50_ms: quantile(&ack, 0.5),
            ack_p99_ms: quantile(&ack, 0.99),
            ack_max_ms: quantile(&ack, 1.0),
            server_cpu_s,
            server_cpu_s_per_1000_moves: server_cpu_s.filter(|_| moves > 0).map(|c| c * 1000.0 / moves as f64),
            slow_acks: slow.iter().map(|&(t, us)| [(t * 1000.0).round() / 1000.0, us as f64 / 1000.0]).collect(),
            signed_in,
        })
    })?;
    drop(server);
    if json_out {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let cpu = report
            .server_cpu_s_per_1000_moves
            .map_or("unknown (give --server-pid)".to_string(), |c| format!("{c:.3} s per 1,000 moves"));
        println!(
            "connections {}  tables {}  measured {:.1} s{}\nmoves {}  ({:.0}/s, each committed before anyone is told){}\nlatency send→event at every other seat ({} samples): p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  p99.9 {:.2} ms  max {:.2} ms\nlatency send→ack: p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms  ({} acks over {} ms)\nbytes per move per viewer {:.0}\nserver CPU {cpu}\nserver memory {:.0} MiB",
            report.connections,
            report.tables,
            report.seconds,
            report.target.as_ref().map_or(String::new(), |t| format!("  target {t}")),
            report.moves,
            report.moves_per_s,
            report.db.as_ref().map_or(String::new(), |d| format!(" on {d}")),
            report.latency_samples,
            report.p50_ms,
            report.p90_ms,
            report.p99_ms,
            report.p999_ms,
            report.max_ms,
            report.ack_p50_ms,
            report.ack_p99_ms,
            report.ack_max_ms,
            report.slow_acks.len(),
            SLOW_ACK_US / 1000,
            report.bytes_per_move,
            report.server_rss_mb
        );
        println!(
            "reconnections {}  reviews asked {} (done {})  errors answered {:?}",
            report.reconnects, report.reviews_asked, report.reviews_done, report.errors
        );
    }
    Ok(())
}

fn byte_count(shared: &Shared) -> u64 {
    shared.bytes.load(Ordering::Relaxed)
}
