//! Tables played by clients through real servers, whatever happens to the servers (a kill, a
//! clean stop, a restore): the clients reconnect, follow redirects and go on, and a finished
//! game is checked against the game a run without any failure makes.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oh7_core::dyn_game::DynGame;
use oh7_core::oh7::Oh7Game;
use oh7_server::client::{Client, ClientError, create_table, http, strings};
use serde_json::{Value, json};

/// How long a seat looks for a server to play on before the test fails.
const RECONNECT_S: u64 = 60;

/// Players per table.
pub(crate) const PLAYERS: usize = 3;

/// The clients' choice: a function of the version and the legal actions only, so a game is
/// the same whatever happens to the servers.
pub(crate) fn choose(version: u64, legal: &[String]) -> String {
    legal[version as usize % legal.len()].clone()
}

/// Where the clients of one table are.
pub(crate) struct Tab {
    pub invite: String,
    pub watch: String,
    pub tokens: Vec<String>,
    pub clients: Vec<Client>,
    /// The instance the clients are on.
    pub at: SocketAddr,
    /// The version when the game started.
    pub v0: u64,
    /// (version, seat, action) of every acknowledged act.
    pub acked: Vec<(u64, usize, String)>,
    /// Reconnections, and when the first act after the first one was acknowledged.
    pub moves: usize,
    pub broke_at: Option<Instant>,
    pub resumed: Option<Duration>,
    /// `moved` errors answered to an act (a fenced write).
    pub fenced: usize,
    /// When the last act was acknowledged, and the longest wait between two acknowledgements
    /// (the longest pause the table's players saw).
    pub last_ack: Option<Instant>,
    pub longest: Duration,
}

