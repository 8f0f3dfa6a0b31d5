//! The real `oh7 serve` binary: play part of several games, `kill -9` it, start it again on the
//! same database; every table continues at the version its clients were acked, and each game's
//! record at the end is exactly what the acked actions make.

mod common;

use std::process::Command;

use common::sign_up;

/// `oh7 serve` on `db`, its command limit out of the way: these clients play as fast as the
/// server answers, past the default 10 commands a second.
fn serve(db: &std::path::Path) -> (common::Guard, std::net::SocketAddr) {
    common::serve_with(db, &["--commands-per-s", "10000"])
}

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

/// `name`'s ratings: `(family, games, history length)`.
async fn rated(addr: std::net::SocketAddr, name: &str) -> Vec<(String, i64, usize)> {
    let (status, body) = http(addr, "GET", &format!("/api/players/{name}"), None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let p: Value = serde_json::from_str(&body).unwrap();
    p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["family"].as_str().unwrap().to_string(),
                r["games"].as_i64().unwrap(),
                r["history"].as_array().unwrap().len(),
            )
        })
        .collect()
}

/// Issue 39: a rated game is rated exactly once, however the server dies. Every action of a
/// rated game is sent and the real server is killed with `kill -9` at once, before its answer
/// is read (so the last move dies with it, committed or not); it is started again and the game
/// goes on. When it ends, each person has one rated game, and starting it twice more (each
/// time loading the table again) rates nothing twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_every_move_of_a_rated_game_rates_it_once() {
    let scratch = tempfile::Builder::new().prefix("oh7-rated-").tempdir().expect("a temporary directory");
    let db = scratch.path().join("oh7.db");
    let (mut child, mut addr) = serve(&db);
    let people = [sign_up(addr, "Ann").await, sign_up(addr, "Bob").await];
    let connect = |addr, cookie: String| async move { common::signed_client(addr, &cookie).await };
    let made =
        common::create_signed(addr, &people[0], &json!({"players": 2, "preset": "kod7", "name": "Ann", "rated": true}))
            .await;
    let invite = made["invite"].as_str().unwrap().to_string();
    let mut b = connect(addr, people[1].clone()).await;
    b.hello(&invite, None).await.unwrap();
    assert_eq!(b.command(json!({"type": "sit", "name": "Bob"})).await.unwrap()["seat"], 1);
    let mut a = connect(addr, people[0].clone()).await;
    a.hello(&invite, None).await.unwrap();
    assert_eq!(a.command(json!({"type": "start"})).await.unwrap()["type"], "ack");
    drop((a, b));
    let mut kills = 0;
    loop {
        let mut seats = Vec::new();
        for cookie in &people {
            let mut c = connect(addr, cookie.clone()).await;
            c.hello(&invite, None).await.unwrap();
            seats.push(c);
        }
        if seats[0].table["state"] == "over" {
            break;
        }
        let s = (0..2).find(|&s| !seats[s].legal.is_empty()).expect("a seat owes a decision");
        let action = seats[s].legal[0].clone();
        let id = seats[s].id();
        seats[s].send(&json!({"type": "act", "action": action, "id": id})).await.unwrap();
        // Killed 0 to 2.8 ms after the send: sometimes before the server reads the action,
        // sometimes after its commit.
        tokio::time::sleep(std::time::Duration::from_micros((kills % 5) * 700)).await;
        child.0.kill().unwrap(); // SIGKILL, the answer unread
        child.0.wait().unwrap();
        kills += 1;
        assert!(kills < 2_000, "the game did not end");
        (child, addr) = serve(&db);
    }
    let once = vec![("oh7:kod7".to_string(), 1, 1)];
    assert_eq!(rated(addr, "Ann").await, once);
    assert_eq!(rated(addr, "Bob").await, once);
    for _ in 0..2 {
        child.0.kill().unwrap();
        child.0.wait().unwrap();
        (child, addr) = serve(&db);
        // The finished table is loaded again (a hello), its end read again: no second rating.
        let mut c = connect(addr, people[0].clone()).await;
        assert_eq!(c.hello(&invite, None).await.unwrap()["type"], "snapshot");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert_eq!(rated(addr, "Ann").await, once);
        assert_eq!(rated(addr, "Bob").await, once);
    }
    assert!(kills > 10, "{kills}");
    eprintln!("{kills} kills, one rating each");
}
