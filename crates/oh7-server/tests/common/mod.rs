//! Helpers of the server's integration tests: a real server on an ephemeral loopback port with a
//! temporary SQLite file, clients that play every seat, and the independent leak check.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use oh7_core::game::{Game, Seat};
use oh7_core::oh7::Oh7Game;
use oh7_core::seven::SevenGame;
use oh7_server::client::{Client, create_table, http};
use oh7_server::{Running, Settings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// A fresh temporary database, removed when this is dropped (keep it alive as long as the
/// server runs): an SQLite file in a temporary directory, or, when `OH7_TEST_STORE=postgres`
/// (with `OH7_PG_URL`: `.ci/run` runs the suite a second time so), a new PostgreSQL database.
pub(crate) struct TempDb {
    _dir: tempfile::TempDir,
    path: PathBuf,
    /// The PostgreSQL database's name and the admin URL that made it.
    pg: Option<(String, String)>,
}

impl Drop for TempDb {
    fn drop(&mut self) {
        if let Some((name, admin)) = self.pg.take() {
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                rt.block_on(async move {
                    use sqlx::Connection;
                    if let Ok(mut c) = sqlx::PgConnection::connect(&admin).await {
                        let _ =
                            sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
                    }
                });
            })
            .join();
        }
    }
}

/// Whether this run puts the servers on PostgreSQL (`OH7_TEST_STORE=postgres`).
pub(crate) fn on_postgres() -> bool {
    std::env::var("OH7_TEST_STORE").is_ok_and(|s| s == "postgres")
}

/// A new empty PostgreSQL database on the server of `OH7_PG_URL`: (its URL, its name).
pub(crate) fn new_pg_db() -> (String, String) {
    let base = std::env::var("OH7_PG_URL").expect("OH7_TEST_STORE=postgres needs OH7_PG_URL");
    let name = format!("oh7_t_{}", &oh7_server::secrets::new_code()[..12]);
    let admin = base.clone();
    let made = name.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            use sqlx::Connection;
            let mut c = sqlx::PgConnection::connect(&admin).await.expect("OH7_PG_URL answers");
            sqlx::query(&format!("CREATE DATABASE {made}")).execute(&mut c).await.unwrap();
        });
    })
    .join()
    .unwrap();
    let cut = base.rfind('/').expect("a database in the URL");
    (format!("{}/{name}", &base[..cut]), name)
}

