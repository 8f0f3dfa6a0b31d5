//! Many connections opening one finished table at once after a restart: the lobby loads it
//! once, so every connection is on the same table (same versions, same events).

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{fast, start, temp_db};
use oh7_server::client::{Client, create_table};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

/// A finished table with one person (seat 0, the host) and a bot: (invite, watch, token).
async fn finished_table(addr: SocketAddr) -> (String, String, String) {
    let created =
        create_table(addr, &json!({"players": 2, "preset": "kod7", "name": "Host", "seats": ["human", "random"]}))
            .await
            .unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let watch = created["watch"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = Client::connect(addr).await.unwrap();
    assert_eq!(c.hello(&invite, Some(&token)).await.unwrap()["type"], "snapshot");
    let ack = c.command(json!({"type": "start"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let mut acted_at = 0;
    while c.table["state"] != "over" {
        if !c.legal.is_empty() && c.version > acted_at {
            acted_at = c.version;
            let action = c.legal[0].clone();
            let id = c.id();
            // An answer comes later; a refusal (legal actions of a view already gone) is
            // followed by the event that changed the view.
            c.send(&json!({"type": "act", "id": id, "action": action})).await.unwrap();
        } else {
            c.recv().await.unwrap();
        }
    }
    c.close().await;
    (invite, watch, token)
}

/// What a connection saw of the chat lines and the rematch: (version, kind, text).
type Seen = Vec<(u64, String, String)>;

/// 5 rounds: a finished table, a restart, 50 connections opening it together (seated, guests
/// and spectators, by both codes, each after a small random delay), chat from several seated
/// connections and a rematch from the host; every connection saw the same snapshot version and
/// the same events at the same versions, and no write was refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_hellos_after_a_restart_share_one_table() {
    const ROUNDS: usize = 5;
    const CONNS: usize = 50;
    const CHATTERS: usize = 4;
    let db = temp_db();
    let server = start(&db, fast()).await;
    let mut tables = Vec::new();
    for _ in 0..ROUNDS {
        tables.push(finished_table(server.addr).await);
    }
    server.stop().await;
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    for (round, (invite, watch, token)) in tables.into_iter().enumerate() {
        let server = start(&db, fast()).await;
        let addr = server.addr;
        let mut tasks = Vec::new();
        for i in 0..CONNS {
            let delay = Duration::from_micros(rng.random_range(0..3000));
            let (code, tok) = match i % 3 {
                0 => (invite.clone(), Some(token.clone())),
                1 => (invite.clone(), None),
                _ => (watch.clone(), None),
            };
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let mut c = Client::connect(addr).await.unwrap();
                let snap = c.hello(&code, tok.as_deref()).await.unwrap();
                assert_eq!(snap["type"], "snapshot", "{snap}");
                assert_eq!(snap["table"]["state"], "over", "{snap}");
                (c, snap["version"].as_u64().unwrap())
            }));
        }
        let mut clients = Vec::new();
        for t in tasks {
            clients.push(t.await.unwrap());
        }
        let version = clients[0].1;
        assert!(clients.iter().all(|(_, v)| *v == version), "round {round}: snapshot versions differ");
        // Seated connections: i % 3 == 0; the first one is the host that asks for the rematch.
        let seated: Vec<usize> = (0..CONNS).filter(|i| i % 3 == 0).collect();
        let mut ids = Vec::new();
        for (n, &i) in seated.iter().take(CHATTERS).enumerate() {
            let id = format!("chat-{round}-{n}");
            clients[i].0.send(&json!({"type": "chat", "id": id, "text": format!("line {n}")})).await.unwrap();
            ids.push(id);
        }
        let id = format!("rematch-{round}");
        clients[seated[CHATTERS]].0.send(&json!({"type": "rematch", "id": id})).await.unwrap();
        ids.push(id);
        let mut seen: Vec<Seen> = Vec::new();
        for (i, (c, _)) in clients.iter_mut().enumerate() {
            let mut s: Seen = Vec::new();
            let (mut chats, mut started) = (0, false);
            while chats < CHATTERS || !started {
                let m = match c.recv_within(Duration::from_secs(10)).await {
                    Ok(m) => m,
                    Err(e) => panic!("round {round}: connection {i} waits ({e}) after {s:?}"),
                };
                assert_ne!(m["type"], "error", "round {round}, connection {i}: {m}");
                if m["type"] != "event" {
                    continue;
                }
                let v = m["version"].as_u64().unwrap();
                match m["event"]["kind"].as_str() {
                    Some("chat") => {
                        chats += 1;
                        s.push((v, "chat".into(), m["event"]["entry"]["text"].as_str().unwrap().to_string()));
                    }
                    Some("start") => {
                        started = true;
                        s.push((v, "start".into(), String::new()));
                    }
                    _ => {}
                }
            }
            seen.push(s);
        }
        let versions: Vec<u64> = seen[0].iter().map(|e| e.0).collect();
        let expected: Vec<u64> = (1..=CHATTERS as u64 + 1).map(|n| version + n).collect();
        assert_eq!(versions, expected, "round {round}: {:?}", seen[0]);
        for (i, s) in seen.iter().enumerate() {
            assert_eq!(s, &seen[0], "round {round}: connection {i} saw another table");
        }
        for (c, _) in clients {
            c.close().await;
        }
        server.stop().await;
    }
}
