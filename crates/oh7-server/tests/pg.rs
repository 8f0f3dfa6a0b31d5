//! The server on PostgreSQL (`OH7_PG_URL`, set by `.ci/run`; skipped without it): whole games
//! played by clients with every frame leak-checked, a restart that continues them, and the
//! store's one-owner rule: typed conflicts on a version already logged, leases refused while
//! another instance holds a table, and an instance that lost its lease fenced off its log.

mod common;

use std::path::PathBuf;

use common::{check_leaks, fast, play_table, start};
use oh7_server::client::Client;
use oh7_server::store::{PgStore, Row, Store, StoreError};
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
