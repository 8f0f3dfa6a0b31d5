//! The server on PostgreSQL (`OH7_PG_URL`, set by `.ci/run`; skipped without it): whole games
//! played by clients with every frame leak-checked, a restart that continues them, and the
//! store's one-owner rule: typed conflicts on a version already logged, leases refused while
//! another instance holds a table, and an instance that lost its lease fenced off its log.

mod common;

use std::path::PathBuf;

use common::{check_leaks, fast, play_table, start};
use oh7_server::client::{Client, http};
use oh7_server::pg::PgStore;
use oh7_server::store::{Row, Store, StoreError};
use serde_json::json;
use sqlx::Connection;

/// A new empty database on the server of `OH7_PG_URL` (`None`: no PostgreSQL, skip).
async fn fresh_db() -> Option<String> {
    let Ok(base) = std::env::var("OH7_PG_URL") else {
        eprintln!("OH7_PG_URL is not set: the PostgreSQL tests are skipped");
        return None;
    };
    let name = format!("oh7_t_{}", &oh7_server::secrets::new_code()[..12]);
    let mut admin = sqlx::PgConnection::connect(&base).await.expect("OH7_PG_URL answers");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    let cut = base.rfind('/').expect("a database in the URL");
    Some(format!("{}/{name}", &base[..cut]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_play_and_restart_on_postgres() {
    let Some(url) = fresh_db().await else { return };
    let server = start(&PathBuf::from(&url), fast()).await;
    for (i, req) in [
        json!({"game": "oh7", "preset": "en", "players": 4, "name": "P0"}),
        json!({"game": "seven", "players": 3, "name": "P0"}),
    ]
    .into_iter()
    .enumerate()
    {
        let run = play_table(server.addr, req.clone(), i as u64).await;
        assert!(check_leaks(&run) > 50, "{req}");
    }
    // A table left running continues after a restart, at its version.
    let created = oh7_server::client::create_table(
        server.addr,
        &json!({"players": 3, "preset": "kod7", "name": "Host", "seats": ["human", "random", "random"]}),
    )
    .await
    .unwrap();
    let (invite, token) =
        (created["invite"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string());
    let mut c = Client::connect(server.addr).await.unwrap();
    c.hello(&invite, Some(&token)).await.unwrap();
    assert_eq!(c.command(json!({"type": "start"})).await.unwrap()["type"], "ack");
    // Until only the host is awaited (the bots bet meanwhile), so nothing moves after it leaves.
    while c.legal.is_empty() || c.view["to_move"] != json!([0]) {
        c.recv().await.unwrap();
    }
    let version = c.version;
    c.close().await;
    server.stop().await;
    let server = start(&PathBuf::from(&url), fast()).await;
    assert!(server.restored >= 1);
    let mut c = Client::connect(server.addr).await.unwrap();
    let snap = c.hello(&invite, Some(&token)).await.unwrap();
    assert_eq!(snap["version"], version, "{snap}");
    let a = c.legal[0].clone();
    let r = c.command(json!({"type": "act", "action": a})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_owner_per_table_and_a_fence_on_the_log() {
    let Some(url) = fresh_db().await else { return };
    let a = PgStore::open(&url, "instance-a", std::time::Duration::from_secs(15)).await.unwrap();
    let b = PgStore::open(&url, "instance-b", std::time::Duration::from_secs(15)).await.unwrap();
    let ev = |v: u64| Row::Event { table_id: "t1".into(), version: v, body: format!("{{\"v\":{v}}}") };
    let table = Row::Table {
        id: "t1".into(),
        join_code: "a".repeat(32),
        watch_code: "b".repeat(32),
        config: "{}".into(),
        created_at: 0,
    };
    // Created with its first event by A; A takes the lease, B may not.
    a.append(vec![table, ev(1)]).await.unwrap();
    a.lease("t1").await.unwrap();
    assert!(matches!(b.lease("t1").await, Err(StoreError::Leased { .. })));
    // A appends; B, without the lease, is fenced off; a version already logged is a conflict.
    a.append(vec![ev(2)]).await.unwrap();
    assert!(matches!(b.append(vec![ev(3)]).await, Err(StoreError::Leased { .. })));
    assert!(matches!(a.append(vec![ev(2)]).await, Err(StoreError::Conflict { version: 2, .. })));
    // A stops renewing (paused past its lease): B takes the table over and A can no longer write.
    let mut admin = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query("UPDATE leases SET expires_at = now() - interval '1 second'").execute(&mut admin).await.unwrap();
    b.lease("t1").await.unwrap();
    assert!(matches!(a.append(vec![ev(3)]).await, Err(StoreError::Leased { .. })));
    b.append(vec![ev(3)]).await.unwrap();
    let log = b.load("t1").await.unwrap();
    assert_eq!(log.events.iter().map(|(v, _)| *v).collect::<Vec<_>>(), vec![1, 2, 3]);
    a.close().await;
    b.close().await;
}

/// Two instances on one database, a short lease (a heartbeat every second).
async fn two_instances(url: &str, settings: oh7_server::Settings) -> (oh7_server::Running, oh7_server::Running) {
    let settings = oh7_server::Settings { lease: std::time::Duration::from_secs(3), ..settings };
    (start(&PathBuf::from(url), settings.clone()).await, start(&PathBuf::from(url), settings).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_held_by_one_instance_is_found_through_the_other() {
    let Some(url) = fresh_db().await else { return };
    let (a, b) = two_instances(&url, fast()).await;
    let created = oh7_server::client::create_table(
        a.addr,
        &json!({"players": 3, "name": "Host", "seats": ["human", "random", "random"]}),
    )
    .await
    .unwrap();
    let (invite, watch) = (created["invite"].as_str().unwrap(), created["watch"].as_str().unwrap());
    // Once A's heartbeat told where it is: B sends a hello for A's table to A, and its HTTP
    // reads there (307, readable by a page another instance served).
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let mut c = Client::connect(b.addr).await.unwrap();
    c.send(&json!({"type": "hello", "table": invite, "token": created["token"]})).await.unwrap();
    let m = c.recv().await.unwrap();
    assert_eq!(m["type"], "redirect", "{m}");
    assert_eq!(m["url"], format!("http://{}", a.addr), "{m}");
    assert!(c.recv().await.is_err(), "the connection is closed after a redirect");
    let (status, head) = head_of(b.addr, &format!("/api/tables/{watch}")).await;
    assert_eq!(status, 307, "{head}");
    assert!(head.to_ascii_lowercase().contains(&format!("location: http://{}/api/tables/{watch}", a.addr)), "{head}");
    let (status, head) = head_of(a.addr, &format!("/api/tables/{watch}")).await;
    assert_eq!(status, 200);
    assert!(head.to_ascii_lowercase().contains("access-control-allow-origin: *"), "{head}");
    // On A the hello is answered.
    let mut c = Client::connect(a.addr).await.unwrap();
    assert_eq!(c.hello(invite, created["token"].as_str()).await.unwrap()["type"], "snapshot");
    // A clean stop of A hands its tables over at once: B plays the table at its next heartbeat.
    c.close().await;
    a.stop().await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let mut c = Client::connect(b.addr).await.unwrap();
    assert_eq!(c.hello(invite, created["token"].as_str()).await.unwrap()["type"], "snapshot");
    b.stop().await;
}

/// The status and head of a GET.
async fn head_of(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let head = text.split("\r\n\r\n").next().unwrap().to_string();
    (head.split_whitespace().nth(1).unwrap().parse().unwrap(), head)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_the_limits_per_address_are_the_same_on_every_instance() {
    let Some(url) = fresh_db().await else { return };
    let settings = oh7_server::Settings { max_tables_per_ip: 3, max_conns_per_ip: 4, ..fast() };
    let (a, b) = two_instances(&url, settings).await;
    let req = json!({"players": 3, "name": "Host"});
    // Three tables an hour from one address, wherever it creates them.
    oh7_server::client::create_table(a.addr, &req).await.unwrap();
    oh7_server::client::create_table(b.addr, &req).await.unwrap();
    oh7_server::client::create_table(a.addr, &req).await.unwrap();
    for addr in [a.addr, b.addr] {
        let (status, body) = http(addr, "POST", "/api/tables", Some(&req.to_string())).await.unwrap();
        assert_eq!(status, 429, "{body}");
        assert!(body.contains("too_many"), "{body}");
    }
    // Four connections from one address over both instances.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(Client::connect(a.addr).await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    held.push(Client::connect(b.addr).await.unwrap());
    assert!(Client::connect(b.addr).await.is_err(), "a fifth connection from the address is refused on B");
    // The lobby's counts, the same from both.
    let (_, body_a) = http(a.addr, "GET", "/api/lobby", None).await.unwrap();
    let (_, body_b) = http(b.addr, "GET", "/api/lobby", None).await.unwrap();
    let (la, lb): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&body_a).unwrap(), serde_json::from_str(&body_b).unwrap());
    assert_eq!(la["instances"], 2, "{la}");
    assert_eq!(la["tables_open"], 3, "{la}");
    assert_eq!(la["tables_running"], 3, "{la}");
    // (The connections are as each instance last published them: a heartbeat may fall between.)
    for k in ["instances", "tables_open", "tables_running"] {
        assert_eq!(la[k], lb[k], "{k}: {la} {lb}");
    }
    for c in held {
        c.close().await;
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_committed_together_are_fenced_one_by_one() {
    let Some(url) = fresh_db().await else { return };
    let lease = std::time::Duration::from_secs(15);
    let a = PgStore::open(&url, "instance-a", lease).await.unwrap();
    let b = PgStore::open(&url, "instance-b", lease).await.unwrap();
    let id = |t: usize| format!("t{t}");
    let ev = |t: usize, v: u64| Row::Event { table_id: id(t), version: v, body: format!("{{\"v\":{v}}}") };
    for t in 0..60 {
        let table = Row::Table {
            id: id(t),
            join_code: format!("{t:032x}"),
            watch_code: format!("{:032x}", t + 1000),
            config: "{}".into(),
            created_at: 0,
        };
        a.append(vec![table, ev(t, 1)]).await.unwrap();
        a.lease(&id(t)).await.unwrap();
    }
    // B takes every third table over (A's lease on them ran out).
    let mut admin = sqlx::PgConnection::connect(&url).await.unwrap();
    for t in (0..60).step_by(3) {
        sqlx::query("UPDATE leases SET expires_at = now() - interval '1 second' WHERE table_id = $1")
            .bind(id(t))
            .execute(&mut admin)
            .await
            .unwrap();
        b.lease(&id(t)).await.unwrap();
    }
    // A appends to all at once (its writers commit them in groups): the tables it lost are
    // refused, the others written; a version already taken is a conflict, alone.
    let appends = (0..60).map(|t| {
        let a = a.clone();
        let rows = if t == 1 { vec![ev(t, 1)] } else { vec![ev(t, 2)] };
        tokio::spawn(async move { a.append(rows).await })
    });
    let answers: Vec<_> = futures_util::future::join_all(appends).await.into_iter().map(|r| r.unwrap()).collect();
    for (t, r) in answers.iter().enumerate() {
        match (t % 3, t) {
            (0, _) => assert!(matches!(r, Err(StoreError::Leased { .. })), "t{t}: {r:?}"),
            (_, 1) => assert!(matches!(r, Err(StoreError::Conflict { version: 1, .. })), "t{t}: {r:?}"),
            _ => assert!(r.is_ok(), "t{t}: {r:?}"),
        }
    }
    for t in 0..60 {
        let log = a.load(&id(t)).await.unwrap();
        let expect = if t % 3 == 0 || t == 1 { vec![1] } else { vec![1, 2] };
        assert_eq!(log.events.iter().map(|(v, _)| *v).collect::<Vec<_>>(), expect, "t{t}");
    }
    a.close().await;
    b.close().await;
}

/// TLS to PostgreSQL (issue 55): `sslmode=require` in the URL gives an encrypted session (as a
/// managed database demands), the password may come from PGPASSWORD instead of the URL, and a
/// certificate that does not verify against the given CA file is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_to_postgres_and_a_password_outside_the_url() {
    let Some(url) = fresh_db().await else { return };
    let tls = format!("{url}?sslmode=require");
    let store = PgStore::open(&tls, "tls-test", std::time::Duration::from_secs(5)).await;
    let store = match store {
        Ok(s) => s,
        // A server without TLS (not Debian's default cluster): nothing to check here.
        Err(e) if e.to_string().contains("does not support TLS") => {
            eprintln!("this PostgreSQL has no TLS: skipped ({e})");
            return;
        }
        Err(e) => panic!("sslmode=require: {e}"),
    };
    drop(store);
    let mut c = sqlx::PgConnection::connect(&tls).await.unwrap();
    let encrypted: bool =
        sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").fetch_one(&mut c).await.unwrap();
    assert!(encrypted, "the session is encrypted");
    // (`oh7 serve --db-password-file` with a URL without its password: tests/failover.rs.)
    // A CA file that did not sign the server's certificate: refused, not silently trusted.
    let ca = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(ca.path(), include_str!("fixtures/unrelated-ca.pem")).unwrap();
    let strict = format!("{url}?sslmode=verify-ca&sslrootcert={}", ca.path().display());
    assert!(sqlx::PgConnection::connect(&strict).await.is_err(), "an unverified certificate is refused");
}
