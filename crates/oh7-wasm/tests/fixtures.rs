//! Records what the page gets from a solo table (the worker's messages, as `web/local.js` hands
//! them to the reducer): `web/test/fixtures/*-solo.seat0.jsonl`, a whole game of messages, then
//! `__reconnect` and the snapshot a reload gets. `node --test web/test/` replays them through
//! `state.js` as it replays the server's recordings, so the reducer is checked on messages from
//! both transports. Written anew by hand when the protocol changes:
//!
//! cargo test -p oh7-wasm --test fixtures -- --ignored

use std::path::PathBuf;

use serde_json::{Value, json};

fn call(req: Value) -> Value {
    serde_json::from_str(&oh7_wasm::call(&req.to_string())).expect("JSON")
}

fn record(name: &str, setup: Value, seed: u64) {
    let mut lines: Vec<Value> = Vec::new();
    let take = |a: &Value, lines: &mut Vec<Value>| {
        for m in a["messages"].as_array().into_iter().flatten() {
            lines.push(m.clone());
        }
    };
    let first = call(json!({"op": "new", "setup": setup, "seed": seed}));
    take(&first, &mut lines);
    let mut n = 0;
    loop {
        let b = call(json!({"op": "bot"}));
        if b["idle"] != true {
            take(&b, &mut lines);
            continue;
        }
        let snap = call(json!({"op": "command", "text": json!({"type": "sync"}).to_string()}));
        let snap = &snap["messages"][0];
        if snap["table"]["state"] == "over" {
            lines.push(json!({"type": "__reconnect"}));
            lines.push(snap.clone());
            break;
        }
        n += 1;
        let action = snap["legal"][0]["a"].as_str().expect("a legal action").to_string();
        let a = call(
            json!({"op": "command", "text": json!({"type": "act", "id": format!("c{n}"), "action": action}).to_string()}),
        );
        take(&a, &mut lines);
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/test/fixtures");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join(format!("{name}.seat0.jsonl")), text).expect("the fixtures folder");
}

#[test]
#[ignore = "writes web/test/fixtures; run by hand when the protocol changes"]
fn write_solo_fixtures() {
    record("en-4-solo", json!({"game": "oh7", "preset": "en", "players": 4, "level": "heuristic", "lang": "en"}), 3);
    record("seven-3-solo", json!({"game": "seven", "players": 3, "level": "heuristic", "lang": "fr"}), 4);
}
