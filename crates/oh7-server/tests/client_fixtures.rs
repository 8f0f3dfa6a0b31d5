//! Recorded message sequences for the browser client's reducer tests (`web/test/state.test.mjs`):
//! every preset and Seven, played to the end on the real server by clients of every seat, the
//! frames one seat and a spectator received, then the snapshot each gets on reconnecting.
//!
//! The recordings are committed (`web/test/fixtures/*.jsonl`); this writes them anew when the
//! protocol changes:
//!
//! ```sh
//! cargo test -p oh7-server --test client_fixtures -- --ignored
//! ```

mod common;

use std::path::PathBuf;

use common::{fast, play_table, start, temp_db};
use oh7_server::client::Client;
use serde_json::{Value, json};

/// Short games (one round or a low target) keep the recordings small.
fn cases() -> Vec<(&'static str, Value)> {
    let t =
        |players: usize, ruleset: &str| json!({"game": "oh7", "players": players, "name": "P0", "ruleset": ruleset});
    vec![
        ("en-4", t(4, "preset = \"en\"\nrounds = 1\n")),
        ("en-2-dummy", t(2, "preset = \"en\"\nrounds = 1\n")),
        ("fr-3", t(3, "preset = \"fr\"\ntarget = 21\n")),
        ("fr-advanced-5", t(5, "preset = \"fr-advanced\"\nrounds = 1\n")),
        ("kod7-4", t(4, "preset = \"kod7\"\nrounds = 1\n")),
        ("bga-4-passing", t(4, "preset = \"bga\"\npassing = true\nrounds = 2\n")),
        ("seven-3", json!({"game": "seven", "players": 3, "name": "P0", "ruleset": "limit = 20\n"})),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes web/test/fixtures; run by hand when the protocol changes"]
async fn write_browser_fixtures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/test/fixtures");
    std::fs::create_dir_all(&dir).unwrap();
    let db = temp_db();
    let server = start(&db, fast()).await;
    for (i, (name, req)) in cases().into_iter().enumerate() {
        let run = play_table(server.addr, req, 7 + i as u64).await;
        let (_, seat0) = run.seats.iter().find(|(s, _)| *s == 0).unwrap();
        let invite_code = seat0
            .iter()
            .filter_map(|f| serde_json::from_str::<Value>(f).ok())
            .find_map(|m| m["links"]["invite"].as_str().map(str::to_string))
            .expect("the seat's snapshot has the invite code");
        // The snapshot each gets on coming back, to compare with what the events built.
        let mut back = Client::connect(server.addr).await.unwrap();
        let seat_snap = back.hello(&invite_code, Some(&run.tokens[0])).await.unwrap();
        let mut watcher = Client::connect(server.addr).await.unwrap();
        let watch_snap = watcher.hello(&run.watch, None).await.unwrap();
        for (who, frames, snap) in [("seat0", seat0, seat_snap), ("spectator", &run.spectator, watch_snap)] {
            let mut out = String::new();
            for f in frames {
                // Seat tokens are secrets: the recordings never hold one.
                let mut v: Value = serde_json::from_str(f).unwrap();
                if v.get("token").is_some() {
                    v["token"] = Value::from("TOKEN");
                }
                out.push_str(&v.to_string());
                out.push('\n');
            }
            out.push_str(&json!({"type": "__reconnect"}).to_string());
            out.push('\n');
            out.push_str(&snap.to_string());
            out.push('\n');
            std::fs::write(dir.join(format!("{name}.{who}.jsonl")), out).unwrap();
        }
        eprintln!("{name}: {} frames for seat 0, {} for the spectator", seat0.len(), run.spectator.len());
    }
}
