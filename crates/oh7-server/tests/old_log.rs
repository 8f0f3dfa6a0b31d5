//! A log written by the previous server (format 1: `tests/fixtures/log_v1.json`, a 4-seat `en`
//! table with two people, seat changes, chat, a whole game and 6 moves of a rematch) is restored
//! by this one and played on to the end: same version, same seats, the game continues.

mod common;

use common::{fast, start, temp_db};
use oh7_server::client::Client;
use oh7_server::store::Row;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_format_1_log_restores_and_plays_on() {
    let fixture: Value = serde_json::from_str(include_str!("fixtures/log_v1.json")).expect("the fixture is JSON");
    let t = &fixture["table"];
    assert!(t["config"].get("log").is_none(), "a format-1 table has no `log` field");
    let db = temp_db();
    {
        let store = common::open_store(&db).await;
        let mut rows = vec![Row::Table {
            id: t["id"].as_str().unwrap().into(),
            join_code: t["join_code"].as_str().unwrap().into(),
            watch_code: t["watch_code"].as_str().unwrap().into(),
            config: t["config"].to_string(),
            created_at: t["created_at"].as_i64().unwrap(),
        }];
        for e in fixture["events"].as_array().unwrap() {
            rows.push(Row::Event {
                table_id: t["id"].as_str().unwrap().into(),
                version: e["version"].as_u64().unwrap(),
                body: e["body"].to_string(),
            });
        }
        store.append(rows).await.unwrap();
        store.close().await;
    }
    let last = fixture["events"].as_array().unwrap().len() as u64;
    let server = start(&db, fast()).await;
    assert_eq!(server.restored, 1, "the running rematch is restored at start");
    let invite = t["join_code"].as_str().unwrap();
    let mut cs = Vec::new();
    for seat in ["0", "1"] {
        let mut c = Client::connect(server.addr).await.unwrap();
        let snap = c.hello(invite, fixture["tokens"][seat].as_str()).await.unwrap();
        assert_eq!(snap["type"], "snapshot", "{snap}");
        assert_eq!(snap["version"], last);
        assert_eq!(snap["you"], seat.parse::<u64>().unwrap());
        cs.push(c);
    }
    let table = &cs[0].table;
    assert_eq!(table["game_number"], 2);
    assert_eq!(table["state"], "playing");
    let names: Vec<&Value> = table["seats"].as_array().unwrap().iter().map(|s| &s["name"]).collect();
    assert_eq!(names[..2], [&json!("Host"), &json!("Friend")]);
    assert_eq!(table["seats"][3]["bot"], "heuristic", "the start's fill is kept");
    assert_eq!(cs[0].chat.len(), 2, "the chat of the old log is in the snapshot");
    // Play on to the end of the rematch, both people acting on what they are shown.
    let mut acted = [0u64; 2];
    let mut moves = 0;
    while cs[0].table["state"] != "over" {
        let mut any = false;
        for (i, c) in cs.iter_mut().enumerate() {
            if !c.legal.is_empty() && c.version > acted[i] {
                acted[i] = c.version;
                let action = c.legal[0].clone();
                let r = c.command(json!({"type": "act", "action": action})).await.unwrap();
                if r["type"] == "ack" {
                    moves += 1;
                    any = true;
                }
            }
        }
        if !any {
            for c in cs.iter_mut() {
                let _ = c.recv_within(std::time::Duration::from_millis(100)).await;
            }
        }
        assert!(moves < 2000);
    }
    assert!(cs[0].version > last + moves / 2, "played on from version {last}");
    server.stop().await;
}
