//! `bet_attempts = 0` (no limit on bet attempts summing to 7) is a valid custom ruleset: games
//! under it, in every preset, play to the end.

mod common;

use std::time::Duration;

use common::{fast, start, temp_db};
use oh7_server::client::{create_table, http};
use serde_json::json;

/// Tables of bots under `bet_attempts = 0` in every preset finish and their records replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_bet_attempt_limit_plays_to_the_end() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for preset in ["en", "fr", "fr-advanced", "kod7", "bga"] {
        for players in [3, 4] {
            let ruleset = format!("preset = \"{preset}\"\nbet_attempts = 0\n");
            let seats = vec!["random"; players];
            let created = create_table(server.addr, &json!({"players": players, "ruleset": ruleset, "seats": seats}))
                .await
                .unwrap_or_else(|e| panic!("{preset}, {players} players: {e}"));
            let watch = created["watch"].as_str().unwrap();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
            let record = loop {
                let (status, body) =
                    http(server.addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
                if status == 200 {
                    break serde_json::from_str::<serde_json::Value>(&body).unwrap();
                }
                assert!(tokio::time::Instant::now() < deadline, "{preset}, {players} players: no end ({body})");
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            assert_eq!(record["ruleset"]["bet_attempts"], serde_json::Value::Null, "{preset}: {}", record["ruleset"]);
            oh7_core::oh7::replay(&record).unwrap_or_else(|e| panic!("{preset}, {players} players: {e}"));
        }
    }
    server.stop().await;
}
