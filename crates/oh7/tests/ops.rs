//! What an operator sees of the real `oh7 serve` (issue 41): the Prometheus page on
//! `--metrics-addr` counts what happened, and `--log-format json` writes one object per line, each
//! in the span of what it is about, with no token, password, seed or action in it.

mod common;

use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::sample;
use common::tables::{check_record, new_table, play};
use oh7_server::client::{Client, http};
use serde_json::{Value, json};

/// `oh7 serve` with metrics and JSON logs (stderr to `log`): the guard, the game's address and
/// the metrics page's.
fn serve(db: &std::path::Path, log: &std::path::Path) -> (common::Guard, SocketAddr, SocketAddr) {
    serve_more(db, log, &[])
}

/// [`serve`] with more arguments.
fn serve_more(db: &std::path::Path, log: &std::path::Path, more: &[&str]) -> (common::Guard, SocketAddr, SocketAddr) {
    let mut args = vec!["--log-format", "json", "--commands-per-s", "10000", "--max-conns-per-ip", "1000"];
    args.extend_from_slice(more);
    common::serve_metrics(db, &args, Stdio::from(std::fs::File::create(log).unwrap()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_what_happened_and_json_logs_say_whose_line_it_is_and_nothing_secret() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let (mut server, addr, maddr) = serve(&dir.path().join("oh7.db"), &log);
    let cookie = common::sign_up(addr, "Operator").await;
    // Two games played to their end by clients.
    let live = Arc::new(Mutex::new(vec![addr]));
    let (t1, t2) = (new_table(addr, "en").await, new_table(addr, "kod7").await);
    let tokens: Vec<String> = t1.tokens.iter().chain(&t2.tokens).cloned().collect();
    let (t1, t2) = tokio::join!(play(t1, live.clone(), Duration::ZERO), play(t2, live, Duration::ZERO));
    let acts = check_record(&t1).await + check_record(&t2).await;
    // Refusals: an act that is not legal, twice, and a command before hello.
    let c = &mut t1.clients.into_iter().next().unwrap();
    for _ in 0..2 {
        let r = c.command(json!({"type": "act", "action": "bet 99"})).await.unwrap();
        assert_eq!(r["type"], "error", "{r}");
    }
    let mut stranger = Client::connect(addr).await.unwrap();
    let r = stranger.command(json!({"type": "start"})).await.unwrap();
    assert_eq!(r["code"], "no_hello", "{r}");

    // Open: three seats of the second table, one of the first (its other two closed), the
    // stranger.
    let until = std::time::Instant::now() + Duration::from_secs(10);
    let page = loop {
        let (status, page) = http(maddr, "GET", "/metrics", None).await.unwrap();
        assert_eq!(status, 200);
        if sample(&page, "oh7_connections") == 5.0 {
            break page;
        }
        assert!(std::time::Instant::now() < until, "5 connections open: {page}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for (name, kind) in oh7_server::metrics::ALL {
        // Pool waits are timed on PostgreSQL only.
        if *name != oh7_server::metrics::POOL_WAIT {
            assert!(page.contains(&format!("# TYPE {name} {kind}")), "{name} is a {kind}:\n{page}");
        }
    }
    assert_eq!(sample(&page, "oh7_moves_total{by=\"person\"}"), acts as f64, "{page}");
    let refused: f64 = page
        .lines()
        .filter(|l| l.starts_with("oh7_refusals_total{"))
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(refused, 3.0, "the two bad acts and the command before hello: {page}");
    assert_eq!(sample(&page, "oh7_refusals_total{code=\"no_hello\"}"), 1.0, "{page}");
    assert_eq!(sample(&page, "oh7_tables{state=\"over\"}"), 2.0, "{page}");
    // Every commit was timed (plus the tables' creations, seats and starts).
    assert!(sample(&page, "oh7_commit_seconds_count") >= acts as f64, "{page}");
    assert!(sample(&page, "oh7_broadcast_seconds_count") >= acts as f64, "{page}");
    assert!(page.contains("oh7_commit_seconds_bucket{le=\"0.001\"}"), "histograms have buckets: {page}");
    assert!(sample(&page, "oh7_db_pool_connections{state=\"idle\"}") >= 1.0, "{page}");
    // Memory: the binary's allocator counts what its allocations hold (a running server holds
    // hundreds of kilobytes at least), which the resident memory includes.
    let (heap, resident) = (sample(&page, "oh7_heap_bytes"), sample(&page, "oh7_resident_bytes"));
    assert!(heap > 1e5 && heap < resident, "heap {heap} resident {resident}: {page}");
    // The page is not on the public port.
    let (status, _) = http(addr, "GET", "/metrics", None).await.unwrap();
    assert_eq!(status, 404, "no metrics on the public port");

    unsafe { libc::kill(server.0.id() as i32, libc::SIGTERM) };
    assert!(server.0.wait().unwrap().success());
    let text = std::fs::read_to_string(&log).unwrap();
    let mut spans = std::collections::BTreeMap::<String, usize>::new();
    let mut tables = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["timestamp"].is_string() && v["level"].is_string() && v["message"].is_string(), "{line}");
        let list = v["spans"].as_array().unwrap_or_else(|| panic!("every line is in a span: {line}"));
        let top = list.last().unwrap_or_else(|| panic!("every line is in a span: {line}"));
        // A table's lines are its own, not under the request that happened to load it.
        if let Some(i) = list.iter().position(|s| s["name"] == "table") {
            assert_eq!(i, 0, "a table's span is a root: {line}");
            tables += 1;
        }
        let name = top["name"].as_str().unwrap();
        // A task's span says which (`kind`: a field called `name` would clash with the span's).
        let id = if name == "task" { top["kind"].clone() } else { top["id"].clone() };
        assert!(["conn", "req", "table", "task"].contains(&name) && !id.is_null(), "{line}");
        *spans.entry(name.to_string()).or_default() += 1;
    }
    assert!(["conn", "req", "task"].iter().all(|s| spans.contains_key(*s)), "{spans:?}\n{text}");
    assert!(tables > 0, "the tables' lines: {text}");
    let session = cookie.split_once('=').unwrap().1.to_string();
    for secret in tokens.iter().chain([&session, &"long enough".to_string()]) {
        assert!(!text.contains(secret.as_str()), "a secret in the log: {secret}");
    }
    for (_, _, action) in t1.acked.iter().chain(&t2.acked) {
        if action.contains(' ') {
            assert!(!text.contains(&format!("\"{action}\"")), "an action in the log: {action}");
        }
    }
    let record = http(addr, "GET", "/", None).await;
    assert!(record.is_err(), "the server stopped");
    eprintln!("{} log lines by span: {spans:?}", text.lines().count());
}

/// The metrics page and the lobby agree across restarts (issue 55): the tables restored at the
/// start are counted (before, a gauge raised before the recorder existed was lost and went
/// negative when the table unloaded), every documented series is on the page at zero from the
/// start, and nothing is negative.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_agree_with_the_lobby_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("oh7.db");
    let log = dir.path().join("serve.log");
    let more = ["--grace-s", "600"];
    let page = |maddr| async move {
        let (status, page) = http(maddr, "GET", "/metrics", None).await.unwrap();
        assert_eq!(status, 200);
        page
    };
    // A fresh server: every series at zero.
    let (server, addr, maddr) = serve_more(&db, &log, &more);
    let fresh = page(maddr).await;
    for name in ["oh7_commit_seconds_count", "oh7_broadcast_seconds_count", "oh7_db_pool_wait_seconds_count"] {
        assert!(fresh.lines().any(|l| l == format!("{name} 0")), "{name} at 0 from the start:\n{fresh}");
    }
    for by in ["person", "bot", "stand_in"] {
        assert!(fresh.contains(&format!("oh7_moves_total{{by=\"{by}\"}} 0")), "{by}:\n{fresh}");
    }
    for code in oh7_server::protocol::ErrorCode::ALL {
        let series = format!("oh7_refusals_total{{code=\"{}\"}} 0", code.as_str());
        assert!(fresh.contains(&series), "{series}:\n{fresh}");
    }
    // Two games under way, then three restarts: the page counts what the lobby does.
    let tabs = [new_table(addr, "en").await, new_table(addr, "kod7").await];
    drop(tabs);
    drop(server);
    for restart in 0..3 {
        let (server, addr, maddr) = serve_more(&db, &log, &more);
        let (_, lobby) = http(addr, "GET", "/api/lobby", None).await.unwrap();
        let lobby: Value = serde_json::from_str(&lobby).unwrap();
        let page = page(maddr).await;
        let playing = sample(&page, "oh7_tables{state=\"playing\"}");
        assert_eq!(playing, 2.0, "restart {restart}: {lobby}\n{page}");
        assert_eq!(lobby["tables_running"], 2, "restart {restart}: {lobby}");
        for line in page.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let v: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
            assert!(v >= 0.0, "restart {restart}: {line}");
        }
        drop(server);
    }
}
