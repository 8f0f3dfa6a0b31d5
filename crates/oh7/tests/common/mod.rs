//! Helpers shared by the tests that run the real `oh7 serve` binary.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub(crate) mod tables;

/// Kills the child process (server, driver) if the test ends before it does.
pub(crate) struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start `oh7 serve` on an ephemeral loopback port with the database `db` and no bot pause;
/// returns it and the address it printed.
pub(crate) fn serve(db: &Path) -> (Guard, SocketAddr) {
    serve_with(db, &[])
}

/// [`serve`] with more options.
pub(crate) fn serve_with(db: impl AsRef<std::ffi::OsStr>, more: &[&str]) -> (Guard, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["serve", "--addr", "127.0.0.1:0", "--bot-pause-ms", "0"])
        .args(more)
        .arg("--db")
        .arg(db.as_ref())
        .stdout(Stdio::piped())
        // `OH7_TEST_SERVER_LOG=FILE`: the server's log there (appended), for a failing test.
        .stderr(match std::env::var_os("OH7_TEST_SERVER_LOG") {
            Some(f) => std::fs::OpenOptions::new().create(true).append(true).open(f).map_or(Stdio::null(), Stdio::from),
            None => Stdio::null(),
        })
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    // Keep reading whatever else it prints, so its stdout never closes under it.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    (Guard(child), addr.parse().unwrap())
}

/// `oh7 serve` with its metrics page on an ephemeral port too, `more` arguments, and its stderr
/// where `stderr` says: the guard, the game's address and the metrics page's (both read from
/// what it prints).
pub(crate) fn serve_metrics(
    db: impl AsRef<std::ffi::OsStr>,
    more: &[&str],
    stderr: Stdio,
) -> (Guard, SocketAddr, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["serve", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--bot-pause-ms", "0"])
        .args(more)
        .arg("--db")
        .arg(db.as_ref())
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut game, mut metrics) = (None, None);
    let mut line = String::new();
    while metrics.is_none() {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server said where its metrics are");
        let addr = |l: &str| l.split("http://").nth(1).and_then(|r| r.split('/').next()).map(|a| a.parse().unwrap());
        if line.starts_with("oh7 is serving at") {
            game = addr(&line);
        } else if line.starts_with("metrics at") {
            metrics = addr(&line);
        }
    }
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (Guard(child), game.unwrap(), metrics.unwrap())
}

/// The value of the sample `name{labels}` on a metrics page (0 when absent).
pub(crate) fn sample(page: &str, series: &str) -> f64 {
    page.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|r| r.strip_prefix(' ')))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

/// A session cookie (`oh7_session=…`) from a sign-up on a running server.
pub(crate) async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let origin = format!("http://{addr}");
    let body = serde_json::json!({"name": name, "password": "long enough"}).to_string();
    let a = oh7_server::client::request(addr, "POST", "/api/account/signup", &[("Origin", &origin)], Some(&body))
        .await
        .unwrap();
    assert_eq!(a.status, 201, "{}", a.body);
    a.header("set-cookie").unwrap().split(';').next().unwrap().to_string()
}

/// A WebSocket client of a signed-in page (its cookie, this server's origin).
pub(crate) async fn signed_client(addr: SocketAddr, cookie: &str) -> oh7_server::client::Client {
    let origin = format!("http://{addr}");
    oh7_server::client::Client::connect_with(addr, &[("Cookie", cookie), ("Origin", &origin)]).await.unwrap()
}

/// Create a table from a signed-in page (`cookie`): the answer (invite, watch, token).
pub(crate) async fn create_signed(addr: SocketAddr, cookie: &str, req: &serde_json::Value) -> serde_json::Value {
    let origin = format!("http://{addr}");
    let a = oh7_server::client::request(
        addr,
        "POST",
        "/api/tables",
        &[("Origin", &origin), ("Cookie", cookie)],
        Some(&req.to_string()),
    )
    .await
    .unwrap();
    assert_eq!(a.status, 201, "{}", a.body);
    serde_json::from_str(&a.body).unwrap()
}
