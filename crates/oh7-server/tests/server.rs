//! The real server on a loopback port with a temporary SQLite file, driven by WebSocket clients.

mod common;

use common::{check_leaks, fast, play_table, start, temp_db};
use oh7_server::client::{Client, create_table, http};
use serde_json::{Value, json};

fn table(game: &str, preset: Option<&str>, players: usize) -> Value {
    let mut r = json!({"game": game, "players": players, "name": "P0"});
    if let Some(p) = preset {
        r["preset"] = Value::from(p);
    }
    r
}

/// A whole game of people in every preset (and the options), the Dummy, a custom ruleset and
/// Seven; every frame of every seat and of a spectator passes the leak check, and the
/// downloaded record replays through the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_plays_to_the_end_and_leaks_nothing() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let mut custom = table("oh7", None, 3);
    custom["ruleset"] = Value::from("preset = \"fr\"\ntarget = 21\n");
    let cases = vec![
        table("oh7", Some("en"), 4),
        table("oh7", Some("fr"), 4),
        table("oh7", Some("fr-advanced"), 5),
        table("oh7", Some("kod7"), 4),
        table("oh7", Some("bga"), 5),
        {
            let mut t = table("oh7", None, 4);
            t["ruleset"] = Value::from("preset = \"bga\"\ndecks = 2\npassing = true\n");
            t
        },
        table("oh7", Some("kod7"), 2),
        custom,
        table("seven", None, 4),
    ];
    for (i, req) in cases.into_iter().enumerate() {
        let run = play_table(server.addr, req.clone(), i as u64).await;
        let frames = check_leaks(&run);
        assert!(frames > 50, "{req}: only {frames} frames");
        let replayed = if run.record["game"] == "seven" {
            oh7_core::seven::replay(&run.record).map(|_| ()).map_err(|e| e.to_string())
        } else {
            oh7_core::oh7::replay(&run.record).map(|_| ()).map_err(|e| e.to_string())
        };
        replayed.unwrap_or_else(|e| panic!("{req}: the record does not replay: {e}"));
        // The spectator never held a hand.
        for f in &run.spectator {
            let v: Value = serde_json::from_str(f).unwrap();
            let hand = &v["view"]["hand"];
            assert!(hand.is_null() || hand.as_array().is_some_and(|h| h.is_empty()), "{f}");
            // Nor did a patch give it one.
            if let Some(patch) = v["patch"].as_object() {
                for (path, value) in patch {
                    let hand = path == "v/hand" || path.starts_with("v/hand/") || path == "v/hand+";
                    assert!(!hand || value.as_array().is_some_and(|h| h.is_empty()), "{f}");
                }
            }
        }
    }
    server.stop().await;
}

/// Many games at once (every seat a client answering at full speed, a spectator on each),
/// every frame checked. `OH7_LEAK_GAMES` sets the count (the full run uses 10000).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leak_test_many_games() {
    let games: usize = std::env::var("OH7_LEAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(24);
    let db = temp_db();
    let server = start(&db, fast()).await;
    let presets = [("oh7", Some("en"), 4), ("oh7", Some("kod7"), 3), ("oh7", Some("bga"), 4), ("seven", None, 3)];
    let mut done = 0;
    let mut frames = 0;
    let batch = 16;
    while done < games {
        let mut tasks = Vec::new();
        for g in done..(done + batch).min(games) {
            let (game, preset, players) = presets[g % presets.len()];
            let mut req = table(game, preset, players);
            if game == "oh7" && g % 8 == 2 {
                // bga with passing: passed cards reach only their receiver.
                req = table(game, None, players);
                req["ruleset"] = Value::from("preset = \"bga\"\npassing = true\n");
            }
            let addr = server.addr;
            tasks.push(tokio::spawn(async move { check_leaks(&play_table(addr, req, g as u64).await) }));
        }
        for t in tasks {
            frames += t.await.unwrap();
            done += 1;
        }
    }
    eprintln!("leak test: {done} games, {frames} frames checked");
    server.stop().await;
}

async fn seated(addr: std::net::SocketAddr, req: Value) -> (Vec<Client>, Vec<String>, String, String) {
    let players = req["players"].as_u64().unwrap() as usize;
    let created = create_table(addr, &req).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let watch = created["watch"].as_str().unwrap().to_string();
    let mut tokens = vec![created["token"].as_str().unwrap().to_string()];
    let mut c0 = Client::connect(addr).await.unwrap();
    c0.hello(&invite, Some(&tokens[0])).await.unwrap();
    let mut clients = vec![c0];
    for s in 1..players {
        let mut c = Client::connect(addr).await.unwrap();
        c.hello(&invite, None).await.unwrap();
        let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await.unwrap();
        tokens.push(ack["token"].as_str().unwrap().to_string());
        clients.push(c);
    }
    (clients, tokens, invite, watch)
}