/// Connect seat `s` of `tab` somewhere among `live`, following redirects, until a snapshot.
pub(crate) async fn reconnect(tab: &mut Tab, live: &Mutex<Vec<SocketAddr>>) {
    let deadline = Instant::now() + Duration::from_secs(RECONNECT_S);
    let mut s = 0;
    let mut hops = 0;
    while s < PLAYERS {
        assert!(Instant::now() < deadline, "seat {s} of {} found no instance to play on", tab.invite);
        let mut c = match Client::connect(tab.at).await {
            Ok(c) => c,
            Err(_) => {
                // The instance is gone: another live one.
                let l = live.lock().unwrap().clone();
                hops += 1;
                tab.at = l[hops % l.len()];
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let hello = json!({"type": "hello", "table": tab.invite, "token": tab.tokens[s]});
        if c.send(&hello).await.is_err() {
            continue;
        }
        let answer = loop {
            match c.recv_within(Duration::from_secs(5)).await {
                Ok(v) if ["snapshot", "error", "redirect"].contains(&v["type"].as_str().unwrap_or("")) => {
                    break Some(v);
                }
                Ok(_) => continue,
                Err(_) => break None,
            }
        };
        match answer {
            Some(v) if v["type"] == "snapshot" => {
                tab.clients[s] = c;
                s += 1;
            }
            Some(v) if v["type"] == "redirect" => {
                let url = v["url"].as_str().unwrap();
                tab.at = url.trim_start_matches("http://").parse().unwrap();
                if s > 0 {
                    // The seats already reconnected are on the wrong instance: again, all.
                    s = 0;
                }
            }
            other => {
                // Not ready (the instance is stopping, or the table's owner is unknown yet).
                assert!(
                    other
                        .as_ref()
                        .is_none_or(|v| ["shutting_down", "unknown_table"].contains(&v["code"].as_str().unwrap_or(""))),
                    "{other:?}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    tab.moves += 1;
}

/// Every seat's client up to version `v` (`Err`: a connection broke or the table moved).
pub(crate) async fn sync(tab: &mut Tab, v: u64) -> Result<(), ClientError> {
    for c in tab.clients.iter_mut() {
        while c.version < v {
            let m = c.recv().await?;
            if m["type"] == "redirect" || m["type"] == "closing" {
                return Err(ClientError::Closed);
            }
        }
    }
    Ok(())
}

/// Play `tab` to its end, pausing `pace` between acts, reconnecting whenever a connection
/// breaks or the table moves.
pub(crate) async fn play(mut tab: Tab, live: Arc<Mutex<Vec<SocketAddr>>>, pace: Duration) -> Tab {
    loop {
        if tab.clients.iter().any(|c| c.table["state"] == "over") {
            return tab;
        }
        let top = tab.clients.iter().map(|c| c.version).max().unwrap();
        if sync(&mut tab, top).await.is_err() {
            tab.broke_at.get_or_insert(Instant::now());
            reconnect(&mut tab, &live).await;
            continue;
        }
        let Some(s) = (0..PLAYERS).find(|&s| !tab.clients[s].legal.is_empty()) else {
            // Nobody owes a decision at this version yet: wait for the next message.
            if tab.clients[0].recv().await.is_err() {
                tab.broke_at.get_or_insert(Instant::now());
                reconnect(&mut tab, &live).await;
            }
            continue;
        };
        let c = &mut tab.clients[s];
        let action = choose(c.version, &c.legal);
        match c.command(json!({"type": "act", "action": action})).await {
            Ok(ack) if ack["type"] == "ack" => {
                assert!(ack["repeated"].is_null(), "a fresh id is applied once: {ack}");
                let v = ack["version"].as_u64().unwrap();
                tab.acked.push((v, s, action));
                let now = Instant::now();
                if let Some(last) = tab.last_ack.replace(now) {
                    tab.longest = tab.longest.max(now - last);
                }
                if let Some(at) = tab.broke_at
                    && tab.resumed.is_none()
                {
                    tab.resumed = Some(at.elapsed());
                }
                if sync(&mut tab, v).await.is_err() {
                    tab.broke_at.get_or_insert(Instant::now());
                    reconnect(&mut tab, &live).await;
                }
            }
            Ok(err) if err["code"] == "moved" => {
                tab.fenced += 1;
                tab.broke_at.get_or_insert(Instant::now());
                reconnect(&mut tab, &live).await;
            }
            Ok(err) => panic!("seat {s} of {}: {err}", tab.invite),
            Err(_) => {
                tab.broke_at.get_or_insert(Instant::now());
                reconnect(&mut tab, &live).await;
            }
        }
        tokio::time::sleep(pace).await;
    }
}

/// A table on `addr` with every seat taken by a client, started.
pub(crate) async fn new_table(addr: SocketAddr, preset: &str) -> Tab {
    let created = create_table(addr, &json!({"preset": preset, "players": PLAYERS, "name": "P0"})).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let mut c0 = Client::connect(addr).await.unwrap();
    c0.hello(&invite, created["token"].as_str()).await.unwrap();
    let mut tokens = vec![created["token"].as_str().unwrap().to_string()];
    let mut clients = vec![c0];
    for s in 1..PLAYERS {
        let mut c = Client::connect(addr).await.unwrap();
        c.hello(&invite, None).await.unwrap();
        let ack = c.command(json!({"type": "sit", "name": format!("P{s}")})).await.unwrap();
        tokens.push(ack["token"].as_str().unwrap().to_string());
        clients.push(c);
    }
    let ack = clients[0].command(json!({"type": "start"})).await.unwrap();
    let v0 = ack["version"].as_u64().unwrap();
    let mut tab = Tab {
        invite,
        watch: created["watch"].as_str().unwrap().to_string(),
        tokens,
        clients,
        at: addr,
        v0,
        acked: Vec::new(),
        moves: 0,
        broke_at: None,
        resumed: None,
        fenced: 0,
        last_ack: None,
        longest: Duration::ZERO,
    };
    sync(&mut tab, v0).await.unwrap();
    tab
}

/// The finished table's record from its owner, checked against the game a run without any
/// failure makes from the same seed with the same choices; returns how many acts it has.
pub(crate) async fn check_record(tab: &Tab) -> usize {
    let (status, body) = http(tab.at, "GET", &format!("/api/tables/{}/record", tab.watch), None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let record: Value = serde_json::from_str(&body).unwrap();
    let seed = u64::from_str_radix(record["seed"].as_str().unwrap(), 16).unwrap();
    let rules = serde_json::from_value(record["ruleset"].clone()).unwrap();
    let mut g: Box<dyn DynGame> = Box::new(Oh7Game::new(rules, PLAYERS, seed).unwrap());
    g.set_seat_names(strings(&record["seats"]));
    let mut acts = Vec::new();
    let mut v = tab.v0;
    while !g.is_over() {
        let s = (0..PLAYERS).find(|&s| !g.legal_text(s).is_empty()).expect("a seat owes a decision");
        let action = choose(v, &g.legal_text(s));
        g.apply_text(s, &action).unwrap();
        v += 1;
        acts.push((v, s, action));
    }
    assert_eq!(g.record(), record, "table {}: the record is the one a run without failures makes", tab.invite);
    for a in &tab.acked {
        assert!(acts.contains(a), "table {}: the acknowledged act {a:?} is in the game at its version", tab.invite);
    }
    acts.len()
}

pub(crate) fn quantiles(mut d: Vec<Duration>) -> (Duration, Duration) {
    d.sort();
    (d[d.len() / 2], *d.last().unwrap())
}
