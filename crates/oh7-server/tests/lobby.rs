//! What the browser's create form and lobby rely on: the host's `seat` command, the create
//! errors with their params, `/api/presets`, the statistics of finished games, and gzip.

mod common;

use std::io::Read;
use std::net::SocketAddr;

use common::{fast, start, temp_db};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_server::client::{Client, create_table, http};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Send a command with a chosen id; its ack or error.
async fn command_id(c: &mut Client, mut cmd: Value, id: &str) -> Value {
    cmd["id"] = Value::from(id);
    c.send(&cmd).await.unwrap();
    c.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == id).await.unwrap()
}

/// The version a fresh snapshot reports.
async fn synced_version(c: &mut Client) -> u64 {
    c.send(&json!({"type": "sync"})).await.unwrap();
    c.until(|m| m["type"] == "snapshot").await.unwrap()["version"].as_u64().unwrap()
}

/// The host turns seat 2 into a bot and back, every refusal has its code and params, a repeated
/// id is applied once, and the seats survive a restart (the log is replayed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_sets_seats_in_the_lobby() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created =
        create_table(server.addr, &json!({"game": "oh7", "preset": "en", "players": 4, "name": "Host"})).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let host_token = created["token"].as_str().unwrap().to_string();
    let mut host = Client::connect(server.addr).await.unwrap();
    host.hello(&invite, Some(&host_token)).await.unwrap();
    let mut guest = Client::connect(server.addr).await.unwrap();
    guest.hello(&invite, None).await.unwrap();
    let sat = guest.command(json!({"type": "sit", "name": "Guest"})).await.unwrap();
    assert_eq!(sat["seat"], 1);

    // A bot at seat 2: acked, told to everyone with the new table.
    let ack = command_id(&mut host, json!({"type": "seat", "seat": 2, "bot": "expert"}), "s-1").await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let v = ack["version"].as_u64().unwrap();
    let ev = guest.until(|m| m["type"] == "event" && m["event"]["kind"] == "seat").await.unwrap();
    assert_eq!(ev["event"], json!({"kind": "seat", "seat": 2, "bot": "expert"}));
    assert_eq!(ev["version"], v);
    assert_eq!(guest.table["seats"][2]["bot"], "expert");
    assert_eq!(guest.table["seats"][2]["status"], "bot");

    // The same id again: the first ack, nothing applied.
    let again = command_id(&mut host, json!({"type": "seat", "seat": 2, "bot": "random"}), "s-1").await;
    assert_eq!(again["repeated"], true, "{again}");
    assert_eq!(again["version"], v);
    assert_eq!(synced_version(&mut guest).await, v);
    assert_eq!(guest.table["seats"][2]["bot"], "expert", "the repeated command was not applied");

    // Back to a free seat.
    let ack = command_id(&mut host, json!({"type": "seat", "seat": 2, "bot": null}), "s-2").await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let ev = guest.until(|m| m["type"] == "event" && m["event"]["kind"] == "seat").await.unwrap();
    assert_eq!(ev["event"], json!({"kind": "seat", "seat": 2, "bot": null}));
    assert_eq!(guest.table["seats"][2]["status"], "empty");

    // Refusals, each with its code and params; none changes the version.
    let before = synced_version(&mut guest).await;
    let r = guest.command(json!({"type": "seat", "seat": 3, "bot": "random"})).await.unwrap();
    assert_eq!(r["code"], "not_host", "{r}");
    let r = host.command(json!({"type": "seat", "seat": 1, "bot": "random"})).await.unwrap();
    assert_eq!(r["code"], "seat_taken", "{r}");
    assert_eq!(r["params"], json!({"seat": 1}));
    for bad in [0, 4, 99] {
        let r = host.command(json!({"type": "seat", "seat": bad, "bot": "random"})).await.unwrap();
        assert_eq!(r["code"], "bad_seat", "{r}");
        assert_eq!(r["params"], json!({"seat": bad, "min": 1, "max": 3}));
    }
    let r = host.command(json!({"type": "seat", "seat": 3, "bot": "grandmaster"})).await.unwrap();
    assert_eq!(r["code"], "unknown_level", "{r}");
    assert_eq!(r["params"], json!({"level": "grandmaster", "levels": oh7_bots::OH7_LEVELS}));
    let r = host.command(json!({"type": "chat", "text": "x".repeat(301)})).await.unwrap();
    assert_eq!(r["code"], "chat_too_long", "{r}");
    assert_eq!(r["params"], json!({"max": 300}));
    let r = host.command(json!({"type": "start", "fill": "grandmaster"})).await.unwrap();
    assert_eq!(r["code"], "unknown_level", "{r}");
    assert_eq!(r["params"]["levels"], json!(oh7_bots::OH7_LEVELS));
    assert_eq!(synced_version(&mut guest).await, before);

    // Seat 2 a bot again, then a restart: the log brings it back.
    let ack = host.command(json!({"type": "seat", "seat": 2, "bot": "heuristic"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let v = ack["version"].as_u64().unwrap();
    host.close().await;
    guest.close().await;
    server.stop().await;
    let server = start(&db, fast()).await;
    let (status, body) = http(server.addr, "GET", &format!("/api/tables/{invite}"), None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(info["seats"][2]["bot"], "heuristic", "{info}");
    assert_eq!(info["seats"][3]["status"], "empty", "{info}");
    let mut host = Client::connect(server.addr).await.unwrap();
    let snap = host.hello(&invite, Some(&host_token)).await.unwrap();
    assert_eq!(snap["version"], v, "the restart continues at the same version");
    // The repeated id is still known after the restart.
    let again = command_id(&mut host, json!({"type": "seat", "seat": 2, "bot": null}), "s-2").await;
    assert_eq!(again["repeated"], true, "{again}");

    // After the start, seats are fixed.
    let ack = host.command(json!({"type": "start", "fill": "random"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    // The start event came before the ack (the table tells everyone, then acks the host).
    assert_eq!(host.table["state"], "playing");
    assert_eq!(host.table["seats"][2]["bot"], "heuristic");
    assert_eq!(host.table["seats"][3]["bot"], "random");
    let r = host.command(json!({"type": "seat", "seat": 3, "bot": null})).await.unwrap();
    assert_eq!(r["code"], "already_started", "{r}");
    server.stop().await;
}

/// A table made with only a name is the default game with free seats; two people take seats 1
/// and 2 with `sit`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_sit_at_a_default_table() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created = create_table(server.addr, &json!({"name": "Ann"})).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    assert_eq!(created["seat"], 0);
    let mut seated = Vec::new();
    for (i, name) in ["Bob", "Cyd"].into_iter().enumerate() {
        let mut c = Client::connect(server.addr).await.unwrap();
        let snap = c.hello(&invite, None).await.unwrap();
        assert_eq!(snap["you"], Value::Null);
        let ack = c.command(json!({"type": "sit", "name": name})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        assert_eq!(ack["seat"], i + 1);
        assert!(ack["token"].as_str().is_some_and(|t| t.len() == 64));
        seated.push(c);
    }
    let (_, body) = http(server.addr, "GET", &format!("/api/tables/{invite}"), None).await.unwrap();
    let info: Value = serde_json::from_str(&body).unwrap();
    let en = Ruleset::preset(Preset::En);
    assert_eq!((info["game"].as_str(), info["preset"].as_str()), (Some("oh7"), Some("en")));
    assert_eq!(info["ruleset"], serde_json::to_value(en).unwrap());
    let players = info["players"].as_u64().unwrap();
    assert!((en.min_players as u64..=en.max_players as u64).contains(&players), "{info}");
    let names: Vec<&Value> = info["seats"].as_array().unwrap().iter().map(|s| &s["name"]).collect();
    assert_eq!(names[..3], [&json!("Ann"), &json!("Bob"), &json!("Cyd")]);
    assert!(info["seats"].as_array().unwrap()[3..].iter().all(|s| s["status"] == "empty" && s["bot"].is_null()));
    server.stop().await;
}

/// Each create error a person can make in the form has its own code and the figures to word it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_errors_have_codes_and_params() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let seven_max = oh7_core::seven::MAX_PLAYERS;
    let cases: Vec<(Value, &str, Option<Value>)> = vec![
        (json!({"preset": "en", "players": 7, "name": "A"}), "bad_players", Some(json!({"min": 2, "max": 4}))),
        (json!({"preset": "bga", "players": 1, "name": "A"}), "bad_players", Some(json!({"min": 2, "max": 9}))),
        (
            json!({"game": "seven", "players": seven_max + 1, "name": "A"}),
            "bad_players",
            Some(json!({"min": oh7_core::seven::MIN_PLAYERS, "max": seven_max})),
        ),
        // Seven's hand size narrows its range: 30 cards each leave room for 3 players.
        (
            json!({"game": "seven", "ruleset": "hand_size = 30", "players": 4, "name": "A"}),
            "bad_players",
            Some(json!({"min": 2, "max": 3})),
        ),
        (json!({"ruleset": "preset = \"en\"\nmax_players = 6", "players": 4, "name": "A"}), "bad_ruleset", None),
        (json!({"ruleset": "colour = 1", "players": 4, "name": "A"}), "bad_ruleset", None),
        (json!({"game": "seven", "ruleset": "hand_size = 60", "players": 2, "name": "A"}), "bad_ruleset", None),
        (json!({"preset": "fr", "options": {"target": "21"}, "players": 4, "name": "A"}), "bad_ruleset", None),
        (json!({"options": {"colour": 1}, "players": 4, "name": "A"}), "bad_ruleset", None),
        (json!({"game": "seven", "options": {"decks": 2}, "players": 4, "name": "A"}), "bad_ruleset", None),
        (
            json!({"ruleset": format!("preset = \"en\"\n{}", "#".repeat(9000)), "players": 4, "name": "A"}),
            "ruleset_too_large",
            Some(json!({"max_bytes": 8192})),
        ),
        (
            json!({"preset": "whist", "players": 4, "name": "A"}),
            "unknown_preset",
            Some(json!({"preset": "whist", "presets": ["en", "fr", "fr-advanced", "kod7", "bga"]})),
        ),
        (
            json!({"game": "seven", "preset": "bga", "players": 4, "name": "A"}),
            "unknown_preset",
            Some(json!({"preset": "bga", "presets": ["seven"]})),
        ),
        (
            json!({"players": 4, "seats": ["human", "human", "grandmaster"], "name": "A"}),
            "unknown_level",
            Some(json!({"level": "grandmaster", "levels": oh7_bots::OH7_LEVELS, "seat": 2})),
        ),
        (json!({"players": 4, "seats": ["expert", "human"], "name": "A"}), "host_seat_bot", None),
        (
            json!({"players": 4, "name": "A", "lang": "de"}),
            "bad_lang",
            Some(json!({"lang": "de", "langs": ["en", "fr"]})),
        ),
        (json!({"players": 4, "name": "A", "turn_clock_s": 5}), "bad_clock", Some(json!({"min": 10, "max": 600}))),
        (json!({"players": 4, "name": "A", "turn_clock_s": 601}), "bad_clock", Some(json!({"min": 10, "max": 600}))),
        (json!({"preset": "en", "ruleset": "preset = \"en\"", "players": 4, "name": "A"}), "preset_and_ruleset", None),
        (json!({"players": 4, "name": " "}), "bad_name", Some(json!({"max": 24}))),
        (json!({"players": 4, "name": "x".repeat(25)}), "bad_name", Some(json!({"max": 24}))),
        (json!({"players": 4}), "bad_name", Some(json!({"max": 24}))),
        // What no form sends stays bad_request.
        (json!({"game": "chess", "players": 4, "name": "A"}), "bad_request", None),
        (json!({"options": {"target": [21]}, "players": 4, "name": "A"}), "malformed", None),
        (json!({"players": 2, "seats": ["human", "human", "human"], "name": "A"}), "bad_request", None),
    ];
    for (req, code, params) in cases {
        let (status, body) = http(server.addr, "POST", "/api/tables", Some(&req.to_string())).await.unwrap();
        assert_eq!(status, 400, "{req}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["code"], code, "{req}: {body}");
        assert!(v["message"].as_str().is_some_and(|m| m.len() > 10), "{body}");
        match params {
            Some(p) => assert_eq!(v["params"], p, "{req}: {body}"),
            None if code == "bad_ruleset" => {
                let detail = v["params"]["detail"].as_str().unwrap_or_default();
                assert!(!detail.is_empty() && v["message"].as_str().unwrap().contains(detail), "{body}");
            }
            None => assert!(v.get("params").is_none(), "{req}: {body}"),
        }
    }
    // The engine's own message is the detail.
    let req = json!({"ruleset": "preset = \"en\"\nmax_players = 6", "players": 4, "name": "A"});
    let (_, body) = http(server.addr, "POST", "/api/tables", Some(&req.to_string())).await.unwrap();
    let v: Value = serde_json::from_str(&body).unwrap();
    let engine = Ruleset::from_toml("preset = \"en\"\nmax_players = 6").unwrap_err().to_string();
    assert_eq!(v["params"]["detail"], engine.as_str());
    server.stop().await;
}

/// `/api/presets` gives every game's player range and rules from the engine's knobs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presets_agree_with_the_engine() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (status, body) = http(server.addr, "GET", "/api/presets", None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["levels"]["oh7"], json!(oh7_bots::OH7_LEVELS));
    assert_eq!(v["levels"]["seven"], json!(oh7_bots::SEVEN_LEVELS));
    assert_eq!(v["strongest"]["oh7"], "expert");
    assert_eq!(v["strongest"]["seven"], json!(oh7_bots::SEVEN_LEVELS.last().unwrap()));
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), Preset::ALL.len() + 1);
    for (entry, p) in games.iter().zip(Preset::ALL) {
        let r = Ruleset::preset(p);
        assert_eq!(entry["game"], "oh7");
        assert_eq!(entry["preset"], p.name());
        assert_eq!(entry["min_players"], r.min_players, "{entry}");
        assert_eq!(entry["max_players"], r.max_players, "{entry}");
        assert_eq!(entry["ruleset"], serde_json::to_value(r).unwrap());
        // The range is what the server accepts: the ends create, one past each end does not.
        for (players, ok) in [
            (r.min_players as usize, true),
            (r.max_players as usize, true),
            (r.min_players as usize - 1, false),
            (r.max_players as usize + 1, false),
        ] {
            let req = json!({"preset": p.name(), "players": players, "name": "A"});
            let (status, body) = http(server.addr, "POST", "/api/tables", Some(&req.to_string())).await.unwrap();
            assert_eq!(status == 201, ok, "{req}: {body}");
        }
    }
    let seven = games.last().unwrap();
    assert_eq!(seven["game"], "seven");
    assert_eq!(seven["preset"], "seven");
    assert_eq!(seven["min_players"], oh7_core::seven::MIN_PLAYERS);
    assert_eq!(seven["max_players"], oh7_core::seven::MAX_PLAYERS);
    assert_eq!(seven["ruleset"], serde_json::to_value(oh7_core::seven::SevenRules::default()).unwrap());
    // A Seven table carries its rules too, and accepts its one preset's name.
    let created = create_table(server.addr, &json!({"game": "seven", "preset": "seven", "players": 3, "name": "A"}))
        .await
        .unwrap();
    let (_, body) =
        http(server.addr, "GET", &format!("/api/tables/{}", created["watch"].as_str().unwrap()), None).await.unwrap();
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(info["ruleset"], seven["ruleset"]);
    // Options over a preset or a ruleset, at this door as at the command line's and Python's
    // (issue 57); Seven's `limit` 0 is a single round.
    for (req, key, want) in [
        (json!({"preset": "fr", "options": {"target": 21}, "players": 4, "name": "A"}), "target", json!(21)),
        (json!({"game": "seven", "options": {"limit": 0}, "players": 3, "name": "A"}), "limit", Value::Null),
        (
            json!({"game": "seven", "ruleset": "hand_size = 5", "options": {"limit": 50}, "players": 3, "name": "A"}),
            "limit",
            json!(50),
        ),
    ] {
        let created = create_table(server.addr, &req).await.unwrap();
        let (_, body) = http(server.addr, "GET", &format!("/api/tables/{}", created["watch"].as_str().unwrap()), None)
            .await
            .unwrap();
        let info: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(info["ruleset"][key], want, "{req}: {info}");
    }
    server.stop().await;
}

/// `/rules` is the table's own rules summary in both languages, from its ruleset and for its
/// player count (a custom ruleset's knobs included), by either code; an unknown code is `404`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_of_a_table_from_its_ruleset() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let get = |code: String| async move {
        let (status, body) = http(server.addr, "GET", &format!("/api/tables/{code}/rules"), None).await.unwrap();
        (status, serde_json::from_str::<Value>(&body).unwrap_or(Value::Null))
    };
    let created = create_table(server.addr, &json!({"preset": "bga", "players": 5, "name": "A"})).await.unwrap();
    let (status, v) = get(created["watch"].as_str().unwrap().to_string()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(get(created["invite"].as_str().unwrap().to_string()).await.1, v, "either code");
    assert_eq!(v["en"]["title"], "Oh-Seven (online rules)");
    assert_eq!(v["fr"]["title"], "Oh-Seven (règles en ligne)");
    let deck = &v["en"]["sections"][0]["items"];
    assert_eq!(deck.as_array().unwrap().len(), 2, "one line for the table's count: {deck}");
    assert!(deck[1].as_str().unwrap().starts_with("5 players: ♠ ♥ ♣ ♦, values 0 to 7, two copies of each"), "{deck}");
    assert!(v["en"]["facts"].as_array().unwrap().contains(&json!("Two decks")), "{v}");

    let custom = "preset = \"en\"\nrounds = 3\n";
    let created = create_table(server.addr, &json!({"ruleset": custom, "players": 2, "name": "A"})).await.unwrap();
    let (_, v) = get(created["watch"].as_str().unwrap().to_string()).await;
    assert_eq!(v["en"]["facts"][0], "At least 3 rounds", "{v}");
    assert_eq!(v["fr"]["facts"][0], "Au moins 3 manches", "{v}");
    assert!(v["en"]["facts"].as_array().unwrap().contains(&json!("With the Dummy")), "{v}");

    let created = create_table(server.addr, &json!({"game": "seven", "players": 3, "name": "A"})).await.unwrap();
    let (_, v) = get(created["watch"].as_str().unwrap().to_string()).await;
    assert!(v["fr"]["title"].as_str().unwrap().starts_with("Seven"), "{v}");
    assert_eq!(get("0".repeat(32)).await.0, 404);
    server.stop().await;
}

/// After a table of bots has played, `/stats` has one game in its history and oh7-stats'
/// figures for each seat, every rate a fraction; before any game ends it is `not_over`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_after_a_table_of_bots() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let waiting = create_table(server.addr, &json!({"name": "A"})).await.unwrap();
    let (status, body) =
        http(server.addr, "GET", &format!("/api/tables/{}/stats", waiting["invite"].as_str().unwrap()), None)
            .await
            .unwrap();
    assert_eq!(status, 404, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["code"], "not_over");
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{}/stats", "0".repeat(32)), None).await.unwrap();
    assert_eq!(status, 404);

    let players = 4;
    let created = create_table(
        server.addr,
        &json!({"preset": "en", "players": players, "seats": ["heuristic", "random", "heuristic", "random"]}),
    )
    .await
    .unwrap();
    let watch = created["watch"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    let mut spectator = Client::connect(server.addr).await.unwrap();
    spectator.hello(watch, None).await.unwrap();
    while spectator.table["state"] != "over" {
        spectator.recv().await.unwrap();
    }
    let (status, body) = http(server.addr, "GET", &format!("/api/tables/{watch}/stats"), None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let (_, by_invite) = http(server.addr, "GET", &format!("/api/tables/{invite}/stats"), None).await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(&by_invite).unwrap(), v, "either code");
    assert_eq!(v["games"], 1);
    let history = v["history"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["game"], 1);
    assert_eq!(history[0]["totals"], spectator.table["totals"]);
    assert_eq!(history[0]["winners"], spectator.table["winners"]);
    assert!(!history[0]["winners"].as_array().unwrap().is_empty());

    let s = &v["stats"];
    let (_, rec) = http(server.addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
    let mut expected = oh7_stats::Stats::new();
    expected.add_line(&rec).unwrap();
    assert_eq!(s["rounds"], expected.oh7.rounds);
    assert!(s["rounds"].as_u64().unwrap() >= 7, "{s}");
    let fraction = |x: &Value| x.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x));
    assert!(fraction(&s["table"]["nil_bid_rate"]), "{s}");
    close(&s["table"]["average_top_bid"], expected.oh7.top_bid.value());
    let trump = s["table"]["trump_selection_rate"].as_object().unwrap();
    let en = Ruleset::preset(Preset::En);
    let suits: Vec<String> = en.suits(players).iter().map(|s| s.letter().to_string()).collect();
    assert_eq!(trump.keys().cloned().collect::<Vec<_>>().len(), suits.len(), "{s}");
    assert!(suits.iter().all(|k| trump.contains_key(k)), "{s}");
    assert!(trump.values().all(fraction), "{s}");
    let sum: f64 = trump.values().map(|x| x.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9, "every round has one trump: {s}");
    let seats = s["players"].as_array().unwrap();
    assert_eq!(seats.len(), players);
    for (i, p) in seats.iter().enumerate() {
        assert_eq!(p["seat"], i);
        for k in ["nil_bid_rate", "top_bid_rate", "success_rate", "overshoot_rate", "shortfall_rate"] {
            assert!(fraction(&p[k]), "seat {i} {k}: {p}");
        }
        let parts = ["success_rate", "overshoot_rate", "shortfall_rate"].map(|k| p[k].as_f64().unwrap());
        assert!((parts.iter().sum::<f64>() - 1.0).abs() < 1e-9, "made, over and under cover every bet: {p}");
        // Equal up to the last bit JSON's decimal form may lose.
        close(&p["points_per_round"], expected.oh7.by_seat[i].points.value());
        close(&p["average_bid"], expected.oh7.by_seat[i].bet.value());
    }
    server.stop().await;
}

/// A raw HTTP/1.1 request with extra headers; the head (lower-case) and the body's bytes
/// (de-chunked).
async fn raw(addr: SocketAddr, path: &str, headers: &str) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let end = out.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP head");
    let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
    let mut rest = &out[end + 4..];
    if !head.contains("transfer-encoding: chunked") {
        return (head, rest.to_vec());
    }
    let mut body = Vec::new();
    loop {
        let line = rest.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..line]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        body.extend_from_slice(&rest[line + 2..line + 2 + size]);
        rest = &rest[line + 2 + size + 2..];
    }
    (head, body)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