/// Read every client's messages until all are at `version`.
async fn settle(clients: &mut [Client], version: u64) {
    for c in clients.iter_mut() {
        while c.version < version {
            c.recv().await.unwrap();
        }
    }
}

/// Simultaneous bets arrive in any order; until the last one nobody sees another's bet, then
/// all are revealed together. A repeated command id is answered again and applied once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_bets_in_any_order_and_repeated_ids() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, _, _, _) = seated(server.addr, table("oh7", Some("en"), 4)).await;
    let ack = cs[0].command(json!({"type": "start"})).await.unwrap();
    let v0 = ack["version"].as_u64().unwrap();
    settle(&mut cs, v0).await;
    for order in [3usize, 1, 0] {
        let bet = cs[order].legal[0].clone();
        let id = format!("bet-{order}");
        cs[order].send(&json!({"type": "act", "id": id, "action": bet})).await.unwrap();
        let ack = cs[order].until(|v| v["id"] == id.as_str()).await.unwrap();
        assert_eq!(ack["type"], "ack");
        // The same id again: the same answer, no second bet.
        cs[order].send(&json!({"type": "act", "id": id, "action": bet})).await.unwrap();
        let again = cs[order].until(|v| v["id"] == id.as_str()).await.unwrap();
        assert_eq!(again["version"], ack["version"]);
        assert_eq!(again["repeated"], true);
    }
    settle(&mut cs, v0 + 3).await;
    for c in &cs {
        assert!(c.view["bets"].is_null(), "bets shown before the reveal: {}", c.view);
        assert_eq!(c.view["phase"]["name"], "betting");
    }
    let last = cs[2].legal[0].clone();
    let ack = cs[2].command(json!({"type": "act", "action": last})).await.unwrap();
    assert_eq!(ack["version"], v0 + 4, "three bets and this one: four versions");
    settle(&mut cs, v0 + 4).await;
    let attempts = &cs[0].view["bet_attempts"];
    assert_eq!(attempts.as_array().unwrap().len(), 1, "all four bets revealed together: {}", cs[0].view);
    server.stop().await;
    // Stopping tells every connection why, typed for a client to word.
    let closing = cs[0].until(|v| v["type"] == "closing").await.unwrap();
    assert_eq!((&closing["reason"], &closing["version"]), (&json!("stopping"), &json!(v0 + 4)), "{closing}");
}

/// Play one legal action (the one in the middle of the list) for whichever seat owes one;
/// returns the new version.
async fn step(cs: &mut [Client]) -> u64 {
    let s = (0..cs.len()).find(|&s| !cs[s].legal.is_empty()).expect("someone owes a decision");
    let action = cs[s].legal[cs[s].legal.len() / 2].clone();
    let ack = cs[s].command(json!({"type": "act", "action": action})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let v = ack["version"].as_u64().unwrap();
    settle(cs, v).await;
    v
}

/// A person reconnects in the middle of a trick and continues at the same version; a client
/// that missed messages (a gap) is healed by a snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_mid_trick_and_gap_healed_by_snapshot() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, tokens, invite, _) = seated(server.addr, table("oh7", Some("en"), 4)).await;
    let ack = cs[0].command(json!({"type": "start"})).await.unwrap();
    let mut v = ack["version"].as_u64().unwrap();
    settle(&mut cs, v).await;
    while !(cs[0].view["phase"]["name"] == "playing" && cs[0].view["trick"].as_array().is_some_and(|t| t.len() == 2)) {
        v = step(&mut cs).await;
    }
    // Seat 1 drops and comes back with its token.
    let view_before = cs[1].view.clone();
    let old = std::mem::replace(&mut cs[1], Client::connect(server.addr).await.unwrap());
    old.close().await;
    let snap = cs[1].hello(&invite, Some(&tokens[1])).await.unwrap();
    assert_eq!(snap["type"], "snapshot");
    assert_eq!(snap["version"], v, "resumes at the same version");
    assert_eq!(snap["you"], 1);
    assert_eq!(snap["view"], view_before);
    // A gap: seat 2 stops reading, two versions pass, then it sees a jump and asks for a snapshot.
    let mut lagging = std::mem::replace(&mut cs[2], Client::connect(server.addr).await.unwrap());
    cs[2].hello(&invite, Some(&tokens[2])).await.unwrap();
    let seen = lagging.version;
    step(&mut cs).await;
    v = step(&mut cs).await;
    // The first event is lost, as on a lossy link: the client goes from `seen` to `seen + 2`.
    let first = lagging.until(|m| m["type"] == "event").await.unwrap();
    assert_eq!(first["version"], seen + 1);
    let next = lagging.until(|m| m["type"] == "event").await.unwrap();
    assert_eq!(next["version"], seen + 2, "a gap after dropping {first}");
    lagging.send(&json!({"type": "sync"})).await.unwrap();
    let snap = lagging.until(|m| m["type"] == "snapshot").await.unwrap();
    assert_eq!(snap["version"], v);
    assert_eq!(snap["view"], cs[2].view);
    // And play goes on from there.
    step(&mut cs).await;
    server.stop().await;
}

