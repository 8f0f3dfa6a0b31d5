//! Idle tables leave memory and come back on demand through the lobby's one door, at the
//! version they had; connections arriving while a table unloads all end on one table.

mod common;

use std::time::Duration;

use common::{fast, start, temp_db};
use oh7_server::Settings;
use oh7_server::client::{Client, create_table};
use serde_json::json;

fn idle_fast() -> Settings {
    // A long grace: no bot plays for the host who left, so the table is idle at once.
    Settings { idle_unload: Duration::from_millis(300), grace: Duration::from_secs(60), ..fast() }
}

async fn wait_loaded(server: &oh7_server::Running, n: usize) {
    for _ in 0..200 {
        if server.loaded_tables().await == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{} tables loaded, expected {n}", server.loaded_tables().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_table_unloads_and_reloads_at_its_version() {
    let db = temp_db();
    let server = start(&db, idle_fast()).await;
    let created = create_table(
        server.addr,
        &json!({"players": 3, "preset": "en", "name": "Host", "seats": ["human", "random", "random"]}),
    )
    .await
    .unwrap();
    let (invite, token) = (created["invite"].as_str().unwrap(), created["token"].as_str().unwrap());
    let mut c = Client::connect(server.addr).await.unwrap();
    c.hello(invite, Some(token)).await.unwrap();
    assert_eq!(c.command(json!({"type": "start"})).await.unwrap()["type"], "ack");
    assert_eq!(c.command(json!({"type": "chat", "text": "back soon"})).await.unwrap()["type"], "ack");
    // Wait until only the host owes a decision, so no bot is deciding when everyone leaves
    // (bets are simultaneous: the host may owe one while the bots still bet).
    while c.legal.is_empty() || c.view["to_move"] != json!([0]) {
        c.recv().await.unwrap();
    }
    let (version, view) = (c.version, c.view.clone());
    c.close().await;
    // While someone is connected it stays; once nobody is, it goes after the idle time.
    wait_loaded(&server, 0).await;
    // The invite link brings it back, at the same version, with the same view and chat.
    let mut back = Client::connect(server.addr).await.unwrap();
    let snap = back.hello(invite, Some(token)).await.unwrap();
    assert_eq!(snap["type"], "snapshot", "{snap}");
    assert_eq!(back.version, version);
    assert_eq!(back.view, view);
    assert_eq!(back.chat.len(), 1);
    assert_eq!(server.loaded_tables().await, 1);
    // And plays on.
    let action = back.legal[0].clone();
    let r = back.command(json!({"type": "act", "action": action})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    assert_eq!(r["version"], version + 1);
    server.stop().await;
}

/// Hellos arriving around the moment a table unloads, again and again: every connection gets
/// a snapshot, and all of one wave see each other's chat (one table in memory, not two).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hellos_during_an_unload_meet_on_one_table() {
    let db = temp_db();
    let server = start(&db, Settings { idle_unload: Duration::from_millis(60), ..fast() }).await;
    let created = create_table(server.addr, &json!({"players": 2, "preset": "kod7", "name": "Host"})).await.unwrap();
    let (invite, token) =
        (created["invite"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string());
    for wave in 0..8u64 {
        // Let it go idle (or nearly), then ten connections at staggered moments.
        tokio::time::sleep(Duration::from_millis(40 + wave * 7)).await;
        let mut tasks = Vec::new();
        for i in 0..10u64 {
            let (addr, invite, token) = (server.addr, invite.clone(), token.clone());
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(i * 3)).await;
                let mut c = Client::connect(addr).await.unwrap();
                let snap = c.hello(&invite, if i == 0 { Some(&token) } else { None }).await.unwrap();
                assert_eq!(snap["type"], "snapshot", "{snap}");
                c
            }));
        }
        let mut cs = Vec::new();
        for t in tasks {
            cs.push(t.await.unwrap());
        }
        assert_eq!(server.loaded_tables().await, 1, "wave {wave}");
        let text = format!("wave {wave}");
        let r = cs[0].command(json!({"type": "chat", "text": text})).await.unwrap();
        assert_eq!(r["type"], "ack", "{r}");
        for c in cs.iter_mut().skip(1) {
            c.until(|m| m["event"]["entry"]["text"] == text.as_str()).await.unwrap();
        }
        for c in cs {
            c.close().await;
        }
    }
    server.stop().await;
}