/// The page and the API answer gzip when asked, the same bytes once unpacked; without the
/// header they are plain; the WebSocket upgrade is never compressed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_gzipped_when_asked() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for path in ["/", "/api/presets"] {
        let (plain_head, plain) = raw(server.addr, path, "").await;
        assert!(plain_head.starts_with("http/1.1 200"), "{plain_head}");
        assert!(!plain_head.contains("content-encoding"), "{plain_head}");
        let (head, body) = raw(server.addr, path, "Accept-Encoding: gzip\r\n").await;
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("content-encoding: gzip"), "{path}: {head}");
        assert_eq!(body[..2], [0x1f, 0x8b], "{path}: a gzip stream");
        assert!(body.len() < plain.len(), "{path}: {} bytes gzipped, {} plain", body.len(), plain.len());
        assert_eq!(gunzip(&body), plain, "{path}");
    }
    // A browser sends Accept-Encoding with the upgrade too.
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAccept-Encoding: gzip\r\n\r\n",
        server.addr
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        assert_eq!(s.read(&mut b).await.unwrap(), 1, "the upgrade's answer ends");
        head.push(b[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(!head.contains("content-encoding"), "{head}");
    server.stop().await;
}

/// Every finished game stays at the table, not only the last: after a rematch `/stats` has both
/// games, and again after a restart (the table is rebuilt from its log).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_keep_every_game_across_a_rematch_and_a_restart() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let req = json!({"ruleset": "preset = \"en\"\nrounds = 1", "players": 3, "name": "A"});
    let created = create_table(server.addr, &req).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let mut cs = vec![Client::connect(server.addr).await.unwrap()];
    cs[0].hello(&invite, created["token"].as_str()).await.unwrap();
    for name in ["B", "C"] {
        let mut c = Client::connect(server.addr).await.unwrap();
        c.hello(&invite, None).await.unwrap();
        c.command(json!({"type": "sit", "name": name})).await.unwrap();
        cs.push(c);
    }
    for game in 1..=2 {
        let kind = if game == 1 { "start" } else { "rematch" };
        let ack = cs[0].command(json!({"type": kind})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        let mut v = ack["version"].as_u64().unwrap();
        if game == 2 {
            // The others are asked; the game starts once both are in.
            for c in &mut cs[1..] {
                let ack = c.command(json!({"type": "answer", "yes": true})).await.unwrap();
                assert_eq!(ack["type"], "ack", "{ack}");
                v = ack["version"].as_u64().unwrap() + 1;
            }
        }
        loop {
            for c in cs.iter_mut() {
                while c.version < v {
                    c.recv().await.unwrap();
                }
            }
            if cs[0].table["state"] == "over" {
                break;
            }
            let s = (0..cs.len()).find(|&s| !cs[s].legal.is_empty()).expect("someone owes a decision");
            let action = cs[s].legal[cs[s].legal.len() / 2].clone();
            let ack = cs[s].command(json!({"type": "act", "action": action})).await.unwrap();
            assert_eq!(ack["type"], "ack", "{ack}");
            v = ack["version"].as_u64().unwrap();
        }
    }
    let stats = |addr| {
        let invite = invite.clone();
        async move {
            let (status, body) = http(addr, "GET", &format!("/api/tables/{invite}/stats"), None).await.unwrap();
            assert_eq!(status, 200, "{body}");
            serde_json::from_str::<Value>(&body).unwrap()
        }
    };
    let before = stats(server.addr).await;
    assert_eq!(before["games"], 2);
    let numbers: Vec<&Value> = before["history"].as_array().unwrap().iter().map(|h| &h["game"]).collect();
    assert_eq!(numbers, [&json!(1), &json!(2)]);
    assert_eq!(before["history"][1]["totals"], cs[0].table["totals"]);
    assert_eq!(before["stats"]["players"].as_array().unwrap().len(), 3);
    for c in cs {
        c.close().await;
    }
    server.stop().await;
    let server = start(&db, fast()).await;
    assert_eq!(stats(server.addr).await, before, "rebuilt from the log");
    server.stop().await;
}

/// The client's files are revalidated, not downloaded again: each has an ETag, and a request
/// that names it gets `304 Not Modified` with no body; the favicon is served (no 404 per load).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_are_cached_by_etag() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for path in ["/app.js", "/state.js", "/style.css", "/favicon.svg", "/favicon.ico", "/glossary.js"] {
        let (head, body) = raw(server.addr, path, "").await;
        assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
        assert!(!body.is_empty(), "{path}");
        assert!(head.contains("cache-control: no-cache"), "{path}: {head}");
        let tag = head
            .lines()
            .find_map(|l| l.strip_prefix("etag: "))
            .unwrap_or_else(|| panic!("{path} has no etag: {head}"))
            .trim()
            .replacen("w/", "W/", 1);
        let (again, body) = raw(server.addr, path, &format!("If-None-Match: {tag}\r\n")).await;
        assert!(again.starts_with("http/1.1 304"), "{path}: {again}");
        assert!(body.is_empty(), "{path}: a 304 has no body");
        let (other, _) = raw(server.addr, path, "If-None-Match: W/\"0000000000000000\"\r\n").await;
        assert!(other.starts_with("http/1.1 200"), "{path}: a stale tag gets the file: {other}");
    }
    server.stop().await;
}

