//! One command id sent on two connections of one seat at once: applied once, answered on each
//! connection once, the later answer with `"repeated": true` and the first ack's version.

mod common;

use common::{fast, start, temp_db};
use oh7_server::client::{Client, create_table};
use serde_json::{Value, json};

/// Send `cmd` with id `id` on both connections at once; each gets exactly one answer for it
/// (checked up to a `sync` after it): one plain ack and one repeated ack of the same version.
async fn twice(a: &mut Client, b: &mut Client, id: &str, mut cmd: Value) -> u64 {
    cmd["id"] = Value::from(id);
    a.send(&cmd).await.unwrap();
    b.send(&cmd).await.unwrap();
    let mut answers = Vec::new();
    for c in [&mut *a, &mut *b] {
        let first = c.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == id).await.unwrap();
        assert_eq!(first["type"], "ack", "{cmd}: {first}");
        c.send(&json!({"type": "sync"})).await.unwrap();
        let more = c.until(|m| m["type"] == "snapshot" || m["id"] == id).await.unwrap();
        assert_eq!(more["type"], "snapshot", "{cmd}: a second answer on one connection: {more}");
        answers.push(first);
    }
    let repeated: Vec<bool> = answers.iter().map(|m| m["repeated"] == true).collect();
    assert!(repeated.contains(&true) && repeated.contains(&false), "{cmd}: {answers:?}");
    assert_eq!(answers[0]["version"], answers[1]["version"], "{cmd}: {answers:?}");
    answers[0]["version"].as_u64().unwrap()
}

/// `seat`, `chat`, `start`, `act` and `rematch` with one id on two connections of the host:
/// each applied once (one version each), and the second answer says it is repeated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_id_on_two_connections_of_a_seat_is_answered_repeated() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created = create_table(server.addr, &json!({"players": 2, "preset": "kod7", "name": "Host"})).await.unwrap();
    let invite = created["invite"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let mut a = Client::connect(server.addr).await.unwrap();
    let mut b = Client::connect(server.addr).await.unwrap();
    a.hello(invite, Some(token)).await.unwrap();
    b.hello(invite, Some(token)).await.unwrap();
    let v0 = a.version;
    assert_eq!(twice(&mut a, &mut b, "seat-1", json!({"type": "seat", "seat": 1, "bot": "random"})).await, v0 + 1);
    // Chat before the start: once the game runs, the bot's bet may take a version between.
    assert_eq!(twice(&mut a, &mut b, "chat-1", json!({"type": "chat", "text": "hello"})).await, v0 + 2);
    assert_eq!(a.version, b.version);
    assert_eq!(twice(&mut a, &mut b, "start-1", json!({"type": "start"})).await, v0 + 3);
    // Play to the end: the first decision with one id on both connections, the rest on A.
    let mut acted_at = 0;
    let mut first = true;
    while a.table["state"] != "over" {
        if !a.legal.is_empty() && a.version > acted_at {
            acted_at = a.version;
            let action = a.legal[0].clone();
            if first {
                first = false;
                let v = twice(&mut a, &mut b, "act-1", json!({"type": "act", "action": action})).await;
                assert!(v > acted_at, "{v}");
            } else {
                let id = a.id();
                a.send(&json!({"type": "act", "id": id, "action": action})).await.unwrap();
            }
        } else {
            a.recv().await.unwrap();
        }
    }
    assert!(!first, "the host never had a decision");
    // B catches up with the end of the game.
    b.send(&json!({"type": "sync"})).await.unwrap();
    b.until(|m| m["type"] == "snapshot").await.unwrap();
    let end = a.version.max(b.version);
    let v = twice(&mut a, &mut b, "rematch-1", json!({"type": "rematch"})).await;
    assert_eq!(v, end + 1);
    server.stop().await;
}