/// An away person's seat is played by a bot after the grace period, marked as such, and given
/// back when they return with their token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn away_seat_is_played_by_a_bot_and_given_back() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, tokens, invite, watch) = seated(server.addr, table("oh7", Some("en"), 3)).await;
    let mut spectator = Client::connect(server.addr).await.unwrap();
    spectator.hello(&watch, None).await.unwrap();
    let ack = cs[0].command(json!({"type": "start"})).await.unwrap();
    settle(&mut cs, ack["version"].as_u64().unwrap()).await;
    let gone = cs.remove(2);
    gone.close().await;
    while spectator.table["seats"][2]["status"] != "away" {
        spectator.until(|m| m["type"] == "presence").await.unwrap();
    }
    assert_eq!(spectator.table["seats"][2]["name"], "P2");
    while spectator.table["seats"][2]["status"] != "bot_for_away" {
        spectator.until(|m| m["type"] == "presence").await.unwrap();
    }
    // The others play on; the bot decides for seat 2.
    let mut by_bot = false;
    for _ in 0..40 {
        if cs.iter().all(|c| c.legal.is_empty()) {
            let m = cs[0].recv().await.unwrap();
            if m["event"]["seat"] == 2 && m["event"]["by_bot"] == true {
                by_bot = true;
                break;
            }
            continue;
        }
        step(&mut cs).await;
        if cs[0].view["to_move"].as_array().is_some_and(|a| a.contains(&json!(2))) {
            let m = cs[0].until(|m| m["type"] == "event").await.unwrap();
            if m["event"]["seat"] == 2 && m["event"]["by_bot"] == true {
                by_bot = true;
                break;
            }
        }
    }
    assert!(by_bot, "a bot played for the away seat");
    let mut back = Client::connect(server.addr).await.unwrap();
    let snap = back.hello(&invite, Some(&tokens[2])).await.unwrap();
    assert_eq!(snap["you"], 2);
    assert_eq!(snap["table"]["seats"][2]["status"], "here");
    server.stop().await;
}

/// A person who drops and comes back again and again leaves no grace timer asleep: each return
/// stops the timer its leaving started (with an hour's grace, a soak grew by one sleeping task
/// per reconnection before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coming_back_stops_the_grace_timer() {
    let db = temp_db();
    let settings = oh7_server::Settings { grace: std::time::Duration::from_secs(3600), ..fast() };
    let server = start(&db, settings).await;
    let (mut cs, tokens, invite, _) = seated(server.addr, table("oh7", Some("en"), 3)).await;
    let ack = cs[0].command(json!({"type": "start"})).await.unwrap();
    settle(&mut cs, ack["version"].as_u64().unwrap()).await;
    let alive = || tokio::runtime::Handle::current().metrics().num_alive_tasks();
    let mut before = 0;
    for round in 0..41 {
        let gone = cs.remove(2);
        gone.close().await;
        while cs[0].table["seats"][2]["status"] != "away" {
            cs[0].until(|m| m["type"] == "presence").await.unwrap();
        }
        let mut back = Client::connect(server.addr).await.unwrap();
        back.hello(&invite, Some(&tokens[2])).await.unwrap();
        while cs[0].table["seats"][2]["status"] != "here" {
            cs[0].until(|m| m["type"] == "presence").await.unwrap();
        }
        cs.insert(2, back);
        if round == 0 {
            before = alive();
        }
    }
    // Forty more departures and returns; the tasks alive are as many as after the first (a
    // few of the server's own may come and go).
    let after = alive();
    assert!(after < before + 10, "{before} tasks alive after one return, {after} after forty more");
    server.stop().await;
}

