//! The real `oh7 serve` binary: play part of several games, `kill -9` it, start it again on the
//! same database; every table continues at the version its clients were acked, and each game's
//! record at the end is exactly what the acked actions make.

mod common;

use std::process::Command;

use common::serve;

use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_server::client::{Client, create_table, http, strings};
use serde_json::{Value, json};

struct Seat {
    client: Client,
    token: String,
}

/// One legal action of whichever seat owes one (acked); pushes (version, seat, action).
async fn step(seats: &mut [Seat], acts: &mut Vec<(u64, usize, String)>, k: usize) -> u64 {
    let s = (0..seats.len()).find(|&s| !seats[s].client.legal.is_empty()).expect("a seat owes a decision");
    let legal = seats[s].client.legal.clone();
    let action = legal[k % legal.len()].clone();
    let ack = seats[s].client.command(json!({"type": "act", "action": action})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    assert!(ack["repeated"].is_null(), "a fresh id is applied: {ack}");
    let v = ack["version"].as_u64().unwrap();
    acts.push((v, s, action));
    for seat in seats.iter_mut() {
        while seat.client.version < v {
            seat.client.recv().await.unwrap();
        }
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_loses_no_acknowledged_action() {
    let scratch = tempfile::Builder::new().prefix("oh7-restart-").tempdir().expect("a temporary directory");
    let dir = scratch.path().to_path_buf();
    let db = dir.join("oh7.db");
    let _ = std::fs::remove_file(&db);
    let (mut child, addr) = serve(&db);
    let mut tables = Vec::new();
    for (t, preset) in ["en", "kod7", "fr"].iter().enumerate() {
        let created = create_table(addr, &json!({"preset": preset, "players": 3, "name": "P0"})).await.unwrap();
        let invite = created["invite"].as_str().unwrap().to_string();
        let watch = created["watch"].as_str().unwrap().to_string();
        let mut c0 = Client::connect(addr).await.unwrap();
        c0.hello(&invite, created["token"].as_str()).await.unwrap();
        let mut seats = vec![Seat { client: c0, token: created["token"].as_str().unwrap().to_string() }];
        for s in 1..3 {
            let mut c = Client::connect(addr).await.unwrap();
            c.hello(&invite, None).await.unwrap();
            let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await.unwrap();
            seats.push(Seat { client: c, token: ack["token"].as_str().unwrap().to_string() });
        }
        let v = seats[0].client.command(json!({"type": "start"})).await.unwrap()["version"].as_u64().unwrap();
        for seat in seats.iter_mut() {
            while seat.client.version < v {
                seat.client.recv().await.unwrap();
            }
        }
        let mut acts = Vec::new();
        let mut last = v;
        for k in 0..(15 + 10 * t) {
            last = step(&mut seats, &mut acts, k).await;
        }
        tables.push((invite, watch, seats, acts, last));
    }
    child.0.kill().unwrap(); // SIGKILL: no chance to flush anything
    child.0.wait().unwrap();

    let (mut child, addr) = serve(&db);
    for (invite, watch, seats, acts, last) in &mut tables {
        for (s, seat) in seats.iter_mut().enumerate() {
            seat.client = Client::connect(addr).await.unwrap();
            let snap = seat.client.hello(invite, Some(&seat.token)).await.unwrap();
            assert_eq!(snap["type"], "snapshot", "{snap}");
            assert_eq!(snap["version"], *last, "seat {s} continues at the acked version");
        }
        let mut k = 0;
        while seats[0].client.table["state"] != "over" {
            step(seats, acts, k).await;
            k += 1;
        }
        let (status, body) = http(addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
        assert_eq!(status, 200);
        let record: Value = serde_json::from_str(&body).unwrap();
        // The record is exactly what the acked actions make, from the game's seed.
        let seed = u64::from_str_radix(record["seed"].as_str().unwrap(), 16).unwrap();
        let rules = serde_json::from_value(record["ruleset"].clone()).unwrap();
        let mut g = Oh7Game::new(rules, 3, seed).unwrap();
        g.set_seat_names(strings(&record["seats"]));
        for (i, (v, seat, action)) in acts.iter().enumerate() {
            let a = g.parse_action(*seat, action).unwrap();
            g.apply(*seat, a)
                .unwrap_or_else(|e| panic!("act {i} (version {v}, seat {seat}, {action}): {e}; acts {acts:?}"));
        }
        assert_eq!(g.record(), record);
        // And `oh7 replay` accepts the downloaded file.
        let file = dir.join(format!("{watch}.json"));
        std::fs::write(&file, &body).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_oh7")).arg("replay").arg(&file).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    // SIGTERM stops cleanly.
    unsafe {
        libc::kill(child.0.id() as i32, libc::SIGTERM);
    }
    let status = child.0.wait().unwrap();
    assert!(status.success(), "{status}");
}