/// `v` is the number `x`, up to the last bit a decimal round trip may lose.
fn close(v: &Value, x: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - x).abs() <= 1e-12 * x.abs().max(1.0), "{got} vs {x}");
}

/// A tutorial table is dealt at once with its family's prepared deal (the same hand each time),
/// the creator against bots; one that would seat another person is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tutorial_deals_its_prepared_hand_at_once() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for (game, preset, players) in [("oh7", Some("kod7"), 4), ("oh7", Some("en"), 4), ("seven", None, 3)] {
        let mut seats = vec!["human"];
        seats.extend(std::iter::repeat_n(if game == "seven" { "heuristic" } else { "beginner" }, players - 1));
        let req = json!({"game": game, "preset": preset, "players": players, "seats": seats, "name": "Newcomer", "tutorial": true});
        let spec = oh7_core::registry::GameSpec::from_request(&oh7_core::registry::GameRequest {
            game: Some(game),
            preset,
            ..Default::default()
        })
        .unwrap();
        let dealt =
            spec.new_game(players, oh7_table::tutorial::seed(&spec)).unwrap().view_json(Some(0))["hand"].clone();
        for _ in 0..2 {
            let created = create_table(server.addr, &req).await.unwrap();
            let mut c = Client::connect(server.addr).await.unwrap();
            let snap = c.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
            assert_eq!(snap["table"]["state"], "playing", "{snap}");
            assert_eq!(snap["you"], 0);
            assert_eq!(snap["view"]["hand"], dealt, "{game} {preset:?}");
        }
    }
    for bad in [
        json!({"preset": "en", "players": 4, "seats": ["human", "beginner", "human", "beginner"], "name": "A", "tutorial": true}),
        json!({"preset": "en", "players": 4, "seats": ["human", "beginner", "beginner"], "name": "A", "tutorial": true}),
        json!({"preset": "en", "players": 4, "seats": ["beginner", "beginner", "beginner", "beginner"], "tutorial": true}),
    ] {
        let (status, body) = http(server.addr, "POST", "/api/tables", Some(&bad.to_string())).await.unwrap();
        assert_eq!(status, 400, "{body}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["code"], "bad_request", "{body}");
    }
    server.stop().await;
}