/// A table of bots only plays to its end at full speed; a spectator watches it; the record
/// downloads and replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_plays_to_the_end_for_a_spectator() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created = create_table(
        server.addr,
        &json!({"game": "oh7", "preset": "kod7", "players": 4, "seats": ["heuristic", "random", "heuristic", "easy"]}),
    )
    .await
    .unwrap();
    assert!(created["token"].is_null(), "nobody sits at a table of bots");
    let watch = created["watch"].as_str().unwrap();
    let mut spectator = Client::connect(server.addr).await.unwrap();
    spectator.hello(watch, None).await.unwrap();
    while spectator.table["state"] != "over" {
        spectator.recv().await.unwrap();
    }
    let (status, body) = http(server.addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
    assert_eq!(status, 200);
    let record: Value = serde_json::from_str(&body).unwrap();
    oh7_core::oh7::replay(&record).unwrap();
    assert_eq!(oh7_server::client::strings(&record["seats"])[1], "bot:random");
    // A rematch needs the host, and there is none: spectators cannot act at all.
    spectator.send(&json!({"type": "rematch", "id": "r"})).await.unwrap();
    let e = spectator.until(|m| m["id"] == "r").await.unwrap();
    assert_eq!(e["code"], "spectator");
    server.stop().await;
}

/// A finished table offers a rematch at the same seats; chat is text, limited in length.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_and_chat() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, _, _, watch) = seated(server.addr, table("seven", None, 2)).await;
    let r = cs[1].command(json!({"type": "start"})).await.unwrap();
    assert_eq!(r["code"], "not_host");
    let r = cs[0].command(json!({"type": "chat", "text": "<img src=x onerror=alert(1)>"})).await.unwrap();
    assert_eq!(r["type"], "ack");
    let m = cs[1].until(|m| m["event"]["kind"] == "chat").await.unwrap();
    assert_eq!(m["event"]["entry"]["text"], "<img src=x onerror=alert(1)>");
    let r = cs[1].command(json!({"type": "chat", "text": "x".repeat(301)})).await.unwrap();
    assert_eq!(r["code"], "chat_too_long");
    let v = cs[0].command(json!({"type": "start"})).await.unwrap()["version"].as_u64().unwrap();
    settle(&mut cs, v).await;
    let r = cs[0].command(json!({"type": "rematch"})).await.unwrap();
    assert_eq!(r["code"], "not_over");
    while cs[0].table["state"] != "over" {
        let legal_seat = (0..2).find(|&s| !cs[s].legal.is_empty());
        match legal_seat {
            Some(s) => {
                let a = cs[s].legal[cs[s].legal.len() / 2].clone();
                let v = cs[s].command(json!({"type": "act", "action": a})).await.unwrap()["version"].as_u64().unwrap();
                settle(&mut cs, v).await;
            }
            None => panic!("nobody owes a decision in a running game: {}", cs[0].view),
        }
    }
    let r = cs[0].command(json!({"type": "rematch"})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    // The other person is asked, and the game starts when they are in.
    cs[1].until(|m| m["event"]["kind"] == "rematch").await.unwrap();
    assert_eq!(cs[1].table["rematch"]["answers"], json!(["yes", "waiting"]));
    let r = cs[1].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    let m = cs[1].until(|m| m["event"]["kind"] == "start").await.unwrap();
    assert_eq!(m["event"]["game"], 2);
    assert_eq!(cs[1].table["state"], "playing");
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
    assert_eq!(status, 200, "the first game's record stays downloadable");
    server.stop().await;
}

/// Every file of the browser client is served, and every module a script imports is one of
/// them (the glossary is generated from `oh7_core::glossary`, shared with the terminal game).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_files_and_their_imports_are_served() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for path in ["/", "/app.js", "/cards.js", "/i18n.js", "/glossary.js", "/style.css"] {
        let (status, body) = http(server.addr, "GET", path, None).await.unwrap();
        assert_eq!(status, 200, "{path}");
        for line in body.lines().filter(|l| l.starts_with("import ")) {
            let module = line.split('"').nth(1).unwrap().trim_start_matches('.');
            let (status, _) = http(server.addr, "GET", module, None).await.unwrap();
            assert_eq!(status, 200, "{path} imports {module}");
        }
    }
    let (_, glossary) = http(server.addr, "GET", "/glossary.js", None).await.unwrap();
    assert!(glossary.contains("\"bet\": \"pari\"") && glossary.contains("\"dummy\": \"le Pantin\""), "{glossary}");
}