impl std::ops::Deref for TempDb {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

/// A fresh temporary database.
pub(crate) fn temp_db() -> TempDb {
    let dir = tempfile::Builder::new().prefix("oh7-server-test-").tempdir().expect("a temporary directory");
    if on_postgres() {
        let (url, name) = new_pg_db();
        let admin = std::env::var("OH7_PG_URL").unwrap();
        return TempDb { _dir: dir, path: PathBuf::from(url), pg: Some((name, admin)) };
    }
    let path = dir.path().join("oh7.db");
    TempDb { _dir: dir, path, pg: None }
}

/// Settings for tests: no bot pause, generous limits.
pub(crate) fn fast() -> Settings {
    Settings {
        bot_pause: Duration::ZERO,
        grace: Duration::from_millis(300),
        commands_per_s: 10_000.0,
        burst: 10_000.0,
        max_conns_per_ip: 100_000,
        max_tables_per_ip: 100_000,
        chat_interval: Duration::ZERO,
        ..Settings::default()
    }
}

/// Start a server on `db`.
pub(crate) async fn start(db: &Path, settings: Settings) -> Running {
    // The harness keeps a PostgreSQL test database's URL where an SQLite file's path goes.
    let db: oh7_server::Database = db.to_str().expect("a UTF-8 path or URL").parse().unwrap();
    oh7_server::start("127.0.0.1:0".parse().unwrap(), db, settings, std::future::pending()).await.unwrap()
}

/// Everything a played table left: each client's frames, the tokens, the acts, the record.
pub(crate) struct GameRun {
    /// The table request.
    pub request: Value,
    /// Per seat client: (seat, frames).
    pub seats: Vec<(Seat, Vec<String>)>,
    /// The spectator's frames.
    pub spectator: Vec<String>,
    /// Each seat's token.
    pub tokens: Vec<String>,
    /// (version, seat, action) of every act, from the actors' own acks.
    pub acts: Vec<(u64, Seat, String)>,
    /// The downloaded record.
    pub record: Value,
    /// The spectator code.
    pub watch: String,
}

/// Seat every player with a client, start, and play to the end with random legal actions
/// (seeded), a spectator watching; record every frame.
pub(crate) async fn play_table(addr: SocketAddr, request: Value, seed: u64) -> GameRun {
    let players = request["players"].as_u64().unwrap() as usize;
    let created = create_table(addr, &request).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let watch = created["watch"].as_str().unwrap().to_string();
    let mut tokens = vec![created["token"].as_str().unwrap().to_string()];
    let mut spectator = Client::connect(addr).await.unwrap();
    spectator.frames = Some(Vec::new());
    assert_eq!(spectator.hello(&watch, None).await.unwrap()["type"], "snapshot");
    let spectator = tokio::spawn(async move {
        while spectator.table["state"] != "over" {
            spectator.recv().await.unwrap();
        }
        spectator
    });
    let mut clients = Vec::new();
    let mut host = Client::connect(addr).await.unwrap();
    host.frames = Some(Vec::new());
    let snap = host.hello(&invite, Some(&tokens[0])).await.unwrap();
    assert_eq!(snap["you"], 0);
    clients.push(host);
    for s in 1..players {
        let mut c = Client::connect(addr).await.unwrap();
        c.frames = Some(Vec::new());
        c.hello(&invite, None).await.unwrap();
        let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        assert_eq!(ack["seat"], s);
        tokens.push(ack["token"].as_str().unwrap().to_string());
        clients.push(c);
    }
    let ack = clients[0].command(json!({"type": "start"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let mut tasks = Vec::new();
    for (i, mut c) in clients.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((i as u64 + 1) * 0x9E37));
            let mut acts = Vec::new();
            let mut pending: Option<(String, String)> = None;
            let mut acted_at = 0;
            // What the client knows now (the host's `start` command may have read the first event).
            let mut msg = json!({"type": "event", "legal": c.legal.clone()});
            loop {
                if msg["type"] == "ack"
                    && let Some((_, action)) = pending.take_if(|(id, _)| msg["id"] == id.as_str())
                {
                    acts.push((msg["version"].as_u64().unwrap(), i, action));
                }
                assert_ne!(msg["type"], "error", "seat {i}: {msg}");
                if c.table["state"] == "over" {
                    break;
                }
                // Act on what an event or snapshot just said (an ack comes before the event that
                // shows the change it acknowledges).
                let fresh = msg["type"] == "event" || msg["type"] == "snapshot" || msg["type"] == "presence";
                let legal = c.legal.clone();
                if fresh && pending.is_none() && !legal.is_empty() && c.version > acted_at {
                    acted_at = c.version;
                    let action = legal[rng.random_range(0..legal.len())].clone();
                    let id = c.id();
                    c.send(&json!({"type": "act", "id": id, "action": action})).await.unwrap();
                    pending = Some((id, action));
                }
                msg = match c.recv().await {
                    Ok(m) => m,
                    Err(e) => panic!(
                        "seat {i} at version {} waits ({e}); legal {:?}; pending {pending:?}; view {}",
                        c.version, c.legal, c.view
                    ),
                };
            }
            (i, c.frames.take().unwrap(), acts)
        }));
    }
    let mut seats = Vec::new();
    let mut acts = Vec::new();
    for t in tasks {
        let (i, frames, a) = t.await.unwrap();
        seats.push((i, frames));
        acts.extend(a);
    }
    acts.sort();
    let mut spectator = spectator.await.unwrap();
    let (status, body) = http(addr, "GET", &format!("/api/tables/{watch}/record"), None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let record: Value = serde_json::from_str(&body).unwrap();
    GameRun { request, seats, spectator: spectator.frames.take().unwrap(), tokens, acts, record, watch }
}

