//! `oh7 bench server`: a load generator. It starts `oh7 serve` (this same binary) on loopback with
//! a temporary database, seats four clients at each of many tables, and has every client answer
//! each of its turns at once with a legal action (no bot pauses; every action committed at
//! `synchronous=FULL`). It reports moves per second, the latency from a move's send to its
//! broadcast at another seat, bytes per move per viewer, and the server's memory.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use oh7_server::client::{Client, create_table, strings};
use serde_json::json;
use tokio::sync::Mutex;

/// What the load generator measured.
#[derive(Debug, serde::Serialize)]
pub struct LoadReport {
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
    /// Median latency from a move's send to its broadcast at the next seat, ms.
    pub p50_ms: f64,
    /// 99th percentile of that latency, ms.
    pub p99_ms: f64,
    /// Largest latency, ms.
    pub max_ms: f64,
    /// Bytes received per move per viewer.
    pub bytes_per_move: f64,
    /// The server's resident memory at the end, MiB.
    pub server_rss_mb: f64,
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

fn start_server() -> Result<ServerProcess> {
    let dir = std::env::temp_dir().join(format!("oh7-bench-server-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let exe = std::env::current_exe().context("cannot find this binary")?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--bot-pause-ms", "0", "--grace-s", "3600"])
        .args(["--max-conns-per-ip", "1000000", "--max-tables-per-ip", "1000000", "--commands-per-s", "100000"])
        .arg("--db")
        .arg(dir.join("bench.db"))
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

/// Per table: when each seat sent its last move.
type Sent = Arc<Mutex<[Option<Instant>; 4]>>;

struct Shared {
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    bytes: AtomicU64,
}

async fn seat_loop(mut c: Client, seat: usize, sent: Sent, shared: Arc<Shared>, think: Duration) -> Vec<u32> {
    let mut lat = Vec::new();
    let mut acted_at = 0;
    let mut n: u64 = seat as u64;
    while !shared.stop.load(Ordering::Relaxed) {
        let before = c.bytes;
        let msg = match c.recv_within(Duration::from_secs(5)).await {
            Ok(m) => m,
            Err(_) => continue,
        };
        let measuring = shared.measuring.load(Ordering::Relaxed);
        if measuring {
            shared.bytes.fetch_add(c.bytes - before, Ordering::Relaxed);
        }
        match msg["type"].as_str() {
            Some("ack") if measuring && msg["repeated"].is_null() && msg["hint"].is_null() => {
                shared.moves.fetch_add(1, Ordering::Relaxed);
            }
            Some("event") => {
                // The next seat measures each move of the seat before it.
                let actor = msg["event"]["seat"].as_u64().map(|s| s as usize);
                if msg["event"]["kind"] == "act"
                    && let Some(a) = actor
                    && (a + 1) % 4 == seat
                    && measuring
                    && let Some(t) = sent.lock().await[a].take()
                {
                    lat.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                }
            }
            _ => {}
        }
        if c.table["state"] == "over" && seat == 0 && msg["type"] == "event" {
            let id = c.id();
            let _ = c.send(&json!({"type": "rematch", "id": id})).await;
            continue;
        }
        let legal = strings(&msg["legal"]);
        if !legal.is_empty() && c.version > acted_at {
            acted_at = c.version;
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let action = &legal[(n >> 33) as usize % legal.len()];
            sent.lock().await[seat] = Some(Instant::now());
            let id = c.id();
            if c.send(&json!({"type": "act", "id": id, "action": action})).await.is_err() {
                break;
            }
        }
    }
    c.close().await;
    lat
}

async fn seat_table(addr: SocketAddr) -> Result<Vec<(Client, usize)>> {
    let created = create_table(addr, &json!({"preset": "en", "players": 4, "name": "P0"})).await?;
    let invite = created["invite"].as_str().context("no invite")?.to_string();
    let mut c0 = Client::connect(addr).await?;
    c0.hello(&invite, created["token"].as_str()).await?;
    let mut out = vec![(c0, 0)];
    for s in 1..4 {
        let mut c = Client::connect(addr).await?;
        c.hello(&invite, None).await?;
        let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await?;
        if ack["type"] != "ack" {
            bail!("sit: {ack}");
        }
        out.push((c, s));
    }
    Ok(out)
}

/// Run the load: `connections` clients (four per table) for `seconds` of measurement. With a
/// `rate`, each client waits `tables / rate` seconds before each move (a steady offered load);
/// without, it answers at once (the server's saturation throughput, where latency is queueing).
pub fn run(connections: usize, seconds: f64, rate: Option<f64>, json_out: bool) -> Result<()> {
    if connections < 4 || !connections.is_multiple_of(4) {
        bail!("--connections must be a positive multiple of 4 (four seats a table); got {connections}");
    }
    if seconds <= 0.0 {
        bail!("--seconds must be positive");
    }
    raise_fd_limit();
    let server = start_server()?;
    let addr = server.addr;
    let server_pid = server.child.id();
    let tables = connections / 4;
    let think = match rate {
        Some(r) if r > 0.0 => Duration::from_secs_f64(tables as f64 / r),
        Some(_) => bail!("--rate must be positive"),
        None => Duration::ZERO,
    };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let report = rt.block_on(async move {
        let setup = Instant::now();
        let shared = Arc::new(Shared {
            measuring: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            moves: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        });
        let mut seated = Vec::with_capacity(tables);
        for chunk in (0..tables).collect::<Vec<_>>().chunks(100) {
            let mut tasks = Vec::new();
            for _ in chunk {
                tasks.push(tokio::spawn(seat_table(addr)));
            }
            for t in tasks {
                seated.push(t.await??);
            }
            if !json_out {
                eprint!("\rseating: {} of {tables} tables", seated.len());
            }
        }
        if !json_out {
            eprintln!(" ({:.1} s)", setup.elapsed().as_secs_f64());
        }
        let mut tasks = Vec::new();
        for mut table in seated {
            let sent: Sent = Arc::new(Mutex::new([None; 4]));
            let (mut host, _) = table.remove(0);
            // Every table starts at once; the host's loop sees the start like any event.
            let id = host.id();
            host.send(&json!({"type": "start", "id": id})).await?;
            tasks.push(tokio::spawn(seat_loop(host, 0, sent.clone(), shared.clone(), think)));
            for (c, s) in table {
                tasks.push(tokio::spawn(seat_loop(c, s, sent.clone(), shared.clone(), think)));
            }
        }
        // Warm up for a second, then measure.
        tokio::time::sleep(Duration::from_secs(1)).await;
        shared.measuring.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
        shared.measuring.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let rss = rss_mb(server_pid);
        shared.stop.store(true, Ordering::Relaxed);
        let mut lat: Vec<u32> = Vec::new();
        for t in tasks {
            lat.extend(t.await.unwrap_or_default());
        }
        lat.sort_unstable();
        let q = |p: f64| if lat.is_empty() { 0.0 } else { lat[((lat.len() - 1) as f64 * p) as usize] as f64 / 1000.0 };
        let moves = shared.moves.load(Ordering::Relaxed);
        let bytes = shared.bytes.load(Ordering::Relaxed);
        Ok::<_, anyhow::Error>(LoadReport {
            connections,
            offered_rate: rate,
            tables,
            seconds: elapsed,
            moves,
            moves_per_s: moves as f64 / elapsed,
            p50_ms: q(0.5),
            p99_ms: q(0.99),
            max_ms: q(1.0),
            bytes_per_move: if moves == 0 { 0.0 } else { bytes as f64 / (moves as f64 * 4.0) },
            server_rss_mb: rss,
        })
    })?;
    drop(server);
    if json_out {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "connections {}  tables {}  measured {:.1} s\nmoves {}  ({:.0}/s, each committed at synchronous=FULL)\nlatency send→broadcast at the next seat: p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms\nbytes per move per viewer {:.0}\nserver memory {:.0} MiB",
            report.connections,
            report.tables,
            report.seconds,
            report.moves,
            report.moves_per_s,
            report.p50_ms,
            report.p99_ms,
            report.max_ms,
            report.bytes_per_move,
            report.server_rss_mb
        );
    }
    Ok(())
}