/// Collect every string of a JSON value, leaving out the keys that hold finished history
/// (earlier rounds' cards, whose ids are dealt again).
fn strings_of(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings_of(x, out)),
        Value::Object(m) => {
            for (k, x) in m {
                // History (also as a patch's path: `v/past_rounds+`, `v/played/3`).
                let key = k.strip_prefix("v/").unwrap_or(k);
                let key = key.split(['/', '+']).next().unwrap_or(key);
                if key == "past_rounds" || key == "played" || key == "penalty" {
                    continue;
                }
                strings_of(x, out);
            }
        }
        _ => {}
    }
}

fn tokens_of(v: &Value) -> Vec<String> {
    let mut s = Vec::new();
    strings_of(v, &mut s);
    s.iter()
        .flat_map(|x| {
            x.split(|c: char| c.is_whitespace() || c == ':' || c == '!').map(str::to_string).collect::<Vec<_>>()
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// The cards `seat` cannot know at this moment of an Oh 7 game (the others' hands less what
/// was revealed, the Dummy's face-down pile, cards not dealt), as text.
fn oh7_unknown(g: &Oh7Game, seat: Option<Seat>) -> Vec<String> {
    let n = g.players();
    let mut known = oh7_core::CardSet::EMPTY;
    let v0 = g.view(0);
    let played = v0.played();
    let faceup = v0.dummy_faceup();
    for c in played.iter().chain(faceup.iter()) {
        known.insert(c);
    }
    for t in 0..n {
        for c in v0.public_bet_cards(t).iter() {
            known.insert(c);
        }
    }
    if v0.revealed_interrobang().is_some() {
        known.insert(oh7_core::Card::INTERROBANG);
    }
    if let Some(s) = seat {
        let v = g.view(s);
        for c in v.hand().iter() {
            known.insert(c);
        }
        let (passed, _) = v.my_passes();
        for c in passed.iter() {
            known.insert(c);
        }
    }
    g.rules().deck(n).into_iter().filter(|c| !known.contains(*c)).map(|c| c.to_string()).collect()
}

/// The cards `seat` cannot know in a Seven game: the others' hands and the draw pile.
fn seven_unknown(g: &SevenGame, seat: Option<Seat>) -> Vec<String> {
    let mut out = Vec::new();
    for t in 0..g.players() {
        if Some(t) != seat {
            out.extend(g.hand(t).iter().map(|c| c.to_string()));
        }
    }
    out.extend(g.draw_pile_set().iter().map(|c| c.to_string()));
    out
}

#[allow(clippy::large_enum_variant)]
enum Truth {
    Oh7(Oh7Game),
    Seven(SevenGame),
}

impl Truth {
    fn apply(&mut self, seat: Seat, action: &str) {
        match self {
            Truth::Oh7(g) => {
                let a = g.parse_action(seat, action).unwrap();
                g.apply(seat, a).unwrap();
            }
            Truth::Seven(g) => {
                let a = g.parse_action(seat, action).unwrap();
                g.apply(seat, a).unwrap();
            }
        }
    }
    fn unknown(&self, seat: Option<Seat>) -> Vec<String> {
        match self {
            Truth::Oh7(g) => oh7_unknown(g, seat),
            Truth::Seven(g) => seven_unknown(g, seat),
        }
    }
    fn record(&self) -> Value {
        match self {
            Truth::Oh7(g) => g.record(),
            Truth::Seven(g) => g.record(),
        }
    }
}

/// The independent check: rebuild the game from the record's seed and the acts, step by step;
/// at every version, no frame any viewer received may hold a card that viewer cannot know,
/// nor the seed, nor another person's token (a token appears only in its owner's `sit` ack).
/// Returns the number of frames checked.
pub(crate) fn check_leaks(run: &GameRun) -> usize {
    let seed_hex = run.record["seed"].as_str().unwrap().to_string();
    let seed = u64::from_str_radix(&seed_hex, 16).unwrap();
    let seed_texts = [seed_hex.clone(), seed.to_string()];
    let players = run.record["players"].as_u64().unwrap() as usize;
    let names: Vec<String> = oh7_server::client::strings(&run.record["seats"]);
    let mut truth = if run.record["game"] == "seven" {
        let rules = serde_json::from_value(run.record["ruleset"].clone()).unwrap();
        let mut g = SevenGame::new(rules, players, seed).unwrap();
        g.set_seat_names(names).unwrap();
        Truth::Seven(g)
    } else {
        let rules: oh7_core::ruleset::Ruleset = serde_json::from_value(run.record["ruleset"].clone()).unwrap();
        let mut g = Oh7Game::new(rules, players, seed).unwrap();
        g.set_seat_names(names);
        Truth::Oh7(g)
    };
    // Frames of every viewer, by version: (viewer seat, frame text, parsed).
    let mut frames: Vec<(u64, Option<Seat>, usize, &String)> = Vec::new();
    for (seat, fs) in &run.seats {
        for (i, f) in fs.iter().enumerate() {
            let v: Value = serde_json::from_str(f).unwrap();
            frames.push((v["version"].as_u64().unwrap_or(0), Some(*seat), i, f));
        }
    }
    for (i, f) in run.spectator.iter().enumerate() {
        let v: Value = serde_json::from_str(f).unwrap();
        frames.push((v["version"].as_u64().unwrap_or(0), None, i, f));
    }
    frames.sort_by_key(|f| f.0);
    let mut acts = run.acts.iter().peekable();
    let mut checked = 0;
    for (version, viewer, _, text) in &frames {
        while let Some((v, seat, action)) = acts.peek() {
            if v > version {
                break;
            }
            truth.apply(*seat, action);
            acts.next();
        }
        for seed in &seed_texts {
            assert!(!text.contains(seed.as_str()), "the seed reached seat {viewer:?}: {text}");
        }
        for (owner, token) in run.tokens.iter().enumerate() {
            if text.contains(token.as_str()) {
                let v: Value = serde_json::from_str(text).unwrap();
                assert!(
                    *viewer == Some(owner) && v["type"] == "ack" && v["token"] == token.as_str(),
                    "seat {owner}'s token reached {viewer:?}: {text}"
                );
            }
        }
        let mut v: Value = serde_json::from_str(text).unwrap();
        // The actor's own action is its own to know (it may be the last card of a round whose
        // next deal the same frame shows).
        if v["event"]["seat"].as_u64().map(|s| s as Seat) == *viewer
            && let Some(e) = v["event"].as_object_mut()
        {
            e.remove("action");
        }
        // The last trick of the round before is history once a new round is dealt.
        if v["view"]["tricks"].as_array().is_some_and(|t| t.is_empty())
            && let Some(view) = v["view"].as_object_mut()
        {
            view.remove("last_trick");
        }
        // The same in a patch: a new round's empty `tricks` comes with the old round's last trick.
        if let Some(patch) = v["patch"].as_object_mut()
            && (patch.get("v/tricks").is_some_and(|t| t.as_array().is_some_and(|t| t.is_empty()))
                || patch.contains_key("v/tricks-"))
        {
            patch.retain(|path, _| !path.starts_with("v/last_trick"));
        }
        if v["view"].is_null() && v["patch"].is_null() && v["event"]["action"].is_null() {
            checked += 1;
            continue;
        }
        let unknown = truth.unknown(*viewer);
        for tok in tokens_of(&v) {
            assert!(
                !unknown.contains(&tok),
                "frame at version {version} for {viewer:?} holds `{tok}`, which that viewer cannot know: {text}"
            );
        }
        checked += 1;
    }
    assert!(acts.next().is_none(), "acts after the last frame");
    assert_eq!(truth.record(), run.record, "the acts replay to the downloaded record");
    checked
}

/// A second handle on a test database, as the server opens it (SQLite file or PostgreSQL URL),
/// to read or write its rows beside the server.
pub(crate) async fn open_store(db: &Path) -> std::sync::Arc<dyn oh7_server::store::Store> {
    let url = db.to_string_lossy();
    if url.starts_with("postgres://") {
        let lease = Duration::from_secs(15);
        std::sync::Arc::new(oh7_server::pg::PgStore::open(&url, "test-reader", lease).await.unwrap())
    } else {
        std::sync::Arc::new(oh7_server::store::SqliteStore::open(db).await.unwrap())
    }
}
